"""Proofs as data: proof methods registered by class, proof records, and proven domains.

* :class:`ProofMethod` -- what a proof method is: a ``name`` (the ``method`` field of its records), an
  independent ``recheck(proof, claim_id)`` that rebuilds what must be proven from the claim id (never
  from the record) and re-checks the record's certificate against it, and ``describe(proof)``.  A class
  is registered with :func:`register_method` by the module that implements it; :func:`method_named`
  finds it.  A record whose method has no registered class is never accepted as a proof
  (``verify.claims.registry.ExpectedObligation`` refuses it).
* :class:`Domain` -- where a proof holds, as data: the boxes of the objective's variables, ranges of
  parameters, and for a mechanism the noise family and the ranges of its shape parameters.
  ``contains(point)`` and ``contains(mechanism)`` answer ``(inside, reasons)``; for a mechanism the
  noise family answers for itself (its ``name`` and its shape attributes), never a class-name switch.
* :class:`ProofRecord` -- a frozen proof: the method, what is proven (statement, objective, threshold,
  domain, the obligations it covers) and the certificate (boxes, steps, witnesses); ``to_json`` gives
  the record the re-checkers read (the evidence's ``"proof"``), ``from_json`` reads any record of the
  package, including those written before this type existed.

The modelling follows Google's ``dp_accounting`` (small frozen event objects composed by the caller)
and OpenDP's ``#[proven]`` (a component is refused without its proof).  Standard library only, so the
registry can be read without python-flint.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Protocol, Sequence, TypeVar, runtime_checkable

from ._results import RecheckOutcome

__all__ = ["ProofMethod", "register_method", "method_named", "registered_methods", "is_registered",
           "Range", "Domain", "ProofRecord", "describe_record"]


# ---------------------------------------------------------------------------------------------------
# proof methods
# ---------------------------------------------------------------------------------------------------
@runtime_checkable
class ProofMethod(Protocol):
    """A proof method: ``name`` is the ``method`` of its records; ``recheck(proof, claim_id)`` re-checks the
    record ``proof`` as a proof of the claim ``claim_id`` (what must be proven rebuilt from the id and the
    method's own code, the record supplying only the certificate) and returns a
    :class:`verify.proof.RecheckResult` (``ok``, ``problems``, ``n_boxes``, ``prec``, ``seconds``);
    ``describe(proof)`` is one line saying what the record holds."""

    name: str

    def recheck(self, proof: Mapping[str, Any], claim_id: str) -> RecheckOutcome: ...

    def describe(self, proof: Mapping[str, Any]) -> str: ...


_METHODS: dict[str, ProofMethod] = {}
_CLASSES: dict[str, str] = {}

M = TypeVar("M", bound=type)


def register_method(cls: M) -> M:
    """Class decorator: register the proof method ``cls`` (a class with a non-empty ``name`` and callable
    ``recheck`` and ``describe``) under its name.  A second class of the same name is refused (ValueError);
    re-registering the same class (a module imported again) replaces it."""
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"a proof method needs a non-empty string 'name'; got name={name!r} on {cls!r}")
    for attr in ("recheck", "describe"):
        if not callable(getattr(cls, attr, None)):
            raise ValueError(f"proof method {name!r} ({cls.__qualname__}) has no {attr}(); a method without an "
                             f"independent re-checker cannot be registered")
    ident = f"{cls.__module__}.{cls.__qualname__}"
    if name in _CLASSES and _CLASSES[name] != ident:
        raise ValueError(f"proof method {name!r} is already registered by {_CLASSES[name]}; got {ident}")
    _METHODS[name] = cls()
    _CLASSES[name] = ident
    return cls


def method_named(name: str) -> ProofMethod:
    """The registered proof method ``name``; ValueError naming the registered ones otherwise."""
    try:
        return _METHODS[name]
    except KeyError:
        raise ValueError(f"no re-checker is registered for proof method {name!r}; registered: "
                         f"{sorted(_METHODS)}") from None


def is_registered(name: str) -> bool:
    """True iff a proof method ``name`` is registered."""
    return name in _METHODS


def registered_methods() -> tuple[str, ...]:
    """The names of the registered proof methods, sorted."""
    return tuple(sorted(_METHODS))


# ---------------------------------------------------------------------------------------------------
# domains
# ---------------------------------------------------------------------------------------------------
def _end(x: Any) -> Fraction | float:
    if isinstance(x, float) and math.isinf(x):
        return x
    if isinstance(x, str) and x.strip().lstrip("+-") in ("inf", "oo"):
        return -math.inf if x.strip().startswith("-") else math.inf
    return Fraction(str(x)) if not isinstance(x, (Fraction, int)) else Fraction(x)


def _end_json(x: Fraction | float) -> str:
    return ("inf" if x > 0 else "-inf") if isinstance(x, float) else str(x)


@dataclass(frozen=True)
class Range:
    """``lo <(=) name <(=) hi``: a named real range with exact rational ends (or +-inf); ``lo_open`` /
    ``hi_open`` make an end strict.  ``name`` is a variable, a parameter, or an attribute path of a
    mechanism ("eta", "growth.gamma", "noise.p")."""

    name: str
    lo: Fraction | float = -math.inf
    hi: Fraction | float = math.inf
    lo_open: bool = False
    hi_open: bool = False

    def __post_init__(self) -> None:
        lo, hi = _end(self.lo), _end(self.hi)
        if not self.name:
            raise ValueError("a range needs a name")
        if lo == math.inf or hi == -math.inf or not lo <= hi:
            raise ValueError(f"range {self.name}: lo must be <= hi; got [{self.lo}, {self.hi}]")
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)

    def contains(self, value: Any) -> tuple[bool, str]:
        """(value inside, "" or why not), exactly (a float is compared by its exact binary value)."""
        try:
            v = Fraction(value) if not isinstance(value, str) else Fraction(value)
        except (TypeError, ValueError, OverflowError):
            return False, f"{self.name} = {value!r} is not a finite real number"
        below = v <= self.lo if self.lo_open else v < self.lo
        above = v >= self.hi if self.hi_open else v > self.hi
        if below or above:
            return False, f"{self.name} = {float(v):.17g} is outside {self.text()}"
        return True, ""

    def text(self) -> str:
        lo = "" if self.lo == -math.inf else f"{self.lo} {'<' if self.lo_open else '<='} "
        hi = "" if self.hi == math.inf else f" {'<' if self.hi_open else '<='} {self.hi}"
        return f"{lo}{self.name}{hi}" if lo or hi else f"{self.name} real"

    def to_json(self) -> list[Any]:
        return [self.name, _end_json(self.lo), _end_json(self.hi), self.lo_open, self.hi_open]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Range:
        name, lo, hi, lo_open, hi_open = data
        return cls(str(name), _end(lo), _end(hi), bool(lo_open), bool(hi_open))


def _attr(obj: Any, path: str) -> Any:
    cur = obj
    for key in path.split("."):
        cur = getattr(cur, key)
    return cur


@dataclass(frozen=True)
class Domain:
    """Where a proof holds, as data.

    ``variables``   the boxes of the objective's variables (a point of the proof's box);
    ``parameters``  ranges of parameters (of a point, or attribute paths of a mechanism: "eta", "growth.gamma");
    ``family``      for a mechanism domain, the noise family (its ``name``: "polyplace", "gencauchy", ...);
    ``noise``       ranges of the family's shape parameters, read from the noise by attribute ("p", "theta");
    ``conditions``  what the data cannot say, in words (a calibration identity, a reduction), displayed only;
    ``description`` the domain as a record of the package states it in words (records without typed data)."""

    variables: tuple[Range, ...] = ()
    parameters: tuple[Range, ...] = ()
    family: str = ""
    noise: tuple[Range, ...] = ()
    conditions: tuple[str, ...] = ()
    description: str = ""

    def contains(self, item: Any) -> tuple[bool, list[str]]:
        """(inside, reasons): a point (a mapping name -> value, every named range must be given) or a
        mechanism (anything with a ``noise``: the family by the noise's own ``name``, the shape ranges by
        its attributes, the parameter ranges by attribute paths of the mechanism)."""
        if isinstance(item, Mapping):
            return self._contains_point(item)
        return self._contains_mechanism(item)

    def _contains_point(self, point: Mapping[str, Any]) -> tuple[bool, list[str]]:
        why = []
        for r in (*self.variables, *self.parameters):
            if r.name not in point:
                why.append(f"{r.name} is not given")
                continue
            ok, reason = r.contains(point[r.name])
            if not ok:
                why.append(reason)
        return not why, why

    def _contains_mechanism(self, mech: Any) -> tuple[bool, list[str]]:
        why: list[str] = []
        noise = getattr(mech, "noise", None)
        if self.family:
            fam = getattr(noise, "name", None)
            if fam != self.family:
                why.append(f"noise family {fam!r} is not {self.family!r}")
                return False, why
        for r in self.noise:
            try:
                ok, reason = r.contains(_attr(noise, r.name))
            except AttributeError:
                ok, reason = False, f"the noise has no shape parameter {r.name!r}"
            if not ok:
                why.append(f"noise {reason}")
        for r in self.parameters:
            try:
                ok, reason = r.contains(_attr(mech, r.name))
            except AttributeError:
                ok, reason = False, f"the mechanism has no {r.name!r}"
            if not ok:
                why.append(reason)
        return not why, why

    def box(self) -> list[tuple[Fraction | float, Fraction | float]]:
        """The variables' box as (lo, hi) pairs, in order."""
        return [(r.lo, r.hi) for r in self.variables]

    def text(self) -> str:
        """The domain in plain math, e.g. "0 <= x <= 1; family polyplace; 1 < noise.alpha"."""
        parts = [r.text() for r in (*self.variables, *self.parameters)]
        if self.family:
            parts.append(f"noise family {self.family}")
        parts += [f"noise.{r.text()}" for r in self.noise]
        parts += list(self.conditions)
        if self.description:
            parts.append(self.description)
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"variables": [r.to_json() for r in self.variables],
                "parameters": [r.to_json() for r in self.parameters], "family": self.family,
                "noise": [r.to_json() for r in self.noise], "conditions": list(self.conditions),
                "description": self.description}

    @classmethod
    def from_json(cls, data: Any) -> Domain:
        """A domain from its JSON (:meth:`to_json`), or from a record's displayed domain: a string (prose) or
        a box list ``[[lo, hi], ...]`` (its variables then named v0, v1, ...)."""
        if isinstance(data, str):
            return cls(description=data)
        if isinstance(data, list):
            return cls(variables=tuple(Range(f"v{i}", _end(lo), _end(hi)) for i, (lo, hi) in enumerate(data)))
        if not isinstance(data, Mapping):
            raise ValueError(f"a domain must be a JSON object, a string or a box list; got {type(data).__name__}")
        return cls(tuple(Range.from_json(r) for r in data.get("variables") or ()),
                   tuple(Range.from_json(r) for r in data.get("parameters") or ()), str(data.get("family") or ""),
                   tuple(Range.from_json(r) for r in data.get("noise") or ()),
                   tuple(str(c) for c in data.get("conditions") or ()), str(data.get("description") or ""))

    @classmethod
    def of_objective(cls, objective: Any) -> Domain:
        """The box of an :class:`verify.proof.Objective` (its variables' names and intervals)."""
        return cls(variables=tuple(Range(str(v.symbol), v.lo, v.hi) for v in objective.variables))


# ---------------------------------------------------------------------------------------------------
# proof records
# ---------------------------------------------------------------------------------------------------
#: The keys of a serialised record that say what is proven (the rest is the certificate).
_WHAT_KEYS = ("method", "statement", "objective", "threshold", "proven_domain", "proves")


@dataclass(frozen=True)
class ProofRecord:
    """A proof: ``method`` (a registered :class:`ProofMethod`), what is proven -- ``statement`` (plain math),
    ``domain`` (:class:`Domain`), ``objective`` (F's description as JSON, for F <= ``threshold`` proofs) and
    ``proves`` (the claim's obligations it covers, e.g. ("rate",); empty: the whole statement) -- and the
    ``certificate`` (boxes and bounds, steps, witnesses: the rest of the serialised record).

    ``to_json()`` is the evidence's ``"proof"`` (the certificate's keys as the re-checkers read them, plus
    the fields above, the domain under ``"proven_domain"``); ``from_json()`` reads it back, and reads a
    record without those fields (as written before this type) with its displayed domain as the domain."""

    method: str
    statement: str = ""
    domain: Domain = field(default_factory=Domain)
    certificate: Mapping[str, Any] = field(default_factory=dict)
    objective: Any = ""
    threshold: str = ""
    proves: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.method, str) or not self.method:
            raise ValueError(f"method must be a non-empty string; got method={self.method!r}")
        if not isinstance(self.domain, Domain):
            raise TypeError(f"domain must be a verify.proof.Domain; got {type(self.domain).__name__}")
        clash = sorted(set(self.certificate) & set(_WHAT_KEYS))
        if clash:
            raise ValueError(f"the certificate must not carry the fields {clash} (they say what is proven)")
        object.__setattr__(self, "certificate", dict(self.certificate))
        object.__setattr__(self, "proves", tuple(self.proves))

    @property
    def registered(self) -> bool:
        """True iff a re-checker is registered for this record's method."""
        return is_registered(self.method)

    def to_json(self) -> dict[str, Any]:
        out = dict(self.certificate)
        out["method"] = self.method
        for key in ("statement", "objective", "threshold"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        out["proven_domain"] = self.domain.to_json()
        if self.proves:
            out["proves"] = list(self.proves)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ProofRecord:
        if not isinstance(data, Mapping):
            raise ValueError(f"a proof record must be a JSON object; got {type(data).__name__}")
        method = data.get("method") or ("convex-switching" if data.get("combine") == "convex-switching"
                                        else "interval")
        cert = {k: v for k, v in data.items() if k not in _WHAT_KEYS}
        if "proven_domain" in data:
            domain = Domain.from_json(data["proven_domain"])
        else:
            domain = Domain.from_json(data["domain"]) if "domain" in data else Domain()
        thr = data.get("threshold")
        return cls(str(method), str(data.get("statement") or ""), domain, cert, data.get("objective") or "",
                   "" if thr is None else str(thr), tuple(str(p) for p in data.get("proves") or ()))

    @classmethod
    def of_interval(cls, result: Any, objective: Any, *, statement: str, proves: Sequence[str] = ()) -> ProofRecord:
        """The record of a branch-and-bound proof (:func:`verify.proof.prove_le`'s result) of F <= threshold,
        F = ``objective``, stating ``statement`` and covering the claim's obligations ``proves`` (empty: all);
        the domain is the objective's box.  ValueError unless the result is "proven"."""
        if getattr(result, "status", None) != "proven":
            raise ValueError(f"result must be a proven branch-and-bound result; got status={getattr(result, 'status', None)!r}")
        js = dict(result.to_json())
        return cls("interval", statement, Domain.of_objective(objective),
                   {k: v for k, v in js.items() if k not in _WHAT_KEYS}, js.get("objective") or "",
                   str(js.get("threshold", "0")), tuple(proves))

    def recheck(self, claim_id: str) -> RecheckOutcome:
        """The registered method's re-check of this record as a proof of ``claim_id`` (ValueError when no
        re-checker is registered for the method)."""
        return method_named(self.method).recheck(self.to_json(), claim_id)

    def describe(self) -> str:
        return method_named(self.method).describe(self.to_json()) if self.registered else (
            f"a {self.method!r} record (no re-checker registered: not a proof)")


def describe_record(proof: Mapping[str, Any]) -> str:
    """One line on a record: its method, the claim or objective it names, and the size of its certificate."""
    what = proof.get("claim") or proof.get("objective") or proof.get("statement") or ""
    size = [f"{len(proof[k])} {k}" for k in ("boxes", "steps", "parts", "cases") if isinstance(proof.get(k), (list, dict))]
    return (f"{proof.get('method') or 'interval'} proof" + (f" of {str(what)[:100]}" if what else "")
            + (f" ({', '.join(size)})" if size else ""))
