"""Privacy accounting with certified enclosures: privacy curves of single mechanisms, privacy-loss
distributions with a certified discretisation, and their composition.

* :class:`PrivacyCurve` -- delta(eps) of one additive-noise mechanism over its worst-case (or declared) pair as an
  enclosure [lower, upper] (:mod:`verify.accounting.curve`), eps(delta) by certified bisection.
* :func:`compose` -- k-fold and heterogeneous composition by convolution of pessimistic (dominating) and
  optimistic (dominated) grid PLDs (:mod:`verify.accounting.pld`); the result's ``delta(eps)`` is again an
  enclosure.
* :func:`compose_exact` -- the exact composition of Gaussian mechanisms (one Gaussian pair with
  mu = sqrt(k sum mu_i^2), Dong, Roth & Su 2019 Cor. 3.3), certified in arb with no grid.
* :func:`to_dp_accounting` -- export to dp-accounting's PLD format (optional dependency);
  ``plot(ax, claim=(eps, delta))`` on curves and PLDs draws both ends with the claimed point.
"""

from .curve import FAMILIES, EpsilonInterval, PrivacyCurve, invert_delta
from .gaussian_composition import ComposedGaussianCurve, compose_exact
from .plot import plot_curve
from .pld import GridPLD, common_step, compose, from_curve, natural_step, to_dp_accounting, to_dp_accounting_pld

__all__ = ["FAMILIES", "EpsilonInterval", "PrivacyCurve", "invert_delta", "GridPLD", "compose", "from_curve",
           "natural_step", "common_step", "to_dp_accounting", "to_dp_accounting_pld", "plot_curve",
           "ComposedGaussianCurve", "compose_exact"]
