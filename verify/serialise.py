"""JSON-ready values for the reports: the one sanitiser of :mod:`verify` (claims, auditors, CLI).

Mappings become dicts with string keys; lists, tuples, sets and NumPy arrays become lists; NumPy
scalars become Python scalars; enums their value; non-finite floats the strings "inf"/"-inf"/"nan";
anything else that JSON cannot hold (mpmath numbers, SymPy expressions, ...) its ``str``.
"""

from __future__ import annotations

import enum
import math
from typing import Any, Mapping

import numpy as np

__all__ = ["jsonable"]


def jsonable(v: Any) -> Any:
    """``v`` converted recursively to values :func:`json.dumps` accepts (see the module docstring)."""
    if isinstance(v, Mapping):
        return {str(k): jsonable(t) for k, t in v.items()}
    if isinstance(v, (list, tuple, set)):
        return [jsonable(t) for t in v]
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, np.ndarray):
        return [jsonable(t) for t in v.tolist()]
    if isinstance(v, np.generic):
        return jsonable(v.item())
    if isinstance(v, float):
        return v if math.isfinite(v) else str(v)
    if isinstance(v, (int, str, bool)) or v is None:
        return v
    return str(v)
