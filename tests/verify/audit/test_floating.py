"""Floating-point audit (Mironov 2012): naive float Laplace fails with an explicit certificate,
snapping and discrete noise pass, a wrong model is inconclusive; the rng detector."""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from verify.audit.blackbox import (
    AdditiveModel,
    IntegerModel,
    SnappedModel,
    SnappingMechanism,
    audit_blackbox_mechanism,
    audit_floating_mechanism,
    check_rng_use,
)
from verify.audit.blackbox.floating import doubles_in, rounding_interval


def naive_laplace(x, rng):
    return np.asarray(x, dtype=float) + rng.laplace(scale=1.0 / 0.5, size=np.shape(x))


def geometric(x, rng):
    x = np.asarray(x, dtype=float)
    p = 1 - math.exp(-0.5)
    return x + rng.geometric(p, size=x.shape) - rng.geometric(p, size=x.shape)


def os_random_laplace(x, rng):
    return np.asarray(x, dtype=float) + np.random.default_rng().laplace(scale=1.0, size=np.shape(x))


def test_naive_float_laplace_fails_with_certificate():
    r = audit_floating_mechanism(naive_laplace, AdditiveModel(2.0), pairs=[(0.0, 1.0)], budget=2000, rng=1)
    assert r.violated and r.outcome == "violated"
    c = r.certificate
    assert c is not None and c.x == 0.0 and c.x_prime == 1.0
    # Independent check of the certificate: no double z has fl(1 + fl(2*s)) == y; y - 1 rounds to
    # an interval with no double in it (exact rationals), or each double in it misses y.
    lo, hi = rounding_interval(c.y)
    zs, complete = doubles_in(lo - 1, hi - 1)
    assert complete and all(1.0 + z != c.y or not any(2.0 * s == z for s in (z / 2,)) for z in zs)
    assert float.fromhex(c.to_json()["y_hex"]) == c.y
    assert r.delta_lower > 0.05
    assert "FAIL: infinite privacy loss" in r.verdict_text() and c.to_json()["y_hex"] in r.verdict_text()


def test_snapping_mechanism_passes():
    sm = SnappingMechanism(eps=0.5, bound=64.0)
    assert sm.Lambda == 2.0
    r = audit_floating_mechanism(sm.release, sm.model(), pairs=[(0.0, 1.0), (10.0, 11.0)], budget=2000, rng=2)
    assert r.passed, r.summary()
    assert r.delta_lower == 0.0


def test_discrete_noise_passes_and_naive_laplace_is_not_integer():
    assert audit_floating_mechanism(geometric, IntegerModel(), pairs=[(0.0, 1.0)], budget=2000).passed
    r = audit_floating_mechanism(naive_laplace, IntegerModel(), pairs=[(0.0, 1.0)], budget=200)
    assert r.inconclusive and "does not describe" in r.verdict_text()


def test_snapped_output_under_additive_model_is_not_a_false_certificate():
    sm = SnappingMechanism(eps=1.0, bound=16.0)
    r = audit_floating_mechanism(sm.release, AdditiveModel(1.0), pairs=[(0.0, 1.0)], budget=1000)
    assert r.passed


def test_rounding_interval_and_enumeration_are_exact():
    lo, hi = rounding_interval(1.0)
    assert lo == 1 - Fraction(1, 2**54) and hi == 1 + Fraction(1, 2**53)
    ds, complete = doubles_in(Fraction(1), Fraction(1) + Fraction(3, 2**52))
    assert complete and ds == [1.0, 1.0 + 2**-52, 1.0 + 2**-51, 1.0 + 3 * 2**-52]


def test_floating_rejects_bad_inputs():
    with pytest.raises(ValueError, match="must differ"):
        audit_floating_mechanism(naive_laplace, AdditiveModel(1.0), pairs=[(1.0, 1.0)])
    with pytest.raises(TypeError, match="OutputModel"):
        audit_floating_mechanism(naive_laplace, "additive", pairs=[(0.0, 1.0)])
    with pytest.raises(ValueError, match="power of two"):
        SnappedModel(3.0, 10.0)
    with pytest.raises(ValueError, match="scale"):
        AdditiveModel(-1.0)


def test_check_rng_use_flags_a_release_that_ignores_the_rng():
    assert not check_rng_use(naive_laplace, 0.0).ignores_rng
    u = check_rng_use(os_random_laplace, 0.0, seed=3)
    assert u.ignores_rng and u.consumed is False
    assert "the mechanism ignores the rng: --seed does not make this audit reproducible" in u.warning


def test_blackbox_report_carries_the_rng_warning():
    r = audit_blackbox_mechanism(os_random_laplace, 1.0, pairs=[(0.0, 1.0)], budget=2000, density=False)
    assert r.rng_use is not None and r.rng_use.ignores_rng
    assert "ignores the rng" in r.verdict_text() and r.to_json()["rng_use"]["ignores_rng"] is True
    ok = audit_blackbox_mechanism(naive_laplace, 0.5, pairs=[(0.0, 1.0)], budget=2000, density=False)
    assert not ok.rng_use.ignores_rng and "ignores" not in ok.verdict_text()


def test_cli_floating_fails_on_naive_laplace(tmp_path):
    mod = tmp_path / "mech.py"
    mod.write_text("import numpy as np\n"
                   "def naive(x, rng):\n    return np.asarray(x, float) + rng.laplace(scale=1.0, size=np.shape(x))\n"
                   "def secure(x, rng):\n    return np.asarray(x, float) + np.random.default_rng().laplace(scale=1.0, size=np.shape(x))\n")
    out = subprocess.run([sys.executable, "-m", "verify.cli", "audit-impl", f"{mod}:naive", "--kind", "floating",
                          "--pair", "0:1", "--budget", "500", "--no-progress"], capture_output=True, text=True)
    assert out.returncode == 3, out.stderr
    assert "infinite privacy loss certified" in out.stdout and "0x1." in out.stdout
    out = subprocess.run([sys.executable, "-m", "verify.cli", "audit-impl", f"{mod}:secure", "--kind", "mechanism",
                          "--eps", "1", "--pair", "0:1", "--budget", "1000", "--no-progress"],
                         capture_output=True, text=True)
    assert "WARNING: the mechanism ignores the rng: --seed does not make this audit reproducible" in out.stdout
