"""Test helpers shared by the subfolders of tests/verify (``planted_impls``, ``claim_verdicts``, ``proof_checks``)
are imported by module name: this folder goes on sys.path once for all of them."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
