"""002 Sec. 2.2, Fact 4: the derivative of f(x, x) along the diagonal.

002 Fact 4 (as printed): "Let f : R^2 -> R.  At any x at which f(x, x) is differentiable, it holds

    d/dx f(x, x) = [ d/dlambda f(x + lambda, x) + d/dlambda f(x, x + lambda) ]_{lambda = 0}."

The hypothesis is too weak: differentiability of the diagonal restriction does not make the partial
derivatives add up to its derivative.  Counterexample (a standard one, written here from scratch):

    f(a, b) = a b (a + b) / (a^2 + b^2),  f(0, 0) = 0.

On the diagonal f(x, x) = x (for x != 0, and 0 at 0), differentiable with derivative 1 at x = 0; but
f(lambda, 0) = f(0, lambda) = 0 for every lambda, so both partial derivatives at (0, 0) are 0 and the
right-hand side is 0 != 1.  The identity holds when f is differentiable at (x, x) (e.g. continuous
partials, 002 Fact 3, the case the paper applies it to in the proofs of Lemmas 9 and 10): the chain
rule gives it, checked symbolically on smooth test functions.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from verify.claims import CheckContext, CheckKind, ClaimResult, Verdict, claim


def _f_counterexample(a: Fraction, b: Fraction) -> Fraction:
    """f(a, b) = a b (a + b)/(a^2 + b^2), f(0, 0) = 0, in exact rational arithmetic."""
    if a == 0 and b == 0:
        return Fraction(0)
    return a * b * (a + b) / (a * a + b * b)


@claim(
    "002-Fact-4",
    seed="002",
    section="Sec. 2.2, Fact 4 (derivative along the diagonal; displayed formula)",
    statement=(
        "For f: R^2 -> R, at any x at which f(x, x) is differentiable, d/dx f(x, x) = [d/dl f(x+l, x) + "
        "d/dl f(x, x+l)]_{l=0}.  Checked: the counterexample f(a, b) = ab(a+b)/(a^2+b^2), f(0,0) = 0 in exact "
        "rational arithmetic (f(x, x) = x, both partials at (0, 0) are 0), and the corrected statement (f "
        "differentiable at (x, x)) symbolically on smooth test functions."
    ),
    kind=CheckKind.SYMBOLIC,
    code="verify/claims/sets/facts_002.py",
)
def check_fact_4(ctx: CheckContext) -> ClaimResult:
    # (a) the counterexample, exactly: the diagonal is the identity, the partial difference quotients vanish
    hs = [Fraction(1, 10**k) for k in range(1, 8)]
    diag = [(_f_counterexample(h, h) - _f_counterexample(Fraction(0), Fraction(0))) / h for h in hs + [-h for h in hs]]
    part_a = [(_f_counterexample(h, Fraction(0)) - _f_counterexample(Fraction(0), Fraction(0))) / h for h in hs + [-h for h in hs]]
    part_b = [(_f_counterexample(Fraction(0), h) - _f_counterexample(Fraction(0), Fraction(0))) / h for h in hs + [-h for h in hs]]
    a, b, x, lam = sp.symbols("a b x lambda", real=True)
    f = a * b * (a + b) / (a**2 + b**2)
    diagonal = sp.simplify(f.subs({a: x, b: x}))                    # = x for x != 0 (and f(0,0) = 0 by definition)
    along_a = sp.simplify(f.subs({a: lam, b: 0}))                   # = 0 for lambda != 0
    along_b = sp.simplify(f.subs({a: 0, b: lam}))
    refuted = (all(q == 1 for q in diag) and all(q == 0 for q in part_a + part_b)
               and diagonal == x and along_a == 0 and along_b == 0)
    # (b) the corrected statement (f differentiable at (x, x)): chain rule, on smooth test functions
    tests = [sp.exp(a * b) + sp.sin(a) * b**2, a**3 * b - sp.cos(a + 2 * b), sp.log(1 + a**2 + b**4) * a]
    corrected = []
    for g in tests:
        lhs = sp.diff(g.subs({a: x, b: x}), x)
        rhs = (sp.diff(g.subs({a: x + lam, b: x}), lam) + sp.diff(g.subs({a: x, b: x + lam}), lam)).subs(lam, 0)
        corrected.append({"f": str(g), "lhs - rhs": str(sp.simplify(lhs - rhs))})
    corrected_ok = all(r["lhs - rhs"] == "0" for r in corrected)
    ev = {
        "printed": "f(x, x) differentiable at x  =>  d/dx f(x,x) = [d/dl f(x+l,x) + d/dl f(x,x+l)]_{l=0}",
        "corrected": "the identity holds when f is differentiable at (x, x) (e.g. continuous partials, 002 Fact 3)",
        "certificate": {
            "f": "a b (a + b)/(a^2 + b^2), f(0, 0) = 0", "x": 0,
            "f(x, x) (SymPy)": str(diagonal), "f(l, 0), f(0, l) (SymPy)": [str(along_a), str(along_b)],
            "diagonal difference quotients at h = +-10^-1..10^-7 (exact)": sorted({str(q) for q in diag}),
            "partial difference quotients (exact)": sorted({str(q) for q in part_a + part_b}),
            "d/dx f(x, x) at 0": 1, "right-hand side at 0": 0,
        },
        "corrected_checks": corrected,
    }
    if refuted and corrected_ok:
        return ClaimResult(
            Verdict.REFUTED,
            "printed hypothesis too weak: f = ab(a+b)/(a^2+b^2) has f(x,x) = x (derivative 1 at 0) but both partials "
            "at (0,0) are 0 (exact); with f differentiable at (x,x) the identity holds (chain rule, SymPy)",
            ev, "exact rational arithmetic and SymPy",
            rule="R-FALSE: a conclusion the hypotheses do not give (differentiability of f at (x, x) is missing; "
                 "counterexample exact)",
        )
    return ClaimResult(Verdict.INCONCLUSIVE, "the counterexample or the corrected check did not evaluate as derived",
                       ev, "exact rational arithmetic and SymPy")
