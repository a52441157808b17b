"""Figures of a port-check report (tools/report port-check DIR), from the rows of histograms.csv and
verdicts.csv (port_check.py writes both from report.json; the C++ command does every comparison and
verdict):
  verdicts.png             max |dv| / bound per configuration and mode (log scale; 1 = the bound)
  ulp_histograms.png       ULP differences in the mode's storage type, one panel per mode
  relative_histograms.png  |dv_ic| / |v_i|, one panel per mode
"""
import csv
import math

import matplotlib.pyplot as plt


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def mode_order(modes):
    rank = {"f64": 0, "ds": 1, "f32": 2}

    def key(m):
        parts = dict(p.split("=") for p in m.split(","))
        return (rank.get(parts.get("hi"), 9), rank.get(parts.get("int"), 9))

    return sorted(modes, key=key)


def histograms(rows, kind, out, title):
    data = [r for r in rows if r["kind"] == kind]
    modes = mode_order({r["mode"] for r in data})
    configs = sorted({r["configuration"] for r in data})
    if not modes:
        return
    cols = 3
    nrows = math.ceil(len(modes) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(5 * cols, 3.2 * nrows), squeeze=False, sharey=True)
    for ax, mode in zip(axes.flat, modes):
        labels = None
        width = 0.8 / max(len(configs), 1)
        for k, cfg in enumerate(configs):
            sel = sorted((r for r in data if r["mode"] == mode and r["configuration"] == cfg), key=lambda r: int(r["bin"]))
            counts = [int(r["count"]) for r in sel]
            total = sum(counts) or 1
            labels = [r["label"] for r in sel]
            # only the bins up to the last non-empty one of any configuration are drawn
            ax.bar([i + k * width for i in range(len(counts))], [c / total for c in counts], width=width, label=cfg)
        used = [int(r["bin"]) for r in data if r["mode"] == mode and int(r["count"]) > 0]
        last = max(used) if used else 1
        ax.set_xlim(-0.5, last + 1)
        ax.set_xticks(range(last + 1))
        ax.set_xticklabels(labels[: last + 1], rotation=60, fontsize=6)
        ax.set_title(mode, fontsize=9)
        ax.set_ylabel("fraction of components", fontsize=8)
    for ax in list(axes.flat)[len(modes):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=6)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def verdict_plot(rows, out):
    modes = mode_order({r["mode"] for r in rows})
    configs = sorted({r["configuration"] for r in rows})
    fig, ax = plt.subplots(figsize=(1.2 * len(modes) + 3, 4))
    width = 0.8 / max(len(configs), 1)
    floor = 1e-6
    for k, cfg in enumerate(configs):
        ys = []
        for m in modes:
            sel = [r for r in rows if r["mode"] == m and r["configuration"] == cfg]
            v = float(sel[0]["max_bound_ratio"]) if sel and sel[0]["max_bound_ratio"] not in ("inf", "nan") else (1e3 if sel else 0)
            ys.append(max(v, floor))
        ax.bar([i + k * width for i in range(len(modes))], ys, width=width, label=cfg)
    ax.axhline(1.0, color="red", lw=1, label="rounding bound")
    ax.set_yscale("log")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(modes))])
    ax.set_xticklabels(modes, rotation=30, fontsize=8)
    ax.set_ylabel(f"max |dv| / bound (bitwise: {floor:g})")
    ax.legend(fontsize=7)
    ax.set_title("port-check: largest difference relative to the derived rounding bound")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
