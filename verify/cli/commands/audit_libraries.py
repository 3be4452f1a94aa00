"""``smoothsens audit-libraries``: audit the mechanisms of real DP libraries (the README table).

For each installed library of :mod:`verify.audit.adapters` (OpenDP, diffprivlib, python-dp) and
each of its mechanisms (Laplace, geometric / discrete Laplace, Gaussian), three or two claims are
audited with :func:`verify.audit.blackbox.audit_blackbox_mechanism` at the pair (0, unit):

* the library's own claim (eps, delta)                    -> expected PASS;
* eps halved (every mechanism)                            -> expected FAIL;
* delta understated 100x (approximate claims)             -> expected FAIL.

Columns: library, mechanism, claimed (eps, delta) at distance ``unit``, expected, verdict, the
statistical lower bound on eps (per ``unit``, valid at confidence 1 - ``--false-alarm``), whether
the library ignores the rng (then ``--seed`` does not reproduce the draws), time.  Libraries that are
not installed are listed as such.  Exit status 0 when every row came out as expected, 3 otherwise
(a correct claim refuted or a wrong claim not caught), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from verify.audit.adapters import LIBRARIES, library_subjects
from verify.audit.blackbox import audit_blackbox_mechanism
from verify.bounded_io import write_text_atomic
from verify.serialise import jsonable

__all__ = ["register", "run", "audit_libraries", "format_table"]

DEFAULT_BUDGET = 100_000


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "audit-libraries",
        help="audit the Laplace, geometric and Gaussian mechanisms of OpenDP, diffprivlib and python-dp",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--library", action="append", metavar="NAME",
                   help="only this library (opendp, diffprivlib, python-dp); repeatable")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help=f"draws per input (default {DEFAULT_BUDGET})")
    p.add_argument("--seed", type=int, default=0, help="seed of the audits (default 0)")
    p.add_argument("--false-alarm", type=float, default=1e-3, help="1 - confidence of the lower bounds (default 1e-3)")
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown (for the README)")
    p.add_argument("--json", type=Path, default=None, metavar="PATH", help="write the rows as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress messages on stderr")
    p.set_defaults(handler=run)


def _claims(subject: Any) -> list[tuple[str, float, float]]:
    """(expected, eps, delta) at distance ``unit``: the library's claim, then the wrong ones."""
    rows = [("PASS", subject.eps, subject.delta), ("FAIL", subject.eps / 2, subject.delta)]
    if subject.delta > 0:
        rows.append(("FAIL", subject.eps, subject.delta / 100))
    return rows


def audit_libraries(libraries: list[str] | None = None, *, budget: int = DEFAULT_BUDGET, seed: int = 0,
                    false_alarm: float = 1e-3, progress: Any = None) -> list[dict[str, Any]]:
    """One row per (library, mechanism, claim) (module docstring); libraries not installed give one
    row with verdict "not installed"."""
    say = progress or (lambda _m: None)
    names = libraries or list(LIBRARIES)
    bad = [n for n in names if n not in LIBRARIES]
    if bad:
        raise ValueError(f"--library must be one of {sorted(LIBRARIES)}; got {bad[0]!r}")
    rows: list[dict[str, Any]] = []
    for lib in names:
        try:
            subjects = library_subjects(lib)
        except ImportError as exc:
            rows.append({"library": lib, "mechanism": "-", "eps": None, "delta": None, "unit": None,
                         "expected": "-", "verdict": "not installed", "eps_lower": None, "ignores_rng": None,
                         "seconds": 0.0, "as_expected": True, "detail": str(exc)})
            continue
        for sub in subjects:
            for expected, eps, delta in _claims(sub):
                say(f"{lib} {sub.mechanism}: claim (eps={eps:g}, delta={delta:g}) at distance {sub.unit:g}")
                t0 = time.perf_counter()
                rep = audit_blackbox_mechanism(sub.release, eps / sub.unit, "euclidean", pairs=[sub.pair],
                                               claimed_delta=delta, budget=budget, false_alarm=false_alarm,
                                               rng=seed, Lambda=sub.unit,
                                               density=sub.density if sub.density is not None else False)
                verdict = {"pass": "PASS", "violated": "FAIL", "inconclusive": "INCONCLUSIVE"}[rep.outcome]
                rows.append({"library": lib, "mechanism": sub.mechanism, "parameters": sub.parameters,
                             "eps": eps, "delta": delta, "unit": sub.unit, "expected": expected, "verdict": verdict,
                             "eps_lower": rep.eps_lower * sub.unit,
                             "delta_lower": getattr(rep, "delta_lower", None) if delta > 0 else None,
                             "exact_certificate": rep.exact_certificate, "ignores_rng": bool(rep.rng_use and rep.rng_use.ignores_rng),
                             "exact_side": rep.exact_outcome, "seconds": time.perf_counter() - t0,
                             "as_expected": verdict == expected, "detail": rep.verdict_text()})
    return rows


def _f(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float) and math.isinf(v):
        return "-inf" if v < 0 else "inf"
    return f"{v:.4g}"


def format_table(rows: list[dict[str, Any]], markdown: bool) -> str:
    head = ["library", "mechanism", "claimed (eps, delta)", "expected", "verdict", "eps lower bound",
            "delta lower bound", "exact side", "rng", "time"]
    body = []
    for r in rows:
        claim = "-" if r["eps"] is None else f"({_f(r['eps'])}, {_f(r['delta'])})" + (
            f" at distance {_f(r['unit'])}" if r["unit"] not in (None, 1.0) else "")
        verdict = r["verdict"] + ("" if r["as_expected"] else " (NOT as expected)")
        rng = "-" if r["ignores_rng"] is None else ("ignored" if r["ignores_rng"] else "used")
        exact = r.get("exact_side") or "-"
        if r.get("exact_certificate"):
            exact += " (certified)"
        body.append([r["library"], r["mechanism"], claim, r["expected"], verdict, _f(r["eps_lower"]),
                     _f(r.get("delta_lower")), exact, rng, f"{r['seconds']:.1f} s"])
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines)
    w = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]
    fmt = "  ".join(f"{{:<{k}}}" for k in w)
    return "\n".join([fmt.format(*head), fmt.format(*("-" * k for k in w))] + [fmt.format(*row) for row in body])


def run(args: argparse.Namespace) -> int:
    """Handler of ``smoothsens audit-libraries``: 0 every row as expected, 3 otherwise."""
    if args.budget < 200:
        raise ValueError(f"--budget must be an integer >= 200; got {args.budget}")

    def say(msg: str) -> None:
        if not args.no_progress:
            print(f"[audit-libraries] {msg}", file=sys.stderr, flush=True)

    rows = audit_libraries(args.library, budget=args.budget, seed=args.seed, false_alarm=args.false_alarm,
                           progress=say)
    print(format_table(rows, args.markdown))
    wrong = [r for r in rows if not r["as_expected"]]
    print(f"\n{len(rows) - len(wrong)}/{len(rows)} rows as expected; budget {args.budget} draws per input, "
          f"confidence {1 - args.false_alarm:g}, seed {args.seed}")
    if args.json is not None:
        text = json.dumps(jsonable(rows), indent=2) + "\n"
        if args.json.exists() and not args.json.is_file():  # /dev/stdout, a pipe: written in place, never renamed over
            args.json.write_text(text, encoding="utf-8")
        else:  # a temporary file renamed over the target: an interrupted run leaves the old file whole
            write_text_atomic(args.json, text)
        print(f"wrote {args.json}")
    return 0 if not wrong else 3
