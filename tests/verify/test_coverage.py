"""The coverage table (verify.claims.coverage) lists every numbered result and displayed formula of the seeds."""

from __future__ import annotations

import re

import pytest

from verify.claims.coverage import RESULT_RE, _key, coverage_table, seed_dir
from verify.claims.registry import SEEDS

pytestmark = pytest.mark.skipif(not seed_dir().is_dir(), reason="seed files not available")


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_every_numbered_result_and_displayed_formula_is_in_the_table(seed):
    text = (seed_dir() / SEEDS[seed]).read_text(encoding="utf-8")
    rows = [r for r in coverage_table([seed])]
    keys = {_key(m.group(1), m.group(2)) for m in RESULT_RE.finditer(text)}
    listed = {r.location.split(" (line")[0] for r in rows if not r.location.startswith("displayed")}
    assert keys <= listed, sorted(keys - listed)
    n_disp = text.count("$$") // 2
    assert sum(r.location.startswith("displayed") for r in rows) == n_disp
    for r in rows:
        assert r.claims or r.reason
    # every row has a claim or a recorded omission (verify.claims.registry.OMISSIONS): none unmapped
    assert not [r.location for r in rows if r.status == "unmapped"]


def test_a_known_result_maps_to_its_claim():
    rows = coverage_table(["004"])
    r = next(r for r in rows if r.location.startswith("Lemma 4.6 "))
    assert "004-Lemma-4.6" in r.claims
