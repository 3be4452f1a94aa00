"""The audit runner: run selected claims (in parallel processes), summarise, write reports.

``run_audit`` runs the claims of :mod:`verify.claims` (every paper claim and every mechanism audit
of :mod:`verify.audit.catalogue`, which the privacy claims wrap), shows progress on stderr,
and returns an :class:`AuditReport`; ``AuditReport.to_markdown`` / ``to_json`` give the reports
written by ``smoothsens audit``.

Planted controls (claims tagged ``"planted"``, ids ``*-planted-*``) are deliberately wrong
mechanisms: their expected verdict is REFUTED.  They are counted apart from the paper claims;
a planted control that is *not* refuted is a failure of the auditor (reported, and fatal under
``--strict``).
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from smoothsens_core import __version__
from verify.parallel import DaskExecutor, Executor, LocalPoolExecutor, SerialExecutor, progress_bar
from verify.claims import (
    OMISSIONS,
    PAPERS,
    RULES,
    SEEDS,
    CheckContext,
    Claim,
    ClaimResult,
    WHOLE_STATEMENT,
    Verdict,
    load_registry,
)
from verify.bounded_io import read_json_bounded
from verify.serialise import jsonable

__all__ = [
    "AuditEntry",
    "AuditReport",
    "select_claims",
    "run_audit",
    "is_planted",
    "EXIT_OK",
    "EXIT_INTERNAL_ERROR",
    "EXIT_USAGE",
    "EXIT_STRICT_FINDINGS",
]

EXIT_OK = 0
EXIT_INTERNAL_ERROR = 1
EXIT_USAGE = 2
EXIT_STRICT_FINDINGS = 3


def is_planted(c: Claim) -> bool:
    """True for the planted negative controls (expected verdict: REFUTED)."""
    return "planted" in c.tags or "-planted-" in c.id


@dataclass(frozen=True)
class AuditEntry:
    claim: Claim
    result: ClaimResult

    @property
    def planted(self) -> bool:
        return is_planted(self.claim)

    @property
    def internal_error(self) -> bool:
        return bool(self.result.evidence.get("internal_error")) if isinstance(self.result.evidence, dict) else False

    @property
    def display_verdict(self) -> str:
        v = self.result.verdict.value
        if self.planted:
            return f"{v} (planted: {'caught' if self.result.verdict is Verdict.REFUTED else 'MISSED'})"
        if self.result.verdict is Verdict.VERIFIED:
            return f"{v} ({self.result.strength})"  # "VERIFIED (proven)" / "(partly proven)" / "(tested)"
        return v

    @property
    def obligations(self) -> dict[str, list[str]] | None:
        """A VERIFIED claim's obligations: {"proven": [...], "tested": [...]} (those its proof covers, those
        resting on its test; a tested claim's obligations all rest on the test), None for other verdicts."""
        if self.result.verdict is not Verdict.VERIFIED:
            return None
        shown = self.result.obligations
        if shown is not None and self.result.strength != "tested":
            return shown
        return {"proven": [], "tested": list(self.claim.obligations or (WHOLE_STATEMENT,))}

    @property
    def obligations_note(self) -> str:
        """"[proven: rate; tested: bstar]" for a claim with named obligations or a partly proven one, else ""."""
        ob = self.obligations
        if ob is None or (not self.claim.obligations and self.result.strength != "partly proven"):
            return ""
        parts = [f"{k}: {', '.join(v)}" for k, v in (("proven", ob["proven"]), ("tested", ob["tested"])) if v]
        return f"[{'; '.join(parts)}] "

    def to_json(self) -> dict[str, Any]:
        c = self.claim
        return {
            "id": c.id,
            "seed": c.seed,
            "source_file": c.source_file,
            "section": c.section,
            "statement": c.statement,
            "kind": c.kind.value,
            "code": c.code,
            "tags": list(c.tags),
            "planted_control": self.planted,
            "internal_error": self.internal_error,
            **self.result.to_json(),
            "obligations": self.obligations,
        }


@dataclass
class AuditReport:
    """All results of one audit run, with the context it ran in."""

    entries: list[AuditEntry]
    ctx: CheckContext
    workers: int = 1
    seconds: float = 0.0
    started: str = ""
    omissions: list[Any] = field(default_factory=list)
    backend: str = "serial"
    events: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # claims --quick left out (ids), named in the reports

    # ---- totals and status --------------------------------------------------------------
    def totals(self) -> dict[str, int]:
        t = {v.value: 0 for v in Verdict}
        for e in self.entries:
            if not e.planted:
                t[e.result.verdict.value] += 1
        ver = [e for e in self.entries if not e.planted and e.result.verdict is Verdict.VERIFIED]
        t["verified_proven"] = sum(1 for e in ver if e.result.strength == "proven")
        t["verified_partly_proven"] = sum(1 for e in ver if e.result.strength == "partly proven")
        t["verified_tested"] = len(ver) - t["verified_proven"] - t["verified_partly_proven"]
        t["planted_caught"] = sum(1 for e in self.entries if e.planted and e.result.verdict is Verdict.REFUTED)
        t["planted_missed"] = sum(1 for e in self.entries if e.planted and e.result.verdict is not Verdict.REFUTED)
        t["internal_errors"] = sum(1 for e in self.entries if e.internal_error)
        t["claims"] = len(self.entries)
        return t

    def exit_status(self, strict: bool = False) -> int:
        """0 ran; 1 a check raised (internal error); 3 under ``strict`` when a paper claim is
        REFUTED or INCONCLUSIVE or a planted control was not refuted."""
        t = self.totals()
        if t["internal_errors"]:
            return EXIT_INTERNAL_ERROR
        if strict and (t[Verdict.REFUTED.value] or t[Verdict.INCONCLUSIVE.value] or t["planted_missed"]):
            return EXIT_STRICT_FINDINGS
        return EXIT_OK

    # ---- text table ---------------------------------------------------------------------
    def ordered(self) -> list[AuditEntry]:
        """Entries grouped by paper (000, 002, 003, 004) and in the paper's numbering within each."""
        return sorted(self.entries, key=lambda e: claim_order_key(e.claim))

    def table(self, width: int | None = None) -> str:
        """One block per paper (with its title), one row per claim; the evidence is wrapped to the
        terminal width on continuation lines, never cut."""
        if width is None:
            width = max(80, shutil.get_terminal_size((140, 24)).columns)
        entries = self.ordered()
        if not entries:
            return "(no claims selected)"
        w0 = max(len("claim"), *(len(e.claim.id) for e in entries))
        def tv(e: AuditEntry) -> str:  # the verdict and, for a paper claim not VERIFIED, the rule that placed it
            return e.display_verdict + ("" if e.planted or e.result.verdict is Verdict.VERIFIED else f" {e.result.rule_id}")

        w1 = max(len("verdict"), *(len(tv(e)) for e in entries))
        room = max(30, width - w0 - w1 - 4)
        pad = " " * (w0 + w1 + 4)
        lines = [f"{'claim':<{w0}}  {'verdict':<{w1}}  evidence", f"{'-' * w0}  {'-' * w1}  {'-' * min(room, 60)}"]
        seed = None
        for e in entries:
            if e.claim.seed != seed:
                seed = e.claim.seed
                lines.append(f"[{seed}] {PAPERS.get(seed, '')}")
            text = textwrap.wrap(e.obligations_note + " ".join(e.result.summary.split()), room, break_long_words=True,
                                 break_on_hyphens=False) or [""]
            lines.append(f"{e.claim.id:<{w0}}  {tv(e):<{w1}}  {text[0]}")
            lines.extend(pad + t for t in text[1:])
        return "\n".join(lines)

    def totals_line(self) -> str:
        t = self.totals()
        partly = f"{t['verified_partly_proven']} partly proven, " if t["verified_partly_proven"] else ""
        paper = ", ".join(f"{t[v.value]} {v.value}" + (f" ({t['verified_proven']} proven, {partly}"
                                                       f"{t['verified_tested']} tested)"
                                                       if v is Verdict.VERIFIED else "") for v in Verdict)
        return (f"{t['claims']} claims in {self.seconds:.1f} s: {paper}; planted controls caught "
                f"{t['planted_caught']}/{t['planted_caught'] + t['planted_missed']}; internal errors "
                f"{t['internal_errors']}")

    def errata(self) -> list[AuditEntry]:
        return [e for e in self.ordered() if e.result.verdict is Verdict.ERRATUM]

    def _errata_lines(self, markdown: bool = False) -> list[tuple[Any, str, str, str]]:
        """Per erratum: (entry, printed form, corrected form, summary), each on one line (and with
        "|" escaped for Markdown)."""
        line = _md if markdown else _one_line
        return [(e, line(e.result.evidence.get("printed", "(see evidence)")),
                 line(e.result.evidence.get("corrected", "(see evidence)")), line(e.result.summary))
                for e in self.errata()]

    def errata_text(self) -> str:
        out = []
        for e, printed, corrected, summary in self._errata_lines():
            out.append(f"* {e.claim.id} ({e.claim.section})")
            out.append(f"    printed:   {printed}")
            out.append(f"    corrected: {corrected}")
            out.append(f"    evidence:  {summary}")
        return "\n".join(out)

    # ---- reports ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "tool": f"smoothsens {__version__}",
            "started": self.started,
            "seconds": round(self.seconds, 3),
            "context": {"seed": self.ctx.seed, "budget": self.ctx.budget, "dps": self.ctx.dps,
                        "prove_all": self.ctx.prove_all},
            "run": {"backend": self.backend, "workers": self.workers, "events": list(self.events)},
            "skipped_in_quick": list(self.skipped),
            "python": platform.python_version(),
            "totals": self.totals(),
            "papers": dict(PAPERS),
            "claims": [e.to_json() for e in self.ordered()],
            "omissions": [{"seed": o.seed, "where": o.where, "reason": o.reason} for o in self.omissions],
        }

    def to_markdown(self) -> str:
        t = self.totals()
        md: list[str] = []
        md.append("# smoothsens audit report\n")
        md.append(f"smoothsens {__version__}; started {self.started}; {self.seconds:.1f} s; seed {self.ctx.seed}, "
                  f"budget {self.ctx.budget:g}, mpmath {self.ctx.dps} digits, {self.backend}"
                  f"{'; proofs on the full parameter boxes (--prove-all)' if self.ctx.prove_all else ''}.\n")
        if self.events:
            md.append("Cluster events (each task re-ran from its own inputs and seed; no result was lost "
                      "or counted twice):\n")
            md.extend(f"- {_md(ev)}" for ev in self.events)
            md.append("")
        md.append("Verdicts: VERIFIED (holds within the stated precision or symbolically), ERRATUM (printed "
                  "form wrong, corrected form holds), REFUTED (false; certified counterexample), "
                  "INCONCLUSIVE (undecided; reason given).  Planted controls are deliberately wrong "
                  "mechanisms that the auditor must refute.  VERIFIED (proven): a rigorous proof on the stated "
                  "domain (ball arithmetic, re-checked; `smoothsens audit --claim ID --recheck-proof`); VERIFIED "
                  "(partly proven): proofs cover some of the claim's obligations (listed), the rest rests on the test; "
                  "VERIFIED (tested): no violation found at the stated budget and precision.\n")
        md.append("## Verdict rules\n")
        md.append("Every verdict is placed by one written rule (precedence R-INVALID, R-FALSE, R-SLIP: a statement "
                  "false in substance is never a slip); the rule of each claim is in the Summary table.\n")
        md.extend(f"- **{rid}** {_md(text)}" for rid, text in RULES.items())
        md.append("")
        if self.skipped:
            md.append(f"`--quick` left out {len(self.skipped)} interval proof(s) that take over 10 s: "
                      f"{', '.join(f'`{c}`' for c in self.skipped)} (they run in the default audit).\n")
        md.append("## Totals\n")
        md.append("| verdict | paper claims |\n|---|---|")
        for v in Verdict:
            md.append(f"| {v.value} | {t[v.value]} |")
            if v is Verdict.VERIFIED:
                md.append(f"| VERIFIED (proven: rigorous proof on a stated domain, re-checked) | {t['verified_proven']} |")
                md.append(f"| VERIFIED (partly proven: proofs cover some of the claim's obligations, the rest is "
                          f"tested) | {t['verified_partly_proven']} |")
                md.append(f"| VERIFIED (tested: no violation at the stated budget) | {t['verified_tested']} |")
        md.append(f"| planted controls caught | {t['planted_caught']} of {t['planted_caught'] + t['planted_missed']} |")
        md.append(f"| internal errors | {t['internal_errors']} |\n")
        md.append("## Papers\n")
        md.append("| seed | paper | file |\n|---|---|---|")
        for seed in sorted({e.claim.seed for e in self.entries}):
            md.append(f"| {seed} | {_md(PAPERS.get(seed, ''))} | `{SEEDS.get(seed, 'user claims')}` |")
        md.append("")
        md.append("## Summary\n")
        md.append("| claim | paper | kind | verdict | rule | evidence | s |\n|---|---|---|---|---|---|---|")
        for e in self.ordered():
            md.append(f"| `{e.claim.id}` | {e.claim.seed} {_md(e.claim.section)} | {e.claim.kind.value} | "
                      f"{e.display_verdict} | {e.result.rule_id} | {_md(e.result.summary)} | {e.result.seconds:.2f} |")
        md.append("")
        md.append("## Errata (printed form wrong, corrected form holds)\n")
        if not self.errata():
            md.append("None found.\n")
        for e, printed, corrected, summary in self._errata_lines(markdown=True):
            md.append(f"### `{e.claim.id}` — {e.claim.section}\n")
            md.append(f"- printed: {printed}")
            md.append(f"- corrected: {corrected}")
            md.append(f"- evidence: {summary}\n")
        refuted = [e for e in self.ordered() if e.result.verdict is Verdict.REFUTED and not e.planted]
        md.append("## Refuted paper claims\n")
        md.append("None.\n" if not refuted else "")
        for e in refuted:
            md.append(f"- `{e.claim.id}`: {_md(e.result.summary)}")
        inc = [e for e in self.ordered() if e.result.verdict is Verdict.INCONCLUSIVE]
        md.append("\n## Inconclusive\n")
        md.append("None.\n" if not inc else "")
        for e in inc:
            md.append(f"- `{e.claim.id}`: {_md(e.result.summary)}")
        planted = [e for e in self.ordered() if e.planted]
        md.append("\n## Planted controls (must be REFUTED)\n")
        md.append("None selected.\n" if not planted else "")
        for e in planted:
            md.append(f"- `{e.claim.id}` → {e.display_verdict}: {_md(e.result.summary)}")
        md.append("\n## Rules that placed each non-VERIFIED paper claim\n")
        for e in self.ordered():
            if not e.planted and e.result.verdict is not Verdict.VERIFIED:
                md.append(f"- `{e.claim.id}` {e.result.verdict.value} by {_md(e.result.rule)}")
        md.append("\n## Coverage\n")
        md.extend(_coverage_md({e.claim.seed for e in self.entries}))
        md.append("\n## Statements left out, and why\n")
        md.append("None recorded.\n" if not self.omissions else "")
        for o in self.omissions:
            md.append(f"- {o.seed} {_md(o.where)}: {_md(o.reason)}")
        md.append("\n## Details\n")
        for e in self.ordered():
            md.append(f"### `{e.claim.id}`\n")
            md.append(f"- source: seed {e.claim.seed} (`{e.claim.source_file}`), {_md(e.claim.section)}")
            md.append(f"- statement: {_md(e.claim.statement)}")
            md.append(f"- kind: {e.claim.kind.value}; code: {_md(e.claim.code) or '-'}")
            md.append(f"- verdict: **{e.display_verdict}** ({e.result.seconds:.2f} s; precision: "
                      f"{_md(e.result.precision) or '-'})")
            md.append(f"- rule: {_md(e.result.rule) or 'R-VER (holds as printed)'}")
            if e.obligations is not None:
                md.append(f"- obligations proven: {', '.join(e.obligations['proven']) or 'none'}; resting on tests: "
                          f"{', '.join(e.obligations['tested']) or 'none'}")
            md.append(f"- evidence summary: {_md(e.result.summary)}\n")
            ev = json.dumps(jsonable(e.result.evidence), indent=1, default=str)
            if len(ev) > 6000:
                ev = ev[:6000] + "\n... (truncated; full evidence in verdicts.json)"
            md.append("<details><summary>evidence</summary>\n\n```json\n" + ev + "\n```\n</details>\n")
        return "\n".join(md) + "\n"

    def write(self, markdown: Path | None, json_path: Path | None) -> list[Path]:
        """Write the Markdown report and the JSON verdicts as one consistent pair.

        Both texts are first written in full to temporary files beside their targets; then the JSON is
        renamed over ``json_path`` and only after it the Markdown over ``markdown`` (``os.replace``,
        atomic on one file system).  Guarantee: a reader never sees a partly written file, and never a
        new report.md beside an old verdicts.json -- an interruption leaves both old, or the new JSON
        beside the old Markdown (the JSON is the record; the Markdown is rendered from it).  A target
        that exists and is not a regular file (``/dev/stdout``, a pipe, ``/dev/full``) is written in
        place, since renaming over a device would replace it; its write errors propagate."""
        texts: list[tuple[Path, str]] = []
        if json_path is not None:
            texts.append((Path(json_path), json.dumps(jsonable(self.to_json()), indent=1)))
        if markdown is not None:
            texts.append((Path(markdown), self.to_markdown()))
        staged: list[tuple[str, Path]] = []
        try:
            for target, text in texts:
                if target.exists() and not target.is_file():
                    with open(target, "w", encoding="utf-8") as fh:
                        fh.write(text)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
                staged.append((tmp, target))
                os.chmod(tmp, _report_mode(target))  # mkstemp's 0600 would hide the report from other users
                with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                    fh.write(text)
                    fh.flush()
                    os.fsync(fh.fileno())
            while staged:  # JSON first (it was staged first), then the Markdown
                tmp, target = staged[0]
                os.replace(tmp, target)
                staged.pop(0)
        finally:
            for tmp, _target in staged:  # interrupted: remove what was not renamed
                try:
                    os.unlink(tmp)
                except FileNotFoundError:
                    pass
        # reported in the order the caller names them: Markdown, then JSON
        return [p for p in (markdown, json_path) if p is not None]


def _report_mode(target: Path) -> int:
    """Permission bits of a report written over ``target``: those of the file it replaces, else the
    ones ``open`` would give a new file (0666 less the umask)."""
    try:
        return target.stat().st_mode & 0o777
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _coverage_md(seeds: set[str]) -> list[str]:
    """The coverage table of the seeds (verify.claims.coverage): counts, then one row per numbered
    result and displayed formula.  Empty when the seed files are not available."""
    from verify.claims.coverage import coverage_counts, coverage_table  # noqa: PLC0415

    paper_seeds = sorted(s for s in seeds if s in SEEDS)
    try:
        rows = coverage_table(paper_seeds)
    except OSError as exc:
        return [f"Seed files not available ({exc}); coverage not computed.\n"]
    out = ["| seed | results: claim / omitted / unmapped | displayed formulas: claim / omitted / unmapped |",
           "|---|---|---|"]
    for seed, c in sorted(coverage_counts(rows).items()):
        out.append(f"| {seed} | {c.get('results_claim', 0)} / {c.get('results_omitted', 0)} / "
                   f"{c.get('results_unmapped', 0)} of {c.get('results', 0)} | {c.get('formulas_claim', 0)} / "
                   f"{c.get('formulas_omitted', 0)} / {c.get('formulas_unmapped', 0)} of {c.get('formulas', 0)} |")
    out.append("\n| seed | location | states | claim(s) or reason |\n|---|---|---|---|")
    for r in rows:
        out.append(f"| {r.seed} | {_md(r.location)} | {_md(r.states)} | "
                   f"{', '.join(f'`{i}`' for i in r.claims) or _md(r.reason)} |")
    return out


def _one_line(s: Any) -> str:
    return " ".join(str(s).split())


def _md(s: Any) -> str:
    return _one_line(s).replace("|", "\\|")


_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10}


def claim_order_key(c: Claim) -> tuple[Any, ...]:
    """Sort key: the paper, then the numbers of the claim id in the paper's numbering (roman section
    numbers of 003 read as integers), then the id; "Sec-3.3" < "Lemma-3.5" < "Lemma-4.1"."""
    rest = c.id.split("-", 1)[1] if "-" in c.id else c.id
    nums: list[int] = []
    for tok in re.findall(r"[0-9]+|[IVX]+(?=[.\-]|$)", rest):
        nums.append(int(tok) if tok.isdigit() else _ROMAN.get(tok, 99))
    return (c.seed, tuple(nums) or (10**6,), c.id)


def select_claims(ids: Sequence[str] | None = None, papers: Sequence[str] | None = None,
                  kinds: Sequence[str] | None = None, include_planted: bool = True) -> list[Claim]:
    """Claims of the registry matching all filters (ids may be prefixes).  KeyError with the list
    hint for an unknown id, paper or kind."""
    reg = load_registry()
    out = reg.select(ids=ids or None, seeds=papers or None, kinds=kinds or None)
    if not include_planted:
        out = [c for c in out if not is_planted(c)]
    return out


def _run_one(cid: str, seed: int, budget: float, dps: int, prove_all: bool = False) -> ClaimResult:
    """Worker: load the registry in this process and run one claim (JSON-safe evidence)."""
    reg = load_registry()
    res = reg.get(cid).run(CheckContext(seed=seed, budget=budget, dps=dps, prove_all=prove_all))
    return ClaimResult(res.verdict, res.summary, jsonable(res.evidence), res.precision, res.seconds, res.rule,
                       res.strength)


#: Largest search-effort multiplier of an audit run.  The sampling checks draw budget x their default
#: sizes (in chunks where a check's memory would grow with it), so the run's time grows linearly:
#: at 1000 about a thousand default audits (days); a larger budget is a typing error, not a plan.
MAX_AUDIT_BUDGET = 1000.0
#: Seconds of the default audit (budget 1, 132 claims, 2 worker processes) as measured for the README.
REFERENCE_AUDIT_SECONDS = 194.0
REFERENCE_AUDIT_CLAIMS = 132


def check_audit_budget(budget: float) -> float:
    """The audit's budget as a float in (0, :data:`MAX_AUDIT_BUDGET`]; ValueError otherwise."""
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise TypeError(f"budget must be a real number; got {type(budget).__name__}")
    b = float(budget)
    if not (b > 0.0 and b <= MAX_AUDIT_BUDGET):
        raise ValueError(f"budget must be in (0, {MAX_AUDIT_BUDGET:g}]; got budget={budget!r} (the sampling checks "
                         "scale their draws by it: time grows linearly with the budget)")
    return b


def budget_estimate(budget: float, n_claims: int, workers: int = 1) -> str:
    """What a budget will cost, before the run: the sampling checks draw ``budget`` times their default
    sizes, so the run takes up to about budget x (the default audit's time, scaled to ``n_claims`` claims
    and ``workers`` processes); the interval proofs do not scale, so this is an upper estimate."""
    share = REFERENCE_AUDIT_SECONDS * (n_claims / REFERENCE_AUDIT_CLAIMS) * (2.0 / max(workers, 1))
    est = budget * share
    human = f"{est:.0f} s" if est < 120 else f"{est / 60:.0f} min" if est < 7200 else f"{est / 3600:.1f} h"
    return (f"budget {budget:g}: the sampling checks draw {budget:g} x their default sizes (memory per task stays "
            f"bounded); expect up to about {human} for {n_claims} claim(s) on {workers} process(es) "
            f"(the default audit: {REFERENCE_AUDIT_SECONDS:.0f} s for {REFERENCE_AUDIT_CLAIMS} claims on 2)")


def run_audit(claims: Iterable[Claim], ctx: CheckContext, *, workers: int = 1, progress: bool = True,
              scheduler: str | None = None, executor: Executor | None = None,
              cost_hint: dict[str, float] | None = None) -> AuditReport:
    """Run ``claims`` with context ``ctx`` and collect the report.

    ``executor`` if given; else ``scheduler`` (the address of a running Dask scheduler), or
    ``workers`` > 1 (a pool of that many local worker processes forked from this one, which inherit
    the loaded registry: :class:`verify.parallel.LocalPoolExecutor`, shut down at the end); serial
    otherwise.  Each claim is one task: its result depends only on (claim, seed, budget, dps), so
    the report is the same however the tasks are scheduled.  On workers the tasks start longest
    first (:func:`schedule_order`, from ``cost_hint`` = claim id -> seconds of an earlier run when
    given), so the last task to start is a short one and the workers finish together.  A check
    that raises becomes INCONCLUSIVE with ``internal_error`` in its evidence (Claim.run); a task
    that fails on its worker (e.g. an import error on a remote worker) is reported the same way."""
    claims = list(claims)
    if workers < 1:
        raise ValueError(f"workers must be an integer >= 1; got workers={workers}")
    check_audit_budget(ctx.budget)
    if ctx.budget > 1.0:
        print(budget_estimate(ctx.budget, len(claims), workers), file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    own = executor is None
    ex: Executor
    if executor is None:
        if scheduler:
            ex = DaskExecutor(scheduler)
        elif workers > 1 and len(claims) > 1:
            ex = LocalPoolExecutor(min(workers, len(claims)))
        else:
            ex = SerialExecutor()
    else:
        ex = executor
    results: dict[str, ClaimResult] = {}
    bar = progress_bar(len(claims), "audit", progress)

    def done(i: int, res: ClaimResult) -> None:
        cid = claims[i].id
        results[cid] = res
        if bar is not None:
            bar.set_postfix_str(f"{cid}: {res.verdict.value}", refresh=False)
            bar.update(1)
        elif progress:
            print(f"[{len(results)}/{len(claims)}] {cid}: {res.verdict.value}", file=sys.stderr)

    interrupted = True  # until the map returns: Ctrl-C (or any exception) ends the workers started here
    try:
        if isinstance(ex, SerialExecutor):
            ex.map(lambda c: c.run(ctx), [(c,) for c in claims], label="claim", progress=done)
        else:
            order = schedule_order(claims, cost_hint)  # results map back to the claims by index
            tasks = [(claims[i].id, ctx.seed, ctx.budget, ctx.dps, ctx.prove_all) for i in order]
            if isinstance(ex, LocalPoolExecutor):  # the claims of one module share its cached derivations
                ex.map(_run_one_safe, tasks, label="claim", progress=lambda k, res: done(order[k], res),
                       affinity=[getattr(claims[i].check, "__module__", "") for i in order])
            else:
                ex.map(_run_one_safe, tasks, label="claim", progress=lambda k, res: done(order[k], res))
        interrupted = False
    finally:
        if bar is not None:
            bar.close()
        backend, n_workers, events = ex.describe(), ex.workers, list(ex.events)
        if own:
            if interrupted:
                ex.terminate()
            else:
                ex.close()
    entries = [AuditEntry(c, results[c.id]) for c in claims]
    report = AuditReport(entries, ctx, n_workers, time.perf_counter() - t0, started, list(OMISSIONS))
    report.backend = backend
    report.events = events
    return report


def schedule_order(claims: Sequence[Claim], cost_hint: dict[str, float] | None = None) -> list[int]:
    """Indices of ``claims`` in the order to start them on workers: longest first.

    With ``cost_hint`` (claim id -> seconds, e.g. of the previous run with the same budget:
    :func:`previous_timings`), by decreasing hint; a claim without a hint counts as the median of
    the hints.  Without hints: the interval proofs (tag "proof") first, then the rest in registry
    order.  The order changes only when the claims finish, never their results."""
    if cost_hint:
        known = sorted(float(v) for v in cost_hint.values())
        median = known[len(known) // 2]
        cost = [float(cost_hint.get(c.id, median)) for c in claims]
        return sorted(range(len(claims)), key=lambda i: -cost[i])  # stable: ties keep registry order
    return sorted(range(len(claims)), key=lambda i: "proof" not in claims[i].tags)


#: Largest earlier JSON report read for its timings (bytes): the default audit writes about 2 MB.
MAX_TIMINGS_BYTES = 64 * 1024 * 1024


def previous_timings(path: Path, ctx: CheckContext) -> dict[str, float] | None:
    """Claim id -> seconds of the JSON report ``path`` of an earlier run, if it exists, is readable
    and ran with the same budget and proof setting as ``ctx`` (other runs time other work); else None.

    Only a regular file of at most :data:`MAX_TIMINGS_BYTES` is read (:mod:`verify.bounded_io`): the
    path is the one the run will write, and may name a device (``/dev/full``, ``/dev/zero``), a pipe or
    a huge file; those give no hint, and nothing is read from them."""
    try:
        p = Path(path)
        if not p.is_file() or p.stat().st_size > MAX_TIMINGS_BYTES:
            return None
        data = read_json_bounded(p, max_bytes=MAX_TIMINGS_BYTES, what="previous report")
        run = data.get("context", {})
        if run.get("budget") != ctx.budget or bool(run.get("prove_all")) != bool(ctx.prove_all):
            return None
        out = {c["id"]: float(c["seconds"]) for c in data.get("claims", [])
               if isinstance(c, dict) and isinstance(c.get("seconds"), (int, float))}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return out or None


def _run_one_safe(cid: str, seed: int, budget: float, dps: int, prove_all: bool = False) -> ClaimResult:
    """:func:`_run_one`, with an exception of the task itself turned into an internal error (a
    check's own exceptions are already caught by ``Claim.run``; this catches e.g. import failures
    on a remote worker)."""
    try:
        return _run_one(cid, seed, budget, dps, prove_all)
    except Exception as exc:  # noqa: BLE001 - reported as an internal error, never hidden
        return ClaimResult(Verdict.INCONCLUSIVE, f"internal error: task failed on its worker: {exc!r}",
                           {"internal_error": True})
