"""004 Sec. 4.1.1 (noise a priori): verify/claims/sets/noise_a_priori_004.py."""

from __future__ import annotations

import mpmath

from verify.claims import CheckContext, Verdict, load_registry
from verify.claims.coverage import coverage_table
from verify.claims.sets import noise_a_priori_004 as m


def test_sec_4_1_1_mse_is_verified():
    res = load_registry().get("004-Sec-4.1.1-mse").run(CheckContext(budget=0.1))
    assert res.verdict is Verdict.VERIFIED, res.summary


def test_exact_enumeration_tells_a_wrong_cross_term_sign_apart():
    """The enumeration is a real check: with the cross terms of opposite sides added instead of
    subtracted the display is off by 2/n^2 sum over I01 u I10 of (1/4) e^{...} (here n = 2, one user per side)."""
    with mpmath.workdps(40):
        T, eps = mpmath.mpf("0.7"), mpmath.mpf(1)
        xs = [mpmath.mpf(0), mpmath.mpf(2)]
        exact = m._exact_mse(xs, T, eps)
        assert mpmath.almosteq(exact, m._printed_mse(xs, T, eps), 1e-35)
        e0, e1 = mpmath.exp(-eps * mpmath.mpf("0.7")), mpmath.exp(-eps * mpmath.mpf("1.3"))
        wrong_sign = (e0 + e1) / 8 + 2 * e0 * e1 / 4 / 4
        assert abs(wrong_sign - exact) > mpmath.mpf("0.01")


def test_sec_4_1_1_displays_map_to_the_claim():
    rows = [r for r in coverage_table(["004"]) if "Sec. 4.1.1)" in r.location]
    assert len(rows) == 4 and all("004-Sec-4.1.1-mse" in r.claims for r in rows)
