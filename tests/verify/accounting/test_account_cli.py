"""``smoothsens account``: prints the certified enclosure / interval and exits 0; bad input exits 2.

The reference numbers are the closed forms (Balle & Wang 2018, Thm. 8 in 50-digit mpmath for the Gaussian;
1 - e^((eps - Delta/b)/2) for Laplace)."""

from __future__ import annotations

import json
import math
import re

import mpmath
import pytest

from verify.audit.exact.curve import gaussian_delta_balle_wang
from verify.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        rc = main(["account", *argv])
    except SystemExit as exc:            # argparse rejects the value
        rc = int(exc.code or 0)
    out, err = capsys.readouterr()
    return rc, out, err


def test_single_gaussian_prints_an_enclosure_containing_the_closed_form(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "--mechanism", "gaussian:sigma=2,sensitivity=1", "--eps", "1")
    assert rc == 0
    m = re.search(r"delta\(1\) in \[([0-9.e+-]+), ([0-9.e+-]+)\] \(certified", out)
    assert m, out
    truth = gaussian_delta_balle_wang(1.0, 2.0, 1.0)
    assert mpmath.mpf(m.group(1)) <= truth <= mpmath.mpf(m.group(2)) * (1 + 1e-9)


def test_composition_json_contains_the_gdp_closed_form(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "-m", "gaussian:sigma=10", "--k", "100", "--eps", "0.5", "--eps", "2", "--json")
    assert rc == 0
    data = json.loads(out)
    assert data["k"] == 100
    for row in data["delta"]:
        truth = gaussian_delta_balle_wang(row["eps"], 1.0, 1.0)   # 100 x sigma=10 is sigma=1
        assert row["certified"] and row["lower"] <= truth <= row["upper"]


def test_delta_target_prints_an_eps_interval(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "-m", "laplace:b=0.5", "--delta", "1e-3")
    assert rc == 0
    m = re.search(r"eps\(0\.001\) in \[([0-9.e+-]+), ([0-9.e+-]+)\] \(certified\)", out)
    assert m, out
    truth = 2 + 2 * math.log1p(-1e-3)     # eps = Delta/b + 2 ln(1 - delta)
    assert float(m.group(1)) <= truth + 1e-12 and truth - 1e-12 <= float(m.group(2))


def test_plot_writes_a_png(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    path = f"{tmp_path}/curve.png"
    rc, out, _ = _run(capsys, "-m", "discrete_laplace:b=2,sensitivity=1", "--k", "5", "--eps", "1", "--plot", path)
    assert rc == 0 and "plot written" in out
    with open(path, "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv,words", [
    (["-m", "gaussian:sigma=-2", "--eps", "1"], "scale"),
    (["-m", "cauchy:scale=1", "--eps", "1"], "family"),
    (["-m", "gaussian:sigma=1", "--eps", "-1"], "--eps"),
    (["-m", "gaussian:sigma=1", "--delta", "2"], "--delta"),
    (["-m", "gaussian:sigma=1", "--eps", "1", "--k", "0"], "--k"),
    (["-m", "gaussian:sigma=1", "--eps", "1", "--h", "0"], "--h"),
    (["-m", "polyplace:alpha=0.5,scale=1", "--eps", "1"], "alpha"),
])
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    rc, out, err = _run(capsys, *argv)
    assert rc == 2
    assert words in err and "Traceback" not in err


def test_polyplace_dilated_pair_composes(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "-m", "polyplace:alpha=3,scale=2,ratio=1.2", "--k", "2", "--eps", "1", "--h", "0.1")
    assert rc == 0 and "certified PLD composition" in out and "NOT" not in out
