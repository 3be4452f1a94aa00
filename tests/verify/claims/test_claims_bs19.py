"""The concentrated-DP claims after Bun & Steinke (2019)'s families (verify/claims/sets/concentrated_bs19.py).

Reference numbers: the Laplace Rényi divergence in closed form (Mironov 2017, Prop. 6, through
verify.accounting.renyi.renyi_laplace); the Gaussian-shift divergence alpha t^2/(2 sigma^2); the formulas of the
claims evaluated by hand in the test's comments.  The quick checks run at the quick audit's budget 0.1.
"""

from __future__ import annotations

import math

import pytest

import verify.claims.sets.concentrated_bs19 as bs
from verify.accounting.renyi import renyi_laplace
from verify.claims import REGISTRY, CheckContext, Verdict, catalogue

IDS = ["002-BS19-LLN-zcdp", "002-BS19-ULN-zcdp", "002-BS19-arsinh-zcdp", "002-BS19-second-moments",
       "002-BS19-shift-constants", "002-BS19-zcdp-calibration"]


def test_bs19_claims_are_registered_from_their_catalogue_file():
    # importing the module registers its checks (the whole registry is loaded by test_registry_catalogue.py)
    cat = catalogue()
    assert sorted(c for c in cat if c.startswith("002-BS19-")) == sorted(IDS)
    for cid in IDS:
        c = REGISTRY.get(cid)
        assert c.check.__module__ == "verify.claims.sets.concentrated_bs19" and c.statement == cat[cid]["statement"]
        assert "tool's own result" in c.section and "Bun & Steinke 2019" in c.section


def test_closed_forms_of_the_statements():
    # LLN: L = e^(3 sigma^2/2); at sigma = 1, s = 0.5, t = 0.3: eps = 0.3 + 0.5 e^1.5 = 2.5408...
    assert bs.cdp_epsilon("lln", 1.0, 0.5, -0.3) == pytest.approx(0.3 + 0.5 * math.exp(1.5), rel=1e-15)
    # arsinh: (4 + 3)/6 |s| + sqrt(|t| (|t| + 1 + 2)) at sigma = 1
    assert bs.cdp_epsilon("arsinh", 1.0, 0.2, 0.1) == pytest.approx(7 / 6 * 0.2 + math.sqrt(0.1 * 3.1), rel=1e-15)
    # eta* solves eps(eta*, gamma)^2/2 = rho
    for fam in ("lln", "uln", "arsinh"):
        eta = bs.zcdp_eta(fam, 0.8, 0.5, 0.05)
        assert bs.cdp_epsilon(fam, 0.8, eta, 0.05) ** 2 / 2 == pytest.approx(0.5, rel=1e-12)


@pytest.mark.parametrize(("call", "match"), [
    (lambda: bs.zcdp_eta("lln", 1.0, 0.5, 2.0), "gamma must leave room"),
    (lambda: bs.zcdp_eta("lln", 1.0, -0.5, 0.1), "rho must be"),
    (lambda: bs.shift_constant("gauss", 1.0), "family must be one of"),
    (lambda: bs.dilation_term("uln", 0.0, 0.1), "sigma must be"),
])
def test_statement_helpers_reject_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_lln_divergence_quadrature_against_closed_forms():
    # sigma -> 0: LLN -> Laplace(0, 1); D_2 of a shift 0.5 in closed form (Mironov 2017, Prop. 6); the O(sigma^2) gap
    assert bs.lln_divergence(0.01, 2.0, 0.5, 0.0) == pytest.approx(renyi_laplace(2.0, 0.5, 1.0), rel=2e-3)
    # the dilation alone is at most the Gaussian shift t/sigma of Y (data processing): alpha t^2/(2 sigma^2)
    d = bs.lln_divergence(1.0, 4.0, 0.0, 0.3)
    assert 0.0 < d <= 4.0 * 0.09 / 2


def test_a_planted_too_small_shift_constant_is_refuted_with_a_certified_enclosure(monkeypatch):
    # halve the arsinh shift constant: at alpha = 2, s = 1, t = 0, sigma = 1 the certified D_2 (0.58500 by the arb
    # enclosure, rel_tol 1e-7) is above 2 (7/12)^2/2 = 0.3403
    monkeypatch.setattr(bs, "_grid", lambda ctx, sigmas: [(1.0, 2.0, 1.0, 0.0), (1.0, 2.0, 0.25, 0.2)])
    real = bs.shift_constant
    monkeypatch.setattr(bs, "shift_constant", lambda fam, sigma: 0.5 * real(fam, sigma))
    res = bs._renyi_check(CheckContext(budget=0.1), "arsinh", (1.0,))
    assert res.verdict is Verdict.REFUTED and res.rule_id == "R-INVALID"
    cx = res.evidence["counterexample"]
    assert cx["certified"] and cx["D_lower"] > cx["bound"]


def test_arsinh_claim_holds_at_two_points(monkeypatch):
    monkeypatch.setattr(bs, "_grid", lambda ctx, sigmas: [(0.5, 2.0, 0.5, 0.0), (2.0, 8.0, 0.25, -0.2)])
    res = bs._renyi_check(CheckContext(budget=0.1), "arsinh", (0.5, 2.0))
    assert res.verdict is Verdict.VERIFIED, res.summary
    assert all(p["certified"] and p["D_upper"] <= p["bound"] for p in res.evidence["points"])


def test_zcdp_calibration_claim_quick():
    res = REGISTRY.get("002-BS19-zcdp-calibration").run(CheckContext(budget=0.1))
    assert res.verdict is Verdict.VERIFIED, res.summary
    row = res.evidence["rows"][0]
    assert row["family"] == "arsinh" and row["passes"] and row["certified_rho_upper"] <= 0.5
