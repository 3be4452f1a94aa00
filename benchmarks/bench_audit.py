"""Wall-clock time of ``smoothsens audit`` and ``smoothsens audit-impl`` (issues 5 and 8; a benchmark,
not a test).

Run as ``python3 benchmarks/bench_audit.py`` (the --quick profile, target < 60 s on a 2-core machine,
and a default black-box audit of a KDE smooth bound, target < 60 s) or
``python3 benchmarks/bench_audit.py --full`` (also the default audit, target < 10 minutes).  Each
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

TARGETS = {"quick": 60.0, "default": 600.0, "audit-impl": 60.0}
PLANTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "verify", "planted_impls.py")


def run(profile: str) -> None:
    if profile == "audit-impl":
        # the core's own KDE bound (tests/verify/planted_impls.py) at the default budget of 20 000 evaluations
        args = [sys.executable, "-m", "verify.cli", "audit-impl", f"{PLANTED}:kde_bound", "--kind", "bound",
                "--query", "kde", "--t", "0", "--h", "1", "--gamma", "0.1", "--no-progress"]
    else:
        args = [sys.executable, "-m", "verify.cli", "audit", "--no-progress"]
        if profile == "quick":
            args.append("--quick")
    with tempfile.TemporaryDirectory() as tmp:
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        out = subprocess.run([*args, "--out", tmp] if profile != "audit-impl" else args, capture_output=True, text=True)
        dt = time.perf_counter() - t0
    key = " claims in " if profile != "audit-impl" else "verdict:"
    totals = next((line.strip() for line in out.stdout.splitlines() if key in line), "(no totals line)")
    flag = "PASS" if out.returncode == 0 and dt < TARGETS[profile] else "MISS"
    print(f"{profile:10s} {dt:7.1f} s (target < {TARGETS[profile]:.0f} s: {flag}; exit {out.returncode}; "
          f"load before {load:.2f} on {os.cpu_count()} cores)")
    print(f"         {totals}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="also time the default (full) audit")
    a = ap.parse_args()
    run("quick")
    run("audit-impl")
    if a.full:
        run("default")


if __name__ == "__main__":
    main()
