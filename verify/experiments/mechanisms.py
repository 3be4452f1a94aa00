"""The local Geo-Privacy mechanisms compared in 004 Sec. 5, vectorised over users and repetitions.

Every user i holds x_i in R^d; the analyst wants A = (1/n) sum_i f(x_i).  A mechanism here maps the
(n, d) array of inputs to the analyst-side values y_i (one per user and repetition) whose mean is
the estimate of A.  With Z_i independent noise (004 Sec. 5):

    M0  (noise a priori)      y_i = f(x_i + Z_i),  Z_i ~ d-dimensional Laplace with density
                              proportional to exp(-eps ||z||) ("planar Laplace" for d = 2: radius
                              ~ Gamma(2, 1/eps), uniform angle); Lap(1/eps) for d = 1.
    M1  (noise on distance)   y_i = exp(-(||x_i - t|| + Z_i)^2 / (2 h^2)),  Z_i ~ Lap(0, 1/eps)
                              (Gaussian KDE only).
    M2  (global Lipschitz)    y_i = f(x_i) + Z_i,  Z_i ~ Lap(0, K_f/eps)  (004 Sec. 4.1.2,
                              Lemma 2.3: K_f the global Lipschitz constant of f).
    M3  (smooth sensitivity)  y_i = f(x_i) + (B*(x_i)/eta) Z_i, Z_i from a standardised noise
                              family: Student's t T_nu(0, 1) with eps = nu gamma + (nu+1)/(2 sqrt nu)
                              eta, nu = 3, nu gamma = eps/3 (004 Sec. 5, Lemma 3.5); also
                              PolyPlace(1/gamma, eps/gamma) with eta = 1 (002 Thm. 8) and
                              GenCauchy(p, theta) with eps = max(gamma, (p theta - 1) gamma)
                              + theta (p-1)^((p-1)/p) eta (004 Lemma 3.3).
    M_LDP (local DP)          y_i = f(x_i) + Z_i,  Z_i ~ Lap(0, Delta_f/eps'),  eps' = eps * C.

All mechanisms draw from the ``numpy.random.Generator`` passed in and process the users in chunks
so that ``n * reps`` can exceed memory (n = 10^6 users x 100 repetitions is 10^8 draws).
The stream of draws depends on the chunk size; results are reproducible for a fixed chunk size.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from smoothsens_core.validation import (
    check_finite_array,
    check_integer,
    check_points,
    check_positive,
    check_rng,
)

__all__ = [
    "DEFAULT_CHUNK_ELEMENTS",
    "sample_multivariate_laplace",
    "LocalMechanism",
    "NoiseAPriori",
    "NoiseOnDistance",
    "AdditiveNoiseMechanism",
    "global_lipschitz_mechanism",
    "local_dp_mechanism",
    "smooth_sensitivity_mechanism",
]

#: Number of float64 values one chunk of draws may hold (32 MiB).
DEFAULT_CHUNK_ELEMENTS = 1 << 22

FloatArray = NDArray[np.float64]


def sample_multivariate_laplace(shape: tuple[int, ...], d: int, eps: float, rng: Any) -> FloatArray:
    """Draws Z in R^d with density proportional to exp(-eps ||Z||_2); returns shape + (d,).

    d = 1: Lap(0, 1/eps).  d >= 2: ||Z|| ~ Gamma(d, 1/eps) (the radial density is proportional to
    r^(d-1) e^(-eps r)) and Z/||Z|| uniform on the sphere (normalised Gaussian).  For d = 2 this
    is the planar Laplace mechanism of 004 Sec. 5 (M0) / [ABCP13]: radius Gamma(2, 1/eps),
    uniform angle.
    """
    d = check_integer("d", d, minimum=1)
    eps = check_positive("eps", eps)
    gen = check_rng(rng)
    if d == 1:
        return gen.laplace(0.0, 1.0 / eps, size=shape + (1,))
    r = gen.gamma(d, 1.0 / eps, size=shape)
    if d == 2:
        theta = gen.uniform(0.0, 2.0 * math.pi, size=shape)
        return np.stack([r * np.cos(theta), r * np.sin(theta)], axis=-1)
    g = gen.standard_normal(shape + (d,))
    g /= np.linalg.norm(g, axis=-1, keepdims=True)
    return g * r[..., None]


def _check_estimate_args(x: ArrayLike, rng: Any, reps: Any, chunk_elements: Any
                         ) -> tuple[FloatArray, int, int, np.random.Generator]:
    """The checked arguments of every ``mean_estimates``: points (n, d), reps >= 1,
    chunk_elements >= 1 and the Generator (checked in that order)."""
    pts = check_points("x", x)
    reps = check_integer("reps", reps, minimum=1)
    chunk_elements = check_integer("chunk_elements", chunk_elements, minimum=1)
    return pts, reps, chunk_elements, check_rng(rng)


class LocalMechanism(ABC):
    """A local mechanism with an analyst-side value per user; subclasses implement ``_values``.

    ``name`` is the label used in tables ("M0", "M2", "M3-t", ...); ``eps`` the GP parameter
    (privacy loss per unit distance).
    """

    name: str
    eps: float

    @abstractmethod
    def _values(self, x: FloatArray, reps: int, rng: np.random.Generator) -> FloatArray:
        """Analyst-side values for the users ``x`` (m, d): shape (reps, m)."""

    def release(self, x: ArrayLike, rng: Any, reps: int = 1) -> FloatArray:
        """Analyst-side values y for every user and repetition: shape (reps, n)."""
        pts = check_points("x", x)
        reps = check_integer("reps", reps, minimum=1)
        return self._values(pts, reps, check_rng(rng))

    def mean_estimates(
        self, x: ArrayLike, rng: Any, reps: int = 1, *, chunk_elements: int = DEFAULT_CHUNK_ELEMENTS
    ) -> FloatArray:
        """The estimates (1/n) sum_i y_i of A for ``reps`` independent repetitions: shape (reps,).

        Users are processed in chunks of about ``chunk_elements`` draws (all repetitions of a
        chunk of users at once), so memory stays bounded for any n * reps.
        """
        pts, reps, chunk_elements, gen = _check_estimate_args(x, rng, reps, chunk_elements)
        n, d = pts.shape
        per_user = reps * max(d, 1)
        users_per_chunk = max(1, chunk_elements // per_user)
        total = np.zeros(reps)
        for start in range(0, n, users_per_chunk):
            vals = self._values(pts[start : start + users_per_chunk], reps, gen)
            total += vals.sum(axis=1)
        return total / n


@dataclass
class NoiseAPriori(LocalMechanism):
    """M0 of 004 Sec. 5: each user sends x_i + Z_i (Z_i d-dim Laplace, scale 1/eps); y_i = f(x_i + Z_i).

    ``f`` maps an (m, d) array of points to (m,) values.  The released x_i + Z_i is
    eps-GP by the (planar) Laplace mechanism; applying f is post-processing.
    """

    f: Callable[[FloatArray], ArrayLike]
    eps: float
    name: str = "M0"

    def __post_init__(self) -> None:
        self.eps = check_positive("eps", self.eps)

    def noisy_points(self, x: ArrayLike, rng: Any, reps: int = 1) -> FloatArray:
        """The released points x_i + Z_i: shape (reps, n, d)."""
        pts = check_points("x", x)
        reps = check_integer("reps", reps, minimum=1)
        z = sample_multivariate_laplace((reps, pts.shape[0]), pts.shape[1], self.eps, check_rng(rng))
        return pts[None, :, :] + z

    def _values(self, x: FloatArray, reps: int, rng: np.random.Generator) -> FloatArray:
        m, d = x.shape
        noisy = x[None, :, :] + sample_multivariate_laplace((reps, m), d, self.eps, rng)
        return np.asarray(self.f(noisy.reshape(reps * m, d)), dtype=float).reshape(reps, m)


@dataclass
class NoiseOnDistance(LocalMechanism):
    """M1 of 004 Sec. 5 (Gaussian KDE only): y_i = exp(-(||x_i - t|| + Z_i)^2 / (2 h^2)), Z_i ~ Lap(1/eps).

    The user releases ||x_i - t|| + Z_i, eps-GP because x -> ||x - t|| is 1-Lipschitz.
    """

    t: ArrayLike
    h: float
    eps: float
    name: str = "M1"

    def __post_init__(self) -> None:
        self.t = check_finite_array("t", self.t).reshape(-1)
        self.h = check_positive("h", self.h)
        self.eps = check_positive("eps", self.eps)

    def _values(self, x: FloatArray, reps: int, rng: np.random.Generator) -> FloatArray:
        t = np.asarray(self.t)
        if t.size != x.shape[1]:
            raise ValueError(f"t must have {x.shape[1]} coordinates like the points; got {t.size}")
        dist = np.sqrt(np.sum((x - t) ** 2, axis=1))
        noisy = dist[None, :] + rng.laplace(0.0, 1.0 / self.eps, size=(reps, x.shape[0]))
        return np.exp(-(noisy**2) / (2.0 * self.h**2))


@dataclass
class AdditiveNoiseMechanism(LocalMechanism):
    """y_i = f(x_i) + s(x_i) Z_i with Z_i drawn from a standardised noise (noise-a-posteriori).

    ``scale`` maps the (m, d) points to the noise scales s(x_i) > 0 (a constant for M2 and
    M_LDP, B*(x_i)/eta for M3).  ``noise`` draws standard variates: a callable
    ``noise(shape, rng)``.  ``noise_variance`` is Var(Z) (``math.inf`` when it does not exist),
    used by the analytic MSE.  ``noise_sum(n, reps, rng)``, when given, draws ``reps`` independent
    copies of Z_1 + ... + Z_n exactly (e.g. for Laplace: Gamma(n, 1) - Gamma(n, 1), since
    Lap(0, 1) = E1 - E2 with E1, E2 standard exponential); :meth:`mean_estimates` then uses it
    whenever all users share one scale (M2, M_LDP), at O(reps) instead of O(n reps) cost.
    """

    f: Callable[[FloatArray], ArrayLike]
    scale: Callable[[FloatArray], ArrayLike]
    noise: Callable[[tuple[int, ...], np.random.Generator], FloatArray]
    noise_variance: float
    eps: float
    name: str
    info: dict[str, Any] = field(default_factory=dict)
    noise_sum: Callable[[int, int, np.random.Generator], FloatArray] | None = None

    def scales(self, x: ArrayLike) -> FloatArray:
        """The noise scale s(x_i) of every user, shape (n,); all must be finite and > 0."""
        pts = check_points("x", x)
        s = np.broadcast_to(np.asarray(self.scale(pts), dtype=float), (pts.shape[0],))
        if s.size and not (np.all(np.isfinite(s)) and np.all(s > 0)):
            bad = int(np.argmax(~(np.isfinite(s) & (s > 0))))
            raise ValueError(f"noise scale must be finite and > 0; got scale={s[bad]!r} at user {bad}")
        return s

    def _values(self, x: FloatArray, reps: int, rng: np.random.Generator) -> FloatArray:
        fx = np.asarray(self.f(x), dtype=float)
        s = self.scales(x)
        return fx[None, :] + s[None, :] * self.noise((reps, x.shape[0]), rng)

    def mean_estimates(
        self, x: ArrayLike, rng: Any, reps: int = 1, *, chunk_elements: int = DEFAULT_CHUNK_ELEMENTS
    ) -> FloatArray:
        """(1/n) sum_i f(x_i) + (1/n) sum_i s_i Z_i per repetition; f and s evaluated once."""
        pts, reps, chunk_elements, gen = _check_estimate_args(x, rng, reps, chunk_elements)
        n = pts.shape[0]
        fmean = float(np.mean(np.asarray(self.f(pts), dtype=float)))
        s = self.scales(pts)
        if self.noise_sum is not None and n and np.all(s == s[0]):
            # exact law of the sum of n iid draws (constant scale): no per-user draws needed
            return fmean + s[0] * np.asarray(self.noise_sum(n, reps, gen), dtype=float) / n
        users_per_chunk = max(1, chunk_elements // reps)
        total = np.zeros(reps)
        for start in range(0, n, users_per_chunk):
            sc = s[start : start + users_per_chunk]
            z = self.noise((reps, sc.size), gen)
            z *= sc  # in place: sum_i s_i Z_ri per repetition r without a BLAS call, whose
            total += z.sum(axis=1)  # threaded summation order would differ between processes
        return fmean + total / n

    def analytic_mse(self, x: ArrayLike) -> float:
        """E[(A~ - A)^2] = Var(Z) (1/n^2) sum_i s_i^2 (unbiased: E[Z] = 0, independent users)."""
        s = self.scales(x)
        return float(self.noise_variance * np.sum(s**2) / s.size**2)


def _laplace_noise(shape: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
    return rng.laplace(0.0, 1.0, size=shape)


def _laplace_sum(n: int, reps: int, rng: np.random.Generator) -> FloatArray:
    """reps draws of Z_1 + ... + Z_n, Z_i iid Lap(0, 1): exactly Gamma(n, 1) - Gamma(n, 1)."""
    return rng.standard_gamma(n, reps) - rng.standard_gamma(n, reps)


def global_lipschitz_mechanism(
    f: Callable[[FloatArray], ArrayLike], lipschitz: float, eps: float, *, name: str = "M2"
) -> AdditiveNoiseMechanism:
    """M2 of 004 Sec. 5: y = f(x) + Lap(0, K_f/eps), K_f the global Lipschitz constant (Lemma 2.3)."""
    k = check_positive("lipschitz", lipschitz)
    eps = check_positive("eps", eps)
    b = k / eps
    return AdditiveNoiseMechanism(
        f=f, scale=lambda pts: np.full(pts.shape[0], b), noise=_laplace_noise, noise_variance=2.0,
        eps=eps, name=name, info={"K_f": k, "laplace_scale": b}, noise_sum=_laplace_sum,
    )


def local_dp_mechanism(
    f: Callable[[FloatArray], ArrayLike],
    eps: float,
    c: float,
    *,
    sensitivity: float = 1.0,
    name: str = "M_LDP",
) -> AdditiveNoiseMechanism:
    """M_LDP of 004 Sec. 5: y = f(x) + Lap(0, Delta_f/eps'), eps' = eps * C (Delta_f = 1 for 004's queries).

    GP at eps per unit distance and LDP at eps' = eps C agree at distance C: closer pairs get
    stronger protection under GP, farther pairs under LDP (004 Sec. 5).
    """
    eps = check_positive("eps", eps)
    c = check_positive("c", c)
    delta_f = check_positive("sensitivity", sensitivity)
    eps_ldp = eps * c
    b = delta_f / eps_ldp
    return AdditiveNoiseMechanism(
        f=f, scale=lambda pts: np.full(pts.shape[0], b), noise=_laplace_noise, noise_variance=2.0,
        eps=eps, name=name, info={"eps_prime": eps_ldp, "C": c, "laplace_scale": b}, noise_sum=_laplace_sum,
    )


def smooth_sensitivity_mechanism(
    f: Callable[[FloatArray], ArrayLike],
    smooth_sensitivity: Callable[[FloatArray], ArrayLike],
    noise: Any,
    eta: float,
    eps: float,
    *,
    name: str = "M3",
    info: dict[str, Any] | None = None,
) -> AdditiveNoiseMechanism:
    """M3 of 004 Sec. 5: y = f(x) + (B*(x)/eta) Z, Z from the standardised distribution ``noise``.

    ``smooth_sensitivity`` maps points to B*(x) at the growth parameter gamma of the calibration
    (004 Lemmas 3.3, 3.5; 002 Thm. 8); ``noise`` is a smoothsens_core ContinuousDistribution with
    loc 0 (its ``sample`` and ``variance`` are used; a scale other than 1, as in PolyPlace(1/gamma,
    eps/gamma) of 002 Thm. 8 with eta = 1, multiplies B*/eta).
    """
    eta = check_positive("eta", eta)
    eps = check_positive("eps", eps)
    if getattr(noise, "loc", 0.0) != 0.0:
        raise ValueError(f"noise must be centred (loc=0); got loc={noise.loc}")

    def draw(shape: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        return np.asarray(noise.sample(shape, rng), dtype=float)

    return AdditiveNoiseMechanism(
        f=f,
        scale=lambda pts: np.asarray(smooth_sensitivity(pts), dtype=float) / eta,
        noise=draw,
        noise_variance=float(noise.variance()),
        eps=eps,
        name=name,
        info={"eta": eta, "noise": repr(noise), **(info or {})},
    )
