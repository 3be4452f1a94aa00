"""A plot of the estimated privacy curve delta(eps) against the claimed point (eps, delta).

Three layers, on log-scaled delta:

* the black-box lower confidence bounds: for every event S audited by
  :func:`verify.audit.blackbox.audit_blackbox_mechanism` (fixed by the selection draws) the bounds
  p_lo(S) on P[M(x) in S] and p_hi(S) on P[M(x') in S] give delta(eps) >= p_lo - e^(eps d) p_hi at every eps
  at once (004 Def. 5); the curve is the largest over the events (points where it is <= 0 are not drawn);
  the joint-test bound at the claimed eps is drawn as a marker.  Only that joint test (and the eps
  bound) carry the report's stated confidence; the curve combines two Clopper-Pearson bounds per event
  outside that error budget and is drawn as a guide (its legend says so);
* the exact curve :func:`verify.audit.exact.privacy_curve` when the mechanism's law is known (a
  :class:`~verify.audit.exact.PrivacyCurve`, or computed from ``mechanism`` and ``pairs``);
* the claimed (eps, delta) as a marked point: a claim below the lower-bound curve is refuted.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..exact import PrivacyCurve, privacy_curve
from .mechanism import MechanismAuditReport

__all__ = ["plot_privacy_curve", "lower_bound_curve"]


def lower_bound_curve(report: MechanismAuditReport, eps_grid: Sequence[float] | np.ndarray) -> np.ndarray:
    """max over the report's events of p_x_lower - e^(eps d) p_x'_upper at each eps of ``eps_grid``
    (per unit distance for the Euclidean metric; -inf where no event gives a bound)."""
    out = np.full(len(eps_grid), -math.inf)
    for k, e in enumerate(eps_grid):
        vals = [p.delta_lower_at(float(e)) for p in report.pairs]
        out[k] = max(vals) if vals else -math.inf
    return out


def plot_privacy_curve(report_or_curve: MechanismAuditReport | PrivacyCurve, path: str | Path, *,
                       eps_grid: Sequence[float] | None = None, exact: PrivacyCurve | None = None,
                       mechanism: Any = None, pairs: Sequence[tuple[Any, Any]] | None = None,
                       title: str | None = None) -> Path:
    """Draw the privacy curve (module docstring) to ``path`` (PNG/PDF/SVG by suffix) and return it.

    ``report_or_curve``: a black-box report (lower bounds, claimed point from the report) or an exact
    :class:`PrivacyCurve` (its curve and claimed point).  ``exact``: an exact curve to overlay; or give
    ``mechanism`` (with f and noise) and ``pairs`` to compute it on ``eps_grid``."""
    import matplotlib  # noqa: PLC0415 - optional dependency (notebooks extra)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - after the backend is chosen

    curve: PrivacyCurve | None
    report: MechanismAuditReport | None
    if isinstance(report_or_curve, PrivacyCurve):
        curve, report = report_or_curve, None
        claimed_eps, claimed_delta = curve.claimed_eps, curve.claimed_delta
    elif isinstance(report_or_curve, MechanismAuditReport):
        curve, report = exact, report_or_curve
        claimed_eps, claimed_delta = report.claimed_eps, report.claimed_delta
    else:
        raise TypeError(f"report_or_curve must be a MechanismAuditReport or a PrivacyCurve; got "
                        f"{type(report_or_curve).__name__}")
    grid_in = eps_grid if eps_grid is not None else (
        curve.eps if curve is not None else np.linspace(0.05 * claimed_eps, 2.0 * claimed_eps, 60))
    grid = np.asarray(sorted(float(e) for e in grid_in))
    if curve is None and mechanism is not None and pairs:
        curve = privacy_curve(mechanism, pairs, [float(e) for e in grid])
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    floor = []
    if curve is not None:
        d = np.asarray(curve.delta, dtype=float)
        ok = d > 0
        ax.plot(np.asarray(curve.eps)[ok], d[ok], "-", color="black", lw=1.6, label="exact delta(eps) (hockey stick)")
        floor += list(d[ok])
    if report is not None:
        lb = lower_bound_curve(report, grid)
        ok = lb > 0
        if np.any(ok):
            ax.plot(grid[ok], lb[ok], "-", color="tab:blue", lw=1.4,
                    label=f"black-box lower bound (Clopper-Pearson {1 - report.false_alarm:g} per bound; a display: "
                          "the verdict uses the joint test)")
            floor += list(lb[ok])
        if report.delta_lower > 0:
            ax.plot([claimed_eps], [report.delta_lower], "v", color="tab:blue", ms=8,
                    label=f"joint-test lower bound at eps = {claimed_eps:g}")
            floor.append(report.delta_lower)
        if report.eps_lower > 0 and math.isfinite(report.eps_lower) and claimed_delta > 0:
            ax.plot([report.eps_lower], [claimed_delta], ">", color="tab:green", ms=8,
                    label=f"eps lower bound at delta = {claimed_delta:g}")
    if claimed_delta > 0:
        ax.plot([claimed_eps], [claimed_delta], "o", color="tab:red", ms=9, label="claimed (eps, delta)")
        floor.append(claimed_delta)
    else:
        ax.axvline(claimed_eps, color="tab:red", ls="--", lw=1.2, label=f"claimed eps = {claimed_eps:g} (delta = 0)")
    ax.set_yscale("log")
    if floor:
        lo = max(min(floor) / 10.0, 1e-300)
        ax.set_ylim(lo, min(1.0, max(floor) * 3.0))
    ax.set_xlabel("eps" + (" (per unit distance)" if report is not None and report.metric == "euclidean" else ""))
    ax.set_ylabel("delta")
    ax.set_title(title or "privacy curve: lower bounds and the claimed point")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, bbox_inches="tight", dpi=120)
    plt.close(fig)
    return out
