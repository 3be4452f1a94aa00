"""verify.strategies: the drawn pairs satisfy their neighbour relation and the drawn mechanisms are
valid calibrations; property: calibrated losses respect eps * d, a planted overspend does not."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from smoothsens_core.asymmetric import NeighbourRelation
from smoothsens_core.calibration import calibrate_student_t
from verify.audit.exact import OrderedNeighbourhood, abstract_loss, audit_smooth_mechanism
from verify.strategies import (
    calibrated_mechanisms,
    euclidean_pairs,
    gencauchy_mechanisms,
    hamming_pairs,
    laplace_approx_mechanisms,
    p_neighbouring_pairs,
    polyplace_mechanisms,
    smooth_pairs,
    student_t_mechanisms,
)


@given(euclidean_pairs(dim=3, Lambda=0.5, bound=10.0))
def test_euclidean_pairs_within_lambda(pair):
    x, xp, d = pair
    assert 0 < d <= 0.5 + 1e-12
    assert d == pytest.approx(float(np.linalg.norm(x - xp)), rel=1e-12)


@given(hamming_pairs((0, 1, 2), 5))
def test_hamming_pairs_differ_in_one_record(pair):
    X, Xp = pair
    assert len(X) == len(Xp) == 5
    assert sum(a != b for a, b in zip(X, Xp, strict=True)) == 1


@given(p_neighbouring_pairs(range(6), 4, lambda v: v >= 3))
def test_p_neighbouring_pairs_satisfy_003_def_iv1(pair):
    X, Xp = pair
    assert OrderedNeighbourhood.p_neighbouring(lambda v: v >= 3)(X, Xp)
    # the same relation as the core's (corrected) NeighbourRelation.from_policy

    rel = NeighbourRelation.from_policy(np.arange(6) >= 3)
    (i,) = [k for k in range(4) if X[k] != Xp[k]]
    assert rel.allowed[X[i], Xp[i]]


def test_p_neighbouring_relation_is_the_corrected_def_iv1():
    # 003 Def. IV.1 corrected (claim 003-Def-IV.1): non-sensitive -> anything, sensitive -> sensitive only
    rel = OrderedNeighbourhood.p_neighbouring(lambda v: v >= 2)
    assert rel((0, 1), (0, 3)) and rel((0, 1), (0, 0)) and rel((0, 3), (0, 2))
    assert not rel((0, 3), (0, 1)) and not rel((0, 1), (0, 1)) and not rel((0, 1), (1, 3))


def test_strategies_reject_degenerate_universes():
    @given(hamming_pairs((1, 1), 3))
    def draw_hamming(pair):
        pass

    @given(p_neighbouring_pairs((1,), 3, lambda v: True))
    def draw_p(pair):
        pass

    with pytest.raises(ValueError, match="at least 2 distinct values"):
        draw_hamming()
    with pytest.raises(ValueError, match="universe must allow a p-neighbouring change"):
        draw_p()


@settings(max_examples=30)
@given(spec=st.one_of(gencauchy_mechanisms(max_m=3), student_t_mechanisms(), laplace_approx_mechanisms(),
                     polyplace_mechanisms()))
def test_mechanism_strategies_give_valid_calibrations(spec):
    assert spec.eta > 0 and spec.eps > 0
    if spec.noise.name == "GenCauchy":
        p, th = spec.noise.p, spec.noise.theta
        eps = max(spec.m * spec.growth.gamma, spec.m * (p * th - 1) * spec.growth.gamma) + th * (p - 1) ** (
            (p - 1) / p) * spec.eta
        assert eps == pytest.approx(spec.eps, rel=1e-9)  # 004 Lemma 3.3 / Cor. 3.2 round trip
    if spec.noise.name == "StudentT":
        nu = spec.noise.nu
        assert nu * spec.growth.gamma + (nu + 1) / (2 * math.sqrt(nu)) * spec.eta == pytest.approx(spec.eps, rel=1e-9)
    if spec.noise.name == "PolyPlace":
        assert spec.metric == "hamming" and spec.noise.alpha * spec.growth.gamma == pytest.approx(spec.eps)


@settings(max_examples=60)
@given(data=st.data(), spec=calibrated_mechanisms(pure_only=True))
def test_calibrated_loss_at_most_eps_times_distance(data, spec):
    d, r, shift, y = data.draw(smooth_pairs(spec))
    assert abs(r) <= float(spec.growth.log_g0(d)) + 1e-15
    assert sum(abs(s) for s in shift) <= min(math.exp(r), 1.0) * d * (1 + 1e-12)
    L = abstract_loss(spec, np.array([r]), np.array([shift]), np.array([y]))[0]
    assert L <= spec.eps * d + 1e-9 * (1 + spec.eps * d)


def test_property_catches_a_planted_overspend():
    # The same property with the overspent Student t (eta = 0.8 instead of 0.48, 004 Lemma 3.5)
    # must fail for some drawn pair: hypothesis.find searches smooth_pairs for a violating one.
    spec = dataclasses.replace(calibrate_student_t(1.0, 0.1, nu=4.0).mechanism(), eta=0.8)  # fault: eta 0.8 > 0.48

    def violates(inst):
        d, r, shift, y = inst
        return abstract_loss(spec, np.array([r]), np.array([shift]), np.array([y]))[0] > spec.eps * d + 1e-6

    d, r, shift, y = find(smooth_pairs(spec), violates, settings=settings(max_examples=5000, database=None))
    assert abstract_loss(spec, np.array([r]), np.array([shift]), np.array([y]))[0] > spec.eps * d


@settings(max_examples=3, deadline=None)
@given(spec=calibrated_mechanisms(pure_only=True))
def test_audits_of_drawn_calibrated_mechanisms_pass(spec):
    # The strategies' contract for audits: a drawn calibrated mechanism *passes* (outcome "pass"):
    # neither a certified violation nor an uncertified excess (inconclusive is not a pass).
    res = audit_smooth_mechanism(spec, rng=np.random.default_rng(0), n_random=400, n_local=1, maxfev=80)
    assert res.passed and res.outcome == "pass", res.summary()


# -- output strategies and neighbour_pairs ----------------------------------------------
from verify.strategies import binary64_outputs, discrete_outputs, location_scale_outputs, neighbour_pairs  # noqa: E402


@given(neighbour_pairs("euclidean", dim=2, Lambda=0.5))
def test_neighbour_pairs_euclidean_within_lambda(pair):
    x, xp = pair
    assert 0 < np.linalg.norm(x - xp) <= 0.5 + 1e-12


@given(neighbour_pairs("hamming", universe=(0, 1, 2), n=4))
def test_neighbour_pairs_hamming_differ_in_one_record(pair):
    x, xp = pair
    assert sum(a != b for a, b in zip(x, xp, strict=True)) == 1


def test_neighbour_pairs_p_neighbouring_needs_a_policy():
    with pytest.raises(ValueError, match="needs policy"):
        neighbour_pairs("p-neighbouring")
    with pytest.raises(ValueError, match="metric"):
        neighbour_pairs("manhattan")


@given(location_scale_outputs(0.0, 1.0, 2.0))
def test_location_scale_outputs_are_finite_and_bounded(y):
    assert math.isfinite(y) and abs(y) <= 1.0 + 2.0 * 40.0 + 1e-9


def test_location_scale_outputs_reach_the_far_tail_and_the_centre():
    assert find(location_scale_outputs(0.0, 1.0, 2.0), lambda y: y > 60.0) > 60.0
    assert abs(find(location_scale_outputs(0.0, 1.0, 2.0), lambda y: abs(y - 1.0) < 1e-2) - 1.0) < 1e-2
    with pytest.raises(ValueError, match="scale"):
        find(location_scale_outputs(0.0, 1.0, -1.0), lambda y: True)


@given(discrete_outputs([-1, 0, 3]))
def test_discrete_outputs_stay_in_the_support(z):
    assert z in (-1, 0, 3)


@given(binary64_outputs(grid=0.5, bound=10.0))
def test_binary64_outputs_near_the_grid(y):
    assert abs(y) <= 10.5 + 1e-9
