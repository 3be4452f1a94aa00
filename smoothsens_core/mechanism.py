"""The mechanism contract, and the one smooth-sensitivity mechanism type from calibration to verdict.

A smooth-sensitivity mechanism (004 Lemmas 3.3, 3.5, 3.6, Cor. 3.2; 002 Thm. 8) releases

    M(x) = f(x) + (B(x) / eta) * Z,     Z ~ a standardised noise distribution (loc 0, scale 1),

so its output density at y is  p_x(y) = (eta / B(x)) * h((y - f(x)) * eta / B(x)),  with h the
density of Z.  :class:`SmoothSensitivityMechanism` is that mechanism: a
:class:`~smoothsens_core.calibration.Calibration` produces it (``calibration.mechanism(f, B)``), and
the exact auditor of ``verify.audit`` audits it, either concretely (through ``log_density`` over
neighbouring inputs) or abstractly (without f and B: the worst case over every (f, B) allowed by
004 Def. 8, from ``noise``, ``eta``, ``growth``, ``Lambda`` and ``m`` alone).

Anything else a user wants audited only has to satisfy :class:`Mechanism` (and, for certified
violations, :class:`MechanismWithReference`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .distributions._base import ContinuousDistribution
from .growth import GrowthFunction
from .validation import check_integer, check_metric, check_positive, check_probability, check_rng

__all__ = ["Mechanism", "MechanismWithReference", "SmoothSensitivityMechanism"]


def _check_outputs(y: ArrayLike) -> NDArray[np.float64]:
    """Outputs y as a float array; NaN is rejected naming y (not x)."""
    try:
        arr = np.asarray(y, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"y must be an array of real numbers; got {type(y).__name__}") from exc
    if arr.size and np.any(np.isnan(arr)):
        raise ValueError(f"y must not contain NaN; got NaN at index {tuple(int(i) for i in np.argwhere(np.isnan(arr))[0])}")
    return arr


@runtime_checkable
class Mechanism(Protocol):
    """The contract of a mechanism the exact auditor can audit.

    Attributes
    ----------
    eps     the claimed privacy parameter: per unit distance for Geo-Privacy (``metric``
            ``"euclidean"``, 004 Def. 5), plain eps for DP (``"hamming"``, neighbours at distance
            1) and for asymmetric DP (``"p-neighbouring"``, 003 Def. IV.2).
    delta   the claimed additive slack (0 for a pure guarantee).
    metric  the input metric, one of :data:`smoothsens_core.validation.METRICS`.

    Methods
    -------
    log_density(x, y)
        ln p_x(y): the exact log-density (or log-pmf for discrete outputs) of the output y given
        the input x, vectorised over matching batches; -inf where y is outside the support.

    Optionally (see :class:`MechanismWithReference`) ``log_density_mp(x, y, dps)``: the same
    number in mpmath at ``dps`` digits, written independently of ``log_density``; it is what turns
    a float excess into a certified violation.  The core's :class:`SmoothSensitivityMechanism`
    does not need it: the auditor has an independent mpmath reference for every core noise family.
    """

    eps: float
    delta: float
    metric: str

    def log_density(self, x: Any, y: ArrayLike) -> NDArray[np.float64]: ...


@runtime_checkable
class MechanismWithReference(Mechanism, Protocol):
    """A :class:`Mechanism` that also gives its log-density in mpmath (for certificates)."""

    def log_density_mp(self, x: Any, y: Any, dps: int) -> Any: ...


@dataclass(frozen=True, kw_only=True)
class SmoothSensitivityMechanism:
    """M(x) = f(x) + (B(x)/eta) Z with Z drawn from ``noise`` (standardised: loc 0, scale 1).

    Fields
    ------
    noise    the standardised noise distribution Z (a :mod:`smoothsens_core.distributions` object).
    eta      the divisor of the noise scale (> 0).
    eps      the claimed eps (per unit distance for GP, plain for DP); delta the claimed slack.
    metric   "euclidean" (GP, 004 Def. 5) or "hamming" (DP).
    growth   the growth function of the smooth bound B (g_E or g_L of 004 Sec. 3.1.2), or None when
             unknown (a concrete mechanism can still be audited through its density).
    Lambda   the neighbourhood radius of 004 Def. 5 (inf allowed).
    m        number of outputs (004 Cor. 3.2: l1 metric on the outputs).
    f, B     vectorised callables on arrays of inputs (B > 0), or None for the abstract mechanism
             (what a calibration certifies before the query is chosen).
    name, source   a label and the citation of the calibration (e.g. "004 Lemma 3.5").

    This class certifies nothing itself: a :class:`~smoothsens_core.calibration.Calibration`
    does, and ``verify.audit`` checks it.
    Output density (004 Lemma 3.3 proof): p_x(y) = (eta/B(x)) h((y - f(x)) eta / B(x)).
    """

    noise: ContinuousDistribution
    eta: float
    eps: float
    delta: float = 0.0
    metric: str = "euclidean"
    growth: GrowthFunction | None = None
    Lambda: float = math.inf
    m: int = 1
    f: Callable[[Any], ArrayLike] | None = None
    B: Callable[[Any], ArrayLike] | None = None
    name: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.noise, ContinuousDistribution):
            raise TypeError(f"noise must be a smoothsens_core distribution; got {type(self.noise).__name__}")
        object.__setattr__(self, "eta", check_positive("eta", self.eta))
        object.__setattr__(self, "eps", check_positive("eps", self.eps))
        # delta = 0 is a pure guarantee; otherwise delta must be a probability in (0, 1) (NaN fails).
        if not (isinstance(self.delta, (int, float)) and self.delta == 0.0):
            object.__setattr__(self, "delta", check_probability("delta", self.delta))
        object.__setattr__(self, "metric", check_metric(self.metric, allowed=("euclidean", "hamming")))
        object.__setattr__(self, "Lambda", check_positive("Lambda", self.Lambda, allow_inf=True))
        object.__setattr__(self, "m", check_integer("m", self.m, minimum=1))
        if self.growth is not None and not isinstance(self.growth, GrowthFunction):
            raise TypeError(f"growth must be a GrowthFunction or None; got {type(self.growth).__name__}")
        if (self.f is None) != (self.B is None):
            raise ValueError("f and B must be given together (or both None for the abstract mechanism)")
        if self.noise.loc != 0.0 or self.noise.scale != 1.0:
            raise ValueError(
                f"noise must be standardised (loc=0, scale=1); got loc={self.noise.loc}, "
                f"scale={self.noise.scale}"
            )

    # -- the abstract mechanism (004 Def. 8 abstraction) -----------------------------------------
    @property
    def is_abstract(self) -> bool:
        """True when f and B are not given: only the calibration's worst case can be audited."""
        return self.f is None

    def with_query(self, f: Callable[[Any], ArrayLike], B: Callable[[Any], ArrayLike], *,
                   name: str | None = None) -> "SmoothSensitivityMechanism":
        """The same calibrated mechanism applied to the query f with smooth bound B."""
        fields = {k: getattr(self, k) for k in self.__dataclass_fields__}
        fields.update(f=f, B=B, name=self.name if name is None else name)
        return SmoothSensitivityMechanism(**fields)

    def describe(self) -> str:
        """One line: noise, eta, growth, eps (delta), metric, Lambda, m."""
        g = "growth unknown" if self.growth is None else f"{self.growth.name}(gamma={self.growth.gamma:g})"
        dl = f", delta={self.delta:g}" if self.delta else ""
        lam = "" if math.isinf(self.Lambda) else f", Lambda={self.Lambda:g}"
        mm = f", m={self.m}" if self.m > 1 else ""
        return f"{self.noise!r}, eta={self.eta:.6g}, {g}, eps={self.eps:.6g}{dl}, {self.metric}{lam}{mm}"

    # -- the concrete mechanism --------------------------------------------------------------------
    def _require_query(self) -> None:
        if self.f is None:
            raise ValueError(
                "this mechanism has no query: give f and B (calibration.mechanism(f, B) or "
                ".with_query(f, B)) to evaluate densities or release values"
            )

    def _scale(self, x: Any) -> NDArray[np.float64]:
        self._require_query()
        b = np.asarray(self.B(x), dtype=float)  # type: ignore[misc]
        if b.size and not np.all(b > 0):
            raise ValueError("B(x) must be > 0 for the smooth-sensitivity mechanism")
        return b / self.eta

    def log_density(self, x: Any, y: ArrayLike) -> NDArray[np.float64]:
        """ln p_x(y) = ln h((y - f(x))/s(x)) - ln s(x), with s(x) = B(x)/eta."""
        y_arr = _check_outputs(y)
        s = self._scale(x)
        fx = np.asarray(self.f(x), dtype=float)  # type: ignore[misc]
        if fx.size and np.any(np.isnan(fx)):
            raise ValueError("f(x) is NaN for some input x: check x (NaN or outside the query's domain)")
        z = (y_arr - fx) / s
        return np.asarray(self.noise.logpdf(z)) - np.log(s)

    def release(self, x: Any, rng: Any) -> NDArray[np.float64]:
        """One draw of M(x) per input (vectorised over an array of inputs)."""
        gen = check_rng(rng)
        s = self._scale(x)
        fx = np.asarray(self.f(x), dtype=float)  # type: ignore[misc]
        return fx + s * self.noise.sample(np.shape(fx), gen)
