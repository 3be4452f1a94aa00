"""Every smooth-sensitivity mechanism of the core, with calibrated parameters, for the audit.

Each :class:`CatalogueEntry` is one mechanism at one parameter point: the noise family, the
growth function and the eta that the calibration of :mod:`smoothsens_core.calibration` returns
for the target eps (and delta), wrapped as a :class:`verify.audit.privacy_loss.SmoothMechanismSpec`
so the auditor can search its worst case (004 Def. 8 abstraction).

When the calibration module (or one of its functions) is not importable, eta is taken from the
lemma's own formula, stated here in plain math and recorded in ``eta_source``:

* 004 Lemma 3.3 / Cor. 3.2 (GenCauchy(p, theta), m outputs, g_E):
      eps = max(m gamma, m (p theta - 1) gamma) + theta (p - 1)^((p-1)/p) eta
* 004 Lemma 3.5 (Student's t_nu, g_E):   eps = nu gamma + (nu + 1)/(2 sqrt(nu)) eta
* 004 Lemma 3.6 (Laplace, g_L, (eps, delta)):   eps = eta + gamma ln(1/delta)
* 002 Thm. 8 (PolyPlace(SS/gamma, eps/gamma), DP, g_E):  noise scale B/gamma, i.e. eta = gamma,
  shape alpha = eps/gamma.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable

from smoothsens_core.growth import growth_exp, growth_linear

from .privacy_loss import (
    GenCauchyNoise,
    LaplaceNoise,
    NoiseFamily,
    PolyPlaceNoise,
    SmoothMechanismSpec,
    StudentTNoise,
    noise_from_distribution,
)

__all__ = ["CatalogueEntry", "catalogue", "eta_gencauchy", "eta_student_t", "eta_laplace_approx",
           "spec_gencauchy", "spec_student_t", "spec_laplace_approx", "spec_polyplace"]


@dataclass(frozen=True)
class CatalogueEntry:
    """One mechanism of the core at one calibrated parameter point.

    ``claim`` is the id of the privacy claim that audits it (e.g. ``004-Lemma-3.5-privacy``).
    """

    key: str
    claim: str
    spec: SmoothMechanismSpec
    eta_source: str


def _calibration(name: str) -> Callable[..., Any] | None:
    try:
        import smoothsens_core.calibration as cal  # noqa: PLC0415 - optional, written in parallel
    except ImportError:
        return None
    return getattr(cal, name, None)


def _try_calibration(name: str, *args: Any, **kwargs: Any) -> tuple[Any, str]:
    """Call the core's calibration ``name``; (result, "") on success, (None, reason) otherwise.

    The audit falls back to the lemma's formula when the core cannot calibrate (module missing or
    broken); the reason is recorded in ``eta_source`` so the fallback is visible in the report."""
    fn = _calibration(name)
    if fn is None:
        return None, "calibration unavailable"
    try:
        return fn(*args, **kwargs), ""
    except Exception as exc:  # noqa: BLE001 - reported in eta_source, never hidden
        return None, f"calibration.{name} failed: {type(exc).__name__}: {exc}"


def _eta_from(cal_obj: Any) -> float | None:
    eta = getattr(cal_obj, "eta", None)
    return float(eta) if eta is not None else None


def eta_gencauchy(eps: float, gamma: float, p: float, theta: float = 1.0, m: int = 1) -> tuple[float, str]:
    """eta with eps = max(m gamma, m(p theta - 1) gamma) + theta (p-1)^((p-1)/p) eta (004 Lemma 3.3,
    Cor. 3.2); from ``calibrate_gencauchy`` when the core has it.  Returns (eta, source)."""
    cal, why = _try_calibration("calibrate_gencauchy", eps, gamma, p=p, theta=theta, m=m)
    eta = _eta_from(cal) if cal is not None else None
    if eta is not None:
        return eta, "smoothsens_core.calibration.calibrate_gencauchy"
    c = theta * (p - 1) ** ((p - 1) / p)
    return (eps - max(m * gamma, m * (p * theta - 1) * gamma)) / c, _fallback("004 Lemma 3.3 / Cor. 3.2 formula", why)


def eta_student_t(eps: float, gamma: float, nu: float) -> tuple[float, str]:
    """eta with eps = nu gamma + (nu+1)/(2 sqrt(nu)) eta (004 Lemma 3.5)."""
    cal, why = _try_calibration("calibrate_student_t", eps, gamma, nu=nu)
    eta = _eta_from(cal) if cal is not None else None
    if eta is not None:
        return eta, "smoothsens_core.calibration.calibrate_student_t"
    return (eps - nu * gamma) * 2 * math.sqrt(nu) / (nu + 1), _fallback("004 Lemma 3.5 formula", why)


def eta_laplace_approx(eps: float, delta: float, gamma: float) -> tuple[float, str]:
    """eta with eps = eta + gamma ln(1/delta) (004 Lemma 3.6)."""
    cal, why = _try_calibration("calibrate_laplace_approx", eps, delta, gamma)
    eta = _eta_from(cal) if cal is not None else None
    if eta is not None:
        return eta, "smoothsens_core.calibration.calibrate_laplace_approx"
    return eps - gamma * math.log(1 / delta), _fallback("004 Lemma 3.6 formula", why)


def spec_gencauchy(eps: float, gamma: float, p: float = 4.0, theta: float = 1.0, m: int = 1,
                   metric: str = "euclidean", eta: float | None = None, name: str = "") -> SmoothMechanismSpec:
    """GenCauchy smooth-sensitivity mechanism of 004 Lemma 3.3 (m = 1) / Cor. 3.2 (m > 1)."""
    eta = eta if eta is not None else eta_gencauchy(eps, gamma, p, theta, m)[0]
    return SmoothMechanismSpec(name or f"GenCauchy(p={p:g},theta={theta:g}) m={m} gamma={gamma:g}",
                               GenCauchyNoise(p, theta), eta, growth_exp(gamma), eps, metric=metric, m=m,
                               source="004 Cor. 3.2" if m > 1 else "004 Lemma 3.3")


def spec_student_t(eps: float, gamma: float, nu: float = 4.0, metric: str = "euclidean",
                   eta: float | None = None, name: str = "") -> SmoothMechanismSpec:
    """Student's t smooth-sensitivity mechanism of 004 Lemma 3.5."""
    eta = eta if eta is not None else eta_student_t(eps, gamma, nu)[0]
    return SmoothMechanismSpec(name or f"StudentT(nu={nu:g}) gamma={gamma:g}", StudentTNoise(nu), eta,
                               growth_exp(gamma), eps, metric=metric, source="004 Lemma 3.5")


def spec_laplace_approx(eps: float, delta: float, gamma: float, metric: str = "euclidean",
                        eta: float | None = None, claimed_delta: float | None = None,
                        name: str = "") -> SmoothMechanismSpec:
    """Laplace smooth-sensitivity mechanism with g_L of 004 Lemma 3.6 ((eps, delta)-GP)."""
    eta = eta if eta is not None else eta_laplace_approx(eps, delta, gamma)[0]
    d = delta if claimed_delta is None else claimed_delta
    return SmoothMechanismSpec(name or f"Laplace g_L delta={delta:g} gamma={gamma:g}", LaplaceNoise(), eta,
                               growth_linear(gamma), eps, delta=d, metric=metric, source="004 Lemma 3.6")


def spec_polyplace(eps: float, gamma: float, alpha: float | None = None, name: str = "") -> SmoothMechanismSpec:
    """PolyPlace mechanism of 002 Thm. 8: q(D) + PolyPlace(SS/gamma, eps/gamma), eps-DP (Hamming),
    i.e. B = SS (g_E with gamma), eta = gamma, Z ~ PolyPlace(1, alpha = eps/gamma)."""
    noise: NoiseFamily
    if alpha is None:
        cal, _why = _try_calibration("calibrate_polyplace", eps, gamma)
        if cal is not None and getattr(cal, "noise", None) is not None:
            noise = noise_from_distribution(cal.noise)
            eta = _eta_from(cal) or gamma
            return SmoothMechanismSpec(name or f"PolyPlace gamma={gamma:g}", noise, eta, growth_exp(gamma),
                                       eps, metric="hamming", source="002 Thm. 8 (core calibration)")
    alpha = eps / gamma if alpha is None else alpha
    return SmoothMechanismSpec(name or f"PolyPlace gamma={gamma:g}", PolyPlaceNoise(alpha), gamma,
                               growth_exp(gamma), eps, metric="hamming", source="002 Thm. 8")


def _fallback(formula: str, why: str) -> str:
    return f"{formula} ({why})" if why else formula


def polyplace_source(eps: float, gamma: float) -> str:
    cal, why = _try_calibration("calibrate_polyplace", eps, gamma)
    if cal is not None and getattr(cal, "noise", None) is not None:
        return "smoothsens_core.calibration.calibrate_polyplace"
    return _fallback("002 Thm. 8 (alpha = eps/gamma, scale SS/gamma)", why)


@functools.lru_cache(maxsize=8)
def _catalogue(eps: float) -> tuple[CatalogueEntry, ...]:
    return tuple(_build_catalogue(eps))


def catalogue(eps: float = 1.0) -> list[CatalogueEntry]:
    """The mechanisms of the core at representative calibrated parameter points (cached)."""
    return list(_catalogue(float(eps)))


def _build_catalogue(eps: float) -> list[CatalogueEntry]:
    """The mechanisms of the core at representative calibrated parameter points (target ``eps``).

    GP (Euclidean, Lambda = inf) for the 004 mechanisms, Hamming DP for PolyPlace (002 Thm. 8)
    and one Hamming-DP point each for the 004 mechanisms (004 Remark after Lemma 3.5)."""
    out: list[CatalogueEntry] = []

    def add(key: str, claim: str, spec: SmoothMechanismSpec, src: str) -> None:
        out.append(CatalogueEntry(key, claim, spec, src))

    for p, theta, frac in ((4.0, 1.0, 0.1), (2.0, 1.0, 0.3), (3.0, 2.0, 0.05), (1.5, 1.0, 0.4)):
        gamma = frac * eps
        eta, src = eta_gencauchy(eps, gamma, p, theta)
        add(f"gencauchy-p{p:g}-theta{theta:g}", "004-Lemma-3.3-privacy",
            spec_gencauchy(eps, gamma, p, theta, eta=eta), src)
    eta, src = eta_gencauchy(eps, 0.1 * eps, 4.0, 1.0)
    add("gencauchy-p4-dp", "004-Lemma-3.3-privacy", spec_gencauchy(eps, 0.1 * eps, 4.0, 1.0, metric="hamming",
                                                                    eta=eta), src)
    for m, frac in ((2, 0.1), (3, 0.05)):
        gamma = frac * eps
        eta, src = eta_gencauchy(eps, gamma, 4.0, 1.0, m)
        add(f"gencauchy-m{m}", "004-Cor-3.2-privacy", spec_gencauchy(eps, gamma, 4.0, 1.0, m=m, eta=eta), src)
    for nu, frac in ((4.0, 0.1), (2.0, 0.2), (10.0, 0.05), (1.5, 0.3)):
        gamma = frac * eps
        eta, src = eta_student_t(eps, gamma, nu)
        add(f"student-t-nu{nu:g}", "004-Lemma-3.5-privacy", spec_student_t(eps, gamma, nu, eta=eta), src)
    eta, src = eta_student_t(eps, 0.1 * eps, 4.0)
    add("student-t-nu4-dp", "004-Lemma-3.5-privacy", spec_student_t(eps, 0.1 * eps, 4.0, metric="hamming",
                                                                    eta=eta), src)
    for delta, frac in ((1e-6, 0.02), (1e-3, 0.05), (0.1, 0.2), (0.5, 0.5)):
        gamma = frac * eps
        eta, src = eta_laplace_approx(eps, delta, gamma)
        add(f"laplace-gL-delta{delta:g}", "004-Lemma-3.6-privacy",
            spec_laplace_approx(eps, delta, gamma, eta=eta), src)
    for frac in (0.1, 0.5, 0.9):
        gamma = frac * eps
        spec = spec_polyplace(eps, gamma)
        add(f"polyplace-gamma{frac:g}eps", "002-Thm-8-privacy", spec, polyplace_source(eps, gamma))
    return out
