"""Input search: candidate pairs of related inputs, screened on separate draws, the best audited.

Without a pair, the audit generates candidates from a base input with the relation's own generator
(:meth:`verify.audit.blackbox.relations.Relation.candidates`: StatDP's patterns for query-answer
vectors -- one above, one below, one above rest below, one below rest above, half-half, all above,
all below, x-shape (Ding et al. CCS 2018, Sec. 5.1) --, random one-record changes, removals and
additions for datasets, pairs at log-spaced distances for Geo-Privacy), spends ``share`` of the budget
screening them (in one round, or by successive halving in two: the second half of the draws on the
better half of the candidates; a candidate is scored on all its screening draws: an event of :mod:`verify.audit.blackbox.events`
chosen on 60 % of them and its log-ratio (minus one standard deviation) counted on the other 40 %) and
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
    (how many pairs to screen), ``share`` (of the budget per input spent screening, in (0, 0.9]),
    ``keep`` (pairs audited on fresh draws) and ``rounds`` (1: every candidate screened on the same number
    of draws; 2: successive halving, the second half of the screening draws on the better half)."""

    base: Any
    universe: Sequence[float] | None = None
    candidates: int = 10
    share: float = 0.3
    keep: int = 3
    rounds: int = 1

    def __post_init__(self) -> None:
        check_integer("rounds", self.rounds, minimum=1)
        if self.rounds > 2:
            raise ValueError(f"rounds must be 1 or 2; got rounds={self.rounds}")
        check_integer("candidates", self.candidates, minimum=1)
        check_in_interval("share", self.share, 0.0, 0.9, closed_high=True)
        check_integer("keep", self.keep, minimum=1)


def _text(x: Any) -> str:
    a = np.atleast_1d(np.asarray(x, dtype=float))
    return "[" + ", ".join(f"{v:g}" for v in a[:8]) + (", ..." if a.size > 8 else "") + "]"


def search_pairs(release: Callable[..., Any], relation: Relation, search: InputSearch, eps: float, delta: float,
                 n: int, beta: float, gen: np.random.Generator, vectorised: bool | None,
                 families: Sequence[str], say: Callable[[str], None],
                 kept_draws: list[tuple[np.ndarray, np.ndarray]] | None = None,
                 ) -> tuple[list[tuple[Any, Any]], tuple[str, ...], int]:
    """Screen the relation's candidate pairs around ``search.base``; return the kept pairs, a line per pair
    tried (with its predicted lower bound), and the budget per input left for the final audit.  With a list
    ``kept_draws``, the screening draws (features of M(x), of M(x')) of each kept pair are appended to it:
    they are independent of the final audit's estimation draws, so the final audit may choose its events
    on them too."""
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
    n_final = max(n - n_screen, 200)
    # one round by default (``rounds=1``): every candidate gets the same screening draws.  With
    # ``rounds=2``, successive halving (Jamieson & Talwalkar 2016): half the screening draws on every
    # candidate, the other half on the better half of them (at least ``keep``), added to each survivor's own.
    rounds = search.rounds if len(good) > search.keep else 1
    per_round = n_screen // rounds
    say(f"input search: {len(good)} candidate pairs, {rounds} round(s) of successive halving, "
        f"{per_round} screening draws per input per round")
    level = beta / 2.0
    draws: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    alive = list(range(len(good)))
    scored: list[tuple[float, int]] = []
    last: dict[int, tuple[float, int]] = {}
    for rnd in range(rounds):
        per = max(per_round // len(alive), 400)
        for i in alive:
            x, xp = good[i]
            sa, sb = draw_gen.spawn(2)
            vec = bool(vectorised)
            try:
                A = draw_features(release, x, per, sa, vec)
                B = draw_features(release, xp, per, sb, vec)
            except TypeError:
                A = draw_features(release, x, per, sa, False)
                B = draw_features(release, xp, per, sb, False)
            if i in draws:
                A0, B0 = draws[i]
                if A0.shape[1] == A.shape[1] and B0.shape[1] == B.shape[1]:
                    A, B = np.concatenate([A0, A]), np.concatenate([B0, B])
            draws[i] = (A, B)
        scored = []
        for i in alive:
            A, B = draws[i]
            scored.append((_screen_score(A, B, relation.check_pair(*good[i]), families, n_final, delta, level,
                                         relation.symmetric), i))
        scored.sort(key=lambda t: -t[0])
        if rnd < rounds - 1:
            alive = [i for _, i in scored[: max(search.keep, math.ceil(len(alive) / 2))]]
            for sc, i in scored:
                if i not in alive:
                    last[i] = (sc, rnd + 1)
    for sc, i in scored:
        last[i] = (sc, rounds)
    final = [i for _, i in scored]
    order = final + sorted((i for i in last if i not in final), key=lambda i: (-last[i][1], -last[i][0]))
    tried = tuple(f"{_text(good[i][0])} vs {_text(good[i][1])}: screening score {last[i][0]:.3g}"
                  + (f" (left out after round {last[i][1]} of {rounds})" if last[i][1] < rounds else "")
                  for i in order)
    kept = [good[i] for i in final[: search.keep]]
    if kept_draws is not None:
        kept_draws.extend(draws[i] for i in final[: search.keep])
    return kept, tried, n_final


def _screen_score(A: np.ndarray, B: np.ndarray, d: float, families: Sequence[str], n_final: int, delta: float,
                  level: float, symmetric: bool) -> float:
    """The screening score of one pair from its screening draws A of M(x) and B of M(x'): an event chosen
    on the first 60 % of them and counted on the other 40 % (unbiased for the chosen event, whereas its
    score on the draws that chose it is inflated by the choice): ln of the ratio of the counts minus one
    standard deviation, per unit d."""
    m = int(0.6 * A.shape[0])
    try:
        sel = select_event(A[:m], B[:m], families, n_est=n_final, d=d, delta=delta, level=level,
                           symmetric=symmetric, notes=[])
    except ValueError:
        return -math.inf
    ka = count_event(sel.event, A[m:], sel.width)
    kb = count_event(sel.event, B[m:], sel.width)
    k1, k2 = (ka, kb) if sel.direction == 0 else (kb, ka)
    nv = A.shape[0] - m
    return (math.log((k1 + 0.5) / (k2 + 0.5)) - math.sqrt(1.0 / (k1 + 0.5) + 1.0 / (k2 + 0.5) - 2.0 / (nv + 1.0))) / d
