"""Hypothesis strategies for privacy property tests (importable into users' own test suites).

Neighbour pairs under each metric of the papers, and mechanism parameters inside their valid
ranges, calibrated by the core (:mod:`smoothsens_core.calibration`, ``calibrate_*(...).mechanism()``):

* :func:`euclidean_pairs`      x, x' in R^dim with ||x - x'||_2 <= Lambda (004 Def. 5).
* :func:`hamming_pairs`        datasets differing in one record (DP; 002 Sec. 2.1).
* :func:`p_neighbouring_pairs` ordered pairs X ~^p X' of 003 Def. IV.1 (corrected: not p(x) or p(x')).
* :func:`smooth_pairs`         (d, ln B(x) - ln B(x'), f(x) - f(x'), y) allowed by 004 Def. 8.
* :func:`neighbour_pairs`       one entry point for the three metrics (pairs as (x, x')).
* :func:`location_scale_outputs` outputs y of a location-scale mechanism loc + scale Z near where
  the privacy loss is worst: the centres of x and x', between them, and far tails (sinh-spaced).
* :func:`discrete_outputs`      outputs over a finite support (discrete mechanisms, e.g. 003's AGeo).
* :func:`binary64_outputs`      outputs with arbitrary low-order bits near a grid (floating-point audits).
* :func:`gencauchy_mechanisms`, :func:`student_t_mechanisms`, :func:`laplace_approx_mechanisms`,
  :func:`polyplace_mechanisms`, :func:`calibrated_mechanisms`: calibrated abstract mechanisms
  (:class:`smoothsens_core.mechanism.SmoothSensitivityMechanism`).

Example::

    from hypothesis import given
    from verify.strategies import calibrated_mechanisms, smooth_pairs
    from verify.audit.exact import abstract_loss

    @given(data=st.data(), mech=calibrated_mechanisms(pure_only=True))
    def test_loss_bounded(data, mech):
        d, r, shift, y = data.draw(smooth_pairs(mech))
        assert abstract_loss(mech, [r], [shift], [y])[0] <= mech.eps * d + 1e-9

For audits drawn from these strategies, assert ``result.passed`` (not ``not result.violated``): an
audit whose float excess could not be certified is ``inconclusive``, which is not a pass.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence, TypedDict

import numpy as np
from hypothesis import strategies as st

from smoothsens_core import calibration as cal
from smoothsens_core.mechanism import SmoothSensitivityMechanism
from smoothsens_core.validation import check_metric

__all__ = [
    "euclidean_pairs",
    "hamming_pairs",
    "p_neighbouring_pairs",
    "smooth_pairs",
    "gencauchy_mechanisms",
    "student_t_mechanisms",
    "laplace_approx_mechanisms",
    "polyplace_mechanisms",
    "calibrated_mechanisms",
    "neighbour_pairs",
    "location_scale_outputs",
    "discrete_outputs",
    "binary64_outputs",
]

class _FiniteFloats(TypedDict):
    """Keyword arguments of ``st.floats`` that exclude NaN and the infinities."""

    allow_nan: bool
    allow_infinity: bool


_finite: _FiniteFloats = {"allow_nan": False, "allow_infinity": False}


@st.composite
def euclidean_pairs(draw: Any, dim: int = 1, Lambda: float = math.inf, bound: float = 100.0,
                    min_dist: float = 1e-6) -> tuple[np.ndarray, np.ndarray, float]:
    """(x, x', d) with x in [-bound, bound]^dim and 0 < d = ||x - x'||_2 <= Lambda (004 Def. 5)."""
    x = np.array(draw(st.lists(st.floats(-bound, bound, **_finite), min_size=dim, max_size=dim)))
    direction = np.array(draw(st.lists(st.floats(-1, 1, **_finite), min_size=dim, max_size=dim)))
    norm = float(np.linalg.norm(direction))
    if norm < 1e-3:
        direction = np.zeros(dim)
        direction[0] = 1.0
        norm = 1.0
    rmax = min(Lambda, 2 * bound)
    d = draw(st.floats(min_dist, rmax, **_finite))
    xp = x + d * direction / norm
    return x, xp, float(np.linalg.norm(x - xp))


@st.composite
def hamming_pairs(draw: Any, universe: Sequence[Any], n: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(X, X'): n records from ``universe``, X' equal to X except one record (dist_H = 1)."""
    if len(set(universe)) < 2:
        raise ValueError(f"universe must hold at least 2 distinct values; got {universe!r}")
    X = draw(st.lists(st.sampled_from(list(universe)), min_size=n, max_size=n))
    i = draw(st.integers(0, n - 1))
    v = draw(st.sampled_from([u for u in universe if u != X[i]]))
    Xp = list(X)
    Xp[i] = v
    return tuple(X), tuple(Xp)


@st.composite
def p_neighbouring_pairs(draw: Any, universe: Sequence[Any], n: int,
                         policy: Callable[[Any], bool]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Ordered (X, X') with X ~^p X' (003 Def. IV.1, corrected reading of claim 003-Def-IV.1): one
    record x -> x' (x != x') with (p(x) -> p(x')), i.e. not p(x) or p(x').  Raises ValueError when
    the policy allows no such change on ``universe`` (e.g. one sensitive value and nothing else)."""
    values = list(dict.fromkeys(universe))
    moves = [(x, xp) for x in values for xp in values if x != xp and (not policy(x) or policy(xp))]
    if not moves:
        raise ValueError("universe must allow a p-neighbouring change x -> x' (x != x', not p(x) or p(x')); "
                         f"got universe={values!r}")
    X = draw(st.lists(st.sampled_from(values), min_size=n, max_size=n))
    i = draw(st.integers(0, n - 1))
    x, xp = draw(st.sampled_from(moves))
    X[i] = x
    Xp = list(X)
    Xp[i] = xp
    return tuple(X), tuple(Xp)


@st.composite
def smooth_pairs(draw: Any, mech: SmoothSensitivityMechanism) -> tuple[float, float, list[float], list[float]]:
    """(d, r, shift, y) allowed by 004 Def. 8 for ``mech`` (B(x') = 1, f(x') = 0 normalisation):
    d in (0, min(Lambda, 8/eps)] (d = 1 for Hamming), |r| <= ln g0(d),
    ||shift||_1 <= min(e^r, 1) d, y anywhere (scaled to the noise: moderate values and far tails)."""
    if mech.growth is None:
        raise ValueError("smooth_pairs needs the mechanism's growth function; got growth=None")
    if mech.metric == "hamming":
        d = 1.0
    else:
        d = draw(st.floats(1e-4, min(mech.Lambda, 8.0 / mech.eps), **_finite))
    lg = float(mech.growth.log_g0(d))
    # The worst cases sit on the constraint boundaries: draw them as often as interior points.
    frac = st.one_of(st.sampled_from([-1.0, 1.0]), st.floats(-1.0, 1.0, **_finite))
    r = draw(frac) * lg
    cap = min(math.exp(r), 1.0) * d
    w = draw(st.lists(frac, min_size=mech.m, max_size=mech.m))
    norm = max(1.0, sum(abs(t) for t in w))
    shift = [cap * t / norm for t in w]
    scale = max(math.exp(r), 1.0) / mech.eta
    # Outputs near the centres (where the shift term of the loss peaks) and in the far tails
    # (where the scale term peaks).
    z = st.one_of(st.floats(-8, 8, **_finite), st.floats(-25, 25, **_finite).map(math.sinh))
    y = [scale * draw(z) for _ in range(mech.m)]
    return d, r, shift, y


def _eps() -> st.SearchStrategy[float]:
    return st.floats(0.05, 10.0, **_finite)


@st.composite
def gencauchy_mechanisms(draw: Any, max_m: int = 1) -> SmoothSensitivityMechanism:
    """GenCauchy(p, theta) mechanisms of 004 Lemma 3.3 / Cor. 3.2 with p in (1, 8], theta in [1, 3],
    m <= max_m, gamma in (0, eps / max(m, m(p theta - 1))) so that eta > 0."""
    eps = draw(_eps())
    p = draw(st.floats(1.1, 8.0, **_finite))
    theta = draw(st.floats(1.0, 3.0, **_finite))
    m = draw(st.integers(1, max_m))
    cap = eps / max(m, m * (p * theta - 1))
    gamma = draw(st.floats(0.01, 0.95)) * cap
    return cal.calibrate_gencauchy(eps, gamma, p=p, theta=theta, m=m).mechanism()


@st.composite
def student_t_mechanisms(draw: Any) -> SmoothSensitivityMechanism:
    """Student's t mechanisms of 004 Lemma 3.5: nu in (1, 30], gamma in (0, eps/nu)."""
    eps = draw(_eps())
    nu = draw(st.floats(1.05, 30.0, **_finite))
    gamma = draw(st.floats(0.01, 0.95)) * eps / nu
    return cal.calibrate_student_t(eps, gamma, nu=nu).mechanism()


@st.composite
def laplace_approx_mechanisms(draw: Any) -> SmoothSensitivityMechanism:
    """Laplace with g_L of 004 Lemma 3.6: delta in [1e-9, 0.5], gamma in (0, eps/ln(1/delta))."""
    eps = draw(_eps())
    delta = 10 ** draw(st.floats(-9, math.log10(0.5), **_finite))
    gamma = draw(st.floats(0.01, 0.95)) * eps / math.log(1 / delta)
    return cal.calibrate_laplace_approx(eps, delta, gamma).mechanism()


@st.composite
def polyplace_mechanisms(draw: Any) -> SmoothSensitivityMechanism:
    """PolyPlace mechanisms of 002 Thm. 8: 0 < gamma < eps (alpha = eps/gamma > 1.02), DP."""
    eps = draw(_eps())
    gamma = draw(st.floats(0.01, 0.98)) * eps
    return cal.calibrate_polyplace(eps, gamma, metric="hamming").mechanism()


def calibrated_mechanisms(pure_only: bool = False) -> st.SearchStrategy[SmoothSensitivityMechanism]:
    """Any calibrated mechanism of the core (pure ones only with ``pure_only``)."""
    options = [gencauchy_mechanisms(max_m=3), student_t_mechanisms(), polyplace_mechanisms()]
    if not pure_only:
        options.append(laplace_approx_mechanisms())
    return st.one_of(*options)


def neighbour_pairs(metric: str, *, dim: int = 1, Lambda: float = math.inf, bound: float = 100.0,
                    universe: Sequence[Any] = (0, 1), n: int = 3,
                    policy: Callable[[Any], bool] | None = None) -> st.SearchStrategy[tuple[Any, Any]]:
    """Pairs (x, x') of neighbours under ``metric`` (``"euclidean"``, ``"hamming"`` or
    ``"p-neighbouring"``, :data:`smoothsens_core.validation.METRICS`): :func:`euclidean_pairs` without
    the distance, :func:`hamming_pairs` or :func:`p_neighbouring_pairs` (``policy`` required)."""
    metric = check_metric(metric)
    if metric == "euclidean":
        return euclidean_pairs(dim=dim, Lambda=Lambda, bound=bound).map(lambda t: (t[0], t[1]))
    if metric == "hamming":
        return hamming_pairs(universe, n)
    if policy is None:
        raise ValueError("metric 'p-neighbouring' needs policy (the sensitivity predicate p of 003 Def. IV.1)")
    return p_neighbouring_pairs(universe, n, policy)


@st.composite
def location_scale_outputs(draw: Any, loc: float, loc_prime: float, scale: float,
                           tail: float = 40.0) -> float:
    """An output y for the pair of location-scale outputs loc + scale Z and loc' + scale Z: with equal
    weight at a centre (loc or loc', where log-densities have kinks), between the centres (where a
    shift changes the loss fastest), or at t scales beyond a centre with t = sinh(u), |u| <= asinh(tail)
    (the tails, where heavy-tailed and Laplace losses reach their sup)."""
    check = float(scale)
    if not check > 0 or not math.isfinite(check):
        raise ValueError(f"scale must be a finite number > 0; got scale={scale!r}")
    kind = draw(st.sampled_from(("centre", "between", "tail")))
    centre = draw(st.sampled_from((float(loc), float(loc_prime))))
    if kind == "centre":
        return centre + scale * draw(st.floats(-1e-3, 1e-3, **_finite))
    if kind == "between":
        lo, hi = sorted((float(loc), float(loc_prime)))
        return draw(st.floats(lo, hi, **_finite)) if hi > lo else centre
    u = draw(st.floats(-math.asinh(tail), math.asinh(tail), **_finite))
    return centre + scale * math.sinh(u)


def discrete_outputs(support: Sequence[Any]) -> st.SearchStrategy[Any]:
    """An output of a discrete mechanism: one element of the finite ``support`` (shrinks to the first)."""
    values = list(support)
    if not values:
        raise ValueError("support must be a non-empty finite set of outputs")
    return st.sampled_from(values)


@st.composite
def binary64_outputs(draw: Any, grid: float = 1.0, bound: float = 1e6) -> float:
    """A double y within a few ulps of a multiple of ``grid`` in [-bound, bound], or with arbitrary
    low-order bits: the outputs a floating-point audit (verify.audit.blackbox.floating) must classify."""
    k = draw(st.integers(int(-bound // grid), int(bound // grid)))
    y = k * float(grid)
    steps = draw(st.integers(-3, 3))
    for _ in range(abs(steps)):
        y = math.nextafter(y, math.inf if steps > 0 else -math.inf)
    if draw(st.booleans()):
        y += draw(st.floats(-grid, grid, **_finite))
    return y
