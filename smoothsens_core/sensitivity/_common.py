"""Shared input handling for the closed-form smooth sensitivities (004 Sec. 4).

The point arrays are validated without temporaries of their size: the type is checked before any
conversion (so that a string names the parameter instead of failing inside NumPy), and the
finiteness check runs over slices of ``DEFAULT_CHUNK`` rows, so validating 10^8 points costs
O(chunk) scratch memory like the chunked evaluation itself (:mod:`._chunking`).
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Callable, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._chunking import DEFAULT_CHUNK
from ..validation import shape_points

__all__ = ["SensitivityValues", "points_1d", "points_nd", "as_float_array", "scalar_real", "fast_pair"]


class SensitivityValues(NamedTuple):
    """Per-point query value f(x), pointwise Lipschitz constant L_{f,Lambda}(x) (004 Def. 7) and
    g-smooth sensitivity B*(x) (004 Def. 9), each an array of shape (n,)."""

    f: NDArray[np.float64]
    L: NDArray[np.float64]
    B: NDArray[np.float64]

    @classmethod
    def of_query(
        cls, value: Callable[..., NDArray[np.float64]], lipschitz: Callable[..., NDArray[np.float64]],
        smooth: Callable[..., NDArray[np.float64]], args: tuple, growth: Any, Lambda: float, **options: Any,
    ) -> SensitivityValues:
        """The triple of one query family, evaluated in this order: value(*args, **options),
        lipschitz(*args, Lambda, **options) and smooth(*args, growth, Lambda, **options)."""
        return cls(value(*args, **options), lipschitz(*args, Lambda, **options), smooth(*args, growth, Lambda, **options))


def as_float_array(name: str, value: ArrayLike) -> NDArray[np.float64]:
    """``value`` as a float64 array (no copy if it is one), TypeError naming ``name`` for anything
    that is not an array of real numbers (strings, bytes, objects that are not numbers)."""
    if isinstance(value, np.ndarray) and value.dtype == np.float64:
        return value
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged nested sequences
        raise TypeError(f"{name} must be an array of real numbers; got {type(value).__name__}") from exc
    if arr.dtype.kind == "O":  # e.g. a list mixing numbers and None/str (rare: checked entry by entry)
        ok = [not isinstance(e, bool) and isinstance(e, (numbers.Real, np.number)) for e in arr.flat]
        if not all(ok):
            bad = arr.flat[ok.index(False)]
            raise TypeError(f"{name} must be an array of real numbers; got an entry {bad!r} of type {type(bad).__name__}")
        return arr.astype(float)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be an array of real numbers; got an array of dtype {arr.dtype} ({type(value).__name__})")
    return np.asarray(arr, dtype=float)


def scalar_real(value: object) -> float | None:
    """``value`` as a Python float if it is one finite real scalar (a float, NumPy float64 or int
    that is not a bool), else None: the cheap test of the one-point fast paths, which then skip
    the array machinery.  Anything else (arrays, sequences, NaN, bools, strings) returns None and
    goes through the full validation of :func:`points_1d` / :func:`points_nd`, which raises the
    documented errors."""
    tv = type(value)
    if tv is float or tv is np.float64:
        v = float(value)  # type: ignore[arg-type]
    elif tv is int and -(2**53) <= value <= 2**53:  # type: ignore[operator]
        v = float(value)  # type: ignore[arg-type]
    else:
        return None
    return v if math.isfinite(v) else None


def fast_pair(value: object) -> tuple[float, float] | None:
    """One point of R^2 given as a tuple/list of two finite real scalars or a float64 array of
    shape (2,) or (1, 2), as two Python floats; else None (the caller then validates in full)."""
    tv = type(value)
    if tv is tuple or tv is list:
        if len(value) != 2:  # type: ignore[arg-type]
            return None
        a, b = scalar_real(value[0]), scalar_real(value[1])  # type: ignore[index]
    elif tv is np.ndarray and value.dtype == np.float64 and value.size == 2 and value.shape in ((2,), (1, 2)):  # type: ignore[attr-defined]
        a, b = value.flat  # type: ignore[attr-defined]
        a, b = float(a), float(b)
        if not (math.isfinite(a) and math.isfinite(b)):
            return None
    else:
        return None
    if a is None or b is None:
        return None
    return a, b


def _check_finite(name: str, arr: NDArray[np.float64]) -> None:
    """ValueError naming the first non-finite entry, checked slice by slice (bounded scratch)."""
    if arr.size == 0:
        return
    rows = arr.reshape(arr.shape[0], -1) if arr.ndim >= 1 else arr.reshape(1, 1)
    for start in range(0, rows.shape[0], DEFAULT_CHUNK):
        blk = rows[start : start + DEFAULT_CHUNK]
        if not np.isfinite(blk).all():
            i, j = (int(v) for v in np.argwhere(~np.isfinite(blk))[0])
            where = np.unravel_index((start + i) * rows.shape[1] + j, arr.shape) if arr.ndim >= 1 else ()
            idx = tuple(int(k) for k in where)
            raise ValueError(
                f"{name} must contain only finite numbers; got {name}[{', '.join(map(str, idx))}]={arr[idx]!r}"
            )


def points_nd(name: str, x: ArrayLike, d: int | None = None) -> NDArray[np.float64]:
    """Points of R^d as an (n, d) array ((n,) is read as n points of R^1 when d is 1 or None; a
    length-d vector as one point when d > 1).  Same rules and messages as
    ``smoothsens_core.validation.check_points``, with bounded scratch memory."""
    arr = as_float_array(name, x)
    _check_finite(name, arr)
    return shape_points(name, arr, d)


def points_1d(name: str, x: ArrayLike) -> NDArray[np.float64]:
    """Points of R^1 given as shape (n,) or (n, 1) (or a scalar); returned as a flat (n,) array."""
    arr = as_float_array(name, x)
    if arr.ndim == 2 and arr.shape[1] != 1:
        raise ValueError(f"{name} must have shape (n,) or (n, 1) for a query on R^1; got shape {arr.shape}")
    return points_nd(name, arr, 1).reshape(-1)
