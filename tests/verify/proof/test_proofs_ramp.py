"""004 Def. 8 for the ramp closed forms, any Lambda (verify.proof.ramp_def8, claim 004-Def-8-ramp-proof)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from verify.claims.registry import CheckContext, Verdict, load_registry
from verify.claims.sets import proofs as P
from verify.claims.sets.proofs_ramp import check_ramp_def8
from verify.proof import ramp_def8 as R


@pytest.fixture(scope="module")
def record():
    return json.loads(json.dumps(R.prove()))


def test_the_claim_is_registered_and_proven_with_a_rechecked_record():
    assert "004-Def-8-ramp-proof" in load_registry()
    res = check_ramp_def8(CheckContext(budget=0.2))
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    ev = json.loads(json.dumps(res.to_json()["evidence"]))
    assert ev["proof"]["method"] == "ramp-def8" and ev["domain"] == R.DOMAIN
    assert ev["tested"]["evidence"]["core_vs_formulas"]["max_rel_err"] <= 1e-12
    rc = P.recheck_evidence(ev, claim_id="004-Def-8-ramp-proof")  # through METHOD_RECHECKERS
    assert rc.ok, rc.problems


def test_every_step_passes_and_the_record_rechecks(record):
    assert record["status"] == "proven"
    assert [st["id"] for st in record["steps"]] == ["ell-is-the-sup", "ell-shape", "growth", "piece-maximisers",
                                                    "case-table", "forms-1d", "two-way-d", "attainment"]
    assert all(st["ok"] and all(st["checks"].values()) for st in record["steps"])
    rc = R.recheck(record, claim_id=R.CLAIM)
    assert rc.ok, rc.problems
    pieces = next(st for st in record["steps"] if st["id"] == "piece-maximisers")["result"]
    assert pieces["finite/g_E/B"] == {"h": pieces["finite/g_E/B"]["h"], "shape": "log-concave",
                                      "stationary": ["Lam-1/gam"]}
    assert pieces["finite/g_L/B"]["shape"] == "monotone" and pieces["finite/g_E/A"]["shape"] == "log-convex"


@pytest.mark.parametrize("edit", ["check", "drop", "domain", "result", "relies_on", "extra"])
def test_an_edited_record_fails_the_recheck(record, edit):
    bad = copy.deepcopy(record)
    if edit == "check":
        st = bad["steps"][1]
        st["checks"]["an extra check"] = True
    elif edit == "drop":
        del bad["steps"][4]
    elif edit == "domain":
        bad["domain"] = bad["domain"].replace("(0, inf]", "[1, inf]")
    elif edit == "result":
        bad["steps"][4]["result"]["n_realisable"] += 1
    elif edit == "relies_on":
        bad["relies_on"] = bad["relies_on"][:-1]
    else:
        bad["steps"].append(dict(bad["steps"][0]))
    rc = R.recheck(bad, claim_id=R.CLAIM)
    assert not rc.ok and rc.problems
    assert not P.recheck_evidence({"proof": bad}, claim_id="004-Def-8-ramp-proof").ok


def test_the_case_table_orderings_are_all_the_realisable_ones():
    """Random reals (d > 0, Lambda > 0, w > 0, gamma > 0) only produce orderings the table realises."""
    realised = set()
    for order in R._weak_orders(list(R.LABELS)):
        if R._realise(order) is not None:
            realised.add(tuple(sorted(order.items())))
    rng = np.random.default_rng(3)
    for _ in range(3000):
        dv, Lv, wv, gv = rng.choice([0.5, 1.0, 2.0, 3.0]), rng.choice([0.5, 1, 2, 3]), rng.choice([0.5, 1, 2, 4]), \
            rng.choice([0.25, 0.5, 1.0, 2.0])
        vals = {"0": 0.0, "d": dv, "Lam-w": Lv - wv, "Lam": Lv, "Lam-1/gam": Lv - 1 / gv}
        levels = sorted(set(vals.values()))
        order = tuple(sorted((k, levels.index(x)) for k, x in vals.items()))
        assert order in realised


@pytest.mark.parametrize("name,failing", [("no-stationary-candidate", {"case-table"}),
                                          ("ell-B-plus-1e-6", {"ell-is-the-sup", "ell-shape", "piece-maximisers"})])
def test_planted_controls_fail_with_a_certified_point(name, failing):
    s = R.controls()[name]
    rec = R.prove(s)
    assert rec["status"] == "failed"
    assert {st["id"] for st in rec["steps"] if not st["ok"]} == failing
    assert not R.recheck(rec, claim_id=R.CLAIM).ok
    cx = R.counterexample(s)
    assert cx is not None and cx["dps"] == 50
    # certify independently: h(e) = ell(e)/g0(d - e) with the planted ell exceeds the formula's candidate max
    with mp.workdps(50):
        dv, wv, Lv, gv = (mp.mpf(Fraction(c).numerator) / Fraction(c).denominator for c in
                          (cx["d"], cx["w"], cx["Lambda"], cx["gamma"]))
        ev = mp.mpf(cx["e"])
        plus = mp.mpf(10) ** -6 if name == "ell-B-plus-1e-6" else 0

        def ell(x):
            if x <= Lv - wv:
                return 1 / (x + wv)
            return (Lv - x) / (wv * Lv) + plus if x <= Lv else mp.mpf(0)

        def g0(z):
            return mp.exp(gv * z) if cx["growth"] == "g_E" else 1 + gv * z

        cands = [0, dv, Lv - wv, Lv] + ([Lv - 1 / gv] if name != "no-stationary-candidate" and cx["growth"] == "g_E"
                                        else [])
        formula = max(ell(min(max(c, 0), dv)) / g0(dv - min(max(c, 0), dv)) for c in cands)
        assert ell(ev) / g0(dv - ev) - formula > mp.mpf(10) ** -20
        assert 0 <= ev <= dv


def test_the_correct_spec_has_no_counterexample():
    assert R.counterexample(R.spec(), n_grid=32) is None


def test_the_core_floats_are_the_proven_formulas():
    cmp = R.compare_core(n=150, seed=11)
    assert cmp["max_rel_err"] <= 1e-12, cmp


def test_the_two_way_cells_are_the_cores_band_distance():
    """The proof's two-way d (two_way.py docstring) against the core's _band_distance at random points."""
    from smoothsens_core.sensitivity.two_way import _band_distance, _geometry

    T1, T2, tau = 0.3, -1.2, 0.7
    R1, R2, c01, c02 = _geometry(T1, T2, tau)
    rng = np.random.default_rng(5)
    p = np.column_stack([c01 + rng.uniform(-3, 2, 4000), c02 + rng.uniform(-3, 2, 4000)])
    q1, q2 = p[:, 0] - c01, p[:, 1] - c02
    D = np.hypot(np.maximum(-q1, 0), np.maximum(-q2, 0))
    want = np.where(D > R2, D - R2, np.where(D < R1, R1 - D + np.maximum(np.minimum(q1, q2), 0), 0.0))
    assert np.allclose(_band_distance(p, T1, T2, tau), want, rtol=0, atol=1e-12)
    # and d is 1-Lipschitz on sampled pairs (the proven property, seen numerically)
    i, j = rng.integers(0, len(p), (2, 4000))
    dd = np.abs(want[i] - want[j]) - np.hypot(*(p[i] - p[j]).T)
    assert dd.max() <= 1e-12


def test_summary_quotes_domain_steps_relies_on():
    s = R.summary()
    assert s["domain"] == R.DOMAIN and len(s["steps"]) == 9 and s["relies_on"] == list(R.RELIES_ON)


def test_attainment_covers_every_form_and_cell(record):
    st = next(q for q in record["steps"] if q["id"] == "attainment")
    res = st["result"]
    fams = [k for k in res if "/" in k]
    assert {k.split("/")[0] for k in fams} == {"one-way", "tent", "trapezoid", "trapezoid-plateau", "two-way"}
    # the two-way rays pass through all 11 cells; every cell has a unit normal with grad d . u = -1
    cells = {seg.split(":")[0] for k in fams if k.startswith("two-way/")
             for seg in res[k]["d>0 side"] + res[k]["band side"]}
    assert cells == {"Q0a", "Q0b", "H1-S1", "H1-band", "H1-S0", "H2-S1", "H2-band", "H2-S0", "Q3-S1", "Q3-band",
                     "Q3-S0"}
    assert set(res["two-way cell normals u(p)"]) == cells
    assert res["two-way/Q0a + H1-S1 (f = 1)"]["d>0 side"] == ["H1-S1: rho = R1*v/(v + 1)", "Q0a: rho = -b/(v + 1)"]


def test_attainment_fails_for_a_wrong_ray():
    """A ray family with a shifted edge (rho_e = tau) or a band side of the wrong length fails its checks."""
    import sympy as sp

    forms = R._ray_forms()
    fm = forms["one-way"]["families"][0]
    tau = sp.Symbol("tau", positive=True)
    orig = R._ray_forms

    def shifted():  # type: ignore[no-untyped-def]
        f = orig()
        f["one-way"]["families"][0] = {**fm, "edge": tau}
        f["tent"]["families"][0]["segments"] = f["tent"]["families"][0]["segments"][:-1] + [
            ("band", sp.Symbol("W", positive=True) / (2 + 2 * sp.Symbol("v", nonnegative=True)), "band")]
        return f

    try:
        R._ray_forms = shifted
        st = R._step_attain()
    finally:
        R._ray_forms = orig
    bad = [k for k, v in st["checks"].items() if not v]
    assert any(k.startswith("one-way/right") and "d+ = sgn (rho - rho_e)" in k for k in bad)
    assert any(k.startswith("tent/right") and "length w" in k for k in bad)
