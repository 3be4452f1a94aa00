"""Noise families of smoothsens (see the individual modules for sources and formulas)."""

from ._base import ContinuousDistribution, DiscreteDistribution

__all__ = ["ContinuousDistribution", "DiscreteDistribution"]
