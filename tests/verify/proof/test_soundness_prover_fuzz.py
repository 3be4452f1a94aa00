"""Soundness fuzzer of the interval prover (verify.proof.prover.prove_le) and its re-checker.

Random expressions from a grammar of the supported functions (powers with variable exponents,
x^y ln x and logs near 0, exp, sqrt, |.|, Min, Max, Piecewise in 2-3 variables with And / Or
conditions), random boxes (many touching 0 or a Piecewise boundary), random thresholds near the
sampled maximum.  The reference is mpmath (30 digits on a dense sample: a grid, the box's corners
and random points, then a local hill-climb from the best points; 50 digits at a certified point):

* every "proven" F <= t is cross-checked on the sample: a sampled value > t fails the test;
* every "refuted" must carry a point inside the box where F, evaluated by SymPy/mpmath at 50
  digits from the exact rational point, exceeds t;
* the re-checker (verify.proof.recheck.recheck, threshold from the caller) accepts proof records
  of statements the sample does not contradict, and rejects the same record with the threshold
  lowered below the sampled max (bounds edited to match), with a box removed, and with the
  expression changed so that the sample exceeds the threshold.

Seeded (numpy Generator), deterministic.  The default run (CI) takes a few hundred expressions;
``SMOOTHSENS_FUZZ_N=5000`` runs a larger one, and ``SMOOTHSENS_FUZZ_SEED`` picks another seed.
"""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass, field
from fractions import Fraction as Q

import mpmath
import numpy as np
import pytest
import sympy as sp

pytest.importorskip("flint")

from verify.proof.functions import Objective, Variable  # noqa: E402
from verify.proof.prover import box_from_json, prove_le  # noqa: E402
from verify.proof.recheck import recheck  # noqa: E402

N_DEFAULT = 150
SEED = int(os.environ.get("SMOOTHSENS_FUZZ_SEED", "20261128"))
N_EXPR = int(os.environ.get("SMOOTHSENS_FUZZ_N", str(N_DEFAULT)))
SYMS = sp.symbols("x y w", real=True)


# -- the grammar ---------------------------------------------------------------------------------------

def _const(rng: np.random.Generator) -> sp.Rational:
    return sp.Rational(int(rng.integers(-8, 9)), int(rng.choice([1, 2, 3, 4, 8])))


def _pos_const(rng: np.random.Generator) -> sp.Rational:
    return sp.Rational(int(rng.integers(1, 9)), int(rng.choice([1, 2, 4, 8])))


@dataclass
class _Grammar:
    rng: np.random.Generator
    syms: list[sp.Symbol]
    nonneg: list[sp.Symbol]  # the variables whose box is inside [0, inf)

    def leaf(self) -> sp.Expr:
        return self.syms[int(self.rng.integers(len(self.syms)))] if self.rng.random() < 0.8 else _const(self.rng)

    def nonneg_base(self, depth: int) -> sp.Expr:
        """An expression >= 0 on the box (a base of a real power or a log near 0)."""
        r = self.rng.random()
        if self.nonneg and r < 0.5:
            return self.nonneg[int(self.rng.integers(len(self.nonneg)))]
        if r < 0.75:
            return sp.Abs(self.expr(depth - 1))
        return self.expr(depth - 1) ** 2

    def positive_exponent(self, depth: int) -> sp.Expr:
        r = self.rng.random()
        if self.nonneg and r < 0.4:
            return self.nonneg[int(self.rng.integers(len(self.nonneg)))] + _pos_const(self.rng) / 4
        if r < 0.7:
            return _pos_const(self.rng) / 2
        return sp.Abs(self.leaf()) + _pos_const(self.rng) / 4

    def condition(self, depth: int) -> sp.Basic:
        def rel() -> sp.Basic:
            a = self.expr(max(depth - 1, 0))
            c = _const(self.rng) / 2
            return (a < c) if self.rng.random() < 0.5 else (a >= c)

        r = self.rng.random()
        if r < 0.5:
            return rel()
        if r < 0.75:
            return sp.And(rel(), rel())
        return sp.Or(rel(), rel())

    def expr(self, depth: int) -> sp.Expr:
        if depth <= 0:
            return self.leaf()
        k = int(self.rng.integers(13))
        d = depth - 1
        if k == 0:
            return self.expr(d) + self.expr(d)
        if k == 1:
            return self.expr(d) * self.expr(d)
        if k == 2:
            return self.expr(d) - _const(self.rng) * self.expr(d)
        if k == 3:
            return sp.exp(self.expr(d) / 2)
        if k == 4:
            return sp.sqrt(self.nonneg_base(d))
        if k == 5:  # a log near 0 and a variable power: x^y ln x
            b = self.nonneg_base(d)
            return b ** self.positive_exponent(d) * sp.log(b) if self.rng.random() < 0.6 else sp.log(b + _pos_const(self.rng) / 8)
        if k == 6:
            return self.nonneg_base(d) ** self.positive_exponent(d)
        if k == 7:
            return sp.Abs(self.expr(d))
        if k in (8, 9):
            return (sp.Min if k == 8 else sp.Max)(self.expr(d), self.expr(d))
        if k in (10, 11):
            branches = [(self.expr(d), self.condition(d))]
            if self.rng.random() < 0.3:
                branches.append((self.expr(d), self.condition(d)))
            return sp.Piecewise(*branches, (self.expr(d), True))
        return self.leaf()


def _box(rng: np.random.Generator, nvars: int) -> list[tuple[Q, Q]]:
    out = []
    for _ in range(nvars):
        kind = rng.random()
        width = Q(int(rng.choice([1, 1, 2, 3, 4, 8])), int(rng.choice([4, 8])))
        if kind < 0.4:
            lo = Q(0)  # touching 0
        elif kind < 0.6:
            lo = -width / 2  # 0 inside
        else:
            lo = Q(int(rng.integers(-8, 9)), int(rng.choice([3, 4, 8])))
        out.append((lo, lo + width))
    return out


# -- the mpmath reference --------------------------------------------------------------------------------

def _mp_value(f, pt) -> mpmath.mpf | None:  # noqa: ANN001
    try:
        v = f(*pt)
    except (ZeroDivisionError, ValueError, TypeError, OverflowError):
        return None
    if isinstance(v, mpmath.mpc):
        if abs(v.imag) > mpmath.mpf(10) ** -25 * max(1, abs(v.real)):
            return None
        v = v.real
    try:
        v = mpmath.mpf(v)
    except (TypeError, ValueError):
        return None
    return v if mpmath.isfinite(v) else None


def _sample(expr: sp.Expr, syms: list[sp.Symbol], box: list[tuple[Q, Q]], rng: np.random.Generator,
            n_grid: int, n_random: int) -> list[tuple[list[mpmath.mpf], mpmath.mpf]]:
    """(point, value) pairs, mpmath at 30 digits: a grid (box corners and edges included), random
    points, and a coordinate hill-climb from the 3 best points."""
    # the value counts only where every argument of a Min / Max and every side of a condition is a
    # finite real: Python's min/max and a comparison silently drop a NaN (min(1, nan) = 1), where
    # the expression itself is undefined
    parts = [a for t in expr.atoms(sp.Min, sp.Max) for a in t.args]
    parts += [r.lhs - r.rhs for t in expr.atoms(sp.Piecewise) for _, c in t.args
              for r in (c.atoms(sp.core.relational.Relational) if c not in (sp.true, sp.false) else [])]
    f_value = sp.lambdify(syms, expr, modules="mpmath")
    f_parts = sp.lambdify(syms, parts, modules="mpmath") if parts else None

    def f(*pt):  # noqa: ANN002, ANN202
        if f_parts is not None:
            for v in f_parts(*pt):
                if _mp_value(lambda: v, []) is None:
                    raise ValueError("undefined")
        return f_value(*pt)

    out: list[tuple[list[mpmath.mpf], mpmath.mpf]] = []
    with mpmath.workdps(30):
        lo = [mpmath.mpf(a.numerator) / a.denominator for a, _ in box]
        hi = [mpmath.mpf(b.numerator) / b.denominator for _, b in box]
        axes = [[lo[i] + (hi[i] - lo[i]) * j / (n_grid - 1) for j in range(n_grid)] for i in range(len(box))]
        pts = [list(p) for p in itertools.product(*axes)]
        pts += [[lo[i] + (hi[i] - lo[i]) * mpmath.mpf(float(rng.random())) for i in range(len(box))]
                for _ in range(n_random)]
        for p in pts:
            v = _mp_value(f, p)
            if v is not None:
                out.append((p, v))
        out.sort(key=lambda t: t[1], reverse=True)
        for p0, v0 in out[:3]:
            p, v, step = list(p0), v0, [(hi[i] - lo[i]) / (2 * (n_grid - 1)) for i in range(len(box))]
            for _ in range(20):
                improved = False
                for i in range(len(box)):
                    for sgn in (1, -1):
                        q = list(p)
                        q[i] = min(hi[i], max(lo[i], q[i] + sgn * step[i]))
                        vq = _mp_value(f, q)
                        if vq is not None and vq > v:
                            p, v, improved = q, vq, True
                if not improved:
                    step = [s / 2 for s in step]
            out.append((p, v))
    return out


def _exact_value(expr: sp.Expr, syms: list[sp.Symbol], point: list[Q]) -> sp.Expr:
    """expr at an exact rational point, SymPy/mpmath at 50 digits."""
    return sp.N(expr.subs({s: sp.Rational(q.numerator, q.denominator) for s, q in zip(syms, point)}), 50)


# -- the run ---------------------------------------------------------------------------------------------

@dataclass
class FuzzStats:
    tried: int = 0
    built: int = 0
    proven: int = 0
    refuted: int = 0
    undecided: int = 0
    errors: list = field(default_factory=list)
    proven_but_false: list = field(default_factory=list)
    refuted_uncertified: list = field(default_factory=list)
    recheck_true_ok: int = 0
    recheck_true_rejected: list = field(default_factory=list)
    recheck_mutants: int = 0
    recheck_mutants_accepted: list = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        return (f"{self.tried} expressions tried ({self.built} built): {self.proven} proven, {self.refuted} refuted, "
                f"{self.undecided} undecided, {len(self.errors)} refused; proven-but-false {len(self.proven_but_false)}, refuted without a "
                f"certified point {len(self.refuted_uncertified)}; re-checks of proven records {self.recheck_true_ok} "
                f"accepted, {len(self.recheck_true_rejected)} rejected; mutated records {self.recheck_mutants}, "
                f"accepted {len(self.recheck_mutants_accepted)}; {self.seconds:.1f} s")


def _mutants(record: dict, expr: sp.Expr, variables: list[Variable], thr: Q, smax: mpmath.mpf,
             rng: np.random.Generator) -> list[tuple[str, dict, Objective, Q]]:
    """(name, record, objective, caller threshold): statements the re-checker must reject."""
    out = []
    obj = Objective(expr, variables)
    # (1) the threshold lowered below the sampled max, the bounds edited to match
    low = Q(str(mpmath.nstr(smax, 20))) - Q(1, 100)
    edited = dict(record, threshold=str(low), bounds=[str(min(Q(b), low)) for b in record["bounds"]])
    out.append(("threshold below the max", edited, obj, low))
    # (2) a box removed
    k = int(rng.integers(len(record["boxes"])))
    removed = dict(record, boxes=record["boxes"][:k] + record["boxes"][k + 1:],
                   bounds=record["bounds"][:k] + record["bounds"][k + 1:])
    out.append(("a box removed", removed, obj, thr))
    # (3) the expression changed: F + (t - max) + 1/50 exceeds t where the sample is largest
    shift = thr - Q(str(mpmath.nstr(smax, 20))) + Q(1, 50)
    changed = Objective(expr + sp.Rational(shift.numerator, shift.denominator), variables)
    out.append(("expression changed", record, changed, thr))
    return out


def run_fuzz(n: int, seed: int, *, max_boxes: int = 1500, time_limit: float = 2.0, n_grid: int = 7,
             n_random: int = 40, recheck_every: int = 1) -> FuzzStats:
    rng = np.random.default_rng(seed)
    stats = FuzzStats()
    t0 = time.perf_counter()
    for _ in range(n):
        stats.tried += 1
        nv = 2 if rng.random() < 0.6 else 3
        syms = list(SYMS[:nv])
        box = _box(rng, nv)
        nonneg = [s for s, (lo, _) in zip(syms, box) if lo >= 0]
        g = _Grammar(rng, syms, nonneg)
        try:
            expr = g.expr(int(rng.integers(2, 4)))
        except (ValueError, TypeError):  # SymPy refused a node at construction (Min(nan, ...))
            continue
        if not expr.free_symbols or expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I):
            continue
        # the symbols are real; a box from >= 0 may declare nonnegative (the assumption must hold)
        variables = [Variable(s, lo, hi) for s, (lo, hi) in zip(syms, box)]
        sample = _sample(expr, syms, box, rng, n_grid if nv == 2 else 5, n_random)
        if len(sample) < 10:
            continue
        smax = max(v for _, v in sample)
        scale = max(mpmath.mpf(1) / 100, abs(smax))
        delta = float(rng.choice([-0.1, -0.01, -0.001, 0.001, 0.01, 0.1]))
        thr = Q(str(mpmath.nstr(smax + delta * scale, 15)))
        try:
            obj = Objective(expr, variables)
        except (TypeError, ValueError):
            continue  # a node outside the supported set: the prover refuses it (never "proven")
        stats.built += 1
        try:
            res = prove_le(obj, threshold=thr, max_boxes=max_boxes, time_limit=time_limit)
        except (TypeError, ValueError) as exc:  # refused at evaluation: never "proven"
            stats.errors.append(f"{expr}: {type(exc).__name__}: {exc}")
            continue
        tag = f"F = {expr} on {[(str(a), str(b)) for a, b in box]}, t = {thr}"
        if res.status == "proven":
            stats.proven += 1
            bad = [(p, v) for p, v in sample if v > mpmath.mpf(thr.numerator) / thr.denominator]
            if bad:
                stats.proven_but_false.append(f"{tag}: sample {bad[0]}")
                if os.environ.get("SMOOTHSENS_FUZZ_VERBOSE"):
                    print("PROVEN BUT FALSE", tag, bad[0], flush=True)
                continue
            if stats.proven % recheck_every == 0:
                record = res.to_json()
                rc = recheck(record, Objective(expr, variables), threshold=thr)
                if rc.ok:
                    stats.recheck_true_ok += 1
                else:
                    stats.recheck_true_rejected.append(f"{tag}: {rc.problems[:1]}")
                for name, rec, mobj, mthr in _mutants(record, expr, variables, thr, smax, rng):
                    stats.recheck_mutants += 1
                    if recheck(rec, mobj, threshold=mthr, budget=32).ok:
                        stats.recheck_mutants_accepted.append(f"{tag}: {name}")
                        if os.environ.get("SMOOTHSENS_FUZZ_VERBOSE"):
                            print("MUTANT ACCEPTED", tag, name, flush=True)
        elif res.status == "refuted":
            stats.refuted += 1
            ce = res.counterexample or {}
            pt = [Q(q) for q in ce.get("point", [])]
            inside = len(pt) == nv and all(lo <= q <= hi for q, (lo, hi) in zip(pt, box))
            ok = False
            if inside:
                val = _exact_value(expr, syms, pt)
                ok = bool(val.is_real and val.is_finite and val > sp.Rational(thr.numerator, thr.denominator))
            if not ok:
                stats.refuted_uncertified.append(f"{tag}: point {pt}")
        else:
            stats.undecided += 1
            # an undecided statement the sample contradicts is fine; nothing to check
    stats.seconds = time.perf_counter() - t0
    return stats


@pytest.mark.slow
def test_prover_fuzz_no_false_proof_and_certified_refutations():
    stats = run_fuzz(N_EXPR, SEED)
    print(stats.summary())
    assert stats.built >= N_EXPR // 2, stats.summary()
    assert stats.proven > 0 and stats.refuted > 0, stats.summary()
    assert stats.proven_but_false == [], stats.proven_but_false[:5]
    assert stats.refuted_uncertified == [], stats.refuted_uncertified[:5]
    assert stats.recheck_mutants > 0 and stats.recheck_mutants_accepted == [], stats.recheck_mutants_accepted[:5]
    # the re-checker is slower than the prover (no shared shortcuts) but re-proves true records
    assert len(stats.recheck_true_rejected) <= stats.recheck_true_ok // 10, stats.recheck_true_rejected[:5]


def test_fuzz_is_deterministic():
    a, b = run_fuzz(6, SEED + 1), run_fuzz(6, SEED + 1)
    assert (a.tried, a.built, a.proven, a.refuted, a.undecided) == (b.tried, b.built, b.proven, b.refuted, b.undecided)


def test_fuzz_cross_check_catches_a_false_proof():
    """The cross-check itself can fail: a 'proof' from an objective that under-reports F (a
    deliberately broken enclosure) is caught by the sample and rejected by the re-checker."""
    x, y = SYMS[:2]
    expr = x * y
    variables = [Variable(x, Q(0), Q(1)), Variable(y, Q(0), Q(1))]

    class Broken(Objective):
        def evaluate(self, box, **kw):  # noqa: ANN001, ANN003, ANN202
            from flint import arb  # noqa: PLC0415
            return arb(0)

    res = prove_le(Broken(expr, variables), threshold=Q(1, 2), max_boxes=10)
    assert res.status == "proven"
    sample = _sample(expr, [x, y], [(Q(0), Q(1))] * 2, np.random.default_rng(0), 5, 10)
    assert any(v > mpmath.mpf(1) / 2 for _, v in sample)
    assert not recheck(res.to_json(), Objective(expr, variables), threshold=Q(1, 2)).ok
    b = box_from_json(res.to_json()["boxes"][0])
    assert b == [(Q(0), Q(1)), (Q(0), Q(1))]
