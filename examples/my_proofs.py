"""A user's own proofs, run by ``smoothsens audit --claims examples/my_proofs.py [--recheck-proof]``.

Three claims, each stated in this file with what a proof of it must prove (``obligation_for``):

* ``user-ln1p-lower-bound`` -- an inequality of the user's own: ln(1 + x) >= x - x^2/2 for x in [0, 1]
  (Taylor's theorem with the alternating remainder), proven by branch and bound on ball arithmetic
  (:func:`verify.proof.prove_le` on F = x - x^2/2 - ln(1 + x) <= 0) -> VERIFIED (proven);
* ``user-cauchy-rate`` -- the privacy-loss rate of a mechanism M(x) = f(x) + (B(x)/eta) Z with standard
  Cauchy noise Z, h(z) = 1/(pi (1 + z^2)), psi = (ln h)' = -2z/(1 + z^2), calibrated eta = (1 - g) eps,
  gamma = g eps: eta |psi(z)| + gamma |1 + z psi(z)| <= eps for every z and every g = gamma/eps in
  [1/10, 1/2] (the rate of 004 Lemma 3.3's proof, App. A.1) -> VERIFIED (proven);
* ``user-cauchy-mechanism`` -- the mechanism itself, M(x) = sin(x) + (B/eta) Z with B = 1, is
  (eps, 0)-GP (Lambda = inf) at g in [1/10, 1/2]: it needs the rate above *and* that B is a smooth upper
  bound (B >= B*(x) = sup_x' |cos x'| e^(-gamma |x - x'|), 004 Def. 8-9), which this file only tests on a
  grid -> VERIFIED (partly proven): "rate" proven, "bstar" resting on the test.

``--recheck-proof`` rebuilds each obligation from this file (never from the JSON) and re-checks the record's
boxes against it with the independent evaluator.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
import sympy as sp

from verify.claims import CheckKind, ClaimResult, Verdict, claim, obligation_for, with_proof
from verify.claims.user import interval_obligation
from verify.proof import Objective, ProofRecord, Variable, density_rate_objective, prove_le

SECTION = "examples/my_proofs.py"

# --- a user's own inequality -----------------------------------------------------------------------
LN1P = "user-ln1p-lower-bound"
LN1P_STATEMENT = "ln(1 + x) >= x - x^2/2 for every x in [0, 1]"
LN1P_DOMAIN = "x in [0, 1]"
X = sp.Symbol("x", nonnegative=True)


def ln1p_objective() -> Objective:
    """F(x) = x - x^2/2 - ln(1 + x) on [0, 1]; F <= 0 is the claim."""
    return Objective(X - X**2 / 2 - sp.log(1 + X), [Variable(X, Fraction(0), Fraction(1))], name="x - x^2/2 - ln(1+x)")


@obligation_for(LN1P)
def ln1p_obligation(scale: str):
    return interval_obligation(LN1P, ln1p_objective, domain=LN1P_DOMAIN, statement=LN1P_STATEMENT)


@claim(LN1P, seed="user", section=SECTION, statement=LN1P_STATEMENT, kind=CheckKind.NUMERIC,
       code="examples/my_proofs.py:ln1p_objective")
def ln1p_lower_bound(ctx):
    xs = np.linspace(0.0, 1.0, 1001)
    gap = float(np.max(xs - xs**2 / 2 - np.log1p(xs)))
    tested = ClaimResult(Verdict.VERIFIED, f"max of x - x^2/2 - ln(1+x) on 1001 points: {gap:.3g} <= 0",
                         {"max_gap": gap}, "float64")
    if gap > 0:
        return ClaimResult(Verdict.REFUTED, f"x - x^2/2 - ln(1+x) = {gap:.3g} > 0 at a grid point", {"max_gap": gap})
    res = prove_le(ln1p_objective())
    if res.status != "proven":
        return tested
    record = ProofRecord.of_interval(res, ln1p_objective(), statement=LN1P_STATEMENT)  # what is proven, as data
    return with_proof(tested, claim_obligation=ln1p_obligation("test"), proof=record.to_json(), domain=LN1P_DOMAIN,
                      summary=f"proven: {LN1P_STATEMENT} ({res.n_boxes} boxes, arb)", precision="arb ball arithmetic",
                      statement=LN1P_STATEMENT)


# --- a user mechanism's loss rate ------------------------------------------------------------------
RATE = "user-cauchy-rate"
Z = sp.Symbol("z", nonnegative=True)
G = sp.Symbol("g", positive=True)
G_BOX = (Fraction(1, 10), Fraction(1, 2))
RATE_STATEMENT = ("eta |psi(z)| + gamma |1 + z psi(z)| <= eps for the standard Cauchy density (psi(z) = -2z/(1 + z^2)), "
                  "eta = (1 - g) eps, gamma = g eps")
RATE_DOMAIN = "z in [0, inf) (h symmetric), g = gamma/eps in [1/10, 1/2], eps = 1 by homogeneity"


def cauchy_rate_objective() -> Objective:
    """F(z, g) = (1 - g) |psi(z)| + g |1 + z psi(z)| - 1 with ln h(z) = -ln(1 + z^2) (the standard Cauchy)."""
    return density_rate_objective(-sp.log(1 + Z**2), Z, G, 1 - G, G_BOX, name="Cauchy loss rate <= eps")


@functools.lru_cache(maxsize=1)
def _proven_rate():
    """The branch-and-bound proof of F <= 0 for the Cauchy rate (one run per process; both claims use it)."""
    return prove_le(cauchy_rate_objective())


def _rate_proof(claim_id: str, proves: tuple[str, ...]):
    """The rate obligation of ``claim_id`` (covering the claim's obligations ``proves``; empty: all)."""
    return interval_obligation(claim_id, cauchy_rate_objective, domain=RATE_DOMAIN, statement=RATE_STATEMENT,
                               proves=proves)


def _rate_tested(ctx) -> tuple[float, ClaimResult]:
    z = np.concatenate([np.linspace(0.0, 20.0, 4001), np.geomspace(20.0, 1e6, 200)])
    worst = -np.inf
    for g in np.linspace(0.1, 0.5, 21):
        psi = -2 * z / (1 + z**2)
        worst = max(worst, float(np.max((1 - g) * np.abs(psi) + g * np.abs(1 + z * psi))))
    return worst, ClaimResult(Verdict.VERIFIED, f"rate <= {worst:.6f} <= 1 on a grid of z and g", {"max_rate": worst},
                              "float64")


@obligation_for(RATE)
def rate_obligation(scale: str):
    return _rate_proof(RATE, ())


@claim(RATE, seed="user", section=SECTION, statement=RATE_STATEMENT + " on " + RATE_DOMAIN, kind=CheckKind.NUMERIC,
       code="examples/my_proofs.py:cauchy_rate_objective")
def cauchy_rate(ctx):
    worst, tested = _rate_tested(ctx)
    if worst > 1:
        return ClaimResult(Verdict.REFUTED, f"rate {worst:.6f} > 1 at a grid point", {"max_rate": worst})
    res = _proven_rate()
    if res.status != "proven":
        return tested
    return with_proof(tested, claim_obligation=rate_obligation("test"), proof=res.to_json(), domain=RATE_DOMAIN,
                      summary=f"proven: the Cauchy loss rate <= eps on {RATE_DOMAIN} ({res.n_boxes} boxes, arb)",
                      precision="arb ball arithmetic", statement=RATE_STATEMENT)


# --- the mechanism: the rate proven, B >= B* tested --------------------------------------------------
MECH = "user-cauchy-mechanism"
MECH_STATEMENT = ("M(x) = sin(x) + (B/eta) Z, Z standard Cauchy, B = 1, eta = (1 - g) eps, gamma = g eps, is "
                  "(eps, 0)-GP for every g in [1/10, 1/2]: (rate) the loss rate is <= eps and (bstar) B >= B*(x) = "
                  "sup_x' |cos x'| e^(-gamma |x - x'|) for every x (004 Def. 8-9)")


def _bstar_gap(gamma: float) -> float:
    """max over a grid of x of B*(x) - B, B*(x) = sup_x' |cos x'| e^(-gamma |x - x'|) by a dense inner grid."""
    xs = np.linspace(-10.0, 10.0, 201)
    inner = np.linspace(-40.0, 40.0, 8001)
    lip = np.abs(np.cos(inner))
    bstar = np.max(lip[None, :] * np.exp(-gamma * np.abs(xs[:, None] - inner[None, :])), axis=1)
    return float(np.max(bstar - 1.0))


@obligation_for(MECH)
def mech_obligation(scale: str):
    return _rate_proof(MECH, ("rate",))  # the proof covers the rate only


@claim(MECH, seed="user", section=SECTION, statement=MECH_STATEMENT, kind=CheckKind.NUMERIC,
       code="examples/my_proofs.py", obligations=("rate", "bstar"))
def cauchy_mechanism(ctx):
    worst, _ = _rate_tested(ctx)
    gaps = {g: _bstar_gap(g) for g in (0.1, 0.3, 0.5)}
    if worst > 1 or max(gaps.values()) > 1e-12:
        return ClaimResult(Verdict.REFUTED, f"rate {worst:.6f} or B* - B = {max(gaps.values()):.3g} above bound",
                           {"max_rate": worst, "bstar_gap": gaps})
    tested = ClaimResult(Verdict.VERIFIED, f"rate <= {worst:.6f} <= 1 and B >= B* on grids (max B* - B = "
                         f"{max(gaps.values()):.3g})", {"max_rate": worst, "bstar_gap": {str(k): v for k, v in gaps.items()}},
                         "float64")
    res = _proven_rate()
    if res.status != "proven":
        return tested
    return with_proof(tested, claim_obligation=mech_obligation("test"), proof=res.to_json(), domain=RATE_DOMAIN,
                      summary=("rate proven on " + RATE_DOMAIN + f" ({res.n_boxes} boxes, arb); B >= B* tested on grids"),
                      precision="arb ball arithmetic (rate); float64 grid (B >= B*)", statement=RATE_STATEMENT)
