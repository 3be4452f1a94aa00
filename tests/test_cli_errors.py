"""CLI input errors a newcomer meets: each gets one line naming the user's parameter."""

from __future__ import annotations

import subprocess
import sys

import pytest

from verify.cli import main


def _err(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    return exc.value.code, capsys.readouterr().err


def test_experiment_rejects_negative_eps_naming_eps(capsys):
    code, err = _err(capsys, ["experiment", "one-way", "--quick", "--eps=-1"])
    assert code == 2 and "argument --eps: values must be > 0; got -1" in err and "tau" not in err


def test_experiment_rejects_non_numeric_eps_readably(capsys):
    code, err = _err(capsys, ["experiment", "one-way", "--quick", "--eps", "abc"])
    assert code == 2 and "expected comma-separated numbers" in err and "_floats" not in err


@pytest.mark.parametrize("content, what", [("", "is empty"), ("x1\n", "holds no points")])
def test_sensitivity_rejects_empty_or_header_only_csv(tmp_path, capsys, content, what):
    src = tmp_path / "points.csv"
    src.write_text(content)
    rc = main(["sensitivity", "threshold", "--input", str(src), "--output", str(tmp_path / "o.csv"),
               "--gamma", "0.1", "--tau", "1", "--T", "0"])
    err = capsys.readouterr().err
    assert rc == 2 and what in err and "zero-size array" not in err


def test_closed_pipe_is_not_a_traceback():
    """`smoothsens calibrate ... | head`: the reader has gone when the table is written; the command
    ends quietly (no BrokenPipeError traceback).  The read end is closed before the interpreter has
    even started, so the write always meets a closed pipe."""
    proc = subprocess.Popen([sys.executable, "-m", "verify.cli", "calibrate", "--eps", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert "BrokenPipeError" not in err and "Traceback" not in err, err
    assert proc.returncode == 0
