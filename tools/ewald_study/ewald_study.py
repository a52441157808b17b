#!/usr/bin/python3
"""Figures and tables of the nearest-image vs Ewald study (engine/docs/ewald.md, "Study").

Reads the result files of `stokesian suite run tools/ewald_study/suite.toml --output-dir DIR`
(one H5MD file per run; the numbers are the engine's own observables: the cycle observable's
periods and drift, the velocity_spread mean velocity, the positive_definiteness smallest
eigenvalue) and writes

  DIR/ewald_study.json                 every number below, machine-readable
  DIR/ewald_study.md                   the tables of engine/docs/ewald.md
  FIGURES/ewald_study_tetrahedron.png  period and drift of the tetrahedron against the box edge L
  FIGURES/ewald_study_fcc.png          the fcc lattice: velocity and lambda_min against N, velocity against phi

Usage: python3 tools/ewald_study/ewald_study.py DIR [--figures FIGURES] [--no-plots]
Needs python3-h5py and python3-numpy (Debian); the figures python3-matplotlib.
"""
import argparse
import json
import math
import pathlib
import sys
import tomllib

import h5py
import numpy as np

# The open-box period of the tetrahedron extrapolated to dt -> 0 (engine/docs/studies.md: RK4
# converged, Q0 = 517.035979 tau_s); the study's own open-box run is compared with it.
OPEN_PERIOD_EXTRAPOLATED = 517.035979


def scalar(f, path):
    return float(f[path][()]) if path in f else math.nan


def read_run(path):
    with h5py.File(path, "r") as f:
        cfg = tomllib.loads(f["parameters/scenario"].attrs["resolved_configuration"])
        status = f["parameters/run"].attrs["status"]
        box = cfg["box"]
        run = {
            "name": path.stem,
            "case": str(f["parameters/scenario"].attrs["case"]),
            "status": status.decode() if isinstance(status, bytes) else str(status),
            "tensor": cfg["physics"]["tensor"],
            "edge": box["edges"][0] if box["boundary"] == "periodic" else math.inf,
            "particles": int(cfg["particles"]["count"]),
            "wall_seconds": float(f["parameters/run"].attrs["wall_seconds"]),
            "stopped_at": float(f["parameters/run"].attrs["steps"]) * float(f["parameters/run"].attrs["dt"]),
        }
        if "analysis/cycle" in f:
            run.update(
                period_mean=scalar(f, "analysis/cycle/period_mean"),
                periods=[float(x) for x in f["analysis/cycle/period"][()]],
                period_first=scalar(f, "analysis/cycle/period_trend/at_first_cycle"),
                period_drift=scalar(f, "analysis/cycle/period_drift_per_cycle"),
                period_drift_ci95=scalar(f, "analysis/cycle/period_drift_ci95_half_width"),
                amplitude_mean=scalar(f, "analysis/cycle/amplitude_mean"),
                regular_cycles=scalar(f, "analysis/cycle/regular_cycles"),
                lost_periodicity_time=scalar(f, "analysis/cycle/lost_periodicity_time"),
                max_abs_y1=scalar(f, "analysis/symmetry/y1_max_abs"),
                sedimentation_velocity=-scalar(f, "analysis/centre_of_mass/mean_velocity_z"),
            )
        if "analysis/velocity_spread" in f:
            lattice = cfg["particles"].get("lattice", {})
            edge = run["edge"]
            n = run["particles"] / edge**3
            run.update(
                density=n,
                volume_fraction=4.0 * math.pi / 3.0 * n,  # radius a = 1
                velocity=-scalar(f, "analysis/velocity_spread/initial_mean_velocity_z"),
                velocity_spread=scalar(f, "analysis/velocity_spread/initial_max_deviation"),
                smallest_eigenvalue=scalar(f, "analysis/mobility/min_smallest_eigenvalue"),
                ewald_tolerance=cfg["physics"].get("ewald", {}).get("tolerance", math.nan),
                lattice_cells=lattice.get("cells"),
            )
    return run


def fmt(x, digits=6):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "—"
    return f"{x:.{digits}g}"


def tetrahedron_table(runs):
    rows = ["| L/a | tensor | period T (τ_s) | T − T_open (τ_s) | drift (τ_s/cycle, 95%) | cycles | max \\|y₁\\| (a) | U_cm (μ₀F) |",
            "|---|---|---|---|---|---|---|---|"]
    open_run = next(r for r in runs if r["case"] == "open")
    for r in sorted(runs, key=lambda r: (-r["edge"], r["tensor"])):
        label = "∞ (open)" if not math.isfinite(r["edge"]) else f"{r['edge']:g}"
        if r["status"] != "completed":
            why = r["status"].split(";")[0]
            rows.append(f"| {label} | {r['tensor']} | stopped at t = {r['stopped_at']:g} τ_s ({why}) | | | | | |")
            continue
        rows.append(f"| {label} | {r['tensor']} | {fmt(r['period_mean'], 9)} | "
                    f"{fmt(r['period_mean'] - open_run['period_mean'], 4)} | "
                    f"{fmt(r['period_drift'], 2)} ± {fmt(r['period_drift_ci95'], 2)} | "
                    f"{fmt(r['regular_cycles'], 3)} | {fmt(r['max_abs_y1'], 2)} | {fmt(r['sedimentation_velocity'], 6)} |")
    return "\n".join(rows)


def fcc_constant(runs):
    """c in U/U0 = 1 - c phi^(1/3) + phi, from the Ewald runs at tolerance 1e-10 (N = 4)."""
    return [(r["volume_fraction"], (1.0 + r["volume_fraction"] - r["velocity"]) / r["volume_fraction"] ** (1 / 3))
            for r in sorted(runs, key=lambda r: r["volume_fraction"])]


def fcc_tables(by_n, by_phi):
    rows = ["| N | L/a | U/U₀ nearest image | λ_min nearest (μ₀) | U/U₀ Ewald | λ_min Ewald (μ₀) |", "|---|---|---|---|---|---|"]
    sizes = sorted({r["particles"] for r in by_n})
    for n in sizes:
        near = next((r for r in by_n if r["particles"] == n and r["tensor"] == "rotne-prager"), None)
        ew = next((r for r in by_n if r["particles"] == n and r["tensor"] == "rpy-ewald"), None)
        edge = (near or ew)["edge"]
        rows.append(f"| {n} | {edge:.4f} | {fmt(near and near['velocity'])} | {fmt(near and near['smallest_eigenvalue'], 5)} | "
                    f"{fmt(ew and ew['velocity'])} | {fmt(ew and ew['smallest_eigenvalue'], 6)} |")
    rows += ["", "| φ | U/U₀ (Ewald, tolerance 10⁻¹⁰) | c = (1 + φ − U/U₀)/φ^{1/3} |", "|---|---|---|"]
    for (phi, c), r in zip(fcc_constant(by_phi), sorted(by_phi, key=lambda r: r["volume_fraction"])):
        rows.append(f"| {phi:.4g} | {r['velocity']:.10f} | {c:.6f} |")
    return "\n".join(rows)


def finish(ax, xlabel, ylabel, title):
    """Axis labels, title and legend of one panel."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)


def plot(tet, by_n, by_phi, figures):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    open_run = next(r for r in tet if r["case"] == "open")
    t_open = open_run["period_mean"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    for tensor, style, label in (("rotne-prager", "s--", "nearest image (paper)"), ("rpy-ewald", "o-", "Ewald (every image)")):
        rs = sorted((r for r in tet if r["tensor"] == tensor and math.isfinite(r["edge"]) and r["status"] == "completed"),
                    key=lambda r: r["edge"])
        L = np.array([r["edge"] for r in rs])
        T = np.array([r["period_mean"] for r in rs])
        ax1.plot(L, T, style, label=label)
        dT = np.abs(T - t_open)
        keep = dT > 1e-6
        ax2.loglog(L[keep], dT[keep], style, label=label)
    ax1.axhline(t_open, color="k", lw=0.8, ls=":", label=f"open box, {t_open:.3f} τ_s")
    finish(ax1, "box edge L (a)", "period T (τ_s)", "Tetrahedron in a periodic box (RK4, δt = 0.1)")
    Lg = np.array([40.0, 256.0])
    ew = next(r for r in tet if r["tensor"] == "rpy-ewald" and r["edge"] == 128)
    ax2.loglog(Lg, abs(ew["period_mean"] - t_open) * (128.0 / Lg) ** 3, "k:", lw=0.8, label="∝ L⁻³")
    finish(ax2, "box edge L (a)", "|T − T_open| (τ_s)", "Finite-size shift of the period")
    fig.tight_layout()
    fig.savefig(figures / "ewald_study_tetrahedron.png", dpi=90)
    plt.close(fig)

    fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(13, 3.8))
    for tensor, style, label in (("rotne-prager", "s--", "nearest image (paper)"), ("rpy-ewald", "o-", "Ewald")):
        rs = sorted((r for r in by_n if r["tensor"] == tensor), key=lambda r: r["particles"])
        a1.loglog([r["particles"] for r in rs], [r["velocity"] for r in rs], style, label=label)
        pd = [r for r in rs if math.isfinite(r["smallest_eigenvalue"])]
        a2.plot([r["particles"] for r in pd], [r["smallest_eigenvalue"] for r in pd], style, label=label)
    finish(a1, "N (fcc, n = 0.1 a⁻³)", "sedimentation velocity U/U₀", "Perfect lattice: U against N")
    a2.axhline(0.0, color="k", lw=0.8)
    a2.set_xscale("log")
    finish(a2, "N (fcc, n = 0.1 a⁻³)", "λ_min of the mobility (μ₀)", "Smallest eigenvalue (LAPACK)")
    rs = sorted(by_phi, key=lambda r: r["volume_fraction"])
    phi = np.array([r["volume_fraction"] for r in rs])
    c = fcc_constant(by_phi)[0][1]
    a3.plot(phi, [r["velocity"] for r in rs], "o", label="Ewald, fcc")
    pg = np.linspace(0.0, phi.max(), 200)
    a3.plot(pg, 1 - c * pg ** (1 / 3) + pg, "k-", lw=0.8, label=f"1 − {c:.4f} φ^(1/3) + φ")
    a3.plot(pg, 1 - 1.7601 * pg ** (1 / 3) + pg, "k:", lw=0.8, label="simple cubic (Hasimoto 1.7601)")
    finish(a3, "volume fraction φ", "U/U₀", "Ewald fcc lattice against φ")
    fig.tight_layout()
    fig.savefig(figures / "ewald_study_fcc.png", dpi=90)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir", type=pathlib.Path)
    p.add_argument("--figures", type=pathlib.Path, help="where the PNGs go (default: DIR)")
    p.add_argument("--no-plots", action="store_true")
    a = p.parse_args()
    files = sorted(a.dir.glob("*.h5"))
    if not files:
        sys.exit(f"ewald_study.py: no result files (*.h5) in {a.dir}")
    runs = [read_run(f) for f in files]
    # A run that stopped (the nearest image lets two spheres collide in some boxes) is a result
    # too: the tables say when it stopped, the figures leave it out.
    tet = [r for r in runs if r["name"].startswith("tetrahedron_")]
    fcc = [r for r in runs if r["name"].startswith("fcc_")]
    by_n = [r for r in fcc if "_c" in r["case"]]
    by_phi = [r for r in fcc if "_n" in r["case"]]
    doc = "## Tetrahedron\n\n" + tetrahedron_table(tet) + "\n\n## fcc lattice\n\n" + fcc_tables(by_n, by_phi) + "\n"
    (a.dir / "ewald_study.md").write_text(doc)
    (a.dir / "ewald_study.json").write_text(json.dumps(
        {"open_period_extrapolated": OPEN_PERIOD_EXTRAPOLATED, "runs": runs}, indent=1,
        default=lambda x: None).replace("NaN", "null").replace("Infinity", "null"))
    print(doc)
    if not a.no_plots:
        figures = a.figures or a.dir
        figures.mkdir(parents=True, exist_ok=True)
        plot(tet, by_n, by_phi, figures)


if __name__ == "__main__":
    main()
