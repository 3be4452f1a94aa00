"""Shared input handling for the closed-form smooth sensitivities (004 Sec. 4)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._validation import check_points

__all__ = ["SensitivityValues", "points_1d", "points_nd"]


class SensitivityValues(NamedTuple):
    """Per-point query value f(x), pointwise Lipschitz constant L_{f,Lambda}(x) (004 Def. 7) and
    g-smooth sensitivity B*(x) (004 Def. 9), each an array of shape (n,)."""

    f: NDArray[np.float64]
    L: NDArray[np.float64]
    B: NDArray[np.float64]


def points_1d(name: str, x: ArrayLike) -> NDArray[np.float64]:
    """Points of R^1 given as shape (n,) or (n, 1) (or a scalar); returned as a flat (n,) array."""
    arr = np.asarray(x, dtype=float) if not isinstance(x, np.ndarray) else x
    if arr.ndim == 2 and arr.shape[1] != 1:
        raise ValueError(f"{name} must have shape (n,) or (n, 1) for a query on R^1; got shape {arr.shape}")
    return check_points(name, arr, d=1).reshape(-1)


def points_nd(name: str, x: ArrayLike, d: int | None = None) -> NDArray[np.float64]:
    """Points of R^d as an (n, d) array ((n,) is read as n points of R^1 when d is 1 or None)."""
    return check_points(name, x, d=d)
