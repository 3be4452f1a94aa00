"""Figures of the experiments cannot be misread: zero values on log axes are drawn at the
floor and announced, error bars stay on the axis, legends do not cover data, the KDE figure has one
shared colour bar, and no two texts overlap."""

import itertools
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import LineCollection

from verify.experiments import plots
from verify.experiments.runner import ExperimentResult

MECHS = ("M0", "M2", "M3", "M3-tight", "M3-PolyPlace", "M3-GenCauchy", "M_LDP")


def _one_way_result(zero_at=("M0", 300)):
    rows = []
    for T in (10_000.0, 100_000.0):
        for k, m in enumerate(MECHS):
            for n in (300, 3_000):
                mse = (k + 1) * 1e-3 * 300 / n
                se = mse * (0.9 if m == "M3" else 0.2)  # M3: mse - 2 se < 0, the bar must be clipped
                if T == 10_000.0 and (m, n) == zero_at:
                    mse, se = 0.0, 0.0
                rows.append({"T": T, "eps": 1e-4, "n": n, "mechanism": m, "mse": mse, "mse_se": se,
                             "mse_analytic": mse * 1.1 if mse else 1e-5, "truth": 0.5})
    return ExperimentResult("one-way", rows, {"reps": 20})


def _kde_result():
    k = 6
    g = np.linspace(0, 1, k + 1)
    truth = np.exp(-((g[:, None] - 0.4) ** 2 + (g[None, :] - 0.6) ** 2) * 8) * 0.01
    rng = np.random.default_rng(0)
    mechs = ("M0", "M1", "M2", "M3", "M3-PolyPlace", "M_LDP")
    est = {m: truth + rng.normal(0, 0.002 * (i + 1), truth.shape) for i, m in enumerate(mechs)}
    rows = [{"eps": 1e-3, "h": 1833.0, "n": 2000, "mechanism": m, "ase": 10.0 ** (-7 + i)} for i, m in enumerate(mechs)]
    rows[0]["ase"] = 0.0
    arrays = {"axis_x": g * 110_000, "axis_y": g * 90_000, "truth": truth, "estimates": est, "h": 1833.0}
    return ExperimentResult("kde", rows, {"n": 2000, "reps": 2}, arrays)


def _noise_result():
    rows = [{"n": n, "mse_analytic": 4e-2 / n, "mse_sim": v, "mse_se": s, "bias2": 1e-2 / n}
            for n, v, s in ((100, 5e-4, 4e-4), (1000, 0.0, 0.0), (10_000, 4e-6, 1e-6))]
    return ExperimentResult("noise-mse", rows, {"T": 1e5, "eps": 1e-4, "reps": 50})


def _two_way_result():
    k = 4
    axis = np.linspace(10_000, 1_000_000, k + 1)
    rows = [{"eps": e, "n": 3000, "mechanism": m, "ase": (0.0 if (m, e) == ("M0", 1 / 12_000) else 1e-4 * (i + 1) / e / 1e4)}
            for e in (1 / 12_000, 1 / 4_000) for i, m in enumerate(("M0", "M2", "M3", "M3-PolyPlace", "M_LDP"))]
    return ExperimentResult("two-way", rows, {"n": 3000, "reps": 2},
                            {"axis": axis, "truth": np.random.default_rng(1).random((k + 1, k + 1))})


FIGURES = {
    "one-way": lambda: plots.figure_one_way(_one_way_result()),
    "kde": lambda: plots.figure_kde(_kde_result()),
    "noise-mse": lambda: plots.figure_noise_mse(_noise_result()),
    "two-way": lambda: plots.figure_grid_ase(_two_way_result()),
}


def _floor_points(fig):
    return [ln for ax in fig.axes for ln in ax.get_lines() if ln.get_gid() == plots.FLOOR_GID]


def _legend_texts(fig):
    legs = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    for sub in getattr(fig, "subfigs", []):
        legs += list(sub.legends)
    return " | ".join(t.get_text() for lg in legs for t in lg.get_texts()), legs


@pytest.mark.parametrize("name", ["one-way", "kde", "noise-mse", "two-way"])
def test_zero_values_are_drawn_at_the_floor_and_announced(name):
    fig = FIGURES[name]()
    pts = _floor_points(fig)
    assert pts, "a value of 0 on a log axis was dropped silently"
    for ln in pts:
        ax = ln.axes
        y = np.asarray(ln.get_ydata(), dtype=float)
        lo, hi = ax.get_ylim()
        assert ax.get_yscale() == "log" and np.all((y > lo) & (y < hi))
    text, _ = _legend_texts(fig)
    assert "drawn at the floor" in text
    plt.close(fig)


def test_one_way_zero_marker_sits_at_the_zero_row():
    fig = plots.figure_one_way(_one_way_result(zero_at=("M2", 3_000)))
    pts = _floor_points(fig)
    assert len(pts) == 1 and list(pts[0].get_xdata()) == [3_000]
    assert pts[0].get_markeredgecolor() == "tab:blue"  # M2's colour
    plt.close(fig)


@pytest.mark.parametrize("name", ["one-way", "noise-mse"])
def test_error_bars_stay_on_the_log_axis(name):
    fig = FIGURES[name]()
    n_bars = 0
    for ax in fig.axes:
        lo, hi = ax.get_ylim()
        for coll in ax.collections:
            if isinstance(coll, LineCollection):
                for seg in coll.get_segments():
                    n_bars += 1
                    assert np.all(seg[:, 1] > 0) and seg[:, 1].min() >= lo * (1 - 1e-9), "error bar runs off the axis"
                    assert seg[:, 1].max() <= hi
    assert n_bars > 0
    plt.close(fig)


def _data_points_display(fig):
    out = []
    for ax in fig.axes:
        for ln in ax.get_lines():
            xy = np.asarray(ln.get_xydata(), dtype=float)
            xy = xy[np.all(np.isfinite(xy), axis=1)]
            if xy.size:
                out.append(ax.transData.transform(xy))
        for coll in ax.collections:
            if isinstance(coll, LineCollection):
                for seg in coll.get_segments():
                    out.append(ax.transData.transform(seg))
        for patch in ax.patches:
            bb = patch.get_window_extent()
            out.append(np.array([[bb.x0, bb.y0], [bb.x1, bb.y1], [(bb.x0 + bb.x1) / 2, bb.y1]]))
    return np.vstack(out)


@pytest.mark.parametrize("name", ["one-way", "kde", "noise-mse", "two-way"])
def test_no_legend_covers_data_points(name):
    fig = FIGURES[name]()
    fig.canvas.draw()
    pts = _data_points_display(fig)
    _, legs = _legend_texts(fig)
    assert legs
    for lg in legs:
        bb = lg.get_window_extent()
        inside = (pts[:, 0] > bb.x0) & (pts[:, 0] < bb.x1) & (pts[:, 1] > bb.y0) & (pts[:, 1] < bb.y1)
        assert not inside.any(), f"legend covers {int(inside.sum())} data point(s)"
    plt.close(fig)


def _texts(fig):
    """Visible, non-empty texts: titles, axis labels, tick labels in view, legends' texts."""
    out = []
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison:
            continue
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                loc = tick.get_loc()
                if loc is None or not (lo - 1e-9 * abs(hi - lo) <= loc <= hi + 1e-9 * abs(hi - lo)):
                    continue
                for lab in (tick.label1, tick.label2):
                    if lab.get_visible() and lab.get_text().strip():
                        out.append(lab)
            if axis.label.get_text().strip():
                out.append(axis.label)
        for t in (ax.title, ax._left_title, ax._right_title):
            if t.get_text().strip():
                out.append(t)
    for f in [fig] + list(getattr(fig, "subfigs", [])):
        if getattr(f, "_suptitle", None) is not None and f._suptitle.get_text().strip():
            out.append(f._suptitle)
    _, legs = _legend_texts(fig)
    out += [t for lg in legs for t in lg.get_texts() if t.get_text().strip()]
    return out


@pytest.mark.parametrize("name", ["one-way", "kde", "noise-mse", "two-way"])
def test_no_two_texts_overlap(name):
    fig = FIGURES[name]()
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(r)) for t in _texts(fig)]
    assert len(boxes) > 5
    for (ta, a), (tb, b) in itertools.combinations(boxes, 2):
        w = min(a.x1, b.x1) - max(a.x0, b.x0)
        h = min(a.y1, b.y1) - max(a.y0, b.y0)
        assert not (w > 1.0 and h > 1.0), f"texts overlap: {ta!r} and {tb!r}"
    plt.close(fig)


def test_kde_figure_has_one_colour_bar_shared_by_every_panel():
    res = _kde_result()
    fig = plots.figure_kde(res)
    fig.canvas.draw()
    cbars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    assert len(cbars) == 1
    contour_axes = fig._smoothsens_contour_axes
    assert len(contour_axes) == 1 + len(res.arrays["estimates"])
    # one norm for all panels
    norms = {(cs.norm.vmin, cs.norm.vmax) for ax in contour_axes for cs in ax.collections if hasattr(cs, "levels")}
    assert len(norms) == 1
    # the bar spans every row of panels
    cb = cbars[0].get_position()
    ys = [ax.get_position() for ax in contour_axes]
    assert cb.y0 <= min(p.y0 for p in ys) + 0.05 and cb.y1 >= max(p.y1 for p in ys) - 0.05
    plt.close(fig)


def test_plot_functions_write_png(tmp_path):
    p = plots.plot_one_way(_one_way_result(), tmp_path / "a.png")
    assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert math.isfinite(p.stat().st_size)
