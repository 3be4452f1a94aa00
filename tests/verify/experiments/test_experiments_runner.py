"""Experiment runners, query objects, the radial smooth envelope and `smoothsens experiment`."""

import csv
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothsens_core.growth import growth_exp
from smoothsens_core.sensitivity.kde import smooth_sensitivity_kde
from verify.cli import main
from verify.experiments import queries, runner


# ---- radial_envelope: certified smooth upper bound ----------------------------------------------
@given(
    st.lists(st.floats(0.05, 3.0), min_size=2, max_size=12),
    st.lists(st.floats(-3.0, 3.0), min_size=12, max_size=12),
    st.floats(0.01, 5.0),
)
def test_radial_envelope_is_min_over_nodes_and_smooth(steps, logb, g):
    c = np.cumsum(steps)
    b = np.exp(np.array(logb[: c.size]))
    phi = queries.radial_envelope(c, b, g)
    q = np.linspace(c[0] - 2.0, c[-1] + 2.0, 301)
    # definition: Phi(c) = min_j b_j exp(g |c - c_j|) (brute force over all nodes)
    brute = np.min(b[None, :] * np.exp(g * np.abs(q[:, None] - c[None, :])), axis=1)
    assert np.allclose(phi(q), brute, rtol=1e-12)
    # above the data at the nodes, and g-smooth: Phi(c) <= e^(g|c - c'|) Phi(c')
    assert np.all(phi(c) <= b * (1 + 1e-12))
    v = phi(q)
    ratio = np.log(v[:, None]) - np.log(v[None, :]) - g * np.abs(q[:, None] - q[None, :])
    assert ratio.max() <= 1e-9


def test_radial_envelope_rejects_bad_nodes():
    with pytest.raises(ValueError, match="strictly increasing"):
        queries.radial_envelope([0.0, 0.0], [1.0, 1.0], 1.0)
    with pytest.raises(ValueError, match="b_nodes must be > 0"):
        queries.radial_envelope([0.0, 1.0], [1.0, 0.0], 1.0)
    with pytest.raises(ValueError, match="same length >= 2"):
        queries.radial_envelope([0.0], [1.0], 1.0)
    with pytest.raises(ValueError, match="gamma_h must be in"):
        queries.radial_envelope([0.0, 1.0], [1.0, 1.0], 0.0)


# ---- query objects -------------------------------------------------------------------------------
def test_one_way_query_matches_soft_threshold_definition():
    T, tau = 100.0, 20.0
    q = queries.one_way_threshold_query(T, tau)
    x = np.array([50.0, 90.0, 100.0, 105.0, 200.0])
    # f_tau of 004 Sec. 4.1.2: 0 below T - tau/2, (x - T)/tau + 1/2 on the ramp, 1 above
    assert np.allclose(q.f(x.reshape(-1, 1)), [0.0, 0.0, 0.5, 0.75, 1.0])
    assert q.lipschitz == pytest.approx(1 / tau)
    b = q.smooth_sensitivity(x.reshape(-1, 1), 0.01)
    # B* >= local Lipschitz and B* <= K_f = 1/tau (004 Sec. 1.1: B* <= K_f)
    assert np.all(b <= 1 / tau + 1e-15) and np.all(b > 0)
    assert b[2] == pytest.approx(1 / tau)


def test_build_mechanism_rejects_unknown_and_misapplied():
    q = queries.one_way_threshold_query(100.0, 20.0)
    with pytest.raises(ValueError, match="mechanism must be one of"):
        runner.build_mechanism("M9", q, 1.0)
    with pytest.raises(ValueError, match="Gaussian KDE query only"):
        runner.build_mechanism("M1", q, 1.0)
    with pytest.raises(ValueError, match="needs c_ldp"):
        runner.build_mechanism("M_LDP", q, 1.0)
    with pytest.raises(ValueError, match="eps must be in"):
        runner.build_mechanism("M2", q, -1.0)


# ---- runners -------------------------------------------------------------------------------------
def test_one_way_runner_m2_matches_analytic_mse_and_m0_bias_persists():
    res = runner.one_way_threshold(ns=(500, 20_000), eps_values=(1 / 10_000,), thresholds=(100_000.0,),
                                   reps=60, mechanisms=("M0", "M2"), seed=3)
    assert {r["mechanism"] for r in res.rows} == {"M0", "M2"}
    T, eps = 100_000.0, 1 / 10_000
    tau = min(0.2 * T, 2 / eps)
    for r in res.select(mechanism="M2"):
        # Var(Lap(0, 1/(tau eps))) = 2/(tau eps)^2 per user: MSE = 2/(tau eps)^2/n (unbiased)
        expect = 2 / (tau * eps) ** 2 / r["n"]
        assert abs(r["mse"] - expect) < 5 * r["mse_se"]
    m0 = {r["n"]: r["mse"] for r in res.select(mechanism="M0")}
    # 40x more users: an unbiased estimator would gain 40x; M0's bias keeps the gain below 10x
    assert m0[20_000] > m0[500] / 10


def test_run_experiment_rejects_unknown_name():
    with pytest.raises(ValueError, match="experiment must be one of"):
        runner.run_experiment("nope")


def test_cli_experiment_writes_csv_and_png(tmp_path, capsys):
    rc = main(["experiment", "noise-mse", "--quick", "--out", str(tmp_path), "--seed", "1"])
    assert rc == 0
    captured = capsys.readouterr()
    assert "noise-mse n=100" in captured.err  # progress on stderr
    assert "mse_analytic" in captured.out
    with open(tmp_path / "noise-mse.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert [int(float(r["n"])) for r in rows] == [100, 1000]
    for r in rows:
        assert abs(float(r["mse_sim"]) - float(r["mse_analytic"])) < 5 * float(r["mse_se"])
    png = (tmp_path / "noise-mse.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_experiment_one_way_options(tmp_path, capsys):
    rc = main(["experiment", "one-way", "--out", str(tmp_path), "--n", "200,400", "--eps", "1/5000",
               "--thresholds", "50000", "--reps", "5", "--mechanisms", "M2,M_LDP", "--no-figure"])
    assert rc == 0
    with open(tmp_path / "one-way.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 4 and {r["mechanism"] for r in rows} == {"M2", "M_LDP"}
    assert float(rows[0]["eps"]) == pytest.approx(1 / 5000)
    assert not (tmp_path / "one-way.png").exists()


def test_cli_experiment_bad_option_is_one_line_error(tmp_path, capsys):
    rc = main(["experiment", "two-way", "--thresholds", "5", "--out", str(tmp_path)])
    assert rc == 2
    assert "--thresholds applies to the one-way experiment only" in capsys.readouterr().err


def test_kde_query_envelope_bounds_exact_closed_form():
    t, h, gamma = np.array([3.0, -1.0]), 0.7, 0.9
    q = queries.gaussian_kde_query(t, h)
    x = np.random.default_rng(5).normal(0.0, 8.0, (4000, 2))
    x[:3] = [t, t + [1e-9, 0.0], t + [0.0, 0.7]]  # x = t and a point near it
    env = q.smooth_sensitivity(x, gamma)
    exact = smooth_sensitivity_kde(x, t, h, growth_exp(gamma))
    # certified upper bound, larger by at most e^(gamma h dc/2) (module docstring)
    assert np.all(env >= exact)
    assert np.all(env <= exact * q.params["envelope_factor"] * (1 + 1e-11))
    assert q.lipschitz == pytest.approx(math.exp(-0.5) / h)
    assert np.allclose(q.f(x[:1]), 1.0)
