"""Parameter checkers shared by the public entry points of the core.

Tiny functions, one error class per failure kind: ``ValueError`` for a bad value, ``TypeError``
for a bad type.  Messages name the parameter and its allowed range, e.g.
``"gamma must be in (0, eps); got gamma=1.5, eps=1.0"``.  Nothing here returns NaN.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "check_real",
    "check_positive",
    "check_nonnegative",
    "check_in_interval",
    "check_greater",
    "check_less",
    "check_probability",
    "check_integer",
    "check_finite_array",
    "check_positive_array",
    "check_points",
    "check_rng",
    "METRICS",
    "PAPER_METRIC_WORDS",
    "check_metric",
    "metric_from_paper",
]


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return repr(x)
    return str(x)


def check_real(name: str, value: Any) -> float:
    """Return ``value`` as a finite Python float; reject bools, non-numbers, NaN and infinities."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        if isinstance(value, np.ndarray) and value.shape == ():
            return check_real(name, value.item())
        raise TypeError(f"{name} must be a real number; got {type(value).__name__} {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite real number; got {name}={_fmt(v)}")
    return v


def check_positive(name: str, value: Any, *, allow_inf: bool = False) -> float:
    """A real number in (0, inf) (or (0, inf] with ``allow_inf``)."""
    if allow_inf and isinstance(value, (float, np.floating)) and value == math.inf:
        return math.inf
    v = check_real(name, value)
    if not v > 0:
        rng = "(0, inf]" if allow_inf else "(0, inf)"
        raise ValueError(f"{name} must be in {rng}; got {name}={_fmt(v)}")
    return v


def check_nonnegative(name: str, value: Any) -> float:
    """A real number in [0, inf)."""
    v = check_real(name, value)
    if not v >= 0:
        raise ValueError(f"{name} must be in [0, inf); got {name}={_fmt(v)}")
    return v


def check_in_interval(
    name: str,
    value: Any,
    low: float,
    high: float,
    *,
    closed_low: bool = False,
    closed_high: bool = False,
    context: str = "",
) -> float:
    """A real number in the interval from ``low`` to ``high`` (open ends unless closed_*).

    ``context`` is appended to the message, e.g. ``"eps=1.0"`` when the bound is another parameter.
    """
    v = check_real(name, value)
    ok_low = v >= low if closed_low else v > low
    ok_high = v <= high if closed_high else v < high
    if not (ok_low and ok_high):
        lb = "[" if closed_low else "("
        rb = "]" if closed_high else ")"
        extra = f", {context}" if context else ""
        raise ValueError(
            f"{name} must be in {lb}{_fmt(low)}, {_fmt(high)}{rb}; got {name}={_fmt(v)}{extra}"
        )
    return v


def check_greater(name: str, value: Any, bound: float, *, bound_desc: str | None = None, strict: bool = True) -> float:
    """A real number > bound (or >= with ``strict=False``)."""
    v = check_real(name, value)
    ok = v > bound if strict else v >= bound
    if not ok:
        op = ">" if strict else ">="
        desc = bound_desc if bound_desc is not None else _fmt(bound)
        raise ValueError(f"{name} must be {op} {desc}; got {name}={_fmt(v)}")
    return v


def check_less(name: str, value: Any, bound: float, *, bound_desc: str | None = None, strict: bool = True) -> float:
    """A real number < bound (or <= with ``strict=False``)."""
    v = check_real(name, value)
    ok = v < bound if strict else v <= bound
    if not ok:
        op = "<" if strict else "<="
        desc = bound_desc if bound_desc is not None else _fmt(bound)
        raise ValueError(f"{name} must be {op} {desc}; got {name}={_fmt(v)}")
    return v


def check_probability(name: str, value: Any, *, closed: bool = False) -> float:
    """A probability in (0, 1) (or [0, 1] with ``closed``)."""
    return check_in_interval(name, value, 0.0, 1.0, closed_low=closed, closed_high=closed)


def check_integer(name: str, value: Any, *, minimum: int | None = None) -> int:
    """An integer (Python or NumPy), optionally >= ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise TypeError(f"{name} must be an integer; got {type(value).__name__} {value!r}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {name}={v}")
    return v


def check_finite_array(name: str, value: ArrayLike, *, dtype: Any = float) -> NDArray[np.float64]:
    """Convert to a float array and reject NaN or infinite entries (naming the first bad index)."""
    try:
        arr = np.asarray(value, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of real numbers; got {type(value).__name__}") from exc
    if arr.size and not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        idx = tuple(int(i) for i in bad)
        raise ValueError(
            f"{name} must contain only finite numbers; got {name}[{', '.join(map(str, idx))}]={arr[idx]!r}"
        )
    return arr


def check_positive_array(name: str, value: ArrayLike) -> NDArray[np.float64]:
    """A finite array with every entry > 0."""
    arr = check_finite_array(name, value)
    if arr.size and not np.all(arr > 0):
        bad = tuple(int(i) for i in np.argwhere(~(arr > 0))[0])
        raise ValueError(f"{name} must be > 0 everywhere; got {name}[{', '.join(map(str, bad))}]={arr[bad]!r}")
    return arr


def check_points(name: str, value: ArrayLike, d: int | None = None) -> NDArray[np.float64]:
    """An array of n points in R^d, returned with shape (n, d).

    A 1-D array is read as n points in R^1 when ``d`` is 1 or None, and as a single point when
    ``d`` equals its length (d > 1).  Rejects NaN/inf and a wrong number of coordinates.
    """
    return shape_points(name, check_finite_array(name, value), d)


def shape_points(name: str, arr: NDArray[np.float64], d: int | None = None) -> NDArray[np.float64]:
    """The (n, d) view of an already checked float array, by the rules of :func:`check_points`."""
    if arr.ndim == 0:
        arr = arr.reshape(1, 1)
    elif arr.ndim == 1:
        if d is None or d == 1:
            arr = arr.reshape(-1, 1)
        elif arr.shape[0] == d:
            arr = arr.reshape(1, d)
        else:
            raise ValueError(f"{name} must have shape (n, {d}); got shape {arr.shape}")
    elif arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array of points, shape (n, d); got shape {arr.shape}")
    if d is not None and arr.shape[1] != d:
        raise ValueError(f"{name} must have shape (n, {d}); got shape {arr.shape}")
    return arr


def check_rng(rng: Any) -> np.random.Generator:
    """Accept a ``numpy.random.Generator`` or an integer seed; nothing else (no global state)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (numbers.Integral, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"rng must be a numpy.random.Generator or an integer seed; got {type(rng).__name__}"
    )


#: The one vocabulary for input metrics, used everywhere in the package:
#: "euclidean" (Geo-Privacy, 004 Def. 5: eps per unit of ||x - x'||_2), "hamming" (DP: neighbours
#: differ in one record, distance 1) and "p-neighbouring" (asymmetric DP, 003 Defs. IV.1, IV.2).
METRICS: tuple[str, ...] = ("euclidean", "hamming", "p-neighbouring")

#: The papers' words for the two symmetric notions (004 writes "GP" and "DP"); accepted only where
#: a user types the paper's wording (the CLI's ``--metric``), mapped by :func:`metric_from_paper`.
PAPER_METRIC_WORDS: dict[str, str] = {"gp": "euclidean", "dp": "hamming"}


def check_metric(metric: Any, allowed: tuple[str, ...] = METRICS) -> str:
    """``metric`` if it is one of ``allowed`` (a subset of :data:`METRICS`), else ValueError.

    The papers' words "gp"/"dp" are not metric names; the message says which name they stand for."""
    if isinstance(metric, str) and metric in allowed:
        return metric
    hint = ""
    if isinstance(metric, str) and metric.lower() in PAPER_METRIC_WORDS:
        hint = f" (the papers' {metric.upper()} is metric={PAPER_METRIC_WORDS[metric.lower()]!r})"
    opts = ", ".join(repr(a) for a in allowed)
    raise ValueError(f"metric must be one of {opts}; got metric={metric!r}{hint}")


def metric_from_paper(word: Any, allowed: tuple[str, ...] = METRICS) -> str:
    """A metric name from either vocabulary: "gp" -> "euclidean", "dp" -> "hamming" (the papers'
    wording, 004 Sec. 2.3), a metric name unchanged; ValueError otherwise."""
    if isinstance(word, str) and word.lower() in PAPER_METRIC_WORDS:
        word = PAPER_METRIC_WORDS[word.lower()]
    return check_metric(word, allowed)
