"""Ball-arithmetic (arb) evaluators translated from the SymPy derivations.

Nothing here types a density.  The project states each noise density twice (the NumPy core and
one mpmath reference); the proof engine gets its functions from the **SymPy** side instead:
``derivations.privacy_loss`` derives D_shift = -psi and D_scale = -(1 + z psi) (psi = (ln h)')
of GenCauchy (004 Lemma 3.3) and Student's t (004 Lemma 3.5) from their log-densities, and
``derivations.polyplace.derive_log_derivatives`` those of PolyPlace (002 Lemma 10).  This module
translates any such SymPy expression tree into arb operations (python-flint 0.9):

* :func:`compile_arb` -- a small recursive translator (Add, Mul, Pow with integer / rational / real
  exponents, exp, log, log1p, sqrt, Abs, sign, Max, Min, Heaviside, Piecewise, gamma, loggamma,
  pi, E).  Every operation returns a ball containing the exact range of the operation over its
  argument balls (arb's inclusion principle); real powers x^y of a nonnegative base are enclosed
  by their four corner values (x^y is monotone in x and in y separately), so z^p with z in [0, 1]
  and p a ball is finite; Piecewise takes the union of every branch whose condition may hold.
* :class:`Objective` -- a function F(v_1, ..., v_n) <= 0 to be proven on a box, with
  - sign splitting: each |a| and each Piecewise branch yields a *variant*, simplified once by
    SymPy with the sign (branch) fixed; on a box where the guards (signs of the arguments,
    branch conditions) are certain, the simplified variant is evaluated (PolyPlace's
    |shift| + |scale| then simplifies to the constant alpha/s of 002 Lemma 12, so F = 0 is proven
    exactly, not approached);
  - the mean-value form F(c) + sum_i dF/dv_i(B) (B_i - c_i) with the derivatives from ``sp.diff``,
    for each smooth variant, and for the whole F only when every Piecewise in it is *proven*
    continuous (:func:`_continuous`: e1 - e2 a polynomial multiple of the condition; SymPy
    differentiates a Piecewise branchwise, so across a jump the form would bound F by the branch
    at the centre c: unsound); a condition the sign split does not express (Or, Not, Eq, ITE)
    leaves plain ball arithmetic only;
  - every variable's SymPy assumptions must hold on its whole interval (:func:`check_assumptions`:
    SymPy simplifies with them when the expression is built), and lo <= hi;
  - point intervals (a variable with lo == hi: a number of a statement kept symbolic, so that
    SymPy never decides a comparison numerically) get no symbolic derivative (no box is ever
    split there; :meth:`Objective.evaluate` refuses a box that widens one);
  - compactification of one half-line variable z in [0, inf) (see :class:`Objective`).

Fallback: mpmath's ``iv`` would be used if python-flint were not importable; it is (0.9.0), so
this module requires flint and raises ImportError with that message otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, reduce
from typing import Any, Callable, Sequence

import sympy as sp
from sympy.codegen.cfunctions import log1p as _sp_log1p

try:
    import flint
    from flint import arb, fmpq
except ImportError as exc:  # pragma: no cover - flint is a declared extra
    raise ImportError("verify.proof needs python-flint (pip install python-flint); mpmath.iv fallback not built") from exc

__all__ = ["ArbFunction", "check_assumptions", "restate_on_box", "compile_arb", "pow_ball", "ball", "ball_from_fraction", "arb_to_fraction", "upper_fraction",
           "lower_fraction", "Objective", "OnBox", "Variable", "workprec"]


class workprec:
    """Context manager: arb working precision (bits), restored on exit (like mpmath.workprec)."""

    def __init__(self, bits: int) -> None:
        self.bits = int(bits)

    def __enter__(self) -> "workprec":
        self._old = flint.ctx.prec
        flint.ctx.prec = self.bits
        return self

    def __exit__(self, *exc: Any) -> None:
        flint.ctx.prec = self._old


def ball_from_fraction(q: Fraction) -> arb:
    """A ball containing the rational q (exact when q is dyadic and fits the precision)."""
    return arb(fmpq(q.numerator, q.denominator))


def ball(lo: Fraction, hi: Fraction) -> arb:
    """A ball containing [lo, hi] (clipped at 0 when lo >= 0, so that powers of z >= 0 stay real)."""
    b = ball_from_fraction(lo).union(ball_from_fraction(hi))
    if lo >= 0:
        b = b.nonnegative_part()
    return b


def _exact_rational(q: Fraction | float) -> Any:
    """The SymPy Rational of an exact coordinate; a float (only the compactified point at infinity is one)
    has no exact rational and raises TypeError."""
    if not isinstance(q, Fraction):
        raise TypeError(f"an exact (Fraction) coordinate is needed here; got {q!r}")
    return sp.Rational(q.numerator, q.denominator)


def arb_to_fraction(x: arb) -> Fraction:
    """The exact value of an exact (radius 0) arb, e.g. ``b.upper()``."""
    if not x.is_finite():
        raise ValueError(f"arb value must be finite; got {x}")
    man_z, exp_z = x.mid().man_exp()
    man, exp = int(man_z), int(exp_z)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2 ** (-exp))


def upper_fraction(x: arb) -> Fraction | float:
    """An exact rational >= every point of the ball x (+inf for a non-finite ball)."""
    if not x.is_finite():
        return math.inf
    return arb_to_fraction(x.upper())


def lower_fraction(x: arb) -> Fraction | float:
    """An exact rational <= every point of the ball x (-inf for a non-finite ball)."""
    if not x.is_finite():
        return -math.inf
    return arb_to_fraction(x.lower())


_NAN = arb.nan()


def pow_ball(x: arb, y: arb) -> arb:
    """Enclosure of {a^b : a in x, b in y} for a real exponent ball y.

    For x >= 0 the map (a, b) -> a^b is monotone in a (for fixed b > 0) and in b (for fixed a),
    so its range over the box is spanned by the four corners; 0^b = 0 for b > 0.  A base ball
    reaching below 0 (a non-integer power of a negative number) gives NaN: not proven."""
    if not (x.is_finite() and y.is_finite()):
        return _NAN
    if y.is_exact() and y.is_integer():
        n = int(arb_to_fraction(y))
        return x**n
    xl = x.lower()
    if xl > 0:
        return x**y  # arb's real power of a positive ball: a rigorous enclosure
    xu = x.upper()
    if xl < 0:
        return _NAN
    yl, yu = y.lower(), y.upper()
    contains_zero = not (xl > 0)
    if contains_zero and not (yl > 0):
        return _NAN  # 0^b with b <= 0
    corners = []
    for a in (xl, xu):
        for b in (yl, yu):
            corners.append(arb(0) if a == 0 else a**b)
    return reduce(lambda u, v: u.union(v), corners).nonnegative_part()  # a^b >= 0 for a >= 0


ArbFunction = Callable[[Sequence[arb]], arb]


def _cond_state(rel: Any, env: Callable[[sp.Expr], ArbFunction], args: Sequence[arb]) -> bool | None:
    """True/False when the relation holds/fails on the whole box, None when undetermined."""
    if rel is sp.true or rel == True:  # noqa: E712
        return True
    if rel is sp.false or rel == False:  # noqa: E712
        return False
    if isinstance(rel, sp.And):
        st = [_cond_state(a, env, args) for a in rel.args]
        return False if False in st else (True if all(s is True for s in st) else None)
    if isinstance(rel, sp.Or):
        st = [_cond_state(a, env, args) for a in rel.args]
        return True if True in st else (False if all(s is False for s in st) else None)
    if isinstance(rel, sp.Not):
        s = _cond_state(rel.args[0], env, args)
        return None if s is None else not s
    if not isinstance(rel, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)):
        return None  # Eq, Ne, ITE, Xor, ...: not decided here, so every branch stays possible (sound)
    d = env(rel.lhs - rel.rhs)(args)
    if not d.is_finite():
        return None
    lo, hi = d.lower(), d.upper()
    if isinstance(rel, sp.StrictLessThan):
        return True if hi < 0 else (False if lo >= 0 else None)
    if isinstance(rel, sp.LessThan):
        return True if hi <= 0 else (False if lo > 0 else None)
    if isinstance(rel, sp.StrictGreaterThan):
        return True if lo > 0 else (False if hi <= 0 else None)
    return True if lo >= 0 else (False if hi < 0 else None)


def compile_arb(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> ArbFunction:
    """Translate a SymPy expression into a function of a sequence of arb balls (one per variable).

    Common sub-expressions (``sp.cse``) are evaluated once per call.  Raises TypeError for a node
    outside the supported set (listed in the module docstring)."""
    expr = _fuse_xpow_log(sp.sympify(expr))
    if expr.has(sp.Piecewise):
        return _compile_tree(expr, variables)
    reps, (reduced,) = sp.cse(expr, symbols=sp.numbered_symbols("cse_", cls=sp.Dummy))
    if not reps:
        return _compile_tree(reduced, variables)
    names = list(variables)
    steps = []
    for sym, sub in reps:
        steps.append(_compile_tree(sub, list(names)))
        names.append(sym)
    final = _compile_tree(reduced, names)

    def run(a: Sequence[arb]) -> arb:
        env = list(a)
        for st in steps:
            env.append(st(env))
        return final(env)

    return run


def _compile_tree(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> ArbFunction:
    index = {v: i for i, v in enumerate(variables)}
    cache: dict[sp.Expr, ArbFunction] = {}

    def tr(e: sp.Expr) -> ArbFunction:
        if e in cache:
            return cache[e]
        f = _tr(e)
        cache[e] = f
        return f

    def const(value: arb) -> ArbFunction:
        return lambda a: value

    def _tr(e: sp.Expr) -> ArbFunction:
        if e.is_Symbol:
            if e not in index:
                raise TypeError(f"free symbol {e} is not one of the variables {list(variables)}")
            i = index[e]
            return lambda a: a[i]
        if e.is_Integer or e.is_Rational or e.is_Float:
            q = sp.Rational(e)  # for a Float: its exact binary value
            num, den = int(q.p), int(q.q)
            if den & (den - 1) == 0 and abs(num).bit_length() < 50:
                exact = arb(fmpq(num, den))  # dyadic: exact at every precision
                return lambda a: exact
            return lambda a: arb(fmpq(num, den))
        if e is sp.S.NegativeOne:
            return const(arb(-1))
        if e is sp.pi:
            return lambda a: arb.pi()
        if e is sp.E:
            return lambda a: arb.const_e()
        if e is sp.oo or e is sp.zoo or e is sp.nan or e is -sp.oo:
            return const(_NAN)
        if isinstance(e, sp.Add):
            fs = [tr(t) for t in e.args]

            def add(a: Sequence[arb]) -> arb:
                vals = [f(a) for f in fs]
                acc = vals[0]
                for v in vals[1:]:
                    acc = acc + v
                return _clip_sign(acc, vals, product=False)

            return add
        if isinstance(e, sp.Mul):
            if e.args[0] is sp.S.NegativeOne:
                rest = tr(sp.Mul(*e.args[1:]))
                return lambda a: -rest(a)
            fs = [tr(t) for t in e.args]

            def mul(a: Sequence[arb]) -> arb:
                vals = [f(a) for f in fs]
                acc = vals[0]
                for v in vals[1:]:
                    acc = acc * v
                return _clip_sign(acc, vals, product=True)

            return mul
        if isinstance(e, sp.Pow):
            base, ex = e.args
            fb = tr(base)
            if ex.is_Integer:
                n = int(ex)
                if n >= 0:
                    if n % 2 == 0:
                        def even(a: Sequence[arb]) -> arb:
                            x = fb(a) ** n
                            return x.nonnegative_part() if x.is_finite() else x

                        return even
                    return lambda a: _clip_sign(fb(a) ** n, [fb(a)], product=True)
                return lambda a: _clip_sign(1 / (fb(a) ** (-n)), [fb(a)] * (-n), product=True)
            if ex == sp.Rational(1, 2):
                return lambda a: _sqrt(fb(a))
            if ex == sp.Rational(-1, 2):
                return lambda a: 1 / _sqrt(fb(a))
            fe = tr(ex)
            return lambda a: pow_ball(fb(a), fe(a))
        if isinstance(e, sp.exp):
            f = tr(e.args[0])
            return lambda a: f(a).exp()
        if isinstance(e, sp.log):
            if len(e.args) != 1:
                raise TypeError(f"log with a base is not supported: {e}")
            f = tr(e.args[0])
            return lambda a: _log(f(a))
        if isinstance(e, _sp_log1p):
            f = tr(e.args[0])
            return lambda a: _log1p(f(a))
        if isinstance(e, sp.Abs):
            f = tr(e.args[0])
            return lambda a: abs(f(a))
        if isinstance(e, sp.sign):
            f = tr(e.args[0])
            return lambda a: _sign(f(a))
        if isinstance(e, sp.Heaviside):
            f = tr(e.args[0])
            return lambda a: _heaviside(f(a))
        if isinstance(e, (sp.Max, sp.Min)):
            fs = [tr(t) for t in e.args]
            op = arb.max if isinstance(e, sp.Max) else arb.min
            return lambda a: reduce(op, (f(a) for f in fs))
        if isinstance(e, XPowLog):
            return _xpow_log(tr(e.args[0]), tr(e.args[1]))
        if isinstance(e, sp.gamma):
            f = tr(e.args[0])
            return lambda a: f(a).gamma()
        if isinstance(e, sp.loggamma):
            f = tr(e.args[0])
            return lambda a: f(a).lgamma()
        if isinstance(e, sp.Piecewise):
            branches = [(tr(ex), cond) for ex, cond in e.args]

            def pw(a: Sequence[arb]) -> arb:
                out = None
                for fe, cond in branches:
                    st = _cond_state(cond, tr, a)
                    if st is False:
                        continue
                    v = fe(a)
                    out = v if out is None else out.union(v)
                    if st is True:
                        return out
                return _NAN if out is None else out

            return pw
        raise TypeError(f"compile_arb: unsupported node {type(e).__name__}: {e}")

    root = tr(sp.sympify(expr))
    return root


def _clip_sign(result: arb, parts: Sequence[arb], *, product: bool) -> arb:
    """Midpoint-radius balls of [0, b] carry a rounding tail below 0; when every factor (term) has a
    certain sign, so has the product (sum), and the tail is clipped: a rigorous sharpening."""
    if not result.is_finite():
        return result
    neg = 0
    for v in parts:
        if not v.is_finite():
            return result
        if v.lower() >= 0:
            continue
        if v.upper() <= 0:
            neg += 1
            continue
        return result
    if product:
        return result.nonnegative_part() if neg % 2 == 0 else -(-result).nonnegative_part()
    if neg == 0:
        return result.nonnegative_part()
    if neg == len(parts):
        return -(-result).nonnegative_part()
    return result


class XPowLog(sp.Function):
    """x^y ln(x), kept as one node so that x = 0 (where ln x = -inf) is enclosed correctly."""

    nargs = 2


def _fuse_xpow_log(expr: sp.Expr) -> sp.Expr:
    """Rewrite each product containing x^y and ln(x) (y not a number) as XPowLog(x, y) * rest."""

    def fuse(t: sp.Expr) -> sp.Expr:
        if not isinstance(t, sp.Mul):
            return t
        args = list(t.args)
        out = []
        for lg in [a for a in args if isinstance(a, sp.log)]:
            pw = next((a for a in args if isinstance(a, sp.Pow) and a.base == lg.args[0] and not a.exp.is_Number), None)
            if pw is not None and lg in args:
                args.remove(lg)
                args.remove(pw)
                out.append(XPowLog(pw.base, pw.exp))
        return sp.Mul(*args, *out) if out else t

    return expr.replace(lambda t: isinstance(t, sp.Mul) and t.has(sp.log), fuse)


def _xpow_log(fx: ArbFunction, fy: ArbFunction) -> ArbFunction:
    """x^y ln x (the p-derivative of z^p) on x >= 0, y > 0, including x = 0 (value 0 there): for x
    in [0, b] it lies in [-1/(e y), max(0, b^y ln b)] (minimum at x = e^(-1/y))."""

    def f(a: Sequence[arb]) -> arb:
        x, y = fx(a), fy(a)
        if not (x.is_finite() and y.is_finite()):
            return _NAN
        if x.lower() > 0:
            return pow_ball(x, y) * x.log()
        if x.lower() < 0 or not (y.lower() > 0):
            return _NAN
        b = x.upper()
        if b == 0:
            return arb(0)  # the continuous extension at x = 0 (y > 0)
        # d/dx x^y ln x = x^(y-1) (y ln x + 1) < 0 on (0, e^(-1/y)); e^(-1/y) increases with y, so
        # x^y ln x decreases on [0, b] for *every* y in the ball iff b < e^(-1/y_lo).  Its minimum
        # on [0, b] is then b^y ln b (ln b < 0), most negative at the smallest y (b^y decreases in y)
        if b < (-1 / y.lower()).exp():
            lo = pow_ball(b, y.lower()) * b.log()
        else:
            lo = -1 / (arb.const_e() * y.lower())
        hi = arb(0) if b <= 1 else pow_ball(b, y.upper()) * b.log()
        return lo.union(hi)

    return f


def _sqrt(x: arb) -> arb:
    if x.is_finite() and x.lower() < 0:
        return _NAN
    return x.sqrt()


def _log(x: arb) -> arb:
    if not x.is_finite() or not (x.lower() > 0):
        return _NAN
    return x.log()


def _log1p(x: arb) -> arb:
    if not x.is_finite() or not (x.lower() > -1):
        return _NAN
    return x.log1p()


def _sign(x: arb) -> arb:
    if not x.is_finite():
        return arb(0, 1)
    if x.lower() > 0:
        return arb(1)
    if x.upper() < 0:
        return arb(-1)
    if x.is_zero():
        return arb(0)
    return arb(0, 1)


def _heaviside(x: arb) -> arb:
    if x.is_finite() and x.lower() > 0:
        return arb(1)
    if x.is_finite() and x.upper() < 0:
        return arb(0)
    return arb(fmpq(1, 2), fmpq(1, 2))


# ---------------------------------------------------------------------------------------------------
# objectives
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variable:
    """One coordinate of the proof domain: a symbol and its interval [lo, hi] (hi may be +inf only
    for the half-line variable of an :class:`Objective`, which is then compactified)."""

    symbol: sp.Symbol
    lo: Fraction
    hi: Fraction | float

    def __post_init__(self) -> None:
        if self.lo == math.inf or self.lo == -math.inf or self.hi == -math.inf or not self.lo <= self.hi:
            raise ValueError(f"variable {self.symbol}: the interval must have lo <= hi (hi = +inf for a half-line); "
                             f"got [{self.lo}, {self.hi}]")

    @property
    def halfline(self) -> bool:
        return self.hi == math.inf


#: SymPy assumptions that every real number has (a box of reals implies them).
_REAL_TRUE = ("real", "extended_real", "complex", "finite", "commutative", "hermitian")
#: ... and those no real number has.
_REAL_FALSE = ("infinite", "imaginary", "extended_nonreal", "nonreal")


def _box_property(key: str, lo: Fraction, hi: Fraction | float) -> bool | None:
    """Whether every point of [lo, hi] has the SymPy property ``key`` (True), none has (False), or
    some do and some do not (None).  A half-line [0, +inf) counts as finite reals: its point at
    infinity is the limit the compactification evaluates, not a value of the symbol."""
    if lo == hi:
        value = getattr(sp.Rational(lo.numerator, lo.denominator), f"is_{key}", None)
        return None if value is None else bool(value)
    if key in _REAL_TRUE:
        return True
    if key in _REAL_FALSE:
        return False
    key = key.replace("extended_", "")
    signs = {"positive": (lo > 0, hi <= 0), "nonnegative": (lo >= 0, hi < 0), "negative": (hi < 0, lo >= 0),
             "nonpositive": (hi <= 0, lo > 0), "zero": (False, lo > 0 or hi < 0),
             "nonzero": (lo > 0 or hi < 0, False)}
    if key in signs:
        always, never = signs[key]
        return True if always else (False if never else None)
    if key in ("prime", "composite"):  # primes are >= 2, composites >= 4
        return False if hi < (2 if key == "prime" else 4) else None
    # integer, rational, irrational, algebraic, transcendental, even, odd, prime, composite,
    # noninteger, antihermitian, polar, ...: an interval of positive length has points with and
    # points without the property (or SymPy's meaning is not one of reals)
    return None


def check_assumptions(variables: Sequence[Variable]) -> None:
    """Raise ValueError unless every SymPy assumption of every variable's symbol (positive,
    nonnegative, real, integer, ...) holds at every point of its interval.  SymPy simplifies
    with the assumptions as soon as an expression is built (|x| - x = 0 for x positive), so a box
    reaching outside them would make the prover prove a different function there."""
    for v in variables:
        for key, want in sorted(v.symbol.assumptions0.items()):
            have = _box_property(key, Fraction(v.lo), v.hi if v.halfline else Fraction(v.hi))
            if have is None or have != bool(want):
                raise ValueError(
                    f"variable {v.symbol}: its SymPy assumption {key}={want} does not hold on its whole interval "
                    f"[{v.lo}, {v.hi}]; declare the symbol with the assumptions its interval implies "
                    f"(see verify.proof.functions.restate_on_box)")


def restate_on_box(expr: sp.Expr, variables: Sequence[Variable]) -> tuple[sp.Expr, list[Variable]]:
    """``expr`` and ``variables`` with each variable's symbol replaced (``xreplace``: no
    re-simplification) by a symbol of the same name carrying exactly the assumptions its interval
    implies (real; positive if lo > 0, nonnegative if lo >= 0; negative / nonpositive likewise).

    The proof is then a proof of *this* expression on the closed box: where the original symbol's
    assumptions hold (e.g. z > 0 inside z in [0, inf)) it is the derived function itself; elsewhere
    on the box (a boundary such as z = 0) it is the expression as written."""
    reps: dict[sp.Symbol, sp.Symbol] = {}
    out: list[Variable] = []
    for v in variables:
        lo, hi = Fraction(v.lo), v.hi
        kw: dict[str, bool] = {"real": True}
        if lo > 0:
            kw["positive"] = True
        elif lo >= 0:
            kw["nonnegative"] = True
        if not v.halfline and hi < 0:
            kw["negative"] = True
        elif not v.halfline and hi <= 0:
            kw["nonpositive"] = True
        new = sp.Symbol(v.symbol.name, **kw)
        reps[v.symbol] = new
        out.append(Variable(new, v.lo, v.hi))
    return sp.sympify(expr).xreplace(reps), out


class _Variant:
    """A smooth variant: ``guards`` [(g, strict): g(box) > 0 (strict) or >= 0 must hold], its
    ``value`` and ``grads`` (dF/dv_i per variable, None when a derivative does not compile).  The
    gradients are compiled on first use: most variants of an objective are excluded by their guards
    on every box, and the symbolic derivatives (``_gradient_form``) are the bulk of a build."""

    def __init__(self, guards: list[tuple[ArbFunction, bool]], value: ArbFunction, expr: sp.Expr,
                 symbols: Sequence[sp.Symbol], fixed: frozenset[sp.Symbol]) -> None:
        self.guards = guards
        self.value = value
        self.expr = expr
        self._symbols = list(symbols)
        self._fixed = fixed
        self._grads: list[ArbFunction] | None = None
        self._compiled = False

    @property
    def grads(self) -> list[ArbFunction] | None:
        if not self._compiled and not _smooth_enough(self.expr):
            self._grads, self._compiled = None, True  # a jump: no derivative-based enclosure
        if not self._compiled:
            zero = compile_arb(sp.Integer(0), self._symbols) if self._fixed else None
            try:
                grads: list[ArbFunction] = []
                for v in self._symbols:  # a fixed symbol (zero is then compiled) has derivative 0
                    grads.append(zero if zero is not None and v in self._fixed
                                 else compile_arb(_gradient_form(self.expr, v), self._symbols))
                self._grads = grads
            except TypeError:
                self._grads = None
            self._compiled = True
        return self._grads


def _symbolic_variants(expr: sp.Expr, max_leaves: int = 64) -> dict[str, Any]:
    """Sign-split tree of ``expr``: each Piecewise is split into its branches, each |a| into a and
    -a, each Max / Min into its arguments, with the guards (branch condition, sign of the
    argument, which argument is larger) under which the choice equals the original; leaves are
    simplified by SymPy (sp.cancel).  For |.|, Max and Min the split also records the coefficient
    dF/d(atom): where it has a certain sign, F is monotone in the atom and the children combine
    without guards (|a| = max(a, -a): F increasing in it is max(F(a), F(-a)), decreasing is
    <= min(F(a), F(-a)); likewise for Max, reversed for Min).  Otherwise at every point some
    child's guards hold, so the union of the children not excluded encloses F."""
    count = [0]

    def rec(e: sp.Expr) -> dict[str, Any]:
        pws = sorted(e.atoms(sp.Piecewise), key=sp.default_sort_key)
        if pws:
            pw = pws[0]
            children: list[tuple[list[tuple[sp.Expr, bool]], dict[str, Any]]] = []
            prior: list[tuple[sp.Expr, bool]] = []
            for ex, cond in pw.args:
                g = _relation_guards(cond)
                if g is None:
                    raise TypeError(f"unsupported Piecewise condition {cond}")
                children.append((prior + g, rec(e.xreplace({pw: ex}))))
                if cond is sp.true or cond == True:  # noqa: E712
                    break
                neg = _relation_guards(_negate(cond))
                if neg is None:
                    raise TypeError(f"unsupported Piecewise condition {cond}")
                prior = prior + neg
            if _continuous(pw):
                # F equals each branch on the closure of its region: the guards may be non-strict
                children = [([(g, False) for g, _st in gs], ch) for gs, ch in children]
            return {"kind": "pw", "coef": None, "children": children}
        atoms = sorted(e.atoms(sp.Abs, sp.Max, sp.Min), key=lambda t: (sp.count_ops(t), sp.default_sort_key(t)))
        if atoms:
            at = atoms[0]
            d = sp.Dummy("atom")
            coef = sp.diff(e.xreplace({at: d}), d)
            coef = None if coef.has(d) else coef
            if isinstance(at, sp.Abs):
                u = at.args[0]
                choices = [(u, [(u, False)]), (-u, [(-u, False)])]
                kind = "abs"
            else:
                first = at.args[0]
                rest = at.func(*at.args[1:]) if len(at.args) > 2 else at.args[1]
                sgn = 1 if isinstance(at, sp.Max) else -1
                choices = [(first, [(sgn * (first - rest), False)]), (rest, [(sgn * (rest - first), False)])]
                kind = "max" if isinstance(at, sp.Max) else "min"
            return {"kind": kind, "coef": coef, "children": [(g, rec(e.xreplace({at: c}))) for c, g in choices]}
        count[0] += 1
        if count[0] > max_leaves:
            raise ValueError(f"more than {max_leaves} sign/branch variants")
        s = sp.cancel(sp.together(e))
        return {"kind": "leaf", "expr": s if sp.count_ops(s) <= sp.count_ops(e) else e}

    return rec(expr)


def _continuous(pw: sp.Piecewise) -> bool:
    """True only when the two-branch Piecewise((e1, lhs < rhs), (e2, True)) is *proven* continuous:
    e1 - e2 = (lhs - rhs) q with q = sp.cancel((e1 - e2)/(lhs - rhs)) a polynomial in the symbols
    (finite everywhere), so that e1 = e2 on the whole boundary lhs = rhs, whatever its shape.  (A
    boundary found by solving lhs = rhs for one symbol misses components: x (y - 1/3) = 0 has y = 1/3
    besides x = 0.)  False whenever that cannot be shown: every caller then treats the Piecewise as
    possibly discontinuous (strict guards, no derivative across the boundary) -- sound, maybe slower."""
    if len(pw.args) != 2 or not (pw.args[1][1] is sp.true or pw.args[1][1] == True):  # noqa: E712
        return False
    (e1, rel), (e2, _) = pw.args
    if not isinstance(rel, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)):
        return False
    diff = sp.sympify(e1 - e2)
    if diff == 0:
        return True
    d = sp.sympify(rel.lhs - rel.rhs)
    if diff.has(sp.Piecewise) or d.has(sp.Piecewise) or d.is_number:
        return False
    syms = sorted(diff.free_symbols | d.free_symbols, key=lambda v: v.name)
    # the boundary of {lhs < rhs} lies in {lhs - rhs = 0} only when lhs - rhs is continuous: a
    # polynomial.  1/x < 0 changes truth at x = 0, where 1/x is not 0 (and e1 - e2 = (1/x) x).
    if not d.is_polynomial(*syms):
        return False
    try:
        q = sp.cancel(sp.together(diff / d))
        num, den = sp.fraction(q)
        return bool(den.is_number and den != 0 and num.is_polynomial(*syms))
    except Exception:  # noqa: BLE001 - not shown continuous
        return False


def _smooth_enough(expr: sp.Expr) -> bool:
    """Derivative-based enclosures (mean-value form, monotone faces) need an expression that is
    continuous on every box: every Piecewise in it proven continuous (:func:`_continuous`), and no
    sign / Heaviside (jumps)."""
    if expr.has(sp.sign, sp.Heaviside):
        return False
    return all(_continuous(pw) for pw in expr.atoms(sp.Piecewise))


def _is_affine_in(e: sp.Expr, v: sp.Symbol) -> bool:
    """True only when e is a polynomial of degree <= 1 in v whose coefficients do not involve v.

    A second derivative that cancels to 0 is not enough: sqrt((x + 19/10)^2) has d2 = 0 wherever it
    is defined by a formula, but it is |x + 19/10|, not affine across x = -19/10 (the faces of
    [-2, 0] give -1900 and -100 while the value at the root is 0)."""
    if not e.has(v):
        return True
    try:
        p = sp.Poly(e, v)
    except sp.PolynomialError:
        return False
    return p.degree() <= 1 and not any(c.has(v) for c in p.all_coeffs())


def _tree_leaves(tree: dict[str, Any]) -> list[sp.Expr]:
    if tree["kind"] == "leaf":
        return [tree["expr"]]
    return [x for _, ch in tree["children"] for x in _tree_leaves(ch)]


def _tree_guards(tree: dict[str, Any]) -> list[sp.Expr]:
    if tree["kind"] == "leaf":
        return []
    return [g for gs, ch in tree["children"] for g, _ in gs] + [x for _, ch in tree["children"] for x in _tree_guards(ch)]


def _tree_map(tree: dict[str, Any], leaf: Callable[[sp.Expr], sp.Expr], guard: Callable[[sp.Expr], sp.Expr],
              coef: Callable[[sp.Expr], sp.Expr]) -> dict[str, Any]:
    if tree["kind"] == "leaf":
        return {"kind": "leaf", "expr": leaf(tree["expr"])}
    return {"kind": tree["kind"], "coef": None if tree["coef"] is None else coef(tree["coef"]),
            "children": [([(guard(g), st) for g, st in gs], _tree_map(ch, leaf, guard, coef))
                         for gs, ch in tree["children"]]}


def _compile_tree_variants(tree: dict[str, Any], symbols: Sequence[sp.Symbol],
                           fixed: frozenset[sp.Symbol] = frozenset()) -> dict[str, Any]:
    if tree["kind"] == "leaf":
        return {"kind": "leaf", "variant": _compile_variants([([], tree["expr"])], symbols, fixed)[0]}
    coef = None
    if tree["coef"] is not None:
        try:
            coef = compile_arb(tree["coef"], symbols)
        except TypeError:
            coef = None
    return {"kind": tree["kind"], "coef": coef,
            # a guard in the point variables only is decided by one ball: no factoring needed
            "children": [([(_compile_variants([([], g if g.free_symbols <= fixed else sp.factor(g))], symbols, fixed)[0], st)
                           for g, st in gs],
                          _compile_tree_variants(ch, symbols, fixed)) for gs, ch in tree["children"]]}


def _guard_range(gv: _Variant, balls: Sequence[arb], box: Sequence[tuple[Fraction, Fraction]]) -> tuple[arb, arb] | None:
    """(lower, upper) ends of a guard over the box, sharpened by monotone faces: variables in which
    the guard's gradient has a certain sign are fixed at the end giving the min (max)."""
    v = gv.value(balls)
    lo_end = v.lower() if v.is_finite() else None
    hi_end = v.upper() if v.is_finite() else None
    if gv.grads is not None:
        lo_face, hi_face, moved = list(box), list(box), False
        for i, (g, (a, b)) in enumerate(zip(gv.grads, box, strict=True)):
            if a == b:
                continue
            d = g(balls)
            if d.is_finite() and d.lower() >= 0:
                lo_face[i], hi_face[i], moved = (a, a), (b, b), True
            elif d.is_finite() and d.upper() <= 0:
                lo_face[i], hi_face[i], moved = (b, b), (a, a), True
        if moved:
            vl = gv.value([ball(x, y) for x, y in lo_face])
            vh = gv.value([ball(x, y) for x, y in hi_face])
            if vl.is_finite():
                lo_end = vl.lower() if lo_end is None else arb.max(lo_end, vl.lower())
            if vh.is_finite():
                hi_end = vh.upper() if hi_end is None else arb.min(hi_end, vh.upper())
    if lo_end is None or hi_end is None:
        return None
    return lo_end, hi_end


def _eval_tree(node: dict[str, Any], balls: Sequence[arb], box: Sequence[tuple[Fraction, Fraction]], centred: bool,
               upper_only: bool) -> arb:
    if node["kind"] == "leaf":
        return _variant_enclosure(node["variant"], balls, box, centred, upper_only, None)
    live = []
    for gs, ch in node["children"]:
        states = [_guard_state(_guard_range(g, balls, box), st) for g, st in gs]
        if all(x is True for x in states):
            return _eval_tree(ch, balls, box, centred, upper_only)
        if False not in states:
            live.append(ch)
    if node["coef"] is not None:
        c = node["coef"](balls)
        if c.is_finite() and (c.lower() >= 0 or c.upper() <= 0):
            increasing = bool(c.lower() >= 0)
            use_max = increasing if node["kind"] in ("abs", "max") else not increasing
            vals = [_eval_tree(ch, balls, box, centred, upper_only) for _, ch in node["children"]]
            if any(not v.is_finite() for v in vals):
                return _NAN
            if use_max:
                return _upper_point(vals, max) if upper_only else reduce(lambda u, v: arb.max(u, v), vals)
            return _upper_point(vals, min) if upper_only else \
                reduce(lambda u, v: u.union(v), [_eval_tree(ch, balls, box, centred, upper_only) for ch in live] or [_NAN])
    vals = [_eval_tree(ch, balls, box, centred, upper_only) for ch in live]
    if not vals:
        return _NAN
    return _upper_point(vals, max) if upper_only else reduce(lambda u, v: u.union(v), vals)


def _upper_point(vals: Sequence[arb], pick: Callable[..., Any]) -> arb:
    """The exact point max (min) of the upper ends: in ``upper_only`` mode a ball is used only for
    its upper end, and a union of midpoint-radius balls would round that end up (past 0 when one
    part is exactly 0)."""
    if any(not v.is_finite() for v in vals):
        return _NAN
    ups = [v.upper() for v in vals]
    best = ups[0]
    for u in ups[1:]:
        if (u > best) if pick is max else (u < best):
            best = u
    return best


def _negate(cond: Any) -> Any:
    if isinstance(cond, sp.core.relational.Relational):
        return cond.negated
    return sp.Not(cond)


def _compile_variants(variants: list[tuple[list[tuple[sp.Expr, bool]], sp.Expr]],
                      symbols: Sequence[sp.Symbol], fixed: frozenset[sp.Symbol] = frozenset()) -> list[_Variant]:
    """Compiled variants with their gradients (compiled on first use); a variable in ``fixed`` (a point interval of the
    domain: every box has width 0 in it) gets the gradient 0, which is never used -- faces and the
    mean-value form skip coordinates of width 0 -- and spares SymPy the derivative."""
    return [_Variant([(compile_arb(g, symbols), strict) for g, strict in guards], compile_arb(e, symbols), e, symbols,
                     fixed) for guards, e in variants]


@lru_cache(maxsize=4096)
def _gradient_form(e: sp.Expr, v: sp.Symbol) -> sp.Expr:
    """dE/dv in factored form (products of single-sign factors decide the sign of a gradient on a box
    far better than a sum whose terms cancel); common factors first (cheap), full factoring only
    when that leaves a sum.  Cached: the symbolic derivative is the same for every build."""
    d = sp.powsimp(sp.diff(e, v))
    if d.is_number:
        return d
    try:
        c = sp.cancel(sp.together(d))
        f = sp.factor_terms(c)
        num, _den = sp.fraction(f)
        if isinstance(num, sp.Add) and sp.count_ops(num) < 60:
            f = sp.factor(c)
    except Exception:  # noqa: BLE001 - factoring is an optimisation only
        return d
    return sp.powsimp(f)


def _relation_guards(cond: Any) -> list[tuple[sp.Expr, bool]] | None:
    """Guards g > 0 / g >= 0 equivalent to a relation (conjunctions allowed), None if unsupported."""
    if cond is sp.true or cond == True:  # noqa: E712
        return []
    if isinstance(cond, sp.And):
        out: list[tuple[sp.Expr, bool]] = []
        for c in cond.args:
            g = _relation_guards(c)
            if g is None:
                return None
            out += g
        return out
    if isinstance(cond, sp.StrictLessThan):
        return [(cond.rhs - cond.lhs, True)]
    if isinstance(cond, sp.LessThan):
        return [(cond.rhs - cond.lhs, False)]
    if isinstance(cond, sp.StrictGreaterThan):
        return [(cond.lhs - cond.rhs, True)]
    if isinstance(cond, sp.GreaterThan):
        return [(cond.lhs - cond.rhs, False)]
    return None


class Objective:
    """F(v_1, ..., v_n) <= 0 on a box: the function under proof, from one SymPy expression.

    ``expr``       the SymPy expression of F (its free symbols must be the variables' symbols).
    ``variables``  the coordinates and their intervals; at most one may be a half-line [0, +inf),
                   and it is compactified (below).
    ``name``       a label recorded in proofs; ``meta`` free JSON-able data (parameters, source).

    Evaluation on a box (:meth:`evaluate`): the plain translation of F, the sign-split variant
    whose guards hold on the whole box (else the union of the variants not excluded), and the
    mean-value form of that variant; the intersection of the valid enclosures is returned.

    Compactification of z in [0, inf).  The proof runs on u in [0, 2] with
    z = Z0 u (u <= 1) and z = Z0/(2 - u) (u >= 1), continuous at u = 1, u = 2 <-> z = inf.  On
    u >= 1 each variant is evaluated as G(w) = F(1/w), w = (2 - u)/Z0 in [0, 1/Z0], where G is the
    variant with z = 1/w substituted and put over a common denominator by SymPy (sp.cancel):
    for the rational-in-z^p forms of the derivations the powers of w then have nonnegative
    exponents, so G is finite at w = 0 and the box [0, w1] *includes* z = inf.  A guard g(1/w)
    = N/D is replaced by N D (same sign, finite at w = 0).  The tail lemma recorded with the proof
    is L = lim_{z->inf} F (``sp.limit``), with G(0) checked to enclose it; the ball evaluation of G
    on every tail box is what proves the tail, so nothing rests on the limit alone.  A G that is
    not finite at w = 0 makes the tail boxes unprovable (never "proven")."""

    def __init__(self, expr: sp.Expr, variables: Sequence[Variable], *, name: str = "",
                 meta: dict[str, Any] | None = None, z0: Fraction = Fraction(1), tail_lemma: bool = True) -> None:
        self.expr = sp.sympify(expr)
        self.variables = list(variables)
        self.name = name
        self.meta = dict(meta or {})
        self.z0 = Fraction(z0)
        self.symbols = [v.symbol for v in self.variables]
        for v in self.variables:
            if not isinstance(v, Variable):
                raise TypeError(f"variables must be Variable instances; got {type(v).__name__}")
            if not v.lo <= v.hi:  # Variable checks this too; a duck-typed copy might not
                raise ValueError(f"variable {v.symbol}: the interval must have lo <= hi; got [{v.lo}, {v.hi}]")
        if len(set(self.symbols)) != len(self.symbols):
            raise ValueError(f"variables must be distinct symbols; got {[str(s) for s in self.symbols]}")
        check_assumptions(self.variables)
        extra = self.expr.free_symbols - set(self.symbols)
        if extra:
            raise ValueError(f"expr has free symbols {sorted(map(str, extra))} that are not variables")
        half = [i for i, v in enumerate(self.variables) if v.halfline]
        if len(half) > 1:
            raise ValueError(f"at most one half-line variable; got {len(half)}")
        self.half_index = half[0] if half else None
        if self.half_index is not None and self.variables[self.half_index].lo != 0:
            raise ValueError("the half-line variable must start at 0")
        try:
            tree: dict[str, Any] | None = _symbolic_variants(self.expr)
        except (TypeError, ValueError):
            # a condition the sign split does not express (Or, Not, Eq, a negated And) or too many
            # variants: plain ball arithmetic only (compile_arb decides every condition on the box)
            if self.half_index is not None:
                raise
            tree = None
        self.variant_exprs = _tree_leaves(tree) if tree is not None else [self.expr]
        # variables in which F is affine (every variant has zero second derivative and no guard
        # involves them): sup over the box is at one of the two faces, so they are never split
        guard_syms = set().union(set(), *[g.free_symbols for g in _tree_guards(tree)]) if tree is not None else set()
        self.affine = [] if tree is None else [
            i for i, v in enumerate(self.symbols)
            if i != self.half_index and v not in guard_syms
            and all(_is_affine_in(e, v) for e in self.variant_exprs)]
        plain = compile_arb(self.expr, self.symbols)
        # point intervals (lo == hi): no box is ever split there, so no gradient is needed
        fixed = frozenset(v.symbol for v in self.variables if not v.halfline and v.lo == v.hi)
        self._fixed = [(i, v.lo) for i, v in enumerate(self.variables) if v.symbol in fixed]
        # the mean-value form of the whole expression needs F continuous on every box (a jump of a
        # Piecewise breaks F(c) + grad . (B - c): SymPy differentiates branchwise); with a
        # discontinuous (or undecided) Piecewise only the split variants, smooth under their
        # guards, get the mean-value form
        pws = self.expr.atoms(sp.Piecewise)
        plain_var = _compile_variants([([], self.expr)], self.symbols, fixed)[0] \
            if all(_continuous(pw) for pw in pws) and _smooth_enough(self.expr) else None
        self._head = {"plain": plain, "plain_var": plain_var,
                      "tree": None if tree is None else _compile_tree_variants(tree, self.symbols, fixed)}
        self.tail_lemma: dict[str, Any] | None = None
        if self.half_index is not None:
            z = self.symbols[self.half_index]
            self.w = sp.Symbol(f"w_{z.name}", nonnegative=True)
            tail_syms = list(self.symbols)
            tail_syms[self.half_index] = self.w
            self._tail_symbols = tail_syms
            assert tree is not None  # a half-line objective re-raises a failed sign split above
            ttree = _tree_map(tree, lambda e: _recip(e, z, self.w), lambda g: _recip_sign(g, z, self.w),
                              lambda c: _recip(c, z, self.w))
            self.tail_variant_exprs = _tree_leaves(ttree)
            self._tail = {"plain": None, "tree": _compile_tree_variants(ttree, tail_syms)}
            if tail_lemma:
                self.tail_lemma = _tail_lemma(self.tail_variant_exprs, self.w)

    # -- domain -------------------------------------------------------------------------------
    def domain(self) -> list[tuple[Fraction, Fraction]]:
        """The proof domain (compactified: the half-line variable becomes [0, 2])."""
        return [(Fraction(v.lo), Fraction(2) if v.halfline else Fraction(v.hi)) for v in self.variables]

    def to_original(self, point: Sequence[Fraction]) -> list[Fraction | float]:
        """Map a domain point back to the original coordinates (u -> z)."""
        out: list[Fraction | float] = list(point)
        if self.half_index is not None:
            u = Fraction(point[self.half_index])
            out[self.half_index] = self.z0 * u if u <= 1 else (math.inf if u == 2 else self.z0 / (2 - u))
        return out

    def describe(self) -> dict[str, Any]:
        """JSON-able description (recorded in proofs)."""
        return {"name": self.name, "expr": str(self.expr), "variables": [
            {"symbol": v.symbol.name, "lo": str(v.lo), "hi": "inf" if v.halfline else str(v.hi)} for v in self.variables],
            "compactification": None if self.half_index is None else
            f"z = {self.z0} u (u <= 1), z = {self.z0}/(2 - u) (u >= 1)", "tail_lemma": self.tail_lemma,
            "meta": self.meta}

    # -- evaluation -----------------------------------------------------------------------------
    def evaluate(self, box: Sequence[tuple[Fraction, Fraction]], *, centred: bool = True,
                 signs: bool = True, upper_only: bool = False) -> arb:
        """A ball containing F over the box (compactified coordinates).  With ``upper_only`` only
        the ball's upper end is meaningful (>= sup F on the box): variables in which the gradient
        has a certain sign are then fixed at the face where F is largest, and each variable in
        which F is affine (``self.affine``, checked symbolically) is evaluated at both faces."""
        for i, q in self._fixed:  # compiled without a gradient there: the box must keep the point
            if tuple(box[i]) != (q, q):
                raise ValueError(f"variable {self.symbols[i]} is a point of the domain ({q}); got the interval {box[i]}")
        if upper_only and self.affine and any(box[i][0] != box[i][1] for i in self.affine):
            faces = [list(box)]
            for i in self.affine:
                lo, hi = box[i]
                faces = [f[:i] + [(e, e)] + f[i + 1:] for f in faces for e in ((lo, hi) if lo != hi else (lo,))]
            vals = [self.evaluate(f, centred=centred, signs=signs, upper_only=True) for f in faces]
            return _upper_point(vals, max)
        if self.half_index is None:
            return _eval_part(self._head, box, centred, signs, upper_only)
        i = self.half_index
        lo, hi = box[i]
        parts = []
        if lo <= 1:
            b = list(box)
            b[i] = (self.z0 * lo, self.z0 * min(hi, Fraction(1)))
            parts.append(_eval_part(self._head, b, centred, signs, upper_only))
        if hi > 1:
            b = list(box)
            b[i] = ((2 - hi) / self.z0, (2 - max(lo, Fraction(1))) / self.z0)
            parts.append(_eval_part(self._tail, b, centred, signs, upper_only))
        return _upper_point(parts, max) if upper_only else reduce(lambda u, v: u.union(v), parts)

    def evaluate_point(self, point: Sequence[Fraction]) -> arb:
        """A ball containing F at one point (compactified coordinates)."""
        return self.evaluate([(q, q) for q in point], centred=False)

    def evaluate_mp(self, point: Sequence[Fraction], dps: int = 50) -> Any:
        """F at a point (compactified coordinates) by SymPy/mpmath at ``dps`` digits: a value, not a
        ball -- the independent high-precision confirmation of a counterexample."""
        orig = self.to_original(point)
        if self.half_index is not None and orig[self.half_index] == math.inf:
            return sp.N(sp.limit(self.expr.subs({s: _exact_rational(q)
                                                 for s, q in zip(self.symbols, orig, strict=True) if q != math.inf}),
                                 self.symbols[self.half_index], sp.oo), dps)
        sub = {s: _exact_rational(q) for s, q in zip(self.symbols, orig, strict=True)}
        return sp.N(self.expr.subs(sub), dps)


def _eval_part(part: dict[str, Any], box: Sequence[tuple[Fraction, Fraction]], centred: bool, signs: bool,
               upper_only: bool = False) -> arb:
    balls = [ball(lo, hi) for lo, hi in box]
    plain = part["plain"]
    best = plain(balls) if plain is not None else None
    if (signs or plain is None) and part["tree"] is not None:
        best = _tighter(best, _eval_tree(part["tree"], balls, box, centred, upper_only))
    if centred and part.get("plain_var") is not None:
        best = _tighter(best, _centred(part["plain_var"], balls, box))
    return best if best is not None else _NAN


def _variant_enclosure(var: _Variant, balls: Sequence[arb], box: Sequence[tuple[Fraction, Fraction]], centred: bool,
                       upper_only: bool, best: arb | None) -> arb:
    """Enclosure of a smooth variant on the box (upper end only when ``upper_only``): variables with
    a certain sign of dF/dv_i are fixed at the face where F is largest, then the mean-value form."""
    if upper_only and var.grads is not None:
        # repeated: on the face, gradients are re-evaluated (sup over the box = sup over the face
        # at each step, so the reduction composes)
        for _ in range(len(box)):
            face, moved = list(box), False
            for i, (g, (lo, hi)) in enumerate(zip(var.grads, box, strict=True)):
                if lo == hi:
                    continue
                d = g(balls)
                if d.is_finite() and d.lower() >= 0:
                    face[i], moved = (hi, hi), True
                elif d.is_finite() and d.upper() <= 0:
                    face[i], moved = (lo, lo), True
            if not moved:
                break
            box = face
            balls = [ball(lo, hi) for lo, hi in face]
            best = None
    out = _tighter(best, var.value(balls))
    if centred:
        out = _tighter(out, _centred(var, balls, box))
    return out if out is not None else _NAN


def _tighter(a: arb | None, b: arb | None) -> arb | None:
    """The intersection of two valid enclosures (either may be None or non-finite)."""
    if a is None or not a.is_finite():
        return b if b is not None else a
    if b is None or not b.is_finite():
        return a
    if a.overlaps(b):
        return a.intersection(b)
    # disjoint only in upper_only mode (where the lower ends carry no meaning): the smaller upper end
    return a if a.upper() <= b.upper() else b


def _centred(var: _Variant, balls: Sequence[arb], box: Sequence[tuple[Fraction, Fraction]]) -> arb | None:
    """Mean-value form F(c) + sum_i dF/dv_i(B) (B_i - c_i) (the variant is smooth on the box)."""
    if var.grads is None or all(lo == hi for lo, hi in box):
        return None
    mids = [(lo + hi) / 2 for lo, hi in box]
    v = var.value([ball(m, m) for m in mids])
    for g, (lo, hi), m in zip(var.grads, box, mids, strict=True):
        if lo != hi:
            v = v + g(balls) * ball_from_fraction(lo - m).union(ball_from_fraction(hi - m))
    return v


def _guard_state(rng: tuple[arb, arb] | None, strict: bool) -> bool | None:
    if rng is None:
        return None
    lo, hi = rng
    if (lo > 0) if strict else (lo >= 0):
        return True
    if (hi <= 0) if strict else (hi < 0):
        return False
    return None


def _recip(expr: sp.Expr, z: sp.Symbol, w: sp.Symbol, *, keep_positive: bool = False) -> sp.Expr:
    """expr(z = 1/w) over a common denominator (negative powers of w cleared by sp.cancel)."""
    wp = sp.Symbol(w.name, positive=True)
    # z-free sub-expressions (the calibrated eta, Max(...), constants) are held opaque, so that the
    # power rewriting below cannot turn e.g. (p-1)^((p-1)/p) into a cancelling difference
    held: dict[sp.Symbol, sp.Expr] = {}

    def hold(t: sp.Expr) -> sp.Expr:
        if not t.has(z):
            if t.is_Atom:
                return t
            d = sp.Dummy("held")
            held[d] = t
            return d
        if isinstance(t, sp.Pow):
            return sp.Pow(hold(t.base), t.exp)  # exponents stay visible to the power rewriting
        return t.func(*[hold(a) for a in t.args]) if t.args else t

    e = hold(expr).subs(z, 1 / wp)
    # w^(p-1) -> w^p w^(-1): one generator w^p, so sp.cancel clears the negative powers
    e = sp.expand_power_exp(sp.powsimp(sp.expand_power_base(e, force=True), force=True))
    e = sp.cancel(sp.together(e)).xreplace(held)
    return e if keep_positive else e.subs(wp, w)


def _recip_sign(guard: sp.Expr, z: sp.Symbol, w: sp.Symbol) -> sp.Expr:
    """An expression with the sign of guard(z = 1/w) on w > 0, continuous up to w = 0: the numerator
    N of N/D when D > 0 (resp. -N when D < 0) for every w > 0; else N/D itself (then a box
    containing w = 0 leaves the guard undetermined).  At w = 0 (z = inf) the variant's value is
    the limit from w > 0, where the guard holds, so the guard on the closed box suffices."""
    wp = sp.Symbol(w.name, positive=True)
    num, den = sp.fraction(_recip(guard, z, w, keep_positive=True))
    if den.is_positive:
        out = num
    elif den.is_negative:
        out = -num
    else:
        out = num / den
    return out.subs(wp, w)


def _tail_lemma(tail_leaves: Sequence[sp.Expr], w: sp.Symbol) -> dict[str, Any]:
    """SymPy: the limits as z -> inf (w = 1/z -> 0+) of the sign/branch variants of F (recorded as
    strings); lim F is the limit of the variant active for large z.  The proof does not rest on
    them: the ball evaluation of every tail box includes w = 0."""
    wp = sp.Symbol(w.name, positive=True)
    out = []
    for e in tail_leaves:
        try:
            out.append(str(sp.limit(e.subs(w, wp), wp, 0, "+")))
        except Exception as exc:  # noqa: BLE001 - recorded
            out.append(f"{type(exc).__name__}: {exc}")
    return {"variant_limits": sorted(set(out)),
            "statement": "lim_{z->inf} F is the limit of the variant active for large z (SymPy, w = 1/z -> 0+); "
                         "the tail boxes u in [1, 2] (w in [0, 1/Z0]) enclose F including z = inf by the ball "
                         "evaluation of F(1/w) over a common denominator"}


class OnBox:
    """The domain methods of an objective on a bounded box ``self._domain`` (exact rationals, no
    compactification): the prover's and re-checker's view of the box is the box itself."""

    _domain: list[tuple[Fraction, Fraction]]

    def domain(self) -> list[tuple[Fraction, Fraction]]:
        return list(self._domain)

    def to_original(self, point: Sequence[Fraction]) -> list[Fraction]:
        return list(point)


class SeriesObjective(OnBox):
    """F(v) <= 0 on a bounded interval of one variable, F given piecewise by functions of a
    truncated Taylor series (python-flint ``arb_series``), for quantities no SymPy tree encloses
    well (removable singularities, implicit curves written in an explicit parameter).

    ``pieces``  [(lo, hi, fn)]: on [lo, hi], F = fn(S)[0] where fn maps the series S = v0 + x
                (v0 a ball) to the series of F at v0 (``order`` coefficients).  By arb's
                inclusion principle, with v0 a ball containing a box, coefficient j of fn(v0 + x)
                encloses F^(j)(t)/j! for every t in the box.  The pieces must cover the domain;
                where they overlap both statements are proven (the max is taken).
    Enclosure on a box [lo, hi] (centre m, radius r): the intersection of the direct enclosure
    F(box) and the mean-value form F(m) + F'(box) [-r, r] -- both valid, so is their intersection.
    """

    half_index = None
    tail_lemma = None
    affine: tuple[int, ...] = ()

    def __init__(self, pieces: Sequence[tuple[Fraction, Fraction, Callable[[Any], Any]]], *, name: str = "",
                 order: int = 3, meta: dict[str, Any] | None = None) -> None:
        if not pieces:
            raise ValueError("pieces must hold at least one (lo, hi, fn)")
        self.pieces = [(Fraction(lo), Fraction(hi), fn) for lo, hi, fn in pieces]
        for lo, hi, _ in self.pieces:
            if not lo <= hi:
                raise ValueError(f"a piece must have lo <= hi; got [{lo}, {hi}]")
        lo = min(p[0] for p in self.pieces)
        hi = max(p[1] for p in self.pieces)
        pts = sorted(self.pieces, key=lambda p: p[0])
        reach = pts[0][1]
        for plo, phi, _ in pts[1:]:
            if plo > reach:
                raise ValueError(f"the pieces leave a gap ({reach}, {plo}) in the domain")
            reach = max(reach, phi)
        self._domain = [(lo, hi)]
        self.name = name
        self.order = int(order)
        self.meta = dict(meta or {})

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "expr": None, "variables": [[str(self._domain[0][0]), str(self._domain[0][1])]],
                "pieces": [[str(lo), str(hi), getattr(fn, "__name__", "fn")] for lo, hi, fn in self.pieces],
                "meta": self.meta}

    def _series(self, fn: Callable[[Any], Any], v0: arb) -> Any:
        # a division by a ball containing 0 (arb_series raises) leaves F unknown on the box: nan
        try:
            return fn(flint.arb_series([v0, 1], prec=self.order))
        except (ValueError, ZeroDivisionError):
            return flint.arb_series([arb("nan")] * self.order, prec=self.order)

    def _piece(self, fn: Callable[[Any], Any], lo: Fraction, hi: Fraction) -> arb:
        box = ball(lo, hi) if lo < 0 else ball_from_fraction(lo).union(ball_from_fraction(hi))
        direct = self._series(fn, box)
        v = direct.coeffs()[0] if direct.length() else arb("nan")
        if lo != hi and direct.length() > 1:
            m = (lo + hi) / 2
            c = self._series(fn, ball_from_fraction(m))
            mv = c.coeffs()[0] + direct.coeffs()[1] * ball_from_fraction(lo - m).union(ball_from_fraction(hi - m))
            if mv.is_finite() and (not v.is_finite() or mv.upper() < v.upper()):
                v = v.intersection(mv) if v.is_finite() and v.overlaps(mv) else mv
        return v

    def evaluate(self, box: Sequence[tuple[Fraction, Fraction]], *, centred: bool = True, signs: bool = True,
                 upper_only: bool = False) -> arb:
        (lo, hi), = box
        vals = [self._piece(fn, max(lo, plo), min(hi, phi)) for plo, phi, fn in self.pieces if plo <= hi and lo <= phi]
        if not vals:
            raise ValueError(f"box [{lo}, {hi}] outside the domain {self._domain}")
        return _upper_point(vals, max) if upper_only else reduce(lambda u, v: u.union(v), vals)

    def evaluate_point(self, point: Sequence[Fraction]) -> arb:
        return self.evaluate([(point[0], point[0])])

    def evaluate_mp(self, point: Sequence[Fraction], dps: int = 50) -> Any:
        """F at a point re-evaluated at ~``dps`` digits (arb at 3.33 dps + 10 bits; there is no
        SymPy form): the lower end of that ball, as a SymPy Float (a value <= F)."""
        with workprec(int(dps * 3.33) + 10):
            v = self.evaluate([(point[0], point[0])])
            if not v.is_finite():
                return None
            return sp.Float(arb_to_fraction(v.lower()).numerator, dps) / arb_to_fraction(v.lower()).denominator
