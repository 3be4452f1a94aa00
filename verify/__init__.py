"""verify: the claim registry, the privacy-loss auditor, Hypothesis strategies and the CLI.

The black-box auditors of third-party code (:mod:`verify.audit.blackbox`) are exported here:
``verify.audit_smooth_bound``, ``verify.audit_sampler`` and ``verify.audit_mechanism`` (the
black-box mechanism auditor; the exact, density-based one stays
``verify.audit.privacy_loss.audit_mechanism``).  They are imported on first access (PEP 562), so
``import verify`` stays cheap for the CLI and the other modules.
"""

from typing import Any

from smoothsens_core import __version__

__all__ = ["__version__", "audit_smooth_bound", "audit_sampler", "audit_mechanism"]

_BLACKBOX = ("audit_smooth_bound", "audit_sampler", "audit_mechanism")


def __getattr__(name: str) -> Any:
    if name in _BLACKBOX:
        from .audit import blackbox

        return getattr(blackbox, name)
    raise AttributeError(f"module 'verify' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_BLACKBOX))
