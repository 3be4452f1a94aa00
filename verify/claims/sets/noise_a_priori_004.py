"""004 Sec. 4.1.1 (noise a priori): the flip probabilities and the mean squared error, displayed.

Each user i sends M_0(x_i) = x_i + Z_i with Z_i ~ Lap(1/eps) (density (eps/2) e^{-eps |z|}); the
aggregator computes A~ = (1/n) sum_i 1{M_0(x_i) > T} for A = (1/n) sum_i 1{x_i > T}.  004 displays

  Pr[y~_i - y_i = 1 | x_i <= T] = Pr[Z_i > T - x_i] = (1/2) e^{-eps |x_i - T|},
  Pr[y~_i - y_i = -1 | x_i > T] = Pr[Z_i <= T - x_i] = (1/2) e^{-eps |x_i - T|},
  E[|y~_i - y_i|^2] = (1/2) e^{-eps |x_i - T|},
  E[(A~ - A)^2] = 1/(2n^2) sum_i e^{-eps|x_i - T|}
                  + 1/n^2 sum_{(i,j) in I00 u I11, i != j} (1/4) e^{-eps(|x_i - T| + |x_j - T|)}
                  - 1/n^2 sum_{(i,j) in I01 u I10, i != j} (1/4) e^{-eps(|x_i - T| + |x_j - T|)},

I0 = {i : x_i <= T}, I1 = {i : x_i > T}.  The check integrates the Laplace density in mpmath for the
probabilities (and takes them as Gamma(1, eps |x - T|)/2 for the enumeration) and computes
E[(A~ - A)^2] exactly by enumerating the 2^n flip patterns of n
independent users (each user flips with its own probability), then compares with the display.
"""

from __future__ import annotations

import itertools

import mpmath

from verify.claims import CheckContext, ClaimResult, Verdict, claim


def _printed_mse(xs: list[mpmath.mpf], T: mpmath.mpf, eps: mpmath.mpf) -> mpmath.mpf:
    """The MSE as displayed in 004 Sec. 4.1.1 (ordered pairs i != j)."""
    n = len(xs)
    e = [mpmath.exp(-eps * abs(x - T)) for x in xs]
    side = [0 if x <= T else 1 for x in xs]
    total = sum(e) / (2 * n**2)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            term = e[i] * e[j] / 4 / n**2
            total += term if side[i] == side[j] else -term
    return total


def _flip_probability(x: mpmath.mpf, T: mpmath.mpf, eps: mpmath.mpf) -> mpmath.mpf:
    """Pr[Z > T - x] (x <= T) or Pr[Z <= T - x] (x > T) for Z ~ Lap(1/eps): the tail mass of the density
    (eps/2) e^{-eps|z|} beyond distance a = |x - T| from 0, (1/2) int_{eps a}^inf e^{-u} du = Gamma(1, eps a)/2
    (mpmath's upper incomplete gamma function, not the printed exponential)."""
    return mpmath.gammainc(1, eps * abs(x - T)) / 2


def _exact_mse(xs: list[mpmath.mpf], T: mpmath.mpf, eps: mpmath.mpf) -> mpmath.mpf:
    """E[(A~ - A)^2] by enumeration of the 2^n flip patterns of independent users: user i flips with
    probability p_i (:func:`_flip_probability`); a flip adds +1 (x_i <= T) or -1 (x_i > T) to n (A~ - A)."""
    n = len(xs)
    p = [_flip_probability(x, T, eps) for x in xs]
    d = [1 if x <= T else -1 for x in xs]
    total = mpmath.mpf(0)
    for flips in itertools.product((0, 1), repeat=n):
        prob = mpmath.mpf(1)
        s = 0
        for f, pi, di in zip(flips, p, d, strict=True):
            prob *= pi if f else 1 - pi
            s += di * f
        total += prob * (mpmath.mpf(s) / n) ** 2
    return total


@claim("004-Sec-4.1.1-mse")
def check_sec_4_1_1_mse(ctx: CheckContext) -> ClaimResult:
    rng, n_sets = ctx.sample("004-sec-4.1.1", 8, 3)
    rows = []
    worst_p = worst_m = worst_g = mpmath.mpf(0)
    with mpmath.workdps(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 15))
        for eps in ("0.1", "1", "4"):
            em = mpmath.mpf(eps)
            T = mpmath.mpf("0.7")
            dens = lambda z, em=em: em / 2 * mpmath.exp(-em * abs(z))  # noqa: E731 - Lap(1/eps)
            for x in ("-3", "0.7", "2.5"):
                xm = mpmath.mpf(x)
                with mpmath.workdps(25):  # quadrature of the density itself (slow at 50 digits)
                    if xm <= T:
                        p = mpmath.quad(dens, [T - xm, mpmath.inf]) if T > xm else mpmath.quad(dens, [0, mpmath.inf])
                    else:
                        p = mpmath.quad(dens, [-mpmath.inf, T - xm])
                printed = mpmath.exp(-em * abs(xm - T)) / 2
                worst_p = max(worst_p, abs(p - printed) / printed)
                worst_g = max(worst_g, abs(_flip_probability(xm, T, em) - printed))
            for k in range(n_sets):
                n = 2 + k % 5
                xs = [mpmath.mpf(float(v)) for v in rng.normal(0.7, 1.5, n)]
                if k % 3 == 0:
                    xs[0] = T  # the boundary x_i = T belongs to I0
                exact, printed = _exact_mse(xs, T, em), _printed_mse(xs, T, em)
                err = abs(exact - printed)
                worst_m = max(worst_m, err)
                if k < 2:
                    rows.append({"eps": eps, "T": "0.7", "x": [mpmath.nstr(v, 10) for v in xs],
                                 "exact": mpmath.nstr(exact, 20), "printed": mpmath.nstr(printed, 20)})
        ok = bool(worst_p <= mpmath.mpf(10) ** -20 and worst_g <= tol and worst_m <= tol)
        wp, wm = mpmath.nstr(worst_p, 5), mpmath.nstr(worst_m, 5)
    ev = {"max relative |Pr (quadrature, 25 digits) - (1/2)e^{-eps|x-T|}|": wp,
          "max |Gamma(1, eps|x-T|)/2 - (1/2)e^{-eps|x-T|}|": mpmath.nstr(worst_g, 5),
          "max |MSE exact - printed|": wm, "examples": rows,
          "sets": 3 * n_sets}
    if ok:
        return ClaimResult(Verdict.VERIFIED, f"flip probabilities (quadrature at 25 digits, relative error {wp}) and the MSE formula "
                           f"(exact enumeration of {3 * n_sets} sets of users, error {wm} at {ctx.dps} digits) agree", ev,
                           ctx.mp_precision)
    return ClaimResult(Verdict.REFUTED if max(worst_p, worst_m) > mpmath.mpf(10) ** -10 else Verdict.INCONCLUSIVE,
                       f"display differs from the exact value by {max(worst_p, worst_m)}",
                       {**ev, "certificate": {"max_error_probability": wp, "max_error_mse": wm}},
                       ctx.mp_precision)
