#!/usr/bin/python3
"""Measures the spread of the regression observables of the nightly suite's Ewald runs
(scenarios/tetrahedron_ewald.toml: the tetrahedron in a periodic box L = 32a, tensor rpy-ewald,
RK4 at dt = 0.5, 2800 tau_s) over equally valid rounding histories, the basis of their tolerances
in reference_data/checks.toml. The method is measure_spread.py's (reference_data/README.md,
"Measured spread"); the realizations are its first eleven:
  baseline        the scenario, CPU all-pairs loop (the GPU's order; bitwise = IEEE CUDA)
  symmetric       the paper's serial CPU loop (mu_ij = mu_ji, another order of summation)
  x1{p,m}K        x1 = -x3 moved by K single-precision ulps, K = 1, 2, 3
  z13{p,m}1       z1 = z3 moved by one single-precision ulp
  symmetric_x1m1  both

Usage (CPU, ~2 min on two cores):
  reference_data/spread/measure_spread_ewald.py --stokesian build/bin/stokesian --out out/spread-ewald
Writes OUT/runs/<realization>__<mode>__dt0.5.h5 via `stokesian suite run`, then OUT/spread.md and
OUT/spread.json: per mode the largest deviation of every checked observable from the baseline.
"""
import argparse
import json
import math
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from measure_spread import read_all, realizations, run_name, write_suite  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
MODES = ["hi=f64,int=f64", "hi=ds,int=ds", "hi=f32,int=f32"]  # the nightly suite's Ewald runs
DT, LENGTH = 0.5, 2800.0
NAMES = list(realizations())[:11]


def summarise(results):
    """Largest deviation from the baseline of each checked observable over the realizations."""
    distinct = {}
    for name, r in results.items():
        distinct.setdefault(r["digest"], r)
    rs, base = list(distinct.values()), results["baseline"]

    def factor(key):
        worst = 1.0
        for r in rs:
            a, b = r[key], base[key]
            if (a == 0) != (b == 0):
                return math.inf
            if b != 0:
                worst = max(worst, a / b, b / a)
        return worst

    return {
        "realizations": len(results), "distinct": len(rs),
        "first_period_baseline": base["first_period"],
        "first_period_deviation": max(abs(r["first_period"] - base["first_period"]) for r in rs),
        "period_drift_baseline": [base["period_drift"], base["period_ci"]],
        "period_drift_gap_over_ci_sum": max(abs(r["period_drift"] - base["period_drift"]) / (r["period_ci"] + base["period_ci"])
                                            for r in rs),
        "max_y1_baseline": base["max_y1"], "max_y1_factor": factor("max_y1"),
        "max_residual_baseline": base["max_residual"], "max_residual_factor": factor("max_residual"),
        "mean_velocity_z_baseline": base["mean_velocity_z"],
        "mean_velocity_z_rel_deviation": max(abs(r["mean_velocity_z"] / base["mean_velocity_z"] - 1) for r in rs),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--stokesian", default=str(REPO / "build/bin/stokesian"))
    p.add_argument("--out", default=str(REPO / "out/spread-ewald"))
    p.add_argument("--summarise-only", action="store_true", help="only read existing results")
    a = p.parse_args()
    out = pathlib.Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    manifest = write_suite(out, [DT], NAMES, MODES, scenario="tetrahedron_ewald", suite="spread_ewald",
                           lengths={DT: LENGTH}, integrator="rk4")
    if not a.summarise_only:
        subprocess.run([a.stokesian, "suite", "run", str(manifest), "--backend", "cpu", "--force", "--output-dir",
                        str(out / "runs")], check=False)
    observed = read_all(a.stokesian, sorted((out / "runs").glob("*.h5")))
    report, table = {}, []
    for mode in MODES:
        files = {n: (out / "runs" / f"{run_name(n, mode, DT)}.h5").resolve() for n in NAMES}
        results = {n: observed[f] for n, f in files.items() if f in observed}
        if "baseline" not in results:
            continue
        s = report[mode] = summarise(results)
        table.append(f"| {mode} | {s['distinct']}/{s['realizations']} | {s['first_period_baseline']:.9f} | "
                     f"{s['first_period_deviation']:.2e} | {s['period_drift_gap_over_ci_sum']:.2f} | "
                     f"{s['max_y1_baseline']:.3g} | {s['max_y1_factor']:.3g} | {s['max_residual_factor']:.3g} | "
                     f"{s['mean_velocity_z_rel_deviation']:.2e} |")
    header = ("| mode | distinct/realizations | first period, baseline (tau_s) | first period, largest dev. (tau_s) "
              "| period drift gap / CI sum | max abs(y1), baseline (a) | max abs(y1), factor | max residual, factor "
              "| mean v_z rel. dev. |\n|" + "---|" * 9)
    (out / "spread.md").write_text(header + "\n" + "\n".join(table) + "\n")
    (out / "spread.json").write_text(json.dumps(report, indent=1, default=float))
    print(header)
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
