"""Interval proofs of 004 Def. 8 (g_L, ramp profile) and of printed numbers: proven and
re-checked, attached to their claims, planted controls refuted with a certificate."""

from __future__ import annotations

import copy
import math
from fractions import Fraction as Q

import numpy as np
import pytest

pytest.importorskip("flint")

from verify.claims import CheckContext, Verdict, load_registry  # noqa: E402
from verify.claims.sets import proofs as P  # noqa: E402
from verify.proof import obligations as O  # noqa: E402
from verify.proof.functions import workprec  # noqa: E402
from verify.proof.prover import prove_le  # noqa: E402
from verify.proof.recheck import recheck  # noqa: E402
from proof_checks import refuted_control  # noqa: E402

NEW = [O.RAMP_GL, O.REMARK_35, O.INEQ5]
CONTROLS = ["control-ramp-Def-8-g_L-bound-minus-1e-6", "control-Remark-3.5-lemma-3.5-minus-1e-6",
            "control-Ineq-5-example-plus-1e-6"]


@pytest.mark.parametrize("ob_id", NEW)
def test_new_obligations_are_proven_and_rechecked_on_a_fresh_objective(ob_id):
    res = prove_le(O.build(ob_id))
    assert res.status == "proven", (ob_id, res.reason, res.box)
    assert res.max_bound <= 0
    rc = recheck(res.to_json(), O.build(ob_id), prec=112)
    assert rc.ok, rc.problems


@pytest.mark.parametrize("ob_id", CONTROLS)
def test_planted_controls_are_refuted_with_a_certified_point(ob_id):
    refuted_control(ob_id)


def test_ramp_g_l_obligation_covers_the_half_line_and_the_switch_of_pieces():
    obj = O.build(O.RAMP_GL)
    assert obj.domain()[0] == (Q(0), Q(2))  # d/w in [0, inf) compactified
    res = prove_le(obj)
    us = [b[0] for b in res.boxes]
    assert min(lo for lo, _ in us) == 0 and max(hi for _, hi in us) == 2
    gs = [b[1] for b in res.boxes]
    assert min(lo for lo, _ in gs) == 0 and max(hi for _, hi in gs) == O.RAMP_GL_GMAX


def test_ramp_g_l_statement_matches_the_core_closed_form():
    """What the obligation proves is what the core computes: B*(x) of the bounded range and the
    threshold with g_L satisfy B(x) <= (1 + gamma|x - x'|) B(x') at random pairs (float, 1e-12)."""
    from smoothsens_core.growth import growth_linear
    from smoothsens_core.sensitivity import smooth_sensitivity_bounded_range, smooth_sensitivity_threshold

    rng = np.random.default_rng(7)
    for _ in range(20):
        gamma = float(rng.uniform(0.01, 5.0))
        g = growth_linear(gamma)
        x = rng.uniform(-8, 8, 400)
        xp = x + rng.normal(size=400) * rng.choice([1e-3, 0.1, 1.0, 5.0], size=400)
        for f in (lambda u: smooth_sensitivity_bounded_range(u, -1.0, 0.5, 0.3, g),
                  lambda u: smooth_sensitivity_threshold(u, 0.2, 0.7, g)):
            b, bp = f(x), f(xp)
            assert np.all(b <= (1 + gamma * np.abs(x - xp)) * bp * (1 + 1e-12))


def test_local_exponential_form_is_not_the_g_l_condition():
    """The reason for the g_L obligation: with g_L = 1 + gamma d the local condition |(ln B)'| <=
    gamma holds for B = e^{-gamma d} but B(0) <= (1 + gamma d) B(d) fails for large d."""
    gamma, d = 1.0, 3.0
    assert 1.0 > (1 + gamma * d) * math.exp(-gamma * d)


def test_a_discontinuous_piecewise_gets_no_mean_value_form_of_the_whole():
    """Soundness: the mean-value form of a Piecewise with a jump (SymPy differentiates branchwise)
    would bound F on a box by the branch at its centre; the planted Remark control has its false
    branch off the centre of the selector box, so the box's upper bound must stay above 0."""
    obj = next(o for o in O.controls() if o.id == "control-Remark-3.5-lemma-3.5-minus-1e-6").build()
    with workprec(128):
        v = obj.evaluate(obj.domain(), upper_only=True)
    assert v > 0


def test_a_point_variable_cannot_be_widened():
    obj = O.build(O.INEQ5)
    box = obj.domain()
    box[0] = (Q(1, 10**4), Q(2, 10**4))
    with workprec(64), pytest.raises(ValueError, match="point of the domain"):
        obj.evaluate(box)


@pytest.fixture(scope="module")
def registry():
    return load_registry()


@pytest.mark.parametrize("cid", ["003-Ineq-5-example", "004-Remark-3.5-example", "004-Def-8-ramp-g_L-proof"])
def test_claims_are_proven_and_their_json_rechecks(registry, cid):
    res = registry.get(cid).run(CheckContext(budget=0.2))
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    ev = res.evidence
    assert ev["rebuild"]["what"] == "obligation" and ev["domain"]
    rc = P.recheck_evidence(ev, claim_id=cid)
    assert rc.ok, rc.problems
    if cid != "004-Def-8-ramp-g_L-proof":  # attached proofs keep the test's evidence
        assert "tested" in ev and ev["proof"]["method"] == "interval"
    # an edited bound (below what F reaches on its box) is rejected
    bad = copy.deepcopy(dict(ev))
    bad["proof"]["bounds"][0] = str(Q(bad["proof"]["bounds"][0]) - 1)
    assert _rejected(bad, cid)
    # a proof moved to another obligation is rejected (another domain)
    moved = copy.deepcopy(dict(ev))
    moved["rebuild"]["obligation"] = O.INEQ5 if cid != "003-Ineq-5-example" else O.REMARK_35
    assert _rejected(moved, cid)


def _rejected(ev, cid) -> bool:
    """As ``smoothsens audit --recheck-proof`` judges it: a ValueError is a malformed (rejected) proof."""
    try:
        return not P.recheck_evidence(ev, claim_id=cid).ok
    except ValueError:
        return True


# --- KDE chord-partner curve (explicit parameter) and shape lemmas -----------------------------
def test_kde_curve_matches_the_package_partner_and_D():
    import numpy as np
    from flint import arb, arb_series

    from smoothsens_core.sensitivity.kde import _log_slope, kde_chord_partner
    from verify.proof import obligations as O

    for side, v in (("pos", 0.5), ("pos", 2.0), ("neg", 0.7), ("neg", 5.0)):
        a, b, D = (float(x.coeffs()[0].mid()) for x in O.kde_curve(arb_series([arb(v), 1], prec=2), side))
        assert abs(kde_chord_partner([b])[0] - a) < 1e-12
        assert abs(float(_log_slope(np.array([b]))[0]) - D) < 1e-12


def test_kde_shape_lemmas_proven_rechecked_and_tamper_rejected():
    from verify.proof import obligations as O
    from verify.proof.prover import prove_le
    from verify.proof.recheck import recheck

    for which in ("curve", "gE", "gL"):
        res = prove_le(O.build(O.KDE_SHAPE[which]))
        assert res.status == "proven"
        assert recheck(res, O.build(O.KDE_SHAPE[which])).ok
        data = res.to_json()
        data["boxes"] = data["boxes"][1:]
        data["bounds"] = data["bounds"][1:]
        assert not recheck(data, O.build(O.KDE_SHAPE[which])).ok


def test_kde_controls_refuted_with_certificates():
    from verify.proof import obligations as O
    from verify.proof.prover import prove_le

    for ob in O.controls():
        if "KDE" in ob.id:
            res = prove_le(ob.build())
            assert res.status == "refuted" and res.counterexample["lower"]


# --- KDE tail b >= b(64): compactified chart u = 1/sqrt(L), e^{-L} = eta u^4 a bounded remainder -----------
def _curve_quantities_at(L):
    """(r, b_L, D_L, D, E_P) on the curve at L from kde_curve's chart L (arb_series, exact derivatives)."""
    from flint import arb, arb_series

    a, b, D = O.kde_curve(arb_series([arb(L), 1], prec=3), "neg")
    r = (2 * (arb(L) - 1 + (-arb(L)).exp())).sqrt()
    bL, DL, D0 = b.coeffs()[1], D.coeffs()[1], D.coeffs()[0]
    return r, bL, DL, D0, D0 * D0 * bL + DL


@pytest.mark.parametrize("L", [64, 100, 400, 2500])
def test_kde_tail_forms_equal_the_rescaled_curve_quantities(L):
    """The compact forms R(u, eta) at u = 1/sqrt(L), eta = e^{-L} L^2 are r^k times the quantities of
    kde_curve (series derivatives in the chart L), to 1e-12 (arb balls at 53 bits)."""
    from flint import arb, arb_series

    from verify.proof import kde_tail as K

    forms = K.tail_forms()
    r, bL, DL, D, EP = _curve_quantities_at(L)
    u = arb_series([1 / arb(L).sqrt(), 1], prec=2)
    eta = (-arb(L)).exp() * L * L
    for key, ref in (("bL", r * bL), ("DL", r ** 3 * DL), ("D", r * D), ("EP", r ** 3 * EP)):
        got = K._series_fn(forms[key])(u, eta).coeffs()[0]
        assert abs(float((got - ref).mid())) < 1e-12, (key, L, got, ref)


def test_kde_tail_limits_and_the_symbolic_identity_check():
    """At b = inf (u = eta = 0): r b_L = 1, r^3 D_L = 1, r D = -1, r^3 E_P = 2 (a ~ 1/sqrt(2L),
    b ~ sqrt(2L)).  The SymPy identity check rejects a form with its remainder dropped (E r^4/q^2
    in r^3 D_L) or a wrong power of r."""
    import sympy as sp

    from verify.proof import kde_tail as K

    assert K.tail_forms()["limits"] == {"bL": 1, "DL": 1, "D": -1, "EP": 2, "H": 1}
    R = K.rescaled_forms()
    assert all(K.identity_holds(k, R[k]) for k in ("bL", "DL", "D"))
    q = 1 - K.E_SYM
    assert not K.identity_holds("DL", q**2)  # the remainder -E r^4/q^2 dropped
    assert not K.identity_holds("bL", R["bL"] * sp.sqrt(2 * (K.L_SYM - 1 + K.E_SYM)))  # r^2 b_L, not r b_L
    # eta covers e^{-L} L^2 on the whole tail: its maximum on L >= 64 is at L = 64
    top = K.eta_max()
    assert top.lower() <= 0 and top.upper() >= 64**2 * math.exp(-64) and top.upper() < 1e-24


@pytest.mark.parametrize("which", ["curve", "gE", "gL"])
def test_kde_tail_is_part_of_the_shape_objective_and_proven_up_to_b_infinity(which):
    from verify.proof import kde_tail as K
    from verify.proof.functions import SeriesObjective

    obj = O.build(O.KDE_SHAPE[which])
    tails = [p for p in obj.describe()["pieces"] if p[2].startswith("tail_")]
    assert tails and all(p[:2] == ["0", str(K.TAIL_U)] for p in tails)
    # the tail pieces alone: proven on [0, 1/8], u = 0 (b = inf) included in a proven box
    alone = SeriesObjective(K.tail_pieces(which), order=obj.order)
    res = prove_le(alone)
    assert res.status == "proven", res.reason
    assert min(b[0][0] for b in res.boxes) == 0 and max(b[0][1] for b in res.boxes) == K.TAIL_U


@pytest.mark.parametrize("which", ["curve", "gE", "gL"])
def test_kde_tail_planted_margin_is_refuted_at_a_point_of_the_curve(which):
    """The tail's sign with a 1e-6 margin (b_L >= 1e-6, D <= -1e-6, E_P >= 1e-6 for L in [64, 2^60])
    is refuted at a certified point u > 0, and kde_curve (chart L, an independent evaluation) confirms
    the margin fails there."""
    from flint import arb

    cx = refuted_control(f"control-KDE-tail-{which}-margin-1e-6").counterexample
    u = Q(cx["point"][0])
    assert u > 0
    L = 1 / (u * u)  # exact rational
    r, bL, DL, D, EP = _curve_quantities_at(arb(L.numerator) / L.denominator)
    m = arb(1) / 10**6
    margin_fails = {"curve": bL < m, "gE": D > -m, "gL": EP < m}[which]
    assert margin_fails


# --- KDE step (ii): chord >= tangent, H = alpha - b (1 + s) >= 0 on the curve -----------------------------
def test_kde_chord_tangent_equivalence_against_the_core_partner():
    """On the curve, ell(b) - |k'(b)| = e^{-alpha^2/2} (alpha - b (1 + s)), s = alpha (alpha - b): checked with
    kde.py's certified partner (relative 1e-10) at 400 radii in [0, 40]; the chord equals alpha e^{-alpha^2/2}
    (stationarity), and H > 0 away from b = 1 (float; the rigorous statement is the obligation's)."""
    from smoothsens_core.sensitivity.kde import kde_chord_partner

    b = np.concatenate([np.linspace(0.0, 0.95, 150), np.linspace(1.05, 40.0, 250)])
    a = kde_chord_partner(b)
    s = a * (a - b)
    k = lambda u: np.exp(-0.5 * u * u)  # noqa: E731
    chord = (k(b) - k(a)) / (a - b)
    assert np.allclose(chord, a * k(a), rtol=1e-9, atol=0)
    H = a - b * (1 + s)
    assert np.allclose(chord - b * k(b), k(a) * H, rtol=1e-6, atol=1e-15)
    assert np.all(H > 0) and np.all(chord > b * k(b))


def test_kde_chord_tangent_identities_and_the_tail_form():
    import sympy as sp

    from verify.proof import kde_tail as K

    assert O.kde_chord_tangent_identities() == {"tangent": True, "H": True, "U": True}
    R = K.rescaled_forms()
    assert K.identity_holds("H", R["H"])
    q = 1 - K.E_SYM
    assert not K.identity_holds("H", q**2)  # the remainder -E r^2 dropped
    assert K.tail_forms()["H"] == sp.expand(1 - 2 * K.ETA * K.U**2 - K.ETA**2 * K.U**8)


def test_kde_chord_slope_boundary_facts():
    """a -> 0: g(a) = (k(b) - k(a))/(a - b) has g'(0) = (1 - e^{-b^2/2})/b^2 > 0 (k'(0) = 0), so the
    sup over a is not at a = 0; a -> inf: g -> 0 while g > 0.  (SymPy, exact.)"""
    import sympy as sp

    a, b = sp.symbols("a b", positive=True)
    k = lambda u: sp.exp(-u**2 / 2)  # noqa: E731
    g = (k(b) - k(a)) / (a - b)
    assert sp.simplify(sp.diff(g, a).subs(a, 0) - (1 - sp.exp(-b**2 / 2)) / b**2) == 0
    assert sp.limit(g, a, sp.oo) == 0


def test_kde_chord_tangent_proven_rechecked_and_tamper_rejected():
    res = prove_le(O.build(O.KDE_CHORD_TANGENT))
    assert res.status == "proven", res.reason
    assert res.max_bound < 0
    assert recheck(res, O.build(O.KDE_CHORD_TANGENT), prec=128).ok
    # the three charts are all there, the tail reaching u = 0 (b = inf)
    names = {p[2] for p in O.build(O.KDE_CHORD_TANGENT).describe()["pieces"]}
    assert {"chord_tangent_series_pos", "chord_tangent_direct_pos", "chord_tangent_series_neg",
            "chord_tangent_direct_neg", "tail_neg_H", "b_end"} <= names
    data = res.to_json()
    data["boxes"], data["bounds"] = data["boxes"][1:], data["bounds"][1:]
    assert not recheck(data, O.build(O.KDE_CHORD_TANGENT)).ok


def test_kde_chord_tangent_planted_margin_is_refuted_near_b_1():
    """The unscaled H >= 1e-6 on L in [2^-10, 64] is refuted at a certified point with L > 0 (b != 1),
    and kde_curve at that point (an independent evaluation, 200 bits) confirms H < 1e-6 there."""
    from flint import arb, arb_series

    cx = refuted_control("control-KDE-chord-tangent-margin-1e-6").counterexample
    L = Q(cx["point"][0])
    assert L >= Q(1, 2**10)
    with workprec(200):
        La = arb(L.numerator) / L.denominator
        a, b, _ = O.kde_curve(arb_series([La, 1], prec=2), "neg")
        a, b = a.coeffs()[0], b.coeffs()[0]
        H = a - b * (-La).exp()
        assert H < arb(1) / 10**6 and H > 0 and b > 1


@pytest.mark.parametrize("cid", ["004-KDE-chord-tangent-proof", "004-KDE-constants-proof"])
def test_kde_step_claims_are_proven_and_recheck(registry, cid):
    res = registry.get(cid).run(CheckContext(budget=0.2))
    assert res.verdict is Verdict.VERIFIED and res.strength == "proven", res.summary
    rc = P.recheck_evidence(res.evidence, claim_id=cid)
    assert rc.ok, rc.problems
    bad = copy.deepcopy(dict(res.evidence))
    leaf = bad["proof"]["parts"][1]["proof"] if "parts" in bad["proof"] else bad["proof"]
    leaf["bounds"][0] = str(Q(leaf["bounds"][0]) - 1)
    assert _rejected(bad, cid)


# --- KDE step (v): the universal constants of kde.py enclosed --------------------------------------------
def _mp_D(b, mp):
    """D(b) = 1/alpha - b with alpha the root of chi(a, b) = 1 + a(a - b) - e^{(a^2 - b^2)/2} in (0, 1)
    (b > 1), by mpmath's findroot (an independent reference: no curve parametrisation)."""
    a = mp.findroot(lambda x: 1 + x * (x - b) - mp.exp((x * x - b * b) / 2), (mp.mpf("0.05"), mp.mpf("0.999")),
                    solver="anderson")
    return 1 / a - b


def test_kde_constant_enclosures_contain_the_mpmath_references():
    """a_W from Lambert W (kde.py's docstring), b_m and b_P as zeros of mpmath's numerical derivative of
    D and P = b - 1/D (30 digits): each inside its proven enclosure, whose width is <= 1e-12."""
    import mpmath

    from verify.proof import kde_constants as C

    with mpmath.workdps(30):
        mp = mpmath.mp
        aw = mp.sqrt(-2 * mp.lambertw(-mp.exp(-0.5) / 2, -1).real - 1)
        w = C.locate_a_w()
        assert w["aw_lo"] <= Q(str(aw)) <= w["aw_hi"] and w["aw_hi"] - w["aw_lo"] <= C.B_WIDTH
        for kind, V, x0 in (("D", lambda b: _mp_D(b, mp), 2.5), ("P", lambda b: b - 1 / _mp_D(b, mp), 2.1)):
            bm = mp.findroot(lambda b: mp.diff(V, b), x0)
            t = C.locate_turn(kind)
            assert abs(Q(str(bm)) - (t["b_lo"] + t["b_hi"]) / 2) < Q(1, 10**12), (kind, bm)
            assert t["b_hi"] - t["b_lo"] <= C.B_WIDTH
            assert abs(Q(str(V(bm))) - (t["V_lo"] + t["V_hi"]) / 2) < Q(1, 10**20) + (t["V_hi"] - t["V_lo"])


@pytest.mark.parametrize("kind", ["D", "P"])
def test_kde_constant_obligation_refutes_a_shifted_enclosure(monkeypatch, kind):
    """A stated minimum 1e-15 above the true one (V_lo = V_min + 1e-15) is refuted with a certified point."""
    from verify.proof import kde_constants as C

    real = dict(C.locate_turn(kind))
    monkeypatch.setattr(C, "locate_turn", lambda k: {**real, "V_lo": real["V_hi"] + Q(1, 10**15)})
    res = prove_le(C.turn_objective(kind))
    assert res.status == "refuted" and Q(res.counterexample["lower"]) > 0


def test_kde_constants_claim_refuted_when_a_core_constant_is_off(registry, monkeypatch):
    from verify.proof import kde_constants as C

    real = dict(C.core_constants())
    assert C.compare_core()["ok"]
    monkeypatch.setattr(C, "core_constants", lambda: {**real, "D_min": real["D_min"] + 1e-9})
    cmp = C.compare_core()
    assert not cmp["ok"] and not cmp["rows"]["D_min"]["ok"]
    res = registry.get("004-KDE-constants-proof").run(CheckContext(budget=0.2))
    assert res.verdict is Verdict.REFUTED, res.summary
