"""Independent re-checker of the *symbolic* proofs behind VERIFIED closed forms.

A symbolic proof record (``evidence["proof"]`` with ``"method": "symbolic"``, built by
:mod:`verify.claims.sets.proofs_symbolic` from the SymPy derivations of :mod:`derivations`) carries
the claim id, the domain on which it is proven, and the *witnesses* the derivation found: the
objects that are hard to find and easy to check -- antiderivatives, stationary points, signs of
branches, closed-form values.  :func:`recheck` does not trust them nor the derivation.  For each
claim it has its own :class:`Spec`, written here from the papers (the definition: density,
log-density, objective; the printed form; the domain), and

1. builds, from the spec's own definition and printed form and the record's witnesses, the list of
   steps of the argument, and checks each one with SymPy: an identity (``simplify(e) == 0``, with
   the symbols' positivity assumptions standing for the domain, e.g. ``c = 1 + b``, ``b > 0``; tried
   first by ``cancel`` of a power normal form that splits bases only where SymPy knows the factors
   are non-negative, then by ``simplify``), an
   antiderivative (d/dx F - f == 0), a limit at an end (at +oo as lim_{u->0+} of f(1/u)), a stationary
   set (``solveset`` over an interval), a sign (``is_positive`` of a factored
   form), the absence of singularities of an antiderivative on a half-line (``solveset``);
2. evaluates, with rigorous ball arithmetic (python-flint ``arb``; ``acb.integral`` for integrals
   of the *definition*), the statement at >= 3 rational parameter points: the enclosure of the
   definition-side quantity must overlap the printed value's, both narrower than 1e-25.

The record's ``domain`` must be the spec's, word for word, and every witness the spec needs must be
present; an edited record (a witness, a domain) or a perturbed printed form fails.  Identities that
SymPy proves with ``force=True`` (``powsimp``, ``expand_log``) are valid because every base is
positive on the stated domain (each spec says so).

Steps that rest on a result of the paper rather than on algebra (e.g. 004's composition rule
"eps = m gamma sup|D_scale| + eta sup|D_shift|") are listed under ``relies_on`` in the spec and the
record; they are not re-proven here.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

import sympy as sp

from ._results import RecheckOutcome
from .record import describe_record, register_method

__all__ = ["Spec", "SPECS", "SymbolicRecheck", "recheck", "make_record", "is_zero", "arb_eval", "describe"]

#: arb working precision (bits) of the re-checker and the width asked of its enclosures
PREC = 200
WIDTH = Fraction(1, 10**25)


@dataclass(frozen=True)
class SymbolicRecheck(RecheckOutcome):
    """Outcome of :func:`recheck`: ``ok`` iff every step and every ball check passed."""

    n_steps: int = 0
    n_points: int = 0
    prec: int = PREC
    seconds: float = 0.0

    @property
    def n_boxes(self) -> int:  # the work count every RecheckOutcome reports (describe_recheck)
        return self.n_steps


# ---------------------------------------------------------------------------------------------------
# SymPy steps
# ---------------------------------------------------------------------------------------------------
def _pos_normal(e: sp.Expr) -> sp.Expr:
    """A normal form of the powers with non-integer exponents: each base is factored (over a common
    denominator) and split into the powers of its factors *only where SymPy knows the factors are
    non-negative* (``expand_power_base`` without ``force``: no branch is assumed), equal bases merged
    (``powsimp(combine="exp")``).  E.g. (1 - 1/(b+1))^(b+1) -> b^(b+1) (b+1)^(-b-1) for b > 0."""
    def fac(n: sp.Pow) -> sp.Expr:
        return sp.Pow(sp.factor(sp.together(n.base)), n.exp)

    e = e.replace(lambda n: n.is_Pow and not n.exp.is_Integer and n.base.has(sp.Symbol), fac)
    return sp.powsimp(sp.expand_power_base(e), combine="exp")


def is_zero(e: Any) -> bool:
    """True iff SymPy reduces ``e`` to 0: first cheaply (``cancel`` of the positive-base power normal
    form :func:`_pos_normal`, no branch assumed), then simplify; then with logs and powers expanded
    under the positivity of every base; then gammasimp / trig expansion.  False is "not shown", not
    "non-zero"."""
    e = sp.sympify(e)
    if e == 0:
        return True
    tries: list[Callable[[sp.Expr], sp.Expr]] = [
        lambda x: sp.cancel(sp.together(_pos_normal(x))),
        sp.simplify,
        lambda x: sp.simplify(sp.powsimp(sp.expand_power_base(sp.expand_log(x, force=True), force=True), force=True)),
        lambda x: sp.simplify(sp.gammasimp(x)),
        lambda x: sp.simplify(sp.expand_trig(sp.simplify(sp.gammasimp(x)))),
    ]
    for t in tries:
        try:
            if t(e) == 0:
                return True
        except Exception:  # noqa: BLE001 - a failed simplification is not a proof
            continue
    return False


def _sign_known(e: Any, attr: str, transforms: tuple[Callable[[Any], Any], ...]) -> bool:
    """True iff SymPy states ``attr`` ("is_positive", "is_nonnegative") of ``e`` or of one of its
    ``transforms``; an exception in a transform counts as "not shown"."""
    for f in transforms:
        try:
            if getattr(f(e), attr) is True:
                return True
        except Exception:  # noqa: BLE001
            continue
    return False


def _positive(e: Any) -> bool:
    return _sign_known(sp.sympify(e), "is_positive",
                       (lambda x: x, sp.factor, sp.simplify, lambda x: sp.factor(sp.together(sp.expand(x)))))


def _nonneg(e: Any) -> bool:
    e = sp.sympify(e)
    return is_zero(e) or _sign_known(e, "is_nonnegative", (lambda x: x, sp.factor, sp.simplify))


def _no_singularity(expr: sp.Expr, var: sp.Symbol) -> bool:
    """True iff every log argument of ``expr`` is > 0, and every denominator (negative power base)
    and atan argument's denominator is non-zero, for real ``var`` >= 0 (solveset over [0, oo))."""
    t = sp.Symbol("t_real", real=True)
    e = expr.subs(var, t)
    dom = sp.Interval(0, sp.oo)
    bad: list[Any] = []
    for node in sp.preorder_traversal(e):
        if isinstance(node, sp.log):
            bad.append(sp.solveset(node.args[0] <= 0, t, dom))
        elif isinstance(node, sp.atan):
            bad.append(sp.solveset(sp.Eq(sp.denom(sp.together(node.args[0])), 0), t, dom))
        elif isinstance(node, sp.Pow) and node.exp.is_negative:
            bad.append(sp.solveset(sp.Eq(node.base, 0), t, dom))
    return all(b == sp.S.EmptySet for b in bad)


def _limit(expr: sp.Expr, var: sp.Symbol, point: Any, dirn: str) -> sp.Expr:
    """lim_{var -> point} expr; at +oo computed as lim_{u -> 0+} expr(1/u) (the same limit: var -> oo
    iff u = 1/var -> 0+; SymPy's Gruntz algorithm is faster from this side), the direct limit if that
    one is not a finite number."""
    if point is sp.oo:
        u = sp.Dummy("u_inv", positive=True)
        try:
            lim = sp.limit(expr.subs(var, 1 / u), u, 0, "+")
            if lim.is_finite is True:
                return lim
        except Exception:  # noqa: BLE001 - fall back to the direct limit
            pass
    return sp.limit(expr, var, point, dirn)


def _check_step(step: tuple[Any, ...]) -> str | None:
    """None if the step holds, else the problem."""
    name, kind = step[0], step[1]
    try:
        if kind == "zero":
            ok = is_zero(step[2])
        elif kind == "antiderivative":  # (F, f, var): d/dvar F == f
            ok = is_zero(sp.diff(step[2], step[4]) - step[3])
        elif kind == "limit":  # (expr, var, point, dir, value)
            lim = _limit(step[2], step[3], step[4], step[5])
            ok = lim.is_finite is not False and is_zero(lim - step[6])
        elif kind == "positive":
            ok = _positive(step[2])
        elif kind == "nonzero":  # a closed-form constant: SymPy decides it is not 0
            ok = sp.simplify(step[2]).is_zero is False
        elif kind == "nonneg":
            ok = _nonneg(step[2])
        elif kind == "no_singularity":  # (expr, var)
            ok = _no_singularity(step[2], step[3])
        elif kind == "stationary_set":  # (expr, var, interval, roots): {var in interval: expr = 0} == roots
            ok = sp.solveset(step[2], step[3], step[4]) == sp.FiniteSet(*step[5])
        elif kind == "unique_root_decreasing":  # (q, var, root): q(root) = 0 and dq/dvar < 0 on var > 0
            ok = is_zero(step[2].subs(step[3], step[4])) and _positive(-sp.diff(step[2], step[3]))
        else:
            return f"{name}: unknown step kind {kind!r}"
    except Exception as exc:  # noqa: BLE001 - a step that raises is not shown
        return f"{name}: {type(exc).__name__}: {exc}"
    return None if ok else f"{name}: not shown ({kind})"


def _step_json(step: tuple[Any, ...]) -> dict[str, Any]:
    return {"name": step[0], "kind": step[1], "args": [str(a) for a in step[2:]]}


# ---------------------------------------------------------------------------------------------------
# rigorous ball evaluation (independent of verify.proof.functions)
# ---------------------------------------------------------------------------------------------------
def arb_eval(expr: Any, env: Mapping[sp.Symbol, Any], kind: str = "arb", analytic: bool = False) -> Any:
    """Evaluate a SymPy expression on python-flint balls (``arb`` or ``acb``); rationals exactly,
    floats refused (a float in a proof is a rounding the ball would not see).  ``analytic`` (acb):
    every log (also inside a power with a non-integer exponent) gives a non-finite ball where its
    argument's ball touches the branch cut (acb.integral's holomorphy test)."""
    import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

    T = flint.arb if kind == "arb" else flint.acb

    def ev(e: sp.Expr) -> Any:
        if e in env:
            return env[e]
        if e.is_Integer:
            return T(int(e))
        if e.is_Rational:
            return T(int(e.p)) / int(e.q)
        if e.is_Float:
            raise TypeError(f"a float {e} in a proof expression")
        if e is sp.pi:
            return T(flint.arb.pi())
        if e is sp.E:
            return T(1).exp()
        if e.is_Add:
            out = T(0)
            for a in e.args:
                out += ev(a)
            return out
        if e.is_Mul:
            out = T(1)
            for a in e.args:
                out *= ev(a)
            return out
        if e.is_Pow:
            b = ev(e.base)
            if e.exp.is_Integer:
                return b ** int(e.exp)
            if e.exp == sp.Rational(1, 2):
                return b.sqrt()
            return (ev(e.exp) * (b.log(analytic=True) if analytic else b.log())).exp()
        if analytic and isinstance(e, sp.log):
            return ev(e.args[0]).log(analytic=True)
        fn = {sp.exp: "exp", sp.log: "log", sp.atan: "atan", sp.sin: "sin", sp.cos: "cos", sp.gamma: "gamma"}
        for cls, meth in fn.items():
            if isinstance(e, cls):
                return getattr(ev(e.args[0]), meth)()
        if isinstance(e, sp.csc):
            return 1 / ev(e.args[0]).sin()
        if isinstance(e, sp.Abs):
            x = ev(e.args[0])
            return abs(x) if kind == "arb" else x  # acb: only used on positive reals
        if isinstance(e, sp.Max):
            return flint.arb.max(*[ev(a) for a in e.args]) if len(e.args) == 2 else _fold_max([ev(a) for a in e.args])
        raise TypeError(f"no ball evaluation for {type(e).__name__}: {e}")

    return ev(sp.sympify(expr))


def _fold_max(xs: Sequence[Any]) -> Any:
    import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

    out = xs[0]
    for x in xs[1:]:
        out = flint.arb.max(out, x)
    return out


def _integral(integrand: sp.Expr, var: sp.Symbol, lo: Any, hi: Any) -> Any:
    """int_lo^hi integrand d var as an arb ball (acb.integral; [a, oo) as [a, 1] + int_0^1 f(1/u)/u^2 du
    when a <= 1, the transformed integrand simplified by ``cancel`` -- rational at the points used)."""
    import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

    def integ(f: sp.Expr, a: Any, b: Any) -> Any:
        f = sp.cancel(sp.together(f))

        def g(x: Any, analytic: bool) -> Any:
            return arb_eval(f, {var: x}, kind="acb")

        return flint.acb.integral(g, arb_eval(sp.sympify(a), {}), arb_eval(sp.sympify(b), {})).real

    if hi is sp.oo:
        if sp.sympify(lo) > 1:
            raise ValueError("the half-line split needs lo <= 1")
        u = sp.Symbol("u_int", positive=True)
        tail = integrand.subs(var, 1 / u) / u**2
        tail_int = integ(tail.subs(u, var), 0, 1)
        return tail_int if lo == 1 else integ(integrand, lo, 1) + tail_int
    return integ(integrand, lo, hi)


def _ball_agree(name: str, value: Any, printed: Any, point: Mapping[str, Any]) -> dict[str, Any]:
    from verify.proof.functions import arb_to_fraction  # noqa: PLC0415 - exact read of ball radii

    ok = bool(value.is_finite() and printed.is_finite() and value.overlaps(printed)
              and arb_to_fraction(value.rad()) <= WIDTH and arb_to_fraction(printed.rad()) <= WIDTH)
    return {"name": name, "point": {k: str(v) for k, v in point.items()}, "definition": value.str(30),
            "printed": printed.str(30), "ok": ok}


# ---------------------------------------------------------------------------------------------------
# specs
# ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Spec:
    """What :func:`recheck` knows of one claim, independently of the proof record.

    ``steps(w, printed)`` builds the argument's steps from the spec's own definition, the printed
    forms ``printed`` (``printed_forms()`` unless a control perturbs them) and the witnesses ``w``;
    ``balls(w, printed)`` the rigorous evaluations at rational points (>= 3)."""

    claim: str
    domain: str
    witnesses: tuple[str, ...]
    printed_forms: Callable[[], dict[str, sp.Expr]]
    steps: Callable[[Mapping[str, sp.Expr], Mapping[str, sp.Expr]], list[tuple[Any, ...]]]
    balls: Callable[[Mapping[str, sp.Expr], Mapping[str, sp.Expr]], list[dict[str, Any]]]
    relies_on: tuple[str, ...] = ()
    #: the derivation of the witnesses, () -> (witnesses, derivation record): registered with the spec by
    #: :func:`witnesses_for` (a spec without one proves nothing: :func:`specs_without_witnesses`)
    derive: Callable[[], tuple[dict[str, Any], dict[str, Any]]] | None = None


SPECS: dict[str, Spec] = {}

WitnessFn = Callable[[], tuple[dict[str, Any], dict[str, Any]]]


def witnesses_for(spec_id: str) -> Callable[[WitnessFn], WitnessFn]:
    """Decorator: the function ``() -> (witnesses, derivation)`` deriving the witnesses of the spec ``spec_id``
    (from the SymPy derivations), carried by the spec from then on (:attr:`Spec.derive`).  An unknown spec or
    a second witness function for one spec is refused (ValueError)."""

    def deco(fn: WitnessFn) -> WitnessFn:
        spec = SPECS.get(spec_id)
        if spec is None:
            raise ValueError(f"no symbolic spec {spec_id!r} to attach witnesses to; specs: {sorted(SPECS)}")
        if spec.derive is not None and spec.derive is not fn:
            raise ValueError(f"the symbolic spec {spec_id!r} already has its witness function")
        SPECS[spec_id] = replace(spec, derive=fn)
        return fn

    return deco


def spec_witnesses(spec_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(witnesses, derivation) of the spec ``spec_id`` from its registered witness function; ValueError when
    the spec has none."""
    spec = SPECS.get(spec_id)
    if spec is None:
        raise ValueError(f"no symbolic spec {spec_id!r}")
    if spec.derive is None:
        raise ValueError(f"the symbolic spec {spec_id!r} has no witness function (verify.proof.symbolic.witnesses_for)")
    return spec.derive()


def specs_without_witnesses() -> list[str]:
    """The specs no witness function was registered for (empty once every claim module is loaded)."""
    return sorted(k for k, s in SPECS.items() if s.derive is None)


def _spec(**kw: Any) -> Spec:
    s = Spec(**kw)
    SPECS[s.claim] = s
    return s


def _q(x: Any) -> sp.Rational:
    return sp.Rational(x)


def _balls_at(points: Sequence[Mapping[sp.Symbol, Any]], pairs: Callable[[Mapping[sp.Symbol, Any]], list[tuple[str, Any, Any]]]
              ) -> list[dict[str, Any]]:
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    out = []
    with workprec(PREC):
        for pt in points:
            for name, value, printed in pairs(pt):
                out.append(_ball_agree(name, value, printed, {s.name: v for s, v in pt.items()}))
    return out


def _env(pt: Mapping[sp.Symbol, Any]) -> dict[sp.Symbol, Any]:
    return {s: arb_eval(sp.Rational(v), {}) for s, v in pt.items()}


# ---- 004 Claim 3.4 and the sup of the GenCauchy shift term ---------------------------------------
B_ = sp.Symbol("b", positive=True)  # an excess: c = 1 + b, p = 1 + b, nu = 1 + b (the domain c > 1)
Z_ = sp.Symbol("z", positive=True)


def _claim34_steps(c: sp.Expr, zstar: sp.Expr, value: sp.Expr, scale: sp.Expr = sp.S.One,
                   tag: str = "phi_c") -> list[tuple[Any, ...]]:
    """sup_{z >= 0} scale * phi_c'(z) = value, attained at zstar, phi_c = ln(1 + z^c), c > 1 (c written
    1 + b): phi'' = c z^(c-2) ((c-1) - z^c)/(1+z^c)^2, q = (c-1) - z^c is strictly decreasing with the
    single root zstar, so phi' increases on (0, zstar) and decreases after; phi'(0+) = phi'(oo) = 0."""
    z = Z_
    d1 = sp.diff(scale * sp.log(1 + z**c), z)
    d2 = sp.diff(d1, z)
    q = (c - 1) - z**c
    return [
        (f"{tag}'' = scale c z^(c-2) q/(1+z^c)^2, q = (c-1) - z^c", "zero",
         d2 - scale * c * z ** (c - 2) * q / (1 + z**c) ** 2),
        (f"{tag}: q has the single root zstar on z > 0 (strictly decreasing)", "unique_root_decreasing", q, z, zstar),
        (f"{tag}' >= 0 on z > 0", "nonneg", d1),
        (f"{tag}'(0+) = 0", "limit", d1, z, 0, "+", 0),
        (f"{tag}'(oo) = 0", "limit", d1, z, sp.oo, "-", 0),
        (f"{tag}'(zstar) = the claimed sup", "zero", d1.subs(z, zstar) - value),
    ]


def _c34_printed() -> dict[str, sp.Expr]:
    c = sp.Symbol("c", positive=True)
    return {"sup": (c - 1) ** ((c - 1) / c), "zstar": (c - 1) ** (1 / c)}


def _c34_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    c = sp.Symbol("c", positive=True)
    sub = {c: 1 + B_}
    return ([("witness zstar is the printed attainment point", "zero", (w["zstar"] - pr["zstar"]).subs(sub))]
            + _claim34_steps(1 + B_, w["zstar"].subs(sub), pr["sup"].subs(sub)))


def _c34_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    c = sp.Symbol("c", positive=True)
    z = Z_
    d1 = sp.diff(sp.log(1 + z**c), z)

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        zs = arb_eval(pr["zstar"], env)
        return [("phi_c'(zstar) = printed sup", arb_eval(d1, {**env, z: zs}), arb_eval(pr["sup"], env))]

    return _balls_at([{c: _q("3/2")}, {c: 2}, {c: _q("11/3")}, {c: 7}], pairs)


_spec(claim="004-Claim-3.4", domain="c > 1 real, z >= 0 real", witnesses=("zstar", "sup"),
      printed_forms=_c34_printed, steps=_c34_steps, balls=_c34_balls)


# ---- 004 App. A.1: Lipschitz constants of Student's t ----------------------------------------------
def _a1_printed() -> dict[str, sp.Expr]:
    nu = sp.Symbol("nu", positive=True)
    return {"lip1": sp.Integer(1), "lip_nu": (nu + 1) / (2 * sp.sqrt(nu))}


def _a1_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    nu, z = sp.Symbol("nu", positive=True), Z_
    d = sp.diff(sp.log(1 + z**2), z)
    dh = sp.diff((nu + 1) / 2 * sp.log(1 + z**2 / nu), z)  # |d/dz ln h_nu| (h_nu even: z >= 0 suffices)
    zs = w["zstar"]
    return [
        ("1 - d/dz ln(1+z^2) = (1-z)^2/(1+z^2) >= 0 (Lipschitz 1 by the mean value theorem)", "zero",
         pr["lip1"] - d - (1 - z) ** 2 / (1 + z**2)),
        ("d/dz ln(1+z^2) >= 0 on z >= 0", "nonneg", d),
        ("printed - d/dz ln h_nu = (nu+1)(z - zstar)^2/(2 sqrt(nu)(nu + z^2)) >= 0 (zstar from the derivation)", "zero",
         pr["lip_nu"] - dh - (nu + 1) * (z - zs) ** 2 / (2 * sp.sqrt(nu) * (nu + z**2))),
        ("d/dz ln h_nu >= 0 on z >= 0 (|.| on z < 0 by evenness)", "nonneg", dh),
        ("attained at zstar", "zero", dh.subs(z, zs) - pr["lip_nu"]),
    ]


def _a1_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    nu, z = sp.Symbol("nu", positive=True), Z_
    dh = (nu + 1) * z / (nu + z**2)  # the definition's |d/dz ln h_nu| written directly

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        return [("|d/dz ln h_nu| at sqrt(nu) = printed", arb_eval(dh, {**env, z: env[nu].sqrt()}),
                 arb_eval(pr["lip_nu"], env))]

    return _balls_at([{nu: _q("1/2")}, {nu: 3}, {nu: _q("17/2")}], pairs)


_spec(claim="004-App-A.1-student-t-lipschitz", domain="nu > 0 real, z real (z1, z2 real)", witnesses=("zstar",),
      printed_forms=_a1_printed, steps=_a1_steps, balls=_a1_balls)


# ---- 004 Lemma 3.3 / Cor. 3.2 / Lemma 3.5 / Lemma 3.6 eps ---------------------------------------
GAMMA, ETA, M_ = sp.symbols("gamma eta m", positive=True)


def _dist_max(e: sp.Expr) -> sp.Expr:
    """m gamma Max(a, b) -> Max(m gamma a, m gamma b) for the positive factors (gamma, m > 0 on the domain)."""
    def rep(n: sp.Expr) -> sp.Expr:
        mx = [f for f in n.args if isinstance(f, sp.Max)]
        rest = sp.Mul(*[f for f in n.args if not isinstance(f, sp.Max)])
        if len(mx) != 1 or rest.is_positive is not True:
            return n
        return sp.Max(*[sp.expand(rest * a) for a in mx[0].args])

    e = sp.expand(e)
    e = e.replace(lambda n: n.is_Mul and any(isinstance(f, sp.Max) for f in n.args), rep)
    return e.replace(lambda n: isinstance(n, sp.Max), lambda n: sp.Max(*[sp.expand(a) for a in n.args]))


def _scale_monotone_steps(d_scale: sp.Expr, lo: sp.Expr, hi: sp.Expr, tag: str) -> list[tuple[Any, ...]]:
    z = Z_
    return [(f"{tag}: d/dz D_scale > 0 on z > 0", "positive", sp.diff(d_scale, z)),
            (f"{tag}: D_scale(0+)", "limit", d_scale, z, 0, "+", lo),
            (f"{tag}: D_scale(oo)", "limit", d_scale, z, sp.oo, "-", hi)]


def _gc_eps_printed() -> dict[str, sp.Expr]:
    p, th = sp.symbols("p theta", positive=True)
    shift = (p - 1) ** ((p - 1) / p) * th
    return {"eps33": sp.Max(GAMMA, (p * th - 1) * GAMMA) + shift * ETA,
            "eps32": sp.Max(M_ * GAMMA, M_ * (p * th - 1) * GAMMA) + shift * ETA,
            "sup_scale": sp.Max(1, p * th - 1), "sup_shift": shift}


def _gc_eps_steps(which: str) -> Callable[[Mapping[str, sp.Expr], Mapping[str, sp.Expr]], list[tuple[Any, ...]]]:
    def steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
        p, th = sp.symbols("p theta", positive=True)
        a, t = sp.Symbol("a", positive=True), sp.Symbol("t", nonnegative=True)  # p = 1 + a, theta = 1 + t
        z = Z_
        log_h = -(1 + t) * sp.log(1 + z ** (1 + a))
        d_shift = -sp.diff(log_h, z)
        d_scale = -1 - z * sp.diff(log_h, z)
        sub = {p: 1 + a, th: 1 + t}
        out = _scale_monotone_steps(d_scale, sp.Integer(-1), (1 + a) * (1 + t) - 1, "GenCauchy")
        out += [("p theta - 1 > 0: sup|D_scale| = max(1, p theta - 1) (D_scale runs over (-1, p theta - 1))", "positive",
                 (1 + a) * (1 + t) - 1),
                ("D_shift = theta phi_p'", "zero", d_shift - (1 + t) * sp.diff(sp.log(1 + z ** (1 + a)), z))]
        out += _claim34_steps(1 + a, w["zstar"].subs(sub), pr["sup_shift"].subs(sub), scale=1 + t, tag="D_shift")
        if which == "33":
            out.append(("eps = gamma sup|D_scale| + eta sup|D_shift| equals the printed eps (gamma > 0 into max)", "zero",
                        _dist_max((GAMMA * pr["sup_scale"] + ETA * pr["sup_shift"]).subs(sub))
                        - _dist_max(pr["eps33"].subs(sub))))
        else:
            out.append(("eps = m gamma sup|D_scale| + eta sup|D_shift| equals the printed eps (m gamma > 0 into max)",
                        "zero", _dist_max((M_ * GAMMA * pr["sup_scale"] + ETA * pr["sup_shift"]).subs(sub))
                        - _dist_max(pr["eps32"].subs(sub))))
        out.append(("the derivation's eps equals the printed eps", "zero",
                    _dist_max(w["eps"].subs(sub)) - _dist_max((pr["eps33"] if which == "33" else pr["eps32"]).subs(sub))))
        return out

    return steps


def _gc_eps_balls(which: str) -> Callable[[Mapping[str, sp.Expr], Mapping[str, sp.Expr]], list[dict[str, Any]]]:
    def balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
        p, th = sp.symbols("p theta", positive=True)
        z = Z_
        d_shift = th * p * z ** (p - 1) / (1 + z**p)  # the definition's |d/dz ln h| on z > 0

        def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
            env = _env(pt)
            zs = arb_eval(w["zstar"], env)
            eps_def = (arb_eval(M_ if which == "32" else sp.Integer(1), env) * env[GAMMA]
                       * _fold_max([arb_eval(sp.Integer(1), {}), env[p] * env[th] - 1])
                       + env[ETA] * arb_eval(d_shift, {**env, z: zs}))
            return [("sup D_shift at zstar = printed", arb_eval(d_shift, {**env, z: zs}), arb_eval(pr["sup_shift"], env)),
                    ("eps (definition side) = printed eps", eps_def, arb_eval(pr["eps" + which], env))]

        pts = [{p: _q("3/2"), th: 1, GAMMA: _q("1/9"), ETA: _q("1/2"), M_: 3},
               {p: 4, th: 1, GAMMA: _q("1/10"), ETA: 1, M_: 2},
               {p: _q("7/3"), th: _q("5/2"), GAMMA: _q("1/3"), ETA: _q("3/7"), M_: 5}]
        return _balls_at(pts, pairs)

    return balls


_FRAMEWORK = ("004 Sec. 3.2 (Lemma 3.1 and its use in the proofs of Lemmas 3.3, 3.5): a GP mechanism with noise Z of "
              "log-density ln h, released as f(x) + (B(x)/eta) Z with a g_E(.; gamma)-smooth bound B, has "
              "eps = m gamma sup|D_scale| + eta sup|D_shift| (D_shift = -d ln h/dz, D_scale = -1 - z d ln h/dz); "
              "this composition is the paper's, taken as given; the sup values and the algebra are proven here")

_spec(claim="004-Lemma-3.3-epsilon", domain="p > 1, theta >= 1, gamma > 0, eta > 0 real; z >= 0 (h even)",
      witnesses=("zstar", "eps"), printed_forms=_gc_eps_printed, steps=_gc_eps_steps("33"), balls=_gc_eps_balls("33"),
      relies_on=(_FRAMEWORK,))
_spec(claim="004-Cor-3.2-epsilon", domain="p > 1, theta >= 1, gamma > 0, eta > 0 real, m >= 1; z >= 0 (h even)",
      witnesses=("zstar", "eps"), printed_forms=_gc_eps_printed, steps=_gc_eps_steps("32"), balls=_gc_eps_balls("32"),
      relies_on=(_FRAMEWORK + "; Cor. 3.2: m i.i.d. coordinates with the l1 output metric add the m scale terms",))


def _t_eps_printed() -> dict[str, sp.Expr]:
    nu = sp.Symbol("nu", positive=True)
    return {"eps": nu * GAMMA + (nu + 1) / (2 * sp.sqrt(nu)) * ETA, "sup_scale": nu,
            "sup_shift": (nu + 1) / (2 * sp.sqrt(nu))}


def _t_eps_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    nu, z = sp.Symbol("nu", positive=True), Z_
    sub = {nu: 1 + B_}
    n = 1 + B_
    log_h = -(n + 1) / 2 * sp.log(1 + z**2 / n)
    d_shift = -sp.diff(log_h, z)
    d_scale = -1 - z * sp.diff(log_h, z)
    zs = w["zstar"].subs(sub)
    return _scale_monotone_steps(d_scale, sp.Integer(-1), n, "Student t") + [
        ("nu > 1: sup|D_scale| = max(1, nu) = nu", "positive", n - 1),
        ("sup_shift - D_shift = (nu+1)(z - zstar)^2/(2 sqrt(nu)(nu+z^2)) >= 0", "zero",
         pr["sup_shift"].subs(sub) - d_shift - (n + 1) * (z - zs) ** 2 / (2 * sp.sqrt(n) * (n + z**2))),
        ("D_shift >= 0 on z >= 0", "nonneg", d_shift),
        ("D_shift attains sup_shift at zstar", "zero", d_shift.subs(z, zs) - pr["sup_shift"].subs(sub)),
        ("eps = gamma sup|D_scale| + eta sup|D_shift| equals the printed eps", "zero",
         (GAMMA * pr["sup_scale"] + ETA * pr["sup_shift"] - pr["eps"]).subs(sub)),
        ("the derivation's eps equals the printed eps", "zero", (w["eps"] - pr["eps"]).subs(sub)),
    ]


def _t_eps_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    nu, z = sp.Symbol("nu", positive=True), Z_
    d_shift = (nu + 1) * z / (nu + z**2)

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        zs = arb_eval(w["zstar"], env)
        eps_def = env[GAMMA] * env[nu] + env[ETA] * arb_eval(d_shift, {**env, z: zs})
        return [("eps (definition side) = printed eps", eps_def, arb_eval(pr["eps"], env))]

    return _balls_at([{nu: 3, GAMMA: _q("1/9"), ETA: 1}, {nu: _q("3/2"), GAMMA: _q("1/20"), ETA: _q("2/3")},
                      {nu: 12, GAMMA: _q("1/7"), ETA: _q("5/3")}], pairs)


_spec(claim="004-Lemma-3.5-epsilon", domain="nu > 1, gamma > 0, eta > 0 real; z >= 0 (h even)",
      witnesses=("zstar", "eps"), printed_forms=_t_eps_printed, steps=_t_eps_steps, balls=_t_eps_balls,
      relies_on=(_FRAMEWORK,))


def _lap_printed() -> dict[str, sp.Expr]:
    d = sp.Symbol("delta", positive=True)
    return {"eps": ETA + GAMMA * sp.log(1 / d)}


def _lap_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    z, t, d = Z_, sp.Symbol("t", positive=True), sp.Symbol("delta", positive=True)
    log_h = -z  # ln(e^{-|z|}/2) + ln 2 on z > 0
    return [
        ("|D_shift| = |d/dz ln h| = 1 on z != 0", "zero", sp.Abs(-sp.diff(log_h, z)) - 1),
        ("-e^{-z} is an antiderivative of e^{-z}", "antiderivative", -sp.exp(-z), sp.exp(-z), z),
        ("-e^{-z} -> 0 at oo", "limit", -sp.exp(-z), z, sp.oo, "-", 0),
        ("Pr[|Z| > t] = 2 int_t^oo e^{-z}/2 = e^{-t} (witness)", "zero", w["tail"].subs(Z_, t) - (0 - (-sp.exp(-t)))),
        ("t = ln(1/delta) solves e^{-t} = delta", "zero", sp.exp(-sp.log(1 / d)) - d),
        ("eps = eta sup|D_shift| + gamma t(delta) equals the printed eps", "zero", ETA * 1 + GAMMA * sp.log(1 / d) - pr["eps"]),
        ("the derivation's eps equals the printed eps", "zero", w["eps"] - pr["eps"]),
    ]


def _lap_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    d = sp.Symbol("delta", positive=True)

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        # the tail integral of the definition at t = ln(1/delta): int_t^{t+60} e^{-z} dz + e^{-(t+60)}
        tt = arb_eval(sp.log(1 / d), env)
        import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

        body = flint.acb.integral(lambda x, a: (-x).exp(), flint.acb(tt), flint.acb(tt + 60)).real
        tail = body + (-(tt + 60)).exp()
        return [("Pr[|Z| > ln(1/delta)] = delta", tail, env[d]),
                ("eps = eta + gamma t", env[ETA] + env[GAMMA] * tt, arb_eval(pr["eps"], env))]

    return _balls_at([{d: _q("1/1000"), GAMMA: _q("1/10"), ETA: 1}, {d: _q("1/3"), GAMMA: _q("1/2"), ETA: _q("1/7")},
                      {d: _q("1/1000000"), GAMMA: _q("2/9"), ETA: _q("3/2")}], pairs)


_spec(claim="004-Lemma-3.6-epsilon", domain="0 < delta < 1, gamma > 0, eta > 0 real; Lap(0,1), z real",
      witnesses=("tail", "eps"), printed_forms=_lap_printed, steps=_lap_steps, balls=_lap_balls,
      relies_on=("004 Lemma 3.6's composition for g_L (the privacy loss is at most eta sup|D_shift| outside the "
                 "event |Z| > t of probability delta, with the scale term gamma t); taken as given",))


# ---- 004 Sec. 3.1.2 growth axioms -----------------------------------------------------------------
def _growth_printed() -> dict[str, sp.Expr]:
    g, r = sp.Symbol("gamma", positive=True), sp.Symbol("r", nonnegative=True)
    return {"gE": sp.exp(g * r), "gL": 1 + g * r}


def _growth_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    r = sp.Symbol("r", nonnegative=True)
    r1, r2 = sp.symbols("r1 r2", nonnegative=True)
    rp = sp.Symbol("r_pos", positive=True)
    out = []
    for k in ("gE", "gL"):
        f = pr[k]
        out += [(f"{k}(0) = 1", "zero", f.subs(r, 0) - 1),
                (f"{k} non-decreasing: d{k}/dr > 0", "positive", sp.diff(f, r).subs(r, rp)),
                (f"{k} >= 1: {k}(r) - 1 = int_0^r {k}' >= 0 (antiderivative)", "antiderivative", f - 1, sp.diff(f, r), r),
                (f"{k}(r1) {k}(r2) - {k}(r1 + r2) equals the witness", "zero",
                 f.subs(r, r1) * f.subs(r, r2) - f.subs(r, r1 + r2) - w["submult_" + k]),
                (f"{k}: the witness {w['submult_' + k]} is >= 0", "nonneg", w["submult_" + k])]
    return out


def _growth_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    g, r = sp.Symbol("gamma", positive=True), sp.Symbol("r", nonnegative=True)
    r1, r2 = sp.symbols("r1 r2", nonnegative=True)

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        out = []
        for k in ("gE", "gL"):
            f = pr[k]
            lhs = arb_eval(f.subs(r, r1), env) * arb_eval(f.subs(r, r2), env) - arb_eval(f.subs(r, r1 + r2), env)
            out.append((f"{k}(r1)g(r2) - g(r1+r2) = witness", lhs, arb_eval(w["submult_" + k], env)))
        return out

    return _balls_at([{g: _q("1/1000"), r1: 3, r2: _q("1/2")}, {g: 1, r1: _q("7/3"), r2: 5},
                      {g: _q("15/2"), r1: _q("1/9"), r2: _q("2/7")}], pairs)


_spec(claim="004-Sec-3.1.2-growth-axioms", domain="gamma > 0 real; r, r1, r2 >= 0 real",
      witnesses=("submult_gE", "submult_gL"), printed_forms=_growth_printed, steps=_growth_steps, balls=_growth_balls)


# ---- Beta integrals: Student's t and GenCauchy moments, 000 Thm. 1 ---------------------------------
_BETA = ("Euler's Beta integral (DLMF 5.12.3): int_0^oo y^(a-1) (1+y)^(-a-b) dy = Gamma(a) Gamma(b)/Gamma(a+b) for "
         "a > 0, b > 0 (a textbook identity; its conditions are checked as steps)")
Y_ = sp.Symbol("y", positive=True)


def _beta(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    return sp.gamma(a) * sp.gamma(b) / sp.gamma(a + b)


def _subst_step(name: str, integrand_z: sp.Expr, z_of_y: sp.Expr, beta_form: sp.Expr) -> tuple[Any, ...]:
    """integrand(z(y)) z'(y) equals ``beta_form`` (coefficient times y^(a-1)(1+y)^(-a-b))."""
    return (name, "zero", integrand_z.subs(Z_, z_of_y) * sp.diff(z_of_y, Y_) - beta_form)


def _t_printed() -> dict[str, sp.Expr]:
    nu = sp.Symbol("nu", positive=True)
    return {"c": sp.gamma((nu + 1) / 2) / (sp.sqrt(sp.pi) * sp.gamma(nu / 2)) / sp.sqrt(nu), "var": nu / (nu - 2)}


def _t_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    nu = sp.Symbol("nu", positive=True)
    z, y = Z_, Y_
    k = (1 + z**2 / nu) ** (-(nu + 1) / 2)  # the kernel of T_nu(0,1)
    zy = sp.sqrt(nu * y)
    n2 = 2 + B_  # nu > 2 for the variance
    return [
        _subst_step("z = sqrt(nu y): kernel dz = (sqrt(nu)/2) y^(1/2-1) (1+y)^(-1/2-nu/2) dy", k, zy,
                    sp.sqrt(nu) / 2 * y ** (sp.Rational(1, 2) - 1) * (1 + y) ** (-sp.Rational(1, 2) - nu / 2)),
        _subst_step("z = sqrt(nu y): z^2 kernel dz = (nu^(3/2)/2) y^(3/2-1) (1+y)^(-3/2-(nu-2)/2) dy", z**2 * k, zy,
                    nu ** sp.Rational(3, 2) / 2 * y ** (sp.Rational(3, 2) - 1) * (1 + y) ** (-sp.Rational(3, 2) - (nu - 2) / 2)),
        ("Beta conditions (mass): a = 1/2 > 0, b = nu/2 > 0", "positive", nu / 2),
        ("Beta conditions (variance): b = (nu-2)/2 > 0 on nu > 2", "positive", (n2 - 2) / 2),
        ("printed c_nu/sqrt(nu) * 2 (sqrt(nu)/2) B(1/2, nu/2) = 1", "zero",
         pr["c"] * 2 * sp.sqrt(nu) / 2 * _beta(sp.Rational(1, 2), nu / 2) - 1),
        ("2 c int_0^oo z^2 h = printed Var (nu > 2)", "zero",
         (pr["c"] * 2 * nu ** sp.Rational(3, 2) / 2 * _beta(sp.Rational(3, 2), (nu - 2) / 2) - pr["var"]).subs(nu, n2)),
        ("the derivation's normaliser equals the printed one", "zero", w["c"] - pr["c"]),
        ("the derivation's variance equals the printed one", "zero", (w["var"] - pr["var"]).subs(nu, n2)),
    ]


def _t_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    nu, z = sp.Symbol("nu", positive=True), Z_

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        k = ((1 + z**2 / nu) ** (-(nu + 1) / 2)).subs(nu, pt[nu])
        c = arb_eval(pr["c"], env)
        mass = 2 * c * _integral(k, z, 0, sp.oo)
        var = 2 * c * _integral(z**2 * k, z, 0, sp.oo)
        return [("2 c int_0^oo h = 1", mass, arb_eval(sp.Integer(1), {})), ("2 c int_0^oo z^2 h = printed Var", var,
                                                                           arb_eval(pr["var"], env))]

    return _balls_at([{nu: 3}, {nu: 5}, {nu: 9}], pairs)


_spec(claim="004-Sec-2.1-student-t", domain="nu > 0 real (normaliser), nu > 2 real (variance)", witnesses=("c", "var"),
      printed_forms=_t_printed, steps=_t_steps, balls=_t_balls, relies_on=(_BETA,))


def _gcv_printed() -> dict[str, sp.Expr]:
    p, th = sp.symbols("p theta", positive=True)
    return {"var": sp.gamma(3 / p) * sp.gamma(th - 3 / p) / (sp.gamma(1 / p) * sp.gamma(th - 1 / p)),
            "var_4_1": sp.Integer(1), "moment_threshold_theta1": sp.Symbol("t", positive=True) + 1}


def _gcv_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    p, th = sp.symbols("p theta", positive=True)
    z, y, t = Z_, Y_, sp.Symbol("t", positive=True)
    k = (1 + z**p) ** (-th)
    zy = y ** (1 / p)
    e3 = sp.Symbol("e3", positive=True)  # p theta = 3 + e3 > 3
    on3 = {th: (3 + e3) / p}
    mom = lambda j: _beta(sp.Rational(j + 1) / p, th - sp.Rational(j + 1) / p) / p  # noqa: E731
    return [
        _subst_step("z = y^(1/p): kernel dz = (1/p) y^(1/p - 1)(1+y)^(-1/p - (theta - 1/p)) dy", k, zy,
                    y ** (1 / p - 1) * (1 + y) ** (-1 / p - (th - 1 / p)) / p),
        _subst_step("z = y^(1/p): z^2 kernel dz = (1/p) y^(3/p - 1)(1+y)^(-3/p - (theta - 3/p)) dy", z**2 * k, zy,
                    y ** (3 / p - 1) * (1 + y) ** (-3 / p - (th - 3 / p)) / p),
        ("Beta conditions: theta - 1/p > 0 and theta - 3/p > 0 on p theta > 3", "positive", (th - 3 / p).subs(on3)),
        ("Var = 2 c int_0^oo z^2 k, c = 1/(2 int_0^oo k): the ratio of the Beta integrals is the printed Var", "zero",
         (mom(2) / mom(0) - pr["var"]).subs(on3)),
        ("p = 4, theta = 1: Var = 1", "zero", pr["var"].subs({p: 4, th: 1}) - pr["var_4_1"]),
        ("tail: z^(p theta - 2) z^2 k -> 1 at oo (z^2 k ~ z^(2 - p theta): integrable iff p theta > 3)", "limit",
         z ** (p * th) * k, z, sp.oo, "-", 1),
        ("theta = 1: z^t k ~ z^(t - p), integrable at oo iff p - t > 1, i.e. p > t + 1", "zero",
         sp.solve(sp.Eq(t - p, -1), p)[0] - pr["moment_threshold_theta1"]),
        ("the derivation's variance equals the printed one (p theta > 3)", "zero", (w["var"] - pr["var"]).subs(on3)),
    ]


def _gcv_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    p, th = sp.symbols("p theta", positive=True)
    z = Z_

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        k = ((1 + z**p) ** (-th)).subs({p: pt[p], th: pt[th]})
        var = _integral(z**2 * k, z, 0, sp.oo) / _integral(k, z, 0, sp.oo)
        return [("int z^2 h / int h = printed Var", var, arb_eval(pr["var"], env))]

    return _balls_at([{p: 4, th: 1}, {p: 5, th: 1}, {p: 2, th: 3}], pairs)


_spec(claim="004-Sec-2.1-gencauchy-variance", domain="p > 0, theta > 0, p theta > 3 real (finite variance); "
      "theta = 1, t > 0 for the moment condition", witnesses=("var",), printed_forms=_gcv_printed, steps=_gcv_steps,
      balls=_gcv_balls, relies_on=(_BETA,))


# ---- CDFs of GenCauchy(0,1,4,1) and (0,1,6,1) ---------------------------------------------------------
Q_ = sp.Symbol("q", positive=True)


def _c1_printed() -> dict[str, sp.Expr]:
    q, r2 = Q_, sp.sqrt(2)
    return {"c": r2 / sp.pi, "H": (sp.log((q**2 + r2 * q + 1) / (q**2 - r2 * q + 1)) + 2 * sp.atan(1 + r2 * q)
                                   - 2 * sp.atan(1 - r2 * q)) / (4 * r2)}


def _cdf_steps(p: int) -> Callable[[Mapping[str, sp.Expr], Mapping[str, sp.Expr]], list[tuple[Any, ...]]]:
    def steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
        q = Q_
        H = pr["H"]
        return [
            (f"dH/dq = 1/(1+q^{p})", "antiderivative", H, 1 / (1 + q**p), q),
            ("H is continuous on q >= 0 (log arguments > 0, no poles)", "no_singularity", H, q),
            ("H(0+) = H(0) = 0 (H continuous on q >= 0: previous step)", "zero", H.subs(q, 0)),
            ("c H(oo) = 1/2 (so F(+oo) = 1, F(-oo) = 0 by symmetry)", "limit", pr["c"] * H, q, sp.oo, "-",
             sp.Rational(1, 2)),
            ("the derivation's H / c equal the printed ones", "zero", w["cH"] - pr["c"] * H),
        ]

    return steps


def _cdf_balls(p: int) -> Callable[[Mapping[str, sp.Expr], Mapping[str, sp.Expr]], list[dict[str, Any]]]:
    def balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
        q, z = Q_, Z_

        def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
            env = _env(pt)
            c = arb_eval(pr["c"], env)
            val = c * _integral(1 / (1 + z**p), z, 0, pt[q])
            return [("F(q) - 1/2 = c int_0^q h", val, arb_eval(pr["c"] * pr["H"], env))]

        out = _balls_at([{q: _q("1/3")}, {q: 1}, {q: _q("5/2")}], pairs)
        from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

        with workprec(PREC):
            mass = 2 * _integral(pr["c"] / (1 + z**p), z, 0, sp.oo)
            out.append(_ball_agree("2 c int_0^oo h = 1", mass, arb_eval(sp.Integer(1), {}), {}))
        return out

    return balls


_spec(claim="004-App-C.1", domain="q real (F(q) = 1/2 + sgn(q) c H(|q|), h even)", witnesses=("cH",),
      printed_forms=_c1_printed, steps=_cdf_steps(4), balls=_cdf_balls(4))


def _p6_printed() -> dict[str, sp.Expr]:
    # no printed form: the statement names c_{6,1} = 3/(2 pi) and H6 = the SymPy antiderivative (the witness)
    return {"c": 3 / (2 * sp.pi)}


def _p6_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    return _cdf_steps(6)(w, {**pr, "H": w["H"]})[:-1] + [
        ("the derivation's c H6 is c times the witness H6", "zero", w["cH"] - pr["c"] * w["H"])]


def _p6_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    return _cdf_balls(6)(w, {**pr, "H": w["H"]})


_spec(claim="004-Sec-2.1-gencauchy-cdf-p6", domain="q real (F(q) = 1/2 + sgn(q) c H6(|q|), h even)",
      witnesses=("H", "cH"), printed_forms=_p6_printed, steps=_p6_steps, balls=_p6_balls)


# ---- 002 PolyPlace: Def. 6, Lemma 7, Lemma 12 --------------------------------------------------------
S_, AL, X_ = sp.symbols("s alpha x", positive=True)


def _pp_density(N: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """The two branches of f_{s,alpha} (x >= 0) of 002 Def. 6 with normaliser N."""
    a, s, x = AL, S_, X_
    return (N * (a - 1) * (1 - x / s) ** (a - 1), N * (a + 1) * (1 - 1 / a**2) ** a * (1 + x / s) ** (-a - 1))


def _pp_printed() -> dict[str, sp.Expr]:
    a, s, x = AL, S_, X_
    den = 2 * (2 * ((a - 1) / a) ** a + a - 1)
    return {"N": a / (den * s), "I1": -(a - 1) * (1 - x) ** a / den,
            "I2": -((1 - 1 / a**2) ** a) * (a + 1) * (x + 1) ** (-a) / den, "half": sp.Rational(1, 2)}


_ALPHA_GT1 = {AL: 1 + B_}


def _pp_norm_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    s, x = S_, X_
    u = sp.Symbol("u", positive=True)
    fs = _pp_density(pr["N"])
    f1, f2 = (f.subs(S_, 1).subs(_ALPHA_GT1) for f in fs)
    G1, G2 = w["G1"].subs(_ALPHA_GT1), w["G2"].subs(_ALPHA_GT1)
    a = 1 + B_
    return [
        ("scaling: f_{s,alpha}(s u) s = f_{1,alpha}(u) (branch 1; int f_s dx = int f_1 du)", "zero",
         (fs[0].subs(x, s * u) * s - fs[0].subs(S_, 1).subs(x, u)).subs(_ALPHA_GT1)),
        ("scaling: branch 2", "zero", (fs[1].subs(x, s * u) * s - fs[1].subs(S_, 1).subs(x, u)).subs(_ALPHA_GT1)),
        ("G1 is an antiderivative of branch 1 of f_{1,alpha} (0 <= x < 1/alpha)", "antiderivative", G1, f1, x),
        ("G2 is an antiderivative of branch 2 (x >= 1/alpha)", "antiderivative", G2, f2, x),
        ("G2 -> 0 at oo (alpha > 1)", "limit", G2, x, sp.oo, "-", 0),
        ("2 (G1(1/alpha) - G1(0) + 0 - G2(1/alpha)) = 1 with the printed N", "zero",
         2 * (G1.subs(x, 1 / a) - G1.subs(x, 0) - G2.subs(x, 1 / a)) - 1),
    ]


def _pp_norm_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    x = X_

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        f1, f2 = (f.subs({AL: pt[AL], S_: 1}) for f in _pp_density(pr["N"]))
        a = sp.Rational(pt[AL])
        mass = 2 * (_integral(f1, x, 0, 1 / a) + _integral(f2, x, 1 / a, sp.oo))
        return [("2 int_0^oo f_{1,alpha} = 1", mass, arb_eval(sp.Integer(1), {}))]

    return _balls_at([{AL: 2}, {AL: 3}, {AL: 6}], pairs)


_spec(claim="002-Def-6-normalisation", domain="s > 0, alpha > 1 real; x >= 0 (f even; x = s u)", witnesses=("G1", "G2"),
      printed_forms=_pp_printed, steps=_pp_norm_steps, balls=_pp_norm_balls)


def _pp_l7_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    x = X_
    f1, f2 = (f.subs({S_: 1}).subs(_ALPHA_GT1) for f in _pp_density(pr["N"]))
    I1, I2 = pr["I1"].subs(_ALPHA_GT1), pr["I2"].subs(_ALPHA_GT1)
    a = 1 + B_
    return [
        ("dI1/dx = branch 1 of f_{1,alpha}", "antiderivative", I1, f1, x),
        ("dI2/dx = branch 2 of f_{1,alpha}", "antiderivative", I2, f2, x),
        ("branch 1 >= 0 on 0 <= x < 1/alpha (x = u/(alpha (1+u)))", "positive",
         f1.subs(x, sp.Symbol("u", positive=True) / (a * (1 + sp.Symbol("u", positive=True))))),
        ("branch 2 >= 0", "positive", f2),
        ("lim I2 = 0 at oo", "limit", I2, x, sp.oo, "-", 0),
        ("I1(1/alpha) - I1(0) + lim I2 - I2(1/alpha) = 1/2", "zero",
         I1.subs(x, 1 / a) - I1.subs(x, 0) - I2.subs(x, 1 / a) - pr["half"]),
        ("the derivation's antiderivatives are the printed ones", "zero", (w["I1"] - pr["I1"]).subs(_ALPHA_GT1)
         + (w["I2"] - pr["I2"]).subs(_ALPHA_GT1)),
    ]


def _pp_l7_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    x = X_

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        f1, f2 = (f.subs({AL: pt[AL], S_: 1}) for f in _pp_density(pr["N"]))
        a = sp.Rational(pt[AL])
        I1, I2 = pr["I1"].subs(AL, a), pr["I2"].subs(AL, a)
        return [("int_0^{1/alpha} branch 1 = I1(1/alpha) - I1(0)", _integral(f1, x, 0, 1 / a),
                 arb_eval(I1.subs(x, 1 / a) - I1.subs(x, 0), {})),
                ("int_{1/alpha}^oo branch 2 = -I2(1/alpha)", _integral(f2, x, 1 / a, sp.oo), arb_eval(-I2.subs(x, 1 / a), {}))]

    return _balls_at([{AL: 2}, {AL: 3}, {AL: 7}], pairs)


_spec(claim="002-Lemma-7", domain="alpha > 1 real; x >= 0 (s = 1; f even)", witnesses=("I1", "I2"),
      printed_forms=_pp_printed, steps=_pp_l7_steps, balls=_pp_l7_balls)


def _pp_l12_printed() -> dict[str, sp.Expr]:
    return {"sum": AL / S_}


def _pp_l12_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    s, x = S_, X_
    lam = sp.Symbol("lambda_", real=True)
    u = sp.Symbol("u", positive=True)
    N = _pp_printed()["N"]
    out = []
    for br, f, tt in (("1", _pp_density(N)[0], u / (1 + u)), ("2", _pp_density(N)[1], 1 + u)):
        h = sp.expand_log(sp.log(f), force=True)  # every factor is positive on the branch
        shift = sp.diff(h.subs(x, x + lam), lam).subs(lam, 0)
        scale = sp.diff(h.subs(s, sp.exp(lam / s) * s), lam).subs(lam, 0)
        on = {x: s * tt / AL}
        sub = {AL: 1 + B_}
        sh, sc = shift.subs(on).subs(sub), scale.subs(on).subs(sub)
        sgn_sh, sgn_sc = int(w[f"sign_shift{br}"]), int(w[f"sign_scale{br}"])
        out += [(f"branch {br}: sign(shift) = {sgn_sh} (x = s t/alpha)", "positive", sgn_sh * sh),
                (f"branch {br}: sign(scale) = {sgn_sc}", "positive", sgn_sc * sc),
                (f"branch {br}: |shift| + |scale| = alpha/s", "zero", sgn_sh * sh + sgn_sc * sc - pr["sum"].subs(sub))]
    return out


def _pp_l12_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    s, x = S_, X_
    lam = sp.Symbol("lambda_", real=True)
    N = _pp_printed()["N"]
    br = _pp_density(N)

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env({S_: pt[S_], AL: pt[AL]})
        xv = sp.Rational(pt[X_])
        f = br[0] if xv * pt[AL] < pt[S_] else br[1]
        # the derivatives of the log-density along the shift and the scale, evaluated on balls
        h = sp.log(f)
        shift = sp.diff(h.subs(x, x + lam), lam).subs(lam, 0).subs(x, xv)
        scale = sp.diff(h.subs(s, sp.exp(lam / s) * s), lam).subs(lam, 0).subs(x, xv)
        tot = abs(arb_eval(shift, env)) + abs(arb_eval(scale, env))
        return [("|shift| + |scale| = alpha/s", tot, arb_eval(pr["sum"], env))]

    return _balls_at([{S_: 2, AL: 3, X_: _q("1/3")}, {S_: _q("1/2"), AL: _q("5/2"), X_: 4},
                      {S_: 9, AL: 20, X_: _q("1/7")}], pairs)


_spec(claim="002-Lemma-12", domain="s > 0, alpha > 1 real; x != 0 real (x > 0 by evenness; |x|/s < 1/alpha and >= 1/alpha)",
      witnesses=("sign_shift1", "sign_scale1", "sign_shift2", "sign_scale2"), printed_forms=_pp_l12_printed,
      steps=_pp_l12_steps, balls=_pp_l12_balls)


# ---- 002 Claim 17 (BS19 Student's t standard deviation) --------------------------------------------
def _c17_printed() -> dict[str, sp.Expr]:
    d, eps, g = sp.symbols("d epsilon gamma", positive=True)
    return {"std": sp.sqrt(d / (d - 2)) * (d + 1) / (2 * sp.sqrt(d) * (eps - g * (d + 1))), "var": d / (d - 2)}


def _c17_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    d, eps, g = sp.symbols("d epsilon gamma", positive=True)
    v = sp.Symbol("v", positive=True)  # gamma = eps/((d+1)(1+v)): 0 < gamma < eps/(d+1)
    on = {g: eps / ((3 + B_) * (1 + v)), d: 2 + B_}
    nu_ = sp.Symbol("nu", positive=True)
    t = _t_printed()
    lip = (d + 1) / (2 * sp.sqrt(d))  # 004 App. A.1 / [BS19]: loss per unit shift (proven in 004-App-A.1)
    scale = (eps - g * (d + 1)) / lip
    return [
        ("Var T_d = d/(d-2) (004-Sec-2.1-student-t steps at nu = d > 2)", "zero",
         (t["c"] * nu_ ** sp.Rational(3, 2) * _beta(sp.Rational(3, 2), (nu_ - 2) / 2) - nu_ / (nu_ - 2)).subs(nu_, 2 + B_)),
        ("the scale eps - gamma(d+1) > 0 on 0 < gamma < eps/(d+1)", "positive", (eps - g * (d + 1)).subs(on)),
        ("std = sqrt(Var)/nu_BS19 equals the printed std", "zero", (sp.sqrt(pr["var"]) / scale - pr["std"]).subs(on)),
        ("the derivation's std equals the printed std", "zero", (w["std"] - pr["std"]).subs(on)),
    ]


def _c17_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    d, eps, g = sp.symbols("d epsilon gamma", positive=True)
    z = Z_

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        k = ((1 + z**2 / d) ** (-(d + 1) / 2)).subs(d, pt[d])
        var = _integral(z**2 * k, z, 0, sp.oo) / _integral(k, z, 0, sp.oo)
        nu_bs = (env[eps] - env[g] * (env[d] + 1)) * 2 * env[d].sqrt() / (env[d] + 1)
        return [("sqrt(int z^2 h / int h)/nu = printed std", var.sqrt() / nu_bs, arb_eval(pr["std"], env))]

    return _balls_at([{d: 3, eps: 1, g: _q("1/9")}, {d: 5, eps: _q("1/2"), g: _q("1/100")},
                      {d: 9, eps: 2, g: _q("1/20")}], pairs)


_spec(claim="002-Claim-17", domain="d > 2, eps > 0, 0 < gamma < eps/(d+1) real", witnesses=("std",),
      printed_forms=_c17_printed, steps=_c17_steps, balls=_c17_balls,
      relies_on=(_BETA, "[BS19] scaling as quoted by 002 Claim 17: noise scale 1/nu with nu = (eps - gamma(d+1)) / "
                 "((d+1)/(2 sqrt d)) (the loss per unit shift (d+1)/(2 sqrt d) is proven in 004-App-A.1)"))


# ---- 004 Claim 4.4: sup |kappa_t'| of the Gaussian kernel -------------------------------------------
U_ = sp.Symbol("u", positive=True)  # u = |x - t|/h > 0 (kappa_t even about t; u = 0 gives kappa' = 0)
V_ = sp.Symbol("v", positive=True)


def _c44_printed() -> dict[str, sp.Expr]:
    h = sp.Symbol("h", positive=True)
    return {"sup": sp.exp(-sp.Rational(1, 2)) / h, "attain": h}


def _c44_kernel() -> tuple[sp.Expr, sp.Symbol, sp.Symbol, sp.Symbol]:
    x, t, h = sp.Symbol("x", real=True), sp.Symbol("t", real=True), sp.Symbol("h", positive=True)
    return sp.exp(-(x - t) ** 2 / (2 * h**2)), x, t, h  # the kernel of 004 Sec. 4.3, kappa_t(x)


def _c44_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    k, x, t, h = _c44_kernel()
    u, v = U_, V_
    dk = sp.diff(k, x)
    g = u * sp.exp(-u**2 / 2)  # h |kappa_t'(t +- h u)|
    dg = sp.diff(g, u)
    us = w["ustar"]
    return [
        ("kappa_t'(t + h u) = -(1/h) u e^{-u^2/2}", "zero", dk.subs(x, t + h * u) + g / h),
        ("kappa_t'(t - h u) = +(1/h) u e^{-u^2/2} (|kappa_t'| even about t)", "zero", dk.subs(x, t - h * u) - g / h),
        ("g' = (1 - u)(1 + u) e^{-u^2/2}, g = u e^{-u^2/2}", "zero", dg - (1 - u) * (1 + u) * sp.exp(-u**2 / 2)),
        ("the stationary set of g on u > 0 is {ustar} (solveset over the reals)", "stationary_set", dg, u,
         sp.Interval.open(0, sp.oo), [us]),
        ("g' > 0 on (0, ustar) (u = ustar v/(1+v))", "positive", dg.subs(u, us * v / (1 + v))),
        ("g' < 0 on (ustar, oo) (u = ustar + v)", "positive", -dg.subs(u, us + v)),
        ("g(0+) = 0", "limit", g, u, 0, "+", 0),
        ("g(oo) = 0", "limit", g, u, sp.oo, "-", 0),
        ("sup |kappa_t'| = g(ustar)/h = the printed sup", "zero", g.subs(u, us) / h - pr["sup"]),
        ("attained at |x - t| = h ustar = the printed h", "zero", h * us - pr["attain"]),
        ("the derivation's value g(ustar) equals h * printed sup", "zero", w["sup_unit"] - h * pr["sup"]),
    ]


def _c44_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    k, x, t, h = _c44_kernel()
    dk = sp.diff(k, x)

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        att = arb_eval(pr["attain"], env)
        return [("|kappa_t'(t + attain)| = printed sup", abs(arb_eval(dk, {**env, x: env[t] + att})), arb_eval(pr["sup"], env)),
                ("|kappa_t'(t - attain)| = printed sup", abs(arb_eval(dk, {**env, x: env[t] - att})), arb_eval(pr["sup"], env))]

    return _balls_at([{t: 0, h: 1}, {t: _q("-3/7"), h: _q("1/5")}, {t: 2, h: _q("9/4")}], pairs)


_spec(claim="004-Claim-4.4", domain="h > 0, t real, x real (u = |x - t|/h; Lipschitz by the mean value theorem)",
      witnesses=("ustar", "sup_unit"), printed_forms=_c44_printed, steps=_c44_steps, balls=_c44_balls)


# ---- 004 Claim 4.2: the two-way f_tau is (1/tau)-Lipschitz, attained -----------------------------------
def _c42_geometry() -> tuple[sp.Symbol, sp.Symbol, sp.Symbol, sp.Symbol, sp.Symbol, sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
    """004 Sec. 4.2: R1 = tau/sqrt2, R2 = R1 + tau, c0 = (T1 + tau/2 + R1, T2 + tau/2 + R1); u = c0 - p."""
    T1, T2 = sp.Symbol("T1", real=True), sp.Symbol("T2", real=True)
    tau = sp.Symbol("tau", positive=True)
    u1, u2 = sp.Symbol("u1", positive=True), sp.Symbol("u2", positive=True)
    R1 = tau / sp.sqrt(2)
    R2 = R1 + tau
    return T1, T2, tau, u1, u2, R1, R2, T1 + tau / 2 + R1, T2 + tau / 2 + R1


def _c42_printed() -> dict[str, sp.Expr]:
    return {"lip": 1 / sp.Symbol("tau", positive=True)}


def _c42_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    """D(p) = ||max(c0 - p, 0)||, the distance to the quadrant Q0 = {p >= c0}, on its four regions
    (u = c0 - p): A u1, u2 > 0: sqrt(u1^2 + u2^2); B u1 > 0 >= u2: u1; C u2 > 0 >= u1: u2; E: 0.
    |grad D| = 1 on A, B, C and 0 on E; D is continuous across the region boundaries (u1 = 0 or
    u2 = 0); so D is 1-Lipschitz, and f = clip((R2 - D)/tau, 0, 1) is (1/tau)-Lipschitz.  Attained:
    on the diagonal ray p = c0 - r (1, 1)/sqrt2, r in [R1, R2], D = r and f = (R2 - r)/tau (no clip)."""
    T1, T2, tau, u1, u2, R1, R2, c01, c02 = _c42_geometry()
    DA = sp.sqrt(u1**2 + u2**2)
    grad2 = {"A": sp.diff(DA, u1) ** 2 + sp.diff(DA, u2) ** 2, "B": sp.diff(u1, u1) ** 2 + sp.diff(u1, u2) ** 2,
             "C": sp.diff(u2, u1) ** 2 + sp.diff(u2, u2) ** 2}
    f = lambda r: (R2 - r) / tau  # noqa: E731 - f on the band along the diagonal ray, D = r
    r1, r2 = R1 + tau / 4, R1 + 3 * tau / 4
    p1 = (c01 - r1 / sp.sqrt(2), c02 - r1 / sp.sqrt(2))
    p2 = (c01 - r2 / sp.sqrt(2), c02 - r2 / sp.sqrt(2))
    dist = sp.sqrt((p1[0] - p2[0]) ** 2 + (p1[1] - p2[1]) ** 2)
    return [
        ("|grad D|^2 = 1 on region A (u1, u2 > 0, D = sqrt(u1^2 + u2^2))", "zero", grad2["A"] - 1),
        ("|grad D|^2 = 1 on region B (u1 > 0 >= u2, D = u1)", "zero", grad2["B"] - 1),
        ("|grad D|^2 = 1 on region C (u2 > 0 >= u1, D = u2)", "zero", grad2["C"] - 1),
        ("the derivation's |grad D|^2 on A equals 1", "zero", w["grad2_A"] - 1),
        ("D continuous across u2 = 0 (A -> B): sqrt(u1^2) = u1", "zero", DA.subs(u2, 0) - u1),
        ("D continuous across u1 = 0 (A -> C): sqrt(u2^2) = u2", "zero", DA.subs(u1, 0) - u2),
        ("D continuous into E: u1 -> 0 on B and u2 -> 0 on C give 0", "limit", u1, u1, 0, "+", 0),
        ("the band has width tau: R2 - R1 = tau, so f = (R2 - D)/tau is in [0, 1] for D in [R1, R2]", "zero",
         R2 - R1 - tau),
        ("D on the diagonal ray at r1 = R1 + tau/4 is r1 (region A)", "zero",
         sp.sqrt((c01 - p1[0]) ** 2 + (c02 - p1[1]) ** 2) - r1),
        ("D on the diagonal ray at r2 = R1 + 3 tau/4 is r2 (region A)", "zero",
         sp.sqrt((c01 - p2[0]) ** 2 + (c02 - p2[1]) ** 2) - r2),
        ("|f(p1) - f(p2)| = ||p1 - p2|| * printed Lipschitz constant (attained, so not better)", "zero",
         (f(r1) - f(r2)) - dist * pr["lip"]),
        ("the derivation's constant equals the printed 1/tau", "zero", w["lip"] - pr["lip"]),
    ]


def _c42_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    T1, T2, tau, _u1, _u2, R1, R2, c01, c02 = _c42_geometry()
    x, y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
    D = sp.sqrt((c01 - x) ** 2 + (c02 - y) ** 2)  # region A (both offsets positive at the points below)
    f = (R2 - D) / tau

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        r1 = arb_eval(R1 + sp.Rational(pt[tau]) / 4, env)
        r2 = arb_eval(R1 + 3 * sp.Rational(pt[tau]) / 4, env)
        s2 = arb_eval(sp.sqrt(2), {})
        cx, cy = arb_eval(c01, env), arb_eval(c02, env)
        q1 = {**env, x: cx - r1 / s2, y: cy - r1 / s2}
        q2 = {**env, x: cx - r2 / s2, y: cy - r2 / s2}
        slope = abs(arb_eval(f, q1) - arb_eval(f, q2)) / (r2 - r1)
        return [("chord slope of f on the diagonal ray = printed 1/tau", slope, arb_eval(pr["lip"], env))]

    return _balls_at([{T1: 1, T2: 2, tau: _q("4/5")}, {T1: _q("-3/7"), T2: 0, tau: _q("1/5")},
                      {T1: 5, T2: _q("-9/4"), tau: 7}], pairs)


_spec(claim="004-Claim-4.2", domain="tau > 0, T1, T2 real, p, p' in R^2 (Euclidean norm)",
      witnesses=("grad2_A", "lip"), printed_forms=_c42_printed, steps=_c42_steps, balls=_c42_balls,
      relies_on=("f_tau = clip((R2 - dist(p, Q0))/tau, 0, 1), Q0 = {p >= c0}: the reading of the printed regions "
                 "of 004 Sec. 4.2 that smoothsens_core/sensitivity/two_way.py implements (its docstring derives it "
                 "region by region)",
                 "a continuous function on R^2 that is C^1 with |grad| <= 1 off finitely many lines is 1-Lipschitz "
                 "(mean value theorem along a segment, which meets the lines finitely often)",
                 "clip(., 0, 1) is 1-Lipschitz"))


# ---- 004 App. A.4: the partial derivatives (2)-(5) -----------------------------------------------------
def _a4_syms() -> dict[str, sp.Symbol]:
    return {"a": sp.Symbol("a", real=True), "cz": sp.Symbol("c_z", real=True), "lz": sp.Symbol("l_z", real=True),
            "c": sp.Symbol("c", positive=True), "h": sp.Symbol("h", positive=True), "g": sp.Symbol("gamma", positive=True)}


def _a4_objectives() -> dict[str, tuple[sp.Expr, sp.Symbol]]:
    """The objectives of 004 App. A.4 (k(u) = e^{-u^2/2}, radii in units of h, a = c_w - c_z), each with
    the variable of its derivative: (2) the chord term in a; (3) the reduced objective in c_z at fixed a;
    (4) the tangent objective in c_z; (5) the chord term at x = t in a."""
    s = _a4_syms()
    a, cz, lz, c, h, g = s["a"], s["cz"], s["lz"], s["c"], s["h"], s["g"]
    return {
        "eq2": ((sp.exp(-(cz + a) ** 2 * c**2 / 2) - sp.exp(-cz**2 * c**2 / 2)) / (a * c * h), a),
        "eq3": (c / h * (cz + a) * sp.exp(-(cz + a) ** 2 * c**2 / 2) * sp.exp(-g * (cz - 1) * c * h), cz),
        "eq4": (c / h * cz * sp.exp(-cz**2 * c**2 / 2) * sp.exp(-g * (cz - 1) * c * h), cz),
        "eq5": ((sp.exp(-(1 + a) ** 2 * lz**2 / 2) - sp.exp(-lz**2 / 2)) / (a * lz * h), a),
    }


def _a4_printed() -> dict[str, sp.Expr]:
    s = _a4_syms()
    a, cz, lz, c, h, g = s["a"], s["cz"], s["lz"], s["c"], s["h"], s["g"]
    return {
        "eq2": (sp.exp(-cz**2 * c**2 / 2) - (1 + a * c**2 * (cz + a)) * sp.exp(-(cz + a) ** 2 * c**2 / 2)) / (a**2 * c * h),
        "eq3": -(c**3 / h * (cz + a) ** 2 + g * c**2 * (cz + a) - c / h) * sp.exp(-(cz + a) ** 2 * c**2 / 2)
        * sp.exp(-g * (cz - 1) * c * h),
        "eq4": -(c**3 / h * cz**2 + g * c**2 * cz - c / h) * sp.exp(-cz**2 * c**2 / 2) * sp.exp(-g * (cz - 1) * c * h),
        "eq5": (sp.exp(-lz**2 / 2) - (1 + a * (1 + a) * lz**2) * sp.exp(-(1 + a) ** 2 * lz**2 / 2)) / (a**2 * lz * h),
    }


def _a4_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for k, (obj, var) in _a4_objectives().items():
        out.append((f"{k}: d/d{var} of the objective equals the printed derivative", "zero", sp.diff(obj, var) - pr[k]))
        out.append((f"{k}: the derivation's derivative equals the printed one", "zero", w[k] - pr[k]))
    return out


def _a4_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    """Fundamental theorem of calculus on balls: int_{v0}^{v1} printed dv = objective(v1) - objective(v0)
    (acb.integral of the printed derivative; an independent route from differentiation)."""
    import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

    s = _a4_syms()
    objs = _a4_objectives()

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        out = []
        for k, (obj, var) in objs.items():
            fixed = {sym: v for sym, v in pt.items() if sym != var}
            env = _env(fixed)
            v0, v1 = (_q("1/2"), _q("3/2")) if var == s["a"] else (_q("11/10"), _q("5/2"))
            f = pr[k].subs(fixed)
            def printed(y: Any, analytic: Any, f: Any = f, var: Any = var) -> Any:
                return arb_eval(f, {var: y}, kind="acb")

            integ = flint.acb.integral(printed, arb_eval(v0, {}), arb_eval(v1, {})).real
            diff = arb_eval(obj, {**env, var: arb_eval(v1, {})}) - arb_eval(obj, {**env, var: arb_eval(v0, {})})
            out.append((f"{k}: int printed = objective difference", integ, diff))
        return out

    a, cz, lz, c, h, g = s["a"], s["cz"], s["lz"], s["c"], s["h"], s["g"]
    return _balls_at([{a: _q("3/4"), cz: _q("6/5"), lz: _q("1/2"), c: 1, h: 1, g: _q("1/2")},
                      {a: _q("1/3"), cz: 2, lz: _q("7/5"), c: _q("3/2"), h: _q("2/5"), g: _q("1/10")},
                      {a: _q("5/4"), cz: _q("3/2"), lz: 2, c: _q("1/2"), h: 3, g: 2}], pairs)


_spec(claim="004-App-A.4-derivatives", domain="a != 0, c_z, l_z real; c, h, gamma > 0 real (a = c_w - c_z; l_z != 0 in "
      "eq. (5); eq. (3) at fixed a, as printed)", witnesses=("eq2", "eq3", "eq4", "eq5"), printed_forms=_a4_printed,
      steps=_a4_steps, balls=_a4_balls)


# ---- 003 Cor. V.5: E|ALap - f| = Delta_p/eps ----------------------------------------------------------
DEL_, EPS_ = sp.Symbol("Delta", positive=True), sp.Symbol("epsilon", positive=True)


def _v5_density(sign: int, lam: sp.Expr) -> sp.Expr:
    """003 Def. V.3 (monotone coordinate): (eps/Delta) exp(-Sign lambda eps/Delta) on Sign lambda >= 0."""
    return EPS_ / DEL_ * sp.exp(-sign * lam * EPS_ / DEL_)


def _v5_printed() -> dict[str, sp.Expr]:
    return {"mean_abs": DEL_ / EPS_}


def _v5_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    z = Z_
    f = EPS_ / DEL_ * sp.exp(-z * EPS_ / DEL_)
    return [
        ("Sign = +1: lambda = z >= 0, |lambda| = z, density (eps/Delta) e^{-eps z/Delta}", "zero",
         _v5_density(1, z) * sp.Abs(z) - z * f),
        ("Sign = -1: lambda = -z <= 0, |lambda| = z, the same density in z", "zero", _v5_density(-1, -z) * sp.Abs(-z) - z * f),
        ("the density is > 0 on its support", "positive", f),
        ("G = -e^{-eps z/Delta} is an antiderivative of the density", "antiderivative", w["G"], f, z),
        ("G(oo) = 0", "limit", w["G"], z, sp.oo, "-", 0),
        ("mass: G(oo) - G(0) = 1", "zero", 0 - w["G"].subs(z, 0) - 1),
        ("F is an antiderivative of z times the density", "antiderivative", w["F"], z * f, z),
        ("F(oo) = 0", "limit", w["F"], z, sp.oo, "-", 0),
        ("E|lambda| = F(oo) - F(0) = the printed Delta/eps", "zero", 0 - w["F"].subs(z, 0) - pr["mean_abs"]),
        ("the derivation's integral equals the printed value", "zero", w["mean_abs"] - pr["mean_abs"]),
    ]


def _v5_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

    z = Z_

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        k = sp.Rational(pt[EPS_]) / sp.Rational(pt[DEL_])
        T = 200 / k  # int_0^T by acb.integral; the tail int_T^oo k z e^{-kz} <= (4/(k e)) e^{-kT/2} (z e^{-kz/2} <= 2/(k e))
        body = _integral(k * z * sp.exp(-k * z), z, 0, T)
        tail_bound = arb_eval(4 / (k * sp.E) * sp.exp(-k * T / 2), {})
        tail = flint.arb(0, tail_bound.upper())
        return [("int_0^oo |lambda| density = printed", body + tail, arb_eval(pr["mean_abs"], env))]

    return _balls_at([{DEL_: 1, EPS_: 1}, {DEL_: 3, EPS_: _q("1/2")}, {DEL_: 2, EPS_: _q("27/10")}], pairs)


_spec(claim="003-Cor-V.5", domain="Delta_p(f) > 0, eps > 0 real; Sign_p = +1 or -1 (monotone coordinate)",
      witnesses=("G", "F", "mean_abs"), printed_forms=_v5_printed, steps=_v5_steps, balls=_v5_balls,
      relies_on=("003 Def. V.3: for a monotone coordinate, ALap(X)_i - f(X)_i = lambda_i has the density "
                 "(eps/Delta) exp(-Sign lambda eps/Delta) on Sign lambda >= 0 (the definition, restated)",))


# ---- Reflection-formula claims: 002 Claim 16, 000 Thm. 1 normalisation, 000 Lemma 2 -----------------
_REFLECTION = ("Euler's reflection formula (DLMF 5.5.3): Gamma(s) Gamma(1 - s) = pi / sin(pi s) for 0 < s < 1 (a textbook "
               "identity, applied at the stated s; its condition is checked as a step)")


def _reflect(e: sp.Expr, ss: Sequence[sp.Expr]) -> sp.Expr:
    """Apply the reflection formula Gamma(1 - s) = pi/(sin(pi s) Gamma(s)) at the given s."""
    return e.subs({sp.gamma(1 - s): sp.pi / (sp.sin(sp.pi * s) * sp.gamma(s)) for s in ss})


CC_ = sp.Symbol("c", positive=True)
X16_ = sp.Symbol("X", positive=True)  # 2 cos(2 pi/c) + 1 = 1/Var (positive on c > 3: a step)


def _c16_printed() -> dict[str, sp.Expr]:
    c, eps, g = CC_, EPS_, GAMMA
    return {"const": c / (2 * sp.pi * sp.csc(sp.pi / c)), "var": 1 / (2 * sp.cos(2 * sp.pi / c) + 1),
            "std": (c + 1) / ((eps - g * (c + 1)) * sp.sqrt(2 * sp.cos(2 * sp.pi / c) + 1))}


def _c16_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    c, eps, g, z, y = CC_, EPS_, GAMMA, Z_, Y_
    k = 1 / (1 + z**c)
    zy = y ** (1 / c)
    c1, c3 = {c: 1 + B_}, {c: 3 + B_}
    v = sp.Symbol("v", positive=True)  # gamma = eps/((c+1)(1+v)): 0 < gamma < eps/(c+1)
    onv = {g: eps / ((c + 1) * (1 + v))}
    mass = 2 * _beta(1 / c, 1 - 1 / c) / c  # int_R k = 2 int_0^oo k (k even)
    mom2 = 2 * _beta(3 / c, 1 - 3 / c) / c
    return [
        _subst_step("z = y^(1/c): k dz = (1/c) y^(1/c - 1) (1+y)^(-1/c - (1 - 1/c)) dy", k, zy,
                    y ** (1 / c - 1) * (1 + y) ** (-1 / c - (1 - 1 / c)) / c),
        _subst_step("z = y^(1/c): z^2 k dz = (1/c) y^(3/c - 1) (1+y)^(-3/c - (1 - 3/c)) dy", z**2 * k, zy,
                    y ** (3 / c - 1) * (1 + y) ** (-3 / c - (1 - 3 / c)) / c),
        ("Beta and reflection conditions (mass): 0 < 1/c < 1 on c > 1", "positive", (1 - 1 / c).subs(c1)),
        ("Beta and reflection conditions (variance): 0 < 3/c < 1 on c > 3", "positive", (1 - 3 / c).subs(c3)),
        ("printed constant * int_R k = 1 (reflection at s = 1/c)", "zero", (pr["const"] * _reflect(mass, [1 / c]) - 1).subs(c1)),
        ("Var = int z^2 k / int k = the printed variance (reflection at s = 1/c, 3/c)", "zero",
         (_reflect(mom2, [1 / c, 3 / c]) / _reflect(mass, [1 / c]) - pr["var"]).subs(c3)),
        ("c <= 3: z^2 k - z^(2-c)/2 = z^(2-c) (z^c - 1)/(2 (1 + z^c))", "zero",
         z**2 * k - z ** (2 - c) / 2 - z ** (2 - c) * (z**c - 1) / (2 * (1 + z**c))),
        ("... and z^c - 1 = e^(c ln z) - 1 > 0 on z = 1 + v > 1: c ln(1 + v) > 0; so z^2 k >= z^(2-c)/2 on z >= 1, "
         "whose integral over [1, oo) diverges for c <= 3", "positive", c * sp.log(1 + v)),
        ("Var > 0 on c > 3 (the Beta ratio, before reflection, is positive): X = 2 cos(2 pi/c) + 1 = 1/Var > 0",
         "positive", (_beta(3 / c, 1 - 3 / c) / _beta(1 / c, 1 - 1 / c)).subs(c3)),
        ("std = sqrt(Var) (c+1)/(eps - gamma(c+1)) equals the printed std (cos(2 pi/c) = (X - 1)/2, X > 0)", "zero",
         ((sp.sqrt(pr["var"]) * (c + 1) / (eps - g * (c + 1)) - pr["std"]).subs(sp.cos(2 * sp.pi / c), (X16_ - 1) / 2))
         .subs(onv)),
        ("the scale eps - gamma(c+1) > 0 on 0 < gamma < eps/(c+1)", "positive", (eps - g * (c + 1)).subs(onv)),
        ("the derivation's constant equals the printed one", "zero", (w["const"] - pr["const"]).subs(c1)),
        ("the derivation's variance equals the printed one", "zero", (w["var"] - pr["var"]).subs(c3)),
        ("the derivation's std is sqrt(its variance) (c+1)/(eps - gamma(c+1)) (= the printed std by the steps above)",
         "zero", w["std"] - sp.sqrt(w["var"]) * (c + 1) / (eps - g * (c + 1))),
    ]


def _c16_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    c, z = CC_, Z_

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        k = (1 / (1 + z**c)).subs(c, pt[c])
        m0 = 2 * _integral(k, z, 0, sp.oo)
        var = 2 * _integral(z**2 * k, z, 0, sp.oo) / m0
        nu = (env[EPS_] - env[GAMMA] * (env[c] + 1)) / (env[c] + 1)
        return [("printed constant * int_R k = 1", arb_eval(pr["const"], env) * m0, arb_eval(sp.Integer(1), {})),
                ("int z^2 k / int k = printed Var", var, arb_eval(pr["var"], env)),
                ("sqrt(Var)/nu = printed std", var.sqrt() / nu, arb_eval(pr["std"], env))]

    return _balls_at([{c: 4, EPS_: 1, GAMMA: _q("1/10")}, {c: 5, EPS_: 1, GAMMA: _q("1/20")},
                      {c: 6, EPS_: 2, GAMMA: _q("1/10")}], pairs)


_spec(claim="002-Claim-16", domain="c > 1 real (constant), c > 3 real (variance, std; the second moment is infinite for "
      "0 < c <= 3), eps > 0, 0 < gamma < eps/(c+1) real", witnesses=("const", "var", "std"), printed_forms=_c16_printed,
      steps=_c16_steps, balls=_c16_balls,
      relies_on=(_BETA, _REFLECTION, "[NRS07] scaling as quoted by 002 Claim 16: noise scale (c+1)/(eps - gamma(c+1)) "
                 "(privacy loss <= (|lambda_r| + |lambda_s|)(c+1)); taken as given"))


K_, L_ = sp.Symbol("k", positive=True), sp.Symbol("l", positive=True)


def _pl_printed() -> dict[str, sp.Expr]:
    k, l = K_, L_
    return {"C": 2 * l ** (1 / k - 1) * (sp.pi / k) / sp.sin(sp.pi / k)}


def _pl_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    k, l, z, y = K_, L_, Z_, Y_
    kern = 1 / (z**k + l)
    on = {k: 1 + B_}
    return [
        _subst_step("z = (l y)^(1/k): dz/(z^k + l) = (l^(1/k-1)/k) y^(1/k-1) (1+y)^(-1/k-(1-1/k)) dy", kern, (l * y) ** (1 / k),
                    l ** (1 / k - 1) / k * y ** (1 / k - 1) * (1 + y) ** (-1 / k - (1 - 1 / k))),
        ("Beta and reflection conditions: 0 < 1/k < 1 on k > 1", "positive", (1 - 1 / k).subs(on)),
        ("int_R = 2 int_0^oo (even kernel) = 2 (l^(1/k-1)/k) B(1/k, 1-1/k) = the printed value (reflection)", "zero",
         (2 * l ** (1 / k - 1) / k * _reflect(_beta(1 / k, 1 - 1 / k), [1 / k]) - pr["C"]).subs(on)),
        ("the derivation's integral equals the printed one", "zero", (w["C"] - pr["C"]).subs(on)),
    ]


def _pl_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    k, l, z = K_, L_, Z_

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        env = _env(pt)
        val = 2 * _integral((1 / (z**k + l)).subs(pt), z, 0, sp.oo)
        return [("int_R dz/(|z|^k + l) = printed", val, arb_eval(pr["C"], env))]

    return _balls_at([{k: 2, l: 1}, {k: 4, l: _q("5/2")}, {k: 3, l: _q("3/10")}], pairs)


_spec(claim="000-Thm-1-normalisation", domain="k > 1, l > 0 real (the integral identity; the claim's core pdf / CDF "
      "parts stay tested: see the tested evidence)", witnesses=("C",), printed_forms=_pl_printed, steps=_pl_steps,
      balls=_pl_balls, relies_on=(_BETA, _REFLECTION))


def _halves_printed() -> dict[str, sp.Expr]:
    return {"mass": sp.Integer(1), "mix": sp.Integer(1)}


def _halves_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    k, l, y = K_, L_, Y_
    zr = sp.Symbol("z", real=True)
    on = {k: 1 + B_}
    C = _pl_printed()["C"]
    Cs = sp.Symbol("C", positive=True)  # C > 0: a step
    h = 1 / (Cs * (sp.Abs(zr) ** k + l))  # the density of 000 Thm. 1, h = 1/(C (|z|^k + l))
    z = Z_
    hp = 2 * h.subs(zr, z)  # h+ on z > 0 (z = 0 a null set)
    hm = 2 * h.subs(zr, -z)  # h- at -z < 0
    half_int = l ** (1 / k - 1) / k * _reflect(_beta(1 / k, 1 - 1 / k), [1 / k])  # int_0^oo dz/(z^k + l)
    return [
        ("C = 2 (l^(1/k-1)/k) Gamma(1/k) Gamma(1 - 1/k) > 0 (before reflection: positive factors)", "positive",
         (2 * l ** (1 / k - 1) / k * _beta(1 / k, 1 - 1 / k)).subs(on)),
        ("h is even: h(-z) = h(z)", "zero", h.subs(zr, -z) - h.subs(zr, z)),
        ("h+ > 0 on z > 0 and h- > 0 on z < 0", "positive", hp + hm),
        ("int_0^oo dz/(z^k + l) = (l^(1/k-1)/k) B(1/k, 1-1/k) (Beta, substitution as in 000-Thm-1-normalisation)", "zero",
         _subst_step("", 1 / (z**k + l), (l * y) ** (1 / k),
                     l ** (1 / k - 1) / k * y ** (1 / k - 1) * (1 + y) ** (-1 / k - (1 - 1 / k)))[2]),
        ("Beta and reflection conditions: 0 < 1/k < 1 on k > 1", "positive", (1 - 1 / k).subs(on)),
        ("int_0^oo h+ = 2 int_0^oo h = 1 (reflection; C the printed normaliser)", "zero",
         (2 * half_int / C - pr["mass"]).subs(on)),
        ("int_-oo^0 h- = int_0^oo h-(-z) dz and h-(-z) = h+(z) (h even): also 1", "zero", hm - hp),
        ("(h+ + h-)/2 = h on z > 0 (h- = 0 there)", "zero", (hp + 0) / 2 / h.subs(zr, z) - pr["mix"]),
        ("(h+ + h-)/2 = h on z < 0 (h+ = 0 there)", "zero", (0 + hm) / 2 / h.subs(zr, -z) - pr["mix"]),
        ("the derivation's int_0^oo h+ equals 1", "zero", w["mass"].subs(on) - pr["mass"]),
    ]


def _halves_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    k, l, z = K_, L_, Z_
    C = _pl_printed()["C"]

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        hp = (2 / (C * (z**k + l))).subs(pt)
        return [("int_0^oo h+ = 1", _integral(hp, z, 0, sp.oo), arb_eval(pr["mass"], {}))]

    return _balls_at([{k: 2, l: 1}, {k: 3, l: _q("1/2")}, {k: 5, l: 2}], pairs)


_spec(claim="000-Lemma-2-halves", domain="k > 1, l > 0 real; h(z) = 1/(C (|z|^k + l)), z != 0 real (z = 0 a null "
      "set); the claim's sampler (KS) part stays tested: see the tested evidence", witnesses=("mass",),
      printed_forms=_halves_printed, steps=_halves_steps, balls=_halves_balls, relies_on=(_BETA, _REFLECTION))


# ---- 002 Cor. 14 and Lemma 15 (PolyPlace as gamma -> 0) ---------------------------------------------
#: working precision (bits) of the Cauchy integrals (their enclosures must still be narrower than WIDTH)
CAUCHY_PREC = 112


def _compile_acb(expr: sp.Expr, var: sp.Symbol) -> Callable[[Any], Any]:
    """``expr`` as a function of one acb ball (the other symbols already substituted by rationals), the
    tree walked once: the same operations as :func:`arb_eval` with ``kind="acb", analytic=True``."""
    import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

    def comp(e: sp.Expr) -> Callable[[Any], Any]:
        if e == var:
            return lambda z: z
        if not e.has(var):
            c = arb_eval(e, {}, kind="acb")
            return lambda z: c
        if e.is_Add or e.is_Mul:
            fs = [comp(a) for a in e.args]
            if e.is_Add:
                def add(z: Any) -> Any:
                    out = flint.acb(0)
                    for f in fs:
                        out += f(z)
                    return out
                return add

            def mul(z: Any) -> Any:
                out = flint.acb(1)
                for f in fs:
                    out *= f(z)
                return out
            return mul
        if e.is_Pow:
            fb = comp(e.base)
            if e.exp.is_Integer:
                n = int(e.exp)
                return lambda z: fb(z) ** n
            fe = comp(e.exp)
            return lambda z: (fe(z) * fb(z).log(analytic=True)).exp()
        if isinstance(e, sp.exp):
            f = comp(e.args[0])
            return lambda z: f(z).exp()
        if isinstance(e, sp.log):
            f = comp(e.args[0])
            return lambda z: f(z).log(analytic=True)
        raise TypeError(f"no compiled ball evaluation for {type(e).__name__}: {e}")

    return comp(sp.sympify(expr))


def cauchy_coefficient(expr: sp.Expr, var: sp.Symbol, radius: Any, k: int = 0) -> Any:
    """The k-th Laurent coefficient of ``expr`` about var = 0 as an arb ball, by Cauchy's formula on
    the circle |var| = radius: (1/(2 pi radius^k)) int_0^{2 pi} g(radius e^{i theta}) e^{-i k theta}
    d theta (acb.integral; every log and non-integer power is evaluated with the analytic flag, so a
    branch cut touched by the path makes the integral non-finite).  Equals the k-th Taylor
    coefficient of the continuous extension of g at 0 when g is holomorphic on 0 < |var| <= radius
    and bounded near 0 (the singularity at 0 is then removable, Riemann's theorem)."""
    import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

    r = arb_eval(sp.Rational(radius), {}, kind="acb")
    f = _compile_acb(expr, var)
    j = flint.acb(0, 1)

    def g(theta: Any, analytic: bool) -> Any:
        e = (j * theta).exp()
        return f(r * e) * (e ** -k if k else 1)

    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    with workprec(CAUCHY_PREC):  # enough for WIDTH (1e-25 ~ 2^-83); the integrand's cost grows with the precision
        two_pi = 2 * flint.arb.pi()
        val = flint.acb.integral(g, 0, two_pi) / two_pi / (r ** k if k else 1)
    if not val.imag.contains(0):
        return flint.arb("nan")
    return val.real


_ANALYTIC_NOTE = ("W(u) = (1 - u)^(1/u) = exp(l(u)), l(u) = log(1 - u)/u = -sum_(j>=0) u^j/(j+1) (Mercator series, "
                  "|u| < 1): l and W are holomorphic on |u| < 1 (removable singularity at 0, l(0) = -1); on |u| <= 1/4, "
                  "|l(u) + 1| <= |u|/(2 (1 - |u|)) <= 1/6, so |W| <= e^(-5/6) < 0.44 and |2 W u - u| <= 0.47 < 1: "
                  "2 W u + 1 - u has no zero and the functions of u below are holomorphic on |u| <= 1/4 (Taylor's "
                  "theorem then gives the O-term; Cauchy's formula the coefficients of the ball checks)")
SS_, EPS_, G_ = sp.symbols("SS epsilon gamma", positive=True)
W_ = sp.Symbol("W", positive=True)  # W = ((alpha - 1)/alpha)^alpha (002 App. A's shorthand)
UU_ = sp.Symbol("u", positive=True)  # u = gamma/eps = 1/alpha


def _cor14_printed() -> dict[str, sp.Expr]:
    return {"Var": 2 * SS_**2 / EPS_**2 - 2 * (3 * sp.E - 17) * G_ * SS_**2 / (sp.E * EPS_**3)}


def _cor14_T(var1w: sp.Expr) -> sp.Expr:
    """F(u, W) = u^-2 Var_{1,1/u} with W kept as a symbol: Var(gamma) = (SS^2/eps^2) F(u, W(u)), u = gamma/eps."""
    return sp.factor(sp.cancel(sp.together(var1w.subs(AL, 1 / UU_) / UU_**2)))


def _cor14_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    x, s, u = X_, S_, sp.Symbol("v_sc", positive=True)
    on = {AL: 2 + B_}  # alpha > 2 (gamma < eps/2): the second moment is finite
    wpow = ((AL - 1) / AL) ** AL
    fs = _pp_density(_pp_printed()["N"])
    f1, f2 = (f.subs(S_, 1) for f in fs)
    M1, M2 = w["M1"].subs(on), w["M2"].subs(on)
    a = 2 + B_
    var1 = w["var1"].subs(W_, wpow)
    F = _cor14_T(w["var1"])
    Fw = F.subs(W_, sp.exp(-1)).subs(UU_, 0)
    l = sp.log(1 - UU_) / UU_
    c1 = (sp.diff(F, UU_) + sp.diff(F, W_) * sp.exp(-1) * sp.Rational(-1, 2)).subs(W_, sp.exp(-1)).subs(UU_, 0)
    P = pr["Var"]
    return [
        ("scaling: x^2 f_{s,alpha}(x) dx = s^2 u^2 f_{1,alpha}(u) du, x = s u (branch 1)", "zero",
         ((x**2 * fs[0]).subs(x, s * u) * s - s**2 * u**2 * f1.subs(x, u)).subs(on)),
        ("scaling: branch 2", "zero", ((x**2 * fs[1]).subs(x, s * u) * s - s**2 * u**2 * f2.subs(x, u)).subs(on)),
        ("M1 is an antiderivative of x^2 f_{1,alpha} (branch 1)", "antiderivative", M1, (x**2 * f1).subs(on), x),
        ("M2 is an antiderivative of x^2 f_{1,alpha} (branch 2)", "antiderivative", M2, (x**2 * f2).subs(on), x),
        ("M2 -> 0 at oo (alpha > 2)", "limit", M2, x, sp.oo, "-", 0),
        ("Var_{1,alpha} = 2 (M1(1/alpha) - M1(0) + 0 - M2(1/alpha)) = the exact variance var1 (W = ((alpha-1)/alpha)^alpha)",
         "zero", 2 * (M1.subs(x, 1 / a) - M1.subs(x, 0) - M2.subs(x, 1 / a)) - var1.subs(on)),
        ("Var(gamma) = (SS/gamma)^2 Var_{1,eps/gamma} = (SS^2/eps^2) F(u, W(u)), u = gamma/eps: W(1/u) = exp(log(1-u)/u)",
         "zero", (wpow.subs(AL, 1 / UU_) - sp.exp(l)).subs(UU_, 1 / (2 + B_))),
        ("F(u, W) is u^-2 var1 at alpha = 1/u", "zero", F - w["var1"].subs(AL, 1 / UU_) / UU_**2),
        ("the denominator of F is non-zero at (u, W) = (0, e^-1)", "nonzero",
         sp.denom(sp.together(F)).subs(W_, sp.exp(-1)).subs(UU_, 0)),
        ("l(u) = log(1-u)/u -> -1 (u -> 0+): W(0) = e^-1", "limit", l, UU_, 0, "+", -1),
        ("l'(u) -> -1/2 (u -> 0+)", "limit", sp.diff(l, UU_), UU_, 0, "+", sp.Rational(-1, 2)),
        ("order 0: (SS^2/eps^2) F(0, e^-1) = the printed constant term", "zero",
         SS_**2 / EPS_**2 * Fw - P.subs(G_, 0)),
        ("order 1 (chain rule): (SS^2/eps^3) (F_u + F_W W'(0))(0, e^-1), W'(0) = e^-1 l'(0), = the printed gamma "
         "coefficient", "zero", SS_**2 / EPS_**3 * c1 - sp.diff(P, G_)),
        ("the printed expansion is affine in gamma (the rest is the O(gamma^2) term)", "zero", sp.diff(P, G_, 2)),
        ("the derivation's series (SymPy series in u to O(u^2)) equals the printed expansion", "zero", w["series"] - P),
    ]


def _cor14_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    x = X_
    P = pr["Var"]
    F = _cor14_T(w["var1"]).subs(W_, ((1 / UU_ - 1) / (1 / UU_)) ** (1 / UU_))  # W(u) from its definition

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        g = sp.Rational(pt[G_])
        ss, e = sp.Rational(pt[SS_]), sp.Rational(pt[EPS_])
        a = e / g
        f1, f2 = (fb.subs({AL: a, S_: 1}) for fb in _pp_density(_pp_printed()["N"]))  # s = 1 (scaling: a step)
        mom = 2 * (_integral(x**2 * f1, x, 0, 1 / a) + _integral(x**2 * f2, x, 1 / a, sp.oo))
        out = [(f"Var_(1,alpha) = 2 int_0^oo x^2 f_(1,alpha) = var1(alpha) at alpha = eps/gamma = {a}", mom,
                arb_eval(w["var1"].subs(W_, ((AL - 1) / AL) ** AL).subs(AL, a), {}))]
        if "r" not in pt:
            return out
        r = sp.Rational(pt["r"])
        scale, scale1 = arb_eval(ss**2 / e**2, {}), arb_eval(ss**2 / e**3, {})
        out += [(f"Cauchy on |u| = {r}: constant coefficient", scale * cauchy_coefficient(F, UU_, r, 0),
                 arb_eval(P.subs({G_: 0, SS_: ss, EPS_: e}), {})),
                (f"Cauchy on |u| = {r}: coefficient of gamma", scale1 * cauchy_coefficient(F, UU_, r, 1),
                 arb_eval(sp.diff(P, G_).subs({SS_: ss, EPS_: e}), {}))]
        return out

    # the coefficients by Cauchy's formula once (they do not depend on SS, eps after the scaling SS^2/eps^k)
    pts = [{SS_: 1, EPS_: 1, G_: _q("1/3"), "r": _q("1/4")}, {SS_: 2, EPS_: _q("3/2"), G_: _q("3/8")},
           {SS_: _q("1/2"), EPS_: 2, G_: _q("2/7")}]
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    res = []
    with workprec(PREC):
        for pt in pts:
            for name, value, printed in pairs(pt):
                res.append(_ball_agree(name, value, printed, {str(k): v for k, v in pt.items()}))
    return res


_spec(claim="002-Cor-14", domain="SS > 0, eps > 0, 0 < gamma < eps/2 real (alpha = eps/gamma > 2: Var finite), "
      "s = SS/gamma, alpha = eps/gamma; O(gamma^2) as gamma -> 0+ for fixed SS, eps",
      witnesses=("M1", "M2", "var1", "series"), printed_forms=_cor14_printed, steps=_cor14_steps, balls=_cor14_balls,
      relies_on=(_ANALYTIC_NOTE, "Taylor's theorem: a function holomorphic at 0 is c0 + c1 u + O(u^2)"))


A_ = sp.Symbol("a", positive=True)
XN_ = X_  # x > 0 (f even in x); x = 0: a step of its own (SymPy's limit is slow with a non-negative x)


def _l15_printed() -> dict[str, sp.Expr]:
    return {"lap": EPS_ / (2 * A_) * sp.exp(-EPS_ * XN_ / A_)}


def _l15_branches() -> tuple[sp.Expr, sp.Expr]:
    """The two branches of f_{a/gamma, eps/gamma}(x), x >= 0 (002 Def. 6, printed N)."""
    sub = {S_: A_ / G_, AL: EPS_ / G_}
    return tuple(f.subs(X_, XN_).subs(sub) for f in _pp_density(_pp_printed()["N"]))


def _l15_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    """Each branch is written as R(gamma, W) e^(E(gamma)) with R rational, continuous at (0, e^-1), and the
    limits of W and of the exponents E taken one by one (small, deterministic Gruntz limits; the limit of
    the whole log-density depends on SymPy's hash order)."""
    lap = pr["lap"]
    f1, f2 = _l15_branches()
    g, e, a, x = G_, EPS_, A_, XN_
    wg = ((AL - 1) / AL) ** AL
    Wg = wg.subs(AL, e / g)
    R1 = e * (e - g) / (2 * a * (2 * W_ * g + e - g))  # N (alpha - 1) at s = a/gamma, alpha = eps/gamma
    R2 = e * (e + g) / (2 * a * (2 * W_ * g + e - g))  # N (alpha + 1)
    E1 = (e / g - 1) * sp.log(1 - g * x / a)
    E2, E3 = (e / g) * sp.log(1 - g**2 / e**2), (-e / g - 1) * sp.log(1 + g * x / a)
    v = sp.Symbol("v_br", positive=True)
    on1 = {x: a / e * v / (1 + v)}  # branch 1: 0 < x < a/eps (1 - gamma x/a > 0 for 0 < gamma < eps)
    on_g = {g: e / (1 + B_)}  # 0 < gamma < eps (alpha > 1)
    return [
        ("branch 1 iff x/s < 1/alpha iff x < a/eps for every gamma: x/s - 1/alpha = (gamma/a)(x - a/eps)", "zero",
         x / (a / g) - 1 / (e / g) - g / a * (x - a / e)),
        ("branch 1 = R1(gamma, W(gamma)) (1 - gamma x/a)^(eps/gamma - 1) = R1 e^E1 (0 < x < a/eps, 0 < gamma < eps)",
         "zero", (f1 - R1.subs(W_, Wg) * (1 - g * x / a) ** (e / g - 1)).subs(on1).subs(on_g)),
        ("branch 1 at x = 0: E1 = 0", "zero", E1.subs(x, 0)),
        ("branch 2 = R2(gamma, W(gamma)) (1 - gamma^2/eps^2)^(eps/gamma) (1 + gamma x/a)^(-eps/gamma - 1) = R2 e^(E2 + E3) "
         "(x >= a/eps, 0 < gamma < eps)", "zero",
         (f2 - R2.subs(W_, Wg) * (1 - g**2 / e**2) ** (e / g) * (1 + g * x / a) ** (-e / g - 1)).subs(on_g)),
        ("W(gamma) = (1 - gamma/eps)^(eps/gamma) -> e^-1 (gamma -> 0+)", "limit", Wg, g, 0, "+", sp.exp(-1)),
        ("E1 -> -eps x/a", "limit", E1, g, 0, "+", -e * x / a),
        ("E2 -> 0", "limit", E2, g, 0, "+", 0),
        ("E3 -> -eps x/a", "limit", E3, g, 0, "+", -e * x / a),
        ("the denominators of R1, R2 at (gamma, W) = (0, e^-1) are non-zero (continuity)", "nonzero",
         sp.denom(sp.together(R1)).subs({g: 0, W_: sp.exp(-1)})),
        ("branch 1 -> R1(0, e^-1) e^(-eps x/a) = the printed Laplace density", "zero",
         R1.subs({g: 0, W_: sp.exp(-1)}) * sp.exp(-e * x / a) - lap),
        ("branch 2 -> R2(0, e^-1) e^0 e^(-eps x/a) = the printed Laplace density", "zero",
         R2.subs({g: 0, W_: sp.exp(-1)}) * sp.exp(-e * x / a) - lap),
        ("the derivation's limit of branch 1 is the printed Laplace density", "zero", w["lim1"] - lap),
        ("the derivation's limit of branch 2 is the printed Laplace density", "zero", w["lim2"] - lap),
    ]


def _l15_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    f1, f2 = _l15_branches()
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    pts = [{A_: 2, EPS_: _q("1/2"), XN_: _q("3/2")}, {A_: 1, EPS_: 1, XN_: 0}, {A_: 1, EPS_: 2, XN_: 5}]
    res = []
    with workprec(PREC):
        for pt in pts:
            a, e, x = (sp.Rational(pt[k]) for k in (A_, EPS_, XN_))
            f = f1 if x < a / e else f2
            r = min(e, a / x if x else e) / 4  # |gamma| <= eps/4 and |x gamma/a| <= 1/4: holomorphic (u = gamma/eps)
            val = cauchy_coefficient(f.subs(pt), G_, r, 0)
            res.append(_ball_agree(f"branch {1 if f is f1 else 2}: value at gamma = 0 (Cauchy on |gamma| = {r}) = "
                                   f"printed", val, arb_eval(pr["lap"].subs(pt), {}),
                                   {s.name: v for s, v in pt.items()}))
    return res


_spec(claim="002-Lemma-15", domain="a > 0, eps > 0, x real (x >= 0 by evenness, x = 0 included), gamma -> 0+ "
      "(0 < gamma < eps: alpha > 1)", witnesses=("lim1", "lim2"), printed_forms=_l15_printed, steps=_l15_steps,
      balls=_l15_balls,
      relies_on=("limits of products and compositions with continuous functions (exp; R1, R2 rational with a non-zero "
                 "denominator at the limit point)", _ANALYTIC_NOTE + " (u = gamma/eps; the "
                 "ball checks' circles also keep |x gamma/a| <= 1/4)"))


# ---- 002 Lemma 9 eq. (2): scaling of the PolyPlace density (verify.claims.sets.proofs_more) ----
def _eq2_density(s: sp.Expr, a: sp.Expr, x: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
    """002 Def. 6 written again for eq. (2): (N_{s,alpha}, the branch test |x|/s, branch 1, branch 2) of
    f_{s,alpha}(x) = N (alpha-1) (1 - |x|/s)^(alpha-1) if |x|/s < 1/alpha, else N (alpha+1) (1 - 1/alpha^2)^alpha
    (1 + |x|/s)^(-alpha-1), N = alpha / (2 (2 ((alpha-1)/alpha)^alpha + alpha - 1) s)."""
    N = a / (2 * (2 * ((a - 1) / a) ** a + a - 1) * s)
    t = sp.Abs(x) / s
    return N, t, N * (a - 1) * (1 - t) ** (a - 1), N * (a + 1) * (1 - 1 / a**2) ** a * (1 + t) ** (-a - 1)


_EQ2_C = sp.Symbol("c", positive=True)
_EQ2_X = sp.Symbol("x", real=True)


def _eq2_printed() -> dict[str, sp.Expr]:
    return {"factor": _EQ2_C, "N_ratio": 1 / _EQ2_C}


def _eq2_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    c, x, s, a = _EQ2_C, _EQ2_X, S_, 1 + B_  # alpha = 1 + b, b > 0
    N1, t1, f11, f12 = _eq2_density(s, a, x)
    Nc, tc, fc1, fc2 = _eq2_density(c * s, a, c * x)
    return [
        ("N_{cs,alpha} = N_ratio N_{s,alpha}", "zero", Nc - pr["N_ratio"].subs(AL, a) * N1),
        ("the derivation's N_{cs,alpha}/N_{s,alpha} is the printed N_ratio", "zero", (w["N_ratio"] - pr["N_ratio"]).subs(AL, a)),
        ("|cx|/(cs) = |x|/s: both sides take the same branch for every real x (the breakpoint included)", "zero", tc - t1),
        ("branch 1 (|x|/s < 1/alpha): f_{s,alpha}(x) = factor f_{cs,alpha}(cx)", "zero", f11 - pr["factor"] * fc1),
        ("branch 2 (|x|/s >= 1/alpha): f_{s,alpha}(x) = factor f_{cs,alpha}(cx)", "zero", f12 - pr["factor"] * fc2),
    ]


def _eq2_eval(s: sp.Rational, a: sp.Rational, x: sp.Rational) -> Any:
    """f_{s,alpha}(x) of :func:`_eq2_density` on arb balls, the branch chosen by the exact rational test."""
    N, t, f1, f2 = _eq2_density(s, a, x)
    return arb_eval(f1 if t < 1 / a else f2, {})


def _eq2_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    c, x = _EQ2_C, _EQ2_X

    def pairs(pt: Mapping[sp.Symbol, Any]) -> list[tuple[str, Any, Any]]:
        sv, av, cv, xv = (sp.Rational(pt[k]) for k in (S_, AL, c, x))
        lhs = _eq2_eval(sv, av, xv)
        rhs = arb_eval(pr["factor"].subs(c, cv), {}) * _eq2_eval(cv * sv, av, cv * xv)
        return [("f_{s,alpha}(x) = factor f_{cs,alpha}(cx)", lhs, rhs)]

    return _balls_at([{S_: 2, AL: 3, c: _q("1/2"), x: _q("1/3")},      # branch 1
                      {S_: _q("1/2"), AL: _q("5/2"), c: 7, x: -4},      # branch 2, x < 0
                      {S_: 3, AL: 4, c: _q("5/3"), x: _q("3/4")},       # the breakpoint |x|/s = 1/alpha
                      {S_: 9, AL: 20, c: _q("1/1000"), x: _q("-1/7")}], pairs)  # branch 1, x < 0, small c


_spec(claim="002-Lemma-9-eq-2", domain="s > 0, alpha > 1, c > 0 real; x real (both branches of 002 Def. 6 and the "
      "breakpoint |x|/s = 1/alpha)", witnesses=("N_ratio",), printed_forms=_eq2_printed, steps=_eq2_steps,
      balls=_eq2_balls)


# ---- 004 Lemma 2.3: the Laplace mechanism for GP ([CABP13]) ---------------------------------------------
_L23 = {k: sp.Symbol(k, positive=True) for k in ("K", "epsilon")}
_L23.update({k: sp.Symbol(k, nonnegative=True) for k in ("d", "s1", "s2")})


def _l23_printed() -> dict[str, sp.Expr]:
    return {"rate": _L23["epsilon"] / _L23["K"]}


def _l23_slack(rate: sp.Expr) -> sp.Expr:
    """eps d - rate (||y - f(x')|| - ||y - f(x)||) with the difference of norms written Delta = K d - s1 - s2:
    s1 = ||f(x) - f(x')|| - Delta >= 0 (reverse triangle inequality), s2 = K d - ||f(x) - f(x')|| >= 0 (the
    hypothesis ||f(x) - f(x')|| <= K dist(x, x'), d = dist(x, x'))."""
    K, eps, d, s1, s2 = (_L23[k] for k in ("K", "epsilon", "d", "s1", "s2"))
    return eps * d - rate * (K * d - s1 - s2)


def _l23_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    K, eps, d, s1, s2 = (_L23[k] for k in ("K", "epsilon", "d", "s1", "s2"))
    rate = pr["rate"]
    return [
        ("eps d - rate Delta equals the witness", "zero", _l23_slack(rate) - w["slack"]),
        ("eps d - rate Delta = rate (s1 + s2) + (eps - rate K) d", "zero",
         _l23_slack(rate) - rate * (s1 + s2) - (eps - rate * K) * d),
        ("rate > 0", "positive", rate),
        ("eps - rate K >= 0", "nonneg", eps - rate * K),
        ("the witness is >= 0 (s1, s2, d >= 0)", "nonneg", w["slack"]),
    ]


def _l23_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    def norm(v: Sequence[Any]) -> Any:
        tot = arb_eval(sp.Integer(0), {})
        for comp in v:
            tot += arb_eval(sp.Rational(comp), {}) ** 2
        return tot.sqrt()

    pts = [  # (K, eps, d, f(x), f(x'), y): V = R and V = R^2, ||f(x) - f(x')|| <= K d
        (3, 1, 1, (0,), (2,), (-5,)),
        (_q("1/2"), 2, 3, (1,), (_q("1/2"),), (_q("7/3"),)),
        (2, 1, 1, (0, 0), (1, 1), (-3, -1)),
        (5, 3, _q("2/3"), (1, -2), (_q("7/2"), _q("-1/3")), (-4, -9)),
    ]
    out = []
    with workprec(PREC):
        for K, eps, d, fx, fxp, y in pts:
            env = {_L23["K"]: arb_eval(sp.Rational(K), {}), _L23["epsilon"]: arb_eval(sp.Rational(eps), {})}
            dd = arb_eval(sp.Rational(d), {})
            delta = norm([a - b for a, b in zip(y, fxp, strict=True)]) - norm([a - b for a, b in zip(y, fx, strict=True)])
            D = norm([a - b for a, b in zip(fx, fxp, strict=True)])
            loss_slack = env[_L23["epsilon"]] * dd - arb_eval(pr["rate"], env) * delta  # the definition side
            wit = arb_eval(w["slack"], {**env, _L23["d"]: dd, _L23["s1"]: D - delta, _L23["s2"]: env[_L23["K"]] * dd - D})
            rec = _ball_agree("eps d - rate (||y - f(x')|| - ||y - f(x)||) = witness > 0", loss_slack, wit,
                              {"K": K, "eps": eps, "d": d, "f(x)": fx, "f(x')": fxp, "y": y})
            rec["ok"] = bool(rec["ok"] and loss_slack > 0)
            rec["certified_negative"] = bool(loss_slack < 0)
            out.append(rec)
    return out


_spec(claim="004-Lemma-2.3", domain="K > 0, eps > 0 real; any normed space V, any metric space U; all x, x' in U, y in V "
      "with ||f(x) - f(x')|| <= K dist(x, x')", witnesses=("slack",), printed_forms=_l23_printed, steps=_l23_steps,
      balls=_l23_balls,
      relies_on=("reverse triangle inequality: ||y - f(x')|| - ||y - f(x)|| <= ||f(x) - f(x')|| in a normed space",
                 "the normaliser of exp(-k ||y - a||) over V = R^n does not depend on a (translation invariance of "
                 "Lebesgue measure), so the log-density ratio is k (||y - f(x')|| - ||y - f(x)||)"))


# ---- 004 Lemma 2.2 item 1 ([NRS07] as quoted): eta C + gamma U <= eps for every p > 1 --------------------
_P22, _EPS22 = sp.Symbol("p", positive=True), sp.Symbol("epsilon", positive=True)
_U22 = sp.Symbol("u", nonnegative=True)


def _nrs_printed() -> dict[str, sp.Expr]:
    p, eps = _P22, _EPS22
    return {"gamma_max": eps / (2 * (p + 1)), "eta": eps / (2 * (p + 1))}


def _nrs_sups() -> tuple[sp.Expr, sp.Expr]:
    """C = sup_z |psi(z)| and U = sup_z |1 + z psi(z)| of GenCauchy(p, theta = 1) (density proportional to
    1/(1 + |z|^p)): theta (p-1)^((p-1)/p) and max(1, p theta - 1) at theta = 1 (004 Lemma 3.3)."""
    p = _P22
    return (p - 1) ** ((p - 1) / p), sp.Max(1, p - 1)


def _nrs_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    p, eps, u = _P22, _EPS22, _U22
    th = sp.Symbol("theta", positive=True)
    C, U = _nrs_sups()
    proven = SPECS["004-Lemma-3.3-epsilon"].printed_forms()
    g, e = pr["gamma_max"], pr["eta"]
    pA, pB = 1 + 1 / (1 + u), 2 + u  # p in (1, 2] and p in [2, oo), u >= 0
    return [
        ("C is the sup proven by 004-Lemma-3.3-epsilon at theta = 1", "zero", proven["sup_shift"].subs(th, 1) - C),
        ("U is the sup proven by 004-Lemma-3.3-epsilon at theta = 1", "zero", proven["sup_scale"].subs(th, 1) - U),
        ("gamma_max > 0", "positive", g), ("eta > 0", "positive", e), ("U > 0 (the bound increases with gamma)",
                                                                     "positive", U.subs(p, 1 + B_)),
        ("C > 0", "positive", C.subs(p, 1 + B_)),
        ("p = 1 + 1/(1+u), u >= 0, covers (1, 2]: p - 1 > 0", "positive", pA - 1),
        ("p = 1 + 1/(1+u): p <= 2", "nonneg", 2 - pA),
        ("p = 1 + 1/(1+u): u = 1/(p - 1) - 1 inverts it", "zero", 1 / (pA - 1) - 1 - u),
        ("p in (1, 2]: U = max(1, p - 1) = 1 (1 - (p - 1) >= 0)", "nonneg", 1 - (pA - 1)),
        ("p in (1, 2]: ln C = ((p-1)/p) ln(p - 1) <= 0, so C <= 1", "nonneg", -((pA - 1) / pA) * sp.log(pA - 1)),
        ("p in (1, 2]: eps - eta 1 - gamma_max 1 >= 0", "nonneg", (eps - e - g).subs(p, pA)),
        ("p = 2 + u: U = max(1, p - 1) = p - 1 (p - 1 - 1 >= 0)", "nonneg", pB - 2),
        ("p >= 2: ln C - ln(p - 1) = -ln(p - 1)/p", "zero",
         ((pB - 1) / pB) * sp.log(pB - 1) - sp.log(pB - 1) + sp.log(pB - 1) / pB),
        ("p >= 2: ln(p - 1)/p >= 0, so C <= p - 1", "nonneg", sp.log(pB - 1) / pB),
        ("p >= 2: eps - eta (p - 1) - gamma_max (p - 1) >= 0", "nonneg", (eps - (e + g) * (p - 1)).subs(p, pB)),
        ("the derivation's bound eta C + gamma_max U (p in (1, 2]) is the printed calibration's", "zero",
         (w["bound"] - (e * C + g * U)).subs(p, pA)),
        ("the derivation's bound eta C + gamma_max U (p >= 2) is the printed calibration's", "zero",
         (w["bound"] - (e * C + g * U)).subs(p, pB)),
    ]


def _nrs_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    p, eps, z = _P22, _EPS22, Z_
    C, U = _nrs_sups()
    d_shift = p * z ** (p - 1) / (1 + z**p)  # |d/dz ln h| of h = 1/(1 + z^p) on z > 0, the definition
    out = []
    with workprec(PREC):
        for pv in (_q("3/2"), 2, 4, 10):
            env = {p: arb_eval(sp.Rational(pv), {}), eps: arb_eval(sp.Integer(1), {})}
            zs = (env[p] - 1) ** (1 / env[p])  # the stationary point (p - 1)^(1/p) of d_shift
            c_def = arb_eval(d_shift, {**env, z: zs})
            out.append(_ball_agree("C = sup D_shift at z* (definition) = (p-1)^((p-1)/p)", c_def, arb_eval(C, env),
                                   {"p": pv, "eps": 1}))
            slack = env[eps] - arb_eval(pr["eta"], env) * c_def - arb_eval(pr["gamma_max"], env) * arb_eval(U, env)
            rec = _ball_agree("eps - eta C - gamma_max U = eps - the derivation's bound, > 0", slack,
                              env[eps] - arb_eval(w["bound"], env), {"p": pv, "eps": 1})
            rec["ok"] = bool(rec["ok"] and slack > 0)
            rec["certified_negative"] = bool(slack < 0)
            out.append(rec)
    return out


_spec(claim="004-Lemma-2.2-cauchy", domain="p > 1, eps > 0 real; GenCauchy(p, theta = 1) (density proportional to "
      "1/(1 + |z|^p)); 0 < gamma <= eps/(2(p+1)), eta = eps/(2(p+1)); C = sup_z |psi(z)|, U = sup_z |1 + z psi(z)| "
      "(004-Lemma-3.3-epsilon at theta = 1)", witnesses=("bound",), printed_forms=_nrs_printed, steps=_nrs_steps,
      balls=_nrs_balls,
      relies_on=("every p > 1 is 1 + 1/(1+u) (p <= 2) or 2 + u (p >= 2) for some real u >= 0",
                 "exp is increasing (ln C <= ln b implies C <= b)",
                 "eta C + gamma U is non-decreasing in C, U and gamma when eta, gamma, C, U >= 0 (so C <= its bound, "
                 "U = its value and gamma <= gamma_max give eta C + gamma U <= the bound checked)"))


# ---------------------------------------------------------------------------------------------------
# records and the re-check
# ---------------------------------------------------------------------------------------------------
def _parse(s: str) -> sp.Expr:
    """A witness from its ``srepr`` (SymPy's exact constructor form: symbols keep their assumptions)."""
    return sp.sympify(s)


@lru_cache(maxsize=None)
def _steps_cached(claim: str, wit: tuple[tuple[str, str], ...], printed_key: str) -> tuple[tuple[str | None, ...], int]:
    steps = _spec_steps(claim, wit)
    return tuple(_check_step(st) for st in steps), len(steps)


@lru_cache(maxsize=None)
def _spec_steps(claim: str, wit: tuple[tuple[str, str], ...]) -> tuple[tuple[Any, ...], ...]:
    """The steps of ``claim``'s spec from the witnesses ``wit`` (srepr strings) and the spec's printed forms."""
    spec = SPECS[claim]
    w = {k: _parse(v) for k, v in wit}
    return tuple(spec.steps(w, spec.printed_forms()))


def make_record(claim: str, witnesses: Mapping[str, sp.Expr], *, derivation: Mapping[str, Any]) -> dict[str, Any]:
    """The proof record of ``claim`` from the derivation's ``witnesses``: method, claim, domain (the
    spec's), the witnesses as ``srepr`` (re-runnable), the steps as text, what it relies on, and
    ``derivation`` (how the witnesses were obtained, the SymPy comparisons)."""
    spec = SPECS[claim]
    w = {k: sp.sympify(v) for k, v in witnesses.items()}
    steps = spec.steps(w, spec.printed_forms())
    return {"method": "symbolic", "claim": claim, "domain": spec.domain,
            "witnesses": {k: sp.srepr(v) for k, v in w.items()}, "witnesses_str": {k: str(v) for k, v in w.items()},
            "steps": [_step_json(st) for st in steps], "relies_on": list(spec.relies_on),
            "printed": {k: str(v) for k, v in spec.printed_forms().items()}, "derivation": dict(derivation)}


def recheck(proof: Mapping[str, Any], *, printed: Mapping[str, sp.Expr] | None = None) -> SymbolicRecheck:
    """Re-check a symbolic proof record independently (module docstring).  ``printed`` replaces the
    spec's printed forms (controls: a perturbed printed form must be rejected)."""
    t0 = time.perf_counter()
    problems: list[str] = []
    claim = str(proof.get("claim", ""))
    spec = SPECS.get(claim)
    if spec is None or proof.get("method") != "symbolic":
        return SymbolicRecheck(False, [f"no symbolic spec for claim {claim!r} (method {proof.get('method')!r})"])
    if proof.get("domain") != spec.domain:
        problems.append(f"the record's domain {proof.get('domain')!r} is not the claim's {spec.domain!r}")
    wit = proof.get("witnesses") or {}
    missing = [k for k in spec.witnesses if k not in wit]
    if missing:
        return SymbolicRecheck(False, problems + [f"witnesses missing: {missing}"], seconds=time.perf_counter() - t0)
    try:
        w = {k: _parse(str(wit[k])) for k in spec.witnesses}
    except Exception as exc:  # noqa: BLE001
        return SymbolicRecheck(False, problems + [f"unreadable witness: {type(exc).__name__}: {exc}"],
                               seconds=time.perf_counter() - t0)
    if printed is None:
        res, n_steps = _steps_cached(claim, tuple(sorted((k, str(wit[k])) for k in spec.witnesses)), "printed")
    else:
        steps = spec.steps(w, {**spec.printed_forms(), **printed})
        res, n_steps = tuple(_check_step(st) for st in steps), len(steps)
    problems += [r for r in res if r]
    try:
        balls = spec.balls(w, {**spec.printed_forms(), **(printed or {})})
    except Exception as exc:  # noqa: BLE001
        balls = [{"name": "ball evaluation", "ok": False, "error": f"{type(exc).__name__}: {exc}"}]
    problems += [f"ball check {b['name']} at {b.get('point')}: definition {b.get('definition')} vs printed "
                 f"{b.get('printed')}{' ' + b['error'] if 'error' in b else ''}" for b in balls if not b["ok"]]
    n_pts = len({str(b.get("point")) for b in balls})
    if n_pts < 3:
        problems.append(f"only {n_pts} rational points evaluated (>= 3 needed)")
    return SymbolicRecheck(not problems, problems[:20], n_steps, n_pts, PREC, time.perf_counter() - t0)


def recheck_for(proof: Mapping[str, Any], *, claim_id: str) -> SymbolicRecheck:
    """Re-check ``proof`` as the symbolic proof of the spec ``claim_id`` (the one the claim's code uses, never
    the one the record names): the record's ``claim``, ``domain``, ``relies_on`` and printed forms must be the
    spec's, its steps are rebuilt from the spec (:func:`recheck`), and a proof of no step is rejected."""
    t0 = time.perf_counter()
    spec = SPECS.get(claim_id)
    if spec is None:
        return SymbolicRecheck(False, [f"no symbolic spec for claim {claim_id!r}"])
    if not isinstance(proof, Mapping) or proof.get("method") != "symbolic":
        return SymbolicRecheck(False, [f"field 'method': not a symbolic proof record (claim {claim_id})"])
    problems = []
    if proof.get("claim") != claim_id:
        problems.append(f"field 'claim': the record is a symbolic proof of {proof.get('claim')!r}, not of {claim_id!r}")
    if list(proof.get("relies_on") or []) != list(spec.relies_on):
        problems.append("field 'relies_on': the record's is not the spec's")
    if dict(proof.get("printed") or {}) != {k: str(v) for k, v in spec.printed_forms().items()}:
        problems.append("field 'printed': the record's printed forms are not the spec's")
    if problems:
        return SymbolicRecheck(False, problems, seconds=time.perf_counter() - t0)
    rc = recheck(proof)
    if rc.ok and rc.n_steps <= 0:
        return SymbolicRecheck(False, ["the symbolic proof has no step"], 0, rc.n_points, rc.prec, rc.seconds)
    if rc.ok:  # the displayed steps are the ones the spec derives from the witnesses
        wit = proof.get("witnesses") or {}
        mine = [_step_json(st) for st in _spec_steps(claim_id, tuple(sorted((k, str(wit[k])) for k in spec.witnesses)))]
        if list(proof.get("steps") or []) != mine:
            return SymbolicRecheck(False, ["field 'steps': the record's steps are not the ones the spec derives from its "
                                           "witnesses"], rc.n_steps, rc.n_points, rc.prec, rc.seconds)
    return rc


def describe(proof: Mapping[str, Any], rc: SymbolicRecheck) -> str:
    if rc.ok:
        return (f"symbolic proof re-checked: {rc.n_steps} SymPy steps hold on {proof.get('domain', '?')}; ball "
                f"checks at {rc.n_points} rational points agree (arb {rc.prec} bits, {rc.seconds:.1f} s)")
    return "proof REJECTED: " + "; ".join(rc.problems)


# ===================================================================================================
# H10 (session 15): 004 Lemma 4.5, 004 Lemma 4.8, 004 Sec. 4.1.1 MSE
# (attached by verify.claims.sets.proofs_geometry)
# ===================================================================================================
def _geo_inner(v1: Mapping[str, sp.Expr], v2: Mapping[str, sp.Expr], gram: Mapping[tuple[str, str], sp.Expr]) -> sp.Expr:
    """<v1, v2> of two vectors written as linear combinations of named vectors (any dimension d), by
    bilinearity and symmetry from the Gram entries ``gram[(i, j)]`` (either order)."""
    out = sp.Integer(0)
    for i, a in v1.items():
        for j, b in v2.items():
            g = gram[(i, j)] if (i, j) in gram else gram[(j, i)]
            out += a * b * g
    return sp.expand(out)


def _geo_comb(*terms: tuple[sp.Expr, Mapping[str, sp.Expr]]) -> dict[str, sp.Expr]:
    """sum_k s_k v_k of vectors written as {name: coefficient}."""
    out: dict[str, sp.Expr] = {}
    for s, v in terms:
        for k, a in v.items():
            out[k] = out.get(k, sp.Integer(0)) + s * a
    return out


#: the chord quotient N/(D G) of 004 Def. 9 (Lambda = inf) for the original pair (D + s1, G + s3) and the
#: replaced pair (D, G): N = |f(w) - f(z)| >= 0, D = ||w' - z'|| > 0, G = g0(||x - z'||) > 0, s1, s3 >= 0
_GEO_Q = {k: sp.Symbol(k, nonnegative=True) for k in ("N", "s1", "s3")}
_GEO_Q.update({k: sp.Symbol(k, positive=True) for k in ("D", "G")})


def _geo_quotient_gap() -> sp.Expr:
    N, s1, s3, D, G = (_GEO_Q[k] for k in ("N", "s1", "s3", "D", "G"))
    return N / (D * G) - N / ((D + s1) * (G + s3))


def _geo_common_steps(w: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    """The objective step shared by Lemmas 4.5 and 4.8, and the facts of verify.proof.kde_def8's step (i)
    that are the same facts here (re-run, not copied)."""
    from verify.proof import kde_def8 as K  # noqa: PLC0415

    A, B, P = sp.Symbol("A", nonnegative=True), sp.Symbol("B", nonnegative=True), sp.Symbol("P", real=True)
    ab = {("a", "a"): A**2, ("b", "b"): B**2, ("a", "b"): P}
    a_b = _geo_comb((1, {"a": 1}), (-1, {"b": 1}))
    gap = _geo_quotient_gap()
    return [
        ("reverse triangle as Cauchy-Schwarz: ||a - b||^2 - (||a|| - ||b||)^2 = 2(||a|| ||b|| - <a, b>) (any d)", "zero",
         _geo_inner(a_b, a_b, ab) - (A - B) ** 2 - 2 * (A * B - P)),
        ("the objective does not decrease: N/(D G) - N/((D + s1)(G + s3)) equals the witness", "zero",
         gap - w["quotient_gap"]),
        ("the witness N/(D G) - N/((D + s1)(G + s3)) is >= 0 (N, s1, s3 >= 0; D, G > 0)", "nonneg", w["quotient_gap"]),
        ("g0 in {g_E, g_L} is nondecreasing with g0(0) = 1 (verify.proof.kde_def8._check_growth_monotone, re-run: "
         "0 iff it holds)", "zero", sp.Integer(0 if K._check_growth_monotone() else 1)),
        ("||(t + a u) - (t + b u)|| = |a - b| for ||u|| = 1 in coordinates, d = 1, 2, 3 "
         "(verify.proof.kde_def8._check_ray_distance, re-run: 0 iff it holds)", "zero",
         sp.Integer(0 if K._check_ray_distance() else 1)),
    ]


#: the conclusion shared by 004 Lemmas 4.5 and 4.8 (the domain's last clause)
_GEO_OBJECTIVE = ("hence for g0 in {g_E, g_L} (gamma > 0) and every Lambda the 004 Def. 9 objective |f(w) - f(z)|/"
                  "(||w - z|| g0(||x - z||)) does not decrease")


def _geo_relies(cauchy_schwarz: str, gram_note: str, pair: str) -> tuple[str, ...]:
    """relies_on of 004 Lemmas 4.5 / 4.8: the Cauchy-Schwarz form used, the Gram computation, g0 monotone."""
    return (cauchy_schwarz, f"bilinearity and symmetry of the inner product (the Gram computation{gram_note})",
            "a C^1 function with f' > 0 on an interval is increasing (g0 nondecreasing: G(original) = G + s3, s3 >= 0); "
            f"a feasible pair (||w* - z*|| <= Lambda) stays feasible ({pair} <= ||w* - z*||)")


def _geo_vec(xs: Sequence[Any]) -> list[Any]:
    return [arb_eval(sp.Rational(v), {}) for v in xs]


def _geo_norm(v: Sequence[Any]) -> Any:
    tot = arb_eval(sp.Integer(0), {})
    for comp in v:
        tot += comp**2
    return tot.sqrt()


def _geo_sub(a: Sequence[Any], b: Sequence[Any]) -> list[Any]:
    return [p - q for p, q in zip(a, b, strict=True)]


def _geo_axpy(s: Any, u: Sequence[Any], y: Sequence[Any]) -> list[Any]:
    return [q + s * p for p, q in zip(u, y, strict=True)]


def _geo_ineq(name: str, definition: Any, identity: Any, point: Mapping[str, Any]) -> dict[str, Any]:
    """A ball check of an inequality written as a slack: the definition's slack (from coordinates) equals the
    identity's and is > 0; ``certified_negative`` when the definition's slack ball lies below 0."""
    rec = _ball_agree(name, definition, identity, point)
    rec["ok"] = bool(rec["ok"] and definition > 0)
    rec["certified_negative"] = bool(definition < 0)
    return rec


# ---- 004 Lemma 4.5: pair replacement on the line through x and t, f(x) = f0(||x - t||) ----------------
_L45 = {"c": sp.Symbol("c", positive=True), "rz": sp.Symbol("r_z", nonnegative=True),
        "rw": sp.Symbol("r_w", nonnegative=True)}


def _l45_printed() -> dict[str, sp.Expr]:
    """z_L = t + zL u, w_L = t + wL u with u = (x - t)/||x - t||: the radii of z*, w* on the ray from t through x."""
    return {"zL": _L45["rz"], "wL": _L45["rw"]}


def _l45_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    c, rz, rw = _L45["c"], _L45["rz"], _L45["rw"]
    G = {("u", "u"): sp.Integer(1)}  # every point of the line is t + s u; ||u|| = 1
    x, zL, wL = {"u": c}, {"u": pr["zL"]}, {"u": pr["wL"]}  # minus t
    d_wz, d_zx = _geo_comb((1, wL), (-1, zL)), _geo_comb((1, zL), (-1, x))
    return [
        ("||z_L - t||^2 = ||z* - t||^2", "zero", _geo_inner(zL, zL, G) - rz**2),
        ("||w_L - t||^2 = ||w* - t||^2", "zero", _geo_inner(wL, wL, G) - rw**2),
        ("||z_L - t|| = r_z, so f(z_L) = f0(r_z) = f(z*)", "zero", sp.sqrt(_geo_inner(zL, zL, G)) - rz),
        ("||w_L - t|| = r_w, so f(w_L) = f(w*)", "zero", sp.sqrt(_geo_inner(wL, wL, G)) - rw),
        ("||w_L - z_L||^2 = (r_w - r_z)^2", "zero", _geo_inner(d_wz, d_wz, G) - (rw - rz) ** 2),
        ("||z_L - x||^2 = (r_z - ||x - t||)^2", "zero", _geo_inner(d_zx, d_zx, G) - (rz - c) ** 2),
        ("the witness ||w_L - z_L||^2 is the definition's", "zero", w["dist2_wz"] - _geo_inner(d_wz, d_wz, G)),
        ("the witness ||z_L - x||^2 is the definition's", "zero", w["dist2_zx"] - _geo_inner(d_zx, d_zx, G)),
        *_geo_common_steps(w),
    ]


_L45_POINTS = [  # (t, x, w*, z*): x != t, w*, z* off the line through x and t (strict inequalities)
    ((0, 0), (1, 0), (_q("1/2"), 2), (-1, _q("3/2"))),
    ((_q("1/3"), -1), (2, _q("1/2")), (-1, 1), (_q("5/2"), -2)),
    ((1, 2, 3), (2, 2, 4), (0, 1, 5), (3, _q("1/2"), 2)),
    ((0, 0, 0), (_q("-1/2"), 1, 1), (1, 1, -1), (_q("-3/2"), 0, 2)),
]


def _l45_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    """At rational t, x, w*, z* in R^2 and R^3: z_L, w_L from the printed coefficients in arb; the radii, the
    two inequalities and the objective (f0(r) = e^{-r^2/2}, g_E with gamma = 7/10, Lambda = inf)."""
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    c, rz, rw = _L45["c"], _L45["rz"], _L45["rw"]
    out = []
    with workprec(PREC):
        gam = arb_eval(sp.Rational(7, 10), {})

        def obj(wv: Sequence[Any], zv: Sequence[Any], tv: Sequence[Any], xv: Sequence[Any]) -> Any:
            f = lambda p: (-(_geo_norm(_geo_sub(p, tv)) ** 2) / 2).exp()  # noqa: E731
            return abs(f(wv) - f(zv)) / (_geo_norm(_geo_sub(wv, zv)) * (gam * _geo_norm(_geo_sub(xv, zv))).exp())

        for pt in _L45_POINTS:
            tv, xv, wv, zv = (_geo_vec(p) for p in pt)
            cv = _geo_norm(_geo_sub(xv, tv))
            u = [comp / cv for comp in _geo_sub(xv, tv)]
            rzv, rwv = _geo_norm(_geo_sub(zv, tv)), _geo_norm(_geo_sub(wv, tv))
            env = {c: cv, rz: rzv, rw: rwv}
            zl, wl = _geo_axpy(arb_eval(pr["zL"], env), u, tv), _geo_axpy(arb_eval(pr["wL"], env), u, tv)
            where = {"t": pt[0], "x": pt[1], "w*": pt[2], "z*": pt[3]}
            out.append(_ball_agree("||z_L - t|| = ||z* - t||", _geo_norm(_geo_sub(zl, tv)), rzv, where))
            out.append(_ball_agree("||w_L - t|| = ||w* - t||", _geo_norm(_geo_sub(wl, tv)), rwv, where))
            dwz = _geo_norm(_geo_sub(wv, zv))
            out.append(_geo_ineq("||w* - z*|| - ||w_L - z_L|| = ||w* - z*|| - |r_w - r_z| > 0",
                                 dwz - _geo_norm(_geo_sub(wl, zl)), dwz - abs(rwv - rzv), where))
            dzx = _geo_norm(_geo_sub(zv, xv))
            out.append(_geo_ineq("||z* - x|| - ||z_L - x|| = ||z* - x|| - |r_z - ||x - t||| > 0",
                                 dzx - _geo_norm(_geo_sub(zl, xv)), dzx - abs(rzv - cv), where))
            o_star = obj(wv, zv, tv, xv)
            f0 = lambda r: (-(r**2) / 2).exp()  # noqa: E731
            o_line = abs(f0(rwv) - f0(rzv)) / (abs(rwv - rzv) * (gam * abs(rzv - cv)).exp())
            out.append(_geo_ineq("objective(w_L, z_L) - objective(w*, z*) (f0 = e^{-r^2/2}, g_E, gamma = 7/10) > 0",
                                 obj(wl, zl, tv, xv) - o_star, o_line - o_star, where))
    return out


_spec(claim="004-Lemma-4.5", domain=(
    "all d >= 1, t, x in R^d with x != t, f(y) = f0(||y - t||) for any f0: [0, oo) -> R, any pair w*, z* in R^d; "
    "u = (x - t)/||x - t||, z_L = t + ||z* - t|| u and w_L = t + ||w* - t|| u (on the ray from t through x, the "
    "same side of t as x): ||z_L - t|| = ||z* - t||, ||w_L - t|| = ||w* - t|| (so f(z_L) = f(z*), f(w_L) = f(w*)), "
    "||w_L - z_L|| = | ||w* - t|| - ||z* - t|| | <= ||w* - z*||, ||z_L - x|| = | ||z* - t|| - ||x - t|| | <= "
    "||z* - x||; " + _GEO_OBJECTIVE + " (a pair with ||w_L - z_L|| = 0 has f(w*) = f(z*), objective 0)"),
    witnesses=("dist2_wz", "dist2_zx", "quotient_gap"), printed_forms=_l45_printed, steps=_l45_steps,
    balls=_l45_balls,
    relies_on=_geo_relies("Cauchy-Schwarz <a, b> <= ||a|| ||b|| (so, with the identity checked, | ||a|| - ||b|| | <= "
                          "||a - b||: the reverse triangle inequality, any d)", " of the squared norms",
                          "||w_L - z_L||"))


# ---- 004 Lemma 4.8: the projection reduction for f(x) = f0(beta0 + <beta, x>) -------------------------
_L48 = {"nb": sp.Symbol("n_beta", positive=True)}
_L48.update({k: sp.Symbol(k, real=True) for k in ("p_x", "p_z", "p_w")})  # <beta, x>, <beta, z*>, <beta, w*>


def _l48_cz_a() -> tuple[sp.Expr, sp.Expr]:
    """c = <z* - x, beta>/||beta||, a = <w* - z*, beta>/||beta|| (004 App. A.5)."""
    nb, px, pz, pw = (_L48[k] for k in ("nb", "p_x", "p_z", "p_w"))
    return (pz - px) / nb, (pw - pz) / nb


def _l48_printed() -> dict[str, sp.Expr]:
    """z_c = x + zc beta, w_a = z_c + wa beta: zc = c/||beta||, wa = a/||beta|| (c beta/||beta||, a beta/||beta||)."""
    c, a = _l48_cz_a()
    return {"zc": c / _L48["nb"], "wa": a / _L48["nb"]}


def _l48_gram() -> dict[tuple[str, str], sp.Expr]:
    nb, px, pz, pw = (_L48[k] for k in ("nb", "p_x", "p_z", "p_w"))
    g = {("b", "b"): nb**2, ("b", "x"): px, ("b", "z"): pz, ("b", "w"): pw}
    for i, j in (("x", "x"), ("z", "z"), ("w", "w"), ("x", "z"), ("x", "w"), ("z", "w")):
        g[(i, j)] = sp.Symbol(f"g_{i}{j}", real=True)  # the other Gram entries: free
    return g


def _l48_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    nb, px, pz, pw = (_L48[k] for k in ("nb", "p_x", "p_z", "p_w"))
    c, a = _l48_cz_a()
    G = _l48_gram()
    B, X, Z, W = {"b": 1}, {"x": 1}, {"z": 1}, {"w": 1}
    zc = _geo_comb((1, X), (pr["zc"], B))
    wa = _geo_comb((1, zc), (pr["wa"], B))
    d_wz, d_zx = _geo_comb((1, wa), (-1, zc)), _geo_comb((1, zc), (-1, X))
    steps = [
        ("<beta, z_c> = <beta, z*>, so f(z_c) = f0(beta0 + <beta, z*>) = f(z*)", "zero", _geo_inner(B, zc, G) - pz),
        ("<beta, w_a> = <beta, w*>, so f(w_a) = f(w*)", "zero", _geo_inner(B, wa, G) - pw),
        ("||w_a - z_c||^2 = a^2, a = <w* - z*, beta/||beta||>", "zero", _geo_inner(d_wz, d_wz, G) - a**2),
        ("||z_c - x||^2 = c^2, c = <z* - x, beta/||beta||>", "zero", _geo_inner(d_zx, d_zx, G) - c**2),
        ("the witness ||w_a - z_c||^2 (in a = <w* - z*, beta>/||beta||) is the definition's", "zero",
         w["dist2_wa_zc"].subs(sp.Symbol("a", real=True), a) - _geo_inner(d_wz, d_wz, G)),
        ("the witness ||z_c - x||^2 (in c = <z* - x, beta>/||beta||) is the definition's", "zero",
         w["dist2_zc_x"].subs(sp.Symbol("c", real=True), c) - _geo_inner(d_zx, d_zx, G)),
    ]
    for name, v, s in (("w* - z*", _geo_comb((1, W), (-1, Z)), a), ("z* - x", _geo_comb((1, Z), (-1, X)), c)):
        resid = _geo_comb((1, v), (-s / nb, B))  # v - <v, beta_hat> beta_hat
        steps.append((f"Cauchy-Schwarz by projection: ||{name}||^2 - <{name}, beta/||beta||>^2 = ||residual||^2 (a "
                      "squared norm, >= 0)", "zero", _geo_inner(v, v, G) - s**2 - _geo_inner(resid, resid, G)))
    return steps + _geo_common_steps(w)


_L48_POINTS = [  # (beta, x, w*, z*), ||beta|| != 1, generic (strict inequalities)
    ((_q("3/5"), _q("-6/5")), (_q("11/10"), _q("-2/5")), (2, 1), (-1, _q("1/2"))),
    ((1, 2), (0, 0), (_q("-3/2"), 2), (1, -1)),
    ((2, -1, _q("1/2")), (1, 0, -1), (0, 2, 1), (_q("1/3"), -1, 2)),
    ((1, 1, 1, -2), (0, 1, 0, 1), (2, 0, -1, 1), (-1, 1, 1, 0)),
]


def _l48_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    """At rational beta, x, w*, z* in R^2, R^3, R^4: z_c, w_a from the printed coefficients in arb; the
    arguments beta0 + <beta, .> (equal: f values equal for every f0), the two inequalities, and the objective
    (f0 = atan, beta0 = 3/10, g_E with gamma = 1/2, Lambda = inf)."""
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    nb, px, pz, pw = (_L48[k] for k in ("nb", "p_x", "p_z", "p_w"))
    c, a = _l48_cz_a()
    out = []
    with workprec(PREC):
        gam, b0 = arb_eval(sp.Rational(1, 2), {}), arb_eval(sp.Rational(3, 10), {})

        def dot(p: Sequence[Any], q: Sequence[Any]) -> Any:
            tot = arb_eval(sp.Integer(0), {})
            for s, r in zip(p, q, strict=True):
                tot += s * r
            return tot

        for pt in _L48_POINTS:
            bv, xv, wv, zv = (_geo_vec(p) for p in pt)
            env = {nb: _geo_norm(bv), px: dot(bv, xv), pz: dot(bv, zv), pw: dot(bv, wv)}
            zc = _geo_axpy(arb_eval(pr["zc"], env), bv, xv)
            wa = _geo_axpy(arb_eval(pr["wa"], env), bv, zc)
            where = {"beta": pt[0], "x": pt[1], "w*": pt[2], "z*": pt[3]}
            out.append(_ball_agree("beta0 + <beta, z_c> = beta0 + <beta, z*>", b0 + dot(bv, zc), b0 + env[pz], where))
            out.append(_ball_agree("beta0 + <beta, w_a> = beta0 + <beta, w*>", b0 + dot(bv, wa), b0 + env[pw], where))
            dwz, dzx = _geo_norm(_geo_sub(wv, zv)), _geo_norm(_geo_sub(zv, xv))
            out.append(_geo_ineq("||w* - z*|| - ||w_a - z_c|| = ||w* - z*|| - |a| > 0",
                                 dwz - _geo_norm(_geo_sub(wa, zc)), dwz - abs(arb_eval(a, env)), where))
            out.append(_geo_ineq("||z* - x|| - ||z_c - x|| = ||z* - x|| - |c| > 0",
                                 dzx - _geo_norm(_geo_sub(zc, xv)), dzx - abs(arb_eval(c, env)), where))

            def obj(p: Sequence[Any], q: Sequence[Any], bv: Sequence[Any] = bv, xv: Sequence[Any] = xv) -> Any:
                return (abs((b0 + dot(bv, p)).atan() - (b0 + dot(bv, q)).atan())
                        / (_geo_norm(_geo_sub(p, q)) * (gam * _geo_norm(_geo_sub(q, xv))).exp()))

            o_star = obj(wv, zv)
            o_1d = (abs((b0 + env[pw]).atan() - (b0 + env[pz]).atan())
                    / (abs(arb_eval(a, env)) * (gam * abs(arb_eval(c, env))).exp()))
            out.append(_geo_ineq("objective(w_a, z_c) - objective(w*, z*) (f0 = atan, g_E, gamma = 1/2) > 0",
                                 obj(wa, zc) - o_star, o_1d - o_star, where))
    return out


_spec(claim="004-Lemma-4.8", domain=(
    "all d >= 1, beta in R^d with beta != 0, beta0 real, f(y) = f0(beta0 + <beta, y>) for any f0: R -> R, all x, "
    "w*, z* in R^d; c = <z* - x, beta>/||beta||, a = <w* - z*, beta>/||beta||, z_c = x + c beta/||beta||, w_a = z_c "
    "+ a beta/||beta||: f(z_c) = f(z*), f(w_a) = f(w*), ||w_a - z_c|| = |a| <= ||w* - z*||, ||z_c - x|| = |c| <= "
    "||z* - x||; " + _GEO_OBJECTIVE + ", and B*(x) is a sup over the line x + R beta (pairs with a = 0 have f(w*) "
    "= f(z*), objective 0)"),
    witnesses=("dist2_wa_zc", "dist2_zc_x", "quotient_gap"), printed_forms=_l48_printed, steps=_l48_steps,
    balls=_l48_balls,
    relies_on=_geo_relies("Cauchy-Schwarz |<v, beta/||beta||>| <= ||v|| (checked here as ||v||^2 - <v, beta_hat>^2 = "
                          "||v - <v, beta_hat> beta_hat||^2 >= 0: a squared norm is >= 0)",
                          "; every Gram entry not fixed by the statement is a free symbol", "||w_a - z_c||"))


# ---- 004 Sec. 4.1.1: flip probabilities and the MSE of the noisy count (Z ~ Lap(1/eps)) ----------------
_MSE = {"eps": sp.Symbol("epsilon", positive=True), "a": sp.Symbol("a", nonnegative=True),
        "b": sp.Symbol("b", positive=True), "n": sp.Symbol("n", positive=True)}
_MSE_ZP, _MSE_ZN = sp.Symbol("z", positive=True), sp.Symbol("z", negative=True)
#: the enumeration covers n = 1..MSE_N_MAX users, every assignment of the users to I0 / I1
MSE_N_MAX = 4


def _mse_density(z: sp.Expr) -> sp.Expr:
    """Lap(1/eps): (eps/2) e^{-eps |z|}."""
    return _MSE["eps"] / 2 * sp.exp(-_MSE["eps"] * sp.Abs(z))


def _mse_printed() -> dict[str, sp.Expr]:
    """p(a) = (1/2) e^{-eps a} (a = |x - T|); E[(A~ - A)^2] = diag sum_i e_i + pair sum_{i != j} sign e_i e_j,
    e_i = e^{-eps|x_i - T|}, sign = +1 on I00 u I11 and -1 on I01 u I10."""
    eps, a, n = _MSE["eps"], _MSE["a"], _MSE["n"]
    return {"p_flip": sp.exp(-eps * a) / 2, "diag": 1 / (2 * n**2), "pair": 1 / (4 * n**2),
            "sign_same": sp.Integer(1), "sign_diff": sp.Integer(-1)}


def _mse_pvars(n: int) -> tuple[list[sp.Symbol], list[sp.Symbol]]:
    return ([sp.Symbol(f"p{i}", nonnegative=True) for i in range(1, n + 1)],
            [sp.Symbol(f"s{i}", real=True) for i in range(1, n + 1)])


def _mse_enumerated(n: int, sides: Sequence[int]) -> sp.Expr:
    """E[(sum_i D_i)^2] by enumeration of the 2^n flip patterns: user i flips with probability p_i
    independently; a flip adds +1 (i in I0: x_i <= T, side 0) or -1 (i in I1, side 1)."""
    p, _ = _mse_pvars(n)
    tot = sp.Integer(0)
    for flips in itertools.product((0, 1), repeat=n):
        prob, s = sp.Integer(1), 0
        for f, pi, side in zip(flips, p, sides, strict=True):
            prob *= pi if f else 1 - pi
            s += (1 if side == 0 else -1) * f
        tot += prob * s**2
    return sp.expand(tot)


def _mse_printed_sum(n: int, sides: Sequence[int], pr: Mapping[str, sp.Expr], e: Sequence[sp.Expr]) -> sp.Expr:
    """n^2 E[(A~ - A)^2] as printed, with e_i given (ordered pairs i != j)."""
    nn = {_MSE["n"]: n}
    tot = pr["diag"].subs(nn) * sum(e)
    for i in range(n):
        for j in range(n):
            if i != j:
                tot += (pr["sign_same"] if sides[i] == sides[j] else pr["sign_diff"]) * pr["pair"].subs(nn) * e[i] * e[j]
    return n**2 * tot


def _mse_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    eps, a, b, n = _MSE["eps"], _MSE["a"], _MSE["b"], _MSE["n"]
    zp, zn = _MSE_ZP, _MSE_ZN
    Gu, Gl = w["G_upper"], w["G_lower"]
    pa, pb = pr["p_flip"], pr["p_flip"].subs(a, b)
    steps: list[tuple[Any, ...]] = [
        ("G_upper is an antiderivative of the Laplace density on z > 0", "antiderivative", Gu, _mse_density(zp), zp),
        ("G_upper -> 0 at +oo", "limit", Gu, zp, sp.oo, "-", sp.Integer(0)),
        ("G_lower is an antiderivative of the Laplace density on z < 0", "antiderivative", Gl, _mse_density(zn), zn),
        ("G_lower -> 0 at -oo", "limit", Gl, zn, -sp.oo, "+", sp.Integer(0)),
        ("the density has mass 1: (0 - G_upper(0)) + (G_lower(0) - 0) = 1", "zero",
         -Gu.subs(zp, 0) + Gl.subs(zn, 0) - 1),
        ("x <= T, a = T - x = |x - T| >= 0: Pr[Z > a] = 0 - G_upper(a) = the printed (1/2) e^{-eps|x - T|}", "zero",
         -Gu.subs(zp, a) - pa),
        ("x > T, b = x - T = |x - T| > 0: Pr[Z <= -b] = G_lower(-b) - 0 = the printed (1/2) e^{-eps|x - T|}", "zero",
         Gl.subs(zn, -b) - pb),
    ]
    s, p = sp.Symbol("s", real=True), sp.Symbol("p", nonnegative=True)
    for sv, where in ((1, "x <= T (a flip adds +1)"), (-1, "x > T (a flip adds -1)")):
        steps.append((f"E|y~ - y|^2 = p s^2 + (1 - p) 0^2 = p(flip) for {where}", "zero",
                      (p * s**2 + (1 - p) * 0).subs(s, sv) - p))
    # the general n: E[(sum D_i)^2] = sum E[D_i^2] + sum_{i != j} E[D_i] E[D_j] (relies_on), E[D_i^2] = p_i,
    # E[D_i] = s_i p_i; the printed terms: diag e_i = p_i/n^2, sign pair e_i e_j = s_i s_j p_i p_j/n^2
    ai, aj = sp.Symbol("a_i", nonnegative=True), sp.Symbol("a_j", nonnegative=True)
    pi_, pj_ = pr["p_flip"].subs(a, ai), pr["p_flip"].subs(a, aj)
    steps.append(("diagonal term: E[D_i^2]/n^2 = p_i/n^2 = the printed 1/(2n^2) e^{-eps|x_i - T|}", "zero",
                  pi_ / n**2 - pr["diag"] * sp.exp(-eps * ai)))
    for si, sj in itertools.product((1, -1), repeat=2):
        sign = pr["sign_same"] if si == sj else pr["sign_diff"]
        steps.append((f"pair term, s_i = {si}, s_j = {sj}: E[D_i] E[D_j]/n^2 = s_i s_j p_i p_j/n^2 = the printed "
                      f"{'+' if si == sj else '-'}(1/4n^2) e^{{-eps(|x_i - T| + |x_j - T|)}}", "zero",
                      si * sj * pi_ * pj_ / n**2 - sign * pr["pair"] * sp.exp(-eps * (ai + aj))))
    pw3, sw3 = _mse_pvars(3)
    for n_users in range(1, MSE_N_MAX + 1):
        pv, _ = _mse_pvars(n_users)
        for sides in itertools.product((0, 1), repeat=n_users):
            en = _mse_enumerated(n_users, sides)
            # the printed formula in e_i = 2 p_i (p_i = (1/2) e_i: the probability step above)
            steps.append((f"n = {n_users}, sides {''.join(map(str, sides))}: E[(sum D_i)^2] by enumeration of the "
                          f"{2 ** n_users} flip patterns = n^2 times the printed E[(A~ - A)^2]", "zero",
                          en - _mse_printed_sum(n_users, sides, pr, [2 * q for q in pv])))
            if n_users == 3:
                steps.append((f"the witness E[(sum D_i)^2] (n = 3, s_i = +-1) at sides {''.join(map(str, sides))}",
                              "zero", w["mse_n3"].subs({q: (1 if sd == 0 else -1) for q, sd in zip(sw3, sides, strict=True)}) - en))
    return steps


_MSE_POINTS = [  # (eps, T, x_1..x_n): x_i = T included (I0)
    (1, _q("7/10"), (-3, _q("7/10"), _q("5/2"))),
    (_q("1/10"), 0, (1, -2, _q("1/2"), 0)),
    (4, _q("1/3"), (0, 1)),
]


def _mse_flip_ball(eps: Any, a: Any, upper: bool) -> Any:
    """Pr[Z > a] (upper) or Pr[Z <= -a] as int of the density (acb.integral over [a, A], the mirror image for
    the lower tail) plus the tail mass beyond A in the ball [0, (1/2) e^{-eps A}] (eps A >= 120)."""
    import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

    z = sp.Symbol("z_int", real=True)
    A = a + 120 / eps
    dens = _mse_density(z) if upper else _mse_density(-z)  # the mirror: Pr[Z <= -a] = int_a^oo dens(-z) dz
    e_sym = _MSE["eps"]
    body = sp.cancel(dens.subs(sp.Abs(z), z).subs(e_sym, e_sym))

    def g(x: Any, analytic: bool) -> Any:
        return arb_eval(body, {z: x, e_sym: flint.acb(eps)}, kind="acb")

    head = flint.acb.integral(g, flint.acb(a), flint.acb(A)).real
    tail = flint.arb(0).union((-eps * A).exp() / 2)
    return head + tail


def _mse_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    """At rational (eps, T, x_i): each flip probability by integration of the Laplace density against the
    printed p, and E[(A~ - A)^2] by enumeration of the flip patterns (those probabilities) against the
    printed formula."""
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    out = []
    with workprec(PREC):
        for eps, T, xs in _MSE_POINTS:
            ev, Tv = arb_eval(sp.Rational(eps), {}), sp.Rational(T)
            n = len(xs)
            sides = [0 if sp.Rational(x) <= Tv else 1 for x in xs]
            dist = [abs(sp.Rational(x) - Tv) for x in xs]
            where = {"eps": eps, "T": T, "x": xs}
            probs = []
            for d, side in zip(dist, sides, strict=True):
                pdef = _mse_flip_ball(ev, arb_eval(d, {}), upper=(side == 0))
                probs.append(pdef)
                out.append(_ball_agree(f"Pr[flip] at |x - T| = {d} ({'x <= T' if side == 0 else 'x > T'}) = printed p",
                                       pdef, arb_eval(pr["p_flip"], {_MSE["eps"]: ev, _MSE["a"]: arb_eval(d, {})}), where))
            mse = arb_eval(sp.Integer(0), {})
            for flips in itertools.product((0, 1), repeat=n):
                prob = arb_eval(sp.Integer(1), {})
                tot = 0
                for f, q, side in zip(flips, probs, sides, strict=True):
                    prob *= q if f else 1 - q
                    tot += (1 if side == 0 else -1) * f
                mse += prob * arb_eval(sp.Rational(tot, n), {}) ** 2
            e = [arb_eval(sp.exp(-_MSE["eps"] * d), {_MSE["eps"]: ev}) for d in dist]
            printed = arb_eval(pr["diag"], {_MSE["n"]: arb_eval(sp.Integer(n), {})}) * sum(e[1:], e[0])
            pair = arb_eval(pr["pair"], {_MSE["n"]: arb_eval(sp.Integer(n), {})})
            for i in range(n):
                for j in range(n):
                    if i != j:
                        sg = arb_eval(pr["sign_same"] if sides[i] == sides[j] else pr["sign_diff"], {})
                        printed += sg * pair * e[i] * e[j]
            out.append(_ball_agree("E[(A~ - A)^2] by enumeration (integrated probabilities) = printed", mse, printed,
                                   where))
    return out


_spec(claim="004-Sec-4.1.1-mse", domain=(
    "every eps > 0, threshold T and inputs x_i real, n >= 1 users (x_i = T in I0); y_i = 1{x_i > T}, y~_i = "
    "1{x_i + Z_i > T} with Z_i ~ Lap(1/eps) (density (eps/2) e^{-eps|z|}) independent, A = (1/n) sum y_i, A~ = "
    "(1/n) sum y~_i: Pr[y~_i - y_i = 1 | x_i <= T] = Pr[y~_i - y_i = -1 | x_i > T] = (1/2) e^{-eps|x_i - T|} = "
    "E|y~_i - y_i|^2, and E[(A~ - A)^2] = 1/(2n^2) sum_i e^{-eps|x_i - T|} + 1/n^2 sum_{I00 u I11, i != j} (1/4) "
    "e^{-eps(|x_i - T| + |x_j - T|)} - 1/n^2 sum_{I01 u I10, i != j} (1/4) e^{-eps(|x_i - T| + |x_j - T|)} "
    "(ordered pairs); the expansion for every n from the per-term identities, and by enumeration of all flip "
    f"patterns and side assignments for n = 1..{MSE_N_MAX}"),
    witnesses=("G_upper", "G_lower", "mse_n3"), printed_forms=_mse_printed, steps=_mse_steps, balls=_mse_balls,
    relies_on=("Pr[Z in [u, oo)] = lim G - G(u) for an antiderivative G of the density (fundamental theorem of "
               "calculus, improper integral as a limit)",
               "(sum_i D_i)^2 = sum_i D_i^2 + sum_{i != j} D_i D_j, linearity of expectation, and E[D_i D_j] = "
               "E[D_i] E[D_j] for independent D_i, D_j (i != j): users' noises are independent",
               "D_i = n(A~ - A)'s i-th term = s_i F_i with F_i ~ Bernoulli(p_i), s_i = +1 (x_i <= T) or -1 (x_i > T): "
               "y~_i - y_i is 0 unless the noise flips the side, and a flip changes y_i by s_i"))


# ==== H11 (session 15): 002 Lemma 9 and 000 Lemma 2 as chains (verify.claims.sets.proofs_privacy_more) ====
#: the excess symbols of this block: alpha = 1 + b (002), k = 1 + b (000); r, w, p, q >= 0 offsets
_H11_R, _H11_W = sp.Symbol("r", nonnegative=True), sp.Symbol("w", nonnegative=True)
_H11_P, _H11_Q = sp.Symbol("p_off", nonnegative=True), sp.Symbol("q_off", nonnegative=True)
_H11_PP = sp.Symbol("p_pos", positive=True)
_H11_U = sp.Symbol("u", nonnegative=True)
_H11_T = sp.Symbol("t", positive=True)
_H11_LR, _H11_LS, _H11_X0 = sp.Symbol("lambda_r", real=True), sp.Symbol("lambda_s", real=True), sp.Symbol("x0", real=True)
_H11_FTC = ("the fundamental theorem of calculus for a continuous function of t in [0, 1] that is C^1 but at finitely "
            "many t: |l(1) - l(0)| <= sup |l'| (the log-density is C^1 off x - c(t) = 0 and off the breakpoint |x - "
            "c(t)| = s(t)/alpha; x - c(t) is affine and s(t) = e^(lambda_r gamma t)/gamma strictly convex or constant, so "
            "each meets the line at most twice unless lambda_r = lambda_s = 0, where l is constant)")
_H11_TRI = ("the triangle inequality and |A| a + |B| b <= (|A| + |B|) max(a, b) for a, b >= 0; exp and ln are "
            "increasing; |lambda_r| <= 1 is SS(D')/SS(D) in [e^-gamma, e^gamma] (Def. 8 with g_E at distance 1), and "
            "|q(D) - q(D')| <= min(SS(D), SS(D')) gives |lambda_s| <= min(1, e^(lambda_r gamma)) (002 Thm. 8's "
            "hypotheses, the bound on lambda_s as corrected in claim 002-Lemma-9-proof-bound)")


def _l9c_printed() -> dict[str, sp.Expr]:
    return {"alpha": EPS_ / GAMMA}


def _l9c_branches(alpha: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    return tuple(f.subs(AL, alpha) for f in _pp_density(_pp_printed()["N"].subs(AL, alpha)))


def _l9c_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    s, x, g, eps, t = S_, X_, GAMMA, EPS_, _H11_T
    lr, ls, x0, r, wv = _H11_LR, _H11_LS, _H11_X0, _H11_R, _H11_W
    a = 1 + B_  # alpha > 1
    out: list[tuple[Any, ...]] = [
        ("0 < gamma < eps gives alpha = eps/gamma > 1 (gamma = eps/(1 + b), b > 0)", "positive",
         pr["alpha"].subs(GAMMA, eps / (1 + B_)) - 1),
        ("the rate: gamma alpha = eps", "zero", g * pr["alpha"] - eps),
    ]
    st, yt = sp.exp(lr * g * t) / g, x0 + t * ls  # scale SS(t)/gamma (SS(D) = 1 by eq. (2)), x - c(t)
    for br, f in zip(("1", "2"), _l9c_branches(a), strict=True):
        h = sp.expand_log(sp.log(f), force=True)  # every factor is positive on the branch
        hx, hs = sp.diff(h, x), sp.diff(h, s)
        lt = h.subs({s: st, x: yt})
        out.append((f"branch {br}: chain rule dl/dt = (d_x ln f) lambda_s + (d_s ln f) lambda_r gamma s(t) "
                    f"(x - c(t) = x0 + t lambda_s, s(t) = e^(lambda_r gamma t)/gamma)", "zero",
                    sp.diff(lt, t) - (hx * ls + hs * lr * g * st).subs({s: st, x: yt})))
    f1, f2 = _l9c_branches(a)
    out += [
        ("f is continuous at the breakpoint x = s/alpha (002 Lemma 11's continuity)", "zero",
         (f1 - f2).subs(x, s / a)),
        ("|lambda_s|/s(t) <= gamma, lambda_r = r >= 0: gamma |lambda_s| e^(-r gamma t) with |lambda_s| <= 1 and "
         "-r gamma t <= 0", "nonneg", r * g * t),
        ("lambda_r = -r < 0: |lambda_s| e^(r gamma t) <= e^(-r gamma) e^(r gamma t) = e^(-r gamma (1 - t))", "zero",
         (-r * g + r * g * t) - (-r * g * (1 - t))),
        ("... and -r gamma (1 - t) <= 0 (1 - t = w >= 0)", "nonneg", r * g * wv),
        ("|lambda_r| gamma s(t) / s(t) = |lambda_r| gamma <= gamma (|lambda_r| = 1 - w, w in [0, 1])", "nonneg",
         g - (1 - wv) * g + 0 * wv),
        ("|dl/dt| <= gamma (s |d_x ln f| + s |d_s ln f|) = gamma s (alpha/s) (002-Lemma-12) = eps", "zero",
         g * s * (pr["alpha"] / s) - eps),
    ]
    # tightness: SS(D') = e^gamma SS(D), q(D') = q(D): the log-ratio tends to gamma alpha as x -> oo (branch 2)
    tail = sp.expand_log(sp.log(f2.subs(s, sp.exp(g)) / f2.subs(s, 1)), force=True)
    out += [
        ("tightness: SS(D') = e^gamma SS(D), q(D') = q(D): ln f_{SS(D')}(x)/f_{SS(D)}(x) -> the witness as x -> oo",
         "limit", tail, x, sp.oo, "-", w["tail_limit"]),
        ("the witness limit is gamma alpha = eps (so sup = e^eps, approached as x -> oo)", "zero",
         w["tail_limit"] - g * a),
    ]
    return out


def _l9c_logratio(alpha: Any, g: Any, lr: Any, ls: sp.Rational, x: sp.Rational) -> Any:
    """ln f_{SS(D')/gamma, alpha}(x - q(D')) - ln f_{SS(D)/gamma, alpha}(x - q(D)), SS(D) = 1, q(D) = 0,
    SS(D') = e^(lr gamma), q(D') = -ls, on arb balls from 002 Def. 6 (x, ls rational; the branch by |y| alpha < s)."""
    f1, f2 = _l9c_branches(AL)

    def logf(s: Any, y: sp.Rational) -> Any:
        yb = arb_eval(abs(y), {})
        return arb_eval(sp.log(f1 if yb * alpha < s else f2), {AL: alpha, S_: s, X_: yb})

    return logf((lr * g).exp() / g, x + ls) - logf(1 / g, x)


def _l9c_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    out = []
    with workprec(PREC):
        # (eps, gamma, lambda_r, lambda_s, x): two generic neighbour pairs and the far tail of the tight pair
        for e, g, lr, ls, x in ((1, _q("1/2"), _q("-1"), _q("1/3"), _q("1/5")), (1, _q("49/50"), _q("1/2"), _q("-1"), 3),
                                (5, 1, 1, 0, 10**12), (1, _q("1/20"), 1, 0, 10**12)):
            env = _env({EPS_: e, GAMMA: g})
            alpha = arb_eval(pr["alpha"], env)
            loss = _l9c_logratio(alpha, env[GAMMA], arb_eval(sp.Rational(lr), {}), sp.Rational(ls), sp.Rational(x))
            slack = env[EPS_] - loss
            rec = {"name": "eps - ln(f_{D'}(x)/f_D(x)) > 0 (002 Def. 6 on balls)",
                   "point": {"eps": str(e), "gamma": str(g), "lambda_r": str(lr), "lambda_s": str(ls), "x": str(x)},
                   "definition": slack.str(30), "printed": "> 0", "ok": bool(slack > 0),
                   "certified_negative": bool(slack < 0)}
            out.append(rec)
    return out


_spec(claim="002-Lemma-9-chain", domain="0 < gamma < eps real (alpha = eps/gamma > 1); SS(D) = 1 by eq. (2) "
      "(002-Lemma-9-eq-2), SS(D') = e^(lambda_r gamma) with |lambda_r| <= 1, q(D) - q(D') = lambda_s with |lambda_s| <= "
      "min(1, e^(lambda_r gamma)); x real (x - c(t) = 0 and the breakpoint at finitely many t); the rate |psi| + |1 + z "
      "psi| = alpha is 002-Lemma-12", witnesses=("tail_limit",), printed_forms=_l9c_printed, steps=_l9c_steps,
      balls=_l9c_balls, relies_on=(_H11_FTC, _H11_TRI))


def _l2c_printed() -> dict[str, sp.Expr]:
    k, l, eps, m = K_, L_, EPS_, M_
    return {"alpha": l ** (1 / k) * eps / (2 * (k - 1) ** ((k - 1) / k)),
            "beta": eps / m / (2 * sp.Max(k - 1, 1))}


def _l2c_Q(z: sp.Expr, lam: sp.Expr) -> sp.Expr:
    """ln(h(z)/(e^lam h(e^lam z))) for h = 1/(C (z^k + l)), z >= 0 (000 Thm. 1's dilation form)."""
    k, l = K_, L_
    return -lam + sp.log((sp.exp(lam * k) * z**k + l) / (z**k + l))


def _l2c_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    k, l, eps, m, z = K_, L_, EPS_, M_, Z_
    r, u, p, q, pp = _H11_R, _H11_U, _H11_P, _H11_Q, _H11_PP
    on = {k: 1 + B_}
    Lsup = l ** (-1 / k) * (k - 1) ** ((k - 1) / k)  # sup_z d/dz ln(z^k + l)
    Cs = sp.Symbol("C", positive=True)
    h = lambda v: 1 / (Cs * (v**k + l))  # noqa: E731
    lam = sp.Symbol("lambda_", real=True)
    out: list[tuple[Any, ...]] = [("the witness z* is ((k-1) l)^(1/k)'s unit-l form (k-1)^(1/k)", "zero",
                                   (w["zstar"] - (k - 1) ** (1 / k)).subs(on))]
    out += _claim34_steps(1 + B_, (w["zstar"]).subs(on), ((k - 1) ** ((k - 1) / k)).subs(on), tag="ln(1 + z^k)")
    out += [
        ("scaling: d/dz ln(z^k + l) = l^(-1/k) [d/du ln(1 + u^k)] at u = z l^(-1/k), so sup = L = l^(-1/k) "
         "(k-1)^((k-1)/k), and d/dz ln(z^k + l) >= 0", "zero",
         (sp.diff(sp.log(z**k + l), z) - l ** (-1 / k) * sp.diff(sp.log(1 + z**k), z).subs(z, z * l ** (-1 / k))).subs(on)),
        ("sliding: L alpha = eps/2 (a shift by Delta of the scaled noise costs <= L |Delta|/N = (eps/2) |Delta|/S)",
         "zero", (Lsup * pr["alpha"] - eps / 2).subs(on)),
        ("dilation, lambda = r >= 0: e^(lambda k)(z^k + l) - (e^(lambda k) z^k + l) = l (e^(lambda k) - 1)", "zero",
         sp.exp(r * k) * (z**k + l) - (sp.exp(r * k) * z**k + l) - l * (sp.exp(r * k) - 1)),
        ("... with lambda k >= 0 (so e^(lambda k) >= 1): Q(z, lambda) <= lambda (k - 1)", "nonneg", r * k),
        ("... Q(z, r) = lambda (k-1) - ln(e^(r k)(z^k + l)/(e^(r k) z^k + l))", "zero",
         sp.expand_log(_l2c_Q(z, r) - (r * (k - 1) - sp.log(sp.exp(r * k) * (z**k + l) / (sp.exp(r * k) * z**k + l))),
                       force=True)),
        ("dilation, lambda = -r < 0: (z^k + l) - (e^(-r k) z^k + l) = z^k (1 - e^(-r k)), -r k <= 0: Q(z, -r) <= r",
         "zero", (z**k + l) - (sp.exp(-r * k) * z**k + l) - z**k * (1 - sp.exp(-r * k))),
        ("... Q(z, -r) = r + ln((e^(-r k) z^k + l)/(z^k + l))", "zero",
         sp.expand_log(_l2c_Q(z, -r) - (r + sp.log((sp.exp(-r * k) * z**k + l) / (z**k + l))), force=True)),
        ("the dilation term of the decomposition is Q(e^lambda w, -lambda): ln(e^lambda h(e^lambda w)/h(w))", "zero",
         sp.expand_log(_l2c_Q(sp.exp(lam) * z, -lam) - sp.log(sp.exp(lam) * h(sp.exp(lam) * z) / h(z)), force=True)),
        ("k = 1 + 1/(1+u) covers (1, 2]: max(k - 1, 1) = 1 (1 - (k - 1) >= 0)", "nonneg", 1 - 1 / (1 + u)),
        ("k in (1, 2]: beta max(k - 1, 1) <= eps/(2m)", "nonneg",
         (eps / (2 * m) - pr["beta"].subs(sp.Max(k - 1, 1), 1) * 1).subs(k, 1 + 1 / (1 + u))),
        ("k = 2 + u covers [2, oo): max(k - 1, 1) = k - 1", "nonneg", (k - 2).subs(k, 2 + u)),
        ("k >= 2: beta max(k - 1, 1) <= eps/(2m)", "nonneg",
         (eps / (2 * m) - pr["beta"].subs(sp.Max(k - 1, 1), k - 1) * (k - 1)).subs(k, 2 + u)),
    ]
    # the sliding excess e = |T - b| - |T - a| (a = f(x)_i, b = f(y)_i) in every order of T, a, b: e <= |a - b| on
    # the side of b facing a (T < b if a <= b, T >= b if a > b) and e <= 0 on the other side
    T0 = sp.Symbol("T", real=True)
    orders = (  # (name, a, b, bound on e)
        ("T < a <= b", T0 + pp, T0 + pp + q, q), ("a <= T < b", T0 - p, T0 + pp, pp + p),
        ("a <= b <= T", T0 - p - q, T0 - p, 0), ("T < b < a", T0 + pp + q + pp, T0 + pp, 0),
        ("b <= T < a", T0 + pp, T0 - p, pp + p), ("b < a <= T", T0 - p, T0 - p - pp, pp),
    )
    for name, a, b, bnd in orders:
        e = sp.Abs(T0 - b) - sp.Abs(T0 - a)
        out.append((f"sliding excess, {name}: |T - b| - |T - a| <= {bnd}", "nonneg", sp.expand(bnd - e)))
        out.append((f"... {name}: the bound is |a - b| on the facing side, else 0", "zero",
                    bnd - (sp.Abs(a - b) if bnd != 0 else 0)))
    g = sp.Function("g")
    zx, zy, Nx, Ny = sp.symbols("z_x z_y N_x N_y", positive=True)
    out += [
        ("decomposition: ln p_x - ln p_y = [dilation at z_x] + [sliding at scale N_y]", "zero",
         (g(zx / Nx) - sp.log(Nx) - g(zy / Ny) + sp.log(Ny))
         - ((g(zx / Nx) - sp.log(Nx) - g(zx / Ny) + sp.log(Ny)) + (g(zx / Ny) - g(zy / Ny)))),
        ("direction j with the smallest S^(j d_j)(y): (f(x)_j - f(y)_j signed toward d_j) + sum_(l != j) |.| = sum_l "
         "|f(x)_l - f(y)_l| <= LS^(j d_j)(y) <= S^(j d_j)(y)", "zero",
         (pp + sp.Symbol("R", nonnegative=True)) - (sp.Abs(pp) + sp.Symbol("R", nonnegative=True))),
        ("the total: m eps/(2m) + (eps/2) sum_i |f(x)_i - f(y)_i|/S^(i d_i)(y) <= m eps/(2m) + eps/2 = eps", "zero",
         m * eps / (2 * m) + eps / 2 - eps),
    ]
    return out


def _l2c_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    """At rational (k, l, eps, m): the sliding sup d/dz ln(z^k + l) at ((k-1) l)^(1/k) equals eps/(2 alpha); and the
    mechanism's loss (000 Lemma 2's output density) at T = f(x) = f(y), S^(i+-)(y) = e^beta S^(i+-)(x), all m
    coordinates (the dilation witness z = 0) is <= eps."""
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    k, l, eps, m, z = K_, L_, EPS_, M_, Z_
    out = []
    with workprec(PREC):
        for kv, lv, ev, mv in ((2, 1, 1, 3), (3, _q("1/2"), _q("3/2"), 2), (_q("3/2"), 2, 1, 1), (4, _q("5/4"), 2, 5)):
            pt = {k: kv, l: lv, eps: ev, m: mv}
            env = _env(pt)
            zs = ((env[k] - 1) * env[l]) ** (1 / env[k])
            slide = arb_eval(sp.diff(sp.log(z**k + l), z), {**env, z: zs})
            out.append(_ball_agree("sup d/dz ln(z^k + l) = eps/(2 alpha)", slide, env[eps] / (2 * arb_eval(pr["alpha"], env)),
                                   {s.name: v for s, v in pt.items()}))
            sl = env[eps] / 2 - slide * arb_eval(pr["alpha"], env)
            out.append({"name": "eps/2 - L alpha >= 0 (the sliding constant)", "point": {s.name: str(v) for s, v in pt.items()},
                        "definition": sl.str(30), "printed": ">= 0", "ok": bool(sl.is_finite() and not sl < 0 and
                                                                               sl.rad() < 10**-25),
                        "certified_negative": bool(sl < 0)})
            beta = arb_eval(pr["beta"], env)
            al = arb_eval(pr["alpha"], env)
            kern = lambda v, env=env: 1 / (v**env[k] + env[l])  # noqa: E731 - h up to its constant (it cancels)
            Nx, Ny = 1 / al, beta.exp() / al  # S(x) = 1, S(y) = e^beta: smooth and cross conditions hold
            loss = int(mv) * ((kern(arb_eval(sp.Integer(0), {})) / Nx).log() - (kern(arb_eval(sp.Integer(0), {})) / Ny).log())
            slack = env[eps] - loss
            out.append({"name": "eps - loss at T = f(x) = f(y), S(y) = e^beta S(x) (all coordinates) >= 0",
                        "point": {s.name: str(v) for s, v in pt.items()}, "definition": slack.str(30), "printed": ">= 0",
                        "ok": bool(not slack < 0), "certified_negative": bool(slack < 0)})
    return out


_spec(claim="000-Lemma-2-chain", domain="k > 1, l > 0, eps > 0 real, m >= 1 outputs; h(z) = 1/(C (|z|^k + l)), alpha = "
      "alpha(eps) = l^(1/k) eps/(2 (k-1)^((k-1)/k)), beta = beta(eps/m) = (eps/m)/(2 max(k - 1, 1)) (the corrected "
      "constant of 000 Thm. 1); S^(i+-) > 0 direction-oriented beta-smooth upper bounds with the cross condition; all x "
      "~ y (Hamming) and T in R^m", witnesses=("zstar",), printed_forms=_l2c_printed, steps=_l2c_steps, balls=_l2c_balls,
      relies_on=(
          "the output density of 000 Lemma 2's coordinate i: p_x(T_i) = h(|T_i - f(x)_i|/N^(i s)(x))/N^(i s)(x), s = + if "
          "T_i >= f(x)_i else -, N = S/alpha (the 1/2 and the factor 2 of h^(+-) cancel; h even; 000-Lemma-2-halves), and "
          "the coordinates are independent (000 Lemma 2 (2))",
          "the mean value theorem: g = ln h is even, decreasing in |z| with |g'| <= L (the sup steps), so g(u) - g(v) <= "
          "L max(0, v - u) for u, v >= 0; ln is increasing; exp is increasing",
          "|ln(N_y/N_x)| <= beta for the pair of scales met at each T (S^(i s)(x), S^(i t)(y)): smoothness for s = t, the "
          "cross condition for s != t (both directions: the neighbour relation is symmetric)",
          "the definition of LS^(is) (000 Lemma 2, Thm. 3): a maximum over the neighbours y' of y, so >= its value at y' = "
          "x; S^(is) >= LS^(is); sum_i w_i/D_i <= sum_i w_i/min_i D_i for w_i >= 0, D_i > 0",
          "every k > 1 is 1 + 1/(1+u) (k <= 2) or 2 + u (k >= 2) for some real u >= 0; max(a, 1) = 1 when a <= 1"))
# ==== end of H11 block ====


# ===================================================================================================
# H12 (session 15): 004 Lemma 3.6 (Laplace with g_L, approximate GP) as a chain
# (attached by verify.claims.sets.proofs_approx)
# ===================================================================================================
_H12_D, _H12_L, _H12_W, _H12_E = sp.symbols("d L w e", positive=True)  # distance, L = ln(1/delta), slacks, r - 1
_H12_DELTA = sp.Symbol("delta", positive=True)
_H12_A, _H12_DF = sp.symbols("A D", nonnegative=True)  # A = |y - f(x)|, D = |f(x) - f(x')|
_H12_B, _H12_BP, _H12_RHO = sp.symbols("b bp rho", positive=True)  # b = B(x)/eta, b' = B(x')/eta, rho = b/b'
_H12_Y, _H12_F, _H12_FP = sp.symbols("y f fp", real=True)
_H12_DOMAIN = ("every eta > 0, gamma > 0, 0 < delta < 1 (L = ln(1/delta) > 0), eps = eta + gamma ln(1/delta), every Lambda "
               "in (0, oo], every pair x, x' with 0 < d = dist(x, x') <= Lambda, B(x) <= (1 + gamma d) B(x'), B(x') <= "
               "(1 + gamma d) B(x), |f(x) - f(x')| <= min(B(x), B(x')) d: integral (p_x - e^(eps d) p_x')_+ dy <= delta, "
               "p_x the density of f(x) + (B(x)/eta) Z, Z ~ Lap(0, 1); metric any (Euclidean GP, Hamming DP)")
_H12_RELIES = (
    "the hockey-stick divergence is at most the privacy-loss tail: integral (p - e^E q)_+ = integral over {p > e^E q} of "
    "(p - e^E q) <= P_p(ln(p/q) > E) (0 <= p - e^E q <= p there)",
    "the triangle inequality |y - f(x')| <= |y - f(x)| + |f(x) - f(x')|; Y ~ P_x iff Z = (Y - f(x))/b ~ Lap(0, 1); "
    "Lap(0, 1) is symmetric, so P(|Z| in S) = 2 int_S e^(-z)/2 dz for S in [0, oo)",
    "ln x <= x - 1 for x > 0 (so ln(rL) - rL + 1 <= 0 and ln r/(r - 1) <= 1 for r > 1), and 1 - L <= e^(-L)",
    "the hypotheses: B >= L_{f,Lambda} gives |f(x) - f(x')| <= min(B(x), B(x')) d for d <= Lambda (the local Lipschitz "
    "constant at x and at x'); g_L-smoothness gives 1/(1 + gamma d) <= B(x)/B(x') <= 1 + gamma d; d > 0 (d = 0: x = x', "
    "divergence 0)",
    "a linear function of |Z| with a negative slope exceeds a level exactly on {|Z| < its root}; with a positive slope "
    "on {|Z| > its root}; a probability is >= 0 (P(|Z| < t) = 0 for t <= 0)")


def _h12_printed() -> dict[str, sp.Expr]:
    return {"eps": ETA + GAMMA * sp.log(1 / _H12_DELTA), "delta": _H12_DELTA}


def _h12_steps(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[tuple[Any, ...]]:
    eta, g, d, L, wv, e = ETA, GAMMA, _H12_D, _H12_L, _H12_W, _H12_E
    A, D, b, bp, rho, y, f, fp = _H12_A, _H12_DF, _H12_B, _H12_BP, _H12_RHO, _H12_Y, _H12_F, _H12_FP
    z = Z_
    u = g * d
    on_delta = {_H12_DELTA: sp.exp(-L)}
    F = w["tail_antiderivative"]
    p = sp.exp(-sp.Abs(y - f) / b) / (2 * b)
    q = sp.exp(-sp.Abs(y - fp) / bp) / (2 * bp)
    r = 1 + e  # case B: r = B(x')/B(x) in (1, 1 + gamma d]
    t = w["threshold"]
    tb = r * sp.log(r) / (r - 1) - r * L  # t at u = r - 1
    return [
        ("the Laplace log-ratio: ln p_x(y) - ln p_x'(y) = ln(b'/b) - |y - f|/b + |y - f'|/b'", "zero",
         sp.expand_log(sp.log(p / q), force=True)
         - sp.expand_log(sp.log(bp / b) - sp.Abs(y - f) / b + sp.Abs(y - fp) / bp, force=True)),
        ("triangle inequality, rho = b/b', A = |y - f| = b |Z|: the bound ln(b'/b) - A/b + (A + D)/b' = ln(1/rho) + (rho "
         "- 1)|Z| + D/b'", "zero",
         sp.expand_log((sp.log(bp / b) - A / b + (A + D) / bp).subs(b, rho * bp)
                       - (sp.log(1 / rho) + (rho - 1) * A / (rho * bp) + D / bp), force=True)),
        ("the shift: D/b' = eta D/B(x') <= eta d for D = B(x') d - w, w >= 0", "nonneg",
         eta * d - eta * (bp * d - wv) / bp),
        ("the printed eps at delta = e^(-L): eps d = eta d + gamma L d", "zero",
         pr["eps"].subs(on_delta) - (eta + g * L)),
        ("Laplace tail: the witness is an antiderivative of e^(-z)/2 on z > 0", "antiderivative", F, sp.exp(-z) / 2, z),
        ("... it vanishes at +oo", "limit", F, z, sp.oo, "-", 0),
        ("P(|Z| > L) = 2 (F(oo) - F(L)) = e^(-L)", "zero", 2 * (0 - F.subs(z, L)) - sp.exp(-L)),
        ("... and e^(-L) is the printed delta", "zero", pr["delta"].subs(on_delta) - sp.exp(-L)),
        ("case B(x) >= B(x') (rho = 1 + e): ln(1/rho) <= 0", "nonneg", sp.log(1 + e)),
        ("... (rho - 1)|Z| <= gamma d |Z| (rho - 1 = gamma d - w, w >= 0)", "nonneg", wv * A),
        ("... so the loss exceeds eps d only if gamma d |Z| > gamma d L: at |Z| = L - w the bound eta d + gamma d |Z| is "
         "<= eps d", "nonneg", (eta + g * L) * d - (eta * d + u * (L - wv))),
        ("case B(x) < B(x') (rho = 1/r, r = 1 + e > 1): ln(1/rho) + (rho - 1)|Z| = ln r - (1 - 1/r)|Z|", "zero",
         sp.expand_log((sp.log(1 / rho) + (rho - 1) * A).subs(rho, 1 / r) - (sp.log(r) - (1 - 1 / r) * A), force=True)),
        ("... the slope 1 - 1/r of |Z| is > 0", "positive", 1 - 1 / r),
        ("... the witness t is the root of ln r - (1 - 1/r)|Z| = gamma d L, so the event is {|Z| < t}", "zero",
         sp.expand(sp.log(r) - (1 - 1 / r) * t - u * L)),
        ("... P(|Z| < t) = 2 (F(t) - F(0)) = 1 - e^(-t) (t > 0; 0 otherwise)", "zero",
         2 * (F.subs(z, t) - F.subs(z, 0)) - (1 - sp.exp(-t))),
        ("... gamma d >= r - 1 (gamma d = e + w): t <= r ln r/(r - 1) - r L", "nonneg",
         sp.factor(sp.expand(tb - t.subs(g, (e + wv) / d)))),
        ("... identity: [r ln r/(r - 1) - r L + ln L] - [ln r/(r - 1) - 1] = ln(r L) - r L + 1", "zero",
         sp.expand_log((tb + sp.log(L)) - (sp.log(r) / (r - 1) - 1) - (sp.log(r * L) - r * L + 1), force=True)),
        ("... so (ln x <= x - 1 twice) t <= -ln L and P(|Z| < t) <= 1 - e^(ln L) = 1 - L (<= e^(-L))", "zero",
         (1 - sp.exp(sp.log(L))) - (1 - L)),  # e^(-t) at t = -ln L
    ]


def h12_hockey(c: Any, s: Any, t: Any) -> Any:
    """int (p - e^t q)_+ dy on arb balls, p = Lap(s, c), q = Lap(0, 1), s >= 0, c != 1 (the normalised pair of
    004 Lemma 3.6: B(x') = 1, B(x) = c, eta (f(x) - f(x')) = s, t = eps d).  l = ln(p/q) is linear on (-oo, 0),
    [0, s], (s, oo); on each piece {l > t} is one interval, where the integrand is p - e^t q (exact Laplace masses)."""
    import flint  # noqa: PLC0415 - needs python-flint (the proof extra)

    inf = flint.arb("inf")

    def ex(x: Any) -> Any:  # e^x with e^(-oo) = 0
        return flint.arb(0) if x == -inf else x.exp()

    def mass(m: Any, sc: Any, lo: Any, hi: Any, right: bool) -> Any:  # P(Lap(m, sc) in [lo, hi]), [lo, hi] on one side of m
        if right:
            return (ex((m - lo) / sc) - ex((m - hi) / sc)) / 2
        return (ex((hi - m) / sc) - ex((lo - m) / sc)) / 2

    lc = c.log()
    pieces = ((-inf, flint.arb(0), -lc - s / c, 1 / c - 1), (flint.arb(0), s, -lc - s / c, 1 / c + 1),
              (s, inf, -lc + s / c, 1 - 1 / c))
    out = flint.arb(0)
    for i, (lo, hi, a0, k) in enumerate(pieces):  # l(y) = a0 + k y on [lo, hi]; pieces left/right of s and of 0
        root = (t - a0) / k
        if k > 0:
            a, bnd = (root if root > lo else lo), hi
        elif k < 0:
            a, bnd = lo, (root if root < hi else hi)
        else:
            raise ValueError("c = 1")
        if not (bnd > a):
            continue
        out += mass(s, c, a, bnd, i == 2) - t.exp() * mass(flint.arb(0), flint.arb(1), a, bnd, i >= 1)
    return out


_H12_POINTS = (  # (eta, gamma, delta, d): the claim's four (delta, gamma/eps) points near eps = 1, and delta > 1/e
    ("18/25", "1/50", "1/1000000", "50"), ("13/20", "1/20", "1/1000", "20"), ("27/50", "1/5", "1/10", "5"),
    ("13/20", "1/2", "1/2", "1"), ("1", "1", "1/10", "100"), ("1/4", "1", "9/10", "1/2"))


def _h12_balls(w: Mapping[str, sp.Expr], pr: Mapping[str, sp.Expr]) -> list[dict[str, Any]]:
    """At rational (eta, gamma, delta, d): printed delta - H > 0 for the extreme pairs of both cases (B(x) = (1 + gamma
    d) B(x') with the largest shift eta d, and B(x) = B(x')/(1 + gamma d) with the largest shift eta d/(1 + gamma d)),
    H the exact hockey-stick divergence (:func:`h12_hockey`) at eps = the printed eps."""
    from verify.proof.functions import workprec  # noqa: PLC0415 - needs python-flint (the proof extra)

    out = []
    with workprec(PREC):
        for et, ga, de, dd in _H12_POINTS:
            env = _env({ETA: et, GAMMA: ga, _H12_DELTA: de})
            dist = arb_eval(sp.Rational(dd), {})
            eps = arb_eval(pr["eps"], env)
            bound = arb_eval(pr["delta"], env)
            cmax = 1 + env[GAMMA] * dist
            for name, c, s in (("B(x) = (1 + gamma d) B(x')", cmax, env[ETA] * dist),
                               ("B(x) = B(x')/(1 + gamma d)", 1 / cmax, env[ETA] * dist / cmax)):
                slack = bound - h12_hockey(c, s, eps * dist)
                out.append({"name": f"delta - hockey-stick > 0, {name}, shift eta d min(B)/B(x')",
                            "point": {"eta": et, "gamma": ga, "delta": de, "d": dd}, "definition": slack.str(30),
                            "printed": "> 0", "ok": bool(slack > 0), "certified_negative": bool(slack < 0)})
    return out


_spec(claim="004-Lemma-3.6-chain", domain=_H12_DOMAIN, witnesses=("tail_antiderivative", "threshold"),
      printed_forms=_h12_printed, steps=_h12_steps, balls=_h12_balls, relies_on=_H12_RELIES)
# ==== end of H12 block ====


@register_method
class SymbolicMethod:
    """SymPy steps from the definition with the derivation's witnesses, re-checked by :func:`recheck_for` as the
    proof of the spec named by the claim's code."""

    name = "symbolic"

    def recheck(self, proof: Mapping[str, Any], claim_id: str) -> SymbolicRecheck:
        return recheck_for(proof, claim_id=claim_id)

    def describe(self, proof: Mapping[str, Any]) -> str:
        return describe_record(proof)
