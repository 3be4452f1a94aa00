"""smoothsens_core: the fast NumPy core of smoothsens.

Growth functions, noise families, smooth-sensitivity evaluators and mechanism calibration for
smooth-sensitivity privacy mechanisms (differential privacy, Geo-Privacy, asymmetric DP).

This package imports NumPy, SciPy and the standard library only. Its one link to the SymPy
derivations is the generated package :mod:`smoothsens_core._generated`, which contains no SymPy.
"""

__version__ = "0.1.0"
