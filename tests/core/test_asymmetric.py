"""Tests of smoothsens_core.asymmetric (003): relations, p-sensitivity, ALap/AGeo/SALap, risk, calculators."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothsens_core.asymmetric import (
    BOTTOM,
    AGeo,
    ALap,
    CountingQuery,
    NeighbourRelation,
    SALap,
    adp_epsilon_lower_bound,
    alap_one_sided_beta,
    alap_one_sided_epsilon,
    all_datasets,
    approx_dp_delta_lower_bound,
    compose_adp,
    dp_epsilon_lower_bound,
    is_neighbouring,
    is_one_sided,
    mechanism_error,
    min_path,
    min_path_bruteforce,
    neighbouring_pairs,
    one_sided_k,
    optimal_adp_mechanism_lp,
    p_sensitivity,
    p_sensitivity_bruteforce,
    risk,
    salap_release_from_answers,
    sign_p,
)
from smoothsens_core.distributions.onesided import AsymmetricGeometric

VISIT = np.array([False, True])          # records {0: not visited, 1: visited}
Q1 = CountingQuery(VISIT)
R_NOT_VISIT = NeighbourRelation.from_policy(~VISIT)   # 003 Sec. IV-C policy for q_<=


# ---------------- strategies: random small domains, policies and counting queries ----------------
@st.composite
def instances(draw: st.DrawFn, monotone: bool = False) -> tuple[int, int, np.ndarray, CountingQuery, float]:
    m = draw(st.integers(2, 4))
    n = draw(st.integers(1, 3))
    if monotone:
        c = np.array(draw(st.lists(st.booleans(), min_size=m, max_size=m)))
        if c.all() or not c.any():
            c[0], c[-1] = True, False
        C, pol = c[None, :], ~c
    else:
        d = draw(st.integers(1, 2))
        C = np.array(draw(st.lists(st.lists(st.booleans(), min_size=m, max_size=m), min_size=d, max_size=d)))
        pol = np.array(draw(st.lists(st.booleans(), min_size=m, max_size=m)))
    eps = draw(st.floats(0.1, 3.0))
    return m, n, pol, CountingQuery(C), eps


# ------------------------------------- relations -------------------------------------
def test_p_neighbouring_is_ordered_and_matches_prop_iv4_iv5() -> None:
    # p = not visited: x visited (p False) -> anything; x not visited (p True) -> only p True (not visited)
    assert R_NOT_VISIT.allowed.tolist() == [[False, False], [True, False]]
    assert is_neighbouring([1, 0], [0, 0], R_NOT_VISIT)
    assert not is_neighbouring([0, 0], [1, 0], R_NOT_VISIT)
    assert not is_neighbouring([1, 1], [0, 0], R_NOT_VISIT)       # two records differ


def test_relation_rejects_no_pairs_and_bad_policies() -> None:
    with pytest.raises(ValueError, match="no pair of datasets neighbouring"):
        NeighbourRelation.from_policy([True]).check_nonempty()
    with pytest.raises(ValueError, match="non-empty record domain"):
        NeighbourRelation.from_policy([])
    with pytest.raises(ValueError, match="only True/False"):
        NeighbourRelation.from_policy([0, 2])
    with pytest.raises(ValueError, match="no pair of datasets neighbouring"):
        ALap(CountingQuery([True]), NeighbourRelation.from_policy([False]), 1.0)
    with pytest.raises(ValueError, match="share one record domain"):
        NeighbourRelation.intersection([R_NOT_VISIT, NeighbourRelation.unbounded_dp(3)])


@given(inst=instances(), data=st.data())
def test_min_path_closed_form_equals_bfs_property(inst, data) -> None:  # type: ignore[no-untyped-def]
    m, n, pol, _, _ = inst
    R = NeighbourRelation.from_policy(pol)
    X = np.array(data.draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n)))
    Y = np.array(data.draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n)))
    assert min_path(X, Y, R) == min_path_bruteforce(X, Y, R)


@given(inst=instances())
def test_p_sensitivity_closed_form_equals_bruteforce_property(inst) -> None:  # type: ignore[no-untyped-def]
    m, n, pol, q, _ = inst
    R = NeighbourRelation.from_policy(pol)
    if not R.allowed.any():
        return
    sens, sign = p_sensitivity_bruteforce(q, m, n, R)
    assert sens == p_sensitivity(q, R)
    assert np.array_equal(sign, sign_p(q, R))


def test_sign_p_decreasing_under_not_c_policy() -> None:
    assert sign_p(Q1, R_NOT_VISIT).tolist() == [-1]
    assert sign_p(Q1, NeighbourRelation.from_policy(VISIT)).tolist() == [1]
    assert sign_p(Q1, NeighbourRelation.unbounded_dp(2)).tolist() == [0]


# ------------------------------------- ALap -------------------------------------
@given(inst=instances())
def test_alap_adp_on_all_p_neighbouring_pairs_property(inst) -> None:  # type: ignore[no-untyped-def]
    m, n, pol, q, eps = inst
    R = NeighbourRelation.from_policy(pol)
    if not R.allowed.any() or p_sensitivity(q, R) == 0:
        return
    mech = ALap(q, R, eps)
    A, B = neighbouring_pairs(m, n, R)
    assert float(np.max(mech.max_privacy_loss(A, B))) <= eps + 1e-12


def test_alap_exact_loss_matches_density_ratio_on_grid() -> None:
    mech = ALap(Q1, R_NOT_VISIT, 0.8)
    X, Xp = np.array([1, 1]), np.array([1, 0])   # f = 2 -> 1, p-neighbouring
    z = np.linspace(-3, 12, 3001)[:, None]
    with np.errstate(invalid="ignore"):
        ratio = mech.log_density(X, z) - mech.log_density(Xp, z)
    finite = np.isfinite(mech.log_density(X, z))
    assert float(np.max(ratio[finite])) == pytest.approx(float(mech.max_privacy_loss(X, Xp)))
    assert float(mech.max_privacy_loss(X, Xp)) == pytest.approx(0.8)


def test_alap_printed_sign_is_not_adp_and_release_is_one_sided() -> None:
    printed = ALap(Q1, R_NOT_VISIT, 1.0, convention="printed")
    assert math.isinf(float(printed.max_privacy_loss(np.array([1]), np.array([0]))))
    mech = ALap(Q1, R_NOT_VISIT, 1.0)
    z = np.array([mech.release(np.array([1, 0, 1]), np.random.default_rng(i))[0] for i in range(500)])
    assert np.all(z >= 2.0)   # non-negative noise: z >= f(X)
    assert np.mean(z - 2.0) == pytest.approx(1.0, rel=0.15)   # E|noise| = Delta/eps (003 Cor. V.5)


def test_alap_rejects_bad_eps_and_convention() -> None:
    with pytest.raises(ValueError, match="eps must be in"):
        ALap(Q1, R_NOT_VISIT, 0.0)
    with pytest.raises(ValueError, match="eps must be in"):
        ALap(Q1, R_NOT_VISIT, -1.0)
    with pytest.raises(ValueError, match="convention must be"):
        ALap(Q1, R_NOT_VISIT, 1.0, convention="other")
    with pytest.raises(ValueError, match="p-sensitivity of the query is 0"):
        ALap(CountingQuery([False, False]), R_NOT_VISIT, 1.0)


# ------------------------------------- AGeo -------------------------------------
@given(inst=instances(monotone=True))
def test_ageo_adp_and_normalised_property(inst) -> None:  # type: ignore[no-untyped-def]
    m, n, pol, q, eps = inst
    R = NeighbourRelation.from_policy(pol)
    mech = AGeo(q, R, eps, n)
    A, B = neighbouring_pairs(m, n, R)
    assert max(mech.max_privacy_loss(a, b) for a, b in zip(A, B, strict=True)) <= eps + 1e-12
    ks = np.arange(n + 1)[:, None]
    assert float(np.exp(mech.log_pmf(A[0], ks)).sum()) == pytest.approx(1.0, abs=1e-12)


def test_ageo_release_matches_pmf_and_rejects_sensitivity_two() -> None:
    mech = AGeo(Q1, R_NOT_VISIT, 0.7, 4)
    X = np.array([1, 0, 0, 0])
    s = np.array([mech.release(X, np.random.default_rng(i))[0] for i in range(4000)])
    freq = np.bincount(s.astype(int), minlength=5) / s.size
    np.testing.assert_allclose(freq, np.exp(mech.log_pmf(X, np.arange(5)[:, None])), atol=0.03)
    C2 = CountingQuery(np.array([[False, True, True], [False, True, True]]))
    with pytest.raises(ValueError, match="p-sensitivity 1"):
        AGeo(C2, NeighbourRelation.from_policy(np.array([True, False, False])), 1.0, 2)


# ------------------------------------- SALap -------------------------------------
def _locations(d: int) -> tuple[CountingQuery, NeighbourRelation]:
    recs = np.array([[(r >> i) & 1 for i in range(d)] for r in range(2**d)], dtype=bool)
    C = recs.T
    rel = NeighbourRelation.intersection([NeighbourRelation.from_policy(~C[i]) for i in range(d)])
    return CountingQuery(C), rel


def _locations_single(d: int) -> tuple[CountingQuery, NeighbourRelation]:
    recs = np.vstack([np.zeros(d, bool), np.eye(d, dtype=bool)])   # low-sensitive: none or one location
    C = recs.T
    rel = NeighbourRelation.intersection([NeighbourRelation.from_policy(~C[i]) for i in range(d)])
    return CountingQuery(C), rel


@settings(max_examples=25)
@given(eps=st.floats(0.2, 3.0), d=st.integers(1, 3), subsets=st.booleans(), data=st.data())
def test_salap_adp_on_all_pairs_property(eps: float, d: int, subsets: bool, data: st.DataObject) -> None:
    q, rel = _locations(d) if subsets else _locations_single(d)
    n = 2 if q.m <= 4 else 1
    t = np.array(data.draw(st.lists(st.floats(-0.5, n + 0.5), min_size=d, max_size=d)))
    mech = SALap(q, rel, eps, t)
    A, B = neighbouring_pairs(q.m, n, rel)
    assert max(mech.max_privacy_loss(a, b) for a, b in zip(A, B, strict=True)) <= eps + 1e-12


def test_salap_reverse_pair_is_unbounded() -> None:
    # X = (none), X' = (l1) is not neighbouring under the composed relation (it adds a visit); with t = 0 an output value
    # z in (0, 1) is possible under X (z > t, z >= f(X) = 0) but impossible under X' (z >= f(X') = 1): infinite loss
    q, rel = _locations_single(1)
    mech = SALap(q, rel, 1.0, [0.0])
    assert not rel.allowed[0, 1]
    assert math.isinf(mech.max_privacy_loss(np.array([0]), np.array([1])))
    assert mech.max_privacy_loss(np.array([1]), np.array([0])) <= 1.0


def test_salap_output_structure_and_density() -> None:
    q, rel = _locations(3)
    mech = SALap(q, rel, 1.0, [1, 1, 1])
    X = np.array([0, 0, 7])                      # record 7 visits all three locations: counts (1, 1, 1)
    out = mech.release(X, 0)
    j = int(np.argmin(out == BOTTOM)) if not np.all(out == BOTTOM) else 3
    assert np.all(out[:j] == BOTTOM) and (j == 3 or (out[j] > 1 and np.all(np.isnan(out[j + 1:]))))
    # log density of "all ⊥" = 3 ln(1 - e^{-eps (t - f)}) = 3 ln(1 - e^{-0}) -> impossible (t = f, continuous noise)
    assert mech.log_density(X, [BOTTOM] * 3) == -math.inf
    assert mech.log_density(np.array([0, 0, 0]), [BOTTOM] * 3) == pytest.approx(3 * math.log(1 - math.exp(-1.0)))


def test_salap_release_never_false_safe() -> None:
    counts = np.array([0, 5, 1, 9, 2])
    out = salap_release_from_answers(np.broadcast_to(counts, (2000, 5)), 3, 0.5, 1)
    assert not np.any((out == BOTTOM) & (counts > 3))


def test_salap_rejects_non_monotone_and_bad_thresholds() -> None:
    q, rel = _locations(2)
    with pytest.raises(ValueError, match="monotonically decreasing"):
        SALap(q, NeighbourRelation.unbounded_dp(q.m), 1.0, [0, 0])
    with pytest.raises(ValueError, match="one entry per query"):
        SALap(q, rel, 1.0, [0, 0, 0])
    with pytest.raises(ValueError, match="finite"):
        SALap(q, rel, 1.0, [0, math.inf])


# ------------------------------------- risk -------------------------------------
def test_risk_of_prop_iv3_mechanism_is_infinite_and_dp_bound() -> None:
    eps = 1.0
    # M(X) = False unless x^1 has p True (records: 0 p True, 1 p False), n = 1
    lik = np.array([[math.exp(-eps), 1 - math.exp(-eps)], [1.0, 0.0]])
    pol = np.array([True, False])
    assert risk(lik, [0.5, 0.5], pol) == math.inf
    assert risk(lik, [1.0, 0.0], pol) == 0.0
    rr = np.array([[math.e / (1 + math.e), 1 / (1 + math.e)], [1 / (1 + math.e), math.e / (1 + math.e)]])  # randomised response
    assert risk(rr, [0.3, 0.7], pol) == pytest.approx(math.e)


def test_risk_rejects_bad_prior_and_likelihood() -> None:
    with pytest.raises(ValueError, match="prior must be a probability vector"):
        risk(np.eye(2), [0.5, 0.6], [True, False])
    with pytest.raises(ValueError, match="rows must be probability vectors"):
        risk(np.ones((2, 2)), [0.5, 0.5], [True, False])


# ------------------------------------- calculators -------------------------------------
def test_necessary_condition_calculators_reference_values() -> None:
    assert dp_epsilon_lower_bound(1e-4, 0.5, 1) == pytest.approx(math.log(5000))      # 8.5172 (003 ineq. (5))
    assert approx_dp_delta_lower_bound(0.0, 0.5, 1.0, 3) == pytest.approx(0.5 / (1 + math.e + math.e**2))  # 0.0450
    assert adp_epsilon_lower_bound(0.0, 0.5, 2) == pytest.approx(math.log(2) / 2)
    assert adp_epsilon_lower_bound(0.0, 0.5, math.inf) == 0.0
    assert alap_one_sided_epsilon(0.5, 2, 1.0) == pytest.approx(math.log(2) / 2)
    assert alap_one_sided_beta(1.0, 3, 3, sanitizer="strict") == pytest.approx(1 - math.exp(-1))
    assert alap_one_sided_beta(1.0, 3, 3, sanitizer="printed") == 0.0
    with pytest.raises(ValueError, match="beta must be in"):
        dp_epsilon_lower_bound(0.1, 1.0, 1)
    with pytest.raises(ValueError, match="count must be <= threshold"):
        alap_one_sided_beta(1.0, 5, 3)
    with pytest.raises(ValueError, match="k must be >= 1"):
        adp_epsilon_lower_bound(0.0, 0.5, 0)


def test_one_sided_k_orientations() -> None:
    q = lambda D: np.asarray(D).sum(axis=-1) <= 1  # noqa: E731
    X = np.array([0, 0, 0])
    assert one_sided_k(X, q, 2, 3, R_NOT_VISIT, "to") == 2.0        # unsafe (2 visits) -> X in 2 steps
    assert one_sided_k(X, q, 2, 3, R_NOT_VISIT, "from") == math.inf  # counts never increase from X


def test_compose_adp_is_intersection() -> None:
    R2 = NeighbourRelation.from_policy(VISIT)
    total, rel = compose_adp([0.5, 0.25], [R_NOT_VISIT, R2])
    assert total == 0.75 and not rel.allowed.any()
    with pytest.raises(ValueError, match="equal length"):
        compose_adp([0.5], [])


def test_optimal_lp_is_no_worse_than_ageo() -> None:
    prior = np.ones(3) / 3
    opt, M = optimal_adp_mechanism_lp(2, 0.3, prior)
    A = np.array([AsymmetricGeometric(0.3, c, 2).pmf(np.arange(3)) for c in range(3)])
    assert opt <= mechanism_error(A, prior) + 1e-12
    assert opt == pytest.approx(mechanism_error(M, prior))
    assert np.all(M[1:] <= math.exp(0.3) * M[:-1] + 1e-9)
    with pytest.raises(ValueError, match="prior must be a probability vector"):
        optimal_adp_mechanism_lp(2, 0.3, np.ones(2))


def test_all_datasets_rejects_huge_domains() -> None:
    assert all_datasets(2, 3).shape == (8, 3)
    with pytest.raises(ValueError, match="m\\*\\*n must be"):
        all_datasets(10, 7)


def test_is_one_sided_def_ii6_examples() -> None:
    # outputs {0: "False", 1: "True"}; unsafe X' never says True, safe X says True w.p. 0.6
    assert is_one_sided([0.4, 0.6], [[1.0, 0.0], [0.9, 0.1]], 0.2, 0.6)
    assert not is_one_sided([0.4, 0.6], [[1.0, 0.0], [0.7, 0.3]], 0.2, 0.6)
    assert is_one_sided([0.4, 0.6], [[1.0, 0.0]], 0.0, 0.6)          # alpha = 0 read as probability 0
    assert not is_one_sided([0.4, 0.6], [[1.0, 0.0]], 0.0, 0.7)
    with pytest.raises(ValueError, match="K must be <= 16"):
        is_one_sided(np.ones(17) / 17, np.ones((1, 17)) / 17, 0.1, 0.5)
    with pytest.raises(ValueError, match="alpha must be in"):
        is_one_sided([0.5, 0.5], [[0.5, 0.5]], 1.5, 0.5)


@given(px=st.lists(st.floats(0.01, 1.0), min_size=2, max_size=4), pxp=st.lists(st.floats(0.01, 1.0), min_size=4, max_size=4),
       alpha=st.floats(0.01, 1.0), beta=st.floats(0.01, 1.0))
def test_prop_iii1_necessary_condition_property(px: list[float], pxp: list[float], alpha: float, beta: float) -> None:
    # 003 Prop. III.1: one-sided for X  =>  some S has alpha P_X(S) > beta P_X'(S)
    PX = np.array(px) / sum(px)
    PXp = np.array(pxp[: len(px)]) / sum(pxp[: len(px)])
    if is_one_sided(PX, PXp[None, :], alpha, beta):
        K = len(px)
        masks = ((np.arange(2**K)[:, None] >> np.arange(K)[None, :]) & 1).astype(bool)
        assert np.any(alpha * (masks @ PX) > beta * (masks @ PXp))
