"""The smoothsens pytest plugin: one-line privacy assertions, seeded fixtures, a Hypothesis profile.

Installed with the package (entry point ``pytest11``: ``smoothsens = "verify.pytest_plugin"``), so
any test suite can write::

    from verify.pytest_plugin import assert_private

    def test_my_mechanism_is_private(smoothsens_rng, smoothsens_budget):
        assert_private(MyLaplace(eps=1.0), eps=1.0, pairs=[(0.0, 1.0)], budget=smoothsens_budget)

* :func:`assert_private` - a mechanism with ``log_density(x, y)`` (the
  :class:`smoothsens_core.mechanism.Mechanism` contract) is audited by the exact auditor
  (:func:`verify.audit.exact.audit_density_mechanism`, certified in mpmath), and also sampled when it
  has ``release(x, rng)``; a bare ``release(x, rng)`` callable by the black-box audit
  (:func:`verify.audit.blackbox.audit_blackbox_mechanism`, Clopper-Pearson lower bound on eps).
  AssertionError on a violation *and* on an inconclusive audit (with the reason): only a pass passes.
* :func:`assert_sampler_matches` - :func:`verify.audit.blackbox.audit_sampler` must not reject.
* :func:`assert_smooth_bound` - :func:`verify.audit.blackbox.audit_smooth_bound` must find nothing.
* Fixtures ``smoothsens_rng`` (a ``numpy.random.Generator`` seeded from ``--smoothsens-seed``,
  default 20261122) and ``smoothsens_budget`` (``--smoothsens-budget``, default 20000 draws).
* The Hypothesis profile ``smoothsens`` (derandomised, no deadline, ``print_blob``): select it with
  ``--hypothesis-profile smoothsens``; the project's own ``tests/conftest.py`` loads it.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

__all__ = [
    "HYPOTHESIS_PROFILE",
    "DEFAULT_SEED",
    "DEFAULT_BUDGET",
    "assert_private",
    "assert_sampler_matches",
    "assert_smooth_bound",
]

HYPOTHESIS_PROFILE = "smoothsens"
DEFAULT_SEED = 20261122
DEFAULT_BUDGET = 20_000

# Deterministic profile: derandomised, no deadline, so property tests are reproducible in CI.
settings.register_profile(
    HYPOTHESIS_PROFILE,
    derandomize=True,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)


# -- pytest hooks and fixtures -----------------------------------------------------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("smoothsens", "smoothsens privacy audits")
    group.addoption("--smoothsens-seed", type=int, default=DEFAULT_SEED,
                    help=f"seed of the smoothsens_rng fixture and of the audits (default {DEFAULT_SEED})")
    group.addoption("--smoothsens-budget", type=int, default=DEFAULT_BUDGET,
                    help=f"draws per input of the audits (smoothsens_budget fixture; default {DEFAULT_BUDGET})")


def pytest_report_header(config: pytest.Config) -> str:
    return (f"smoothsens: seed {config.getoption('smoothsens_seed')}, "
            f"budget {config.getoption('smoothsens_budget')}")


@pytest.fixture
def smoothsens_seed(request: pytest.FixtureRequest) -> int:
    """The seed of this run (``--smoothsens-seed``)."""
    return int(request.config.getoption("smoothsens_seed"))


@pytest.fixture
def smoothsens_rng(smoothsens_seed: int) -> np.random.Generator:
    """A fresh ``numpy.random.Generator`` seeded from ``--smoothsens-seed`` (same draws every run)."""
    return np.random.default_rng(smoothsens_seed)


@pytest.fixture
def smoothsens_budget(request: pytest.FixtureRequest) -> int:
    """Draws per input for the audits (``--smoothsens-budget``)."""
    return int(request.config.getoption("smoothsens_budget"))


# -- assertions ----------------------------------------------------------------------------------------
class _Claimed:
    """The mechanism with the asserted eps/delta (its other attributes are its own)."""

    def __init__(self, mech: Any, eps: float, delta: float) -> None:
        self._mech = mech
        self.eps = eps
        self.delta = delta
        self.name = getattr(mech, "name", type(mech).__name__)

    def __getattr__(self, item: str) -> Any:
        return getattr(self._mech, item)


def _name(mechanism: Any) -> str:
    return str(getattr(mechanism, "name", None) or getattr(mechanism, "__qualname__", None) or type(mechanism).__name__)


def _fail(head: str, body: str) -> None:
    raise AssertionError(head + "\n" + "\n".join("  " + line for line in body.splitlines()))


def assert_private(
    mechanism: Any,
    *,
    eps: float,
    delta: float = 0.0,
    pairs: Sequence[tuple[Any, Any]],
    metric: str | None = None,
    budget: int = DEFAULT_BUDGET,
    seed: int = DEFAULT_SEED,
    false_alarm: float = 1e-3,
    Lambda: float | None = None,
    relation: Any = None,
    vectorised: bool | None = None,
) -> Any:
    """Assert that ``mechanism`` is (eps, delta)-private at the neighbouring ``pairs``; returns the report.

    ``mechanism``: an object with ``log_density(x, y)`` (exact side; with ``release(x, rng)`` too,
    the sampling side runs beside it) or a plain ``release(x, rng)`` callable (black box).
    ``metric``: ``"euclidean"`` (eps per unit distance, 004 Def. 5) or ``"hamming"`` (DP); default the
    mechanism's ``metric`` or euclidean.  ``Lambda``: the neighbourhood radius of the exact
    worst-case search (default: the largest distance among ``pairs``).  ``relation``: a neighbourhood
    relation of :mod:`verify.audit.blackbox.relations` (``SubstituteOne()``, ``AddRemoveOne()`` -- pairs
    of datasets of different sizes --, ``QueryAnswers("linf" | "l1", sensitivity)``, ``Euclidean(Lambda)``,
    ``Hamming()``, ``PNeighbouring(...)``); the claim is eps per the relation's unit and a pair that is not
    related under it is refused (ValueError showing its distance); not with ``metric`` or ``Lambda``.
    Outputs may be numbers, vectors, tuples of mixed kinds or booleans (audited jointly, events chosen
    on held-out draws); ``vectorised=True`` declares that ``release`` maps a stack of k inputs to k
    outputs (never guessed for vector outputs).  Raises AssertionError naming the claimed (eps, delta),
    the pair, the certificate or lower bound and the verdict, when the audit is a violation or
    inconclusive."""
    # imported on use: loading the plugin (every pytest run) must not import the auditors
    from verify.audit.blackbox import audit_blackbox_mechanism  # noqa: PLC0415
    from verify.audit.blackbox.relations import Relation  # noqa: PLC0415
    from verify.audit.exact import EuclideanNeighbourhood, audit_density_mechanism  # noqa: PLC0415

    pair_list = [tuple(p) for p in pairs]
    if not pair_list:
        raise ValueError("pairs must list at least one pair (x, x')")
    claim = f"claimed (eps={eps:g}, delta={delta:g}) for {_name(mechanism)}"
    has_density = callable(getattr(mechanism, "log_density", None))
    release = getattr(mechanism, "release", None) if has_density else mechanism
    if relation is not None:
        if not isinstance(relation, Relation):
            raise TypeError(f"relation must be a verify.audit.blackbox.relations.Relation; got {type(relation).__name__}")
        if metric is not None or Lambda is not None:
            raise ValueError(f"pass either relation or metric / Lambda, not both; got relation={relation!r}, "
                             f"metric={metric!r}, Lambda={Lambda!r}")
        if not callable(release):
            raise TypeError(f"a relation is audited through release(x, rng); {_name(mechanism)} has none")
        rep = audit_blackbox_mechanism(release, eps, relation=relation, pairs=pair_list, claimed_delta=delta,
                                       budget=budget, false_alarm=false_alarm, rng=seed, vectorised=vectorised,
                                       density=mechanism if has_density else False)
        if not rep.passed:
            worst = max(rep.pairs, key=lambda p: p.eps_lower)
            _fail(f"assert_private: {claim} under {relation.describe()} -- {rep.verdict_text()}",
                  f"worst pair: {worst.describe()}\n{rep.summary()}")
        return rep
    metric = metric or getattr(mechanism, "metric", None) or "euclidean"
    pts = np.array([np.atleast_1d(np.asarray(p, dtype=float)) for pr in pair_list for p in pr])
    if Lambda is None:
        Lambda = max(float(np.linalg.norm(pts[2 * i] - pts[2 * i + 1])) for i in range(len(pair_list)))
    if callable(release):
        rep = audit_blackbox_mechanism(release, eps, metric, pairs=pair_list, claimed_delta=delta, budget=budget,
                                       false_alarm=false_alarm, rng=seed, Lambda=Lambda if metric == "euclidean"
                                       else math.inf, density=mechanism if has_density else False,
                                       vectorised=vectorised)
        if not rep.passed:
            worst = max(rep.pairs, key=lambda p: p.eps_lower)
            _fail(f"assert_private: {claim} -- {rep.verdict_text()}",
                  f"worst pair: {worst.describe()}\n{rep.summary()}")
        return rep
    if not has_density:
        raise TypeError(f"mechanism must have log_density(x, y) or be a release(x, rng) callable; "
                        f"got {type(mechanism).__name__}")
    if metric != "euclidean":
        raise ValueError("a mechanism without release(x, rng) is audited over a Euclidean neighbourhood only; "
                         "give it release(x, rng) for the Hamming metric")
    lo, hi = float(pts.min()), float(pts.max())
    nb = EuclideanNeighbourhood(lo, hi if hi > lo else lo + 1.0, pts.shape[1], Lambda)
    res = audit_density_mechanism(_Claimed(mechanism, eps, delta), nb, rng=np.random.default_rng(seed))
    if not res.passed:
        _fail(f"assert_private: {claim} -- {res.outcome.upper()}: {res.summary()}",
              f"neighbourhood {nb!r} spanned by pairs {pair_list}\nwitness {dict(res.witness)}")
    return res


def assert_sampler_matches(sampler: Callable[..., Any], dist: Any, *, budget: int = DEFAULT_BUDGET,
                           seed: int = DEFAULT_SEED, false_alarm: float = 1e-3) -> Any:
    """Assert that ``sampler(n, rng)`` draws from the core distribution ``dist`` (KS, Anderson-Darling,
    tail quantiles, moments; Holm at ``false_alarm``); returns the report."""
    from verify.audit.blackbox import audit_sampler  # noqa: PLC0415

    rep = audit_sampler(sampler, dist, budget=budget, rng=seed, false_alarm=false_alarm)
    if not rep.passed:
        _fail(f"assert_sampler_matches: {_name(sampler)} does not draw from {dist!r}", rep.summary())
    return rep


def assert_smooth_bound(f: Any, B: Callable[..., Any], growth: Any, Lambda: float = math.inf, *,
                        params: dict[str, Any] | None = None, domain: tuple[Any, Any] | None = None,
                        budget: int = DEFAULT_BUDGET, seed: int = DEFAULT_SEED,
                        window: float | None = None) -> Any:
    """Assert that B is a g-smooth upper bound on L_{f,Lambda} (004 Def. 8); returns the report.

    Raises ``AssertionError`` on a violation *and* when the audit is INCONCLUSIVE (points where
    L_{f,Lambda} or B* could not be evaluated, or a float excess without a certified witness): a
    check that was not made is never a pass.  ``window``: the engine's search half-width for an
    expression ``f`` (see ``verify.audit.blackbox.audit_smooth_bound``)."""
    from verify.audit.blackbox import audit_smooth_bound  # noqa: PLC0415

    kw: dict[str, Any] = {} if window is None else {"window": window}
    rep = audit_smooth_bound(f, B, growth, Lambda, params=params, domain=domain, budget=budget, rng=seed, **kw)
    if rep.verdict == "INCONCLUSIVE":
        _fail(f"assert_smooth_bound: INCONCLUSIVE for {_name(B)} and {f!r}: not every check could be made",
              rep.summary())
    if not rep.passed:
        _fail(f"assert_smooth_bound: {_name(B)} is not a smooth upper bound for {f!r}", rep.summary())
    return rep
