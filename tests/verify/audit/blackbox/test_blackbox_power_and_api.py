"""Mixed outputs seen through their cells, the input search by successive halving, (eps, delta) claims on
vector outputs, and assert_private with a declared relation.

Reference values (each from the mechanism's definition):
* the mixed output (s, v) with s ~ Bernoulli(1/2) independent of x and v = (x if s else -x) + Lap(1) has
  loss exactly 1 per unit of |x - x'| (the density ratio of v given s), while its value alone has loss
  at most ln((e + e^-1)/2) + ... < 1: at (0, 1), p_1(v)/p_0(v) -> e/2 in the right tail (ln = 0.307);
* the Gaussian mechanism x + N(0, I_3) at ||x - x'||_2 = 1 has delta(eps = 1) = Phi(-1/2) - e Phi(-3/2)
  = 0.126937 (Balle & Wang, ICML 2018, Thm. 8, with mu = Delta/sigma = 1; mpmath at 30 digits:
  ncdf(-0.5) - e * ncdf(-1.5) = 0.12693674...);
* the noisy histogram a + Lap(1/eps)^m is eps-DP under ||a - a'||_1 <= 1 (Dwork & Roth 2014, Prop. 1);
  a noisy count of a dataset + Lap(1) is 1-DP under add/remove-one.
"""

from __future__ import annotations

import numpy as np
import pytest

from verify.audit.blackbox import audit_blackbox_mechanism
from verify.audit.blackbox.events import CellSetEvent, select_event
from verify.audit.blackbox.input_search import InputSearch
from verify.audit.blackbox.relations import AddRemoveOne, QueryAnswers, SubstituteOne
from verify.pytest_plugin import assert_private


def _state_value(x, rng):
    s = int(rng.random() < 0.5)
    x0 = float(np.asarray(x, dtype=float).reshape(-1)[0])
    return s, (x0 if s else -x0) + rng.laplace(scale=1.0)


def _state_value_vec(X, rng):
    x = np.asarray(X, dtype=float).reshape(len(X), -1)[:, 0]
    s = (rng.random(x.size) < 0.5).astype(np.int64)
    return s, np.where(s == 1, x, -x) + rng.laplace(scale=1.0, size=x.size)


def test_cell_events_see_a_leak_that_lives_in_the_joint_of_state_and_value():
    rng = np.random.default_rng(3)
    S0 = np.column_stack(_state_value_vec(np.zeros((4000, 1)), rng)).astype(float)
    S1 = np.column_stack(_state_value_vec(np.ones((4000, 1)), rng)).astype(float)
    sel = select_event(S0, S1, ("support",), n_est=20_000, d=1.0, delta=0.0, level=1e-3, symmetric=True, notes=[])
    assert isinstance(sel.event, CellSetEvent)
    assert sel.event.columns == (0,) and sel.event.real_columns == (1,)
    # membership is a fixed function of the output: the same rows in, whatever else is counted with them
    F = np.array([[1.0, 5.0], [0.0, 5.0], [1.0, -5.0], [0.0, -5.0]])
    assert np.array_equal(sel.event.contains(F), np.concatenate([sel.event.contains(F[:2]), sel.event.contains(F[2:])]))
    assert "bin of sum" in sel.event.text
    # claimed 0.5 per unit: the joint loss is 1, the value alone leaks at most ~0.31 at this pair
    rep = audit_blackbox_mechanism(_state_value_vec, 0.5, "euclidean", pairs=[([0.0], [1.0])], budget=20_000, rng=0,
                                   vectorised=True, events=("support", "projection"), density=False)
    assert rep.violated and 0.5 < rep.eps_lower <= 1.0
    assert max(rep.pairs, key=lambda p: p.eps_lower).event_family.startswith("support cells")


def test_input_search_by_successive_halving_lists_every_pair_and_keeps_the_best():
    def hist_half_scale(X, rng):
        A = np.asarray(X, dtype=float)
        return A + rng.laplace(scale=0.5, size=A.shape)

    rep = audit_blackbox_mechanism(hist_half_scale, 1.0, relation=QueryAnswers("l1", 1.0),
                                   search=InputSearch(base=[1.0, 1.0, 1.0], candidates=8, keep=2, rounds=2), budget=20_000,
                                   rng=0, vectorised=True, events=("projection",), density=False)
    assert len(rep.pairs_tried) == 8 and len({p.x_prime.__repr__() for p in rep.pairs}) <= 2
    assert sum("left out after round 1" in t for t in rep.pairs_tried) == 4  # 8 -> 4 survivors, 2 kept
    assert rep.violated and 1.0 < rep.eps_lower <= 2.0


def _gauss3(x, rng):
    return np.asarray(x, dtype=float) + rng.normal(size=3)


def test_vector_gaussian_delta_claim_too_small_fails_and_a_true_one_passes():
    rel = QueryAnswers("l1", 1.0)  # the pair moves one answer by 1: euclidean distance 1
    pair = [([0.0, 0.0, 0.0], [1.0, 0.0, 0.0])]
    bad = audit_blackbox_mechanism(_gauss3, 1.0, relation=rel, pairs=pair, claimed_delta=0.01, budget=6_000, rng=0,
                                   density=False)
    assert bad.violated and 0.01 < bad.delta_lower <= 0.126937  # the true delta(1) is 0.126937
    assert "delta >=" in bad.verdict_text()
    ok = audit_blackbox_mechanism(_gauss3, 1.0, relation=rel, pairs=pair, claimed_delta=0.2, budget=6_000, rng=0,
                                  density=False)
    assert ok.passed and ok.delta_lower <= 0.126937


def _user_histogram(answers, rng):
    # as a user writes it: one draw per call, a vector out
    a = np.asarray(answers, dtype=float)
    return a + rng.laplace(scale=1.0, size=a.shape)


def _user_histogram_too_little_noise(answers, rng):
    a = np.asarray(answers, dtype=float)
    return a + rng.laplace(scale=0.4, size=a.shape)


def _noisy_count(records, rng):
    return float(len(np.atleast_1d(records))) + rng.laplace(scale=1.0)


def test_assert_private_takes_a_relation_and_a_vector_release():
    pair = [([3.0, 1.0, 4.0], [3.0, 2.0, 4.0])]
    rep = assert_private(_user_histogram, eps=1.0, pairs=pair, relation=QueryAnswers("l1", 1.0), budget=5_000)
    assert rep.passed and rep.output_shape == "vector"
    with pytest.raises(AssertionError, match=r"under query answers .* refuted"):
        assert_private(_user_histogram_too_little_noise, eps=1.0, pairs=pair, relation=QueryAnswers("l1", 1.0),
                       budget=5_000)


def test_assert_private_add_remove_pair_and_refusals():
    rep = assert_private(_noisy_count, eps=1.0, pairs=[([1, 0, 1], [1, 0])], relation=AddRemoveOne(), budget=8_000)
    assert rep.passed and "add/remove-one" in rep.metric
    with pytest.raises(ValueError, match="pairs\\[0\\]"):  # sizes 3 and 2 are not substitute-one neighbours
        assert_private(_noisy_count, eps=1.0, pairs=[([1, 0, 1], [1, 0])], relation=SubstituteOne(), budget=8_000)
    with pytest.raises(ValueError, match="either relation or metric"):
        assert_private(_noisy_count, eps=1.0, pairs=[([1, 0, 1], [1, 0])], relation=AddRemoveOne(), metric="hamming")
    with pytest.raises(TypeError, match="relation must be"):
        assert_private(_noisy_count, eps=1.0, pairs=[([1, 0, 1], [1, 0])], relation="add-remove")
