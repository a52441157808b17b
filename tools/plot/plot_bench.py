#!/usr/bin/python3
"""Plots of the benchmark results of `stokesian bench fcc` and `stokesian bench memory` (--h5 files).

    /usr/bin/python3 tools/plot/plot_bench.py RESULTS.h5 [--out DIR]

fcc results (paper, Fig. 2) give three PNG files:
  fcc_runtime.png    HI time per step vs N (log-log), GPU kernels and CPU, one panel per precision
                     mode, with the fitted regimes t = a N + b (small N) and t = c N^2 (large N); a
                     kernel timed by whole steps only (fused: no phases) shows its whole step, open
                     triangles, beside the others' HI (M F) times and, on a GPU, their whole steps
                     (open triangles, dashed: timed without the phase events)
  fcc_breakdown.png  relative contributions of HI, forces + lubrication and integration to the GPU
                     step at three N: the smallest (linear regime), the one nearest the fitted
                     crossover, the largest (quadratic regime); one panel per kernel timed phase by
                     phase, one bar per mode
  fcc_gpairs.png     the HI update in G pair-interactions/s vs N, per kernel and precision mode
memory results (paper, Appendix, Fig. 7) give memory.png: time / N^2 at the largest N as grouped
bars (access pattern x kernel), one panel per element type (float, float4).

Needs numpy, h5py and matplotlib (Debian: python3-numpy python3-h5py python3-matplotlib).
"""
import argparse
import os
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

PHASES = [("hi_ms", "hydrodynamic interactions"), ("forces_ms", "forces + lubrication"), ("drift_ms", "integration")]


def read_group(f, name):
    """A table written by the benchmarks: one 1-D dataset per column -> dict of numpy arrays."""
    table = {}
    for column, dataset in f[name].items():
        if h5py.check_string_dtype(dataset.dtype) is not None:
            table[column] = np.array(dataset.asstr()[()], dtype=object)
        else:
            table[column] = dataset[()]
    return table


def select(table, **conditions):
    mask = np.ones(len(next(iter(table.values()))), dtype=bool)
    for column, value in conditions.items():
        mask &= table[column] == value
    return mask


def on_device(table, backend):
    """Whether `backend` computes on a device (bench fcc's computes_on column), whatever its name."""
    return bool((table["computes_on"][table["backend"] == backend] == "device").any())


def place_of(table, backend):
    return "GPU" if on_device(table, backend) else "CPU"


def backends_by_place(table):
    """The table's backends, those that compute on a device first, each in order of appearance."""
    names = list(dict.fromkeys(table["backend"]))
    return [b for b in names if on_device(table, b)] + [b for b in names if not on_device(table, b)]


def series_keys(table, backend):
    keys = []
    for kernel, precision in zip(table["kernel"][table["backend"] == backend], table["precision"][table["backend"] == backend]):
        if (kernel, precision) not in keys:
            keys.append((kernel, precision))
    return keys


def whole_steps_only(table, mask):
    """Whether the rows of `mask` were timed by whole steps only (the fused engine: HI is NaN)."""
    return bool(mask.any()) and bool(np.isnan(table["hi_median_ms"][mask].astype(float)).all())


def fit_row(fits, backend, kernel, precision, quantity="hi_median_ms"):
    mask = select(fits, backend=backend, kernel=kernel, precision=precision, quantity=quantity)
    if not mask.any():
        return None
    index = int(np.flatnonzero(mask)[0])
    return {column: values[index] for column, values in fits.items()}


def draw_fit(ax, fit, n_min, n_max, colour):
    """The fitted lines over the measured range, each drawn in its own regime (dotted beyond)."""
    n = np.geomspace(n_min, n_max, 200)
    crossover = fit["crossover_n"]
    quadratic = fit["quadratic_ms_per_pair"] * n**2
    if np.isfinite(fit["linear_slope_ms"]):
        linear = fit["linear_slope_ms"] * n + fit["linear_intercept_ms"]
        split = crossover if np.isfinite(crossover) else fit["quadratic_min_n"]
        ax.plot(n[n <= split], linear[n <= split], "-", color=colour, lw=1)
        ax.plot(n[n >= split], quadratic[n >= split], "-", color=colour, lw=1)
        ax.plot(n[n > split], linear[n > split], ":", color=colour, lw=0.8)
        ax.plot(n[n < split], quadratic[n < split], ":", color=colour, lw=0.8)
        if np.isfinite(crossover):
            ax.axvline(crossover, color=colour, lw=0.5, ls="--")
    else:
        ax.plot(n, quadratic, "-", color=colour, lw=1)


def plot_fcc_runtime(data, fits, out, attrs):
    precisions = list(dict.fromkeys(data["precision"]))
    columns = min(3, len(precisions))
    rows = (len(precisions) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(5 * columns, 4 * rows), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, precision in zip(axes.flat, precisions):
        k = 0
        for backend in backends_by_place(data):
            for kernel, p in series_keys(data, backend):
                if p != precision:
                    continue
                mask = select(data, backend=backend, kernel=kernel, precision=precision)
                whole = whole_steps_only(data, mask)
                quantity = "step_median_ms" if whole else "hi_median_ms"
                n, t = data["particles"][mask], data[quantity][mask]
                order = np.argsort(n)
                colour = colours[k % len(colours)]
                k += 1
                label = place_of(data, backend) + " " + kernel + (" (whole step)" if whole else "")
                if not on_device(data, backend) and np.isfinite(data["threads"][mask]).any():
                    label += " (%d threads)" % int(np.nanmax(data["threads"][mask]))
                marker = "^" if whole else "o" if on_device(data, backend) else "s"
                ax.plot(n[order], t[order], marker, color=colour, label=label, ms=4,
                        mfc="none" if whole else colour)
                fit = fit_row(fits, backend, kernel, precision, quantity)
                if fit is not None:
                    draw_fit(ax, fit, n.min(), n.max(), colour)
                if not whole and on_device(data, backend) and "whole_step_median_ms" in data:
                    # The same kernel's whole step (timed without phase events), beside the fused
                    # engine's: what a run's step costs.
                    steps = data["whole_step_median_ms"][mask].astype(float)
                    ax.plot(n[order], steps[order], "^--", color=colour, lw=0.6, ms=4, mfc="none",
                            label=place_of(data, backend) + " " + kernel + " (whole step)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("particles N")
        ax.set_ylabel("HI time per step (ms); whole step where marked")
        ax.set_title(precision, fontsize=10)
        ax.grid(True, which="both", lw=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(precisions):]:
        ax.set_visible(False)
    whole = any(whole_steps_only(data, select(data, backend=b, kernel=kernel))
                for b in backends_by_place(data) for kernel, _ in series_keys(data, b))
    fig.suptitle("fcc benchmark, n = 0.1 a^-3: HI runtime per step%s (%s)"
                 % ("; triangles: whole steps" if whole or "whole_step_median_ms" in data else "",
                    attrs.get("device_device_name", "CPU")), fontsize=11)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fcc_runtime.png"), dpi=150)
    plt.close(fig)


def three_sizes(n_values, fit):
    """Smallest N, the N nearest the fitted crossover (geometrically), largest N."""
    n_values = np.unique(n_values)
    if len(n_values) <= 3:
        return list(n_values)
    middle = np.sqrt(n_values[0] * n_values[-1])
    if fit is not None and np.isfinite(fit["crossover_n"]):
        middle = fit["crossover_n"]
    inner = n_values[1:-1]
    nearest = inner[np.argmin(np.abs(np.log(inner) - np.log(middle)))]
    return [n_values[0], nearest, n_values[-1]]


def plot_fcc_breakdown(data, fits, out):
    # The device's backends where the table has one, else the host's.
    ordered = backends_by_place(data)
    backends = [b for b in ordered if on_device(data, b) == on_device(data, ordered[0])]
    # Kernels with phases only (one timed by whole steps has no breakdown).
    panels = [(b, kernel) for b in backends for kernel in dict.fromkeys(data["kernel"][data["backend"] == b])
              if not whole_steps_only(data, select(data, backend=b, kernel=kernel))]
    if not panels:
        return
    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4.5), squeeze=False)
    colours = ["#4c72b0", "#dd8452", "#55a868"]
    for ax, (backend, kernel) in zip(axes.flat, panels):
        mask = select(data, backend=backend, kernel=kernel)
        precisions = list(dict.fromkeys(data["precision"][mask]))
        fit = fit_row(fits, backend, kernel, precisions[0])
        sizes = three_sizes(data["particles"][mask], fit)
        width = 0.8 / len(precisions)
        for g, n in enumerate(sizes):
            for b, precision in enumerate(precisions):
                row = np.flatnonzero(select(data, backend=backend, kernel=kernel, precision=precision) & (data["particles"] == n))
                if len(row) == 0:
                    continue
                r = row[0]
                total = data["step_ms"][r]
                bottom = 0.0
                x = g + (b - (len(precisions) - 1) / 2) * width
                for (column, label), colour in zip(PHASES, colours):
                    share = data[column][r] / total
                    ax.bar(x, share, width * 0.9, bottom=bottom, color=colour,
                           label=label if (g == 0 and b == 0) else None, edgecolor="white", lw=0.3)
                    bottom += share
                ax.text(x, 1.01, "%.3g" % total, ha="center", va="bottom", fontsize=6, rotation=90)
        ax.set_xticks(range(len(sizes)))
        regimes = ["linear", "crossover", "quadratic"] if len(sizes) == 3 else [""] * len(sizes)
        ax.set_xticklabels(["N = %d\n%s" % (n, regime) for n, regime in zip(sizes, regimes)])
        ax.set_ylim(0, 1.25)
        ax.set_ylabel("fraction of the step (bar label: ms per step)")
        ax.set_title("%s %s; bars: %s" % (place_of(data, backend), kernel, ", ".join(precisions)), fontsize=8)
        ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fcc_breakdown.png"), dpi=150)
    plt.close(fig)


def plot_fcc_gpairs(data, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    backend = backends_by_place(data)[0]
    markers = "osd^v<>p*h"
    kernels = list(dict.fromkeys(data["kernel"][data["backend"] == backend]))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    precisions = list(dict.fromkeys(data["precision"][data["backend"] == backend]))
    for kernel, precision in series_keys(data, backend):
        mask = select(data, backend=backend, kernel=kernel, precision=precision)
        if whole_steps_only(data, mask):
            continue  # no HI time of its own
        n, g = data["particles"][mask], data["hi_gpairs_per_second"][mask]
        order = np.argsort(n)
        ax.plot(n[order], g[order], "-" + markers[kernels.index(kernel) % len(markers)],
                color=colours[precisions.index(precision) % len(colours)], ms=4, lw=1,
                label="%s, %s" % (kernel, precision))
    ax.set_xscale("log")
    ax.set_xlabel("particles N")
    ax.set_ylabel("HI update (G pair-interactions / s)")
    ax.set_title("%s: HI throughput (N^2 / median HI time)" % place_of(data, backend), fontsize=10)
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fcc_gpairs.png"), dpi=150)
    plt.close(fig)


def plot_memory(summary, out, attrs):
    elements = list(dict.fromkeys(summary["element"]))
    patterns = list(dict.fromkeys(summary["pattern"]))
    kernels = list(dict.fromkeys(summary["kernel"]))
    fig, axes = plt.subplots(1, len(elements), figsize=(5.5 * len(elements), 4.5), squeeze=False)
    colours = ["#c44e52", "#4c72b0", "#55a868"]
    width = 0.8 / len(kernels)
    for ax, element in zip(axes.flat, elements):
        for k, kernel in enumerate(kernels):
            for g, pattern in enumerate(patterns):
                row = np.flatnonzero(select(summary, element=element, pattern=pattern, kernel=kernel))
                if len(row) == 0:
                    continue
                value = summary["mean_ns_per_pair"][row[0]] * 1e3  # ps per pair
                x = g + (k - (len(kernels) - 1) / 2) * width
                ax.bar(x, value, width * 0.9, color=colours[k % len(colours)], label=kernel if g == 0 else None)
                ax.text(x, value, "%.3g" % value, ha="center", va="bottom", fontsize=6)
        ax.set_xticks(range(len(patterns)))
        ax.set_xticklabels(patterns)
        ax.set_yscale("log")
        ax.set_ylabel("kernel time / N^2 (ps)")
        n = int(np.max(summary["particles"][summary["element"] == element]))
        ax.set_title("%s, N = %d" % (element, n), fontsize=10)
        ax.legend(fontsize=8)
    fig.suptitle("O(N^2) memory access (%s)" % attrs.get("device_device_name", "GPU"), fontsize=11)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "memory.png"), dpi=150)
    plt.close(fig)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", help="HDF5 file written by stokesian bench fcc --h5 or bench memory --h5")
    parser.add_argument("--out", default=".", help="directory for the PNG files (default: .)")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    with h5py.File(args.results, "r") as f:
        attrs = {k: (v.decode() if isinstance(v, bytes) else str(v)) for k, v in f.attrs.items()}
        kind = attrs.get("benchmark")
        if kind == "fcc":
            data, fits = read_group(f, "measurements"), read_group(f, "fits")
            plot_fcc_runtime(data, fits, args.out, attrs)
            plot_fcc_breakdown(data, fits, args.out)
            plot_fcc_gpairs(data, args.out)
            written = ["fcc_runtime.png", "fcc_breakdown.png", "fcc_gpairs.png"]
        elif kind == "memory":
            plot_memory(read_group(f, "summary"), args.out, attrs)
            written = ["memory.png"]
        else:
            sys.exit("plot_bench.py: %s is not a stokesian bench fcc/memory result (attribute benchmark = %r)"
                     % (args.results, kind))
    for name in written:
        print(os.path.join(args.out, name))


if __name__ == "__main__":
    main(sys.argv[1:])
