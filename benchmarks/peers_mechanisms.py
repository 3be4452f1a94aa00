"""The peers' benchmark mechanisms, written from their papers (vectorised: a stack of k inputs -> k outputs).

StatDP: Ding, Wang, Wang, Zhang & Kifer, "Detecting Violations of Differential Privacy", CCS 2018
(Sec. 6 and Table 1: NoisyMax with Laplace / exponential noise returning the index (correct) or the
value (incorrect), the histogram with scale 1/eps (correct) or eps (incorrect), SVT and iSVT1-4 of Lyu,
Su & Li, "Understanding the Sparse Vector Technique", VLDB 2017).  DP-Sniper: Bichsel, Steffen,
Bogunovic & Vechev, "DP-Sniper", IEEE S&P 2021 (Sec. 6: SVT3 = Lyu et al. Alg. 3 with its native
numeric outputs, prefix sum, one-time RAPPOR).  Each function takes a stack X of inputs (k, m) and a
numpy Generator and returns k outputs in their native shape (an array with leading dimension k, or a
tuple of such arrays); "no answer" and "aborted" are finite codes beside a flag, never NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = np.ndarray


def _lap(rng: np.random.Generator, scale: float, shape: Any) -> Array:
    return rng.laplace(scale=scale, size=shape)


def noisy_max_index_laplace(X: Array, rng: np.random.Generator, eps: float) -> Array:
    """argmax_i (a_i + Lap(2/eps)): eps-DP under ||a - a'||_inf <= 1 (StatDP noisy_max_v1a)."""
    A = np.asarray(X, dtype=float)
    return np.argmax(A + _lap(rng, 2.0 / eps, A.shape), axis=-1)


def noisy_max_value_laplace(X: Array, rng: np.random.Generator, eps: float) -> Array:
    """max_i (a_i + Lap(2/eps)), the value: not eps-DP (StatDP noisy_max_v1b); m eps / 2 on the all-above
    pattern (the left tail of the maximum: all m answers below t)."""
    A = np.asarray(X, dtype=float)
    return np.max(A + _lap(rng, 2.0 / eps, A.shape), axis=-1)


def noisy_max_index_exponential(X: Array, rng: np.random.Generator, eps: float) -> Array:
    """argmax_i (a_i + Exp(2/eps)): eps-DP (StatDP noisy_max_v2a)."""
    A = np.asarray(X, dtype=float)
    return np.argmax(A + rng.exponential(2.0 / eps, A.shape), axis=-1)


def noisy_max_value_exponential(X: Array, rng: np.random.Generator, eps: float) -> Array:
    """max_i (a_i + Exp(2/eps)), the value: infinite loss (the support starts at max_i a_i; StatDP v2b)."""
    A = np.asarray(X, dtype=float)
    return np.max(A + rng.exponential(2.0 / eps, A.shape), axis=-1)


def report_noisy_max_pair(X: Array, rng: np.random.Generator, eps: float) -> tuple[Array, Array]:
    """(argmax, max) of a_i + Lap(2/eps): the tuple leaks what the value leaks."""
    A = np.asarray(X, dtype=float)
    Z = A + _lap(rng, 2.0 / eps, A.shape)
    return np.argmax(Z, axis=-1), np.max(Z, axis=-1)


def report_noisy_max_with_fresh_value(X: Array, rng: np.random.Generator, eps: float) -> tuple[Array, Array]:
    """(argmax_i (a_i + Lap(4/eps)), max_i a_i + Lap(2/eps)): the index by report-noisy-max at eps/2 and the
    maximum answer (which moves by at most 1 when every answer does) by the Laplace mechanism at eps/2 with
    fresh noise; eps-DP under ||a - a'||_inf <= 1 by basic composition (Dwork & Roth 2014, Thm. 3.16 and
    Claim 3.9): the correct counterpart of :func:`report_noisy_max_pair`, a mixed (index, value) output."""
    A = np.asarray(X, dtype=float)
    idx = np.argmax(A + _lap(rng, 4.0 / eps, A.shape), axis=-1)
    return idx, np.max(A, axis=-1) + _lap(rng, 2.0 / eps, A.shape[:-1])


def histogram(X: Array, rng: np.random.Generator, eps: float) -> Array:
    """a + Lap(1/eps)^m: eps-DP under ||a - a'||_1 <= 1 (StatDP histogram, all bins released)."""
    A = np.asarray(X, dtype=float)
    return A + _lap(rng, 1.0 / eps, A.shape)


def histogram_eps(X: Array, rng: np.random.Generator, eps: float) -> Array:
    """a + Lap(eps)^m: scale eps instead of 1/eps (StatDP histogram_eps), 1/eps-DP."""
    A = np.asarray(X, dtype=float)
    return A + _lap(rng, eps, A.shape)


def prefix_sum(X: Array, rng: np.random.Generator, eps: float) -> Array:
    """cumsum(a + Lap(1/eps)): post-processing of the histogram, eps-DP under l_1 <= 1 (DP-Sniper)."""
    return np.cumsum(histogram(X, rng, eps), axis=-1)


def _svt(A: Array, rng: np.random.Generator, rho: Array, nu_scale: float | None, N: int, T: float,
         strict: bool, numeric: bool, bounded: bool) -> tuple[Array, Array]:
    """Sparse vector over the columns of A (one row per draw): (state, value) per query, state 1 above,
    0 below, -1 not answered (stopped after N above when ``bounded``); value the noisy answer when
    ``numeric`` and above, else 0."""
    k, m = A.shape
    state = np.full((k, m), -1, dtype=np.int64)
    value = np.zeros((k, m))
    count = np.zeros(k, dtype=np.int64)
    for j in range(m):
        live = count < N if bounded else np.ones(k, dtype=bool)
        nu = _lap(rng, nu_scale, k) if nu_scale is not None else np.zeros(k)
        q = A[:, j] + nu
        above = q > T + rho if strict else q >= T + rho
        state[live, j] = above[live].astype(np.int64)
        if numeric:
            value[live & above, j] = q[live & above]
        count += (live & above)
    return state, value


def svt(X: Array, rng: np.random.Generator, eps: float, N: int = 1, T: float = 0.5) -> Array:
    """Lyu et al. Alg. 1 (StatDP SVT): rho ~ Lap(2/eps), nu ~ Lap(4N/eps), stop after N above: eps-DP."""
    A = np.atleast_2d(np.asarray(X, dtype=float))
    return _svt(A, rng, _lap(rng, 2.0 / eps, A.shape[0]), 4.0 * N / eps, N, T, False, False, True)[0]


def isvt1(X: Array, rng: np.random.Generator, eps: float, N: int = 1, T: float = 1.0) -> Array:
    """StatDP iSVT1: no noise on the answers, no bound on the answers above: infinite loss."""
    A = np.atleast_2d(np.asarray(X, dtype=float))
    return _svt(A, rng, _lap(rng, 2.0 / eps, A.shape[0]), None, N, T, False, False, False)[0]


def isvt2(X: Array, rng: np.random.Generator, eps: float, N: int = 1, T: float = 1.0) -> Array:
    """StatDP iSVT2: nu ~ Lap(2/eps) not scaled with N, no bound on the answers above."""
    A = np.atleast_2d(np.asarray(X, dtype=float))
    return _svt(A, rng, _lap(rng, 2.0 / eps, A.shape[0]), 2.0 / eps, N, T, False, False, False)[0]


def isvt3(X: Array, rng: np.random.Generator, eps: float, N: int = 1, T: float = 1.0) -> Array:
    """StatDP iSVT3 (Lyu et al. Alg. 4): rho ~ Lap(4/eps), nu ~ Lap(4/(3 eps)), stop after N above."""
    A = np.atleast_2d(np.asarray(X, dtype=float))
    return _svt(A, rng, _lap(rng, 4.0 / eps, A.shape[0]), 4.0 / (3.0 * eps), N, T, True, False, True)[0]


def isvt4(X: Array, rng: np.random.Generator, eps: float, N: int = 1, T: float = 1.0) -> tuple[Array, Array]:
    """StatDP iSVT4 (Lyu et al. Alg. 3) with its native outputs: the noisy answer instead of 'above'."""
    A = np.atleast_2d(np.asarray(X, dtype=float))
    return _svt(A, rng, _lap(rng, 2.0 / eps, A.shape[0]), 2.0 * N / eps, N, T, True, True, True)


def svt3_sniper(X: Array, rng: np.random.Generator, eps: float, c: int = 1, t: float = 1.0) -> tuple[Array, Array]:
    """DP-Sniper's SVT3 (Lyu et al. Alg. 3): eps1 = eps2 = eps/2, rho ~ Lap(1/eps1), nu ~ Lap(c/eps2),
    the noisy answer released when above (``>=`` the noisy threshold), stop after c above; native
    (state, value) outputs.  c = 1, t = 1 as in DP-Sniper's evaluation (``SparseVectorTechnique3(c=1,
    t=1)`` in ``dpsniper/experiments/exp_default.py``)."""
    A = np.atleast_2d(np.asarray(X, dtype=float))
    e1 = eps / 2.0
    return _svt(A, rng, _lap(rng, 1.0 / e1, A.shape[0]), c / (eps - e1), c, t, False, True, True)


def one_time_rappor(X: Array, rng: np.random.Generator, f: float = 0.5, k: int = 16) -> Array:
    """One-time RAPPOR (Erlingsson, Pihur & Korolova, CCS 2014, Sec. 3; DP-Sniper's OneTimeRappor with one
    hash): the one-hot vector of the value v in {0..k-1}, each bit replaced by 1 w.p. f/2, by 0 w.p. f/2;
    eps = 2 ln((1 - f/2) / (f/2)) under substitute-one of the single record."""
    v = np.asarray(X, dtype=float).reshape(-1).astype(int)
    bits = np.zeros((v.size, k), dtype=bool)
    bits[np.arange(v.size), v % k] = True
    u = rng.random((v.size, k))
    return np.where(u < f / 2, True, np.where(u < f, False, bits))
