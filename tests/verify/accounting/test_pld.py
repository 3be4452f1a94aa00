"""Grid PLDs and composition: the composed enclosure contains the exact curve.

References (mpmath, 50 digits):
* k Gaussian releases of noise sigma and sensitivity Delta are one Gaussian release of noise sigma/sqrt(k)
  (Dong, Roth & Su 2019, GDP composition: mu = Delta/sigma composes as sqrt(sum mu_j^2)); its curve is
  Balle & Wang 2018, Thm. 8 (verify.audit.exact.curve.gaussian_delta_balle_wang).
* k discrete Laplace releases with Delta = 1: the loss is +-1/b with P-probabilities 1/(1 + r), r/(1 + r)
  (r = e^(-1/b)), so delta(eps) = sum_j C(k, j) p^j (1 - p)^(k - j) (1 - e^(eps - (2j - k)/b))_+ (binomial sum).
* single mechanisms: the closed forms of PrivacyCurve (themselves checked against quadrature in test_curve.py).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from verify.accounting import GridPLD, PrivacyCurve, compose, from_curve, to_dp_accounting_pld
from verify.accounting.pld import common_step
from verify.audit.exact.curve import gaussian_delta_balle_wang

DPS = 50


def _inside(enc: object, truth: object) -> bool:
    with mpmath.workdps(DPS):
        t = mpmath.mpf(truth)
        return bool(mpmath.mpf(enc.lower) <= t <= mpmath.mpf(enc.upper))  # type: ignore[attr-defined]


def _binomial_truth(b: float, k: int, eps: float) -> mpmath.mpf:
    with mpmath.workdps(DPS):
        r = mpmath.exp(-1 / mpmath.mpf(b))
        p = 1 / (1 + r)
        a = 1 / mpmath.mpf(b)
        e = mpmath.mpf(eps)
        return mpmath.fsum(mpmath.binomial(k, j) * p ** j * (1 - p) ** (k - j) * max(0, 1 - mpmath.exp(e - (2 * j - k) * a))
                           for j in range(k + 1))


@pytest.mark.parametrize("curve", [PrivacyCurve.gaussian(1.0), PrivacyCurve.laplace(0.7, 1.3),
                                   PrivacyCurve.discrete_laplace(2.0, 3)], ids=["gaussian", "laplace", "dlaplace"])
def test_single_pld_encloses_the_closed_form(curve: PrivacyCurve) -> None:
    pld = from_curve(curve, 1e-2)
    for eps in (0.0, 0.4, 1.2, 1.8):
        enc, exact = pld.delta(eps), curve.delta(eps)
        assert enc.lower <= exact.lower and exact.upper <= enc.upper


@pytest.mark.parametrize("k,rel", [(10, 1e-4), (100, 1e-3)])
def test_gaussian_composition_contains_the_gdp_closed_form(k: int, rel: float) -> None:
    sigma = math.sqrt(k)          # the composition is a Gaussian with sigma/sqrt(k) = 1
    pld = compose(PrivacyCurve.gaussian(sigma), k=k, h=1e-3)
    for eps in (0.0, 1.0, 3.0, 5.0):
        truth = gaussian_delta_balle_wang(eps, 1.0, 1.0, dps=DPS)
        enc = pld.delta(eps)
        assert _inside(enc, truth), (eps, enc.lower, enc.upper, truth)
        assert enc.relative_width() <= rel * (10 if eps == 5.0 else 1)


def test_heterogeneous_gaussian_composition_contains_the_closed_form() -> None:
    # mu^2 = (1/2)^2 + (1/3)^2: one Gaussian with sigma = 1/sqrt(13/36) = 6/sqrt(13)
    pld = compose([PrivacyCurve.gaussian(2.0), PrivacyCurve.gaussian(3.0)], h=1e-3)
    for eps in (0.0, 0.5, 2.0):
        truth = gaussian_delta_balle_wang(eps, mpmath.mpf(6) / mpmath.sqrt(13), 1.0, dps=DPS)
        enc = pld.delta(eps)
        assert _inside(enc, truth) and enc.relative_width() <= 1e-4


@pytest.mark.parametrize("k", [10, 100])
def test_discrete_laplace_composition_contains_the_binomial_sum(k: int) -> None:
    pld = compose(PrivacyCurve.discrete_laplace(10.0, 1), k=k, h=1e-2)
    for eps in (0.05, 0.5, 1.0, 2.0):
        truth = _binomial_truth(10.0, k, eps)
        enc = pld.delta(eps)
        assert _inside(enc, truth)
        if truth > 1e-12:
            assert enc.relative_width() <= 1e-9


def test_laplace_composition_bounds_are_ordered_and_tighten_with_h() -> None:
    lap = PrivacyCurve.laplace(1.0)
    coarse, fine = compose(lap, k=20, h=2e-2), compose(lap, k=20, h=5e-3)
    for eps in (0.5, 2.0, 5.0):
        c, f = coarse.delta(eps), fine.delta(eps)
        assert c.lower <= c.upper and f.lower <= f.upper
        assert max(c.lower, f.lower) <= min(c.upper, f.upper)   # both enclose the same number
        assert f.width <= c.width


def test_composed_epsilon_brackets_the_closed_form_root() -> None:
    pld = compose(PrivacyCurve.gaussian(math.sqrt(10)), k=10, h=1e-3)
    iv = pld.epsilon(1e-5)
    with mpmath.workdps(DPS):
        root = mpmath.findroot(lambda e: gaussian_delta_balle_wang(e, 1.0, 1.0, dps=DPS) - mpmath.mpf("1e-5"),
                               (iv.lower - 0.01, iv.upper + 0.01), solver="anderson")
        assert mpmath.mpf(iv.lower) <= root <= mpmath.mpf(iv.upper)
    assert iv.upper - iv.lower < 1e-2


def test_composition_is_exact_and_order_free() -> None:
    a = from_curve(PrivacyCurve.discrete_laplace(1.0, 1), 0.5)
    b = from_curve(PrivacyCurve.discrete_laplace(1.0, 2), 0.5)
    ab, ba = a.compose(b), b.compose(a)
    assert ab.upper == ba.upper and ab.lower == ba.lower


def test_common_step_puts_the_atoms_on_the_grid() -> None:
    dl, lap, g = PrivacyCurve.discrete_laplace(0.5, 1), PrivacyCurve.laplace(0.5), PrivacyCurve.gaussian(1.0)
    assert common_step([dl], 1e-3) == Fraction(2)                 # losses are multiples of 1/b = 2
    assert common_step([dl, g], 1e-3) == Fraction(2, 2000)        # refined to <= h for the Gaussian
    assert common_step([dl, lap], 1e-3) == Fraction(2, 2000)      # Laplace atoms at +-Delta/b = +-2 on it too
    assert common_step([PrivacyCurve.laplace(1.0), dl], 1e-3) == Fraction(1, 1000)   # spacings 1 and 2: 1 divides
    assert common_step([PrivacyCurve.laplace(0.3), dl], 1e-3) == Fraction(1e-3)   # 1/0.3 in binary64: h
    # the Gaussian + discrete Laplace pair composed on that grid (no closed form): ordered ends, small width
    enc = compose([dl, g], h=1e-3).delta(1.0)
    assert 0 < enc.lower <= enc.upper and enc.relative_width() < 1e-4


def test_beyond_the_grid_only_the_inf_mass_remains() -> None:
    pld = from_curve(PrivacyCurve.laplace(1.0), 1e-2)
    enc = pld.delta(50.0)
    assert enc.lower == 0.0 and enc.upper == 0.0      # the loss of Laplace is at most Delta/b = 1


@pytest.mark.parametrize("call,name", [
    (lambda: from_curve(PrivacyCurve.gaussian(1.0), -1e-3), "h"),
    (lambda: compose(PrivacyCurve.gaussian(1.0), k=0), "k"),
    (lambda: compose([]), "at least one"),
    (lambda: from_curve(PrivacyCurve.gaussian(1.0), 1e-2, tail_mass=0.5), "tail_mass"),
    (lambda: from_curve(PrivacyCurve.gaussian(1.0), 1e-2).delta(-1.0), "eps"),
    (lambda: from_curve(PrivacyCurve.gaussian(1.0), 1e-2).compose(from_curve(PrivacyCurve.gaussian(1.0), 2e-2)),
     "grids differ"),
])
def test_invalid_input_raises_value_error(call: object, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        call()  # type: ignore[operator]


def test_student_t_pld_agrees_with_the_hockey_stick_enclosure() -> None:
    # two certified enclosures of the same number must intersect
    curve = PrivacyCurve.student_t(3.0, 1.0, 1.0)
    pld = from_curve(curve, 2e-3)
    for eps in (0.3, 1.0):
        a, b = pld.delta(eps), curve.delta(eps)
        assert max(a.lower, b.lower) <= min(a.upper, b.upper)
        assert a.relative_width() <= 1e-3
    assert pld.delta(1.5).upper == 0.0          # above the largest loss (~1.14 here) delta is exactly 0


def test_student_t_composition_bounds_are_ordered() -> None:
    pld = compose(PrivacyCurve.student_t(3.0, 3.0, 1.0), k=10, h=2e-3)
    for eps in (0.5, 1.5):
        enc = pld.delta(eps)
        assert 0 < enc.lower <= enc.upper and enc.relative_width() <= 5e-3


def test_export_to_dp_accounting() -> None:
    pytest.importorskip("dp_accounting")
    curve = PrivacyCurve.gaussian(2.0)
    ours = from_curve(curve, 1e-3)
    theirs = to_dp_accounting_pld(ours)
    for eps in (0.0, 0.5, 1.5):
        assert theirs.get_delta_for_epsilon(eps) == pytest.approx(ours.delta(eps).upper, rel=1e-9)
    assert isinstance(ours, GridPLD)


def test_deltas_on_a_grid_enclose_the_closed_form_like_delta() -> None:
    pld = compose(PrivacyCurve.gaussian(math.sqrt(10)), k=10, h=1e-3)   # one Gaussian with sigma = 1 (GDP)
    grid = [0.0, 0.7, 2.0, 4.5, 6.0]
    lo, hi = pld.deltas(grid)
    for e, a, b in zip(grid, lo, hi, strict=True):
        truth = gaussian_delta_balle_wang(e, 1.0, 1.0, dps=DPS)
        with mpmath.workdps(DPS):
            assert mpmath.mpf(a) <= truth <= mpmath.mpf(b)
        one = pld.delta(e)
        assert max(a, one.lower) <= min(b, one.upper) and (b - a) <= 1e-4 * b + 1e-300
    with pytest.raises(ValueError, match="eps"):
        pld.deltas([0.5, -1.0])
