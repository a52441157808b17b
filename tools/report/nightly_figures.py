"""The nightly report's figures. Per time step of the tetrahedron runs, the paper's Fig. 4 (period
and amplitude per cycle and per window, every precision mode) and Fig. 5 (max |y1| per block), each
titled by its observables, the modes and dt, with the reference always drawn: the reference's
windows where it has them, else its first period and drifts as dashed lines, its y1 window maxima
as dashed steps. And one figure of every check's margin |observed - reference| / tolerance, run by
run, against the tolerance (1)."""
import math
import pathlib

import h5py
import matplotlib.pyplot as plt
import numpy as np

from . import common
from .tetrahedron import MODE_STYLE, draw_cycles, draw_y1, label_fig4, label_fig5

FIG4 = "cycle.first_period, cycle.period_drift, cycle.window_period, cycle.window_amplitude"
FIG5 = "symmetry.max_abs_y1, symmetry.y1_window_max"


def figure_for(scenario, observable, dt, figures_by_dt, margins_figure):
    """The figure that shows a check: Fig. 4 for the tetrahedron's cycle observables, Fig. 5 for its
    symmetry, else the margins figure (None without figures)."""
    figs = figures_by_dt.get(dt, {}) if scenario == "tetrahedron" else {}
    if observable.startswith("cycle.") and "fig4" in figs:
        return figs["fig4"]
    if observable.startswith("symmetry.") and "fig5" in figs:
        return figs["fig5"]
    return margins_figure


def tetrahedron_runs(results):
    """{dt: [(mode, path)]} for the tetrahedron results in the folder."""
    runs = {}
    for path in sorted(pathlib.Path(results).glob("*.h5")):
        try:
            with h5py.File(path, "r") as f:
                if f["parameters/scenario"].attrs["name"] != "tetrahedron" or "analysis/cycle" not in f:
                    continue
                dt = float(f["parameters/run"].attrs["dt"])
                runs.setdefault(dt, []).append((str(f["parameters/run"].attrs["precision"]), path))
        except (OSError, KeyError):
            continue
    return runs


def reference_entry(check, path):
    """{observable: (values, window_end_time or None)} of a result's reference entry, if found."""
    for run in check.get("runs", []):
        if pathlib.Path(run["result_file"]).name != path.name or not run.get("entry"):
            continue
        try:
            with h5py.File(run["reference_file"], "r") as f:
                entry = f[run["entry"]]
                out = {}
                for name in entry:
                    d = entry[name]
                    if not isinstance(d, h5py.Dataset):  # segment_boundaries: states, not an observable
                        continue
                    ends = d.attrs.get("window_end_time")
                    out[name] = (np.atleast_1d(np.asarray(d[()], dtype=float)),
                                 None if ends is None else np.asarray(ends, dtype=float))
                return out
        except (OSError, KeyError):
            return {}
    return {}


def scalar(ref, name):
    v = ref.get(name)
    return float(v[0][0]) if v is not None and v[0].size == 1 and np.isfinite(v[0][0]) else None


def draw_reference_cycles(ax_p, ax_a, cycle, ref, colour, width):
    """The reference in Fig. 4: its window means (dashed) where it has windows; else the line its first
    period and drift per cycle make over this run's cycles, and its amplitude drift from this run's
    first amplitude (dashed). Returns what was drawn, for the legend."""
    drawn = []
    for ax, name in ((ax_p, "cycle.window_period"), (ax_a, "cycle.window_amplitude")):
        if name in ref and ref[name][0].size and ref[name][1] is not None:
            ax.plot(ref[name][1] - 0.5 * width, ref[name][0], "--", color=colour, lw=0.9)
            drawn.append("windows")
    if drawn:
        return drawn
    t = cycle["period_time"][()]
    first, drift = scalar(ref, "cycle.first_period"), scalar(ref, "cycle.period_drift")
    if first is not None and len(t):
        ax_p.plot(t[:1], [first], "D", mfc="none", color=colour, ms=6)
        drawn.append("first period (diamond)")
        if drift is not None:  # a mode that loses its periodicity has no drift reference
            k = (t - t[0]) / first  # cycles since the first
            ax_p.plot(t, first + drift * k, "--", color=colour, lw=0.9)
            drawn.append("period drift")
    ta, a = cycle["amplitude_time"][()], cycle["amplitude"][()]
    a_drift = scalar(ref, "cycle.amplitude_drift")
    if a_drift is not None and len(ta) and first:
        ax_a.plot(ta, a[0] + a_drift * (ta - ta[0]) / first, "--", color=colour, lw=0.9)
        drawn.append("amplitude drift")
    return drawn


def plot_fig4(dt, runs, check, out):
    fig, (ax_p, ax_a) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    kinds = set()
    for mode, path in sorted(runs):
        colour = MODE_STYLE.get(mode, "grey")
        with h5py.File(path, "r") as f:
            width = draw_cycles(ax_p, ax_a, f["analysis/cycle"], colour, mode)
            kinds.update(draw_reference_cycles(ax_p, ax_a, f["analysis/cycle"], reference_entry(check, path), colour,
                                               width))
    ax_p.plot([], [], "k--", lw=0.9, label="reference (" + ", ".join(sorted(kinds)) + ")" if kinds else
              "reference: none recorded")
    label_fig4(ax_p, ax_a)
    title = (f"{FIG4}\nevery precision mode, dt = {dt:g}: per cycle (faint), window means (dots), reference "
             "(dashed), loss of periodicity (dotted)  [paper Fig. 4]")
    ax_p.set_title(title, fontsize=8)
    ax_p.legend(fontsize=7)
    fig.tight_layout()
    return common.save_figure(fig, out / f"fig4_period_amplitude_dt{dt:g}.png")


def plot_fig5(dt, runs, check, out):
    fig, ax = plt.subplots(figsize=(9, 4.2))
    zero_refs = []
    for mode, path in sorted(runs):
        colour = MODE_STYLE.get(mode, "grey")
        with h5py.File(path, "r") as f:
            draw_y1(ax, f["observables/symmetry_y1/time"][()], f["analysis/symmetry/y1_block_max_abs"][()], colour,
                    mode)
        ref = reference_entry(check, path).get("symmetry.y1_window_max")
        if ref is None or ref[1] is None:
            continue
        values, ends = ref
        if np.all(values == 0):
            zero_refs.append(mode)
            continue
        starts = np.concatenate(([0.0], ends[:-1]))
        for s, e, v in zip(starts, ends, values):
            if v > 0:
                ax.plot([s, e], [v, v], "--", color=colour, lw=0.9)
    ax.plot([], [], "k--", lw=0.9, label="reference: max |y1| per window (dashed)")
    if zero_refs:
        ax.plot([], [], " ", label="reference exactly 0: " + ", ".join(zero_refs))
    label_fig5(ax)
    ax.set_title(f"{FIG5}\nevery precision mode, dt = {dt:g}: deviation of particle 1 from the xz-plane, "
                 "reference dashed  [paper Fig. 5]", fontsize=8)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return common.save_figure(fig, out / f"fig5_y1_dt{dt:g}.png")


def tetrahedron_figures(results, check, out):
    """The Fig. 4 and 5 of every time step: ([figure dicts], {dt: {"fig4": file, "fig5": file}})."""
    figures, by_dt = [], {}
    for dt, runs in sorted(tetrahedron_runs(results).items(), reverse=True):
        f4, f5 = plot_fig4(dt, runs, check, out), plot_fig5(dt, runs, check, out)
        by_dt[dt] = {"fig4": f4, "fig5": f5}
        figures.append(dict(file=f4, title=f"Period and amplitude ({FIG4}), every precision mode, dt = {dt:g}"))
        figures.append(dict(file=f5, title=f"Symmetry ({FIG5}), every precision mode, dt = {dt:g}"))
    return figures, by_dt


def margins_figure(check, out):
    """Every compared check's margin, one row per run (log scale; 1 = the tolerance); failures red and
    named, skipped checks left out (counted in the title)."""
    runs = check.get("runs", [])
    if not runs:
        return None
    floor, ceiling = 1e-6, 1e3
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(runs) + 1.6))
    skipped = exact = 0
    for y, run in enumerate(runs):
        for c in run.get("checks", []):
            if c.get("verdict") == "skip":
                skipped += 1
                continue
            ratio = c.get("ratio")
            m = (math.inf if c.get("verdict") == "fail" else None) if ratio is None else float(ratio)
            if m is None:
                continue
            if m == 0:
                exact += 1
            x = min(max(m, floor), ceiling)
            failed = c.get("verdict") == "fail"
            ax.plot([x], [y], "o" if failed else "|", color="tab:red" if failed else "tab:blue",
                    ms=6 if failed else 9, alpha=0.9 if failed else 0.5)
            if failed:
                ax.annotate(c["observable"], (x, y), xytext=(4, 2), textcoords="offset points", fontsize=6,
                            color="tab:red")
    ax.axvline(1.0, color="tab:red", lw=1)
    ax.text(1.05, -0.9, "tolerance", color="tab:red", fontsize=7)
    ax.set_xscale("log")
    ax.set_xlim(floor / 2, ceiling * 2)
    ax.set_ylim(len(runs) - 0.5, -1.2)
    ax.set_yticks(range(len(runs)))
    ax.set_yticklabels([r["run"] for r in runs], fontsize=7)
    ax.set_xlabel(f"margin |observed - reference| / tolerance (exact matches, {exact}, at {floor:g}; beyond "
                  f"{ceiling:g} at {ceiling:g})", fontsize=8)
    ax.set_title(f"Every check's margin, every observable, precision mode and dt ({skipped} skipped checks "
                 "compared nothing and are not drawn)", fontsize=8)
    ax.grid(True, axis="x", which="major", alpha=0.3)
    fig.tight_layout()
    return dict(file=common.save_figure(fig, out / "margins.png"),
                title="Margins of every check, run by run (every observable, precision mode and dt)")
