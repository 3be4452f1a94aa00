"""Pointwise Lipschitz constants and smooth sensitivities of 004 (Defs. 7-9), vectorised.

Closed forms of 004 Sec. 4 (one-way threshold, bounded range, two-way threshold, Gaussian KDE,
linear forms) computed for whole arrays of points at once; the generic engine of 004 Sec. 3.3
(:mod:`.generic`; :mod:`.generic_piecewise` for a piecewise f on R^2) and the brute-force
reference of the definitions (:mod:`.brute`).
"""

from . import bounded_range, brute, generic, generic_piecewise, kde, linear_form, threshold, two_way
from ._common import SensitivityValues
from .bounded_range import *  # noqa: F403 - the public names of each module, listed once in its __all__
from .brute import *  # noqa: F403
from .generic import *  # noqa: F403
from .generic_piecewise import *  # noqa: F403
from .kde import *  # noqa: F403
from .linear_form import *  # noqa: F403
from .threshold import *  # noqa: F403
from .two_way import *  # noqa: F403

__all__ = [
    "SensitivityValues",
    *threshold.__all__,
    *bounded_range.__all__,
    *two_way.__all__,
    *kde.__all__,
    *linear_form.__all__,
    *brute.__all__,
    *generic.__all__,
    *generic_piecewise.__all__,
]
