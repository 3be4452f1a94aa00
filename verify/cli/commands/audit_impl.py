"""``smoothsens audit-impl MODULE:CALLABLE --kind bound|sampler|mechanism``: audit third-party code.

Imports the user's callable (MODULE is an importable module name or a path to a .py file;
CALLABLE a name or dotted attribute path such as ``mech.release``) and runs the matching black-box
auditor of :mod:`verify.audit.blackbox`:

* ``--kind bound``: B(points) as a g-smooth upper bound on L_{f,Lambda} (004 Def. 8) for a query
  (``--query threshold|two-way|bounded-range|kde`` with its parameters, or ``--query expr --expr
  "..."`` for a SymPy expression), ``--gamma``, ``--growth``, ``--Lambda``, ``--domain``;
* ``--kind sampler``: sampler(n, rng) against ``--distribution`` (exact CDF), Holm at
  ``--false-alarm``: continuous laws (laplace, gaussian, gencauchy, student-t, polyplace; KS,
  Anderson-Darling, tail quantiles, moments) and the two-sided geometric = discrete Laplace on the
  integers (``geometric`` or ``discrete-laplace``, P(K = k) proportional to exp(-|k - loc| / scale),
  003 App. A; support, chi-square on the support, tail counts, moments);
* ``--kind mechanism``: release(x, rng) claimed ``--eps``-private under ``--relation`` (euclidean
  Geo-Privacy, hamming, substitute, add-remove, linf / l1 query answers within ``--sensitivity``;
  :mod:`verify.audit.blackbox.relations`) at the related inputs ``--pair X:X'`` (``[a,b,c]`` keeps a
  one-coordinate database a vector: ``--pair=[1023.0]:[0.0]``; sizes may differ for add-remove), or
  without ``--pair`` at the pairs an input search from ``--base`` keeps; outputs of any shape; a lower
  bound on eps valid with probability 1 - ``--false-alarm``, beside the exact loss when the mechanism
  exposes its density, and one line saying whether the binary64 floating-point check ran;
* ``--kind floating``: release(x, rng) in binary64 (Mironov 2012): outputs of M(x) that M(x') cannot
  produce under ``--model additive --noise-scale b`` (fl(x + fl(b*s))), ``--model snapped
  --snap-grid L --snap-bound B`` or ``--model integer``; one such output certifies infinite loss.

For mechanisms the report says when the release ignores the rng it is given (two runs with the
same seed differ): then ``--seed`` does not make the audit reproducible.

``--workers N`` / ``--scheduler ADDRESS`` (``--kind mechanism``): the estimation draws, in chunks of
``--chunk`` draws each from its own child seed, run on a Dask LocalCluster of N workers or an existing
cluster (:mod:`verify.parallel`); the report is the same as the serial one for the same seed.

Progress goes to stderr, the summary to stdout, the full report to ``--json``.  Exit status: 0 the
implementation passed, 3 a fault was found (certified violation from either side, failure or
rejected fit), 4 inconclusive (an excess found in float that could not be certified: neither a pass
nor a fault), 2 bad input (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np

from ..argtypes import int_at_least
from .sensitivity import add_query_parameters

__all__ = ["register", "run", "EXIT_PASS", "EXIT_FAULT", "EXIT_INCONCLUSIVE"]

EXIT_PASS = 0
EXIT_FAULT = 3
EXIT_INCONCLUSIVE = 4
_QUERIES = ("threshold", "two-way", "bounded-range", "kde", "expr")
_RELATIONS = ("euclidean", "hamming", "substitute", "add-remove", "linf", "l1")
_DISTRIBUTIONS = ("laplace", "gaussian", "gencauchy", "student-t", "polyplace", "geometric", "discrete-laplace")

EPILOG = textwrap.dedent(
    """\
    Exit status: 0 passed, 3 fault found (certified), 4 inconclusive (uncertified excess), 2 bad input.
    Negative values need the = form: --domain=-5:5, --pair=-1:0.

    Examples:
      smoothsens audit-impl ./mybounds.py:B --kind bound --query threshold --T 0 --tau 0.5 --gamma 1
      smoothsens audit-impl mypkg.kde:bound --kind bound --query kde --t 0 --h 1 --gamma 0.1 --domain=-8:8
      smoothsens audit-impl ./mybounds.py:B2 --kind bound --query expr --expr "sin(x)" --gamma 0.5 --domain=-4:4
      smoothsens audit-impl ./noise.py:draw --kind sampler --distribution student-t --nu 3
      smoothsens audit-impl ./noise.py:draw_int --kind sampler --distribution discrete-laplace --scale 20
      smoothsens audit-impl ./mech.py:mech.release --kind mechanism --eps 1 --pair 0:0.5 --pair 1:2
      smoothsens audit-impl ./mech.py:mech.release --kind mechanism --eps 1 --pair 0:1 --budget 100000000 --workers 2
      smoothsens audit-impl ./mech.py:naive_laplace --kind floating --model additive --noise-scale 1 --pair 0:1
      smoothsens audit-impl ./peers.py:report_noisy_max_value --kind mechanism --eps 0.1 --relation linf --base=[1,1,1,1,1]
      smoothsens audit-impl ./mech.py:count --kind mechanism --eps 1 --relation add-remove --pair=[1,0,1]:[1,0]
    """
)


_positive_int = int_at_least(1, "a positive integer")
_nonneg_int = int_at_least(0)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "audit-impl",
        help="audit a third-party smooth bound, sampler or mechanism as a black box",
        description=(
            "Import MODULE:CALLABLE and audit it as a black box: a smooth upper bound B (004 Def. 8; "
            "violations certified in mpmath, B/B* quantiles), a noise sampler (KS, Anderson-Darling, "
            "tail quantiles, moments; Holm) or a release(x, rng) mechanism (Clopper-Pearson lower bound "
            "on eps beside the exact loss)."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("callable", metavar="MODULE:CALLABLE",
                   help="e.g. mypkg.bounds:B or ./bounds.py:B or ./m.py:mech.release")
    p.add_argument("--kind", choices=("bound", "sampler", "mechanism", "floating"), required=True, help="what CALLABLE is")
    p.add_argument("--budget", type=_positive_int, default=None,
                   help="bound: evaluations of B (default 20000); sampler: draws (default 200000); "
                        "mechanism: draws per input (default 200000)")
    p.add_argument("--seed", type=_nonneg_int, default=0,
                   help="random seed (default 0): the audit is reproducible from it")
    p.add_argument("--json", type=Path, default=None, metavar="PATH", help="write the full report as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress messages on stderr")
    p.add_argument("--Lambda", type=float, default=math.inf,
                   help="neighbourhood radius Lambda in (0, inf] (bound: 004 Def. 7-8; mechanism: pairs within it)")
    g = p.add_argument_group("bound (--kind bound)")
    g.add_argument("--query", choices=_QUERIES, help="the query f")
    g.add_argument("--expr", help="SymPy expression of f for --query expr, e.g. 'sin(x)' or 'x*y/(1+x**2+y**2)'")
    g.add_argument("--vars", help="comma-separated variables of --expr (default: its free symbols, sorted)")
    g.add_argument("--kinks", help="comma-separated kinks of --expr in d = 1 (added to the detected ones)")
    g.add_argument("--gamma", type=float, help="growth parameter gamma > 0")
    g.add_argument("--growth", choices=("exp", "linear"), default="exp", help="g_E (exp, default) or g_L (linear)")
    g.add_argument("--domain", help="box LO:HI of inputs, coordinates comma-separated (e.g. --domain=-5:5 or "
                                    "--domain=-5,-5:5,5); default: around the query's band/centre")
    g.add_argument("--window", type=float, default=None,
                   help="--query expr: half-width of the generic engine's search window for L_{f,Lambda} and B* "
                        "around each point (default 10); points where L cannot be computed make the audit "
                        "inconclusive (exit 4)")
    add_query_parameters(g)
    s = p.add_argument_group("sampler (--kind sampler)")
    s.add_argument("--distribution", choices=_DISTRIBUTIONS,
                   help="the claimed noise law (smoothsens_core.distributions)")
    s.add_argument("--p", type=float, help="GenCauchy p")
    s.add_argument("--theta", type=float, default=1.0, help="GenCauchy theta (default 1)")
    s.add_argument("--nu", type=float, help="Student's t degrees of freedom")
    s.add_argument("--alpha", type=float, help="PolyPlace shape alpha > 1")
    s.add_argument("--loc", type=float, default=0.0, help="location (default 0; an integer for geometric)")
    s.add_argument("--scale", type=float, default=1.0,
                   help="scale (default 1; gaussian: the standard deviation; PolyPlace: s; geometric / "
                        "discrete-laplace: t in P(K = k) ~ exp(-|k - loc| / t), i.e. eps / sensitivity = 1 / t)")
    m = p.add_argument_group("mechanism (--kind mechanism)")
    m.add_argument("--eps", type=float, help="claimed eps (per unit distance for euclidean, per record for hamming)")
    m.add_argument("--delta", type=float, default=0.0, help="claimed delta (default 0)")
    m.add_argument("--metric", choices=("euclidean", "hamming"), default=None,
                   help="input metric (the legacy name of --relation euclidean / hamming; default euclidean "
                        "for scalar inputs)")
    m.add_argument("--relation", choices=_RELATIONS, default=None,
                   help="neighbourhood relation the claim is about: euclidean (Geo-Privacy, eps per unit distance), "
                        "hamming (eps per differing record), substitute (same size, one record replaced), "
                        "add-remove (one record added or removed), linf / l1 (query answers within --sensitivity); "
                        "a pair that is not related is refused with its distance")
    m.add_argument("--sensitivity", type=float, default=1.0,
                   help="--relation linf / l1: the bound Delta on ||a - a'|| (default 1)")
    m.add_argument("--pair", action="append", metavar="X:X'",
                   help="neighbouring inputs, coordinates comma-separated (e.g. --pair 0:0.5 or "
                        "--pair=0,1:0,2; brackets keep a vector of one coordinate: --pair=[1023.0]:[0.0]); "
                        "repeatable; without --pair, --base runs the input search")
    m.add_argument("--base", default=None, metavar="X",
                   help="input search: the base input (e.g. --base=[1,1,1,1,1]); candidate pairs of the relation "
                        "around it are screened on separate draws and the best audited on fresh ones")
    m.add_argument("--universe", default=None, metavar="V,V,...",
                   help="input search, dataset relations: the record values (default: the base's values +- 1)")
    m.add_argument("--candidates", type=_positive_int, default=10, help="input search: pairs screened (default 10)")
    m.add_argument("--vectorised", action="store_true",
                   help="vector outputs: release maps a stack of k inputs to k outputs (never guessed)")
    m.add_argument("--bins", type=_positive_int, default=40, help="histogram bins of the event search (default 40)")
    m.add_argument("--chunk", type=_positive_int, default=None, metavar="N",
                   help="draws per task (default 1000000): no task holds more than one chunk of draws")
    m.add_argument("--workers", type=_positive_int, default=1, metavar="N",
                   help="draw the chunks on a Dask LocalCluster of N worker processes (default 1 = serial; "
                        "needs the [dask] extra, else runs serially and says so)")
    m.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="draw the chunks on an existing Dask cluster, e.g. tcp://host:8786 (the workers need "
                        "smoothsens and the callable's dependencies); same report as a serial run")
    m.add_argument("--plot", type=Path, default=None, metavar="PATH",
                   help="draw the estimated privacy curve delta(eps) against the claimed point (PNG/PDF/SVG)")
    fl = p.add_argument_group("floating point (--kind floating; also uses --pair)")
    fl.add_argument("--model", choices=("additive", "snapped", "integer"), default="additive",
                    help="output structure: additive fl(x + fl(b*s)) (default), snapped (Mironov's snapping) "
                         "or integer (integer inputs + integer noise)")
    fl.add_argument("--noise-scale", type=float, default=None,
                    help="additive: the scale b of fl(b*s) (default 1); with --kind mechanism it also runs the "
                         "binary64 check of an additive real release at scalar pairs")
    fl.add_argument("--snap-grid", type=float, help="snapped: the grid Lambda (a power of two)")
    fl.add_argument("--snap-bound", type=float, help="snapped: the clamp bound B")
    p.add_argument("--false-alarm", type=float, default=1e-3,
                   help="sampler: family-wise false-alarm rate of Holm's rule; mechanism: 1 - confidence "
                        "(default 1e-3)")
    p.set_defaults(handler=run)


def _floats(text: str, what: str) -> list[float]:
    try:
        vals = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"{what} must be comma-separated numbers; got {text!r}") from None
    if not vals:
        raise ValueError(f"{what} must not be empty; got {text!r}")
    return vals


def _split_pair(text: str, what: str) -> tuple[list[float], list[float]]:
    if text.count(":") != 1:
        raise ValueError(f"{what} must have the form A:B (coordinates comma-separated); got {text!r}")
    a, b = text.split(":")
    return _floats(a.strip().strip("[]"), what), _floats(b.strip().strip("[]"), what)


def _input(text: str, what: str) -> Any:
    """One input: ``[a,b,...]`` is a vector (even of one coordinate), a bare number a scalar, bare
    comma-separated numbers a vector."""
    t = text.strip()
    if t.startswith("[") or t.endswith("]"):
        if not (t.startswith("[") and t.endswith("]")):
            raise ValueError(f"{what} has unbalanced brackets; got {text!r}")
        return _floats(t[1:-1], what)
    vals = _floats(t, what)
    return vals[0] if len(vals) == 1 else vals


def _mechanism_pair(text: str) -> tuple[Any, Any]:
    """``--pair X:X'`` with each side an :func:`_input` (``--pair=[1023.0]:[0.0]`` is a pair of
    one-record databases, ``--pair=1023.0:0.0`` a pair of scalars)."""
    if text.count(":") != 1:
        raise ValueError(f"--pair must have the form A:B (coordinates comma-separated); got {text!r}")
    a, b = text.split(":")
    return _input(a, "--pair"), _input(b, "--pair")


def _relation(args: argparse.Namespace) -> Any:
    from verify.audit.blackbox.relations import (  # noqa: PLC0415 - the CLI imports verify lazily
        AddRemoveOne,
        Euclidean,
        Hamming,
        QueryAnswers,
        SubstituteOne,
    )

    if args.relation is None:
        return None
    if args.metric is not None:
        raise ValueError(f"pass --relation or --metric, not both; got --metric {args.metric} --relation {args.relation}")
    if args.relation == "euclidean":
        return Euclidean(args.Lambda)
    if args.relation == "hamming":
        return Hamming()
    if args.relation == "substitute":
        return SubstituteOne()
    if args.relation == "add-remove":
        return AddRemoveOne()
    return QueryAnswers(args.relation, args.sensitivity)


def _need(args: argparse.Namespace, kind: str, *names: str) -> None:
    missing = [n for n in names if getattr(args, n) is None]
    if missing:
        raise ValueError(f"{kind} needs " + ", ".join("--" + n.replace("_", "-") for n in missing))


def _run_bound(args: argparse.Namespace, fn: Any, say: Any) -> Any:
    from smoothsens_core.growth import growth_exp, growth_linear  # noqa: PLC0415 - keeps `smoothsens --help` light
    from verify.audit.blackbox import audit_smooth_bound  # noqa: PLC0415 - keeps `smoothsens --help` light

    _need(args, "--kind bound", "query", "gamma")
    growth = (growth_exp if args.growth == "exp" else growth_linear)(args.gamma)
    params: dict[str, Any] = {}
    if args.query == "threshold":
        _need(args, "--query threshold", "T", "tau")
        params = {"T": args.T, "tau": args.tau}
    elif args.query == "two-way":
        _need(args, "--query two-way", "T1", "T2", "tau")
        params = {"T1": args.T1, "T2": args.T2, "tau": args.tau}
    elif args.query == "bounded-range":
        _need(args, "--query bounded-range", "l", "r", "tau")
        params = {"l": args.l, "r": args.r, "tau": args.tau, "shape": args.shape}
    elif args.query == "kde":
        _need(args, "--query kde", "t", "h")
        params = {"t": _floats(args.t, "--t"), "h": args.h}
    f: Any = args.query
    if args.query == "expr":
        _need(args, "--query expr", "expr")
        import sympy as sp  # noqa: PLC0415 - keeps `smoothsens --help` light

        try:
            f = sp.sympify(args.expr)
        except (sp.SympifyError, SyntaxError, TypeError) as exc:
            raise ValueError(f"cannot parse --expr {args.expr!r}: {' '.join(str(exc).split())}") from None
        if args.vars:
            params["variables"] = args.vars
        if args.kinks:
            params["kinks"] = _floats(args.kinks, "--kinks")
        if args.domain is None:
            raise ValueError("--query expr needs --domain LO:HI")
    domain = _split_pair(args.domain, "--domain") if args.domain else None
    kw: dict[str, Any] = {} if args.budget is None else {"budget": args.budget}
    if args.window is not None:
        if args.query != "expr":
            raise ValueError(f"--window applies to --query expr (the generic engine); got --query {args.query}")
        kw["window"] = args.window
    return audit_smooth_bound(f, fn, growth, args.Lambda, params=params, domain=domain, rng=args.seed,
                              progress=say, **kw)


def _distribution(args: argparse.Namespace) -> Any:
    from smoothsens_core.distributions import Gaussian, GenCauchy, Laplace, PolyPlace, StudentT, TwoSidedGeometric  # noqa: PLC0415 - keeps `smoothsens --help` light

    _need(args, "--kind sampler", "distribution")
    if args.distribution == "laplace":
        return Laplace(args.loc, args.scale)
    if args.distribution == "gaussian":
        return Gaussian(args.loc, args.scale)
    if args.distribution in ("geometric", "discrete-laplace"):
        # the discrete Laplace of scale t is the two-sided geometric with r = e^(-eps/sensitivity) = e^(-1/t)
        if not float(args.loc).is_integer():
            raise ValueError(f"--loc must be an integer for --distribution {args.distribution}; got --loc={args.loc!r}")
        if not (math.isfinite(args.scale) and args.scale > 0):
            raise ValueError(f"--scale must be positive and finite for --distribution {args.distribution}; "
                             f"got --scale={args.scale!r}")
        return TwoSidedGeometric(1.0, sensitivity=args.scale, loc=int(args.loc))
    if args.distribution == "gencauchy":
        _need(args, "--distribution gencauchy", "p")
        return GenCauchy(args.p, args.theta, args.loc, args.scale)
    if args.distribution == "student-t":
        _need(args, "--distribution student-t", "nu")
        return StudentT(args.nu, args.loc, args.scale)
    _need(args, "--distribution polyplace", "alpha")
    return PolyPlace(args.scale, args.alpha, args.loc)


def _run_sampler(args: argparse.Namespace, fn: Any, say: Any) -> Any:
    from verify.audit.blackbox import audit_sampler  # noqa: PLC0415 - keeps `smoothsens --help` light

    dist = _distribution(args)
    kw = {} if args.budget is None else {"budget": args.budget}
    return audit_sampler(fn, dist, rng=args.seed, false_alarm=args.false_alarm, progress=say, **kw)


def _run_mechanism(args: argparse.Namespace, fn: Any, say: Any) -> Any:
    from verify.audit.blackbox import audit_blackbox_mechanism  # noqa: PLC0415 - keeps `smoothsens --help` light

    from verify.audit.blackbox.input_search import InputSearch  # noqa: PLC0415 - the CLI imports verify lazily

    _need(args, "--kind mechanism", "eps")
    if args.pair is None and args.base is None:
        raise ValueError("--kind mechanism needs --pair X:X' (repeatable) or --base X (the input search)")
    if args.pair is not None and args.base is not None:
        raise ValueError("pass --pair or --base (the input search), not both")
    pairs = None if args.pair is None else [_mechanism_pair(text) for text in args.pair]
    kw: dict[str, Any] = {} if args.budget is None else {"budget": args.budget}
    relation = _relation(args)
    if relation is not None:
        kw["relation"] = relation
    elif args.metric is not None:
        kw["metric"] = args.metric
    if args.base is not None:
        universe = _floats(args.universe, "--universe") if args.universe else None
        kw["search"] = InputSearch(_input(args.base, "--base"), universe, args.candidates)
    if args.vectorised:
        kw["vectorised"] = True
    if getattr(args, "chunk", None) is not None:
        kw["chunk"] = args.chunk
    from verify.parallel import SerialExecutor, get_executor  # noqa: PLC0415 - keeps `smoothsens --help` light

    with get_executor(getattr(args, "scheduler", None), getattr(args, "workers", 1)) as ex:
        release = fn
        if not isinstance(ex, SerialExecutor):
            say(f"chunks of draws on {ex.describe()}")
            release = _shipped(args.callable, fn)
            owner = getattr(fn, "__self__", None)
            if owner is not None and callable(getattr(owner, "log_density", None)):
                kw["density"] = owner  # the exact side, as for the bound method itself
        rep = audit_blackbox_mechanism(release, args.eps, pairs=pairs, claimed_delta=args.delta,
                                       n_bins=args.bins, false_alarm=args.false_alarm, rng=args.seed,
                                       Lambda=args.Lambda, progress=say, executor=ex, **kw)
        for event in ex.events:
            say(event)
    return rep, _floating_line(args, fn, rep, say)


def _floating_line(args: argparse.Namespace, fn: Any, rep: Any, say: Any) -> tuple[str, Any]:
    """The one line on binary64 (Mironov 2012) of ``--kind mechanism``: the support check of
    :func:`verify.audit.blackbox.audit_floating_mechanism` runs when the output is one real number, the
    pairs are scalars and ``--noise-scale`` gives the additive model; otherwise the line says why not."""
    from verify.audit.blackbox import AdditiveModel, audit_floating_mechanism  # noqa: PLC0415

    head = "floating point (binary64): "
    if rep.output_shape != "scalar" or rep.discrete:
        return head + "check not run: the output is not one real number (the additive model does not apply)", None
    scalar_pairs = [(p.x, p.x_prime) for p in rep.pairs]
    if not all(np.ndim(v) == 0 for pr in scalar_pairs for v in pr):
        return head + "check not run: the inputs are not scalars (the additive model fl(x + fl(b*s)) needs x real)", None
    if args.noise_scale is None:
        return (head + "check not run: the noise scale is unknown -- this audit does not look at floats; add "
                "--noise-scale b (or run --kind floating) to check fl(x + fl(b*s))"), None
    try:
        fr = audit_floating_mechanism(fn, AdditiveModel(args.noise_scale), pairs=sorted({
            (float(a), float(b)) for a, b in scalar_pairs}), false_alarm=args.false_alarm, rng=args.seed, progress=say)
    except (TypeError, ValueError) as exc:
        return head + f"check not run: {exc}", None
    verdict = [ln for ln in fr.summary().splitlines() if "verdict" in ln]
    return head + f"check ran (additive model, b = {args.noise_scale:g}): " + (
        verdict[-1].strip() if verdict else ("FAIL" if fr.violated else "PASS")), fr


class _ShippedRelease:
    """``release(x, rng)`` of a module the Dask workers cannot import (loaded from a .py path): the
    callable is serialised by value (cloudpickle, with its module's code) and loaded once per worker."""

    def __init__(self, payload: bytes) -> None:
        self.payload = payload
        self._fn: Any = None

    def __call__(self, x: Any, rng: Any) -> Any:
        if self._fn is None:
            import cloudpickle  # type: ignore[import-untyped]  # noqa: PLC0415 - keeps `smoothsens --help` light; no type information

            self._fn = cloudpickle.loads(self.payload)
        return self._fn(x, rng)

    def __getstate__(self) -> dict[str, Any]:
        return {"payload": self.payload, "_fn": None}


def _shipped(spec: str, fn: Any) -> Any:
    """``fn`` itself when its module is importable by name; else a :class:`_ShippedRelease` carrying it
    by value (``cloudpickle.register_pickle_by_value`` on the module loaded from the path)."""
    import inspect  # noqa: PLC0415 - keeps `smoothsens --help` light

    mod_part = spec.rpartition(":")[0]
    if not (mod_part.endswith(".py") or "/" in mod_part or "\\" in mod_part):
        return fn
    module = inspect.getmodule(getattr(fn, "__func__", fn))
    import cloudpickle  # noqa: PLC0415 - keeps `smoothsens --help` light

    if module is not None:
        cloudpickle.register_pickle_by_value(module)
    try:
        payload = cloudpickle.dumps(fn)
    finally:
        if module is not None:
            cloudpickle.unregister_pickle_by_value(module)
    return _ShippedRelease(payload)


def _run_floating(args: argparse.Namespace, fn: Any, say: Any) -> Any:
    from verify.audit.blackbox import AdditiveModel, IntegerModel, SnappedModel, audit_floating_mechanism  # noqa: PLC0415 - keeps `smoothsens --help` light

    _need(args, "--kind floating", "pair")
    if args.model == "additive":
        model: Any = AdditiveModel(1.0 if args.noise_scale is None else args.noise_scale)
    elif args.model == "snapped":
        _need(args, "--model snapped", "snap_grid", "snap_bound")
        model = SnappedModel(args.snap_grid, args.snap_bound)
    else:
        model = IntegerModel()
    pairs = []
    for text in args.pair:
        a, b = _split_pair(text, "--pair")
        if len(a) != 1 or len(b) != 1:
            raise ValueError(f"--kind floating audits scalar inputs: --pair must be X:X'; got {text!r}")
        pairs.append((a[0], b[0]))
    kw = {} if args.budget is None else {"budget": args.budget}
    return audit_floating_mechanism(fn, model, pairs=pairs, false_alarm=args.false_alarm, rng=args.seed,
                                    progress=say, **kw)


def run(args: argparse.Namespace) -> int:
    """Handler of ``smoothsens audit-impl``; returns 0 (passed), 3 (fault found) or 4 (inconclusive)."""
    from verify.audit.blackbox import load_callable  # noqa: PLC0415 - keeps `smoothsens --help` light

    def say(msg: str) -> None:
        if not args.no_progress:
            print(f"[audit-impl] {msg}", file=sys.stderr, flush=True)

    fn = load_callable(args.callable)
    say(f"loaded {args.callable} ({type(fn).__name__}); auditing as a {args.kind}")
    if args.kind == "bound":
        report = _run_bound(args, fn, say)
    elif args.kind == "sampler":
        report = _run_sampler(args, fn, say)
    elif args.kind == "floating":
        report = _run_floating(args, fn, say)
    else:
        report, (float_line, float_rep) = _run_mechanism(args, fn, say)
    print(report.summary())
    float_fault = False
    if args.kind == "mechanism":
        print(float_line)
        float_fault = float_rep is not None and float_rep.violated
    rng_use = getattr(report, "rng_use", None)
    if rng_use is not None and rng_use.ignores_rng:
        print(f"WARNING: {rng_use.warning}")
    if args.json is not None:
        doc = {"callable": args.callable, "seed": args.seed, **report.to_json()}
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(doc, indent=2, allow_nan=False) + "\n")
        print(f"wrote {args.json}")
    if args.kind == "mechanism" and getattr(args, "plot", None) is not None:
        from verify.audit.blackbox.privacy_curve import plot_privacy_curve  # noqa: PLC0415 - keeps `smoothsens --help` light
        print(f"wrote {plot_privacy_curve(report, args.plot)}")
    if float_fault:
        return EXIT_FAULT
    if report.passed:
        return EXIT_PASS
    if args.kind in ("mechanism", "floating", "bound") and report.inconclusive:
        return EXIT_INCONCLUSIVE
    return EXIT_FAULT
