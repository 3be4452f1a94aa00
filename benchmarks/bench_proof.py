"""Boxes and seconds of the rigorous proofs of verify.proof (a benchmark, not a test).

Run as ``python3 benchmarks/bench_proof.py`` (the small "test" parameter boxes, the tight eps
enclosures at the points of ``tight_table(1.0)`` and the controls), with ``--full`` (the parameter
boxes stated in ``verify.proof.obligations.catalogue("full")``, used by ``smoothsens audit
--prove-all``; minutes to hours) or ``--scale both`` (test, then full).  Every proof is re-checked
by ``verify.proof.recheck``; the table gives, per claim of ``verify.claims.sets.proofs``, the
outcome, the number of boxes, the seconds of the build (SymPy -> arb), of the proof and of the
re-check; and, for the proofs that are chains of steps with their own re-checker
(registered in ``verify.proof.record``: 004 Def. 8 for the ramp forms and the KDE closed form, ...), the seconds of
``prove()`` and of the re-check.

A last section times the re-check of every proven branch-and-bound record twice: with the
interpreter of :mod:`verify.proof.ball_eval` (``ball_eval.interpreted()``, what
``SMOOTHSENS_BALL_EVAL=interpret`` selects) and with the compiled evaluator
(:mod:`verify.proof.ball_compile`, the default), each from empty memos, in CPU seconds, and says
whether the two re-checks agree (outcome, problems, boxes).  ``--only PREFIX`` restricts the
obligations (repeatable), ``--no-chains`` leaves out the chain proofs and tight enclosures.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import time
from typing import Any

from smoothsens_core.calibration.tight import tight_epsilon
import verify.proof
from verify.claims.sets.proofs import PAPER_OBLIGATIONS, PLANTED, TIGHT
from verify.proof import ball_compile, ball_eval
from verify.proof import obligations as O
from verify.proof.prover import prove_le, prove_switching
from verify.proof.record import is_registered, method_named
from verify.proof.recheck import recheck, recheck_switching


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="the full parameter boxes (same as --scale full)")
    ap.add_argument("--scale", choices=("test", "full", "both"), default=None,
                    help="parameter boxes: test (default), full, or both")
    ap.add_argument("--max-boxes", type=int, default=400_000)
    ap.add_argument("--time-limit", type=float, default=1800.0, help="seconds per obligation")
    ap.add_argument("--only", action="append", default=[], metavar="PREFIX",
                    help="only the obligations whose id starts with PREFIX (repeatable)")
    ap.add_argument("--no-chains", action="store_true",
                    help="leave out the tight enclosures and the chain proofs (their own re-checkers)")
    args = ap.parse_args()

    claim_of = {s.obligation: s.id for s in PAPER_OBLIGATIONS} | {p[0]: p[1] for p in PLANTED}
    scale_arg = args.scale or ("full" if args.full else "test")
    scales = ("test", "full") if scale_arg == "both" else (scale_arg,)
    rows = []
    timing: list[tuple[str, Any, Any, Any]] = []  # (name, record, objective, split) of every proven record
    selected = [(sc, ob) for sc in scales for ob in O.catalogue(sc)] + [("-", ob) for ob in O.controls()]
    if args.only:
        selected = [(sc, ob) for sc, ob in selected if any(ob.id.startswith(p) for p in args.only)]
    for scale, ob in selected:
        t0 = time.perf_counter()
        obj = ob.build()
        tb = time.perf_counter() - t0
        res: Any
        if ob.method == "convex-switching":  # a tangency: the convex switching lemma (prove_switching)
            assert ob.split is not None, ob.id
            res = prove_switching(obj, ob.split, max_boxes=args.max_boxes, time_limit=args.time_limit)
            rc = recheck_switching(res.to_json(), obj) if res.status == "proven" else None
        else:
            res = prove_le(obj, max_boxes=args.max_boxes, time_limit=args.time_limit)
            rc = recheck(res, obj) if res.status == "proven" else None
        if res.status == "proven":
            timing.append((f"{claim_of.get(ob.id, ob.id)} [{scale}]", res.to_json(), obj,
                           ob.split if ob.method == "convex-switching" else None))
        rows.append((f"{claim_of.get(ob.id, ob.id)} [{scale}]", ob.domain, res.status + ("" if res.status == ob.expect else " (EXPECTED " + ob.expect + ")"),
                     res.n_boxes, tb, res.seconds, "ok" if rc and rc.ok else ("-" if rc is None else "REJECTED"),
                     rc.seconds if rc else 0.0))
        print(f"{rows[-1][0]:<55} {rows[-1][2]:<10} {rows[-1][3]:>8} boxes  build {tb:6.1f}s  prove {res.seconds:7.1f}s  "
              f"recheck {rows[-1][6]} {rows[-1][7]:.1f}s", flush=True)
    print()
    if not args.no_chains:
        _tight_and_chains()
    print(f"{'claim [scale]':<55} | {'outcome':<10} | {'boxes':>8} | {'build s':>7} | {'prove s':>8} | recheck | domain")
    for r in rows:
        print(f"{r[0]:<55} | {r[2]:<10} | {r[3]:>8} | {r[4]:7.1f} | {r[5]:8.1f} | {r[6]:<7} | {r[1]}")
    print()
    _recheck_timing(timing)


def _recheck_timing(timing: list[tuple[str, Any, Any, Any]]) -> None:
    """Each proven record re-checked by the interpreter and by the compiled evaluator (CPU seconds)."""
    print("re-check of the proven records: interpreter (ball_eval.interpreted()) vs compiled (default), CPU s")
    print(f"{'claim [scale]':<55} | {'boxes':>7} | {'interpreted s':>13} | {'compiled s':>10} | {'speed-up':>8} | agree")
    tot = [0.0, 0.0]
    for name, record, obj, split in timing:
        outs, secs = [], []
        for flag in (True, False):
            ball_compile.clear_caches()
            with ball_eval.interpreted(flag):
                t0 = time.process_time()
                rc = recheck_switching(record, obj) if split is not None else recheck(record, obj)
                secs.append(time.process_time() - t0)
            outs.append((rc.ok, tuple(rc.problems), rc.n_boxes))
        tot[0] += secs[0]
        tot[1] += secs[1]
        print(f"{name:<55} | {outs[1][2]:>7} | {secs[0]:13.2f} | {secs[1]:10.2f} | {secs[0] / max(secs[1], 1e-9):7.1f}x | "
              f"{'yes' if outs[0] == outs[1] else 'NO: ' + repr(outs)}", flush=True)
    print(f"{'total':<55} | {'':>7} | {tot[0]:13.2f} | {tot[1]:10.2f} | {tot[0] / max(tot[1], 1e-9):7.1f}x |")


def _tight_and_chains() -> None:
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
    # the proofs that are chains of steps with their own registered re-checker (verify.proof.record), each
    # proven and re-checked once here: SymPy steps / enumerated cases / the interval obligations they rest
    # on; the proof modules of verify.proof with a whole-proof prove() and the claim it proves (not the
    # per-claim symbolic specs, nor the claim-level records assembled in verify.claims.sets)
    for info in pkgutil.iter_modules(verify.proof.__path__):
        mod = importlib.import_module(f"verify.proof.{info.name}")
        method = getattr(mod, "METHOD", None)
        if not (isinstance(method, str) and is_registered(method) and callable(getattr(mod, "prove", None))
                and isinstance(getattr(mod, "CLAIM", None), str)):
            continue
        t0 = time.perf_counter()
        rec = mod.prove()
        t1 = time.perf_counter() - t0
        t0 = time.perf_counter()
        out = method_named(method).recheck(rec, mod.CLAIM)
        t2 = time.perf_counter() - t0
        steps = rec.get("steps") or []
        print(f"{method:<20} {rec.get('status', '?'):<8} {len(steps):>3} steps, {getattr(out, 'n_boxes', 0):>5} "
              f"checks/boxes re-checked  prove {t1:5.2f}s  recheck {'ok' if out.ok else 'REJECTED'} {t2:5.2f}s",
              flush=True)
    print()


if __name__ == "__main__":
    main()
