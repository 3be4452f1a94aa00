"""Experiments as independent tasks: child seeds per (configuration, chunk), results merged
in task order, so a serial run, a run in another task order and a Dask LocalCluster run give
bit-identical tables; and the closed-form MSE of M0 (noise a priori) for the one-way ramp."""

import math

import mpmath as mp
import numpy as np
import pytest

from verify import parallel
from verify.cli import main
from verify.experiments import estimators, runner
from verify.experiments import mechanisms as mech
from verify.experiments.queries import one_way_threshold_query
from verify.reference.distributions import laplace_pdf


class _Reversed(parallel.SerialExecutor):
    """Runs the tasks last to first (a different completion order), returns them in task order."""

    name = "reversed"

    def map(self, fn, tasks, *, label="task", progress=None):
        out = [None] * len(tasks)
        for i in reversed(range(len(tasks))):
            out[i] = fn(*tasks[i])
            if progress is not None:
                progress(i, out[i])
        return out


def _same(a, b):
    assert a.rows == b.rows  # exact equality of every float
    for key in ("truth", "axis", "axis_x"):
        if key in a.arrays:
            assert np.array_equal(a.arrays[key], b.arrays[key])
    for m, v in a.arrays.get("estimates", {}).items():
        assert np.array_equal(v, b.arrays["estimates"][m])


def test_child_seed_is_the_nested_spawn_of_the_master_seed():
    want = parallel.spawn_seeds(7, 2)[1].spawn(4)[3].spawn(3)[2]
    got = runner._child_seed(7, 1, 3, 2)
    assert np.array_equal(want.generate_state(8), got.generate_state(8))
    assert not np.array_equal(runner._child_seed(7, 1, 3, 1).generate_state(8), got.generate_state(8))


def test_income_data_sets_are_nested_prefixes():
    big = runner._dataset("incomes", 3_000, 11)
    small = runner._dataset("incomes", 300, 11)
    assert np.array_equal(small, big[:300])


@pytest.mark.parametrize("name", ["noise-mse", "two-way", "one-way"])
def test_table_does_not_depend_on_task_order(name):
    over = {"mechanisms": ("M0", "M2", "M3")} if name != "noise-mse" else {}
    a = runner.run_experiment(name, quick=True, seed=5, **over)
    b = runner.run_experiment(name, quick=True, seed=5, executor=_Reversed(), **over)
    _same(a, b)
    c = runner.run_experiment(name, quick=True, seed=6, **over)
    assert a.rows != c.rows  # the seed matters


def test_repetitions_are_split_into_tasks_with_their_own_seeds():
    lines = []
    res = runner.noise_a_priori_mse(ns=(200,), reps=10, reps_per_task=4, seed=1, progress=lines.append)
    task_lines = [ln for ln in lines if " reps " in ln]
    assert len(task_lines) == 3 and any("reps 8-9" in ln for ln in task_lines)
    # chunk k of configuration c draws from _child_seed(seed, 1, c, k): reproduce the estimates
    x = runner._dataset("incomes", 200, 1)
    m0 = mech.NoiseAPriori(lambda p: (p[:, 0] > 100_000.0).astype(float), 1 / 10_000)
    est = np.concatenate([m0.mean_estimates(x, runner._task_rng(1, 0, k), r) for k, r in enumerate((4, 4, 2))])
    assert res.rows[0]["mse_sim"] == estimators.mse(est, float(np.mean(x > 100_000.0)))


def test_serial_and_localcluster_give_bit_identical_tables():
    pytest.importorskip("distributed")
    serial = {name: runner.run_experiment(name, quick=True, seed=3) for name in runner.EXPERIMENTS}
    with parallel.DaskExecutor(None, 2) as ex:
        dask = {name: runner.run_experiment(name, quick=True, seed=3, executor=ex) for name in runner.EXPERIMENTS}
    for name in runner.EXPERIMENTS:
        _same(serial[name], dask[name])
        assert dask[name].backend.startswith("dask LocalCluster") and serial[name].backend == "serial"


def test_cli_workers_option_gives_the_serial_csv(tmp_path, capsys):
    pytest.importorskip("distributed")
    base = ["experiment", "one-way", "--quick", "--no-figure", "--seed", "2", "--mechanisms", "M0,M3-tight",
            "--no-progress"]
    assert main(base + ["--out", str(tmp_path / "s")]) == 0
    assert main(base + ["--out", str(tmp_path / "d"), "--workers", "2"]) == 0
    err = capsys.readouterr().err
    assert "backend: dask LocalCluster" in err and "[1/" in err
    assert (tmp_path / "s" / "one-way.csv").read_text() == (tmp_path / "d" / "one-way.csv").read_text()


# ---- M0 (noise a priori) analytic MSE for the ramp f_tau -------------------------------------------
def _ramp_moments_mp(x, T, tau, eps):
    """Bias and variance of f_tau(x + Z), Z ~ Lap(1/eps), by quadrature over the smooth pieces
    (90 digits: above the ramp m1 - f(x) = m1 - 1 cancels down to ~1e-40 here)."""
    with mp.workdps(90):
        b = mp.mpf(1) / eps
        x, T, tau = mp.mpf(x), mp.mpf(T), mp.mpf(tau)
        a = T - tau / 2
        dens = lambda z: laplace_pdf(z, 0, b)  # noqa: E731  (Lap(0, b), 004 Sec. 2.1)
        lo, hi = a - x, a + tau - x  # ramp for z in [lo, hi]
        ramp = lambda z, k: ((x + z - a) / tau) ** k * dens(z)  # noqa: E731
        cuts = sorted({lo, hi, mp.mpf(0)} if lo < 0 < hi else {lo, hi})
        inner = [(cuts[i], cuts[i + 1]) for i in range(len(cuts) - 1)]
        above = (mp.exp(-hi / b) / 2) if hi > 0 else (1 - mp.exp(hi / b) / 2)  # P(Z > hi)
        m1 = sum(mp.quad(lambda z: ramp(z, 1), [u, v]) for u, v in inner) + above
        m2 = sum(mp.quad(lambda z: ramp(z, 2), [u, v]) for u, v in inner) + above
        f0 = min(max((x - a) / tau, 0), 1)
        return float(m1 - f0), float(m2 - m1 * m1)


@pytest.mark.parametrize("tau_eps", [0.05, 1.0, 2.0, 8.0])
def test_ramp_moments_match_quadrature(tau_eps):
    eps, T = 0.3, 100.0
    tau = tau_eps / eps
    xs = np.array([-80.0, 60.0, T - tau, T - tau / 2, T - tau / 4, T, T + tau / 3, T + tau, 150.0, 400.0])
    bias, var = estimators.noise_a_priori_ramp_moments(xs, T, tau, eps)
    for x, bb, vv in zip(xs, bias, var, strict=True):
        rb, rv = _ramp_moments_mp(x, T, tau, eps)
        # at x = T the bias is 0 by symmetry: there only an absolute rounding error (of the
        # O(b/tau) terms of the closed form) is allowed
        assert abs(bb - rb) <= 1e-10 * abs(rb) + (1e-13 / tau_eps if x == T else 0.0)
        assert vv == pytest.approx(rv, rel=1e-9, abs=1e-300)


def test_ramp_mse_matches_simulation_and_tends_to_hard_threshold():
    rng = np.random.default_rng(4)
    x = runner._dataset("incomes", 2_000, 4)
    T, eps = 100_000.0, 1 / 10_000
    tau = min(0.2 * T, 2 / eps)
    q = one_way_threshold_query(T, tau)
    est = mech.NoiseAPriori(q.f, eps).mean_estimates(x, rng, 20_000)
    truth = float(np.mean(q.f(x.reshape(-1, 1))))
    exact = estimators.analytic_mse_noise_a_priori_ramp(x, T, tau, eps)
    assert abs(estimators.mse(est, truth) - exact) < 4 * estimators.mse_standard_error(est, truth)
    hard = estimators.analytic_mse_noise_a_priori_threshold(x, T, eps)
    assert estimators.analytic_mse_noise_a_priori_ramp(x, T, 1e-3, eps) == pytest.approx(hard, rel=1e-4)


def test_one_way_table_has_m0_analytic_mse_not_nan():
    res = runner.one_way_threshold(ns=(300,), eps_values=(1e-4,), thresholds=(1e5,), reps=4, mechanisms=("M0",))
    v = res.rows[0]["mse_analytic"]
    assert isinstance(v, float) and math.isfinite(v) and v > 0
    assert runner._analytic_cell(math.inf) == "n/a (Var(Z) infinite)"
