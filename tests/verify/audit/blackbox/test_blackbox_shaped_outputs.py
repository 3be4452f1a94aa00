"""Outputs of any shape (verify.audit.blackbox.shaped, .events): vectors, tuples of mixed kinds, booleans.

Reference values (each from the mechanism's definition): the noisy histogram a + Lap(1/eps)^m has
loss eps under ||a - a'||_1 <= 1 (Dwork & Roth 2014, Prop. 1); with scale 1/(2 eps) it is 2 eps.
Report-noisy-max returning the noisy maximum value with Lap(2/eps) noise on m = 5 answers moving by at
most 1 (l_inf) has loss m/(2/eps) = 2.5 eps on the all-below pattern (the left tail of the max: all m
answers below t, each ratio e^(eps/2); StatDP's noisy_max_v1b, Ding et al. CCS 2018, Table 1).
"""

from __future__ import annotations

import numpy as np
import pytest

from verify.audit.blackbox import audit_blackbox_mechanism
from verify.audit.blackbox.events import features, flatten_output
from verify.audit.blackbox.relations import QueryAnswers
from verify.pytest_plugin import assert_private


def _hist(x, rng):
    a = np.asarray(x, dtype=float)
    return a + rng.laplace(scale=1.0, size=a.shape)


def _hist_half_scale(x, rng):
    a = np.asarray(x, dtype=float)
    return a + rng.laplace(scale=0.5, size=a.shape)


def test_flatten_outputs_of_mixed_kinds():
    assert flatten_output((3, np.array([1.5, 2.0]), True, {2, 1})) == [3.0, 1.5, 2.0, 1.0, 1.0, 2.0]
    F = features([(1, 2.0), (1, 2.0, 3.0)])  # lengths vary: the length is the first feature
    assert F.tolist() == [[2.0, 1.0, 2.0, 0.0], [3.0, 1.0, 2.0, 3.0]]
    with pytest.raises(TypeError, match="outputs must be numbers"):
        flatten_output("abc")


def test_vector_output_violation_fails_and_correct_one_passes():
    rel = QueryAnswers("l1", 1.0)
    pair = [([0.0, 0.0, 0.0], [1.0, 0.0, 0.0])]
    bad = audit_blackbox_mechanism(_hist_half_scale, 1.0, relation=rel, pairs=pair, budget=10_000, rng=0)
    assert bad.violated and bad.output_shape == "vector"
    assert 1.0 < bad.eps_lower <= 2.0
    ok = audit_blackbox_mechanism(_hist, 1.0, relation=rel, pairs=pair, budget=10_000, rng=0)
    assert ok.passed and ok.eps_lower <= 1.0
    assert "came from a" in ok.summary()  # the report names the event family that gave the bound


def test_tuple_output_index_and_value_and_vectorised_draws_agree():
    # report-noisy-max returning (index, value); the index part alone is 1-DP, the value is not private
    # at eps = 0.2 for these answers (loss 2.5 * 0.2 = 0.5 per pair): the joint audit sees the value
    def rnm(X, rng):  # vectorised: a stack of answer vectors -> (indices, values)
        z = np.asarray(X, dtype=float) + rng.laplace(scale=2.0 / 0.2, size=np.shape(X))
        return np.argmax(z, axis=-1), np.max(z, axis=-1)

    rep = audit_blackbox_mechanism(rnm, 0.2, relation=QueryAnswers("linf", 1.0), vectorised=True,
                                   pairs=[([0.0] * 5, [1.0] * 5)], budget=60_000, rng=3)
    assert rep.violated and 0.2 < rep.eps_lower <= 0.5

    def hist_stack(X, rng):
        A = np.asarray(X, dtype=float)
        return A + rng.laplace(scale=1.0, size=A.shape)

    kw = dict(relation=QueryAnswers("l1", 1.0), pairs=[([0.0, 0.0], [1.0, 0.0])], budget=4_000, rng=2)
    one = audit_blackbox_mechanism(_hist, 1.0, **kw)
    stacked = audit_blackbox_mechanism(hist_stack, 1.0, vectorised=True, **kw)
    assert one.eps_lower == stacked.eps_lower and not one.vectorised and stacked.vectorised


def test_boolean_vector_output_exact_support_counting():
    # randomised response on 3 bits with flip probability 1/(1 + e^eps_bit), eps_bit = 0.5: changing one
    # bit of the input costs 0.5 (the other bits cancel); a claim of 0.25 is refuted on the joint support
    def rr(x, rng):
        x = np.asarray(x, dtype=bool)
        flip = rng.random(x.shape) < 1.0 / (1.0 + np.exp(0.5))
        return x ^ flip

    rep = audit_blackbox_mechanism(rr, 0.25, "hamming", pairs=[([1, 0, 0], [0, 0, 0])], budget=40_000, rng=4)
    assert rep.violated and 0.25 < rep.eps_lower <= 0.5


def test_assert_private_audits_a_vector_release_in_one_line():
    assert_private(_hist, eps=1.0, pairs=[([0.0, 0.0, 0.0], [1.0, 0.0, 0.0])], metric="hamming", budget=10_000)
    with pytest.raises(AssertionError, match="refuted"):
        assert_private(_hist_half_scale, eps=1.0, pairs=[([0.0, 0.0, 0.0], [1.0, 0.0, 0.0])], metric="hamming",
                       budget=10_000)
