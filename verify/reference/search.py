"""The mpmath searches of the claims: golden section on a bracket, a grid scan followed by golden
section around the best grid point, and bisection of a sign change (a root on a bracket).

Both work at the caller's precision (wrap calls in ``mpmath.workdps(...)``) and make no assumption
beyond unimodality of the objective on the final bracket; the grid scan is what finds the bracket.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import mpmath

__all__ = ["bisect_sign_change", "golden_section_max", "grid_golden_max"]


def golden_section_max(f: Callable[[Any], Any], a: Any, b: Any, iterations: int = 120) -> tuple[Any, Any]:
    """Golden-section search for the maximum of ``f`` on the bracket [a, b] (f unimodal there).

    Each step evaluates f at c = b - phi (b - a) and d = a + phi (b - a), phi = (sqrt5 - 1)/2, and keeps
    [a, d] if f(c) > f(d), else [c, b]; the bracket shrinks by phi per step (120 steps: 1e-25 of its
    width).  Returns (x, f(x)) at the midpoint of the final bracket."""
    phi = (mpmath.sqrt(5) - 1) / 2
    for _ in range(iterations):
        c, d = b - phi * (b - a), a + phi * (b - a)
        if f(c) > f(d):
            b = d
        else:
            a = c
    x = (a + b) / 2
    return x, f(x)


def grid_golden_max(f: Callable[[Any], Any], grid: Sequence[Any], iterations: int = 120) -> Any:
    """sup of ``f`` by a scan of ``grid`` (increasing points) and a golden-section refinement on the
    bracket between the neighbours of the best grid point; returns the larger of the grid maximum and
    the refined value (so the refinement can only raise the estimate)."""
    vals = [f(x) for x in grid]
    i = max(range(len(grid)), key=lambda k: vals[k])
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    _, refined = golden_section_max(f, lo, hi, iterations)
    return max(refined, vals[i])


def bisect_sign_change(f: Callable[[Any], Any], lo: Any, hi: Any, flo: Any, halvings: int | None = None) -> Any:
    """A root of ``f`` in [lo, hi], where f(lo) = ``flo`` and f(hi) have opposite signs: bisection
    (keep the half whose ends differ in sign), ``halvings`` times (default: mpmath's working precision
    in bits + 10, so the bracket ends below the last digit); returns the midpoint of the last bracket."""
    for _ in range(mpmath.mp.prec + 10 if halvings is None else halvings):
        mid = (lo + hi) / 2
        if (f(mid) < 0) == (flo < 0):
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
