"""Claims: the registry of checkable statements of the seeds, the claim sets, and the audit runner.

* :mod:`verify.claims.registry` - :class:`Claim`, :class:`ClaimResult`, :class:`Verdict`, the
  :func:`claim` decorator and :func:`load_registry`;
* :mod:`verify.claims.sets` - one module per topic, each registering its claims;
* :mod:`verify.claims.runner` - runs selected claims and writes the reports of ``smoothsens audit``.

The registry's public names are re-exported here, so ``from verify.claims import claim`` works.
"""

from .registry import *  # noqa: F403 - the registry is this package's public face
from .registry import __all__ as _registry_all

__all__ = list(_registry_all)
