"""Test tables of the continuous noise families; the references themselves live in
:mod:`verify.reference.distributions` (one mpmath reference per family, typed from the papers).

``CASES`` is the table of valid parameter sets that drives the generic identity tests; each
:class:`Case` carries its family's reference density and the quadrature split points (the location,
+-scale and the kinks, e.g. the PolyPlace kink +-s/alpha).  All evaluation happens inside
``mpmath.workdps(DPS)`` (never a global mp.dps).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import mpmath

from smoothsens_core import distributions
from verify.reference.distributions import (  # noqa: F401  (re-exported for the test modules)
    ReferenceDistribution,
    gencauchy4_cdf_printed,
    gencauchy_normaliser,
    gencauchy_pdf,
    laplace_pdf,
    polyplace_normaliser,
    polyplace_pdf,
    polyplace_variance_printed,
    reference_for,
    student_t_pdf,
)

DPS = 40


@dataclass(frozen=True)
class Case:
    """One valid parameter set: the family's class name, constructor kwargs and grid cap."""

    family: str
    kwargs: dict[str, float]
    # largest |z| = |x - loc|/scale used in grid tests (Laplace: exp(-z) must not underflow)
    z_max: float = 1e6

    @property
    def id(self) -> str:
        return self.family + "(" + ",".join(f"{k}={v:g}" for k, v in self.kwargs.items()) + ")"

    @property
    def reference(self) -> ReferenceDistribution:
        return reference_for(make(self))

    @property
    def density(self) -> Callable[[Any], mpmath.mpf]:
        return self.reference.pdf

    @property
    def loc(self) -> float:
        return float(self.kwargs.get("loc", 0.0))

    @property
    def scale(self) -> float:
        return float(self.kwargs.get("scale", self.kwargs.get("s", 1.0)))

    @property
    def breaks(self) -> tuple[float, ...]:
        return self.reference.breaks()


CASES: tuple[Case, ...] = (
    Case("Laplace", {"loc": 0.0, "scale": 1.0}, z_max=700.0),
    Case("Laplace", {"loc": 1.5, "scale": 0.3}, z_max=700.0),
    Case("GenCauchy", {"p": 1.5, "theta": 1.0, "loc": 0.0, "scale": 1.0}),  # p*theta = 1.5: no mean, no variance
    Case("GenCauchy", {"p": 4.0, "theta": 1.0, "loc": 0.0, "scale": 1.0}),  # the App. C.1 case, variance 1
    Case("GenCauchy", {"p": 2.0, "theta": 2.0, "loc": 0.0, "scale": 1.0}),
    Case("GenCauchy", {"p": 6.0, "theta": 0.5, "loc": 0.0, "scale": 1.0}),  # p*theta = 3: mean, variance diverges
    Case("GenCauchy", {"p": 4.0, "theta": 1.0, "loc": -2.0, "scale": 3.0}),
    Case("StudentT", {"nu": 1.0, "loc": 0.0, "scale": 1.0}),  # Cauchy
    Case("StudentT", {"nu": 3.0, "loc": 0.0, "scale": 1.0}),
    Case("StudentT", {"nu": 30.0, "loc": 0.0, "scale": 1.0}),
    Case("StudentT", {"nu": 3.0, "loc": 1.0, "scale": 2.0}),
    Case("PolyPlace", {"s": 1.0, "alpha": 1.2, "loc": 0.0}),  # infinite variance
    Case("PolyPlace", {"s": 1.0, "alpha": 2.5, "loc": 0.0}),
    Case("PolyPlace", {"s": 1.0, "alpha": 10.0, "loc": 0.0}),
    Case("PolyPlace", {"s": 1.0, "alpha": 100.0, "loc": 0.0}),
    Case("PolyPlace", {"s": 0.5, "alpha": 2.5, "loc": 1.0}),
)


def make(case: Case) -> Any:
    """Instantiate the smoothsens distribution of ``case``."""
    return getattr(distributions, case.family)(**case.kwargs)


def integrate(case: Case, a: Any, b: Any, weight: Callable[[Any], Any] | None = None) -> mpmath.mpf:
    """int_a^b density(y) [* weight(y)] dy (:meth:`ReferenceDistribution.integrate`)."""
    return case.reference.integrate(a, b, weight)


def ref_cdf(case: Case, x: float) -> mpmath.mpf:
    """P(X <= x) by quadrature of the printed density."""
    return integrate(case, -mpmath.inf, x)


def ref_sf(case: Case, x: float) -> mpmath.mpf:
    """P(X > x) by quadrature of the printed density (directly, no 1 - cdf)."""
    return integrate(case, x, mpmath.inf)


def ref_second_central_moment(case: Case, lo: Any = None, hi: Any = None) -> mpmath.mpf:
    """int (y - loc)^2 density(y) dy over (lo, hi) (default the whole line)."""
    lo = -mpmath.inf if lo is None else lo
    hi = mpmath.inf if hi is None else hi
    loc = mpmath.mpf(case.loc)
    return integrate(case, lo, hi, weight=lambda y: (y - loc) ** 2)


def polyplace_case(s: float, alpha: float, loc: float = 0.0) -> Case:
    """A :class:`Case` for PolyPlace(s, alpha) outside the CASES table (e.g. for variance checks)."""
    return Case("PolyPlace", {"s": s, "alpha": alpha, "loc": loc})
