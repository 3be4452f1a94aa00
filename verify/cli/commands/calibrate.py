"""``smoothsens calibrate``: compare the calibrations of every smooth-sensitivity mechanism.

With ``--tight``, prints per family the printed and the tight eps (at the printed eta), the
printed and the tight eta (for the target eps), and the noise std saved (issue 9,
:mod:`smoothsens_core.calibration.tight`); with ``--delta`` also the Laplace g_L row of 004
Lemma 3.6: the printed delta vs the exact (tight) delta at the printed eta, the printed and the
tight eta, and the noise std saved, or why it is infeasible.

Prints one row per mechanism (family, source, shape, gamma, eta, the eps the printed formula
certifies, delta, the noise std per unit smooth sensitivity, and the eps the older NRS07/BS19
constants would certify at the same gamma, eta) at a common gamma (default eps/9, 004 Sec. 5),
from :func:`smoothsens_core.calibration.calibration_table`.  ``--json`` prints the rows as JSON.
"""

from __future__ import annotations

import argparse
import json

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
                   help="print printed vs tight (exact worst-case) eps and eta and the noise std saved (issue 9); "
                        "with --delta also printed vs tight delta of Laplace g_L (004 Lemma 3.6)")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.set_defaults(handler=run)


def _metric(word: str) -> str:
    """The --metric value as a metric name: "gp" -> "euclidean", "dp" -> "hamming" (the papers' words,
    smoothsens_core.validation.metric_from_paper), "euclidean"/"hamming" unchanged."""
    from smoothsens_core.validation import metric_from_paper

    try:
        return metric_from_paper(word, allowed=("euclidean", "hamming"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def run(args: argparse.Namespace) -> int:
    from smoothsens_core.calibration import calibration_table, format_calibration_table

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
    from smoothsens_core.calibration import format_tight_table, tight_table
    from smoothsens_core.validation import check_probability
    from smoothsens_core.calibration.tight import format_tight_table_laplace, tight_table_laplace

    if args.delta is not None:
        check_probability("delta", args.delta)  # before the (slower) pure rows
    rows = tight_table(args.eps, args.gamma, args.metric)
    lap = [] if args.delta is None else tight_table_laplace(args.eps, args.delta, args.gamma, args.metric)
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
