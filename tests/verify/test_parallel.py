"""Parallel backends (issues 17, 18): the same report serially, on a local process pool (the audit's
--quick/--workers path) and on a Dask LocalCluster, even when a worker is killed mid-run; seeds per
chunk independent of scheduling; longest claims first."""

from __future__ import annotations

import json
import os
import signal

import numpy as np
import pytest

from verify import parallel
from verify.claims import CheckContext
from verify.claims.runner import run_audit, select_claims

distributed = pytest.importorskip("distributed", reason="the [dask] extra is part of the test extra")

CTX = CheckContext(seed=20261122, budget=0.1, dps=50)


def _claims():
    # Paper 000: nine claims of every kind (symbolic, numeric, property), about 10 s serially.
    return select_claims(papers=["000"])


def _untimed(v):
    """``v`` without timing fields: any key "seconds" or "seconds_*", at any depth (a claim's time, a
    proof's build or re-check time)."""
    if isinstance(v, dict):
        return {k: _untimed(t) for k, t in v.items() if k != "seconds" and not k.startswith("seconds_")}
    if isinstance(v, list):
        return [_untimed(t) for t in v]
    return v


def _stable(report) -> dict:
    """The report's JSON without its timing and run fields (seconds, start time, backend)."""
    d = json.loads(json.dumps(report.to_json(), default=str))
    for k in ("started", "run"):
        d.pop(k)
    return _untimed(d)


def test_spawned_seeds_depend_only_on_master_seed_and_index():
    a = [np.random.default_rng(s).random() for s in parallel.spawn_seeds(7, 4)]
    b = [np.random.default_rng(s).random() for s in parallel.spawn_seeds(7, 4)]
    c = [np.random.default_rng(s).random() for s in parallel.spawn_seeds(8, 4)]
    assert a == b and a != c and len(set(a)) == 4


def test_without_dask_workers_fall_back_to_serial_and_say_how(monkeypatch, capsys):
    monkeypatch.setattr(parallel, "dask_available", lambda: False)
    ex = parallel.get_executor(None, 2)
    assert isinstance(ex, parallel.SerialExecutor)
    assert "pip install 'smoothsens[dask]'" in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"need dask.distributed.*smoothsens\[dask\]"):
        parallel.get_executor("tcp://127.0.0.1:1", 1)


@pytest.fixture(scope="module")
def serial():
    return run_audit(_claims(), CTX, workers=1, progress=False)


@pytest.mark.long
def test_local_cluster_report_equals_serial_report(serial):
    with parallel.DaskExecutor(None, 2) as ex:
        dask = run_audit(_claims(), CTX, executor=ex, progress=False)
    assert serial.backend == "serial" and dask.backend.startswith("dask LocalCluster")
    assert _stable(dask) == _stable(serial)


def test_local_pool_report_equals_serial_report(serial):
    claims = _claims()
    with parallel.LocalPoolExecutor(2) as ex:
        assert ex.method == "fork" or ex.method in ("forkserver", "spawn")
        assert len(ex.pids()) == 2  # every worker started before the first task
        pooled = run_audit(claims, CTX, executor=ex, progress=False)
    assert pooled.backend.startswith("local process pool (2 worker(s)")
    assert _stable(pooled) == _stable(serial)
    # the audit's own local path (workers > 1, no scheduler) is this pool, not a Dask cluster
    own = run_audit(claims[:3], CTX, workers=2, progress=False)
    assert own.backend.startswith("local process pool") and own.workers == 2


def test_local_pool_runs_tasks_of_one_affinity_key_on_one_worker():
    import time

    with parallel.LocalPoolExecutor(2) as ex:
        # first round: task 0 (key A) and the first task of another key, task 1 (B); each worker then
        # takes the next task of its own key, whichever finishes first (FIFO would split them at random)
        out = ex.map(time.sleep, [(0.5,)] * 4, label="t", affinity=["A", "B", "A", "B"])
        assert out == [None] * 4
        a0, b0, a1, b1 = ex.ran_on
        assert a0 == a1 and b0 == b1 and a0 != b0
        ex.map(time.sleep, [(0.0,)] * 3, label="t")  # no affinity: every task its own key
        with pytest.raises(ValueError, match="one key per task"):
            ex.map(time.sleep, [(0.0,)] * 2, affinity=["A"])


class _KillPoolOnce(parallel.LocalPoolExecutor):
    """A local pool that SIGKILLs one of its worker processes after the first task finishes."""

    def map(self, fn, tasks, *, label="task", progress=None, affinity=None):
        self.killed = []

        def hook(i, res):
            if not self.killed:
                pid = self.pids()[0]
                os.kill(pid, signal.SIGKILL)
                self.killed.append(pid)
            if progress is not None:
                progress(i, res)

        return super().map(fn, tasks, label=label, progress=hook, affinity=affinity)


def test_killed_pool_worker_mid_run_gives_the_identical_report(serial):
    with _KillPoolOnce(2) as ex:
        report = run_audit(_claims(), CTX, executor=ex, progress=False)
        killed = ex.killed
    assert killed, "the test did not kill a worker"
    assert _stable(report) == _stable(serial)
    assert sum(e.internal_error for e in report.entries) == 0
    assert any("worker process died" in ev for ev in report.events), report.events


def test_pool_gives_up_when_workers_keep_dying():
    with parallel.LocalPoolExecutor(1, retries=1) as ex:
        with pytest.raises(RuntimeError, match="worker processes kept dying"):
            ex.map(os._exit, [(3,)], label="t")  # the task ends its worker process
        assert len(ex.events) == 2 and "worker process died" in ex.events[0]


class _KillOnce(parallel.DaskExecutor):
    """A LocalCluster executor that SIGKILLs one worker process after the first task finishes."""

    killed: list[str]

    def map(self, fn, tasks, *, label="task", progress=None):
        self.killed = []

        def hook(i, res):
            if not self.killed:
                pids = self.client.run(os.getpid)  # worker address -> pid
                addr, pid = sorted(pids.items())[0]
                os.kill(pid, signal.SIGKILL)
                self.killed.append(addr)
            if progress is not None:
                progress(i, res)

        return super().map(fn, tasks, label=label, progress=hook)


@pytest.mark.long
def test_killed_worker_mid_run_gives_the_identical_report(serial):
    with _KillOnce(None, 2) as ex:
        report = run_audit(_claims(), CTX, executor=ex, progress=False)
        killed = ex.killed
    assert killed, "the test did not kill a worker"
    assert _stable(report) == _stable(serial)
    assert sum(e.internal_error for e in report.entries) == 0
    assert any(killed[0] in ev for ev in report.events), report.events  # the report says so


def test_iter_chunks_covers_the_range_once():
    assert list(parallel.iter_chunks(10, 4)) == [(0, 4), (4, 4), (8, 2)]
    with pytest.raises(ValueError, match="chunk must be >= 1"):
        list(parallel.iter_chunks(3, 0))


def _stable_report(path):
    """A verdicts.json without its timing and run fields."""
    d = json.loads(path.read_text())
    for k in ("started", "run"):
        d.pop(k)
    return _untimed(d)


def _quick_serial_vs_scheduler(tmp_path, selection):
    from distributed import LocalCluster

    from verify.cli import main

    serial, dask = tmp_path / "serial.json", tmp_path / "dask.json"
    assert main(["audit", "--quick", *selection, "--workers", "1", "--no-progress",
                 "--json", str(serial), "--markdown", str(tmp_path / "s.md")]) == 0
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        assert main(["audit", "--quick", *selection, "--scheduler", cluster.scheduler_address,
                     "--no-progress", "--json", str(dask), "--markdown", str(tmp_path / "d.md")]) == 0
    return serial, dask


@pytest.mark.long
def test_cli_audit_quick_on_a_slice_with_scheduler_address_equals_serial(tmp_path):
    """The same as below on a slice of the registry (004 Lemma 3.5's claims: numeric, symbolic and
    adversarial checks, interval proofs, a privacy proof on a rate proof, planted controls)."""
    serial, dask = _quick_serial_vs_scheduler(tmp_path, ["--claim", "004-Lemma-3.5"])

    a, b = _stable_report(serial), _stable_report(dask)
    assert a == b and len(a["claims"]) >= 10 and a["totals"]["internal_errors"] == 0
    assert a["totals"]["planted_caught"] >= 3 and a["totals"]["verified_proven"] >= 5
    assert json.loads(dask.read_text())["run"]["backend"].startswith("dask cluster at tcp://")


@pytest.mark.long
def test_cli_audit_quick_with_scheduler_address_equals_serial(tmp_path):
    """`smoothsens audit --quick --scheduler ADDRESS` (an existing cluster: here a 2-worker LocalCluster
    started by the test) writes the same verdicts.json as the serial run with the same seed, over the
    whole --quick registry, timing and run fields aside."""
    serial, dask = _quick_serial_vs_scheduler(tmp_path, [])

    a, b = _stable_report(serial), _stable_report(dask)
    assert a == b and len(a["claims"]) > 100 and a["totals"]["internal_errors"] == 0
    assert json.loads(dask.read_text())["run"]["backend"].startswith("dask cluster at tcp://")
