"""verify.bounded_io: bounded reads and atomic writes."""

from __future__ import annotations

import os
import stat

import pytest

from verify.bounded_io import read_json_bounded, read_text_bounded, write_text_atomic


def test_read_text_bounded_refuses_a_device_without_reading_it_whole():
    with pytest.raises(ValueError, match="more than 1000 bytes"):
        read_text_bounded("/dev/zero", max_bytes=1000)


def test_read_text_bounded_refuses_oversize_files_and_directories(tmp_path):
    f = tmp_path / "big.txt"
    f.write_text("x" * 2000)
    with pytest.raises(ValueError, match="2000 bytes; at most 100"):
        read_text_bounded(f, max_bytes=100)
    with pytest.raises(ValueError, match="is a directory"):
        read_text_bounded(tmp_path)
    with pytest.raises(ValueError, match="max_bytes must be positive"):
        read_text_bounded(f, max_bytes=0)


def test_read_json_bounded_names_the_path_of_malformed_json(tmp_path):
    f = tmp_path / "r.json"
    f.write_text("{not json")
    with pytest.raises(ValueError, match="is not valid JSON"):
        read_json_bounded(f)


def test_write_text_atomic_replaces_keeping_the_mode_and_leaves_no_temp_file(tmp_path):
    f = tmp_path / "report.md"
    f.write_text("old")
    os.chmod(f, 0o640)
    write_text_atomic(f, "new")
    assert f.read_text() == "new"
    assert stat.S_IMODE(os.stat(f).st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_write_text_atomic_new_file_gets_the_umask_mode(tmp_path):
    umask = os.umask(0o022)
    try:
        write_text_atomic(tmp_path / "sub" / "a.json", "{}")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(os.stat(tmp_path / "sub" / "a.json").st_mode) == 0o644


def test_write_text_atomic_writes_a_fifo_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_text_atomic(fifo, "through the pipe")
        assert os.read(r, 100) == b"through the pipe"
    finally:
        os.close(r)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
