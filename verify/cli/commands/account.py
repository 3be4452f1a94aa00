"""``smoothsens account``: certified delta(eps) or eps(delta) of one mechanism or a composition.

``smoothsens account --mechanism gaussian:sigma=2,sensitivity=1 --k 100 --eps 1`` prints the enclosure
[lower, upper] of delta(1) of 100 Gaussian releases; ``--delta 1e-6`` prints the interval [eps_lo, eps_hi] of
eps(1e-6) instead (the mechanism is (eps_hi, 1e-6)-DP, certified).  Several ``--mechanism`` compose different
mechanisms (all of them ``--k`` times).  A single mechanism with k = 1 uses its closed form (or the certified
hockey-stick enclosure for GenCauchy and Student t, :class:`verify.accounting.PrivacyCurve`); a composition of
Gaussians the exact composed curve (:func:`verify.accounting.compose_exact`); anything else the
certified PLD composition on the grid ``--h`` (:func:`verify.accounting.compose`: every family, the dilated
pairs of the smooth-sensitivity families included).  ``--plot PATH`` writes a PNG
of the curve (both ends) with the claimed point.  Bad input: one line on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from verify.cli.argtypes import int_at_least

__all__ = ["register", "run"]


def _mechanism(spec: str) -> Any:
    from verify.accounting import PrivacyCurve  # noqa: PLC0415 - keeps `smoothsens --help` light

    try:
        return PrivacyCurve.parse(spec)
    except (ValueError, TypeError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _nonneg(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number >= 0; got {s!r}") from None
    if not (math.isfinite(v) and v >= 0):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0; got {s!r}")
    return v


def _prob(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1); got {s!r}") from None
    if not 0.0 < v < 1.0:
        raise argparse.ArgumentTypeError(f"must be in (0, 1); got {s!r}")
    return v


def _positive(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number > 0; got {s!r}") from None
    if not (math.isfinite(v) and v > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0; got {s!r}")
    return v


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "account",
        help="certified delta(eps) / eps(delta) of a mechanism or a composition (privacy accounting)",
        description=(
            "Privacy accounting with certified enclosures: delta(eps) as [lower, upper] (or eps(delta) as an "
            "interval) of one mechanism or of the composition of several, each --k times.  Mechanisms: "
            "gaussian:sigma=S, laplace:b=B, discrete_laplace:b=B (P(k) ~ e^(-|k|/b), integer sensitivity), "
            "student_t:nu=N,scale=S, gencauchy:p=P,theta=T,scale=S and polyplace:alpha=A,scale=S (with the declared "
            "pair's scale ratio=R), each with sensitivity=D (default 1)."
        ),
    )
    p.add_argument("--mechanism", "-m", type=_mechanism, action="append", required=True, metavar="SPEC",
                   help="family:key=value,... e.g. gaussian:sigma=2,sensitivity=1 (repeatable: heterogeneous "
                        "composition)")
    p.add_argument("--k", type=int_at_least(1), default=1, help="number of times the mechanism list is composed")
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--eps", type=_nonneg, action="append", metavar="EPS",
                        help="print the enclosure of delta(EPS) (repeatable)")
    target.add_argument("--delta", type=_prob, metavar="DELTA", help="print the interval of eps(DELTA)")
    p.add_argument("--h", type=_positive, default=1e-3,
                   help="grid step of the privacy-loss distribution for compositions (default 1e-3; the width "
                        "shrinks as h^2)")
    p.add_argument("--plot", metavar="PATH", default=None,
                   help="write a PNG of the curve delta(eps) (both ends) with the claimed point")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from verify.accounting import compose, compose_exact  # noqa: PLC0415 - keeps `smoothsens --help` light
    from verify.accounting.curve import fmt_bound  # noqa: PLC0415 - as above

    mechs = list(args.mechanism)
    single = len(mechs) == 1 and args.k == 1
    exact = None if single else compose_exact(mechs, k=args.k)
    obj: Any = mechs[0] if single else exact if exact is not None else compose(mechs, k=args.k, h=args.h)
    how = ("closed form / certified hockey-stick enclosure" if single
           else f"exact composition of Gaussians: one Gaussian pair with mu = {exact.mu:.12g} (Dong, Roth & Su "
                "2019 Cor. 3.3), certified in arb" if exact is not None
           else f"certified PLD composition, grid h={obj.h:.6g}")
    what = " + ".join(m.label() for m in mechs)
    what = what if args.k == 1 else f"{args.k} x ({what})"
    out: dict[str, Any] = {"mechanisms": [m.label() for m in mechs], "k": args.k, "method": how}
    lines = [f"mechanism: {what}", f"method: {how}"]
    point: tuple[float, float] | None = None
    if args.delta is not None:
        iv = obj.epsilon(args.delta)
        out["epsilon"] = {"delta": iv.delta, "lower": iv.lower, "upper": iv.upper, "certified": iv.certified,
                          "reason": iv.reason}
        lines.append(iv.describe())
        if iv.certified:
            up_s, lo_s = fmt_bound(iv.upper, True), fmt_bound(iv.lower, False)
            lines.append(f"certified: ({up_s}, {args.delta:g})-DP; not ({lo_s}, {args.delta:g})-DP or any smaller eps"
                         if iv.lower > 0 else f"certified: ({up_s}, {args.delta:g})-DP")
            point = (iv.upper, args.delta)
    else:
        out["delta"] = []
        for e in args.eps:
            enc = obj.delta(e)
            rel = enc.relative_width()
            out["delta"].append({"eps": e, "lower": enc.lower, "upper": enc.upper, "certified": enc.certified,
                                 "relative_width": rel, "reason": enc.reason})
            c = "certified" if enc.certified else f"NOT certified ({enc.reason})"
            lines.append(f"delta({e:g}) in [{fmt_bound(enc.lower, False)}, {fmt_bound(enc.upper, True)}] "
                         f"({c}; relative width {rel:.2g})")
        last = out["delta"][-1]
        if last["certified"]:
            point = (float(args.eps[-1]), float(last["upper"]))
    if args.plot:
        _plot(obj, args.plot, point, what)
        out["plot"] = args.plot
        lines.append(f"plot written to {args.plot}")
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print("\n".join(lines))
    return 0


def _plot(obj: Any, path: str, point: tuple[float, float] | None, title: str) -> None:
    import matplotlib  # noqa: PLC0415 - optional 'notebooks' extra, only for --plot

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - after the backend is chosen

    from verify.accounting import plot_curve  # noqa: PLC0415 - as above

    fig, ax = plt.subplots(figsize=(6, 4))
    plot_curve(obj, ax, point if point is not None and point[1] > 0 else None,
               eps_max=max(2.0 * point[0], 1.0) if point and point[0] > 0 else 4.0, points=60, title=title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
