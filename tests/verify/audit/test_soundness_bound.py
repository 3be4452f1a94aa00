"""The bound audit (004 Def. 8) never says PASS with a condition left unchecked.

The query is the threshold f_tau of 004 Sec. 4.1.2 (T = 0, tau = 0.5): L_{f,inf}(x) = 1/tau = 2 on
the band |x| <= tau/2 (004 Lemma 4.1's setting).  Its L_{f,Lambda} is made unavailable on |x| <= 1
(raising, as the generic engine does where its window cannot be certified; beyond, L is at most the
chord slope 1/(1 + tau/2) = 0.8 from x = +-1 to the far band edge), and B(x) = 1.36 = 0.68 / tau, a
constant (so condition (2) holds exactly), is 32 % below L on the band: condition (1) fails exactly
where it cannot be checked.  B* is withheld, so only conditions (1) and (2) decide.
"""

from __future__ import annotations

import dataclasses
import math
import sys

import numpy as np
import pytest
import sympy as sp

from smoothsens_core.growth import growth_exp
from verify.audit.blackbox import audit_smooth_bound, builtin_query
from verify.audit.blackbox.bound import BoundAuditReport, BoundViolation
from verify.cli import main

GAMMA = 0.5


def _blind_threshold_query():
    q = builtin_query("threshold", growth_exp(GAMMA), math.inf, T=0.0, tau=0.5)
    inner = q.lipschitz

    def lipschitz(X):
        X = np.asarray(X, dtype=float).reshape(-1, 1)
        if np.any(np.abs(X[:, 0]) <= 1.0):
            raise ValueError("L_{f,Lambda} cannot be certified here (search window)")
        return inner(X)

    return dataclasses.replace(q, lipschitz=lipschitz, smooth_sensitivity=None)


def constant_bound(x):
    """0.68 / tau everywhere: 32 % below L = 1/tau on the band (condition (1) fails there)."""
    return np.full(np.asarray(x, dtype=float).reshape(-1).shape, 1.36)


def test_bound_audit_with_unchecked_points_is_inconclusive_not_pass():
    rep = audit_smooth_bound(_blind_threshold_query(), constant_bound, growth_exp(GAMMA),
                             domain=([-3.0], [3.0]), budget=1000, rng=0)
    assert not rep.passed, rep.summary()
    assert rep.verdict in ("INCONCLUSIVE", "FAIL")
    if rep.verdict == "INCONCLUSIVE":
        assert not rep.decided
        assert any("unavailable" in r for r in rep.inconclusive_reasons)
        assert "INCONCLUSIVE" in rep.summary()
    assert rep.to_json()["verdict"] == rep.verdict


def test_bound_audit_still_passes_a_valid_bound_with_every_point_checked():
    # a correct bound (B = 1/tau = 2 >= L everywhere, constant) with L available everywhere: PASS
    q = builtin_query("threshold", growth_exp(GAMMA), math.inf, T=0.0, tau=0.5)
    rep = audit_smooth_bound(dataclasses.replace(q, smooth_sensitivity=None),
                             lambda x: np.full(np.asarray(x, dtype=float).reshape(-1).shape, 2.0),
                             growth_exp(GAMMA), domain=([-3.0], [3.0]), budget=1000, rng=0)
    assert rep.verdict == "PASS" and rep.passed and rep.decided, rep.summary()


def test_bound_report_with_an_uncertified_excess_is_inconclusive():
    v = BoundViolation(1, (0.1,), (0.2,), 1.0 + 1e-12, "1.000000000001", False, {"B_x": 1.0})
    rep = BoundAuditReport(query="q", source="s", domain=((0.0,), (1.0,)), budget=1000, seed=0, evaluations=1,
                           calls=1, vectorised=True, violations=(), uncertified=(v,), failures=(), n_failed=0,
                           unisolated=0, max_log_ratio={"condition_1": 1e-12, "condition_2": -1.0}, comparison=None)
    assert not rep.passed
    assert rep.verdict == "INCONCLUSIVE"


def test_cli_bound_audit_with_unchecked_points_exits_4(tmp_path, monkeypatch, capsys):
    import verify.audit.blackbox as bb

    real = bb.audit_smooth_bound

    def audit_blind(f, B, growth, Lambda=math.inf, **kw):
        kw.pop("params", None)
        return real(_blind_threshold_query(), B, growth, Lambda, **kw)

    monkeypatch.setattr(bb, "audit_smooth_bound", audit_blind)
    mod = tmp_path / "blind_bound.py"
    mod.write_text("import numpy as np\n\ndef B(x):\n    return np.full(np.asarray(x, dtype=float).reshape(-1).shape, 1.36)\n")
    code = main(["audit-impl", f"{mod}:B", "--kind", "bound", "--query", "threshold", "--T", "0", "--tau", "0.5",
                 "--gamma", str(GAMMA), "--domain=-3:3", "--budget", "1000", "--no-progress"])
    out = capsys.readouterr().out
    assert code in (3, 4), out
    if code == 4:
        assert "INCONCLUSIVE" in out


@pytest.mark.parametrize("window", [0.0, -1.0, math.inf, math.nan, "10"])
def test_bound_audit_rejects_invalid_window(window):
    x = sp.Symbol("x")
    with pytest.raises(ValueError, match="window"):
        audit_smooth_bound(sp.sin(x), lambda v: np.ones_like(np.asarray(v, dtype=float)), growth_exp(GAMMA),
                           domain=([-1.0], [1.0]), budget=500, window=window)


def test_bound_audit_window_applies_to_expressions_only():
    with pytest.raises(ValueError, match="window applies to a SymPy expression"):
        audit_smooth_bound("threshold", constant_bound, growth_exp(GAMMA), params={"T": 0.0, "tau": 0.5},
                           budget=500, window=20.0)


def test_cli_window_is_for_expressions_only(tmp_path, capsys):
    mod = tmp_path / "b.py"
    mod.write_text("def B(x):\n    return 1.0\n")
    code = main(["audit-impl", f"{mod}:B", "--kind", "bound", "--query", "threshold", "--T", "0", "--tau", "0.5",
                 "--gamma", "0.5", "--window", "20", "--no-progress"])
    assert code == 2
    assert "--window applies to --query expr" in capsys.readouterr().err


def test_bound_audit_window_reaches_the_engine(monkeypatch):
    # the engine behind an expression query searches the window the caller set
    x = sp.Symbol("x")
    seen = {}
    import verify.audit.blackbox.bound as bound_mod

    orig = bound_mod._with_window

    def spy(q, window):
        out = orig(q, window)
        seen["radius"] = out.lipschitz.__self__.radius
        return out

    monkeypatch.setattr(bound_mod, "_with_window", spy)
    rep = audit_smooth_bound(sp.sin(x), lambda v: np.full(np.asarray(v, dtype=float).reshape(-1).shape, 1.0),
                             growth_exp(GAMMA), domain=([-1.0], [1.0]), budget=500, window=25.0)
    assert seen["radius"] == 25.0
    assert rep.verdict in ("PASS", "INCONCLUSIVE", "FAIL")
    assert "derivations.engine" in sys.modules  # the engine was used


def _silently_low_threshold_query():
    """The threshold query whose L_{f,Lambda} is silently too low on the band (0.8 instead of 1/tau = 2,
    as an engine search that misses the supremum returns) and whose B* is uncertified (a lower bound
    1.0 at every point, with the engine's UncertifiedSensitivityError)."""
    from derivations.engine import CertifiedSensitivity, UncertifiedSensitivityError

    q = builtin_query("threshold", growth_exp(GAMMA), math.inf, T=0.0, tau=0.5)
    inner = q.lipschitz

    def lipschitz(X):
        X = np.asarray(X, dtype=float).reshape(-1, 1)
        L = np.asarray(inner(X), dtype=float).reshape(-1)
        return np.where(np.abs(X[:, 0]) <= 1.0, np.minimum(L, 0.8), L)

    def smooth_sensitivity(X):
        n = np.asarray(X, dtype=float).reshape(-1, 1).shape[0]
        res = CertifiedSensitivity(np.full(n, 1.0), np.full(n, np.nan), np.full(n, 1.0), np.zeros(n, dtype=bool),
                                   np.full(n, 10.0), np.full(n, np.inf), ("window not certified",) * n)
        raise UncertifiedSensitivityError("B* is INCONCLUSIVE", res)

    return dataclasses.replace(q, lipschitz=lipschitz, smooth_sensitivity=smooth_sensitivity, max_bstar_points=50)


def test_bound_audit_with_an_uncertified_bstar_and_a_low_L_search_is_not_pass():
    # B = 1.36 is 32 % below L = 2 on the band; the L search there says 0.8 and B* is only a lower
    # bound (1.0 <= B): condition (1) is certified nowhere on the band, so never PASS
    rep = audit_smooth_bound(_silently_low_threshold_query(), constant_bound, growth_exp(GAMMA),
                             domain=([-3.0], [3.0]), budget=1000, rng=0)
    assert rep.verdict in ("INCONCLUSIVE", "FAIL"), rep.summary()
    if rep.verdict == "INCONCLUSIVE":
        assert any("B* could not be certified" in r for r in rep.inconclusive_reasons)
