"""JSON-ready values for the reports: NumPy scalars and arrays to Python, non-finite floats to strings."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["jsonable"]


def jsonable(v: Any) -> Any:
    """``v`` with dicts/lists/tuples/arrays converted recursively; inf and nan become "inf"/"nan"."""
    if isinstance(v, dict):
        return {str(k): jsonable(t) for k, t in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(t) for t in v]
    if isinstance(v, np.ndarray):
        return jsonable(v.tolist())
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (np.floating, float)):
        f = float(v)
        return f if math.isfinite(f) else str(f)
    if isinstance(v, np.integer):
        return int(v)
    return v
