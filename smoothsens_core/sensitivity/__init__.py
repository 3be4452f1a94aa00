"""Pointwise Lipschitz constants and smooth sensitivities of 004 (Defs. 7-9), vectorised.

Closed forms of 004 Sec. 4 (one-way threshold, bounded range, two-way threshold, Gaussian KDE,
linear forms) computed for whole arrays of points at once; the generic engine of 004 Sec. 3.3
(:mod:`.generic`; :mod:`.generic_piecewise` for a piecewise f on R^2) and the brute-force
reference of the definitions (:mod:`.brute`).
"""

from ._common import SensitivityValues
from .brute import BruteResult, brute_lipschitz, brute_smooth_sensitivity, search_window
from .bounded_range import (
    lipschitz_bounded_range,
    sensitivity_bounded_range,
    smooth_sensitivity_bounded_range,
    soft_bounded_range,
)
from .generic import (
    CandidateSystem,
    GenericResult,
    GenericSpec,
    RootCertificationError,
    generic_lipschitz,
    generic_smooth_sensitivity,
)
from .generic_piecewise import KinkCurve, PiecewiseSpec, piecewise_lipschitz, piecewise_smooth_sensitivity
from .kde import (
    KDE_A_W,
    RootFindingError,
    gaussian_kernel,
    kde_chord_partner,
    kde_chord_slope,
    lipschitz_kde,
    sensitivity_kde,
    smooth_sensitivity_kde,
)
from .linear_form import (
    linear_score,
    lipschitz_linear_form,
    reduce_growth,
    sensitivity_linear_threshold,
    smooth_sensitivity_linear_form,
    smooth_sensitivity_linear_threshold,
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
    "gaussian_kernel",
    "lipschitz_kde",
    "smooth_sensitivity_kde",
    "sensitivity_kde",
    "kde_chord_partner",
    "kde_chord_slope",
    "KDE_A_W",
    "RootFindingError",
    "linear_score",
    "reduce_growth",
    "lipschitz_linear_form",
    "smooth_sensitivity_linear_form",
    "smooth_sensitivity_linear_threshold",
    "sensitivity_linear_threshold",
    "BruteResult",
    "brute_lipschitz",
    "brute_smooth_sensitivity",
    "search_window",
    "CandidateSystem",
    "GenericResult",
    "GenericSpec",
    "RootCertificationError",
    "generic_lipschitz",
    "generic_smooth_sensitivity",
    "KinkCurve",
    "PiecewiseSpec",
    "piecewise_lipschitz",
    "piecewise_smooth_sensitivity",
]

