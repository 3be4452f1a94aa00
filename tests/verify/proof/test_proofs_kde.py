"""004 Def. 8 for the KDE closed form: the chain (i)-(iv) of verify.proof.kde_def8, its
enumerator (step (iv)), planted candidate sets, the record's re-check, and the claim 004-Def-8-KDE-proof."""

from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest

pytest.importorskip("flint")

from verify.claims import CheckContext, Verdict, load_registry  # noqa: E402
from verify.proof import kde_def8 as K  # noqa: E402


@pytest.fixture(scope="module")
def record():
    rec = K.prove()
    assert rec["status"] == "proven", rec["problems"]
    return rec


def test_every_sympy_check_of_the_chain_holds():
    assert K.sympy_checks() == {name: True for name in K._CHECK_FUNS}


@pytest.mark.parametrize("kind", ["exp", "linear"])
def test_enumerator_every_maximiser_is_a_kde_candidate(kind):
    res = K.enumerate_cases(kind)
    assert res["ok"] and not res["missed"]
    assert res["n"] == 72  # 9 existence patterns x every position of c among the landmarks
    # x = t (c = 0) is among the cases, and so is c beyond every root
    assert any(row["case"].startswith("0=c") for row in res["table"])
    assert any(row["case"].endswith("< c < inf; p1=-1, p2=-1") for row in res["table"])


def test_enumerator_finds_the_known_maximisers():
    rows = {row["case"]: row for row in K.enumerate_cases("exp")["table"]}
    # g < 1/a_W, g < -D_min, c = 0: the max is at b1 (D(b1) = g), not at c
    row = rows["0=c < root(D=g) < 1 < root(D=-g) < b_m < root(D=-g) < inf; p1=+1, p2=-1"]
    assert row["maximisers"] == ["('D', 'g', 0)"] and "b1" in row["candidates"]
    # c beyond b3: two local maxima, b2 and c
    row = rows["0 < root(D=g) < 1 < root(D=-g) < b_m < root(D=-g) < c < inf; p1=+1, p2=-1"]
    assert row["maximisers"] == ["('D', '-g', 1)", "c"]
    # g >= 1/a_W and g >= -D_min: F' < 0 right of c and > 0 left of it: c is the only maximiser
    assert all(r["maximisers"] in (["c"], ["0=c"], ["1=c"], ["b_m=c"]) for k, r in rows.items() if "p1=-1, p2=+1" in k)


@pytest.mark.parametrize("kind,drop", [("exp", "b2"), ("exp", "b1"), ("linear", "b2"), ("linear", "b1")])
def test_enumerator_catches_a_dropped_candidate(kind, drop):
    cands = {k: v for k, v in K.KDE_CANDIDATES[kind].items() if k != drop}
    res = K.enumerate_cases(kind, cands)
    assert not res["ok"] and res["missed"]


def test_enumerator_catches_a_reversed_condition():
    point, _ = K.KDE_CANDIDATES["exp"]["b1"]
    wrong = dict(K.KDE_CANDIDATES["exp"], b1=(point, [("exists", point), ("lt", point, "c")]))  # b1 < c
    assert not K.enumerate_cases("exp", wrong)["ok"]
    point, conds = K.KDE_CANDIDATES["linear"]["b2"]
    wrong = dict(K.KDE_CANDIDATES["linear"], b2=(point, conds[:2] + [("lt", "c", point)]))  # c < b2
    assert not K.enumerate_cases("linear", wrong)["ok"]


def test_planted_sets_lose_to_the_dropped_candidate_by_mpmath_and_a_fine_maximisation():
    rows = K.planted_controls(dps=50, grid=60)
    assert len(rows) == 4
    for row in rows:
        assert row["caught"], row
        assert row["argmax_is_dropped"] and row["fine_max_beats_planted"], row
        assert float(row["margin"]) > 1e-3
        assert abs(float(row["refined_max"]) - float(row["F_dropped"])) < 1e-12


@pytest.mark.parametrize("kind,drop", [("exp", "b2"), ("linear", "b2"), ("exp", "b1"), ("linear", "b1")])
def test_the_mpmath_maximum_is_what_kde_py_computes(kind, drop):
    """The controls' F (mpmath, on the explicit curve) and kde.py's float closed form agree at (g, c):
    ln(h B*) = F(dropped candidate) = sup F."""
    from smoothsens_core.growth import growth_exp, growth_linear
    from smoothsens_core.sensitivity import smooth_sensitivity_kde

    row = next(r for r in K.planted_controls(dps=30) if r["kind"] == kind and r["dropped"] == drop)
    g, c, h = float(row["g"]), float(row["c"]), 0.5
    growth = (growth_exp if kind == "exp" else growth_linear)(g / h)
    x = np.array([[c * h, 0.0]])  # d = 2, t = 0: ||x - t||/h = c
    bstar = smooth_sensitivity_kde(x, np.zeros(2), h, growth)[0]
    assert math.log(h * bstar) == pytest.approx(float(row["F_dropped"]), abs=1e-8)


def test_radial_chord_bounds_every_chord_in_the_plane():
    """Step (i) numerically (a test of the statement, not part of the proof): |kappa(w) - kappa(z)|/||w - z||
    <= |k(a) - k(b)|/(h|a - b|) at random pairs in R^2, equality on the ray."""
    rng = np.random.default_rng(3)
    h = 0.7
    k = lambda u: np.exp(-u * u / 2)  # noqa: E731
    for _ in range(200):
        w, z = rng.normal(size=2) * 2, rng.normal(size=2) * 2
        a, b = np.linalg.norm(w) / h, np.linalg.norm(z) / h
        chord = abs(k(a) - k(b)) / np.linalg.norm(w - z)
        assert chord <= abs(k(a) - k(b)) / (h * abs(a - b)) * (1 + 1e-12)
        wr = z / np.linalg.norm(z) * a * h  # the point of radius a on the ray through z
        assert abs(k(a) - k(b)) / np.linalg.norm(wr - z) == pytest.approx(abs(k(a) - k(b)) / (h * abs(a - b)))


def test_record_is_json_and_rechecks(record):
    json.dumps(record)
    assert record["method"] == "kde-def8" and record["domain"] == K.DOMAIN
    assert [st["step"] for st in record["steps"]] == ["(i)", "(ii)", "(iii)", "(iv)"]
    assert record["steps"][3]["obligations"] == ["004-KDE-chord-partner-curve", "004-KDE-shape-g_E",
                                                 "004-KDE-shape-g_L"]
    rc = K.recheck(record, claim_id=K.CLAIM)
    assert rc.ok, rc.problems
    assert rc.n_boxes > 0


def _edit_domain(r):
    r["domain"] = r["domain"].replace("gamma > 0", "gamma >= 0")


def _edit_maximiser(r):
    r["steps"][3]["enumerator"]["exp"]["table"][7]["maximisers"] = ["c"]


def _edit_candidates(r):
    r["steps"][3]["enumerator"]["linear"]["table"][3]["candidates"] = ["1", "b1", "b2", "c"]


def _drop_case(r):
    r["steps"][3]["enumerator"]["exp"]["table"].pop()


def _edit_sympy(r):
    r["steps"][0]["sympy"].pop("ray-distance")


def _edit_relies(r):
    r["relies_on"] = r["relies_on"][1:]


def _edit_obligation(r):
    r["parts"] = r["parts"][:3]


def _edit_bound(r):
    r["parts"][1]["proof"]["bounds"][0] = "-1000"


def _edit_statement(r):
    r["steps"][2]["statement"] += " (and for finite Lambda)"


@pytest.mark.parametrize("edit", [_edit_domain, _edit_maximiser, _edit_candidates, _drop_case, _edit_sympy,
                                  _edit_relies, _edit_obligation, _edit_bound, _edit_statement])
def test_an_edited_record_fails_the_recheck(record, edit):
    r = copy.deepcopy(record)
    edit(r)
    rc = K.recheck(r, claim_id=K.CLAIM)
    assert not rc.ok and rc.problems


def test_the_claim_is_verified_proven_and_rechecks_through_the_method_table():
    from verify.claims.sets.proofs import recheck_evidence

    reg = load_registry()
    c = reg.get("004-Def-8-KDE-proof")
    assert "proof" in c.tags
    res = c.check(CheckContext(seed=1, budget=0.1, dps=30))
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    assert all(row["caught"] for row in res.evidence["planted_controls"])
    rc = recheck_evidence(res.evidence, claim_id="004-Def-8-KDE-proof")
    assert rc.ok, rc.problems


def test_summary_for_the_lead():
    from verify.claims.sets.proofs_kde import summary

    s = summary()
    assert set(s) == {"domain", "steps", "relies_on"}
    assert list(s["steps"]) == ["(i)", "(ii)", "(iii)", "(iv)"]
    assert s["domain"] == K.DOMAIN and any("Lemma 3.1" in x for x in s["relies_on"])
