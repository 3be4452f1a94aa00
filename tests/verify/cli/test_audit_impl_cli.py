"""``smoothsens audit-impl``: end to end on the planted implementations (imported by file path)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from verify.cli import main

HERE = Path(__file__).resolve().parents[1]  # tests/verify, where planted_impls.py lives
PLANTED = str(HERE / "planted_impls.py")
KDE = ["--kind", "bound", "--query", "kde", "--t", "0", "--h", "1", "--gamma", "0.1"]
THR = ["--kind", "bound", "--query", "threshold", "--T", "0", "--tau", "0.5", "--gamma", "1"]


def _run(args, capsys):
    code = main(["audit-impl", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_bound_fault_is_caught_and_written_to_json(tmp_path, capsys):
    js = tmp_path / "r.json"
    code, out, err = _run([f"{PLANTED}:kde_bound_2pct_low", *KDE, "--budget", "3000", "--seed", "1",
                           "--json", str(js)], capsys)
    assert code == 3
    assert "CERTIFIED (2)" in out and "verdict: FAIL" in out
    assert "[audit-impl] certifying" in err  # progress on stderr
    doc = json.loads(js.read_text())
    assert doc["callable"].endswith("planted_impls.py:kde_bound_2pct_low")
    assert doc["passed"] is False and doc["violations"]
    v = doc["violations"][0]
    assert v["certified"] and v["condition"] == 2 and float(v["ratio_mp"]) > 1 + 1e-9
    assert doc["comparison"]["quantiles"]["0"] == pytest.approx(0.98)


def test_cli_bound_correct_passes_and_threshold_edge_bug_fails(capsys):
    code, out, _ = _run([f"{PLANTED}:kde_bound", *KDE, "--budget", "3000", "--no-progress"], capsys)
    assert code == 0 and "verdict: PASS" in out
    code, out, _ = _run([f"{PLANTED}:threshold_bound_edge_bug", *THR, "--budget", "3000", "--no-progress"], capsys)
    assert code == 3 and "CERTIFIED (2)" in out
    code, out, _ = _run([f"{PLANTED}:threshold_bound_raises", *THR, "--budget", "3000", "--no-progress"], capsys)
    assert code == 3 and "raised: ValueError" in out


def test_cli_bound_with_an_importable_module_name_and_an_expression(capsys, monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(HERE))
    code, out, _ = _run(["planted_impls:threshold_bound", *THR, "--budget", "2000", "--no-progress",
                         "--domain=-3:3"], capsys)
    assert code == 0 and "on [-3, 3]" in out
    (tmp_path / "sinbound.py").write_text("def B(x):\n    return 1.0\n")
    code, out, _ = _run([f"{tmp_path / 'sinbound.py'}:B", "--kind", "bound", "--query", "expr", "--expr", "sin(x)",
                         "--gamma", "0.5", "--domain=-4:4", "--budget", "1000", "--no-progress"], capsys)
    assert code == 0 and "expr[sin(x)]" in out


def test_cli_default_bound_audit_uses_the_default_budget(capsys):
    # the < 1 minute target of a default bound audit is measured by benchmarks/bench_audit.py
    code, out, _ = _run([f"{PLANTED}:kde_bound", *KDE, "--no-progress"], capsys)
    assert code == 0
    n_eval = int(re.search(r"(\d+) evaluations of B", out).group(1))
    assert 19_000 <= n_eval <= 20_009  # the default budget, 20 000 evaluations


def test_cli_is_reproducible_from_seed_and_respects_budget(tmp_path, capsys):
    docs = []
    for i, seed in enumerate(("4", "4", "5")):
        js = tmp_path / f"r{i}.json"
        _run([f"{PLANTED}:threshold_bound_edge_bug", *THR, "--budget", "1500", "--seed", seed, "--json", str(js),
              "--no-progress"], capsys)
        d = json.loads(js.read_text())
        d.pop("elapsed_s")
        docs.append(d)
    assert docs[0] == docs[1]
    assert docs[0] != docs[2]
    assert docs[0]["budget"] == 1500 and docs[0]["evaluations"] <= 1500 + 9


def test_cli_sampler(capsys):
    code, out, _ = _run([f"{PLANTED}:laplace_sampler_scale_5pct", "--kind", "sampler", "--distribution", "laplace",
                         "--budget", "50000", "--no-progress"], capsys)
    assert code == 3 and "REJECTED" in out
    code, out, _ = _run([f"{PLANTED}:student_t_sampler", "--kind", "sampler", "--distribution", "student-t",
                         "--nu", "3", "--budget", "50000", "--no-progress"], capsys)
    assert code == 0 and "verdict: PASS" in out


def test_cli_mechanism(tmp_path, capsys):
    js = tmp_path / "m.json"
    code, out, _ = _run([f"{PLANTED}:laplace_gp_half_scale.release", "--kind", "mechanism", "--eps", "1",
                         "--pair", "0:0.5", "--pair", "1:2", "--budget", "40000", "--json", str(js),
                         "--no-progress"], capsys)
    assert code == 3 and "refuted" in out and "exact auditor" in out
    doc = json.loads(js.read_text())
    assert doc["violated"] is True and doc["eps_lower"] > 1.0
    assert doc["exact"]["pairs_max"] == pytest.approx(2.0)
    code, out, _ = _run([f"{PLANTED}:laplace_gp.release", "--kind", "mechanism", "--eps", "1",
                         "--pair=-1:0", "--budget", "40000", "--no-progress"], capsys)
    assert code == 0 and "verdict: PASS" in out


def test_cli_mechanism_exact_certified_violation_is_a_fail(tmp_path, capsys):
    # Laplace with scale 0.97 claimed 1-GP: the sampling bound cannot see a 3% excess at this budget,
    # the exact side certifies loss - eps d = 2 (1/0.97 - 1) = 0.0619 at d = 2 (mpmath 50 digits).
    # A certified violation from either side is a FAIL (exit 3) and the verdict names the certificate.
    js = tmp_path / "m.json"
    code, out, _ = _run([f"{PLANTED}:laplace_gp_scale_97pct.release", "--kind", "mechanism", "--eps", "1",
                         "--pair", "0:2", "--budget", "20000", "--json", str(js), "--no-progress"], capsys)
    assert "certified violation" in out
    verdict = [ln for ln in out.splitlines() if "verdict:" in ln][-1]
    assert "FAIL" in verdict and "certified" in verdict and "exact" in verdict, verdict
    assert code == 3
    doc = json.loads(js.read_text())
    assert doc["violated"] is True and doc["passed"] is False and doc["outcome"] == "violated"


def test_cli_mechanism_uncertified_exact_excess_is_inconclusive(tmp_path, capsys):
    # The same fault with a float density only: the exact side finds the excess but cannot certify it.
    # Neither PASS (exit 0) nor a certified FAIL: INCONCLUSIVE with its own exit status.
    js = tmp_path / "m.json"
    code, out, _ = _run([f"{PLANTED}:laplace_gp_scale_97pct_float_only.release", "--kind", "mechanism", "--eps", "1",
                         "--pair", "0:2", "--budget", "20000", "--json", str(js), "--no-progress"], capsys)
    verdict = [ln for ln in out.splitlines() if "verdict:" in ln][-1]
    assert "INCONCLUSIVE" in verdict and "PASS" not in verdict, verdict
    assert code == 4
    doc = json.loads(js.read_text())
    assert doc["violated"] is False and doc["passed"] is False and doc["outcome"] == "inconclusive"


@pytest.mark.parametrize(
    "args, msg",
    [(["nonexistent_file.py:B", *THR], "cannot import 'nonexistent_file.py': no such file"),
     ([f"{PLANTED}:nope", *THR], "has no attribute 'nope'"),
     ([PLANTED, *THR], "expected MODULE:CALLABLE"),
     (["no_such_module_xyz_123:B", *THR], "cannot import module 'no_such_module_xyz_123'"),
     ([f"{PLANTED}:KDE_T", *THR], "'KDE_T' in .* is not callable"),
     ([f"{PLANTED}:threshold_bound", *THR, "--domain=1:1"], "domain has no points"),
     ([f"{PLANTED}:threshold_bound", *THR, "--domain=1"], "--domain must have the form A:B"),
     ([f"{PLANTED}:threshold_bound", "--kind", "bound", "--query", "threshold", "--T", "0", "--tau", "0.5"],
      "--kind bound needs --gamma"),
     ([f"{PLANTED}:threshold_bound", "--kind", "bound", "--query", "threshold", "--gamma", "1"],
      "--query threshold needs --T, --tau"),
     ([f"{PLANTED}:laplace_gp.release", "--kind", "mechanism", "--eps", "1"], "--kind mechanism needs --pair"),
     ([f"{PLANTED}:laplace_sampler", "--kind", "sampler"], "--kind sampler needs --distribution"),
     ([f"{PLANTED}:threshold_bound", "--kind", "bound", "--query", "expr", "--expr", "sin(x", "--gamma", "1",
       "--domain=-1:1"], r"cannot parse --expr 'sin\(x'"),
     ([f"{PLANTED}:threshold_bound", "--kind", "bound", "--query", "expr", "--expr", "sin(x)", "--gamma", "1"],
      "--query expr needs --domain LO:HI")],
)
def test_cli_bad_input_gives_one_line_and_exit_2(args, msg, capsys):
    code, out, err = _run([*args, "--no-progress"], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("smoothsens audit-impl: error: ")
    assert re.search(msg, lines[0]), lines[0]


def test_cli_wrong_signature_and_broken_module(tmp_path, capsys):
    (tmp_path / "two.py").write_text("def B(x, y):\n    return x\n")
    code, _, err = _run([f"{tmp_path / 'two.py'}:B", *THR, "--no-progress"], capsys)
    assert code == 2 and "B must be callable as B(points); its signature is (x, y)" in err
    (tmp_path / "boom.py").write_text("1 / 0\n")
    code, _, err = _run([f"{tmp_path / 'boom.py'}:B", *THR, "--no-progress"], capsys)
    assert code == 2 and "raised ZeroDivisionError" in err


_SAMPLERS = '''
import numpy as np
from smoothsens_core.distributions import TwoSidedGeometric


def gauss(n, rng):
    return 1.0 + 2.0 * rng.standard_normal(n)


def gauss_wide(n, rng):  # standard deviation 2.1 instead of 2
    return 1.0 + 2.1 * rng.standard_normal(n)


def dlap(n, rng):  # discrete Laplace of scale 20 at loc 3: P(k) ~ exp(-|k - 3| / 20)
    return TwoSidedGeometric(1.0, sensitivity=20.0, loc=3).sample(n, rng)


def dlap_wide(n, rng):  # discrete Laplace of scale 22 instead of 20
    return TwoSidedGeometric(1.0, sensitivity=22.0, loc=3).sample(n, rng)
'''


def test_cli_sampler_gaussian_and_discrete_laplace(tmp_path, capsys):
    mod = tmp_path / "samplers.py"
    mod.write_text(_SAMPLERS)
    gauss = ["--kind", "sampler", "--distribution", "gaussian", "--loc", "1", "--scale", "2", "--budget", "50000",
             "--no-progress"]
    code, out, _ = _run([f"{mod}:gauss", *gauss], capsys)
    assert code == 0 and "verdict: PASS" in out and "Anderson-Darling" in out
    code, out, _ = _run([f"{mod}:gauss_wide", *gauss], capsys)
    assert code == 3 and "REJECTED" in out
    for name in ("geometric", "discrete-laplace"):
        dl = ["--kind", "sampler", "--distribution", name, "--loc", "3", "--scale", "20", "--budget", "50000",
              "--no-progress"]
        code, out, _ = _run([f"{mod}:dlap", *dl], capsys)
        assert code == 0 and "verdict: PASS" in out and "chi-square" in out, out
        assert "two-sided geometric" in out or "TwoSidedGeometric" in out
    code, out, _ = _run([f"{mod}:dlap_wide", *dl], capsys)
    assert code == 3 and "REJECTED" in out


def test_cli_sampler_discrete_laplace_rejects_a_fractional_loc(tmp_path, capsys):
    mod = tmp_path / "samplers.py"
    mod.write_text(_SAMPLERS)
    code, _, err = _run([f"{mod}:dlap", "--kind", "sampler", "--distribution", "discrete-laplace", "--loc", "0.5",
                         "--no-progress"], capsys)
    assert code == 2 and "--loc must be an integer" in err
