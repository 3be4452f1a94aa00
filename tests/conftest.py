"""Shared test configuration: the smoothsens Hypothesis profile, and "no tests ran" is a failure."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# The deterministic profile (derandomised, no deadline, print_blob) is defined once, by the plugin
# shipped to users (verify.pytest_plugin); "ci" is its old name here, "dev" a longer local run.
from verify.pytest_plugin import HYPOTHESIS_PROFILE

settings.register_profile("ci", parent=settings.get_profile(HYPOTHESIS_PROFILE))
settings.register_profile("dev", deadline=None, max_examples=200, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", HYPOTHESIS_PROFILE))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # pytest exits with 5 when it collected nothing; the project treats that as a failure.
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
