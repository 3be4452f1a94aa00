"""Code generator: SymPy derivations -> plain NumPy/SciPy modules in ``smoothsens_core/_generated``.

Discovery interface
-------------------
Any module ``derivations.<name>`` that defines ``codegen_targets() -> list[GeneratedModule]``
contributes generated functions.  A :class:`GeneratedModule` names the output module (``"noise"``
writes ``smoothsens_core/_generated/noise.py``), the derivation it came from (a dotted module
path and the paper reference) and its :class:`GeneratedFunction` s: function name, argument
symbols, SymPy expression, docstring, and the domain of each argument (used by the property
tests that compare every generated evaluator with an mpmath evaluation of the same expression).
Several derivation modules may contribute to the same output module; their functions are merged
(sorted by name; a duplicate name is an error).

Pipeline per function
---------------------
1. ``sympy.codegen.rewriting.optimize(expr, optims_numpy)``: ``expm1``, ``log1p``, ``logaddexp``
   and friends where they apply (accuracy near 0 and in the tails);
2. ``sympy.cse`` (common subexpressions become locals ``_x0, _x1, ...``);
3. printing with :class:`_Printer` (a ``SciPyPrinter``: ``scipy.special`` for gamma, gammaln,
   betainc, lambertw ...; ``Piecewise`` -> nested ``numpy.where``; ``Max``/``Min`` -> nested
   ``numpy.maximum``/``numpy.minimum``).

The generated code never calls SymPy or ``lambdify``; it imports numpy and scipy.special only.
Every file opens with a banner naming the derivations, the SymPy version and "do not edit".
Output is deterministic (functions sorted by name, no timestamps): generating twice gives the same
bytes.  Write with :func:`write_generated`, check with :func:`check_generated` (the
``smoothsens regenerate [--check]`` command).
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import sympy as sp
from sympy.codegen.rewriting import optimize, optims_numpy
from sympy.printing.numpy import SciPyPrinter

__all__ = [
    "GeneratedFunction",
    "GeneratedModule",
    "discover_targets",
    "collect_modules",
    "render_module",
    "render_all",
    "write_generated",
    "check_generated",
    "default_output_dir",
    "REGENERATE_COMMAND",
]

REGENERATE_COMMAND = "smoothsens regenerate"

# Modules of the derivations package that are infrastructure, not derivations.
_SKIP = {"codegen", "comparison"}


@dataclass(frozen=True)
class GeneratedFunction:
    """One generated evaluator.

    ``name``    the public function name in the generated module;
    ``args``    the argument symbols, in call order;
    ``expr``    the SymPy expression it evaluates (broadcast over NumPy arrays);
    ``doc``     the docstring (plain math + paper reference);
    ``domain``  for each argument name ``(lo, hi)``, the domain where the evaluator is valid and
                tested (open bounds are fine: tests stay strictly inside);
    ``log_args`` names of arguments sampled log-uniformly in tests (wide positive ranges);
    ``rtol``    the relative accuracy promised against mpmath on ``domain`` (default 1e-12);
    ``atol``    an absolute floor for the test comparison (0 = purely relative).
    """

    name: str
    args: tuple[sp.Symbol, ...]
    expr: sp.Expr
    doc: str
    domain: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    log_args: tuple[str, ...] = ()
    rtol: float = 1e-12
    atol: float = 0.0


@dataclass(frozen=True)
class GeneratedModule:
    """A group of generated functions destined for ``smoothsens_core/_generated/<module>.py``.

    ``module`` output module name; ``derivation`` the producing derivation (dotted path plus the
    paper reference, shown in the banner); ``functions`` the functions; ``doc`` one paragraph for
    the module docstring.
    """

    module: str
    derivation: str
    functions: tuple[GeneratedFunction, ...]
    doc: str = ""


def _as_function(f: Any) -> GeneratedFunction:
    if isinstance(f, GeneratedFunction):
        return f
    name, args, expr, doc = f  # the plain tuple form of the discovery interface
    return GeneratedFunction(str(name), tuple(args), expr, str(doc))


class _Printer(SciPyPrinter):
    """SciPyPrinter with vectorised Piecewise/Max/Min and a direct regularised incomplete beta."""

    def __init__(self) -> None:
        super().__init__({"fully_qualified_modules": True, "inline": True, "allow_unknown_functions": False})

    def _print_Piecewise(self, expr: sp.Piecewise) -> str:  # nested numpy.where
        pieces = list(expr.args)
        e_last, c_last = pieces[-1]
        if c_last == sp.true:
            out, rest = self._print(e_last), pieces[:-1]
        else:  # no default branch: NaN outside every condition (never reached for valid input)
            out, rest = "numpy.nan", pieces
        for e, c in reversed(rest):
            out = f"numpy.where({self._print(c)}, {self._print(e)}, {out})"
        return out

    def _nested(self, fn: str, args: Sequence[sp.Expr]) -> str:
        args = sorted(args, key=sp.default_sort_key)
        out = self._print(args[-1])
        for a in reversed(args[:-1]):
            out = f"{fn}({self._print(a)}, {out})"
        return out

    def _print_Max(self, expr: sp.Max) -> str:
        return self._nested("numpy.maximum", expr.args)

    def _print_Min(self, expr: sp.Min) -> str:
        return self._nested("numpy.minimum", expr.args)

    def _print_betainc_regularized(self, expr: Any) -> str:
        a, b, x1, x2 = expr.args
        hi = f"scipy.special.betainc({self._print(a)}, {self._print(b)}, {self._print(x2)})"
        if x1 == 0:
            return hi
        return f"({hi} - scipy.special.betainc({self._print(a)}, {self._print(b)}, {self._print(x1)}))"

    def _print_lambertw(self, expr: Any) -> str:
        k = expr.args[1] if len(expr.args) > 1 else 0
        return f"numpy.real(scipy.special.lambertw({self._print(expr.args[0])}, {self._print(k)}))"

    def _print_Pi(self, expr: Any) -> str:
        return "numpy.pi"

    def _print_Exp1(self, expr: Any) -> str:
        return "numpy.e"

    def _print_sign(self, expr: Any) -> str:
        return f"numpy.sign({self._print(expr.args[0])})"


def _optimise(expr: sp.Expr) -> sp.Expr:
    """``optimize`` with the NumPy optimisations.  The expm1 rewrite (``optims_numpy[0]``) expands
    the expression it is given, which would undo deliberate forms such as (p theta - 1)/p (exact
    at theta = 1, where theta - 1/p is not); it is therefore applied only to the sums that hold
    an exponential and a constant term, its only opportunities."""
    expm1_opt, rest = optims_numpy[0], optims_numpy[1:]
    expr = optimize(expr, rest)
    return expr.replace(
        lambda e: e.is_Add and e.has(sp.exp) and any(a.is_Number for a in e.args),
        lambda e: optimize(e, [expm1_opt]),
    )


def render_function(fn: GeneratedFunction) -> str:
    """Python source of one generated function (optimise, CSE, print); cached per function."""
    return _render_cached(fn.name, tuple(fn.args), sp.sympify(fn.expr), fn.doc)


@lru_cache(maxsize=None)
def _render_cached(name: str, args: tuple[sp.Symbol, ...], expr0: sp.Expr, doc0: str) -> str:
    fn = GeneratedFunction(name, args, expr0, doc0)
    printer = _Printer()
    expr = _optimise(sp.sympify(fn.expr))
    tmp = sp.numbered_symbols("_x")
    repl, reduced = sp.cse([expr], symbols=tmp, order="canonical")
    argnames = [a.name for a in fn.args]
    lines = [f"def {fn.name}({', '.join(argnames)}):"]
    doc = fn.doc.strip().replace('"""', "'''")
    lines.append('    """' + doc.replace("\n", "\n    ").rstrip() + "\n    ")
    lines.append("    Generated code: arguments broadcast as NumPy arrays; returns float64 (a NumPy")
    lines.append('    scalar for scalar input)."""')
    for a in argnames:
        lines.append(f"    {a} = numpy.asarray({a}, dtype=numpy.float64)")
    lines.append('    with numpy.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):')
    lines.append("        # Branches of numpy.where are all evaluated; the unused ones may overflow.")
    for sym, sub in repl:
        lines.append(f"        {sym.name} = {printer.doprint(sub)}")
    lines.append(f"        _result = {printer.doprint(reduced[0])}")
    lines.append(f"    return _finish(_result, {', '.join(argnames)})")
    return "\n".join(lines) + "\n"


_FINISH = '''
def _finish(result, *args):
    """Broadcast ``result`` to the common shape of ``args``; a NumPy scalar for scalar input."""
    shape = numpy.broadcast_shapes(*(numpy.shape(a) for a in args))
    out = numpy.array(numpy.broadcast_to(numpy.asarray(result, dtype=numpy.float64), shape))
    return out[()]
'''


def discover_targets(package: str = "derivations") -> list[GeneratedModule]:
    """Import every module of ``package`` defining ``codegen_targets()`` and collect its targets
    (sorted by derivation module name)."""
    pkg = importlib.import_module(package)
    out: list[GeneratedModule] = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name in _SKIP:
            continue
        mod = importlib.import_module(f"{package}.{info.name}")
        fn = getattr(mod, "codegen_targets", None)
        if fn is None:
            continue
        for gm in fn():
            if not isinstance(gm, GeneratedModule):
                raise TypeError(f"{package}.{info.name}.codegen_targets() must return GeneratedModule objects")
            out.append(GeneratedModule(gm.module, gm.derivation, tuple(_as_function(f) for f in gm.functions), gm.doc))
    return out


def collect_modules(targets: Iterable[GeneratedModule]) -> dict[str, list[GeneratedModule]]:
    """Group targets by output module; refuse duplicate function names within a module."""
    groups: dict[str, list[GeneratedModule]] = {}
    for gm in targets:
        groups.setdefault(gm.module, []).append(gm)
    for name, gms in groups.items():
        seen: dict[str, str] = {}
        for gm in gms:
            for f in gm.functions:
                if f.name in seen:
                    raise ValueError(
                        f"generated module {name!r}: function {f.name!r} produced by both "
                        f"{seen[f.name]} and {gm.derivation}"
                    )
                seen[f.name] = gm.derivation
    return groups


def render_module(name: str, parts: Sequence[GeneratedModule]) -> str:
    """The full source of ``_generated/<name>.py`` from its contributing targets."""
    derivs = sorted({p.derivation for p in parts})
    funcs = sorted((f for p in parts for f in p.functions), key=lambda f: f.name)
    banner = [
        "# " + "=" * 96,
        "# GENERATED FILE - DO NOT EDIT.",
        f"# Written by derivations/codegen.py (`{REGENERATE_COMMAND}`) with SymPy {sp.__version__}.",
        "# Derivations:",
        *[f"#   {d}" for d in derivs],
        f"# Check with `{REGENERATE_COMMAND} --check`; update with `{REGENERATE_COMMAND}`.",
        "# " + "=" * 96,
    ]
    docs = [p.doc.strip() for p in sorted(parts, key=lambda p: p.derivation) if p.doc.strip()]
    mod_doc = f'"""Generated evaluators: {name} (do not edit; see the banner).\n\n'
    if docs:
        mod_doc += "\n\n".join(docs) + "\n\n"
    mod_doc += "Functions: " + ", ".join(f.name for f in funcs) + ".\n" + '"""'
    body = [
        "\n".join(banner),
        mod_doc,
        "",
        "import numpy",
        "import scipy.special",
        "",
        "__all__ = [" + ", ".join(repr(f.name) for f in funcs) + "]",
        "",
        _FINISH,
    ]
    for f in funcs:
        body.append("")
        body.append(render_function(f))
    text = "\n".join(body)
    # normalise: no trailing spaces, exactly one newline at the end
    text = "\n".join(line.rstrip() for line in text.splitlines())
    while "\n\n\n\n" in text:
        text = text.replace("\n\n\n\n", "\n\n\n")
    return text.strip() + "\n"


def render_all(targets: Iterable[GeneratedModule] | None = None) -> dict[str, str]:
    """File name -> source for every generated module (deterministic)."""
    targets = discover_targets() if targets is None else list(targets)
    groups = collect_modules(targets)
    return {f"{name}.py": render_module(name, groups[name]) for name in sorted(groups)}


def default_output_dir() -> Path:
    """``smoothsens_core/_generated`` of the installed (editable) package."""
    import smoothsens_core

    return Path(smoothsens_core.__file__).resolve().parent / "_generated"


def write_generated(out_dir: str | Path | None = None, targets: Iterable[GeneratedModule] | None = None) -> list[Path]:
    """Write every generated module into ``out_dir``; return the files whose content changed."""
    out = Path(out_dir) if out_dir is not None else default_output_dir()
    out.mkdir(parents=True, exist_ok=True)
    changed = []
    for fname, text in render_all(targets).items():
        path = out / fname
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            changed.append(path)
    return changed


def check_generated(out_dir: str | Path | None = None, targets: Iterable[GeneratedModule] | None = None) -> tuple[bool, str]:
    """Regenerate into a temporary folder and compare with ``out_dir``.

    Returns ``(up_to_date, report)``; the report holds a unified diff per stale file and the
    command that updates them.
    """
    out = Path(out_dir) if out_dir is not None else default_output_dir()
    with tempfile.TemporaryDirectory() as tmp:
        write_generated(tmp, targets)
        diffs = []
        for new in sorted(Path(tmp).glob("*.py")):
            old = out / new.name
            old_text = old.read_text() if old.exists() else ""
            new_text = new.read_text()
            if old_text != new_text:
                diffs.extend(
                    difflib.unified_diff(
                        old_text.splitlines(keepends=True),
                        new_text.splitlines(keepends=True),
                        fromfile=str(old),
                        tofile=f"regenerated/{new.name}",
                    )
                )
    if diffs:
        return False, "".join(diffs) + f"\nGenerated files are out of date; run `{REGENERATE_COMMAND}` to update them.\n"
    return True, "generated files are up to date\n"
