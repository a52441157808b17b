"""The figures of a study folder (tools/report study DIR; engine/docs/studies.md), into DIR/figures/:
  fig3b_trajectory.png               x1, z1, z2 and z_cm after removing the mean sedimentation, from the
                                     trajectory run (paper Fig. 3b)
  fig4_period_amplitude_<group>.png  period and amplitude per cycle over time (faint) and their window
                                     means (dots), one curve per precision mode (or per dt) (paper Fig. 4);
                                     a dotted line where periodicity was lost
  fig5_y1_<group>.png                |y1| over time, largest per block (paper Fig. 5; log scale; modes that
                                     keep y1 exactly 0 are listed in the legend)
  convergence.png                    |bias| of the first-cycle period and |difference| of the drift between
                                     neighbouring dt against dt, per integrator, with the fitted orders
  drift_per_cost.png                 |period drift| against velocity evaluations and wall seconds per tau_s
                                     (the cost of stability), per integrator, with the fitted models
"""
import pathlib

import h5py
import matplotlib.pyplot as plt
import numpy as np

from .tetrahedron import MODE_STYLE, draw_cycles, draw_y1, finish, label_fig4, label_fig5

INTEGRATOR_STYLE = {"euler": "tab:red", "heun": "tab:blue", "rk4": "tab:green", "ab2": "tab:purple"}


def tag(text):
    return text.replace("hi=", "").replace(",int=", "-").replace(",", "-")


def groups(study):
    """(name, title, [(label, colour, run)]): one figure per dt and integrator when several modes are
    compared, else one per integrator (and mode) with a curve per dt."""
    runs = study["runs"]
    out = []
    if len(study["modes"]) > 1:
        keys = sorted({(r["integrator"], r["dt"]) for r in runs}, key=lambda k: (k[0], -k[1]))
        for integrator, dt in keys:
            members = [r for r in runs if r["integrator"] == integrator and r["dt"] == dt]
            curves = [(r["mode"], MODE_STYLE.get(r["mode"], "grey"), r) for r in sorted(members, key=lambda r: r["mode"])]
            out.append((f"{integrator}_dt{dt:g}", f"{integrator}, dt = {dt:g}", curves))
    else:
        keys = sorted({(r["integrator"], r["mode"]) for r in runs})
        for integrator, mode in keys:
            members = sorted([r for r in runs if r["integrator"] == integrator and r["mode"] == mode], key=lambda r: -r["dt"])
            cmap = plt.get_cmap("viridis")
            curves = [(f"dt = {r['dt']:g}", cmap(k / max(1, len(members) - 1) * 0.9), r) for k, r in enumerate(members)]
            out.append((f"{integrator}_{tag(mode)}", f"{integrator}, {mode}", curves))
    return out


def run_file(study_dir, run):
    path = pathlib.Path(run["file"])
    return path if path.is_absolute() else study_dir / path


def plot_fig4(study_dir, name, title, curves, out):
    fig, (ax_p, ax_a) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    for label, colour, run in curves:
        with h5py.File(run_file(study_dir, run), "r") as f:
            if "analysis/cycle/period" in f:
                draw_cycles(ax_p, ax_a, f["analysis/cycle"], colour, label)
    label_fig4(ax_p, ax_a)
    return finish(fig, ax_p, f"{title}: per cycle (faint), window means (dots), loss of periodicity (dotted)  "
                  "[paper Fig. 4]", out, f"fig4_period_amplitude_{name}.png")


def plot_fig5(study_dir, name, title, curves, out):
    fig, ax = plt.subplots(figsize=(9, 4.5))
    drawn = False
    for label, colour, run in curves:
        with h5py.File(run_file(study_dir, run), "r") as f:
            if "analysis/symmetry/y1_block_max_abs" not in f:
                continue
            draw_y1(ax, f["observables/symmetry_y1/time"][()], f["analysis/symmetry/y1_block_max_abs"][()], colour, label)
            drawn = True
    if not drawn:
        plt.close(fig)
        return None
    label_fig5(ax)
    return finish(fig, ax, f"{title}: deviation of particle 1 from the xz-plane  [paper Fig. 5]", out,
                  f"fig5_y1_{name}.png")


def plot_fig3b(study_dir, out):
    files = sorted((study_dir / "runs").glob("trajectory_*.h5"))
    if not files:
        return None
    with h5py.File(files[0], "r") as f:
        if "particles/trajectory/position/value" not in f:
            return None
        t = f["particles/trajectory/position/time"][()]
        r = f["particles/trajectory/position/value"][()].astype(float)
        if "particles/trajectory/image/value" in f:
            edges = np.diagonal(f["particles/trajectory/box/edges/value"][()], axis1=1, axis2=2)  # [T, 3, 3]
            r = r + f["particles/trajectory/image/value"][()] * edges[:, None, :]
        run = f["parameters/run"].attrs
        label = f"{run['precision']}, {run['integrator']}, dt = {run['dt']}"
        maxima = f["analysis/cycle/maximum_time"][()] if "analysis/cycle/maximum_time" in f else np.array([])
    if r.shape[1] < 2:
        return None
    x1, z1, z2 = r[:, 0, 0], r[:, 0, 2], r[:, 1, 2]
    zcm = r[:, :, 2].mean(axis=1)
    if len(maxima) >= 2:
        # The mean sedimentation over one full cycle, maximum to maximum of x1 (a secant: a least-squares
        # line through a trend plus an oscillation would tilt with the oscillation's phase).
        slope = (np.interp(maxima[1], t, zcm) - np.interp(maxima[0], t, zcm)) / (maxima[1] - maxima[0])
        keep = (t >= maxima[0]) & (t <= maxima[1])
    else:
        slope = (zcm[-1] - zcm[0]) / (t[-1] - t[0])
        keep = np.ones_like(t, dtype=bool)
    intercept = np.mean(zcm[keep] - slope * t[keep])
    drift = intercept + slope * t
    fig, ax = plt.subplots(figsize=(9, 4.8))
    ax.plot(t, x1, label="x1", color="tab:blue")
    ax.plot(t, z1 - drift, label="z1 - (mean sedimentation)", color="tab:orange")
    ax.plot(t, z2 - drift, label="z2 - (mean sedimentation)", color="tab:green")
    ax.plot(t, zcm - drift, label="z_cm - (mean sedimentation)", color="black", lw=1)
    for m in maxima[:2]:
        ax.axvline(m, color="grey", ls=":", lw=0.8)
    ax.set_xlabel("t / tau_s")
    ax.set_ylabel("coordinate / a")
    ax.set_title(f"Periodic trajectories ({label}); mean sedimentation velocity {slope:.6f} a/tau_s  [paper Fig. 3b]",
                 fontsize=9)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fname = "fig3b_trajectory.png"
    fig.savefig(out / fname, dpi=110)
    plt.close(fig)
    return fname


def plot_convergence(study, out):
    series = study.get("convergence", [])
    if not series:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    for ax, quantity, ylabel in ((axes[0], "period_first", "|T(dt) - T(dt_next)| (first cycle) / tau_s"),
                                 (axes[1], "period_drift", "|drift(dt) - drift(dt_next)| / (tau_s per cycle)")):
        for s in [s for s in series if s["quantity"] == quantity]:
            colour = INTEGRATOR_STYLE.get(s["integrator"], "grey")
            dts = np.array(s["dts"][:-1], dtype=float)
            d = np.array([np.nan if v is None else abs(v) for v in s["differences"]], dtype=float)
            se = np.array([np.nan if v is None else v for v in s["difference_standard_errors"]], dtype=float)
            label = s["integrator"] + ("" if len(study["modes"]) == 1 else f" {tag(s['mode'])}")
            if s["order"] is not None:
                ci = f" ± {s['order_ci95']:.2f}" if s["order_ci95"] is not None else ""
                label += f": p = {s['order']:.3f}{ci}"
            else:
                label += ": not fitted"
            ok = d > 0
            ax.errorbar(dts[ok], d[ok], yerr=np.where(np.isfinite(se[ok]), se[ok], 0), fmt="o", color=colour,
                        ms=4, capsize=2, label=label)
            if s["order"] is not None and s["coefficient"] is not None:
                nxt = np.array(s["dts"][1:], dtype=float)
                model = abs(s["coefficient"]) * (dts ** s["order"] - nxt ** s["order"])
                ax.plot(dts, model, "-", color=colour, lw=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("dt / tau_s (the larger of the pair)")
        ax.set_ylabel(ylabel, fontsize=8)
        ax.legend(fontsize=7)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_title("period of the first cycle: successive differences", fontsize=9)
    axes[1].set_title("period drift per cycle: successive differences", fontsize=9)
    fig.tight_layout()
    fname = "convergence.png"
    fig.savefig(out / fname, dpi=110)
    plt.close(fig)
    return fname


def plot_cost(study, out):
    runs = [r for r in study["runs"] if r["period_drift"] is not None and r["regular_cycles"] and r["regular_cycles"] >= 3]
    if len({r["integrator"] for r in runs}) < 2 and len({r["dt"] for r in runs}) < 2:
        return None
    cost = {(c["mode"], c["integrator"]): c for c in study.get("cost", [])}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    # The drift net of the sampling artefact common to all runs: the convergence fit's bias (drift over
    # the first cycles minus the extrapolated drift at dt -> 0) where it exists, else the run's drift.
    net = {}
    for c in study.get("convergence", []):
        if c["quantity"] == "period_drift" and c["bias_reference"] == "extrapolated":
            for dt, b in zip(c["dts"], c["bias"]):
                net[(c["mode"], c["integrator"], dt)] = b
    for key in sorted({(r["mode"], r["integrator"]) for r in runs}):
        members = sorted([r for r in runs if (r["mode"], r["integrator"]) == key], key=lambda r: -r["dt"])
        colour = INTEGRATOR_STYLE.get(key[1], "grey")
        time = study["time"]
        evals = np.array([r["evaluations"] / time for r in members])
        wall = np.array([r["wall_seconds"] / time for r in members])
        corrected = all((key[0], key[1], r["dt"]) in net and net[(key[0], key[1], r["dt"])] is not None for r in members)
        if corrected:
            drift = np.array([abs(net[(key[0], key[1], r["dt"])]) for r in members])
        else:
            drift = np.array([abs(r["period_drift"]) for r in members])
        label = key[1] + ("" if len(study["modes"]) == 1 else f" {tag(key[0])}")
        marker = "o"
        if not corrected:
            label += " (measured drift: not separable from the sampling artefact)"
            marker = "s"
        drift = np.where(drift > 0, drift, np.nan)
        face = colour if corrected else "none"
        axes[0].loglog(evals, drift, marker, color=colour, mfc=face, label=label)
        axes[1].loglog(wall, drift, marker, color=colour, mfc=face, label=label)
        c = cost.get(key)
        if c and c["drift_order"] is not None and c["drift_coefficient"] is not None and not c["note"]:
            dts = np.geomspace(min(r["dt"] for r in members) / 4, max(r["dt"] for r in members) * 2, 50)
            model = c["drift_coefficient"] * dts ** c["drift_order"]
            axes[0].loglog(c["evaluations_per_step"] / dts, model, "-", color=colour, lw=0.8)
            if c["wall_per_evaluation"] is not None:
                axes[1].loglog(c["evaluations_per_step"] / dts * c["wall_per_evaluation"], model, "-", color=colour, lw=0.8)
    axes[0].set_xlabel("velocity evaluations per tau_s")
    axes[1].set_xlabel("wall seconds per tau_s (" + study["backend"] + ")")
    for ax in axes:
        ax.set_ylabel("|period drift - drift(dt -> 0)| / (tau_s per cycle)", fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_title("stability per compute: lower left is better (fitted drift model as lines)", fontsize=9)
    fig.tight_layout()
    fname = "drift_per_cost.png"
    fig.savefig(out / fname, dpi=110)
    plt.close(fig)
    return fname


def draw(study_dir, study):
    """Every figure of the study; returns their paths relative to the study folder."""
    study_dir = pathlib.Path(study_dir)
    out = study_dir / "figures"
    out.mkdir(parents=True, exist_ok=True)
    figures = [plot_fig3b(study_dir, out)]
    for name, title, curves in groups(study):
        figures.append(plot_fig4(study_dir, name, title, curves, out))
        figures.append(plot_fig5(study_dir, name, title, curves, out))
    figures.append(plot_convergence(study, out))
    figures.append(plot_cost(study, out))
    return ["figures/" + f for f in figures if f]
