"""Two mechanisms with non-scalar inputs or outputs, for ``smoothsens audit-impl --kind mechanism``.

* ``report_noisy_max``: the noisy answers a_i + Lap(2/eps) of a query-answer vector, released as
  (argmax, max).  The index alone is eps-DP when each answer moves by at most 1 (||a - a'||_inf <= 1);
  the value leaks more (StatDP's NoisyMax v1b: about m eps / 2 for m answers), so the claim
  eps = 0.1 is false and the audit must FAIL.
* ``noisy_count``: the number of records of a dataset plus Lap(1): 1-DP under add/remove-one
  neighbours (datasets of different sizes), so the audit must PASS.
* ``noisy_histogram``: a vector release written as a user would (one draw per call), a + Lap(1)^m, 1-DP
  when the answers move by at most 1 in l_1 (Dwork & Roth 2014, Prop. 1); in one line of a test::

      from verify.audit.blackbox import QueryAnswers
      from verify.pytest_plugin import assert_private
      assert_private(noisy_histogram, eps=1.0, pairs=[([3, 1, 4], [3, 2, 4])], relation=QueryAnswers("l1", 1.0))
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


def noisy_histogram(counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """counts + Lap(1)^m (sensitivity 1 in l_1)."""
    a = np.asarray(counts, dtype=float)
    return a + rng.laplace(scale=1.0, size=a.shape)
