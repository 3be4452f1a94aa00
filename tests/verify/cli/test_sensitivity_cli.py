"""``smoothsens sensitivity``: every query end to end (csv and npy), values equal the library's."""

from __future__ import annotations

import re

import numpy as np
import pytest

from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity import (
    sensitivity_bounded_range,
    sensitivity_kde,
    sensitivity_threshold,
    sensitivity_two_way_threshold,
)
from verify.cli import main


def test_sensitivity_cli_threshold_csv_roundtrip(tmp_path, capsys):
    x = np.linspace(-3, 4, 15)
    inp = tmp_path / "p.csv"
    inp.write_text("x\n" + "\n".join(repr(float(v)) for v in x) + "\n")
    out = tmp_path / "o.csv"
    assert main(["sensitivity", "threshold", "--input", str(inp), "--output", str(out),
                 "--T", "1", "--tau", "0.5", "--gamma", "0.7"]) == 0
    got = np.loadtxt(out, delimiter=",", skiprows=1)
    ref = sensitivity_threshold(x, 1.0, 0.5, growth_exp(0.7))
    np.testing.assert_allclose(got[:, 0], x)
    np.testing.assert_allclose(got[:, 1:], np.column_stack(ref), rtol=1e-15)
    assert "15 points" in capsys.readouterr().out


def test_sensitivity_cli_two_way_and_kde_npy(tmp_path):
    rng = np.random.default_rng(0)
    p = rng.normal(size=(50, 2)) * 2
    np.save(tmp_path / "p.npy", p)
    assert main(["sensitivity", "two-way", "--input", str(tmp_path / "p.npy"), "--output", str(tmp_path / "o.npy"),
                 "--T1", "1", "--T2", "0.5", "--tau", "0.4", "--gamma", "2", "--growth", "linear", "--Lambda", "1.5"]) == 0
    np.testing.assert_allclose(np.load(tmp_path / "o.npy"),
                               np.column_stack(sensitivity_two_way_threshold(p, 1, 0.5, 0.4, growth_linear(2), 1.5)))
    assert main(["sensitivity", "kde", "--input", str(tmp_path / "p.npy"), "--output", str(tmp_path / "k.npy"),
                 "--t", "0.1,-0.2", "--h", "0.8", "--gamma", "0.5"]) == 0
    np.testing.assert_allclose(np.load(tmp_path / "k.npy"),
                               np.column_stack(sensitivity_kde(p, [0.1, -0.2], 0.8, growth_exp(0.5))))


def test_sensitivity_cli_bounded_range(tmp_path):
    x = np.linspace(-2, 3, 11).reshape(-1, 1)
    np.savetxt(tmp_path / "p.csv", x, delimiter=",")
    assert main(["sensitivity", "bounded-range", "--input", str(tmp_path / "p.csv"), "--output", str(tmp_path / "o.npy"),
                 "--l", "0", "--r", "1", "--tau", "0.5", "--gamma", "1", "--shape", "trapezoid"]) == 0
    np.testing.assert_allclose(np.load(tmp_path / "o.npy"),
                               np.column_stack(sensitivity_bounded_range(x[:, 0], 0, 1, 0.5, growth_exp(1), shape="trapezoid")))


@pytest.mark.parametrize(
    "extra, msg",
    [
        (["threshold", "--tau", "0.5", "--gamma", "1"], "needs --T"),
        (["threshold", "--T", "0", "--tau", "-1", "--gamma", "1"], "tau must be in"),
        (["threshold", "--T", "0", "--tau", "1", "--gamma", "0"], "gamma must be in"),
        (["kde", "--t", "a,b", "--h", "1", "--gamma", "1"], "--t must be comma-separated"),
        (["kde", "--t", "0", "--h", "1", "--gamma", "1"], r"points must have shape \(n, 1\)"),
    ],
)
def test_sensitivity_cli_reports_bad_input(tmp_path, capsys, extra, msg):
    np.save(tmp_path / "p.npy", np.zeros((3, 2)) if extra[0] == "kde" else np.zeros((3, 1)))
    code = main(["sensitivity", *extra, "--input", str(tmp_path / "p.npy"), "--output", str(tmp_path / "o.npy")])
    assert code == 2
    assert re.search(msg, capsys.readouterr().err)


def test_sensitivity_cli_rejects_unknown_extension(tmp_path, capsys):
    (tmp_path / "p.txt").write_text("1\n")
    assert main(["sensitivity", "threshold", "--input", str(tmp_path / "p.txt"), "--output", str(tmp_path / "o.npy"),
                 "--T", "0", "--tau", "1", "--gamma", "1"]) == 2
    assert "must end in .csv or .npy" in capsys.readouterr().err


def test_audit_impl_expr_sin_compares_with_bstar_on_1000_points_without_a_kink_note(tmp_path, capsys):
    # for the smooth sin(x) the CLI printed "candidate sets missed the supremum ... f may
    # have an undeclared kink" (near x = 0 and +-pi the chord partner of L sits on a residual at
    # rounding level) and compared B with B* at 24 points only
    mod = tmp_path / "bounds_sin.py"
    mod.write_text("import numpy as np\n\ndef B(x):\n    return np.full(np.asarray(x).shape[0], 2.0)\n")
    rc = main(["audit-impl", f"{mod}:B", "--kind", "bound", "--query", "expr", "--expr", "sin(x)",
               "--gamma", "0.5", "--domain=-4:4", "--budget", "4000", "--seed", "3"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "B/B* over 1000 points" in out
    assert "kink" not in out and "unavailable" not in out
