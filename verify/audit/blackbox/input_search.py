"""Input search: candidate pairs of related inputs, screened on separate draws, the best audited.

Without a pair, the audit generates candidates from a base input with the relation's own generator
(:meth:`verify.audit.blackbox.relations.Relation.candidates`: StatDP's patterns for query-answer
vectors -- one above, one below, one above rest below, one below rest above, half-half, all above,
all below, x-shape (Ding et al. CCS 2018, Sec. 5.1) --, random one-record changes, removals and
additions for datasets, pairs at log-spaced distances for Geo-Privacy), spends ``share`` of the budget
screening them -- for each candidate, an event of :mod:`verify.audit.blackbox.events` chosen on 60 % of
its screening draws and its log-ratio (minus one standard deviation) counted on the other 40 % -- and
keeps the best ``keep`` pairs.  The final audit draws afresh (other child seeds): the pair is a function of the
screening draws only, so the bound for it holds at its stated confidence (the same argument as the
choice of the event, DP-Sniper, Bichsel et al. S&P 2021, Sec. 5; StatDP, Ding et al. CCS 2018, Sec. 4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from smoothsens_core.validation import check_in_interval, check_integer

from .events import count_event, select_event
from .relations import Relation

__all__ = ["InputSearch", "search_pairs"]


@dataclass(frozen=True)
class InputSearch:
    """What the input search starts from: ``base`` (an input: a query-answer vector, a dataset, a point),
    ``universe`` (record values for dataset relations; default: the base's values +- 1), ``candidates``
    (how many pairs to screen), ``share`` (of the budget per input spent screening, in (0, 0.9]) and
    ``keep`` (pairs audited on fresh draws)."""

    base: Any
    universe: Sequence[float] | None = None
    candidates: int = 10
    share: float = 0.3
    keep: int = 3

    def __post_init__(self) -> None:
        check_integer("candidates", self.candidates, minimum=1)
        check_in_interval("share", self.share, 0.0, 0.9, closed_high=True)
        check_integer("keep", self.keep, minimum=1)


def _text(x: Any) -> str:
    a = np.atleast_1d(np.asarray(x, dtype=float))
    return "[" + ", ".join(f"{v:g}" for v in a[:8]) + (", ..." if a.size > 8 else "") + "]"


def search_pairs(release: Callable[..., Any], relation: Relation, search: InputSearch, eps: float, delta: float,
                 n: int, beta: float, gen: np.random.Generator, vectorised: bool | None,
                 families: Sequence[str], say: Callable[[str], None]) -> tuple[list[tuple[Any, Any]], tuple[str, ...], int]:
    """Screen the relation's candidate pairs around ``search.base``; return the kept pairs, a line per pair
    tried (with its predicted lower bound), and the budget per input left for the final audit."""
    from .shaped import draw_features  # noqa: PLC0415 - shaped imports mechanism, which imports this module

    cand_gen, draw_gen = gen.spawn(2)
    cands = relation.candidates(search.base, cand_gen, search.candidates, search.universe)
    good = []
    for pr in cands:
        try:
            relation.check_pair(*pr)
            good.append(pr)
        except ValueError:
            continue
    if not good:
        raise ValueError(f"the input search found no related pair around base={search.base!r} under "
                         f"{relation.describe()}")
    n_screen = int(search.share * n)
    per = max(n_screen // len(good), 400)
    n_final = max(n - n_screen, 200)
    say(f"input search: {len(good)} candidate pairs, {per} screening draws per input each")
    scored = []
    seeds = draw_gen.spawn(2 * len(good))
    level = beta / 2.0
    for i, (x, xp) in enumerate(good):
        d = relation.check_pair(x, xp)
        vec = bool(vectorised)
        try:
            A = draw_features(release, x, per, seeds[2 * i], vec)
            B = draw_features(release, xp, per, seeds[2 * i + 1], vec)
        except TypeError:
            A = draw_features(release, x, per, seeds[2 * i], False)
            B = draw_features(release, xp, per, seeds[2 * i + 1], False)
        # the event is chosen on the first 60 % of the screening draws and the pair is scored by that fixed
        # event on the other 40 %: ln of the ratio of the counts minus one standard deviation (unbiased for
        # the chosen event, whereas its score on the draws that chose it is inflated by the choice)
        m = int(0.6 * A.shape[0])
        notes: list[str] = []
        try:
            sel = select_event(A[:m], B[:m], families, n_est=n_final, d=d, delta=delta, level=level,
                               symmetric=relation.symmetric, notes=notes)
            ka = count_event(sel.event, A[m:], sel.width)
            kb = count_event(sel.event, B[m:], sel.width)
            k1, k2 = (ka, kb) if sel.direction == 0 else (kb, ka)
            nv = A.shape[0] - m
            score = (math.log((k1 + 0.5) / (k2 + 0.5))
                     - math.sqrt(1.0 / (k1 + 0.5) + 1.0 / (k2 + 0.5) - 2.0 / (nv + 1.0))) / d
        except ValueError:
            score = -math.inf
        scored.append((score, i))
    scored.sort(key=lambda t: -t[0])
    tried = tuple(f"{_text(good[i][0])} vs {_text(good[i][1])}: screening score {s:.3g}" for s, i in scored)
    kept = [good[i] for _, i in scored[: search.keep]]
    return kept, tried, n_final
