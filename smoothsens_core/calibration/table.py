"""The comparison table of the calibrations at a common gamma (what ``smoothsens calibrate`` prints).

One row per mechanism (the printed calibrations of 004 and 002, optimised shapes, the older [NRS07] /
[BS19] constants), with the eps the older constant certifies at the same parameters.
"""

from __future__ import annotations

import math
from typing import Any

from .._generated.calibration import eps_gencauchy_nrs07, eps_laplace_nrs07, eps_student_t_bs19
from ..validation import check_metric, check_positive, check_probability
from .families import NEEDS_DELTA, calibrate
from .optimise import optimise_calibration
from .record import CALIBRATION_METRICS, DEFAULT_GAMMA_FRACTION

__all__ = ["calibration_table", "format_calibration_table"]


def calibration_table(
    eps: float,
    delta: float | None = None,
    gamma: float | None = None,
    *,
    metric: str = "euclidean",
    optimise: bool = True,
) -> list[dict[str, Any]]:
    """One row per mechanism at a common gamma (default eps/9, 004 Sec. 5), as dicts.

    Keys: family, source, growth, gamma, eta, eps (certified), delta, noise_std (per unit B),
    shape (str), older_source, eps_older (the eps the older NRS07/BS19 constant certifies at the
    same gamma, eta, shape; None if not applicable), error (str, when gamma is infeasible for that
    mechanism; the numeric fields are then None).  Rows: GenCauchy(4,1) and Student's t(4) at the
    Remark's shapes, the same families with optimised shapes (``optimise``), PolyPlace, the Laplace
    mechanisms when ``delta`` is given, and the older NRS07/BS19 calibrations themselves.
    """
    eps = check_positive("eps", eps)
    metric = check_metric(metric, CALIBRATION_METRICS)
    if delta is not None:
        delta = check_probability("delta", delta)
    g = DEFAULT_GAMMA_FRACTION * eps if gamma is None else check_positive("gamma", gamma)

    specs: list[tuple[str, str, dict[str, Any]]] = [
        ("gencauchy", "GenCauchy(p=4, theta=1)", {"p": 4.0, "theta": 1.0}),
        ("student_t", "Student t(nu=4)", {"nu": 4.0}),
    ]
    if optimise:
        specs += [("gencauchy", "GenCauchy (optimised p, theta)", {"_opt": True}),
                  ("student_t", "Student t (optimised nu)", {"_opt": True})]
    specs += [("polyplace", "PolyPlace", {})]
    if delta is not None:
        specs += [("laplace_gl", "Laplace g_L (approx.)", {})]
    specs += [("gencauchy_nrs07", "GenCauchy(p=4) [NRS07]", {"p": 4.0}),
              ("student_t_bs19", "Student t(nu=4) [BS19]", {"nu": 4.0})]
    if optimise:
        specs += [("gencauchy_nrs07", "GenCauchy [NRS07] (optimised p)", {"_opt": True}),
                  ("student_t_bs19", "Student t [BS19] (optimised nu)", {"_opt": True})]
    if delta is not None:
        specs += [("laplace_nrs07", "Laplace g_E [NRS07, 002 Cl. 18]", {})]

    rows: list[dict[str, Any]] = []
    for fam, label, kw in specs:
        row: dict[str, Any] = {"family": label, "mechanism": fam, "gamma": g, "metric": metric}
        try:
            try:
                if kw.get("_opt"):
                    cal = optimise_calibration(fam, eps, gamma=g, delta=delta if fam in NEEDS_DELTA else None)
                else:
                    cal = calibrate(fam, eps, delta=delta if fam in NEEDS_DELTA else None, gamma=g, metric=metric,
                                    **kw)
            except ValueError:
                if gamma is not None or kw.get("_opt"):
                    raise
                # The common default gamma = eps/9 is above this mechanism's limit (the Laplace
                # mechanisms need gamma ln(1/delta) < eps): use the mechanism's own default split
                # (a third of eps on the scale term) and say so, rather than an infeasible row.
                cal = calibrate(fam, eps, delta=delta if fam in NEEDS_DELTA else None, gamma=None, metric=metric,
                                **kw)
                row["gamma"] = cal.gamma
                row["note"] = (f"gamma chosen for this mechanism (its own default split, 1/3 of eps on the "
                               f"scale term): the common gamma = eps/9 = {g:.6g} is above its limit")
        except ValueError as exc:
            row.update(source="", growth="", eta=None, eps=None, delta=delta if fam in NEEDS_DELTA else 0.0,
                       noise_std=None, shape="", older_source="", eps_older=None, error=str(exc))
            rows.append(row)
            continue
        older_src, eps_older = "", None
        if fam == "gencauchy" and cal.shape["theta"] == 1.0 and cal.shape["m"] == 1.0:
            older_src, eps_older = "NRS07", float(eps_gencauchy_nrs07(cal.gamma, cal.eta, cal.shape["p"]))
        elif fam == "student_t":
            older_src, eps_older = "BS19", float(eps_student_t_bs19(cal.gamma, cal.eta, cal.shape["nu"]))
        elif fam == "laplace_gl":
            older_src, eps_older = "NRS07 (g_E, 002 Cl. 18)", float(eps_laplace_nrs07(cal.gamma, cal.eta, cal.delta))
        row.update(
            source=cal.source, growth=cal.growth, eta=cal.eta, eps=cal.eps, delta=cal.delta,
            noise_std=cal.noise_std,
            shape=", ".join(f"{k}={v:.4g}" for k, v in cal.shape.items() if k != "m" or v != 1.0),
            older_source=older_src, eps_older=eps_older, error="",
        )
        rows.append(row)
    return rows


def format_calibration_table(rows: list[dict[str, Any]]) -> str:
    """The rows of :func:`calibration_table` as aligned text columns."""
    cols = [("family", "family"), ("source", "source"), ("shape", "shape"), ("gamma", "gamma"), ("eta", "eta"),
            ("eps", "eps (certified)"), ("delta", "delta"), ("noise_std", "std per unit B"),
            ("eps_older", "eps older"), ("older_source", "older")]

    def cell(r: dict[str, Any], k: str) -> str:
        v = r.get(k)
        if k == "source" and r.get("error"):
            return "infeasible: " + r["error"]
        if v is None:
            return "-"
        if isinstance(v, float):
            return "inf" if math.isinf(v) else f"{v:.6g}"
        return str(v)

    table = [[cell(r, k) for k, _ in cols] for r in rows]
    # the error text can be long: keep it last by moving it to a trailing note
    notes = []
    for r, line in zip(rows, table, strict=True):
        if r.get("note"):
            notes.append(f"  {r['family']}: {r['note']}")
            line[3] += " *"
        if r.get("error"):
            notes.append(f"  {r['family']}: {r['error']}")
            line[1] = "infeasible (see note)"
    widths = [max(len(h), *(len(line[i]) for line in table)) for i, (_, h) in enumerate(cols)]
    out = ["  ".join(h.ljust(w) if i < 3 else h.rjust(w) for i, ((_, h), w) in enumerate(zip(cols, widths, strict=True)))]
    out.append("  ".join("-" * w for w in widths))
    for line in table:
        out.append("  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths, strict=True))))
    if notes:
        out.append("")
        out.append("notes:")
        out.extend(notes)
    return "\n".join(out)
