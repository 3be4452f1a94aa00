"""Benchmark: an experiment of 004 Sec. 5 serially and on a Dask LocalCluster of 1 and 2 workers.

    python3 benchmarks/bench_parallel.py [--n 100000] [--reps 40] [--tasks 200] [--draws 10000000]
                                         [--only-blackbox]

Runs the one-way threshold experiment (incomes stand-in, two thresholds, eps = 1/10,000 per USD,
mechanisms M0, M2, M3, M3-PolyPlace, M_LDP, ``--reps`` repetitions in tasks of 10) three ways, checks
that the three tables are bit-identical, and prints the wall-clock seconds and the ratios
serial / 1 worker and serial / 2 workers measured in this run (cluster start-up excluded).  It also
times a map of ``--tasks`` trivial tasks on the 2-worker cluster: the per-task overhead of the
backend.  Then a black-box mechanism audit (Laplace release, one pair, ``--draws`` draws per input in
chunks of 10^6) serially and on 1 and 2 workers: the three reports must be bit-identical; prints the
seconds, the ratios and the peak RSS (``resource.getrusage``: this process for the serial run, each
worker process for the cluster runs).  Exit status 0 either way (a benchmark, not a test).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

from verify.audit.blackbox import audit_blackbox_mechanism
from verify.experiments import runner
from verify.parallel import DaskExecutor, SerialExecutor, dask_available


def _noop(i: int) -> int:
    return i


def _laplace_release(x, rng):  # type: ignore[no-untyped-def]
    x = np.asarray(x, dtype=float)
    return x + rng.laplace(size=x.shape)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # ru_maxrss is in KiB on Linux


def _blackbox(ex, draws):  # type: ignore[no-untyped-def]

    t0 = time.perf_counter()
    rep = audit_blackbox_mechanism(_laplace_release, 1.0, pairs=[(0.0, 1.0)], budget=draws, rng=0,
                                   density=False, chunk=1_000_000, executor=ex)
    doc = rep.to_json()
    doc.pop("elapsed_s")
    return time.perf_counter() - t0, doc, rep.eps_lower


def bench_blackbox(draws: int) -> None:

    print(f"black-box mechanism audit: {draws:,} draws per input (chunks of 10^6), Laplace, one pair")
    base = _peak_rss_mb()
    t_s, doc_s, lo = _blackbox(SerialExecutor(), draws)
    print(f"serial               {t_s:8.2f} s   eps >= {lo:.6g}; peak RSS of this process {_peak_rss_mb():.0f} MB "
          f"({base:.0f} MB before the audit)")
    if not dask_available():
        return
    times = {}
    for w in (1, 2):
        with DaskExecutor(None, w) as ex:
            times[w], doc, _ = _blackbox(ex, draws)
            peaks = ex.client.run(_peak_rss_mb)
            print(f"LocalCluster {w} worker{'s' if w > 1 else ' '} {times[w]:8.2f} s   (report "
                  f"{'bit-identical to' if doc == doc_s else 'DIFFERS from'} the serial one; peak RSS per worker "
                  f"{', '.join(f'{v:.0f}' for v in peaks.values())} MB)")
    print(f"ratios: serial / 1 worker = {t_s / times[1]:.2f}, serial / 2 workers = {t_s / times[2]:.2f}, "
          f"1 worker / 2 workers = {times[1] / times[2]:.2f}")


def _run(ex, args):  # type: ignore[no-untyped-def]

    t0 = time.perf_counter()
    res = runner.one_way_threshold(ns=(args.n,), eps_values=(1 / 10_000,), thresholds=(10_000.0, 100_000.0),
                                   reps=args.reps, reps_per_task=10,
                                   mechanisms=("M0", "M2", "M3", "M3-PolyPlace", "M_LDP"), seed=0, executor=ex)
    return time.perf_counter() - t0, res


def bench_audit(paper: list[str]) -> None:
    """Wall time of `smoothsens audit --quick` (one task per claim) on 1 worker (the serial path) and on a
    2-worker LocalCluster, measured in one run; the totals must agree."""
    sel = [a for p in paper for a in ("--paper", p)]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for w in (1, 2):
            cmd = [sys.executable, "-m", "verify.cli", "audit", "--quick", "--no-progress", *sel, "--workers", str(w),
                   "--json", f"{tmp}/{w}.json", "--markdown", f"{tmp}/{w}.md"]
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            out[w] = time.perf_counter() - t0
            print(f"audit --quick on {w} worker{'s' if w > 1 else ' '} {out[w]:8.2f} s (wall, start-up included)")
        same = json.load(open(f"{tmp}/1.json"))["totals"] == json.load(open(f"{tmp}/2.json"))["totals"]
    print(f"speed-up 1 -> 2 workers: {out[1] / out[2]:.2f}; totals identical: {same}")


def main() -> int:

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=40)
    ap.add_argument("--tasks", type=int, default=200)
    ap.add_argument("--draws", type=int, default=10_000_000, help="draws per input of the black-box audit")
    ap.add_argument("--only-blackbox", action="store_true", help="run only the black-box audit benchmark")
    ap.add_argument("--only-audit", action="store_true", help="run only the audit --quick speed-up")
    ap.add_argument("--paper", action="append", default=[], help="restrict --only-audit to papers")
    args = ap.parse_args()
    if args.only_audit:
        bench_audit(args.paper)
        return 0
    if args.only_blackbox:
        bench_blackbox(args.draws)
        return 0
    print(f"one-way threshold: n = {args.n:,}, {args.reps} repetitions, 2 thresholds x 5 mechanisms "
          f"({2 * 5 * -(-args.reps // 10)} tasks); {os.cpu_count()} core(s) on this machine")
    t_serial, r_serial = _run(SerialExecutor(), args)
    print(f"serial               {t_serial:8.2f} s")
    if not dask_available():
        print("dask.distributed is not installed: no cluster timings")
        return 0
    times = {}
    for w in (1, 2):
        t0 = time.perf_counter()
        with DaskExecutor(None, w) as ex:
            start = time.perf_counter() - t0
            times[w], res = _run(ex, args)
            same = res.rows == r_serial.rows
            print(f"LocalCluster {w} worker{'s' if w > 1 else ' '} {times[w]:8.2f} s   (start-up {start:.1f} s; "
                  f"table {'bit-identical to' if same else 'DIFFERS from'} the serial one)")
            if w == 2:
                ex.map(_noop, [(i,) for i in range(10)], label="warm")
                t1 = time.perf_counter()
                out = ex.map(_noop, [(i,) for i in range(args.tasks)], label="noop")
                dt = time.perf_counter() - t1
                assert out == list(range(args.tasks))
                print(f"overhead: {args.tasks} trivial tasks on 2 workers in {dt:.2f} s = "
                      f"{1000 * dt / args.tasks:.1f} ms per task")
    print(f"ratios: serial / 1 worker = {t_serial / times[1]:.2f}, serial / 2 workers = {t_serial / times[2]:.2f}, "
          f"1 worker / 2 workers = {times[1] / times[2]:.2f}")
    print()
    bench_blackbox(args.draws)
    print()
    bench_audit(args.paper)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
