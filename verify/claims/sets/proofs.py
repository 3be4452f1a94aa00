"""The papers' inequalities *proven* on stated domains, as claims.

Each claim runs one obligation of :mod:`verify.proof.obligations` (F <= 0 on a box, F built from
the SymPy derivations) through the branch-and-bound prover :func:`verify.proof.prove_le` and gives

* VERIFIED with ``strength="proven"`` when the prover proves it **and** the independent re-checker
  :func:`verify.proof.recheck` accepts the serialised proof (``evidence["proof"]``, the leaf boxes
  with their certified bounds, and ``evidence["domain"]``) against a freshly rebuilt objective;
* REFUTED when the prover finds a point with F > 0 certified by a ball whose lower end is > 0 and
  confirmed by mpmath at 50 digits (the point is in the evidence);
* INCONCLUSIVE ("undecided within budget B boxes / S seconds") otherwise -- never VERIFIED.

Domains: the obligations' small "test" parameter boxes by default (seconds each), the "full"
boxes with ``CheckContext.prove_all`` (``smoothsens audit --prove-all``; minutes to hours).  The
inequalities are stated at eps = 1 over boxes of g = gamma/eps (exact by homogeneity, see the
docstring of :mod:`verify.proof.obligations`); z runs over all of [0, inf).

Also here: the tight-eps enclosures (width <= 1e-9, upper end proven and re-checked, lower end
attained) at the four calibrations of ``smoothsens_core.calibration.tight.tight_table(1.0)``,
compared with the core's certified grid bounds ``tight_epsilon``; and the planted controls of
``obligations.controls()`` (ids ``*-planted-*``), which must come out REFUTED.

:func:`recheck_evidence` re-checks a claim's proof from its JSON evidence alone (``smoothsens
audit --recheck-proof``): it rebuilds the objective from ``evidence["rebuild"]`` and checks the
threshold (0 for the obligations, the stated upper end for the enclosures) itself, so an edited
threshold, bound, box or domain is rejected.

The rate proofs are also attached (``@proof_for``, :data:`PRIVACY_PROOFS`) to the privacy claims
they imply -- 004 Lemma 3.3, Cor. 3.2 (two obligations), Lemma 3.5 and 002 Thm. 8 -- with the
reduction from the rate to the loss stated in ``relies_on`` and the rate boxes stated against the
claim's full range in the domain.  A decided obligation runs once per process (:func:`check_obligation`
keeps it), so the rate claim and the privacy claim share one run in a serial audit; in the quick
profile (``ctx.budget < 0.5``) the proofs tagged "heavy" are left out of the privacy claims as their
own claims are left out of ``--quick`` (the tested result stands, the evidence says so).

004 Lemma 4.1 with Def. 8 (2) at the tangency gamma tau in [15/16, 1] is proven by the convex
switching lemma (:func:`verify.proof.prover.prove_switching`: a derivative-sign box, a face, the off
branch, branch and bound beyond), re-checked part by part (:func:`verify.proof.recheck.recheck_switching`).

Needs python-flint (the ``[proof]`` extra); without it every claim here is INCONCLUSIVE, saying so.
"""

from __future__ import annotations

import functools

import copy
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Mapping

from verify.claims.registry import (ABSENT, CheckContext, CheckKind, ClaimResult, ExpectedObligation, Verdict, claim,
                                    expected_obligation, method_expectation, obligation_for, recheck_claim,
                                    with_evidence, with_proof)
from verify.proof.obligation_check import BUDGET, flint_missing, obligation, prove_obligation, recheck_boxes, \
    recheck_obligation_proof
from verify.proof.obligation_check import proof_summary as _proof_summary

__all__ = ["PAPER_OBLIGATIONS", "PLANTED", "TIGHT", "BUDGET", "check_obligation", "check_tight",
           "recheck_claim", "recheck_evidence", "recheck_obligation_proof", "recheck_tight_certificate", "describe_recheck",
           "obligation_expectation", "composite_expectation", "method_expectation", "interval_obligation",
           "tight_expectation", "privacy_expectation"]

#: Width asked of the tight-eps enclosures.
TIGHT_WIDTH = Fraction(1, 10**9)
_CODE = "verify/proof/obligations.py, verify/proof/prover.py, verify/proof/recheck.py"


@dataclass(frozen=True)
class _Spec:
    obligation: str  # id in verify.proof.obligations
    id: str  # claim id
    seed: str
    section: str
    refuted_rule: str  # the rule that would place a refutation
    code: str


#: Proof claims that take over 10 s on their test box (measured: 11 s and 24 s on one idle core; 002 Thm. 8's
#: rate runs to the prover's 120 s limit undecided, once for its own claim and once for the privacy claim).
HEAVY = frozenset({"004-Lemma-3.3-rate-proof", "004-Cor-3.2-rate-m3-proof", "002-Thm-8-rate-proof"})

PAPER_OBLIGATIONS: tuple[_Spec, ...] = (
    _Spec("004-Lemma-3.3-rate", "004-Lemma-3.3-rate-proof", "004", "Sec. 3.2.1, Lemma 3.3 (proof of the GP rate)",
          "R-INVALID", "smoothsens_core/calibration (calibrate_gencauchy)"),
    _Spec("004-Cor-3.2-scale-sup", "004-Cor-3.2-scale-sup-proof", "004",
          "Sec. 3.2.1, Cor. 3.2 / Lemma 3.3 (sup of the scale term)", "R-INVALID", "derivations/privacy_loss.py"),
    _Spec("004-Lemma-3.5-scale-sup", "004-Lemma-3.5-scale-sup-proof", "004",
          "Sec. 3.2.1, Lemma 3.5 (sup of the scale term)", "R-INVALID", "derivations/privacy_loss.py"),
    _Spec("004-Cor-3.2-rate-m3", "004-Cor-3.2-rate-m3-proof", "004", "Sec. 3.2.1, Cor. 3.2 (m = 3 outputs)",
          "R-INVALID", "smoothsens_core/calibration (calibrate_gencauchy, m)"),
    _Spec("004-Lemma-3.5-rate", "004-Lemma-3.5-rate-proof", "004", "Sec. 3.2.1, Lemma 3.5 (proof of the GP rate)",
          "R-INVALID", "smoothsens_core/calibration (calibrate_student_t)"),
    _Spec("002-Thm-8-rate", "002-Thm-8-rate-proof", "002", "Sec. 3, Thm. 8 (Lemmas 10, 12; proof of the rate)",
          "R-INVALID", "smoothsens_core/calibration (calibrate_polyplace)"),
    _Spec("004-Lemma-4.1-Def-8-(2)-gamma[1/20,15/16]", "004-Lemma-4.1-def8-proof-gamma-low", "004",
          "Sec. 4.1.3, Lemma 4.1 with Def. 8 (2) (gamma tau in [1/20, 15/16])", "R-FALSE",
          "smoothsens_core/sensitivity (threshold query)"),
    _Spec("004-Lemma-4.1-Def-8-(2)-gamma[15/16,1]", "004-Lemma-4.1-def8-proof-gamma-tangent", "004",
          "Sec. 4.1.3, Lemma 4.1 with Def. 8 (2) (gamma tau in [15/16, 1], the tangency)", "R-FALSE",
          "smoothsens_core/sensitivity (threshold query)"),
    _Spec("004-Lemma-4.1-Def-8-(2)-gamma[1,2]", "004-Lemma-4.1-def8-proof-gamma-high", "004",
          "Sec. 4.1.3, Lemma 4.1 with Def. 8 (2) (gamma tau in [1, 2])", "R-FALSE",
          "smoothsens_core/sensitivity (threshold query)"),
)

#: Planted controls: (control id in obligations.controls(), claim id, seed, section, statement).
PLANTED: tuple[tuple[str, str, str, str, str], ...] = (
    ("control-GenCauchy-tight-eta-plus-1e-6", "004-Lemma-3.3-planted-proof-tight-eta-plus-1e-6", "004",
     "Sec. 3.2.1, Lemma 3.3 (planted control of the prover)",
     "PLANTED (must be REFUTED): GenCauchy(p=4, theta=1), gamma = 1/9, eta = eta_tight + 1e-6 (eta_tight: the core's "
     "tight_eta at eps = 1): eta|psi(z)| + gamma|1 + z psi(z)| <= 1 for all z in [0, inf)."),
    ("control-StudentT-scale-term-dropped", "004-Lemma-3.5-planted-proof-scale-term-dropped", "004",
     "Sec. 3.2.1, Lemma 3.5 (planted control of the prover)",
     "PLANTED (must be REFUTED): Student's t nu = 3, gamma/eps = 1/9, eta from eps = (nu+1)/(2 sqrt nu) eta (the "
     "scale term nu gamma dropped): eta|psi(z)| + gamma|1 + z psi(z)| <= eps for all z in [0, inf)."),
    ("control-GenCauchy-Cor-3.2-m-dropped", "004-Cor-3.2-planted-proof-m-dropped", "004",
     "Sec. 3.2.1, Cor. 3.2 (planted control of the prover)",
     "PLANTED (must be REFUTED): GenCauchy(p=2, theta=1), gamma/eps = 1/20, m = 3 outputs calibrated with the m = 1 "
     "eta of Lemma 3.3: eta|psi(z1)| + gamma|1 + z1 psi(z1)| + 2 gamma max(1, p theta - 1) <= eps on z1 in [0, inf)."),
    ("control-Lemma-4.1-Def-8-tangency-bound-minus-1e-6", "004-Lemma-4.1-planted-proof-tangency-minus-1e-6", "004",
     "Sec. 4.1.3, Lemma 4.1 with Def. 8 (2) (planted control of the tangency proof)",
     "PLANTED (must be REFUTED): B of 004 Lemma 4.1 (g_E, T = 0, tau = 1) with the bound shaved by 1e-6 where its "
     "piece 1/(|x| + 1/2) is active: |(ln B)'(x)| <= gamma - 1e-6 there, for |x| in [1/2, 10] and gamma in [15/16, 1] "
     "(false next to the crossing of the two pieces for 1 - gamma < 1e-6, at the tangency)."),
)

#: Tight-eps enclosures: (family label of tight_table, claim id, seed, section).
TIGHT: tuple[tuple[str, str, str, str], ...] = (
    ("Student t(nu=3)", "004-Lemma-3.5-tight-enclosure-nu3", "004", "Sec. 3.2.1, Lemma 3.5 (nu = 3, as in Sec. 5)"),
    ("Student t(nu=4)", "004-Lemma-3.5-tight-enclosure-nu4", "004", "Sec. 3.2.1, Lemma 3.5 and the Remark (nu = 4)"),
    ("GenCauchy(p=4, theta=1)", "004-Lemma-3.3-tight-enclosure", "004", "Sec. 3.2.1, Lemma 3.3 (p = 4, theta = 1)"),
    ("PolyPlace", "002-Thm-8-tight-enclosure", "002", "Sec. 3, Thm. 8 (PolyPlace)"),
)


def _frac(x: Any) -> Fraction:
    return Fraction(str(x))


# ---------------------------------------------------------------------------------------------------
# re-checking a proof from its JSON evidence alone
# ---------------------------------------------------------------------------------------------------
def _ob_method(ob: Any) -> str:
    """The proof method (:func:`verify.claims.registry.proof_method`) the prover uses for obligation ``ob``."""
    return "convex-switching" if ob.method == "convex-switching" else "interval"


def _ob_rebuild(ob_id: str, scale: str) -> dict[str, str]:
    return {"what": "obligation", "obligation": ob_id, "scale": scale}


def _reject(problems: list[str], prec: int = 0, n: int = 0, t0: float | None = None) -> Any:
    from verify.proof import RecheckResult  # noqa: PLC0415

    return RecheckResult(False, problems[:20], n, prec, 0.0 if t0 is None else time.perf_counter() - t0)


def _summary_problems(evidence: Mapping[str, Any], proof: Mapping[str, Any]) -> list[str]:
    """The displayed summary of a box-list proof (n_boxes, max_bound) against its certificate."""
    mine = _proof_summary(proof)
    return [f"field {k!r}: the record shows {evidence.get(k)!r}, its certificate gives {mine[k]!r}"
            for k in ("n_boxes", "max_bound", "threshold") if k in evidence and str(evidence.get(k)) != str(mine[k])]


def _obligation_fields(ob_id: str, scale: str, *, prefix: str = "") -> dict[str, Any]:
    """The displayed fields of an obligation's evidence (:func:`check_obligation`), derived from the code."""
    from verify.proof.prover import box_to_json  # noqa: PLC0415 - needs python-flint (the proof extra)

    ob = obligation(ob_id, scale)
    obj = ob.build()
    out: dict[str, Any] = {"rebuild": _ob_rebuild(ob_id, scale), "obligation": ob_id, "proof.threshold": "0",
                           "proof.objective": obj.describe(), "proof.relies_on": ABSENT, "relies_on": ABSENT}
    if ob.method != "convex-switching":
        out["proof.domain"] = box_to_json(obj.domain())
    if not prefix:
        out.update({"source": ob.source, "statement": ob.statement, "domain": ob.domain, "scale": scale,
                    "objective": obj.describe()})
    return out


def obligation_expectation(claim_id: str, ob_id: str, scale: str, *, attached: bool = False,
                           extra_fields: Mapping[str, Any] | None = None, covers: str = "") -> ExpectedObligation:
    """The :class:`ExpectedObligation` of a claim proven by the one obligation ``ob_id`` (F <= 0 on its box):
    the fields :func:`check_obligation` writes (``attached``: as :func:`verify.claims.sets.proofs_def8.attach_obligation`
    quotes them), the method of the obligation, and the certificate re-checked against the rebuilt F."""
    ob = obligation(ob_id, scale)
    fields = _obligation_fields(ob_id, scale, prefix="attached" if attached else "")
    if attached:
        fields.update({"statement_proven": ob.statement, "domain": ob.domain})
    fields.update(extra_fields or {})

    def rc(evidence: Mapping[str, Any]) -> Any:
        proof = evidence.get("proof")
        out = recheck_obligation_proof(ob_id, scale, proof)
        extra = _summary_problems(evidence, proof) if isinstance(proof, Mapping) else []
        return _reject(extra + list(out.problems), out.prec, out.n_boxes) if extra else out

    return ExpectedObligation(claim_id, _ob_method(ob), fields, rc, covers or f"{ob.statement} on {ob.domain}")


def composite_expectation(claim_id: str, ob_ids: list[str], scale: str, *, domain: str,
                          relies_on: list[str] | None = None, extra_fields: Mapping[str, Any] | None = None,
                          covers: str = "") -> ExpectedObligation:
    """The :class:`ExpectedObligation` of a claim proven by every obligation of ``ob_ids`` together
    (``combine = "all"``): the parts must be exactly these obligations, in order, each re-checked alone
    against its rebuilt F; the record's displayed domain, statement and part headers are derived here."""
    obs = [obligation(o, scale) for o in ob_ids]
    fields: dict[str, Any] = {"rebuild": {"what": "all", "parts": [_ob_rebuild(o, scale) for o in ob_ids]},
                              "obligations": list(ob_ids), "statement": " AND ".join(ob.statement for ob in obs),
                              "domain": domain, "proof.combine": "all", "proof.threshold": "0",
                              "proof.status": "proven",
                              "proof.relies_on": ABSENT if relies_on is None else list(relies_on)}
    fields.update(extra_fields or {})

    def rc(evidence: Mapping[str, Any]) -> Any:
        return _recheck_parts(claim_id, [(o, scale) for o in ob_ids], evidence.get("proof"), evidence)

    return ExpectedObligation(claim_id, "interval", fields, rc, covers or domain)


def _recheck_parts(claim_id: str, wanted: list[tuple[str, str]], proof: Any, evidence: Mapping[str, Any],
                   prec: int = 128) -> Any:
    """Re-check a proof resting on several obligations: its parts must be exactly ``wanted`` (obligation id,
    scale -- from the claim's code), in order, each with the obligation's own domain and rebuild record,
    and each part's certificate is re-checked alone against its rebuilt objective."""
    from verify.proof import RecheckResult  # noqa: PLC0415

    t0 = time.perf_counter()
    if not isinstance(proof, Mapping) or not isinstance(proof.get("parts"), list):
        return _reject([f"claim {claim_id}: the record has no list of parts"], prec)
    parts = [p for p in proof["parts"] if isinstance(p, Mapping)]
    names = [p.get("obligation") for p in parts]
    if names != [o for o, _ in wanted] or len(parts) != len(proof["parts"]):
        return _reject([f"field 'parts': the record's parts {names} are not the obligations of claim {claim_id} "
                        f"{[o for o, _ in wanted]}"], prec, 0, t0)
    problems: list[str] = []
    n = 0
    for (ob_id, scale), p in zip(wanted, parts, strict=True):
        ob = obligation(ob_id, scale)
        if p.get("domain") != ob.domain:
            problems.append(f"{ob_id}: field 'domain' of the part is not the obligation's")
        if dict(p.get("rebuild") or {}) != _ob_rebuild(ob_id, scale):
            problems.append(f"{ob_id}: field 'rebuild' of the part is {p.get('rebuild')!r}, not the obligation's")
        rc = recheck_obligation_proof(ob_id, scale, p.get("proof"), prec=prec)
        n += rc.n_boxes
        problems += [f"{ob_id}: {q}" for q in rc.problems]
    problems += _summary_problems(evidence, proof)
    return RecheckResult(not problems, problems[:20], n, prec, time.perf_counter() - t0)


def interval_obligation(claim_id: str, build: Any, *, domain: str, statement: str,
                        threshold: Any = 0, proves: tuple[str, ...] = ()) -> ExpectedObligation:
    """The :class:`ExpectedObligation` of a claim proven by branch and bound (:func:`verify.proof.prove_le`):
    F <= ``threshold`` on the box of the objective ``build()`` (a fresh :class:`verify.proof.functions.Objective`
    from the claim's own code; a user claim file declares it with :func:`verify.claims.registry.obligation_for`,
    so ``smoothsens audit --claims FILE --recheck-proof`` rebuilds it from the file).  The record's ``domain``
    and ``statement`` must be ``domain`` and ``statement``; its proof must carry F's description, F's box and
    the threshold, and its boxes are re-checked against a fresh ``build()``.  ``proves``: the claim's
    obligations this inequality covers (empty: all of them; fewer makes the claim "partly proven")::

        @obligation_for("user-my-bound")
        def my_obligation(scale):
            return interval_obligation("user-my-bound", my_objective, domain="x in [0, 1]", statement="F <= 0")
    """
    from verify.proof.prover import box_to_json  # noqa: PLC0415 - needs python-flint (the proof extra)

    thr = _frac(threshold)
    obj = build()
    fields = {"domain": domain, "statement": statement, "proof.threshold": str(thr),
              "proof.objective": obj.describe(), "proof.domain": box_to_json(obj.domain())}

    def rc(evidence: Mapping[str, Any]) -> Any:
        proof = evidence["proof"]
        if proof.get("combine") is not None or proof.get("parts") is not None or proof.get("monotone"):
            return _reject(["field 'method': a branch-and-bound proof is one box list without hints"])
        if _frac(proof.get("threshold", "nan")) != thr:
            return _reject([f"field 'threshold': the proof proves F <= {proof.get('threshold')}, not {thr}"])
        out = recheck_boxes(proof, build(), threshold=thr, monotone={})
        if out.ok and out.n_boxes <= 0:
            return _reject(["the certificate has no box"])
        return out

    from verify.proof.record import Domain  # noqa: PLC0415 - with the interval obligations only

    return ExpectedObligation(claim_id, "interval", fields, rc, f"{statement} on {domain}", proves=tuple(proves),
                              domain=Domain.of_objective(obj))


def _tight_point(family: str) -> dict[str, Any]:
    for p in _tight_points():
        if p["family"] == family:
            return p
    raise ValueError(f"family must be one of {[p['family'] for p in _tight_points()]}; got {family!r}")


@lru_cache(maxsize=1)
def _tight_points() -> tuple[dict[str, Any], ...]:
    from verify.proof import obligations as O  # noqa: PLC0415 - needs python-flint (the proof extra)

    return tuple(O.tight_points(1.0))


def tight_rebuild(family: str) -> dict[str, Any]:
    """The rebuild record of the tight enclosure of ``family`` at the calibration of ``tight_table(1.0)``,
    from the code (:func:`verify.proof.obligations.tight_points`): kind, shape, gamma, eta1."""
    pt = _tight_point(family)
    return {"what": "tight", "kind": pt["kind"], "shape": dict(pt["shape"]), "gamma": pt["gamma"], "eta1": pt["eta1"]}


TIGHT_DOMAIN = "z in [0, inf) (compactified to u in [0, 2])"


def recheck_tight_certificate(family: str, evidence: Mapping[str, Any], *, prec: int = 128) -> Any:
    """Re-check a tight enclosure [lower, upper] of ``family`` against the objective rebuilt from the code
    (:func:`tight_rebuild`, never the record's parameters): the width is <= :data:`TIGHT_WIDTH`; the upper
    end is proven (the box list proves F <= upper, the proof's threshold being exactly the stated upper end);
    the lower end is attained (a fresh ball evaluation of F at the record's argmax, inside the domain, has a
    lower end >= the stated lower end); the displayed floats are the ends'."""
    from verify.proof import RecheckResult  # noqa: PLC0415
    from verify.proof import obligations as O  # noqa: PLC0415 - needs python-flint (the proof extra)
    from verify.proof.functions import lower_fraction, workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    t0 = time.perf_counter()
    rb = tight_rebuild(family)
    obj = O.tight_objective(rb["kind"], dict(rb["shape"]), float(rb["gamma"]), float(rb["eta1"]))
    enc = evidence.get("enclosure")
    proof = evidence.get("proof")
    if not isinstance(enc, Mapping) or not isinstance(proof, Mapping):
        return _reject(["the record has no enclosure or no proof"], prec)
    lower, upper = _frac(enc["lower"]), _frac(enc["upper"])
    problems: list[str] = []
    if not lower <= upper:
        problems.append(f"field 'enclosure': lower end {enc['lower']} > upper end {enc['upper']}")
    if upper - lower > TIGHT_WIDTH:
        problems.append(f"field 'enclosure': width {float(upper - lower):.3g} > {float(TIGHT_WIDTH):g}")
    for key, val in (("lower_float", lower), ("upper_float", upper)):
        if enc.get(key) != float(val):
            problems.append(f"field 'enclosure.{key}': {enc.get(key)!r} is not the end {float(val)!r}")
    if _frac(proof.get("threshold", "nan")) != upper:
        problems.append(f"field 'threshold': the proof proves F <= {proof.get('threshold')}, not the stated upper end "
                        f"{enc['upper']}")
    if proof.get("combine") is not None or proof.get("parts") is not None or proof.get("monotone"):
        problems.append("field 'method': an enclosure's upper end is proven by one box list without hints")
    if problems:
        return _reject(problems, prec, 0, t0)
    rc = recheck_boxes(proof, obj, threshold=upper, prec=prec, monotone={})
    problems += list(rc.problems)
    if rc.ok and rc.n_boxes <= 0:
        problems.append("the enclosure's certificate has no box")
    # the lower end: attained at the record's argmax (the certificate), evaluated afresh on the rebuilt F
    try:
        arg = [_frac(a) for a in enc["argmax"]]
        dom = list(obj.domain())
        if len(arg) != len(dom) or not all(lo <= a <= hi for a, (lo, hi) in zip(arg, dom, strict=True)):
            problems.append(f"field 'enclosure.argmax': {enc['argmax']} is not a point of the domain")
        else:
            with workprec(prec):
                fresh = lower_fraction(obj.evaluate_point(arg))
            if not fresh >= lower:
                problems.append(f"field 'enclosure.lower': not attained: F at the argmax has ball lower end "
                                f"{float(fresh):.17g} < the stated lower end {float(lower):.17g}")
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        problems.append(f"field 'enclosure.argmax': unreadable ({type(exc).__name__}: {exc})")
    return RecheckResult(not problems, problems[:20], rc.n_boxes, prec, time.perf_counter() - t0)


def tight_expectation(claim_id: str, family: str) -> ExpectedObligation:
    """The :class:`ExpectedObligation` of the tight enclosure claim of ``family`` (:data:`TIGHT`)."""
    pt = _tight_point(family)
    rb = tight_rebuild(family)
    fields = {"rebuild": rb, "family": family, "gamma": pt["gamma"], "eta": pt["eta"], "eta1": pt["eta1"],
              "eps_printed": 1.0, "width_asked": float(TIGHT_WIDTH), "domain": TIGHT_DOMAIN,
              "attained.ok": True}

    def rc(evidence: Mapping[str, Any]) -> Any:
        return recheck_tight_certificate(family, evidence)

    return ExpectedObligation(claim_id, "interval", fields, rc,
                              f"the tight eps of {family} at tight_table(1.0): its enclosure (upper end proven, lower "
                              f"end attained) on {TIGHT_DOMAIN}")


def recheck_evidence(evidence: Mapping[str, Any], *, claim_id: str, prec: int = 128) -> Any:
    """:func:`recheck_claim` of a claim's ``evidence`` as a VERIFIED (proven) result of ``claim_id`` (the
    claim id is required: a proof is only ever re-checked as the proof of a named claim)."""
    shown = evidence.get("coverage")
    partly = isinstance(shown, Mapping) and bool(shown.get("tested"))  # checked against the code by recheck_claim
    return recheck_claim(claim_id, {"verdict": "VERIFIED", "strength": "partly proven" if partly else "proven",
                                    "evidence": evidence}, prec=prec)


def describe_recheck(claim_id: str, rc: Any) -> str:
    """"proof re-checked: N steps/boxes cover WHAT" (WHAT derived from the claim's code) or the problems."""
    if not rc.ok:
        return "proof REJECTED: " + "; ".join(rc.problems)
    ob = expected_obligation(claim_id)
    covers = ob.covers if ob is not None else "?"
    if ob is not None:
        from verify.claims.registry import REGISTRY, obligation_coverage  # noqa: PLC0415

        proven, tested, _ = obligation_coverage(REGISTRY.get(claim_id).obligations if claim_id in REGISTRY else (), ob)
        if tested:
            covers += f" (obligations proven: {', '.join(proven)}; resting on tests: {', '.join(tested)})"
    return (f"proof re-checked: {rc.n_boxes} steps/boxes cover {covers} (arb {rc.prec} bits, {rc.seconds:.1f} s)"
            if rc.prec else f"proof re-checked: {rc.n_boxes} steps/boxes cover {covers} ({rc.seconds:.1f} s)")


def _recheck_json(rc: Any) -> dict[str, Any]:
    return {"ok": rc.ok, "problems": list(rc.problems), "n_boxes": rc.n_boxes, "prec": rc.prec,
            "seconds": round(rc.seconds, 3)}


# ---------------------------------------------------------------------------------------------------
# obligations and controls
# ---------------------------------------------------------------------------------------------------


def check_obligation(ob_id: str, scale: str = "test", *, max_boxes: int | None = None,
                     time_limit: float | None = None, refuted_rule: str = "R-FALSE",
                     planted: bool = False) -> ClaimResult:
    """The verdict of :func:`verify.proof.obligation_check.prove_obligation` (the proof layer proves the
    obligation ``ob_id`` on its ``scale`` box and re-checks the certificate): VERIFIED proven (proven and
    re-checked), REFUTED (certified point), INCONCLUSIVE (undecided, or the re-check / mpmath disagrees).
    A decided obligation runs once per process (the proof layer keeps it); the evidence is a copy."""
    out = prove_obligation(ob_id, scale, max_boxes=max_boxes, time_limit=time_limit)
    ev = copy.deepcopy(dict(out.evidence))
    if out.status == "unavailable":
        return ClaimResult(Verdict.INCONCLUSIVE, out.reason, ev)
    if out.status == "proven":
        ob = obligation(ob_id, scale)
        assert out.recheck is not None and out.recheck.ok
        switching = (" (convex switching lemma: derivative-sign box, face, off branch; branch and bound beyond)"
                     if ob.method == "convex-switching" else "")
        return ClaimResult(Verdict.VERIFIED,
                           f"proven on {ob.domain}: {out.reason}{switching}, max bound "
                           f"{ev['max_bound_float']:.3g} <= 0; re-checked independently ({out.recheck.prec}-bit arb, "
                           f"exact coverage)", ev, f"rigorous (arb {out.prec} bits; re-check {out.recheck.prec} bits)",
                           strength="proven")
    if out.status == "refuted":
        cx = ev.get("counterexample") or {}
        what = "planted control refuted" if planted else f"{ev.get('source')} fails"
        return ClaimResult(Verdict.REFUTED,
                           f"refuted: F = {_short(cx.get('mp50'))} > 0 (mpmath 50 digits) at "
                           f"{_point(cx)}; ball {cx.get('ball')} has lower end > 0",
                           ev, "arb ball + mpmath 50 digits", rule=f"{refuted_rule}: {what} at a certified point")
    if out.status == "disagreement":
        rechecked = "recheck" in ev
        return ClaimResult(Verdict.INCONCLUSIVE, out.reason, ev,
                           "arb ball arithmetic" if rechecked else "arb ball + mpmath 50 digits",
                           rule="R-UNDEC: " + ("prover and re-checker disagree" if rechecked
                                               else "ball and mpmath disagree"))
    budget = ev.get("budget") or {}
    return ClaimResult(Verdict.INCONCLUSIVE, out.reason, ev, "arb ball arithmetic",
                       rule=f"R-UNDEC: undecided within budget {budget.get('max_boxes')} boxes / "
                            f"{float(budget.get('seconds', 0)):g} s")


def _short(x: Any) -> str:
    s = str(x)
    return s if len(s) <= 24 else s[:22] + "..."


def _point(cx: Mapping[str, Any]) -> str:
    """The certified point in the obligation's own variables (z, shape, g), as floats."""
    out = []
    for p in cx.get("point_original") or cx.get("point") or []:
        try:
            out.append(f"{float(Fraction(str(p))):.6g}")
        except (ValueError, ZeroDivisionError):
            out.append(str(p))
    return "(" + ", ".join(out) + ")"


def _paper_check(spec: _Spec):
    def check(ctx: CheckContext) -> ClaimResult:
        return check_obligation(spec.obligation, "full" if ctx.prove_all else "test", refuted_rule=spec.refuted_rule)

    check.__name__ = f"check_{spec.id.replace('-', '_').replace('.', '_')}"
    return check


def _planted_check(control_id: str):
    def check(ctx: CheckContext) -> ClaimResult:
        return check_obligation(control_id, "test", refuted_rule="R-INVALID", planted=True)

    return check


# ---------------------------------------------------------------------------------------------------
# tight eps enclosures
# ---------------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _tight_table() -> tuple[dict[str, Any], ...]:
    from smoothsens_core.calibration.tight import tight_table  # noqa: PLC0415

    return tuple(tight_table(1.0))


def check_tight(family: str, *, width: Fraction = TIGHT_WIDTH, max_boxes: int = 20_000) -> ClaimResult:
    """Enclose the exact GP rate (the tight eps at the printed eta) of ``family`` at the calibration
    of ``tight_table(1.0)`` to ``width``: upper end proven (F - upper <= 0 on z in [0, inf)) and
    re-checked, lower end attained at an evaluated point; compared with the core's bounds."""
    missing = flint_missing()
    if missing:
        return ClaimResult(Verdict.INCONCLUSIVE, missing, {"family": family})
    from smoothsens_core.calibration.tight import tight_epsilon  # noqa: PLC0415
    from verify.proof import obligations as O  # noqa: PLC0415 - needs python-flint (the proof extra)
    from verify.proof.functions import lower_fraction, upper_fraction, workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    pt = _tight_point(family)
    row = next(r for r in _tight_table() if r["family"] == family)
    shape = dict(pt["shape"])
    rebuild = tight_rebuild(family)
    ev: dict[str, Any] = {"family": family, "gamma": pt["gamma"], "eta": pt["eta"], "eta1": pt["eta1"],
                          "eps_printed": 1.0, "width_asked": float(width), "rebuild": rebuild, "domain": TIGHT_DOMAIN}
    try:
        en = O.tight_enclosure(pt["kind"], shape, pt["gamma"], pt["eta1"], width=float(width), max_boxes=max_boxes)
    except RuntimeError as exc:
        return ClaimResult(Verdict.INCONCLUSIVE, f"undecided within budget {max_boxes} boxes: {exc}", ev,
                           "arb ball arithmetic", rule=f"R-UNDEC: enclosure not within {float(width):g} in budget")
    enc = en.to_json()
    ev["proof"] = enc.pop("proof")
    ev["enclosure"] = enc
    rc = recheck_tight_certificate(family, ev)
    ev["recheck"] = _recheck_json(rc)
    # the lower end, attained: a fresh evaluation at the argmax (same precision) and mpmath 50 digits
    obj = O.tight_objective(pt["kind"], shape, pt["gamma"], pt["eta1"])
    with workprec(en.proof.prec):
        v = obj.evaluate_point(en.argmax)
        fresh_lo, fresh_hi = lower_fraction(v), upper_fraction(v)  # exact ends at this precision
    try:  # a cross-check only (the ball is the certificate); SymPy's limit at z = inf can fail on a Piecewise
        mp: Any = obj.evaluate_mp(en.argmax, 50)
    except Exception as exc:  # noqa: BLE001 - recorded in the evidence
        mp = f"(mpmath cross-check not available: {type(exc).__name__})"
    attained = fresh_lo >= en.lower
    ev["attained"] = {"argmax_z": enc["argmax_original"], "ball_lower": str(fresh_lo), "ball_upper": str(fresh_hi),
                      "mp50": None if mp is None else str(mp), "ok": attained}
    core = tight_epsilon(pt["noise"], pt["gamma"], pt["eta"])
    agree = core.lower <= float(en.upper) and float(en.lower) <= core.upper
    table_ok = row.get("eps_tight") is not None and float(en.lower) <= row["eps_tight"]
    ev["core"] = {"tight_epsilon_lower": core.lower, "tight_epsilon_upper": core.upper,
                  "tight_table_eps_tight": row.get("eps_tight"), "overlaps": agree, "table_upper_ok": table_ok}
    width_ok = en.upper - en.lower <= width
    lo_f, up_f = float(en.lower), float(en.upper)
    if rc.ok and attained and width_ok and agree and table_ok:
        return ClaimResult(Verdict.VERIFIED,
                           f"tight eps in [{lo_f:.12f}, {up_f:.12f}] (width {up_f - lo_f:.1e}): upper proven on "
                           f"z in [0, inf) ({rc.n_boxes} boxes, re-checked), lower attained at z = "
                           f"{_point({'point': enc['argmax_original']})[1:-1]}; "
                           f"core grid [{core.lower:.12f}, {core.upper:.12f}] agrees",
                           ev, f"rigorous (arb {en.proof.prec} bits; re-check {rc.prec} bits)", strength="proven")
    why = [w for w, bad in (("re-check rejected the proof: " + "; ".join(rc.problems[:2]), not rc.ok),
                            ("the lower end is not attained by a fresh evaluation", not attained),
                            (f"width {up_f - lo_f:.2e} > {float(width):g}", not width_ok),
                            (f"disagrees with the core's tight_epsilon [{core.lower!r}, {core.upper!r}]", not agree),
                            (f"the core's tight_table eps_tight {row.get('eps_tight')!r} is below the attained "
                             f"lower end", not table_ok)) if bad]
    return ClaimResult(Verdict.INCONCLUSIVE, f"enclosure [{lo_f:.12f}, {up_f:.12f}]: " + "; ".join(why), ev,
                       "arb ball arithmetic", rule="R-UNDEC: " + "; ".join(why)[:200])


def _tight_check(family: str):
    def check(ctx: CheckContext) -> ClaimResult:
        return check_tight(family)

    return check


# ---------------------------------------------------------------------------------------------------
# registration
# ---------------------------------------------------------------------------------------------------
def _statements() -> dict[str, tuple[str, str, str]]:
    """{obligation id: (statement, test domain, full domain)} from the catalogue (empty without flint)."""
    if flint_missing():
        return {}
    from verify.proof import obligations as O  # noqa: PLC0415 - needs python-flint (the proof extra)

    full = {ob.id: ob for ob in O.catalogue("full")}
    return {ob.id: (ob.statement, ob.domain, full[ob.id].domain) for ob in O.catalogue("test")}


_ST = _statements()

def _declare_obligations() -> None:
    """What a proof of each claim of this module must prove, from the code (:func:`obligation_for`)."""
    def single(cid: str, ob_id: str, fixed_scale: str | None) -> Callable[[str], ExpectedObligation]:
        def make(scale: str) -> ExpectedObligation:
            return obligation_expectation(cid, ob_id, fixed_scale or scale)

        return make

    def tight(cid: str, fam: str) -> Callable[[str], ExpectedObligation]:
        def make(scale: str) -> ExpectedObligation:
            return tight_expectation(cid, fam)

        return make

    for spec in PAPER_OBLIGATIONS:
        obligation_for(spec.id)(single(spec.id, spec.obligation, None))
    for control, cid, *_ in PLANTED:  # a planted control's obligation is the false statement itself
        obligation_for(cid)(single(cid, control, "test"))
    for fam, cid, *_ in TIGHT:
        obligation_for(cid)(tight(cid, fam))


for _s in PAPER_OBLIGATIONS:
    _stmt, _dom, _full = _ST.get(_s.obligation, (f"obligation {_s.obligation} of verify.proof.obligations",
                                                 "its test box", "its full box"))
    claim(
        _s.id,
        seed=_s.seed,
        section=_s.section,
        statement=(f"PROOF of {_stmt} (F <= 0, F from the SymPy derivations, eps = 1 by homogeneity) for all "
                   f"{_dom} (with --prove-all: {_full}). VERIFIED (proven) only if branch and bound on arb balls "
                   f"proves it and the independent re-check accepts the serialised proof; REFUTED with a point "
                   f"certified by a ball and mpmath 50 digits; else INCONCLUSIVE."),
        kind=CheckKind.NUMERIC,
        code=f"{_s.code}; {_CODE}",
        # "heavy": over 10 s even on the test box; `smoothsens audit --quick` leaves these out (and says so)
        tags=("proof", "heavy") if _s.id in HEAVY else ("proof",),
    )(_paper_check(_s))

for _cid, _id, _seed, _sec, _stmt in PLANTED:
    claim(_id, seed=_seed, section=_sec, statement=_stmt, kind=CheckKind.NUMERIC, code=_CODE,
          tags=("planted", "proof"))(_planted_check(_cid))

for _fam, _id, _seed, _sec in TIGHT:
    claim(
        _id,
        seed=_seed,
        section=_sec,
        statement=(f"The tight eps of {_fam} at the printed calibration of tight_table(1.0) (eps = 1, gamma = 1/9): "
                   f"sup_(z >= 0) eta1 |psi(z)| + gamma |1 + z psi(z)| lies in an enclosure [lower, upper] of width "
                   f"<= 1e-9 whose upper end is proven on z in [0, inf) (re-checked) and whose lower end is attained "
                   f"at an evaluated point, and the core's certified tight_epsilon / tight_table bounds agree with it."),
        kind=CheckKind.NUMERIC,
        code="smoothsens_core/calibration/tight.py; " + _CODE,
        tags=("proof",),
    )(_tight_check(_fam))


# ---------------------------------------------------------------------------------------------------
# the rate bound's proof attached to the privacy claim it implies (@proof_for)
# ---------------------------------------------------------------------------------------------------
#: The reduction from the pointwise rate bound to (eps, 0, Lambda)-GP: a stated step, not re-proven.
GP_REDUCTION = (
    "FTC along a segment (the argument of 002 Lemma 9's proof, steps (5)-(8), in the GP setting of 004 Lemmas 3.3 "
    "and 3.5): for x ~ x' at d = dist(x, x') (any metric: Euclidean for GP, dist_H for DP, 004 Remark after Lemma "
    "3.5) the log-density of f(x) + (B(x)/eta) Z at y is l(a, s) = -s + ln h((y - a) e^-s) with a = f(x), s = "
    "ln(B(x)/eta), continuous and differentiable but at finitely many points; along the straight segment from "
    "(f(x'), s') to (f(x), s), dl/dt = -psi(z) (a - a') e^-s(t) - (1 + z psi(z)) (s - s') with z = (y - a(t)) "
    "e^-s(t), where |a - a'| e^-s(t) <= eta d (|f(x) - f(x')| <= min(B(x), B(x')) d, B an upper bound on L_{f,Lambda} "
    "at both points, and e^s(t) >= min(B(x), B(x'))/eta) and |s - s'| <= gamma d (004 Def. 8 (2) with g_E); so "
    "|ln p_x(y) - ln p_x'(y)| <= d sup_z (eta |psi(z)| + gamma |1 + z psi(z)|) <= eps d, the proven rate bound.  "
    "(004's own proof splits the ratio as l1 l2 and bounds sup|psi| and sup|1 + z psi| apart; the rate bound "
    "proven here is the sharper joint form, and it implies the lemma's eps.)")

#: 004 Cor. 3.2 (m outputs, l1 metric) in the same FTC form: the step from the two obligations to GP.
COR_REDUCTION = (
    "004 Cor. 3.2 (proof in App. A.1) in the FTC form above: with m iid coordinates the log-density is "
    "sum_j l(a_j, s); along the segment |dl/dt| <= e^-s(t) sum_j |psi(z_j)| |a_j - a_j'| + |s - s'| sum_j "
    "|1 + z_j psi(z_j)| <= d (eta |psi(z_1)| + gamma |1 + z_1 psi(z_1)| + gamma sum_{j >= 2} |1 + z_j psi(z_j)|), "
    "z_1 the coordinate with the largest |psi(z_j)| (||f(x) - f(x')||_1 e^-s(t) <= eta d), and sum_{j >= 2} "
    "|1 + z_j psi(z_j)| <= (m - 1) U with U = max(1, p theta - 1) >= sup_z |1 + z psi(z)| (the scale-sup proof); "
    "so the loss is <= d sup_z1 (eta |psi(z1)| + gamma |1 + z1 psi(z1)| + (m - 1) gamma U) <= eps d at the m = 3 "
    "calibration (the rate-m3 proof)")

#: 002 Thm. 8 / Lemma 9: the step from the proven PolyPlace rate bound to eps-DP, as the paper proves it.
THM8_REDUCTION = (
    "002 Thm. 8's proof via Lemma 9, steps (3)-(9): scaling (2) f_{s,alpha}(x) = c f_{cs,alpha}(cx) reduces "
    "the ratio to SS(D) = 1; the FTC along t in [0, 1] (Lemma 11: l continuous, differentiable but at one "
    "point) and the chain rule (Fact 5) write ln(p_{M(D')}(x)/p_{M(D)}(x)) as the integral over t of lambda_r "
    "(scale log-derivative) + e^(-lambda_r t gamma) lambda_s (shift log-derivative) of PolyPlace(1/gamma, "
    "eps/gamma) at y(t); |lambda_r| <= 1 since SS(D')/SS(D) in [e^-gamma, e^gamma], and |e^(-lambda_r t gamma) "
    "lambda_s| <= 1 since |q(D) - q(D')| <= min(SS(D), SS(D')) (lambda_s <= min(1, e^(lambda_r gamma)), the bound "
    "as corrected in claim 002-Lemma-9-proof-bound); by the triangle inequality (8) the loss is <= sup_x "
    "|shift| + |scale| log-derivative, which by (2) equals sup_z gamma (|psi(z)| + |1 + z psi(z)|) for "
    "PolyPlace(1, alpha = eps/gamma): <= eps by the proven rate bound (002 Lemma 12's (10) as an inequality)")


#: 004 Lemmas 3.3, 3.5 and Cor. 3.2 for every gamma, eta > 0 and every m >= 1: the FTC bound above, split into
#: the two one-dimensional sups (linear in (eta, gamma) >= 0), with the sups and the calibration proven symbolically.
SUP_REDUCTION = (
    "004 Lemma 3.3's proof (App. A.1; Lemma 3.5 and Cor. 3.2 alike) in the FTC form of the step above, for m >= 1 "
    "iid coordinates (m = 1: Lemmas 3.3, 3.5): the log-density is sum_j l(a_j, s), and along the segment |dl/dt| <= "
    "e^-s(t) sum_j |psi(z_j)| |a_j - a_j'| + |s - s'| sum_j |1 + z_j psi(z_j)| <= C ||f(x) - f(x')||_1 e^-s(t) + "
    "gamma d m U <= d (eta C + m gamma U) with C = sup_z |psi(z)| and U = sup_z |1 + z psi(z)| (||f(x) - f(x')||_1 "
    "e^-s(t) <= eta d, |s - s'| <= gamma d as above); the bound is linear in (eta, gamma) >= 0, so no box in gamma, "
    "eta or m is needed; C, U and the calibration eps = m gamma U + eta C are the symbolic proof's steps (sup|D_shift|, "
    "sup|D_scale|, 'eps = m gamma sup|D_scale| + eta sup|D_shift| equals the printed eps'), so the loss is <= eps d")


@dataclass(frozen=True)
class _PrivacyProof:
    obligations: tuple[str, ...]  # rate obligations whose proofs the claim carries (all needed)
    reduction: str  # the stated step from them to the claim
    full_range: str  # the claim's own range, against which the proof's box is stated
    via: str  # one line for the summary
    #: the symbolic proof (a claim of verify.proof.symbolic.SPECS) of sup|psi|, sup|1 + z psi| and the calibration
    #: on the lemma's whole domain; with it no rate obligation (gamma/eps box) is needed
    symbolic: str = ""
    #: the family of the catalogued mechanisms (verify/audit/catalogue.py) checked against the proven domain
    family: str = ""


#: privacy claim id -> the rate obligations whose proofs it carries, and the reduction
PRIVACY_PROOFS: Mapping[str, _PrivacyProof] = {
    "004-Lemma-3.3-privacy": _PrivacyProof(
        (), GP_REDUCTION + "; " + SUP_REDUCTION,
        "all gamma, eta > 0 with eps = gamma U + eta C (U = max(1, p theta - 1), C = theta (p-1)^((p-1)/p)), "
        "p > 1, theta >= 1, any metric",
        "004 Lemma 3.3's reduction to GP (FTC along a segment, the two sups)", "004-Lemma-3.3-epsilon", "gencauchy"),
    "004-Cor-3.2-privacy": _PrivacyProof(
        (), GP_REDUCTION + "; " + SUP_REDUCTION,
        "all m >= 1 outputs, all gamma, eta > 0 with eps = m gamma U + eta C (U = max(1, p theta - 1), "
        "C = theta (p-1)^((p-1)/p)), p > 1, theta >= 1, l1 metric on the outputs",
        "004 Cor. 3.2's reduction to GP for every m (FTC along a segment, the two sups)", "004-Cor-3.2-epsilon",
        "gencauchy"),
    "004-Lemma-3.5-privacy": _PrivacyProof(
        (), GP_REDUCTION + "; " + SUP_REDUCTION,
        "all gamma, eta > 0 with eps = nu gamma + (nu + 1)/(2 sqrt nu) eta (U = nu, C = (nu + 1)/(2 sqrt nu)), "
        "nu > 1, any metric", "004 Lemma 3.5's reduction to GP (FTC along a segment, the two sups)",
        "004-Lemma-3.5-epsilon", "student_t"),
    "002-Thm-8-privacy": _PrivacyProof(
        ("002-Thm-8-rate",), THM8_REDUCTION, "0 < gamma < eps, Hamming neighbours",
        "002 Lemma 9's reduction to eps-DP", "", "polyplace"),
}

#: |eps - (m gamma U + eta C)| / eps allowed for a catalogued mechanism (the core computes eta and eps in
#: binary64: the proven eps' = m gamma U + eta C of its exact parameters differs from its eps by rounding only)
CALIBRATION_RTOL = 1e-14


def _catalogue_membership(cid: str, spec: _PrivacyProof, g_box: tuple[Fraction, Fraction] | None) -> list[dict[str, Any]]:
    """Every catalogued mechanism of claim ``cid`` (verify/audit/catalogue.py) against the proven domain:
    its parameters read from the mechanism (noise shape, m, gamma of its growth, eta, eps), the proven
    eps' = m gamma U + eta C (PolyPlace: alpha gamma, with eta = gamma and gamma/eps' = 1/alpha in ``g_box``)
    from the exact binary values at mpmath 50 digits, and whether eps' agrees with the mechanism's eps to
    :data:`CALIBRATION_RTOL` (float rounding of the core's calibration)."""
    import mpmath  # noqa: PLC0415

    from verify.audit.catalogue import catalogue  # noqa: PLC0415

    def mp(x: float) -> Any:
        q = Fraction(x)
        return mpmath.mpf(q.numerator) / q.denominator

    rows = []
    with mpmath.workdps(50):
        for e in catalogue():
            if e.claim != cid:
                continue
            mech = e.mechanism
            noise: Any = mech.noise  # the family's own parameters, read by the branch of spec.family below
            growth = mech.growth
            if growth is None:
                raise ValueError(f"catalogue entry {e.key}: a privacy claim's mechanism needs a growth function")
            gamma, eta, eps, m = growth.gamma, mech.eta, mech.eps, int(mech.m)
            row: dict[str, Any] = {"key": e.key, "gamma": gamma, "eta": eta, "eps": eps, "m": m,
                                   "metric": mech.metric, "growth": growth.kind}
            why = []
            if spec.family == "gencauchy":
                p, th = float(noise.p), float(noise.theta)
                row.update(p=p, theta=th)
                P_, T_ = mp(p), mp(th)
                C, U = T_ * (P_ - 1) ** ((P_ - 1) / P_), max(mpmath.mpf(1), P_ * T_ - 1)
                eps_p = m * mp(gamma) * U + mp(eta) * C
                why += [w for w, bad in (("p <= 1", not p > 1), ("theta < 1", not th >= 1),
                                         ("m != 1 (Lemma 3.3)", cid == "004-Lemma-3.3-privacy" and m != 1)) if bad]
            elif spec.family == "student_t":
                nu = float(noise.nu)
                row["nu"] = nu
                N_ = mp(nu)
                C, U = (N_ + 1) / (2 * mpmath.sqrt(N_)), N_
                eps_p = mp(gamma) * U + mp(eta) * C
                why += ["nu <= 1"] * (not nu > 1) + ["m != 1"] * (m != 1)
            elif spec.family == "polyplace":
                alpha = float(noise.alpha)
                row.update(alpha=alpha, s=float(noise.s))
                eps_p = mp(alpha) * mp(gamma)
                g = 1 / Fraction(alpha)  # gamma/eps' exactly
                row["gamma_over_eps"] = str(g)
                box = "no proven box" if g_box is None else f"[{g_box[0]}, {g_box[1]}]"
                why += [w for w, bad in ((f"gamma/eps = {float(g):.6g} outside {box}",
                                          g_box is None or not g_box[0] <= g <= g_box[1]),
                                         ("eta != gamma", eta != gamma), ("s != 1", float(noise.s) != 1.0)) if bad]
            else:
                raise ValueError(f"family must be 'gencauchy', 'student_t' or 'polyplace'; got {spec.family!r}")
            rel = abs(eps_p / mp(eps) - 1)
            row.update(eps_proven=mpmath.nstr(eps_p, 50), calibration_rel_diff=float(rel), eps_proven_le_eps=bool(eps_p <= mp(eps)))
            why += [w for w, bad in (("gamma <= 0", not gamma > 0), ("eta <= 0", not eta > 0), ("m < 1", m < 1),
                                     (f"eps != m gamma U + eta C (relative {float(rel):.2g})", rel > CALIBRATION_RTOL),
                                     (f"growth {growth.kind!r} is not g_E", growth.kind != "exp")) if bad]
            row["inside"], row["outside_because"] = not why, why
            rows.append(row)
    return rows


def _proof_is_heavy(ob_ids: tuple[str, ...]) -> list[str]:
    """The proof claims among ``ob_ids`` tagged "heavy" (:data:`HEAVY`: over 10 s on their test box)."""
    heavy = {s.obligation: s.id for s in PAPER_OBLIGATIONS if s.id in HEAVY}
    return [heavy[o] for o in ob_ids if o in heavy]


def _privacy_proof(cid: str, spec: _PrivacyProof):
    def proof(ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
        scale = "full" if ctx.prove_all else "test"
        heavy = _proof_is_heavy(spec.obligations)
        if heavy and ctx.budget < 0.5 and not ctx.prove_all:
            # the quick profile (budget < 0.5, as every claim set reads it) leaves out the interval proofs
            # tagged "heavy", as `smoothsens audit --quick` leaves out their own claims: the test stands
            return with_evidence(tested, {"proof_left_out": (
                f"the proof of {', '.join(heavy)} (over 10 s, tag 'heavy') is left out in the quick profile; it is "
                f"attached in the default audit")})
        if spec.symbolic:
            return _symbolic_privacy_proof(cid, spec, tested)
        results = [check_obligation(ob_id, scale, refuted_rule="R-INVALID") for ob_id in spec.obligations]
        for res in results:
            if res.verdict is Verdict.REFUTED:  # a certified point where a rate bound fails on its box
                return res
        if any(res.verdict is not Verdict.VERIFIED for res in results):
            return tested  # not proven: the tested result stands (the reason is in the obligation's own claim)
        evs = [dict(res.evidence) for res in results]
        members: list[dict[str, Any]] = []
        if spec.family == "polyplace" and len(evs) == 1:  # every catalogued mechanism inside the rate box?
            members = _catalogue_membership(cid, spec, _pp_g_box(evs[0]["obligation"], scale))
            outside = [r for r in members if not r["inside"]]
            if outside:
                return _outside(tested, outside, members)
        boxes = "; ".join(f"{ev['obligation']}: {ev['domain']}" for ev in evs)
        domain = _privacy_domain(spec, scale)
        if len(evs) == 1:
            ev = evs[0]
            proof_rec = {**ev.pop("proof"), "method": "interval", "relies_on": [spec.reduction]}
            ev.pop("domain", None)
        else:
            parts = [{"obligation": ev["obligation"], "domain": ev["domain"], "rebuild": ev["rebuild"],
                      "proof": ev["proof"]} for ev in evs]
            proof_rec = {"method": "interval", "combine": "all", "status": "proven", "threshold": "0",
                         "parts": parts, "relies_on": [spec.reduction]}
            ev = {"obligations": list(spec.obligations), "statement": " AND ".join(e["statement"] for e in evs),
                  "rebuild": {"what": "all", "parts": [e["rebuild"] for e in evs]},
                  "recheck": [e.get("recheck") for e in evs], **_proof_summary(proof_rec)}
        if members:
            ev["catalogue"] = members
        return with_proof(tested, claim_obligation=privacy_expectation(cid, spec, scale),
                          summary=f"proven: {ev.get('statement', spec.obligations)} on {boxes} (interval "
                                          f"proof{'s' if len(evs) > 1 else ''} re-checked) plus {spec.via}"
                                          + (f"; all {len(members)} catalogued mechanisms inside" if members else ""),
                          proof=proof_rec, domain=domain, precision=results[0].precision, **ev)

    proof.__name__ = f"proof_{cid.replace('-', '_').replace('.', '_')}"
    return proof


def _privacy_domain(spec: _PrivacyProof, scale: str) -> str:
    """The displayed domain of a privacy claim proven by the rate obligations of ``spec`` at ``scale``."""
    boxes = "; ".join(f"{o}: {obligation(o, scale).domain}" for o in spec.obligations)
    return (f"{boxes} (the rate proofs' {scale} boxes, eps = 1 by homogeneity; the claim's full range is "
            f"{spec.full_range}: outside these boxes it stays tested); relies on: {spec.reduction}")


def _symbolic_privacy_domain(spec: _PrivacyProof, members: list[dict[str, Any]]) -> str:
    from verify.proof import symbolic as S  # noqa: PLC0415 - cost: about 0.2 s at import, paid only when used

    keys = ", ".join(r["key"] for r in members)
    return (f"{spec.full_range} (the symbolic proof {spec.symbolic}: {S.SPECS[spec.symbolic].domain}; z over R, h "
            f"even); every catalogued mechanism of the claim ({keys}) inside, eps = m gamma U + eta C to "
            f"{CALIBRATION_RTOL:g} (binary64 rounding of the core); relies on: {spec.reduction}")


def privacy_expectation(cid: str, spec: _PrivacyProof, scale: str) -> ExpectedObligation:
    """The :class:`ExpectedObligation` of the privacy claim ``cid`` (:data:`PRIVACY_PROOFS`): its parts (the
    symbolic proof of C, U and the calibration, or the rate obligations), the reduction it relies on, its
    domain and the catalogued mechanisms recomputed (:func:`_catalogue_membership`), all from the code."""
    if spec.symbolic:
        from verify.proof import symbolic as S  # noqa: PLC0415 - cost: about 0.2 s at import, paid only when used

        members = _catalogue_membership(cid, spec, None)
        sym = S.SPECS[spec.symbolic]
        rebuild = {"what": "symbolic", "claim": spec.symbolic}
        fields = {"rebuild": {"what": "all", "parts": [rebuild]}, "domain": _symbolic_privacy_domain(spec, members),
                  "catalogue": members, "proof.combine": "all", "proof.status": "proven", "proof.threshold": "0",
                  "proof.relies_on": [spec.reduction, *sym.relies_on]}

        def rc(evidence: Mapping[str, Any]) -> Any:
            proof = evidence["proof"]
            parts = [p for p in proof.get("parts") or [] if isinstance(p, Mapping)]
            if len(parts) != 1 or len(proof.get("parts") or []) != 1:
                return _reject([f"field 'parts': claim {cid} rests on exactly one part, the symbolic proof "
                                f"{spec.symbolic}; the record has {len(proof.get('parts') or [])}"])
            part = parts[0]
            problems = [f"field 'parts.{k}': {part.get(k)!r} is not {v!r}" for k, v in
                        (("obligation", spec.symbolic), ("domain", sym.domain), ("rebuild", rebuild)) if part.get(k) != v]
            out = S.recheck_for(part.get("proof") or {}, claim_id=spec.symbolic)
            problems += list(out.problems)
            if out.ok and out.n_boxes <= 0:
                problems.append("the symbolic part has no step")
            return _reject(problems, out.prec, out.n_boxes) if problems else out

        return ExpectedObligation(cid, "interval", fields, rc, _symbolic_privacy_domain(spec, members))
    members = (_catalogue_membership(cid, spec, _pp_g_box(spec.obligations[0], scale))
               if spec.family == "polyplace" and len(spec.obligations) == 1 else [])
    extra: dict[str, Any] = {"domain": _privacy_domain(spec, scale), "catalogue": members if members else ABSENT}
    if len(spec.obligations) == 1:
        extra["proof.relies_on"] = [spec.reduction]
        ex = obligation_expectation(cid, spec.obligations[0], scale, extra_fields=extra,
                                    covers=_privacy_domain(spec, scale))
        return ExpectedObligation(cid, "interval", ex.fields, ex.recheck, ex.covers)
    return composite_expectation(cid, list(spec.obligations), scale, domain=_privacy_domain(spec, scale),
                                 relies_on=[spec.reduction], extra_fields={"catalogue": ABSENT})


def _pp_g_box(ob_id: str, scale: str) -> tuple[Fraction, Fraction]:
    """The gamma/eps box of a PolyPlace rate obligation (its objective's last variable)."""
    var = obligation(ob_id, scale).build().variables[-1]
    return Fraction(var.lo), Fraction(var.hi)


def _outside(tested: ClaimResult, outside: list[dict[str, Any]], members: list[dict[str, Any]]) -> ClaimResult:
    """The tested result, with the catalogued mechanisms outside the proven domain named."""
    names = "; ".join(f"{r['key']} ({', '.join(r['outside_because'])})" for r in outside)
    return with_evidence(tested, {"proof_not_attached": f"catalogued mechanisms outside the proven domain: {names}",
                                  "catalogue": members})


def _symbolic_privacy_proof(cid: str, spec: _PrivacyProof, tested: ClaimResult) -> ClaimResult:
    """004 Lemmas 3.3 / 3.5, Cor. 3.2 for all gamma, eta > 0 and m >= 1: the symbolic proof of C = sup|psi|,
    U = sup|1 + z psi| and eps = m gamma U + eta C on the lemma's domain (re-checked by
    verify.proof.symbolic.recheck), the reduction :data:`SUP_REDUCTION`, and every catalogued mechanism
    of the claim inside that domain with eps = m gamma U + eta C (mpmath 50 digits).  Branch and bound
    does not prove C: the bound is attained at an interior z* (a tangency; shift_sup_objective)."""
    from verify.claims.sets import proofs_symbolic  # noqa: F401, PLC0415 - registers the specs' witness functions
    from verify.proof import symbolic as S  # noqa: PLC0415 - cost: about 0.2 s at import, paid only when used

    t0 = time.perf_counter()
    witnesses, derivation = S.spec_witnesses(spec.symbolic)
    record = S.make_record(spec.symbolic, witnesses, derivation=derivation)
    rc = S.recheck(record)
    if not rc.ok:
        return tested  # not proven: the symbolic claim says why
    members = _catalogue_membership(cid, spec, None)
    outside = [r for r in members if not r["inside"]]
    if outside:
        return _outside(tested, outside, members)
    sym_domain = S.SPECS[spec.symbolic].domain
    rebuild = {"what": "symbolic", "claim": spec.symbolic}
    domain = _symbolic_privacy_domain(spec, members)
    proof_rec = {"method": "interval", "combine": "all", "status": "proven", "threshold": "0",
                 "parts": [{"obligation": spec.symbolic, "domain": sym_domain, "rebuild": rebuild, "proof": record}],
                 "relies_on": [spec.reduction, *record.get("relies_on", [])]}
    rc_json = {"ok": rc.ok, "problems": list(rc.problems), "n_steps": rc.n_steps, "n_points": rc.n_points,
               "prec": rc.prec, "seconds": round(rc.seconds, 3)}
    return with_proof(tested, claim_obligation=privacy_expectation(cid, spec, "test"),
                      summary=(f"proven for {spec.full_range}: C = sup|psi|, U = sup|1 + z psi| and the calibration "
                               f"by the symbolic proof {spec.symbolic} ({rc.n_steps} SymPy steps, re-checked) plus "
                               f"{spec.via}; all {len(members)} catalogued mechanisms inside"),
                      proof=proof_rec, domain=domain, precision=f"symbolic (SymPy exact); arb {rc.prec} bits",
                      rebuild={"what": "all", "parts": [rebuild]}, recheck=[rc_json], catalogue=members,
                      seconds_proof=round(time.perf_counter() - t0, 3))


def _privacy_by_scale(cid: str, spec: _PrivacyProof, scale: str) -> ExpectedObligation:
    return privacy_expectation(cid, spec, scale)


def _attach_privacy_proofs() -> None:
    from verify.claims.registry import proof_for  # noqa: PLC0415

    for cid, spec in PRIVACY_PROOFS.items():
        proof_for(cid)(_privacy_proof(cid, spec))
        obligation_for(cid)(functools.partial(_privacy_by_scale, cid, spec))


_attach_privacy_proofs()
_declare_obligations()
