"""Static checks of ``verify``: ruff and mypy on the modules that are clean, listed in :data:`CLEAN`.

Both tools run from the repository root, so they read their configuration from pyproject.toml
(``[tool.ruff]``, ``[tool.mypy]``).  mypy checks only the listed files (``--follow-imports=silent``: the
modules they import are analysed for their types, and their own errors are reported by their own entry
once it is listed here).  A module joins :data:`CLEAN` when ``ruff check FILE`` and
``mypy --follow-imports=silent FILE`` report nothing; it never leaves it.  A missing tool is a failure,
never a skip: both are in the ``test`` extra.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The verify modules that ruff and mypy report clean (paths from the repository root).  Extend it as
#: more of verify/ is made clean; a folder stands for every ``.py`` file under it.
CLEAN: tuple[str, ...] = (
    "verify/__init__.py",
    "verify/audit/__init__.py",
    "verify/audit/adapters",
    "verify/audit/catalogue.py",
    "verify/audit/exact",
    "verify/audit/outcome.py",
    "verify/bounded_io.py",
    "verify/claims",
    "verify/cli/__init__.py",
    "verify/cli/__main__.py",
    "verify/cli/argtypes.py",
    "verify/cli/commands/__init__.py",
    "verify/cli/commands/asymmetric.py",
    "verify/cli/commands/audit.py",
    "verify/cli/commands/audit_libraries.py",
    "verify/cli/commands/calibrate.py",
    "verify/cli/commands/experiment.py",
    "verify/cli/commands/regenerate.py",
    "verify/cli/commands/sensitivity.py",
    "verify/experiments",
    "verify/parallel.py",
    "verify/proof/__init__.py",
    "verify/proof/_results.py",
    "verify/proof/def8_cond1.py",
    "verify/proof/functions.py",
    "verify/proof/kde_chord.py",
    "verify/proof/kde_constants.py",
    "verify/proof/kde_def8.py",
    "verify/proof/kde_series.py",
    "verify/proof/kde_tail.py",
    "verify/proof/obligation_check.py",
    "verify/proof/obligation_types.py",
    "verify/proof/obligations.py",
    "verify/proof/prover.py",
    "verify/proof/ramp_def8.py",
    "verify/proof/rates.py",
    "verify/proof/recheck.py",
    "verify/proof/record.py",
    "verify/proof/symbolic.py",
    "verify/reference/__init__.py",
    "verify/reference/distributions.py",
    "verify/reference/mechanisms.py",
    "verify/reference/queries.py",
    "verify/reference/search.py",
    "verify/serialise.py",
    "verify/strategies.py",
)


def _run(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """``python -m <args>`` at the repository root (where pyproject.toml configures the tool)."""
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_clean_list_names_existing_verify_files():
    missing = [p for p in CLEAN if not (ROOT / p).exists()]
    assert not missing, f"CLEAN names paths that do not exist (moved or renamed?): {missing}"
    outside = [p for p in CLEAN if not p.startswith("verify/")]
    assert not outside, f"CLEAN is for verify/ only (the core packages have tests/test_static_checks_core.py): {outside}"


def test_ruff_clean_verify_modules_report_nothing():
    res = _run("ruff", "check", "--output-format", "concise", *CLEAN, timeout=300)
    assert res.returncode == 0, f"ruff check on the clean verify modules reports:\n{res.stdout}{res.stderr}"


@pytest.mark.long
def test_mypy_clean_verify_modules_report_success():
    # about 30 s of CPU from a cold cache (numpy's stubs dominate), a few seconds warm: hence "long"; the
    # ruff test above is its sibling in the default run
    res = _run("mypy", "--follow-imports=silent", *CLEAN, timeout=900)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "Success: no issues found" in res.stdout, f"mypy on the clean verify modules reports:\n{out}"
