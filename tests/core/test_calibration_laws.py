"""smoothsens_core/calibration/laws.toml: the printed laws' metadata, read once at import by _load_laws."""

import json
import tomllib
from pathlib import Path

import pytest

from smoothsens_core import calibration as cal

_SHIPPED = Path(cal.__file__).with_name("laws.toml")


def _evaluators():
    """The (gamma_max, eta_of, eps_of) the module attached, keyed by family."""
    return {f: (law.gamma_max, law.eta_of, law.eps_of) for f, law in cal._LAWS.items()}


def _write(tmp_path, table):
    lines = []
    for family, entry in table.items():
        lines.append(f"[{family}]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in entry.items()]  # a JSON string is a TOML basic string
    path = tmp_path / "laws.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _shipped_table():
    with open(_SHIPPED, "rb") as fh:
        return tomllib.load(fh)


def test_calibration_laws_file_is_package_data():
    with open(Path(__file__).parents[2] / "pyproject.toml", "rb") as fh:
        data = tomllib.load(fh)["tool"]["setuptools"]["package-data"]
    assert "laws.toml" in data["smoothsens_core.calibration"]


@pytest.mark.parametrize("make, family, source", [
    (lambda: cal.calibrate_gencauchy(1.0, 0.05, p=4, theta=1), "gencauchy", "004 Lemma 3.3"),
    (lambda: cal.calibrate_gencauchy(1.0, 0.05, p=4, theta=1, m=2), "gencauchy", "004 Cor. 3.2"),
    (lambda: cal.calibrate_student_t(1.0, 0.05, nu=3), "student_t", "004 Lemma 3.5"),
    (lambda: cal.calibrate_laplace_approx(1.0, 1e-6, 0.05), "laplace_gl", "004 Lemma 3.6"),
    (lambda: cal.calibrate_gencauchy_nrs07(1.0, 0.05, p=4), "gencauchy_nrs07", "NRS07 (004 Remark 3.5; 002 Cl. 16)"),
    (lambda: cal.calibrate_student_t_bs19(1.0, 0.05, nu=3), "student_t_bs19", "BS19 (004 Remark 3.5; 002 Cl. 17)"),
    (lambda: cal.calibrate_laplace_nrs07(1.0, 1e-6, 0.05), "laplace_nrs07", "NRS07 (002 Cl. 18)"),
])
def test_calibration_records_the_law_text_of_its_family(make, family, source):
    """Each calibration carries its family's formula and growth from laws.toml, and the citation
    (004 Sec. 3; NRS07/BS19 as quoted in 004 Remark after Lemma 3.5 and 002 Claims 16-18)."""
    c = make()
    entry = _shipped_table()[family]
    assert (c.family, c.source, c.formula, c.growth) == (family, source, entry["formula"], entry["growth"])


def test_calibration_gamma_error_quotes_the_law_need():
    with pytest.raises(ValueError, match=r"need nu gamma < eps \(nu=3.0, eps=1.0\)"):
        cal.calibrate_student_t(1.0, 0.5, nu=3)


def test_load_laws_reads_the_shipped_file_back():
    laws = cal._load_laws(_SHIPPED, _evaluators())
    assert laws == cal._LAWS
    assert set(laws) == {"gencauchy", "student_t", "laplace_gl", "gencauchy_nrs07", "student_t_bs19", "laplace_nrs07"}


def test_load_laws_rejects_a_missing_family(tmp_path):
    table = _shipped_table()
    del table["laplace_nrs07"]
    with pytest.raises(ValueError, match=r"missing \['laplace_nrs07'\], extra \[\]"):
        cal._load_laws(_write(tmp_path, table), _evaluators())


def test_load_laws_rejects_an_extra_family(tmp_path):
    table = _shipped_table()
    table["student_t_nrs07"] = dict(table["student_t"])
    with pytest.raises(ValueError, match=r"missing \[\], extra \['student_t_nrs07'\]"):
        cal._load_laws(_write(tmp_path, table), _evaluators())


def test_load_laws_rejects_a_misspelt_family(tmp_path):
    table = _shipped_table()
    table["studnet_t"] = table.pop("student_t")
    with pytest.raises(ValueError, match=r"missing \['student_t'\], extra \['studnet_t'\]"):
        cal._load_laws(_write(tmp_path, table), _evaluators())


def test_load_laws_rejects_a_misspelt_field(tmp_path):
    table = _shipped_table()
    table["gencauchy"]["fromula"] = table["gencauchy"].pop("formula")
    with pytest.raises(ValueError, match=r"\[gencauchy\] must have the text fields"):
        cal._load_laws(_write(tmp_path, table), _evaluators())


def test_load_laws_rejects_an_unknown_growth(tmp_path):
    table = _shipped_table()
    table["laplace_gl"]["growth"] = "g_X"
    with pytest.raises(ValueError, match=r"\[laplace_gl\] growth must be 'g_E' or 'g_L'; got 'g_X'"):
        cal._load_laws(_write(tmp_path, table), _evaluators())
