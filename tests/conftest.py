"""Shared test configuration: a deterministic Hypothesis profile, and "no tests ran" is a failure."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# Deterministic profile: derandomised, no deadline, so property tests are reproducible in CI.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("dev", deadline=None, max_examples=200, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # pytest exits with 5 when it collected nothing; the project treats that as a failure.
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
