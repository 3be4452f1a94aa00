"""The experiment layer of 004 Sec. 5: synthetic stand-in data, the mechanisms M0-M3 and M_LDP,
MSE/ASE estimators and the runners behind ``smoothsens experiment`` and the notebooks.

Modules: :mod:`.data` (seeded stand-ins for the papers' data sets), :mod:`.mechanisms`
(vectorised local mechanisms), :mod:`.estimators` (MSE, ASE, analytic MSE of 004 Sec. 4.1.1),
:mod:`.queries` (the threshold and KDE queries with f, K_f and B*), :mod:`.runner` (experiments)
and :mod:`.plots` (figures; imports matplotlib lazily).
"""

from . import data, estimators, mechanisms, queries, runner

__all__ = ["data", "estimators", "mechanisms", "queries", "runner"]
