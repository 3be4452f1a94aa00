"""The printed calibrations, one function per mechanism family, and :func:`calibrate`, which dispatches.

Each inverts its printed eps law (:mod:`smoothsens_core.calibration.laws`) for eta at a given gamma (or at
a budget split of eps) and returns a :class:`~smoothsens_core.calibration.record.Calibration`:
GenCauchy (004 Lemma 3.3, Cor. 3.2), Student's t (004 Lemma 3.5), Laplace with g_L (004 Lemma 3.6),
PolyPlace (002 Thm. 8) and the older constants [NRS07] / [BS19] as quoted in 004 and 002 Claims 16-18.
"""

from __future__ import annotations

from typing import Any

from .. import distributions
from .._generated.calibration import alpha_polyplace
from .._generated.calibration import eps_polyplace as _eps_polyplace
from ..validation import check_integer, check_metric, check_positive, check_probability
from .laws import LAWS, check_nu, check_p, check_theta, gamma_from_split, LinearLaw, std_over_eta
from .record import CALIBRATION_METRICS, Calibration

__all__ = [
    "FAMILIES",
    "NEEDS_DELTA",
    "check_family",
    "calibrate",
    "calibrate_gencauchy",
    "calibrate_gencauchy_nrs07",
    "calibrate_laplace_approx",
    "calibrate_laplace_nrs07",
    "calibrate_polyplace",
    "calibrate_student_t",
    "calibrate_student_t_bs19",
]


def _calibrate_student_t(law: LinearLaw, eps: Any, gamma: Any, nu: Any, split: Any, metric: Any) -> Calibration:
    """T_nu(0,1) noise calibrated by ``law`` (004 Lemma 3.5 or BS19)."""
    eps = check_positive("eps", eps)
    nu = check_nu(nu)
    return law.calibrate(eps, 0.0, gamma, split, metric, (nu,), {"nu": nu}, distributions.StudentT(nu), {"nu": nu})


def _calibrate_laplace(law: LinearLaw, eps: Any, delta: Any, gamma: Any, split: Any, metric: Any) -> Calibration:
    """Lap(0,1) noise calibrated by ``law`` (004 Lemma 3.6 or NRS07 as in 002 Claim 18)."""
    eps = check_positive("eps", eps)
    delta = check_probability("delta", delta)
    return law.calibrate(eps, delta, gamma, split, metric, (delta,), {"delta": delta}, distributions.Laplace(), {})


def calibrate_gencauchy(
    eps: float,
    gamma: float | None = None,
    p: float = 4.0,
    theta: float = 1.0,
    m: int = 1,
    *,
    split: float | None = None,
    metric: str = "euclidean",
) -> Calibration:
    """GenCauchy(0,1,p,theta) mechanism with g_E, 004 Lemma 3.3 (m = 1) and Cor. 3.2 (m outputs).

    eps = m gamma max(1, p theta - 1) + theta (p - 1)^((p-1)/p) eta   (p > 1, theta >= 1),
    solved for eta = (eps - m gamma max(1, p theta - 1)) / (theta (p - 1)^((p-1)/p)), which needs
    gamma < eps / (m max(1, p theta - 1)).  With ``gamma`` None, gamma spends the fraction
    ``split`` (default 1/3) of eps on the scale term.  ``noise_std`` is per output coordinate.
    """
    eps = check_positive("eps", eps)
    p = check_p(p)
    theta = check_theta(theta)
    m = check_integer("m", m, minimum=1)
    return LAWS["gencauchy"].calibrate(
        eps, 0.0, gamma, split, metric, (p, theta, m), {"m": m, "p": p, "theta": theta},
        distributions.GenCauchy(p, theta), {"p": p, "theta": theta, "m": float(m)},
        source="004 Lemma 3.3" if m == 1 else "004 Cor. 3.2",
    )


def calibrate_student_t(
    eps: float, gamma: float | None = None, nu: float = 3.0, *, split: float | None = None, metric: str = "euclidean"
) -> Calibration:
    """Student's t T_nu(0,1) mechanism with g_E, 004 Lemma 3.5 (nu > 1).

    eps = nu gamma + (nu + 1)/(2 sqrt(nu)) eta, solved for eta = 2 sqrt(nu) (eps - nu gamma)/(nu + 1),
    which needs gamma < eps/nu.  With ``gamma`` None, nu gamma = split eps (default eps/3, 004 Sec. 5).
    The noise std is finite only for nu > 2 (Var = nu/(nu-2)).
    """
    return _calibrate_student_t(LAWS["student_t"], eps, gamma, nu, split, metric)


def calibrate_laplace_approx(
    eps: float, delta: float, gamma: float | None = None, *, split: float | None = None, metric: str = "euclidean"
) -> Calibration:
    """Laplace Lap(0,1) with the linear growth g_L(r) = 1 + gamma r, 004 Lemma 3.6 (approximate GP).

    eps = eta + gamma ln(1/delta), solved for eta = eps - gamma ln(1/delta), which needs
    gamma < eps / ln(1/delta).  B must be a g_L-smooth upper bound (not g_E).
    With ``gamma`` None, gamma ln(1/delta) = split eps (default eps/3).
    """
    return _calibrate_laplace(LAWS["laplace_gl"], eps, delta, gamma, split, metric)


def calibrate_polyplace(
    eps: float, gamma: float | None = None, *, split: float | None = None, metric: str = "euclidean"
) -> Calibration:
    """PolyPlace mechanism of 002 Thm. 8: M = q + PolyPlace(SS/gamma, eps/gamma), 0 < gamma < eps.

    Written as (B/eta) Z with the standardised Z ~ PolyPlace(1, alpha = eps/gamma) and eta = gamma
    (PolyPlace(B/gamma, alpha) = (B/gamma) PolyPlace(1, alpha)); the certified eps is alpha/s with
    s = 1/gamma the Thm. 8 scale per unit B, i.e. alpha gamma (002 Lemma 12).  ``shape`` records s, alpha.  The variance is finite for alpha > 2,
    i.e. gamma < eps/2 (002 Lemma 13).  With ``gamma`` None, gamma = split eps (default eps/3).
    """
    eps = check_positive("eps", eps)
    metric = check_metric(metric, CALIBRATION_METRICS)
    if gamma is None:
        gamma = gamma_from_split(split, eps)
    g = check_positive("gamma", gamma)
    if not g < eps:
        raise ValueError(f"gamma must be in (0, eps) (002 Thm. 8); got gamma={g!r}, eps={eps!r}")
    alpha = float(alpha_polyplace(eps, g))
    s = 1.0 / g  # the 002 Thm. 8 scale SS/gamma per unit of SS
    noise = distributions.PolyPlace(1.0, alpha)
    return Calibration(
        family="polyplace",
        source="002 Thm. 8",
        eps=float(_eps_polyplace(g, alpha)),
        delta=0.0,
        gamma=g,
        eta=g,
        noise=noise,
        noise_std=std_over_eta(noise, g),
        shape={"s": s, "alpha": alpha},
        growth="g_E",
        formula="eps = alpha / s = alpha gamma  (s = 1/gamma)",
        metric=metric,
    )


def calibrate_gencauchy_nrs07(
    eps: float, gamma: float | None = None, p: float = 4.0, *, split: float | None = None, metric: str = "euclidean"
) -> Calibration:
    """[NRS07] GenCauchy(0,1,p,1) as quoted in 004 (Remark after Lemma 3.5) and 002 Claim 16:
    eps = (p + 1) gamma + (p + 1) eta, so eta = eps/(p + 1) - gamma, needing gamma < eps/(p + 1)."""
    eps = check_positive("eps", eps)
    p = check_p(p)
    return LAWS["gencauchy_nrs07"].calibrate(
        eps, 0.0, gamma, split, metric, (p,), {"p": p}, distributions.GenCauchy(p, 1.0), {"p": p, "theta": 1.0}
    )


def calibrate_student_t_bs19(
    eps: float, gamma: float | None = None, nu: float = 3.0, *, split: float | None = None, metric: str = "euclidean"
) -> Calibration:
    """[BS19] T_nu(0,1) as quoted in 004 (Remark after Lemma 3.5) and 002 Claim 17:
    eps = (nu + 1) gamma + (nu + 1)/(2 sqrt(nu)) eta, needing gamma < eps/(nu + 1)."""
    return _calibrate_student_t(LAWS["student_t_bs19"], eps, gamma, nu, split, metric)


def calibrate_laplace_nrs07(
    eps: float, delta: float, gamma: float | None = None, *, split: float | None = None, metric: str = "euclidean"
) -> Calibration:
    """Laplace with g_E scaled as in 002 Claim 18 (after [NRS07]): eps = eta + gamma ln(2/delta),
    so eta = eps - gamma ln(2/delta), needing gamma < eps / ln(2/delta)."""
    return _calibrate_laplace(LAWS["laplace_nrs07"], eps, delta, gamma, split, metric)


FAMILIES: dict[str, Any] = {
    "gencauchy": calibrate_gencauchy,
    "student_t": calibrate_student_t,
    "laplace_gl": calibrate_laplace_approx,
    "polyplace": calibrate_polyplace,
    "gencauchy_nrs07": calibrate_gencauchy_nrs07,
    "student_t_bs19": calibrate_student_t_bs19,
    "laplace_nrs07": calibrate_laplace_nrs07,
}
#: The families whose calibration takes a delta (approximate GP/DP: 004 Lemma 3.6, 002 Claim 18).
NEEDS_DELTA = ("laplace_gl", "laplace_nrs07")


def check_family(family: str) -> str:
    """``family`` when it names a calibration of :data:`FAMILIES`; ValueError naming the families otherwise."""
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {sorted(FAMILIES)}; got family={family!r}")
    return family


def calibrate(family: str, eps: float, *, delta: float | None = None, gamma: float | None = None, **shape: Any) -> Calibration:
    """Dispatch to ``calibrate_<family>`` (see :data:`FAMILIES`); ``delta`` only for the Laplace ones."""
    check_family(family)
    fn = FAMILIES[family]
    if family in NEEDS_DELTA:
        if delta is None:
            raise ValueError(f"delta must be given (in (0, 1)) for family={family!r}")
        return fn(eps, delta, gamma, **shape)
    if delta is not None:
        raise ValueError(f"delta must be None for the pure mechanism family={family!r}; got delta={delta!r}")
    return fn(eps, gamma, **shape)
