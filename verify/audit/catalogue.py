"""Every smooth-sensitivity mechanism of the core, with calibrated parameters, for the audit.

Each :class:`CatalogueEntry` is one mechanism at one parameter point, exactly as the core's
calibration returns it: ``calibrate_*(...).mechanism(name=...)`` from
:mod:`smoothsens_core.calibration` (noise, eta, growth, eps, delta, metric, m all the
calibration's own), audited as it is by :func:`verify.audit.exact.audit_smooth_mechanism` (the
abstract mechanism of 004 Def. 8).  Nothing is re-derived here: a calibration that fails raises.

Points (target eps; gamma as a fraction of eps):

* GenCauchy(p, theta), g_E, 004 Lemma 3.3 at (p, theta, gamma/eps) = (4, 1, 0.1), (2, 1, 0.3),
  (3, 2, 0.05), (1.5, 1, 0.4) under GP and (4, 1, 0.1) under Hamming DP; 004 Cor. 3.2 at m = 2
  (gamma = 0.1 eps) and m = 3 (gamma = 0.05 eps);
* Student's t, g_E, 004 Lemma 3.5 at (nu, gamma/eps) = (4, 0.1), (2, 0.2), (10, 0.05), (1.5, 0.3)
  under GP and (4, 0.1) under Hamming DP;
* Laplace, g_L, 004 Lemma 3.6 at (delta, gamma/eps) = (1e-6, 0.02), (1e-3, 0.05), (0.1, 0.2), (0.5, 0.5);
* PolyPlace, 002 Thm. 8 (Hamming DP) at gamma/eps = 0.1, 0.5, 0.9.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

from smoothsens_core import calibration as cal
from smoothsens_core.mechanism import SmoothSensitivityMechanism

__all__ = ["CatalogueEntry", "catalogue"]


@dataclass(frozen=True)
class CatalogueEntry:
    """One mechanism of the core at one calibrated parameter point.

    ``claim``      the id of the privacy claim that audits it (e.g. ``004-Lemma-3.5-privacy``);
    ``mechanism``  ``calibrate(*args, **kwargs).mechanism(name=...)``;
    ``calibrate``, ``args``, ``kwargs``  the core calibration call that produced it.
    """

    key: str
    claim: str
    mechanism: SmoothSensitivityMechanism
    calibrate: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...]

    @property
    def calibration_call(self) -> str:
        """The call that produced the mechanism, as text (for the report)."""
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs]
        return f"smoothsens_core.calibration.{self.calibrate.__name__}({', '.join(parts)})"


@functools.lru_cache(maxsize=8)
def _catalogue(eps: float) -> tuple[CatalogueEntry, ...]:
    return tuple(_build_catalogue(eps))


def catalogue(eps: float = 1.0) -> list[CatalogueEntry]:
    """The mechanisms of the core at representative calibrated parameter points (cached)."""
    return list(_catalogue(float(eps)))


def _build_catalogue(eps: float) -> list[CatalogueEntry]:
    """The mechanisms of the core at the points of the module docstring (target ``eps``)."""
    out: list[CatalogueEntry] = []

    def add(key: str, claim: str, name: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        mech = fn(*args, **kwargs).mechanism(name=name)
        out.append(CatalogueEntry(key, claim, mech, fn, tuple(args), tuple(sorted(kwargs.items()))))

    for p, theta, frac in ((4.0, 1.0, 0.1), (2.0, 1.0, 0.3), (3.0, 2.0, 0.05), (1.5, 1.0, 0.4)):
        gamma = frac * eps
        add(f"gencauchy-p{p:g}-theta{theta:g}", "004-Lemma-3.3-privacy",
            f"GenCauchy(p={p:g},theta={theta:g}) m=1 gamma={gamma:g}",
            cal.calibrate_gencauchy, eps, gamma, p=p, theta=theta)
    add("gencauchy-p4-dp", "004-Lemma-3.3-privacy", f"GenCauchy(p=4,theta=1) m=1 gamma={0.1 * eps:g}",
        cal.calibrate_gencauchy, eps, 0.1 * eps, p=4.0, theta=1.0, metric="hamming")
    for m, frac in ((2, 0.1), (3, 0.05)):
        gamma = frac * eps
        add(f"gencauchy-m{m}", "004-Cor-3.2-privacy", f"GenCauchy(p=4,theta=1) m={m} gamma={gamma:g}",
            cal.calibrate_gencauchy, eps, gamma, p=4.0, theta=1.0, m=m)
    for nu, frac in ((4.0, 0.1), (2.0, 0.2), (10.0, 0.05), (1.5, 0.3)):
        gamma = frac * eps
        add(f"student-t-nu{nu:g}", "004-Lemma-3.5-privacy", f"StudentT(nu={nu:g}) gamma={gamma:g}",
            cal.calibrate_student_t, eps, gamma, nu=nu)
    add("student-t-nu4-dp", "004-Lemma-3.5-privacy", f"StudentT(nu=4) gamma={0.1 * eps:g}",
        cal.calibrate_student_t, eps, 0.1 * eps, nu=4.0, metric="hamming")
    for delta, frac in ((1e-6, 0.02), (1e-3, 0.05), (0.1, 0.2), (0.5, 0.5)):
        gamma = frac * eps
        add(f"laplace-gL-delta{delta:g}", "004-Lemma-3.6-privacy", f"Laplace g_L delta={delta:g} gamma={gamma:g}",
            cal.calibrate_laplace_approx, eps, delta, gamma)
    for frac in (0.1, 0.5, 0.9):
        gamma = frac * eps
        add(f"polyplace-gamma{frac:g}eps", "002-Thm-8-privacy", f"PolyPlace gamma={gamma:g}",
            cal.calibrate_polyplace, eps, gamma, metric="hamming")
    return out
