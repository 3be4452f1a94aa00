"""Pointwise Lipschitz constants and smooth sensitivities of 004 (Defs. 7-9), vectorised.

Closed forms of 004 Sec. 4 (one-way threshold, bounded range, two-way threshold, Gaussian KDE,
linear forms) computed for whole arrays of points at once.
"""

from ._common import SensitivityValues
from .bounded_range import (
    lipschitz_bounded_range,
    sensitivity_bounded_range,
    smooth_sensitivity_bounded_range,
    soft_bounded_range,
)
from .threshold import (
    lipschitz_threshold,
    sensitivity_threshold,
    smooth_sensitivity_threshold,
    soft_threshold,
)
from .two_way import (
    lipschitz_two_way_threshold,
    sensitivity_two_way_threshold,
    smooth_sensitivity_two_way_threshold,
    soft_two_way_threshold,
    two_way_regions,
)

__all__ = [
    "SensitivityValues",
    "soft_threshold",
    "lipschitz_threshold",
    "smooth_sensitivity_threshold",
    "sensitivity_threshold",
    "soft_bounded_range",
    "lipschitz_bounded_range",
    "smooth_sensitivity_bounded_range",
    "sensitivity_bounded_range",
    "soft_two_way_threshold",
    "lipschitz_two_way_threshold",
    "smooth_sensitivity_two_way_threshold",
    "sensitivity_two_way_threshold",
    "two_way_regions",
]
