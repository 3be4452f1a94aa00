"""`smoothsens asymmetric-example` (003 Sec. VI worked example): table, CSV, one-sided error, bad input."""

from __future__ import annotations

import csv

import pytest

from verify.cli import main
from verify.experiments.asymmetric import location_threshold_example, synthetic_visits


def test_asymmetric_example_command_prints_table_and_csv(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    rc = main(["asymmetric-example", "--seed", "1", "--out", str(tmp_path), "--reps", "20", "--eps", "0.5,2"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "ALap low found" in out and "SALap" in out and "DP low E[beta]" in out
    rows = list(csv.DictReader(open(tmp_path / "asymmetric_example.csv")))
    assert [float(r["eps"]) for r in rows] == [0.5, 2.0]
    for r in rows:
        assert int(r["low_alap_false_safe"]) == 0 and int(r["high_alap_false_safe"]) == 0
        assert int(r["high_salap_false_safe"]) == 0


def test_asymmetric_example_adp_beats_dp_baseline_and_grows_with_eps() -> None:
    rows = location_threshold_example(seed=2, eps_values=(0.25, 1.0, 4.0), reps=20)
    betas = [r["low_alap_expected_beta"] for r in rows]
    assert betas == sorted(betas)
    assert all(r["low_alap_expected_beta"] > r["low_dp_expected_beta"] for r in rows)


@pytest.mark.parametrize(
    "argv,match",
    [
        (["--eps", "0"], "eps must be in"),
        (["--eps", "-1"], "eps must be in"),
        (["--locations", "0"], "record domain of locations is empty"),
        (["--threshold", "400"], "threshold must be in"),
        (["--threshold", "-1"], "threshold must be in"),
    ],
)
def test_asymmetric_example_bad_input_is_one_clear_error(argv, match, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["asymmetric-example", *argv]) == 2
    assert match in capsys.readouterr().err


def test_synthetic_visits_and_example_raise_value_error() -> None:
    with pytest.raises(ValueError, match="record domain of locations is empty"):
        synthetic_visits(0, 10, 0)
    with pytest.raises(ValueError, match="max_visits must be <= locations"):
        synthetic_visits(2, 10, 0, max_visits=3)
    with pytest.raises(ValueError, match="threshold must be in"):
        location_threshold_example(threshold=10, n_users=10)
    with pytest.raises(ValueError, match="eps must list"):
        location_threshold_example(eps_values=())
