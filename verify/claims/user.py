"""User claims: a user's own ``@claim`` functions, run and reported like the papers' claims.

A user claim file is a Python file that registers claims with the package's decorator
:func:`verify.claims.claim` (same :class:`~verify.claims.ClaimResult` / :class:`~verify.claims.Verdict`,
same registry, so ids must be unique across the package and all user files).  Its claims use the
seed :data:`verify.claims.registry.USER_SEED` (``"user"``): ids start with ``user-`` and the
source is the user's file, not one of the four papers::

    from verify.claims import CheckKind, ClaimResult, Verdict, claim

    @claim("user-my-laplace", seed="user", section="my_claims.py", kind=CheckKind.ADVERSARIAL,
           statement="my Laplace mechanism with scale 1/eps is eps-DP")
    def check(ctx):
        ...
        return ClaimResult(Verdict.VERIFIED, "no violation", {...})

* :func:`load_claim_file` imports one file (``smoothsens audit --claims FILE``, repeatable) and
  returns the claims it registered;
* :func:`load_entry_point_claims` imports every module named by the entry-point group
  ``smoothsens.claims`` of the installed packages (``[project.entry-points."smoothsens.claims"]
  mypkg = "mypkg.dp_claims"``) and returns their claims.

Importing a file twice registers its claims once (the module is cached under a path-derived name).

A user's claim may carry a proof (``examples/my_proofs.py``): the file declares what a proof must prove
with :func:`verify.claims.obligation_for` and :func:`interval_obligation` (an inequality F <= threshold
on the box of an objective its own code builds), proves it with :func:`verify.proof.prove_le`, and
attaches it with :func:`verify.claims.with_proof`.  The claim is VERIFIED (proven) only if the
independent re-checker accepts the record against the obligation rebuilt from the file; a claim that
states several obligations (``@claim(..., obligations=("rate", "bstar"))``) whose proof covers some
(``interval_obligation(..., proves=("rate",))``) is VERIFIED (partly proven), the rest resting on its
test.  ``smoothsens audit --claims FILE --recheck-proof [PATH]`` re-checks it later the same way.
"""

from __future__ import annotations

import importlib
from importlib import metadata
from pathlib import Path
from typing import Any

from verify.audit.blackbox._callables import _import_file

from .registry import REGISTRY, Claim, ExpectedObligation

__all__ = ["ENTRY_POINT_GROUP", "load_claim_file", "load_entry_point_claims", "interval_obligation"]

ENTRY_POINT_GROUP = "smoothsens.claims"

_BY_SOURCE: dict[str, list[Claim]] = {}


def _claims_added_by(key: str, load: Any) -> list[Claim]:
    if key in _BY_SOURCE:
        return list(_BY_SOURCE[key])
    before = {c.id for c in REGISTRY}
    load()
    added = [c for c in REGISTRY if c.id not in before]
    _BY_SOURCE[key] = added
    return list(added)


def load_claim_file(path: str | Path) -> list[Claim]:
    """Import the claim file ``path`` and return the claims it registered (in registration order).

    ValueError when the file does not exist, is not a ``.py`` file, fails to import (the message
    names the exception) or registers no claim; a duplicate id or an invalid seed is the
    registry's ValueError, with the file named."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"claim file {str(path)!r}: no such file")
    if p.suffix != ".py":
        raise ValueError(f"claim file {str(path)!r} must be a .py file")
    key = f"file:{p.resolve()}"
    try:
        added = _claims_added_by(key, lambda: _import_file(p))
    except ValueError as exc:
        raise ValueError(f"claim file {str(path)!r}: {exc}") from exc
    if not added:
        raise ValueError(f"claim file {str(path)!r} registers no claim: decorate check functions with "
                         "verify.claims.claim(..., seed='user')")
    return added


def load_entry_point_claims() -> list[Claim]:
    """Import the module of every entry point of the group ``smoothsens.claims`` and return the
    claims they registered.  ValueError naming the entry point when its module fails to import."""
    out: list[Claim] = []
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        key = f"entry-point:{ep.name}={ep.value}"

        def load(ep: Any = ep) -> None:
            try:
                importlib.import_module(ep.module)
            except Exception as exc:
                raise ValueError(f"entry point {ep.name!r} of group {ENTRY_POINT_GROUP!r} ({ep.value}) "
                                 f"raised {type(exc).__name__} on import: {exc}") from exc

        out.extend(_claims_added_by(key, load))
    return out


def interval_obligation(claim_id: str, build: Any, *, domain: str, statement: str, threshold: Any = 0,
                        proves: tuple[str, ...] = ()) -> ExpectedObligation:
    """What a branch-and-bound proof of the user claim ``claim_id`` must prove: F <= ``threshold`` on the box
    of ``build()`` (a fresh :class:`verify.proof.Objective` from the claim file's own code), displayed as
    ``statement`` on ``domain``; ``proves`` names the claim's obligations it covers (empty: all).  Declare it
    with :func:`verify.claims.obligation_for` in the claim file (:func:`verify.claims.sets.proofs.interval_obligation`)."""
    from .sets.proofs import interval_obligation as _interval  # noqa: PLC0415 - cost: about 0.2 s at import, paid only when used

    return _interval(claim_id, build, domain=domain, statement=statement, threshold=threshold, proves=proves)
