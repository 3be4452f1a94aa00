"""derivations.codegen.FunctionTable: the generated evaluators' metadata kept as data beside each derivation."""

import importlib
import json
import pkgutil
import tomllib
from pathlib import Path

import pytest
import sympy as sp

from derivations import codegen
from derivations.codegen import FunctionTable

_DERIVATIONS = Path(codegen.__file__).parent
_GENERATED = Path(codegen.default_output_dir())
_TABLES = sorted(_DERIVATIONS.glob("*.toml"))
X, Y = sp.symbols("x y", positive=True)


def _write(tmp_path, data):
    """A TOML file of ``{"modules": {...}, "functions": {...}}`` (strings as JSON strings, which are
    TOML basic strings; domains as inline tables of two-element arrays)."""
    lines = []
    for top, table in data.items():
        for name, entry in table.items():
            lines.append(f"[{top}.{name}]")
            for k, v in entry.items():
                if isinstance(v, dict):
                    v = "{ " + ", ".join(f"{a} = [{lo!r}, {hi!r}]" for a, (lo, hi) in v.items()) + " }"
                else:
                    v = json.dumps(v)
                lines.append(f"{k} = {v}")
    path = tmp_path / "derivation.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _valid():
    return {
        "modules": {"noise": {"derivation": "derivations.example (004 Sec. 2.1)", "doc": "An example."}},
        "functions": {
            "f_sum": {"module": "noise", "doc": "f = x + y.", "domain": {"x": (0.5, 2.0), "y": (1e-6, 10.0)},
                      "log_args": ["y"]},
            "f_square": {"module": "noise", "doc": "f = x^2.", "domain": {"x": (-1.0, 1.0)}, "square_powers": True},
        },
    }


_FORMULAS = {"f_sum": ((X, Y), X + Y), "f_square": ((X,), X**2)}


def test_function_table_joins_data_and_formulas(tmp_path):
    (gm,) = FunctionTable(_write(tmp_path, _valid())).modules(_FORMULAS)
    assert (gm.module, gm.derivation, gm.doc) == ("noise", "derivations.example (004 Sec. 2.1)", "An example.")
    f_sum, f_square = gm.functions
    assert (f_sum.name, f_sum.args, f_sum.expr, f_sum.doc) == ("f_sum", (X, Y), X + Y, "f = x + y.")
    assert f_sum.domain == {"x": (0.5, 2.0), "y": (1e-6, 10.0)} and f_sum.log_args == ("y",)
    assert not f_sum.square_powers and f_square.square_powers and f_square.rtol == 1e-12


def test_function_table_appends_computed_functions(tmp_path):
    extra = codegen.GeneratedFunction("g", (X,), 2 * X, "g = 2 x.", domain={"x": (0.0, 1.0)})
    (gm,) = FunctionTable(_write(tmp_path, _valid())).modules(_FORMULAS, extra={"noise": [extra]})
    assert [f.name for f in gm.functions] == ["f_sum", "f_square", "g"]
    with pytest.raises(ValueError, match=r"extra functions for unknown modules \['calibration'\]"):
        FunctionTable(_write(tmp_path, _valid())).modules(_FORMULAS, extra={"calibration": [extra]})


def test_function_table_rejects_a_function_without_formula(tmp_path):
    with pytest.raises(ValueError, match=r"functions without a formula \['f_square'\], formulas without an entry \[\]"):
        FunctionTable(_write(tmp_path, _valid())).modules({"f_sum": _FORMULAS["f_sum"]})


def test_function_table_rejects_a_formula_without_entry(tmp_path):
    with pytest.raises(ValueError, match=r"functions without a formula \[\], formulas without an entry \['f_cube'\]"):
        FunctionTable(_write(tmp_path, _valid())).modules({**_FORMULAS, "f_cube": ((X,), X**3)})


def test_function_table_rejects_a_misspelt_field(tmp_path):
    data = _valid()
    data["functions"]["f_sum"]["log_arg"] = data["functions"]["f_sum"].pop("log_args")
    with pytest.raises(ValueError, match=r"\[functions.f_sum\] needs .* got \['doc', 'domain', 'log_arg', 'module'\]"):
        FunctionTable(_write(tmp_path, data))
    data = _valid()
    del data["functions"]["f_square"]["doc"]
    with pytest.raises(ValueError, match=r"\[functions.f_square\] needs"):
        FunctionTable(_write(tmp_path, data))
    data = _valid()
    data["modules"]["noise"]["derivaton"] = data["modules"]["noise"].pop("derivation")
    with pytest.raises(ValueError, match=r"\[modules.noise\] must have exactly the fields"):
        FunctionTable(_write(tmp_path, data))


def test_function_table_rejects_an_unknown_module(tmp_path):
    data = _valid()
    data["functions"]["f_sum"]["module"] = "noize"
    with pytest.raises(ValueError, match=r"\[functions.f_sum\] module 'noize' is not one of \['noise'\]"):
        FunctionTable(_write(tmp_path, data))


def test_function_table_rejects_a_domain_that_does_not_name_the_arguments(tmp_path):
    data = _valid()
    del data["functions"]["f_sum"]["domain"]["y"]
    with pytest.raises(ValueError, match=r"\[functions.f_sum\] domain must name exactly the arguments \['x', 'y'\]"):
        FunctionTable(_write(tmp_path, data)).modules(_FORMULAS)
    data = _valid()
    data["functions"]["f_square"]["log_args"] = ["y"]
    with pytest.raises(ValueError, match=r"\[functions.f_square\] log_args \['y'\] are not all arguments \['x'\]"):
        FunctionTable(_write(tmp_path, data)).modules(_FORMULAS)


def test_function_table_files_are_package_data():
    with open(_DERIVATIONS.parent / "pyproject.toml", "rb") as fh:
        data = tomllib.load(fh)["tool"]["setuptools"]["package-data"]
    assert "*.toml" in data["derivations"]
    assert {p.stem for p in _TABLES} == {"gencauchy", "polyplace", "privacy_loss", "stationary_004", "student_t"}


def test_function_table_rejects_a_function_entered_twice(tmp_path):
    """A copied [functions.<name>] block left unrenamed is a TOML error (tomllib's TOMLDecodeError is a
    ValueError), not a silent override of the first entry."""
    path = _write(tmp_path, _valid())
    text = path.read_text(encoding="utf-8")
    path.write_text(text + text[text.index("[functions.f_square]"):], encoding="utf-8")
    with pytest.raises(ValueError, match="f_square"):
        FunctionTable(path)


# The only generated functions written in code: the inverses of derivations.privacy_loss, whose
# docstrings quote the expression sp.solve returns (so they cannot be data written in advance).
_COMPUTED = {"privacy_loss": sorted(f"{kind}_{law}" for kind in ("eta", "gamma_max") for law in (
    "gencauchy_gp", "student_t_gp", "laplace_gl", "gencauchy_nrs07", "student_t_bs19", "laplace_nrs07"))}


def test_every_derivation_keeps_its_functions_in_the_table_beside_it():
    """Every derivation module with codegen_targets() has derivations/<name>.toml, and every function it
    generates is an entry of that table (docstring, domain, log_args, rtol, square_powers as written
    there), except the computed inverses of _COMPUTED: no derivation writes an evaluator's metadata inline."""
    computed: dict[str, list[str]] = {}
    for info in sorted(pkgutil.iter_modules([str(_DERIVATIONS)]), key=lambda m: m.name):
        module = importlib.import_module(f"derivations.{info.name}")
        if not hasattr(module, "codegen_targets"):
            continue
        path = _DERIVATIONS / f"{info.name}.toml"
        assert path.exists(), f"derivations.{info.name} generates evaluators but has no {path.name}"
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for gm in module.codegen_targets():
            assert (gm.derivation, gm.doc) == (data["modules"][gm.module]["derivation"], data["modules"][gm.module]["doc"])
            for f in gm.functions:
                entry = data["functions"].get(f.name)
                if entry is None:
                    computed.setdefault(info.name, []).append(f.name)
                    continue
                assert (entry["module"], f.doc, dict(f.domain), f.log_args) == (
                    gm.module, entry["doc"], {a: tuple(b) for a, b in entry["domain"].items()}, tuple(entry.get("log_args", ())))
                assert (f.rtol, f.square_powers) == (entry.get("rtol", 1e-12), entry.get("square_powers", False)), f.name
    assert {k: sorted(v) for k, v in computed.items()} == _COMPUTED


@pytest.mark.parametrize("path", _TABLES, ids=lambda p: p.name)
def test_function_table_docstrings_are_those_of_the_committed_generated_files(path):
    """Every entry of a shipped table is well formed and its docstring is the one the committed
    ``smoothsens_core/_generated/<module>.py`` carries (``smoothsens regenerate --check`` compares
    the whole files; this names the table entry when one drifts)."""
    table = FunctionTable(path)
    with open(path, "rb") as fh:
        functions = tomllib.load(fh)["functions"]
    for name, entry in functions.items():
        assert table.domain(name) == {a: tuple(b) for a, b in entry["domain"].items()}
        source = (_GENERATED / f"{entry['module']}.py").read_text(encoding="utf-8")
        body = source.split(f"\ndef {name}(", 1)[1]
        doc = body.split('"""', 2)[1]
        assert [ln.strip() for ln in doc.strip().splitlines()] == [ln.strip() for ln in entry["doc"].strip().splitlines()], name
