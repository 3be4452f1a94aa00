"""Error measures of 004 Sec. 5 and the analytic MSE of the noise-a-priori threshold (004 Sec. 4.1.1).

MSE (004 Sec. 5): the mean over m repetitions of (A~_r - A)^2, A = (1/n) sum_i f(x_i).

ASE (004 Sec. 5): for queries indexed by a (k+1) x (k+1) grid of parameters v_{j,l},
    ASE(M) = 1/(k+1)^2 sum_{j,l} (A~_{j,l}(M) - A_{j,l})^2,
reported as the mean over repetitions.

Noise-a-priori threshold (004 Sec. 4.1.1): user i sends x_i + Z_i, Z_i ~ Lap(1/eps), the analyst
computes A~ = (1/n) sum_i 1{x_i + Z_i > T}.  With d_i = y~_i - y_i in {-1, 0, 1},
p_i = (1/2) e^(-eps |x_i - T|) = P(d_i != 0), and sign s_i = +1 if x_i <= T, -1 if x_i > T:
    E[d_i] = s_i p_i,   E[d_i^2] = p_i,
    MSE = E[(A~ - A)^2] = (1/n^2) [ sum_i p_i + sum_{i != j} s_i s_j p_i p_j ]
        = (1/n^2) [ sum_i p_i - sum_i p_i^2 + (sum_i s_i p_i)^2 ]
        = (1/n^2) sum_i p_i (1 - p_i)  +  ((1/n) sum_i s_i p_i)^2     (variance + bias^2).
The last form is O(n) and has no cancellation between large terms.  The printed derivation sums
over ordered pairs (i, j), i != j, but then counts |I00 u I11 : i != j| = n0(n0-1)/2 + n1(n1-1)/2
and |I01 u I10| = n0 n1, which are the numbers of *unordered* pairs; the ordered counts are
n0(n0-1) + n1(n1-1) and 2 n0 n1 (see :func:`pair_counts_noise_a_priori`).  The MSE expression
itself is right; only the stated counts are off by the factor 2.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from scipy import special

from smoothsens_core.validation import check_finite_array, check_positive, check_real

__all__ = [
    "mse",
    "mse_standard_error",
    "ase",
    "analytic_mse_noise_a_priori_threshold",
    "analytic_mse_noise_a_priori_threshold_double_sum",
    "noise_a_priori_threshold_bias",
    "pair_counts_noise_a_priori",
    "noise_a_priori_ramp_moments",
    "analytic_mse_noise_a_priori_ramp",
]


def mse(estimates: ArrayLike, truth: float | ArrayLike) -> float:
    """Mean over repetitions of (estimate - truth)^2 (004 Sec. 5).  ``estimates`` shape (reps,)."""
    est = check_finite_array("estimates", estimates)
    tr = check_finite_array("truth", truth)
    if est.size == 0:
        raise ValueError("estimates must hold at least one repetition; got 0")
    return float(np.mean((est - tr) ** 2))


def mse_standard_error(estimates: ArrayLike, truth: float | ArrayLike) -> float:
    """Standard error of the MSE estimate: std of the squared errors / sqrt(reps)."""
    est = check_finite_array("estimates", estimates)
    tr = check_finite_array("truth", truth)
    if est.size < 2:
        raise ValueError(f"estimates must hold at least 2 repetitions for a standard error; got {est.size}")
    sq = (est - tr) ** 2
    return float(np.std(sq, ddof=1) / np.sqrt(sq.size))


def ase(estimates: ArrayLike, truth: ArrayLike) -> float:
    """Mean over repetitions of the grid-averaged squared error (004 Sec. 5).

    ``truth`` holds A_{j,l} on the grid (any shape G); ``estimates`` has shape G (one repetition)
    or (reps,) + G.  Returns  mean_r [ mean_{j,l} (A~_{r,j,l} - A_{j,l})^2 ].
    """
    est = check_finite_array("estimates", estimates)
    tr = check_finite_array("truth", truth)
    if est.shape == tr.shape:
        est = est[None]
    if est.shape[1:] != tr.shape:
        raise ValueError(
            f"estimates must have shape {tr.shape} or (reps,) + {tr.shape}; got shape {est.shape}"
        )
    axes = tuple(range(1, est.ndim))
    return float(np.mean(np.mean((est - tr[None]) ** 2, axis=axes)))


def _threshold_terms(x: ArrayLike, T: float, eps: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    xs = check_finite_array("x", x).reshape(-1)
    if xs.size == 0:
        raise ValueError("x must hold at least one user; got 0")
    T = check_real("T", T)
    eps = check_positive("eps", eps)
    p = 0.5 * np.exp(-eps * np.abs(xs - T))
    s = np.where(xs <= T, 1.0, -1.0)
    return p, s


def noise_a_priori_threshold_bias(x: ArrayLike, T: float, eps: float) -> float:
    """E[A~] - A = (1/n) sum_i s_i p_i for the noise-a-priori hard threshold (004 Sec. 4.1.1)."""
    p, s = _threshold_terms(x, T, eps)
    return float(np.mean(s * p))


def analytic_mse_noise_a_priori_threshold(x: ArrayLike, T: float, eps: float) -> float:
    """Exact MSE of A~ = (1/n) sum 1{x_i + Lap(1/eps) > T} for A = (1/n) sum 1{x_i > T} (004 Sec. 4.1.1).

    MSE = (1/n^2) sum_i p_i (1 - p_i) + ((1/n) sum_i s_i p_i)^2 with p_i = e^(-eps|x_i - T|)/2
    (module docstring).  O(n), vectorised.
    """
    p, s = _threshold_terms(x, T, eps)
    n = p.size
    # variance part: p_i <= 1/2, so every term p_i (1 - p_i) is >= 0: no cancellation.
    var = float(np.sum(p * (1.0 - p))) / n**2
    bias = float(np.mean(s * p))
    return var + bias * bias


def analytic_mse_noise_a_priori_threshold_double_sum(x: ArrayLike, T: float, eps: float) -> float:
    """The same MSE evaluated term by term as printed in 004 Sec. 4.1.1 (O(n^2); small n only).

    (1/(2n^2)) sum_i e^(-eps|x_i-T|)
      + (1/n^2) sum_{(i,j) in I00 u I11, i != j} (1/4) e^(-eps(|x_i-T| + |x_j-T|))
      - (1/n^2) sum_{(i,j) in I01 u I10}        (1/4) e^(-eps(|x_i-T| + |x_j-T|)),
    with ordered pairs (i, j).  Refuses n > 5000 (the pair matrix would be too large).
    """
    p, s = _threshold_terms(x, T, eps)
    n = p.size
    if n > 5000:
        raise ValueError(f"x must hold at most 5000 users for the O(n^2) double sum; got n={n}")
    prod = np.outer(p, p)  # (1/4) e^(-eps(|x_i-T| + |x_j-T|))
    same = np.equal.outer(s, s)
    np.fill_diagonal(prod, 0.0)
    return float(np.sum(p) + np.sum(prod[same]) - np.sum(prod[~same])) / n**2


def pair_counts_noise_a_priori(x: ArrayLike, T: float) -> dict[str, Any]:
    """Ordered and unordered pair counts of 004 Sec. 4.1.1 (the printed ones are the unordered).

    Returns n0 = |{x_i <= T}|, n1, the ordered counts |I00 u I11 \\ diag| = n0(n0-1) + n1(n1-1)
    and |I01 u I10| = 2 n0 n1, and the printed values n(n-1)/2 - n0 n1 and n0 n1.
    """
    xs = check_finite_array("x", x).reshape(-1)
    T = check_real("T", T)
    n = xs.size
    n0 = int(np.sum(xs <= T))
    n1 = n - n0
    return {
        "n0": n0,
        "n1": n1,
        "same_ordered": n0 * (n0 - 1) + n1 * (n1 - 1),
        "cross_ordered": 2 * n0 * n1,
        "same_printed": n * (n - 1) // 2 - n0 * n1,
        "cross_printed": n0 * n1,
    }


def noise_a_priori_ramp_moments(
    x: ArrayLike, T: float, tau: float, eps: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Bias and variance of f_tau(x_i + Z) per user, Z ~ Lap(0, b = 1/eps): the ramp f_tau of
    004 Sec. 4.1.2 (0 below a = T - tau/2, (y - a)/tau on [a, a + tau], 1 above) under noise a
    priori (M0 of 004 Sec. 5 for the one-way threshold).

    Closed form.  f_tau(y) = [(y-a)_+ - (y-a-tau)_+] / tau and
    f_tau(y)^2 = [(y-a)_+^2 - (y-a-tau)_+^2 - 2 tau (y-a-tau)_+] / tau^2, and for u real
        E[(u+Z)_+]   = (b/2) e^(u/b)                      (u < 0),   u + (b/2) e^(-u/b)          (u >= 0),
        E[(u+Z)_+^2] = b^2 e^(u/b)                        (u < 0),   u^2 + 2b^2 - b^2 e^(-u/b)   (u >= 0),
    which give m1 = E f_tau(x+Z) and m2 = E f_tau(x+Z)^2 with u = x - a.  Users above T are
    mirrored (x -> 2T - x: 1 - f_tau(x + Z) has the law of f_tau(2T - x + Z), Z being symmetric),
    so every user is evaluated on the side where m1, m2 are small and, for x < a,
    Var = b e^(u/b) [b P(2, tau/b)] / tau^2 - m1^2 with P(2, r) = 1 - (1 + r) e^(-r) (the
    regularised incomplete gamma function) has no cancellation.  Returns (bias_i, var_i) with
    bias_i = E f_tau(x_i + Z) - f_tau(x_i).
    """
    xs = check_finite_array("x", x).reshape(-1)
    if xs.size == 0:
        raise ValueError("x must hold at least one user; got 0")
    T = check_real("T", T)
    tau = check_positive("tau", tau)
    eps = check_positive("eps", eps)
    b = 1.0 / eps
    upper = xs > T
    xr = np.where(upper, 2.0 * T - xs, xs)  # mirrored to x <= T
    u = xr - (T - tau / 2.0)  # u <= tau/2; u - tau < 0
    e_lo = np.exp(np.minimum(u, 0.0) / b)
    e_tau = np.exp((u - tau) / b)  # e^((u - tau)/b) <= e^(-1/(2 b/tau))
    m1 = np.empty_like(u)
    m2 = np.empty_like(u)
    below = u < 0
    r = tau / b
    # u < 0: both kinks below the noise centre; closed forms without subtraction of large terms
    m1[below] = 0.5 * b * e_lo[below] * (-np.expm1(-r)) / tau
    m2[below] = b * b * e_lo[below] * special.gammainc(2.0, r) / tau**2
    # 0 <= u <= tau/2: on the lower half of the ramp
    ub = u[~below]
    eu = np.exp(-ub / b)
    et = e_tau[~below]
    m1[~below] = (ub + 0.5 * b * (eu - et)) / tau
    m2[~below] = (ub * ub + 2.0 * b * b - b * b * eu - b * b * et - tau * b * et) / tau**2
    var = np.maximum(m2 - m1 * m1, 0.0)
    fr = np.clip(u / tau, 0.0, 1.0)
    bias = np.where(upper, -1.0, 1.0) * (m1 - fr)
    return bias, var


def analytic_mse_noise_a_priori_ramp(x: ArrayLike, T: float, tau: float, eps: float) -> float:
    """Exact MSE of A~ = (1/n) sum f_tau(x_i + Z_i), Z_i iid Lap(1/eps), for A = (1/n) sum f_tau(x_i).

    Independent users, as in 004 Sec. 4.1.1 for the hard threshold:
        MSE = (1/n^2) sum_i Var f_tau(x_i + Z_i) + ((1/n) sum_i (E f_tau(x_i + Z_i) - f_tau(x_i)))^2,
    with the per-user moments in closed form (:func:`noise_a_priori_ramp_moments`).  As tau -> 0
    it tends to :func:`analytic_mse_noise_a_priori_threshold`.
    """
    bias, var = noise_a_priori_ramp_moments(x, T, tau, eps)
    n = bias.size
    mb = float(np.mean(bias))
    return float(np.sum(var)) / n**2 + mb * mb
