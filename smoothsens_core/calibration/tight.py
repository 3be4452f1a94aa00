"""Tight calibration: the exact privacy-loss rate of smooth-sensitivity noise (issue 9).

Setting (004 Def. 8, Lemmas 3.3, 3.5; 002 Thm. 8).  M(x) = f(x) + (B(x)/eta) Z with Z = sigma Z1,
Z1 a standardised symmetric density h (sigma = ``noise.scale``; write eta1 = eta/sigma so that
M(x) = f(x) + (B(x)/eta1) Z1).  The adversary may pick any pair x, x' at distance d with

    |ln B(x) - ln B(x')| <= gamma d     and     |f(x) - f(x')| <= min(B(x), B(x')) d.

Privacy loss at the output y:  L = ln p_x(y) - ln p_x'(y),  p_x(y) = (eta1/B(x)) h((y - f(x)) eta1/B(x)).

Infinitesimal rate (Geo-Privacy, any distance).  Write l(y; f, b) = ln eta1 - b + ln h(z) with
b = ln B and z = (y - f) eta1 e^(-b), psi = (ln h)'.  Then

    dl/df = -eta1 e^(-b) psi(z),        dl/db = -(1 + z psi(z)),

and along any path with |db/dt| <= gamma, |df/dt| <= B(t):

    |dl/dt| <= eta1 |psi(z)| + gamma |1 + z psi(z)| =: F(z).

Every allowed pair is joined by such a path (b linear from ln B(x') to ln B(x), f moving at speed
min(B) <= B(t)), so L <= d sup_z F(z) at every distance d, and the bound is approached as d -> 0 at
the maximiser z* with the signs of the shift and of the scale change aligned.  Hence

    eps_tight(GP) = sup_{z >= 0} F(z) = sup_z [eta1 |psi(z)| + gamma |1 + z psi(z)|]

exactly (h symmetric: z >= 0 suffices).  The printed lemmas bound the two terms separately,
eta1 sup|psi| + gamma sup|1 + z psi|, whose maximisers differ; that is the slack.

Finite distance d = 1 (Hamming metric, DP).  Normalising B(x') = 1, B(x) = e^r (|r| <= gamma),
f(x') = 0, f(x) = Delta (|Delta| <= min(e^r, 1)), and maximising over Delta in closed form (ln h is
symmetric and decreasing in |z|, so the best Delta moves y - Delta towards 0):

    eps_tight(DP) = sup_{|r| <= gamma, y >= 0}  G(r, y),
    G(r, y) = -r + ln h(eta1 e^(-r) max(y - min(e^r, 1), 0)) - ln h(eta1 y)     (<= eps_tight(GP)).

Certification (no derivative bounds needed).  The families here have t1 = |psi| and
t2 = |1 + z psi| piecewise monotone with known breakpoints; on a grid containing the breakpoints
each term is monotone on every cell, so sup_cell F <= eta1 max(t1(a), t1(b)) + gamma max(t2(a), t2(b)).
Beyond the last breakpoint t1 decreases and t2 increases to its limit t2(inf).  For G, every part is
monotone in each variable: on [r_a, r_b] x [y_a, y_b],
G <= -r_a + ln h(eta1 e^(-r_b) max(y_a - min(e^(r_b), 1), 0)) - ln h(eta1 y_b); for y >= Y the
polynomial tail h ~ |z|^(-k) gives G <= -r_a + k max(0, r_b - ln(1 - 1/Y)).  Cells whose bound exceeds
the best attained value are bisected until the gap is below ``rtol``.  The returned ``upper`` is
a certified upper bound (up to a relative 1e-12 margin for floating-point rounding, added), and
``lower`` a value attained by a concrete (z) or (r, Delta, y) witness.

Families: Student's t T_nu (any nu > 0), GenCauchy(p > 1, theta > 0), PolyPlace(s, alpha), and
Laplace (rate infinite: |1 + z psi| = |1 - z| is unbounded, so no pure guarantee; the approximate
Lemma 3.6 case is not covered here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .._validation import check_positive

__all__ = ["TightResult", "tight_epsilon", "tight_eta", "tight_calibration", "TightCalibration", "tight_table",
           "format_tight_table", "optimise_tight"]

_MARGIN = 1e-12  # relative margin added to certified upper bounds (floating-point rounding)


@dataclass(frozen=True)
class _Shape:
    """The standardised density in the form the certifier needs (z >= 0)."""

    name: str
    logh: Callable[[np.ndarray], np.ndarray]  # ln h up to an additive constant, z >= 0
    t1: Callable[[np.ndarray], np.ndarray]  # |psi(z)|
    t2: Callable[[np.ndarray], np.ndarray]  # |1 + z psi(z)|
    breaks: tuple[float, ...]  # t1, t2 monotone between these; beyond the last t1 decr., t2 incr.
    t2_limit: float  # lim_{z -> inf} t2 (= sup of t2 beyond the last breakpoint)
    k_tail: float  # h(z) ~ z^(-k) as z -> inf
    tail_from: float  # the tail form (and the DP tail bound) holds for z >= tail_from


def _shape_of(noise: Any) -> tuple[_Shape, float]:
    """(_Shape of the standardised noise, its scale sigma) for a smoothsens distribution object."""
    from .. import distributions as D

    if getattr(noise, "loc", 0.0) != 0.0:
        raise ValueError(f"noise must be centred (loc=0); got loc={noise.loc!r}")
    if isinstance(noise, D.StudentT):
        nu = float(noise.nu)
        shape = _Shape(
            name=f"StudentT(nu={nu:g})",
            logh=lambda z: -(nu + 1.0) / 2.0 * np.log1p(z * z / nu),
            t1=lambda z: (nu + 1.0) * z / (nu + z * z),
            # 1 + z psi = nu (1 - z^2)/(nu + z^2)
            t2=lambda z: nu * np.abs(1.0 - z * z) / (nu + z * z),
            breaks=(1.0, math.sqrt(nu)),
            t2_limit=nu,
            k_tail=nu + 1.0,
            tail_from=0.0,
        )
        return shape, float(noise.scale)
    if isinstance(noise, D.GenCauchy):
        p, th = float(noise.p), float(noise.theta)
        if not p > 1.0:
            raise ValueError(f"tight calibration needs GenCauchy p > 1 (psi unbounded at 0 otherwise); got p={p!r}")
        a = p * th - 1.0

        # log space: z^p overflows for large z and p; L = ln(1 + z^p) = logaddexp(0, p ln z)
        def _lz(z: np.ndarray) -> np.ndarray:
            with np.errstate(divide="ignore"):
                return np.log(z)

        def t1(z: np.ndarray) -> np.ndarray:
            lz = _lz(z)
            return th * p * np.exp((p - 1.0) * lz - np.logaddexp(0.0, p * lz))

        def t2(z: np.ndarray) -> np.ndarray:
            # 1 + z psi = (1 - (p theta - 1) z^p)/(1 + z^p) = w - a (1 - w),  w = 1/(1 + z^p)
            w = np.exp(-np.logaddexp(0.0, p * _lz(z)))
            return np.abs(w - a * (1.0 - w))

        brk = [(p - 1.0) ** (1.0 / p)]
        if a > 0:
            brk.append(a ** (-1.0 / p))
        shape = _Shape(f"GenCauchy(p={p:g}, theta={th:g})", lambda z: -th * np.logaddexp(0.0, p * _lz(z)), t1, t2,
                       tuple(sorted(brk)), t2_limit=abs(a), k_tail=p * th, tail_from=0.0)
        return shape, float(noise.scale)
    if isinstance(noise, D.PolyPlace):
        al = float(noise.alpha)
        knee = 1.0 / al
        c_out = math.log(al + 1.0) + al * math.log1p(-1.0 / (al * al)) - math.log(al - 1.0)

        def logh(z: np.ndarray) -> np.ndarray:
            # 002 Def. 6 at s = 1, divided by N (al - 1): inner (1 - z)^(al-1); outer with its constant
            with np.errstate(divide="ignore", invalid="ignore"):
                inner = (al - 1.0) * np.log1p(-np.minimum(z, knee))
                outer = c_out - (al + 1.0) * np.log1p(z)
            return np.where(z < knee, inner, outer)

        def t1(z: np.ndarray) -> np.ndarray:
            with np.errstate(divide="ignore"):
                return np.where(z < knee, (al - 1.0) / (1.0 - np.minimum(z, knee)), (al + 1.0) / (1.0 + z))

        def t2(z: np.ndarray) -> np.ndarray:
            with np.errstate(divide="ignore", invalid="ignore"):
                inner = (1.0 - al * z) / (1.0 - np.minimum(z, knee))
                outer = (al * z - 1.0) / (1.0 + z)
            return np.abs(np.where(z < knee, inner, outer))

        shape = _Shape(f"PolyPlace(alpha={al:g})", logh, t1, t2, (knee,), t2_limit=al, k_tail=al + 1.0,
                       tail_from=knee)
        return shape, float(noise.s)
    if isinstance(noise, D.Laplace):
        return _Shape("Laplace", lambda z: -z, lambda z: np.ones_like(z), lambda z: np.abs(1.0 - z), (1.0,),
                      t2_limit=math.inf, k_tail=math.inf, tail_from=0.0), float(noise.scale)
    raise TypeError(f"noise must be a StudentT, GenCauchy, PolyPlace or Laplace object; got {type(noise).__name__}")


@dataclass(frozen=True)
class TightResult:
    """Outcome of :func:`tight_epsilon`.

    ``upper``    certified upper bound on sup (privacy loss)/dist (never below the truth).
    ``lower``    a value attained by ``witness`` (so the truth is in [lower, upper]).
    ``witness``  GP: {"z": standardised output}; DP: {"r": ln B(x)/B(x'), "shift": Delta, "y": output}
                 for B(x') = 1, f(x') = 0 (with eta1 = eta / noise scale, see the module docstring).
    ``metric``   "gp" (infinitesimal rate, every distance) or "dp" (Hamming, d = 1).
    """

    upper: float
    lower: float
    witness: dict[str, float]
    metric: str
    noise: str
    gamma: float
    eta: float
    cells: int

    @property
    def eps(self) -> float:
        return self.upper


def _check_metric(metric: str) -> str:
    if metric not in ("gp", "dp"):
        raise ValueError(f"metric must be 'gp' or 'dp'; got metric={metric!r}")
    return metric


def _gp_rate(shape: _Shape, gamma: float, eta1: float, rtol: float, max_rounds: int = 40,
             max_cells: int = 400_000) -> TightResult:
    F = lambda z: eta1 * shape.t1(z) + gamma * shape.t2(z)  # noqa: E731
    zmax = 1e8 * (1.0 + max(shape.breaks))
    pts = np.unique(np.concatenate([[0.0], np.geomspace(1e-9, zmax, 4000), np.array(shape.breaks)]))
    # tail z >= zmax: t1 decreasing, t2 increasing to its limit
    tail_up = eta1 * float(shape.t1(np.array([zmax]))[0]) + gamma * shape.t2_limit
    tail_lo = gamma * shape.t2_limit  # approached as z -> inf
    a, b = pts[:-1], pts[1:]
    best_val, best_z = tail_lo, math.inf
    up_global = tail_up  # max of the bounds of the settled cells (and of the tail)
    cells = a.size
    t = np.linspace(0.0, 1.0, 9)
    for rnd in range(max_rounds):
        fa, fb = F(a), F(b)
        i = int(np.argmax(np.maximum(fa, fb)))
        v = float(max(fa[i], fb[i]))
        if v > best_val:
            best_val, best_z = v, float(a[i] if fa[i] >= fb[i] else b[i])
        ub = eta1 * np.maximum(shape.t1(a), shape.t1(b)) + gamma * np.maximum(shape.t2(a), shape.t2(b))
        if np.isnan(ub).any() or np.isnan(fa).any() or np.isnan(fb).any():
            raise RuntimeError(f"tight rate of {shape.name}: NaN in the cell bounds (gamma={gamma!r}, eta={eta1!r})")
        settled = ub <= best_val * (1.0 + rtol)
        if np.any(settled):
            up_global = max(up_global, float(ub[settled].max()))
        a, b, ub = a[~settled], b[~settled], ub[~settled]
        if a.size == 0:
            break
        # flat maxima (PolyPlace: F is constant, 002 Lemma 12) never settle: stop at the round or cell
        # budget; the bound stays certified, the gap upper - lower is reported
        if rnd == max_rounds - 1 or a.size > max_cells:
            up_global = max(up_global, float(ub.max()))
            break
        # split in 8 only the cells in the top half of the remaining gap; keep the others as they are
        split = ub > best_val + 0.5 * (float(ub.max()) - best_val)
        sa, sb = a[split], b[split]
        sub = sa[:, None] + (sb - sa)[:, None] * t[None, :]
        a = np.concatenate([a[~split], sub[:, :-1].ravel()])
        b = np.concatenate([b[~split], sub[:, 1:].ravel()])
        cells += 8 * sa.size
    upper = max(up_global, best_val) * (1.0 + _MARGIN)
    return TightResult(upper, best_val, {"z": best_z}, "gp", shape.name, gamma, eta1, cells)


def _dp_G(shape: _Shape, eta1: float, r: np.ndarray, y: np.ndarray) -> np.ndarray:
    w = np.maximum(y - np.minimum(np.exp(r), 1.0), 0.0)
    return -r + shape.logh(eta1 * np.exp(-r) * w) - shape.logh(eta1 * y)


def _dp_rate(shape: _Shape, gamma: float, eta1: float, rtol: float, max_rounds: int = 40,
             max_cells: int = 150_000) -> TightResult:
    if not math.isfinite(shape.k_tail):
        return TightResult(math.inf, math.inf, {}, "dp", shape.name, gamma, eta1, 0)
    # y range: the polynomial tail form holds once eta1 e^-gamma (y - 1) >= tail_from; Y far beyond
    Y = max(1e7, 1e7 * (1.0 + shape.tail_from / (eta1 * math.exp(-gamma)) + 1.0 / eta1))
    k = shape.k_tail
    r_edges = np.linspace(-gamma, gamma, 17)
    y_edges = np.unique(np.concatenate([[0.0], np.geomspace(1e-6, Y, 240), [1.0], np.exp(r_edges)]))
    y_edges = y_edges[y_edges <= Y]
    RA, YA = np.meshgrid(r_edges[:-1], y_edges[:-1], indexing="ij")
    RB, YB = np.meshgrid(r_edges[1:], y_edges[1:], indexing="ij")
    ra, rb, ya, yb = RA.ravel(), RB.ravel(), YA.ravel(), YB.ravel()
    # tail y >= Y for each r cell: G <= -r_a + k max(0, r_b - ln(1 - 1/Y)) (module docstring)
    tail_up = float(np.max(-r_edges[:-1] + k * np.maximum(0.0, r_edges[1:] - math.log1p(-1.0 / Y))))
    # its attained counterpart: G(gamma, y) -> (k - 1) gamma as y -> inf (a supremum approached in
    # the limit, hence a valid lower bound of the sup); witness y = inf
    best_val = (k - 1.0) * gamma
    best_w = {"r": gamma, "y": math.inf}
    up_global = tail_up
    cells = ra.size
    for rnd in range(max_rounds):
        # attained values at the cell corners
        for rr, yy in ((ra, ya), (rb, yb), (ra, yb), (rb, ya)):
            g = _dp_G(shape, eta1, rr, yy)
            j = int(np.argmax(g))
            if g[j] > best_val:
                best_val, best_w = float(g[j]), {"r": float(rr[j]), "y": float(yy[j])}
        w = np.maximum(ya - np.minimum(np.exp(rb), 1.0), 0.0)
        ub = -ra + shape.logh(eta1 * np.exp(-rb) * w) - shape.logh(eta1 * yb)
        if np.isnan(ub).any():
            raise RuntimeError(f"tight d=1 loss of {shape.name}: NaN in the cell bounds (gamma={gamma!r}, eta={eta1!r})")
        settled = ub <= best_val + rtol * abs(best_val)
        if np.any(settled):
            up_global = max(up_global, float(ub[settled].max()))
        ra, rb, ya, yb, ub = ra[~settled], rb[~settled], ya[~settled], yb[~settled], ub[~settled]
        if ra.size == 0:
            break
        # stop at the round / cell budget (flat maxima, e.g. PolyPlace): the bound is then still
        # certified, only looser (upper - lower reported)
        if rnd == max_rounds - 1 or ra.size > max_cells:
            up_global = max(up_global, float(ub.max()))
            break
        split = ub > best_val + 0.5 * (float(ub.max()) - best_val)
        keep = ~split
        sra, srb, sya, syb = ra[split], rb[split], ya[split], yb[split]
        rm, ym = (sra + srb) / 2.0, (sya + syb) / 2.0
        ra = np.concatenate([ra[keep], sra, rm, sra, rm])
        rb = np.concatenate([rb[keep], rm, srb, rm, srb])
        ya = np.concatenate([ya[keep], sya, sya, ym, ym])
        yb = np.concatenate([yb[keep], ym, ym, syb, syb])
        cells += 4 * sra.size
    r = best_w["r"]
    shift = min(math.exp(r), 1.0, best_w["y"])
    witness = {"r": r, "shift": shift, "y": best_w["y"]}
    upper = max(up_global, best_val) * (1.0 + _MARGIN) + 1e-15
    return TightResult(upper, best_val, witness, "dp", shape.name, gamma, eta1, cells)


def tight_epsilon(noise: Any, gamma: float, eta: float, metric: str = "gp", *, rtol: float | None = None) -> TightResult:
    """The exact worst case of (privacy loss)/dist of M(x) = f(x) + (B(x)/eta) Z (module docstring).

    ``noise`` is a centred StudentT, GenCauchy, PolyPlace or Laplace object (its scale is folded into
    eta), ``gamma`` the g_E growth parameter of B, ``eta`` the noise divisor.  ``metric="gp"``: the
    infinitesimal rate sup_z [eta1 |psi(z)| + gamma |1 + z psi(z)|], valid at every distance;
    ``metric="dp"``: the d = 1 (Hamming) worst case sup_{r, y} G(r, y).  Returns a
    :class:`TightResult` whose ``upper`` is certified (never below the truth) and ``lower`` attained,
    with upper - lower <= rtol |lower| (up to the rounding margin) when the refinement settles
    (default rtol 1e-9 for "gp", 1e-5 for "dp"; for "dp" the refinement stops at a cell budget and
    the gap can then be larger: it is what ``upper - lower`` says).
    """
    gamma = check_positive("gamma", gamma)
    eta = check_positive("eta", eta)
    metric = _check_metric(metric)
    rtol = (1e-9 if metric == "gp" else 1e-5) if rtol is None else check_positive("rtol", rtol)
    shape, sigma = _shape_of(noise)
    eta1 = eta / sigma
    if shape.name == "Laplace":
        return TightResult(math.inf, math.inf, {"z": math.inf}, metric, shape.name, gamma, eta1, 0)
    gp = _gp_rate(shape, gamma, eta1, rtol if metric == "gp" else min(rtol, 1e-9))
    if metric == "gp":
        return gp
    dp = _dp_rate(shape, gamma, eta1, rtol)
    # the GP rate bounds the loss at every distance (path argument), so also at d = 1
    if gp.upper < dp.upper:
        return TightResult(gp.upper, dp.lower, dp.witness, "dp", dp.noise, gamma, eta1, dp.cells + gp.cells)
    return dp


def tight_eta(noise_shape: Any, gamma: float, eps: float, metric: str = "gp", *, rtol: float | None = None,
              xtol: float | None = None) -> float:
    """The largest eta (least noise) with certified tight_epsilon(noise, gamma, eta).upper <= eps.

    The rate is a supremum of functions nondecreasing in eta, so it is nondecreasing in eta: bisection.
    Raises ValueError when even eta -> 0 exceeds eps (gamma too large: the scale term alone,
    gamma sup|1 + z psi|, is the eta -> 0 limit of the GP rate)."""
    eps = check_positive("eps", eps)
    gamma = check_positive("gamma", gamma)
    metric = _check_metric(metric)
    xtol = (1e-12 if metric == "gp" else 1e-6) if xtol is None else check_positive("xtol", xtol)
    f = lambda e: tight_epsilon(noise_shape, gamma, e, metric, rtol=rtol).upper  # noqa: E731
    lo = 1e-12 * eps
    if not f(lo) < eps:
        shape, _ = _shape_of(noise_shape)
        raise ValueError(
            f"gamma must be < eps / sup|1 + z psi| = eps/{shape.t2_limit if shape.t2_limit > 1 else 1.0:g} "
            f"for {shape.name} (the scale term alone exceeds eps); got gamma={gamma!r}, eps={eps!r}"
        )
    hi = max(1.0, eps)
    while f(hi) <= eps:
        lo, hi = hi, 2.0 * hi
    from scipy.optimize import brentq

    # Brent on the certified rate, then make sure the returned eta satisfies the certified bound
    root = brentq(lambda e: f(e) - eps, lo, hi, xtol=xtol * hi * 1e-3, rtol=xtol)
    eta = root
    for _ in range(60):
        if f(eta) <= eps:
            return eta
        eta *= 1.0 - xtol
    return lo


@dataclass(frozen=True)
class TightCalibration:
    """Printed vs tight calibration of one mechanism at (eps, gamma).

    ``printed``     the :class:`~smoothsens_core.calibration.Calibration` of the printed lemma.
    ``eps_tight_at_printed_eta``  certified tight eps at the printed eta (``lower`` attained).
    ``eta_tight``   the largest eta whose certified tight rate is <= eps (= the printed eta when the
                    printed calibration is already tight, ``already_tight``).
    ``std_tight``   noise std per unit B at eta_tight;  ``std_saved`` = 1 - std_tight / printed std
                    (None when the noise has no finite variance).
    """

    printed: Any
    metric: str
    eps_tight_at_printed_eta: float
    eps_tight_lower: float
    eta_tight: float
    std_tight: float
    std_saved: float | None
    already_tight: bool
    note: str = ""


def tight_calibration(printed: Any, metric: str = "gp", *, rtol: float | None = None) -> TightCalibration:
    """The tight counterpart of a printed calibration (same noise shape, eps and gamma).

    If the attained rate at the printed eta already equals the printed eps (to 1e-9 relative; the
    PolyPlace case, where 002 Lemma 12 makes the rate constant), the printed calibration is tight:
    no larger eta is admissible and ``eta_tight`` is the printed eta."""
    metric = _check_metric(metric)
    at = tight_epsilon(printed.noise, printed.gamma, printed.eta, metric, rtol=rtol)
    sd = float(printed.noise.std())
    if at.lower >= printed.eps * (1.0 - 1e-9):
        return TightCalibration(
            printed, metric, at.upper, at.lower, printed.eta, printed.noise_std, 0.0 if math.isfinite(sd) else None,
            True, f"already tight: attained rate {at.lower:.12g} = printed eps (certified upper {at.upper:.12g})",
        )
    eta_t = tight_eta(printed.noise, printed.gamma, printed.eps, metric, rtol=rtol)
    std_t = sd / eta_t if math.isfinite(sd) else math.inf
    # the saving is undefined (None) when the noise has no finite variance
    saved = 1.0 - std_t / printed.noise_std if math.isfinite(std_t) and math.isfinite(printed.noise_std) else None
    return TightCalibration(printed, metric, at.upper, at.lower, eta_t, std_t, saved, False)


def tight_table(eps: float, gamma: float | None = None, metric: str = "gp") -> list[dict[str, Any]]:
    """Printed vs tight calibrations at a common gamma (default eps/9, 004 Sec. 5), as dicts.

    Rows: Student's t nu = 3 (004 Sec. 5) and nu = 4 (004 Remark), GenCauchy(4, 1) (004 Lemma 3.3),
    PolyPlace (002 Thm. 8).  Keys: family, source, gamma, eps_printed, eps_tight (certified, at the
    printed eta), eta_printed, eta_tight, std_printed, std_tight, std_saved, note / error."""
    from . import DEFAULT_GAMMA_FRACTION, calibrate_gencauchy, calibrate_polyplace, calibrate_student_t

    eps = check_positive("eps", eps)
    metric = _check_metric(metric)
    g = DEFAULT_GAMMA_FRACTION * eps if gamma is None else check_positive("gamma", gamma)
    makers = [
        ("Student t(nu=3)", lambda: calibrate_student_t(eps, g, 3.0, metric=metric)),
        ("Student t(nu=4)", lambda: calibrate_student_t(eps, g, 4.0, metric=metric)),
        ("GenCauchy(p=4, theta=1)", lambda: calibrate_gencauchy(eps, g, 4.0, 1.0, metric=metric)),
        ("PolyPlace", lambda: calibrate_polyplace(eps, g, metric=metric)),
    ]
    rows = []
    for label, mk in makers:
        row: dict[str, Any] = {"family": label, "gamma": g, "metric": metric}
        try:
            cal = mk()
            tc = tight_calibration(cal, metric)
        except ValueError as exc:
            row.update(source="", eps_printed=None, eps_tight=None, eta_printed=None, eta_tight=None,
                       std_printed=None, std_tight=None, std_saved=None, note="", error=str(exc))
            rows.append(row)
            continue
        row.update(source=cal.source, eps_printed=cal.eps, eps_tight=tc.eps_tight_at_printed_eta,
                   eta_printed=cal.eta, eta_tight=tc.eta_tight, std_printed=cal.noise_std, std_tight=tc.std_tight,
                   std_saved=tc.std_saved, note=tc.note, error="")
        rows.append(row)
    return rows


def format_tight_table(rows: list[dict[str, Any]]) -> str:
    """The rows of :func:`tight_table` as aligned text columns."""
    cols = [("family", "family"), ("source", "source"), ("eps_printed", "eps printed"),
            ("eps_tight", "eps tight (same eta)"), ("eta_printed", "eta printed"), ("eta_tight", "eta tight"),
            ("std_printed", "std printed"), ("std_tight", "std tight"), ("std_saved", "std saved")]

    def cell(r: dict[str, Any], k: str) -> str:
        v = r.get(k)
        if r.get("error") and k == "source":
            return "infeasible (see note)"
        if v is None:
            return "-"
        if k == "std_saved":
            return f"{100.0 * v:.2f}%"
        if isinstance(v, float):
            return "inf" if math.isinf(v) else f"{v:.6g}"
        return str(v)

    table = [[cell(r, k) for k, _ in cols] for r in rows]
    widths = [max(len(h), *(len(line[i]) for line in table)) for i, (_, h) in enumerate(cols)]
    out = ["  ".join(h.ljust(w) if i < 2 else h.rjust(w) for i, ((_, h), w) in enumerate(zip(cols, widths)))]
    out.append("  ".join("-" * w for w in widths))
    for line in table:
        out.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths))))
    notes = [f"  {r['family']}: {r['error'] or r['note']}" for r in rows if r.get("error") or r.get("note")]
    if notes:
        out += ["", "notes:", *notes]
    return "\n".join(out)


def optimise_tight(family: str, eps: float, gamma: float, metric: str = "gp", *, theta: float = 1.0) -> TightCalibration:
    """The shape parameter minimising the noise std under the *tight* calibration at (eps, gamma).

    ``family`` "student_t" (free nu > 2) or "gencauchy" (free p, with p theta > 3; ``theta`` fixed).
    For each shape the largest admissible eta is :func:`tight_eta`; the std per unit B is
    std(Z)/eta_tight.  Search: a coarse log-spaced grid of the shape, then bounded Brent in the best
    bracket (never worse than the grid's best point).  Returns the :class:`TightCalibration` of the
    printed calibration at the optimal shape (so ``std_saved`` compares at the same shape)."""
    from scipy.optimize import minimize_scalar

    from .. import distributions as D
    from . import calibrate_gencauchy, calibrate_student_t

    eps = check_positive("eps", eps)
    gamma = check_positive("gamma", gamma)
    metric = _check_metric(metric)
    if family == "student_t":
        lo, hi = 2.0, eps / gamma  # nu > 2 (finite std), nu gamma < eps (the eta -> 0 limit is nu gamma)
        make = lambda v: D.StudentT(v)  # noqa: E731
    elif family == "gencauchy":
        lo = max(1.0, 3.0 / theta)  # p > 1 and p theta > 3
        hi = (eps / gamma + 1.0) / theta  # max(1, p theta - 1) gamma < eps
        make = lambda v: D.GenCauchy(v, theta)  # noqa: E731
    else:
        raise ValueError(f"family must be 'student_t' or 'gencauchy'; got family={family!r}")
    if not hi > lo:
        raise ValueError(f"gamma must be < eps/{lo + (0 if family == 'student_t' else -1):g} for a finite noise std "
                         f"of family={family!r}; got gamma={gamma!r}, eps={eps!r}")

    def std(v: float) -> float:
        noise = make(v)
        try:
            e = tight_eta(noise, gamma, eps, metric, xtol=1e-8)  # the optimum is flat: 1e-8 is plenty
        except ValueError:
            return math.inf
        sd = float(noise.std())
        return sd / e if math.isfinite(sd) else math.inf

    us = np.linspace(math.log((hi - lo) * 1e-4), math.log((hi - lo) * (1 - 1e-6)), 12)
    vals = [std(lo + math.exp(u)) for u in us]
    i = int(np.argmin(vals))
    best_u, best_v = us[i], vals[i]
    a, b = us[max(i - 1, 0)], us[min(i + 1, len(us) - 1)]
    res = minimize_scalar(lambda u: std(lo + math.exp(u)), bounds=(a, b), method="bounded", options={"xatol": 1e-3})
    if float(res.fun) <= best_v:
        best_u = float(res.x)
    v = lo + math.exp(best_u)
    printed = calibrate_student_t(eps, gamma, v) if family == "student_t" else calibrate_gencauchy(eps, gamma, v, theta)
    return tight_calibration(printed, metric)
