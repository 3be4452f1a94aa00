"""Calibration of smooth-sensitivity mechanisms: from a target eps (and delta) to gamma, eta, noise.

Every mechanism here releases

    M(x) = f(x) + (B(x) / eta) * Z,        Z ~ a standardised noise distribution,

where B is a smooth upper bound on the pointwise Lipschitz constant (004 Def. 8) or on the local
sensitivity (002 / NRS07) with growth parameter gamma.  eps is *per unit distance* for Geo-Privacy
(004) and the plain DP eps when dist is the Hamming metric (004 Remark after Lemma 3.5).  A
:class:`Calibration` records the parameters and the eps the printed lemma certifies at them, and
the noise standard deviation per unit smooth sensitivity, std((B/eta) Z) at B = 1 = std(Z)/eta.

Mechanisms (symbols: gamma growth parameter, eta noise-scale divisor, m number of outputs):

* GenCauchy(0,1,p,theta), g_E, 004 Lemma 3.3 (m = 1) and Cor. 3.2 (m outputs, l1 metric),
  p > 1, theta >= 1:
      eps = max(m gamma, m (p theta - 1) gamma) + theta (p - 1)^((p-1)/p) eta.
* Student's t T_nu(0,1), g_E, 004 Lemma 3.5, nu > 1:
      eps = nu gamma + (nu + 1) / (2 sqrt(nu)) eta.
* Laplace Lap(0,1) with the linear growth g_L(r) = 1 + gamma r, approximate GP, 004 Lemma 3.6:
      eps = eta + gamma ln(1/delta),  0 < delta < 1.
* PolyPlace, 002 Thm. 8 (0 < gamma < eps): M = q + PolyPlace(SS/gamma, eps/gamma) = q + (SS/gamma) Z,
  i.e. here the standardised Z ~ PolyPlace(1, alpha = eps/gamma) and eta = gamma; it certifies
  eps = alpha / s with s = 1/gamma (002 Lemma 12: the two log-derivatives sum to alpha/s).
* The older constants the papers compare against:
  - [NRS07] GenCauchy(0,1,p,1) as quoted in 004 (Remark after Lemma 3.5) and 002 Claim 16:
        eps = (p + 1) gamma + (p + 1) eta;
  - [BS19] T_nu(0,1) as quoted in 004 (Remark after Lemma 3.5) and 002 Claim 17:
        eps = (nu + 1) gamma + (nu + 1)/(2 sqrt(nu)) eta;
  - [NRS07] Laplace with g_E as scaled in 002 Claim 18: eps = eta + gamma ln(2/delta).

Choosing gamma.  The noise standard deviation per unit B of every family is strictly increasing
in gamma at fixed eps (each std is a finite-variance constant over eps - c gamma, or for PolyPlace
sigma(alpha = eps/gamma)/gamma which increases with gamma), so "the gamma that minimises the noise
at fixed eps, ignoring B" does not exist: the infimum is the limit gamma -> 0+, where B becomes
the global sensitivity (:func:`std_limit_small_gamma` returns it).  In an application gamma is
fixed by the smooth sensitivity (it grows as gamma shrinks), so the calibration functions take
gamma, or, when ``gamma`` is None, a *budget split*: the fraction ``split`` of eps spent on the
scale term (default 1/3, the choice nu gamma = eps/3 of 004 Sec. 5).  :func:`optimise_calibration`
chooses the remaining free shape parameters (p, theta, nu) to minimise the noise std, at a given
gamma (what 002 Figure 1 does numerically) or at a given split.

Every eps formula, its inverse in eta and the largest admissible gamma come from
``smoothsens_core._generated.calibration`` (derived in derivations/privacy_loss.py and
derivations/polyplace.py); the private names ``_eps_*`` / ``_delta_*`` are those evaluators.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np
from numpy.typing import ArrayLike

from .. import distributions
from ..growth import GrowthFunction, growth_exp, growth_linear
from ..mechanism import SmoothSensitivityMechanism
from ..validation import (
    check_in_interval,
    check_integer,
    check_positive,
    check_probability,
    check_metric,
    check_real,
)

__all__ = [
    "Calibration",
    "FAMILIES",
    "DEFAULT_SPLIT",
    "DEFAULT_GAMMA_FRACTION",
    "calibrate_gencauchy",
    "calibrate_student_t",
    "calibrate_laplace_approx",
    "calibrate_polyplace",
    "calibrate_gencauchy_nrs07",
    "calibrate_student_t_bs19",
    "calibrate_laplace_nrs07",
    "calibrate",
    "optimise_calibration",
    "std_limit_small_gamma",
    "std_gencauchy_nrs07_printed",
    "std_student_t_bs19_printed",
    "std_laplace_nrs07_printed",
    "calibration_table",
    "format_calibration_table",
]

#: Fraction of eps spent on the scale (gamma) term when ``gamma`` is None: 004 Sec. 5 sets
#: nu = 3, nu gamma = eps/3 for the Student's t mechanism.
DEFAULT_SPLIT = 1.0 / 3.0
#: gamma/eps used by :func:`calibration_table` when no gamma is given: 004 Sec. 5 (nu = 3,
#: nu gamma = eps/3, hence gamma = eps/9); one common gamma for every row (B depends on gamma).
DEFAULT_GAMMA_FRACTION = 1.0 / 9.0

_LN2 = math.log(2.0)
#: The metrics a calibration certifies (:data:`smoothsens_core.validation.METRICS`): "euclidean" (GP,
#: eps per unit distance, 004 Def. 5) and "hamming" (DP with the Hamming metric, 004 Remark after Lemma 3.5).
_METRICS = ("euclidean", "hamming")
#: Search box of the GenCauchy shape optimiser: theta in [1, _THETA_MAX] (at a budget split the
#: infimum is approached as p -> 1+, theta -> inf, the Laplace-like limit; the box keeps it finite).
_THETA_MAX = 1000.0


# ---------------------------------------------------------------------------------------------
# The eps formulas and their inverses: generated from derivations/privacy_loss.py and
# derivations/polyplace.py (smoothsens_core._generated.calibration), never typed here.  The
# calibrations invert with the generated eta_* / gamma_max_* (sp.solve of the derived eps) and
# certify with the generated forward eps_*, so an inversion error would show in ``Calibration.eps``.
# The private aliases keep the names the claims (verify/claims/sets/calibration.py) use.
# ---------------------------------------------------------------------------------------------
from .._generated.calibration import (  # noqa: E402
    alpha_polyplace,
    eps_gencauchy_gp as _eps_gencauchy_gp,
    eps_gencauchy_nrs07 as _eps_gencauchy_nrs07,
    eps_laplace_gl as _eps_laplace_gl,
    eps_laplace_nrs07 as _eps_laplace_nrs07,
    eps_polyplace as _eps_polyplace,
    eps_student_t_bs19 as _eps_student_t_bs19,
    eps_student_t_gp as _eps_student_t_gp,
    eta_gencauchy_gp,
    eta_gencauchy_nrs07,
    eta_laplace_gl,
    eta_laplace_nrs07,
    eta_student_t_bs19,
    eta_student_t_gp,
    gamma_max_gencauchy_gp,
    gamma_max_gencauchy_nrs07,
    gamma_max_laplace_gl,
    gamma_max_laplace_nrs07,
    gamma_max_student_t_bs19,
    gamma_max_student_t_gp,
)
from .._generated.noise import gencauchy_variance, student_t_variance  # noqa: E402


# ---------------------------------------------------------------------------------------------
# The calibration record.
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Calibration:
    """A calibrated smooth-sensitivity mechanism M(x) = f(x) + (B(x)/eta) Z.

    Attributes
    ----------
    family      short name: "gencauchy", "student_t", "laplace_gl", "polyplace",
                "gencauchy_nrs07", "student_t_bs19", "laplace_nrs07".
    source      the citation of the eps formula (e.g. "004 Lemma 3.5").
    eps         the eps the cited formula certifies at the returned parameters (per unit distance
                for GP; plain eps for DP with the Hamming metric).
    delta       the additive slack (0 for pure GP/DP).
    gamma       growth parameter of the smooth upper bound B (g_E, or g_L for "laplace_gl").
    eta         the divisor of the noise scale: the noise is (B/eta) Z.
    noise       the standardised noise distribution object Z (smoothsens_core.distributions).
    noise_std   standard deviation of (B/eta) Z per unit B, i.e. std(Z)/eta (inf if infinite).
    shape       the free shape parameters (p, theta, m / nu / s, alpha).
    growth      "g_E" or "g_L" (004 Sec. 3.1.2).
    formula     the eps formula in plain math.
    metric      "euclidean" (GP: eps per unit distance, 004 Def. 5) or "hamming" (DP: plain eps,
                004 Remark after Lemma 3.5); the papers' words "gp"/"dp" are accepted only by the CLI.
    """

    family: str
    source: str
    eps: float
    delta: float
    gamma: float
    eta: float
    noise: Any = field(compare=False)
    noise_std: float
    shape: Mapping[str, float] = field(default_factory=dict, hash=False)
    growth: str = "g_E"
    formula: str = ""
    metric: str = "euclidean"

    def growth_function(self) -> GrowthFunction:
        """The growth function of B as an object: g_E or g_L with this ``gamma`` (004 Sec. 3.1.2)."""
        return growth_linear(self.gamma) if self.growth == "g_L" else growth_exp(self.gamma)

    def mechanism(self, f: Any = None, B: Any = None, *, Lambda: float = math.inf,
                  name: str = "") -> SmoothSensitivityMechanism:
        """The calibrated mechanism M(x) = f(x) + (B(x)/eta) Z as one object, for release and audit.

        Without ``f`` and ``B`` it is the abstract mechanism that the calibration certifies for every
        (f, B) satisfying 004 Def. 8 with this growth; ``verify.audit`` audits either form.  Every
        parameter (noise, eta, eps, delta, metric, growth, m) is this calibration's own."""
        return SmoothSensitivityMechanism(
            noise=self.noise, eta=self.eta, eps=self.eps, delta=self.delta,
            metric=check_metric(self.metric, _METRICS),
            growth=self.growth_function(), Lambda=Lambda, m=int(self.shape.get("m", 1)),
            f=f, B=B, name=name or self.family, source=self.source,
        )

    @property
    def noise_scale_rule(self) -> str:
        """How the released noise scales with the smooth bound B(x)."""
        return f"(B(x) / {self.eta:.6g}) * {self.noise!r}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (noise as its repr, infinities as the string 'inf')."""

        def j(v: Any) -> Any:
            if isinstance(v, float) and not math.isfinite(v):
                return str(v)
            return v

        return {
            "family": self.family,
            "source": self.source,
            "eps": j(self.eps),
            "delta": j(self.delta),
            "gamma": j(self.gamma),
            "eta": j(self.eta),
            "noise": repr(self.noise),
            "noise_std": j(self.noise_std),
            "shape": {k: j(float(v)) for k, v in self.shape.items()},
            "growth": self.growth,
            "formula": self.formula,
            "metric": self.metric,
        }


# ---------------------------------------------------------------------------------------------
# Validation helpers.
# ---------------------------------------------------------------------------------------------
def _check_split(split: Any) -> float:
    return check_in_interval("split", split, 0.0, 1.0)


def _check_gamma_below(gamma: Any, bound: float, why: str) -> float:
    """gamma in (0, bound) with a message naming the bound and the reason."""
    g = check_positive("gamma", gamma)
    if not g < bound:
        raise ValueError(f"gamma must be in (0, {bound!r}) {why}; got gamma={g!r}")
    return g


def _check_p(p: Any) -> float:
    return check_in_interval("p", p, 1.0, math.inf)


def _check_theta(theta: Any) -> float:
    v = check_real("theta", theta)
    if not v >= 1.0:
        raise ValueError(f"theta must be in [1, inf) (004 Lemma 3.3); got theta={v!r}")
    return v


def _check_nu(nu: Any) -> float:
    return check_in_interval("nu", nu, 1.0, math.inf)


def _std_over_eta(noise: Any, eta: float) -> float:
    s = float(noise.std())
    return s / eta if math.isfinite(s) else math.inf


def _gamma_from_split(split: Any, bound: float) -> float:
    """gamma when the caller gives none: the fraction ``split`` (default :data:`DEFAULT_SPLIT`, 004 Sec. 5)
    of the largest admissible gamma ``bound``, i.e. the scale term spends split * eps."""
    return (DEFAULT_SPLIT if split is None else _check_split(split)) * bound


@dataclass(frozen=True)
class _LinearLaw:
    """A printed eps linear in (gamma, eta), eps = c(params) gamma + d(params) eta (004 Lemmas 3.3,
    3.5, 3.6, Cor. 3.2; NRS07/BS19 as quoted in 004 Remark after Lemma 3.5 and 002 Claims 16-18):
    its largest gamma ``gamma_max(eps, *params)``, its inversion ``eta_of(eps, gamma, *params)``, the
    forward formula ``eps_of(gamma, eta, *params)`` and ``need``, the condition eta > 0 in words."""

    family: str
    source: str
    formula: str
    growth: str
    gamma_max: Any
    eta_of: Any
    eps_of: Any
    need: str

    def calibrate(
        self,
        eps: float,
        delta: float,
        gamma: Any,
        split: Any,
        metric: Any,
        params: tuple,
        shown: Mapping[str, Any],
        noise: Any,
        shape: Mapping[str, float],
        source: str | None = None,
    ) -> Calibration:
        """The calibration for the shape ``params`` (already validated; ``shown`` names them for the
        error message): gamma (given, or ``split`` of gamma_max) must lie in (0, gamma_max) for
        eta > 0, eta = eta_of(eps, gamma, *params), and the recorded eps is the forward formula
        eps_of(gamma, eta, *params) (so an inversion error would show)."""
        metric = check_metric(metric, _METRICS)
        bound = float(self.gamma_max(eps, *params))
        if gamma is None:
            gamma = _gamma_from_split(split, bound)
        named = "".join(f"{k}={v!r}, " for k, v in shown.items())
        gamma = _check_gamma_below(gamma, bound, f"so that eta > 0: need {self.need} ({named}eps={eps!r})")
        eta = float(self.eta_of(eps, gamma, *params))
        return Calibration(
            family=self.family,
            source=self.source if source is None else source,
            eps=float(self.eps_of(gamma, eta, *params)),
            delta=delta,
            gamma=gamma,
            eta=eta,
            noise=noise,
            noise_std=_std_over_eta(noise, eta),
            shape=shape,
            growth=self.growth,
            formula=self.formula,
            metric=metric,
        )


#: The printed laws' metadata (source, formula, growth, need), one table per family: package data
#: next to this module, read once at import by :func:`_load_laws`.
_LAWS_FILE = Path(__file__).with_name("laws.toml")
_LAW_FIELDS = ("source", "formula", "growth", "need")


def _load_laws(path: Path, evaluators: Mapping[str, tuple[Any, Any, Any]]) -> dict[str, _LinearLaw]:
    """The laws of ``path`` (a TOML table per family: source, formula, growth, need), each with its
    generated ``(gamma_max, eta_of, eps_of)`` from ``evaluators``.  Raises ValueError when the two do
    not name the same families or an entry's fields are not exactly :data:`_LAW_FIELDS`, so a missing,
    extra or misspelt entry stops the import instead of calibrating with a wrong formula text."""
    with open(path, "rb") as fh:
        table = tomllib.load(fh)
    if set(table) != set(evaluators):
        raise ValueError(f"{path.name}: the families must be those with generated evaluators; missing "
                         f"{sorted(set(evaluators) - set(table))}, extra {sorted(set(table) - set(evaluators))}")
    laws = {}
    for family, (gamma_max, eta_of, eps_of) in evaluators.items():
        entry = table[family]
        if set(entry) != set(_LAW_FIELDS) or not all(isinstance(entry[k], str) for k in _LAW_FIELDS):
            raise ValueError(f"{path.name}: [{family}] must have the text fields {list(_LAW_FIELDS)}; got {entry!r}")
        if entry["growth"] not in ("g_E", "g_L"):
            raise ValueError(f"{path.name}: [{family}] growth must be 'g_E' or 'g_L'; got {entry['growth']!r}")
        laws[family] = _LinearLaw(family=family, gamma_max=gamma_max, eta_of=eta_of, eps_of=eps_of,
                                  **{k: entry[k] for k in _LAW_FIELDS})
    return laws


#: family -> its printed law (004 Lemmas 3.3, 3.5, 3.6; NRS07 / BS19 as quoted by 004 and 002).
_LAWS = _load_laws(_LAWS_FILE, {
    "gencauchy": (gamma_max_gencauchy_gp, eta_gencauchy_gp, _eps_gencauchy_gp),
    "student_t": (gamma_max_student_t_gp, eta_student_t_gp, _eps_student_t_gp),
    "laplace_gl": (gamma_max_laplace_gl, eta_laplace_gl, _eps_laplace_gl),
    "gencauchy_nrs07": (gamma_max_gencauchy_nrs07, eta_gencauchy_nrs07, _eps_gencauchy_nrs07),
    "student_t_bs19": (gamma_max_student_t_bs19, eta_student_t_bs19, _eps_student_t_bs19),
    "laplace_nrs07": (gamma_max_laplace_nrs07, eta_laplace_nrs07, _eps_laplace_nrs07),
})


def _calibrate_student_t(law: _LinearLaw, eps: Any, gamma: Any, nu: Any, split: Any, metric: Any) -> Calibration:
    """T_nu(0,1) noise calibrated by ``law`` (004 Lemma 3.5 or BS19)."""
    eps = check_positive("eps", eps)
    nu = _check_nu(nu)
    return law.calibrate(eps, 0.0, gamma, split, metric, (nu,), {"nu": nu}, distributions.StudentT(nu), {"nu": nu})


def _calibrate_laplace(law: _LinearLaw, eps: Any, delta: Any, gamma: Any, split: Any, metric: Any) -> Calibration:
    """Lap(0,1) noise calibrated by ``law`` (004 Lemma 3.6 or NRS07 as in 002 Claim 18)."""
    eps = check_positive("eps", eps)
    delta = check_probability("delta", delta)
    return law.calibrate(eps, delta, gamma, split, metric, (delta,), {"delta": delta}, distributions.Laplace(), {})



# ---------------------------------------------------------------------------------------------
# The printed calibrations.
# ---------------------------------------------------------------------------------------------
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
    p = _check_p(p)
    theta = _check_theta(theta)
    m = check_integer("m", m, minimum=1)
    return _LAWS["gencauchy"].calibrate(
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
    return _calibrate_student_t(_LAWS["student_t"], eps, gamma, nu, split, metric)


def calibrate_laplace_approx(
    eps: float, delta: float, gamma: float | None = None, *, split: float | None = None, metric: str = "euclidean"
) -> Calibration:
    """Laplace Lap(0,1) with the linear growth g_L(r) = 1 + gamma r, 004 Lemma 3.6 (approximate GP).

    eps = eta + gamma ln(1/delta), solved for eta = eps - gamma ln(1/delta), which needs
    gamma < eps / ln(1/delta).  B must be a g_L-smooth upper bound (not g_E).
    With ``gamma`` None, gamma ln(1/delta) = split eps (default eps/3).
    """
    return _calibrate_laplace(_LAWS["laplace_gl"], eps, delta, gamma, split, metric)


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
    metric = check_metric(metric, _METRICS)
    if gamma is None:
        gamma = _gamma_from_split(split, eps)
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
        noise_std=_std_over_eta(noise, g),
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
    p = _check_p(p)
    return _LAWS["gencauchy_nrs07"].calibrate(
        eps, 0.0, gamma, split, metric, (p,), {"p": p}, distributions.GenCauchy(p, 1.0), {"p": p, "theta": 1.0}
    )


def calibrate_student_t_bs19(
    eps: float, gamma: float | None = None, nu: float = 3.0, *, split: float | None = None, metric: str = "euclidean"
) -> Calibration:
    """[BS19] T_nu(0,1) as quoted in 004 (Remark after Lemma 3.5) and 002 Claim 17:
    eps = (nu + 1) gamma + (nu + 1)/(2 sqrt(nu)) eta, needing gamma < eps/(nu + 1)."""
    return _calibrate_student_t(_LAWS["student_t_bs19"], eps, gamma, nu, split, metric)


def calibrate_laplace_nrs07(
    eps: float, delta: float, gamma: float | None = None, *, split: float | None = None, metric: str = "euclidean"
) -> Calibration:
    """Laplace with g_E scaled as in 002 Claim 18 (after [NRS07]): eps = eta + gamma ln(2/delta),
    so eta = eps - gamma ln(2/delta), needing gamma < eps / ln(2/delta)."""
    return _calibrate_laplace(_LAWS["laplace_nrs07"], eps, delta, gamma, split, metric)


FAMILIES: dict[str, Any] = {
    "gencauchy": calibrate_gencauchy,
    "student_t": calibrate_student_t,
    "laplace_gl": calibrate_laplace_approx,
    "polyplace": calibrate_polyplace,
    "gencauchy_nrs07": calibrate_gencauchy_nrs07,
    "student_t_bs19": calibrate_student_t_bs19,
    "laplace_nrs07": calibrate_laplace_nrs07,
}
_NEEDS_DELTA = ("laplace_gl", "laplace_nrs07")


def _check_family(family: str) -> str:
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {sorted(FAMILIES)}; got family={family!r}")
    return family


def calibrate(family: str, eps: float, *, delta: float | None = None, gamma: float | None = None, **shape: Any) -> Calibration:
    """Dispatch to ``calibrate_<family>`` (see :data:`FAMILIES`); ``delta`` only for the Laplace ones."""
    _check_family(family)
    fn = FAMILIES[family]
    if family in _NEEDS_DELTA:
        if delta is None:
            raise ValueError(f"delta must be given (in (0, 1)) for family={family!r}")
        return fn(eps, delta, gamma, **shape)
    if delta is not None:
        raise ValueError(f"delta must be None for the pure mechanism family={family!r}; got delta={delta!r}")
    return fn(eps, gamma, **shape)


# ---------------------------------------------------------------------------------------------
# Printed standard deviations of 002 Appendix B (Claims 16-18), for comparison.
# ---------------------------------------------------------------------------------------------
def std_gencauchy_nrs07_printed(eps: float, gamma: float, c: float) -> float:
    """002 Claim 16 as printed: for c > 3, 0 < gamma < eps/(c+1), the std per unit SS of
    GenCauchy(c) scaled by [NRS07] is (c+1) / ((eps - gamma (c+1)) sqrt(2 cos(2 pi/c) + 1));
    infinite otherwise (here: inf for c <= 3 or gamma >= eps/(c+1))."""
    eps = check_positive("eps", eps)
    gamma = check_positive("gamma", gamma)
    c = check_positive("c", c)
    if c <= 3.0 or gamma >= eps / (c + 1.0):
        return math.inf
    return (c + 1.0) / ((eps - gamma * (c + 1.0)) * math.sqrt(2.0 * math.cos(2.0 * math.pi / c) + 1.0))


def std_student_t_bs19_printed(eps: float, gamma: float, d: float) -> float:
    """002 Claim 17 as printed: for d > 2, 0 < gamma < eps/(d+1), the std per unit SS of T_d
    scaled by [BS19] is sqrt(d/(d-2)) (d+1) / (2 sqrt(d) (eps - gamma (d+1))); infinite otherwise."""
    eps = check_positive("eps", eps)
    gamma = check_positive("gamma", gamma)
    d = check_positive("d", d)
    if d <= 2.0 or gamma >= eps / (d + 1.0):
        return math.inf
    return math.sqrt(d / (d - 2.0)) * (d + 1.0) / (2.0 * math.sqrt(d) * (eps - gamma * (d + 1.0)))


def std_laplace_nrs07_printed(eps: float, gamma: float, delta: float) -> float:
    """002 Claim 18 formula: sqrt(2) / (eps - gamma ln(2/delta)) (positive only for
    gamma < eps/ln(2/delta); the printed range gamma < eps/ln(1/delta) is too wide, see the claim
    002-Claim-18).  Returns inf where the denominator is <= 0."""
    eps = check_positive("eps", eps)
    gamma = check_positive("gamma", gamma)
    delta = check_probability("delta", delta)
    den = eps - gamma * (_LN2 - math.log(delta))
    return math.sqrt(2.0) / den if den > 0 else math.inf


# ---------------------------------------------------------------------------------------------
# Optimisation of the free shape parameters.
# ---------------------------------------------------------------------------------------------
def _std_student_t(eps: float, gamma: ArrayLike, nu: ArrayLike, bs19: bool = False) -> np.ndarray:
    """std per unit B of the Student's t mechanism (004 Lemma 3.5, or BS19 with ``bs19``):
    sqrt(Var T_nu) / eta(eps, gamma, nu) (= sqrt(nu/(nu-2)) (nu+1) / (2 sqrt(nu) (eps - c gamma)),
    c = nu or nu + 1); inf if infeasible (nu <= 2 or eta <= 0)."""
    nu = np.asarray(nu, dtype=float)
    gamma = np.asarray(gamma, dtype=float)
    eta = np.asarray((eta_student_t_bs19 if bs19 else eta_student_t_gp)(eps, gamma, nu), dtype=float)
    var = np.asarray(student_t_variance(nu), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.sqrt(var) / eta
    return np.where((nu > 2.0) & (eta > 0), out, np.inf)


def _std_gencauchy(eps: float, gamma: ArrayLike, p: ArrayLike, theta: ArrayLike, m: int = 1, nrs07: bool = False) -> np.ndarray:
    """std per unit B (per coordinate) of the GenCauchy mechanism, 004 Lemma 3.3 / Cor. 3.2 (or NRS07
    with ``nrs07``, theta = 1): sqrt(Var(p, theta)) / eta(eps, gamma); inf if infeasible."""
    p = np.asarray(p, dtype=float)
    theta = np.asarray(theta, dtype=float)
    gamma = np.asarray(gamma, dtype=float)
    if nrs07:
        eta = np.asarray(eta_gencauchy_nrs07(eps, gamma, p), dtype=float)
    else:  # NaN for p <= 1, masked out below
        eta = np.asarray(eta_gencauchy_gp(eps, gamma, p, theta, m), dtype=float)
    var = np.asarray(gencauchy_variance(p, theta), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.sqrt(var) / eta
    return np.where((eta > 0) & np.isfinite(var) & (p > 1.0), out, np.inf)


def _minimise_1d(fun: Any, lo: float, hi: float, n_grid: int = 400) -> float:
    """argmin of a vectorised fun on (lo, hi): log-spaced grid scan, then bounded Brent refinement
    in the bracketing cell (the returned point is never worse than the best grid point)."""
    from scipy.optimize import minimize_scalar  # noqa: PLC0415 - loaded on first use: importing smoothsens_core does not load scipy.optimize

    # grid in u = log(x - lo) so the region near the pole at lo is resolved
    u = np.linspace(math.log((hi - lo) * 1e-6), math.log(hi - lo), n_grid)
    x = lo + np.exp(u)
    x[-1] = np.nextafter(hi, lo)
    vals = np.asarray(fun(x), dtype=float)
    i = int(np.argmin(vals))
    best_x, best_v = float(x[i]), float(vals[i])
    a = u[max(i - 1, 0)]
    b = u[min(i + 1, n_grid - 1)]
    if b > a:
        res = minimize_scalar(lambda t: float(fun(np.array([lo + math.exp(t)]))[0]), bounds=(a, b), method="bounded",
                              options={"xatol": 1e-12})
        xr = lo + math.exp(float(res.x))
        vr = float(fun(np.array([xr]))[0])
        if vr <= best_v and xr < hi:
            best_x = xr
    return best_x


def optimise_calibration(
    family: str,
    eps: float,
    *,
    gamma: float | None = None,
    split: float | None = None,
    delta: float | None = None,
    m: int = 1,
    optimise_theta: bool = True,
) -> Calibration:
    """The calibration of ``family`` with the free shape parameters chosen to minimise noise std.

    Either at a given ``gamma`` (what 002 Figure 1 does numerically), or, with ``gamma`` None, at a
    budget split: the scale term takes the fraction ``split`` of eps (default 1/3, 004 Sec. 5).
    Free parameters: nu for "student_t"/"student_t_bs19" (nu > 2 for a finite std),
    (p, theta) for "gencauchy" (theta in [1, 1000]; theta = 1 with ``optimise_theta=False``), p for
    "gencauchy_nrs07".
    PolyPlace and the Laplace mechanisms have no free shape at given gamma: they are calibrated as is.
    Method: a grid scan (log-spaced near the poles) then scipy's bounded Brent (1-D) or Nelder-Mead
    (p, theta) refinement; the result is never worse than the grid's best point.
    The optimum over gamma itself (ignoring B) is the limit gamma -> 0: see :func:`std_limit_small_gamma`.
    """
    _check_family(family)
    eps = check_positive("eps", eps)
    if gamma is not None and split is not None:
        raise ValueError("give at most one of gamma and split; got both")
    if split is not None:
        split = _check_split(split)
    if gamma is not None:
        gamma = check_positive("gamma", gamma)
    if family in ("polyplace",) + _NEEDS_DELTA:
        kw: dict[str, Any] = {"split": split} if gamma is None else {}
        return calibrate(family, eps, delta=delta, gamma=gamma, **kw)
    if delta is not None:
        raise ValueError(f"delta must be None for the pure mechanism family={family!r}; got delta={delta!r}")
    sp = DEFAULT_SPLIT if (gamma is None and split is None) else split

    if family in ("student_t", "student_t_bs19"):
        bs19 = family == "student_t_bs19"
        if gamma is not None:
            # nu > 2 and c(nu) gamma < eps, c = nu (004) or nu + 1 (BS19)
            hi = eps / gamma - (1.0 if bs19 else 0.0)
            if not hi > 2.0:
                raise ValueError(
                    f"gamma must be < eps/{3 if bs19 else 2} for a finite noise std of family={family!r} "
                    f"(needs nu > 2); got gamma={gamma!r}, eps={eps!r}"
                )
            nu = _minimise_1d(lambda v: _std_student_t(eps, gamma, v, bs19), 2.0, hi)
            return calibrate(family, eps, gamma=gamma, nu=nu)
        # at a split, c(nu) gamma = split eps: std = (nu+1)/(2 sqrt(nu-2) (1 - split) eps) -> nu = 5
        gmax = gamma_max_student_t_bs19 if bs19 else gamma_max_student_t_gp
        nu = _minimise_1d(lambda v: _std_student_t(eps, sp * np.asarray(gmax(eps, v)), v, bs19), 2.0, 1e6)
        return calibrate(family, eps, split=sp, nu=nu)

    if family == "gencauchy_nrs07":
        if gamma is not None:
            hi = eps / gamma - 1.0
            if not hi > 3.0:
                raise ValueError(
                    f"gamma must be < eps/4 for a finite noise std of family={family!r} (needs p > 3); "
                    f"got gamma={gamma!r}, eps={eps!r}"
                )
            p = _minimise_1d(lambda v: _std_gencauchy(eps, gamma, v, 1.0, nrs07=True), 3.0, hi)
            return calibrate(family, eps, gamma=gamma, p=p)
        p = _minimise_1d(lambda v: _std_gencauchy(eps, sp * np.asarray(gamma_max_gencauchy_nrs07(eps, v)), v, 1.0, nrs07=True),
                         3.0, 1e4)
        return calibrate(family, eps, split=sp, p=p)

    # family == "gencauchy": minimise over (p, theta), p > 1, theta >= 1, p theta > 3.
    m = check_integer("m", m, minimum=1)
    return _optimise_gencauchy(eps, gamma, sp, m, optimise_theta)


def _optimise_gencauchy(eps: float, gamma: float | None, split: float | None, m: int, optimise_theta: bool) -> Calibration:
    from scipy.optimize import minimize  # noqa: PLC0415 - loaded on first use: importing smoothsens_core does not load scipy.optimize

    def obj(p: np.ndarray, theta: np.ndarray) -> np.ndarray:
        if gamma is not None:
            return _std_gencauchy(eps, gamma, p, theta, m)
        g = split * np.asarray(gamma_max_gencauchy_gp(eps, p, theta, m))
        return _std_gencauchy(eps, g, p, theta, m)

    if gamma is not None and not m * 2.0 * gamma < eps:
        raise ValueError(
            f"gamma must be < eps/(2 m) for a finite noise std of family='gencauchy' "
            f"(needs p theta > 3, so m max(1, p theta - 1) gamma > 2 m gamma); got gamma={gamma!r}, eps={eps!r}, m={m}"
        )
    # grid over (q = p theta in (3, qmax), theta in [1, 8]); p = q / theta must exceed 1
    qmax = (eps / (m * gamma) + 1.0) if gamma is not None else 1e3
    q = 3.0 + np.exp(np.linspace(math.log((qmax - 3.0) * 1e-6), math.log(qmax - 3.0), 160))
    q[-1] = np.nextafter(qmax, 3.0)
    thetas = np.exp(np.linspace(0.0, math.log(8.0), 48)) if optimise_theta else np.array([1.0])
    Q, T = np.meshgrid(q, thetas, indexing="ij")
    P = Q / T
    V = np.where(P > 1.0, obj(P, T), np.inf)
    i, j = np.unravel_index(int(np.argmin(V)), V.shape)
    best = (float(P[i, j]), float(T[i, j]))
    best_v = float(V[i, j])

    def f(x: np.ndarray) -> float:
        # x = (ln(q - 3), ln theta)
        qq = 3.0 + math.exp(x[0])
        th = math.exp(x[1]) if optimise_theta else 1.0
        if th < 1.0 or th > _THETA_MAX or qq / th <= 1.0 or qq >= qmax:
            return math.inf
        return float(obj(np.array([qq / th]), np.array([th]))[0])

    x0 = np.array([math.log(best[0] * best[1] - 3.0), math.log(best[1])])
    res = minimize(f, x0, method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 2000})
    if math.isfinite(float(res.fun)) and float(res.fun) <= best_v:
        qq = 3.0 + math.exp(float(res.x[0]))
        th = math.exp(float(res.x[1])) if optimise_theta else 1.0
        best = (qq / th, th)
    p, theta = best
    if gamma is not None:
        return calibrate_gencauchy(eps, gamma, p, theta, m)
    return calibrate_gencauchy(eps, None, p, theta, m, split=split)


def std_limit_small_gamma(family: str, eps: float, delta: float | None = None) -> float:
    """inf over gamma > 0 (and the shape parameters) of the noise std per unit B at fixed eps.

    The std of every family decreases as gamma -> 0+, so this infimum is the gamma -> 0 limit
    (not attained; B then tends to the global sensitivity):
      Laplace (either scaling), PolyPlace (002 Thm. 8: Var -> 2/eps^2):  sqrt(2)/eps;
      Student's t (004 Lemma 3.5 or BS19):  min_nu (nu+1)/(2 sqrt(nu-2)) / eps = sqrt(3)/eps at nu = 5;
      GenCauchy (004 Lemma 3.3): min over p, theta of theta (p-1)^((p-1)/p) sqrt(Var(p,theta)) / eps,
        evaluated on the optimiser's box theta <= 1000 (1.41422/eps; the value decreases towards
        sqrt(2)/eps as p -> 1+, theta -> inf, a Laplace-like limit);
      GenCauchy NRS07: min_p (p+1) sqrt(Var(p,1)) / eps.
    """
    _check_family(family)
    eps = check_positive("eps", eps)
    if family in ("laplace_gl", "laplace_nrs07", "polyplace"):
        return math.sqrt(2.0) / eps
    if family in ("student_t", "student_t_bs19"):
        return math.sqrt(3.0) / eps
    tiny = 0.0
    if family == "gencauchy_nrs07":
        p = _minimise_1d(lambda v: _std_gencauchy(1.0, tiny, v, 1.0, nrs07=True), 3.0, 1e4)
        return float(_std_gencauchy(1.0, tiny, np.array([p]), 1.0, nrs07=True)[0]) / eps
    cal = _optimise_gencauchy(1.0, 1e-12, None, 1, True)
    return cal.noise_std / eps


# ---------------------------------------------------------------------------------------------
# The comparison table (what `smoothsens calibrate` prints).
# ---------------------------------------------------------------------------------------------
def calibration_table(
    eps: float,
    delta: float | None = None,
    gamma: float | None = None,
    *,
    metric: str = "euclidean",
    optimise: bool = True,
) -> list[dict[str, Any]]:
    """One row per mechanism at a common gamma (default eps/9, 004 Sec. 5), as dicts.

    Keys: family, source, growth, gamma, eta, eps (certified), delta, noise_std (per unit B),
    shape (str), older_source, eps_older (the eps the older NRS07/BS19 constant certifies at the
    same gamma, eta, shape; None if not applicable), error (str, when gamma is infeasible for that
    mechanism; the numeric fields are then None).  Rows: GenCauchy(4,1) and Student's t(4) at the
    Remark's shapes, the same families with optimised shapes (``optimise``), PolyPlace, the Laplace
    mechanisms when ``delta`` is given, and the older NRS07/BS19 calibrations themselves.
    """
    eps = check_positive("eps", eps)
    metric = check_metric(metric, _METRICS)
    if delta is not None:
        delta = check_probability("delta", delta)
    g = DEFAULT_GAMMA_FRACTION * eps if gamma is None else check_positive("gamma", gamma)

    specs: list[tuple[str, str, dict[str, Any]]] = [
        ("gencauchy", "GenCauchy(p=4, theta=1)", {"p": 4.0, "theta": 1.0}),
        ("student_t", "Student t(nu=4)", {"nu": 4.0}),
    ]
    if optimise:
        specs += [("gencauchy", "GenCauchy (optimised p, theta)", {"_opt": True}),
                  ("student_t", "Student t (optimised nu)", {"_opt": True})]
    specs += [("polyplace", "PolyPlace", {})]
    if delta is not None:
        specs += [("laplace_gl", "Laplace g_L (approx.)", {})]
    specs += [("gencauchy_nrs07", "GenCauchy(p=4) [NRS07]", {"p": 4.0}),
              ("student_t_bs19", "Student t(nu=4) [BS19]", {"nu": 4.0})]
    if optimise:
        specs += [("gencauchy_nrs07", "GenCauchy [NRS07] (optimised p)", {"_opt": True}),
                  ("student_t_bs19", "Student t [BS19] (optimised nu)", {"_opt": True})]
    if delta is not None:
        specs += [("laplace_nrs07", "Laplace g_E [NRS07, 002 Cl. 18]", {})]

    rows: list[dict[str, Any]] = []
    for fam, label, kw in specs:
        row: dict[str, Any] = {"family": label, "mechanism": fam, "gamma": g, "metric": metric}
        try:
            try:
                if kw.get("_opt"):
                    cal = optimise_calibration(fam, eps, gamma=g, delta=delta if fam in _NEEDS_DELTA else None)
                else:
                    cal = calibrate(fam, eps, delta=delta if fam in _NEEDS_DELTA else None, gamma=g, metric=metric,
                                    **kw)
            except ValueError:
                if gamma is not None or kw.get("_opt"):
                    raise
                # The common default gamma = eps/9 is above this mechanism's limit (the Laplace
                # mechanisms need gamma ln(1/delta) < eps): use the mechanism's own default split
                # (a third of eps on the scale term) and say so, rather than an infeasible row.
                cal = calibrate(fam, eps, delta=delta if fam in _NEEDS_DELTA else None, gamma=None, metric=metric,
                                **kw)
                row["gamma"] = cal.gamma
                row["note"] = (f"gamma chosen for this mechanism (its own default split, 1/3 of eps on the "
                               f"scale term): the common gamma = eps/9 = {g:.6g} is above its limit")
        except ValueError as exc:
            row.update(source="", growth="", eta=None, eps=None, delta=delta if fam in _NEEDS_DELTA else 0.0,
                       noise_std=None, shape="", older_source="", eps_older=None, error=str(exc))
            rows.append(row)
            continue
        older_src, eps_older = "", None
        if fam == "gencauchy" and cal.shape["theta"] == 1.0 and cal.shape["m"] == 1.0:
            older_src, eps_older = "NRS07", float(_eps_gencauchy_nrs07(cal.gamma, cal.eta, cal.shape["p"]))
        elif fam == "student_t":
            older_src, eps_older = "BS19", float(_eps_student_t_bs19(cal.gamma, cal.eta, cal.shape["nu"]))
        elif fam == "laplace_gl":
            older_src, eps_older = "NRS07 (g_E, 002 Cl. 18)", float(_eps_laplace_nrs07(cal.gamma, cal.eta, cal.delta))
        row.update(
            source=cal.source, growth=cal.growth, eta=cal.eta, eps=cal.eps, delta=cal.delta,
            noise_std=cal.noise_std,
            shape=", ".join(f"{k}={v:.4g}" for k, v in cal.shape.items() if k != "m" or v != 1.0),
            older_source=older_src, eps_older=eps_older, error="",
        )
        rows.append(row)
    return rows


def format_calibration_table(rows: list[dict[str, Any]]) -> str:
    """The rows of :func:`calibration_table` as aligned text columns."""
    cols = [("family", "family"), ("source", "source"), ("shape", "shape"), ("gamma", "gamma"), ("eta", "eta"),
            ("eps", "eps (certified)"), ("delta", "delta"), ("noise_std", "std per unit B"),
            ("eps_older", "eps older"), ("older_source", "older")]

    def cell(r: dict[str, Any], k: str) -> str:
        v = r.get(k)
        if k == "source" and r.get("error"):
            return "infeasible: " + r["error"]
        if v is None:
            return "-"
        if isinstance(v, float):
            return "inf" if math.isinf(v) else f"{v:.6g}"
        return str(v)

    table = [[cell(r, k) for k, _ in cols] for r in rows]
    # the error text can be long: keep it last by moving it to a trailing note
    notes = []
    for r, line in zip(rows, table, strict=True):
        if r.get("note"):
            notes.append(f"  {r['family']}: {r['note']}")
            line[3] += " *"
        if r.get("error"):
            notes.append(f"  {r['family']}: {r['error']}")
            line[1] = "infeasible (see note)"
    widths = [max(len(h), *(len(line[i]) for line in table)) for i, (_, h) in enumerate(cols)]
    out = ["  ".join(h.ljust(w) if i < 3 else h.rjust(w) for i, ((_, h), w) in enumerate(zip(cols, widths, strict=True)))]
    out.append("  ".join("-" * w for w in widths))
    for line in table:
        out.append("  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths, strict=True))))
    if notes:
        out.append("")
        out.append("notes:")
        out.extend(notes)
    return "\n".join(out)


from .tight import (  # noqa: E402
    TightCalibration,
    TightDeltaResult,
    TightLaplaceCalibration,
    TightResult,
    format_tight_table,
    format_tight_table_laplace,
    hockey_stick_laplace,
    optimise_tight,
    tight_calibration,
    tight_calibration_laplace,
    tight_delta_laplace,
    tight_epsilon,
    tight_eta,
    tight_eta_laplace,
    tight_table,
    tight_table_laplace,
)

__all__ += ["TightResult", "TightCalibration", "tight_epsilon", "tight_eta", "tight_calibration", "tight_table",
            "format_tight_table", "optimise_tight", "TightDeltaResult", "TightLaplaceCalibration",
            "hockey_stick_laplace", "tight_delta_laplace", "tight_eta_laplace", "tight_calibration_laplace",
            "tight_table_laplace", "format_tight_table_laplace"]
