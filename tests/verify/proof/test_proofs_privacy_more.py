"""Proofs of verify.claims.sets.proofs_privacy_more: 002 Lemma 9 (every 0 < gamma < eps, with its
tightness) and 000 Lemma 2 (every k > 1, l > 0, eps > 0, m >= 1, corrected beta(eps/m)).

For each: VERIFIED with strength "proven" at the default budget (left out at the quick budget), the record
re-checked from its JSON (recheck_evidence, the path of ``smoothsens audit --recheck-proof``), an edited record
rejected, and planted false variants that fail and are refuted at a certified point where they are false."""

from __future__ import annotations

import copy
import json

import pytest
import sympy as sp

pytest.importorskip("flint")

from verify.claims.registry import CheckContext, Verdict, load_registry  # noqa: E402
from verify.claims.sets import proofs_privacy_more as P  # noqa: E402
from verify.claims.sets.privacy_002 import LEMMA_9_GRID  # noqa: E402
from verify.claims.sets.proofs import recheck_evidence  # noqa: E402
from verify.proof import symbolic as S  # noqa: E402
from verify.serialise import jsonable  # noqa: E402

DEFAULT, QUICK = CheckContext(budget=1.0), CheckContext(budget=0.1)
K, L, EPS, M = S.K_, S.L_, S.EPS_, S.M_


@pytest.fixture(scope="module")
def registry():  # type: ignore[no-untyped-def]
    return load_registry()


@pytest.fixture(scope="module")
def results(registry):  # type: ignore[no-untyped-def]
    return {cid: registry.get(cid).run(DEFAULT) for cid in ("002-Lemma-9", "000-Lemma-2")}


def _json(ev):  # type: ignore[no-untyped-def]
    return json.loads(json.dumps(jsonable(ev)))


@pytest.mark.parametrize("cid", ["002-Lemma-9", "000-Lemma-2"])
def test_proven_and_rechecked(results, cid):  # type: ignore[no-untyped-def]
    res = results[cid]
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    ev = _json(res.evidence)
    assert ev["proof"]["method"] == P.METHOD and ev["proof"]["claim"] == cid
    assert [p["key"] for p in ev["proof"]["parts"]] == [k for k, _ in P.PARTS[cid]]
    assert ev["domain"] == P.DOMAINS[cid] and all(m["inside"] for m in ev["mechanisms"])
    rc = recheck_evidence(ev, claim_id=cid)
    assert rc.ok, rc.problems


def test_lemma_9_every_grid_point_inside(results):  # type: ignore[no-untyped-def]
    rows = _json(results["002-Lemma-9"].evidence)["mechanisms"]
    assert [(r["eps"], r["gamma"]) for r in rows] == [tuple(g) for g in LEMMA_9_GRID]
    assert all(0 < r["gamma"] < r["eps"] and r["calibration_rel_diff"] <= 1e-14 for r in rows)
    assert "tight" in results["002-Lemma-9"].summary


def test_lemma_2_every_audited_mechanism_inside(results):  # type: ignore[no-untyped-def]
    ev = _json(results["000-Lemma-2"].evidence)
    assert len(ev["mechanisms"]) == ev["tested"]["evidence"]["instances"] > 0
    assert all(r["k"] > 1 and r["alpha_rel_diff"] <= 1e-14 for r in ev["mechanisms"])


def test_left_out_at_the_quick_budget(registry):  # type: ignore[no-untyped-def]
    res = registry.get("002-Lemma-9").run(QUICK)
    assert res.verdict is Verdict.VERIFIED and res.strength != "proven" and "proof_left_out" in res.evidence


@pytest.mark.parametrize("cid", ["002-Lemma-9", "000-Lemma-2"])
def test_edited_record_is_rejected(results, cid):  # type: ignore[no-untyped-def]
    ev = _json(results[cid].evidence)
    edits = []
    e1 = copy.deepcopy(ev)
    e1["proof"]["domain"] = e1["proof"]["domain"].replace("eps > 0" if cid == "000-Lemma-2" else "0 < gamma < eps",
                                                          "eps > 1" if cid == "000-Lemma-2" else "0 < gamma <= eps")
    edits.append(e1)
    e2 = copy.deepcopy(ev)  # a witness of the chain replaced
    chain = e2["proof"]["parts"][-1]["proof"]
    key = next(iter(chain["witnesses"]))
    chain["witnesses"][key] = sp.srepr(sp.Integer(2))
    edits.append(e2)
    e3 = copy.deepcopy(ev)  # a part dropped
    e3["proof"]["parts"] = e3["proof"]["parts"][:-1]
    edits.append(e3)
    e4 = copy.deepcopy(ev)  # a mechanism edited
    if cid == "002-Lemma-9":
        e4["proof"]["mechanisms"][0]["eps_proven"] = "0.5"
    else:
        e4["proof"]["mechanisms"][0]["k"] = 1.0
    edits.append(e4)
    for e in edits:
        rc = recheck_evidence(e, claim_id=cid)
        assert not rc.ok and rc.problems


def test_lemma_9_planted_alpha_too_large_is_refuted():
    planted = {"alpha": EPS / S.GAMMA + sp.Rational(1, 10**6)}
    at = P.attempt("002-Lemma-9", planted)
    assert not at["ok"] and any("gamma alpha = eps" in p for p in at["problems"])
    cx = at["certificate"]  # the log-ratio in the far tail exceeds eps: certified by a ball below 0
    assert cx is not None and cx["certified"] == "ball < 0" and cx["point"]["x"] == str(10**12)


def test_lemma_2_planted_beta_of_eps_is_refuted():
    planted = {"beta": EPS / (2 * sp.Max(K - 1, 1))}  # beta(eps) instead of beta(eps/m)
    at = P.attempt("000-Lemma-2", planted)
    assert not at["ok"] and any("beta max(k - 1, 1) <= eps/(2m)" in p for p in at["problems"])
    cx = at["certificate"]  # m = 3, k = 2: the loss at T = f(x) = f(y) is 3/2 > 1 = eps
    assert cx is not None and cx["certified"] == "ball < 0" and cx["check"].startswith("eps - loss")
    assert cx["point"]["m"] == "3"


def test_lemma_2_planted_alpha_too_large_is_refuted():
    planted = {"alpha": S._l2c_printed()["alpha"] + sp.Rational(1, 10**6)}
    at = P.attempt("000-Lemma-2", planted)
    assert not at["ok"] and any("L alpha = eps/2" in p for p in at["problems"])
    cx = at["certificate"]  # the sliding constant L alpha exceeds eps/2
    assert cx is not None and cx["certified"] == "ball < 0" and cx["check"].startswith("eps/2 - L alpha")


def test_lemma_2_printed_beta_fails_for_k_below_2():
    # 000 Thm. 1's printed beta = eps/(2(k-1)) (per eps/m): the step for k in (1, 2] fails (the erratum)
    planted = {"beta": EPS / M / (2 * (K - 1))}
    at = P.attempt("000-Lemma-2", planted)
    assert not at["ok"] and any("k in (1, 2]" in p for p in at["problems"])


def test_sliding_excess_case_analysis_rejects_a_wrong_bound():
    # the case steps are not vacuous: e = |T - b| - |T - a| <= 0 is false for T < a <= b (e = b - a > 0)
    T, p, q = sp.Symbol("T", real=True), S._H11_PP, S._H11_Q
    e = sp.Abs(T - (T + p + q)) - sp.Abs(T - (T + p))
    assert S._check_step(("wrong", "nonneg", sp.expand(0 - e))) is not None
    assert S._check_step(("right", "nonneg", sp.expand(q - e))) is None
