"""Independent mpmath references, written from the papers only (never from :mod:`smoothsens_core`).

* :mod:`verify.reference.distributions` -- one reference per core noise family (density, cdf, sf,
  interval mass, kinks, moments), keyed by the core class (:func:`reference_for`).
* :mod:`verify.reference.queries` -- the queries of 004 (threshold, two-way threshold, soft threshold,
  Gaussian KDE, ...) and their smooth-sensitivity ingredients in mpmath.
* :mod:`verify.reference.search` -- the golden-section searches the claims and auditors share.

Every function evaluates at the caller's working precision: wrap calls in ``mpmath.workdps(...)``.
"""
