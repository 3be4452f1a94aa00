"""Black-box audit of a ``release(x, rng)`` whose outputs have any shape (vectors, tuples, booleans).

The claim and the bound are those of :mod:`verify.audit.blackbox.mechanism`: for a related pair (x, x')
(:mod:`verify.audit.blackbox.relations`, unit count d) and a fixed event S,
eps >= ln((P[M(x) in S] - delta) / P[M(x') in S]) / d.  Per pair:

1. selection: ``n_sel`` draws of M(x) and of M(x') (after an input search, with the screening draws of the
   pair before them: they too are independent of the estimation draws); the events of :mod:`verify.audit.blackbox.events`
   (support sets, classifier, projection tails) are fitted on the first half and scored on the second,
   in both directions for a symmetric relation and only x -> x' for an ordered one;
2. estimation: ``n_est`` fresh draws of each, counted in the two chosen events (the eps event, with the
   largest predicted eps bound, and the delta event, with the largest predicted p - e^(eps d) q); on
   each of the two events, the eps bound (the joint exact test of
   :func:`verify.audit.blackbox.mechanism._eps_lower_joint` inverted in eps) and the delta bound at the
   claimed eps (the same test inverted in delta, :func:`_delta_lower_joint`), the test each event was
   chosen for at level 0.4 beta / P and the other at 0.1 beta / P, for P pairs: by the union bound
   every reported bound holds simultaneously with probability >= 1 - beta, because the events are
   fixed given the selection draws.  (The delta event is chosen without the winner's-curse term of the
   eps event: it is often the small high-ratio event, whose eps bound is then the larger one.)

Draws: one call per draw (``release(x, rng)`` returning one output), or, when the caller declares
``vectorised=True``, one call on a stack of k copies of x returning k outputs (an array with leading
dimension k, or a tuple of such arrays).  Vectorisation of a vector-output release is never guessed:
a function of the whole batch (a mean over it, an argmax over all entries) would return wrong draws
without an error.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Sequence

import numpy as np

from .events import FloatArray, count_event, features, select_event
from .mechanism import (
    MechanismAuditReport,
    PairEstimate,
    _delta_lower_joint,
    _eps_lower_joint,
    _exp_ratio,
    clopper_pearson,
)
from .relations import Relation

__all__ = ["audit_shaped_pairs", "draw_features", "DEFAULT_FAMILIES"]

DEFAULT_FAMILIES = ("support", "projection", "classifier")


def _stack(x: Any, k: int) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    return np.repeat(a[None, ...], k, axis=0)


def draw_features(release: Callable[..., Any], x: Any, n: int, gen: np.random.Generator,
                  vectorised: bool = False) -> FloatArray:
    """Features (:func:`verify.audit.blackbox.events.features`) of n draws of ``release`` at x."""
    try:
        if vectorised:
            out = release(_stack(x, n), gen)
            parts = out if isinstance(out, tuple) else (out,)
            cols = []
            for p in parts:
                arr = np.asarray(p, dtype=float)
                if arr.ndim == 0 or arr.shape[0] != n:
                    raise TypeError(f"vectorised release returned shape {arr.shape} for {n} stacked inputs")
                cols.append(arr.reshape(n, -1))
            F = np.concatenate(cols, axis=1)
        else:
            F = features([release(x, gen) for _ in range(n)])
    except TypeError:
        raise
    except Exception as exc:
        raise ValueError(f"release raised {type(exc).__name__} at x={x!r}: {exc}") from exc
    if not np.all(np.isfinite(F)):
        raise ValueError(f"release returned a non-finite value at x={x!r}: encode 'no answer' as a finite code "
                         "(e.g. a boolean flag beside the value)")
    return F


def audit_shaped_pairs(release: Callable[..., Any], eps: float, delta: float, relation: Relation,
                       pairs: Sequence[tuple[Any, Any]], dists: Sequence[float], *, n: int, beta: float,
                       gen: np.random.Generator, vectorised: bool = False,
                       families: Sequence[str] = DEFAULT_FAMILIES, seed: Any = 0,
                       progress: Callable[[str], None] | None = None,
                       notes: list[str] | None = None, t0: float | None = None,
                       extra: dict[str, Any] | None = None) -> MechanismAuditReport:
    """The audit of the module docstring at the given related ``pairs`` (unit counts ``dists``)."""
    t0 = time.perf_counter() if t0 is None else t0
    say = progress or (lambda _m: None)
    notes = list(notes or [])
    n_sel = max(n // 5, 200)
    n_est = n - n_sel
    # per pair two events (the eps event and the delta event), each tested twice (the eps bound at the
    # claimed delta and the delta bound at the claimed eps): 4 tests per pair, the test each event was
    # chosen for at 0.4 beta / P, the other at 0.1 beta / P (together beta / P: a union bound)
    level = 0.4 * beta / len(pairs)
    cross = 0.1 * beta / len(pairs)
    estimates: list[PairEstimate] = []
    fam_used: list[str] = []
    prior = list((extra or {}).get("selection_draws", ()))
    for i, ((x, xp), dd) in enumerate(zip(pairs, dists, strict=True)):
        seeds = gen.spawn(4)
        say(f"pair {i + 1}/{len(pairs)}: {n_sel} selection draws per input")
        SA = draw_features(release, x, n_sel, seeds[0], vectorised)
        SB = draw_features(release, xp, n_sel, seeds[1], vectorised)
        if i < len(prior) and prior[i][0].shape[1] == SA.shape[1] and prior[i][1].shape[1] == SB.shape[1]:
            # the input search's draws of this pair: independent of the estimation draws below, so they
            # may choose the event too (the first half of the selection draws fits, the second scores)
            SA, SB = np.concatenate([prior[i][0], SA]), np.concatenate([prior[i][1], SB])
        c = _exp_ratio(eps * dd)
        sel = select_event(SA, SB, families, n_est=n_est, d=dd, delta=delta, level=level,
                           symmetric=relation.symmetric, notes=notes, c_ratio=c)
        say(f"pair {i + 1}: event {sel.event.text} ({sel.event.family}, best of {sel.n_candidates}); "
            f"{n_est} estimation draws per input")
        EA = draw_features(release, x, n_est, seeds[2], vectorised)
        EB = draw_features(release, xp, n_est, seeds[3], vectorised)
        ka, kb = count_event(sel.event, EA, sel.width), count_event(sel.event, EB, sel.width)
        k1, k2 = (ka, kb) if sel.direction == 0 else (kb, ka)
        xa, xb = (x, xp) if sel.direction == 0 else (xp, x)
        eps_lo = _eps_lower_joint(k1, k2, n_est, dd, delta, level, eps)
        p1, _ = clopper_pearson(k1, n_est, level / 2)
        _, p2 = clopper_pearson(k2, n_est, level / 2)
        eps_hat = ((math.log(k1 / n_est) - math.log(k2 / n_est)) / dd if k1 > 0 and k2 > 0 else
                   (math.inf if k1 > 0 else -math.inf))
        fam_used.append(sel.event.family)
        estimates.append(PairEstimate(xa, xb, dd, sel.event.text, sel.counts, (k1, k2), n_est, float(p1), float(p2),
                                      eps_lo, eps_hat, level, criterion="eps",
                                      delta_lower=_delta_lower_joint(k1, k2, n_est, c, cross),
                                      claimed_eps=eps, event_family=sel.event.family))
        # the delta event (chosen on the same selection draws), counted on the same fresh draws: the
        # joint exact test of p - e^(eps d) q inverted in delta at level 0.4 beta / P
        if sel.delta_event is not None and not math.isinf(c):
            ka, kb = count_event(sel.delta_event, EA, sel.width), count_event(sel.delta_event, EB, sel.width)
            k1d, k2d = (ka, kb) if sel.delta_direction == 0 else (kb, ka)
            xa, xb = (x, xp) if sel.delta_direction == 0 else (xp, x)
            p1d, _ = clopper_pearson(k1d, n_est, level / 2)
            _, p2d = clopper_pearson(k2d, n_est, level / 2)
            eps_hat_d = ((math.log(k1d / n_est) - math.log(k2d / n_est)) / dd if k1d > 0 and k2d > 0 else
                         (math.inf if k1d > 0 else -math.inf))
            estimates.append(PairEstimate(xa, xb, dd, sel.delta_event.text, sel.delta_counts, (k1d, k2d), n_est,
                                          float(p1d), float(p2d), _eps_lower_joint(k1d, k2d, n_est, dd, delta, cross, eps),
                                          eps_hat_d, level, criterion="delta",
                                          delta_lower=_delta_lower_joint(k1d, k2d, n_est, c, level),
                                          claimed_eps=eps, event_family=sel.delta_event.family))
    eps_lower = max(e.eps_lower for e in estimates)
    delta_lower = max(e.delta_lower for e in estimates)
    best = max(estimates, key=lambda e: e.eps_lower)
    best_d = max(estimates, key=lambda e: e.delta_lower)
    notes.append(f"outputs of {SA.shape[1]} feature(s) per draw; events tried: "
                 + ", ".join(f"{k}: {v}" for k, v in sel.family_counts.items())
                 + f"; the bound eps >= {eps_lower:.6g} came from a {best.event_family} event"
                 + (f", the bound delta >= {delta_lower:.3g} at eps = {eps:g} from a {best_d.event_family} event"
                    if delta_lower > 0 else ""))
    ex = dict(extra or {})
    return MechanismAuditReport(eps, delta, relation.describe(), n, seed, beta, tuple(estimates), eps_lower,
                                vectorised, None, tuple(notes), time.perf_counter() - t0,
                                delta_lower=delta_lower, discrete=False, relation_unit=relation.unit(),
                                pairs_tried=tuple(ex.get("pairs_tried", ())), output_shape="vector")
