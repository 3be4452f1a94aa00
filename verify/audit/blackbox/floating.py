"""Floating-point audit of a black-box ``release(x, rng)``: outputs one input can produce and its
neighbour cannot (Mironov 2012, "On significance of the least significant bits for differential
privacy", CCS'12).

Why.  The textbook Laplace mechanism ``x + rng.laplace(scale=1/eps)`` is eps-DP over the reals, but
its binary64 implementation is not DP at all: the output fl(x + z) rounds onto a grid that depends on
x, so the *sets* of reachable outputs of two neighbouring inputs differ.  An output y with
P[M(x) = y] > 0 = P[M(x') = y] has infinite privacy loss; no (eps, 0) claim survives it, and
P[M(x) in S_x,x'] (S the outputs M(x') cannot produce) is a lower bound on any delta.

What is modelled.  An :class:`OutputModel` says which binary64 outputs an input can produce, and
proves it output by output (:class:`Reachability`: a witness when reachable, an exhaustive argument
when not):

* :class:`AdditiveModel` (``scale``): M(x) = fl(x + fl(scale * s)) for *some* binary64 sample s --
  ``x + scale * rng.standard_laplace()``, ``x + rng.laplace(scale=b)``, ``rng.laplace(x, b)`` (NumPy
  computes loc + scale * t), ``x + sigma * rng.standard_normal()``, ...  y is reachable from x' iff
  some double z in the exact rounding interval of y minus x' satisfies fl(x' + z) == y and z =
  fl(scale * s) for some double s.  Both are decided exactly: every double of the interval is
  enumerated (with :mod:`fractions` for the bounds, ``math.nextafter`` for the steps) and each is
  checked by the very float operation the mechanism performs.  The sampler is assumed able to return
  *any* double: the weakest assumption, so an "unreachable" certificate holds whatever the sampler
  (NumPy's ziggurat, inverse CDF, OpenSSL randomness...).
* :class:`SnappedModel` (``Lambda``, ``bound``): Mironov's snapping mechanism
  clamp_B(round_Lambda(clamp_B(x) + scale * s)) (:class:`SnappingMechanism`): every output is
  ±B or a multiple of Lambda in [-B, B], whatever x -- reachability does not depend on the input.
* :class:`IntegerModel`: integer inputs plus integer noise (two-sided geometric / discrete Laplace):
  y is reachable from x' iff y is an integer of magnitude <= 2^53.

The audit (:func:`audit_floating_mechanism`).  For each pair (x, x') and each direction, ``budget``
draws of M(x) (through the black box); every draw is first checked to be reachable from x itself
under the model (a draw that is not means the model does not describe this release: the audit is
INCONCLUSIVE, never a pass), then from x'.  A draw of M(x) that M(x') cannot produce is a
certificate of infinite loss: the audit FAILS with it (y as a hex float, x, x', the reason).  The
count of such draws gives a Clopper-Pearson lower bound on P[M(x) in S] with P[M(x') in S] = 0,
hence on any delta the mechanism can claim (reported as ``delta_lower``).

What it cannot see (read before trusting a pass).
* Only the modelled structure: a release that is not fl(x + fl(scale*s)) (fused multiply-add,
  x * (1 + noise), extended precision, a different rounding mode) is outside the model; the
  self-check catches it only when a draw of M(x) falls outside the model's support of x.
* Not the sampler's own output set: NumPy's Laplace draws log(2U) with U on a 2^-53 grid, so far
  fewer outputs are reachable than the "any double" model allows; flaws that exist only because of
  that sparser set (Mironov's attack on x vs x' in the same binade) are not detected, because the
  audit cannot enumerate the output set of an opaque sampler.  A certificate is never weakened by
  this; a pass is.
* Overflow, subnormal-only effects and NaN outputs are not modelled.
* A pass means: no draw of M(x) in ``budget`` was outside the support of M(x'); it is not a proof
  that the supports coincide, and says nothing about the *probabilities* of shared outputs (use
  :func:`verify.audit.blackbox.audit_blackbox_mechanism` for that).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

import numpy as np

from smoothsens_core.validation import check_integer, check_positive, check_probability, check_rng

from ._callables import RngUse, check_arity, check_rng_use
from .mechanism import clopper_pearson
from verify.serialise import jsonable

from ..outcome import OrderedPair, OutcomePredicates

__all__ = [
    "Reachability",
    "OutputModel",
    "AdditiveModel",
    "SnappedModel",
    "IntegerModel",
    "SnappingMechanism",
    "FloatingCertificate",
    "FloatingPairResult",
    "FloatingAuditReport",
    "audit_floating_mechanism",
    "rounding_interval",
    "doubles_in",
    "DEFAULT_FLOATING_BUDGET",
]

DEFAULT_FLOATING_BUDGET = 20_000
#: Most draws per pair and direction of one floating-point audit: the draws of M(x) are held at once and
#: each distinct one may need an exact reachability search, so the size is capped (0.8 GB of draws at 1e8).
MAX_FLOATING_BUDGET = 100_000_000
#: At most this many doubles are enumerated in one exact interval; beyond it a "no witness" is
#: undetermined (counted as reachable), never a certificate.
MAX_ENUMERATION = 64


def rounding_interval(y: float) -> tuple[Fraction, Fraction]:
    """The closed real interval [lo, hi] of reals that round to the double y (round to nearest):
    lo = (y + pred(y)) / 2, hi = (y + succ(y)) / 2, exactly (a superset of the rounding set: the
    ends belong to it only when y's significand is even)."""
    if not math.isfinite(y):
        raise ValueError(f"y must be finite; got y={y!r}")
    fy = Fraction(y)
    lo = (fy + Fraction(math.nextafter(y, -math.inf))) / 2
    hi = (fy + Fraction(math.nextafter(y, math.inf))) / 2
    return lo, hi


def doubles_in(lo: Fraction, hi: Fraction, limit: int = MAX_ENUMERATION) -> tuple[list[float], bool]:
    """The doubles d with lo <= d <= hi (exact comparison), in increasing order, and whether the
    list is complete (False when there are more than ``limit``)."""
    if lo > hi:
        return [], True
    d = float(lo)  # correctly rounded: within one step of lo
    while Fraction(d) >= lo and math.isfinite(d):
        d = math.nextafter(d, -math.inf)
    out: list[float] = []
    d = math.nextafter(d, math.inf)
    while math.isfinite(d) and Fraction(d) <= hi:
        if Fraction(d) >= lo:
            out.append(d)
            if len(out) > limit:
                return out[:limit], False
        d = math.nextafter(d, math.inf)
    return out, True


def hexf(v: float) -> str:
    return float(v).hex()


@dataclass(frozen=True)
class Reachability:
    """Whether y is a possible output of M(x): True (with a witness), False (with the exhaustive
    reason), or None (undetermined: treated as reachable, never a certificate)."""

    reachable: bool | None
    reason: str


class OutputModel:
    """Which binary64 outputs an input can produce (module docstring)."""

    name = "model"

    def describe(self) -> str:  # pragma: no cover - overridden
        return self.name

    def fast_reachable(self, y: np.ndarray, x: float) -> np.ndarray:
        """Vectorised sufficient test: True where a witness is found quickly (False = not known)."""
        return np.zeros(y.shape, dtype=bool)

    def reachable(self, y: float, x: float) -> Reachability:  # pragma: no cover - overridden
        raise NotImplementedError


@dataclass(frozen=True)
class AdditiveModel(OutputModel):
    """M(x) = fl(x + fl(scale * s)) for some binary64 s (module docstring)."""

    scale: float = 1.0
    name = "additive"

    def __post_init__(self) -> None:
        check_positive("scale", self.scale)

    def describe(self) -> str:
        return f"additive: y = fl(x + fl({self.scale!r} * s)), s any binary64 sample"

    def _image(self, z: float) -> tuple[bool | None, float | None]:
        """Is z = fl(scale * s) for some double s?  (answer, witness s)."""
        if self.scale == 1.0:
            return True, z
        s0 = z / self.scale
        for k in (0, -1, 1, -2, 2):
            s = s0
            for _ in range(abs(k)):
                s = math.nextafter(s, math.inf if k > 0 else -math.inf)
            if self.scale * s == z:
                return True, s
        lo, hi = rounding_interval(z)
        sc = Fraction(self.scale)
        cands, complete = doubles_in(lo / sc, hi / sc)
        for s in cands:
            if self.scale * s == z:
                return True, s
        return (False if complete else None), None

    def fast_reachable(self, y: np.ndarray, x: float) -> np.ndarray:
        ok = np.zeros(y.shape, dtype=bool)
        with np.errstate(all="ignore"):
            z0 = y - x
            for k in (0, -1, 1):
                z = z0 if k == 0 else np.nextafter(z0, np.inf if k > 0 else -np.inf)
                hit = (x + z) == y
                if self.scale != 1.0:
                    s0 = z / self.scale
                    img = np.zeros(y.shape, dtype=bool)
                    for j in (0, -1, 1):
                        s = s0 if j == 0 else np.nextafter(s0, np.inf if j > 0 else -np.inf)
                        img |= (self.scale * s) == z
                    hit &= img
                ok |= hit
        return ok

    def reachable(self, y: float, x: float) -> Reachability:
        lo, hi = rounding_interval(y)
        fx = Fraction(x)
        zs, complete = doubles_in(lo - fx, hi - fx)
        undetermined = not complete
        for z in zs:
            if x + z != y:
                continue
            img, s = self._image(z)
            if img and s is not None:
                return Reachability(True, f"s={hexf(s)} gives fl({self.scale!r}*s)={hexf(z)}, "
                                          f"fl(x+z)={hexf(y)}")
            if img is None:
                undetermined = True
        if undetermined:
            return Reachability(None, "too many candidate doubles to enumerate")
        if not zs:
            why = (f"no binary64 z lies in the exact interval of reals rounding to y, minus x: "
                   f"[{float(lo - fx)!r}, {float(hi - fx)!r}]")
        else:
            why = (f"the {len(zs)} binary64 z with y - x in their rounding range ({', '.join(hexf(z) for z in zs[:4])}"
                   f"{', ...' if len(zs) > 4 else ''}) either give fl(x + z) != y or are not fl({self.scale!r} * s) "
                   "for any binary64 s")
        return Reachability(False, why)


@dataclass(frozen=True)
class SnappedModel(OutputModel):
    """Outputs of the snapping mechanism (Mironov 2012, Sec. 5.2): ±B or a multiple of Lambda in
    [-B, B], whatever the input."""

    Lambda: float
    bound: float
    name = "snapped"

    def __post_init__(self) -> None:
        check_positive("Lambda", self.Lambda)
        check_positive("bound", self.bound)
        m, e = math.frexp(self.Lambda)
        if m != 0.5:
            raise ValueError(f"Lambda must be a power of two; got Lambda={self.Lambda!r}")

    def describe(self) -> str:
        return f"snapped: y = clamp_B(round_Lambda(clamp_B(x) + noise)), Lambda={self.Lambda!r}, B={self.bound!r}"

    def fast_reachable(self, y: np.ndarray, x: float) -> np.ndarray:
        on_grid = np.mod(y, self.Lambda) == 0
        return ((on_grid & (np.abs(y) <= self.bound)) | (np.abs(y) == self.bound))

    def reachable(self, y: float, x: float) -> Reachability:
        if abs(y) == self.bound:
            return Reachability(True, "y = ±B is the clamp of any large enough noise")
        if abs(y) > self.bound:
            return Reachability(False, f"|y| > B = {self.bound!r}: outside the clamp")
        if y % self.Lambda != 0:
            return Reachability(False, f"y is not a multiple of Lambda = {self.Lambda!r}")
        c = min(max(x, -self.bound), self.bound)
        z = float(Fraction(y) - Fraction(c))
        v = c + z
        if self.Lambda * round(v / self.Lambda) == y:
            return Reachability(True, f"noise z={hexf(z)} gives clamp(x)+z={hexf(v)}, which snaps to y")
        return Reachability(None, "no witness noise found")


@dataclass(frozen=True)
class IntegerModel(OutputModel):
    """Integer inputs plus integer noise (two-sided geometric / discrete Laplace): y = x + k."""

    name = "integer"

    def describe(self) -> str:
        return "integer: y = x + k, k any integer (exact in binary64 up to 2^53)"

    def fast_reachable(self, y: np.ndarray, x: float) -> np.ndarray:
        return (np.floor(y) == y) & (np.abs(y) <= 2.0**53) & (math.floor(x) == x)

    def reachable(self, y: float, x: float) -> Reachability:
        if not float(x).is_integer():
            return Reachability(False, f"x={x!r} is not an integer: x + k is never an integer-grid output")
        if not float(y).is_integer():
            return Reachability(False, "y is not an integer")
        if abs(y) > 2.0**53:
            return Reachability(None, "|y| > 2^53: integers are no longer all representable")
        return Reachability(True, f"k = {int(y) - int(x)}")


@dataclass(frozen=True)
class SnappingMechanism:
    """Mironov's snapping mechanism (Mironov 2012, Sec. 5.2) for a query of sensitivity
    ``sensitivity``:

        M(x) = clamp_B( round_Lambda( clamp_B(x) + lambda * S * ln(U) ) ),

    lambda = sensitivity / eps (the Laplace scale), U uniform on (0, 1], S a uniform sign, Lambda the
    smallest power of two >= lambda, round_Lambda to the nearest multiple of Lambda and clamp_B to
    [-B, B].  Mironov's Thm. 1 (sensitivity 1): (1/lambda + 2^-49 B / lambda)-DP for
    lambda < B < 2^46 lambda; the outputs form a fixed grid, so the support does not depend on x.
    """

    eps: float
    bound: float
    sensitivity: float = 1.0

    def __post_init__(self) -> None:
        check_positive("eps", self.eps)
        check_positive("bound", self.bound)
        check_positive("sensitivity", self.sensitivity)

    @property
    def scale(self) -> float:
        return self.sensitivity / self.eps

    @property
    def Lambda(self) -> float:
        return 2.0 ** math.ceil(math.log2(self.scale))

    def model(self) -> SnappedModel:
        return SnappedModel(self.Lambda, self.bound)

    def release(self, x: Any, rng: np.random.Generator) -> np.ndarray:
        xa = np.asarray(x, dtype=float)
        u = 1.0 - rng.random(xa.shape)  # (0, 1]
        sign = np.where(rng.random(xa.shape) < 0.5, -1.0, 1.0)
        v = np.clip(xa, -self.bound, self.bound) + sign * self.scale * np.log(u)
        return np.clip(self.Lambda * np.round(v / self.Lambda), -self.bound, self.bound)


@dataclass(frozen=True)
class FloatingCertificate:
    """An output y that M(x) produced and M(x') cannot produce: infinite privacy loss."""

    y: float
    x: float
    x_prime: float
    reason: str

    def describe(self) -> str:
        return (f"M(x={self.x!r}) produced y = {hexf(self.y)} (= {self.y!r}), which M(x'={self.x_prime!r}) "
                f"cannot produce: {self.reason}")

    def to_json(self) -> dict[str, Any]:
        return {"y": self.y, "y_hex": hexf(self.y), "x": self.x, "x_prime": self.x_prime, "reason": self.reason}


@dataclass(frozen=True)
class FloatingPairResult(OrderedPair):
    """One ordered pair (x, x' floats): how many of ``n`` draws of M(x) M(x') cannot produce."""

    n: int
    impossible: int
    undetermined: int
    not_from_x: int
    delta_lower: float
    certificate: FloatingCertificate | None = None
    mismatch: str | None = None

    def describe(self) -> str:
        s = (f"{self.pair_text()}: {self.impossible}/{self.n} draws of M(x) impossible under M(x')"
             f" (delta >= {self.delta_lower:.3g})")
        if self.undetermined:
            s += f", {self.undetermined} undetermined (counted as possible)"
        if self.not_from_x:
            s += f", {self.not_from_x} draws outside the model's support of x itself"
        return s

    def to_json(self) -> dict[str, Any]:
        return {**self.pair_json(), "n": self.n, "impossible": self.impossible,
                "undetermined": self.undetermined, "not_from_x": self.not_from_x,
                "delta_lower": self.delta_lower,
                "certificate": self.certificate.to_json() if self.certificate else None, "mismatch": self.mismatch}


@dataclass(frozen=True)
class FloatingAuditReport(OutcomePredicates):
    """Outcome of :func:`audit_floating_mechanism`: "violated" (an output of M(x) impossible under
    M(x'): infinite loss, certified), "inconclusive" (a draw is outside the model's support of its
    own input: the model does not describe the release), or "pass"."""

    model: str
    pairs: tuple[FloatingPairResult, ...]
    n: int
    false_alarm: float
    seed: Any
    elapsed: float
    rng_use: RngUse | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def certificate(self) -> FloatingCertificate | None:
        for p in self.pairs:
            if p.certificate is not None:
                return p.certificate
        return None

    @property
    def delta_lower(self) -> float:
        return max(p.delta_lower for p in self.pairs)

    @property
    def outcome(self) -> str:  # type: ignore[override]  # OutcomePredicates declares the attribute; reports derive it
        if self.certificate is not None:
            return "violated"
        if any(p.mismatch for p in self.pairs):
            return "inconclusive"
        return "pass"




    def verdict_text(self) -> str:
        if self.violated:
            return f"FAIL: infinite privacy loss certified: {self.certificate.describe()}"  # type: ignore[union-attr]
        if self.inconclusive:
            m = next(p.mismatch for p in self.pairs if p.mismatch)
            return f"INCONCLUSIVE: the model does not describe this release: {m}; not a pass"
        w = ""
        if self.rng_use is not None and self.rng_use.ignores_rng:
            w = f"; warning: {self.rng_use.warning}"
        return ("PASS (no draw of M(x) was outside the support of M(x'); not a proof that the supports "
                "coincide)" + w)

    def summary(self) -> str:
        lines = [f"floating-point audit: model {self.model}; {self.n} draws per input and direction, "
                 f"{self.elapsed:.1f} s"]
        for p in self.pairs:
            lines.append("  " + p.describe())
        for n in self.notes:
            lines.append(f"  note: {n}")
        lines.append("  verdict: " + self.verdict_text())
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return jsonable({"kind": "floating", "model": self.model, "n": self.n, "false_alarm": self.false_alarm,
                         "seed": self.seed if isinstance(self.seed, int) else str(self.seed),
                         "outcome": self.outcome, "violated": self.violated, "passed": self.passed,
                         "verdict": self.verdict_text(), "delta_lower": self.delta_lower,
                         "certificate": self.certificate.to_json() if self.certificate else None,
                         "pairs": [p.to_json() for p in self.pairs], "notes": list(self.notes),
                         "rng_use": self.rng_use.to_json() if self.rng_use else None, "elapsed_s": self.elapsed})


def _draws(release: Callable[..., Any], x: float, n: int, gen: np.random.Generator) -> np.ndarray:
    try:
        out = np.asarray(release(np.full(n, x), gen), dtype=float).reshape(-1)
        if out.size == n and np.unique(out).size > 1:
            return out
    except Exception:  # noqa: BLE001 - a release that rejects arrays is called once per draw
        pass
    try:
        return np.array([float(np.asarray(release(x, gen), dtype=float).reshape(-1)[0]) for _ in range(n)])
    except Exception as exc:
        raise ValueError(f"release raised {type(exc).__name__} at x={x!r}: {exc}") from exc


def _classify(model: OutputModel, ys: np.ndarray, x: float) -> tuple[np.ndarray, dict[float, Reachability]]:
    """Per distinct draw: 1 reachable from x, 0 unreachable (certified), -1 undetermined."""
    uniq = np.unique(ys)
    status = np.ones(uniq.size, dtype=int)
    fast = model.fast_reachable(uniq, x)
    why: dict[float, Reachability] = {}
    for i in np.nonzero(~fast)[0]:
        r = model.reachable(float(uniq[i]), x)
        why[float(uniq[i])] = r
        status[i] = 1 if r.reachable else (0 if r.reachable is False else -1)
    return status[np.searchsorted(uniq, ys)], why


def audit_floating_mechanism(
    release: Callable[..., Any],
    model: OutputModel,
    *,
    pairs: Sequence[tuple[float, float]],
    budget: int = DEFAULT_FLOATING_BUDGET,
    false_alarm: float = 1e-3,
    rng: np.random.Generator | int = 0,
    progress: Callable[[str], None] | None = None,
) -> FloatingAuditReport:
    """Support-membership audit of a scalar ``release(x, rng)`` under ``model`` (module docstring).

    ``pairs``: neighbouring scalar inputs (x, x'), audited in both directions; ``budget``: draws of
    M(x) per direction; ``false_alarm``: the delta lower bound holds with probability
    >= 1 - false_alarm (Clopper-Pearson, union bound over directions)."""
    t0 = time.perf_counter()
    say = progress or (lambda _m: None)
    check_arity(release, 2, "release", "release(x, rng)")
    if not isinstance(model, OutputModel):
        raise TypeError(f"model must be an OutputModel (AdditiveModel, SnappedModel, IntegerModel); "
                        f"got {type(model).__name__}")
    n = check_integer("budget", budget, minimum=10)
    if n > MAX_FLOATING_BUDGET:
        raise ValueError(f"budget must be in [10, {MAX_FLOATING_BUDGET}] (the draws of each pair are held at once); "
                         f"got budget={n}")
    beta = check_probability("false_alarm", false_alarm)
    pair_list = list(pairs)
    if not pair_list:
        raise ValueError("pairs must list at least one pair (x, x')")
    clean = []
    for i, pr in enumerate(pair_list):
        try:
            a, b = (float(np.asarray(v, dtype=float).reshape(())) for v in pr)
        except (TypeError, ValueError):
            raise ValueError(f"pairs[{i}] must be a pair of real numbers (x, x'); got {pr!r}") from None
        if a == b:
            raise ValueError(f"pairs[{i}] has x == x' = {a!r}: the inputs must differ")
        clean.append((a, b))
    seed = int(rng) if isinstance(rng, (int, np.integer)) else "generator"
    gen = check_rng(rng)
    rng_use = check_rng_use(release, clean[0][0], seed=seed if isinstance(seed, int) else 0)
    level = beta / (2 * len(clean))
    results = []
    for i, (a, b) in enumerate(clean):
        for x, xp in ((a, b), (b, a)):
            say(f"pair {i + 1}/{len(clean)}: {n} draws of M({x!r}), support of M({xp!r})")
            ys = _draws(release, x, n, gen)
            if not np.all(np.isfinite(ys)):
                raise ValueError(f"release returned a non-finite value at x={x!r}")
            own, own_why = _classify(model, ys, x)
            mismatch = None
            not_from_x = int(np.sum(own == 0))
            if not_from_x:
                ybad = float(ys[own == 0][0])
                mismatch = (f"M(x={x!r}) produced y = {hexf(ybad)} which the model says x cannot produce "
                            f"({own_why[ybad].reason})")
            other, why = _classify(model, ys, xp)
            bad = (other == 0) & (own != 0)
            k = int(np.sum(bad))
            cert = None
            if k:
                ycert = float(ys[bad][0])
                cert = FloatingCertificate(ycert, x, xp, why[ycert].reason)
            lo, _ = clopper_pearson(k, n, level)
            results.append(FloatingPairResult(x, xp, n, k, int(np.sum((other == -1) & (own != 0))), not_from_x,
                                              float(lo), cert, mismatch))
    notes = [str(rng_use.warning)] if rng_use.ignores_rng else []
    return FloatingAuditReport(model.describe(), tuple(results), n, beta, seed, time.perf_counter() - t0,
                               rng_use, tuple(notes))
