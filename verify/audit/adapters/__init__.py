"""Adapters: mechanisms of real DP libraries as black-box ``release(x, rng)`` test subjects.

One module per library (each imports its library lazily, so a missing library only removes its
subjects): :mod:`.opendp_mechanisms` (OpenDP 0.16), :mod:`.diffprivlib_mechanisms` (IBM diffprivlib
0.6), :mod:`.pydp_mechanisms` (OpenMined python-dp 1.1).  Each exposes ``subjects()``: a list of
:class:`LibraryMechanism` -- the library's own mechanism wrapped as ``release(x, rng)`` for scalar
(or arrays of scalar) inputs, the (eps, delta) the library claims for neighbouring inputs at
distance ``unit`` (computed by the library where it has a privacy map), and, where the library
exposes its noise scale, the exact density of the mathematical mechanism for the exact side.

OpenDP and python-dp draw from OS / secure randomness and ignore the ``rng``:
:func:`verify.audit.blackbox.check_rng_use` flags them; the statistical audit stays valid.
diffprivlib accepts a ``random_state``, seeded here from the rng, so its audits are reproducible.
"""

from __future__ import annotations

import importlib
from typing import Any

from ._base import LibraryMechanism, additive_density

__all__ = ["LibraryMechanism", "additive_density", "LIBRARIES", "library_subjects"]

#: library name -> adapter module (inside this package) and the distribution to import.
LIBRARIES: dict[str, tuple[str, str]] = {
    "opendp": ("opendp_mechanisms", "opendp"),
    "diffprivlib": ("diffprivlib_mechanisms", "diffprivlib"),
    "python-dp": ("pydp_mechanisms", "pydp"),
}


def library_subjects(library: str) -> list[LibraryMechanism]:
    """The subjects of ``library`` (a key of :data:`LIBRARIES`); ImportError when it is not installed."""
    if library not in LIBRARIES:
        raise ValueError(f"library must be one of {sorted(LIBRARIES)}; got library={library!r}")
    mod: Any = importlib.import_module(f"{__name__}.{LIBRARIES[library][0]}")
    return mod.subjects()
