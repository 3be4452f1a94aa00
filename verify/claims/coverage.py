"""Coverage of the four seeds by the claim registry: every numbered result and every displayed formula.

:func:`coverage_table` walks each seed file (``/work/shared/seeds`` or ``$SMOOTHSENS_SEEDS``) line by
line and lists

* every numbered result -- ``Lemma``, ``Theorem``/``Thm.``, ``Corollary``/``Cor.``, ``Claim``,
  ``Definition``/``Def.``, ``Proposition``/``Prop.``, ``Remark``, ``Fact`` with its number -- once,
  at its first mention;
* every displayed formula (``$$ ... $$``), located as "displayed formula <k> after <the last
  numbered result mentioned before it>" with its first characters;

and gives each row the claim id(s) that check it or the reason it is left out.  A numbered result
is covered by the claims whose id, section or statement names it (``Lemma-3.5`` / ``Lemma 3.5``);
a displayed formula by the claims that name its equation number (a display tagged ``(2)`` or
``\\tag{8}`` is checked by the claims citing "eq. (2)" or "step (8)" of the same seed), and by the
claims of the result it belongs to (the last one named before it, in the same section), else by a
recorded omission (:data:`verify.claims.registry.OMISSIONS`) naming
that result.  Rows with neither are listed as ``unmapped`` -- they are not hidden: the report counts
them, and the test tests/verify/claims/test_coverage.py checks that every numbered result and displayed
formula of the seeds appears in the table.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .registry import OMISSIONS, SEEDS, Claim, catalogue, load_registry

__all__ = ["CoverageRow", "coverage_table", "seed_dir", "RESULT_RE", "coverage_counts"]

_KINDS = {"Lemma": "Lemma", "Theorem": "Thm", "Thm.": "Thm", "Corollary": "Cor", "Cor.": "Cor", "Claim": "Claim",
          "Definition": "Def", "Def.": "Def", "Proposition": "Prop", "Prop.": "Prop", "Remark": "Remark",
          "Fact": "Fact"}
RESULT_RE = re.compile(r"\b(Lemma|Theorem|Thm\.|Corollary|Cor\.|Claim|Definition|Def\.|Proposition|Prop\.|Remark|Fact)"
                       r"\s+([0-9]+(?:\.[0-9]+)?|[A-Z]\.[0-9]+|[IVX]+\.[0-9]+)\b")


@dataclass(frozen=True)
class CoverageRow:
    seed: str
    location: str
    states: str
    claims: tuple[str, ...]
    reason: str

    @property
    def status(self) -> str:
        return "claim" if self.claims else ("omitted" if self.reason and not self.reason.startswith("unmapped")
                                            else "unmapped")


def seed_dir() -> Path:
    return Path(os.environ.get("SMOOTHSENS_SEEDS", "/work/shared/seeds"))


def _key(kind: str, num: str) -> str:
    return f"{_KINDS[kind]} {num}"


def _claims_naming(claims: Iterable[Claim], key: str) -> tuple[str, ...]:
    kind, num = key.split(" ")
    long = {"Thm": "Theorem", "Cor": "Corollary", "Def": "Definition", "Prop": "Proposition"}.get(kind, kind)
    pat = re.compile(rf"\b(?:{kind}\.?|{long})[\s\-]+{re.escape(num)}(?![0-9.]*[0-9])")
    return tuple(c.id for c in claims if pat.search(c.id) or pat.search(c.section) or pat.search(c.statement))


def _omission_naming(seed: str, key: str) -> str:
    kind, num = key.split(" ")
    long = {"Thm": "Theorem", "Cor": "Corollary", "Def": "Definition", "Prop": "Proposition"}.get(kind, kind)
    pat = re.compile(rf"\b(?:{kind}s?\.?|{long}s?)\s+(?:[0-9A-Z.]+(?:, |-| and ))*{re.escape(num)}(?![0-9.]*[0-9])")
    for o in OMISSIONS:
        if o.seed == seed and pat.search(o.where):
            return f"omitted: {o.where}: {o.reason}"
    return ""


_HEAD_RE = re.compile(r"^(?:#+\s*)?(?:\*\*)?(?P<num>[0-9]+(?:\.[0-9]+)*|[A-C]\.[0-9]+|[IVX]+\.|[A-H]\.?)\s+"
                      r"(?P<title>[A-Z$][^.]{2,80}.*)$")


def _section_of(line: str, major: str) -> tuple[str, str] | None:
    """(section number, new major) if ``line`` is a section heading: "4.1.1", "A.4", "V-B" (003's
    lettered subsections under a roman section), "A" (an appendix); None otherwise."""
    m = _HEAD_RE.match(line.strip())
    if not m or len(line) > 120:
        return None
    num = m.group("num").rstrip(".")
    if re.fullmatch(r"[IVX]+", num):
        return num, num
    if re.fullmatch(r"[A-H]", num) and major:
        return f"{major}-{num}", major
    return num, major


_TAG_RE = re.compile(r"\\(?:quad|qquad)\s*\(([0-9]+)\)|\\tag\s*\{\(?([0-9]+)\)?\}")


def _claims_of_equation(claims: Iterable[Claim], body: str) -> tuple[str, ...]:
    """The claims citing the equation number(s) the displayed formula ``body`` is tagged with."""
    tags = {a or b for a, b in _TAG_RE.findall(body)}
    if not tags:
        return ()
    pat = re.compile(rf"\b(?:eq\.|eqs\.|equation|step)\s*\((?:{'|'.join(sorted(tags))})\)", re.IGNORECASE)
    return tuple(c.id for c in claims if pat.search(c.section) or pat.search(c.statement))


def _claims_of_section(claims: Iterable[Claim], sec: str) -> tuple[str, ...]:
    if not sec:
        return ()
    pat = re.compile(rf"\b(?:Sec\.|App\.|Section)\s*{re.escape(sec)}(?![0-9.]*[0-9])")
    return tuple(c.id for c in claims if pat.search(c.section) or pat.search(c.statement))


def _omission_of_section(seed: str, sec: str) -> str:
    if not sec:
        return ""
    pat = re.compile(rf"\b(?:Sec\.|App\.|Section)\s*{re.escape(sec)}(?![0-9.]*[0-9])")
    for o in OMISSIONS:
        if o.seed == seed and pat.search(o.where):
            return f"omitted: {o.where}: {o.reason}"
    return ""


def coverage_table(seeds: Iterable[str] = ("000", "002", "003", "004")) -> list[CoverageRow]:
    reg = load_registry()
    # the catalogue's order (the papers' order), not the registry's: that depends on which claim modules a
    # process happened to import first
    pos = {cid: i for i, cid in enumerate(catalogue())}
    rows: list[CoverageRow] = []
    for seed in seeds:
        text = (seed_dir() / SEEDS[seed]).read_text(encoding="utf-8")
        claims = sorted((c for c in reg if c.seed == seed), key=lambda c: (pos.get(c.id, len(pos)), c.id))
        seen: set[str] = set()
        last = ""
        k_disp = 0
        in_disp, disp_start, disp_buf = False, 0, []
        sec, major = "", ""
        for ln, line in enumerate(text.splitlines(), 1):
            head = None if in_disp else _section_of(line, major)
            if head is not None:
                sec, major = head
                last = ""  # a displayed formula belongs to a result of its own section only
                continue
            for m in RESULT_RE.finditer(line):
                key = _key(m.group(1), m.group(2))
                last = key
                if key in seen:
                    continue
                seen.add(key)
                ids = _claims_naming(claims, key)
                restated = re.match(r"\s*\((Lemma|Claim|Theorem|Corollary) ([0-9.]+)\)", line[m.end():])
                if not ids and restated:  # an appendix restatement, "Lemma A.1 (Lemma 3.5)"
                    ids = _claims_naming(claims, _key(restated.group(1), restated.group(2)))
                reason = "" if ids else (_omission_naming(seed, key) or "unmapped: no claim or recorded omission names it")
                rows.append(CoverageRow(seed, f"{key} (line {ln})", " ".join(line.split())[:120], ids, reason))
            # displayed formulas: $$ ... $$ on one line or spanning lines
            parts = line.split("$$")
            for j in range(len(parts) - 1):
                if not in_disp:
                    in_disp, disp_start, disp_buf = True, ln, [parts[j + 1]]
                else:
                    in_disp = False
                    k_disp += 1
                    body = " ".join(" ".join(disp_buf + [parts[j]]).split())
                    ctx_key = last
                    ids = _claims_naming(claims, ctx_key) if ctx_key else ()
                    eq_ids = _claims_of_equation(claims, body)
                    ids = eq_ids + tuple(i for i in ids if i not in eq_ids)
                    if not ids:
                        ids = _claims_of_section(claims, sec)
                    reason = "" if ids else ((_omission_naming(seed, ctx_key) if ctx_key else "")
                                             or _omission_of_section(seed, sec)
                                             or "unmapped: no claim or recorded omission names its result or section")
                    rows.append(CoverageRow(seed, f"displayed formula {k_disp} (line {disp_start}, Sec. {sec or '-'}) "
                                                  f"after {ctx_key or 'the section heading'}", body[:120], ids, reason))
            if in_disp and len(parts) == 1:
                disp_buf.append(line)
    return rows


def coverage_counts(rows: list[CoverageRow]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        kind = "formula" if r.location.startswith("displayed") else "result"
        d = out.setdefault(r.seed, {})
        d[f"{kind}s"] = d.get(f"{kind}s", 0) + 1
        d[f"{kind}s_{r.status}"] = d.get(f"{kind}s_{r.status}", 0) + 1
    return out
