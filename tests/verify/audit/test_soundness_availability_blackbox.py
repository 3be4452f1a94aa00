"""Availability of the black-box mechanism auditor at large eps * d (verify.audit.blackbox.mechanism).

The delta bound at the claimed eps inverts a joint exact test of p - c q, c = e^(eps d) (Berger & Boos
1994); every bracket and bisection of that inversion must end after a bounded number of steps, and the
bounds it returns must stay valid lower bounds: correct Laplace and discrete Laplace mechanisms at
eps d = 20, 50, 200 (and beyond the double range of e^(eps d)) finish in seconds and PASS.
"""

from __future__ import annotations

import math
import signal
import time
from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np
import pytest

from verify.audit.blackbox import audit_blackbox_mechanism
from verify.audit.blackbox.mechanism import _delta_lower_joint, _joint_pvalue, clopper_pearson


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the main thread after ``seconds`` (SIGALRM): a search that never ends fails."""

    def _raise(_signum: int, _frame: Any) -> None:
        raise TimeoutError(f"did not finish within {seconds} s")

    old = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _laplace(scale: float) -> Any:
    def release(x: Any, rng: np.random.Generator) -> np.ndarray:
        xa = np.asarray(x, dtype=float)
        return xa + rng.laplace(0.0, scale, size=xa.shape)
    return release


def _discrete_laplace(eps: float) -> Any:
    """k + G1 - G2, G1, G2 iid geometric on {1, 2, ...} with success 1 - e^-eps: P(Z = z) ∝ e^(-eps |z|),
    eps-DP per unit of |x - x'| (the two-sided geometric mechanism, Ghosh, Roughgarden & Sundararajan 2009)."""
    p = -math.expm1(-eps)

    def release(x: Any, rng: np.random.Generator) -> np.ndarray:
        xa = np.asarray(x, dtype=float)
        return xa + (rng.geometric(p, size=xa.shape) - rng.geometric(p, size=xa.shape)).astype(float)
    return release


# (release, claimed eps, pair): eps * d = 20 (two ways), 50, 200, and discrete Laplace at distance 20
CASES = {
    "laplace-0.05-eps20-d1": (_laplace(0.05), 20.0, (0.0, 1.0)),
    "laplace-1-eps1-d20": (_laplace(1.0), 1.0, (0.0, 20.0)),
    "laplace-1-eps1-d50": (_laplace(1.0), 1.0, (0.0, 50.0)),
    "laplace-0.005-eps200-d1": (_laplace(0.005), 200.0, (0.0, 1.0)),
    "discrete-laplace-eps1-d20": (_discrete_laplace(1.0), 1.0, (0.0, 20.0)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_blackbox_audit_of_a_correct_mechanism_at_large_eps_d_finishes_and_passes(name: str) -> None:
    release, eps, pair = CASES[name]
    t0 = time.perf_counter()
    with _time_limit(45.0):
        rep = audit_blackbox_mechanism(release, eps, pairs=[pair], budget=20_000, rng=1, density=False)
    assert time.perf_counter() - t0 < 45.0
    assert rep.outcome == "pass", rep.summary()
    assert rep.verdict_text().startswith("PASS")
    # the sampling bounds are valid lower bounds: below the true eps (= the claimed one) and delta (= 0)
    assert rep.eps_lower <= eps
    assert rep.delta_lower <= 0.0


def test_blackbox_audit_beyond_the_double_range_of_e_eps_d_says_why_the_delta_bound_is_void() -> None:
    with _time_limit(45.0):
        rep = audit_blackbox_mechanism(_laplace(1.0), 1.0, pairs=[(0.0, 1000.0)], budget=20_000, rng=2,
                                       density=False)
    assert rep.outcome == "pass"
    assert rep.delta_lower == -math.inf
    assert any("e^(eps d) is not formed" in n for n in rep.notes)


@pytest.mark.parametrize("log_c", [20.0, 50.0, 200.0])
@pytest.mark.parametrize("k1,k2", [(20_000, 0), (19_000, 0), (49, 38), (1_000, 10)])
def test_delta_lower_joint_is_bounded_in_time_and_never_above_the_analytic_range(
        log_c: float, k1: int, k2: int) -> None:
    """The bound lies in [floor, hat]: every m0 below floor = -c q_hi is rejected (H0 empty on the nuisance
    interval), and it never exceeds the point estimate (k1 - c k2)/n; computed in well under a second."""
    n, alpha = 20_000, 1e-4
    c = math.exp(log_c)
    with _time_limit(20.0):
        lb = _delta_lower_joint(k1, k2, n, c, alpha)
    _, q_hi = clopper_pearson(k2, n, alpha / 20.0)
    floor = -c * float(q_hi)
    hat = (k1 - c * k2) / n
    assert floor * (1 + 1e-9) <= lb <= hat


def test_delta_lower_joint_does_not_evaluate_the_test_where_m0_plus_cq_cancels() -> None:
    """At m0 ~ -1e16 the null p = m0 + c q is formed in binary64 with an error of order 1: the test said
    "reject" at m0 = -1e16 for k1 = n, k2 = 0, c = e^200 while every q in the nuisance interval up to
    q_hi ~ 5e-4 makes H0 hold there; the bound must not rest on such an evaluation, so with k2 = 0 it
    is at most the floor -c q_hi, far below -1e16."""
    n, alpha = 20_000, 1e-4
    c = math.exp(200.0)
    assert _joint_pvalue(n, 0, n, c, -1e16, alpha) <= alpha  # the cancelled evaluation the search avoids
    with _time_limit(20.0):
        lb = _delta_lower_joint(n, 0, n, c, alpha)
    _, q_hi = clopper_pearson(0, n, alpha / 20.0)
    assert lb <= -c * float(q_hi) * (1 - 1e-9)
    assert lb < -1e80
