"""Static checks of the core packages: mypy and ruff on ``smoothsens_core`` and ``derivations``.

Both tools run from the repository root, so they read their configuration from pyproject.toml
(``[tool.mypy]``, ``[tool.ruff]``).  Each test fails with the tool's own report, which says what
to fix.  A missing tool is a failure, never a skip: both are in the ``test`` extra.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("smoothsens_core", "derivations")


def _run(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """``python -m <args>`` at the repository root (where pyproject.toml configures the tool)."""
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_mypy_core_reports_success():
    # mypy's incremental cache makes repeated runs take seconds; a cold run takes longer
    res = _run("mypy", *PACKAGES, timeout=600)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "Success: no issues found" in res.stdout, f"mypy {' '.join(PACKAGES)} reports:\n{out}"


def test_ruff_core_reports_nothing():
    res = _run("ruff", "check", "--output-format", "concise", *PACKAGES, timeout=300)
    assert res.returncode == 0, f"ruff check {' '.join(PACKAGES)} reports:\n{res.stdout}{res.stderr}"
