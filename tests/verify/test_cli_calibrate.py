"""`smoothsens calibrate`: the comparison table, its JSON form and its error messages."""

import json

import pytest

from smoothsens_core.calibration import calibration_table
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


def test_cli_calibrate_json_matches_table_function(capsys):
    assert main(["calibrate", "--eps", "2", "--gamma", "0.1", "--json", "--metric", "dp"]) == 0
    rows = json.loads(capsys.readouterr().out)
    ref = calibration_table(2.0, None, 0.1, metric="dp")
    assert [r["family"] for r in rows] == [r["family"] for r in ref]
    for r, q in zip(rows, ref):
        assert r["metric"] == "dp"
        if q["eta"] is not None:
            assert r["eta"] == pytest.approx(q["eta"], rel=1e-12)
            assert r["eps"] == pytest.approx(2.0, rel=1e-12)


def test_cli_calibrate_infeasible_rows_are_explained(capsys):
    assert main(["calibrate", "--eps", "1", "--delta", "1e-5"]) == 0
    out = capsys.readouterr().out
    assert "infeasible (see note)" in out and "gamma ln(1/delta) < eps" in out


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
    import re

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
    from smoothsens_core.calibration import format_tight_table

    out = format_tight_table(rows)
    assert "eps tight (same eta)" in out and "std saved" in out and "%" in out
    assert main(["calibrate", "--eps", "1", "--tight", "--delta", "1e-5"]) == 2
