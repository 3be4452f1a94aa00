"""Audits of mechanisms and bounds.

* :mod:`verify.audit.privacy_loss` - the exact auditor (output densities, mpmath certificates);
* :mod:`verify.audit.blackbox` - black-box audits of third-party code through calls only;
* :mod:`verify.audit.catalogue` - every calibrated mechanism of the core, for the claims.
"""
