"""``smoothsens experiment NAME``: run an experiment of 004 Sec. 5 on the synthetic stand-ins.

Progress goes to stderr; the table is written as ``NAME.csv`` and the figure as ``NAME.png`` into
``--out`` (default ``experiments_out``), and the table is printed on stdout.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from verify.experiments.runner import EXPERIMENTS, run_experiment
from verify.parallel import get_executor

__all__ = ["register", "run"]


def _floats(text: str) -> list[float]:
    """Comma-separated numbers ('1/4000' allowed); argparse shows the message on failure."""
    out = []
    for part in text.split(","):
        part = part.strip()
        try:
            value = 1.0 / float(part[2:]) if part.startswith("1/") else float(part)
        except (ValueError, ZeroDivisionError):
            raise argparse.ArgumentTypeError(
                f"expected comma-separated numbers such as 1,0.5 or 1/4000; got {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"values must be finite numbers; got {text!r}")
        out.append(value)
    return out


def _positive_floats(text: str) -> list[float]:
    """:func:`_floats` with every value > 0 (eps per unit distance, 004 Def. 5)."""
    out = _floats(text)
    bad = [v for v in out if not v > 0]
    if bad:
        raise argparse.ArgumentTypeError(f"values must be > 0; got {bad[0]:g} in {text!r}")
    return out


def _ints(text: str) -> list[int]:
    """Comma-separated positive integers (numbers of users)."""
    try:
        out = [int(float(p)) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers such as 1000,10000; got {text!r}") from None
    if any(v < 1 for v in out):
        raise argparse.ArgumentTypeError(f"values must be integers >= 1; got {text!r}")
    return out


def register(subparsers: argparse._SubParsersAction) -> None:
    names = ", ".join(f"{k} ({v.description})" for k, v in EXPERIMENTS.items())
    p = subparsers.add_parser(
        "experiment",
        help="run an experiment of 004 Sec. 5 (MSE/ASE of M0-M3, M_LDP) and write CSV + PNG",
        description=f"Experiments: {names}.  Data are seeded synthetic stand-ins for the papers' "
        "data sets (see verify/experiments/data.py).",
    )
    p.add_argument("name", nargs="?", help="experiment name: " + ", ".join(EXPERIMENTS))
    p.add_argument("--list", action="store_true", help="list the experiments and exit")
    p.add_argument("--out", default="experiments_out", help="output folder for NAME.csv and NAME.png")
    p.add_argument("--quick", action="store_true", help="small sizes (seconds), for smoke tests")
    p.add_argument("--seed", type=int, default=None, help="random seed (default 0)")
    p.add_argument("--reps", type=int, default=None, help="repetitions per configuration")
    p.add_argument("--n", type=_ints, default=None,
                   help="number(s) of users, comma separated (one-way, noise-mse: a list; others: one value)")
    p.add_argument("--eps", type=_positive_floats, default=None,
                   help="eps value(s) per unit distance, comma separated; '1/4000' is accepted")
    p.add_argument("--thresholds", type=_floats, default=None, help="one-way thresholds T (USD)")
    p.add_argument("--k", type=int, default=None, help="grid size: (k+1) x (k+1) queries (two-way, kde)")
    p.add_argument("--mechanisms", default=None,
                   help="comma-separated subset of M0,M1,M2,M3,M3-tight,M3-PolyPlace,M3-GenCauchy,M_LDP")
    p.add_argument("--no-figure", action="store_true", help="write the CSV only")
    p.add_argument("--reps-per-task", type=int, default=None, metavar="R",
                   help="repetitions per task (the unit of parallel work; part of the seed layout, so "
                        "changing it changes the random streams)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="run the tasks on a Dask LocalCluster of N worker processes (default 1 = serial); "
                        "the table is identical to the serial one for the same seed")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the tasks on an existing Dask cluster, e.g. tcp://host:8786")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.list or not args.name:
        for k, v in EXPERIMENTS.items():
            print(f"{k:10s} {v.description}")
        return 0
    if args.name not in EXPERIMENTS:
        raise ValueError(f"experiment must be one of {', '.join(EXPERIMENTS)}; got {args.name!r}")
    overrides: dict = {"seed": args.seed, "reps": args.reps}
    if args.n is not None:
        if args.name in ("one-way", "noise-mse"):
            overrides["ns"] = args.n
        else:
            overrides["n"] = args.n[0]
    if args.eps is not None:
        if args.name == "noise-mse":
            overrides["eps"] = args.eps[0]
        else:
            overrides["eps_values"] = args.eps
    if args.thresholds is not None:
        if args.name != "one-way":
            raise ValueError("--thresholds applies to the one-way experiment only")
        overrides["thresholds"] = args.thresholds
    if args.k is not None:
        overrides["k"] = args.k
    if args.mechanisms is not None:
        overrides["mechanisms"] = [m.strip() for m in args.mechanisms.split(",") if m.strip()]
    if args.reps_per_task is not None:
        if args.reps_per_task < 1:
            raise ValueError(f"--reps-per-task must be an integer >= 1; got {args.reps_per_task}")
        overrides["reps_per_task"] = args.reps_per_task
    if args.workers < 1:
        raise ValueError(f"--workers must be an integer >= 1; got {args.workers}")


    try:
        from tqdm import tqdm  # type: ignore[import-untyped]  # noqa: PLC0415 - optional dependency (notebooks, dask extras); no type information
    except ImportError:  # pragma: no cover - tqdm is optional
        tqdm = None

    def progress(msg: str) -> None:
        if tqdm is not None and not args.no_progress:
            tqdm.write(msg, file=sys.stderr)  # keeps the bar below the lines
        else:
            print(msg, file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    with get_executor(args.scheduler, args.workers) as executor:  # Ctrl-C ends its workers (Executor.__exit__)
        print(f"backend: {executor.describe()}", file=sys.stderr)
        result = run_experiment(args.name, quick=args.quick, progress=progress, executor=executor,
                                bar=not args.no_progress, **overrides)
    for ev in result.events:
        print(f"cluster: {ev}", file=sys.stderr)
    out = Path(args.out)
    csv_path = result.to_csv(out / f"{args.name}.csv")
    print(result.format_table())
    print(f"table:  {csv_path}", file=sys.stderr)
    if not args.no_figure:
        png = EXPERIMENTS[args.name].plot(result, out / f"{args.name}.png")
        print(f"figure: {png}", file=sys.stderr)
    print(f"done in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0
