"""Figures of the experiments (matplotlib, Agg backend, imported lazily inside each function).

Each ``plot_*`` takes an :class:`~verify.experiments.runner.ExperimentResult` and a path, writes a
PNG and returns the path; ``figure_*`` return the matplotlib Figure (for notebooks).  Axes are
labelled with units (USD for incomes and thresholds, metres for locations, eps per unit distance).

Rules that keep the figures from being misread:

* a value <= 0 on a log axis (an MSE or ASE of exactly 0) is never dropped: it is drawn at the
  axis floor (a dotted line at the bottom of the panel) with a hollow downward triangle, and the
  legend says "= 0, drawn at the floor".  These markers carry the gid :data:`FLOOR_GID`.
* error bars on log axes are asymmetric and clipped at the floor (a bar that reaches the floor
  line means the interval includes 0); they never run off the axis.
* legends sit outside the data axes (to the right of the panels or below them).
* the KDE figure shows every contour panel with one colour norm and one shared colour bar.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np

__all__ = [
    "FLOOR_GID",
    "figure_one_way",
    "figure_grid_ase",
    "figure_kde",
    "figure_noise_mse",
    "plot_one_way",
    "plot_grid_ase",
    "plot_kde",
    "plot_noise_mse",
]

#: gid of the markers that stand for values <= 0 drawn at the floor of a log axis.
FLOOR_GID = "zero-at-floor"

_STYLE = {
    "M0": ("tab:orange", "o"),
    "M1": ("tab:brown", "v"),
    "M2": ("tab:blue", "s"),
    "M3": ("tab:green", "^"),
    "M3-tight": ("tab:cyan", "<"),
    "M3-PolyPlace": ("tab:red", "D"),
    "M3-GenCauchy": ("tab:olive", "P"),
    "M_LDP": ("tab:gray", "x"),
}


def _plt() -> Any:
    import matplotlib  # noqa: PLC0415 - optional dependency (the notebooks extra), loaded on first plot

    if matplotlib.get_backend().lower() not in ("agg", "module://matplotlib_inline.backend_inline"):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - optional dependency (the notebooks extra), loaded on first plot

    return plt


def _save(fig: Any, path: str | Path) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p, dpi=110, bbox_inches="tight")
    _plt().close(fig)
    return p


def _eps_label(eps: float, unit: str) -> str:
    return f"eps = 1/{1 / eps:,.0f} per {unit}"


def _num(v: Any) -> float:
    """A table cell as a float (nan for the 'n/a (...)' cells)."""
    return float(v) if isinstance(v, (int, float, np.floating, np.integer)) else math.nan


def _log_floor(values: Sequence[float]) -> float:
    """The floor of a log axis holding ``values``: a factor 3 below the smallest positive value."""
    pos = [v for v in values if math.isfinite(v) and v > 0]
    return (min(pos) if pos else 1.0) / 3.0


def _floor_markers(ax: Any, xs: Sequence[float], ys: Sequence[float], floor: float, color: str) -> list[int]:
    """Draw the points with y <= 0 at ``floor`` (hollow down-triangles, gid FLOOR_GID); their indices."""
    idx = [i for i, y in enumerate(ys) if math.isfinite(y) and y <= 0]
    if idx:
        ax.plot([xs[i] for i in idx], [floor] * len(idx), linestyle="none", marker="v", markersize=9,
                markerfacecolor="none", markeredgecolor=color, markeredgewidth=1.6, gid=FLOOR_GID, zorder=5)
    return idx


def _finish_log_axis(ax: Any, floor: float, top: float, line: bool = True) -> None:
    """Fix the y range to [floor / 1.6, 2 top] and draw the floor line (if ``line``)."""
    ax.set_yscale("log")
    ax.set_ylim(floor / 1.6, max(top, floor) * 2.0)
    if line:
        ax.axhline(floor, color="0.4", linestyle=":", linewidth=0.9, zorder=1)


def _floor_handles() -> list[Any]:
    from matplotlib.lines import Line2D  # noqa: PLC0415 - optional dependency (the notebooks extra), loaded on first plot

    return [
        Line2D([], [], linestyle="none", marker="v", markerfacecolor="none", markeredgecolor="k",
               markersize=8, label="= 0, drawn at the floor (dotted line)"),
    ]


def _errorbar_log(ax: Any, xs: Sequence[float], ys: Sequence[float], half: Sequence[float], floor: float,
                  **kw: Any) -> None:
    """Points with +-``half`` bars on a log axis: lower ends clipped at ``floor``; y <= 0 not drawn
    here (see :func:`_floor_markers`)."""
    keep = [i for i, y in enumerate(ys) if math.isfinite(y) and y > 0]
    x = np.array([xs[i] for i in keep], dtype=float)
    y = np.array([ys[i] for i in keep], dtype=float)
    h = np.array([half[i] if math.isfinite(half[i]) else 0.0 for i in keep], dtype=float)
    lower = np.maximum(y - h, floor)
    yerr = np.vstack([np.maximum(y - lower, 0.0), h])
    ax.errorbar(x, y, yerr=yerr, **kw)


def figure_one_way(result: Any) -> Any:
    """MSE against n (log-log), one panel per (T, eps), one line per mechanism (004 Fig. 3 layout).

    Markers: simulated MSE with +-2 standard errors (clipped at the floor); dashed lines: the exact
    MSE (``mse_analytic``; for M0 the closed form of noise a priori for the ramp f_tau).  An MSE of
    0 is drawn at the floor with a hollow triangle."""
    plt = _plt()
    from matplotlib.lines import Line2D  # noqa: PLC0415 - optional dependency (the notebooks extra), loaded on first plot

    ts = sorted({r["T"] for r in result.rows})
    es = sorted({r["eps"] for r in result.rows}, reverse=True)
    mechs = list(dict.fromkeys(r["mechanism"] for r in result.rows))
    ns_all = sorted({r["n"] for r in result.rows})
    fig, axes = plt.subplots(len(ts), len(es), figsize=(4.4 * len(es) + 2.4, 3.3 * len(ts)), squeeze=False,
                             layout="constrained")
    any_zero = any_below = False
    for i, T in enumerate(ts):
        for j, eps in enumerate(es):
            ax = axes[i][j]
            panel = result.select(T=T, eps=eps)
            # the floor follows the simulated MSEs and their bars; an exact MSE far below them
            # (e.g. 1e-38 for M0 far from T) is drawn at the floor instead of stretching the axis
            lows = [r["mse"] - 2 * r["mse_se"] for r in panel] + [r["mse"] for r in panel]
            if not any(v > 0 for v in lows):
                lows += [_num(r["mse_analytic"]) for r in panel]
            floor = _log_floor(lows)
            top = max([r["mse"] + 2 * r["mse_se"] for r in panel] + [_num(r["mse_analytic"]) for r in panel
                                                                     if math.isfinite(_num(r["mse_analytic"]))])
            for m in mechs:
                rows = sorted(result.select(T=T, eps=eps, mechanism=m), key=lambda r: r["n"])
                if not rows:
                    continue
                c, mk = _STYLE.get(m, ("k", "."))
                xs = [r["n"] for r in rows]
                ys = [r["mse"] for r in rows]
                _errorbar_log(ax, xs, ys, [2 * r["mse_se"] for r in rows], floor, color=c, marker=mk,
                              linestyle="none", capsize=2, label=m)
                any_zero |= bool(_floor_markers(ax, xs, ys, floor, c))
                an = [_num(r["mse_analytic"]) for r in rows]
                ok = [k for k, v in enumerate(an) if math.isfinite(v)]
                if ok:
                    ax.plot([xs[k] for k in ok], [max(an[k], floor) for k in ok], color=c, linestyle="--",
                            linewidth=1.1)
                    below = [k for k in ok if an[k] < floor]
                    if below:
                        any_below = True
                        ax.plot([xs[k] for k in below], [floor] * len(below), linestyle="none", marker="1",
                                markersize=12, color=c, gid="exact-below-floor", zorder=5)
            ax.set_xscale("log")
            _finish_log_axis(ax, floor, top)
            ax.set_xticks(ns_all)
            ax.set_xticklabels([f"{n:,}" for n in ns_all], rotation=30 if len(ns_all) > 3 else 0)
            ax.xaxis.set_minor_formatter(plt.NullFormatter())
            ax.set_xlim(ns_all[0] / 1.5, ns_all[-1] * 1.5)
            ax.set_title(f"T = ${T:,.0f}, {_eps_label(eps, 'USD')}", fontsize=9)
            ax.set_xlabel("number of users n")
            ax.set_ylabel("MSE of the fraction above T")
            ax.grid(True, which="both", alpha=0.3)
    handles = [Line2D([], [], color=_STYLE.get(m, ("k", "."))[0], marker=_STYLE.get(m, ("k", "."))[1],
                      linestyle="none", label=m) for m in mechs]
    handles += [Line2D([], [], color="k", marker="|", linestyle="none", markersize=10,
                       label="+-2 s.e. (clipped at the dotted floor)"),
                Line2D([], [], color="k", linestyle="--", label="exact MSE (mse_analytic)")]
    if any_zero:
        handles += _floor_handles()
    if any_below:
        handles.append(Line2D([], [], color="k", marker="1", markersize=10, linestyle="none",
                              label="exact MSE below the floor, drawn at it"))
    fig.legend(handles=handles, loc="outside lower center", ncol=min(4, len(handles)), fontsize=8)
    fig.suptitle("One-way threshold (004 Fig. 3 analogue, synthetic incomes)")
    return fig


def plot_one_way(result: Any, path: str | Path) -> Path:
    return _save(figure_one_way(result), path)


def _ase_bars(ax: Any, labels: list[str], values: list[float], colors: list[str], offsets: np.ndarray,
              width: float, hatch: str = "") -> bool:
    """Log-scale bars of positive values; values <= 0 drawn at the floor (returns True if any)."""
    floor = _log_floor(values)
    pos = [v if (math.isfinite(v) and v > 0) else np.nan for v in values]
    bottom = floor / 1.6
    heights = [p - bottom if math.isfinite(p) else 0.0 for p in pos]
    ax.bar(offsets, heights, width, bottom=bottom, color=colors, hatch=hatch, edgecolor="k")
    idx = [i for i, v in enumerate(values) if math.isfinite(v) and v <= 0]
    for i in idx:
        ax.plot([offsets[i]], [floor], linestyle="none", marker="v", markersize=9, markerfacecolor="none",
                markeredgecolor=colors[i], markeredgewidth=1.6, gid=FLOOR_GID, zorder=5)
    return bool(idx)


def figure_grid_ase(result: Any) -> Any:
    """Two-way threshold: the true A over the (T1, T2) grid and the ASE per mechanism (bars, log)."""
    plt = _plt()
    from matplotlib.patches import Patch  # noqa: PLC0415 - optional dependency (the notebooks extra), loaded on first plot

    fig, (a0, a1) = plt.subplots(1, 2, figsize=(12, 4.6), layout="constrained")
    axis = np.asarray(result.arrays["axis"]) / 1000.0
    im = a0.pcolormesh(axis, axis, result.arrays["truth"].T, shading="nearest", cmap="viridis")
    fig.colorbar(im, ax=a0, label="A = fraction with income > T1 and debt > T2")
    ticks = axis if axis.size <= 6 else axis[:: int(math.ceil(axis.size / 6))]
    a0.set_xticks(ticks)
    a0.set_yticks(ticks)
    a0.set_xticklabels([f"{t:,.0f}" for t in ticks], rotation=30)
    a0.set_yticklabels([f"{t:,.0f}" for t in ticks])
    a0.set_xlabel("T1, income threshold (thousand USD; cells centred on the grid values)")
    a0.set_ylabel("T2, debt threshold (thousand USD)")
    a0.set_title("True two-way threshold answers", fontsize=10)
    es = sorted({r["eps"] for r in result.rows}, reverse=True)
    mechs = list(dict.fromkeys(r["mechanism"] for r in result.rows))
    width = 0.8 / max(len(es), 1)
    hatches = ["", "//", "..", "xx"]
    handles = []
    vals_all = [r["ase"] for r in result.rows]
    any_zero = False
    for j, eps in enumerate(es):
        vals = [result.select(eps=eps, mechanism=m)[0]["ase"] for m in mechs]
        # one floor for all eps: computed from every value
        vals_for_floor = vals_all
        floor = _log_floor(vals_for_floor)
        offs = np.arange(len(mechs)) + j * width
        pos = [v if v > 0 else np.nan for v in vals]
        a1.bar(offs, [p - floor / 1.6 if math.isfinite(p) else 0.0 for p in pos], width, bottom=floor / 1.6,
               color=[_STYLE.get(m, ("k", "."))[0] for m in mechs], hatch=hatches[j % 4], edgecolor="k")
        any_zero |= bool(_floor_markers(a1, list(offs), vals, floor, "k"))
        handles.append(Patch(facecolor="white", edgecolor="k", hatch=hatches[j % 4], label=_eps_label(eps, "USD")))
    floor = _log_floor(vals_all)
    _finish_log_axis(a1, floor, max(vals_all), line=any_zero)
    a1.set_xticks(np.arange(len(mechs)) + width * (len(es) - 1) / 2)
    a1.set_xticklabels(mechs, rotation=90)
    a1.set_ylabel("ASE over the grid")
    a1.set_title(f"ASE, n = {result.params['n']:,}, {result.params['reps']} repetitions"
                 + ("" if len(es) > 1 else f", {_eps_label(es[0], 'USD')}"), fontsize=10)
    if any_zero:
        handles += _floor_handles()
    if len(es) > 1 or any_zero:
        fig.legend(handles=handles, loc="outside right upper", fontsize=8)
    fig.suptitle("Two-way threshold (004 Fig. 4 analogue, synthetic income/debt)")
    return fig


def plot_grid_ase(result: Any, path: str | Path) -> Path:
    return _save(figure_grid_ase(result), path)


def figure_kde(result: Any) -> Any:
    """KDE: contour plots of the true and private estimates (one run) and ASE bars (004 Figs. 5-6).

    All contour panels share one colour norm (the range of the true KDE) and one colour bar;
    private estimates outside that range (negative values, or above the largest true value) are
    drawn in the end colours, which the colour bar's arrows mark."""
    plt = _plt()
    from matplotlib import colors as mcolors  # noqa: PLC0415 - optional dependency (the notebooks extra), loaded on first plot
    from matplotlib.cm import ScalarMappable  # noqa: PLC0415 - optional dependency (the notebooks extra), loaded on first plot

    est = result.arrays["estimates"]
    panels = [("true (non-private)", result.arrays["truth"])] + [(f"{m}, one run", z) for m, z in est.items()]
    ncol = min(4, len(panels))
    nrow = int(np.ceil(len(panels) / ncol))
    fig = plt.figure(figsize=(3.6 * ncol + 4.2, 3.2 * nrow + 0.8), layout="constrained")
    left, right = fig.subfigures(1, 2, width_ratios=[3.6 * ncol, 4.2])
    axes = left.subplots(nrow, ncol, squeeze=False, sharex=True, sharey=True)
    ax_km = np.asarray(result.arrays["axis_x"]) / 1000.0
    ay_km = np.asarray(result.arrays["axis_y"]) / 1000.0
    truth = result.arrays["truth"]
    levels = np.linspace(0.0, float(np.max(truth)) * 1.05 + 1e-12, 12)
    norm = mcolors.BoundaryNorm(levels, plt.get_cmap("magma").N, extend="both")
    contour_axes = []
    for ax, (title, z) in zip(axes.flat, panels, strict=False):
        ax.contourf(ax_km, ay_km, z, levels=levels, cmap="magma", norm=norm, extend="both")
        ax.set_title(title, fontsize=9)
        ax.set_aspect("equal")
        contour_axes.append(ax)
    for i, ax in enumerate(contour_axes):
        if i + ncol >= len(panels):  # nothing drawn below it: it carries the x labels of its column
            ax.tick_params(labelbottom=True)
            ax.set_xlabel("x (km)")
    for ax in axes[:, 0]:
        ax.set_ylabel("y (km)")
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    sm = ScalarMappable(norm=norm, cmap="magma")
    left.colorbar(sm, ax=list(axes.flat), extend="both", shrink=0.9, ticks=levels[::2], format="{x:.2g}",
                  label="KDE value (1/n) sum kappa_t(x_i); arrows: beyond the true range")
    bar_ax = right.subplots()
    first = result.rows[0]
    rows = [r for r in result.rows if r["eps"] == first["eps"] and r["h"] == first["h"]]
    names = [r["mechanism"] for r in rows]
    vals = [r["ase"] for r in rows]
    floor = _log_floor(vals)
    offs = np.arange(len(names), dtype=float)
    any_zero = _ase_bars(bar_ax, names, vals, [_STYLE.get(m, ("k", "."))[0] for m in names], offs, 0.8)
    _finish_log_axis(bar_ax, floor, max(vals), line=any_zero)
    bar_ax.set_xticks(offs)
    bar_ax.set_xticklabels(names, rotation=90)
    bar_ax.set_ylabel("ASE over the grid")
    bar_ax.set_title(f"ASE, {result.params['reps']} repetitions\n{_eps_label(first['eps'], 'm')}, "
                     f"h = {first['h']:.0f} m", fontsize=9)
    if any_zero:
        bar_ax.legend(handles=_floor_handles(), loc="upper center", bbox_to_anchor=(0.5, -0.35), fontsize=8)
    fig.suptitle(f"Gaussian KDE, collision stand-in, n = {result.params['n']:,} (004 Figs. 5-6 analogue)")
    fig._smoothsens_contour_axes = contour_axes  # for tests: the panels the colour bar serves
    return fig


def plot_kde(result: Any, path: str | Path) -> Path:
    return _save(figure_kde(result), path)


def figure_noise_mse(result: Any) -> Any:
    """Noise a priori: analytic MSE (004 Sec. 4.1.1), simulation (+-2 se) and the bias^2 vs n."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.8, 4), layout="constrained")
    ns = [r["n"] for r in result.rows]
    sim = [r["mse_sim"] for r in result.rows]
    half = [2 * r["mse_se"] for r in result.rows]
    an = [r["mse_analytic"] for r in result.rows]
    b2 = [r["bias2"] for r in result.rows]
    floor = _log_floor([s - h for s, h in zip(sim, half, strict=True)] + sim + an + b2)
    ax.plot(ns, an, "k-", label="exact MSE (004 Sec. 4.1.1)")
    _errorbar_log(ax, ns, sim, half, floor, fmt="o", color="tab:orange", capsize=3,
                  label="simulation, +-2 s.e.\n(clipped at the dotted floor)")
    zero = _floor_markers(ax, ns, sim, floor, "tab:orange")
    pos_b2 = [(n, v) for n, v in zip(ns, b2, strict=True) if v > 0]
    ax.plot([p[0] for p in pos_b2], [p[1] for p in pos_b2], "--", color="tab:red",
            label="bias^2 (the MSE never falls below it)")
    zero += _floor_markers(ax, ns, b2, floor, "tab:red")
    ax.set_xscale("log")
    _finish_log_axis(ax, floor, max([s + h for s, h in zip(sim, half, strict=True)] + an))
    ax.set_xticks(ns)
    ax.set_xticklabels([f"{n:,}" for n in ns])
    ax.xaxis.set_minor_formatter(plt.NullFormatter())
    ax.set_xlabel("number of users n")
    ax.set_ylabel("MSE of the fraction above T")
    p = result.params
    ax.set_title(f"Noise a priori, T = ${p['T']:,.0f}, {_eps_label(p['eps'], 'USD')}, {p['reps']} repetitions",
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if zero:
        handles += _floor_handles()
    fig.legend(handles=handles, loc="outside right center", fontsize=8)
    return fig


def plot_noise_mse(result: Any, path: str | Path) -> Path:
    return _save(figure_noise_mse(result), path)
