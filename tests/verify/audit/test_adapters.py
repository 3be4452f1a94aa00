"""Real DP libraries as audit subjects: correct claims pass, eps halved fails, rng use is reported.

Each library's tests are skipped only when the library is not installed (extra ``[libraries]``).
The (eps, delta) rows with delta understated 100x need the black-box (eps, delta) lower bounds and
are exercised by ``smoothsens audit-libraries``, not here."""

from __future__ import annotations

import pytest

from verify.audit.adapters import LIBRARIES, library_subjects
from verify.audit.blackbox import audit_blackbox_mechanism
from verify.cli import main

BUDGET = 6000


def _audit(sub, eps, delta=0.0, budget=BUDGET):
    return audit_blackbox_mechanism(sub.release, eps / sub.unit, "euclidean", pairs=[sub.pair], claimed_delta=delta,
                                    budget=budget, rng=7, Lambda=sub.unit,
                                    density=sub.density if sub.density is not None else False)


@pytest.mark.parametrize("library,ignores_rng", [("opendp", True), ("diffprivlib", False), ("python-dp", True)])
def test_library_pure_mechanisms_pass_and_halved_eps_fails(library, ignores_rng):
    pytest.importorskip(LIBRARIES[library][1])
    subs = [s for s in library_subjects(library) if s.delta == 0]
    assert subs
    for sub in subs:
        ok = _audit(sub, sub.eps)
        assert ok.passed, ok.summary()
        assert ok.rng_use.ignores_rng is ignores_rng
        if ignores_rng:
            assert "ignores the rng" in ok.verdict_text()
        bad = _audit(sub, sub.eps / 2)
        assert bad.violated and bad.sampling_violated, bad.summary()
        if sub.density is not None:
            assert bad.exact_outcome == "violated"


@pytest.mark.parametrize("library", ["opendp", "diffprivlib", "python-dp"])
def test_library_gaussian_correct_claim_passes(library):
    pytest.importorskip(LIBRARIES[library][1])
    subs = [s for s in library_subjects(library) if s.delta > 0]
    assert len(subs) == 1
    rep = _audit(subs[0], subs[0].eps, subs[0].delta, budget=2000)
    assert rep.passed, rep.summary()


def test_library_subjects_rejects_unknown_library():
    with pytest.raises(ValueError, match="library must be one of"):
        library_subjects("tensorflow-privacy")


@pytest.mark.long
def test_cli_audit_libraries_markdown_row(capsys):
    pytest.importorskip("diffprivlib")
    status = main(["audit-libraries", "--library", "diffprivlib", "--budget", "2000", "--markdown", "--no-progress"])
    out = capsys.readouterr().out
    assert ("| library | mechanism | claimed (eps, delta) | expected | verdict | eps lower bound | delta lower bound "
            "| exact side | rng | time |") in out
    assert "| diffprivlib | Laplace | (0.5, 0) | FAIL | FAIL |" in out
    # the Gaussian's wrong claims: eps halved and delta understated 100x, both caught (the exact side
    # certifies delta/100 from the density x + sigma Z with diffprivlib's own sigma)
    assert "| diffprivlib | GaussianAnalytic | (0.5, 1e-05) | FAIL | FAIL |" in out
    assert "| diffprivlib | GaussianAnalytic | (1, 1e-07) | FAIL | FAIL |" in out
    assert "NOT as expected" not in out
    assert status == 0
