"""The coverage table (verify.claims.coverage) lists every numbered result and displayed formula of the seeds."""

from __future__ import annotations


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


def test_facts_and_tagged_equations_of_002_map_to_their_claims():
    """Fact k is a numbered result; a display tagged (k) is checked by the claims citing eq./step (k)."""
    rows = coverage_table(["002"])
    by_loc = {r.location.split(" (line")[0]: r for r in rows}
    assert by_loc["Fact 5"].claims == ("002-Fact-5",)
    assert by_loc["Fact 4"].claims == ("002-Fact-4",)
    assert by_loc["Fact 3"].status == "omitted"
    text = (seed_dir() / SEEDS["002"]).read_text(encoding="utf-8")
    eq2_line = next(i for i, ln in enumerate(text.splitlines(), 1) if r"c f_{cs, \alpha}(cx). \quad (2)" in ln)
    eq2 = next(r for r in rows if r.location.startswith("displayed") and f"(line {eq2_line}," in r.location)
    assert eq2.claims[0] == "002-Lemma-9-eq-2"
    tag8_line = next(i for i, ln in enumerate(text.splitlines(), 1) if r"\tag{8}" in ln)
    displays = [r for r in rows if r.location.startswith("displayed")]
    start = [int(r.location.split("(line ")[1].split(",")[0]) for r in displays]
    step8 = displays[max(k for k, ln in enumerate(start) if ln <= tag8_line)]  # the display holding \tag{8}
    assert step8.claims[0] == "002-Lemma-9-step-8"
