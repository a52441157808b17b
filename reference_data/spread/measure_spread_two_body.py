#!/usr/bin/python3
"""Measures the spread of the regression observables of the nightly suite's two-body lubrication
runs (scenarios/approaching_pairs_implicit.toml, cases two_body_head_on and two_body_oblique: the
implicit scheme with physics.lubrication.model = "two-body", dt = 0.001, 3 tau_s, sampled every
step) over equally valid rounding histories, the basis of their tolerances in
reference_data/checks.toml. The method is measure_spread.py's for the approaching pairs (--pairs):
realizations move x0 = -1.25a by K ulps, K = 0 (the baseline), +-1, +-2, +-4, +-8, +-16, +-32, here in
the unit of the mode's position type (the integration precision: double 2^-52 a, ds 2^-47 a, float
2^-23 a at 1.25a), so that every realization is a distinct starting point of that mode.

Usage (CPU, ~10 s on two cores):
  reference_data/spread/measure_spread_two_body.py --stokesian build/bin/stokesian --out out/spread-two-body
Writes OUT/runs/x0_<K>__<case>__<mode>.h5 via `stokesian suite run`, then OUT/spread.md and
OUT/spread.json: per case and mode the baseline, range and largest deviation of every checked
observable.
"""
import argparse
import json
import math
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from measure_spread import PAIR_POSITIONS, PAIR_ULPS  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
SCENARIO = REPO / "scenarios/approaching_pairs_implicit.toml"
CASES = ["two_body_head_on", "two_body_oblique"]
MODES = {"hi=f64,int=f64": 2.0 ** -52, "hi=ds,int=ds": 2.0 ** -47, "hi=f32,int=f32": 2.0 ** -23}  # ulp at 1.25a
DT, LENGTH = 0.001, 3.0
OBSERVABLES = ["pair_gap.minimum_gap", "pair_gap.minimum_gap_time", "pair_gap.sign_changes",
               "pair_gap.first_sign_change_time", "pair_gap.gap_at_first_sign_change",
               "mobility.min_smallest_eigenvalue", "mobility.checks", "mobility.failures"]


def tag(mode):
    return mode.replace("hi=", "").replace(",int=", "-")


def write_suite(out):
    text = SCENARIO.read_text()
    assert text.count(PAIR_POSITIONS) == 3, f"{SCENARIO} changed: update PAIR_POSITIONS"
    runs = []
    for mode, ulp in MODES.items():
        for k in PAIR_ULPS:
            x = -1.25 + k * ulp
            path = out / "scenarios" / f"pair_{tag(mode)}_{k}.toml"
            path.parent.mkdir(parents=True, exist_ok=True)
            moved = f"positions = [[{x!r}, 0.0, 0.0], [1.25, 0.0, 0.0]]"
            path.write_text(text.replace(PAIR_POSITIONS, moved)
                            .replace('name = "approaching_pairs_implicit"', 'name = "approaching_pairs_implicit_spread"'))
            for case in CASES:
                runs.append(f'[[run]]\nname = "x0_{k:+d}__{case}__{tag(mode)}"\nscenario = "{path}"\ncase = "{case}"\n'
                            f'precision = "{mode}"\ndt = {DT}\ntime = {LENGTH}\nsample_every = {DT}\n')
    manifest = out / "spread.toml"
    manifest.write_text('[suite]\nname = "spread_two_body"\n\n[defaults]\nthreads = 1\nwrite_trajectory = false\n'
                        'integrator = "euler"\n\n' + "\n".join(runs))
    return manifest


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--stokesian", default=str(REPO / "build/bin/stokesian"))
    p.add_argument("--out", default=str(REPO / "out/spread-two-body"))
    p.add_argument("--summarise-only", action="store_true", help="only read existing results")
    a = p.parse_args()
    out = pathlib.Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    manifest = write_suite(out)
    if not a.summarise_only:
        subprocess.run([a.stokesian, "suite", "run", str(manifest), "--backend", "cpu", "--force", "--output-dir",
                        str(out / "runs")], check=False)
    lines = ["| case | mode | observable | baseline | min | max | largest deviation from baseline | distinct/realizations |",
             "|---|---|---|---|---|---|---|---|"]
    report = {}
    for case in CASES:
        for mode in MODES:
            files = [str(out / "runs" / f"x0_{k:+d}__{case}__{tag(mode)}.h5") for k in PAIR_ULPS]
            shown = json.loads(subprocess.run([a.stokesian, "reference", "show", "--json"] + files, check=True,
                                              capture_output=True, text=True).stdout)
            distinct = len({r["final_state_digest"] for r in shown})
            for name in OBSERVABLES:
                v = [r["observables"][name]["values"][0] for r in shown]
                v = [math.nan if x is None else float(x) for x in v]
                finite = [x for x in v if not math.isnan(x)]
                if len(finite) not in (0, len(v)):
                    dev = math.inf  # NaN in some realizations only
                else:
                    dev = max((abs(x - v[0]) for x in finite), default=0.0)
                rel = dev / abs(v[0]) if finite and v[0] != 0 else math.nan
                lo, hi = (min(finite), max(finite)) if finite else (math.nan, math.nan)
                report[f"{case} {mode} {name}"] = {"baseline": v[0], "min": lo, "max": hi, "deviation": dev,
                                                   "relative_deviation": rel, "distinct": distinct,
                                                   "realizations": len(v)}
                lines.append(f"| {case} | {mode} | {name} | {v[0]:.10g} | {lo:.10g} | {hi:.10g} | {dev:.3g}"
                             + (f" ({rel:.2e} relative)" if not math.isnan(rel) and dev > 0 else "")
                             + f" | {distinct}/{len(v)} |")
    (out / "spread.md").write_text("\n".join(lines) + "\n")
    (out / "spread.json").write_text(json.dumps(report, indent=1))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
