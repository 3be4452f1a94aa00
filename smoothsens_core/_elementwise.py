"""The calling convention of the generated evaluators (``smoothsens_core._generated``).

Every function written by ``derivations.codegen`` is decorated with :func:`elementwise`; the
generator prints only the formula (after SymPy's rewriting and common-subexpression elimination),
and this one hand-written function does what each evaluator would otherwise repeat: convert the
arguments, silence NumPy's floating-point warnings and broadcast the result.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy

__all__ = ["elementwise"]


def elementwise(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with its arguments broadcast as float64 NumPy arrays, NumPy's floating-point warnings
    off while it runs (every branch of a numpy.where is evaluated; the unused ones may overflow),
    and its result broadcast to the common shape of the arguments and returned as float64 (a NumPy
    scalar for scalar input)."""

    @functools.wraps(fn)
    def evaluate(*args: Any, **kwargs: Any) -> Any:
        arrays = [numpy.asarray(a, dtype=numpy.float64) for a in args]
        named = {k: numpy.asarray(v, dtype=numpy.float64) for k, v in kwargs.items()}
        with numpy.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            result = fn(*arrays, **named)
        shape = numpy.broadcast_shapes(*(numpy.shape(a) for a in [*arrays, *named.values()]))
        out = numpy.array(numpy.broadcast_to(numpy.asarray(result, dtype=numpy.float64), shape))
        return out[()]

    return evaluate
