"""Interval proofs of 004 Def. 8 conditions and of printed numbers (issue 16), attached to claims.

Each proof here is one obligation of :mod:`verify.proof.obligations` proven by
:func:`verify.claims.sets.proofs.check_obligation` (branch and bound on arb balls, then the
independent re-check of the serialised proof against a freshly rebuilt objective).  The proof record
is the prover's JSON with ``"method": "interval"``, and ``evidence["rebuild"]`` names the
obligation, so ``smoothsens audit --claim ID --recheck-proof`` re-checks it through
:func:`verify.claims.sets.proofs.recheck_evidence` (the "obligation" rebuild path).

* ``@proof_for("004-Remark-3.5-example")``: the four eps values of the Remark after 004 Lemma 3.5
  (Lemma 3.3 derived ~1.44 to 2 decimals; [NRS07] 3, Lemma 3.5 derived 1.025, [BS19] 1.125 to 12
  decimals, the claim's own test tolerances) enclosed by arb balls at the exact example point.
* ``@proof_for("003-Ineq-5-example")``: ln(beta/alpha)/k >= 8.4 at k = 1, alpha = 1e-4, beta = 1/2.
* claim ``004-Def-8-ramp-g_L-proof``: 004 Def. 8 (2) with g_L for the ramp-profile closed forms
  (one-way threshold 004 Lemma 4.1, bounded range App. C.3, two-way threshold Lemma 4.3), Lambda =
  inf, gamma w in [0, 64], all x (the sufficient condition and the reductions are stated in
  :func:`verify.proof.obligations.ramp_def8_linear_objective`).

Controls: each new kind of obligation has a planted false variant in
:func:`verify.proof.obligations.controls` (a bound 1e-6 too small / too large), refuted with a
certified point in tests/verify/test_proofs_def8.py (not registered as claims: the registry's
planted proof claims are those of :mod:`verify.claims.sets.proofs`).

Not attached (their statements are more than what an interval obligation proves today; see the
report of issue 16): ``004-Def-8-smoothness`` (its KDE closed form needs the implicit chord partner
alpha(b) of 004 Lemma 4.6, and its statement includes finite Lambda), ``004-Lemma-4.1`` (sup
attainment), the ``*-tight`` claims (their statements include the auditor's tight calibration and a
refuted 1% shave, beyond the rate bound proven by the ``*-rate-proof`` claims).
"""

from __future__ import annotations

from verify.claims import CheckContext, CheckKind, ClaimResult, Verdict, claim
from verify.claims.registry import proof_for, with_proof

__all__ = ["attach_obligation"]

_CODE = "verify/proof/obligations.py, verify/proof/prover.py, verify/proof/recheck.py"


def attach_obligation(ob_id: str, tested: ClaimResult, *, what: str, scale: str = "test") -> ClaimResult:
    """Prove the obligation ``ob_id`` and upgrade ``tested`` (VERIFIED tested) to VERIFIED proven
    when the prover proves it and the independent re-check accepts the proof; REFUTED (R-FALSE) when
    the prover certifies a point where it fails; else ``tested`` with the attempt in its evidence."""
    from verify.claims.sets.proofs import check_obligation  # noqa: PLC0415

    res = check_obligation(ob_id, scale, refuted_rule="R-FALSE")
    ev = res.evidence
    if res.verdict is Verdict.VERIFIED and res.strength == "proven":
        proof = {**dict(ev["proof"]), "method": "interval"}
        return with_proof(
            tested, summary=f"{tested.summary}; PROVEN ({what}): {res.summary}", proof=proof, domain=ev["domain"],
            precision=res.precision, rebuild=dict(ev["rebuild"]), obligation=ob_id, statement_proven=ev["statement"],
            recheck=ev.get("recheck"), n_boxes=ev.get("n_boxes"), max_bound=ev.get("max_bound"),
            seconds_prove=ev.get("seconds_prove"), seconds_build=ev.get("seconds_build"))
    if res.verdict is Verdict.REFUTED:
        return ClaimResult(Verdict.REFUTED, f"the proof attempt ({what}) finds a certified counterexample: {res.summary}",
                           {"tested": {"summary": tested.summary, "evidence": dict(tested.evidence)}, **dict(ev)},
                           res.precision, tested.seconds, rule=f"R-FALSE: {what} fails at a certified point")
    note = {"obligation": ob_id, "verdict": res.verdict.value, "summary": res.summary, "rule": res.rule}
    return ClaimResult(tested.verdict, tested.summary, {**dict(tested.evidence), "proof_attempt": note},
                       tested.precision, tested.seconds, tested.rule, tested.strength)


def _obligation_ids() -> tuple[str, str, str]:
    from verify.proof import obligations as O  # noqa: PLC0415

    return O.REMARK_35, O.INEQ5, O.RAMP_GL


@proof_for("004-Remark-3.5-example")
def prove_remark_3_5_example(ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    """The printed eps values of the Remark, as arb enclosures at the exact example point."""
    return attach_obligation(_obligation_ids()[0], tested, what="the four printed eps values at their printed digits")


@proof_for("003-Ineq-5-example")
def prove_ineq5_example(ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    """ln(beta/alpha)/k >= 8.4 at the example's numbers: the printed 'eps > 8.4' follows from (5)."""
    return attach_obligation(_obligation_ids()[1], tested, what="ln(5000) >= 8.4")


@claim(
    "004-Def-8-ramp-g_L-proof",
    seed="004",
    section="Sec. 3.1.2, Def. 8 (2) with g_L for the closed forms of Lemma 4.1, App. C.3, Lemma 4.3",
    statement=(
        "PROOF that the ramp-profile smooth upper bound B*(x) = R(d(x)) of the one-way threshold (004 Lemma 4.1), "
        "the bounded range (App. C.3, tent and trapezoid) and the two-way threshold (Lemma 4.3, every region), "
        "with R(d) = 1/w (d <= 0), max(1/(d + w), 1/(w (1 + gamma d))) (d > 0), satisfies 004 Def. 8 (2) with "
        "g_L: B(x) <= (1 + gamma |x - x'|) B(x') for all x, x' (Lambda = inf), for gamma w in [0, 64].  By "
        "d 1-Lipschitz, scaling to w = 1 and the sufficient condition |(1/R)'| <= gamma inf(1/R) (the local "
        "form |(ln B)'| <= gamma is not sufficient for g_L), proven on d/w in [0, inf) by branch and bound on arb "
        "balls and re-checked; REFUTED with a certified point; else INCONCLUSIVE."
    ),
    kind=CheckKind.NUMERIC,
    code="smoothsens_core/sensitivity/_ramp.py (ramp_one_point, g_L); " + _CODE,
    tags=("proof",),
)
def check_ramp_def8_linear(ctx: CheckContext) -> ClaimResult:
    from verify.claims.sets.proofs import check_obligation  # noqa: PLC0415

    return check_obligation(_obligation_ids()[2], "test", refuted_rule="R-FALSE")



_KDE_WHAT = {
    "curve": "b strictly monotone along the chord-partner curve, so alpha(b) is unique for b in [0, b_end]",
    "gE": "D decreasing on [0, 1], D < 0 and unimodal on (1, b_end] (the g_E candidates b1, b2 of kde.py)",
    "gL": "Q = 1/D - b increasing on (0, 1), P = b - 1/D unimodal on (1, b_end] (the g_L candidates of kde.py)",
}


def _kde_claim(which: str) -> None:
    @claim(
        f"004-KDE-shape-{which}-proof",
        seed="004",
        section="Sec. 4.3, Lemmas 4.5-4.7 (the corrected KDE closed form of kde.py)",
        statement=(
            f"PROOF: {_KDE_WHAT[which]}, along the chord-partner curve chi(a, b) = 1 + a(a - b) - "
            "e^{(a^2 - b^2)/2} = 0 written explicitly (s = a(a - b): a^2 = 1/(2T(s)), b = a - s/a, T(s) = "
            "(s - ln(1+s))/s^2; D = 1/alpha - b on the curve; no root is solved), b in [0, b_end], b_end = "
            "b(L = 64) = 11.31 (b(4096) = 90.5 with prove_all); the tail b > b_end is not covered.  Branch and "
            "bound on arb Taylor series, re-checked; REFUTED with a certified point; else INCONCLUSIVE."),
        kind=CheckKind.NUMERIC,
        code="smoothsens_core/sensitivity/kde.py; verify/proof/obligations.py (kde_curve, kde_shape_objective); " + _CODE,
        tags=("proof",),
    )
    def check(ctx: CheckContext) -> ClaimResult:
        from verify.claims.sets.proofs import check_obligation  # noqa: PLC0415
        from verify.proof import obligations as O  # noqa: PLC0415

        return check_obligation(O.KDE_SHAPE[which], "full" if ctx.prove_all else "test", refuted_rule="R-FALSE")


for _w in ("curve", "gE", "gL"):
    _kde_claim(_w)
