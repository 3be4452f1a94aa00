"""Noise families of smoothsens (see the individual modules for sources and formulas).

Continuous symmetric families: :class:`Gaussian` (the Gaussian mechanism's noise), :class:`Laplace`, :class:`GenCauchy` and :class:`StudentT`
(004 Sec. 2.1), :class:`PolyPlace` (002 Def. 6), :class:`PowerLaw` (density proportional to
1/(|z|^k + l), 000 Thm. 1) and its half-densities :class:`HalfPowerLaw` (h+ and h-, 000 Lemma 2).
One-sided and discrete families of asymmetric DP (003): :class:`OneSidedExponential` (ALap noise,
Def. V.3), :class:`AsymmetricGeometric` (AGeo, Def. VIII.1) and :class:`TwoSidedGeometric` (App. A).
Bun & Steinke (2019)'s families for concentrated DP: :class:`LaplaceLogNormal`, :class:`UniformLogNormal`,
:class:`ArsinhNormal`.
"""

from ._base import ContinuousDistribution, DiscreteDistribution
from .bun_steinke import ArsinhNormal, LaplaceLogNormal, UniformLogNormal
from .gaussian import Gaussian
from .gencauchy import GenCauchy
from .laplace import Laplace
from .onesided import AsymmetricGeometric, OneSidedExponential, TwoSidedGeometric
from .polyplace import PolyPlace
from .powerlaw import HalfPowerLaw, PowerLaw
from .student_t import StudentT

__all__ = [
    "ContinuousDistribution",
    "DiscreteDistribution",
    "ArsinhNormal",
    "AsymmetricGeometric",
    "Gaussian",
    "GenCauchy",
    "HalfPowerLaw",
    "Laplace",
    "LaplaceLogNormal",
    "OneSidedExponential",
    "PolyPlace",
    "PowerLaw",
    "StudentT",
    "TwoSidedGeometric",
    "UniformLogNormal",
]
