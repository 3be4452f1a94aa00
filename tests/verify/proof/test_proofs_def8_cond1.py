"""004 Def. 8 condition (1) for the ramp-profile closed forms (verify/proof/def8_cond1.py):
the obligations are proven and re-checked, the function under proof is the core's (|f(z) - f(x)| -
L(x)|z - x| with soft_threshold / lipschitz_threshold and the tent of the bounded range), the pieces
cover the plane, planted false L are refuted with a certified point, and the claim
004-Def-8-threshold-proof combines (1) and (2) into one re-checkable proof."""

from __future__ import annotations

import copy
from fractions import Fraction as Q

import numpy as np
import pytest

pytest.importorskip("flint")

from verify.claims import CheckContext, Verdict, load_registry  # noqa: E402
from verify.claims.sets import proofs as P  # noqa: E402
from verify.proof import def8_cond1 as C  # noqa: E402
from verify.proof import obligations as O  # noqa: E402
from verify.proof.functions import workprec  # noqa: E402
from verify.proof.prover import prove_le  # noqa: E402
from verify.proof.recheck import recheck  # noqa: E402
from proof_checks import refuted_control  # noqa: E402

COND1 = [C.COND1_BAND, C.COND1_ABOVE, C.COND1B_GE, C.COND1B_GL]
CONTROLS = [C.CONTROL_SHAVE, C.CONTROL_FAR_END]


@pytest.mark.parametrize("ob_id", COND1)
def test_cond1_obligations_are_in_the_catalogue_proven_and_rechecked(ob_id):
    assert ob_id in {ob.id for ob in O.catalogue("test")} and ob_id in {ob.id for ob in O.catalogue("full")}
    res = prove_le(O.build(ob_id))
    assert res.status == "proven", (ob_id, res.reason, res.box)
    assert res.max_bound <= 0
    rc = recheck(res.to_json(), O.build(ob_id), prec=112)
    assert rc.ok, rc.problems
    # the proof covers the whole stated domain, the half-line up to its compactified end u = 2
    dom = O.build(ob_id).domain()
    for i, (lo, hi) in enumerate(dom):
        assert min(b[i][0] for b in res.boxes) == lo and max(b[i][1] for b in res.boxes) == hi


@pytest.mark.parametrize("ob_id", CONTROLS)
def test_planted_false_lipschitz_constants_are_refuted_with_a_certified_point(ob_id):
    refuted_control(ob_id)
    # and through the claim layer: REFUTED (planted control), never VERIFIED
    out = P.check_obligation(ob_id, "test", refuted_rule="R-FALSE", planted=True)
    assert out.verdict is Verdict.REFUTED


def test_a_shave_smaller_than_1e_6_is_still_refuted():
    """The control is not an artefact of its size: L - 1e-9 fails too (at the far band edge the chord
    slope is exactly L)."""
    res = prove_le(C.quotient_objective("above", shave=Q(1, 10**9)))
    assert res.status == "refuted" and Q(res.counterexample["lower"]) > 0


def _u_of_s(s: Q) -> Q:
    """Objective's compact chart of s in [0, inf): u = s (s <= 1), u = 2 - 1/s (s >= 1), z0 = 1."""
    return s if s <= 1 else 2 - 1 / s


def _objective_value(a: Q, c: Q) -> float:
    """F(a, c) * (1 + s) from the proven objective of the piece covering (a, c) (a >= 0, c <= 1)."""
    s = 1 - c
    if a <= 1:
        obj, first = C.quotient_objective("band"), a
    else:
        e = a - 1
        obj, first = C.quotient_objective("above"), e / (1 + e)
    with workprec(128):
        val = obj.evaluate_point([first, _u_of_s(s)])
    return float(val.mid()) * float(1 + s)


def test_the_function_under_proof_is_the_core_threshold_quotient():
    """|f(z) - f(x)| - L(x)|z - x| from the core (soft_threshold, lipschitz_threshold, T = 0, tau = 1:
    a = x + 1/2, c = z + 1/2) equals the objective times (1 + s) at random pairs (a, c) of D."""
    from smoothsens_core.sensitivity import lipschitz_threshold, soft_threshold

    rng = np.random.default_rng(7)
    for _ in range(60):
        a = float(rng.choice([rng.uniform(0, 1), rng.uniform(1, 6), rng.exponential(40) + 1]))
        c = float(rng.choice([rng.uniform(0, 1), rng.uniform(-6, 0), -rng.exponential(40)]))
        a, c = Q(a).limit_denominator(2**20), Q(c).limit_denominator(2**20)
        x, z = float(a) - 0.5, float(c) - 0.5
        core = abs(soft_threshold([z], 0.0, 1.0)[0] - soft_threshold([x], 0.0, 1.0)[0]) \
            - lipschitz_threshold([x], 0.0, 1.0)[0] * abs(z - x)
        assert _objective_value(a, c) == pytest.approx(core, abs=1e-12), (a, c)
        assert core <= 1e-15


def test_the_function_under_proof_is_the_core_tent_quotient_after_scaling():
    """Bounded range (004 App. C.3, tent): s(x) = W - |x - m|, w = W.  For x, z on the same side of the
    peak m (|s(z) - s(x)| = |z - x|), the core's |f(z) - f(x)| - L(x)|z - x| equals the scaled 1-D statement
    at a = s(x)/W, c = s(z)/W (L = ell(a)/W, |z - x| = W |c - a|; mirrored into D when needed)."""
    from smoothsens_core.sensitivity import lipschitz_bounded_range, soft_bounded_range

    l, r, tau = 1.0, 3.0, 0.5
    m, W = 2.0, 1.25
    rng = np.random.default_rng(11)
    for _ in range(40):
        x, z = (m - rng.exponential(3.0, size=2))  # left of the peak: s = W - (m - x) = W + x - m
        core = abs(soft_bounded_range([z], l, r, tau)[0] - soft_bounded_range([x], l, r, tau)[0]) \
            - lipschitz_bounded_range([x], l, r, tau)[0] * abs(z - x)
        a = Q(float((W + x - m) / W)).limit_denominator(2**24)
        c = Q(float((W + z - m) / W)).limit_denominator(2**24)
        if C.mirror_covers(a, c) == "equal":
            assert core == pytest.approx(-lipschitz_bounded_range([x], l, r, tau)[0] * abs(z - x), abs=1e-12)
            continue
        if not (a >= 0 and c <= 1):
            a, c = 1 - a, 1 - c  # R2: the mirror image (clip(1 - y) = 1 - clip(y), dist is symmetric)
        assert _objective_value(a, c) == pytest.approx(core, abs=1e-6), (x, z)


def test_the_pieces_and_the_mirror_cover_the_plane():
    grid = [Q(k, 4) for k in range(-12, 17)]
    seen = {C.mirror_covers(a, c) for a in grid for c in grid}
    assert seen == {"band", "above", "equal"}


@pytest.mark.parametrize("growth", ["exp", "linear"])
def test_dominance_objective_is_the_core_closed_form(growth):
    """g0(d)(L - B*) from the core (ramp_lipschitz, ramp_smooth_sensitivity, w = 1) equals (b)'s objective."""
    from smoothsens_core.growth import growth_exp, growth_linear
    from smoothsens_core.sensitivity._ramp import ramp_lipschitz, ramp_smooth_sensitivity

    gamma = 0.75
    g = growth_exp(gamma) if growth == "exp" else growth_linear(gamma)
    obj = C.dominates_objective(growth, Q(19, 2), (Q(3, 4), Q(3, 4)))
    for b in (0.0, 0.25, 0.5, 1.0, 2.0, 7.5):
        d = np.array([b])
        g0 = np.exp(gamma * b) if growth == "exp" else 1 + gamma * b
        core = g0 * (ramp_lipschitz(d, 1.0, np.inf)[0] - ramp_smooth_sensitivity(d, 1.0, np.inf, g)[0])
        with workprec(128):
            val = float(obj.evaluate_point([Q(b), Q(3, 4)]).mid())
        assert val == pytest.approx(core, abs=1e-12)


def test_unknown_piece_or_growth_raises():
    with pytest.raises(ValueError, match="where must be"):
        C.quotient_objective("below")
    with pytest.raises(ValueError, match="growth must be"):
        C.dominates_objective("quadratic", Q(1), (Q(0), Q(1)))


@pytest.fixture(scope="module")
def claim_result():
    return load_registry().get("004-Def-8-threshold-proof").run(CheckContext(budget=0.2))


def test_def8_threshold_claim_is_proven_and_rechecks_every_part(claim_result):
    res = claim_result
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    ev = res.evidence
    parts = [ob for ob, _ in P_parts()]
    assert ev["rebuild"]["what"] == "all" and [w["obligation"] for w in ev["rebuild"]["parts"]] == parts
    assert set(COND1) <= set(parts) and O.RAMP_GL in parts and O.THR_TANGENT in parts
    assert ev["proof"]["relies_on"] and "symmetry" in ev["proof"]["relies_on"][0]
    rc = P.recheck_evidence(ev, claim_id="004-Def-8-threshold-proof")
    assert rc.ok, rc.problems


def P_parts():
    from verify.claims.sets.proofs_def8 import _def8_threshold_parts

    return _def8_threshold_parts()


def test_def8_threshold_claim_rejects_an_edited_or_missing_part(claim_result):
    ev = claim_result.evidence
    # a bound of a (1) part edited below what F reaches on its box
    bad = copy.deepcopy(dict(ev))
    part = next(p for p in bad["proof"]["parts"] if p["obligation"] == C.COND1_ABOVE)
    part["proof"]["bounds"][0] = str(Q(part["proof"]["bounds"][0]) - 1)
    assert not P.recheck_evidence(bad, claim_id="004-Def-8-threshold-proof").ok
    # a part dropped from the proof
    short = copy.deepcopy(dict(ev))
    short["proof"]["parts"] = short["proof"]["parts"][1:]
    assert not P.recheck_evidence(short, claim_id="004-Def-8-threshold-proof").ok
