"""``smoothsens audit``: check every claim of the papers and every mechanism of the core."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

from verify.claims.runner import (
    EXIT_INTERNAL_ERROR,
    EXIT_OK,
    EXIT_STRICT_FINDINGS,
    EXIT_USAGE,
    is_planted,
    previous_timings,
    run_audit,
    select_claims,
)
from verify.claims import CheckContext, CheckKind, Registry
from verify.claims.user import load_claim_file, load_entry_point_claims

from ..argtypes import int_at_least

QUICK_BUDGET = 0.1

EPILOG = textwrap.dedent(
    f"""\
    Verdicts: VERIFIED, ERRATUM (printed form wrong, corrected form holds; both shown),
    REFUTED (certified counterexample), INCONCLUSIVE (reason shown).  Claims whose id contains
    "-planted-" are deliberately wrong mechanisms (controls of the auditor): they must be REFUTED.

    Exit status:
      {EXIT_OK}  the audit ran (errata and refuted paper claims are findings, not failures)
      {EXIT_INTERNAL_ERROR}  internal error: at least one check raised (see its evidence)
      {EXIT_USAGE}  bad input: unknown claim id / paper / kind, or an invalid option value
      {EXIT_STRICT_FINDINGS}  with --strict only: a paper claim is REFUTED or INCONCLUSIVE, or a planted
         control was not refuted
      with --recheck-proof: {EXIT_OK} every proof of the selected claims is accepted by the re-checker,
         {EXIT_INTERNAL_ERROR} a proof is rejected (the problems are printed) or no selected claim carries one

    Examples:
      smoothsens audit                         # everything, reports in audit-report/
      smoothsens audit --quick                 # < 1 minute
      smoothsens audit --paper 004 --kind adversarial --workers 2
      smoothsens audit --claim 004-Lemma-3 --strict
      smoothsens audit --list
      smoothsens audit --claims my_claims.py   # a user's own @claim functions (seed "user")
      smoothsens audit --claims examples/my_proofs.py --recheck-proof  # a user's own proofs, re-checked
      smoothsens audit --claim 004-Lemma-3.5-rate-proof --recheck-proof          # run, then re-check the proof
      smoothsens audit --claim 004-Lemma-3.5-rate-proof --recheck-proof out.json # re-check an earlier run's proof
      smoothsens audit --paper 004 --prove-all  # proofs on the full parameter boxes (minutes to hours)

    VERIFIED is "proven" (rigorous proofs on a stated domain cover every obligation of the claim,
    re-checkable with --recheck-proof), "partly proven" (proofs cover some obligations, the others rest
    on the test; listed per claim) or "tested" (no violation found at the stated budget); the totals
    count each.
    """
)


def _positive_float(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number > 0; got {s!r}") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0; got {s!r}")
    return v


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "audit",
        help="check every claim of the papers and every mechanism of the core",
        description=(
            "Run the claim registry (symbolic, high-precision numeric, property-based and adversarial "
            "checks) and the privacy-loss auditor over every calibrated mechanism; print a summary "
            "table, totals, errata with corrected forms and omissions; write a Markdown report and a "
            "JSON file of all verdicts and evidence."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--paper", action="append", metavar="SEED",
                   help="only claims of this paper (000, 002, 003, 004); repeatable")
    p.add_argument("--claim", action="append", metavar="ID",
                   help="only these claim ids or id prefixes (e.g. 004-Lemma-3); repeatable or comma-separated")
    p.add_argument("--kind", action="append", metavar="KIND",
                   help="only this kind of check: " + ", ".join(k.name.lower() for k in CheckKind))
    p.add_argument("--no-planted", action="store_true", help="leave out the planted controls")
    p.add_argument("--claims", action="append", type=Path, metavar="PATH",
                   help="a user's .py file of @verify.claims.claim functions (seed 'user'); repeatable. Only "
                        "these claims run (filtered by --claim/--kind), plus the papers' claims of any --paper "
                        "given. Installed packages add claims through the entry-point group smoothsens.claims")
    p.add_argument("--seed", type=int_at_least(0), default=CheckContext.seed,
                   help="random seed of the searches (default %(default)s)")
    p.add_argument("--budget", type=_positive_float, default=None,
                   help="search effort multiplier (default 1.0; --quick: 0.1)")
    p.add_argument("--precision", type=int_at_least(20), default=CheckContext.dps, metavar="DIGITS",
                   help="mpmath digits for references and certification (default %(default)s)")
    p.add_argument("--quick", action="store_true",
                   help=f"quick profile: budget {QUICK_BUDGET} and, unless --workers is given, one process per core "
                        "(at most 2): under a minute")
    p.add_argument("--workers", type=int_at_least(1), default=None, metavar="N",
                   help="run claims on N local worker processes, forked from this one (default 1 = serial; "
                        "with --quick: min(2, cores)); longest claims first, by the timings of the previous "
                        "report at --json when it ran with the same budget")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run claims on an existing Dask cluster, e.g. tcp://host:8786 (the workers need "
                        "smoothsens installed); the report is the same as a serial run with the same seed")
    p.add_argument("--out", type=Path, default=Path("audit-report"), metavar="DIR",
                   help="folder of the reports (default audit-report/)")
    p.add_argument("--json", type=Path, default=None, metavar="PATH", help="JSON report path (default DIR/verdicts.json)")
    p.add_argument("--markdown", type=Path, default=None, metavar="PATH", help="Markdown report path (default DIR/report.md)")
    p.add_argument("--list", action="store_true", help="list the selected claims without running them")
    p.add_argument("--strict", action="store_true",
                   help=f"exit {EXIT_STRICT_FINDINGS} if a paper claim is REFUTED or INCONCLUSIVE or a planted control is missed")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--prove-all", action="store_true",
                   help="run the rigorous proofs (claims *-proof) on the full parameter boxes instead of the small "
                        "test boxes (minutes to hours)")
    p.add_argument("--recheck-proof", nargs="?", const="", default=None, type=str, metavar="PATH",
                   help="re-check the serialised proofs of the selected claims with the independent re-checker "
                        "(verify.proof.recheck): of this run, or, given PATH, of the JSON report of an earlier "
                        "run (then nothing is re-run); exit 0 if every proof is accepted, else 1")
    p.set_defaults(handler=run)


def _split(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    out = [v.strip() for item in values for v in item.split(",") if v.strip()]
    return out or None


def run(args: argparse.Namespace) -> int:
    """Handler of ``smoothsens audit``; returns the exit status (see the epilog)."""
    try:
        user = load_entry_point_claims()
        files = [c for path in (args.claims or []) for c in load_claim_file(path)]
    except ValueError as exc:
        print(f"smoothsens audit: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if files:
            chosen = Registry()
            for c in files:
                chosen.add(c)
            claims = chosen.select(_split(args.claim), None, _split(args.kind))
            if args.paper:
                claims = select_claims(None, _split(args.paper), _split(args.kind),
                                       include_planted=not args.no_planted) + claims
        else:
            claims = select_claims(_split(args.claim), _split(args.paper), _split(args.kind),
                                   include_planted=not args.no_planted)
    except KeyError as exc:
        print(f"smoothsens audit: error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return EXIT_USAGE
    if not claims:
        print("smoothsens audit: error: no claim matches the selection", file=sys.stderr)
        return EXIT_USAGE
    if args.list:
        w = max(len(c.id) for c in claims)
        for c in claims:
            tag = " [planted control]" if is_planted(c) else ""
            print(f"{c.id:<{w}}  {c.kind.name.lower():<11}  {c.section}{tag}")
        print(f"{len(claims)} claims")
        return EXIT_OK
    if args.recheck_proof:  # PATH given: re-check the proofs of an earlier run's JSON report
        return _recheck_from_file(Path(args.recheck_proof), [c.id for c in claims])
    skipped: list[str] = []
    if args.quick and not args.claim:
        # --quick is the one-minute profile: the interval proofs that take over 10 s (tag "heavy") run in
        # the default audit and with --claim, and the report names them as left out.
        skipped = [c.id for c in claims if "heavy" in c.tags]
        claims = [c for c in claims if "heavy" not in c.tags]
    budget = args.budget if args.budget is not None else (QUICK_BUDGET if args.quick else 1.0)
    ctx = CheckContext(seed=args.seed, budget=budget, dps=args.precision, prove_all=args.prove_all)
    workers = args.workers if args.workers is not None else (min(2, os.cpu_count() or 1) if args.quick else 1)
    md = args.markdown if args.markdown is not None else args.out / "report.md"
    js = args.json if args.json is not None else args.out / "verdicts.json"
    hint = previous_timings(js, ctx)  # the previous report's seconds per claim: longest claims start first
    # User claims exist only in this process (their files are not importable on Dask workers): they
    # run serially here, the papers' claims on the chosen backend; one report.
    local_ids = {c.id for c in files} | {c.id for c in user}
    local = [c for c in claims if c.id in local_ids]
    remote = [c for c in claims if c.id not in local_ids]
    if local and (remote and (workers > 1 or args.scheduler)):
        report = run_audit(remote, ctx, workers=workers, scheduler=args.scheduler, progress=not args.no_progress,
                           cost_hint=hint)
        extra = run_audit(local, ctx, workers=1, progress=not args.no_progress)
        report.entries = [*report.entries, *extra.entries]
        report.seconds += extra.seconds
    elif local:
        report = run_audit(claims, ctx, workers=1, progress=not args.no_progress)
    else:
        report = run_audit(claims, ctx, workers=workers, scheduler=args.scheduler, progress=not args.no_progress,
                           cost_hint=hint)
    print(report.table())
    report.skipped = skipped
    for ev in report.events:
        print(f"cluster: {ev}", file=sys.stderr)
    print()
    print(report.totals_line())
    if skipped:
        print(f"--quick left out {len(skipped)} interval proof(s) that take over 10 s: {', '.join(skipped)} "
              "(they run in the default audit, or with --claim ID)")
    errata = report.errata_text()
    if errata:
        print("\nErrata (printed form -> corrected form):")
        print(errata)
    if report.omissions:
        print(f"\nStatements left out ({len(report.omissions)}):")
        for o in report.omissions:
            print(f"* {o.seed} {o.where}: {o.reason}")
    for path in report.write(md, js):
        print(f"wrote {path}")
    status = report.exit_status(strict=args.strict)
    if args.recheck_proof is not None:  # re-check the proofs this run produced, from their JSON
        from verify.serialise import jsonable  # noqa: PLC0415

        rc_status = _recheck_entries([(e.claim.id, jsonable(e.to_json())) for e in report.ordered()])
        return status if status != EXIT_OK else rc_status
    if status == EXIT_INTERNAL_ERROR:
        bad = [e.claim.id for e in report.entries if e.internal_error]
        print(f"smoothsens audit: internal error in {len(bad)} check(s): {', '.join(bad)}", file=sys.stderr)
    elif status == EXIT_STRICT_FINDINGS:
        print("smoothsens audit: --strict: REFUTED/INCONCLUSIVE findings or missed planted controls", file=sys.stderr)
    return status


def _recheck_entries(entries: list[tuple[str, dict[str, Any]]]) -> int:
    """Re-check every proof among ``entries`` (claim id, claim JSON) as a proof of that claim id
    (:func:`verify.claims.sets.proofs.recheck_claim`: what must be proven is rebuilt from the id and the
    code, the record supplies only the certificate); print one line per claim.  0 if at least one proof
    was re-checked and every proof (and every claim stated proven) is accepted."""
    from verify.claims.sets.proofs import describe_recheck, recheck_claim  # noqa: PLC0415

    checked, failed = 0, 0
    for cid, js in entries:
        raw = js.get("evidence")
        ev: dict[str, Any] = raw if isinstance(raw, dict) else {}
        if "proof" not in ev:
            if js.get("strength") in ("proven", "partly proven"):
                print(f"{cid}: stated proven but carries no proof")
                failed += 1
            else:
                print(f"{cid}: no proof to re-check ({js.get('verdict')}"
                      f"{', ' + str(js.get('strength')) if js.get('strength') else ''})")
            continue
        try:
            rc = recheck_claim(cid, js)
            line, ok = describe_recheck(cid, rc), rc.ok
        except Exception as exc:  # noqa: BLE001 - a record the re-checker cannot read is a rejected one
            line, ok = f"proof REJECTED: malformed proof record ({type(exc).__name__}: {exc})", False
        print(f"{cid}: {line}")
        checked += 1
        failed += not ok
    if not checked and not failed:
        print("smoothsens audit: --recheck-proof: no selected claim carries a proof", file=sys.stderr)
        return EXIT_INTERNAL_ERROR
    return EXIT_OK if not failed else EXIT_INTERNAL_ERROR


def _recheck_from_file(path: Path, ids: list[str]) -> int:
    """Re-check the proofs of the claims ``ids`` in the JSON report ``path`` of an earlier run (read with
    :func:`verify.bounded_io.read_json_bounded`: at most its byte limit, never a device or a directory)."""
    from verify.bounded_io import read_json_bounded  # noqa: PLC0415

    try:
        data = read_json_bounded(path, what="JSON report")
    except (OSError, ValueError) as exc:
        print(f"smoothsens audit: error: cannot read the JSON report {path}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    claims = data.get("claims") if isinstance(data, dict) else None
    want = set(ids)
    found = [(c["id"], c) for c in (claims if isinstance(claims, list) else [])
             if isinstance(c, dict) and c.get("id") in want]
    if not found:
        print(f"smoothsens audit: error: none of the selected claims is in {path}", file=sys.stderr)
        return EXIT_USAGE
    return _recheck_entries(found)
