"""The ``smoothsens`` command line (subcommands are discovered in :mod:`verify.cli.commands`)."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from typing import Sequence

from smoothsens_core import __version__

from . import commands

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="smoothsens",
        description=(
            "Derive, calibrate and audit smooth-sensitivity privacy mechanisms "
            "(differential privacy, Geo-Privacy, asymmetric DP)."
        ),
    )
    parser.add_argument("--version", action="version", version=f"smoothsens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"verify.cli.commands.{info.name}")
        mod.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``smoothsens`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    try:
        return int(handler(args) or 0)
    except BrokenPipeError:
        # The reader went away (`smoothsens calibrate | head`): not an error of ours.  Point stdout
        # at devnull so the interpreter's final flush does not raise again (Python docs, "Note on
        # SIGPIPE").
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        # Ctrl-C: one line and the shell's status for SIGINT (128 + 2), no traceback.  The executors
        # have ended their worker processes on the way out (verify.parallel.Executor.terminate), and
        # the reports are written atomically (verify.claims.runner.AuditReport.write): nothing half done
        # is left behind.
        print(f"smoothsens {args.command}: interrupted", file=sys.stderr)
        return 130
    except (ValueError, TypeError, KeyError, OSError) as exc:
        # User errors (and a path that cannot be read or written: a missing file, a full disk,
        # /dev/full) get one clear line, not a traceback.
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"smoothsens {args.command}: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
