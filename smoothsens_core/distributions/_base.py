"""Base classes of the noise families: define a distribution once, derive the rest.

Modelled on SciPy's ``rv_continuous``: a family implements a few private methods on the
*standardised* variable z = (x - loc) / scale (``_logpdf``, ``_cdf``, ``_sf``, ``_ppf``, ``_isf``,
``_sample``, ``_mean``, ``_variance``), and the public methods check and broadcast their arguments
once, then call the private methods on valid input only.

A continuous family also answers for the shape of its log-density, which the calibration code
(:mod:`smoothsens_core.calibration.tight`) and the auditors need and must not re-type:

* ``_score(z)``: the score psi(z) = d/dz ln h(z) of the standardised density h, and the public
  :meth:`ContinuousDistribution.score`.  The proofs of 004 Lemmas 3.3 and 3.5 bound the privacy loss of
  f(x) + (B(x)/eta) Z by sup |psi| (the shift, 004 Claim 3.4) and the scale ratio, whose rate is
  |1 + z psi(z)|;
* :meth:`ContinuousDistribution.kinks`: where ln h (or psi) is not differentiable;
* :meth:`ContinuousDistribution.score_breakpoints`: the z >= 0 between which |psi(z)| and
  |1 + z psi(z)| are monotone;
* ``tail_exponent`` k (h(z) ~ c |z|^(-k), 000 Thm. 1 tails), ``tail_from`` and
  ``score_scale_limit`` = lim_{z -> inf} |1 + z psi(z)|.

Parameters are validated in the constructor (``ValueError`` naming the parameter and its range);
nothing returns NaN for an invalid parameter.  Randomness only through a ``numpy.random.Generator``
passed in (or an int seed).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_integer, check_positive, check_real, check_rng

__all__ = ["ContinuousDistribution", "DiscreteDistribution"]

FloatArray = NDArray[np.float64]


def _as_float_array(name: str, x: ArrayLike) -> FloatArray:
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of real numbers; got {type(x).__name__}") from exc
    if arr.size and np.any(np.isnan(arr)):
        bad = tuple(int(i) for i in np.argwhere(np.isnan(arr))[0])
        raise ValueError(f"{name} must not contain NaN; got NaN at index {bad}")
    return arr


def _as_probability_array(name: str, q: ArrayLike) -> FloatArray:
    arr = _as_float_array(name, q)
    if arr.size and (np.any(arr < 0) or np.any(arr > 1)):
        raise ValueError(f"{name} must be in [0, 1]; got min={arr.min()!r}, max={arr.max()!r}")
    return arr


def _scalar_or_array(a: FloatArray) -> FloatArray | float:
    return float(a) if a.ndim == 0 else a


def _sample_shape(size: Any, rng: Any) -> tuple[tuple[int, ...], np.random.Generator]:
    """The checked ``size`` of a ``sample`` call as a shape tuple, and ``rng`` as a Generator
    (required: smoothsens never draws from global random state)."""
    if rng is None:
        raise TypeError("rng is required: pass a numpy.random.Generator or an integer seed")
    gen = check_rng(rng)
    shape = (check_integer("size", size, minimum=0),) if np.ndim(size) == 0 else tuple(
        check_integer("size", s, minimum=0) for s in size
    )
    return shape, gen


def _on_support(z: FloatArray, lo: float, hi: float, below: float, above: float, inner: Any) -> FloatArray:
    """``below`` where z <= lo, ``above`` where z >= hi, and ``inner(z)`` (a family's ``_cdf`` or
    ``_sf``) in between, evaluated on z clipped to the support [lo, hi] only."""
    if lo == -math.inf and hi == math.inf:  # the whole line: inner on z itself, then only the +-inf fixed
        with np.errstate(under="ignore"):
            out = np.asarray(inner(z), dtype=float)
        inf = np.isinf(z)
        if inf.any():
            out = np.where(inf, np.where(z < 0, below, above), out)
        return out
    zc = np.clip(z, lo, hi)
    with np.errstate(under="ignore"):
        return np.where(z <= lo, below, np.where(z >= hi, above, inner(zc)))


def _on_integer_support(k: ArrayLike, support: tuple[float, float], below: float, above: float,
                        inner: Any) -> FloatArray:
    """The discrete counterpart of :func:`_on_support`, at floor(k): ``below`` where floor(k) < lo,
    ``above`` where floor(k) >= hi, and ``inner(floor(k))`` (a family's ``_cdf`` or ``_sf``) in between,
    evaluated on floor(k) clipped to the support only (an infinite end clipped at -+1e300)."""
    ka = np.floor(_as_float_array("k", k))
    lo, hi = support
    kc = np.clip(ka, lo if math.isfinite(lo) else -1e300, hi if math.isfinite(hi) else 1e300)
    return np.where(ka < lo, below, np.where(ka >= hi, above, inner(kc)))


def _quantile(qa: FloatArray, at_0: float, at_1: float, inner: Any) -> FloatArray:
    """``at_0`` where q <= 0, ``at_1`` where q >= 1, and ``inner(q)`` elsewhere, with q clipped to
    [tiny, 1 - epsneg] so that ``inner`` (a family's ``_ppf`` or ``_isf``) never sees 0 or 1."""
    inner_q = np.clip(qa, np.finfo(float).tiny, 1.0 - np.finfo(float).epsneg)
    return np.where(qa <= 0.0, at_0, np.where(qa >= 1.0, at_1, inner(inner_q)))


class _Distribution:
    """What a continuous and a discrete family share: ``name``, ``support`` (of the standardised
    variable), the private ``_cdf`` and ``_ppf`` (on z, or on integer k) and ``_variance`` a family
    implements, and ``std`` = sqrt(``variance()``)."""

    name: str = "distribution"
    support: tuple[float, float] = (-math.inf, math.inf)

    def _cdf(self, z: FloatArray) -> FloatArray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _ppf(self, q: FloatArray) -> FloatArray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _variance(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def variance(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def std(self) -> float:
        """Standard deviation sqrt(Var[X]) (inf where the variance does not exist)."""
        return math.sqrt(self.variance())


class ContinuousDistribution(_Distribution):
    """A location-scale continuous distribution X = loc + scale * Z.

    Subclasses set ``name``, ``symmetric`` (Z and -Z have the same law), ``support`` (of Z, as a
    pair of floats), validate their shape parameters in ``__init__`` and implement ``_logpdf`` and
    ``_cdf`` at least.  The defaults derive ``_pdf`` = exp(_logpdf), ``_sf`` (by symmetry when
    ``symmetric``, else 1 - cdf), ``_ppf`` (subclasses should override: the base has no root finder
    on purpose), ``_isf`` (by symmetry or ``_ppf(1 - q)``), and ``_sample`` = ``_ppf(U)``.
    ``_mean`` and ``_variance`` return the standardised moments (``math.inf`` / ``math.nan`` where
    the moment does not exist: variance inf, mean nan).
    """

    name: str = "distribution"
    symmetric: bool = False

    def __init__(self, loc: float = 0.0, scale: float = 1.0) -> None:
        self.loc = check_real("loc", loc)
        self.scale = check_positive("scale", scale)

    # ---- to be provided by a family (standardised variable z) -------------------------------
    def _logpdf(self, z: FloatArray) -> FloatArray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _pdf(self, z: FloatArray) -> FloatArray:
        return np.exp(self._logpdf(z))

    def _sf(self, z: FloatArray) -> FloatArray:
        if self.symmetric:
            return self._cdf(-z)
        return 1.0 - self._cdf(z)

    def _isf(self, q: FloatArray) -> FloatArray:
        if self.symmetric:
            return -self._ppf(q)
        return self._ppf(1.0 - q)

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        u = rng.random(size)
        # Symmetric families: sample the lower half through ppf(u/2) and flip a sign, so that
        # both tails are resolved to full relative precision (u near 1 loses digits in 1 - u).
        if self.symmetric:
            z = self._ppf(0.5 * u)
            sign = rng.random(size) < 0.5
            return np.where(sign, z, -z)
        return self._ppf(u)

    def _mean(self) -> float:
        return 0.0 if self.symmetric else math.nan

    def _score(self, z: FloatArray) -> FloatArray:  # pragma: no cover - abstract
        """psi(z) = d/dz ln h(z) of the standardised density on its support (vectorised).

        Where ln h is not differentiable (a point of :meth:`_kinks_z`) the right derivative
        lim_{t -> 0+} (ln h(z + t) - ln h(z))/t is returned (the left one at the right end of the
        support), so psi(0) of a density with a kink at its centre is the limit from z > 0."""
        raise NotImplementedError

    def _kinks_z(self) -> tuple[float, ...]:
        """The kinks of :meth:`kinks` on the standardised variable z (none by default)."""
        return ()

    def _score_breakpoints(self) -> tuple[float, ...]:  # pragma: no cover - abstract
        """The z > 0 where |psi| or |1 + z psi| turns (kinks are added by :meth:`score_breakpoints`)."""
        raise NotImplementedError

    # ---- the shape of ln h (standardised), for calibration and audit ------------------------
    @property
    def tail_exponent(self) -> float:  # pragma: no cover - abstract
        """k with h(z) ~ c |z|^(-k) as |z| -> inf (standardised density; math.inf for exponential tails)."""
        raise NotImplementedError

    @property
    def score_scale_limit(self) -> float:  # pragma: no cover - abstract
        """lim_{z -> inf} |1 + z psi(z)| (math.inf when |1 + z psi| is unbounded)."""
        raise NotImplementedError

    @property
    def tail_from(self) -> float:
        """The standardised z0 >= 0 from which the tail form holds: z^k h(z) is nondecreasing on
        [z0, inf) (k = ``tail_exponent``), so ln h(z1) - ln h(z2) <= k ln(z2/z1) for z0 <= z1 <= z2,
        and h(z) ~ c z^(-k).  0 unless the family says otherwise (PolyPlace: its outer branch)."""
        return 0.0

    def _score_scale(self, z: FloatArray) -> FloatArray:
        """1 + z psi(z) on the standardised z: minus the derivative of ln[(1/b) h(y/b)] in ln b at
        y/b = z, the scale term of the privacy loss (004 Lemmas 3.3, 3.5; calibration.tight)."""
        with np.errstate(invalid="ignore", over="ignore"):
            return 1.0 + z * self._score(z)

    def _check_in_support(self, name: str, z: FloatArray) -> FloatArray:
        lo, hi = self.support
        if z.size and (np.any(z < lo) or np.any(z > hi)):
            bad = tuple(int(i) for i in np.argwhere((z < lo) | (z > hi))[0])
            raise ValueError(f"{name} must be in the support [{lo!r}, {hi!r}] of the standardised {self.name} "
                             f"(the score of a zero density is undefined); got {name}={float(z[bad])!r} "
                             f"at index {bad}")
        return z

    def score(self, x: ArrayLike) -> FloatArray | float:
        """d/dx ln pdf(x) = psi((x - loc)/scale)/scale, psi the score of the standardised density.

        ValueError for x outside the support (the density is zero there).  At a kink (see
        :meth:`kinks`) the right derivative is returned (the left one at the right end of the support).
        Computed in log space: no overflow for huge |x|."""
        z = self._check_in_support("(x - loc)/scale", self._standardise(x))
        with np.errstate(divide="ignore", over="ignore", under="ignore", invalid="ignore"):
            out = self._score(z) / self.scale
        return _scalar_or_array(out)

    def kinks(self) -> tuple[float, ...]:
        """The points (x units) where ln pdf, or its derivative (the score), is not differentiable.

        There the density changes branch or |z| enters non-smoothly: Laplace loc (psi jumps);
        PolyPlace loc (psi jumps) and loc +- s/alpha (ln h is C^1 there, both branches having
        psi = -+alpha/s, 002 Lemma 12, but psi' jumps); GenCauchy(p, theta) and PowerLaw(k) loc when the
        exponent is < 2 (psi jumps for p <= 1, psi' is unbounded for 1 < p < 2); Student's t none.
        Interior points of the support only (the end point of a half-line is in ``support``)."""
        return tuple(sorted(self.loc + self.scale * k for k in self._kinks_z()))

    def score_breakpoints(self) -> tuple[float, ...]:
        """Standardised points 0 <= z_1 < ... < z_n between which |psi(z)| and |1 + z psi(z)| are each
        monotone (kinks at z >= 0 included); beyond z_n, |psi| decreases and |1 + z psi| increases to
        ``score_scale_limit``.  The certified grid of :mod:`smoothsens_core.calibration.tight` is built
        on them (a grid containing them has every term monotone on every cell).  For a density on a
        half-line the points are values of |z| on its side (psi is odd, |1 + z psi| even, in z)."""
        pts = {float(b) for b in self._score_breakpoints()} | {float(k) for k in self._kinks_z() if k >= 0.0}
        return tuple(sorted(pts))

    # ---- public API: validate once, standardise, delegate -----------------------------------
    def _standardise(self, x: ArrayLike) -> FloatArray:
        """(x - loc)/scale, always a new array (families may work on it in place); the standard law
        (loc 0, scale 1) copies instead of two arithmetic passes (the same values)."""
        arr = _as_float_array("x", x)
        if self.loc == 0.0 and self.scale == 1.0:
            return arr.copy() if arr is x else arr
        return (arr - self.loc) / self.scale

    def logpdf(self, x: ArrayLike) -> FloatArray | float:
        """ln density at x: _logpdf((x - loc)/scale) - ln(scale); -inf outside the support."""
        z = self._standardise(x)
        lo, hi = self.support
        inside = (z >= lo) & (z <= hi)
        with np.errstate(divide="ignore", over="ignore", under="ignore", invalid="ignore"):
            out = np.where(inside, self._logpdf(np.where(inside, z, 0.0 if lo <= 0.0 <= hi else lo)),
                           -np.inf)
        return _scalar_or_array(out - math.log(self.scale))

    def pdf(self, x: ArrayLike) -> FloatArray | float:
        """Density at x (exp of :meth:`logpdf`)."""
        return _scalar_or_array(np.exp(np.asarray(self.logpdf(x))))

    def cdf(self, x: ArrayLike) -> FloatArray | float:
        """P(X <= x)."""
        lo, hi = self.support
        return _scalar_or_array(_on_support(self._standardise(x), lo, hi, 0.0, 1.0, self._cdf))

    def sf(self, x: ArrayLike) -> FloatArray | float:
        """P(X > x), computed directly in the upper tail (no 1 - cdf cancellation)."""
        lo, hi = self.support
        return _scalar_or_array(_on_support(self._standardise(x), lo, hi, 1.0, 0.0, self._sf))

    def _x_at_quantile(self, q: ArrayLike, at_0: float, at_1: float, inner: Any) -> FloatArray | float:
        """loc + scale * :func:`_quantile` (q checked in [0, 1]): the shared body of ppf and isf."""
        qa = _as_probability_array("q", q)
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            z = _quantile(qa, at_0, at_1, inner)
        return _scalar_or_array(self.loc + self.scale * z)

    def ppf(self, q: ArrayLike) -> FloatArray | float:
        """Inverse CDF: the x with P(X <= x) = q, q in [0, 1]."""
        lo, hi = self.support
        return self._x_at_quantile(q, lo, hi, self._ppf)

    def isf(self, q: ArrayLike) -> FloatArray | float:
        """Inverse survival function: the x with P(X > x) = q."""
        lo, hi = self.support
        return self._x_at_quantile(q, hi, lo, self._isf)

    def sample(self, size: int | tuple[int, ...] = 1, rng: Any = None) -> FloatArray:
        """Draw ``size`` samples with the ``numpy.random.Generator`` ``rng`` (or an int seed).

        ``rng`` is required: smoothsens never draws from global random state.
        """
        shape, gen = _sample_shape(size, rng)
        return self.loc + self.scale * self._sample(shape, gen)

    def mean(self) -> float:
        """E[X] (nan where the mean does not exist)."""
        m = self._mean()
        return self.loc + self.scale * m if math.isfinite(m) else m

    def variance(self) -> float:
        """Var[X] (inf where the variance does not exist)."""
        v = self._variance()
        return self.scale**2 * v if math.isfinite(v) else math.inf

    def _shape_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        shape = self._shape_repr()
        sep = ", " if shape else ""
        return f"{type(self).__name__}({shape}{sep}loc={self.loc!r}, scale={self.scale!r})"


class DiscreteDistribution(_Distribution):
    """A distribution on the integers (or a finite integer range), with an exact pmf.

    Subclasses set ``support`` (a pair of ints or +-inf), validate parameters in ``__init__`` and
    implement ``_logpmf`` and ``_cdf`` (on integer k, vectorised) and ``_ppf``; ``_sample`` defaults
    to ``_ppf(U)``.
    """

    name: str = "discrete distribution"

    def _logpmf(self, k: FloatArray) -> FloatArray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _sf(self, k: FloatArray) -> FloatArray:
        return 1.0 - self._cdf(k)

    def _sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        return self._ppf(rng.random(size))

    def _mean(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def logpmf(self, k: ArrayLike) -> FloatArray | float:
        """ln P(K = k); -inf at non-integers and outside the support."""
        ka = _as_float_array("k", k)
        lo, hi = self.support
        ok = (ka == np.floor(ka)) & (ka >= lo) & (ka <= hi)
        safe = np.where(ok, ka, lo if math.isfinite(lo) else 0.0)
        with np.errstate(divide="ignore", under="ignore"):
            out = np.where(ok, self._logpmf(safe), -np.inf)
        return _scalar_or_array(out)

    def pmf(self, k: ArrayLike) -> FloatArray | float:
        """P(K = k)."""
        return _scalar_or_array(np.exp(np.asarray(self.logpmf(k))))

    def cdf(self, k: ArrayLike) -> FloatArray | float:
        """P(K <= k) for real k."""
        return _scalar_or_array(_on_integer_support(k, self.support, 0.0, 1.0, self._cdf))

    def sf(self, k: ArrayLike) -> FloatArray | float:
        """P(K > k) for real k."""
        return _scalar_or_array(_on_integer_support(k, self.support, 1.0, 0.0, self._sf))

    def ppf(self, q: ArrayLike) -> FloatArray | float:
        """Smallest integer k with P(K <= k) >= q."""
        qa = _as_probability_array("q", q)
        lo, hi = self.support
        with np.errstate(divide="ignore", invalid="ignore"):
            out = _quantile(qa, lo, hi, self._ppf)
        return _scalar_or_array(out)

    def sample(self, size: int | tuple[int, ...] = 1, rng: Any = None) -> NDArray[np.int64]:
        """Draw ``size`` integer samples with ``rng`` (a Generator or int seed; required)."""
        shape, gen = _sample_shape(size, rng)
        return np.asarray(self._sample(shape, gen)).astype(np.int64)

    def mean(self) -> float:
        return self._mean()

    def variance(self) -> float:
        return self._variance()
