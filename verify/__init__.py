"""verify: the claim registry, the privacy-loss auditor, Hypothesis strategies and the CLI."""

from smoothsens_core import __version__

__all__ = ["__version__"]
