"""Proofs attached to the tight-calibration claims: 004 Lemmas 3.5, 3.3 and 002 Thm. 8.

The claims ``004-Lemma-3.5-tight``, ``004-Lemma-3.3-tight`` and ``002-Thm-8-tight``
(:mod:`verify.claims.sets.calibration`, ``_tight_claim``) are tested: the printed eps is above a
certified grid bound of the exact worst case, the tight calibration survives the auditor and a 1%
shaved one is refuted.  The claims define the exact worst case of (privacy loss)/dist (GP, 004 Def. 5)
as the rate

    eps_exact(eta) = sup_{z >= 0} F(z),   F(z) = eta1 |psi(z)| + gamma |1 + z psi(z)|,

psi = (ln h)', eta1 = eta / (noise scale) (``smoothsens_core/calibration/tight.py``, module docstring).
The proof attached here (``@proof_for``) proves, on stated points and domains:

(a) the printed eps is valid for all parameters of the lemma: the symbolic sup proofs of
    :mod:`verify.proof.symbolic` (``004-Lemma-3.5-epsilon``, ``004-Lemma-3.3-epsilon``: sup|psi|,
    sup|1 + z psi| and the calibration; ``002-Lemma-12``: |psi| + |1 + z psi| = alpha at every z > 0
    for PolyPlace(1, alpha), so F = gamma alpha = eps), with the reduction
    :data:`~verify.claims.sets.proofs.SUP_REDUCTION` (eps_exact <= eta1 sup|psi| + gamma sup|1 + z psi|);
(b) "not tight": at stated grid points of the claim an arb enclosure of eps_exact
    (:func:`verify.proof.obligations.tight_enclosure`, upper end proven on z in [0, inf)) has upper end
    < the printed eps; PolyPlace (tight, 002 Lemma 12): the enclosure has width <= 1e-9 and contains
    gamma alpha of the binary64 parameters, eps to 2^-52;
(c) at each GP attack calibration of the claim: the enclosure of eps_exact at the tested eta_tight has
    upper end <= the target eps (the tight calibration is proven valid) and an attained lower end
    > 0.99 eps (the 1% shaved calibration is proven invalid: F(z*) > 0.99 eps at a point, so the loss
    of the aligned pair at distance d exceeds 0.99 eps d for d small).  PolyPlace's tight calibration
    is the printed one: F = gamma alpha exactly (002 Lemma 12), compared with eps in exact rationals.

DP (Hamming, d = 1).  The tested DP calibration eta_tight(DP) of ``tight_calibration(.., "hamming")``
comes from the d = 1 loss sup_{|r| <= gamma, y} G(r, y) (tight.py), a two-dimensional sup that the
rate only bounds from above.  For Student's t and GenCauchy eta_tight(DP) > eta_tight(GP) and the rate
there exceeds eps (a ball evaluation at a point, recorded as ``dp_rate_exceeds_eps``): the rate cannot
prove DP validity there, so both DP parts (valid at eta_tight(DP), shaved refuted) stay tested (auditor).
For PolyPlace eta_tight(DP) = the printed eta and the rate proof (c) bounds the d = 1 loss too
(:data:`~verify.claims.sets.proofs.GP_REDUCTION`); the DP shave stays tested.

Re-check (``smoothsens audit --claim ID --recheck-proof``): :func:`recheck` (method
"tight-calibration" in the method registry) rebuilds the claim's points, printed eps and
tested-calibration etas from the core's own definitions (not from the record), re-checks every
enclosure through the existing enclosure path (:func:`verify.claims.sets.proofs.recheck_evidence` on a
``rebuild`` "tight" record), the symbolic part through its own re-checker, compares every upper end
with the threshold it must meet and re-evaluates every attained lower end.

Cost: the enclosures need the objective's gradient form (SymPy, ~0.3 s per point), so the default
audit proves (b) on a stated subset (gamma = 0.01, eta = 1: the grid points closest to tight) and
``--prove-all`` on every grid point; at ``--quick`` (budget < 0.5) the proof is left out.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping

from verify.proof.record import describe_record, register_method
from verify.claims import CheckContext, ClaimResult
from verify.claims.registry import (ExpectedObligation, method_expectation, obligation_for, proof_for, with_evidence,
                                    with_proof)

__all__ = ["TIGHT_PROOFS", "expected_parts", "recheck", "prove"]

#: Width of the enclosures: (b) "not tight" needs only upper < printed (the smallest gap on the grids is
#: ~1e-2), (c) "valid" needs upper <= eps where the tested eta_tight leaves a gap ~1e-12 (tight_eta's
#: certified upper carries a relative 1e-12 margin), and the PolyPlace enclosure is asked <= 1e-9.
WIDTH_NOT_TIGHT = Fraction(1, 10**6)
WIDTH_VALID = Fraction(1, 10**13)
WIDTH_POLYPLACE = Fraction(1, 10**9)
SHAVE = Fraction(99, 100)
#: |gamma alpha / eps - 1| allowed for PolyPlace's binary64 parameters (2^-52: rounding of alpha = eps/gamma)
PP_RTOL = Fraction(1, 2**52)


@dataclass(frozen=True)
class _TightSpec:
    kind: str  # family of verify.proof.obligations ("student_t", "gencauchy", "polyplace")
    symbolic: str  # the symbolic proof (verify.proof.symbolic.SPECS) of (a)
    grid: Callable[[bool], list[dict[str, Any]]]  # (full?) -> grid points of (b)
    attack: Callable[[bool], list[dict[str, Any]]]  # (default budget?) -> GP attack calibrations of (c)
    subset: str  # the stated subset of (b) in the default audit


def _q(x: float) -> Fraction:
    return Fraction(x)  # the exact rational of the binary64 value


# ---- the claims' points, from the core's definitions (the same as verify/claims/sets/calibration.py) ----
def _st_grid(full: bool) -> list[dict[str, Any]]:
    from smoothsens_core import calibration as cal  # noqa: PLC0415 - cost: about 0.7 s at import, paid only when used

    return [{"shape": {"nu": nu}, "gamma": g, "eta1": e, "printed": float(cal._eps_student_t_gp(g, e, nu))}
            for nu in (1.5, 3.0, 8.0) for g in (0.01, 0.1) for e in (0.2, 1.0) if full or (g, e) == (0.01, 1.0)]


def _st_attack(default: bool) -> list[dict[str, Any]]:
    from smoothsens_core import calibration as cal  # noqa: PLC0415 - cost: about 0.7 s at import, paid only when used

    out = [({"nu": 3.0}, cal.calibrate_student_t(1.0, 1 / 9, 3.0))]
    if default:
        out.append(({"nu": 4.0}, cal.calibrate_student_t(1.025, 0.1, 4.0)))
    return [{"shape": s, "printed_cal": c} for s, c in out]


def _gc_grid(full: bool) -> list[dict[str, Any]]:
    from smoothsens_core import calibration as cal  # noqa: PLC0415 - cost: about 0.7 s at import, paid only when used

    return [{"shape": {"p": p, "theta": th}, "gamma": g, "eta1": e, "printed": float(cal._eps_gencauchy_gp(g, e, p, th, 1))}
            for p, th in ((1.5, 1.0), (2.0, 1.0), (4.0, 1.0), (3.0, 2.0)) for g in (0.01, 0.1) for e in (0.2, 1.0)
            if full or (g, e) == (0.01, 1.0)]


def _gc_attack(default: bool) -> list[dict[str, Any]]:
    from smoothsens_core import calibration as cal  # noqa: PLC0415 - cost: about 0.7 s at import, paid only when used

    out = [({"p": 4.0, "theta": 1.0}, cal.calibrate_gencauchy(1.0, 1 / 9, 4.0, 1.0))]
    if default:
        out.append(({"p": 4.0, "theta": 1.0}, cal.calibrate_gencauchy(0.3 + 0.5 * 3 ** 0.75, 0.1, 4.0, 1.0)))
    return [{"shape": s, "printed_cal": c} for s, c in out]


def _pp_grid(full: bool) -> list[dict[str, Any]]:
    from smoothsens_core import calibration as cal  # noqa: PLC0415 - cost: about 0.7 s at import, paid only when used

    out = []
    for eps, g in ((1.0, 0.1), (1.0, 0.5), (2.0, 0.2), (1.0, 0.9)) if full else ((1.0, 0.5),):
        c = cal.calibrate_polyplace(eps, g)
        out.append({"shape": {"alpha": float(c.noise.alpha)}, "gamma": g, "eta1": c.eta / float(c.noise.scale),
                    "printed": eps})
    return out


def _pp_attack(default: bool) -> list[dict[str, Any]]:
    from smoothsens_core import calibration as cal  # noqa: PLC0415 - cost: about 0.7 s at import, paid only when used

    c = cal.calibrate_polyplace(1.0, 1 / 9)
    return [{"shape": {"alpha": float(c.noise.alpha)}, "printed_cal": c}]


TIGHT_PROOFS: Mapping[str, _TightSpec] = {
    "004-Lemma-3.5-tight": _TightSpec("student_t", "004-Lemma-3.5-epsilon", _st_grid, _st_attack,
                                      "gamma = 0.01, eta = 1 for nu in {1.5, 3, 8}"),
    "004-Lemma-3.3-tight": _TightSpec("gencauchy", "004-Lemma-3.3-epsilon", _gc_grid, _gc_attack,
                                      "gamma = 0.01, eta = 1 for (p, theta) in {(1.5, 1), (2, 1), (4, 1), (3, 2)}"),
    "002-Thm-8-tight": _TightSpec("polyplace", "002-Lemma-12", _pp_grid, _pp_attack, "(eps, gamma) = (1, 0.5)"),
}


def _rebuild(kind: str, shape: Mapping[str, Any], gamma: float, eta1: float) -> dict[str, Any]:
    return {"what": "tight", "kind": kind, "shape": dict(shape), "gamma": gamma, "eta1": eta1}


def expected_parts(cid: str, full: bool, default: bool, eta_tight: Mapping[float, float] | None = None) -> list[dict[str, Any]]:
    """The enclosure parts claim ``cid`` must carry, from the core's definitions: role, rebuild record
    and the threshold (exact rational of the binary64 value).  ``eta_tight``: gamma -> the tested GP
    eta_tight (None: recomputed by the core's ``tight_calibration``, as the claim's test does)."""
    from smoothsens_core.calibration import tight_calibration  # noqa: PLC0415 - cost: about 0.7 s at import, paid only when used

    spec = TIGHT_PROOFS[cid]
    parts = []
    for pt in spec.grid(full):
        role = "tight-eps" if spec.kind == "polyplace" else "not-tight"
        parts.append({"role": role, "rebuild": _rebuild(spec.kind, pt["shape"], pt["gamma"], pt["eta1"]),
                      "threshold": str(_q(pt["printed"]))})
    if spec.kind == "polyplace":
        return parts  # (c) for PolyPlace is exact (002 Lemma 12), see _pp_exact
    for at in spec.attack(default):
        c = at["printed_cal"]
        eta = (eta_tight or {}).get(c.gamma)
        if eta is None:
            eta = tight_calibration(c, "euclidean").eta_tight
        parts.append({"role": "tight-valid", "rebuild": _rebuild(spec.kind, at["shape"], c.gamma, eta / float(c.noise.scale)),
                      "threshold": str(_q(c.eps))})
    return parts


def _pp_exact(default: bool) -> list[dict[str, Any]]:
    """PolyPlace's tight calibration (= the printed one): F = eta1 |psi| + gamma |1 + z psi| with eta1 =
    gamma is gamma alpha at every z > 0 (002 Lemma 12, s = 1), compared with eps and 0.99 eps exactly."""
    out = []
    for at in _pp_attack(default):
        c = at["printed_cal"]
        eta1 = _q(c.eta) / _q(float(c.noise.scale))
        rate = _q(c.gamma) * _q(float(c.noise.alpha))
        out.append({"eps": c.eps, "gamma": c.gamma, "eta": c.eta, "s": float(c.noise.s), "alpha": float(c.noise.alpha),
                    "eta1_is_gamma": eta1 == _q(c.gamma), "s_is_1": float(c.noise.s) == 1.0, "rate": str(rate),
                    "valid": rate <= _q(c.eps), "shave_invalid": rate > SHAVE * _q(c.eps)})
    return out


# ---------------------------------------------------------------------------------------------------
# the proof
# ---------------------------------------------------------------------------------------------------
def _point_ball(kind: str, shape: Mapping[str, Any], gamma: float, eta1: float, u: list[Fraction],
                prec: int) -> tuple[Fraction | float, Fraction | float]:
    """Exact ends of the arb ball of F at the compactified point ``u`` (no gradient needed; -inf, +inf for a
    non-finite ball)."""
    from verify.proof import obligations as O  # noqa: PLC0415 - needs python-flint (the proof extra)
    from verify.proof.functions import lower_fraction, upper_fraction, workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    obj = O.tight_objective(kind, dict(shape), gamma, eta1)
    with workprec(prec):
        v = obj.evaluate_point(list(u))
        return lower_fraction(v), upper_fraction(v)


def _enclose(part: dict[str, Any], width: Fraction) -> dict[str, Any]:
    from verify.proof import obligations as O  # noqa: PLC0415 - needs python-flint (the proof extra)

    rb = part["rebuild"]
    en = O.tight_enclosure(rb["kind"], rb["shape"], rb["gamma"], rb["eta1"], width=float(width))
    enc = en.to_json()
    proof = enc.pop("proof")
    return {**part, "enclosure": {"lower": enc["lower"], "upper": enc["upper"], "lower_float": enc["lower_float"],
                                  "upper_float": enc["upper_float"], "width": enc["width"], "argmax": enc["argmax"],
                                  "argmax_z": enc["argmax_original"], "prec": en.proof.prec},
            "proof": proof, "n_boxes": en.n_boxes, "seconds": round(en.seconds, 3)}


def _width(role: str) -> Fraction:
    return {"not-tight": WIDTH_NOT_TIGHT, "tight-valid": WIDTH_VALID, "tight-eps": WIDTH_POLYPLACE}[role]


def _tested_eta_tight(tested: ClaimResult) -> dict[float, float]:
    """gamma -> the GP eta_tight the claim's test audited (its evidence rows)."""
    return {float(r["gamma"]): float(r["eta_tight"]) for r in tested.evidence.get("calibrations", [])
            if r.get("metric") == "gp"}


def _dp_notes(cid: str, tested: ClaimResult, parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each DP row of the test: eta_tight(DP) and, where it exceeds eta_tight(GP), a ball of the rate at
    eta_tight(DP) at the GP argmax (lower end > eps: the rate cannot prove DP validity there)."""
    spec = TIGHT_PROOFS[cid]
    gp = {p["rebuild"]["gamma"]: p for p in parts if p["role"] == "tight-valid"}
    out = []
    for r in tested.evidence.get("calibrations", []):
        if r.get("metric") != "dp":
            continue
        row: dict[str, Any] = {"gamma": r["gamma"], "eps": r["eps"], "eta_tight_dp": r["eta_tight"]}
        p = gp.get(float(r["gamma"]))
        if spec.kind == "polyplace":
            row["dp_proven_by_rate"] = bool(r.get("already_tight")) and r["eta_tight"] == r["eta_printed"]
        elif p is not None:
            rb = p["rebuild"]
            scale = float(rb["eta1"]) / float(_tested_eta_tight(tested)[float(r["gamma"])])
            lo, hi = _point_ball(spec.kind, rb["shape"], rb["gamma"], r["eta_tight"] * scale,
                                 [Fraction(a) for a in p["enclosure"]["argmax"]], int(p["enclosure"]["prec"]))
            row.update(rate_ball_at_gp_argmax=[float(lo), float(hi)], dp_rate_exceeds_eps=bool(lo > _q(r["eps"])),
                       dp_proven_by_rate=False)
        out.append(row)
    return out


def prove(cid: str, ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    """The proof of claim ``cid`` (module docstring) on the test's VERIFIED result ``tested``."""
    from verify.claims.sets.proofs import SUP_REDUCTION, GP_REDUCTION, THM8_REDUCTION  # noqa: PLC0415 - cost: about 1.5 s at import, paid only when used
    from verify.proof.obligation_check import flint_missing  # noqa: PLC0415
    from verify.claims.sets import proofs_symbolic  # noqa: F401, PLC0415 - registers the specs' witness functions
    from verify.proof import symbolic as S  # noqa: PLC0415

    if ctx.budget < 0.5 and not ctx.prove_all:
        return _left_out(tested, "the proof of the tight claims (symbolic sup proof plus arb enclosures, ~2-3 s) is "
                                 "left out in the quick profile; it is attached in the default audit")
    if flint_missing():
        return _left_out(tested, f"proof not attempted: {flint_missing()}")
    t0 = time.perf_counter()
    spec = TIGHT_PROOFS[cid]
    full, default = ctx.prove_all, ctx.budget >= 0.5
    parts = expected_parts(cid, full, default, _tested_eta_tight(tested))
    enclosed = []
    for p in parts:
        try:
            enclosed.append(_enclose(p, _width(p["role"])))
        except RuntimeError as exc:  # the enclosure did not close within its budget: say at which point
            return with_evidence(tested, {"proof_not_attached": (
                f"{p['role']} at {_fmt_pt(p)}: enclosure not within {float(_width(p['role'])):g}: {exc}")})
    parts = enclosed
    witnesses, derivation = S.spec_witnesses(spec.symbolic)
    sym: dict[str, Any] = {"role": "symbolic", "rebuild": {"what": "symbolic", "claim": spec.symbolic},
           "proof": S.make_record(spec.symbolic, witnesses, derivation=derivation)}
    exact = _pp_exact(default) if spec.kind == "polyplace" else []
    record = {"method": "tight-calibration", "claim": cid, "status": "proven", "scale": "full" if full else "subset",
              "default_budget": default, "parts": [sym, *parts], "exact": exact,
              "relies_on": [SUP_REDUCTION if spec.kind != "polyplace" else THM8_REDUCTION,
                            "the claims' exact worst case is the rate sup_z F(z) (tight.py: L <= d sup F along the "
                            "segment; F(z*) is the d -> 0 limit of L/d for the aligned pair, the definition of the "
                            "derivative)", *sym["proof"].get("relies_on", [])]}
    rc = _recheck(record, _tested_eta_tight(tested))
    if not rc.ok:  # the proof did not close: the tested result stands, and says which point
        return with_evidence(tested, {"proof_not_attached": "; ".join(rc.problems[:6])})
    dp = _dp_notes(cid, tested, parts)
    nt = [p for p in parts if p["role"] in ("not-tight", "tight-eps")]
    tv = [p for p in parts if p["role"] == "tight-valid"]
    domain, summary = _domain_summary(cid, spec, nt, tv, exact, dp, full)
    rc_json = {"ok": rc.ok, "problems": list(rc.problems), "n_boxes": rc.n_boxes, "prec": rc.prec,
               "seconds": round(rc.seconds, 3)}
    return with_proof(tested, claim_obligation=expectation(cid), summary=summary, proof=record, domain=domain,
                      precision=f"symbolic (SymPy exact) + arb enclosures ({parts[0]['enclosure']['prec']} bits; "
                                f"re-check {rc.prec} bits)",
                      recheck=rc_json, dp=dp, reduction_gp_to_dp=GP_REDUCTION,
                      seconds_proof=round(time.perf_counter() - t0, 3))


def _left_out(tested: ClaimResult, why: str) -> ClaimResult:
    return with_evidence(tested, {"proof_left_out": why})


def _fmt_pt(p: Mapping[str, Any]) -> str:
    rb = p["rebuild"]
    sh = ", ".join(f"{k}={v:g}" for k, v in rb["shape"].items())
    return f"({sh}, gamma={rb['gamma']:.6g}, eta1={rb['eta1']:.10g})"


def _domain_summary(cid: str, spec: _TightSpec, nt: list[dict[str, Any]], tv: list[dict[str, Any]],
                    exact: list[dict[str, Any]], dp: list[dict[str, Any]], full: bool) -> tuple[str, str]:
    from verify.proof import symbolic as S  # noqa: PLC0415

    sym_dom = S.SPECS[spec.symbolic].domain
    where = "every grid point of the test" if full else f"the stated subset {spec.subset} of the test's grid"
    if spec.kind == "polyplace":
        a = (f"(a)+(b) for all 0 < gamma < eps: F(z) = gamma alpha = eps at every z > 0 (symbolic proof "
             f"{spec.symbolic}: {sym_dom}; s = 1, eta1 = gamma, alpha = eps/gamma), so the printed eps is the exact "
             f"one (tight)")
        b = (f"at {where}: enclosures of width <= {float(WIDTH_POLYPLACE):g} on z in [0, inf) containing gamma alpha "
             f"of the binary64 parameters (eps to 2^-52): " + "; ".join(
                 f"{_fmt_pt(p)} in [{p['enclosure']['lower_float']:.12f}, {p['enclosure']['upper_float']:.12f}]" for p in nt))
        c = "; ".join(f"(c) GP at eps={e['eps']:g}, gamma={e['gamma']:.6g}: tight eta = printed eta, F = gamma alpha = "
                      f"eps + ({Fraction(e['rate']) - _q(e['eps'])}) <= eps and > 0.99 eps in exact rationals on z > 0, "
                      f"F(0) <= eps by a ball (valid; shave invalid)" for e in exact)
        d = ("DP (d = 1): eta_tight(DP) = printed eta, valid by the rate bound (GP_REDUCTION: the rate bounds the loss "
             "at every distance); the DP 1% shave stays tested (auditor)")
    else:
        a = f"(a) the printed eps is valid for all parameters ({sym_dom}) by the symbolic proof {spec.symbolic} and SUP_REDUCTION"
        b = (f"(b) not tight at {where}: upper end of the arb enclosure of sup_z F < printed eps: " + "; ".join(
            f"{_fmt_pt(p)}: {p['enclosure']['upper_float']:.10f} < {float(Fraction(p['threshold'])):.10f}" for p in nt))
        c = "(c) GP tight calibrations (default budget): " + "; ".join(
            f"{_fmt_pt(p)}: sup F in [{p['enclosure']['lower_float']:.13f}, {p['enclosure']['upper_float']:.13f}] "
            f"<= eps = {float(Fraction(p['threshold'])):.10g} (valid) and lower end attained > 0.99 eps (shave invalid)"
            for p in tv)
        d = ("DP (d = 1) not proven: needs the two-dimensional d = 1 loss sup, not the rate; the rate at eta_tight(DP) "
             "exceeds eps (" + ", ".join(f"gamma={r['gamma']:.6g}: rate ball >= {r['rate_ball_at_gp_argmax'][0]:.6f}"
                                         for r in dp if 'rate_ball_at_gp_argmax' in r)
             + "); DP validity and the DP 1% shave stay tested (auditor)")
    domain = "; ".join([a, b, c, d]) + "; z over [0, inf) (compactified), exact rationals of the binary64 parameters"
    n = sum(p["n_boxes"] for p in nt + tv)
    summary = (f"proven: printed eps valid for all parameters ({spec.symbolic}, re-checked); "
               + ("tight (F = eps, 002 Lemma 12)" if spec.kind == "polyplace" else f"not tight at {len(nt)} point(s)")
               + f" and {len(tv) or len(exact)} GP tight calibration(s) valid with the 1% shave invalid "
               f"(arb enclosures, {n} boxes, re-checked); DP: "
               + ("valid by the rate, shave tested" if spec.kind == "polyplace" else "tested (the rate does not reach it)"))
    return domain, summary


# ---------------------------------------------------------------------------------------------------
# the re-checker (registered as TightCalibrationMethod)
# ---------------------------------------------------------------------------------------------------
def expectation(cid: str) -> ExpectedObligation:
    """What a proof of ``cid`` (a claim of :data:`TIGHT_PROOFS`) must prove: method "tight-calibration", the
    record of this claim (its points and thresholds rebuilt by :func:`expected_parts` in :func:`recheck`)."""
    return method_expectation(cid, "tight-calibration", {"proof.claim": cid},
                              f"the tight calibration of {cid} at the points of expected_parts (its symbolic sup "
                              f"proof {TIGHT_PROOFS[cid].symbolic} and one enclosure per point)")


def _expectation_factory(cid: str) -> Callable[[str], ExpectedObligation]:
    """The obligation factory of claim ``cid`` (the same obligation at every scale)."""
    def factory(scale: str) -> ExpectedObligation:
        return expectation(cid)
    return factory


def recheck(proof: Mapping[str, Any], *, claim_id: str) -> Any:
    """Re-check a "tight-calibration" proof record as the proof of ``claim_id``, from the core's definitions:
    the claim's points and thresholds are rebuilt here from ``claim_id`` (the test's eta_tight recomputed by
    ``tight_calibration``), every enclosure re-checked against the objective rebuilt from those points (the
    stated upper end as threshold, another precision), every upper end compared with its threshold, every
    lower end (the shave) re-evaluated; the symbolic part by :func:`verify.proof.symbolic.recheck_for`.
    Returns a :class:`verify.proof.RecheckResult`."""
    from verify.proof import RecheckResult  # noqa: PLC0415

    if claim_id not in TIGHT_PROOFS or proof.get("claim") != claim_id:
        return RecheckResult(False, [f"field 'claim': the record is a tight-calibration proof of "
                                     f"{proof.get('claim')!r}, not of {claim_id}"], 0, 0, 0.0)
    return _recheck(proof, None)


def _recheck(proof: Mapping[str, Any], eta_tight: Mapping[float, float] | None) -> Any:
    """:func:`recheck`; ``eta_tight`` (gamma -> GP eta_tight) given by the proof itself, which has the
    test's values (the claim's own test computed them with ``tight_calibration``); None recomputes them."""
    from verify.proof import RecheckResult, obligations as O  # noqa: PLC0415 - needs python-flint (the proof extra)
    from verify.proof import symbolic as S  # noqa: PLC0415
    from verify.claims.sets.proofs import recheck_boxes  # noqa: PLC0415 - cost: about 1.5 s at import, paid only when used
    from verify.proof.functions import lower_fraction, workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    t0 = time.perf_counter()
    cid = str(proof.get("claim", ""))
    spec = TIGHT_PROOFS.get(cid)
    if spec is None or proof.get("method") != "tight-calibration":
        return RecheckResult(False, [f"not a tight-calibration proof of a known claim ({cid!r})"], 0, 0, 0.0)
    full, default = proof.get("scale") == "full", bool(proof.get("default_budget"))
    problems: list[str] = []
    parts = list(proof.get("parts") or [])
    sym = [p for p in parts if p.get("role") == "symbolic"]
    encl = [p for p in parts if p.get("role") != "symbolic"]
    # (a) the symbolic part: the claim's spec, re-checked by its own re-checker
    want_sym = {"what": "symbolic", "claim": spec.symbolic}
    if len(sym) != 1 or dict(sym[0].get("rebuild") or {}) != want_sym or (sym[0].get("proof") or {}).get("claim") != spec.symbolic:
        problems.append(f"the record must carry exactly one symbolic part of {spec.symbolic}")
    n, prec = 0, 0
    for p in sym[:1]:
        rc = S.recheck_for(p.get("proof") or {}, claim_id=spec.symbolic)
        n += rc.n_boxes
        problems += [f"{spec.symbolic}: {q}" for q in rc.problems]
    # (b), (c) the enclosures: exactly the claim's points, in order
    want = expected_parts(cid, full, default, eta_tight)
    got = [(p.get("role"), dict(p.get("rebuild") or {}), p.get("threshold")) for p in encl]
    exp = [(w["role"], w["rebuild"], w["threshold"]) for w in want]
    if got != exp:
        problems.append(f"the enclosure parts {got} are not the claim's {exp}")
    for w, p in zip(want, encl, strict=False):  # a record with more or fewer enclosures is reported above
        enc = p.get("enclosure") or {}
        where = f"{w['role']} at {_fmt_pt(w)}"
        # the enclosure path of proofs.recheck_evidence: a fresh objective from the "tight" rebuild record and
        # the stated upper end as the threshold (rebuild_objective), the boxes re-checked by verify.proof.recheck;
        # the same fresh objective then re-evaluates the attained lower end
        rbw = w["rebuild"]
        obj = O.tight_objective(str(rbw["kind"]), dict(rbw["shape"]), float(rbw["gamma"]), float(rbw["eta1"]))
        stated = Fraction(str(enc.get("upper")))
        pr = dict(p.get("proof") or {})
        if Fraction(str(pr.get("threshold", "0"))) != stated or pr.get("monotone"):
            problems.append(f"{where}: the proof's threshold {pr.get('threshold')} is not the stated upper end, or it "
                            f"uses monotonicity hints")
        rc = recheck_boxes(pr, obj, threshold=stated, prec=128, monotone={})
        n += rc.n_boxes
        prec = rc.prec
        problems += [f"{where}: {q}" for q in rc.problems]
        lo, up, thr = Fraction(str(enc.get("lower"))), Fraction(str(enc.get("upper"))), Fraction(w["threshold"])
        rb = w["rebuild"]
        with workprec(int(enc.get("prec", 96))):
            flo = lower_fraction(obj.evaluate_point([Fraction(a) for a in enc.get("argmax", [])]))
        if flo < lo:
            problems.append(f"{where}: the lower end {float(lo)!r} is not attained at the argmax (ball lower end {float(flo)!r})")
        if w["role"] == "not-tight" and not up < thr:
            problems.append(f"{where}: upper end {float(up)!r} is not < the printed eps {float(thr)!r}")
        if w["role"] == "tight-valid":
            if not up <= thr:
                problems.append(f"{where}: upper end {float(up)!r} > eps {float(thr)!r} (tight calibration not proven valid)")
            if not flo > SHAVE * thr:
                problems.append(f"{where}: attained {float(flo)!r} is not > 0.99 eps (shave not proven invalid)")
        if w["role"] == "tight-eps":
            ga = _q(rb["gamma"]) * _q(rb["shape"]["alpha"])
            if not (up - lo <= WIDTH_POLYPLACE and lo <= ga <= up and abs(ga / thr - 1) <= PP_RTOL
                    and _q(rb["eta1"]) == _q(rb["gamma"])):
                problems.append(f"{where}: enclosure [{float(lo)!r}, {float(up)!r}] is not of width <= 1e-9 around "
                                f"gamma alpha = eps (to 2^-52) with eta1 = gamma")
    if spec.kind == "polyplace":
        exact = _pp_exact(default)
        if list(proof.get("exact") or []) != exact:
            problems.append("the exact PolyPlace part is not the claim's")
        for e in exact:
            if not (e["eta1_is_gamma"] and e["s_is_1"] and e["valid"] and e["shave_invalid"]):
                problems.append(f"PolyPlace at gamma={e['gamma']!r}: gamma alpha = {e['rate']} is not in (0.99 eps, eps] "
                                f"with eta1 = gamma, s = 1")
            else:  # z = 0 (outside Lemma 12's x != 0): F(0) <= eps by a ball (compactified u = 0 is z = 0)
                lo0, up0 = _point_ball("polyplace", {"alpha": e["alpha"]}, e["gamma"], e["eta"], [Fraction(0)], 96)
                if not up0 <= _q(e["eps"]):
                    problems.append(f"PolyPlace at gamma={e['gamma']!r}: F(0) ball upper {float(up0)!r} > eps")
    if not encl:
        problems.append("the record has no enclosure part: nothing is re-checked")
    return RecheckResult(not problems, problems[:20], n, prec, time.perf_counter() - t0)


def _attach() -> None:
    for cid in TIGHT_PROOFS:
        def proof(ctx: CheckContext, tested: ClaimResult, _cid: str = cid) -> ClaimResult:
            return prove(_cid, ctx, tested)

        proof.__name__ = f"proof_{cid.replace('-', '_').replace('.', '_')}"
        proof_for(cid)(proof)
        obligation_for(cid)(_expectation_factory(cid))


_attach()


@register_method
class TightCalibrationMethod:
    """The proof method of this module, re-checked by :func:`recheck` (every part rebuilt from this module's own
    definitions as the proof of the claim named by the caller, never from the record)."""

    name = "tight-calibration"

    def recheck(self, proof: Mapping[str, Any], claim_id: str) -> Any:
        return recheck(proof, claim_id=claim_id)

    def describe(self, proof: Mapping[str, Any]) -> str:
        return describe_record(proof)
