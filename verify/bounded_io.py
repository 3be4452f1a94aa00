"""Bounded reads and atomic writes for every file the CLI and the reports touch.

A path given on the command line may be a pipe, a device (``/dev/zero``, ``/dev/full``) or a file of
any size: :func:`read_text_bounded` reads at most ``max_bytes`` and raises a ``ValueError`` naming the
path and the limit instead of growing without bound.  :func:`write_text_atomic` writes a temporary
file in the same folder and renames it over the target, so an interrupted run never leaves a new
report beside an old one half-written.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_MAX_BYTES", "read_text_bounded", "read_json_bounded", "write_text_atomic"]

#: 64 MiB: far above any report, proof record or input table the tool writes itself.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


def read_text_bounded(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES,
                      what: str = "file") -> str:
    """The UTF-8 text of ``path``, read in full only if it holds at most ``max_bytes`` bytes.

    Raises ``ValueError`` (naming ``what``, the path and the limit) for a path that is not a regular
    file or FIFO, that is larger than the limit, or that is not UTF-8; ``FileNotFoundError`` as
    ``open`` does.
    """
    if max_bytes <= 0:
        raise ValueError(f"max_bytes must be positive; got max_bytes={max_bytes}")
    p = Path(path)
    st = os.stat(p)
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"{what} {str(p)!r} is a directory, not a file")
    if stat.S_ISREG(st.st_mode) and st.st_size > max_bytes:
        raise ValueError(f"{what} {str(p)!r} has {st.st_size} bytes; at most {max_bytes} are read")
    with open(p, "rb") as fh:
        raw = fh.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise ValueError(f"{what} {str(p)!r} holds more than {max_bytes} bytes; at most {max_bytes} are read")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{what} {str(p)!r} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_json_bounded(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES,
                      what: str = "JSON file") -> Any:
    """``json.loads`` of :func:`read_text_bounded`; malformed JSON raises ``ValueError`` naming the path."""
    text = read_text_bounded(path, max_bytes=max_bytes, what=what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} {str(path)!r} is not valid JSON: {exc.msg} (line {exc.lineno})") from None


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same folder, then ``os.replace``.

    A reader (or a run interrupted mid-write) sees either the old file or the whole new one.  The
    file keeps the permissions of the file it replaces (a new one gets 0o666 less the umask); a
    target that exists and is not a regular file (a device, a pipe) is written in place.
    """
    p = Path(path)
    try:
        st: os.stat_result | None = os.stat(p)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        # a device or a pipe (/dev/stdout, a FIFO): written in place, never renamed over
        with open(p, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        return
    p.parent.mkdir(parents=True, exist_ok=True)
    if st is not None:
        mode = stat.S_IMODE(st.st_mode)
    else:  # what open() would give a new file: 0o666 less the umask
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
