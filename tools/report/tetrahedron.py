"""The paper's Figs. 4 and 5 as curves, shared by the nightly report (nightly_figures.py) and the
study (study_figures.py), so that both draw a run the same way. Import it after choosing the
matplotlib backend (cli.py chooses Agg)."""
import math

import matplotlib.pyplot as plt
import numpy as np

MODE_STYLE = {  # colour per precision mode, the same in every figure
    "hi=f64,int=f64": "black", "hi=ds,int=ds": "tab:blue", "hi=ds,int=f32": "tab:green",
    "hi=f32,int=ds": "tab:orange", "hi=f32,int=f32": "tab:red",
}


def draw_cycles(ax_period, ax_amplitude, cycle, colour, label):
    """Fig. 4 for one run from its H5MD group analysis/cycle: period and amplitude of every cycle (faint,
    up to a loss of periodicity: after it the "periods" are noise), their window means (dots), a dotted
    line at the loss. Returns the window length in tau_s."""
    lost = float(cycle["lost_periodicity_time"][()])
    horizon = lost if math.isfinite(lost) else math.inf
    windows = "window" in cycle and len(cycle["window/end_time"][()]) > 0
    for ax, time, value in ((ax_period, "period_time", "period"), (ax_amplitude, "amplitude_time", "amplitude")):
        t, v = cycle[time][()], cycle[value][()]
        ax.plot(t[t <= horizon], v[t <= horizon], color=colour, alpha=0.45, lw=0.8, label=None if windows else label)
    width = 1e4
    if windows:
        end = cycle["window/end_time"][()]
        width = float(cycle["window/end_time"].attrs.get("window_length", 1e4))
        for ax, mean in ((ax_period, "window/period_mean"), (ax_amplitude, "window/amplitude_mean")):
            ax.plot(end - 0.5 * width, cycle[mean][()], "o-", color=colour, ms=3, lw=1.2, label=label)
    if math.isfinite(lost):
        for ax in (ax_period, ax_amplitude):
            ax.axvline(lost, color=colour, ls=":", lw=1)
    return width


def draw_y1(ax, time, y1_block_max, colour, label):
    """Fig. 5 for one run: the largest |y1| per block on a log scale; a run that keeps y1 exactly 0 (ds
    accumulation) gets only its legend entry."""
    if np.all(y1_block_max == 0):
        ax.plot([], [], color=colour, label=f"{label}: exactly 0")
        return
    positive = y1_block_max > 0
    ax.semilogy(time[positive], y1_block_max[positive], color=colour, lw=1, label=label)


def finish(fig, ax_title, title, out, name):
    """Title, legend, layout; saves out/name (PNG) and closes the figure. Returns name."""
    ax_title.set_title(title, fontsize=9)
    ax_title.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / name, dpi=110)
    plt.close(fig)
    return name


def label_fig4(ax_period, ax_amplitude):
    ax_period.set_ylabel("cycle duration T / tau_s")
    ax_amplitude.set_ylabel("amplitude of x1 / a")
    ax_amplitude.set_xlabel("t / tau_s")


def label_fig5(ax):
    ax.set_xlabel("t / tau_s")
    ax.set_ylabel("max |y1| per block / a")
