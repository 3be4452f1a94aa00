"""Boxes and seconds of the rigorous proofs of verify.proof (a benchmark, not a test).

Run as ``python3 benchmarks/bench_proof.py`` (the small "test" parameter boxes, the tight eps
enclosures at the points of ``tight_table(1.0)`` and the controls), with ``--full`` (the parameter
boxes stated in ``verify.proof.obligations.catalogue("full")``, used by ``smoothsens audit
--prove-all``; minutes to hours) or ``--scale both`` (test, then full).  Every proof is re-checked
by ``verify.proof.recheck``; the table gives, per claim of ``verify.claims.sets.proofs``, the
outcome, the number of boxes, the seconds of the build (SymPy -> arb), of the proof and of the
re-check; and, for the proofs that are chains of steps with their own re-checker
(``METHOD_RECHECKERS``: 004 Def. 8 for the ramp forms and the KDE closed form, ...), the seconds of
``prove()`` and of the re-check.
"""

from __future__ import annotations

import argparse
import importlib
import time

from smoothsens_core.calibration.tight import tight_epsilon
from verify.claims.sets.proofs import METHOD_RECHECKERS, PAPER_OBLIGATIONS, PLANTED, TIGHT
from verify.proof import obligations as O
from verify.proof.prover import prove_le, prove_switching
from verify.proof.recheck import recheck, recheck_switching


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="the full parameter boxes (same as --scale full)")
    ap.add_argument("--scale", choices=("test", "full", "both"), default=None,
                    help="parameter boxes: test (default), full, or both")
    ap.add_argument("--max-boxes", type=int, default=400_000)
    ap.add_argument("--time-limit", type=float, default=1800.0, help="seconds per obligation")
    args = ap.parse_args()

    claim_of = {s.obligation: s.id for s in PAPER_OBLIGATIONS} | {p[0]: p[1] for p in PLANTED}
    scale_arg = args.scale or ("full" if args.full else "test")
    scales = ("test", "full") if scale_arg == "both" else (scale_arg,)
    rows = []
    for scale, ob in [(sc, ob) for sc in scales for ob in O.catalogue(sc)] + [("-", ob) for ob in O.controls()]:
        t0 = time.perf_counter()
        obj = ob.build()
        tb = time.perf_counter() - t0
        if ob.method == "convex-switching":  # a tangency: the convex switching lemma (prove_switching)
            res = prove_switching(obj, ob.split, max_boxes=args.max_boxes, time_limit=args.time_limit)
            rc = recheck_switching(res.to_json(), obj) if res.status == "proven" else None
        else:
            res = prove_le(obj, max_boxes=args.max_boxes, time_limit=args.time_limit)
            rc = recheck(res, obj) if res.status == "proven" else None
        rows.append((f"{claim_of.get(ob.id, ob.id)} [{scale}]", ob.domain, res.status + ("" if res.status == ob.expect else " (EXPECTED " + ob.expect + ")"),
                     res.n_boxes, tb, res.seconds, "ok" if rc and rc.ok else ("-" if rc is None else "REJECTED"),
                     rc.seconds if rc else 0.0))
        print(f"{rows[-1][0]:<55} {rows[-1][2]:<10} {rows[-1][3]:>8} boxes  build {tb:6.1f}s  prove {res.seconds:7.1f}s  "
              f"recheck {rows[-1][6]} {rows[-1][7]:.1f}s", flush=True)
    print()
    tight_claim = {t[0]: t[1] for t in TIGHT}
    for pt in O.tight_points(1.0):
        t0 = time.perf_counter()
        en = O.tight_enclosure(pt["kind"], pt["shape"], pt["gamma"], pt["eta1"])
        t1 = time.perf_counter() - t0
        core = tight_epsilon(pt["noise"], pt["gamma"], pt["eta"])
        rc = recheck(en.proof, O.tight_objective(pt["kind"], pt["shape"], pt["gamma"], pt["eta1"]))
        agree = float(en.lower) <= core.upper + 1e-9 and core.lower <= float(en.upper) + 1e-9
        print(f"{tight_claim[pt['family']]:<36} [{float(en.lower):.12f}, {float(en.upper):.12f}] width {float(en.width):.1e} "
              f"{en.n_boxes:>5} boxes {t1:5.1f}s  core [{core.lower:.12f}, {core.upper:.12f}] "
              f"{'agrees' if agree else 'DISAGREES'}  recheck {'ok' if rc.ok else 'REJECTED'}", flush=True)
    print()
    # the proofs that are chains of steps with their own re-checker (METHOD_RECHECKERS), each proven and
    # re-checked once here: SymPy steps / enumerated cases / the interval obligations they rest on

    for method, (module, _) in METHOD_RECHECKERS.items():
        mod = importlib.import_module(module)
        # the proof modules of verify.proof with a whole-proof prove() (not the per-claim symbolic specs, nor
        # the claim-level records assembled in verify.claims.sets)
        if not module.startswith("verify.proof.") or not hasattr(mod, "prove"):
            continue
        t0 = time.perf_counter()
        rec = mod.prove()
        t1 = time.perf_counter() - t0
        rc = mod.recheck(rec)
        steps = rec.get("steps") or []
        print(f"{method:<20} {rec.get('status', '?'):<8} {len(steps):>3} steps, {rc.n_boxes:>5} checks/boxes re-checked  "
              f"prove {t1:5.2f}s  recheck {'ok' if rc.ok else 'REJECTED'} {rc.seconds:5.2f}s", flush=True)
    print()
    print(f"{'claim [scale]':<55} | {'outcome':<10} | {'boxes':>8} | {'build s':>7} | {'prove s':>8} | recheck | domain")
    for r in rows:
        print(f"{r[0]:<55} | {r[2]:<10} | {r[3]:>8} | {r[4]:7.1f} | {r[5]:8.1f} | {r[6]:<7} | {r[1]}")


if __name__ == "__main__":
    main()
