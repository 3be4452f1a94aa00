"""Benchmark: the peers' mechanisms (benchmarks/peers_mechanisms.py) through the black-box audit.

Every query-answer mechanism is audited without a pair: the input search (StatDP's patterns around
a = [1]*m) screens 8 candidate pairs with 30 % of the budget and audits the best on fresh draws;
RAPPOR at the pair of one-record datasets [0] vs [1] (substitute-one).  Default budget (200,000 draws
per input), seed 0, confidence 0.999.  Prints one row per mechanism: claimed eps, the true eps (from
the paper, or derived in the mechanism's docstring), verdict, the lower bound and the event family
that gave it, the lower bound on delta at the claimed eps (a pure claim is refuted by delta > 0), the
pair of the eps bound, and the time.

    python3 benchmarks/bench_peers.py [--budget N] [--only NAME]
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import peers_mechanisms as P

from verify.audit.blackbox import audit_blackbox_mechanism
from verify.audit.blackbox.input_search import InputSearch
from verify.audit.blackbox.relations import QueryAnswers, SubstituteOne

LINF = QueryAnswers("linf", 1.0)
L1 = QueryAnswers("l1", 1.0)
RAPPOR_EPS = 2 * math.log((1 - 0.25) / 0.25)  # f = 0.5

# name, release, claimed eps, relation, base / pair, true eps (text), correct?
CASES: list[tuple[str, Callable[..., Any], float, Any, Any, str, bool]] = [
    ("NoisyMax index, Laplace (StatDP v1a)", functools.partial(P.noisy_max_index_laplace, eps=0.7), 0.7, LINF,
     [1.0] * 5, "<= 0.7", True),
    ("NoisyMax value, Laplace (StatDP v1b)", functools.partial(P.noisy_max_value_laplace, eps=0.1), 0.1, LINF,
     [1.0] * 5, "0.25 (m eps/2, m = 5)", False),
    ("NoisyMax index, exponential (StatDP v2a)", functools.partial(P.noisy_max_index_exponential, eps=0.7), 0.7, LINF,
     [1.0] * 5, "<= 0.7", True),
    ("NoisyMax value, exponential (StatDP v2b)", functools.partial(P.noisy_max_value_exponential, eps=0.7), 0.7, LINF,
     [1.0] * 5, "inf", False),
    ("ReportNoisyMax (index, value)", functools.partial(P.report_noisy_max_pair, eps=0.1), 0.1, LINF,
     [1.0] * 5, "0.25", False),
    ("Histogram, scale 1/eps (StatDP)", functools.partial(P.histogram, eps=0.7), 0.7, L1, [1.0] * 5, "0.7", True),
    ("Histogram, scale eps (StatDP histogram_eps)", functools.partial(P.histogram_eps, eps=0.7), 0.7, L1,
     [1.0] * 5, "1.43 (1/eps)", False),
    ("Prefix sum (DP-Sniper)", functools.partial(P.prefix_sum, eps=0.7), 0.7, L1, [1.0] * 5, "0.7", True),
    ("SVT, N = 1 (StatDP / Lyu Alg. 1)", functools.partial(P.svt, eps=0.7), 0.7, LINF, [1.0] * 10, "<= 0.7", True),
    ("iSVT1 (StatDP)", functools.partial(P.isvt1, eps=0.7), 0.7, LINF, [1.0] * 10, "inf", False),
    ("iSVT2 (StatDP)", functools.partial(P.isvt2, eps=0.7), 0.7, LINF, [1.0] * 10, "> 0.7 (StatDP)", False),
    ("iSVT3 (StatDP / Lyu Alg. 4)", functools.partial(P.isvt3, eps=0.7), 0.7, LINF, [1.0] * 10,
     "> 0.7 (StatDP)", False),
    ("iSVT4, native outputs (StatDP / Lyu Alg. 3)", functools.partial(P.isvt4, eps=0.7), 0.7, LINF, [1.0] * 10,
     "> 0.7 (StatDP: incorrect)", False),
    ("SVT3, native outputs (DP-Sniper / Lyu Alg. 3)", functools.partial(P.svt3_sniper, eps=0.1), 0.1, LINF,
     [1.0] * 10, "not eps-DP (Lyu et al.)", False),
    ("One-time RAPPOR, f = 0.5", P.one_time_rappor, RAPPOR_EPS, SubstituteOne(), ([0.0], [1.0]),
     f"{RAPPOR_EPS:.3g}", True),
    ("One-time RAPPOR, claimed half", P.one_time_rappor, RAPPOR_EPS / 2, SubstituteOne(), ([0.0], [1.0]),
     f"{RAPPOR_EPS:.3g}", False),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=int, default=200_000)
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    print(f"{'mechanism':48} {'claim':>6} {'true eps':>25} {'verdict':>7} {'eps >=':>8} {'delta >=':>9} "
          f"{'eps event':>16} {'time':>6}  pair (of the eps bound)")
    wrong = 0
    for name, rel_fn, eps, relation, where, true_eps, correct in CASES:
        if args.only and args.only.lower() not in name.lower():
            continue
        t0 = time.perf_counter()
        kw = dict(relation=relation, budget=args.budget, rng=0, vectorised=True, density=False)
        if isinstance(where, tuple):
            rep = audit_blackbox_mechanism(rel_fn, eps, pairs=[where], **kw)
        else:
            rep = audit_blackbox_mechanism(rel_fn, eps, search=InputSearch(base=where, candidates=8), **kw)
        dt = time.perf_counter() - t0
        verdict = "PASS" if rep.passed else "FAIL" if rep.violated else "INCONC"
        wrong += (verdict == "PASS") != correct
        best = max(rep.pairs, key=lambda p: p.eps_lower)
        fam = (best.event_family or "histogram/tail").split(" (")[0]
        pair = f"{[round(v, 3) for v in best.x]} vs {[round(v, 3) for v in best.x_prime]}"
        print(f"{name:48} {eps:6.3g} {true_eps:>25} {verdict:>7} {rep.eps_lower:8.3g} {max(rep.delta_lower, 0.0):9.2g} "
              f"{fam:>16} {dt:5.1f}s  {pair}", flush=True)
    print(f"verdicts against the papers' status (correct -> PASS, incorrect -> FAIL): {wrong} wrong")


if __name__ == "__main__":
    main()
