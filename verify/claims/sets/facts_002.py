"""002 Sec. 2.2 (Facts 4 and 5) and the scaling steps of the proof of 002 Lemma 9.

* 002 Fact 4 (as printed): "Let f : R^2 -> R.  At any x at which f(x, x) is differentiable, it holds

      d/dx f(x, x) = [ d/dlambda f(x + lambda, x) + d/dlambda f(x, x + lambda) ]_{lambda = 0}."

  The hypothesis is too weak: differentiability of the diagonal restriction does not make the
  partial derivatives add up to its derivative.  Counterexample (a standard one, written here from
  scratch): f(a, b) = a b (a + b) / (a^2 + b^2), f(0, 0) = 0.  On the diagonal f(x, x) = x
  (derivative 1 at x = 0); but f(lambda, 0) = f(0, lambda) = 0 for every lambda, so both partial
  derivatives at (0, 0) are 0 and the right-hand side is 0 != 1.  The identity holds when f is
  differentiable at (x, x) (e.g. continuous partials, 002 Fact 3, the case the paper applies it to
  in the proofs of Lemmas 9 and 10): the chain rule gives it, checked symbolically.
* 002 Fact 5 (as printed): "Let us have a real function f.  It holds [d/dx f(c x)]_{x=0} =
  c [d/dx f(x)]_{x=0}."  No hypothesis on f: at c = 0 the left side is 0 for every f (f(0 x) is
  constant) while the right side does not exist when f is not differentiable at 0 (f = |x|).  The
  appendix proof assumes f differentiable at g(0) = 0; with that hypothesis the identity holds
  (checked in mpmath for several c, c = 0 and c < 0 included).
* 002 eq. (2) (proof of Lemma 9): f_{s,alpha}(x) = c f_{cs,alpha}(c x) for s > 0, alpha > 1, c > 0,
  f the PolyPlace density of 002 Def. 6 (written again here from Def. 6 in mpmath).
* 002 step (8) (proof of Lemma 9): the factors lambda_r and e^(-lambda_r t gamma) lambda_s are
  dropped from "lambda_r |A| + e^(-lambda_r t gamma) lambda_s |B|" by the bound "lambda_r,
  e^(-lambda_r t gamma) lambda_s <= 1"; the first inequality of (8), lambda_r A <= lambda_r |A|, needs
  lambda_r >= 0, but lambda_r < 0 whenever SS(D') < SS(D) (and lambda_s < 0 whenever q(D) < q(D')).
  The intended step has absolute values: |lambda_r| |A| + |e^(-lambda_r t gamma) lambda_s| |B| with
  |lambda_r| <= 1 and |e^(-lambda_r t gamma) lambda_s| <= 1 (both from the symmetric bounds
  SS(D)/SS(D') in [e^-gamma, e^gamma], |q(D) - q(D')| <= min(SS(D), SS(D'))).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp

from verify.claims import CheckContext, ClaimResult, Verdict, claim, omitted
from verify.reference.distributions import polyplace_pdf


def _f_counterexample(a: Fraction, b: Fraction) -> Fraction:
    """f(a, b) = a b (a + b)/(a^2 + b^2), f(0, 0) = 0, in exact rational arithmetic."""
    if a == 0 and b == 0:
        return Fraction(0)
    return a * b * (a + b) / (a * a + b * b)


@claim("002-Fact-4")
def check_fact_4(ctx: CheckContext) -> ClaimResult:
    # (a) the counterexample, exactly: the diagonal is the identity, the partial difference quotients vanish
    hs = [Fraction(1, 10**k) for k in range(1, 8)]
    diag = [(_f_counterexample(h, h) - _f_counterexample(Fraction(0), Fraction(0))) / h for h in hs + [-h for h in hs]]
    part_a = [(_f_counterexample(h, Fraction(0)) - _f_counterexample(Fraction(0), Fraction(0))) / h for h in hs + [-h for h in hs]]
    part_b = [(_f_counterexample(Fraction(0), h) - _f_counterexample(Fraction(0), Fraction(0))) / h for h in hs + [-h for h in hs]]
    a, b, x, lam = sp.symbols("a b x lambda", real=True)
    f = a * b * (a + b) / (a**2 + b**2)
    diagonal = sp.simplify(f.subs({a: x, b: x}))                    # = x for x != 0 (and f(0,0) = 0 by definition)
    along_a = sp.simplify(f.subs({a: lam, b: 0}))                   # = 0 for lambda != 0
    along_b = sp.simplify(f.subs({a: 0, b: lam}))
    refuted = (all(q == 1 for q in diag) and all(q == 0 for q in part_a + part_b)
               and diagonal == x and along_a == 0 and along_b == 0)
    # (b) the corrected statement (f differentiable at (x, x)): chain rule, on smooth test functions
    tests = [sp.exp(a * b) + sp.sin(a) * b**2, a**3 * b - sp.cos(a + 2 * b), sp.log(1 + a**2 + b**4) * a]
    corrected = []
    for g in tests:
        lhs = sp.diff(g.subs({a: x, b: x}), x)
        rhs = (sp.diff(g.subs({a: x + lam, b: x}), lam) + sp.diff(g.subs({a: x, b: x + lam}), lam)).subs(lam, 0)
        corrected.append({"f": str(g), "lhs - rhs": str(sp.simplify(lhs - rhs))})
    corrected_ok = all(r["lhs - rhs"] == "0" for r in corrected)
    ev = {
        "printed": "f(x, x) differentiable at x  =>  d/dx f(x,x) = [d/dl f(x+l,x) + d/dl f(x,x+l)]_{l=0}",
        "corrected": "the identity holds when f is differentiable at (x, x) (e.g. continuous partials, 002 Fact 3)",
        "certificate": {
            "f": "a b (a + b)/(a^2 + b^2), f(0, 0) = 0", "x": 0,
            "f(x, x) (SymPy)": str(diagonal), "f(l, 0), f(0, l) (SymPy)": [str(along_a), str(along_b)],
            "diagonal difference quotients at h = +-10^-1..10^-7 (exact)": sorted({str(q) for q in diag}),
            "partial difference quotients (exact)": sorted({str(q) for q in part_a + part_b}),
            "d/dx f(x, x) at 0": 1, "right-hand side at 0": 0,
        },
        "corrected_checks": corrected,
    }
    if refuted and corrected_ok:
        return ClaimResult(
            Verdict.REFUTED,
            "printed hypothesis too weak: f = ab(a+b)/(a^2+b^2) has f(x,x) = x (derivative 1 at 0) but both partials "
            "at (0,0) are 0 (exact); with f differentiable at (x,x) the identity holds (chain rule, SymPy)",
            ev, "exact rational arithmetic and SymPy",
            rule="R-FALSE: a conclusion the hypotheses do not give (differentiability of f at (x, x) is missing; "
                 "counterexample exact)",
        )
    return ClaimResult(Verdict.INCONCLUSIVE, "the counterexample or the corrected check did not evaluate as derived",
                       ev, "exact rational arithmetic and SymPy")


# ---- 002 Fact 5 --------------------------------------------------------------------------------


@claim("002-Fact-5")
def check_fact_5(ctx: CheckContext) -> ClaimResult:
    # (a) f = |x|, c = 0: difference quotients from the definition of the derivative, exactly
    hs = [Fraction(1, 10**k) for k in range(1, 10)]
    lhs_q = sorted({str((abs(Fraction(0) * h) - abs(Fraction(0))) / h) for h in hs + [-h for h in hs]})
    right_q = sorted({str((abs(h) - 0) / h) for h in hs})
    left_q = sorted({str((abs(-h) - 0) / (-h)) for h in hs})
    refuted = lhs_q == ["0"] and right_q == ["1"] and left_q == ["-1"]
    # (b) the corrected statement: f differentiable at 0, derivatives by mpmath.diff from f itself
    tests = {"exp(sin x) + x^3": lambda t: mpmath.exp(mpmath.sin(t)) + t**3,
             "log(2 + x) (x - 1)": lambda t: mpmath.log(2 + t) * (t - 1),
             "|x - 1|^(3/2)": lambda t: abs(t - 1) ** mpmath.mpf(1.5)}
    rows = []
    with mpmath.workdps(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 15))
        worst = mpmath.mpf(0)
        for name, f in tests.items():
            d0 = mpmath.diff(f, 0)
            for c in (mpmath.mpf(-2.5), mpmath.mpf(-1), mpmath.mpf(0), mpmath.mpf("0.3"), mpmath.mpf(1), mpmath.mpf(7)):
                lhs = mpmath.diff(lambda t, f=f, c=c: f(c * t), 0)
                err = abs(lhs - c * d0)
                worst = max(worst, err)
                rows.append({"f": name, "c": mpmath.nstr(c, 5), "lhs": mpmath.nstr(lhs, 20),
                             "c f'(0)": mpmath.nstr(c * d0, 20)})
        corrected_ok = bool(worst <= tol)
        worst_s = mpmath.nstr(worst, 5)
    ev = {
        "printed": "for a real function f: [d/dx f(cx)]_{x=0} = c [d/dx f(x)]_{x=0}",
        "corrected": "the identity holds when f is differentiable at 0 (the hypothesis of the appendix proof)",
        "certificate": {"f": "|x|", "c": 0,
                        "difference quotients of f(0 x) at 0, h = +-10^-1..10^-9 (exact)": lhs_q,
                        "right difference quotients of |x| at 0 (exact)": right_q,
                        "left difference quotients of |x| at 0 (exact)": left_q,
                        "left side": 0, "right side": "0 * f'(0), f'(0) does not exist"},
        "corrected_checks": rows, "corrected_max_abs_error": worst_s,
        "note": "for c != 0, f(cx) is differentiable at 0 iff f is, so the printed identity fails only at c = 0",
    }
    if refuted and corrected_ok:
        return ClaimResult(
            Verdict.REFUTED,
            "printed hypothesis too weak: at c = 0 and f = |x| the left side is 0 and the right side does not exist "
            f"(exact difference quotients); with f differentiable at 0 the identity holds (mpmath, max error {worst_s})",
            ev, f"exact rational arithmetic; mpmath {ctx.dps} digits",
            rule="R-FALSE: a conclusion the hypotheses do not give (differentiability of f at 0 is missing; "
                 "counterexample f = |x|, c = 0, exact)",
        )
    return ClaimResult(Verdict.INCONCLUSIVE, "the counterexample or the corrected check did not evaluate as derived",
                       ev, f"exact rational arithmetic; mpmath {ctx.dps} digits")


# ---- 002 eq. (2) and step (8) of the proof of Lemma 9 --------------------------------------------


def _polyplace_log_density_mp(s: mpmath.mpf, alpha: mpmath.mpf, x: mpmath.mpf) -> mpmath.mpf:
    """log f_{s,alpha}(x), 002 Def. 6 as printed (the one mpmath reference,
    :func:`verify.reference.distributions.polyplace_pdf`)."""
    return mpmath.log(polyplace_pdf(x, s, alpha))


@claim("002-Lemma-9-eq-2")
def check_lemma_9_eq_2(ctx: CheckContext) -> ClaimResult:
    s_, a_, c_ = sp.symbols("s alpha c", positive=True)
    N = a_ / (2 * (2 * ((a_ - 1) / a_) ** a_ + a_ - 1) * s_)
    norm_ok = sp.simplify(N.subs(s_, c_ * s_) - N / c_) == 0
    rng, n_rand = ctx.sample("002-lemma-9-eq-2", 400, 40)
    worst, worst_at, n = mpmath.mpf(0), None, 0
    with mpmath.workdps(ctx.dps):
        pts = []
        for s in ("0.01", "1", "37.5"):
            for alpha in ("1.000001", "1.5", "3", "20", "1000"):
                for c in ("0.001", "0.5", "2", "1000"):
                    sm, am = mpmath.mpf(s), mpmath.mpf(alpha)
                    for u in (mpmath.mpf(0), 1 / (2 * am), 1 / am, 1 / am * (1 + mpmath.mpf(10) ** -12), mpmath.mpf(3),
                              mpmath.mpf(10) ** 6):
                        for sign in (1, -1):
                            pts.append((sm, am, mpmath.mpf(c), sign * u * sm))
        for _ in range(n_rand):
            sm = mpmath.mpf(float(10 ** rng.uniform(-3, 3)))
            am = 1 + mpmath.mpf(float(10 ** rng.uniform(-6, 3)))
            cm = mpmath.mpf(float(10 ** rng.uniform(-3, 3)))
            pts.append((sm, am, cm, mpmath.mpf(float(rng.normal() * 3)) * sm / am))
        for sm, am, cm, x in pts:
            lhs = _polyplace_log_density_mp(sm, am, x)
            rhs = mpmath.log(cm) + _polyplace_log_density_mp(cm * sm, am, cm * x)
            err = abs(lhs - rhs)
            n += 1
            if err > worst:
                worst, worst_at = err, (sm, am, cm, x)
        tol = mpmath.mpf(10) ** (-(ctx.dps - 12))
        ok = bool(worst <= tol)
        worst_s = mpmath.nstr(worst, 5)
        at = None if worst_at is None else [mpmath.nstr(v, 12) for v in worst_at]
    ev = {"identity": "f_{s,alpha}(x) = c f_{cs,alpha}(cx)", "points": n,
          "max |log f_{s,alpha}(x) - log(c f_{cs,alpha}(cx))|": worst_s, "at (s, alpha, c, x)": at,
          "N_{cs,alpha} = N_{s,alpha}/c (SymPy)": norm_ok,
          "why": "|cx|/(cs) = |x|/s selects the same branch and gives the same power; N_{cs} = N_s/c"}
    if ok and norm_ok:
        return ClaimResult(Verdict.VERIFIED, f"eq. (2) holds at {n} points (max log error {worst_s}, mpmath "
                           f"{ctx.dps} digits) and N_(cs) = N_s/c symbolically", ev, f"mpmath {ctx.dps} digits; SymPy")
    return ClaimResult(Verdict.REFUTED if not norm_ok or worst > mpmath.mpf(10) ** -8 else Verdict.INCONCLUSIVE,
                       f"eq. (2) differs by {worst_s} in log at {at}", {**ev, "certificate": {"at": at, "err": worst_s}},
                       ctx.mp_precision)


@claim("002-Lemma-9-step-8")
def check_lemma_9_step_8(ctx: CheckContext) -> ClaimResult:
    eps, gamma = mpmath.mpf(1), mpmath.mpf("0.5")
    rng, n_grid = ctx.sample("002-lemma-9-step-8", 120, 20)
    with mpmath.workdps(ctx.dps):
        alpha = eps / gamma

        def A(y: mpmath.mpf) -> mpmath.mpf:  # scale derivative: d/dl log f_{e^(l gamma)/gamma, alpha}(y) at l = 0
            return mpmath.diff(lambda lam: _polyplace_log_density_mp(mpmath.exp(lam * gamma) / gamma, alpha, y), 0)

        def B(y: mpmath.mpf) -> mpmath.mpf:  # location derivative: d/dl log f_{1/gamma, alpha}(y + l) at l = 0
            return mpmath.diff(lambda lam: _polyplace_log_density_mp(1 / gamma, alpha, y + lam), 0)

        # (a) the witness: lambda_r = -1, lambda_s = 0, x' = 0.1 -> y(t) = e^(gamma t) x'
        lr, ls, xp = mpmath.mpf(-1), mpmath.mpf(0), mpmath.mpf("0.1")

        def y(t: mpmath.mpf) -> mpmath.mpf:
            return mpmath.exp(-lr * gamma * t) * (xp + ls * t)

        with mpmath.workdps(30):  # quadrature at 30 digits: the gap below is of order 1
            left = mpmath.quad(lambda t: lr * A(y(t)) + mpmath.exp(-lr * t * gamma) * ls * B(y(t)), [0, 1])
            middle = mpmath.quad(lambda t: lr * abs(A(y(t))) + mpmath.exp(-lr * t * gamma) * ls * abs(B(y(t))), [0, 1])
            intended = mpmath.quad(lambda t: abs(lr) * abs(A(y(t))) + abs(mpmath.exp(-lr * t * gamma) * ls) * abs(B(y(t))),
                                   [0, 1])
            right = mpmath.quad(lambda t: abs(A(y(t))) + abs(B(y(t))), [0, 1])
        printed_fails = bool(left > middle)
        # (b) the intended step on a grid of admissible values: |lambda_r| <= 1 (SS(D)/SS(D') in [e^-g, e^g]),
        # |lambda_s| <= min(1, e^(lambda_r gamma)) (|q(D) - q(D')| <= min(SS(D), SS(D'))), t in [0, 1]
        worst_excess = -mpmath.inf
        worst_const = mpmath.mpf(0)
        for _ in range(n_grid):
            lr_ = mpmath.mpf(float(rng.uniform(-1, 1)))
            ls_ = mpmath.mpf(float(rng.uniform(-1, 1))) * min(mpmath.mpf(1), mpmath.exp(lr_ * gamma))
            t = mpmath.mpf(float(rng.uniform(0, 1)))
            yy = mpmath.mpf(float(rng.normal() * 3))
            if yy == 0:
                continue
            cs = mpmath.exp(-lr_ * t * gamma) * ls_
            a_, b_ = A(yy), B(yy)
            integrand = lr_ * a_ + cs * b_
            bound = abs(lr_) * abs(a_) + abs(cs) * abs(b_)
            worst_excess = max(worst_excess, integrand - bound, bound - (abs(a_) + abs(b_)))
            worst_const = max(worst_const, abs(lr_), abs(cs))
        intended_ok = bool(worst_excess <= mpmath.mpf(10) ** -20 and worst_const <= 1 and intended <= right
                           and right <= eps * (1 + mpmath.mpf(10) ** -20))
        nums = {k: mpmath.nstr(v, 15) for k, v in (("int lambda_r A + c lambda_s B", left),
                                                    ("int lambda_r |A| + c lambda_s |B| (printed)", middle),
                                                    ("int |lambda_r||A| + |c lambda_s||B| (intended)", intended),
                                                    ("int |A| + |B| (= eps by Lemma 12)", right))}
        worst_s = mpmath.nstr(worst_excess, 5)
    ev = {
        "printed": "lambda_r A + e^(-lambda_r t gamma) lambda_s B <= lambda_r |A| + e^(-lambda_r t gamma) lambda_s |B| "
                   "(constants 'lambda_r, e^(-lambda_r t gamma) lambda_s <= 1')",
        "corrected": "lambda_r A + c lambda_s B <= |lambda_r| |A| + |c lambda_s| |B| <= |A| + |B|, with |lambda_r| <= 1 "
                     "and |e^(-lambda_r t gamma) lambda_s| <= 1 (symmetric bounds on SS(D')/SS(D) and q(D) - q(D'))",
        "witness": {"eps": 1, "gamma": 0.5, "lambda_r": -1, "lambda_s": 0, "x'": 0.1,
                    "meaning": "SS(D') = e^-gamma SS(D), q(D') = q(D): an admissible neighbour pair", **nums},
        "intended_grid": {"points": n_grid, "max excess of a step (<= 0 expected)": worst_s,
                          "max |constant|": mpmath.nstr(worst_const, 10)},
        "conclusion": "Lemma 9 itself is checked by 002-Lemma-9 (and Thm. 8 by 002-Thm-8-privacy)",
    }
    if printed_fails and intended_ok:
        return ClaimResult(
            Verdict.ERRATUM,
            f"first inequality of (8) fails for lambda_r = -1, lambda_s = 0 (integral {nums['int lambda_r A + c lambda_s B'][:8]} > "
            f"{nums['int lambda_r |A| + c lambda_s |B| (printed)'][:9]}); with absolute values on the constants "
            f"(|lambda_r|, |e^(-lambda_r t gamma) lambda_s| <= 1) the step holds (grid of {n_grid}, mpmath)",
            ev, f"mpmath {ctx.dps} digits (quadrature at 30)",
            rule="R-SLIP: lost absolute values in one proof line: lambda_r and e^(-lambda_r t gamma) lambda_s can be "
                 "negative, the step with |lambda_r|, |e^(-lambda_r t gamma) lambda_s| <= 1 holds (checked) and "
                 "Lemma 9 does not depend on the printed form",
        )
    if intended_ok:
        return ClaimResult(Verdict.VERIFIED, "the printed first inequality of (8) held at the witness", ev,
                           ctx.mp_precision)
    return ClaimResult(Verdict.INCONCLUSIVE, f"the intended step exceeded its bound by {worst_s} on the grid", ev,
                       ctx.mp_precision)


omitted("002", "Sec. 1.2 (dataset size Omega(log(1/delta)/eps) for propose-test-release and privately bounding "
        "local sensitivity) and Sec. 1 (exponential mechanism / report-noisy-max lose a factor of 2)",
        "statements about other frameworks (002 refs. [4], [14], [6]) with no formula or parameter of the paper's own "
        "mechanism to check")
omitted("002", "Figure 2 caption (members with gamma ~ 0.91, 2/3, 0.2 at SS(D) = 1, eps = 1)",
        "the (alpha, s) of the plotted members are only in the figure, not in the text; alpha = eps/gamma, "
        "s = SS/gamma (Thm. 8) is checked by 002-Thm-8-privacy and the density by 002-Def-6-normalisation")
omitted("002", "Lemma 15 proof, the display of f2bar (two factors juxtaposed where '=' is meant, as in the f1bar "
        "display above it)", "a step of an asymptotic argument whose conclusion, f_{a/gamma,eps/gamma} -> Lap(a/eps) "
        "pointwise, is checked by 002-Lemma-15")
