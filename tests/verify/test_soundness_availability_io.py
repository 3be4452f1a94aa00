"""Availability and integrity of the CLI's files and processes: bounded reads of user-supplied paths,
reports written as a consistent pair, Ctrl-C ending with status 130, one line and no worker left behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import verify.bounded_io as bounded_io
import verify.claims.runner as runner
import verify.cli.commands.calibrate as calibrate
from verify.claims import CheckContext, CheckKind, Claim, ClaimResult, Verdict
from verify.claims.runner import AuditEntry, AuditReport, previous_timings
from verify.cli import main
from verify.cli.commands.sensitivity import read_points
from verify.experiments.runner import ExperimentResult

#: 3 GiB of address space: an unbounded read fails in the child, not the machine
_LIMITED = "import resource\nresource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"


def _run_limited(body: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-c", _LIMITED + body],
                          capture_output=True, text=True, timeout=timeout, env=env)


# ---- bounded reads -------------------------------------------------------------------------------

@pytest.mark.parametrize("device", ["/dev/zero", "/dev/full"])
def test_previous_timings_reads_nothing_from_a_device(device: str) -> None:
    """``audit --json /dev/full`` read the device whole before the run (endless zeros)."""
    if not os.path.exists(device):
        pytest.skip(f"{device} not present")
    t0 = time.perf_counter()
    r = _run_limited(f"from verify.claims import CheckContext\n"
                     f"from verify.claims.runner import previous_timings\n"
                     f"print('hint', previous_timings({device!r}, CheckContext()))")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "hint None" in r.stdout
    assert time.perf_counter() - t0 < 60.0


def test_previous_timings_reads_a_regular_report_and_ignores_an_oversize_one(tmp_path: Path) -> None:
    ctx = CheckContext(budget=0.1)
    path = tmp_path / "verdicts.json"
    path.write_text(json.dumps({"context": {"budget": 0.1, "prove_all": False},
                                "claims": [{"id": "a", "seconds": 2.0}]}))
    assert previous_timings(path, ctx) == {"a": 2.0}
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:  # sparse: 65 MiB of zeros over the 64 MiB limit, without writing them
        fh.truncate(65 * 1024 * 1024)
    assert previous_timings(big, ctx) is None
    assert previous_timings(tmp_path, ctx) is None  # a directory


def test_sensitivity_input_from_a_device_is_rejected_without_reading_it(tmp_path: Path) -> None:
    """``sensitivity --input`` read its first line with ``readline`` (no newline in /dev/zero: without
    bound), then the whole file with ``np.loadtxt``."""
    link = tmp_path / "points.csv"
    link.symlink_to("/dev/zero")
    r = _run_limited(f"from verify.cli.commands.sensitivity import read_points\n"
                     f"try:\n"
                     f"    read_points({str(link)!r})\n"
                     f"except ValueError as exc:\n"
                     f"    print('rejected:', exc)\n")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "rejected:" in r.stdout and "not a regular file" in r.stdout


def test_sensitivity_input_over_the_limit_is_rejected_and_under_it_read(tmp_path: Path) -> None:
    pts = tmp_path / "p.csv"
    pts.write_text("x\n" + "\n".join(f"{v:.3f}" for v in np.linspace(0, 1, 200)) + "\n")
    assert read_points(str(pts)).shape == (200, 1)
    with pytest.raises(ValueError, match=r"--input .* at most 100 are read"):
        read_points(str(pts), max_bytes=100)
    npy = tmp_path / "p.npy"
    np.save(npy, np.ones((300, 2)))
    assert read_points(str(npy)).shape == (300, 2)
    with pytest.raises(ValueError, match=r"--input .* at most 1000 are read"):
        read_points(str(npy), max_bytes=1000)


def test_cli_json_to_a_full_device_is_one_error_line_not_a_traceback(tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("/dev/full not present")
    r = subprocess.run([sys.executable, "-c", _LIMITED + "import sys; from verify.cli import main; "
                        "sys.exit(main(sys.argv[1:]))", "audit", "--claim", "004-Sec-3.1.2-growth-axioms",
                        "--no-planted", "--no-progress", "--out", str(tmp_path), "--json", "/dev/full"],
                       capture_output=True, text=True, timeout=300)
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    assert r.returncode == 2 and "No space left on device" in r.stderr
    assert os.path.exists("/dev/full") and not Path("/dev/full").is_file()  # the device was not replaced


# ---- the report pair -----------------------------------------------------------------------------

def _report(summary: str) -> AuditReport:
    claim = Claim(id="004-Lemma-4.1", seed="004", section="s", statement="st", kind=CheckKind.NUMERIC,
                  check=lambda ctx: ClaimResult(Verdict.VERIFIED, "x", {}, ""))
    return AuditReport([AuditEntry(claim, ClaimResult(Verdict.VERIFIED, summary, {}, ""))], CheckContext())


def test_report_pair_is_never_a_new_markdown_beside_an_old_json(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted while the second report was being prepared, the old code left the new report.md
    beside the old verdicts.json; now the JSON is complete and renamed first, the Markdown after it."""
    md, js = tmp_path / "report.md", tmp_path / "verdicts.json"
    _report("OLD-RUN").write(md, js)
    old_md, old_js = md.read_text(), js.read_text()
    new = _report("NEW-RUN")

    def interrupted(*_a: object, **_k: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(AuditReport, "to_json", interrupted)
    with pytest.raises(KeyboardInterrupt):
        new.write(md, js)
    assert md.read_text() == old_md and js.read_text() == old_js  # both old
    monkeypatch.undo()

    # interrupted between the two renames: the new JSON beside the old Markdown, never the reverse
    real_replace = os.replace
    calls: list[str] = []

    def replace_once(src: str, dst: str | os.PathLike[str]) -> None:
        calls.append(str(dst))
        if len(calls) == 2:
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(runner.os, "replace", replace_once)
    with pytest.raises(KeyboardInterrupt):
        new.write(md, js)
    monkeypatch.undo()
    assert calls[0] == str(js)
    assert "NEW-RUN" in js.read_text() and md.read_text() == old_md
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md", "verdicts.json"]  # no temp file left

    assert new.write(md, js) == [md, js]
    assert "NEW-RUN" in md.read_text() and "NEW-RUN" in js.read_text()
    # a new report gets the permissions open() would give it (not the temporary file's 0600)
    fresh = tmp_path / "fresh" / "verdicts.json"
    new.write(None, fresh)
    mask = os.umask(0)
    os.umask(mask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~mask


# ---- Ctrl-C --------------------------------------------------------------------------------------

def test_keyboard_interrupt_in_any_command_exits_130_with_one_line(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(_args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(calibrate, "run", interrupted)
    try:
        status = main(["calibrate", "--eps", "1"])
    except KeyboardInterrupt:
        pytest.fail("KeyboardInterrupt escaped verify.cli.main (a traceback for the user)")
    assert status == 130
    err = capsys.readouterr().err
    assert err.strip() == "smoothsens calibrate: interrupted"


_POOL_SCRIPT = textwrap.dedent("""
    import sys, time
    from verify.parallel import LocalPoolExecutor
    with LocalPoolExecutor(2) as ex:
        print(" ".join(map(str, ex.pids())), flush=True)
        ex.map(time.sleep, [(60.0,)] * 4, label="sleep")
""")


@pytest.mark.parametrize("to_workers", [False, True], ids=["parent-only", "process-group"])
def test_ctrl_c_ends_the_pool_workers_at_once_without_their_tracebacks(to_workers: bool) -> None:
    """SIGINT to the parent (``kill -INT``; a terminal's Ctrl-C also reaches the workers): the pool's
    workers are ended at once, not after their tasks (60 s each here), and print no traceback."""
    proc = subprocess.Popen([sys.executable, "-c", _POOL_SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        pids = [int(v) for v in proc.stdout.readline().split()]
        assert len(pids) == 2
        time.sleep(1.0)
        t0 = time.perf_counter()
        for pid in [proc.pid, *(pids if to_workers else [])]:
            os.kill(pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert time.perf_counter() - t0 < 20.0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    time.sleep(0.5)
    alive = [p for p in pids if os.path.exists(f"/proc/{p}") and "Z" not in _state(p)]
    assert alive == []
    assert err.count("Traceback") <= 1  # the parent's own KeyboardInterrupt only, none from the workers
    assert "KeyboardInterrupt" in err


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return "Z"


# ---- the other tables the CLI writes -------------------------------------------------------------

def test_experiment_table_is_written_atomically_and_in_place_on_a_device(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    res = ExperimentResult.__new__(ExperimentResult)
    object.__setattr__(res, "rows", [{"a": 1.0, "b": "x"}])
    out = tmp_path / "t.csv"
    out.write_text("OLD\n")

    def interrupted(*_a: object, **_k: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(bounded_io.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        res.to_csv(out)
    monkeypatch.undo()
    assert out.read_text() == "OLD\n"  # interrupted: the old table whole, never a truncated one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"]
    assert res.to_csv(out) == out and out.read_text().splitlines() == ["a,b", "1,x"]
    assert res.to_csv(Path("/dev/null")) == Path("/dev/null") and not Path("/dev/null").is_file()
