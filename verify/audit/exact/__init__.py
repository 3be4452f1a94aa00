"""The exact auditor: privacy loss from output densities, worst-case search, mpmath certificates.

* :mod:`~verify.audit.exact.loss` - the privacy loss L(y; x, x') = ln p_x(y) - ln p_x'(y) of a
  concrete mechanism in float and mpmath, and the certification threshold;
* :mod:`~verify.audit.exact.smooth` - the abstract smooth-sensitivity mechanism of 004 Def. 8: the
  worst case over every (f, B) a calibration must cover;
* :mod:`~verify.audit.exact.approx` - (eps, delta): the hockey-stick divergence from exact CDFs (the
  binary64 fast path that proposes worst pairs and excess sets);
* :mod:`~verify.audit.exact.enclosure` - the certified enclosure [lower, upper] of the hockey-stick
  divergence (ball arithmetic root isolation of the loss, family tails) that decides (eps, delta) claims;
* :mod:`~verify.audit.exact.curve` - (eps, delta) of concrete mechanisms (continuous and discrete):
  the exact privacy curve delta(eps), :func:`privacy_curve`, mpmath-certified;
* :mod:`~verify.audit.exact.neighbourhoods` - Euclidean (GP), Hamming (DP) and ordered (003) pairs;
* :mod:`~verify.audit.exact.concrete` - worst-case search of a mechanism with a density over a
  neighbourhood, and finite brute force;
* :mod:`~verify.audit.exact.result` - :class:`AuditResult` (outcome pass / violated / inconclusive);
"""

from .approx import bad_set, hockey_stick, hockey_stick_mp, interval_mass
from .enclosure import Enclosure, hockey_stick_enclosure
from .concrete import audit_density_mechanism, audit_finite
from .curve import (
    AdditiveNoiseMechanism,
    PrivacyCurve,
    audit_density_mechanism_approx,
    gaussian_delta_balle_wang,
    pair_hockey_stick,
    pair_hockey_stick_enclosure,
    pair_hockey_stick_mp,
    privacy_curve,
)
from .loss import PARAM_ROUNDING_TOL, cert_threshold, check_has_density, log_density_mp, privacy_loss, privacy_loss_mp
from .neighbourhoods import EuclideanNeighbourhood, HammingNeighbourhood, OrderedNeighbourhood
from .result import FLOAT_EXCESS_TOL, OUTCOMES, AuditResult
from .smooth import abstract_loss, abstract_loss_mp, audit_smooth_mechanism
from ._search import search_distance

__all__ = [
    "AuditResult",
    "OUTCOMES",
    "FLOAT_EXCESS_TOL",
    "PARAM_ROUNDING_TOL",
    "cert_threshold",
    "check_has_density",
    "privacy_loss",
    "privacy_loss_mp",
    "log_density_mp",
    "abstract_loss",
    "abstract_loss_mp",
    "audit_smooth_mechanism",
    "search_distance",
    "interval_mass",
    "bad_set",
    "hockey_stick",
    "hockey_stick_mp",
    "Enclosure",
    "hockey_stick_enclosure",
    "pair_hockey_stick_enclosure",
    "EuclideanNeighbourhood",
    "HammingNeighbourhood",
    "OrderedNeighbourhood",
    "audit_density_mechanism",
    "audit_finite",
    "AdditiveNoiseMechanism",
    "PrivacyCurve",
    "privacy_curve",
    "pair_hockey_stick",
    "pair_hockey_stick_mp",
    "audit_density_mechanism_approx",
    "gaussian_delta_balle_wang",
]
