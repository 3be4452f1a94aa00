"""The evaluator of :mod:`verify.proof.ball_eval`, compiled: the same arb operations, no SymPy per box.

:mod:`verify.proof.ball_eval` defines the enclosure of a SymPy expression node by node (its module
docstring states every rule).  Interpreting that definition walks the SymPy tree on every box, and
:func:`~verify.proof.ball_eval.decide` / :func:`~verify.proof.ball_eval.upper_bound` call SymPy
(rebuilding, ``atoms``, ``xreplace``, ``has``, ``Poly``) on every box.  This module computes the
same thing with the SymPy work done once per expression:

* :func:`enclose`: each expression is compiled once (per arb precision: its constants are balls
  at that precision) into closures over the very operations of the interpreter, in the same order
  (the sum folded left from 0, the product from 1, the x^b ln x factor fused the same way, the
  same sign clipping), with one slot per distinct sub-expression (the interpreter's memo) and
  Piecewise branches evaluated only when their condition is not certainly false.  The ball it
  returns is the interpreter's ball, bit for bit; a node the interpreter cannot evaluate still
  raises ``TypeError`` when (and only when) it is reached.
* :func:`decide`: the decided form depends on the box only through the choices made (which |u|,
  Max, Min or Piecewise branch is certain); the form built for a tuple of choices is kept, so a
  choice seen before costs a dictionary look-up instead of a SymPy rebuild.  A sub-tree without
  |u|, Max, Min or Piecewise is rebuilt once.
* :func:`upper_bound`, :func:`enclose_decided`, :func:`mean_value`: the interpreter's algorithm
  step for step, with every box-independent SymPy result (``atoms`` and its sort, ``xreplace`` of a
  case, ``has``, ``-d``, the linear form of a guard) memoised by its expression.

Nothing here changes what is enclosed: each result is the interpreter's (the identity is a test).
It uses none of :mod:`verify.proof.functions` (the prover's enclosures)."""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import Any, Callable, Mapping, Sequence

import sympy as sp
from flint import arb, ctx

from .ball_eval import (
    _NAN,
    _RELATIONS,
    _ROUGH,
    _cases,
    _factored_derivative,
    _finite,
    _nonneg,
    _number,
    _power,
    _sign_of,
    _simplified,
    _span,
    _xpowlog,
    interval_ball,
    point_ball,
)
from sympy.codegen.cfunctions import log1p as _sp_log1p

__all__ = ["enclose", "decide", "upper_bound", "enclose_decided", "mean_value", "clear_caches"]

_Getter = Callable[[list, Mapping], arb]
_CondFn = Callable[[list, Mapping], "bool | None"]

# every memo below holds box-independent results keyed by SymPy expressions; cleared as a whole
# when it grows past this many entries (a long audit builds many objectives)
_LIMIT = 200_000
_COMPILED: dict[tuple[Any, int], Callable[[Mapping], arb]] = {}
_CONDS: dict[tuple[Any, int], Callable[[Mapping], "bool | None"]] = {}
_PLANS: dict[Any, Any] = {}
_MEMO: dict[tuple, Any] = {}


def clear_caches() -> None:
    """Forget every compiled expression and memoised SymPy result."""
    for d in (_COMPILED, _CONDS, _PLANS, _MEMO):
        d.clear()


def _bounded(d: dict) -> dict:
    if len(d) > _LIMIT:
        d.clear()
    return d


# ----------------------------------------------------------------------------------- enclosures

_ZERO = arb(0)
_MISSING = object()


def _clip(result: arb, parts: Sequence[arb], *, product: bool) -> arb:
    """:func:`verify.proof.ball_eval._clip` with the same outcome: for a finite ball v, ``v >= 0``
    (arb: every point is >= 0) holds exactly when v's lower end rounded down is >= 0 (0 is
    representable), and ``v <= 0`` exactly when its upper end rounded up is <= 0."""
    if not result.is_finite():
        return result
    negs = 0
    for v in parts:
        if not v.is_finite():
            return result
        if v >= _ZERO:
            continue
        if v <= _ZERO:
            negs += 1
            continue
        return result
    if product:
        negative = negs % 2 == 1
    elif negs == 0:
        negative = False
    elif negs == len(parts):
        negative = True
    else:
        return result
    return -(-result).nonnegative_part() if negative else result.nonnegative_part()


def _memo_slot(i: int, f: _Getter) -> _Getter:
    def get(vals: list, env: Mapping) -> arb:
        v = vals[i]
        if v is None:
            v = f(vals, env)
            vals[i] = v
        return v
    return get


def _raiser(cls: type[Exception], args: tuple) -> _Getter:
    """A node the interpreter raises on when it reaches it (a fresh exception each time)."""
    def get(vals: list, env: Mapping) -> arb:
        raise cls(*args)
    return get


def _const(c: Any) -> Any:
    def get(vals: list, env: Mapping) -> Any:
        return c
    return get


class _Compiler:
    """Closures over the interpreter's arb operations, one memo slot per distinct sub-expression."""

    def __init__(self) -> None:
        self.getters: dict[Any, _Getter] = {}
        self.n = 0

    def node(self, e: Any) -> _Getter:
        g = self.getters.get(e)
        if g is None:
            f = self._build(e)
            # a constant is read, not computed: no slot (a symbol has one: one look-up per evaluation)
            if e.is_Number or e.is_NumberSymbol or e in (sp.zoo, sp.nan):
                g = f
            else:
                g = _memo_slot(self.n, f)
                self.n += 1
            self.getters[e] = g
        return g

    def _build(self, e: Any) -> _Getter:
        if e.is_Symbol:
            sym = e

            def symbol(vals: list, env: Mapping) -> arb:
                v = env.get(sym, _MISSING)
                if v is _MISSING:
                    raise TypeError(f"free symbol {sym} has no ball")
                return v
            return symbol
        if e.is_Number or e is sp.pi or e is sp.E:
            return _const(_number(e))
        if e.is_NumberSymbol or e in (sp.oo, -sp.oo, sp.zoo, sp.nan):
            return _const(_NAN)
        if isinstance(e, sp.Add):
            return self._add([self.node(t) for t in e.args])
        if isinstance(e, sp.Mul):
            return self._mul(e)
        if isinstance(e, sp.Pow):
            return self._pow(e)
        if isinstance(e, sp.exp):
            a = self.node(e.args[0])
            return lambda vals, env: _nonneg(a(vals, env).exp())
        if isinstance(e, sp.log):
            if len(e.args) != 1:
                return _raiser(TypeError, (f"log with a base is not supported: {e}",))
            a = self.node(e.args[0])

            def log(vals: list, env: Mapping) -> arb:
                v = a(vals, env)
                return v.log() if v.is_finite() and v.lower() > 0 else _NAN
            return log
        if isinstance(e, _sp_log1p):
            a = self.node(e.args[0])

            def log1p(vals: list, env: Mapping) -> arb:
                v = a(vals, env)
                return v.log1p() if v.is_finite() and v.lower() > -1 else _NAN
            return log1p
        if isinstance(e, sp.Abs):
            a = self.node(e.args[0])
            return lambda vals, env: _nonneg(abs(a(vals, env)))
        if isinstance(e, (sp.Max, sp.Min)):
            return self._maxmin([self.node(t) for t in e.args], arb.max if isinstance(e, sp.Max) else arb.min)
        if isinstance(e, sp.sign):
            return self._step(self.node(e.args[0]), arb(1), arb(-1), _span(arb(-1), arb(1)))
        if isinstance(e, sp.Heaviside):
            return self._step(self.node(e.args[0]), arb(1), arb(0), _span(arb(0), arb(1)))
        if isinstance(e, sp.gamma):
            a = self.node(e.args[0])
            return lambda vals, env: a(vals, env).gamma()
        if isinstance(e, sp.loggamma):
            a = self.node(e.args[0])
            return lambda vals, env: a(vals, env).lgamma()
        if isinstance(e, sp.Piecewise):
            return self._piecewise(e)
        return _raiser(TypeError, (f"ball_eval: unsupported node {type(e).__name__}: {e}",))

    @staticmethod
    def _add(gs: list[_Getter]) -> _Getter:
        def add(vals: list, env: Mapping) -> arb:
            terms = [g(vals, env) for g in gs]
            acc = arb(0)
            for v in terms:
                acc = acc + v
            return _clip(acc, terms, product=False)
        return add

    def _mul(self, e: Any) -> _Getter:
        args = list(e.args)
        gs: list[_Getter] = []
        # x^b ln x (b not a number) as one factor, chosen exactly as the interpreter chooses it
        for lg in [a for a in args if isinstance(a, sp.log)]:
            pw = next((a for a in args if isinstance(a, sp.Pow) and a.base == lg.args[0] and not a.exp.is_Number), None)
            if pw is not None and lg in args:
                args.remove(lg)
                args.remove(pw)
                gs.append(self._xpowlog(self.node(pw.base), self.node(pw.exp)))
        gs += [self.node(t) for t in args]

        def mul(vals: list, env: Mapping) -> arb:
            factors = [g(vals, env) for g in gs]
            acc = arb(1)
            for v in factors:
                acc = acc * v
            return _clip(acc, factors, product=True)
        return mul

    @staticmethod
    def _xpowlog(gb: _Getter, ge: _Getter) -> _Getter:
        return lambda vals, env: _xpowlog(gb(vals, env), ge(vals, env))

    def _pow(self, e: Any) -> _Getter:
        base, ex = e.args
        a = self.node(base)
        if ex.is_Integer:
            n = int(ex)
            if n >= 0:
                def power(vals: list, env: Mapping) -> arb:
                    v = a(vals, env)
                    r = v ** n
                    return r.nonnegative_part() if n % 2 == 0 and r.is_finite() else _clip(r, [v] * n, product=True)
                return power

            def inverse(vals: list, env: Mapping) -> arb:
                v = a(vals, env)
                if not v.is_finite() or v.contains(0):
                    return _NAN
                return _clip(1 / (v ** (-n)), [v] * (-n), product=True)
            return inverse
        if ex == sp.Rational(1, 2):
            def sqrt(vals: list, env: Mapping) -> arb:
                v = a(vals, env)
                return _nonneg(v.sqrt()) if v.is_finite() and v.lower() >= 0 else _NAN
            return sqrt
        b = self.node(ex)
        return lambda vals, env: _power(a(vals, env), b(vals, env))

    @staticmethod
    def _maxmin(gs: list[_Getter], op: Callable[[arb, arb], arb]) -> _Getter:
        def maxmin(vals: list, env: Mapping) -> arb:
            vs = [g(vals, env) for g in gs]
            if not _finite(*vs):
                return _NAN
            acc = vs[0]
            for v in vs[1:]:
                acc = op(acc, v)
            return acc
        return maxmin

    @staticmethod
    def _step(a: _Getter, pos: arb, neg: arb, both: arb) -> _Getter:
        def step(vals: list, env: Mapping) -> arb:
            v = a(vals, env)
            if v.is_finite() and v.lower() > 0:
                return pos
            if v.is_finite() and v.upper() < 0:
                return neg
            return both
        return step

    def _piecewise(self, e: Any) -> _Getter:
        items = [(self.node(ex), self.cond(c)) for ex, c in e.args]

        def piecewise(vals: list, env: Mapping) -> arb:
            out = None
            for g, c in items:
                st = c(vals, env)
                if st is False:
                    continue
                v = g(vals, env)
                out = v if out is None else out.union(v)
                if st is True:
                    break
            return _NAN if out is None else out
        return piecewise

    def cond(self, c: Any) -> _CondFn:
        """The interpreter's ``_cond``: True / False / None (undecided) on the box."""
        if c is sp.true or c == True:  # noqa: E712
            return _const(True)
        if c is sp.false or c == False:  # noqa: E712
            return _const(False)
        if isinstance(c, (sp.And, sp.Or)):
            subs = [self.cond(a) for a in c.args]
            if isinstance(c, sp.And):
                def conj(vals: list, env: Mapping) -> bool | None:
                    s = [f(vals, env) for f in subs]
                    return False if False in s else (True if all(x is True for x in s) else None)
                return conj

            def disj(vals: list, env: Mapping) -> bool | None:
                s = [f(vals, env) for f in subs]
                return True if True in s else (False if all(x is False for x in s) else None)
            return disj
        if isinstance(c, sp.Not):
            sub = self.cond(c.args[0])

            def neg(vals: list, env: Mapping) -> bool | None:
                s = sub(vals, env)
                return None if s is None else not s
            return neg
        if not isinstance(c, _RELATIONS):
            return _const(None)
        try:
            d = self.node(sp.sympify(c.lhs - c.rhs))
        except Exception as exc:  # noqa: BLE001 - raised when (and only when) the relation is reached
            d = _raiser(type(exc), exc.args)
        lt, le, gt = isinstance(c, sp.StrictLessThan), isinstance(c, sp.LessThan), isinstance(c, sp.StrictGreaterThan)

        def rel(vals: list, env: Mapping) -> bool | None:
            v = d(vals, env)
            if not v.is_finite():
                return None
            lo, hi = v.lower(), v.upper()
            if lt:
                return True if hi < 0 else (False if lo >= 0 else None)
            if le:
                return True if hi <= 0 else (False if lo > 0 else None)
            if gt:
                return True if lo > 0 else (False if hi <= 0 else None)
            return True if lo >= 0 else (False if hi < 0 else None)
        return rel


def compiled(expr: Any) -> Callable[[Mapping], arb]:
    """``expr`` compiled at the current arb precision: env (symbol -> ball) -> the interpreter's ball."""
    key = (expr, ctx.prec)
    fn = _COMPILED.get(key)
    if fn is None:
        c = _Compiler()
        root = c.node(expr)
        n = c.n

        def fn(env: Mapping) -> arb:
            return root([None] * n, env)
        _bounded(_COMPILED)[key] = fn
    return fn


def _compiled_cond(c: Any) -> Callable[[Mapping], bool | None]:
    key = (c, ctx.prec)
    fn = _CONDS.get(key)
    if fn is None:
        comp = _Compiler()
        root = comp.cond(c)

        def fn(env: Mapping) -> bool | None:
            return root([None] * comp.n, env)
        _bounded(_CONDS)[key] = fn
    return fn


def enclose(expr: Any, env: Mapping[sp.Symbol, arb]) -> arb:
    """:func:`verify.proof.ball_eval.enclose`, compiled (the same ball)."""
    if not isinstance(expr, sp.Basic):
        expr = sp.sympify(expr)
    return compiled(expr)(env)


# ---------------------------------------------------------------- memoised box-independent SymPy

def _memo(tag: str, key: Any, make: Callable[[], Any]) -> Any:
    k = (tag, key)
    try:
        return _MEMO[k]
    except KeyError:
        v = make()
        _bounded(_MEMO)[k] = v
        return v


def _shared(cache: dict, key: tuple, make: Callable[[], Any]) -> Any:
    """``cache[key]`` (the caller's cache, the interpreter's keys), else the value kept for ``key`` in
    this process (the same pure function of the key's expressions), else ``make()``."""
    try:
        return cache[key]
    except KeyError:
        pass
    mk = ("shared", key)
    try:
        v = _MEMO[mk]
    except KeyError:
        v = make()
        _bounded(_MEMO)[mk] = v
    cache[key] = v
    return v


def _factor_or_none(d: Any) -> Any:
    """The interpreter's factored form of a guard's lhs - rhs (None when there is none)."""
    try:
        return sp.factor(d) if not d.has(*_ROUGH) else None
    except Exception:  # noqa: BLE001 - no factored form
        return None


def _has_rough(e: Any) -> bool:
    return bool(_memo("rough", e, lambda: e.has(*_ROUGH)))


def _has(e: Any, s: Any) -> bool:
    return bool(_memo("has", (e, s), lambda: e.has(s)))


def _neg(e: Any) -> Any:
    return _memo("neg", e, lambda: -e)


def _rel_diff(c: Any) -> Any:
    return _memo("diff", c, lambda: sp.sympify(c.lhs - c.rhs))


def _undecided_atom(e: Any) -> Any:
    """:func:`verify.proof.ball_eval._undecided_atom`, memoised."""
    def make() -> Any:
        atoms = sorted(e.atoms(sp.Abs, sp.Max, sp.Min, sp.Piecewise),
                       key=lambda t: (sp.count_ops(t), sp.default_sort_key(t)))
        return atoms[0] if atoms else None
    return _memo("atom", e, make)


def _replace(e: Any, atom: Any, case: Any) -> Any:
    return _memo("xreplace", (e, atom, case), lambda: e.xreplace({atom: case}))


# ------------------------------------------------------------------------------------- decide

class _Rebuilt:
    """A sub-tree without |u|, Max, Min, Piecewise: the interpreter's decide rebuilds it the same
    way on every box (``e.func(*args)`` bottom-up), so it is rebuilt once."""

    __slots__ = ("out",)

    def __init__(self, e: Any) -> None:
        def rec(t: Any) -> Any:
            if not t.args or t.is_Atom:
                return t
            return t.func(*[rec(a) for a in t.args])
        self.out = rec(e)

    def run(self, env: Mapping, ctx_: tuple | None) -> Any:
        return self.out


class _Node:
    """A node with |u|, Max, Min or Piecewise below it; the form built from its children's decided
    forms is kept per tuple of those forms (objects kept by the children, so the look-up is by
    identity)."""

    __slots__ = ("e", "kind", "kids", "conds", "built")

    def __init__(self, e: Any) -> None:
        self.e = e
        self.built: dict[tuple, Any] = {}
        if isinstance(e, sp.Piecewise):
            self.kind = "pw"
            self.kids = [_plan(ex) for ex, _c in e.args]
            self.conds = [c for _ex, c in e.args]
        else:
            self.kind = "abs" if isinstance(e, sp.Abs) else ("max" if isinstance(e, sp.Max) else (
                "min" if isinstance(e, sp.Min) else "other"))
            self.kids = [_plan(a) for a in e.args]
            self.conds = []

    def _build(self, args: tuple) -> Any:
        out = self.built.get(args)
        if out is None:
            out = self.built[args] = self.e.func(*args)
        return out

    def run(self, env: Mapping, ctx_: tuple | None) -> Any:
        if self.kind == "pw":
            kept: list[tuple[Any, Any]] = []
            for kid, c in zip(self.kids, self.conds, strict=True):
                st = _compiled_cond(c)(env) if ctx_ is None else _cond_strong(c, env, ctx_)
                if st is False:
                    continue
                if st is True and not kept:
                    return kid.run(env, ctx_)
                kept.append((kid.run(env, ctx_), c))
                if st is True:
                    break
            if not kept:
                return sp.nan
            key = tuple(kept)
            out = self.built.get(key)
            if out is None:
                out = self.built[key] = sp.Piecewise(*kept)
            return out
        args = tuple(k.run(env, ctx_) for k in self.kids)
        if self.kind == "abs":
            a = enclose(args[0], env)
            if a.is_finite() and a.lower() >= 0:
                return args[0]
            if a.is_finite() and a.upper() <= 0:
                return _neg(args[0])
            return self._build(args)
        if self.kind in ("max", "min"):
            vals = [enclose(a, env) for a in args]
            if _finite(*vals):
                for i, vi in enumerate(vals):
                    wins = all((vi.lower() >= vj.upper()) if self.kind == "max" else (vi.upper() <= vj.lower())
                               for j, vj in enumerate(vals) if j != i)
                    if wins:
                        return args[i]
        return self._build(args)


def _plan(e: Any) -> Any:
    p = _PLANS.get(e)
    if p is None:
        # decide's recursion changes nothing below a node without |u|, Max, Min, Piecewise
        rough = bool(e.args) and not e.is_Atom and e.has(sp.Piecewise, sp.Abs, sp.Max, sp.Min)
        p = _Node(e) if rough else _Rebuilt(e)
        _bounded(_PLANS)[e] = p
    return p


def decide(expr: Any, env: Mapping[sp.Symbol, arb], ctx_: tuple | None = None) -> Any:
    """:func:`verify.proof.ball_eval.decide`, with the SymPy forms kept per choice."""
    if not isinstance(expr, sp.Basic):
        expr = sp.sympify(expr)
    return _plan(expr).run(env, ctx_)


def _cond_strong(c: Any, env: Mapping[sp.Symbol, arb], ctx_: tuple) -> bool | None:
    """:func:`verify.proof.ball_eval._cond_strong`, on compiled enclosures."""
    plain = _compiled_cond(c)(env)
    if plain is not None:
        return plain
    if isinstance(c, (sp.And, sp.Or)):
        s = [_cond_strong(a, env, ctx_) for a in c.args]
        if isinstance(c, sp.And):
            return False if False in s else (True if all(x is True for x in s) else None)
        return True if True in s else (False if all(x is False for x in s) else None)
    if isinstance(c, sp.Not):
        s1 = _cond_strong(c.args[0], env, ctx_)
        return None if s1 is None else not s1
    if not isinstance(c, _RELATIONS):
        return None
    symbols, box, cache = ctx_
    d = _rel_diff(c)
    los: list[arb] = []
    his: list[arb] = []
    fkey = ("factor", d)
    factored = _shared(cache, fkey, lambda: _factor_or_none(d))
    if factored is not None:
        try:
            v = enclose(factored, env)
        except TypeError:
            v = _NAN
        if v.is_finite():
            los.append(v.lower())
            his.append(v.upper())
    try:
        up = upper_bound(d, symbols, box, cache, splits=2, strong=False)
        dn = upper_bound(_neg(d), symbols, box, cache, splits=2, strong=False)
    except Exception:  # noqa: BLE001 - not bounded: the plain / factored answer stands
        up = dn = _NAN
    if up.is_finite():
        his.append(up.upper())
    if dn.is_finite():
        los.append(-dn.upper())
    if not los and not his:
        return None
    lo = max(los) if los else None
    hi = min(his) if his else None
    if isinstance(c, sp.StrictLessThan):
        return True if hi is not None and hi < 0 else (False if lo is not None and lo >= 0 else None)
    if isinstance(c, sp.LessThan):
        return True if hi is not None and hi <= 0 else (False if lo is not None and lo > 0 else None)
    if isinstance(c, sp.StrictGreaterThan):
        return True if lo is not None and lo > 0 else (False if hi is not None and hi <= 0 else None)
    return True if lo is not None and lo >= 0 else (False if hi is not None and hi < 0 else None)


# ---------------------------------------------------------------------- the bounds on a box

def _env(symbols: Sequence[sp.Symbol], box: Sequence[tuple[Any, Any]]) -> dict:
    return {s: interval_ball(lo, hi) for s, (lo, hi) in zip(symbols, box, strict=False)}


def mean_value(expr: Any, symbols: Sequence[sp.Symbol], box: Sequence[tuple[Fraction, Fraction]],
               derivative_cache: dict | None = None) -> arb | None:
    """:func:`verify.proof.ball_eval.mean_value`, on compiled enclosures."""
    if _has_rough(expr) or all(lo == hi for lo, hi in box):
        return None
    cache = derivative_cache if derivative_cache is not None else {}
    mids = [(lo + hi) / 2 for lo, hi in box]
    env_c = {s: point_ball(m) for s, m in zip(symbols, mids, strict=False)}
    env_b = _env(symbols, box)
    v = enclose(expr, env_c)
    for s, (lo, hi), m in zip(symbols, box, mids, strict=False):
        if lo == hi:
            continue
        deriv = _shared(cache, (expr, s), partial(sp.diff, expr, s))
        try:
            g = enclose(deriv, env_b)
        except TypeError:
            return None
        if not g.is_finite():
            return None
        v = v + g * point_ball(lo - m).union(point_ball(hi - m))
    return v if v.is_finite() else None


def enclose_decided(expr: Any, symbols: Sequence[sp.Symbol], box: Sequence[tuple[Fraction, Fraction]],
                    cache: dict | None = None) -> arb:
    """:func:`verify.proof.ball_eval.enclose_decided`, on compiled enclosures."""
    cache = cache if cache is not None else {}
    env = _env(symbols, box)
    best = enclose(expr, env)
    dec = decide(expr, env)
    form = _shared(cache, ("simplified", dec), partial(_simplified, dec))
    for cand in (enclose(form, env), mean_value(form, symbols, box, cache)):
        if cand is None or not cand.is_finite():
            continue
        if not best.is_finite() or cand.upper() < best.upper():
            best = cand
    return best


def _atom_bound_side(e: Any, atom: Any, env: Mapping[sp.Symbol, arb], cache: dict) -> str:
    """:func:`verify.proof.ball_eval._atom_bound_side`, on compiled enclosures."""
    def make() -> Any:
        d = sp.Dummy("atom")
        ed = e.xreplace({atom: d})
        rough = any(t.has(d) for t in ed.atoms(sp.Piecewise, sp.sign, sp.Heaviside))
        coef = sp.diff(ed, d)
        return None if rough or coef.has(d) else coef
    coef = _shared(cache, ("coef", e, atom), make)
    if coef is None:
        return "max"
    try:
        sign = _sign_of(enclose(coef, env))
    except TypeError:
        return "max"
    if sign is None:
        return "max"
    increasing = sign > 0
    if isinstance(atom, sp.Min):
        return "min" if increasing else "max"
    return "max" if increasing else "min"


def _linear_guard(c: Any, symbols: tuple) -> tuple | None:
    """The box-independent part of :func:`verify.proof.ball_eval._restrict` for a relation: (index
    of v, root, True when c holds exactly where v >= root) for a relation a*v + b rel 0 with
    rational a != 0, b in one variable v; None when the relation keeps the box."""
    d = sp.sympify(c.lhs - c.rhs)
    free = [t for t in d.free_symbols if t in symbols]
    if len(free) != 1 or len(d.free_symbols) != 1:
        return None
    v = free[0]
    try:
        poly = sp.Poly(d, v)
    except Exception:  # noqa: BLE001 - not a polynomial: keep the box
        return None
    if poly.degree() != 1:
        return None
    a, b = poly.all_coeffs()
    if not (a.is_Rational and b.is_Rational) or a == 0:
        return None
    root = Fraction(int(sp.Rational(-b).p), int(sp.Rational(-b).q)) / Fraction(int(sp.Rational(a).p), int(sp.Rational(a).q))
    upper_side = isinstance(c, (sp.StrictGreaterThan, sp.GreaterThan))
    return list(symbols).index(v), root, upper_side == (a > 0)


def _restrict(c: Any, symbols: Sequence[sp.Symbol], box: list, negate: bool = False) -> list | None:
    """:func:`verify.proof.ball_eval._restrict`, with the linear form of each guard memoised."""
    if isinstance(c, sp.And) and not negate:
        out: list | None = box
        for a in c.args:
            out = _restrict(a, symbols, out) if out is not None else None
            if out is None:
                return None
        return out
    if isinstance(c, sp.Or) and negate:
        out = box
        for a in c.args:
            out = _restrict(a, symbols, out, negate=True) if out is not None else None
            if out is None:
                return None
        return out
    if isinstance(c, sp.Not):
        return _restrict(c.args[0], symbols, box, not negate)
    if not isinstance(c, _RELATIONS):
        return box
    syms = tuple(symbols)
    lin = _memo("guard", (c, syms), lambda: _linear_guard(c, syms))
    if lin is None:
        return box
    i, root, at_least = lin
    if negate:
        at_least = not at_least
    lo, hi = box[i]
    lo, hi = (max(lo, root), hi) if at_least else (lo, min(hi, root))
    if lo > hi:
        return None
    res = list(box)
    res[i] = (lo, hi)
    return res


def _affine(form: Any, s: Any, cache: dict) -> bool:
    """The interpreter's test that ``form`` is a polynomial of degree <= 1 in ``s``."""
    def make() -> bool:
        try:
            poly = sp.Poly(form, s)
            return bool(poly.degree() <= 1 and not any(c.has(s) for c in poly.all_coeffs()))
        except Exception:  # noqa: BLE001 - not shown affine
            return False
    return bool(_shared(cache, ("affine", form, s), make))


def upper_bound(expr: Any, symbols: Sequence[sp.Symbol], box: Sequence[tuple[Fraction, Fraction]],
                cache: dict | None = None, splits: int = 6, strong: bool = True) -> arb:
    """:func:`verify.proof.ball_eval.upper_bound`, step for step, on compiled enclosures and
    memoised SymPy forms (the same ball)."""
    cache = cache if cache is not None else {}
    box = list(box)
    env = _env(symbols, box)
    dec = decide(expr, env, (symbols, box, cache) if strong else None)
    atom = _undecided_atom(dec) if splits > 0 else None
    if atom is not None:
        vals = []
        if isinstance(atom, sp.Piecewise):
            subs = []
            for k, (ex, c) in enumerate(atom.args):
                sub: list | None = list(box)
                for _ex, c_prev in atom.args[:k]:
                    sub = _restrict(c_prev, symbols, sub, negate=True) if sub is not None else None
                sub = _restrict(c, symbols, sub) if sub is not None else None
                if sub is not None:
                    subs.append((ex, sub))
        else:
            subs = [(c, box) for c in _cases(atom)]
        for c, sub in subs:
            v = upper_bound(_replace(dec, atom, c), symbols, sub, cache, splits - 1, strong)
            if not v.is_finite():
                return _NAN
            vals.append(v)
        if not vals:
            return _NAN
        least = not isinstance(atom, sp.Piecewise) and _atom_bound_side(dec, atom, env, cache) == "min"
        return (min if least else max)(vals, key=lambda v: v.upper())
    form = _shared(cache, ("simplified", dec), partial(_simplified, dec))
    if not _has_rough(form):
        for i, (s, (lo, hi)) in enumerate(zip(symbols, box, strict=False)):
            if lo == hi or not _has(form, s):
                continue
            if _affine(form, s, cache):
                faces = [box[:i] + [(e, e)] + box[i + 1:] for e in (lo, hi)]
                fvals = [upper_bound(form, symbols, f, cache, splits, strong) for f in faces]
                if not all(v.is_finite() for v in fvals):
                    return _NAN
                return max(fvals, key=lambda v: v.upper())
    for _ in range(len(box) + 1):
        env = _env(symbols, box)
        dec = decide(dec, env, (symbols, box, cache) if strong else None)
        form = _shared(cache, ("simplified", dec), partial(_simplified, dec))
        if _has_rough(form):
            break
        moved = False
        for i, (s, (lo, hi)) in enumerate(zip(symbols, box, strict=False)):
            if lo == hi or not _has(form, s):
                continue
            deriv = _shared(cache, ("factored", form, s), partial(_factored_derivative, form, s))
            try:
                g = enclose(deriv, env)
            except TypeError:
                continue
            if g.is_finite() and g.lower() >= 0:
                box[i], moved = (hi, hi), True
            elif g.is_finite() and g.upper() <= 0:
                box[i], moved = (lo, lo), True
        if not moved:
            break
    return enclose_decided(dec, symbols, box, cache)
