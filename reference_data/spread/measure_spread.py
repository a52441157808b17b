#!/usr/bin/python3
"""Measures the spread of the tetrahedron's regression observables over equally valid rounding
histories ("realizations"), the basis of the tolerances in reference_data/checks.toml.

A realization is the tetrahedron run with the same physics but another rounding history:
  baseline        scenarios/tetrahedron.toml, CPU all-pairs loop (the GPU's order; bitwise = IEEE CUDA)
  symmetric       the paper's serial CPU loop (mu_ij = mu_ji, another order of summation)
  x1{p,m}K        x1 = -x3 moved by K single-precision ulps (K * 2^-21 a at 5a; both mirror
                  symmetries kept), K = 1, 2, 3
  z13{p,m}1       z1 = z3 moved by one single-precision ulp
  symmetric_x1m1  both
The perturbation moves the orbit by ~1e-7 relative, far below anything the observables resolve,
and changes every rounding that follows: what differs between realizations is what rounding
decides. (With single-precision positions a one-ulp offset can be rounded away again; such a
realization then repeats the baseline bit for bit and is reported as a duplicate.)

Approaching pairs (--pairs): realizations move x0 = -1.25a by K double-precision ulps (2^-52 a),
K = +-1, +-2, +-4, +-8, +-16, +-32, both cases, hi=f64,int=f64, sampled every step as in the
nightly suite.

Usage (CPU, ~15 min for dt = 0.01, ~1 h with dt = 0.001 on two cores):
  reference_data/spread/measure_spread.py --stokesian build/bin/stokesian --out out/spread [--dt 0.01 0.001]
Writes OUT/<dt>/<realization>/<mode>.h5 via `stokesian suite run`, then OUT/spread.md and
OUT/spread.json (per mode and dt: the range of every observable over the realizations).
"""
import argparse
import json
import math
import pathlib
import subprocess
import sys

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[2]
MODES = ["hi=f64,int=f64", "hi=ds,int=ds", "hi=ds,int=f32", "hi=f32,int=ds", "hi=f32,int=f32"]
LENGTH = {0.01: 517000.0, 0.001: 260000.0}
ULP = 2.0 ** -21  # one single-precision ulp at 5a
EARLY = 1.5e5     # tau_s: the early stretch (observable_catalogue.cpp)

POSITIONS = """positions = [
    [5.0, 0.0, 5.0],    # r1
    [0.0, 5.0, -5.0],   # r2
    [-5.0, 0.0, 5.0],   # r3
    [0.0, -5.0, -5.0],  # r4
]"""


def realizations():
    out = {"baseline": (0, 0, ""), "symmetric": (0, 0, "symmetric"), "symmetric_x1m1": (-1, 0, "symmetric")}
    for k in (1, 2, 3):
        out[f"x1p{k}"] = (k, 0, "")
        out[f"x1m{k}"] = (-k, 0, "")
    out["z13p1"] = (0, 1, "")
    out["z13m1"] = (0, -1, "")
    # More realizations for the modes whose loss of periodicity is a distribution (--modes).
    for k in (4, 5):
        out[f"x1p{k}"] = (k, 0, "")
        out[f"x1m{k}"] = (-k, 0, "")
    out["z13p2"] = (0, 2, "")
    out["z13m2"] = (0, -2, "")
    out["symmetric_x1p1"] = (1, 0, "symmetric")
    out["symmetric_z13p1"] = (0, 1, "symmetric")
    return out


def scenario_text(dx_ulps, dz_ulps, scenario="tetrahedron"):
    """scenarios/<scenario>.toml (the tetrahedron's positions) with x1 = -x3 and z1 = z3 moved by
    the given numbers of single-precision ulps, named <scenario>_spread."""
    path = REPO / "scenarios" / f"{scenario}.toml"
    text = path.read_text()
    assert POSITIONS in text, f"{path} changed: update POSITIONS in measure_spread.py"
    x, z = 5.0 + dx_ulps * ULP, 5.0 + dz_ulps * ULP
    moved = f"positions = [\n    [{x!r}, 0.0, {z!r}],\n    [0.0, 5.0, -5.0],\n    [{-x!r}, 0.0, {z!r}],\n    [0.0, -5.0, -5.0],\n]"
    return text.replace(POSITIONS, moved).replace(f'name = "{scenario}"', f'name = "{scenario}_spread"')


PAIR_POSITIONS = "positions = [[-1.25, 0.0, 0.0], [1.25, 0.0, 0.0]]"
PAIR_ULPS = [0, 1, -1, 2, -2, 4, -4, 8, -8, 16, -16, 32, -32]


def pair_suite(out):
    text = (REPO / "scenarios/approaching_pairs.toml").read_text()
    assert text.count(PAIR_POSITIONS) == 2, "scenarios/approaching_pairs.toml changed: update PAIR_POSITIONS"
    runs = []
    for k in PAIR_ULPS:
        x = -1.25 + k * 2.0 ** -52
        scenario = out / "scenarios" / f"pair_{k}.toml"
        scenario.parent.mkdir(parents=True, exist_ok=True)
        scenario.write_text(text.replace(PAIR_POSITIONS, f"positions = [[{x!r}, 0.0, 0.0], [1.25, 0.0, 0.0]]")
                            .replace('name = "approaching_pairs"', 'name = "approaching_pairs_spread"'))
        for case in ("head_on", "oblique"):
            runs.append(f'[[run]]\nname = "pair_{k}__{case}"\nscenario = "{scenario}"\ncase = "{case}"\n'
                        f'precision = "hi=f64,int=f64"\ndt = 0.001\ntime = 5.0\nsample_every = 0.001\n')
    manifest = out / "pairs.toml"
    manifest.write_text('[suite]\nname = "pair_spread"\n\n[defaults]\nthreads = 1\nwrite_trajectory = false\n\n'
                        + "\n".join(runs))
    return manifest


def pair_table(stokesian, out):
    names = ["pair_gap.first_sign_change_time", "pair_gap.gap_at_first_sign_change", "pair_gap.minimum_gap",
             "pair_gap.minimum_gap_time", "pair_gap.critical_gap_crossing_time", "pair_gap.sign_changes",
             "mobility.min_smallest_eigenvalue", "mobility.failures"]
    lines = ["| case | observable | baseline | min | max | largest deviation from baseline |", "|---|---|---|---|---|---|"]
    report = {}
    for case in ("head_on", "oblique"):
        files = [out / "pair_runs" / f"pair_{k}__{case}.h5" for k in PAIR_ULPS]
        shown = json.loads(subprocess.run([stokesian, "reference", "show", "--json"] + [str(f) for f in files],
                                          check=True, capture_output=True, text=True).stdout)
        for name in names:
            v = [r["observables"][name]["values"][0] for r in shown]
            v = [math.nan if x is None else x for x in v]
            dev = max(abs(x - v[0]) for x in v)
            report[f"{case} {name}"] = {"baseline": v[0], "min": min(v), "max": max(v), "deviation": dev}
            lines.append(f"| {case} | {name} | {v[0]:.6g} | {min(v):.6g} | {max(v):.6g} | {dev:.3g} |")
    (out / "pairs.md").write_text("\n".join(lines) + "\n")
    (out / "pairs.json").write_text(json.dumps(report, indent=1))
    print("\n".join(lines))


def run_name(name, mode, dt):
    """The suite's run (and result file) of realization `name` in `mode` at `dt`."""
    return f'{name}__{mode.replace("hi=", "").replace(",int=", "-")}__dt{dt}'


def write_suite(out, dts, names, modes=MODES, scenario="tetrahedron", suite="spread", lengths=LENGTH,
                integrator=None):
    """OUT/spread.toml: every realization of `names` of `scenario` in every mode at every dt, run for
    lengths[dt] tau_s (with `integrator` where given, else the scenario's)."""
    runs = []
    for name, (dx, dz, kernel) in realizations().items():
        if name not in names:
            continue
        path = out / "scenarios" / f"{name}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(scenario_text(dx, dz, scenario))
        for dt in dts:
            for mode in modes:
                runs.append(f'[[run]]\nname = "{run_name(name, mode, dt)}"\nscenario = "{path}"\nprecision = "{mode}"\n'
                            + (f'integrator = "{integrator}"\n' if integrator else "")
                            + f'dt = {dt}\ntime = {lengths[dt]}\ncpu_hi_kernel = "{kernel}"\n')
    manifest = out / "spread.toml"
    manifest.write_text(f'[suite]\nname = "{suite}"\n\n[defaults]\nsample_every = 1.0\nthreads = 1\n'
                        'write_trajectory = false\n\n' + "\n".join(runs))
    return manifest


def read_all(stokesian, paths):
    """The regression observables as `stokesian reference show --json` computes them (the numbers
    the checks compare), by file."""
    out = {}
    for k in range(0, len(paths), 50):
        chunk = [str(p) for p in paths[k:k + 50]]
        shown = json.loads(subprocess.run([stokesian, "reference", "show", "--json"] + chunk, check=True,
                                          capture_output=True, text=True).stdout)
        for run in shown:
            o = run["observables"]
            def value(name):
                v = o.get(name, {}).get("values", [math.nan])
                return math.nan if v[0] is None else float(v[0])
            def array(name):
                return np.array([math.nan if x is None else x for x in o.get(name, {}).get("values", [])], dtype=float)
            def ci(name):
                c = o.get(name, {}).get("ci95_half_width")
                return math.nan if c is None else float(c)
            out[pathlib.Path(run["file"]).resolve()] = {
                "digest": run["final_state_digest"],
                "lost": value("cycle.lost_periodicity_time"),
                "windows": int(value("cycle.windows")),
                "first_period": value("cycle.first_period"),
                "period_drift": value("cycle.period_drift"), "period_ci": ci("cycle.period_drift"),
                "amplitude_drift": value("cycle.amplitude_drift"), "amplitude_ci": ci("cycle.amplitude_drift"),
                "period_drift_early": value("cycle.period_drift_early"),
                "period_ci_early": ci("cycle.period_drift_early"),
                "amplitude_drift_early": value("cycle.amplitude_drift_early"),
                "amplitude_ci_early": ci("cycle.amplitude_drift_early"),
                "window_period": array("cycle.window_period"),
                "window_amplitude": array("cycle.window_amplitude"),
                "window_end": np.array(o.get("cycle.window_period", {}).get("window_end_time", []), dtype=float),
                "y1_window_max": array("symmetry.y1_window_max"),
                "y1_window_end": np.array(o.get("symmetry.y1_window_max", {}).get("window_end_time", []), dtype=float),
                "max_y1": value("symmetry.max_abs_y1"),
                "max_residual": value("symmetry.max_abs_residual"),
                "mean_velocity_z": value("centre_of_mass.mean_velocity_z"),
            }
    return out


def windows_before_loss(r, loss):
    """Windows that end at least one window (1e4 tau_s) before `loss`."""
    return int(np.sum(r["window_end"] <= loss - 1e4)) if math.isfinite(loss) else len(r["window_end"])


def summarise(results):
    """Range of each observable over the realizations of one (mode, dt)."""
    distinct = {}
    for name, r in results.items():
        distinct.setdefault(r["digest"], (name, r))
    rs = [r for _, r in distinct.values()]
    base = results["baseline"]
    losses = [r["lost"] for r in rs]
    finite = [x for x in losses if math.isfinite(x)]
    earliest = min(finite) if finite else math.inf
    n = min(windows_before_loss(r, earliest) for r in rs)
    def rel_spread(key, until=math.inf):
        """Largest |realization - baseline| / baseline over the windows compared (before the
        earliest loss less one window, and ending by `until`)."""
        m = min(n, int(np.sum(base["window_end"] <= until)))
        if m == 0:
            return 0.0
        stack = np.array([r[key][:m] for r in rs])
        return float(np.max(np.abs(stack - base[key][:m]) / np.abs(base[key][:m])))
    def span(key):
        v = [r[key] for r in rs]
        return [min(v), max(v)]
    def gap(key, ci):
        """Largest |difference from the baseline| / (sum of the two 95% half-widths)."""
        return max(abs(r[key] - base[key]) / (r[ci] + base[ci]) for r in rs)
    def y1_factor(until=math.inf):
        """Largest factor between a realization's and the baseline's max |y1| per window, over the
        windows ending at least one window before the earliest loss and by `until`; 0 must stay 0."""
        m = int(np.sum(base["y1_window_end"] <= min(earliest - 1e4, until)))
        worst = 1.0
        for r in rs:
            a, b = r["y1_window_max"][:m], base["y1_window_max"][:m]
            if np.any((a == 0) != (b == 0)):
                return math.inf
            nz = b != 0
            if np.any(nz):
                worst = max(worst, float(np.max(np.maximum(a[nz] / b[nz], b[nz] / a[nz]))))
        return worst
    return {
        "realizations": len(results), "distinct": len(rs), "duplicates": sorted(set(results) - {n for n, _ in distinct.values()}),
        "lost": sorted(losses, key=lambda x: (math.isinf(x) or math.isnan(x), x)),
        "lost_count": len(finite), "windows": span("windows"), "compared_windows": n,
        "window_period_rel_spread": rel_spread("window_period"),
        "window_amplitude_rel_spread": rel_spread("window_amplitude"),
        "first_period": span("first_period"), "period_drift": span("period_drift"),
        "period_drift_gap_over_ci_sum": gap("period_drift", "period_ci"),
        "amplitude_drift_gap_over_ci_sum": gap("amplitude_drift", "amplitude_ci"),
        "period_drift_early_gap_over_ci_sum": gap("period_drift_early", "period_ci_early"),
        "amplitude_drift_early_gap_over_ci_sum": gap("amplitude_drift_early", "amplitude_ci_early"),
        "period_drift_early": span("period_drift_early"),
        "window_period_rel_spread_early": rel_spread("window_period", EARLY),
        "window_amplitude_rel_spread_early": rel_spread("window_amplitude", EARLY),
        "y1_window_max_factor_early": y1_factor(EARLY),
        "y1_window_max_factor": y1_factor(), "max_residual": span("max_residual"),
        "max_y1": span("max_y1"), "mean_velocity_z": span("mean_velocity_z"),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--stokesian", default=str(REPO / "build/bin/stokesian"))
    p.add_argument("--out", default=str(REPO / "out/spread"))
    p.add_argument("--dt", type=float, nargs="+", default=[0.01, 0.001])
    p.add_argument("--realizations", nargs="+", default=list(realizations())[:11],
                   help="default: the eleven of the docstring; more: x1p4 x1m4 x1p5 x1m5 z13p2 z13m2 "
                        "symmetric_x1p1 symmetric_z13p1")
    p.add_argument("--modes", nargs="+", default=MODES)
    p.add_argument("--jobs", type=int, default=0)
    p.add_argument("--summarise-only", action="store_true", help="only read existing results")
    p.add_argument("--pairs", action="store_true", help="the approaching pairs instead of the tetrahedron")
    a = p.parse_args()
    out = pathlib.Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if a.pairs:
        manifest = pair_suite(out)
        if not a.summarise_only:
            subprocess.run([a.stokesian, "suite", "run", str(manifest), "--backend", "cpu", "--force", "--output-dir",
                            str(out / "pair_runs")], check=False)
        pair_table(a.stokesian, out)
        return 0
    manifest = write_suite(out, a.dt, a.realizations, a.modes)
    if not a.summarise_only:
        # Only the runs whose results are missing (a baseline may be linked in from a suite run).
        names = [line.split('"')[1] for line in manifest.read_text().splitlines() if line.startswith("name = ") and "__" in line]
        missing = [n for n in names if not (out / "runs" / f"{n}.h5").exists()]
        if missing:
            cmd = [a.stokesian, "suite", "run", str(manifest), "--backend", "cpu", "--output-dir", str(out / "runs"),
                   "--only", ",".join(missing)]
            if a.jobs:
                cmd += ["--jobs", str(a.jobs)]
            subprocess.run(cmd, check=False)
    table, report = [], {}
    files = sorted((out / "runs").glob("*.h5"))
    observed = read_all(a.stokesian, files) if files else {}
    for dt in a.dt:
        for mode in a.modes:
            results = {}
            for name in a.realizations:
                path = out / "runs" / f"{run_name(name, mode, dt)}.h5"
                if path.resolve() in observed:
                    results[name] = observed[path.resolve()]
            if "baseline" not in results:
                continue
            s = summarise(results)
            report[f"{mode} dt={dt}"] = s
            lost = ", ".join("none" if math.isnan(x) else f"{x:.0f}" for x in s["lost"])
            table.append(f"| {mode} | {dt} | {s['distinct']}/{s['realizations']} | {lost} | {s['windows'][0]}-{s['windows'][1]} "
                         f"| {s['window_period_rel_spread']:.2e} | {s['window_amplitude_rel_spread']:.2e} "
                         f"| {s['period_drift'][0]:.6f}-{s['period_drift'][1]:.6f} | {s['period_drift_gap_over_ci_sum']:.2f} "
                         f"| {s['amplitude_drift_gap_over_ci_sum']:.2f} | {s['period_drift_early_gap_over_ci_sum']:.2f} "
                         f"| {s['amplitude_drift_early_gap_over_ci_sum']:.2f} | {s['window_period_rel_spread_early']:.2e} "
                         f"| {s['window_amplitude_rel_spread_early']:.2e} | {s['max_y1'][0]:.3g}-{s['max_y1'][1]:.3g} "
                         f"| {s['y1_window_max_factor']:.3g} | {s['y1_window_max_factor_early']:.3g} "
                         f"| {s['first_period'][1] - s['first_period'][0]:.2e} "
                         f"| {s['mean_velocity_z'][1] - s['mean_velocity_z'][0]:.2e} |")
    header = ("| mode | dt | distinct/realizations | lost periodicity at (tau_s) | windows | window period rel. spread "
              "| window amplitude rel. spread | period drift range | period drift gap / CI sum | amplitude drift gap / CI sum "
              "| early period drift gap / CI sum | early amplitude drift gap / CI sum | early window period rel. spread "
              "| early window amplitude rel. spread | max abs(y1) range | y1 window max factor | early y1 window max factor "
              "| first period range | mean v_z range |\n|" + "---|" * 19)
    (out / "spread.md").write_text(header + "\n" + "\n".join(table) + "\n")
    (out / "spread.json").write_text(json.dumps(report, indent=1, default=float))
    print(header)
    print("\n".join(table))


if __name__ == "__main__":
    sys.exit(main())
