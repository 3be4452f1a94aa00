"""Numeric candidate engine (smoothsens_core.sensitivity.generic) with hand-written specs (no SymPy).

The spec here is f(x) = x^2 on R^1 with the stationarity equations of the generic module doc
written out by hand: f' = 2x, f'' = 2, lambda = gamma (g_E), e = sign(z - x).
"""

import math

import numpy as np
import pytest

from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity.generic import (
    CandidateSystem,
    GenericSpec,
    RootCertificationError,
    generic_lipschitz,
    generic_smooth_sensitivity,
)

GAMMA, LAM = 1.0, 0.1


def _f(P):
    return P[:, 0] ** 2


def _grad(P):
    return 2 * P


def _s3(Y, X):  # z free, w -> z: f''(z) - f'(z) gamma sign(z - x)
    z = Y[:, 0]
    return (2 - 2 * z * GAMMA * np.sign(z - X[:, 0]))[:, None]


def _s4(sign, linear=False):
    # z free, w = z + sign Lambda: f'(w) - f'(z) - (f(w) - f(z)) lambda(r) sign(z - x), with
    # lambda = gamma (g_E) or gamma / (1 + gamma r) (g_L), r = |z - x|
    def res(Y, X):
        z = Y[:, 0]
        w = z + sign * LAM
        r = np.abs(z - X[:, 0])
        lam = GAMMA / (1 + GAMMA * r) if linear else GAMMA
        return (2 * w - 2 * z - (w**2 - z**2) * lam * np.sign(z - X[:, 0]))[:, None]

    return res


def _s3_linear(Y, X):  # S3 for g_L: f'' - f' gamma/(1 + gamma r) sign(z - x)
    z = Y[:, 0]
    r = np.abs(z - X[:, 0])
    return (2 - 2 * z * GAMMA / (1 + GAMMA * r) * np.sign(z - X[:, 0]))[:, None]


def _s4_printed(sign):  # the printed S4: partial derivative in z with w held fixed (times rho^3)
    def res(Y, X):
        z = Y[:, 0]
        w = z + sign * LAM
        D = w - z
        df = w**2 - z**2
        return (-2 * z * D**2 + df * D - df * D**2 * GAMMA * np.sign(z - X[:, 0]))[:, None]

    return res


def _spec(s4, Lambda=LAM, growth=None, s3=_s3):
    systems = (
        CandidateSystem("z=x, w->z", "x", "limit", paper_set="case 4"),
        CandidateSystem("z=x, sphere+", "x", "sphere", sign=1),
        CandidateSystem("z=x, sphere-", "x", "sphere", sign=-1),
        CandidateSystem("z free, w->z", "free", "limit", s3, paper_set="S3"),
        CandidateSystem("z free, sphere+", "free", "sphere", s4(1), sign=1, paper_set="S4"),
        CandidateSystem("z free, sphere-", "free", "sphere", s4(-1), sign=-1, paper_set="S4"),
    )
    return GenericSpec(1, _f, _grad, growth or growth_exp(GAMMA), Lambda, systems)


def test_generic_square_corrected_s4_gives_true_smooth_sensitivity():
    # By hand from 004 Def. 9: B*(0) = max_z (2|z| + Lambda) e^{-gamma |z|} = 2 e^{-0.95} (|z| = 0.95)
    res = generic_smooth_sensitivity(_spec(_s4), [0.0], radius=5.0, return_details=True)
    assert res.value[0] == pytest.approx(2 * math.exp(-0.95), rel=1e-12)
    assert abs(res.z[0, 0]) == pytest.approx(0.95, rel=1e-12)
    assert "sphere" in res.system[0]


def test_generic_square_printed_s4_misses_the_maximum():
    # ERRATUM 004 Sec. 3.3: with the printed S4 (partial derivative at fixed w) the candidate max is
    # max(S3: 2/e, printed S4: e^{-0.45}) = 2/e < 2 e^{-0.95}; the engine's sample guard notices it.
    with pytest.raises(RootCertificationError, match="missed the supremum"):
        generic_smooth_sensitivity(_spec(_s4_printed), [0.0], radius=5.0)


def test_generic_square_lipschitz_is_chord_to_the_sphere():
    # L(x) = 2|x| + Lambda for f = x^2 (chord to x + sign(x) Lambda), 004 Def. 7
    xs = np.array([-1.5, 0.0, 0.7])
    np.testing.assert_allclose(generic_lipschitz(_spec(_s4), xs), 2 * np.abs(xs) + LAM, rtol=1e-13)


def test_generic_raises_at_undeclared_kink():
    # f = |x| declared smooth: the S3 residual -sign(z) gamma sign(z - x) jumps at z = 0; the
    # bisection finds a sign change without a root and must raise, naming the point.
    def s3(Y, X):
        return (-np.sign(Y[:, 0]) * GAMMA * np.sign(Y[:, 0] - X[:, 0]))[:, None]

    spec = GenericSpec(
        1, lambda P: np.abs(P[:, 0]), lambda P: np.sign(P), growth_exp(GAMMA), math.inf,
        (CandidateSystem("z free, w->z", "free", "limit", s3, paper_set="S3"),),
    )
    with pytest.raises(RootCertificationError, match=r"point index 0, x=\[1.0\]"):
        generic_smooth_sensitivity(spec, [1.0])


def test_generic_raises_when_sup_is_at_infinity():
    # f = x^2, Lambda = 0.1, g_L: (2|z| + 0.1)/(1 + gamma |z|) increases to 2/gamma as |z| -> inf,
    # so no finite candidate attains the sup: the window-edge guard must raise.
    with pytest.raises(RootCertificationError, match="outside the search window"):
        spec = _spec(lambda sg: _s4(sg, linear=True), growth=growth_linear(GAMMA), s3=_s3_linear)
        generic_smooth_sensitivity(spec, [0.0], radius=5.0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(d=0), "d must be a positive integer"),
        (dict(d=2.5), "d must be a positive integer"),
        (dict(Lambda=0.0), r"Lambda must be in \(0, inf\)"),
        (dict(Lambda=-2.0), r"Lambda must be in \(0, inf\)"),
        (dict(kinks=[[0.0, 1.0]], kink_slopes=[[0.0, 1.0]], d=2), "kinks are supported for d = 1 only"),
        (dict(Lambda=math.inf), "need a finite Lambda"),
        (dict(kinks=[0.0], kink_slopes=np.zeros((0, 2))), "one row per kink"),
    ],
)
def test_generic_spec_rejects_bad_parameters(kwargs, match):
    base = dict(d=1, f=_f, grad=_grad, growth=growth_exp(1.0), Lambda=LAM,
                systems=(CandidateSystem("z=x, sphere+", "x", "sphere", sign=1),))
    base.update(kwargs)
    with pytest.raises(ValueError, match=match):
        GenericSpec(**base)


def test_candidate_system_rejects_unknown_modes():
    with pytest.raises(ValueError, match="z_mode must be one of"):
        CandidateSystem("bad", "nowhere", "free")
    with pytest.raises(ValueError, match="w_mode must be one of"):
        CandidateSystem("bad", "x", "elsewhere")


@pytest.mark.parametrize(
    "points, match",
    [
        ([np.nan], "points must contain only finite numbers"),
        ([[0.0, 1.0]], r"points must have shape \(n, 1\)"),
        ([-np.inf, 0.0], "points must contain only finite numbers"),
    ],
)
def test_generic_rejects_bad_points(points, match):
    with pytest.raises(ValueError, match=match):
        generic_smooth_sensitivity(_spec(_s4), points)


def test_engine_entries_reject_a_spec_of_the_wrong_type():
    from smoothsens_core.sensitivity.generic_piecewise import piecewise_lipschitz, piecewise_smooth_sensitivity

    with pytest.raises(TypeError, match="spec must be a GenericSpec; got dict"):
        generic_lipschitz({}, [0.0])
    with pytest.raises(TypeError, match="spec must be a GenericSpec; got str"):
        generic_smooth_sensitivity("x**2", [0.0])
    for entry in (piecewise_lipschitz, piecewise_smooth_sensitivity):
        with pytest.raises(TypeError, match="spec must be a PiecewiseSpec; got GenericSpec"):
            entry(_spec(_s4), [[0.0, 0.0]])


def test_generic_entry_rejects_the_piecewise_only_keyword_keep():
    # ``keep`` is an option of the piecewise solver only (generic_piecewise); the smooth engine has no such knob
    with pytest.raises(TypeError, match="keep"):
        generic_smooth_sensitivity(_spec(_s4), [0.0], keep=3)
