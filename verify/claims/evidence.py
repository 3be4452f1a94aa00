"""Shared helpers of the claim modules: relative deviations, reference checks and the two verdict rules.

* :func:`rel_dev` -- |a - b| / |b| (b the reference), guarded against b = 0.
* :func:`reference_check` / :func:`derivation_verdict` -- a SymPy derivation checked two ways:
  printed form vs derived form (:class:`derivations.comparison.Comparison`), and derived form vs the
  definition at independent points.  VERIFIED if both agree, ERRATUM if only the printed form differs
  (both forms in the evidence), INCONCLUSIVE if the derivation disagrees with the definition.
* :func:`agreement_verdict` -- a closed form against brute force of its definition at sample points:
  VERIFIED if every relative deviation is within ``tol``, INCONCLUSIVE otherwise (with the worst row).
* :func:`search_verdict` -- a search for violations of a statement: VERIFIED if it holds at every point
  searched, REFUTED (R-FALSE, the violations in the evidence) otherwise.
* :func:`certified_verdict` -- a check that expects a certified outcome (a counterexample, a slip): the
  verdict its written rule gives when the outcome is certified, INCONCLUSIVE (R-UNDEC) otherwise.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import mpmath
import numpy as np
from scipy.optimize import minimize

from .registry import RULE_VERDICT, ClaimResult, Verdict, rule_id

__all__ = ["rel_dev", "reference_check", "derivation_verdict", "agreement_verdict", "search_verdict", "certified_verdict", "maximise"]


def rel_dev(a: float, b: float) -> float:
    """|a - b| / max(|b|, 1e-300): the relative deviation of ``a`` from the reference ``b``."""
    return abs(a - b) / max(abs(b), 1e-300)


def reference_check(name: str, rows: Sequence[dict[str, Any]], tol: float) -> dict[str, Any]:
    """A reference check: rows of {point..., 'derived': v, 'definition': w}; passes if every relative
    deviation (computed from the mpmath values at 40 digits, before rounding to floats) is <= tol.
    The rows are updated in place with float values and their 'rel_dev'."""
    worst = 0.0
    for r in rows:
        d, w = r["derived"], r["definition"]
        with mpmath.workdps(40):  # deviations from the mpmath values, before rounding to floats
            dev = float(abs(mpmath.mpf(d) - mpmath.mpf(w)) / max(abs(mpmath.mpf(w)), mpmath.mpf(10) ** -300))
        r["derived"], r["definition"] = float(d), float(w)
        r["rel_dev"] = dev
        # a NaN deviation must fail the check (max(0.0, nan) would silently keep 0.0)
        worst = max(worst, dev) if math.isfinite(dev) else math.inf
    return {"name": name, "tol": tol, "max_rel_dev": worst, "ok": worst <= tol, "n": len(rows), "rows": rows}


def derivation_verdict(
    cmps: Sequence[Any],
    refs: Sequence[dict[str, Any]],
    *,
    what: str,
    precision: str,
    extra: dict[str, Any] | None = None,
    slip: str | None = None,
    false_reason: str | None = None,
) -> ClaimResult:
    """Verdict of a derivation: ``cmps`` (printed vs derived, :class:`derivations.comparison.Comparison`)
    and ``refs`` (derived vs definition, :func:`reference_check`); see the module docstring.

    When the printed form differs, the written rules decide (verify.claims.registry.RULES): with
    ``slip`` (why the difference is a typesetting slip, rule R-SLIP) the verdict is ERRATUM;
    otherwise it is REFUTED under R-FALSE (reason ``false_reason``), with the mpmath values of the
    printed and derived forms at the worst point as the certificate."""
    ev: dict[str, Any] = {
        "comparisons_printed_vs_derived": [c.evidence() for c in cmps],
        "checks_derived_vs_definition": refs,
    }
    if extra:
        ev.update(extra)
    bad_refs = [r["name"] for r in refs if not r["ok"]]
    if bad_refs:
        return ClaimResult(Verdict.INCONCLUSIVE, f"{what}: derivation disagrees with the definition in {bad_refs}", ev, precision)
    differing = [c for c in cmps if not c.agree]
    if not differing:
        return ClaimResult(Verdict.VERIFIED, f"{what}: printed = derived ({len(cmps)} comparisons); derived = definition "
                           f"({sum(r['n'] for r in refs)} independent points)", ev, precision)
    ev["printed"] = "; ".join(f"{c.name}: {c.printed}" for c in differing)
    ev["corrected"] = "; ".join(f"{c.name}: {c.derived}" for c in differing)
    ev["erratum_points"] = [{"point": c.worst_point, "max_rel_dev": c.max_deviation,
                             "values_printed_vs_derived": [list(v) for v in c.values[:5]]} for c in differing]
    text = (f"{what}: printed form differs from the derivation in {[c.name for c in differing]}; the derived "
            "form agrees with the definition")
    if slip:
        return ClaimResult(Verdict.ERRATUM, text, ev, precision, rule=f"R-SLIP: {slip}")
    ev["certificate"] = {"kind": "printed vs derived form at the worst point (mpmath)",
                         "points": ev["erratum_points"]}
    return ClaimResult(Verdict.REFUTED, text, ev, precision,
                       rule=f"R-FALSE: {false_reason or 'the printed formula is false at the certified point'}")


def agreement_verdict(rows: list[dict[str, Any]], what: str, *, tol: float, precision: str,
                      extra_ev: dict[str, Any] | None = None) -> ClaimResult:
    """VERIFIED if every row's 'rel_dev' (closed form vs brute force at the row's 'x') is <= tol,
    INCONCLUSIVE otherwise; the evidence holds all rows and the worst."""
    worst = max(rows, key=lambda r: r["rel_dev"])
    ev = {"rows": rows, "worst": worst, **(extra_ev or {})}
    if worst["rel_dev"] <= tol:
        return ClaimResult(Verdict.VERIFIED, f"{what}: closed form = brute force at {len(rows)} points "
                           f"(max rel. dev. {worst['rel_dev']:.1e})", ev, precision)
    return ClaimResult(Verdict.INCONCLUSIVE, f"{what}: max rel. dev. {worst['rel_dev']:.2e} at x={worst['x']}", ev,
                       precision)


def search_verdict(holds: bool, ev: Any, *, verified: str, refuted: str, precision: str = "") -> ClaimResult:
    """The result of a search for violations of a statement: VERIFIED with the summary ``verified`` when
    the statement ``holds`` at every point searched, else REFUTED with the summary ``refuted`` (rule
    R-FALSE with that summary as its reason); ``ev`` holds the points and the violations, ``precision``
    the precision of the search."""
    if holds:
        return ClaimResult(Verdict.VERIFIED, verified, ev, precision)
    return ClaimResult(Verdict.REFUTED, refuted, ev, precision)


def certified_verdict(found: bool, ev: dict[str, Any], summary: str, *, rule: str = "", precision: str, otherwise: str,
                      certificate: Any = None) -> ClaimResult:
    """The result of a check that expects a certified outcome.

    When ``found`` (the outcome is certified): the verdict that the written rule ``rule``
    ("<rule id>: <reason>", verify.claims.registry.RULES) gives -- REFUTED for R-INVALID / R-FALSE,
    ERRATUM for R-SLIP; VERIFIED for ``rule=""`` -- with ``summary`` and ``precision``, and
    ``certificate`` (if given) added to the evidence as ``ev["certificate"]``.  Otherwise INCONCLUSIVE
    (R-UNDEC) with the reason ``otherwise``: an expected certificate that did not come is never a pass."""
    if rule and rule_id(rule) not in RULE_VERDICT:
        raise ValueError(f"rule must start with one of {sorted(RULE_VERDICT)}; got rule={rule!r}")
    if not found:
        return ClaimResult(Verdict.INCONCLUSIVE, otherwise, ev)
    if certificate is not None:
        ev["certificate"] = certificate
    verdict = Verdict(RULE_VERDICT[rule_id(rule)]) if rule else Verdict.VERIFIED
    return ClaimResult(verdict, summary, ev, precision, rule=rule)


_MAX_CACHE: dict[tuple[Any, ...], dict[str, Any]] = {}


def maximise(name: str, fun: Any, bounds: Sequence[tuple[float, float]], *, grid: int = 24, log: bool = True,
             starts: int = 3, maxiter: int = 200) -> dict[str, Any]:
    """Maximise ``fun(*x)`` over the box ``bounds`` (the stated parameter range, as searched): a dense
    grid (``grid`` points per axis, geometric if ``log``) followed by bounded Nelder-Mead from the
    ``starts`` best grid points.  Deterministic (no randomness); cached per process by ``name`` and the
    box, so claims sharing one optimisation run it once.  Returns the maximiser, the maximum, the box,
    the grid's best point and the number of evaluations -- the evidence of every "up to" figure."""
    key = (name, tuple(map(tuple, bounds)), grid, log, starts, maxiter)
    if key in _MAX_CACHE:
        return _MAX_CACHE[key]
    lo = np.array([b[0] for b in bounds], dtype=float)
    hi = np.array([b[1] for b in bounds], dtype=float)
    to_x = (lambda u: np.exp(u)) if log else (lambda u: u)
    ulo, uhi = (np.log(lo), np.log(hi)) if log else (lo, hi)
    n_eval = 0

    def val(u: Any) -> float:
        nonlocal n_eval
        n_eval += 1
        u = np.clip(np.asarray(u, dtype=float), ulo, uhi)
        v = float(fun(*to_x(u)))
        return v if math.isfinite(v) else -math.inf

    axes = [np.linspace(a, b, grid) for a, b in zip(ulo, uhi, strict=True)]
    mesh = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, len(bounds))
    vals = np.array([val(u) for u in mesh])
    best_grid = int(np.argmax(vals))
    best_u, best_v = mesh[best_grid], float(vals[best_grid])
    for i in np.argsort(-vals)[:starts]:
        res = minimize(lambda u: -val(u), mesh[i], method="Nelder-Mead", bounds=list(zip(ulo, uhi, strict=True)),
                       options={"maxiter": maxiter, "xatol": 1e-6, "fatol": 1e-12})
        if -res.fun > best_v:
            best_u, best_v = np.clip(res.x, ulo, uhi), float(-res.fun)
    out = {"name": name, "maximiser": [float(t) for t in to_x(best_u)], "maximum": best_v,
           "box": [list(b) for b in bounds], "grid_points": int(mesh.shape[0]), "grid_best": {
               "x": [float(t) for t in to_x(mesh[best_grid])], "value": float(vals[best_grid])},
           "at_box_edge": [bool(abs(u - a) < 1e-9 or abs(u - b) < 1e-9) for u, a, b in zip(best_u, ulo, uhi, strict=True)],
           "evaluations": n_eval, "method": f"{'log-' if log else ''}grid {grid}^{len(bounds)} + bounded Nelder-Mead "
                                            f"from the {starts} best grid points"}
    _MAX_CACHE[key] = out
    return out
