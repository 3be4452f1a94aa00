"""The one parallel backend: Dask (``dask.distributed``), with a serial path when it is absent.

Every parallel job of smoothsens (claims of an audit, chunks of draws of a black-box audit,
repetitions of an experiment, cells of a calibration sweep) is a list of *independent tasks* whose
results do not depend on where or when they run: each task gets its inputs and, if it draws random
numbers, its own seed derived from the master seed with :func:`spawn_seeds`
(``numpy.random.SeedSequence.spawn``).  :meth:`Executor.map` returns the results in the order of
the tasks, so merging is deterministic: a run on a laptop, on a ``LocalCluster`` or on a real
cluster gives the same report for the same seed.

* :class:`SerialExecutor` runs the tasks in this process, one after the other.
* :class:`DaskExecutor` submits them to a ``dask.distributed`` scheduler: an existing one
  (``scheduler="tcp://host:8786"``) or a ``LocalCluster`` of ``n_workers`` single-threaded worker
  processes that it starts and stops.  Tasks are submitted with ``retries``: a task whose worker
  died is re-run elsewhere (the scheduler reschedules it; results are recomputed from the same
  inputs and seed, so nothing is lost or double-counted), and the executor records every worker
  that left during the run in :attr:`Executor.events` for the report.

:func:`get_executor` picks one from the CLI options ``--scheduler ADDRESS`` / ``--workers N``.
Progress comes back to the terminal as tasks finish (tqdm when installed).
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Iterable, Sequence

import numpy as np

__all__ = [
    "Executor",
    "SerialExecutor",
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
        import distributed  # noqa: F401, PLC0415
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
            progress: Callable[[int, Any], None] | None = None) -> list[Any]:  # pragma: no cover - abstract
        """Results of ``fn(*t)`` for each ``t`` in ``tasks``, in order; ``progress(i, result)`` is
        called as each task finishes (in completion order)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the resources (a LocalCluster started here is shut down)."""

    def describe(self) -> str:
        return self.name

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class SerialExecutor(Executor):
    """The tasks one after the other in this process."""

    name = "serial"

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], *, label: str = "task",
            progress: Callable[[int, Any], None] | None = None) -> list[Any]:
        out = []
        for i, t in enumerate(tasks):
            r = fn(*t)
            out.append(r)
            if progress is not None:
                progress(i, r)
        return out


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
        from distributed import Client, LocalCluster  # noqa: PLC0415 - optional dependency

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
            progress: Callable[[int, Any], None] | None = None) -> list[Any]:
        from distributed import as_completed  # noqa: PLC0415

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
        from tqdm import tqdm  # noqa: PLC0415 - optional dependency
    except ImportError:  # pragma: no cover - tqdm is optional
        return None
    return tqdm(total=total, file=sys.stderr, unit="task", desc=desc, leave=False)


def iter_chunks(n: int, chunk: int) -> Iterable[tuple[int, int]]:
    """(start, size) of consecutive chunks of at most ``chunk`` items covering range(n)."""
    if chunk < 1:
        raise ValueError(f"chunk must be >= 1; got chunk={chunk}")
    for s in range(0, n, chunk):
        yield s, min(chunk, n - s)
