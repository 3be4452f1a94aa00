"""argparse ``type`` converters shared by the subcommands of :mod:`verify.cli.commands`."""

from __future__ import annotations

import argparse
from typing import Callable

__all__ = ["int_at_least"]


def int_at_least(minimum: int, words: str | None = None) -> Callable[[str], int]:
    """An argparse ``type``: the integer written in the string, at least ``minimum``; otherwise an
    ArgumentTypeError "must be <words>; got ..." (``words`` defaults to "an integer >= minimum")."""
    words = f"an integer >= {minimum}" if words is None else words

    def parse(s: str) -> int:
        try:
            v = int(s)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {words}; got {s!r}") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"must be {words}; got {v}")
        return v

    return parse
