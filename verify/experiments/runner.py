"""Experiments of 004 Sec. 5 on the synthetic stand-ins: tables (rows of dicts), CSV and figures.

Experiments (names used by ``smoothsens experiment NAME``):

``one-way``        004 Fig. 3 / Fig. 8 analogue: MSE of (1/n) sum f_tau(x_i) against n for several
                   eps and thresholds T; tau = min(0.2 T, 2/eps) (004 Sec. 5).
``two-way``        004 Fig. 4 analogue: ASE over an evenly spaced (k+1) x (k+1) grid of (T1, T2) in
                   [$10,000, $1,000,000]^2, tau = min(0.2 ||(T1, T2)||, 2/eps).
``kde``            004 Figs. 5-6 analogue: Gaussian KDE on the collision stand-in, ASE over a grid of
                   query points t, plus one run's estimate grids for contour plots.
``noise-mse``      004 Sec. 4.1.1: the analytic MSE of the noise-a-priori hard threshold against
                   simulation, as n grows (the bias does not vanish).

Mechanisms: M0, M1 (KDE only), M2, M3 (Student's t, nu = 3, nu gamma = eps/3: 004 Sec. 5),
M3-PolyPlace (002 Thm. 8) and M3-GenCauchy (GenCauchy(4, 1), 004 Lemma 3.3) at the same gamma,
M3-tight (Student's t, nu = 3, same gamma, with the largest eta whose certified exact privacy-loss
rate is <= eps: smoothsens_core.calibration.tight), and M_LDP with eps' = eps C.  All M3 variants share gamma = eps/9 so that they share B*; they differ
only in the noise distribution and its eta.
"""

from __future__ import annotations

import csv
import functools
import io
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from smoothsens_core import calibration
from smoothsens_core.calibration.tight import tight_calibration
from smoothsens_core.validation import check_integer, check_positive
from verify.bounded_io import write_text_atomic
from verify.parallel import Executor, SerialExecutor, iter_chunks, progress_bar, spawn_seeds

from . import data, estimators, mechanisms as mech, plots
from .queries import gaussian_kde_query, one_way_threshold_query, two_way_threshold_query

__all__ = [
    "ExperimentResult",
    "Progress",
    "MECHANISMS_ALL",
    "build_mechanism",
    "one_way_threshold",
    "two_way_threshold",
    "kde",
    "noise_a_priori_mse",
    "EXPERIMENTS",
    "ExperimentSpec",
    "run_experiment",
]

FloatArray = NDArray[np.float64]
Progress = Callable[[str], None]

#: Mechanism labels understood by :func:`build_mechanism`.
MECHANISMS_ALL: tuple[str, ...] = (
    "M0", "M1", "M2", "M3", "M3-tight", "M3-PolyPlace", "M3-GenCauchy", "M_LDP",
)


def _quiet(_: str) -> None:
    pass


@dataclass
class ExperimentResult:
    """A table (list of rows with the same keys), the parameters used, and extra arrays.

    ``arrays`` holds what the figures need beyond the table (e.g. the KDE estimate grids).
    """

    name: str
    rows: list[dict[str, Any]]
    params: dict[str, Any]
    arrays: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    #: Where the tasks ran (``Executor.describe()``) and what happened to the cluster meanwhile;
    #: neither affects the table.
    backend: str = "serial"
    events: list[str] = field(default_factory=list)

    @property
    def columns(self) -> list[str]:
        return list(self.rows[0]) if self.rows else []

    def to_csv(self, path: str | Path) -> Path:
        """Write the table as CSV (header = column names); returns the path."""
        p = Path(path)
        buf = io.StringIO(newline="")
        w = csv.DictWriter(buf, fieldnames=self.columns)
        w.writeheader()
        for r in self.rows:
            w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})
        if p.exists() and not p.is_file():  # a device or pipe: written in place, never renamed over
            with p.open("w", newline="") as fh:
                fh.write(buf.getvalue())
        else:  # a temporary file renamed over the target: an interrupted run leaves the old table whole
            write_text_atomic(p, buf.getvalue())
        return p

    def select(self, **where: Any) -> list[dict[str, Any]]:
        """Rows whose columns equal the given values."""
        return [r for r in self.rows if all(r.get(k) == v for k, v in where.items())]

    def format_table(self, columns: Sequence[str] | None = None) -> str:
        """The table as aligned text (for the CLI and the notebooks)."""
        cols = list(columns) if columns is not None else self.columns
        cells = [[(f"{r[c]:.4g}" if isinstance(r[c], float) else str(r[c])) for c in cols] for r in self.rows]
        widths = [max(len(c), *(len(row[i]) for row in cells)) if cells else len(c) for i, c in enumerate(cols)]
        lines = ["  ".join(c.rjust(w) for c, w in zip(cols, widths, strict=True))]
        lines += ["  ".join(v.rjust(w) for v, w in zip(row, widths, strict=True)) for row in cells]
        return "\n".join(lines)


# ---- mechanisms -------------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _m3_calibration(family: str, eps: float, gamma: float) -> tuple[Any, float, dict[str, Any]]:
    """(noise, eta, info) of M3 with the noise ``family`` at (eps, gamma); cached per process.

    The calibration does not depend on the query, so a grid of queries (or the tasks of an
    experiment running in one worker process) pays for it once (M3-tight certifies its eta with
    an exact privacy-loss bound, about half a second)."""
    if family == "student_t":
        cal = calibration.calibrate_student_t(eps, gamma=gamma, nu=3)
        return cal.noise, float(cal.eta), {"gamma": float(cal.gamma), "calibration": getattr(cal, "family", family)}
    if family == "polyplace":
        cal = calibration.calibrate_polyplace(eps, gamma)
        return cal.noise, float(cal.eta), {"gamma": float(cal.gamma), "calibration": getattr(cal, "family", family)}
    if family == "gencauchy":
        cal = calibration.calibrate_gencauchy(eps, gamma=gamma, p=4, theta=1)
        return cal.noise, float(cal.eta), {"gamma": float(cal.gamma), "calibration": getattr(cal, "family", family)}
    if family == "student_t_tight":
        printed = calibration.calibrate_student_t(eps, gamma=gamma, nu=3)
        tight = tight_calibration(printed, "euclidean")
        return printed.noise, float(tight.eta_tight), {
            "gamma": float(printed.gamma), "calibration": "student_t tight",
            "eta_printed": float(printed.eta)}
    raise ValueError(
        f"family must be 'student_t', 'polyplace', 'gencauchy' or 'student_t_tight'; got {family!r}"
    )


def _m3(query: Any, eps: float, family: str, gamma: float | None) -> mech.AdditiveNoiseMechanism:
    """M3 with the noise ``family`` at growth gamma (default eps/9, i.e. nu gamma = eps/3, nu = 3)."""
    g = eps / 9.0 if gamma is None else check_positive("gamma", gamma)
    names = {"student_t": "M3", "polyplace": "M3-PolyPlace", "gencauchy": "M3-GenCauchy",
             "student_t_tight": "M3-tight"}
    noise, eta, info = _m3_calibration(family, float(eps), float(g))
    gamma_used = float(info["gamma"])
    return mech.smooth_sensitivity_mechanism(
        query.f,
        lambda pts: query.smooth_sensitivity(pts, gamma_used),
        noise,
        eta,
        eps,
        name=names[family],
        info=dict(info),
    )


def build_mechanism(
    name: str, query: Any, eps: float, *, c_ldp: float | None = None, gamma: float | None = None
) -> mech.LocalMechanism:
    """The mechanism ``name`` (one of :data:`MECHANISMS_ALL`) for ``query`` at GP level ``eps``.

    ``c_ldp`` is C of M_LDP (eps' = eps C); ``gamma`` overrides the M3 growth (default eps/9).
    """
    eps = check_positive("eps", eps)
    if name == "M0":
        return mech.NoiseAPriori(query.f, eps)
    if name == "M1":
        if "t" not in query.params or "h" not in query.params:
            raise ValueError("M1 (noise on the distance to t) applies to the Gaussian KDE query only")
        return mech.NoiseOnDistance(query.params["t"], query.params["h"], eps)
    if name == "M2":
        return mech.global_lipschitz_mechanism(query.f, query.lipschitz, eps)
    if name == "M_LDP":
        if c_ldp is None:
            raise ValueError("M_LDP needs c_ldp (eps' = eps * C)")
        return mech.local_dp_mechanism(query.f, eps, c_ldp)
    families = {"M3": "student_t", "M3-PolyPlace": "polyplace", "M3-GenCauchy": "gencauchy",
                "M3-tight": "student_t_tight"}
    if name in families:
        return _m3(query, eps, families[name], gamma)
    raise ValueError(f"mechanism must be one of {', '.join(MECHANISMS_ALL)}; got {name!r}")


def _check_names(names: Iterable[str], allowed: Sequence[str]) -> list[str]:
    out = list(names)
    for n in out:
        if n not in allowed:
            raise ValueError(f"mechanism must be one of {', '.join(allowed)}; got {n!r}")
    if not out:
        raise ValueError("mechanisms must name at least one mechanism")
    return out


# ---- seeds, data and the task map -----------------------------------------------------
#: Branches of the master seed: the data set, and the tasks (configuration, chunk of repetitions).
_DATA_BRANCH, _TASK_BRANCH = 0, 1


def _child_seed(seed: int, *path: int) -> np.random.SeedSequence:
    """The seed at ``path`` below the master ``seed``: ``spawn_seeds(seed, .)[path[0]]``, then its
    child ``path[1]``, then that child's child ``path[2]``, ... (``SeedSequence.spawn`` appends the
    child index to ``spawn_key``, so this is exactly the nested spawn).  It depends only on
    (seed, path): never on the order in which tasks are created or finish."""
    root = spawn_seeds(seed, path[0] + 1)[path[0]]
    return np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + tuple(int(p) for p in path[1:]),
                                  pool_size=root.pool_size)


def _task_rng(seed: int, config: int, chunk: int) -> np.random.Generator:
    """The generator of task (configuration ``config``, chunk ``chunk``) of an experiment."""
    return np.random.default_rng(_child_seed(seed, _TASK_BRANCH, config, chunk))


@functools.lru_cache(maxsize=2)
def _dataset(kind: str, n: int, seed: int) -> FloatArray:
    """The data set ``kind`` of n users drawn from the data branch of the master seed.

    Regenerated inside each task (cheap next to the repetitions) and cached per process, so a task
    receives only (kind, n, seed), never the array.  The stand-ins draw users one after the other
    from one generator, so ``household_incomes(n)`` is the first n users of
    ``household_incomes(N)`` for N > n: the one-way data sets are nested as in 004 Sec. 5."""
    rng = np.random.default_rng(_child_seed(seed, _DATA_BRANCH))
    if kind == "incomes":
        x = data.household_incomes(n, rng)
    elif kind == "income_debt":
        x = data.income_debt(n, rng)
    elif kind == "collisions":
        x = data.collision_locations(n, rng)
    else:
        raise ValueError(f"kind must be 'incomes', 'income_debt' or 'collisions'; got {kind!r}")
    x.setflags(write=False)
    return x


def _check_seed(seed: Any) -> int:
    return check_integer("seed", seed, minimum=0)


def _run_tasks(
    executor: Executor | None,
    fn: Callable[..., Any],
    tasks: list[tuple[Any, ...]],
    labels: list[str],
    name: str,
    progress: Progress,
    bar: bool,
) -> tuple[list[Any], str, list[str]]:
    """``fn(*task)`` for every task with ``executor`` (serial if None), results in task order.

    ``progress`` gets one line per finished task (completion order); ``bar`` adds a tqdm bar on
    stderr.  Returns (results, backend description, cluster events)."""
    ex = SerialExecutor() if executor is None else executor
    events_before = len(ex.events)
    pbar = progress_bar(len(tasks), name, bar)
    count = [0]

    def done(i: int, _res: Any) -> None:
        count[0] += 1
        if pbar is not None:
            pbar.update(1)
        progress(f"[{count[0]}/{len(tasks)}] {labels[i]}")

    try:
        results = ex.map(fn, tasks, label=name, progress=done)
    finally:
        if pbar is not None:
            pbar.close()
    return results, ex.describe(), list(ex.events[events_before:])


def _chunks(reps: int, reps_per_task: int) -> list[tuple[int, int]]:
    return list(iter_chunks(reps, check_integer("reps_per_task", reps_per_task, minimum=1)))


def _run_configs(
    executor: Executor | None,
    fn: Callable[..., Any],
    configs: Sequence[Any],
    chunks: list[tuple[int, int]],
    seed: int,
    args: Callable[[Any], tuple[Any, ...]],
    label: Callable[[Any], str],
    name: str,
    progress: Progress,
    bar: bool,
) -> tuple[list[Any], str, list[str]]:
    """One task per (configuration ci, chunk k of ``chunks``), run by :func:`_run_tasks`.

    Task (ci, k) calls ``fn(*args(configs[ci]), seed, ci, k, size, k == 0)``: its generator is
    :func:`_task_rng` (seed, ci, k), and only chunk 0 computes the truth.  Its progress label is
    ``label(configs[ci])`` followed by the repetitions it covers.  Results come back in task order,
    configuration by configuration (see :func:`_config_results`)."""
    tasks, labels = [], []
    for ci, config in enumerate(configs):
        for k, (s, size) in enumerate(chunks):
            tasks.append((*args(config), seed, ci, k, size, k == 0))
            labels.append(f"{label(config)} reps {s}-{s + size - 1}")
    return _run_tasks(executor, fn, tasks, labels, name, progress, bar)


def _config_results(results: list[Any], per: int, ci: int) -> tuple[list[Any], Any, Any]:
    """(task results, estimates, truth) of configuration ``ci`` from :func:`_run_configs`: its ``per``
    chunk results in order, their "est" concatenated along the repetitions, and the "truth" of chunk 0."""
    parts = results[ci * per:(ci + 1) * per]
    est = np.concatenate([p["est"] for p in parts], axis=0)
    return parts, est, parts[0]["truth"]


class _Run:
    """One run of the experiment ``name``: the checked seed, the chunks of ``reps_per_task``
    repetitions, where the tasks run (``executor``, ``progress``, ``bar``) and the start time."""

    def __init__(self, name: str, seed: Any, reps: int, reps_per_task: int, executor: Executor | None,
                 progress: Progress, bar: bool) -> None:
        self.name, self.seed, self.chunks = name, _check_seed(seed), _chunks(reps, reps_per_task)
        self.executor, self.progress, self.bar = executor, progress, bar
        self.backend = "serial"
        self.events: list[str] = []
        self.t0 = time.perf_counter()

    def configs(self, fn: Callable[..., Any], configs: Sequence[Any], args: Callable[[Any], tuple[Any, ...]],
                label: Callable[[Any], str]) -> list[Any]:
        """The task results of :func:`_run_configs` over ``configs`` (backend and events recorded)."""
        results, self.backend, self.events = _run_configs(
            self.executor, fn, configs, self.chunks, self.seed, args, label, self.name, self.progress, self.bar)
        return results

    def result(self, rows: list[dict[str, Any]], params: dict[str, Any],
               arrays: dict[str, Any] | None = None) -> ExperimentResult:
        """The :class:`ExperimentResult` of this run (seconds since the start)."""
        return ExperimentResult(self.name, rows, params, {} if arrays is None else arrays,
                                seconds=time.perf_counter() - self.t0, backend=self.backend, events=self.events)


# ---- one-way threshold (004 Fig. 3) -------------------------------------------------------------
def _one_way_task(T: float, eps: float, name: str, c_ldp: float, n: int, seed: int, config: int,
                  chunk: int, reps: int, with_truth: bool) -> dict[str, Any]:
    """Task of :func:`one_way_threshold`: ``reps`` estimates of one (T, eps, n, mechanism); the
    chunk that carries ``with_truth`` also returns the true answer and the analytic MSE."""
    x = _dataset("incomes", n, seed)
    tau = min(0.2 * T, 2.0 / eps)
    query = one_way_threshold_query(T, tau)
    m = build_mechanism(name, query, eps, c_ldp=c_ldp)
    out: dict[str, Any] = {"est": m.mean_estimates(x, _task_rng(seed, config, chunk), reps)}
    if with_truth:
        out["truth"] = float(np.mean(np.asarray(query.f(x.reshape(-1, 1)), dtype=float)))
        if isinstance(m, mech.AdditiveNoiseMechanism):
            out["analytic"] = m.analytic_mse(x)  # Var(Z) sum_i s_i^2 / n^2 (unbiased)
        else:  # M0: the closed form of noise a priori for the ramp f_tau (estimators)
            out["analytic"] = estimators.analytic_mse_noise_a_priori_ramp(x, T, tau, eps)
    return out


def one_way_threshold(
    *,
    ns: Sequence[int] = (10**3, 10**4, 10**5),
    eps_values: Sequence[float] = (1 / 1_000, 1 / 2_500, 1 / 10_000),
    thresholds: Sequence[float] = (10_000.0, 100_000.0, 500_000.0, 1_000_000.0),
    reps: int = 100,
    mechanisms: Sequence[str] = ("M0", "M2", "M3", "M3-tight", "M3-PolyPlace", "M3-GenCauchy", "M_LDP"),
    c_ldp: float = 12_000.0,
    seed: int = 0, reps_per_task: int = 25, executor: Executor | None = None, progress: Progress = _quiet, bar: bool = False,
) -> ExperimentResult:
    """MSE of the estimate of (1/n) sum f_tau(x_i) over ``reps`` repetitions (004 Sec. 5, Fig. 3).

    Incomes from :func:`data.household_incomes` (the first n users of one seeded sample, so the
    data sets are nested); tau = min(0.2 T, 2/eps); M3 at gamma = eps/9.  Each (T, eps, n,
    mechanism) is a configuration and each chunk of ``reps_per_task`` repetitions of it a task
    with its own seed (:func:`_child_seed`), run by ``executor`` (serial if None): the table is
    the same for every executor.  Rows: T, eps, n, mechanism, mse, mse_se, mse_analytic, truth.
    mse_analytic is exact: Var(Z) sum_i s_i^2 / n^2 for the unbiased additive mechanisms (M2, M3*,
    M_LDP) and, for M0 (noise a priori), variance + bias^2 of (1/n) sum f_tau(x_i + Z_i) with the
    Laplace moments of the ramp (:func:`estimators.analytic_mse_noise_a_priori_ramp`).  With
    Student's t (nu = 3) the squared error has no finite variance, so the simulated MSE converges
    slowly: compare with mse_analytic.
    """
    ns = [check_integer("n", n, minimum=1) for n in ns]
    reps = check_integer("reps", reps, minimum=2)
    names = _check_names(mechanisms, [m for m in MECHANISMS_ALL if m != "M1"])
    run = _Run("one-way", seed, reps, reps_per_task, executor, progress, bar)
    seed = run.seed
    configs = [(float(T), float(eps), n, m) for T in thresholds for eps in eps_values for n in ns for m in names]
    results = run.configs(_one_way_task, configs, lambda c: (c[0], c[1], c[3], float(c_ldp), c[2]),
                          lambda c: f"one-way T={c[0]:g} eps={c[1]:.3g} n={c[2]} {c[3]}")
    rows: list[dict[str, Any]] = []
    for ci, (T, eps, n, m) in enumerate(configs):
        parts, est, truth = _config_results(results, len(run.chunks), ci)
        rows.append({"T": T, "eps": eps, "n": n, "mechanism": m,
                     "mse": estimators.mse(est, truth), "mse_se": estimators.mse_standard_error(est, truth),
                     "mse_analytic": _analytic_cell(parts[0]["analytic"]), "truth": truth})
    params = {"ns": ns, "eps_values": [float(e) for e in eps_values], "thresholds": [float(t) for t in thresholds],
              "reps": reps, "mechanisms": names, "c_ldp": c_ldp, "seed": seed, "reps_per_task": reps_per_task,
              "tau_rule": "min(0.2 T, 2/eps)", "gamma_rule": "eps/9 (nu = 3, nu gamma = eps/3)"}
    return run.result(rows, params)


def _analytic_cell(value: float) -> float | str:
    """A finite analytic MSE, or 'n/a' with the reason (noise without a finite variance)."""
    return float(value) if math.isfinite(value) else "n/a (Var(Z) infinite)"


# ---- analytic MSE of noise a priori (004 Sec. 4.1.1) -------------------------------------------
def _noise_mse_task(T: float, eps: float, n: int, seed: int, config: int, chunk: int, reps: int,
                    with_truth: bool) -> dict[str, Any]:
    """Task of :func:`noise_a_priori_mse`: ``reps`` estimates of the hard threshold at n users."""
    x = _dataset("incomes", n, seed)
    m0 = mech.NoiseAPriori(functools.partial(_hard_threshold, T=T), eps)
    out: dict[str, Any] = {"est": m0.mean_estimates(x, _task_rng(seed, config, chunk), reps)}
    if with_truth:
        out["truth"] = float(np.mean(x > T))
        out["analytic"] = estimators.analytic_mse_noise_a_priori_threshold(x, T, eps)
        out["bias2"] = estimators.noise_a_priori_threshold_bias(x, T, eps) ** 2
    return out


def _hard_threshold(p: FloatArray, T: float) -> FloatArray:
    return (p[:, 0] > T).astype(float)


def noise_a_priori_mse(
    *,
    ns: Sequence[int] = (10**2, 10**3, 10**4, 10**5),
    T: float = 100_000.0,
    eps: float = 1 / 10_000,
    reps: int = 400,
    seed: int = 0, reps_per_task: int = 100, executor: Executor | None = None, progress: Progress = _quiet, bar: bool = False,
) -> ExperimentResult:
    """Analytic MSE of the noise-a-priori hard threshold (004 Sec. 4.1.1) against simulation.

    Each (n, chunk of ``reps_per_task`` repetitions) is a task with its own seed; the table does
    not depend on the executor.  Rows: n, mse_analytic, mse_sim, mse_se, bias2 (the squared bias,
    the floor of the MSE).
    """
    ns = [check_integer("n", n, minimum=1) for n in ns]
    reps = check_integer("reps", reps, minimum=2)
    seed = _check_seed(seed)
    T, eps = float(T), check_positive("eps", eps)
    run = _Run("noise-mse", seed, reps, reps_per_task, executor, progress, bar)
    results = run.configs(_noise_mse_task, ns, lambda n: (T, eps, n), lambda n: f"noise-mse n={n}")
    rows = []
    for ci, n in enumerate(ns):
        parts, est, truth = _config_results(results, len(run.chunks), ci)
        rows.append({"n": n, "mse_analytic": parts[0]["analytic"], "mse_sim": estimators.mse(est, truth),
                     "mse_se": estimators.mse_standard_error(est, truth), "bias2": parts[0]["bias2"]})
        progress(f"noise-mse n={n}: analytic {rows[-1]['mse_analytic']:.4g} sim {rows[-1]['mse_sim']:.4g}")
    params = {"ns": ns, "T": T, "eps": eps, "reps": reps, "seed": seed, "reps_per_task": reps_per_task}
    return run.result(rows, params)


# ---- grid experiments (two-way threshold, KDE) ------------------------------------------------
def _grid_estimates(x: FloatArray, queries: list[Any], name: str, eps: float, reps: int,
                    rng: np.random.Generator, c_ldp: float, gamma: float | None = None,
                    chunk_elements: int = mech.DEFAULT_CHUNK_ELEMENTS) -> FloatArray:
    """Estimates of every grid query by mechanism ``name`` in ``reps`` repetitions: (reps, len(queries)).

    M0 releases each user's noisy point once per repetition and the analyst evaluates every grid
    query on the same noisy points (noise a priori serves all queries); every other mechanism
    answers each query with fresh noise.  The per-query marginal law, hence the expected ASE, is
    the same either way.  Users are processed in chunks of about ``chunk_elements`` values, so no
    (reps, n) or (n, queries) array is formed.
    """
    n, d = x.shape
    ests = np.empty((reps, len(queries)))
    if name == "M0":
        per_chunk = max(1, chunk_elements // max(d, 1))
        for r in range(reps):
            sums = np.zeros(len(queries))
            for start in range(0, n, per_chunk):
                xc = x[start:start + per_chunk]
                noisy = xc + mech.sample_multivariate_laplace((xc.shape[0],), d, eps, rng)
                for j, q in enumerate(queries):
                    sums[j] += float(np.sum(q.f(noisy)))
            ests[r] = sums / n
        return ests
    for j, q in enumerate(queries):
        mj = build_mechanism(name, q, eps, c_ldp=c_ldp, gamma=gamma)
        ests[:, j] = mj.mean_estimates(x, rng, reps, chunk_elements=chunk_elements)
    return ests


def _two_way_queries(axis: FloatArray, eps: float) -> list[Any]:
    out = []
    for t1 in axis:
        for t2 in axis:
            tau = min(0.2 * math.hypot(t1, t2), 2.0 / eps)
            out.append(two_way_threshold_query(t1, t2, tau))
    return out


def _two_way_task(eps: float, name: str, c_ldp: float, n: int, k: int, t_range: tuple[float, float],
                  seed: int, config: int, chunk: int, reps: int, with_truth: bool) -> dict[str, Any]:
    """Task of :func:`two_way_threshold`: ``reps`` repetitions of one (eps, mechanism) over the grid."""
    x = _dataset("income_debt", n, seed)
    queries = _two_way_queries(np.linspace(t_range[0], t_range[1], k + 1), eps)
    out: dict[str, Any] = {"est": _grid_estimates(x, queries, name, eps, reps, _task_rng(seed, config, chunk), c_ldp)}
    if with_truth:
        out["truth"] = np.array([float(np.mean(q.f(x))) for q in queries])
    return out


def _grid_rows(results: list[Any], per: int, ci: int) -> tuple[float, FloatArray, FloatArray]:
    """(ASE, first repetition's estimates, truth) of configuration ``ci`` from its task results."""
    _parts, ests, truth = _config_results(results, per, ci)
    sq_err = np.mean((ests - truth[None]) ** 2, axis=1)  # grid-averaged squared error per repetition
    return float(sq_err.mean()), ests[0], truth


def _grid_table(results: list[Any], per: int, configs: Sequence[tuple[Any, ...]], k: int, arrays: dict[str, Any],
                row: Callable[[tuple[Any, ...], float], dict[str, Any]],
                first: Callable[[tuple[Any, ...]], bool]) -> list[dict[str, Any]]:
    """The rows ``row(config, ase)`` of a grid experiment, one per configuration; for the configurations
    ``first`` picks (the first eps, and h), the truth and one run's estimates per mechanism (the last
    entry of the configuration) on the (k+1) x (k+1) grid go into ``arrays``."""
    rows = []
    for ci, c in enumerate(configs):
        ase, run, truth = _grid_rows(results, per, ci)
        rows.append(row(c, ase))
        if first(c):
            arrays.setdefault("truth", truth.reshape(k + 1, k + 1))
            arrays.setdefault("estimates", {})[c[-1]] = run.reshape(k + 1, k + 1)
    return rows


def two_way_threshold(
    *,
    n: int = 100_000,
    eps_values: Sequence[float] = (1 / 12_000,),
    k: int = 16,
    t_range: tuple[float, float] = (10_000.0, 1_000_000.0),
    reps: int = 10,
    mechanisms: Sequence[str] = ("M0", "M2", "M3", "M3-PolyPlace", "M_LDP"),
    c_ldp: float = 12_000.0,
    seed: int = 0, reps_per_task: int = 1, executor: Executor | None = None, progress: Progress = _quiet, bar: bool = False,
) -> ExperimentResult:
    """ASE over the (k+1) x (k+1) grid of (T1, T2) in ``t_range``^2 (004 Sec. 5, Fig. 4).

    Income/debt from :func:`data.income_debt`; tau = min(0.2 ||(T1, T2)||, 2/eps).  Each
    (eps, mechanism, chunk of ``reps_per_task`` repetitions) is a task with its own seed.
    Rows: eps, n, mechanism, ase.  ``arrays``: grid axes, truth and one run's estimates (first eps).
    """
    n = check_integer("n", n, minimum=1)
    k = check_integer("k", k, minimum=1)
    reps = check_integer("reps", reps, minimum=1)
    names = _check_names(mechanisms, [m for m in MECHANISMS_ALL if m != "M1"])
    run = _Run("two-way", seed, reps, reps_per_task, executor, progress, bar)
    seed = run.seed
    tr = (float(t_range[0]), float(t_range[1]))
    axis = np.linspace(tr[0], tr[1], k + 1)
    configs = [(float(eps), m) for eps in eps_values for m in names]
    results = run.configs(_two_way_task, configs, lambda c: (c[0], c[1], float(c_ldp), n, k, tr),
                          lambda c: f"two-way eps={c[0]:.3g} {c[1]}")
    arrays: dict[str, Any] = {"axis": axis}
    rows = _grid_table(results, len(run.chunks), configs, k, arrays,
                       lambda c, ase: {"eps": c[0], "n": n, "mechanism": c[1], "ase": ase},
                       lambda c: c[0] == configs[0][0])
    params = {"n": n, "eps_values": [float(e) for e in eps_values], "k": k, "t_range": list(tr), "reps": reps,
              "mechanisms": names, "c_ldp": c_ldp, "seed": seed, "reps_per_task": reps_per_task}
    return run.result(rows, params, arrays)


def _kde_queries(ax: FloatArray, ay: FloatArray, h: float) -> list[Any]:
    return [gaussian_kde_query(np.array([tx, ty]), h) for ty in ay for tx in ax]


def _kde_axes(k: int) -> tuple[FloatArray, FloatArray]:
    width, height = data.COLLISION_BOX_M
    return np.linspace(0.0, width, k + 1), np.linspace(0.0, height, k + 1)


def _kde_task(eps: float, h: float, name: str, c_ldp: float, n: int, k: int, seed: int, config: int,
              chunk: int, reps: int, with_truth: bool) -> dict[str, Any]:
    """Task of :func:`kde`: ``reps`` repetitions of one (eps, h, mechanism) over the query grid."""
    x = _dataset("collisions", n, seed)
    queries = _kde_queries(*_kde_axes(k), h)
    out: dict[str, Any] = {"est": _grid_estimates(x, queries, name, eps, reps, _task_rng(seed, config, chunk), c_ldp)}
    if with_truth:
        out["truth"] = np.array([float(np.mean(q.f(x))) for q in queries])
    return out


def kde(
    *,
    n: int = 20_000,
    eps_values: Sequence[float] = (1 / 1_000,),
    h_values: Sequence[float] | None = None,
    k: int = 24,
    reps: int = 3,
    mechanisms: Sequence[str] = ("M0", "M1", "M2", "M3", "M3-PolyPlace", "M_LDP"),
    c_ldp: float = 1_000.0,
    seed: int = 0, reps_per_task: int = 1, executor: Executor | None = None, progress: Progress = _quiet, bar: bool = False,
) -> ExperimentResult:
    """Gaussian KDE on the collision stand-in: ASE over a (k+1) x (k+1) grid of query points t.

    004 Sec. 5 uses h = w (w not printed; we take w = 110 km / 60, the spacing of the paper's
    60 x 60 grid), eps = 1/1000 m and C = 1000 m.  Each (eps, h, mechanism, chunk of
    ``reps_per_task`` repetitions) is a task with its own seed.  Rows: eps, h, n, mechanism, ase.
    ``arrays``: grid axes, truth and one run's estimates (first eps and h) for contour plots.
    """
    n = check_integer("n", n, minimum=1)
    k = check_integer("k", k, minimum=1)
    reps = check_integer("reps", reps, minimum=1)
    names = _check_names(mechanisms, MECHANISMS_ALL)
    run = _Run("kde", seed, reps, reps_per_task, executor, progress, bar)
    seed = run.seed
    width, _height = data.COLLISION_BOX_M
    hs = [width / 60.0] if h_values is None else [check_positive("h", h) for h in h_values]
    ax, ay = _kde_axes(k)
    configs = [(float(eps), float(h), m) for eps in eps_values for h in hs for m in names]
    results = run.configs(_kde_task, configs, lambda c: (c[0], c[1], c[2], float(c_ldp), n, k),
                          lambda c: f"kde eps={c[0]:.3g} h={c[1]:.4g} {c[2]}")
    arrays: dict[str, Any] = {"axis_x": ax, "axis_y": ay, "points_sample": _dataset("collisions", n, seed)[:2000].copy()}
    rows = _grid_table(results, len(run.chunks), configs, k, arrays,
                       lambda c, ase: {"eps": c[0], "h": c[1], "n": n, "mechanism": c[2], "ase": ase},
                       lambda c: c[:2] == configs[0][:2])
    if configs:
        arrays["h"] = configs[0][1]  # the h of the stored truth and estimates
    params = {"n": n, "eps_values": [float(e) for e in eps_values], "h_values": hs, "k": k, "reps": reps,
              "mechanisms": names, "c_ldp": c_ldp, "seed": seed, "reps_per_task": reps_per_task}
    return run.result(rows, params, arrays)


# ---- registry used by the CLI ----------------------------------------------------------------------
@dataclass(frozen=True)
class ExperimentSpec:
    """How to run one experiment: the runner, quick-mode overrides, and the figure function."""

    run: Callable[..., ExperimentResult]
    quick: Mapping[str, Any]
    plot: Callable[[ExperimentResult, Path], Path]
    description: str


def _plots() -> Any:
    return plots


EXPERIMENTS: dict[str, ExperimentSpec] = {
    "one-way": ExperimentSpec(
        one_way_threshold,
        {"ns": (300, 3_000), "eps_values": (1 / 10_000,), "thresholds": (10_000.0, 100_000.0), "reps": 20},
        lambda r, p: _plots().plot_one_way(r, p),
        "004 Fig. 3 analogue: MSE vs n of the one-way threshold, several eps and T",
    ),
    "two-way": ExperimentSpec(
        two_way_threshold,
        {"n": 3_000, "k": 4, "reps": 2},
        lambda r, p: _plots().plot_grid_ase(r, p),
        "004 Fig. 4 analogue: ASE of the two-way threshold over the (T1, T2) grid",
    ),
    "kde": ExperimentSpec(
        kde,
        {"n": 2_000, "k": 6, "reps": 2},
        lambda r, p: _plots().plot_kde(r, p),
        "004 Figs. 5-6 analogue: Gaussian KDE contours and ASE",
    ),
    "noise-mse": ExperimentSpec(
        noise_a_priori_mse,
        {"ns": (100, 1_000), "reps": 50},
        lambda r, p: _plots().plot_noise_mse(r, p),
        "004 Sec. 4.1.1: analytic vs simulated MSE of noise a priori (bias floor)",
    ),
}


def run_experiment(
    name: str,
    *,
    quick: bool = False,
    progress: Progress = _quiet,
    executor: Executor | None = None,
    bar: bool = False,
    **overrides: Any,
) -> ExperimentResult:
    """Run the registered experiment ``name`` (quick-mode sizes if ``quick``), with overrides.

    The tasks run on ``executor`` (:mod:`verify.parallel`; serial when None) and are merged in task
    order, so the table is bit-identical for every executor at the same seed.  ``progress`` gets a
    line per finished task, ``bar`` adds a tqdm bar on stderr."""
    if name not in EXPERIMENTS:
        raise ValueError(f"experiment must be one of {', '.join(sorted(EXPERIMENTS))}; got {name!r}")
    spec = EXPERIMENTS[name]
    kwargs = dict(spec.quick) if quick else {}
    kwargs.update({k: v for k, v in overrides.items() if v is not None})
    return spec.run(progress=progress, executor=executor, bar=bar, **kwargs)
