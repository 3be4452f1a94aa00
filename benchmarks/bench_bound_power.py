"""Detection power of the black-box smooth-bound audit (verify.audit.blackbox.audit_smooth_bound).

A planted KDE bound (004 Sec. 4.3, Gaussian kernel at t = 0, h = 1, g_E with gamma = 0.1) equals
the core's B* except on a band of radii [r0 - w/2, r0 + w/2] around the centre, where it is
``deficit`` too low (B = (1 - deficit) B* there).  Any such B is invalid (B < B*, 004 Lemma 3.2).
For each band width w and deficit, the audit runs at the default budget on ``--seeds`` seeds; seed
s draws the band centre r0 uniformly in a region of radii from its own stream and runs the audit
with rng = s, so both where the band is and how the audit searches change with the seed.  A run
detects the fault when the audit does not pass.  Two regions:

* ``core``: r0 in [0.05, 4h - 0.05], the kernel region, where the audit lays a lattice of radii
  with spacing 4h / (0.35 budget) (5.7e-4 at the default budget): every band at least that wide
  contains a lattice radius, so it is found whatever the seed;
* ``domain``: r0 in [0.05, R - 0.05] (R = 24, the default domain's half-width), the tail beyond 4h
  included, where the lattice spacing is 20 / (0.10 budget) = 0.01.  No audit of n evaluations can
  do much better there: n points cover at most n w of the radii, so a band of width w at a uniform
  place is found with probability at most n w / R.

Prints the table band width x deficit -> detected / seeds (probability of detection) per region.

    python3 benchmarks/bench_bound_power.py [--seeds 20] [--budget 20000] [--widths ...] [--deficits ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smoothsens_core.growth import growth_exp  # noqa: E402
from smoothsens_core.sensitivity import smooth_sensitivity_kde  # noqa: E402
from verify.audit.blackbox import audit_smooth_bound  # noqa: E402
from verify.audit.blackbox.bound import DEFAULT_BOUND_BUDGET  # noqa: E402

T, H, GAMMA = 0.0, 1.0, 0.1
R = 4.0 * H + 2.0 / GAMMA  # half-width of the default KDE domain (verify.audit.blackbox.queries)


REGIONS = {"core": (0.05, 4.0 * H - 0.05), "domain": (0.05, R - 0.05)}


def band_centre(seed: int, region: str = "core") -> float:
    """The band centre of run ``seed``: uniform in the region's radii, from its own stream."""
    a, b = REGIONS[region]
    return float(np.random.default_rng([7919, seed]).uniform(a, b))


def banded_bound(r0: float, width: float, deficit: float):
    """B = B* * (1 - deficit) on | |x - t| - r0 | <= width/2, B = B* elsewhere (vectorised, d = 1)."""
    g = growth_exp(GAMMA)

    def B(x):
        x = np.asarray(x, dtype=float)
        low = np.abs(np.abs(x - T) - r0) <= width / 2
        return smooth_sensitivity_kde(x, [T], H, g) * np.where(low, 1.0 - deficit, 1.0)

    return B


def detected(seed: int, width: float, deficit: float, budget: int = DEFAULT_BOUND_BUDGET,
             region: str = "core") -> bool:
    rep = audit_smooth_bound("kde", banded_bound(band_centre(seed, region), width, deficit), growth_exp(GAMMA),
                             params={"t": [T], "h": H}, budget=budget, rng=seed)
    return not rep.passed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--budget", type=int, default=DEFAULT_BOUND_BUDGET)
    ap.add_argument("--widths", type=float, nargs="+", default=[0.0001, 0.0003, 0.001, 0.003, 0.01])
    ap.add_argument("--deficits", type=float, nargs="+", default=[0.001, 0.01, 0.05])
    ap.add_argument("--regions", nargs="+", default=list(REGIONS), choices=list(REGIONS))
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    for region in a.regions:
        lo_r, hi_r = REGIONS[region]
        print(f"\nKDE t=0, h=1, g_E(0.1): B = (1 - deficit) B* on a band of radii; budget {a.budget}, "
              f"{a.seeds} seeds; band centre uniform in [{lo_r:g}, {hi_r:g}] ({region})")
        head = "band width \\ deficit | " + " | ".join(f"{d:g}" for d in a.deficits)
        print(head)
        print("-" * len(head))
        for w in a.widths:
            cells = []
            for dfc in a.deficits:
                k = sum(detected(s, w, dfc, a.budget, region) for s in range(a.seeds))
                cells.append(f"{k}/{a.seeds} ({k / a.seeds:.2f})")
            print(f"{w:<20g} | " + " | ".join(cells), flush=True)
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
