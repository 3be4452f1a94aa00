"""``smoothsens sensitivity QUERY --input P --output O [params]``: f, L_{f,Lambda} and B* per point.

Queries (004 Sec. 4): ``threshold`` (one-way soft threshold, Lemma 4.1; --T --tau), ``two-way``
(two-way threshold on R^2, Lemma 4.3; --T1 --T2 --tau), ``bounded-range`` (App. C.3; --l --r
--tau [--shape tent|trapezoid]) and ``kde`` (Gaussian kernel at t on R^d, Lemmas 4.6-4.7; --t
--h).  Common: --gamma, --growth exp|linear (g_E / g_L), --Lambda (default inf).

Input: a .npy array or a .csv file (comma separated, optional header line) of n points, one per
row (n x d).  Output: .npy (an n x 3 float array with columns f, L, B) or .csv (the input
coordinates followed by columns f, L, B, with a header).
"""

from __future__ import annotations

import argparse
import io
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity import (
    sensitivity_bounded_range,
    sensitivity_kde,
    sensitivity_threshold,
    sensitivity_two_way_threshold,
)
from verify.bounded_io import DEFAULT_MAX_BYTES, read_text_bounded

__all__ = ["register", "run", "read_points", "write_values", "add_query_parameters"]

_QUERIES = ("threshold", "two-way", "bounded-range", "kde")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "sensitivity",
        help="compute f, the pointwise Lipschitz constant L and the smooth sensitivity B* for points in a file",
        description=(
            "Evaluate a query of 004 Sec. 4 (threshold, two-way, bounded-range, kde) at every point of "
            "--input (.csv or .npy) and write f, L_{f,Lambda} (004 Def. 7) and the smooth sensitivity B* "
            "(004 Def. 9) to --output (.csv or .npy)."
        ),
    )
    p.add_argument("query", choices=_QUERIES, help="the query")
    p.add_argument("--input", required=True, help="points, one per row: .csv (optional header) or .npy")
    p.add_argument("--output", required=True, help="output file: .csv (coordinates, f, L, B) or .npy (n x 3: f, L, B)")
    p.add_argument("--gamma", type=float, required=True, help="growth parameter gamma > 0")
    p.add_argument("--growth", choices=("exp", "linear"), default="exp", help="g_E (exp, default) or g_L (linear)")
    p.add_argument("--Lambda", type=float, default=math.inf, help="neighbourhood radius Lambda in (0, inf] (default inf)")
    add_query_parameters(p)
    p.set_defaults(handler=run)


def add_query_parameters(p: Any) -> None:
    """The options of the 004 Sec. 4 queries (threshold, two-way, bounded-range, kde) on the parser or
    argument group ``p``: shared by ``smoothsens sensitivity`` and ``smoothsens audit-impl --kind bound``."""
    p.add_argument("--tau", type=float, help="transition width tau > 0 (threshold, two-way, bounded-range)")
    p.add_argument("--T", type=float, help="threshold T (threshold)")
    p.add_argument("--T1", type=float, help="first threshold (two-way)")
    p.add_argument("--T2", type=float, help="second threshold (two-way)")
    p.add_argument("--l", type=float, help="left end l (bounded-range)")
    p.add_argument("--r", type=float, help="right end r (bounded-range)")
    p.add_argument("--shape", choices=("tent", "trapezoid"), default="tent",
                   help="bounded-range surrogate: tent (printed in 004 App. C.3) or trapezoid")
    p.add_argument("--t", help="KDE centre t as comma-separated coordinates, e.g. 0.5,1.0 (kde)")
    p.add_argument("--h", type=float, help="KDE bandwidth h > 0 (kde)")


#: Largest --input read (bytes): 64 MiB, about two million points of R^1 as CSV.
MAX_INPUT_BYTES = DEFAULT_MAX_BYTES


def read_points(path: str, *, max_bytes: int = MAX_INPUT_BYTES) -> np.ndarray:
    """Points from a .npy file or a comma-separated .csv file (an optional non-numeric header line).

    The file is read once, at most ``max_bytes`` bytes (:mod:`verify.bounded_io`): a device, a
    directory or a larger file is rejected with a ``ValueError`` naming --input and the limit, never
    read without bound."""
    pth = Path(path)
    if not pth.exists():
        raise FileNotFoundError(f"input file not found: {path}")
    if pth.suffix not in (".npy", ".csv"):
        raise ValueError(f"--input must end in .csv or .npy; got {path}")
    if not pth.is_file():
        raise ValueError(f"--input {path!r} is not a regular file (a device, a directory or a pipe is not read)")
    if pth.suffix == ".npy":
        with open(pth, "rb") as fh:
            raw = fh.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise ValueError(f"--input {path!r} holds more than {max_bytes} bytes; at most {max_bytes} are read")
        try:
            arr = np.load(io.BytesIO(raw), allow_pickle=False)
        except (ValueError, EOFError, OSError) as exc:
            raise ValueError(f"--input {path!r} is not a valid .npy array: {exc}") from None
    else:
        text = read_text_bounded(pth, max_bytes=max_bytes, what="--input")
        first = text.split("\n", 1)[0]
        try:
            [float(v) for v in first.strip().split(",") if v.strip()]
            skip = 0
        except ValueError:
            skip = 1
        if not first.strip():
            raise ValueError(f"--input {path} is empty: it must hold one point per row")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "input contained no data": reported below
            arr = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=skip, ndmin=2)
    arr = np.asarray(arr, dtype=float)
    if arr.ndim == 1:
        arr = arr.reshape(-1, 1)
    if arr.ndim != 2:
        raise ValueError(f"--input must hold a 2-D array of points (n x d); got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"--input {path} holds no points (only a header?): it must hold one point per row")
    return arr


def write_values(path: str, points: np.ndarray, f: np.ndarray, L: np.ndarray, B: np.ndarray) -> None:
    """Write (f, L, B) to .npy (n x 3) or .csv (coordinates, f, L, B with a header)."""
    pth = Path(path)
    if pth.suffix == ".npy":
        np.save(pth, np.column_stack([f, L, B]))
    elif pth.suffix == ".csv":
        d = points.shape[1]
        header = ",".join([f"x{i + 1}" for i in range(d)] + ["f", "L", "B"])
        np.savetxt(pth, np.column_stack([points, f, L, B]), delimiter=",", header=header, comments="", fmt="%.17g")
    else:
        raise ValueError(f"--output must end in .csv or .npy; got {path}")


def _need(args: argparse.Namespace, *names: str) -> None:
    missing = [n for n in names if getattr(args, n) is None]
    if missing:
        raise ValueError(f"query {args.query!r} needs " + ", ".join("--" + n for n in missing))


def run(args: argparse.Namespace) -> int:
    if args.query == "threshold":
        _need(args, "T", "tau")
    elif args.query == "two-way":
        _need(args, "T1", "T2", "tau")
    elif args.query == "bounded-range":
        _need(args, "l", "r", "tau")
    else:
        _need(args, "t", "h")
    g = (growth_exp if args.growth == "exp" else growth_linear)(args.gamma)
    pts = read_points(args.input)
    if args.query == "threshold":
        if pts.shape[1] != 1:
            raise ValueError(f"threshold needs points of R^1 (one column); got {pts.shape[1]} columns")
        v = sensitivity_threshold(pts[:, 0], args.T, args.tau, g, args.Lambda)
    elif args.query == "two-way":
        v = sensitivity_two_way_threshold(pts, args.T1, args.T2, args.tau, g, args.Lambda)
    elif args.query == "bounded-range":
        if pts.shape[1] != 1:
            raise ValueError(f"bounded-range needs points of R^1 (one column); got {pts.shape[1]} columns")
        v = sensitivity_bounded_range(pts[:, 0], args.l, args.r, args.tau, g, args.Lambda, args.shape)
    else:
        try:
            t = [float(s) for s in args.t.split(",")]
        except ValueError:
            raise ValueError(f"--t must be comma-separated numbers, e.g. 0.5,1.0; got {args.t!r}") from None
        v = sensitivity_kde(pts, t, args.h, g, args.Lambda)
    write_values(args.output, pts, v.f, v.L, v.B)
    print(f"smoothsens sensitivity {args.query}: {pts.shape[0]} points -> {args.output} "
          f"(B* min {float(np.min(v.B)):.6g}, max {float(np.max(v.B)):.6g})")
    return 0
