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
derivations/polyplace.py); the private names ``_eps_*`` are those evaluators.

The package is split by topic, and this module re-exports the public names of each:
:mod:`~smoothsens_core.calibration.record` (the :class:`Calibration` record and the defaults),
:mod:`~smoothsens_core.calibration.laws` (the printed laws, read from ``laws.toml``),
:mod:`~smoothsens_core.calibration.families` (one calibration per family, and :func:`calibrate`),
:mod:`~smoothsens_core.calibration.printed_std` (002 App. B's standard deviations as printed),
:mod:`~smoothsens_core.calibration.optimise` (the shape optimiser), :mod:`~smoothsens_core.calibration.table`
(the comparison table) and :mod:`~smoothsens_core.calibration.tight` (the exact worst-case loss).
"""

from __future__ import annotations

from .families import (
    FAMILIES,
    calibrate,
    calibrate_gencauchy,
    calibrate_gencauchy_nrs07,
    calibrate_laplace_approx,
    calibrate_laplace_nrs07,
    calibrate_polyplace,
    calibrate_student_t,
    calibrate_student_t_bs19,
)
from .families import _eps_polyplace as _eps_polyplace
from .laws import LAWS
from .laws import _eps_gencauchy_gp as _eps_gencauchy_gp
from .laws import _eps_gencauchy_nrs07 as _eps_gencauchy_nrs07
from .laws import _eps_laplace_gl as _eps_laplace_gl
from .laws import _eps_laplace_nrs07 as _eps_laplace_nrs07
from .laws import _eps_student_t_bs19 as _eps_student_t_bs19
from .laws import _eps_student_t_gp as _eps_student_t_gp
from .laws import _load_laws as _load_laws
from .optimise import optimise_calibration, std_limit_small_gamma
from .printed_std import std_gencauchy_nrs07_printed, std_laplace_nrs07_printed, std_student_t_bs19_printed
from .record import DEFAULT_GAMMA_FRACTION, DEFAULT_SPLIT, Calibration
from .table import calibration_table, format_calibration_table
from .tight import (
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

#: The printed laws by family (:data:`smoothsens_core.calibration.laws.LAWS`), under the name the tests of
#: laws.toml read.
_LAWS = LAWS

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
    "TightResult",
    "TightCalibration",
    "tight_epsilon",
    "tight_eta",
    "tight_calibration",
    "tight_table",
    "format_tight_table",
    "optimise_tight",
    "TightDeltaResult",
    "TightLaplaceCalibration",
    "hockey_stick_laplace",
    "tight_delta_laplace",
    "tight_eta_laplace",
    "tight_calibration_laplace",
    "tight_table_laplace",
    "format_tight_table_laplace",
]
