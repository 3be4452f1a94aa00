"""Two mechanisms with non-scalar inputs or outputs, for ``smoothsens audit-impl --kind mechanism``.

* ``report_noisy_max``: the noisy answers a_i + Lap(2/eps) of a query-answer vector, released as
  (argmax, max).  The index alone is eps-DP when each answer moves by at most 1 (||a - a'||_inf <= 1);
  the value leaks more (StatDP's NoisyMax v1b: about m eps / 2 for m answers), so the claim
  eps = 0.1 is false and the audit must FAIL.
* ``noisy_count``: the number of records of a dataset plus Lap(1): 1-DP under add/remove-one
  neighbours (datasets of different sizes), so the audit must PASS.
"""

from __future__ import annotations

import numpy as np

EPS_RNM = 0.1


def report_noisy_max(answers: np.ndarray, rng: np.random.Generator) -> tuple[int, float]:
    """(argmax_i z_i, max_i z_i) with z = answers + Lap(2/eps)^m, eps = 0.1."""
    z = np.asarray(answers, dtype=float) + rng.laplace(scale=2.0 / EPS_RNM, size=np.shape(answers))
    i = int(np.argmax(z))
    return i, float(z[i])


def noisy_count(records: np.ndarray, rng: np.random.Generator) -> float:
    """len(records) + Lap(1) (sensitivity 1 under add/remove-one)."""
    return float(len(np.atleast_1d(records)) + rng.laplace(scale=1.0))
