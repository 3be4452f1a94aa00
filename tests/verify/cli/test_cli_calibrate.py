"""`smoothsens calibrate`: the comparison table, its JSON form and its error messages."""

import json
import math
import re

import pytest

from smoothsens_core.calibration import calibration_table, format_tight_table
from verify.cli import main


def test_cli_calibrate_prints_aligned_table(capsys):
    assert main(["calibrate", "--eps", "1", "--delta", "1e-5", "--gamma", "0.05"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    head = [i for i, line in enumerate(lines) if line.startswith("family")][0]
    table = lines[head : head + 2 + len(calibration_table(1.0, 1e-5, 0.05))]
    assert len({len(line.rstrip()) for line in table[:2]}) == 1  # header and rule have equal width
    # every column starts at the same offset in every row (aligned): the 'eps (certified)' column
    col = table[0].index("eps (certified)") + len("eps (certified)")
    for line in table[2:]:
        assert line[col - 1] != " "  # right-aligned numbers end at the header's end
    assert "004 Lemma 3.5" in out and "002 Thm. 8" in out and "004 Lemma 3.6" in out and "BS19" in out


@pytest.mark.parametrize("word", ["dp", "hamming"])
def test_cli_calibrate_json_matches_table_function(capsys, word):
    # the CLI accepts the papers' word (dp) and the metric name; the rows carry the metric name
    assert main(["calibrate", "--eps", "2", "--gamma", "0.1", "--json", "--metric", word]) == 0
    rows = json.loads(capsys.readouterr().out)
    ref = calibration_table(2.0, None, 0.1, metric="hamming")
    assert [r["family"] for r in rows] == [r["family"] for r in ref]
    for r, q in zip(rows, ref, strict=True):
        assert r["metric"] == "hamming"
        if q["eta"] is not None:
            assert r["eta"] == pytest.approx(q["eta"], rel=1e-12)
            assert r["eps"] == pytest.approx(2.0, rel=1e-12)


def test_cli_calibrate_infeasible_rows_are_explained(capsys):
    assert main(["calibrate", "--eps", "1", "--delta", "1e-5", "--gamma", "0.111"]) == 0
    out = capsys.readouterr().out
    assert "infeasible (see note)" in out and "gamma ln(1/delta) < eps" in out


def test_cli_calibrate_default_has_a_usable_row_for_every_mechanism(capsys):
    """The README's example: with the default gamma every mechanism gets a row (the Laplace ones
    with their own gamma, marked * and explained in a note)."""
    assert main(["calibrate", "--eps", "1", "--delta", "1e-5"]) == 0
    out = capsys.readouterr().out
    assert "infeasible" not in out
    assert out.count("gamma chosen for this mechanism") == 2


@pytest.mark.parametrize("word", ["gp", "GP", "euclidean"])
def test_cli_calibrate_accepts_metric_gp_and_shows_the_metric_name(capsys, word):
    assert main(["calibrate", "--eps", "1", "--gamma", "0.05", "--no-optimise", "--metric", word]) == 0
    out = capsys.readouterr().out
    assert "metric euclidean" in out and "gp" not in out.split("\n")[0].lower().replace("geo-privacy", "")
    assert main(["calibrate", "--eps", "1", "--gamma", "0.05", "--no-optimise", "--metric", word, "--json"]) == 0
    assert {r["metric"] for r in json.loads(capsys.readouterr().out)} == {"euclidean"}


def test_cli_calibrate_tight_accepts_metric_gp(capsys):
    assert main(["calibrate", "--eps", "1", "--gamma", "0.1", "--tight", "--metric", "gp"]) == 0
    assert "(euclidean)" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize("word", ["p-neighbouring", "l2"])
def test_cli_calibrate_rejects_unknown_metric_in_argparse(capsys, word):
    # argparse reports a bad --metric value itself (usage + message, exit status 2)
    with pytest.raises(SystemExit) as exc:
        main(["calibrate", "--eps", "1", "--metric", word])
    assert exc.value.code == 2
    assert f"metric must be one of 'euclidean', 'hamming'; got metric='{word}'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, match",
    [
        (["calibrate", "--eps", "-1"], r"eps must be in \(0, inf\)"),
        (["calibrate", "--eps", "1", "--delta", "1.5"], r"delta must be in \(0.0, 1.0\)"),
        (["calibrate", "--eps", "1", "--gamma", "0"], r"gamma must be in \(0, inf\)"),
        (["calibrate", "--eps", "nan"], r"eps must be a finite real number"),
    ],
)
def test_cli_calibrate_bad_arguments_exit_2(capsys, argv, match):
    assert main(argv) == 2
    assert re.search(match, capsys.readouterr().err)


def test_cli_calibrate_tight_prints_printed_and_tight(capsys):
    assert main(["calibrate", "--eps", "1", "--gamma", "0.1", "--tight", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by = {r["family"]: r for r in rows}
    t4 = by["Student t(nu=4)"]
    # 004 Remark example point: eta = 0.5 at eps 1.025; here eps = 1, gamma = 0.1: printed eta = 0.48
    assert t4["eta_printed"] == pytest.approx(0.48, rel=1e-12)
    assert t4["eps_tight"] < 1.0 and t4["eta_tight"] > t4["eta_printed"] and 0 < t4["std_saved"] < 1
    assert by["PolyPlace"]["std_saved"] == 0.0 and "already tight" in by["PolyPlace"]["note"]
    out = format_tight_table(rows)
    assert "eps tight (same eta)" in out and "std saved" in out and "%" in out


def test_cli_calibrate_tight_with_delta_adds_the_laplace_row(capsys):
    """--tight --delta: the pure rows plus Laplace g_L (004 Lemma 3.6): printed vs tight delta and eta."""
    assert main(["calibrate", "--eps", "1", "--delta", "1e-5", "--gamma", "0.05", "--tight"]) == 0
    out = capsys.readouterr().out
    assert "Student t(nu=3)" in out and "PolyPlace" in out  # the pure rows are kept
    lines = out.splitlines()
    head = [i for i, line in enumerate(lines) if line.startswith("family") and "delta tight (same eta)" in line][0]
    row = lines[head + 2]
    assert row.startswith("Laplace g_L (approx.)") and "004 Lemma 3.6" in row
    # GP, Lambda = inf: tight delta at the printed eta is delta (1 + e^(-2 eta/gamma))/2 = 5e-06; the
    # tight eta is eta_p + gamma ln(1 + sqrt(1 - e^(-2 eta_p/gamma))) (tight.py module docstring)
    eta_p = 1 - 0.05 * math.log(1e5)
    eta_t = eta_p + 0.05 * math.log(1 + math.sqrt(1 - math.exp(-2 * eta_p / 0.05)))
    assert f"{eta_p:.6g}" in row and f"{eta_t:.6g}" in row and "5e-06" in row and "0.5 " in row
    assert f"{100 * (1 - eta_p / eta_t):.2f}%" in row
    # JSON: the same rows plus the Laplace one
    assert main(["calibrate", "--eps", "1", "--delta", "1e-5", "--gamma", "0.05", "--tight", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    lap = {r["family"]: r for r in rows}["Laplace g_L (approx.)"]
    assert lap["eta_printed"] == pytest.approx(eta_p, rel=1e-14) and lap["eta_tight"] == pytest.approx(eta_t, rel=1e-9)
    assert lap["delta_tight"] <= 1e-5 and lap["delta_ratio"] == pytest.approx(0.5, rel=1e-6)


def test_cli_calibrate_tight_with_delta_explains_infeasible(capsys):
    # default gamma = eps/9: gamma ln(1/delta) = 1.28 > eps; for GP with Lambda = inf the tight one too
    assert main(["calibrate", "--eps", "1", "--delta", "1e-5", "--tight"]) == 0
    out = capsys.readouterr().out
    assert "infeasible (see note)" in out and "gamma is too large for delta" in out
    assert main(["calibrate", "--eps", "1", "--tight", "--delta", "2"]) == 2
