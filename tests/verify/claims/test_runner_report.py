"""The audit report's presentation: papers in order with titles, evidence wrapped, never cut."""

from __future__ import annotations

from verify.claims import CheckContext, CheckKind, Claim, ClaimResult, Verdict
from verify.claims.runner import AuditEntry, AuditReport, claim_order_key


def _claim(cid: str) -> Claim:
    return Claim(id=cid, seed=cid[:3], section="s", statement="st", kind=CheckKind.NUMERIC,
                 check=lambda ctx: ClaimResult(Verdict.VERIFIED, "x", {}, ""))


def _report(ids: list[str], summary: str) -> AuditReport:
    entries = [AuditEntry(_claim(i), ClaimResult(Verdict.VERIFIED, summary, {}, "")) for i in ids]
    return AuditReport(entries, CheckContext())


def test_claims_are_grouped_by_paper_in_the_papers_numbering():
    ids = ["004-Lemma-4.1", "002-Thm-8", "004-Lemma-3.5", "003-Def-IV.1", "004-Sec-3.3-S4", "003-Def-V.3",
           "000-Thm-1-constants", "004-Lemma-3.3-privacy"]
    got = [e.claim.id for e in _report(ids, "ok").ordered()]
    assert got == ["000-Thm-1-constants", "002-Thm-8", "003-Def-IV.1", "003-Def-V.3", "004-Lemma-3.3-privacy",
                   "004-Sec-3.3-S4", "004-Lemma-3.5", "004-Lemma-4.1"]
    assert claim_order_key(_claim("003-Def-IV.1")) < claim_order_key(_claim("003-Def-V.3"))


def test_terminal_table_wraps_long_evidence_and_names_the_papers():
    long = " ".join(f"word{i}" for i in range(120)) + " END"
    table = _report(["004-Lemma-4.1", "002-Thm-8"], long).table(width=100)
    assert "END" in table and "…" not in table
    assert all(len(line) <= 100 for line in table.splitlines())
    assert "[002] Hladík & Tětek, Smooth Sensitivity Revisited: Towards Optimality" in table
    assert "[004] Liang & Yi, Smooth Sensitivity for Geo-Privacy" in table
    assert table.index("002-Thm-8") < table.index("004-Lemma-4.1")


def test_markdown_report_lists_paper_titles():
    md = _report(["003-Def-IV.1"], "ok").to_markdown()
    assert "| 003 | Takagi, Kato, Cao & Yoshikawa, Asymmetric Differential Privacy |" in md


def test_partly_proven_claims_are_counted_and_show_their_obligations():
    """A claim whose proof covers "rate" of ("rate", "bstar"): counted apart in the totals line, its obligations
    in the table, the JSON and the Markdown details; a tested claim's obligations all rest on its test."""
    c = Claim(id="004-Test-partly", seed="004", section="s", statement="st", kind=CheckKind.NUMERIC,
              check=lambda ctx: ClaimResult(Verdict.VERIFIED, "x", {}, ""), obligations=("rate", "bstar"))
    partly = ClaimResult(Verdict.VERIFIED, "rate proven", {"proof": {"method": "interval"}, "domain": "d",
                                                          "coverage": {"proven": ["rate"], "tested": ["bstar"]}},
                         "arb", strength="partly proven")
    rep = AuditReport([AuditEntry(c, partly), AuditEntry(_claim("002-Thm-8"), ClaimResult(Verdict.VERIFIED, "t"))],
                      CheckContext())
    assert "2 VERIFIED (0 proven, 1 partly proven, 1 tested)" in rep.totals_line()
    assert "VERIFIED (partly proven)" in rep.table(width=120) and "[proven: rate; tested: bstar]" in rep.table(120)
    js = {e.claim.id: e.to_json() for e in rep.entries}
    assert js["004-Test-partly"]["obligations"] == {"proven": ["rate"], "tested": ["bstar"]}
    assert js["002-Thm-8"]["obligations"] == {"proven": [], "tested": ["statement"]}
    md = rep.to_markdown()
    assert "- obligations proven: rate; resting on tests: bstar" in md and "| VERIFIED (partly proven" in md
