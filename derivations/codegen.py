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
(sorted by name; a duplicate name is an error).  A derivation keeps the data of its functions
(docstrings, domains, log-sampled arguments, the output modules' banner text) in
``derivations/<name>.toml`` and only ``name -> (argument symbols, expression)`` in code:
:class:`FunctionTable` joins the two and refuses a function missing on either side.

Pipeline per function
---------------------
1. ``sympy.codegen.rewriting.optimize(expr, optims_numpy)``: ``expm1``, ``log1p``, ``logaddexp``
   and friends where they apply (accuracy near 0 and in the tails);
2. ``sympy.cse`` (common subexpressions become locals ``_x0, _x1, ...``);
3. printing with :class:`_Printer` (a ``SciPyPrinter``: ``scipy.special`` for gamma, gammaln,
   betainc, lambertw ...; ``Piecewise`` -> nested ``numpy.where``; ``Max``/``Min`` -> nested
   ``numpy.maximum``/``numpy.minimum``).

Provenance of rewritten forms
-----------------------------
A derivation may hand the generator a numerically nicer form than the one it derived (log1p
instead of log(1 + x), a complement incomplete beta, a Stirling series for a lnGamma difference
at large arguments).  Such a form must be PROVEN equal to the derived expression first:
:func:`prove_rewrite` tries ``simplify(rewritten - derived) == 0`` and otherwise evaluates both
with mpmath at >= 50 digits at >= 20 random points of the stated domain (plus the edges a
derivation names), and raises :class:`ProvenanceError` when they disagree.  A rewrite that
truncates a series carries an explicit error bound (``rel_bound``/``abs_bound``) justified by the
series' remainder term in the derivation; an exact rewrite is held to 1e-30.  Every
``codegen_targets()`` calls it for each rewritten form, so a wrong rewrite stops the generator.
:func:`loggamma_difference` is the one shared numerical rewrite (lnGamma(x) - lnGamma(x - a)).

The generated code never calls SymPy or ``lambdify``; it imports numpy and scipy.special only.
Every file opens with a banner naming the derivations, the SymPy version and "do not edit".
Output is deterministic (functions sorted by name, no timestamps): generating twice gives the same
bytes.  Write with :func:`write_generated`, check with :func:`check_generated` (the
``smoothsens regenerate [--check]`` command).
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import math
import pkgutil
import random
import re
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import mpmath
import sympy as sp
from sympy.codegen.cfunctions import log1p
from sympy.codegen.rewriting import optimize, optims_numpy, sinc_opts
from sympy.printing.numpy import SciPyPrinter

from derivations.comparison import to_mpmath

__all__ = [
    "ProvenanceError",
    "Provenance",
    "prove_rewrite",
    "loggamma_difference",
    "GeneratedFunction",
    "GeneratedModule",
    "FunctionTable",
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
    ``rtol``    the relative accuracy promised against mpmath on ``domain`` (1e-12; where the
                exact function vanishes inside the domain the property test states the
                condition-number floor it allows there, tests/derivations/test_codegen_generated.py);
    ``square_powers`` print x^3 and x^4 (also in denominators) as (x^2) x and (x^2)^2 with
                ``numpy.square`` instead of ``x**3``/``x**4``, which NumPy evaluates with ``pow``
                (about 15 ns per element, 30 times a square): one or two roundings more, so the
                result may move by an ulp; for evaluators on the hot path of the core, which
                repeats the printed operations bit for bit (off by default: the other
                evaluators keep their bits).
    """

    name: str
    args: tuple[sp.Symbol, ...]
    expr: sp.Expr
    doc: str
    domain: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    log_args: tuple[str, ...] = ()
    rtol: float = 1e-12
    square_powers: bool = False


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


class FunctionTable:
    """The data of a derivation's generated evaluators, kept beside it in ``derivations/<name>.toml``.

    A derivation module owns its formulas (the SymPy expressions) in code and their metadata as
    data: for each output module ``[modules.<module>]`` with ``derivation`` and ``doc`` (the fields
    of :class:`GeneratedModule`), and for each generated function ``[functions.<name>]`` with
    ``module`` (one of those), ``doc`` (the docstring: plain math and the paper reference),
    ``domain`` (``{argument = [lo, hi]}`` for every argument) and optionally ``log_args``, ``rtol``
    and ``square_powers`` (the fields of :class:`GeneratedFunction`).  :meth:`modules` joins them
    with the derivation's ``name -> (argument symbols, expression)``; a function missing on either
    side, a misspelt field, an unknown module or a domain that does not name exactly the arguments
    raises ValueError, so the generator stops instead of writing an undocumented evaluator.
    """

    _MODULE_FIELDS = frozenset({"derivation", "doc"})
    _REQUIRED = frozenset({"module", "doc", "domain"})
    _OPTIONAL = frozenset({"log_args", "rtol", "square_powers"})

    def __init__(self, path: str | Path) -> None:
        import tomllib  # noqa: PLC0415 - read only when a derivation generates

        self.path = Path(path)
        with open(self.path, "rb") as fh:
            data = tomllib.load(fh)
        if set(data) != {"modules", "functions"}:
            raise ValueError(f"{self.path.name}: top-level tables must be [modules.*] and [functions.*]; got {sorted(data)}")
        self._modules: dict[str, dict[str, Any]] = data["modules"]
        self._functions: dict[str, dict[str, Any]] = data["functions"]
        for name, entry in self._modules.items():
            if set(entry) != self._MODULE_FIELDS:
                raise ValueError(f"{self.path.name}: [modules.{name}] must have exactly the fields "
                                 f"{sorted(self._MODULE_FIELDS)}; got {sorted(entry)}")
        for name, entry in self._functions.items():
            keys = set(entry)
            if not self._REQUIRED <= keys <= self._REQUIRED | self._OPTIONAL:
                raise ValueError(f"{self.path.name}: [functions.{name}] needs {sorted(self._REQUIRED)} and may have "
                                 f"{sorted(self._OPTIONAL)}; got {sorted(keys)}")
            if entry["module"] not in self._modules:
                raise ValueError(f"{self.path.name}: [functions.{name}] module {entry['module']!r} is not one of "
                                 f"{sorted(self._modules)}")

    @classmethod
    def beside(cls, module_file: str | Path) -> "FunctionTable":
        """The table of the derivation module at ``module_file`` (``x.py`` -> ``x.toml``)."""
        return cls(Path(module_file).with_suffix(".toml"))

    def domain(self, name: str) -> dict[str, tuple[float, float]]:
        """The stated domain of the function ``name`` (a derivation reuses it for its provenance check)."""
        if name not in self._functions:
            raise ValueError(f"{self.path.name}: no [functions.{name}]")
        return {a: (lo, hi) for a, (lo, hi) in self._functions[name]["domain"].items()}

    def function(self, name: str, args: Sequence[sp.Symbol], expr: sp.Expr) -> GeneratedFunction:
        """The :class:`GeneratedFunction` ``name`` of this table with its argument symbols and expression."""
        entry = self._functions[name]
        argnames = [a.name for a in args]
        domain = self.domain(name)
        if sorted(domain) != sorted(argnames):
            raise ValueError(f"{self.path.name}: [functions.{name}] domain must name exactly the arguments "
                             f"{argnames}; got {sorted(domain)}")
        log_args = tuple(entry.get("log_args", ()))
        if not set(log_args) <= set(argnames):
            raise ValueError(f"{self.path.name}: [functions.{name}] log_args {list(log_args)} are not all arguments {argnames}")
        optional = {k: entry[k] for k in ("rtol", "square_powers") if k in entry}
        return GeneratedFunction(name, tuple(args), expr, entry["doc"], domain=domain, log_args=log_args, **optional)

    def modules(self, formulas: Mapping[str, tuple[Sequence[sp.Symbol], sp.Expr]],
                extra: Mapping[str, Sequence[GeneratedFunction]] | None = None) -> list[GeneratedModule]:
        """The :class:`GeneratedModule` s of this table (in its order), each function built from
        ``formulas[name] = (argument symbols, expression)``, which must name exactly the table's
        functions; ``extra[module]`` appends functions whose docstrings are computed (formatted from
        the derived expression) rather than written."""
        missing, unused = sorted(set(self._functions) - set(formulas)), sorted(set(formulas) - set(self._functions))
        if missing or unused:
            raise ValueError(f"{self.path.name}: functions without a formula {missing}, formulas without an entry {unused}")
        extra = dict(extra or {})
        if not set(extra) <= set(self._modules):
            raise ValueError(f"{self.path.name}: extra functions for unknown modules {sorted(set(extra) - set(self._modules))}")
        return [
            GeneratedModule(
                module=module,
                derivation=meta["derivation"],
                functions=(*(self.function(name, *formulas[name]) for name, entry in self._functions.items()
                             if entry["module"] == module), *extra.get(module, ())),
                doc=meta["doc"],
            )
            for module, meta in self._modules.items()
        ]


class ProvenanceError(ValueError):
    """A rewritten evaluator expression could not be shown equal to the expression it was derived
    from (symbolically, or with mpmath at >= 50 digits within the stated bound)."""


@dataclass(frozen=True)
class Provenance:
    """Record of one :func:`prove_rewrite` check: how equality was shown and the largest deviation."""

    name: str
    method: str
    max_deviation: float
    n_points: int
    worst_point: tuple[tuple[str, float], ...] = ()


#: name -> Provenance of every rewrite proven in this process (read by the provenance tests).
PROVENANCE: dict[str, Provenance] = {}
_PROVEN_KEYS: dict[tuple, Provenance] = {}


def _symbolic_equal(rewritten: sp.Expr, derived: sp.Expr) -> bool:
    """simplify(rewritten - derived) == 0, with the codegen functions expm1/log1p expanded to
    exp(x) - 1 and log(1 + x) first (SymPy does not simplify through them).  No forced log/power
    expansion (derivations.comparison tries one for printed forms): it assumes positive arguments,
    which a proof of a rewrite must not.  A failed simplification is not a proof: False, and the
    caller falls back to numbers."""
    with contextlib.suppress(Exception):
        return bool(sp.simplify(sp.expand_func(rewritten - derived)) == 0)
    return False


def prove_rewrite(
    name: str,
    rewritten: sp.Expr,
    derived: sp.Expr,
    domain: Mapping[str, tuple[float, float]],
    *,
    log_args: Sequence[str] = (),
    valid: Any = None,
    edges: Sequence[Mapping[str, float]] = (),
    n: int = 24,
    dps: int = 50,
    rel_bound: float = 1e-30,
    abs_bound: float | sp.Expr = 0.0,
    symbolic: bool = True,
    seed: int = 20240,
) -> sp.Expr:
    """Return ``rewritten`` after proving that it equals ``derived``; raise :class:`ProvenanceError`.

    First ``simplify(rewritten - derived) == 0`` (skipped with ``symbolic=False`` where SymPy
    cannot decide, e.g. Piecewise with special functions).  Otherwise both are evaluated with
    mpmath at ``dps`` (>= 50) digits at ``n`` (>= 20) random points of ``domain`` (argument name ->
    (lo, hi); log-uniform for ``log_args``; ``valid(**point)`` rejects points outside a coupled
    constraint such as p theta > 1) plus the given ``edges``, and every point must satisfy
    ``|rewritten - derived| <= rel_bound |derived| + abs_bound``.  ``rel_bound`` is 1e-30 for an
    exact rewrite (agreement to the working precision); a truncated series states its remainder
    bound instead (``abs_bound`` for a log-quantity, whose absolute error is the relative error of
    its exponential; ``abs_bound`` may be a SymPy expression in the arguments, the remainder bound
    at each point)."""
    if dps < 50 or n < 20:
        raise ValueError(f"prove_rewrite needs dps >= 50 and n >= 20; got dps={dps}, n={n}")
    rewritten, derived = sp.sympify(rewritten), sp.sympify(derived)
    bound_expr = sp.sympify(abs_bound)
    syms = sorted(rewritten.free_symbols | derived.free_symbols | bound_expr.free_symbols, key=lambda v: v.name)
    missing = {v.name for v in syms} - set(domain)
    if missing:
        raise ValueError(f"prove_rewrite({name!r}): no domain for {sorted(missing)}")
    key = (name, sp.srepr(rewritten), sp.srepr(derived), tuple(sorted(domain.items())), tuple(log_args), valid,
           tuple(tuple(sorted(e.items())) for e in edges), n, dps, rel_bound, sp.srepr(bound_expr), symbolic, seed)
    if key in _PROVEN_KEYS:
        PROVENANCE[name] = _PROVEN_KEYS[key]
        return rewritten
    if symbolic and _symbolic_equal(rewritten, derived):
        rec = Provenance(name, "symbolic: simplify(rewritten - derived) == 0", 0.0, 0)
        _PROVEN_KEYS[key] = PROVENANCE[name] = rec
        return rewritten

    rng = random.Random(seed)
    names = [v.name for v in syms]
    points: list[dict[str, float]] = []
    tries = 0
    while len(points) < n and tries < 200 * n:
        tries += 1
        pt = {}
        for nm in names:
            lo, hi = domain[nm]
            if nm in log_args and lo > 0:
                pt[nm] = math.exp(rng.uniform(math.log(lo), math.log(hi)))
            else:
                pt[nm] = rng.uniform(lo, hi)
        if valid is None or valid(**pt):
            points.append(pt)
    if len(points) < n:
        raise ValueError(f"prove_rewrite({name!r}): only {len(points)} valid random points of the domain")
    points += [dict(e) for e in edges]
    f_rw, f_dv, f_bd = to_mpmath(rewritten, syms), to_mpmath(derived, syms), to_mpmath(bound_expr, syms)
    worst, worst_pt = 0.0, {}
    with mpmath.workdps(dps):
        for pt in points:
            args = [mpmath.mpf(pt[nm]) for nm in names]
            vr, vd = mpmath.re(f_rw(*args)), mpmath.re(f_dv(*args))
            if not (mpmath.isfinite(vr) and mpmath.isfinite(vd)):
                if vr == vd:
                    continue
                raise ProvenanceError(f"{name}: rewritten {vr} != derived {vd} at {pt}")
            dev = abs(vr - vd)
            ab = abs(mpmath.re(f_bd(*args)))
            allowed = rel_bound * abs(vd) + ab
            scale = abs(vd) if bound_expr.is_zero else mpmath.mpf(1)
            rel = float(dev / scale) if scale != 0 else float(dev)
            if rel >= worst:
                worst, worst_pt = rel, pt
            if dev > allowed:
                raise ProvenanceError(
                    f"{name}: the rewritten form differs from the derived expression at {pt}: "
                    f"rewritten {mpmath.nstr(vr, 25)}, derived {mpmath.nstr(vd, 25)} "
                    f"(|diff| = {mpmath.nstr(dev, 5)} > allowed {mpmath.nstr(allowed, 5)}; mpmath {dps} digits)"
                )
    if bound_expr.is_zero:
        kind = f"relative bound {rel_bound:.3g}"
    elif bound_expr.is_Number:
        kind = f"absolute bound {float(bound_expr):.3g}"
    else:
        kind = f"absolute bound {bound_expr}"
    rec = Provenance(
        name,
        f"mpmath (dps={dps}, {len(points)} points, {kind})",
        worst,
        len(points),
        tuple(sorted(worst_pt.items())),
    )
    _PROVEN_KEYS[key] = PROVENANCE[name] = rec
    return rewritten


#: Stirling's series for Binet's function mu(t) = lnGamma(t) - (t - 1/2) ln t + t - ln(2 pi)/2:
#: terms B_2k / (2k (2k - 1) t^(2k - 1)), k = 1..8, used for t >= 10; for real t > 0 the remainder
#: is bounded by the first omitted term (k = 9): |B_18|/(18*17*10^17) = 1.8e-18.
_STIRLING_TERMS = 8
_STIRLING_FROM = 10


def _binet_series(t: sp.Expr) -> sp.Expr:
    """sum_{k=1}^{8} B_2k / (2k (2k-1) t^(2k-1)) in Horner form in 1/t^2 (SymPy rationals)."""
    u = 1 / t**2
    coeffs = [sp.bernoulli(2 * k) / (2 * k * (2 * k - 1)) for k in range(1, _STIRLING_TERMS + 1)]
    acc = coeffs[-1]
    for c in reversed(coeffs[:-1]):
        acc = c + u * acc
    return acc / t


def loggamma_difference(x: sp.Expr, y: sp.Expr, a: sp.Expr, *, minus_a_log_x: bool = False) -> tuple[sp.Expr, sp.Expr, float]:
    """lnGamma(x) - lnGamma(y) with y = x - a > 0, a > 0, written for float64 (with
    ``minus_a_log_x``: lnGamma(x) - lnGamma(y) - a ln x, the bounded part for large x, for callers
    that combine a ln x with other logarithms first).

    Returns ``(exact, numeric, abs_bound)``.  ``numeric`` is the exact difference of lnGamma for
    y < 10 (both values are below lnGamma(10 + a), so the difference loses < 2e-14 absolute), and
    for y >= 10 the exact identity from Stirling's formula with Binet's function mu,

        lnGamma(x) - lnGamma(y) = a ln x - (y - 1/2) log1p(-a/x) - a + mu(x) - mu(y),

    with mu truncated after 8 terms (|error| <= 2 * 1.8e-18 = ``abs_bound``).  The subtraction of
    two lnGamma values of size ~x ln x, which loses ~log10(x ln x) digits for large x, is avoided:
    every term is of the size of the result."""
    if sp.simplify(x - y - a) != 0:
        raise ValueError(f"loggamma_difference: y must be x - a; got x={x}, y={y}, a={a}")
    exact = sp.loggamma(x) - sp.loggamma(y)
    stirling = a * sp.log(x) - (y - sp.Rational(1, 2)) * log1p(-a / x) - a + _binet_series(x) - _binet_series(y)
    if minus_a_log_x:
        exact, stirling = exact - a * sp.log(x), stirling - a * sp.log(x)
    numeric = sp.Piecewise((exact, y < _STIRLING_FROM), (stirling, True))
    k = _STIRLING_TERMS + 1
    bound = 2 * abs(float(sp.bernoulli(2 * k))) / (2 * k * (2 * k - 1) * float(_STIRLING_FROM) ** (2 * k - 1))
    return exact, numeric, bound


class _Printer(SciPyPrinter):
    """SciPyPrinter with vectorised Piecewise/Max/Min and a direct regularised incomplete beta;
    with ``square_powers``, x^3 and x^4 by squaring (see :class:`GeneratedFunction`)."""

    def __init__(self, square_powers: bool = False) -> None:
        super().__init__({"fully_qualified_modules": True, "inline": True, "allow_unknown_functions": False})
        self._square_powers = square_powers

    def _print_Pow(self, expr: sp.Pow, rational: bool = False) -> str:
        n = expr.exp
        if self._square_powers and n.is_Integer and abs(int(n)) in (3, 4):
            b = self._print(expr.base)
            sq = f"numpy.square({b})"
            pos = f"numpy.square({sq})" if abs(int(n)) == 4 else f"({sq}*{self.parenthesize(expr.base, 50)})"
            return pos if n > 0 else f"(1/{pos})"
        return super()._print_Pow(expr, rational=rational)

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
        if x2 == 1:  # I_1 - I_x = 1 - I_x(a, b): the complement, computed without cancellation
            return f"scipy.special.betaincc({self._print(a)}, {self._print(b)}, {self._print(x1)})"
        hi = f"scipy.special.betainc({self._print(a)}, {self._print(b)}, {self._print(x2)})"
        if x1 == 0:
            return hi
        return f"({hi} - scipy.special.betainc({self._print(a)}, {self._print(b)}, {self._print(x1)}))"

    def _print_hyper(self, expr: Any) -> str:  # the Gauss function 2F1 only
        ap, bq, z = expr.args
        if len(ap) != 2 or len(bq) != 1:
            raise NotImplementedError(f"only 2F1 is supported; got {expr}")
        args = ", ".join(self._print(v) for v in (*ap, *bq, z))
        return f"scipy.special.hyp2f1({args})"

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
    if not expr.has(sp.sin):  # sin(x)/x -> sinc(x) cannot apply; its pattern match is the slow part
        rest = tuple(o for o in rest if o not in sinc_opts)
    expr = optimize(expr, rest)
    return expr.replace(
        lambda e: e.is_Add and e.has(sp.exp) and any(a.is_Number for a in e.args),
        lambda e: optimize(e, [expm1_opt]),
    )


def render_function(fn: GeneratedFunction) -> str:
    """Python source of one generated function (optimise, CSE, print); cached per function."""
    return _render_cached(fn.name, tuple(fn.args), sp.sympify(fn.expr), fn.doc, fn.square_powers)


@lru_cache(maxsize=None)
def _render_cached(name: str, args: tuple[sp.Symbol, ...], expr0: sp.Expr, doc0: str, square_powers: bool = False) -> str:
    fn = GeneratedFunction(name, args, expr0, doc0)
    printer = _Printer(square_powers)
    expr = _optimise(sp.sympify(fn.expr))
    tmp = sp.numbered_symbols("_x")
    repl, reduced = sp.cse([expr], symbols=tmp, order="canonical")
    argnames = [a.name for a in fn.args]
    lines = ["@_elementwise", f"def {fn.name}({', '.join(argnames)}):"]
    doc = fn.doc.strip().replace('"""', "'''")
    lines.append('    """' + doc.replace("\n", "\n    ").rstrip() + '"""')
    for sym, sub in repl:
        lines.append(f"    {sym.name} = {printer.doprint(sub)}")
    lines.append(f"    return {printer.doprint(reduced[0])}")
    return "\n".join(lines) + "\n"




def discover_targets(package: str = "derivations",
                     progress: Callable[[str], None] | None = None) -> list[GeneratedModule]:
    """Import every module of ``package`` defining ``codegen_targets()`` and collect its targets
    (sorted by derivation module name).  ``progress(name)`` is called before each derivation
    module runs (the derivations take minutes in all; the CLI prints one line per module)."""
    pkg = importlib.import_module(package)
    out: list[GeneratedModule] = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name in _SKIP:
            continue
        mod = importlib.import_module(f"{package}.{info.name}")
        fn = getattr(mod, "codegen_targets", None)
        if fn is None:
            continue
        if progress is not None:
            progress(f"{package}.{info.name}")
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


def _positional_body(src: str, fn: GeneratedFunction) -> str:
    """The statements of a rendered function (no decorator, signature or docstring) with its
    arguments renamed by position: equal keys mean the same computation on the same inputs."""
    code = src.split('"""')[-1]
    for i, a in enumerate(fn.args):
        code = re.sub(rf"\b{re.escape(a.name)}\b", f"<arg{i}>", code)
    return f"{len(fn.args)}:{code}"


def _render_alias(fn: GeneratedFunction, target: str) -> str:
    """A generated function whose formula (after optimisation and CSE) is that of ``target``, from
    the same derivation, up to the names of its arguments: it keeps its own name, signature and
    docstring and calls ``target`` (e.g. gamma_max = eps/(p + 1) of [NRS07] and eps/(nu + 1) of
    [BS19], both in derivations.privacy_loss)."""
    argnames = ", ".join(a.name for a in fn.args)
    doc = fn.doc.strip().replace('"""', "'''")
    return "\n".join([
        "@_elementwise",
        f"def {fn.name}({argnames}):",
        '    """' + doc.replace("\n", "\n    ").rstrip() + f"\n    (The formula of {target}.)" + '"""',
        f"    return {target}({argnames})",
    ]) + "\n"


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
    derivation_of = {f.name: p.derivation for p in parts for f in p.functions}
    first_with_body: dict[str, str] = {}
    sources = []
    for f in funcs:
        src = render_function(f)
        key = derivation_of[f.name] + "|" + _positional_body(src, f)
        if key in first_with_body:  # a formula its derivation already printed: call it (same operations, same bits)
            src = _render_alias(f, first_with_body[key])
        else:
            first_with_body[key] = f.name
        sources.append(src)
    code = "\n".join(sources)
    # import only the modules the printed functions call (an unused import is a pyflakes error)
    imports = [f"import {m}" for m in ("numpy", "scipy.special") if re.search(rf"\b{re.escape(m)}\.", code)]
    body = [
        "\n".join(banner),
        mod_doc,
        "",
        *imports,
        "",
        "from smoothsens_core._elementwise import elementwise as _elementwise",
        "",
        "__all__ = [" + ", ".join(repr(f.name) for f in funcs) + "]",
        "",
    ]
    for src in sources:
        body.append("")
        body.append(src)
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
    import smoothsens_core  # noqa: PLC0415 - the generator must load even when the files it regenerates are broken

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
        diffs: list[str] = []
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
