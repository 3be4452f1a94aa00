"""``smoothsens regenerate [--check] [--out DIR]``: write or check ``smoothsens_core/_generated``.

Runs the code generator of :mod:`derivations.codegen` over every derivation module defining
``codegen_targets()``.  Without ``--check`` it writes the generated modules (into ``--out`` or the
package's ``_generated`` folder) and lists the files it changed.  With ``--check`` it regenerates
into a temporary folder, compares, and exits 1 with a unified diff and the command that updates
the files when they are out of date (0 when up to date).
"""

from __future__ import annotations

import argparse
import sys
import time

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "regenerate",
        help="regenerate smoothsens_core/_generated from the SymPy derivations",
        description=(
            "Regenerate the NumPy evaluators in smoothsens_core/_generated from the SymPy derivations "
            "(derivations/*.py defining codegen_targets()). With --check, only compare and show a diff."
        ),
    )
    p.add_argument("--check", action="store_true", help="do not write; exit 1 with a diff if the files are out of date")
    p.add_argument("--out", metavar="DIR", default=None, help="output folder (default: the package's _generated folder)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from derivations.codegen import (  # noqa: PLC0415 - cost: SymPy's code generation loads only for this command
        REGENERATE_COMMAND,
        check_generated,
        default_output_dir,
        discover_targets,
        write_generated,
    )

    out = args.out if args.out is not None else default_output_dir()
    t0 = time.perf_counter()
    print("smoothsens regenerate: running the SymPy derivations (about 2 minutes on 2 cores)", file=sys.stderr)

    def step(module: str) -> None:
        print(f"  [{time.perf_counter() - t0:6.1f} s] {module}", file=sys.stderr, flush=True)

    targets = discover_targets(progress=step)
    if args.check:
        ok, report = check_generated(out, targets)
        if ok:
            print(f"smoothsens regenerate --check: {report.strip()} ({out}; {time.perf_counter() - t0:.1f} s)")
            return 0
        sys.stdout.write(report)
        cmd = REGENERATE_COMMAND + (f" --out {args.out}" if args.out is not None else "")
        print(f"smoothsens regenerate --check: out of date; update with `{cmd}`", file=sys.stderr)
        return 1
    changed = write_generated(out, targets)
    for path in changed:
        print(f"wrote {path}")
    print(f"smoothsens regenerate: {len(changed)} file(s) changed in {out} ({time.perf_counter() - t0:.1f} s)")
    return 0
