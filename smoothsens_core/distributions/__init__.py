"""Noise families of smoothsens (see the individual modules for sources and formulas).

Continuous symmetric families: :class:`Laplace` and :class:`GenCauchy` and :class:`StudentT`
(004 Sec. 2.1), :class:`PolyPlace` (002 Def. 6).
"""

from ._base import ContinuousDistribution, DiscreteDistribution
from .gencauchy import GenCauchy
from .laplace import Laplace
from .polyplace import PolyPlace
from .student_t import StudentT

__all__ = [
    "ContinuousDistribution",
    "DiscreteDistribution",
    "GenCauchy",
    "Laplace",
    "PolyPlace",
    "StudentT",
]
