"""Proofs of verify.claims.sets.proofs_geometry: 004 Lemma 4.5, 004 Lemma 4.8, 004 Sec. 4.1.1 MSE.

For each: VERIFIED with strength "proven" at the default and the quick budget, the record re-checked from its
JSON (recheck_evidence, the path of ``smoothsens audit --recheck-proof``), an edited record rejected, and a
planted false variant (z_L, w_L on the other side of t; z_c without the 1/||beta||; the MSE with 1/(2n^2) replaced
by 1/n^2) that fails to prove and is refuted at a certified point, confirmed independently at that point."""

from __future__ import annotations

import copy
import dataclasses
import json
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

pytest.importorskip("flint")
from verify.claims.registry import CheckContext, Verdict, load_registry  # noqa: E402
from verify.claims.sets import proofs_composed as PC, proofs_geometry as G  # noqa: E402
from verify.claims.sets.proofs import recheck_evidence  # noqa: E402
from verify.proof import symbolic as S  # noqa: E402
from verify.serialise import jsonable  # noqa: E402

DEFAULT, QUICK = CheckContext(budget=1.0), CheckContext(budget=0.1)
registry = pytest.fixture(scope="module", name="registry")(load_registry)


def _parsed(record: dict) -> dict:
    """The record's witnesses as SymPy expressions (from their srepr)."""
    return {k: S._parse(v) for k, v in record["witnesses"].items()}


def _vec(s: str) -> np.ndarray:
    return np.array([float(Fraction(v.strip())) for v in s.strip("()").split(",") if v.strip()])


@pytest.mark.parametrize("cid", G.CLAIMS)
def test_proven_at_both_budgets_rechecks_and_keeps_the_tested_evidence(registry, cid):
    for ctx in (DEFAULT, QUICK):
        res = registry.get(cid).run(ctx)
        assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    ev = json.loads(json.dumps(jsonable(res.evidence)))  # the evidence as written to verdicts.json
    assert ev["proof"]["method"] == "symbolic" and ev["proof"]["claim"] == cid
    assert ev["tested"]["evidence"]  # the tested evidence is kept
    assert ev["domain"].startswith(S.SPECS[cid].domain) and "relies on" in ev["domain"]
    rc = recheck_evidence(ev, claim_id=cid)
    assert rc.ok and rc.n_boxes >= 1, rc.problems


@pytest.mark.parametrize("cid", G.CLAIMS)
def test_cost_of_a_fresh_proof_is_under_one_second(monkeypatch, cid):
    monkeypatch.setattr(PC, "_RECORDS", {})
    S._steps_cached.cache_clear()
    PC.symbolic_record(cid)  # warm-up (imports, SymPy caches)
    monkeypatch.setattr(PC, "_RECORDS", {})
    S._steps_cached.cache_clear()
    _, rc = PC.symbolic_record(cid)
    assert rc.ok


def test_lemma_4_5_states_the_side_of_t_and_the_reused_kde_checks():
    record, _ = PC.symbolic_record("004-Lemma-4.5")
    assert "z_L = t + ||z* - t|| u" in record["domain"] and "the same side of t as x" in record["domain"]
    names = [s["name"] for s in record["steps"]]
    assert any("kde_def8._check_ray_distance" in n for n in names)
    assert any("kde_def8._check_growth_monotone" in n for n in names)
    assert any("Cauchy-Schwarz" in r for r in record["relies_on"])


@pytest.mark.parametrize("cid, key, bad", [
    ("004-Lemma-4.5", "dist2_zx", lambda: (S._L45["c"] + S._L45["rz"]) ** 2),
    ("004-Lemma-4.8", "dist2_zc_x", lambda: 2 * sp.Symbol("c", real=True) ** 2),
    ("004-Sec-4.1.1-mse", "G_upper", lambda: -sp.exp(-2 * S._MSE["eps"] * S._MSE_ZP) / 2),
])
def test_an_edited_record_is_rejected(cid, key, bad):
    record, _ = PC.symbolic_record(cid)
    assert S.recheck_for(record, claim_id=cid).ok
    edited = copy.deepcopy(record)
    edited["witnesses"][key] = sp.srepr(bad())
    assert not S.recheck_for(edited, claim_id=cid).ok
    edited = copy.deepcopy(record)
    edited["domain"] = edited["domain"].replace("all", "some", 1).replace("every", "some", 1)
    assert not S.recheck_for(edited, claim_id=cid).ok


def test_lemma_4_5_on_the_other_side_of_t_fails_and_is_refuted_at_a_certified_point():
    record, _ = PC.symbolic_record("004-Lemma-4.5")
    planted = {"zL": -S._L45["rz"], "wL": -S._L45["rw"]}  # z_L, w_L on the ray from t away from x
    rc = S.recheck(record, printed=planted)
    assert not rc.ok and any(p.startswith("||z_L - x||^2 = (r_z - ||x - t||)^2") for p in rc.problems)
    assert not any(p.startswith("||z_L - t||^2") or p.startswith("||w_L - z_L||^2") for p in rc.problems)  # still true
    cx = PC.certified_counterexample("004-Lemma-4.5", _parsed(record), planted)
    assert cx is not None and cx["certified"] == "ball < 0" and cx["check"].startswith("||z* - x|| - ||z_L - x||")
    t, x, z = (_vec(cx["point"][k]) for k in ("t", "x", "z*"))  # independently, in floats with a wide margin
    u = (x - t) / np.linalg.norm(x - t)
    z_other = t - np.linalg.norm(z - t) * u
    assert np.linalg.norm(z_other - x) > np.linalg.norm(z - x) + 0.1


def test_lemma_4_8_without_the_normalisation_fails_and_is_refuted_at_a_certified_point():
    record, _ = PC.symbolic_record("004-Lemma-4.8")
    c, _a = S._l48_cz_a()
    planted = {"zc": c}  # z_c = x + c beta (||beta|| != 1 at the points)
    rc = S.recheck(record, printed=planted)
    assert not rc.ok and any(p.startswith("<beta, z_c> = <beta, z*>") for p in rc.problems)
    cx = PC.certified_counterexample("004-Lemma-4.8", _parsed(record), planted)
    assert cx is not None
    beta, x, z = (_vec(cx["point"][k]) for k in ("beta", "x", "z*"))
    cc = (z - x) @ beta / np.linalg.norm(beta)
    zc = x + cc * beta
    assert abs(beta @ zc - beta @ z) > 0.1 or np.linalg.norm(zc - x) > np.linalg.norm(z - x) + 0.1


def test_mse_with_one_over_n_squared_fails_and_is_refuted_at_a_certified_point():
    from verify.claims.sets.noise_a_priori_004 import _exact_mse, _printed_mse

    record, _ = PC.symbolic_record("004-Sec-4.1.1-mse")
    planted = {"diag": 1 / S._MSE["n"] ** 2}
    rc = S.recheck(record, printed=planted)
    assert not rc.ok and any(p.startswith("diagonal term") for p in rc.problems)
    cx = PC.certified_counterexample("004-Sec-4.1.1-mse", _parsed(record), planted)
    assert cx is not None and cx["certified"] == "disjoint balls" and cx["check"].startswith("E[(A~ - A)^2]")
    with mpmath.workdps(50):  # the claim's own enumeration (mpmath) at the certified point
        q = lambda s: mpmath.mpf(Fraction(s).numerator) / Fraction(s).denominator  # noqa: E731
        eps, T = q(cx["point"]["eps"]), q(cx["point"]["T"])
        xs = [q(v.strip()) for v in cx["point"]["x"].strip("()").split(",")]
        n = len(xs)
        exact, printed = _exact_mse(xs, T, eps), _printed_mse(xs, T, eps)
        planted_value = printed + sum(mpmath.exp(-eps * abs(v - T)) for v in xs) / (2 * n**2)
        assert abs(exact - printed) < mpmath.mpf(10) ** -40
        assert abs(exact - planted_value) > mpmath.mpf(10) ** -3


def test_a_planted_spec_makes_the_claim_refuted(registry, monkeypatch):
    cid = "004-Sec-4.1.1-mse"
    spec = S.SPECS[cid]
    printed = {**spec.printed_forms(), "diag": 1 / S._MSE["n"] ** 2}
    monkeypatch.setitem(S.SPECS, cid, dataclasses.replace(spec, printed_forms=lambda: dict(printed)))
    monkeypatch.setattr(PC, "_RECORDS", {})
    S._steps_cached.cache_clear()
    try:
        res = registry.get(cid).run(QUICK)
    finally:
        S._steps_cached.cache_clear()
    assert res.verdict is Verdict.REFUTED and res.evidence["certificate"]["certified"] == "disjoint balls"
