"""verify: the claim registry, the privacy-loss auditors, Hypothesis strategies and the CLI.

The auditors of mechanisms and of third-party code are exported here:

* ``verify.audit_density_mechanism`` - the exact auditor of a mechanism with a log-density
  (:mod:`verify.audit.exact`: worst-case search, mpmath certificates);
* ``verify.audit_smooth_mechanism`` - the exact auditor of a calibrated (abstract) mechanism over
  every (f, B) of 004 Def. 8;
* ``verify.audit_blackbox_mechanism``, ``verify.audit_smooth_bound``, ``verify.audit_sampler`` - the
  black-box auditors of :mod:`verify.audit.blackbox` (calls only).

They are imported on first access (PEP 562), so ``import verify`` stays cheap for the CLI and the
other modules.
"""

from typing import Any

from smoothsens_core import __version__

__all__ = ["__version__", "audit_smooth_bound", "audit_sampler", "audit_blackbox_mechanism",
           "audit_density_mechanism", "audit_smooth_mechanism"]

_BLACKBOX = ("audit_smooth_bound", "audit_sampler", "audit_blackbox_mechanism")
_EXACT = ("audit_density_mechanism", "audit_smooth_mechanism")


def __getattr__(name: str) -> Any:
    if name in _BLACKBOX:
        from .audit import blackbox  # noqa: PLC0415 - PEP 562 lazy attribute: `import verify` loads no auditor

        return getattr(blackbox, name)
    if name in _EXACT:
        from .audit import exact  # noqa: PLC0415 - PEP 562 lazy attribute: `import verify` loads no auditor

        return getattr(exact, name)
    raise AttributeError(f"module 'verify' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_BLACKBOX) + list(_EXACT))
