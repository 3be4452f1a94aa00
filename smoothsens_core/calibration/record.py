"""The calibration record and the defaults every calibration shares.

A :class:`Calibration` is what every calibration function of this package returns: the parameters of
M(x) = f(x) + (B(x)/eta) Z, the eps the cited result certifies at them, and the noise standard deviation
per unit smooth sensitivity (see the package docstring of :mod:`smoothsens_core.calibration`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..growth import GrowthFunction, growth_exp, growth_linear
from ..mechanism import SmoothSensitivityMechanism
from ..validation import check_metric

__all__ = ["Calibration", "DEFAULT_SPLIT", "DEFAULT_GAMMA_FRACTION"]

#: Fraction of eps spent on the scale (gamma) term when ``gamma`` is None: 004 Sec. 5 sets
#: nu = 3, nu gamma = eps/3 for the Student's t mechanism.
DEFAULT_SPLIT = 1.0 / 3.0
#: gamma/eps used by :func:`calibration_table` when no gamma is given: 004 Sec. 5 (nu = 3,
#: nu gamma = eps/3, hence gamma = eps/9); one common gamma for every row (B depends on gamma).
DEFAULT_GAMMA_FRACTION = 1.0 / 9.0

#: The metrics a calibration certifies (:data:`smoothsens_core.validation.METRICS`): "euclidean" (GP,
#: eps per unit distance, 004 Def. 5) and "hamming" (DP with the Hamming metric, 004 Remark after Lemma 3.5).
CALIBRATION_METRICS = ("euclidean", "hamming")


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
            metric=check_metric(self.metric, CALIBRATION_METRICS),
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
