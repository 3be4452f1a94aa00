"""Piecewise-cubic tables on uniform nodes: the interpolant behind the GenCauchy(4, 1) quantile
(:mod:`smoothsens_core.distributions.gencauchy`) and the KDE chord partner alpha(b)
(:mod:`smoothsens_core.sensitivity.kde`).

On the cell [i, i + 1] of nodes f_0, f_1, ... (unit spacing in the position coordinate) the table
holds the Lagrange cubic through f_{i-1}, f_i, f_{i+1}, f_{i+2} in the local coordinate t = pos - i:

  c0 = f_i,  c1 = -f_{i-1}/3 - f_i/2 + f_{i+1} - f_{i+2}/6,  c2 = f_{i-1}/2 - f_i + f_{i+1}/2,
  c3 = -f_{i-1}/6 + f_i/2 - f_{i+1}/2 + f_{i+2}/6,

with f_{-1} = 4 f_0 - 6 f_1 + 4 f_2 - f_3 (cubic extrapolation) at the first cell.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["cubic_coefficients", "cubic_eval"]


def cubic_coefficients(f: NDArray[np.float64]) -> NDArray[np.float64]:
    """The rows (c0, c1, c2, c3) of the cells [i, i + 1], i = 0 .. len(f) - 3, of the nodes ``f``
    (at least 4), C-contiguous so that one gather fetches a row."""
    fm1 = np.concatenate(([4 * f[0] - 6 * f[1] + 4 * f[2] - f[3]], f[:-3]))  # f_{-1} per cell
    f0, f1, f2 = f[:-2], f[1:-1], f[2:]
    return np.ascontiguousarray(np.stack([f0, -fm1 / 3 - f0 / 2 + f1 - f2 / 6, fm1 / 2 - f0 + f1 / 2,
                                          -fm1 / 6 + f0 / 2 - f1 / 2 + f2 / 6], axis=1))


def cubic_eval(coef: NDArray[np.float64], pos: NDArray[np.float64], last: int) -> NDArray[np.float64]:
    """The table at the positions ``pos`` >= 0 (in node spacings): cell i = min(floor(pos), last),
    t = pos - i, and c0 + t (c1 + t (c2 + t c3)) by Horner's rule (one gather of the 4 coefficients,
    in place)."""
    idx = np.minimum(pos.astype(np.intp), last)
    t = pos - idx
    cf = coef[idx]
    out = cf[:, 3] * t
    out += cf[:, 2]
    out *= t
    out += cf[:, 1]
    out *= t
    out += cf[:, 0]
    return out
