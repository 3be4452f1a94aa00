"""Black-box auditors for third-party implementations.

Researchers hold their own code: a function B(x) claimed to be a smooth upper bound for a query, a
sampler claimed to draw from a noise distribution, a ``release(x, rng)`` claimed to be eps-GP or
eps-DP.  These auditors test such code only through calls, against what the core knows to be true:

* :func:`audit_smooth_bound` - conditions (1) and (2) of 004 Def. 8 and the comparison with the
  smooth sensitivity B* (004 Def. 9, Lemma 3.2), violations certified in mpmath;
* :func:`audit_sampler` - goodness of fit against the exact CDF of a core distribution
  (Kolmogorov-Smirnov, Anderson-Darling, tail quantiles, moments) with a Holm decision rule;
* :func:`audit_blackbox_mechanism` - a statistically valid lower bound on the privacy loss from
  samples (Clopper-Pearson), beside the exact privacy loss when the mechanism exposes its density
  (:func:`verify.audit.exact.audit_density_mechanism`, the exact auditor, is a different function);
* :func:`audit_floating_mechanism` - outputs of M(x) that M(x') cannot produce in binary64 (Mironov
  2012): a certificate of infinite privacy loss (:mod:`verify.audit.blackbox.floating`);
* :func:`plot_privacy_curve` - the estimated privacy curve delta(eps) against the claimed point;
* :func:`check_rng_use` - whether a release draws from the ``rng`` it is given (reproducibility);
* neighbourhood relations (:mod:`.relations`: substitute-one, add/remove-one, query answers in l_inf or
  l_1, euclidean, Hamming, p-neighbouring) and the input search (:class:`InputSearch`) of the mechanism
  audit, whose outputs may be vectors, tuples or booleans (:mod:`.shaped`, :mod:`.events`).
"""

from ._callables import EvaluationFailure, RngUse, check_rng_use, load_callable
from .bound import DEFAULT_BOUND_BUDGET, BoundAuditReport, BoundViolation, audit_smooth_bound
from .mechanism import (
    DEFAULT_MECHANISM_BUDGET,
    MechanismAuditReport,
    PairEstimate,
    audit_blackbox_mechanism,
    clopper_pearson,
)
from .floating import (
    DEFAULT_FLOATING_BUDGET,
    AdditiveModel,
    FloatingAuditReport,
    FloatingCertificate,
    IntegerModel,
    OutputModel,
    SnappedModel,
    SnappingMechanism,
    audit_floating_mechanism,
)
from .privacy_curve import lower_bound_curve, plot_privacy_curve
from .relations import AddRemoveOne, Euclidean, Hamming, PNeighbouring, QueryAnswers, Relation, SubstituteOne
from .input_search import InputSearch
from .shaped import audit_shaped_pairs
from .queries import BUILTIN_QUERIES, BoundQuery, builtin_query, expression_query
from .sampler import (
    DEFAULT_SAMPLER_BUDGET,
    SamplerAuditReport,
    SamplerTest,
    anderson_darling_cdf,
    audit_sampler,
)

__all__ = [
    "Relation",
    "SubstituteOne",
    "AddRemoveOne",
    "QueryAnswers",
    "Euclidean",
    "Hamming",
    "PNeighbouring",
    "InputSearch",
    "audit_shaped_pairs",
    "audit_smooth_bound",
    "audit_sampler",
    "audit_blackbox_mechanism",
    "BoundAuditReport",
    "BoundViolation",
    "SamplerAuditReport",
    "SamplerTest",
    "MechanismAuditReport",
    "PairEstimate",
    "anderson_darling_cdf",
    "clopper_pearson",
    "DEFAULT_SAMPLER_BUDGET",
    "DEFAULT_MECHANISM_BUDGET",
    "BoundQuery",
    "builtin_query",
    "expression_query",
    "BUILTIN_QUERIES",
    "DEFAULT_BOUND_BUDGET",
    "EvaluationFailure",
    "load_callable",
    "RngUse",
    "check_rng_use",
    "audit_floating_mechanism",
    "FloatingAuditReport",
    "FloatingCertificate",
    "OutputModel",
    "AdditiveModel",
    "SnappedModel",
    "IntegerModel",
    "SnappingMechanism",
    "DEFAULT_FLOATING_BUDGET",
    "plot_privacy_curve",
    "lower_bound_curve",
]
