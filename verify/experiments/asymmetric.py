"""The worked example of 003 Sec. VI on synthetic location-visit data.

Question per location i: "is location i safe, i.e. visited by at most t infected users?" (q_<=^i,
003 Sec. II-B.4).  Two synthetic data sets are drawn from one seed:

* low-sensitive (003 Sec. VI-A.2a): each user is at one location at time T (or at none), so one
  record changes the count vector by at most 1 in L1;
* high-sensitive (Sec. VI-A.2b): each user visits several locations during the day (1..v_max).

Privacy relation: the composed relation of the per-location policies p_i = not c_i (003 Thm. VIII.6),
i.e. a record may be replaced by one visiting a *subset* of its locations.  (The single policy
p = not c_1 or ... or not c_d printed in Sec. VI-A.3 does not make f_{C^T} monotone for d >= 2; see
claim 003-Sec-VI.A.3-policy.)  Under it every count is monotonically decreasing with p-sensitivity
Delta = 1 (low) or v_max (high, L1), so

* ALap releases z_i = f_i + Delta E_i / eps (E_i standard exponential, 003 Def. V.3 corrected sign) and
  answers "safe" iff z_i < t + 1: never wrong (z_i >= f_i), and P(safe | f_i <= t) = 1 - e^{-eps (t+1-f_i)/Delta};
* SALap (003 Alg. 1) answers ⊥ ("safe") for locations in order until the first noisy count above t;
* the (eps, delta)-DP baseline is the virtual mechanism of Sec. VI-A.4, optimal for inequality (7):
  P(safe | f_i) = min(1, alpha e^{eps k} + delta sum_{j=1}^k e^{(j-1) eps}), k = t + 1 - f_i, which also
  answers "safe" wrongly with probability up to alpha.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from smoothsens_core.asymmetric import BOTTOM, approx_dp_delta_lower_bound, salap_release_from_answers
from smoothsens_core.validation import check_in_interval, check_integer, check_positive, check_rng

__all__ = ["DEFAULT_EPS", "synthetic_visits", "location_threshold_example"]

DEFAULT_EPS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)


def synthetic_visits(n_locations: int, n_users: int, rng: Any, max_visits: int = 1,
                     p_nowhere: float = 0.3) -> np.ndarray:
    """Visit counts per location: each user visits 0 locations (prob ``p_nowhere``) or 1..``max_visits``
    distinct locations drawn with Zipf-like popularity (weights 1/(rank+1)), so most locations are rarely
    visited and a few are hotspots.  Returns int counts of shape (n_locations,)."""
    n_locations = check_integer("locations", n_locations, minimum=0)
    if n_locations == 0:
        raise ValueError("locations must be >= 1: the record domain of locations is empty")
    n_users = check_integer("users", n_users, minimum=1)
    max_visits = check_integer("max_visits", max_visits, minimum=1)
    if max_visits > n_locations:
        raise ValueError(f"max_visits must be <= locations; got max_visits={max_visits}, locations={n_locations}")
    gen = check_rng(rng)
    w = 1.0 / (np.arange(n_locations) + 1.0)
    w = gen.permutation(w / w.sum())
    counts = np.zeros(n_locations, dtype=np.int64)
    active = gen.random(n_users) >= p_nowhere
    visits = gen.integers(1, max_visits + 1, n_users)
    for u in np.flatnonzero(active):
        counts[gen.choice(n_locations, size=visits[u], replace=False, p=w)] += 1
    return counts


def _dp_baseline_beta(counts: np.ndarray, t: int, eps: float, delta: float, alpha: float) -> np.ndarray:
    """P(safe) of the virtual (eps, delta)-DP mechanism optimal for 003 inequality (7), per safe location."""
    k = (t + 1 - counts).astype(float)
    geo = np.expm1(k * eps) / math.expm1(eps)          # sum_{j=1}^k e^{(j-1) eps}
    return np.minimum(1.0, alpha * np.exp(eps * k) + delta * geo)


def location_threshold_example(
    *, seed: int = 0, n_locations: int = 300, n_users: int = 400, threshold: int = 5, max_visits: int = 4,
    eps_values: tuple[float, ...] = DEFAULT_EPS, delta: float = 1e-4, alpha: float = 1e-3, reps: int = 200,
) -> list[dict[str, Any]]:
    """Rows of the worked example (one per eps); see the module docstring for the mechanisms."""
    eps_values = tuple(check_positive("eps", e) for e in eps_values)
    if not eps_values:
        raise ValueError("eps must list at least one value")
    threshold = check_integer("threshold", threshold)
    n_users = check_integer("users", n_users, minimum=1)
    if not 0 <= threshold < n_users:
        raise ValueError(f"threshold must be in [0, users - 1] = [0, {n_users - 1}] (counts range over 0..users); "
                         f"got threshold={threshold}")
    check_in_interval("delta", delta, 0.0, 1.0)
    check_in_interval("alpha", alpha, 0.0, 1.0, closed_low=True)
    reps = check_integer("reps", reps, minimum=1)
    rng = np.random.default_rng(seed)
    low = synthetic_visits(n_locations, n_users, rng, 1)
    high = synthetic_visits(n_locations, n_users, rng, max_visits)
    rows = []
    for eps in eps_values:
        row: dict[str, Any] = {"eps": eps}
        for name, counts, Delta in (("low", low, 1), ("high", high, max_visits)):
            safe = counts <= threshold
            n_safe = int(safe.sum())
            # ALap, one release: z = f + Delta*E/eps, safe iff z < t + 1
            z = counts + Delta * rng.standard_exponential(counts.shape) / eps
            said_safe = z < threshold + 1
            row[f"{name}_safe_locations"] = n_safe
            row[f"{name}_alap_found"] = int((said_safe & safe).sum())
            row[f"{name}_alap_false_safe"] = int((said_safe & ~safe).sum())
            row[f"{name}_alap_expected_beta"] = float(np.mean(-np.expm1(-eps * (threshold + 1 - counts[safe]) / Delta))) if n_safe else math.nan
            row[f"{name}_dp_expected_beta"] = float(np.mean(_dp_baseline_beta(counts[safe], threshold, eps, delta, alpha))) if n_safe else math.nan
        # SALap on the high-sensitive counts (each query has p-sensitivity 1), reps independent runs
        out = salap_release_from_answers(np.broadcast_to(high, (reps, high.size)), threshold, eps, rng)
        bottoms = out == BOTTOM
        row["high_salap_mean_bottoms"] = float(bottoms.sum(axis=1).mean())
        row["high_salap_false_safe"] = int((bottoms & (high > threshold)).sum())
        unsafe_pos = np.flatnonzero(high > threshold)
        row["high_salap_max_possible"] = int(unsafe_pos[0]) if unsafe_pos.size else int(high.size)
        rows.append(row)
    rows[0]["check_delta_lower_bound_k3_eps1"] = approx_dp_delta_lower_bound(0.0, 0.5, 1.0, 3)
    return rows
