"""Calibration for any noise family: the smallest noise scale whose guarantee is certified.

Models (Z the standardised noise of the family):

* :class:`ShiftModel` -- the release f(x) + s Z with (global) sensitivity Delta.  The worst pair is
  P = law(Z), Q = law(Z + Delta/s) (c = 1, m = Delta/s).  The scale calibrated is s.
* :class:`SmoothModel` -- the smooth-sensitivity release of :mod:`smoothsens_core.calibration`,
  f(x) + (B(x)/eta) Z with B an upper bound on the local sensitivity that is e^gamma-smooth
  (B(x) <= e^(gamma d(x, x')) B(x')).  For neighbours the pair is P = law(Z), Q = law(c Z + m) with
  c = B(x')/B(x) in [e^-gamma, e^gamma] and |m| = eta |f(x) - f(x')|/B(x) <= eta (Bun & Steinke 2019's
  "t" and "s" are gamma and eta).  The scale calibrated is 1/eta, the noise per unit of B.

Targets: :class:`RdpTarget` ((alpha, eps)-RDP: D_alpha <= eps), :class:`ZcdpTarget` (rho-zCDP:
D_alpha <= rho alpha), :class:`ApproxDpTarget` ((eps, delta)-DP through the RDP curve and Canonne,
Kamath & Steinke 2020, Prop. 12) and :class:`PureDpTarget` (eps-DP; closed forms only: Laplace and
Gaussian under the shift model).

What "CERTIFIED" covers.  At the returned scale every divergence used is the certified upper end of an
enclosure (:func:`verify.accounting.renyi.renyi_pair_enclosure`, or a closed form), at the pairs listed
in the result (``pairs``): the shift Delta/s (shift model) or the grid (c, m) with c in {e^-gamma, 1,
e^gamma} and m in {eta/2, eta} (smooth model; m >= 0 suffices for a symmetric family, Z -> -Z).  That these pairs are the worst of the model (D_alpha
nondecreasing in |m|, extreme at the ends of the c range) is proven for the Gaussian shift (closed form,
increasing in m) and is an *assumption* for other families, stated in ``assumptions``.  A zCDP guarantee
from finitely many orders holds for alpha <= ``alpha_max`` (monotonicity of D_alpha in alpha bounds the
gaps, :func:`~verify.accounting.renyi.zcdp_rho_upper`); beyond it, only where a closed form or a pure-DP
bound covers every alpha, which ``scope`` says.  Anything the checks cannot certify is INCONCLUSIVE with the
reason, never a scale.

The search: the scale is bracketed by factors ``growth`` (default 2) from ``scale_hint`` and bisected on ln(scale) to the relative
tolerance ``rtol``; the scale returned is the smallest bracket end that passed the certified check (the
checks' cost is a few ball-arithmetic enclosures per step).  Monotonicity of the divergences in the scale is
used only to search, never for the guarantee: the returned scale is itself checked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Union

from smoothsens_core.distributions import ContinuousDistribution, Gaussian, Laplace
from smoothsens_core.validation import check_greater, check_in_interval, check_positive

from .renyi import (
    DEFAULT_ORDERS,
    ball_form_for,
    rdp_to_delta,
    register_ball_form,
    renyi_pair_enclosure,
    zcdp_rho_upper,
)

__all__ = [
    "ShiftModel",
    "SmoothModel",
    "RdpTarget",
    "ZcdpTarget",
    "ApproxDpTarget",
    "PureDpTarget",
    "CalibrationResult",
    "register_family",
    "calibrate_scale",
    "certify_scale",
    "CALIBRATION_ORDERS",
]

#: Orders used for zCDP and (eps, delta) targets of a family without a closed form (each costs one
#: enclosure per pair and per search step).
CALIBRATION_ORDERS: tuple[float, ...] = (1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0)


# ---- models and targets --------------------------------------------------------------------------
@dataclass(frozen=True)
class ShiftModel:
    """f(x) + s Z with sensitivity ``sensitivity`` = Delta > 0; the pair (c, m) = (1, Delta/s)."""

    sensitivity: float = 1.0

    def __post_init__(self) -> None:
        check_positive("sensitivity", self.sensitivity)

    def pairs(self, scale: float) -> tuple[tuple[float, float], ...]:
        return ((1.0, self.sensitivity / scale),)

    def describe(self) -> str:
        return f"shift model, sensitivity {self.sensitivity:g}"


@dataclass(frozen=True)
class SmoothModel:
    """f(x) + (B(x)/eta) Z with B e^gamma-smooth; scale = 1/eta; pairs c in {e^-gamma, 1, e^gamma},
    m in {eta/2, eta} (module docstring)."""

    gamma: float

    def __post_init__(self) -> None:
        check_positive("gamma", self.gamma)

    def pairs(self, scale: float) -> tuple[tuple[float, float], ...]:
        eta = 1.0 / scale
        cs = (math.exp(-self.gamma), 1.0, math.exp(self.gamma))
        return tuple((c, m) for c in cs for m in (eta / 2, eta))

    def describe(self) -> str:
        return f"smooth-sensitivity model, gamma {self.gamma:g} (scale = 1/eta)"


@dataclass(frozen=True)
class RdpTarget:
    """(alpha, eps)-RDP: D_alpha <= eps at every pair (Mironov 2017, Def. 4)."""

    alpha: float
    eps: float

    def __post_init__(self) -> None:
        check_greater("alpha", self.alpha, 1.0)
        check_positive("eps", self.eps)


@dataclass(frozen=True)
class ZcdpTarget:
    """rho-zCDP: D_alpha <= rho alpha for every alpha > 1 (Bun & Steinke 2016, Def. 1.1)."""

    rho: float

    def __post_init__(self) -> None:
        check_positive("rho", self.rho)


@dataclass(frozen=True)
class ApproxDpTarget:
    """(eps, delta)-DP, certified through the RDP curve and CKS 2020 Prop. 12."""

    eps: float
    delta: float

    def __post_init__(self) -> None:
        check_positive("eps", self.eps)
        check_in_interval("delta", self.delta, 0.0, 1.0)


@dataclass(frozen=True)
class PureDpTarget:
    """eps-DP (closed forms only: Laplace, and the Gaussian's infeasibility, under the shift model)."""

    eps: float

    def __post_init__(self) -> None:
        check_positive("eps", self.eps)


Target = Union[RdpTarget, ZcdpTarget, ApproxDpTarget, PureDpTarget]
Model = Union[ShiftModel, SmoothModel]


@dataclass(frozen=True)
class CalibrationResult:
    """``status`` "CERTIFIED" (``scale`` is certified for ``target`` at ``pairs``, within ``scope``, and the
    pairs are proven the worst of the model), "CONDITIONAL" (certified at ``pairs`` within ``scope``, but
    that they are the worst pairs is an unproven ``assumptions``: not a guarantee for the mechanism) or
    "INCONCLUSIVE" (``scale`` None, ``reason`` says why)."""

    status: str
    scale: float | None
    target: Any
    model: Any
    family: str
    value: float = math.nan
    reason: str = ""
    pairs: tuple[tuple[float, float], ...] = ()
    scope: str = ""
    assumptions: tuple[str, ...] = field(default_factory=tuple)

    @property
    def certified(self) -> bool:
        """True only for a guarantee of the mechanism: certified at the pairs, and the pairs proven worst."""
        return self.status == "CERTIFIED"

    @property
    def certified_at_pairs(self) -> bool:
        """True when the target is certified at the listed pairs (CERTIFIED or CONDITIONAL)."""
        return self.status in ("CERTIFIED", "CONDITIONAL")

    def describe(self) -> str:
        if not self.certified_at_pairs:
            return f"INCONCLUSIVE for {self.family} ({self.model.describe()}): {self.reason}"
        if self.assumptions:
            return (f"CONDITIONAL: {self.family}, {self.model.describe()}, scale {self.scale:.10g} meets {self.target} "
                    f"at the listed pairs only (certified value {self.value:.10g}; {self.scope}); not a guarantee "
                    f"for the mechanism: assumes {'; '.join(self.assumptions)}")
        return (f"CERTIFIED: {self.family}, {self.model.describe()}, scale {self.scale:.10g} meets {self.target} "
                f"(certified value {self.value:.10g}; {self.scope})")


# ---- registration ---------------------------------------------------------------------------------
def register_family(cls: type, ball_law: Callable[[Any], Any]) -> None:
    """Register a family (a subclass of :class:`~smoothsens_core.distributions.ContinuousDistribution`) with
    its ball-arithmetic form: ``ball_law(noise)`` returns an object with ``logh(z)`` (arb and arb_series in,
    ln of the standardised density out), ``kinks_z`` and ``renyi_tail(alpha, c, m, u)`` (a certified upper
    bound on the tail integral, or None) -- the protocol :class:`verify.accounting.renyi.StandardBallForm`.
    ValueError if ``cls`` is not such a subclass or ``ball_law`` is not callable."""
    register_ball_form(cls, ball_law)


# ---- the certified check at one scale ---------------------------------------------------------------
_ENC_KW = {"rel_tol": 1e-5, "max_cells": 500, "initial_cells": 100}


def _up_rel(x: float) -> float:
    """x (a binary64 result of a few roundings, each <= 2^-53 relative) raised by 2^-48 relative: above
    the exact value of the expression it rounds."""
    return math.nextafter(x * (1.0 + 2.0**-48), math.inf)


def _is_gaussian_shift(noise: Any, model: Model) -> bool:
    return type(noise) is Gaussian and isinstance(model, ShiftModel)


def _divergence_upper(noise: Any, alpha: float, pairs: tuple[tuple[float, float], ...]) -> tuple[float, str]:
    """max over the pairs of the certified upper end of D_alpha (inf and the reason if one is not certified)."""
    worst = 0.0
    for c, m in pairs:
        enc = renyi_pair_enclosure(noise, alpha, shift=m, scale_ratio=c, **_ENC_KW)  # type: ignore[arg-type]
        if not enc.certified:
            return math.inf, f"D_{alpha:g} at (c={c:g}, m={m:g}) not certified: {enc.reason}"
        worst = max(worst, enc.upper)
    return worst, ""


def certify_scale(noise: ContinuousDistribution, model: Model, target: Target, scale: float,
                  orders: tuple[float, ...] = CALIBRATION_ORDERS) -> tuple[bool, float, str, str]:
    """(passes, certified value, reason, scope) of ``target`` at ``scale``: the value is the certified
    upper end compared with the target (D_alpha, rho, or delta)."""
    scale = check_positive("scale", scale)
    pairs = model.pairs(scale)
    if isinstance(target, PureDpTarget):
        if isinstance(model, ShiftModel) and type(noise) is Laplace:
            eps = _up_rel(model.sensitivity / (scale * noise.scale))  # the Laplace loss is at most Delta/b
            return eps <= target.eps, eps, "", "all pairs (Laplace closed form: sup loss = Delta/b)"
        if _is_gaussian_shift(noise, model):
            return False, math.inf, "the Gaussian privacy loss is unbounded (linear in y): no pure eps", ""
        return False, math.inf, ("a pure-eps calibration needs a certified sup of the privacy loss, not available "
                                 "for this family and model here (use smoothsens_core.calibration for GenCauchy, "
                                 "Student's t, PolyPlace, Laplace)"), ""
    if _is_gaussian_shift(noise, model) and isinstance(model, ShiftModel):
        # D_alpha(N(0, b^2) || N(m b, b^2)) = alpha m^2/2 exactly (Mironov 2017, Prop. 7): all orders
        m = model.sensitivity / (scale * noise.scale)
        rho = _up_rel(m * m / 2)
        if isinstance(target, RdpTarget):
            v = _up_rel(target.alpha * rho)
            return v <= target.eps, v, "", "closed form, every shift <= Delta"
        if isinstance(target, ZcdpTarget):
            return rho <= target.rho, rho, "", "closed form, every alpha > 1, every shift <= Delta"
        closed_taus = tuple(_up_rel(a * rho) for a in DEFAULT_ORDERS)
        d, _ = rdp_to_delta(DEFAULT_ORDERS, closed_taus, target.eps)
        return d <= target.delta, d, "", "closed-form RDP, CKS 2020 Prop. 12"
    if isinstance(target, RdpTarget):
        v, why = _divergence_upper(noise, target.alpha, pairs)
        return v <= target.eps, v, why, f"alpha = {target.alpha:g}, at the pairs listed"
    taus: list[float] = []
    for a in orders:
        v, why = _divergence_upper(noise, a, pairs)
        if not math.isfinite(v):
            return False, math.inf, why, ""
        taus.append(v)
    if isinstance(target, ZcdpTarget):
        rho, a_max = zcdp_rho_upper(orders, taus)
        return rho <= target.rho, rho, "", f"alpha in (1, {a_max:g}] only, at the pairs listed"
    d, _ = rdp_to_delta(orders, taus, target.eps)
    return d <= target.delta, d, "", "RDP at the orders used, CKS 2020 Prop. 12, at the pairs listed"


def calibrate_scale(noise: ContinuousDistribution, model: Model, target: Target, *, scale_hint: float = 1.0,
                    rtol: float = 1e-3, max_scale: float = 1e8, growth: float = 2.0,
                    orders: tuple[float, ...] = CALIBRATION_ORDERS) -> CalibrationResult:
    """The smallest scale (within ``rtol``) whose guarantee for ``target`` is certified (module docstring);
    INCONCLUSIVE with the reason when no scale up to ``max_scale`` can be certified.  ``noise`` is a core
    family (its shape matters; its loc and scale multiply out: the scale found is in units of ``noise.scale``
    for closed forms and of the standardised family otherwise)."""
    if not isinstance(noise, ContinuousDistribution):
        raise ValueError(f"noise must be a ContinuousDistribution; got {type(noise).__name__}")
    if not isinstance(model, (ShiftModel, SmoothModel)):
        raise ValueError(f"model must be a ShiftModel or SmoothModel; got {type(model).__name__}")
    if not isinstance(target, (RdpTarget, ZcdpTarget, ApproxDpTarget, PureDpTarget)):
        raise ValueError(f"target must be an RdpTarget, ZcdpTarget, ApproxDpTarget or PureDpTarget; "
                         f"got {type(target).__name__}")
    check_positive("scale_hint", scale_hint)
    check_in_interval("rtol", rtol, 0.0, 1.0)
    check_greater("growth", growth, 1.0 + rtol)
    family = type(noise).__name__
    closed = _is_gaussian_shift(noise, model) or (isinstance(target, PureDpTarget) and type(noise) is Laplace)
    if not closed:
        try:
            ball_form_for(noise)
        except TypeError as exc:
            return CalibrationResult("INCONCLUSIVE", None, target, model, family, reason=str(exc))
    assumptions: tuple[str, ...] = ()
    if not closed:
        assumptions = ("the listed pairs are the worst of the model (D_alpha nondecreasing in |m| and extreme at "
                       "the ends of the scale-ratio range): not proven for this family",)

    seen: dict[float, tuple[bool, float, str, str]] = {}

    def check(s: float) -> tuple[bool, float, str, str]:
        if s not in seen:
            seen[s] = certify_scale(noise, model, target, s, orders)
        return seen[s]

    hi = scale_hint
    ok, val, why, scope = check(hi)
    if not ok and not why.startswith("D_") and not math.isfinite(val) and why:
        return CalibrationResult("INCONCLUSIVE", None, target, model, family, reason=why)
    while not ok:
        hi *= growth
        if hi > max_scale:
            return CalibrationResult("INCONCLUSIVE", None, target, model, family,
                                     reason=f"no scale <= {max_scale:g} certified ({why or 'target not met'})")
        ok, val, why, scope = check(hi)
    lo = hi / growth
    lo_ok, _, _, _ = check(lo)
    while lo_ok:
        hi, lo = lo, lo / growth
        ok, val, why, scope = check(hi)
        lo_ok, _, _, _ = check(lo)
    best = (hi, val, scope)
    while hi / lo > 1.0 + rtol:
        mid = math.sqrt(lo * hi)
        ok, v, _, sc = check(mid)
        if ok:
            hi, best = mid, (mid, v, sc)
        else:
            lo = mid
    scale, value, scope = best
    return CalibrationResult("CONDITIONAL" if assumptions else "CERTIFIED", scale, target, model, family, value, "",
                             model.pairs(scale), scope, assumptions)
