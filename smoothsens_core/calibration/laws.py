"""The printed eps laws linear in (gamma, eta), read from ``laws.toml``, and the checks they share.

Each law is eps = c(params) gamma + d(params) eta (004 Lemmas 3.3, 3.5, 3.6, Cor. 3.2; [NRS07] and [BS19]
as quoted in 004, Remark after Lemma 3.5, and 002 Claims 16-18).  Every eps formula, its inverse in eta and
the largest admissible gamma come from ``smoothsens_core._generated.calibration`` (derived in
derivations/privacy_loss.py and derivations/polyplace.py), never typed here: the calibrations invert with
the generated eta_* / gamma_max_* (sp.solve of the derived eps) and certify with the generated forward
eps_*, so an inversion error would show in ``Calibration.eps``.  The private aliases ``_eps_*`` keep the
names the claims (verify/claims/sets/calibration.py) use; the package re-exports them.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .._generated.calibration import (
    eps_gencauchy_gp as _eps_gencauchy_gp,
    eps_gencauchy_nrs07 as _eps_gencauchy_nrs07,
    eps_laplace_gl as _eps_laplace_gl,
    eps_laplace_nrs07 as _eps_laplace_nrs07,
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
from ..validation import check_in_interval, check_metric, check_positive, check_real
from .record import CALIBRATION_METRICS, DEFAULT_SPLIT, Calibration

__all__ = ["LAWS", "LinearLaw", "check_gamma_below", "check_nu", "check_p", "check_split", "check_theta",
           "gamma_from_split", "std_over_eta"]


def check_split(split: Any) -> float:
    """The budget split, the fraction of eps spent on the scale term, in [0, 1] (004 Sec. 5 uses 1/3)."""
    return check_in_interval("split", split, 0.0, 1.0)


def check_gamma_below(gamma: Any, bound: float, why: str) -> float:
    """gamma in (0, bound) with a message naming the bound and the reason."""
    g = check_positive("gamma", gamma)
    if not g < bound:
        raise ValueError(f"gamma must be in (0, {bound!r}) {why}; got gamma={g!r}")
    return g


def check_p(p: Any) -> float:
    """The GenCauchy exponent p in (1, inf) (004 Lemma 3.3)."""
    return check_in_interval("p", p, 1.0, math.inf)


def check_theta(theta: Any) -> float:
    """The GenCauchy shape theta in [1, inf) (004 Lemma 3.3)."""
    v = check_real("theta", theta)
    if not v >= 1.0:
        raise ValueError(f"theta must be in [1, inf) (004 Lemma 3.3); got theta={v!r}")
    return v


def check_nu(nu: Any) -> float:
    """The Student's t degrees of freedom nu in (1, inf) (004 Lemma 3.5)."""
    return check_in_interval("nu", nu, 1.0, math.inf)


def std_over_eta(noise: Any, eta: float) -> float:
    """std((B/eta) Z) per unit B, i.e. std(Z)/eta (inf when Z has no finite variance)."""
    s = float(noise.std())
    return s / eta if math.isfinite(s) else math.inf


def gamma_from_split(split: Any, bound: float) -> float:
    """gamma when the caller gives none: the fraction ``split`` (default :data:`DEFAULT_SPLIT`, 004 Sec. 5)
    of the largest admissible gamma ``bound``, i.e. the scale term spends split * eps."""
    return (DEFAULT_SPLIT if split is None else check_split(split)) * bound


@dataclass(frozen=True)
class LinearLaw:
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
        metric = check_metric(metric, CALIBRATION_METRICS)
        bound = float(self.gamma_max(eps, *params))
        if gamma is None:
            gamma = gamma_from_split(split, bound)
        named = "".join(f"{k}={v!r}, " for k, v in shown.items())
        gamma = check_gamma_below(gamma, bound, f"so that eta > 0: need {self.need} ({named}eps={eps!r})")
        eta = float(self.eta_of(eps, gamma, *params))
        return Calibration(
            family=self.family,
            source=self.source if source is None else source,
            eps=float(self.eps_of(gamma, eta, *params)),
            delta=delta,
            gamma=gamma,
            eta=eta,
            noise=noise,
            noise_std=std_over_eta(noise, eta),
            shape=shape,
            growth=self.growth,
            formula=self.formula,
            metric=metric,
        )


#: The printed laws' metadata (source, formula, growth, need), one table per family: package data
#: next to this module, read once at import by :func:`_load_laws`.
_LAWS_FILE = Path(__file__).with_name("laws.toml")
_LAW_FIELDS = ("source", "formula", "growth", "need")


def _load_laws(path: Path, evaluators: Mapping[str, tuple[Any, Any, Any]]) -> dict[str, LinearLaw]:
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
        laws[family] = LinearLaw(family=family, gamma_max=gamma_max, eta_of=eta_of, eps_of=eps_of,
                                  **{k: entry[k] for k in _LAW_FIELDS})
    return laws


#: family -> its printed law (004 Lemmas 3.3, 3.5, 3.6; NRS07 / BS19 as quoted by 004 and 002).
LAWS = _load_laws(_LAWS_FILE, {
    "gencauchy": (gamma_max_gencauchy_gp, eta_gencauchy_gp, _eps_gencauchy_gp),
    "student_t": (gamma_max_student_t_gp, eta_student_t_gp, _eps_student_t_gp),
    "laplace_gl": (gamma_max_laplace_gl, eta_laplace_gl, _eps_laplace_gl),
    "gencauchy_nrs07": (gamma_max_gencauchy_nrs07, eta_gencauchy_nrs07, _eps_gencauchy_nrs07),
    "student_t_bs19": (gamma_max_student_t_bs19, eta_student_t_bs19, _eps_student_t_bs19),
    "laplace_nrs07": (gamma_max_laplace_nrs07, eta_laplace_nrs07, _eps_laplace_nrs07),
})
