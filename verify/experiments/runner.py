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
rate is <= eps: smoothsens_core.calibration.tight, issue 9), and M_LDP with eps' = eps C.  All M3 variants share gamma = eps/9 so that they share B*; they differ
only in the noise distribution and its eta.
"""

from __future__ import annotations

import csv
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from smoothsens_core.validation import check_integer, check_positive, check_rng

from . import data, estimators, mechanisms as mech

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

    @property
    def columns(self) -> list[str]:
        return list(self.rows[0]) if self.rows else []

    def to_csv(self, path: str | Path) -> Path:
        """Write the table as CSV (header = column names); returns the path."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        with p.open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=self.columns)
            w.writeheader()
            for r in self.rows:
                w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})
        return p

    def select(self, **where: Any) -> list[dict[str, Any]]:
        """Rows whose columns equal the given values."""
        return [r for r in self.rows if all(r.get(k) == v for k, v in where.items())]

    def format_table(self, columns: Sequence[str] | None = None) -> str:
        """The table as aligned text (for the CLI and the notebooks)."""
        cols = list(columns) if columns is not None else self.columns
        cells = [[(f"{r[c]:.4g}" if isinstance(r[c], float) else str(r[c])) for c in cols] for r in self.rows]
        widths = [max(len(c), *(len(row[i]) for row in cells)) if cells else len(c) for i, c in enumerate(cols)]
        lines = ["  ".join(c.rjust(w) for c, w in zip(cols, widths))]
        lines += ["  ".join(v.rjust(w) for v, w in zip(row, widths)) for row in cells]
        return "\n".join(lines)


# ---- mechanisms -------------------------------------------------------------------------------
def _m3(query: Any, eps: float, family: str, gamma: float | None) -> mech.AdditiveNoiseMechanism:
    """M3 with the noise ``family`` at growth gamma (default eps/9, i.e. nu gamma = eps/3, nu = 3)."""
    from smoothsens_core import calibration

    g = eps / 9.0 if gamma is None else check_positive("gamma", gamma)
    if family == "student_t":
        cal = calibration.calibrate_student_t(eps, gamma=g, nu=3)
        name = "M3"
    elif family == "polyplace":
        cal = calibration.calibrate_polyplace(eps, g)
        name = "M3-PolyPlace"
    elif family == "gencauchy":
        cal = calibration.calibrate_gencauchy(eps, gamma=g, p=4, theta=1)
        name = "M3-GenCauchy"
    elif family == "student_t_tight":
        from smoothsens_core.calibration.tight import tight_calibration

        printed = calibration.calibrate_student_t(eps, gamma=g, nu=3)
        tight = tight_calibration(printed, "gp")
        return mech.smooth_sensitivity_mechanism(
            query.f,
            lambda pts: query.smooth_sensitivity(pts, float(printed.gamma)),
            printed.noise,
            float(tight.eta_tight),
            eps,
            name="M3-tight",
            info={"gamma": float(printed.gamma), "calibration": "student_t tight (issue 9)",
                  "eta_printed": float(printed.eta)},
        )
    else:
        raise ValueError(
            f"family must be 'student_t', 'polyplace', 'gencauchy' or 'student_t_tight'; got {family!r}"
        )
    gamma_used = float(cal.gamma)
    return mech.smooth_sensitivity_mechanism(
        query.f,
        lambda pts: query.smooth_sensitivity(pts, gamma_used),
        cal.noise,
        float(cal.eta),
        eps,
        name=name,
        info={"gamma": gamma_used, "calibration": getattr(cal, "mechanism", family)},
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


# ---- one-way threshold (004 Fig. 3) -------------------------------------------------------------
def one_way_threshold(
    *,
    ns: Sequence[int] = (10**3, 10**4, 10**5),
    eps_values: Sequence[float] = (1 / 1_000, 1 / 2_500, 1 / 10_000),
    thresholds: Sequence[float] = (10_000.0, 100_000.0, 500_000.0, 1_000_000.0),
    reps: int = 100,
    mechanisms: Sequence[str] = ("M0", "M2", "M3", "M3-tight", "M3-PolyPlace", "M3-GenCauchy", "M_LDP"),
    c_ldp: float = 12_000.0,
    seed: int = 0,
    progress: Progress = _quiet,
) -> ExperimentResult:
    """MSE of the estimate of (1/n) sum f_tau(x_i) over ``reps`` repetitions (004 Sec. 5, Fig. 3).

    Incomes from :func:`data.household_incomes` (one sample of max(ns) users; the first n are
    used for each n, so the data sets are nested); tau = min(0.2 T, 2/eps); M3 at gamma = eps/9.
    Rows: T, eps, n, mechanism, mse, mse_se, mse_analytic (Var(Z) sum_i s_i^2 / n^2 for the
    unbiased additive mechanisms; nan for M0), truth.  With Student's t (nu = 3) the squared error
    has no finite variance, so the simulated MSE converges slowly: compare with mse_analytic.
    """
    from .queries import one_way_threshold_query

    ns = [check_integer("n", n, minimum=1) for n in ns]
    reps = check_integer("reps", reps, minimum=2)
    names = _check_names(mechanisms, [m for m in MECHANISMS_ALL if m != "M1"])
    rng = check_rng(seed)
    t0 = time.perf_counter()
    x_all = data.household_incomes(max(ns), rng)
    rows: list[dict[str, Any]] = []
    total = len(thresholds) * len(eps_values) * len(ns) * len(names)
    done = 0
    for T in thresholds:
        for eps in eps_values:
            tau = min(0.2 * T, 2.0 / eps)
            query = one_way_threshold_query(T, tau)
            mechs = [build_mechanism(m, query, eps, c_ldp=c_ldp) for m in names]
            for n in ns:
                x = x_all[:n]
                truth = float(np.mean(query.f(x.reshape(-1, 1))))
                for m in mechs:
                    est = m.mean_estimates(x, rng, reps)
                    done += 1
                    # exact MSE of the unbiased additive mechanisms (M2, M3, M_LDP); nan for M0
                    exact = m.analytic_mse(x) if isinstance(m, mech.AdditiveNoiseMechanism) else math.nan
                    rows.append(
                        {"T": float(T), "eps": float(eps), "n": n, "mechanism": m.name,
                         "mse": estimators.mse(est, truth), "mse_se": estimators.mse_standard_error(est, truth),
                         "mse_analytic": exact, "truth": truth}
                    )
                    progress(f"[{done}/{total}] one-way T={T:g} eps={eps:.3g} n={n} {m.name}: "
                             f"MSE={rows[-1]['mse']:.3g}")
    params = {"ns": ns, "eps_values": list(eps_values), "thresholds": list(thresholds), "reps": reps,
              "mechanisms": names, "c_ldp": c_ldp, "seed": seed, "tau_rule": "min(0.2 T, 2/eps)",
              "gamma_rule": "eps/9 (nu = 3, nu gamma = eps/3)"}
    return ExperimentResult("one-way", rows, params, seconds=time.perf_counter() - t0)


# ---- analytic MSE of noise a priori (004 Sec. 4.1.1) -------------------------------------------
def noise_a_priori_mse(
    *,
    ns: Sequence[int] = (10**2, 10**3, 10**4, 10**5),
    T: float = 100_000.0,
    eps: float = 1 / 10_000,
    reps: int = 400,
    seed: int = 0,
    progress: Progress = _quiet,
) -> ExperimentResult:
    """Analytic MSE of the noise-a-priori hard threshold (004 Sec. 4.1.1) against simulation.

    Rows: n, mse_analytic, mse_sim, mse_se, bias2 (the squared bias, the floor of the MSE).
    """
    ns = [check_integer("n", n, minimum=1) for n in ns]
    reps = check_integer("reps", reps, minimum=2)
    rng = check_rng(seed)
    t0 = time.perf_counter()
    x_all = data.household_incomes(max(ns), rng)
    m0 = mech.NoiseAPriori(lambda p: (p[:, 0] > T).astype(float), eps)
    rows = []
    for n in ns:
        x = x_all[:n]
        truth = float(np.mean(x > T))
        est = m0.mean_estimates(x, rng, reps)
        rows.append({"n": n, "mse_analytic": estimators.analytic_mse_noise_a_priori_threshold(x, T, eps),
                     "mse_sim": estimators.mse(est, truth), "mse_se": estimators.mse_standard_error(est, truth),
                     "bias2": estimators.noise_a_priori_threshold_bias(x, T, eps) ** 2})
        progress(f"noise-mse n={n}: analytic {rows[-1]['mse_analytic']:.4g} sim {rows[-1]['mse_sim']:.4g}")
    params = {"ns": ns, "T": T, "eps": eps, "reps": reps, "seed": seed}
    return ExperimentResult("noise-mse", rows, params, seconds=time.perf_counter() - t0)


# ---- grid experiments (two-way threshold, KDE) ------------------------------------------------
def _grid_ase(
    x: FloatArray,
    queries: list[Any],
    names: list[str],
    eps: float,
    reps: int,
    rng: np.random.Generator,
    c_ldp: float,
    progress: Progress,
    label: str,
    keep_run: bool,
    gamma: float | None = None,
) -> tuple[dict[str, float], dict[str, FloatArray], FloatArray]:
    """ASE of each mechanism over a list of grid queries; also one run's estimates per grid point.

    M0 releases each user's noisy point once per repetition and the analyst evaluates every grid
    query on the same noisy points (noise a priori serves all queries); every other mechanism
    answers each query with fresh noise.  The per-query marginal law, hence the expected ASE, is
    the same either way.
    """
    truth = np.array([float(np.mean(q.f(x))) for q in queries])
    sq_err: dict[str, FloatArray] = {m: np.zeros(reps) for m in names}
    one_run: dict[str, FloatArray] = {}
    for m in names:
        t0 = time.perf_counter()
        if m == "M0":
            m0 = mech.NoiseAPriori(queries[0].f, eps)
            ests = np.empty((reps, len(queries)))
            for r in range(reps):
                noisy = m0.noisy_points(x, rng, 1)[0]
                ests[r] = [float(np.mean(q.f(noisy))) for q in queries]
        else:
            ests = np.empty((reps, len(queries)))
            for j, q in enumerate(queries):
                mj = build_mechanism(m, q, eps, c_ldp=c_ldp, gamma=gamma)
                ests[:, j] = mj.mean_estimates(x, rng, reps)
        sq_err[m] = np.mean((ests - truth[None]) ** 2, axis=1)
        if keep_run:
            one_run[m] = ests[0]
        progress(f"{label} {m}: ASE={sq_err[m].mean():.3g} ({time.perf_counter() - t0:.1f} s)")
    return {m: float(v.mean()) for m, v in sq_err.items()}, one_run, truth


def two_way_threshold(
    *,
    n: int = 100_000,
    eps_values: Sequence[float] = (1 / 12_000,),
    k: int = 16,
    t_range: tuple[float, float] = (10_000.0, 1_000_000.0),
    reps: int = 10,
    mechanisms: Sequence[str] = ("M0", "M2", "M3", "M3-PolyPlace", "M_LDP"),
    c_ldp: float = 12_000.0,
    seed: int = 0,
    progress: Progress = _quiet,
) -> ExperimentResult:
    """ASE over the (k+1) x (k+1) grid of (T1, T2) in ``t_range``^2 (004 Sec. 5, Fig. 4).

    Income/debt from :func:`data.income_debt`; tau = min(0.2 ||(T1, T2)||, 2/eps).
    Rows: eps, n, mechanism, ase.  ``arrays``: grid axes, truth and one run's estimates (first eps).
    """
    from .queries import two_way_threshold_query

    n = check_integer("n", n, minimum=1)
    k = check_integer("k", k, minimum=1)
    reps = check_integer("reps", reps, minimum=1)
    names = _check_names(mechanisms, [m for m in MECHANISMS_ALL if m != "M1"])
    rng = check_rng(seed)
    t0 = time.perf_counter()
    x = data.income_debt(n, rng)
    axis = np.linspace(t_range[0], t_range[1], k + 1)
    rows = []
    arrays: dict[str, Any] = {"axis": axis}
    for ie, eps in enumerate(eps_values):
        queries = []
        for t1 in axis:
            for t2 in axis:
                tau = min(0.2 * math.hypot(t1, t2), 2.0 / eps)
                queries.append(two_way_threshold_query(t1, t2, tau))
        ases, run, truth = _grid_ase(x, queries, names, eps, reps, rng, c_ldp, progress,
                                     f"two-way eps={eps:.3g}", keep_run=(ie == 0))
        for m in names:
            rows.append({"eps": float(eps), "n": n, "mechanism": m, "ase": ases[m]})
        if ie == 0:
            arrays["truth"] = truth.reshape(k + 1, k + 1)
            arrays["estimates"] = {m: v.reshape(k + 1, k + 1) for m, v in run.items()}
    params = {"n": n, "eps_values": list(eps_values), "k": k, "t_range": list(t_range), "reps": reps,
              "mechanisms": names, "c_ldp": c_ldp, "seed": seed}
    return ExperimentResult("two-way", rows, params, arrays, seconds=time.perf_counter() - t0)


def kde(
    *,
    n: int = 20_000,
    eps_values: Sequence[float] = (1 / 1_000,),
    h_values: Sequence[float] | None = None,
    k: int = 24,
    reps: int = 3,
    mechanisms: Sequence[str] = ("M0", "M1", "M2", "M3", "M3-PolyPlace", "M_LDP"),
    c_ldp: float = 1_000.0,
    seed: int = 0,
    progress: Progress = _quiet,
) -> ExperimentResult:
    """Gaussian KDE on the collision stand-in: ASE over a (k+1) x (k+1) grid of query points t.

    004 Sec. 5 uses h = w (w not printed; we take w = 110 km / 60, the spacing of the paper's
    60 x 60 grid), eps = 1/1000 m and C = 1000 m.  Rows: eps, h, n, mechanism, ase.
    ``arrays``: grid axes, truth and one run's estimates (first eps and h) for contour plots.
    """
    from .queries import gaussian_kde_query

    n = check_integer("n", n, minimum=1)
    k = check_integer("k", k, minimum=1)
    reps = check_integer("reps", reps, minimum=1)
    names = _check_names(mechanisms, MECHANISMS_ALL)
    rng = check_rng(seed)
    width, height = data.COLLISION_BOX_M
    hs = [width / 60.0] if h_values is None else [check_positive("h", h) for h in h_values]
    t0 = time.perf_counter()
    x = data.collision_locations(n, rng)
    ax = np.linspace(0.0, width, k + 1)
    ay = np.linspace(0.0, height, k + 1)
    rows = []
    arrays: dict[str, Any] = {"axis_x": ax, "axis_y": ay, "points_sample": x[:2000]}
    first = True
    for eps in eps_values:
        for h in hs:
            queries = [gaussian_kde_query(np.array([tx, ty]), h)
                       for ty in ay for tx in ax]
            ases, run, truth = _grid_ase(x, queries, names, eps, reps, rng, c_ldp, progress,
                                         f"kde eps={eps:.3g} h={h:.4g}", keep_run=first)
            for m in names:
                rows.append({"eps": float(eps), "h": float(h), "n": n, "mechanism": m, "ase": ases[m]})
            if first:
                arrays["truth"] = truth.reshape(k + 1, k + 1)
                arrays["estimates"] = {m: v.reshape(k + 1, k + 1) for m, v in run.items()}
                arrays["h"] = h
                first = False
    params = {"n": n, "eps_values": list(eps_values), "h_values": hs, "k": k, "reps": reps,
              "mechanisms": names, "c_ldp": c_ldp, "seed": seed}
    return ExperimentResult("kde", rows, params, arrays, seconds=time.perf_counter() - t0)


# ---- registry used by the CLI ----------------------------------------------------------------------
@dataclass(frozen=True)
class ExperimentSpec:
    """How to run one experiment: the runner, quick-mode overrides, and the figure function."""

    run: Callable[..., ExperimentResult]
    quick: Mapping[str, Any]
    plot: Callable[[ExperimentResult, Path], Path]
    description: str


def _plots() -> Any:
    from . import plots

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
    name: str, *, quick: bool = False, progress: Progress = _quiet, **overrides: Any
) -> ExperimentResult:
    """Run the registered experiment ``name`` (quick-mode sizes if ``quick``), with overrides."""
    if name not in EXPERIMENTS:
        raise ValueError(f"experiment must be one of {', '.join(sorted(EXPERIMENTS))}; got {name!r}")
    spec = EXPERIMENTS[name]
    kwargs = dict(spec.quick) if quick else {}
    kwargs.update({k: v for k, v in overrides.items() if v is not None})
    return spec.run(progress=progress, **kwargs)
