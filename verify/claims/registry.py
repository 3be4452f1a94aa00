"""The claim registry: every checkable statement of the four papers, each with a check.

A :class:`Claim` is frozen: a stable id (``004-Lemma-4.1``), its source (seed file, section), the
statement exactly as checked (plain math), the kind of check, and a check function returning a
frozen :class:`ClaimResult` (verdict, evidence, precision, time).  The papers' statements are data:
the claim catalogue ``verify/claims/catalogue/<seed>.toml`` holds each claim's seed, section,
statement, kind, code and tags, keyed by id; the checks live in the modules of
:mod:`verify.claims.sets` (``@claim("004-Lemma-4.1")`` takes its metadata from the catalogue) and
:func:`load_registry` imports all of them.  The registry refuses duplicate ids and claims without a
check at registration time, a catalogue entry without a check at load time, and an id both in the
catalogue and stated in code.

Verdicts
--------
VERIFIED      the statement holds (within the stated precision or symbolically).
ERRATUM       the printed form is wrong, a corrected form holds; both are in the evidence.
REFUTED       the statement is false; a certified counterexample is in the evidence.
INCONCLUSIVE  the check could not decide; the reason is in the evidence.

Every verdict other than VERIFIED is placed by one of the written rules of :data:`RULES`
(``ClaimResult.rule``: "<rule id>: <one-line reason>"); see README.md, "Verdict rules".
"""

from __future__ import annotations

import enum
import importlib
import importlib.resources
import pkgutil
import time
import tomllib
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping

import numpy as np

import verify.claims.sets
from verify.proof._results import RecheckResult
from verify.proof.record import is_registered, method_named
from verify.serialise import jsonable

__all__ = [
    "Verdict",
    "CheckKind",
    "RULES",
    "RULE_VERDICT",
    "rule_id",
    "SEEDS",
    "USER_SEED",
    "PAPERS",
    "CheckContext",
    "ClaimResult",
    "Claim",
    "Registry",
    "REGISTRY",
    "claim",
    "catalogue",
    "parse_catalogue",
    "unchecked_catalogue_entries",
    "PROOFS",
    "proof_for",
    "ExpectedObligation",
    "OBLIGATIONS",
    "obligation_for",
    "expected_obligation",
    "proof_method",
    "with_proof",
    "with_evidence",
    "STRENGTHS",
    "PROVEN_STRENGTHS",
    "WHOLE_STATEMENT",
    "obligation_coverage",
    "method_expectation",
    "recheck_claim",
    "load_registry",
    "Omission",
    "OMISSIONS",
    "omitted",
]

SEEDS: Mapping[str, str] = {
    "000": "000_3f382bde24593e2a.txt",
    "002": "002_c1d9ef7457320fa2.txt",
    "003": "003_589fbd8247981f2a.txt",
    "004": "004_69025f458ca54b64.txt",
}

#: The seed of claims from outside the four papers: a user's own claim file or an installed package
#: (``smoothsens audit --claims FILE``, entry-point group ``smoothsens.claims``; verify.claims.user).
USER_SEED = "user"

#: Each seed's paper, for the reports (authors and title as printed on the seed's first page).
PAPERS: Mapping[str, str] = {
    "000": "appendix (omitted proofs) of a paper on direction-oriented smooth sensitivity",
    "002": "Hladík & Tětek, Smooth Sensitivity Revisited: Towards Optimality",
    "003": "Takagi, Kato, Cao & Yoshikawa, Asymmetric Differential Privacy",
    "004": "Liang & Yi, Smooth Sensitivity for Geo-Privacy",
}


class Verdict(str, enum.Enum):
    VERIFIED = "VERIFIED"
    ERRATUM = "ERRATUM"
    REFUTED = "REFUTED"
    INCONCLUSIVE = "INCONCLUSIVE"


class CheckKind(str, enum.Enum):
    SYMBOLIC = "symbolic"
    NUMERIC = "high-precision numeric"
    PROPERTY = "property-based"
    ADVERSARIAL = "adversarial search"


#: The written rules that place a claim (README.md, "Verdict rules"), by precedence: R-INVALID is
#: tried before R-FALSE, and both before R-SLIP (a statement that is false in substance is never a slip).
RULES: Mapping[str, str] = {
    "R-VER": "VERIFIED: the printed statement holds as printed on its whole stated domain (symbolically, or "
             "within the stated precision at every point checked).",
    "R-INVALID": "REFUTED: the printed statement is a bound or a privacy guarantee and it is not valid: a printed "
                 "bound below the true value it bounds (e.g. below the smooth sensitivity B*), a privacy loss above "
                 "the claimed eps, or a necessary condition that a certified mechanism violates. Never a slip, "
                 "whatever the corrected form looks like; a certified counterexample (mpmath) is in the evidence.",
    "R-FALSE": "REFUTED: the printed statement is false in substance -- the flaw is in the mathematics: a wrong "
               "system or formula, a constant or formula failing on part of the stated range (a missing or too "
               "wide hypothesis), a wrong value stated as a fact, a conclusion the stated hypotheses do not give. "
               "A certified counterexample (mpmath) is in the evidence; the corrected form, if any, too.",
    "R-SLIP": "ERRATUM: the printed form differs from what the paper's own proof or usage evidently intends by a "
              "typesetting slip (wrong subscript or symbol, lost parenthesis, a sign or exponent garbled in one "
              "display, a typo in a proof line), the intended statement holds (checked), and no conclusion of the "
              "paper depends on the printed form. Printed and corrected forms are in the evidence.",
    "R-UNDEC": "INCONCLUSIVE: the check could not decide (disagreement of independent references, a search "
               "that found nothing it could certify, or an internal error); the reason is in the evidence.",
}

#: The verdict each rule gives.
RULE_VERDICT: Mapping[str, str] = {"R-VER": "VERIFIED", "R-INVALID": "REFUTED", "R-FALSE": "REFUTED",
                                   "R-SLIP": "ERRATUM", "R-UNDEC": "INCONCLUSIVE"}


#: The strength of a VERIFIED result: "proven" (proofs cover every obligation of the claim), "partly proven"
#: (proofs cover some, the rest rests on the claim's test) or "tested" (no proof).
STRENGTHS = ("proven", "partly proven", "tested")
#: The strengths that carry a proof record (evidence["proof"], evidence["domain"]).
PROVEN_STRENGTHS = ("proven", "partly proven")
#: The one obligation of a claim that names none: its whole statement.
WHOLE_STATEMENT = "statement"


def rule_id(rule: str) -> str:
    """The rule id of a ``ClaimResult.rule`` string ("R-FALSE: reason" -> "R-FALSE")."""
    return rule.split(":", 1)[0].strip()


@dataclass(frozen=True)
class CheckContext:
    """What a check may use: a seed for reproducible randomness, a search budget multiplier
    (1.0 = default audit, smaller for ``--quick``), and the mpmath precision in decimal digits.
    ``prove_all``: rigorous proofs (verify.claims.sets.proofs) on the full parameter boxes
    (``smoothsens audit --prove-all``, minutes) instead of the small test boxes."""

    seed: int = 20261122
    budget: float = 1.0
    dps: int = 50
    prove_all: bool = False

    def rng(self, salt: str = "") -> Any:
        # A stable per-claim stream: the same seed and salt give the same draws in any process.
        h = sum((i + 1) * ord(c) for i, c in enumerate(salt)) % (2**31)
        return np.random.default_rng([self.seed, h])

    @property
    def mp_precision(self) -> str:
        """The precision of a result certified in mpmath at this context's digits: "mpmath <dps> digits"."""
        return f"mpmath {self.dps} digits"

    def scaled(self, n: int, minimum: int = 1) -> int:
        """``n`` scaled by the budget, at least ``minimum``."""
        return max(minimum, int(round(n * self.budget)))

    def sample(self, salt: str, n: int, minimum: int = 1) -> tuple[Any, int]:
        """What a sampling check draws from: the stream :meth:`rng` ``(salt)`` and the number of draws,
        ``n`` scaled by the budget (:meth:`scaled`, at least ``minimum``)."""
        return self.rng(salt), self.scaled(n, minimum)


@dataclass(frozen=True)
class ClaimResult:
    """The outcome of one check.

    ``evidence`` is data (JSON-serialisable): max deviation and where, the counterexample, the
    printed and corrected forms of an erratum.  ``summary`` is the one-line evidence for tables.
    ``rule`` is the written rule that placed the verdict (:data:`RULES`), "<id>: <reason>".  It is
    empty for VERIFIED (rule R-VER); for INCONCLUSIVE and REFUTED without one it is derived
    (R-UNDEC, R-FALSE, with the summary as reason); an ERRATUM must name its rule (a slip needs the
    argument why it is one).  A rule that gives another verdict is refused.
    ``strength`` (VERIFIED only): "proven" -- a rigorous proof on a stated domain, re-checked, in
    ``evidence["proof"]`` / ``evidence["domain"]`` (verify.proof), covering every obligation of the claim --
    "partly proven" (a proof covering some of the claim's obligations, ``evidence["coverage"]`` says which
    are proven and which rest on the test), or "tested" (a check at a stated budget / precision found no
    violation).
    """

    verdict: Verdict
    summary: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    precision: str = ""
    seconds: float = 0.0
    rule: str = ""
    strength: str = "tested"

    def __post_init__(self) -> None:
        if self.strength not in STRENGTHS:
            raise ValueError(f"strength must be one of {STRENGTHS}; got strength={self.strength!r}")
        if self.strength in PROVEN_STRENGTHS and (self.verdict is not Verdict.VERIFIED or "proof" not in self.evidence
                                                  or "domain" not in self.evidence):
            raise ValueError(f"strength {self.strength!r} needs verdict VERIFIED and evidence['proof'], "
                             f"evidence['domain']")
        rule = self.rule
        if not rule:
            if self.verdict is Verdict.INCONCLUSIVE:
                rule = f"R-UNDEC: {self.summary}"
            elif self.verdict is Verdict.REFUTED:
                rule = f"R-FALSE: {self.summary}"
            elif self.verdict is Verdict.ERRATUM:
                raise ValueError("an ERRATUM needs its rule (R-SLIP: why the printed form is a slip); got rule=''")
        rid = rule_id(rule) if rule else "R-VER"
        if rid not in RULES:
            raise ValueError(f"rule must start with one of {sorted(RULES)}; got rule={self.rule!r}")
        if RULE_VERDICT[rid] != self.verdict.value:
            raise ValueError(f"rule {rid} gives {RULE_VERDICT[rid]}, not {self.verdict.value}")
        object.__setattr__(self, "rule", rule)

    @property
    def rule_id(self) -> str:
        return rule_id(self.rule) if self.rule else "R-VER"

    @property
    def obligations(self) -> dict[str, list[str]] | None:
        """{"proven": [...], "tested": [...]}: the claim's obligations covered by its proof and those resting on
        its test (a proven result's ``evidence["coverage"]``), None where the result does not say."""
        ob = self.evidence.get("coverage") if isinstance(self.evidence, Mapping) else None
        if isinstance(ob, Mapping) and isinstance(ob.get("proven"), list) and isinstance(ob.get("tested"), list):
            return {"proven": [str(x) for x in ob["proven"]], "tested": [str(x) for x in ob["tested"]]}
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "strength": self.strength if self.verdict is Verdict.VERIFIED else None,
            "obligations": self.obligations if self.verdict is Verdict.VERIFIED else None,
            "rule": self.rule_id,
            "rule_reason": self.rule.split(":", 1)[1].strip() if ":" in self.rule else "",
            "summary": self.summary,
            "evidence": jsonable(self.evidence),
            "precision": self.precision,
            "seconds": round(self.seconds, 4),
        }


@dataclass(frozen=True)
class Claim:
    """One checkable statement of a paper.

    ``id``        stable identifier, ``<seed>-<Kind>-<number>[-<part>]`` e.g. ``004-Lemma-4.1``.
    ``seed``      seed number ("000", "002", "003", "004").
    ``section``   where in the paper (e.g. "Sec. 4.1.2, Lemma 4.1").
    ``statement`` the statement exactly as checked, in plain math.
    ``kind``      how it is checked (:class:`CheckKind`).
    ``check``     function of a :class:`CheckContext` returning a :class:`ClaimResult`.
    ``code``      the code the claim covers (module path), so proof and code point to each other.
    ``obligations`` what the claim needs proven to be "proven" (names, e.g. ("rate", "bstar")); empty: its
                  whole statement (:data:`WHOLE_STATEMENT`), or the obligations its proof obligation states.
    """

    id: str
    seed: str
    section: str
    statement: str
    kind: CheckKind
    check: Callable[[CheckContext], ClaimResult]
    code: str = ""
    tags: tuple[str, ...] = ()
    obligations: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        obs = tuple(self.obligations)
        if not all(isinstance(o, str) and o for o in obs) or len(set(obs)) != len(obs):
            raise ValueError(f"claim {self.id!r}: obligations must be distinct non-empty names; got {obs!r}")
        object.__setattr__(self, "obligations", obs)

    @property
    def source_file(self) -> str:
        return SEEDS.get(self.seed, "")  # "" for USER_SEED claims

    def run(self, ctx: CheckContext | None = None) -> ClaimResult:
        """Run the check, timing it; an exception becomes INCONCLUSIVE with the traceback."""
        ctx = ctx or CheckContext()
        t0 = time.perf_counter()
        try:
            res = self.check(ctx)
            if not isinstance(res, ClaimResult):
                raise TypeError(f"check of {self.id} returned {type(res).__name__}, not ClaimResult")
        except Exception as exc:  # noqa: BLE001 - an internal error is reported, not hidden
            res = ClaimResult(
                Verdict.INCONCLUSIVE,
                f"internal error: {type(exc).__name__}: {exc}",
                {"traceback": traceback.format_exc(), "internal_error": True},
            )
        if res.verdict is Verdict.VERIFIED and res.strength == "tested" and self.id in PROOFS:
            res = _attempt_proof(self.id, ctx, res)
        if res.verdict is Verdict.VERIFIED and res.strength in PROVEN_STRENGTHS:
            res = _proven_or_inconclusive(self, res)
        dt = time.perf_counter() - t0
        return ClaimResult(res.verdict, res.summary, res.evidence, res.precision, dt, res.rule, res.strength)


class Registry:
    """Claims by id, in registration order. Refuses duplicate ids and claims without a check."""

    def __init__(self) -> None:
        self._claims: dict[str, Claim] = {}

    def add(self, c: Claim) -> Claim:
        if not isinstance(c, Claim):
            raise TypeError(f"only Claim objects can be registered; got {type(c).__name__}")
        if c.id in self._claims:
            raise ValueError(f"duplicate claim id {c.id!r}")
        if c.seed not in SEEDS and c.seed != USER_SEED:
            raise ValueError(f"claim {c.id!r}: seed must be one of {sorted(SEEDS) + [USER_SEED]}; got {c.seed!r}")
        if not callable(c.check):
            raise ValueError(f"claim {c.id!r} has no check function")
        if not c.id.startswith(c.seed + "-"):
            raise ValueError(f"claim id {c.id!r} must start with its seed {c.seed!r}-")
        self._claims[c.id] = c
        return c

    def __len__(self) -> int:
        return len(self._claims)

    def __iter__(self) -> Iterator[Claim]:
        return iter(self._claims.values())

    def __contains__(self, cid: object) -> bool:
        return cid in self._claims

    def get(self, cid: str) -> Claim:
        try:
            return self._claims[cid]
        except KeyError:
            raise KeyError(f"unknown claim id {cid!r}; run `smoothsens audit --list` to see the ids") from None

    def select(
        self,
        ids: Iterable[str] | None = None,
        seeds: Iterable[str] | None = None,
        kinds: Iterable[str] | None = None,
    ) -> list[Claim]:
        """Claims matching all given filters (ids may be prefixes, e.g. ``004-Lemma-4``)."""
        out = list(self)
        if ids:
            ids = list(ids)
            for i in ids:
                if not any(c.id == i or c.id.startswith(i) for c in out):
                    raise KeyError(f"unknown claim id {i!r}; run `smoothsens audit --list` to see the ids")
            out = [c for c in out if any(c.id == i or c.id.startswith(i) for i in ids)]
        if seeds:
            seeds = {s.zfill(3) for s in seeds}
            bad = seeds - set(SEEDS)
            if bad:
                raise KeyError(f"unknown paper(s) {sorted(bad)}; choose from {sorted(SEEDS)}")
            out = [c for c in out if c.seed in seeds]
        if kinds:
            valid = {k.name.lower(): k for k in CheckKind} | {k.value: k for k in CheckKind}
            want = set()
            for k in kinds:
                if k.lower() not in valid:
                    raise KeyError(f"unknown kind {k!r}; choose from {sorted(x.name.lower() for x in CheckKind)}")
                want.add(valid[k.lower()])
            out = [c for c in out if c.kind in want]
        return out


REGISTRY = Registry()


#: The claim catalogue: the papers' statements as data, TOML files per seed in
#: ``verify/claims/catalogue/<seed>.toml`` or ``<seed>.<topic>.toml`` (e.g. ``004.proofs.toml``), one
#: table per claim id (section, statement, kind, code, tags).
CATALOGUE_DIR = "catalogue"
_CATALOGUE_KEYS = frozenset({"section", "statement", "kind", "code", "tags"})
_CATALOGUE: dict[str, dict[str, Any]] | None = None
#: Claim ids registered from the catalogue (REGISTRY only), to find catalogue entries without a check.
_FROM_CATALOGUE: set[str] = set()


def _kind_of(word: str, where: str) -> CheckKind:
    try:
        return CheckKind[word.upper()]
    except KeyError:
        raise ValueError(f"{where}: kind must be one of {[k.name.lower() for k in CheckKind]}; "
                         f"got kind={word!r}") from None


def parse_catalogue(seed: str, text: str, source: str = "") -> dict[str, dict[str, Any]]:
    """The entries of one catalogue file (TOML ``text`` of seed ``seed``): claim id -> the keyword
    arguments of :class:`Claim` but ``check`` (seed, section, statement, kind as :class:`CheckKind`,
    code, tags as a tuple).  Refuses an unknown seed, an id not starting with its seed, a missing
    section / statement / kind, an unknown key and a value of the wrong type."""
    where = source or f"catalogue {seed}"
    if seed not in SEEDS:
        raise ValueError(f"{where}: seed must be one of {sorted(SEEDS)}; got seed={seed!r}")
    out: dict[str, dict[str, Any]] = {}
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # e.g. an id listed twice in one file
        raise ValueError(f"{where}: not valid TOML: {exc}") from None
    for cid, entry in table.items():
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: {cid!r} must be a table [\"{cid}\"]; got {type(entry).__name__}")
        if not cid.startswith(seed + "-"):
            raise ValueError(f"{where}: claim id {cid!r} must start with its seed {seed!r}-")
        unknown = sorted(set(entry) - _CATALOGUE_KEYS)
        missing = sorted({"section", "statement", "kind"} - set(entry))
        if unknown or missing:
            raise ValueError(f"{where}: entry {cid!r} has unknown keys {unknown} / lacks keys {missing}; "
                             f"the keys are {sorted(_CATALOGUE_KEYS)}")
        for key in ("section", "statement", "kind", "code"):
            if not isinstance(entry.get(key, ""), str):
                raise ValueError(f"{where}: entry {cid!r}: {key} must be a string; got {entry[key]!r}")
        tags = entry.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise ValueError(f"{where}: entry {cid!r}: tags must be a list of strings; got {tags!r}")
        out[cid] = {"seed": seed, "section": entry["section"], "statement": entry["statement"],
                    "kind": _kind_of(entry["kind"], f"{where}: entry {cid!r}"),
                    "code": entry.get("code", ""), "tags": tuple(tags)}
    return out


def catalogue() -> Mapping[str, Mapping[str, Any]]:
    """The claim catalogue (read once): claim id -> metadata, from every ``catalogue/<seed>.toml`` and
    ``catalogue/<seed>.<topic>.toml`` shipped with :mod:`verify.claims`; an id listed in two files is
    refused."""
    global _CATALOGUE
    if _CATALOGUE is None:
        entries: dict[str, dict[str, Any]] = {}
        folder = importlib.resources.files("verify.claims").joinpath(CATALOGUE_DIR)
        for f in sorted(folder.iterdir(), key=lambda t: t.name):
            if not f.name.endswith(".toml"):
                continue
            where = f"verify/claims/{CATALOGUE_DIR}/{f.name}"
            part = parse_catalogue(f.name.split(".", 1)[0], f.read_text(encoding="utf-8"), where)
            twice = sorted(set(part) & set(entries))
            if twice:
                raise ValueError(f"{where}: claim ids listed in another catalogue file too: {twice}")
            entries.update(part)
        _CATALOGUE = entries
    return _CATALOGUE


def claim(
    id: str,
    *,
    seed: str | None = None,
    section: str | None = None,
    statement: str | None = None,
    kind: CheckKind | None = None,
    code: str = "",
    tags: tuple[str, ...] = (),
    registry: Registry | None = None,
    obligations: tuple[str, ...] = (),
) -> Callable[[Callable[[CheckContext], ClaimResult]], Callable[[CheckContext], ClaimResult]]:
    """Decorator: register the decorated check function as the claim ``id``.

    Two forms.  ``@claim("003-Thm-V.4")``: a claim of the four papers, whose seed, section, statement,
    kind, code and tags are its entry in the catalogue (:func:`catalogue`); an id without an entry is
    refused.  ``@claim("id", seed=..., section=..., statement=..., kind=..., code=..., tags=...)``: a
    claim stated in code (a user's claim file, an installed package, generated claims); seed, section,
    statement and kind are then required, and an id that the catalogue lists is refused (one id, one
    statement).  ``obligations`` (either form): what a proof must cover for the claim to be "proven", e.g.
    ``("rate", "bstar")``; a proof covering some of them makes it "partly proven" (:func:`with_proof`)."""
    stated = {"seed": seed, "section": section, "statement": statement, "kind": kind}
    if all(v is None for v in stated.values()) and not code and not tags:
        entry = catalogue().get(id)
        if entry is None:
            raise ValueError(f"claim {id!r} has no entry in verify/claims/{CATALOGUE_DIR}/ and no seed=, section=, "
                             "statement=, kind= keywords")
        meta = dict(entry)
    else:
        lacking = sorted(k for k, v in stated.items() if v is None)
        if lacking:
            raise TypeError(f"claim {id!r} stated in code needs the keywords {lacking} (or none at all: "
                            f"then its entry in verify/claims/{CATALOGUE_DIR}/)")
        if id in catalogue():
            raise ValueError(f"claim {id!r} is listed in verify/claims/{CATALOGUE_DIR}/ and also stated in code; "
                             "keep one: drop the keywords or the catalogue entry")
        meta = {**stated, "code": code, "tags": tags}

    def deco(fn: Callable[[CheckContext], ClaimResult]) -> Callable[[CheckContext], ClaimResult]:
        reg = registry if registry is not None else REGISTRY  # an empty Registry is falsy (len 0)
        reg.add(Claim(id=id, check=fn, obligations=tuple(obligations), **meta))
        if reg is REGISTRY and id in catalogue():
            _FROM_CATALOGUE.add(id)
        return fn

    return deco


def unchecked_catalogue_entries() -> list[str]:
    """Catalogue ids that no loaded module registered a check for (empty once :func:`load_registry` passed)."""
    return sorted(set(catalogue()) - _FROM_CATALOGUE)


#: Proofs attached to claims (:func:`proof_for`): claim id -> proof function (ctx, tested result) -> result
PROOFS: dict[str, Callable[[CheckContext, ClaimResult], ClaimResult]] = {}


def proof_for(
    claim_id: str,
) -> Callable[[Callable[[CheckContext, ClaimResult], ClaimResult]], Callable[[CheckContext, ClaimResult], ClaimResult]]:
    """Decorator: attach a *proof* to the claim ``claim_id``.

    The claim's own check runs first.  If it returns VERIFIED (tested), the proof function is called
    with the context and that tested result and returns the claim's final result: VERIFIED with
    ``strength="proven"`` (build it with :func:`with_proof`, which keeps the tested evidence), the
    tested result unchanged (the proof did not close; say why in its evidence), or a REFUTED /
    INCONCLUSIVE result when the proof attempt found a certified counterexample or a disagreement the
    test missed.  A proof never runs on a claim that is not VERIFIED by its test.  One proof per
    claim; :func:`load_registry` refuses a proof attached to an unknown claim id.
    """

    def deco(fn: Callable[[CheckContext, ClaimResult], ClaimResult]) -> Callable[[CheckContext, ClaimResult], ClaimResult]:
        if claim_id in PROOFS:
            raise ValueError(f"a proof is already attached to claim {claim_id!r}")
        PROOFS[claim_id] = fn
        return fn

    return deco


#: The value a field of :attr:`ExpectedObligation.fields` takes when the record must not have it.
ABSENT = "<absent>"


def proof_method(proof: Mapping[str, Any]) -> str:
    """The method of a proof record: its ``method`` ("symbolic", "ramp-def8", ...), "convex-switching"
    for a tangency proof (``combine``), else "interval" (a box list of branch and bound)."""
    if proof.get("method"):
        return str(proof["method"])
    return "convex-switching" if proof.get("combine") == "convex-switching" else "interval"


def _at(evidence: Mapping[str, Any], path: str) -> Any:
    cur: Any = evidence
    for key in path.split("."):
        if not isinstance(cur, Mapping) or key not in cur:
            return ABSENT
        cur = cur[key]
    return cur


@dataclass(frozen=True)
class ExpectedObligation:
    """What a proof of the claim ``claim_id`` must prove, built by the code next to its prover (never
    read from a proof record): the base of the re-check of ``smoothsens audit --recheck-proof``.

    ``method``   the proof method the claim's prover uses (:func:`proof_method` of ``evidence["proof"]``);
    ``fields``   the displayed fields of the evidence by dotted path ("domain", "statement", "rebuild",
                 "proof.threshold", "proof.domain" (the variable box), "objective", "proof.relies_on", ...)
                 with the values the code derives; :data:`ABSENT` where the record must not have one;
    ``recheck``  ``evidence -> RecheckResult``: the record's certificate (boxes, steps, witnesses) re-checked
                 against the obligation rebuilt here (objective, threshold, parts, spec): never against
                 what the record says it proves;
    ``covers``   what of the claim's statement the proof establishes (shown by the re-check);
    ``proves``   the claim's obligations the proof covers (names, e.g. ("rate",)); empty: all of them;
    ``obligations`` the claim's obligations, when the code states them here rather than on the claim;
    ``domain``   the proven domain as data (a :class:`verify.proof.Domain`), which a record written as a
                 :class:`verify.proof.ProofRecord` displays under ``proven_domain`` and must equal.

    A record is accepted only if its method is ``method`` (a method with a registered re-checker,
    :func:`verify.proof.record.register_method`), every field equals the derived one, and ``recheck``
    accepts a non-empty certificate (:meth:`problems`)."""

    claim_id: str
    method: str
    fields: Mapping[str, Any]
    recheck: Callable[[Mapping[str, Any]], Any]
    covers: str = ""
    proves: tuple[str, ...] = ()
    obligations: tuple[str, ...] = ()
    domain: Any = None

    def __post_init__(self) -> None:
        for name in ("proves", "obligations"):
            val = tuple(getattr(self, name))
            if not all(isinstance(o, str) and o for o in val) or len(set(val)) != len(val):
                raise ValueError(f"obligation of claim {self.claim_id!r}: {name} must be distinct non-empty names; "
                                 f"got {val!r}")
            object.__setattr__(self, name, val)

    def header_problems(self, evidence: Mapping[str, Any]) -> list[str]:
        """The displayed fields of ``evidence`` that differ from the derived ones, each naming its field."""
        proof = evidence.get("proof")
        if not isinstance(proof, Mapping):
            return ["the evidence carries no proof record"]
        out = []
        if not is_registered(proof_method(proof)):
            out.append(f"field 'method': no re-checker is registered for the proof method {proof_method(proof)!r} "
                       f"(verify.proof.register_method): a record of it proves nothing")
        if proof_method(proof) != self.method:
            out.append(f"field 'method': the record's proof method {proof_method(proof)!r} is not the one the code of "
                       f"claim {self.claim_id} uses ({self.method!r})")
        out += self._record_problems(proof)
        for path, want in self.fields.items():
            got = _at(evidence, path)
            if jsonable(got) != jsonable(want):
                shown = "absent" if got is ABSENT else repr(got)[:120]
                out.append(f"field {path!r}: the record shows {shown}, the code of claim {self.claim_id} derives "
                           f"{'none' if want is ABSENT else repr(want)[:120]}")
        return out

    def _record_problems(self, proof: Mapping[str, Any]) -> list[str]:
        """What a record written as a :class:`verify.proof.ProofRecord` displays of what it proves -- the
        obligations it covers (``proves``), its domain (``proven_domain``), its statement -- against the code."""
        out = []
        if "proves" in proof and list(proof.get("proves") or ()) != list(self.proves):
            out.append(f"field 'proof.proves': the record says it covers {proof.get('proves')!r}, the code of claim "
                       f"{self.claim_id} derives {list(self.proves)!r}")
        if "proven_domain" in proof:
            want = None if self.domain is None else self.domain.to_json()
            if want is None or jsonable(proof.get("proven_domain")) != jsonable(want):
                out.append(f"field 'proof.proven_domain': the record shows {str(proof.get('proven_domain'))[:120]}, "
                           f"the code of claim {self.claim_id} derives {'none' if want is None else str(want)[:120]}")
            if "statement" in proof and proof.get("statement") != self.fields.get("statement", ABSENT):
                out.append(f"field 'proof.statement': the record's statement is not the one the code of claim "
                           f"{self.claim_id} derives")
        return out

    def problems(self, evidence: Mapping[str, Any]) -> tuple[list[str], Any]:
        """(every problem of ``evidence`` against this obligation, the certificate's re-check or None):
        the header (:meth:`header_problems`), then the certificate re-checked against the rebuilt
        obligation; a certificate of zero parts/steps/boxes is a problem, never "re-checked"."""
        out = self.header_problems(evidence)
        if out:
            return out, None
        rc = self.recheck(evidence)
        out = list(rc.problems) if not rc.ok else []
        if not rc.ok and not out:
            out = ["the re-checker rejects the proof"]
        if rc.ok and int(getattr(rc, "n_boxes", 0) or 0) <= 0:
            out.append("the certificate is empty (0 steps/boxes): nothing is re-checked")
        return out, rc


#: claim id -> factory of its :class:`ExpectedObligation` (``scale``: "test" or "full", the parameter
#: boxes of the interval proofs; other claims ignore it).  Filled by :func:`obligation_for`.
OBLIGATIONS: dict[str, Callable[[str], ExpectedObligation]] = {}


def obligation_for(claim_id: str) -> Callable[[Callable[[str], ExpectedObligation]], Callable[[str], ExpectedObligation]]:
    """Decorator: register the factory ``scale -> ExpectedObligation`` of what a proof of ``claim_id``
    must prove (next to the prover that writes the proof; a user's claim file declares its own, so
    ``smoothsens audit --claims FILE --recheck-proof`` rebuilds the obligation from the user's code).
    A claim stated "proven" without one is INCONCLUSIVE (:meth:`Claim.run`)."""

    def deco(fn: Callable[[str], ExpectedObligation]) -> Callable[[str], ExpectedObligation]:
        if claim_id in OBLIGATIONS:
            raise ValueError(f"a proof obligation is already declared for claim {claim_id!r}")
        OBLIGATIONS[claim_id] = fn
        return fn

    return deco


def expected_obligation(claim_id: str, scale: str = "test") -> ExpectedObligation | None:
    """The :class:`ExpectedObligation` of ``claim_id`` at ``scale`` ("test" or "full"), from the code that
    declared it (:func:`obligation_for`), or None when no code declares one."""
    if scale not in ("test", "full"):
        raise ValueError(f"scale must be 'test' or 'full'; got {scale!r}")
    fn = OBLIGATIONS.get(claim_id)
    if fn is None:
        return None
    key = (claim_id, scale, fn)
    if key not in _EXPECTED:  # built once per process: the factories are code, deterministic
        ob = fn(scale)
        if ob.claim_id != claim_id:
            raise ValueError(f"the obligation declared for claim {claim_id!r} is of claim {ob.claim_id!r}")
        _EXPECTED[key] = ob
    return _EXPECTED[key]


_EXPECTED: dict[tuple[str, str, Callable[[str], ExpectedObligation]], ExpectedObligation] = {}


def record_scale(evidence: Mapping[str, Any]) -> str:
    """The parameter scale a record declares ("test" unless its rebuild says "full"): it only chooses between
    the two boxes the code states for the claim (:func:`expected_obligation` rejects anything else)."""
    rb = evidence.get("rebuild")
    parts = rb.get("parts") if isinstance(rb, Mapping) else None
    scales = {p.get("scale") for p in parts if isinstance(p, Mapping)} if isinstance(parts, list) else set()
    if isinstance(rb, Mapping) and rb.get("scale"):
        scales.add(rb.get("scale"))
    scales.discard(None)
    return "full" if scales == {"full"} else "test"


def obligation_coverage(claim_obligations: tuple[str, ...], ob: ExpectedObligation) -> tuple[list[str], list[str],
                                                                                               list[str]]:
    """(proven, tested, problems) of a claim whose proof carries the obligation ``ob``: the claim's obligations
    are ``claim_obligations`` (the claim's own), else ``ob.obligations``, else its whole statement
    (:data:`WHOLE_STATEMENT`); the proof covers ``ob.proves`` (empty: every one).  ``problems``: the claim and
    its proof obligation state different obligations, or the proof states it covers one the claim does not
    have (a proof of something else is not a proof of part of the claim)."""
    problems = []
    if claim_obligations and ob.obligations and tuple(claim_obligations) != ob.obligations:
        problems.append(f"the claim states the obligations {list(claim_obligations)}, its proof obligation "
                        f"{list(ob.obligations)}")
    needed = tuple(claim_obligations) or ob.obligations or (WHOLE_STATEMENT,)
    proves = ob.proves or needed
    unknown = [p for p in proves if p not in needed]
    if unknown:
        problems.append(f"the proof states it covers {unknown}, which are not obligations of claim {ob.claim_id} "
                        f"({list(needed)})")
    proven = [n for n in needed if n in proves]
    return proven, [n for n in needed if n not in proves], problems


def _recheck_rejected(problems: list[str], prec: int) -> RecheckResult:
    """A re-check that rejects the record, for ``problems`` (the first 20 kept)."""
    return RecheckResult(False, problems[:20], 0, prec, 0.0)


def recheck_claim(claim_id: str, record: Mapping[str, Any], *, prec: int = 128) -> Any:
    """Re-check the proof carried by ``record`` (the claim's JSON: verdict, strength, evidence, and the
    statement when the report has it) as a proof of the claim ``claim_id``.

    What must be proven is rebuilt from the claim id (:func:`verify.claims.registry.expected_obligation`:
    the registry and the code next to the prover), never from the record; the record only supplies the
    certificate (boxes, steps, witnesses).  Rejected, with a reason naming the field: no obligation in
    code for the claim; a statement other than the registry's; a verdict/strength other than VERIFIED
    (proven); another proof method; a displayed field (domain, statement, objective, relies_on, variable
    box, rebuild, threshold, enclosure ends) other than the derived one; a certificate the re-checker
    rejects or one with zero parts/steps/boxes.  Returns a :class:`verify.proof.RecheckResult`."""
    t0 = time.perf_counter()
    ev = record.get("evidence")
    if not isinstance(ev, Mapping) or not isinstance(ev.get("proof"), Mapping):
        return _recheck_rejected([f"claim {claim_id}: the record carries no proof"], prec)
    try:
        ob = expected_obligation(claim_id, record_scale(ev))
    except ValueError as exc:
        return _recheck_rejected([f"claim {claim_id}: {exc}"], prec)
    if ob is None:
        return _recheck_rejected([f"claim {claim_id}: no proof obligation is declared in code for this claim (a user claim "
                        f"declares it with verify.claims.obligation_for in its claim file); a record alone proves "
                        f"nothing"], prec)
    problems: list[str] = []
    if "statement" in record and claim_id in REGISTRY and record.get("statement") != REGISTRY.get(claim_id).statement:
        problems.append(f"field 'statement': the record's statement is not the registry's for claim {claim_id}")
    proven, tested, cover_problems = obligation_coverage(
        REGISTRY.get(claim_id).obligations if claim_id in REGISTRY else (), ob)
    problems += cover_problems
    strength = "proven" if not tested else "partly proven"
    if record.get("verdict") != "VERIFIED" or record.get("strength") != strength:
        problems.append(f"field 'verdict': the record says {record.get('verdict')} ({record.get('strength')}); the "
                        f"proof of claim {claim_id} covers {proven} of its obligations {proven + tested}, so it "
                        f"supports VERIFIED ({strength}) only")
    shown = ev.get("coverage")
    if shown is not None and jsonable(shown) != {"proven": proven, "tested": tested}:
        problems.append(f"field 'coverage': the record shows {shown!r}, the code of claim {claim_id} derives "
                        f"proven {proven}, tested {tested}")
    try:  # a record already rejected by its header is not re-checked further (nothing it holds could pass)
        more, rc = (ob.header_problems(ev), None) if problems else ob.problems(ev)
    except (KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as exc:
        more, rc = [f"malformed proof record ({type(exc).__name__}: {exc})"], None
    problems += more
    n = int(getattr(rc, "n_boxes", 0) or 0) if rc is not None else 0
    rprec = int(getattr(rc, "prec", prec) or prec) if rc is not None else prec
    return RecheckResult(not problems, problems[:20], n, rprec, time.perf_counter() - t0)


def method_expectation(claim_id: str, method: str, fields: Mapping[str, Any], covers: str, *,
                       proves: tuple[str, ...] = (), obligations: tuple[str, ...] = ()) -> ExpectedObligation:
    """The :class:`ExpectedObligation` of a claim proven by the registered proof method ``method``
    (:func:`verify.proof.record.method_named`): the record's proof is re-checked by that method's
    re-checker, told ``claim_id``; ``fields`` are the displayed fields the claim's prover writes (derived
    by its code); ``proves`` the claim's obligations the proof covers (empty: all of them); ``obligations``
    the claim's obligations, when its code states them here (a catalogue claim)."""
    pm = method_named(method)  # ValueError naming the registered methods

    def rc(evidence: Mapping[str, Any]) -> Any:
        return pm.recheck(evidence["proof"], claim_id)

    return ExpectedObligation(claim_id, method, dict(fields), rc, covers, proves=tuple(proves),
                              obligations=tuple(obligations))


def _with_coverage(c: Claim, res: ClaimResult, ob: ExpectedObligation) -> tuple[ClaimResult, list[str]]:
    """``res`` with the strength and ``evidence["coverage"]`` the coverage of claim ``c`` by ``ob`` gives
    ("proven" when every obligation is covered, "partly proven" otherwise), or the problems that keep it
    from being proven at all."""
    proven, tested, problems = obligation_coverage(c.obligations, ob)
    if problems:
        return res, problems
    if not proven:
        return res, [f"the proof covers none of the obligations of claim {c.id}"]
    strength = "proven" if not tested else "partly proven"
    ev = {**dict(res.evidence), "coverage": {"proven": proven, "tested": tested}}
    return ClaimResult(res.verdict, res.summary, ev, res.precision, res.seconds, res.rule, strength), []


def _proven_or_inconclusive(c: Claim, res: ClaimResult) -> ClaimResult:
    """``res`` (VERIFIED, proven) if its proof record carries the obligation the code of claim ``c`` declares
    (method and displayed fields) -- and, for a user claim, if the independent re-checker accepts it (the
    re-check of ``smoothsens audit --recheck-proof``, so the report and the re-check agree); else
    INCONCLUSIVE saying why: "proven" is never taken on a record's word."""
    try:
        ob = expected_obligation(c.id, record_scale(res.evidence))
        why = (["no proof obligation is declared in code for this claim (verify.claims.obligation_for)"]
               if ob is None else ob.header_problems(res.evidence))
        if not why and ob is not None:
            res, why = _with_coverage(c, res, ob)
        if not why and c.seed == USER_SEED:
            rc = recheck_claim(c.id, {**res.to_json(), "statement": c.statement})
            why = [] if rc.ok else ["the independent re-check rejects the proof: " + "; ".join(rc.problems[:3])]
    except Exception as exc:  # noqa: BLE001 - a failing obligation is a reason, not a pass
        why = [f"the claim's obligation cannot be built: {type(exc).__name__}: {exc}"]
    if not why:
        return res
    return ClaimResult(Verdict.INCONCLUSIVE, f"stated proven, but {'; '.join(why[:3])}",
                       {**dict(res.evidence), "proof_rejected": why}, res.precision, res.seconds,
                       rule="R-UNDEC: a proof whose record does not carry the claim's obligation")


def with_proof(tested: ClaimResult, *, claim_obligation: ExpectedObligation, summary: str, proof: Mapping[str, Any],
               domain: str, precision: str, **evidence: Any) -> ClaimResult:
    """The VERIFIED (proven) result of a claim whose test gave ``tested``: ``proof`` (re-checkable,
    with its ``method``) and ``domain`` (where it is proven) go to the evidence beside the tested
    evidence (kept under ``"tested"``) and any ``evidence`` keywords.

    Rule: a proof makes the claim "proven" only if it carries the claim's whole obligation:
    ``claim_obligation`` (the claim's :class:`ExpectedObligation`, derived by code) must agree with the record
    on the method and on every displayed field (domain, statement, parts, threshold, ...).  A record
    that covers another claim, or a statement other than the one the claim's obligation derives, is
    refused: the tested result is returned with the reason under ``"proof_not_attached"`` (never "proven").
    A proof whose obligation covers only some of the claim's obligations (``claim_obligation.proves``)
    gives "partly proven": ``evidence["coverage"]`` lists those proven and those resting on ``tested``
    (:meth:`Claim.run` settles the strength against the claim's own ``obligations``)."""
    if tested.verdict is not Verdict.VERIFIED:
        raise ValueError(f"with_proof needs a VERIFIED tested result; got verdict={tested.verdict.value}")
    if not isinstance(claim_obligation, ExpectedObligation):
        raise TypeError(f"with_proof needs the claim's ExpectedObligation; got {type(claim_obligation).__name__}")
    ev = {**evidence, "proof": dict(proof), "domain": domain,
          "tested": {"summary": tested.summary, "precision": tested.precision, "evidence": dict(tested.evidence)}}
    why = claim_obligation.header_problems(ev)
    cid = claim_obligation.claim_id
    # the claim's own obligations when it is registered; else those the proof obligation states (Claim.run
    # settles the strength against the claim it runs)
    stated = (REGISTRY.get(cid).obligations if cid in REGISTRY else ()) or claim_obligation.obligations \
        or claim_obligation.proves
    proven, rest, more = obligation_coverage(stated, claim_obligation)
    why += more or ([] if proven else ["the proof covers none of the claim's obligations"])
    if why:
        return with_evidence(tested, {"proof_not_attached": (
            f"the proof does not carry the obligation of claim {claim_obligation.claim_id}: {'; '.join(why[:3])}")})
    ev["coverage"] = {"proven": proven, "tested": rest}
    return ClaimResult(Verdict.VERIFIED, summary, ev, precision, tested.seconds,
                       strength="proven" if not rest else "partly proven")


def with_evidence(tested: ClaimResult, extra: Mapping[str, Any]) -> ClaimResult:
    """``tested`` unchanged (verdict, summary, precision, time, rule, strength) but for the evidence keys
    ``extra`` added: what a proof function returns when its proof is left out or does not close (e.g.
    ``{"proof_left_out": why}`` or ``{"proof_attempt": what failed}``), so the tested result stands."""
    return ClaimResult(tested.verdict, tested.summary, {**dict(tested.evidence), **extra}, tested.precision,
                       tested.seconds, tested.rule, tested.strength)


def _attempt_proof(cid: str, ctx: CheckContext, tested: ClaimResult) -> ClaimResult:
    """Run the proof attached to ``cid`` on the tested result; an exception in the proof is an
    internal error (INCONCLUSIVE with the traceback), never a silent fall-back to "tested"."""
    try:
        res = PROOFS[cid](ctx, tested)
        if not isinstance(res, ClaimResult):
            raise TypeError(f"proof of {cid} returned {type(res).__name__}, not ClaimResult")
        return res
    except Exception as exc:  # noqa: BLE001 - an internal error is reported, not hidden
        return ClaimResult(
            Verdict.INCONCLUSIVE,
            f"internal error in the proof: {type(exc).__name__}: {exc}",
            {"traceback": traceback.format_exc(), "internal_error": True, "tested": tested.summary},
        )


@dataclass(frozen=True)
class Omission:
    """A statement of a paper the registry deliberately does not check, and why."""

    seed: str
    where: str
    reason: str


OMISSIONS: list[Omission] = []


def omitted(seed: str, where: str, reason: str) -> None:
    """Record a statement left out of the registry, with the reason (listed by the audit report)."""
    OMISSIONS.append(Omission(seed, where, reason))


_LOADED = False


def load_registry() -> Registry:
    """Import every module of :mod:`verify.claims.sets` (each registers its claims) and return REGISTRY."""
    global _LOADED
    if not _LOADED:
        for info in sorted(pkgutil.iter_modules(verify.claims.sets.__path__), key=lambda m: m.name):
            if not info.name.startswith("_"):
                importlib.import_module(f"verify.claims.sets.{info.name}")
        _LOADED = True
        orphans = sorted(set(PROOFS) - {c.id for c in REGISTRY})
        if orphans:
            raise ValueError(f"proofs attached to unknown claim ids: {orphans}")
        from verify.proof import symbolic  # noqa: PLC0415 - SymPy, loaded with the claim sets

        bare = symbolic.specs_without_witnesses()
        if bare:
            raise ValueError(f"symbolic specs without a witness function (verify.proof.symbolic.witnesses_for): {bare}")
        unchecked = unchecked_catalogue_entries()
        if unchecked:
            raise ValueError(f"catalogue entries without a check (no @claim(id) in verify.claims.sets): {unchecked}")
    return REGISTRY
