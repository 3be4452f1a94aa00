"""``smoothsens calibrate``: compare the calibrations of every smooth-sensitivity mechanism.

With ``--tight``, prints per family the printed and the tight eps (at the printed eta), the
printed and the tight eta (for the target eps), and the noise std saved (
:mod:`smoothsens_core.calibration.tight`); with ``--delta`` also the Laplace g_L row of 004
Lemma 3.6: the printed delta vs the exact (tight) delta at the printed eta, the printed and the
tight eta, and the noise std saved, or why it is infeasible.

Prints one row per mechanism (family, source, shape, gamma, eta, the eps the printed formula
certifies, delta, the noise std per unit smooth sensitivity, and the eps the older NRS07/BS19
constants would certify at the same gamma, eta) at a common gamma (default eps/9, 004 Sec. 5),
from :func:`smoothsens_core.calibration.calibration_table`.  ``--json`` prints the rows as JSON.

``--tight --workers N`` / ``--scheduler ADDRESS``: one task per row of the tight table (and one for the
Laplace rows) on a Dask LocalCluster or an existing cluster (:mod:`verify.parallel`); the rows are the
same as serially.
"""

from __future__ import annotations

import argparse
import json

from smoothsens_core.calibration import (
    DEFAULT_GAMMA_FRACTION,
    calibrate_gencauchy,
    calibrate_polyplace,
    calibrate_student_t,
    calibration_table,
    format_calibration_table,
    format_tight_table,
)
from smoothsens_core.calibration.tight import format_tight_table_laplace, tight_calibration, tight_table_laplace
from smoothsens_core.validation import check_metric, check_positive, check_probability, metric_from_paper
from verify.parallel import get_executor
from verify.serialise import jsonable

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "calibrate",
        help="compare the calibrations of the smooth-sensitivity mechanisms for a target eps",
        description=(
            "Calibrate GenCauchy (004 Lemma 3.3), Student's t (004 Lemma 3.5), Laplace with g_L "
            "(004 Lemma 3.6, needs --delta), PolyPlace (002 Thm. 8) and the older NRS07/BS19 "
            "constants at one common gamma, and print gamma, eta, certified eps and the noise std "
            "per unit smooth sensitivity side by side."
        ),
    )
    p.add_argument("--eps", type=float, required=True,
                   help="target eps (per unit distance for --metric gp/euclidean; plain eps for dp/hamming)")
    p.add_argument("--delta", type=float, default=None, help="delta in (0, 1): adds the Laplace (approximate) rows")
    p.add_argument("--gamma", type=float, default=None, help="growth parameter gamma (default eps/9, 004 Sec. 5)")
    p.add_argument("--metric", type=_metric, default="euclidean", metavar="{gp,dp,euclidean,hamming}",
                   help="gp or euclidean: Geo-Privacy, eps per unit distance (004 Def. 5); dp or hamming: "
                        "Hamming metric, plain eps-DP (the papers' words are mapped to the metric names)")
    p.add_argument("--no-optimise", action="store_true", help="omit the rows with optimised shape parameters")
    p.add_argument("--tight", action="store_true",
                   help="print printed vs tight (exact worst-case) eps and eta and the noise std saved; "
                        "with --delta also printed vs tight delta of Laplace g_L (004 Lemma 3.6)")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="--tight: one task per row on a Dask LocalCluster of N workers (default 1 = serial)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="--tight: one task per row on an existing Dask cluster, e.g. tcp://host:8786")
    p.set_defaults(handler=run)


def _metric(word: str) -> str:
    """The --metric value as a metric name: "gp" -> "euclidean", "dp" -> "hamming" (the papers' words,
    smoothsens_core.validation.metric_from_paper), "euclidean"/"hamming" unchanged."""
    try:
        return metric_from_paper(word, allowed=("euclidean", "hamming"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def run(args: argparse.Namespace) -> int:
    if args.tight:
        return _run_tight(args)
    rows = calibration_table(args.eps, args.delta, args.gamma, metric=args.metric, optimise=not args.no_optimise)
    if args.json:
        print(json.dumps(jsonable(rows), indent=2))
        return 0
    unit = ("per unit distance (Geo-Privacy, metric euclidean)" if args.metric == "euclidean"
            else "(DP, metric hamming)")
    delta = "" if args.delta is None else f", delta = {args.delta:g}"
    print(f"Smooth-sensitivity calibrations for eps = {args.eps:g} {unit}{delta}, gamma = {rows[0]['gamma']:.6g}")
    print("noise released: f(x) + (B(x)/eta) Z;  'std per unit B' = std(Z)/eta;  'eps older' = the eps the "
          "older constant certifies at the same gamma, eta")
    print()
    print(format_calibration_table(rows))
    return 0


def _run_tight(args: argparse.Namespace) -> int:
    if args.delta is not None:
        check_probability("delta", args.delta)  # before the (slower) pure rows

    with get_executor(getattr(args, "scheduler", None), getattr(args, "workers", 1)) as ex:
        rows, lap = tight_rows(args.eps, args.gamma, args.metric, args.delta, ex)
    if args.json:
        print(json.dumps(jsonable(rows + lap), indent=2))
        return 0
    what = ("infinitesimal rate sup_z [eta |psi(z)| + gamma |1 + z psi(z)|], valid at every distance"
            if args.metric == "euclidean" else "worst case at Hamming distance 1")
    print(f"Printed vs tight calibration for eps = {args.eps:g} ({args.metric}), gamma = {rows[0]['gamma']:.6g}")
    print(f"tight eps: certified upper bound on the {what}")
    print()
    print(format_tight_table(rows))
    if lap:
        where = ("sup over all distances d > 0 (Lambda = inf)" if args.metric == "euclidean"
                 else "Hamming distance 1")
        print()
        print(f"Approximate: Laplace with g_L (004 Lemma 3.6), delta = {args.delta:g}; tight delta = certified "
              f"sup of the hockey-stick divergence integral (p_x - e^(eps d) p_x')_+, {where}")
        print()
        print(format_tight_table_laplace(lap))
    return 0


#: The rows of :func:`smoothsens_core.calibration.tight_table`, in its order (family label, maker).
_TIGHT_FAMILIES = ("Student t(nu=3)", "Student t(nu=4)", "GenCauchy(p=4, theta=1)", "PolyPlace")


def _tight_task(kind: str, k: int, eps: float, gamma: float | None, metric: str, delta: float | None) -> list:
    """One task: row k of the pure tight table (``kind="pure"``) or the Laplace rows (``"laplace"``).
    Row k is computed exactly as :func:`smoothsens_core.calibration.tight_table` computes it."""
    if kind == "laplace":
        if delta is None:
            raise ValueError("delta must be given for the Laplace rows of the tight table")
        return tight_table_laplace(eps, delta, gamma, metric)
    eps = check_positive("eps", eps)
    metric = check_metric(metric, ("euclidean", "hamming"))
    g = DEFAULT_GAMMA_FRACTION * eps if gamma is None else check_positive("gamma", gamma)
    makers = (lambda: calibrate_student_t(eps, g, 3.0, metric=metric),
              lambda: calibrate_student_t(eps, g, 4.0, metric=metric),
              lambda: calibrate_gencauchy(eps, g, 4.0, 1.0, metric=metric),
              lambda: calibrate_polyplace(eps, g, metric=metric))
    row: dict = {"family": _TIGHT_FAMILIES[k], "gamma": g, "metric": metric}
    try:
        cal = makers[k]()
        tc = tight_calibration(cal, metric)
    except ValueError as exc:
        row.update(source="", eps_printed=None, eps_tight=None, eta_printed=None, eta_tight=None,
                   std_printed=None, std_tight=None, std_saved=None, note="", error=str(exc))
        return [row]
    row.update(source=cal.source, eps_printed=cal.eps, eps_tight=tc.eps_tight_at_printed_eta,
               eta_printed=cal.eta, eta_tight=tc.eta_tight, std_printed=cal.noise_std, std_tight=tc.std_tight,
               std_saved=tc.std_saved, note=tc.note, error="")
    return [row]


def tight_rows(eps: float, gamma: float | None, metric: str, delta: float | None, executor) -> tuple[list, list]:
    """(pure rows, Laplace rows) of the tight table, one task per row on ``executor``
    (:class:`verify.parallel.Executor`), merged in row order: the same rows on any executor."""
    check_positive("eps", eps)
    check_metric(metric, ("euclidean", "hamming"))
    tasks = [("pure", k, eps, gamma, metric, delta) for k in range(len(_TIGHT_FAMILIES))]
    if delta is not None:
        tasks.append(("laplace", 0, eps, gamma, metric, delta))
    out = executor.map(_tight_task, tasks, label="tight-row")
    rows = [r for part in out[:len(_TIGHT_FAMILIES)] for r in part]
    lap = out[len(_TIGHT_FAMILIES)] if delta is not None else []
    return rows, lap
