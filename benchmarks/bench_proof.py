"""Boxes and seconds of the rigorous proofs of verify.proof (issue 16; a benchmark, not a test).

Run as ``python3 benchmarks/bench_proof.py`` (the small "test" parameter boxes, the tight eps
enclosures at the points of ``tight_table(1.0)`` and the controls) or with ``--full`` (the
parameter boxes stated in ``verify.proof.obligations.catalogue("full")``; minutes).  Every proof
is re-checked by ``verify.proof.recheck``; the table gives the outcome, the number of boxes, the
seconds of the build (SymPy -> arb), of the proof and of the re-check.
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="the full parameter boxes (minutes)")
    ap.add_argument("--max-boxes", type=int, default=400_000)
    ap.add_argument("--time-limit", type=float, default=1800.0, help="seconds per obligation")
    args = ap.parse_args()

    from smoothsens_core.calibration.tight import tight_epsilon
    from verify.proof import obligations as O
    from verify.proof.prover import prove_le
    from verify.proof.recheck import recheck

    scale = "full" if args.full else "test"
    rows = []
    for ob in O.catalogue(scale) + O.controls():
        t0 = time.perf_counter()
        obj = ob.build()
        tb = time.perf_counter() - t0
        res = prove_le(obj, max_boxes=args.max_boxes, time_limit=args.time_limit)
        rc = recheck(res, obj) if res.status == "proven" else None
        rows.append((ob.id, ob.domain, res.status + ("" if res.status == ob.expect else " (EXPECTED " + ob.expect + ")"),
                     res.n_boxes, tb, res.seconds, "ok" if rc and rc.ok else ("-" if rc is None else "REJECTED"),
                     rc.seconds if rc else 0.0))
        print(f"{rows[-1][0]:<45} {rows[-1][2]:<10} {rows[-1][3]:>8} boxes  build {tb:6.1f}s  prove {res.seconds:7.1f}s  "
              f"recheck {rows[-1][6]} {rows[-1][7]:.1f}s", flush=True)
    print()
    for pt in O.tight_points(1.0):
        t0 = time.perf_counter()
        en = O.tight_enclosure(pt["kind"], pt["shape"], pt["gamma"], pt["eta1"])
        t1 = time.perf_counter() - t0
        core = tight_epsilon(pt["noise"], pt["gamma"], pt["eta"])
        rc = recheck(en.proof, O.tight_objective(pt["kind"], pt["shape"], pt["gamma"], pt["eta1"]))
        agree = float(en.lower) <= core.upper + 1e-9 and core.lower <= float(en.upper) + 1e-9
        print(f"tight eps {pt['family']:<26} [{float(en.lower):.12f}, {float(en.upper):.12f}] width {float(en.width):.1e} "
              f"{en.n_boxes:>5} boxes {t1:5.1f}s  core [{core.lower:.12f}, {core.upper:.12f}] "
              f"{'agrees' if agree else 'DISAGREES'}  recheck {'ok' if rc.ok else 'REJECTED'}", flush=True)
    print()
    print(f"{'obligation':<45} | {'outcome':<10} | {'boxes':>8} | {'build s':>7} | {'prove s':>8} | recheck | domain")
    for r in rows:
        print(f"{r[0]:<45} | {r[2]:<10} | {r[3]:>8} | {r[4]:7.1f} | {r[5]:8.1f} | {r[6]:<7} | {r[1]}")


if __name__ == "__main__":
    main()
