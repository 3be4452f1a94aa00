"""A plot of a certified privacy curve delta(eps) (both ends of the enclosure) with a claimed (eps, delta) point.

The curve is drawn on a log delta axis; the upper end (certified: the mechanism is (eps, upper)-DP) as a solid
line, the lower end (certified: not (eps, d)-DP for any d below it) dashed, and the claimed point as a dot,
marked "holds" when the certified upper end at its eps is <= its delta, "fails" when the certified lower end
is above it, "undecided" otherwise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["plot_curve"]


def plot_curve(obj: Any, ax: Any = None, claim: tuple[float, float] | None = None, *,
               eps_max: float | None = None, points: int = 80, title: str = "") -> Any:
    """Draw ``obj.deltas`` (a :class:`~verify.accounting.PrivacyCurve` or a grid PLD) on ``ax`` (a matplotlib
    Axes; a new figure when None) over [0, eps_max] (default: twice the claimed eps, or 4) with the claimed point
    ``claim`` = (eps, delta); returns the Axes.  matplotlib is the optional 'notebooks' extra."""
    if ax is None:
        import matplotlib.pyplot as plt  # noqa: PLC0415 - optional dependency, only for plots

        _, ax = plt.subplots(figsize=(6, 4))
    top = eps_max if eps_max is not None else (2.0 * claim[0] if claim and claim[0] > 0 else 4.0)
    grid = np.linspace(0.0, max(float(top), 1e-9), int(points))
    lo, hi = obj.deltas(grid)
    pos = hi > 0
    ax.semilogy(grid[pos], hi[pos], label="delta upper (certified)")
    pos = lo > 0
    ax.semilogy(grid[pos], lo[pos], "--", label="delta lower (certified)")
    if claim is not None:
        e, d = float(claim[0]), float(claim[1])
        enc = obj.delta(e)
        verdict = "holds" if enc.certified and enc.upper <= d else ("fails" if enc.lower > d else "undecided")
        ax.plot([e], [d], "o", color="black", label=f"claimed ({e:.4g}, {d:.3g}): {verdict}")
    ax.set_xlabel("eps")
    ax.set_ylabel("delta(eps)")
    if title:
        ax.set_title(title if len(title) < 70 else title[:67] + "...", fontsize=9)
    ax.legend(fontsize=8)
    return ax
