"""Tests of smoothsens_core.direction (000): direction-oriented smooth sensitivity and the Lemma 2 mechanism."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate

from smoothsens_core.direction import DirectionOrientedMechanism, FiniteFunction, powerlaw_admissibility


def _table_function(values: np.ndarray, q: int, n: int) -> FiniteFunction:
    table = np.asarray(values, dtype=float).reshape(q**n, -1)
    return FiniteFunction(lambda D: table[np.ravel_multi_index(tuple(D.T), (q,) * n)], q, n)


def test_directional_local_sensitivity_hand_example() -> None:
    # f(x) = x1 + x2 on {0,1}^2 (m = 1): LS+ (0,0) = max_y f(y) - f(x) = 1; LS- (0,0) = max f(x) - f(y) = -1
    F = FiniteFunction(lambda D: D.sum(1), 2, 2)
    i00 = F.index([0, 0])
    assert F.directional_local_sensitivity(0, "+")[i00] == 1.0
    assert F.directional_local_sensitivity(0, "-")[i00] == -1.0
    assert F.local_sensitivity()[i00] == 1.0
    assert F.global_sensitivity() == 1.0


@settings(max_examples=25)
@given(vals=st.lists(st.integers(0, 4), min_size=16, max_size=16), beta=st.floats(0.05, 2.0))
def test_smooth_sensitivity_is_smooth_upper_bound_and_below_classic_property(vals: list[int], beta: float) -> None:
    F = _table_function(np.array(vals).reshape(8, 2), 2, 3)
    S = F.smooth_sensitivity(beta)
    for i in range(2):
        for s in "+-":
            Sis = F.smooth_sensitivity(beta, i, s)
            assert F.is_smooth_upper_bound(Sis, beta, F.directional_local_sensitivity(i, s))   # 000 Thm. 2
            assert np.all(Sis <= S + 1e-12)                                                      # 000 Thm. 3
            np.testing.assert_allclose(F.smooth_sensitivity_radius(beta, i, s), Sis, atol=1e-12)  # 000 Thm. 4


def test_thm4_printed_weight_differs() -> None:
    F = FiniteFunction(lambda D: np.stack([D.sum(1), D.max(1)], 1), 3, 3)
    full = F.smooth_sensitivity(0.3, 1, "+")
    assert not np.allclose(F.smooth_sensitivity_radius(0.3, 1, "+", printed=True), full)


def test_powerlaw_admissibility_constants() -> None:
    a, b = powerlaw_admissibility(3.0, 2.0, 1.0)
    assert a == pytest.approx(2.0 ** (1 / 3) / (2 * 2.0 ** (2 / 3)))   # l^{1/k} eps / (2 (k-1)^{(k-1)/k})
    assert b == pytest.approx(0.25)
    assert powerlaw_admissibility(1.5, 1.0, 1.0, corrected=False)[1] == pytest.approx(1.0)
    assert powerlaw_admissibility(1.5, 1.0, 1.0)[1] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="k must be > 1"):
        powerlaw_admissibility(1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="eps must be in"):
        powerlaw_admissibility(3.0, 1.0, 0.0)


def _mechanism(F: FiniteFunction, eps: float, k: float = 3.0, l: float = 1.0) -> DirectionOrientedMechanism:
    _, beta = powerlaw_admissibility(k, l, eps / F.m)
    S = np.maximum.reduce([np.stack([F.smooth_sensitivity(beta, i, s) for i in range(F.m)], 1) for s in "+-"])
    S = np.maximum(S, 1e-6)
    return DirectionOrientedMechanism(F, S, S, eps, k, l)


def test_lemma2_mechanism_density_integrates_to_one_and_is_private() -> None:
    F = FiniteFunction(lambda D: np.median(D, axis=1), 3, 3)
    mech = _mechanism(F, 1.0)
    assert mech.satisfies_lemma2_conditions()
    x = F.datasets[5]
    fx = F.values[5, 0]
    total = sum(integrate.quad(lambda t: math.exp(float(mech.log_density(x, np.array([t])))), a, b, limit=200)[0]
                for a, b in [(-np.inf, fx), (fx, np.inf)])
    assert total == pytest.approx(1.0, abs=1e-8)
    nb = np.argwhere(F.hamming == 1)[:40]
    assert max(mech.max_privacy_loss(F.datasets[a], F.datasets[b], grid=400) for a, b in nb) <= 1.0 + 1e-9


def test_lemma2_release_is_centred_on_two_halves() -> None:
    F = FiniteFunction(lambda D: np.stack([D.sum(1), D.max(1)], 1), 2, 2)
    mech = _mechanism(F, 2.0)
    x = np.array([1, 0])
    out = np.array([mech.release(x, np.random.default_rng(i)) for i in range(2000)])
    frac_above = np.mean(out >= F.values[F.index(x)], axis=0)
    np.testing.assert_allclose(frac_above, 0.5, atol=0.05)


def test_direction_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="q must be >= 2"):
        FiniteFunction(lambda D: D.sum(1), 1, 2)
    with pytest.raises(ValueError, match="q\\*\\*n must be"):
        FiniteFunction(lambda D: D.sum(1), 10, 5)
    F = FiniteFunction(lambda D: D.sum(1), 2, 2)
    with pytest.raises(ValueError, match="s must be"):
        F.directional_local_sensitivity(0, "*")
    with pytest.raises(ValueError, match="i must be in"):
        F.directional_local_sensitivity(3, "+")
    with pytest.raises(ValueError, match="x must be a dataset"):
        F.index([0, 5])
    with pytest.raises(ValueError, match="S_plus must be finite and > 0"):
        DirectionOrientedMechanism(F, np.zeros(4), np.ones(4), 1.0)
    with pytest.raises(ValueError, match="finite values"):
        FiniteFunction(lambda D: np.full(len(D), np.nan), 2, 2)


_QUERIES = {
    "median": lambda D: np.median(D, axis=1),
    "sum_and_max": lambda D: np.stack([D.sum(1), D.max(1)], 1),
    "mean_of_squares": lambda D: (D.astype(float) ** 2).mean(1),
}


@settings(max_examples=25)
@given(
    query=st.sampled_from(sorted(_QUERIES)),
    q=st.integers(2, 3),
    n=st.integers(2, 3),
    eps=st.floats(0.2, 3.0),
    k=st.floats(2.0, 5.0),
    pair_seed=st.integers(0, 2**31 - 1),
    t_offset=st.floats(-5.0, 5.0),
)
def test_lemma2_mechanism_loss_at_most_eps_on_random_neighbours_property(query, q, n, eps, k, pair_seed, t_offset) -> None:
    # 000 Lemma 2 with the (alpha, beta) of Thm. 1 (corrected beta): for neighbouring datasets (Hamming
    # distance 1) and any output T, ln p_x(T) - ln p_y(T) <= eps.  Checked at the exact density at random
    # outputs around f(x) and at the mechanism's own grid supremum.
    F = FiniteFunction(_QUERIES[query], q, n)
    mech = _mechanism(F, eps, k=k)
    assert mech.satisfies_lemma2_conditions()
    rng = np.random.default_rng(pair_seed)
    nb = np.argwhere(F.hamming == 1)
    a, b = nb[rng.integers(len(nb))]
    x, y = F.datasets[a], F.datasets[b]
    T = F.values[a][None, :] + t_offset * rng.standard_normal((64, F.values.shape[1]))
    loss = mech.log_density(x, T) - mech.log_density(y, T)
    assert np.all(np.isfinite(loss)) and float(loss.max()) <= eps + 1e-9
    assert mech.max_privacy_loss(x, y, grid=300) <= eps + 1e-9
