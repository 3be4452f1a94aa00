"""Comparing a derived closed form with a printed one (and either with the definition).

A :class:`Comparison` records the printed form, the derived form, the method used, the maximum
deviation found and where, and the verdict of the comparison:

* ``"symbolic"``: ``simplify(derived - printed) == 0`` (or the ratio simplifies to 1);
* ``"mpmath"``: both forms evaluated with mpmath at ``dps`` >= 50 digits at >= 20 random points of
  the stated domain; the largest relative deviation decides (``tol`` relative, default 1e-30).

``agree`` is True when the two forms are equal.  The claim layer (``verify/claimsets``) turns a
comparison into a verdict, together with an independent check against the definition
(quadrature / brute-force supremum), see :func:`check_against_reference`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import mpmath
import sympy as sp

__all__ = [
    "Comparison",
    "compare_forms",
    "check_against_reference",
    "random_points",
    "to_mpmath",
]


@dataclass(frozen=True)
class Comparison:
    """Printed vs derived form of one closed form.

    ``printed`` and ``derived`` are the SymPy expressions (their ``str`` goes into evidence),
    ``method`` is ``"symbolic"`` or ``"mpmath (dps=.., n=..)"``, ``max_deviation`` the largest
    relative deviation found (0 for a symbolic identity), ``worst_point`` where it was found,
    ``points`` the evaluation points (empty for a symbolic proof) and ``agree`` the outcome.
    """

    name: str
    printed: Any
    derived: Any
    method: str
    max_deviation: float
    agree: bool
    points: tuple[Mapping[str, float], ...] = ()
    worst_point: Mapping[str, float] = field(default_factory=dict)
    values: tuple[tuple[str, str], ...] = ()
    note: str = ""

    @property
    def verdict(self) -> str:
        """``"equal"`` when the printed form equals the derived one, else ``"differs"``."""
        return "equal" if self.agree else "differs"

    def evidence(self) -> dict[str, Any]:
        """JSON-friendly evidence: forms, method, deviation, points and values."""
        return {
            "name": self.name,
            "printed": str(self.printed),
            "derived": str(self.derived),
            "method": self.method,
            "max_relative_deviation": self.max_deviation,
            "worst_point": dict(self.worst_point),
            "points": [dict(p) for p in self.points],
            "values_printed_vs_derived": [list(v) for v in self.values],
            "agree": self.agree,
            "note": self.note,
        }


def to_mpmath(expr: sp.Expr, symbols: Sequence[sp.Symbol]) -> Callable[..., Any]:
    """An mpmath evaluator of ``expr`` (for references only; never used by the core).  Float and
    int arguments are converted to mpf first, so all arithmetic runs at the working precision."""
    extra = {
        "betainc_regularized": lambda a, b, x1, x2: mpmath.betainc(a, b, x1, x2, regularized=True),
        "betainc": lambda a, b, x1, x2: mpmath.betainc(a, b, x1, x2),
        "lambertw": lambda x, k=0: mpmath.lambertw(x, k),
        "log1p": mpmath.log1p,
        "expm1": mpmath.expm1,
    }
    raw = sp.lambdify(tuple(symbols), expr, modules=[extra, "mpmath"])

    def evaluate(*args: Any) -> Any:
        # Python floats would make the generated arithmetic (e.g. 1 - alpha) run in double precision
        return raw(*[mpmath.mpf(a) if isinstance(a, (int, float)) else a for a in args])

    return evaluate


def random_points(
    domain: Mapping[sp.Symbol, tuple[float, float]],
    n: int,
    seed: int = 12345,
    log_uniform: Sequence[sp.Symbol] = (),
) -> list[dict[sp.Symbol, float]]:
    """``n`` reproducible random points of a box domain (log-uniform for the listed symbols)."""
    rng = random.Random(seed)
    pts = []
    for _ in range(n):
        pt = {}
        for sym in sorted(domain, key=lambda s: s.name):
            lo, hi = domain[sym]
            if sym in log_uniform:
                pt[sym] = math.exp(rng.uniform(math.log(lo), math.log(hi)))
            else:
                pt[sym] = rng.uniform(lo, hi)
        pts.append(pt)
    return pts


def _symbolic_zero(diff: sp.Expr) -> bool:
    try:
        d = sp.simplify(diff)
        if d == 0:
            return True
        d = sp.simplify(sp.powsimp(sp.expand_power_base(sp.expand_log(d, force=True), force=True), force=True))
        return bool(d == 0)
    except Exception:  # noqa: BLE001 - a failed simplification is not a proof; fall back to numbers
        return False


def compare_forms(
    name: str,
    printed: sp.Expr,
    derived: sp.Expr,
    domain: Mapping[sp.Symbol, tuple[float, float]],
    *,
    n: int = 20,
    dps: int = 50,
    tol: float = 1e-30,
    seed: int = 12345,
    try_symbolic: bool = True,
    log_uniform: Sequence[sp.Symbol] = (),
    note: str = "",
) -> Comparison:
    """Compare ``printed`` with ``derived``: symbolically if SymPy proves the difference is 0,
    else with mpmath at ``dps`` digits at ``n`` random points of ``domain`` (relative deviation
    ``|printed - derived| / max(|derived|, tiny)``, agreement when it is below ``tol``)."""
    if try_symbolic and _symbolic_zero(printed - derived):
        return Comparison(name, printed, derived, "symbolic: simplify(derived - printed) == 0", 0.0, True, note=note)
    syms = sorted(domain, key=lambda s: s.name)
    fp = to_mpmath(printed, syms)
    fd = to_mpmath(derived, syms)
    pts = random_points(domain, max(n, 20), seed=seed, log_uniform=log_uniform)
    worst = 0.0
    worst_pt: dict[str, float] = {}
    values = []
    with mpmath.workdps(dps):
        for pt in pts:
            args = [mpmath.mpf(pt[s]) for s in syms]
            vp = fp(*args)
            vd = fd(*args)
            devf = _rel_dev(vp, vd, dps)
            values.append((mpmath.nstr(vp, 20), mpmath.nstr(vd, 20)))
            if devf > worst or not worst_pt:
                worst = max(worst, devf)
                worst_pt = {s.name: pt[s] for s in syms}
    return Comparison(
        name,
        printed,
        derived,
        f"mpmath (dps={dps}, n={len(pts)} random points)",
        worst,
        worst <= tol,
        tuple({s.name: pt[s] for s in syms} for pt in pts),
        worst_pt,
        tuple(values),
        note,
    )


def _rel_dev(value: Any, ref: Any, dps: int) -> float:
    """|value - ref| / max(|ref|, 10^(5 - dps)), as a float; +inf when either side is NaN or when
    exactly one is infinite (a comparison must never pass on NaN: NaN > worst is False), and 0 when
    both are the same infinity."""
    if mpmath.isnan(value) or mpmath.isnan(ref):
        return math.inf
    if mpmath.isinf(value) or mpmath.isinf(ref):
        return 0.0 if value == ref else math.inf
    return float(abs(value - ref) / max(abs(ref), mpmath.mpf(10) ** (-dps + 5)))


def check_against_reference(
    name: str,
    derived: sp.Expr,
    reference: Callable[..., Any],
    symbols: Sequence[sp.Symbol],
    points: Sequence[Mapping[sp.Symbol, float]],
    *,
    dps: int = 30,
    tol: float = 1e-20,
) -> Comparison:
    """Compare ``derived`` with an independent reference computed from the definition
    (``reference(*args)`` evaluated inside ``mpmath.workdps(dps)``: quadrature, brute-force sup)."""
    fd = to_mpmath(derived, symbols)
    worst = 0.0
    worst_pt: dict[str, float] = {}
    values = []
    with mpmath.workdps(dps):
        for pt in points:
            args = [mpmath.mpf(pt[s]) for s in symbols]
            vr = reference(*args)
            vd = fd(*args)
            dev = _rel_dev(vd, vr, dps)
            values.append((mpmath.nstr(vr, 15), mpmath.nstr(vd, 15)))
            if dev >= worst:
                worst = dev
                worst_pt = {s.name: pt[s] for s in symbols}
    return Comparison(
        name,
        "definition (independent mpmath reference)",
        derived,
        f"mpmath reference from the definition (dps={dps}, n={len(points)})",
        worst,
        worst <= tol,
        tuple({s.name: pt[s] for s in symbols} for pt in points),
        worst_pt,
        tuple(values),
    )
