"""Audits of mechanisms and bounds.

* :mod:`verify.audit.exact` - the exact auditor (output densities, worst-case search, mpmath
  certificates), one module per part: loss, smooth (004 Def. 8), approx ((eps, delta)),
  neighbourhoods, concrete, result, claims;
* :mod:`verify.audit.blackbox` - black-box audits of third-party code through calls only;
* :mod:`verify.audit.catalogue` - every calibrated mechanism of the core, for the claims.
"""
