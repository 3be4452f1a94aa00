"""``smoothsens audit-impl --kind mechanism`` with relations, one-coordinate databases, vector outputs
and the input search (verify.cli.commands.audit_impl)."""

from __future__ import annotations

import numpy as np
import pytest

from verify.audit.blackbox import audit_blackbox_mechanism
from verify.audit.blackbox.input_search import InputSearch
from verify.audit.blackbox.relations import QueryAnswers
from verify.cli.commands.audit_impl import _mechanism_pair
from verify.cli import main

MECHS = '''
import numpy as np

def clamped_sum(x, rng):
    # sum of records clamped to [0, 1] plus Lap(1): 1-DP under substitute-one and add/remove-one
    a = np.clip(np.atleast_1d(np.asarray(x, dtype=float)), 0.0, 1.0)
    return float(a.sum()) + rng.laplace(scale=1.0)

def hist_half_scale(x, rng):
    a = np.asarray(x, dtype=float)
    return a + rng.laplace(scale=0.5, size=a.shape)
'''


def test_one_coordinate_database_pairs_parse_as_vectors():
    assert _mechanism_pair("[1023.0]:[0.0]") == ([1023.0], [0.0])
    assert _mechanism_pair("1023.0:0.0") == (1023.0, 0.0)
    assert _mechanism_pair("[1,0,1]:[1,0]") == ([1.0, 0.0, 1.0], [1.0, 0.0])
    assert _mechanism_pair("0,1:0,2") == ([0.0, 1.0], [0.0, 2.0])
    with pytest.raises(ValueError, match="unbalanced brackets"):
        _mechanism_pair("[1,2:[3]")


def _run(args, capsys):
    try:
        code = main(["audit-impl", *args])
    except SystemExit as exc:
        code = exc.code
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_cli_add_remove_and_vector_outputs(tmp_path, capsys):
    mod = tmp_path / "mechs_cli_shapes.py"
    mod.write_text(MECHS)
    code, out, _ = _run([f"{mod}:clamped_sum", "--kind", "mechanism", "--eps", "1", "--relation", "add-remove",
                         "--pair=[1,0,1]:[1,0]", "--budget", "10000", "--no-progress"], capsys)
    assert code == 0 and "add/remove-one" in out and "verdict: PASS" in out
    assert "floating point (binary64): check not run" in out
    code, out, err = _run([f"{mod}:clamped_sum", "--kind", "mechanism", "--eps", "1", "--relation", "substitute",
                           "--pair=[1,0,1]:[1,0]", "--budget", "10000", "--no-progress"], capsys)
    assert code == 2 and "sizes 3 and 2 differ" in err
    code, out, _ = _run([f"{mod}:hist_half_scale", "--kind", "mechanism", "--eps", "1", "--relation", "l1",
                         "--pair=[0,0]:[1,0]", "--budget", "10000", "--no-progress"], capsys)
    assert code == 3 and "FAIL" in out and "the output is not one real number" in out


def test_input_search_finds_the_violating_pattern_of_noisy_max_value():
    # noisy max returning the value, Lap(2/eps) on m = 5 answers (StatDP's noisy_max_v1b): the all-above /
    # all-below patterns give loss m eps/2 = 2.5 eps in the left tail; one-above gives about eps/2
    def rnm_value(X, rng):
        A = np.asarray(X, dtype=float)
        return np.max(A + rng.laplace(scale=2.0 / 0.2, size=A.shape), axis=-1)

    rep = audit_blackbox_mechanism(rnm_value, 0.2, relation=QueryAnswers("linf", 1.0), rng=0, budget=80_000,
                                   search=InputSearch(base=[1.0] * 5, candidates=8))
    assert len(rep.pairs_tried) == 8 and "input search" in rep.summary()
    assert rep.violated and rep.eps_lower <= 0.5  # refuted (by the eps or the delta bound), never above the truth
    kept = {tuple(v) for p in rep.pairs for v in (p.x, p.x_prime)}
    assert kept & {(0.0,) * 5, (2.0,) * 5}  # the all-below / all-above pattern
