"""Loading and calling third-party code as a black box.

* :func:`load_callable` resolves ``MODULE:CALLABLE`` (MODULE an importable module name or a path to
  a ``.py`` file; CALLABLE a name or a dotted attribute path such as ``mech.release``).
* :class:`PointFunction` evaluates a candidate B on arrays of points: vectorised when B accepts a
  NumPy array (one call per batch), otherwise point by point (detected on a probe, never assumed).
  Every input on which B raises, or returns NaN, an infinity or a value <= 0, is recorded as an
  :class:`EvaluationFailure` with the input; the value there is NaN and the audit reports it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
from numpy.typing import NDArray

__all__ = ["load_callable", "check_arity", "EvaluationFailure", "PointFunction", "RngUse", "check_rng_use"]

FloatArray = NDArray[np.float64]


def _import_file(path: Path) -> Any:
    """Import a ``.py`` file as a module under a private, path-derived name (registered in sys.modules)."""
    resolved = path.resolve()
    tag = hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    name = f"_smoothsens_user_{resolved.stem}_{tag}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:  # pragma: no cover - only for exotic suffixes
        raise ValueError(f"cannot import {path}: not a Python source file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise ValueError(f"importing {path} raised {type(exc).__name__}: {exc}") from exc
    return module


def load_callable(spec: str) -> Callable[..., Any]:
    """The callable named by ``MODULE:CALLABLE``.

    MODULE is an importable module name (``mypkg.bounds``) or a path to a ``.py`` file
    (``./bounds.py``, ``/abs/path/bounds.py``); CALLABLE is an attribute name or a dotted path
    (``release`` or ``mechanism.release``).  Raises ValueError naming what could not be found or
    imported, TypeError when the object found is not callable.
    """
    if not isinstance(spec, str):
        raise TypeError(f"the callable must be given as a 'MODULE:CALLABLE' string; got {type(spec).__name__}")
    mod_part, sep, attr_part = spec.rpartition(":")
    if not sep or not mod_part or not attr_part:
        raise ValueError(
            f"expected MODULE:CALLABLE (e.g. mypkg.bounds:B or ./bounds.py:B); got {spec!r}"
        )
    if mod_part.endswith(".py") or "/" in mod_part or "\\" in mod_part:
        path = Path(mod_part)
        if not path.is_file():
            raise ValueError(f"cannot import {mod_part!r}: no such file")
        module = _import_file(path)
    else:
        try:
            module = importlib.import_module(mod_part)
        except ImportError as exc:
            raise ValueError(f"cannot import module {mod_part!r}: {exc}") from exc
        except Exception as exc:
            raise ValueError(f"importing module {mod_part!r} raised {type(exc).__name__}: {exc}") from exc
    obj: Any = module
    walked = []
    for part in attr_part.split("."):
        walked.append(part)
        if not hasattr(obj, part):
            raise ValueError(f"module {mod_part!r} has no attribute {'.'.join(walked)!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise TypeError(f"{attr_part!r} in {mod_part!r} is not callable; got {type(obj).__name__}")
    return obj


def check_arity(fn: Callable[..., Any], n_args: int, what: str, expected: str) -> None:
    """TypeError unless ``fn`` accepts ``n_args`` positional arguments (when its signature is known)."""
    if not callable(fn):
        raise TypeError(f"{what} must be callable; got {type(fn).__name__}")
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # builtins / extension functions without a signature
        return
    try:
        sig.bind(*([None] * n_args))
    except TypeError:
        raise TypeError(f"{what} must be callable as {expected}; its signature is {sig}") from None


@dataclass(frozen=True)
class EvaluationFailure:
    """An input on which the candidate failed: it raised, or returned NaN, inf or a value <= 0."""

    x: tuple[float, ...]
    kind: str  # "raised", "nan", "infinite", "nonpositive", "shape"
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"x": list(self.x), "kind": self.kind, "detail": self.detail}


class PointFunction:
    """A black-box B : R^d -> (0, inf) evaluated on (n, d) arrays of points.

    Calling convention of B (detected on ``probe`` points):
    * vectorised: B(points) with points of shape (n,) for d = 1 or (n, d) for d >= 2, returning n
      values (shape (n,) or (n, 1)); a 0-d result is accepted only when B is constant on the probe;
    * scalar: B(x) with x a float for d = 1 or an array of shape (d,) for d >= 2, returning one value.
    B is called on arrays whenever it accepts them; a batch on which a vectorised B raises is split
    in halves until the failing inputs are isolated (at most ``max_failures`` are isolated; the
    remaining points of failing batches are counted in ``unisolated``).
    """

    def __init__(self, fn: Callable[..., Any], d: int, probe: FloatArray, *, name: str = "B",
                 max_failures: int = 50) -> None:
        check_arity(fn, 1, name, f"{name}(points)")
        self.fn = fn
        self.d = int(d)
        self.name = name
        self.max_failures = int(max_failures)
        self.failures: list[EvaluationFailure] = []
        self.n_failed = 0
        self.unisolated = 0
        self.evaluations = 0
        self.calls = 0
        self._seen: set[tuple[float, ...]] = set()
        self.vectorised = self._detect(np.asarray(probe, dtype=float).reshape(-1, self.d))

    # -- calling conventions ------------------------------------------------------------------
    def _arg_many(self, X: FloatArray) -> FloatArray:
        return X[:, 0].copy() if self.d == 1 else X.copy()

    def _arg_one(self, x: FloatArray) -> Any:
        return float(x[0]) if self.d == 1 else x.copy()

    def _detect(self, P: FloatArray) -> bool:
        if P.shape[0] < 2:
            raise ValueError("the probe needs at least 2 points")
        vec_err = ""
        try:
            self.calls += 1
            out = np.asarray(self.fn(self._arg_many(P)), dtype=float)
        except Exception as exc:  # noqa: BLE001 - any exception of the black box is information
            vec_err = f"{type(exc).__name__}: {exc}"
            out = None
        scal_vals: list[float] = []
        scal_errs: list[str] = []

        def scalar_probe() -> None:
            for x in P:
                try:
                    self.calls += 1
                    v = np.asarray(self.fn(self._arg_one(x)), dtype=float)
                    if v.size != 1:
                        scal_errs.append(f"returned shape {v.shape} for one point")
                        scal_vals.append(math.nan)
                    else:
                        scal_vals.append(float(v.reshape(-1)[0]))
                except Exception as exc:  # noqa: BLE001
                    scal_errs.append(f"{type(exc).__name__}: {exc}")
                    scal_vals.append(math.nan)

        if out is not None:
            if out.size == P.shape[0] and out.ndim <= 2:
                return True
            if out.size == 1:
                # A 0-d result for n points: a constant B, or a scalar-only B applied to the whole array.
                scalar_probe()
                v0 = float(out.reshape(-1)[0])
                if all(sv == v0 for sv in scal_vals):
                    return True
                if any(math.isfinite(sv) for sv in scal_vals):
                    return False
            vec_err = f"returned shape {out.shape} for {P.shape[0]} points"
        if not scal_vals:
            scalar_probe()
        good = [i for i, sv in enumerate(scal_vals) if not math.isnan(sv)]
        if len(good) >= 2:
            # B raised on the whole probe but works point by point: if it accepts an array of the
            # points where it works, it is vectorised and merely fails on some inputs.
            try:
                self.calls += 1
                sub = np.asarray(self.fn(self._arg_many(P[good])), dtype=float)
                if sub.size == len(good) and sub.ndim <= 2:
                    return True
            except Exception:  # noqa: BLE001 - then it is a scalar-only B
                pass
        if good:
            return False
        one = "a float" if self.d == 1 else f"an array of shape ({self.d},)"
        many = f"({P.shape[0]},)" if self.d == 1 else f"({P.shape[0]}, {self.d})"
        raise TypeError(
            f"{self.name} could not be evaluated at any of {P.shape[0]} probe points of the domain: "
            f"{self.name}(array of shape {many}) -> {vec_err}; {self.name}({one}) -> "
            f"{scal_errs[0] if scal_errs else 'no value'}. {self.name} must map points to positive reals"
        )

    # -- evaluation -----------------------------------------------------------------------------
    def _record(self, x: FloatArray, kind: str, detail: str) -> None:
        key = tuple(float(t) for t in x)
        if key in self._seen:
            return
        self._seen.add(key)
        self.n_failed += 1
        if len(self.failures) < self.max_failures:
            self.failures.append(EvaluationFailure(key, kind, detail))

    def _call_batch(self, X: FloatArray) -> FloatArray:
        """Values on a batch; raises are isolated by halving; NaN where B failed."""
        n = X.shape[0]
        self.calls += 1
        try:
            out = np.asarray(self.fn(self._arg_many(X)), dtype=float)
        except Exception as exc:  # noqa: BLE001
            if n == 1:
                self._record(X[0], "raised", f"{type(exc).__name__}: {exc}")
                return np.full(1, np.nan)
            if len(self.failures) >= self.max_failures:
                self.unisolated += n
                return np.full(n, np.nan)
            h = n // 2
            return np.concatenate([self._call_batch(X[:h]), self._call_batch(X[h:])])
        if out.size == n:
            return out.reshape(n)
        if out.size == 1:
            return np.full(n, float(out.reshape(-1)[0]))
        for x in X[: max(1, self.max_failures - len(self.failures))]:
            self._record(x, "shape", f"returned shape {out.shape} for {n} points")
        return np.full(n, np.nan)

    def __call__(self, X: FloatArray) -> FloatArray:
        X = np.asarray(X, dtype=float).reshape(-1, self.d)
        n = X.shape[0]
        self.evaluations += n
        if n == 0:
            return np.zeros(0)
        if self.vectorised:
            vals = self._call_batch(X)
        else:
            vals = np.empty(n)
            for i in range(n):
                self.calls += 1
                try:
                    v = np.asarray(self.fn(self._arg_one(X[i])), dtype=float)
                    vals[i] = float(v.reshape(-1)[0]) if v.size == 1 else math.nan
                    if v.size != 1:
                        self._record(X[i], "shape", f"returned shape {v.shape} for one point")
                except Exception as exc:  # noqa: BLE001
                    self._record(X[i], "raised", f"{type(exc).__name__}: {exc}")
                    vals[i] = math.nan
        bad_nan = np.isnan(vals)
        bad_inf = np.isinf(vals)
        bad_np = np.isfinite(vals) & ~(vals > 0)
        for idx in np.nonzero(bad_inf | bad_np)[0][: self.max_failures]:
            kind = "infinite" if bad_inf[idx] else "nonpositive"
            self._record(X[idx], kind, f"returned {float(vals[idx])!r}")
        for idx in np.nonzero(bad_nan)[0][: self.max_failures]:
            key = tuple(float(t) for t in X[idx])
            if key not in self._seen:  # NaN that B itself returned (raises were recorded above)
                self._record(X[idx], "nan", "returned nan")
        return np.where(bad_nan | bad_inf | bad_np, np.nan, vals)

    def one(self, x: FloatArray) -> float:
        """B at one point, called exactly as during the search (for re-evaluating witnesses)."""
        return float(self(np.asarray(x, dtype=float).reshape(1, self.d))[0])


@dataclass(frozen=True)
class RngUse:
    """Whether a ``release(x, rng)`` draws its randomness from the ``rng`` it is given.

    ``reproducible``: two runs with ``numpy.random.default_rng(seed)`` (same seed, same input)
    returned the same draws.  ``consumed``: the generator's state advanced during the calls (a
    release that returns the same draws without consuming the rng is deterministic, or seeds
    itself).  ``ignores_rng`` is True exactly when the draws differ: the mechanism takes its
    randomness elsewhere (OS/secure randomness, NumPy's global state, its own generator), so a
    ``--seed`` does not make an audit of it reproducible.  The audit stays statistically valid:
    its bounds hold for any source of independent draws.
    """

    reproducible: bool
    consumed: bool
    n_draws: int
    seed: int
    first_run: tuple[float, ...]
    second_run: tuple[float, ...]
    detail: str = ""

    @property
    def ignores_rng(self) -> bool:
        return not self.reproducible

    @property
    def warning(self) -> str | None:
        """The sentence every report prints when the rng is ignored; None otherwise."""
        if self.reproducible:
            return None
        return ("the mechanism ignores the rng: --seed does not make this audit reproducible "
                f"(two runs with numpy.random.default_rng({self.seed}) at the same input gave different "
                "draws; the statistical bounds remain valid)")

    def to_json(self) -> dict[str, Any]:
        return {"ignores_rng": self.ignores_rng, "reproducible": self.reproducible, "consumed": self.consumed,
                "n_draws": self.n_draws, "seed": self.seed, "first_run": list(self.first_run),
                "second_run": list(self.second_run), "warning": self.warning, "detail": self.detail}


def _rng_state(gen: np.random.Generator) -> str:
    return repr(gen.bit_generator.state)


def check_rng_use(release: Callable[..., Any], x: Any, *, seed: int = 0, n_draws: int = 8) -> RngUse:
    """Run ``release(x, numpy.random.default_rng(seed))`` twice (``n_draws`` draws each, one call
    per draw, each run on its own freshly seeded generator) and compare the draws (:class:`RngUse`).

    A release that accepts only arrays of inputs is called once per run with ``n_draws`` copies of
    x.  Draws are compared bit for bit (NaN equal to NaN).  Raises TypeError when the release
    cannot be called at x either way.
    """
    check_arity(release, 2, "release", "release(x, rng)")
    seed = int(seed)
    n_draws = int(n_draws)
    if n_draws < 1:
        raise ValueError(f"n_draws must be >= 1; got n_draws={n_draws}")

    def one_run(gen: np.random.Generator, batch: bool) -> np.ndarray:
        if batch:
            a = np.asarray(x, dtype=float)
            xs = np.repeat(a[None, ...], n_draws, axis=0) if a.ndim else np.full(n_draws, float(a))
            return np.asarray(release(xs, gen), dtype=float).reshape(-1)
        return np.array([float(np.asarray(release(x, gen), dtype=float).reshape(-1)[0])
                         for _ in range(n_draws)])

    detail = ""
    batch = False
    g1 = np.random.default_rng(seed)
    fresh = _rng_state(np.random.default_rng(seed))
    try:
        r1 = one_run(g1, False)
    except Exception as exc:  # noqa: BLE001 - a release that only accepts arrays
        detail = f"release(x, rng) raised {type(exc).__name__}: {exc}; called with {n_draws} copies of x"
        batch = True
        g1 = np.random.default_rng(seed)
        try:
            r1 = one_run(g1, True)
        except Exception as exc2:
            raise TypeError(f"release(x, rng) could not be called at x={x!r}: {type(exc2).__name__}: {exc2}") from exc2
    consumed = _rng_state(g1) != fresh
    r2 = one_run(np.random.default_rng(seed), batch)
    same = r1.shape == r2.shape and bool(np.all((r1 == r2) | (np.isnan(r1) & np.isnan(r2))))
    return RngUse(same, consumed, int(r1.size), seed, tuple(float(v) for v in r1),
                  tuple(float(v) for v in r2), detail)
