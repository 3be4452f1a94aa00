"""Wall-clock time of ``smoothsens audit`` (issue 5 targets; a benchmark, not a test).

Run as ``python3 benchmarks/bench_audit.py`` (the --quick profile, target < 60 s on a 2-core machine)
or ``python3 benchmarks/bench_audit.py --full`` (also the default audit, target < 10 minutes).  Each
run is a fresh process writing its reports to a temporary folder; the figures printed are the wall
time, the totals line of the audit and the load average before the run (other work on the machine
slows the audit down).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

TARGETS = {"quick": 60.0, "default": 600.0}


def run(profile: str) -> None:
    args = [sys.executable, "-m", "verify.cli", "audit", "--no-progress"]
    if profile == "quick":
        args.append("--quick")
    with tempfile.TemporaryDirectory() as tmp:
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        out = subprocess.run([*args, "--out", tmp], capture_output=True, text=True)
        dt = time.perf_counter() - t0
    totals = next((line for line in out.stdout.splitlines() if " claims in " in line), "(no totals line)")
    flag = "PASS" if out.returncode == 0 and dt < TARGETS[profile] else "MISS"
    print(f"{profile:8s} {dt:7.1f} s (target < {TARGETS[profile]:.0f} s: {flag}; exit {out.returncode}; "
          f"load before {load:.2f} on {os.cpu_count()} cores)")
    print(f"         {totals}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="also time the default (full) audit")
    a = ap.parse_args()
    run("quick")
    if a.full:
        run("default")


if __name__ == "__main__":
    main()
