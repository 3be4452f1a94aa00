"""004-Lemma-2.2-laplace: the [NRS07] Laplace guarantee as quoted holds at eps = 1 but fails on its stated range
at large eps (the extreme neighbour pair, certified by the mpmath hockey-stick on an explicit set)."""

from __future__ import annotations

import mpmath

from verify.claims import CheckContext, Verdict, load_registry
from verify.reference.distributions import laplace_pdf


def test_refuted_at_large_eps_with_a_certificate_and_valid_at_eps_1():
    res = load_registry().get("004-Lemma-2.2-laplace").run(CheckContext(budget=0.1))
    assert res.verdict is Verdict.REFUTED and res.rule.startswith("R-INVALID"), res.summary
    w = res.evidence["certificate"]
    assert w["eps"] == 8.0 and w["delta"] == 0.5 and float(w["hockey_stick_on_S_mp"]) > w["delta"]
    assert all(not r["exceeds_delta"] for r in res.evidence["range_search"] if r["eps"] <= 6.0)
    assert "no certified violation" in res.evidence["eps_1_audit"]


def test_the_certificate_agrees_with_an_independent_quadrature():
    with mpmath.workdps(30):
        eps, delta = mpmath.mpf(8), mpmath.mpf(1) / 2
        g = eps / (2 * mpmath.log(2 / delta))
        b, bp = mpmath.exp(g) / (eps / 2), 1 / (eps / 2)

        def excess(y):  # the densities of M(x) = 1 + b Z and M(x') = b' Z from the mpmath reference
            return max(laplace_pdf(y, 1, b) - mpmath.exp(eps) * laplace_pdf(y, 0, bp), 0)

        grid = [mpmath.mpf(k) / 100 for k in range(-3000, 3001)]
        cross = [grid[i] for i in range(len(grid) - 1) if (excess(grid[i]) > 0) != (excess(grid[i + 1]) > 0)]
        hs = mpmath.quad(excess, [-mpmath.inf, *sorted(set(cross + [mpmath.mpf(0), mpmath.mpf(1)])), mpmath.inf])
    assert hs > delta and abs(hs - mpmath.mpf("0.50995235")) < 1e-7
