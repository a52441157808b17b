#!/usr/bin/python3
"""The fcc benchmark lattice's sedimentation speed with and without lubrication (issue #30 item 4):
runs tools/two_body_table/fcc_sedimentation_speed.toml (the paper's lattice, n = 0.1 a^-3, as a finite
cluster in an open box; one implicit step, f64, CPU) in its three cases -- no lubrication, the paper's
model, the two-body model -- for clusters of 4 c^3 spheres (c = 5, 7, 10: N = 500, 1372, 4000), and
writes what `stokesian reference show` reads of each result (the mean velocity <v_z> at t = 0 and the
spread of the velocities about it) with the date, the machine and the binary into
reference_data/two_sphere/fcc_sedimentation_speed.json, and the figure
engine/docs/figures/fcc_sedimentation_speed.png. tools/two_body_table/comparison.py makes the table
of engine/docs/lubrication.md from that file.

  /usr/bin/python3 tools/two_body_table/fcc_speed.py [--stokesian build/bin/stokesian] [--cells 5 7 10]
  /usr/bin/python3 tools/two_body_table/fcc_speed.py --figure-only    # the figure from the committed file

Needs python3-numpy (the positions) and python3-matplotlib (the figure).
"""
import argparse
import datetime
import json
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "tools/two_body_table/fcc_sedimentation_speed.toml"
DATA = ROOT / "reference_data/two_sphere/fcc_sedimentation_speed.json"
FIGURE = ROOT / "engine/docs/figures/fcc_sedimentation_speed.png"
CASES = ("none", "paper", "two_body")
LABELS = {"none": "no lubrication", "paper": "paper's model", "two_body": "two-body model"}
POSITIONS = 'path = "../../out/fcc_4000_open.npy"'
OBSERVABLES = ("velocity_spread.initial_mean_velocity_z", "velocity_spread.initial_rms_deviation",
               "velocity_spread.initial_max_deviation")


def cpu_model():
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def measure(stokesian, cells, work):
    sys.path.insert(0, str(ROOT / "tools/two_body_table"))
    import fcc_positions  # noqa: E402

    positions = work / f"fcc_{cells}.npy"
    fcc_positions.main([str(positions), "--cells", str(cells)])
    text = SCENARIO.read_text()
    assert text.count(POSITIONS) == 1, f"{SCENARIO} changed: update POSITIONS"
    scenario = work / f"fcc_{cells}.toml"
    scenario.write_text(text.replace(POSITIONS, f'path = "{positions}"'))
    out = {}
    for case in CASES:
        result = work / f"fcc_{cells}_{case}.h5"
        start = time.monotonic()
        subprocess.run([stokesian, "run", str(scenario), "--case", case, "-o", str(result), "--force"], check=True,
                       stdout=subprocess.DEVNULL)
        wall = time.monotonic() - start
        shown = json.loads(subprocess.run([stokesian, "reference", "show", "--json", str(result)], check=True,
                                          capture_output=True, text=True).stdout)[0]["observables"]
        out[case] = {name.split(".")[1]: shown[name]["values"][0] for name in OBSERVABLES}
        out[case]["wall_seconds"] = round(wall, 2)
    return {"cells": cells, "particles": 4 * cells ** 3, "cases": out}


def figure(data, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    sizes = [r["particles"] for r in data["clusters"]]
    for case, marker in zip(CASES, "osD"):
        speed = [-r["cases"][case]["initial_mean_velocity_z"] for r in data["clusters"]]
        spread = [r["cases"][case]["initial_rms_deviation"] for r in data["clusters"]]
        ax.errorbar(sizes, speed, yerr=spread, marker=marker, capsize=3, label=LABELS[case])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("spheres in the cluster N (fcc, n = 0.1 a$^{-3}$, open box)")
    ax.set_ylabel(r"$-\langle v_z \rangle$ at t = 0 ($\mu_0 F$); bars: rms spread")
    ax.set_title("fcc cluster's sedimentation speed, with and without lubrication", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stokesian", default=str(ROOT / "build/bin/stokesian"))
    parser.add_argument("--cells", type=int, nargs="+", default=[5, 7, 10])
    parser.add_argument("--figure-only", action="store_true")
    args = parser.parse_args(argv)
    if not args.figure_only:
        version = subprocess.run([args.stokesian, "--version"], check=True, capture_output=True,
                                 text=True).stdout.split()[-1]
        with tempfile.TemporaryDirectory(prefix="fcc_speed.") as work:
            clusters = [measure(args.stokesian, c, pathlib.Path(work)) for c in args.cells]
        data = {
            "what": "mean sedimentation velocity <v_z> at t = 0 and the rms and largest |v_i - <v>| of fcc clusters "
                    "(n = 0.1 a^-3, open box, F = (0, 0, -1), mu0 = a = 1) without lubrication, with the paper's and "
                    "with the two-body lubrication model (implicit scheme, f64, CPU)",
            "scenario": str(SCENARIO.relative_to(ROOT)),
            "command": "/usr/bin/python3 tools/two_body_table/fcc_speed.py " + " ".join(
                ["--cells"] + [str(c) for c in args.cells]),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": f"{platform.node()}: {cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
                       f"{platform.machine()}",
            "stokesian": version,
            "clusters": clusters,
        }
        DATA.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {DATA}")
    figure(json.loads(DATA.read_text()), FIGURE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
