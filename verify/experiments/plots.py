"""Figures of the experiments (matplotlib, Agg backend, imported lazily inside each function).

Each ``plot_*`` takes an :class:`~verify.experiments.runner.ExperimentResult` and a path, writes a
PNG and returns the path; ``figure_*`` return the matplotlib Figure (for notebooks).  Axes are
labelled with units (USD for incomes and thresholds, metres for locations, eps per unit distance).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "figure_one_way",
    "figure_grid_ase",
    "figure_kde",
    "figure_noise_mse",
    "plot_one_way",
    "plot_grid_ase",
    "plot_kde",
    "plot_noise_mse",
]

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
    import matplotlib

    if matplotlib.get_backend().lower() not in ("agg", "module://matplotlib_inline.backend_inline"):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: str | Path) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p, dpi=110, bbox_inches="tight")
    _plt().close(fig)
    return p


def _eps_label(eps: float, unit: str) -> str:
    return f"eps = 1/{1 / eps:,.0f} {unit}"


def figure_one_way(result: Any) -> Any:
    """MSE against n (log-log), one panel per (T, eps), one line per mechanism (004 Fig. 3 layout)."""
    plt = _plt()
    ts = sorted({r["T"] for r in result.rows})
    es = sorted({r["eps"] for r in result.rows}, reverse=True)
    mechs = list(dict.fromkeys(r["mechanism"] for r in result.rows))
    fig, axes = plt.subplots(len(ts), len(es), figsize=(4.2 * len(es), 3.2 * len(ts)), squeeze=False)
    for i, T in enumerate(ts):
        for j, eps in enumerate(es):
            ax = axes[i][j]
            for m in mechs:
                rows = sorted(result.select(T=T, eps=eps, mechanism=m), key=lambda r: r["n"])
                if not rows:
                    continue
                c, mk = _STYLE.get(m, ("k", "."))
                ax.errorbar([r["n"] for r in rows], [r["mse"] for r in rows],
                            yerr=[2 * r["mse_se"] for r in rows], color=c, marker=mk, label=m, capsize=2)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.xaxis.set_minor_formatter(plt.NullFormatter())
            ax.set_title(f"T = ${T:,.0f}, {_eps_label(eps, 'USD')}", fontsize=9)
            ax.set_xlabel("number of users n")
            ax.set_ylabel("MSE (fraction above T)^2")
            ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("One-way threshold (004 Fig. 3 analogue, synthetic incomes)")
    fig.tight_layout()
    return fig


def plot_one_way(result: Any, path: str | Path) -> Path:
    return _save(figure_one_way(result), path)


def figure_grid_ase(result: Any) -> Any:
    """Two-way threshold: the true A over the (T1, T2) grid and the ASE per mechanism (bars, log)."""
    plt = _plt()
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(11, 4.2))
    axis = np.asarray(result.arrays["axis"]) / 1000.0
    im = a0.pcolormesh(axis, axis, result.arrays["truth"].T, shading="auto", cmap="viridis")
    fig.colorbar(im, ax=a0, label="A = fraction with income > T1 and debt > T2")
    a0.set_xlabel("T1, income threshold (thousand USD)")
    a0.set_ylabel("T2, debt threshold (thousand USD)")
    a0.set_title("True two-way threshold answers")
    es = sorted({r["eps"] for r in result.rows}, reverse=True)
    mechs = list(dict.fromkeys(r["mechanism"] for r in result.rows))
    from matplotlib.patches import Patch

    width = 0.8 / max(len(es), 1)
    hatches = ["", "//", "..", "xx"]
    handles = []
    for j, eps in enumerate(es):
        vals = [result.select(eps=eps, mechanism=m)[0]["ase"] for m in mechs]
        a1.bar(np.arange(len(mechs)) + j * width, vals, width,
               color=[_STYLE.get(m, ("k", "."))[0] for m in mechs], hatch=hatches[j % 4], edgecolor="k")
        handles.append(Patch(facecolor="white", edgecolor="k", hatch=hatches[j % 4], label=_eps_label(eps, "USD")))
    a1.set_xticks(np.arange(len(mechs)) + width * (len(es) - 1) / 2)
    a1.set_xticklabels(mechs, rotation=20)
    a1.set_yscale("log")
    a1.set_ylabel("ASE over the grid")
    a1.set_title(f"ASE, n = {result.params['n']:,}, {result.params['reps']} repetitions")
    if len(es) > 1:
        a1.legend(handles=handles, fontsize=8)
    fig.suptitle("Two-way threshold (004 Fig. 4 analogue, synthetic income/debt)")
    fig.tight_layout()
    return fig


def plot_grid_ase(result: Any, path: str | Path) -> Path:
    return _save(figure_grid_ase(result), path)


def figure_kde(result: Any) -> Any:
    """KDE: contour plots of the true and private estimates (one run) and ASE bars (004 Figs. 5-6)."""
    plt = _plt()
    est = result.arrays["estimates"]
    panels = [("true (non-private)", result.arrays["truth"])] + list(est.items())
    ncol = min(4, len(panels) + 1)
    nrow = int(np.ceil((len(panels) + 1) / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.0 * ncol, 3.4 * nrow), squeeze=False)
    ax_km = np.asarray(result.arrays["axis_x"]) / 1000.0
    ay_km = np.asarray(result.arrays["axis_y"]) / 1000.0
    truth = result.arrays["truth"]
    levels = np.linspace(0.0, float(np.max(truth)) * 1.05 + 1e-12, 12)
    for ax, (title, z) in zip(axes.flat, panels):
        cs = ax.contourf(ax_km, ay_km, np.clip(z, levels[0], levels[-1]), levels=levels, cmap="magma")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("x (km)")
        ax.set_ylabel("y (km)")
        ax.set_aspect("equal")
    fig.colorbar(cs, ax=axes.flat[len(panels) - 1], label="KDE value (1/n) sum kappa_t(x_i)")
    bar_ax = axes.flat[len(panels)]
    first = result.rows[0]
    rows = [r for r in result.rows if r["eps"] == first["eps"] and r["h"] == first["h"]]
    bar_ax.bar([r["mechanism"] for r in rows], [r["ase"] for r in rows],
               color=[_STYLE.get(r["mechanism"], ("k", "."))[0] for r in rows], edgecolor="k")
    bar_ax.set_yscale("log")
    bar_ax.set_ylabel("ASE over the grid")
    bar_ax.tick_params(axis="x", rotation=30)
    bar_ax.set_title(f"ASE ({_eps_label(first['eps'], 'm')}, h = {first['h']:.0f} m)", fontsize=9)
    for ax in list(axes.flat)[len(panels) + 1:]:
        ax.axis("off")
    fig.suptitle(f"Gaussian KDE, collision stand-in, n = {result.params['n']:,} (004 Figs. 5-6 analogue)")
    fig.tight_layout()
    return fig


def plot_kde(result: Any, path: str | Path) -> Path:
    return _save(figure_kde(result), path)


def figure_noise_mse(result: Any) -> Any:
    """Noise a priori: analytic MSE (004 Sec. 4.1.1), simulation (+-2 se) and the bias^2 floor vs n."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4))
    ns = [r["n"] for r in result.rows]
    ax.plot(ns, [r["mse_analytic"] for r in result.rows], "k-", label="analytic (004 Sec. 4.1.1)")
    ax.errorbar(ns, [r["mse_sim"] for r in result.rows], yerr=[2 * r["mse_se"] for r in result.rows],
                fmt="o", color="tab:orange", label="simulation (+-2 se)")
    ax.plot(ns, [r["bias2"] for r in result.rows], "--", color="tab:red", label="bias^2 (floor)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("number of users n")
    ax.set_ylabel("MSE of the fraction above T")
    p = result.params
    ax.set_title(f"Noise a priori, T = ${p['T']:,.0f}, {_eps_label(p['eps'], 'USD')}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_noise_mse(result: Any, path: str | Path) -> Path:
    return _save(figure_noise_mse(result), path)
