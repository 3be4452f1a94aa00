"""The parallel backends: Dask (``dask.distributed``) for clusters, a local process pool for the
audit's claims on this machine, and a serial path.

Every parallel job of smoothsens (claims of an audit, chunks of draws of a black-box audit,
repetitions of an experiment, cells of a calibration sweep) is a list of *independent tasks* whose
results do not depend on where or when they run: each task gets its inputs and, if it draws random
numbers, its own seed derived from the master seed with :func:`spawn_seeds`
(``numpy.random.SeedSequence.spawn``).  :meth:`Executor.map` returns the results in the order of
the tasks, so merging is deterministic: a run on a laptop, on a ``LocalCluster`` or on a real
cluster gives the same report for the same seed.

* :class:`SerialExecutor` runs the tasks in this process, one after the other.
* :class:`LocalPoolExecutor` runs them on ``n_workers`` local worker processes forked from this
  one (a ``concurrent.futures`` process pool): the workers inherit the modules already imported
  here, so they start in milliseconds instead of the seconds a Dask worker takes to spawn and
  import (Dask's start-up, its worker imports and its monitoring were a fifth of
  ``audit --quick``).  It hands each worker the next task of the same *affinity* key (the claims
  of one module share derivations cached per process), so shared work is not done twice.  The
  audit's local profile (``smoothsens audit --quick``, ``--workers N``) uses it; a worker that dies
  is replaced and its unfinished tasks are re-run, as Dask would.
* :class:`DaskExecutor` submits them to a ``dask.distributed`` scheduler: an existing one
  (``scheduler="tcp://host:8786"``) or a ``LocalCluster`` of ``n_workers`` single-threaded worker
  processes that it starts and stops.  Tasks are submitted with ``retries``: a task whose worker
  died is re-run elsewhere (the scheduler reschedules it; results are recomputed from the same
  inputs and seed, so nothing is lost or double-counted), and the executor records every worker
  that left during the run in :attr:`Executor.events` for the report.

:func:`get_executor` picks Dask or serial from the CLI options ``--scheduler ADDRESS`` / ``--workers N``
(experiments, calibration sweeps, black-box chunks); :func:`verify.claims.runner.run_audit` picks the
local pool for ``--workers N`` and Dask for ``--scheduler``.
Progress comes back to the terminal as tasks finish (tqdm when installed).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterable, Sequence

import numpy as np

__all__ = [
    "Executor",
    "SerialExecutor",
    "LocalPoolExecutor",
    "DaskExecutor",
    "get_executor",
    "spawn_seeds",
    "dask_available",
    "DASK_HINT",
]

DASK_HINT = "install the parallel backend with: python3 -m pip install 'smoothsens[dask]'"


def dask_available() -> bool:
    """True when ``dask.distributed`` can be imported."""
    try:
        import distributed  # noqa: F401, PLC0415 - optional dependency (the dask extra): only its presence
    except ImportError:
        return False
    return True


def spawn_seeds(seed: int | Sequence[int], n: int) -> list[np.random.SeedSequence]:
    """``n`` independent child seeds of the master ``seed`` (``SeedSequence(seed).spawn(n)``).

    Child i depends only on (seed, i): chunk i of a job draws the same numbers whichever worker
    runs it, and whether the job runs serially or on a cluster."""
    if n < 0:
        raise ValueError(f"n must be >= 0; got n={n}")
    return np.random.SeedSequence(seed).spawn(n)


class Executor:
    """Runs independent tasks ``fn(*args)`` and returns their results in task order."""

    name = "executor"
    workers = 1

    def __init__(self) -> None:
        #: What happened to the cluster during the run (lost workers, rescheduled tasks), for reports.
        self.events: list[str] = []

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], *, label: str = "task",
            progress: Callable[[int, Any], None] | None = None,
            affinity: Sequence[Any] | None = None) -> list[Any]:  # pragma: no cover - abstract
        """Results of ``fn(*t)`` for each ``t`` in ``tasks``, in order; ``progress(i, result)`` is
        called as each task finishes (in completion order).  ``affinity`` (one key per task, optional):
        tasks with the same key share per-process caches, so a backend that can should run them on
        the same worker; it never changes a result."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the resources (a LocalCluster started here is shut down)."""

    def terminate(self) -> None:
        """Release the resources at once, after an interruption (Ctrl-C): the work in flight is
        abandoned and the worker processes started here are ended, never left running.  Default:
        :meth:`close`."""
        self.close()

    def describe(self) -> str:
        return self.name

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, exc_type: Any, *exc: Any) -> None:
        if exc_type is not None and not issubclass(exc_type, Exception):  # KeyboardInterrupt, SystemExit
            self.terminate()
        else:
            self.close()


def _ignore_sigint() -> None:
    """Initializer of the pool workers: Ctrl-C reaches the whole process group, and only the parent
    handles it (it ends the workers); a worker interrupted itself would print its own traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class SerialExecutor(Executor):
    """The tasks one after the other in this process."""

    name = "serial"

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], *, label: str = "task",
            progress: Callable[[int, Any], None] | None = None, affinity: Sequence[Any] | None = None) -> list[Any]:
        out = []
        for i, t in enumerate(tasks):
            r = fn(*t)
            out.append(r)
            if progress is not None:
                progress(i, r)
        return out


class LocalPoolExecutor(Executor):
    """Tasks on ``n_workers`` local worker processes (a ``concurrent.futures`` process pool).

    On Linux the workers are forked from this process when it has no other Python thread (so they
    inherit its imported modules and loaded registry and need no start-up), else started with
    ``forkserver`` (or ``spawn`` where neither exists; ``fn`` then imports what it needs).  They are all started here, before any progress bar or
    other thread exists.  Tasks are handed out in the order given, one at a time to whichever worker
    is free, so a caller that lists the longest tasks first gets the shortest tail.  ``fn`` and the
    arguments are pickled (``fn`` a module-level function).

    A worker that dies (killed, out of memory) breaks the pool: the executor starts a new pool and
    re-runs the tasks that had not returned, up to ``retries`` times, and records it in
    :attr:`events`; results are recomputed from the same inputs, so nothing is lost or
    double-counted."""

    name = "processes"

    def __init__(self, n_workers: int = 2, *, retries: int = 2) -> None:
        super().__init__()
        if n_workers < 1:
            raise ValueError(f"workers must be an integer >= 1; got workers={n_workers}")
        self.workers = int(n_workers)
        self.retries = int(retries)
        self.method = ""
        self._pool = self._start()

    def _start(self) -> Any:
        methods = multiprocessing.get_all_start_methods()
        if "fork" in methods and sys.platform.startswith("linux") and threading.active_count() == 1:
            self.method = "fork"
        else:  # forking a process with other threads (or on macOS, with its system frameworks) is unsafe
            self.method = "forkserver" if "forkserver" in methods else "spawn"
        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context(self.method),
                                   initializer=_ignore_sigint)
        # start every worker now, before any other thread exists (a forking pool starts them all at the
        # first submit; the others start one per submit that finds no idle worker)
        for fut in [pool.submit(time.sleep, 0.01) for _ in range(self.workers)]:
            fut.result()
        return pool

    def pids(self) -> list[int]:
        """Process ids of the current workers."""
        return sorted(p.pid for p in self._pool._processes.values())

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], *, label: str = "task",
            progress: Callable[[int, Any], None] | None = None, affinity: Sequence[Any] | None = None) -> list[Any]:
        """As :meth:`Executor.map`.  Exactly one task per worker is in flight, so the parent picks
        the next task of the worker that just finished: the first remaining task (in the given order)
        whose ``affinity`` key that worker already ran, else the first of a key no worker ran yet,
        else the first remaining (work stealing).  Tasks that share caches thus run where the caches
        are warm, and no worker idles while tasks remain."""
        n = len(tasks)
        keys = list(affinity) if affinity is not None else list(range(n))
        if len(keys) != n:
            raise ValueError(f"affinity must give one key per task; got {len(keys)} keys for {n} tasks")
        results: list[Any] = [None] * n
        #: pid of the worker that returned each task's result (for tests and the curious)
        self.ran_on: list[int | None] = [None] * n
        remaining = list(range(n))
        owner: dict[Any, int] = {}  # affinity key -> pid of the worker that ran (or was given) it
        failures = 0

        def pick(pid: int | None) -> int:
            mine = next((i for i in remaining if pid is not None and owner.get(keys[i]) == pid), None)
            free = next((i for i in remaining if keys[i] not in owner), None)
            i = mine if mine is not None else free if free is not None else remaining[0]
            remaining.remove(i)
            if pid is not None:
                owner.setdefault(keys[i], pid)
            else:  # the first round: one key per worker, none owned yet
                owner.setdefault(keys[i], -1 - len(owner))
            return i

        def submit(i: int) -> bool:
            try:
                inflight[self._pool.submit(_with_pid, fn, tasks[i])] = i
            except BrokenProcessPool:  # a worker died since the last result
                remaining.insert(0, i)
                return False
            return True

        while remaining:
            inflight: dict[Any, int] = {}
            broken = False
            for _ in range(min(self.workers, len(remaining))):
                broken = not submit(pick(None)) or broken
            while inflight:
                finished, _ = wait(inflight, return_when=FIRST_COMPLETED)
                for fut in finished:
                    i = inflight.pop(fut)
                    exc = fut.exception()
                    if isinstance(exc, BrokenProcessPool):
                        broken = True
                        remaining.insert(0, i)
                        continue
                    if exc is not None:
                        raise exc
                    pid, results[i] = fut.result()
                    self.ran_on[i] = pid
                    if owner.get(keys[i], 0) < 0:  # a first-round key: now its worker is known
                        owner[keys[i]] = pid
                    if progress is not None:
                        progress(i, results[i])
                    if remaining and not broken:
                        broken = not submit(pick(pid))
            if not broken:
                break
            failures += 1
            remaining.sort()  # the caller's order again (indices are positions in it)
            self.events.append(f"a worker process died during '{label}'; a new pool re-ran its "
                               f"{len(remaining)} unfinished task(s)")
            if failures > self.retries:
                raise RuntimeError(f"'{label}': worker processes kept dying ({failures} times); "
                                   f"{len(remaining)} task(s) did not finish")
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = self._start()
            owner.clear()  # new workers, cold caches
        return results

    def describe(self) -> str:
        return f"local process pool ({self.workers} worker(s), {self.method})"

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def terminate(self) -> None:
        """End the worker processes of this pool (SIGTERM, then SIGKILL after 2 s) and drop the pool
        without waiting for its tasks."""
        procs = list((getattr(self._pool, "_processes", None) or {}).values())
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        for proc in procs:
            proc.join(timeout=2.0)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=2.0)
        self._pool.shutdown(wait=False, cancel_futures=True)


class DaskExecutor(Executor):
    """Tasks on a ``dask.distributed`` cluster: ``scheduler`` address, or a LocalCluster of
    ``n_workers`` single-threaded worker processes started here.

    ``retries`` is passed to ``Client.submit``: a task that raised because its worker died is run
    again (the scheduler also reschedules the tasks of a lost worker by itself).  Lost workers are
    recorded in :attr:`events`."""

    name = "dask"

    def __init__(self, scheduler: str | None = None, n_workers: int = 2, *, retries: int = 2,
                 memory_limit: str | None = "auto") -> None:
        super().__init__()
        if not dask_available():
            raise ValueError(f"--scheduler/--workers need dask.distributed, which is not installed; {DASK_HINT}")
        from distributed import Client, LocalCluster  # noqa: PLC0415 - optional dependency (dask.distributed, the dask extra)

        self.retries = int(retries)
        self._cluster = None
        if scheduler:
            self.client = Client(scheduler, timeout="20s")
            self.address = str(scheduler)
        else:
            if n_workers < 1:
                raise ValueError(f"workers must be an integer >= 1; got workers={n_workers}")
            self._cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                         dashboard_address=None, memory_limit=memory_limit)
            self.client = Client(self._cluster)
            self.address = self._cluster.scheduler_address
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))

    def _worker_set(self) -> set[str]:
        try:
            return set(self.client.scheduler_info().get("workers", {}))
        except Exception:  # noqa: BLE001 - the scheduler is busy; try again at the next result
            return set()

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], *, label: str = "task",
            progress: Callable[[int, Any], None] | None = None, affinity: Sequence[Any] | None = None) -> list[Any]:
        from distributed import as_completed  # noqa: PLC0415 - optional dependency (dask.distributed, the dask extra)

        if not tasks:
            return []
        seen = self._worker_set()
        futures = [self.client.submit(fn, *t, key=f"{label}-{i}-{time.time_ns()}", pure=False,
                                      retries=self.retries) for i, t in enumerate(tasks)]
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(tasks)
        last_check = time.monotonic()
        for fut in as_completed(futures):
            i = index[fut.key]
            results[i] = fut.result()
            if time.monotonic() - last_check > 1.0:  # ask the scheduler at most once a second
                last_check = time.monotonic()
                now = self._worker_set()
                lost = seen - now if now else set()
                for w in sorted(lost):
                    self.events.append(f"worker {w} left during '{label}'; its tasks were rescheduled and re-run")
                if now:
                    seen = (seen | now) - lost
            if progress is not None:
                progress(i, results[i])
        time.sleep(0.2)  # let the scheduler register a worker lost at the very end
        now = self._worker_set()
        for w in sorted(seen - now if now else set()):
            self.events.append(f"worker {w} left during '{label}'; its tasks were rescheduled and re-run")
        return results

    def describe(self) -> str:
        kind = "LocalCluster" if self._cluster is not None else "cluster"
        return f"dask {kind} at {self.address} ({self.workers} worker(s))"

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self._cluster is not None:
                self._cluster.close()


def _with_pid(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[int, Any]:
    """On a pool worker: (this worker's pid, ``fn(*args)``), so the parent knows where caches are warm."""
    return os.getpid(), fn(*args)


def get_executor(scheduler: str | None = None, workers: int = 1, *, announce: bool = True) -> Executor:
    """The executor for the CLI options: ``--scheduler ADDRESS`` connects to that Dask scheduler;
    ``--workers N`` (N > 1) starts a LocalCluster of N workers; otherwise, or when Dask is not
    installed and no address was given, the serial path (saying how to get the parallel one)."""
    if workers < 1:
        raise ValueError(f"workers must be an integer >= 1; got workers={workers}")
    if scheduler:
        return DaskExecutor(scheduler)
    if workers > 1:
        if dask_available():
            return DaskExecutor(None, workers)
        if announce:
            print(f"--workers {workers}: dask.distributed is not installed, running serially; {DASK_HINT}",
                  file=sys.stderr)
    return SerialExecutor()


def progress_bar(total: int, desc: str, enabled: bool = True) -> Any:
    """A tqdm bar on stderr (None when tqdm is missing or ``enabled`` is False)."""
    if not enabled:
        return None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]  # noqa: PLC0415 - optional dependency (notebooks, dask extras); no type information
    except ImportError:  # pragma: no cover - tqdm is optional
        return None
    return tqdm(total=total, file=sys.stderr, unit="task", desc=desc, leave=False)


def iter_chunks(n: int, chunk: int) -> Iterable[tuple[int, int]]:
    """(start, size) of consecutive chunks of at most ``chunk`` items covering range(n)."""
    if chunk < 1:
        raise ValueError(f"chunk must be >= 1; got chunk={chunk}")
    for s in range(0, n, chunk):
        yield s, min(chunk, n - s)
