"""Benchmark of the vectorised smooth-sensitivity closed forms (not a test).

Prints points per second of the vectorised closed forms (smoothsens_core.sensitivity) and of a
per-point scalar implementation (a Python loop over points calling a scalar closed form; for the
KDE the chord partner and the stationary radii are found with scipy.optimize.brentq per point),
measured in the same run, their ratio, a spot check that both agree, and the peak scratch
memory of the chunked evaluation (tracemalloc) for growing n (threshold, two-way threshold and the
Gaussian KDE: B*, L and the kernel; the radius of each point is computed inside its chunk).

Run:  python benchmarks/bench_sensitivity.py [--quick]
Targets (one core): one-way threshold >= 3e7 points/s, two-way >= 3e6, d = 2 KDE (gamma > 0)
>= 5e5, KDE >= 100x the scalar implementation.
"""

from __future__ import annotations

import argparse
import os
import math
import time
import tracemalloc

import numpy as np
from scipy.optimize import brentq

from smoothsens_core.growth import growth_exp, growth_linear
from smoothsens_core.sensitivity import (
    gaussian_kernel,
    lipschitz_kde,
    smooth_sensitivity_kde,
    smooth_sensitivity_threshold,
    smooth_sensitivity_two_way_threshold,
)


# ------------------------------------------------------------------------------------------------
# scalar reference implementations (one point per call)
# ------------------------------------------------------------------------------------------------
def scalar_threshold(x: float, T: float, tau: float, gamma: float) -> float:
    """004 Lemma 4.1 for one point."""
    s = abs(x - T)
    if s <= tau / 2:
        return 1 / tau
    return max(1 / (s + tau / 2), math.exp(-gamma * (s - tau / 2)) / tau)


def scalar_two_way(p1: float, p2: float, T1: float, T2: float, tau: float, gamma: float) -> float:
    """004 Lemma 4.3 for one point, via the distance to the band."""
    R1 = tau / math.sqrt(2)
    R2 = R1 + tau
    c1, c2 = T1 + tau / 2 + R1, T2 + tau / 2 + R1
    u1, u2 = c1 - p1, c2 - p2
    D = math.hypot(max(u1, 0.0), max(u2, 0.0))
    if D > R2:
        d = D - R2
    elif D < R1:
        d = R1 - D + max(min(-u1, -u2), 0.0)
    else:
        return 1 / tau
    return max(1 / (d + tau), math.exp(-gamma * d) / tau)


_AW = 1.5852010652445132


def _alpha_scalar(b: float) -> float:
    f = lambda a: math.exp(-(b - a) * (b + a) / 2) - (1 + a * (a - b))  # noqa: E731
    if abs(b - 1) < 1e-3:
        return 1 - (b - 1) / 2
    if b < 1:
        return brentq(f, 1.0, _AW * (1 + 1e-12), xtol=1e-13)
    r = 1.0 if b < 2 else 2 / (b + math.sqrt(b * b - 4))
    return brentq(f, 1e-300, r * (1 + 1e-9), xtol=1e-15)


def _ell_scalar(b: float) -> float:
    if abs(b - 1) < 1e-3:
        e = b - 1
        return math.exp(-0.5) * (1 - e * e / 4 + 5 * e**3 / 96)
    a = _alpha_scalar(b)
    return max(abs(math.exp(-a * a / 2) - math.exp(-b * b / 2)) / abs(a - b), b * math.exp(-b * b / 2))


def _D_scalar(b: float) -> float:
    if abs(b - 1) < 1e-3:
        return -(b - 1) / 2
    a = _alpha_scalar(b)
    ka, kb = math.exp(-a * a / 2), math.exp(-b * b / 2)
    return (-a * ka + b * kb) / ((a - b) * (-a * ka))


def kde_radii_scalar(g: float) -> tuple[float, float]:
    """(b1, b2) with D(b1) = g h, D(b2) = -g h (NaN if absent), by nested brentq."""
    b1 = brentq(lambda b: _D_scalar(b) - g, 1e-9, 1 - 1e-9) if g < 1 / _AW else math.nan
    b2 = brentq(lambda b: _D_scalar(b) + g, 1 + 1e-9, 2.5284) if g < 0.3633 else math.nan
    return b1, b2


def scalar_kde(x: tuple[float, float], t: tuple[float, float], h: float, gamma: float,
               radii: tuple[float, float] | None = None) -> float:
    """004 Lemmas 4.6-4.7 (corrected) for one point: brentq for alpha(c) and (unless ``radii`` is
    given, i.e. cached across points) for the stationary radii b1, b2."""
    c = math.hypot(x[0] - t[0], x[1] - t[1]) / h
    g = gamma * h
    b1, b2 = radii if radii is not None else kde_radii_scalar(g)
    best = _ell_scalar(c)
    if not math.isnan(b1) and c < b1:
        best = max(best, _ell_scalar(b1) * math.exp(-g * (b1 - c)))
    if not math.isnan(b2) and b2 < c:
        best = max(best, _ell_scalar(b2) * math.exp(-g * (c - b2)))
    best = max(best, math.exp(-0.5 - g * abs(1 - c)))
    return best / h


def _rate(fn, n: int, repeat: int = 3) -> float:
    """Best-of-``repeat`` points/s on this process's CPU time (single-threaded work, so one core's
    time; on a shared machine wall-clock time would understate the one-core rate)."""
    best = math.inf
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return n / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller n (a smoke run)")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    q = 10 if args.quick else 1
    g = growth_exp(0.8)
    rows = []
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}; rates on process CPU time (one core)")

    n = 10_000_000 // q
    x = rng.normal(0.0, 2.0, n)
    vec = _rate(lambda: smooth_sensitivity_threshold(x, 0.3, 0.5, g), n)
    ns = 100_000 // q
    sca = _rate(lambda: [scalar_threshold(v, 0.3, 0.5, 0.8) for v in x[:ns]], ns, 1)
    ok = np.allclose(smooth_sensitivity_threshold(x[:1000], 0.3, 0.5, g), [scalar_threshold(v, 0.3, 0.5, 0.8) for v in x[:1000]], rtol=1e-14)
    rows.append(("one-way threshold (Lemma 4.1)", n, vec, sca, ok, 3e7))

    n = 2_000_000 // q
    p = rng.normal(0.0, 2.0, (n, 2))
    vec = _rate(lambda: smooth_sensitivity_two_way_threshold(p, 1.0, 0.5, 0.4, g), n)
    ns = 50_000 // q
    sca = _rate(lambda: [scalar_two_way(a, b, 1.0, 0.5, 0.4, 0.8) for a, b in p[:ns]], ns, 1)
    ok = np.allclose(smooth_sensitivity_two_way_threshold(p[:1000], 1.0, 0.5, 0.4, g),
                     [scalar_two_way(a, b, 1.0, 0.5, 0.4, 0.8) for a, b in p[:1000]], rtol=1e-14)
    rows.append(("two-way threshold (Lemma 4.3)", n, vec, sca, ok, 3e6))

    n = 1_000_000 // q
    p = rng.normal(0.0, 1.5, (n, 2))
    t, h, gk = (0.1, -0.2), 0.7, 0.3 / 0.7
    gg = growth_exp(gk)
    smooth_sensitivity_kde(p[:10], t, h, gg)  # warm the partner table and the stationary radii
    vec = _rate(lambda: smooth_sensitivity_kde(p, t, h, gg), n)
    ns = 1000 // q
    sca = _rate(lambda: [scalar_kde(tuple(v), t, h, gk) for v in p[:ns]], ns, 1)
    ok = np.allclose(smooth_sensitivity_kde(p[:200], t, h, gg), [scalar_kde(tuple(v), t, h, gk) for v in p[:200]], rtol=1e-8)
    rows.append(("Gaussian KDE d=2, gamma h=0.3 (Lemmas 4.6-4.7)", n, vec, sca, ok, 5e5))
    radii = kde_radii_scalar(gk * h)
    ns = 10_000 // q
    sca = _rate(lambda: [scalar_kde(tuple(v), t, h, gk, radii) for v in p[:ns]], ns, 1)
    rows.append(("  same, scalar with b1, b2 cached across points", n, vec, sca, ok, 5e5))

    gl = growth_linear(gk)
    nl = 100_000 // q
    smooth_sensitivity_kde(p[:10], t, h, gl)
    vec = _rate(lambda: smooth_sensitivity_kde(p[:nl], t, h, gl), nl, 1)
    rows.append(("Gaussian KDE d=2, g_L extension (nested roots)", nl, vec, math.nan, True, 0.0))

    print(f"{'query':48s} {'n':>10s} {'vectorised pts/s':>17s} {'scalar pts/s':>13s} {'ratio':>8s} {'target':>8s}  agree")
    for name, n, vec, sca, ok, target in rows:
        flag = "-" if not target else ("ok" if vec >= target else "BELOW")
        print(f"{name:48s} {n:10d} {vec:17.3e} {sca:13.3e} {vec / sca:8.0f} {target:8.0e} {flag:5s} {ok}")

    print("\npeak scratch memory of the chunked evaluation (tracemalloc, input and output excluded; "
          "bounded means constant in n):")
    gaussian = lambda P: smooth_sensitivity_kde(P, (0.1, -0.2), 0.7, gg)  # noqa: E731
    gaussian(np.zeros((10, 2)))  # partner table and stationary radii are cached: not scratch of the call
    cases = [
        ("one-way threshold B*", 1, lambda P: smooth_sensitivity_threshold(P, 0.0, 1.0, g)),
        ("two-way threshold B*", 2, lambda P: smooth_sensitivity_two_way_threshold(P, 1.0, 0.5, 0.4, g)),
        ("Gaussian KDE d=2 B* (g_E)", 2, gaussian),
        ("Gaussian KDE d=2 L", 2, lambda P: lipschitz_kde(P, (0.1, -0.2), 0.7)),
        ("Gaussian kernel d=2 f", 2, lambda P: gaussian_kernel(P, (0.1, -0.2), 0.7)),
    ]
    sizes = sorted({10**5, 10**6, 4 * 10**6 // q, 10**7 // q})
    for name, d, fn in cases:
        for n in sizes:
            xm = rng.normal(size=n) if d == 1 else rng.normal(size=(n, d))
            tracemalloc.start()
            out = fn(xm)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            print(f"  {name:28s} n = {n:>9d}: peak {peak / 2**20:8.2f} MiB, output {out.nbytes / 2**20:8.2f} MiB, "
                  f"scratch {(peak - out.nbytes) / 2**20:6.2f} MiB")
            del out, xm


if __name__ == "__main__":
    main()
