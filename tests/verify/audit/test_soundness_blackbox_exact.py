"""The exact side of the black-box mechanism audit (verify.audit.blackbox.mechanism) on densities
that are infinite, NaN or misdescribed in mpmath: never a pass.

* x + U(-1, 1) claimed 1-GP: at x = 0, x' = 1 the output y = -0.5 has density 1/2 under x and 0 under
  x': an infinite privacy loss (a certified FAIL, whatever the sampling side sees);
* a log_density_mp that returns 0 while log_density is Laplace with half the scale: the float loss
  (2 per unit distance) and the mpmath one disagree, so the exact side settles nothing: INCONCLUSIVE,
  and the text says why (not "give log_density_mp", which it has).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from verify.audit.blackbox import audit_blackbox_mechanism


class UniformShift:
    metric = "euclidean"
    delta = 0.0
    eps = 1.0

    def log_density(self, x, y):
        y = np.asarray(y, float)
        x = np.asarray(x, float)
        return np.where(np.abs(y - x) <= 1.0, math.log(0.5), -np.inf)

    def log_density_mp(self, x, y, dps):
        with mpmath.workdps(dps):
            return mpmath.log(mpmath.mpf(1) / 2) if abs(mpmath.mpf(y) - mpmath.mpf(float(x))) <= 1 else -mpmath.inf

    def release(self, x, rng):
        x = np.asarray(x, float)
        return x + rng.uniform(-1.0, 1.0, size=x.shape)


class LyingLaplace:
    """Laplace with scale 1/2 (true GP eps 2) whose mpmath density is the constant 0."""

    metric = "euclidean"
    delta = 0.0
    eps = 1.0

    def log_density(self, x, y):
        return -2.0 * np.abs(np.asarray(y, float) - np.asarray(x, float)) - math.log(0.25) * 0 + math.log(1.0)

    def log_density_mp(self, x, y, dps):
        return mpmath.mpf(0)

    def release(self, x, rng):
        x = np.asarray(x, float)
        return x + rng.laplace(scale=0.5, size=x.shape)


def test_uniform_shift_support_mismatch_is_a_certified_fail():
    m = UniformShift()
    rep = audit_blackbox_mechanism(m.release, 1.0, pairs=[(0.0, 1.0)], rng=3, budget=20_000, density=m)
    assert rep.exact_outcome == "violated"
    assert not rep.passed
    assert rep.verdict_text().startswith("FAIL")


def test_disagreeing_log_density_mp_is_inconclusive_and_says_why():
    m = LyingLaplace()
    # the sampling side alone may or may not see eps 2 > 1 at this budget; the exact side must never pass
    rep = audit_blackbox_mechanism(m.release, 1.0, pairs=[(0.0, 1.0)], rng=5, budget=2_000, density=m)
    assert rep.exact_outcome in ("inconclusive", "violated")
    assert not rep.passed
    if rep.outcome == "inconclusive":
        assert "log_density_mp" in rep.verdict_text() and "disagree" in rep.verdict_text()


def test_pair_loss_keeps_an_infinite_loss_and_flags_nan():
    """The per-pair exact loss: +inf (support mismatch) stays +inf, a NaN log-density is flagged."""
    from verify.audit.blackbox.mechanism import _ClaimedMechanism, _exact_pair_loss

    draws = np.random.default_rng(0).uniform(-1.0, 1.0, 2000)
    val, _, y, _, had_nan = _exact_pair_loss(_ClaimedMechanism(UniformShift(), 1.0, 0.0), 0.0, 1.0, draws, 30)
    assert val == math.inf and -1.0 <= y < 0.0 and not had_nan

    class NaNDensity(UniformShift):
        def log_density(self, x, y):
            out = np.asarray(super().log_density(x, y), float).copy()
            out[np.abs(np.asarray(y, float) - 0.25) < 0.1] = np.nan
            return out

    *_, had_nan = _exact_pair_loss(_ClaimedMechanism(NaNDensity(), 1.0, 0.0), 0.0, 0.0 + 1e-3, draws, 30)
    assert had_nan
