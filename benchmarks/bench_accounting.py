"""Benchmark of the certified accountant (verify.accounting) against 50-digit references and dp-accounting.

Prints one table, measured in one run.  Rows: Gaussian, Laplace and discrete Laplace, single (k = 1) and
composed (k = 10, 100, 1000).  Columns:

* ``pts``: the eps points of the accuracy grid: the eps where the reference curve crosses
  delta = 0.5, 0.1, 1e-2, ..., 1e-15 (those the curve reaches), found by bisection on the reference.
* ``ref``: the 50-digit mpmath reference (closed forms, written here from the definitions):
  Gaussian: Balle & Wang 2018, Thm. 8 at mu_total = sqrt(k) Delta/sigma (Dong, Roth & Su 2019 composition);
  Laplace k = 1: 1 - e^((eps - Delta/b)/2); discrete Laplace (Delta = 1): the binomial sum over the number of
  +1/b losses.  Composed Laplace has no closed form: no reference ("-"), only the widths and dp-accounting.
* ``ours below``: points where our certified upper end is below the reference (must be 0);
  ``ours out``: points where the reference is outside [lower, upper] (must be 0);
  ``ours width``: max relative width (upper - lower)/reference; ``ours excess``: max (upper - ref)/ref.
* ``dpacc below``: points where dp-accounting's pessimistic PLD value is below the reference by more than 1e-12
  relative; ``dpacc err``: its max relative error |value - ref|/ref.  Composed Laplace (no reference): the
  points are where our certified upper end crosses the targets, ``dpacc below`` counts dp-accounting values below
  our certified *lower* end (a certified under-estimate) and ``dpacc err`` is relative to our upper end.
* ``ours ms``/``dpacc ms``: wall time of a 100-point curve on [0, eps at delta = 1e-15] (ours: closed form for
  k = 1, PLD construction + composition + 100 evaluations otherwise; dp-accounting: PLD construction +
  self_compose + get_delta_for_epsilon on the 100 points, value_discretization_interval 1e-4), and their
  ratio (``speedup`` > 1: ours faster).

Parameters: k = 1: Gaussian sigma = 1, Laplace b = 1/3, discrete Laplace b = 1/2 (Delta = 1); composed: the
scale times sqrt(k) (so the composition has the same order of privacy).  Grid step of our PLD (``H_STEP``):
Gaussian h = 1e-3 (k = 10), 5e-4 (k = 100), 2e-4 (k = 1000); Laplace 1e-3; the width shrinks as k h^2.

Run:  python3 benchmarks/bench_accounting.py [--quick]   (--quick: k in {1, 10} only)
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
from pathlib import Path
from typing import Any, Callable

import mpmath
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from verify.accounting import PrivacyCurve, compose

DPS = 50
TARGETS = [0.5, 0.1] + [10.0 ** -j for j in range(2, 16)]
# grid step h of our PLD per family and k (the discrete Laplace's losses are multiples of 1/b: its grid is 1/b
# whatever h, and its composition exact up to the quantisation 2^-96 of the masses)
H_STEP = {"gaussian": {10: 1e-3, 100: 5e-4, 1000: 2e-4}, "laplace": {10: 1e-3, 100: 1e-3, 1000: 1e-3},
          "discrete_laplace": {10: 1e-3, 100: 1e-3, 1000: 1e-3}}


def _try_dp() -> Any:
    try:
        return importlib.import_module("dp_accounting.pld.privacy_loss_distribution")
    except ImportError:
        return None


def gaussian_ref(mu: Any) -> Callable[[Any], Any]:
    def f(eps: Any) -> Any:
        with mpmath.workdps(DPS):
            e = mpmath.mpf(eps)
            Phi = lambda u: mpmath.erfc(-u / mpmath.sqrt(2)) / 2  # noqa: E731
            return Phi(mu / 2 - e / mu) - mpmath.exp(e) * Phi(-mu / 2 - e / mu)
    return f


def laplace_ref(a: Any) -> Callable[[Any], Any]:
    def f(eps: Any) -> Any:
        with mpmath.workdps(DPS):
            return max(mpmath.mpf(0), 1 - mpmath.exp((mpmath.mpf(eps) - a) / 2))
    return f


def dlaplace_ref(b: Any, k: int) -> Callable[[Any], Any]:
    with mpmath.workdps(DPS):
        r = mpmath.exp(-1 / mpmath.mpf(b))
        p = 1 / (1 + r)
        a = 1 / mpmath.mpf(b)
        w = [mpmath.binomial(k, j) * p ** j * (1 - p) ** (k - j) for j in range(k + 1)]

    def f(eps: Any) -> Any:
        with mpmath.workdps(DPS):
            e = mpmath.mpf(eps)
            return mpmath.fsum(w[j] * (1 - mpmath.exp(e - (2 * j - k) * a)) for j in range(k + 1)
                               if (2 * j - k) * a > e)
    return f


def crossing(ref: Callable[[Any], Any], target: float, hi: float) -> float | None:
    """eps with ref(eps) = target by bisection on [0, hi] (ref non-increasing), or None if not reached."""
    if ref(0.0) < target or ref(hi) > target:
        return None
    lo = 0.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if ref(mid) > target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def dp_pld(dp: Any, family: str, scale: float, k: int) -> Any:
    if family == "gaussian":
        p = dp.from_gaussian_mechanism(scale, sensitivity=1.0, value_discretization_interval=1e-4)
    elif family == "laplace":
        p = dp.from_laplace_mechanism(scale, sensitivity=1.0, value_discretization_interval=1e-4)
    else:
        p = dp.from_discrete_laplace_mechanism(1.0 / scale, sensitivity=1, value_discretization_interval=1e-4)
    return p if k == 1 else p.self_compose(k)


def ours_obj(family: str, scale: float, k: int) -> Any:
    curve = {"gaussian": PrivacyCurve.gaussian, "laplace": PrivacyCurve.laplace,
             "discrete_laplace": PrivacyCurve.discrete_laplace}[family](scale)
    if k == 1:
        return curve
    return compose(curve, k=k, h=H_STEP[family][k])


def row(family: str, k: int, dp: Any) -> dict[str, Any]:
    base = {"gaussian": 1.0, "laplace": 1.0 / 3.0, "discrete_laplace": 0.5}[family]
    scale = base * math.sqrt(k)
    with mpmath.workdps(DPS):
        if family == "gaussian":
            ref: Callable[[Any], Any] | None = gaussian_ref(mpmath.sqrt(k) / mpmath.mpf(scale))
            hi = 60.0
        elif family == "laplace":
            ref = laplace_ref(1 / mpmath.mpf(scale)) if k == 1 else None
            hi = 1.0 / scale * k
        else:
            ref = dlaplace_ref(scale, k)
            hi = 1.0 / scale * k
    obj = ours_obj(family, scale, k)
    # accuracy grid: crossings of the reference, or (composed Laplace) of our certified upper end
    if ref is not None:
        pts = [e for e in (crossing(ref, t, hi) for t in TARGETS) if e is not None]
    else:
        pts = [e for e in (crossing(lambda x: obj.delta(x).upper, t, hi) for t in TARGETS) if e is not None]
    encs = [obj.delta(e) for e in pts]
    below = out = 0
    width = excess = 0.0
    dpb = 0
    dperr = 0.0
    dvals = None
    if dp is not None:
        dpp = dp_pld(dp, family, scale, k)
        dvals = [dpp.get_delta_for_epsilon(e) for e in pts]
    for i, (e, enc) in enumerate(zip(pts, encs, strict=True)):
        if ref is None:                         # no reference: our certified lower end is the yardstick
            width = max(width, enc.relative_width())
            if dvals is not None:
                dpb += int(dvals[i] < enc.lower)
                dperr = max(dperr, abs(dvals[i] - enc.upper) / enc.upper)
            continue
        with mpmath.workdps(DPS):
            t = ref(e)
            if mpmath.mpf(enc.upper) < t:
                below += 1
            if not (mpmath.mpf(enc.lower) <= t <= mpmath.mpf(enc.upper)):
                out += 1
            if t > 0:
                width = max(width, float((mpmath.mpf(enc.upper) - mpmath.mpf(enc.lower)) / t))
                excess = max(excess, float((mpmath.mpf(enc.upper) - t) / t))
                if dvals is not None:
                    d = mpmath.mpf(dvals[i])
                    if d < t * (1 - mpmath.mpf("1e-12")):
                        dpb += 1
                    dperr = max(dperr, float(abs(d - t) / t))
    # speed: a 100-point curve
    top = max(pts) if pts else 1.0
    grid = np.linspace(0.0, top, 100)
    t0 = time.perf_counter()
    o = ours_obj(family, scale, k)
    for e in grid:
        o.delta(float(e))
    ours_ms = 1e3 * (time.perf_counter() - t0)
    dp_ms = math.nan
    if dp is not None:
        t0 = time.perf_counter()
        dpp = dp_pld(dp, family, scale, k)
        dpp.get_delta_for_epsilon(grid)
        dp_ms = 1e3 * (time.perf_counter() - t0)
    return {"family": family, "k": k, "pts": len(pts), "ref": "50-digit" if ref is not None else "-",
            "below": below if ref is not None else "-", "out": out if ref is not None else "-", "width": width,
            "excess": excess if ref is not None else math.nan, "dpb": dpb if dp is not None else "-",
            "dperr": dperr if dp is not None else math.nan, "ours_ms": ours_ms,
            "dp_ms": dp_ms}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="k in {1, 10} only")
    args = ap.parse_args()
    dp = _try_dp()
    ks = [1, 10] if args.quick else [1, 10, 100, 1000]
    hdr = (f"{'family':17s} {'k':>5s} {'pts':>4s} {'ref':>8s} {'ours below':>10s} {'ours out':>8s} "
           f"{'ours width':>10s} {'ours excess':>11s} {'dpacc below':>11s} {'dpacc err':>9s} {'ours ms':>8s} "
           f"{'dpacc ms':>8s} {'speedup':>7s}")
    print(hdr)
    print("-" * len(hdr))
    for family in ("gaussian", "laplace", "discrete_laplace"):
        for k in ks:
            r = row(family, k, dp)
            sp = r["dp_ms"] / r["ours_ms"] if math.isfinite(r["dp_ms"]) else math.nan
            print(f"{r['family']:17s} {r['k']:5d} {r['pts']:4d} {r['ref']:>8s} {r['below']!s:>10s} {r['out']!s:>8s} "
                  f"{r['width']:10.2e} {r['excess']:11.2e} {r['dpb']!s:>11s} {r['dperr']:9.2e} {r['ours_ms']:8.1f} "
                  f"{r['dp_ms']:8.1f} {sp:7.2f}")
    if dp is None:
        print("dp-accounting is not installed: its columns are empty (pip install dp-accounting)")


if __name__ == "__main__":
    main()
