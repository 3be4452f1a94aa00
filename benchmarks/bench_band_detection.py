"""Band detection of the black-box smooth-bound audit (verify.audit.blackbox.audit_smooth_bound).

A planted KDE bound (004 Sec. 4.3: Gaussian kernel at t = 0, h = 1, g_E with gamma = 0.1) equals
the core's B* except on a band of radii [r0 - w/2, r0 + w/2] around the centre, where it is
``deficit`` too low (B = (1 - deficit) B* there).  Any such B is invalid: B < B* somewhere
(004 Lemma 3.2).  The band centre r0 is uniform over the whole radius range the audit covers,
[0.05, R - 0.05] with R = 4h + 2/gamma = 24 (the half-width of the default KDE box), drawn for
run ``seed`` from its own stream ``default_rng([7919, seed])``; the audit runs at the default
budget with rng = seed, so where the band lies and how the audit searches both change with the
seed.  A run detects the band when the audit does not pass; a false alarm is a run on the
correct bound B = B* (same seed) that does not pass.

Two callables:

* ``vectorised`` (B(points) on arrays): the audit sweeps every radius in [0, R] on one shifted
  lattice of spacing DEFAULT_SWEEP_SPACING x h = 4e-4 (60,000 radii, on top of the budget), then
  refines around the lowest ratios B/B*: every band wider than 4e-4 contains a swept radius;
* ``per-point`` (the same B called one point at a time): no sweep beyond the budget; the
  budget's lattices have spacing 5.7e-4 on the kernel region [0, 4h] and 0.01 beyond, so a band
  of width w beyond 4h is hit with probability about w / 0.01.

Prints the tables band width x deficit -> detected / seeds (probability of detection).

    python3 benchmarks/bench_band_detection.py [--seeds 20] [--widths ...] [--deficits ...] [--per-point]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smoothsens_core.growth import growth_exp
from smoothsens_core.sensitivity import smooth_sensitivity_kde
from verify.audit.blackbox import audit_smooth_bound
from verify.audit.blackbox.bound import DEFAULT_BOUND_BUDGET

T, H, GAMMA = 0.0, 1.0, 0.1
R = 4.0 * H + 2.0 / GAMMA  # half-width of the default KDE box (verify.audit.blackbox.queries)
CENTRE_RANGE = (0.05, R - 0.05)
WIDTHS = (0.0002, 0.0005, 0.001, 0.01)
DEFICITS = (0.005, 0.01, 0.05)


def band_centre(seed: int) -> float:
    """The band centre of run ``seed``: uniform over CENTRE_RANGE, from its own stream."""
    return float(np.random.default_rng([7919, seed]).uniform(*CENTRE_RANGE))


def banded_bound(r0: float, width: float, deficit: float) -> Callable[[np.ndarray], np.ndarray]:
    """B = (1 - deficit) B* on | |x - t| - r0 | <= width/2, B = B* elsewhere (vectorised, d = 1)."""
    g = growth_exp(GAMMA)

    def B(x):
        x = np.asarray(x, dtype=float)
        low = np.abs(np.abs(x - T) - r0) <= width / 2
        return smooth_sensitivity_kde(x, [T], H, g) * np.where(low, 1.0 - deficit, 1.0)

    return B


def per_point(B: Callable[[np.ndarray], np.ndarray]) -> Callable[[float], float]:
    """The same bound called one point at a time (it raises on arrays, as a scalar-only B does)."""

    def B1(x):
        if np.ndim(x) != 0:
            raise TypeError("B1 takes one float")
        return float(B(np.array([float(x)]))[0])

    return B1


def audit_passes(B: Callable, seed: int, budget: int = DEFAULT_BOUND_BUDGET) -> bool:
    rep = audit_smooth_bound("kde", B, growth_exp(GAMMA), params={"t": [T], "h": H}, budget=budget, rng=seed)
    return rep.passed


def detected(seed: int, width: float, deficit: float, budget: int = DEFAULT_BOUND_BUDGET,
             scalar: bool = False) -> bool:
    B = banded_bound(band_centre(seed), width, deficit)
    return not audit_passes(per_point(B) if scalar else B, seed, budget)


def false_alarm(seed: int, budget: int = DEFAULT_BOUND_BUDGET, scalar: bool = False) -> bool:
    """The audit of the correct bound B = B* fails on this seed."""
    B = banded_bound(0.0, 0.0, 0.0)
    return not audit_passes(per_point(B) if scalar else B, seed, budget)


def table(seeds: int, widths: list[float], deficits: list[float], budget: int, scalar: bool) -> None:
    kind = "per-point B" if scalar else "vectorised B"
    print(f"\nKDE t=0, h=1, g_E(0.1), {kind}: B = (1 - deficit) B* on a band of radii; budget {budget}, "
          f"{seeds} seeds; band centre uniform in [{CENTRE_RANGE[0]:g}, {CENTRE_RANGE[1]:g}]")
    head = "band width \\ deficit | " + " | ".join(f"{100 * d:g} %" for d in deficits)
    print(head)
    print("-" * len(head))
    for w in widths:
        cells = []
        for dfc in deficits:
            k = sum(detected(s, w, dfc, budget, scalar) for s in range(seeds))
            cells.append(f"{k}/{seeds} ({k / seeds:.2f})")
        print(f"{w:<20g} | " + " | ".join(cells), flush=True)
    fa = sum(false_alarm(s, budget, scalar) for s in range(seeds))
    print(f"false alarms on the correct bound B = B*: {fa}/{seeds}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--budget", type=int, default=DEFAULT_BOUND_BUDGET)
    ap.add_argument("--widths", type=float, nargs="+", default=list(WIDTHS))
    ap.add_argument("--deficits", type=float, nargs="+", default=list(DEFICITS))
    ap.add_argument("--per-point", action="store_true", help="also the per-point callable (slower: ~3 s a run)")
    ap.add_argument("--per-point-deficits", type=float, nargs="+", default=[0.01])
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    table(a.seeds, a.widths, a.deficits, a.budget, scalar=False)
    if a.per_point:
        table(a.seeds, a.widths, a.per_point_deficits, a.budget, scalar=True)
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
