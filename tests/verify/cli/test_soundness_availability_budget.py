"""What a budget may ask for and what it costs: bounded memory per task whatever the budget, a clear
ValueError outside the supported range, and an estimate of the work before a large run.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest

from verify.audit.blackbox import audit_blackbox_mechanism, audit_sampler
from verify.audit.blackbox.floating import MAX_FLOATING_BUDGET, AdditiveModel, audit_floating_mechanism
from verify.audit.blackbox.mechanism import MAX_MECHANISM_BUDGET
from verify.audit.blackbox.sampler import MAX_SAMPLER_BUDGET
from verify.claims import CheckContext
from verify.claims.runner import MAX_AUDIT_BUDGET, budget_estimate, run_audit
from smoothsens_core.distributions import Laplace

_MEM = textwrap.dedent("""
    import math, resource
    from verify.claims import CheckContext
    from verify.claims.sets.privacy_004 import lipschitz_laplace_search
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    r = lipschitz_laplace_search(1.0 / 3.0, 3.0, 1.0, 2, math.inf, CheckContext(budget=100), "2.3:3.0:2")
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
    print("grown_MB", grown, "evaluations", r["evaluations"])
""")


def test_lemma_2_3_search_memory_does_not_grow_with_the_budget() -> None:
    """004 Lemma 2.3's search at budget 100 (2e6 points in R^2): the unchunked search grew the peak
    resident memory by ~250 MB (and by 5 GB at budget 3000); in chunks of 250000 points, by ~40 MB."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    r = subprocess.run([sys.executable, "-c", _MEM], capture_output=True, text=True, timeout=240, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    words = r.stdout.split()
    grown = float(words[words.index("grown_MB") + 1])
    assert int(words[words.index("evaluations") + 1]) == 2_000_000
    assert grown < 150.0, r.stdout


@pytest.mark.parametrize("budget", [0.0, -1.0, math.nan, math.inf, 1e9, MAX_AUDIT_BUDGET * 1.01])
def test_audit_rejects_a_budget_outside_its_range(budget: float) -> None:
    with pytest.raises(ValueError, match=r"budget must be in \(0, 1000\]"):
        run_audit([], CheckContext(budget=budget), progress=False)


def test_audit_says_what_a_large_budget_will_cost(capsys: pytest.CaptureFixture[str]) -> None:
    run_audit([], CheckContext(budget=50.0), progress=False)
    err = capsys.readouterr().err
    assert "budget 50: the sampling checks draw 50 x their default sizes" in err
    run_audit([], CheckContext(budget=1.0), progress=False)
    assert capsys.readouterr().err == ""  # the default budget: nothing to announce
    assert "h for 132 claim(s)" in budget_estimate(1000.0, 132, 2)


class _Called(Exception):
    pass


def _never(*_a: Any) -> Any:
    raise _Called("the audit started drawing")


def test_blackbox_audits_reject_budgets_beyond_their_caps_before_drawing() -> None:
    with pytest.raises(ValueError, match=r"budget must be in \[200, 10000000000\] draws per input"):
        audit_blackbox_mechanism(_never, 1.0, pairs=[(0.0, 1.0)], budget=MAX_MECHANISM_BUDGET + 1, density=False)
    with pytest.raises(ValueError, match=r"budget must be in \[100, 10000000\]"):
        audit_sampler(_never, Laplace(), budget=MAX_SAMPLER_BUDGET + 1)
    with pytest.raises(ValueError, match=r"budget must be in \[10, 100000000\]"):
        audit_floating_mechanism(_never, AdditiveModel(), pairs=[(0.0, 1.0)], budget=MAX_FLOATING_BUDGET + 1)


def test_blackbox_mechanism_audit_estimates_its_cost_before_the_estimation() -> None:
    msgs: list[str] = []

    def release(x: Any, rng: np.random.Generator) -> np.ndarray:
        xa = np.asarray(x, dtype=float)
        return xa + rng.laplace(0.0, 1.0, size=xa.shape)

    audit_blackbox_mechanism(release, 1.0, pairs=[(0.0, 1.0)], budget=20_000, density=False, progress=msgs.append)
    est = [m for m in msgs if m.startswith("estimate:")]
    assert est and "36000 estimation draws" in est[0]
    assert msgs.index(est[0]) < next(i for i, m in enumerate(msgs) if m.startswith("estimation:"))
