"""Benchmark: an experiment of 004 Sec. 5 serially and on a Dask LocalCluster of 1 and 2 workers.

    python3 benchmarks/bench_parallel.py [--n 100000] [--reps 40] [--tasks 200]

Runs the one-way threshold experiment (incomes stand-in, two thresholds, eps = 1/10,000 per USD,
mechanisms M0, M2, M3, M3-PolyPlace, M_LDP, ``--reps`` repetitions in tasks of 10) three ways, checks
that the three tables are bit-identical, and prints the wall-clock seconds and the ratios
serial / 1 worker and serial / 2 workers measured in this run (cluster start-up excluded).  It also
times a map of ``--tasks`` trivial tasks on the 2-worker cluster: the per-task overhead of the
backend.  Exit status 0 either way (a benchmark, not a test).
"""

from __future__ import annotations

import argparse
import os
import time


def _noop(i: int) -> int:
    return i


def _run(ex, args):  # type: ignore[no-untyped-def]
    from verify.experiments import runner

    t0 = time.perf_counter()
    res = runner.one_way_threshold(ns=(args.n,), eps_values=(1 / 10_000,), thresholds=(10_000.0, 100_000.0),
                                   reps=args.reps, reps_per_task=10,
                                   mechanisms=("M0", "M2", "M3", "M3-PolyPlace", "M_LDP"), seed=0, executor=ex)
    return time.perf_counter() - t0, res


def main() -> int:
    from verify.parallel import DaskExecutor, SerialExecutor, dask_available

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=40)
    ap.add_argument("--tasks", type=int, default=200)
    args = ap.parse_args()
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
