#!/usr/bin/python3
"""Largest deviations from the baseline realization, in the form the rules of checks.toml use them
(reference_data/README.md, "Measured spread"): complements measure_spread.py's summary with

  fp_dev          largest |first period - baseline's| (tau_s)
  vz_rel          largest relative deviation of the mean sedimentation velocity
  y1max_fac,      largest factor between a realization's and the baseline's max |y1| and largest
  res_fac         symmetry residual (a band's measure)
  y1w_early       largest factor of max |y1| per window, windows ending by 1.5e5 tau_s
  wp/wa, _early   window period / amplitude, largest relative deviation (before the earliest loss;
                  by 1.5e5 tau_s)
  pd, ad, pde, ade  drift gaps / CI sums (all regular cycles; early stretch)
  pairwise:       window deviations with the checker's semantics (windows ending one window before
                  the earlier loss of the two runs) and drift deviations by value
  per-step effect the baseline of hi=f64,int=f64 and hi=f32,int=ds against hi=ds,int=ds

Usage: reference_data/spread/deviations.py --stokesian build/bin/stokesian --runs out/spread/runs
           [--dt 0.01 0.001] [--json OUT.json]
Reads OUT/runs/<realization>__<mode tag>__dt<dt>.h5 as measure_spread.py writes them.
"""
import argparse
import importlib.util
import json
import math
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("measure_spread", HERE / "measure_spread.py")
ms = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ms)


def pair_windows(base, r, key, until=math.inf, before_loss=True):
    """Largest relative deviation over the windows the checker compares for this pair of runs."""
    end = base["window_end"]
    loss = min(base["lost"] if math.isfinite(base["lost"]) else math.inf,
               r["lost"] if math.isfinite(r["lost"]) else math.inf)
    m = min(len(base[key]), len(r[key]))
    ok = [i for i in range(m) if end[i] <= until and (not before_loss or end[i] <= loss - 1e4)]
    if not ok:
        return 0.0
    return float(np.max(np.abs(r[key][ok] - base[key][ok]) / np.abs(base[key][ok])))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--stokesian", default="build/bin/stokesian")
    p.add_argument("--runs", default="out/spread/runs")
    p.add_argument("--dt", type=float, nargs="+", default=[0.01, 0.001])
    p.add_argument("--json", help="write the table as JSON")
    a = p.parse_args()
    runs = pathlib.Path(a.runs)
    files = [f for f in sorted(runs.glob("*.h5")) if any(f.name.endswith(f"__dt{dt}.h5") for dt in a.dt)]
    obs = ms.read_all(a.stokesian, files)
    report = {}
    for dt in a.dt:
        for mode in ms.MODES:
            tag = mode.replace("hi=", "").replace(",int=", "-")
            res = {f.name.split("__")[0]: obs[f.resolve()] for f in files if f.name.endswith(f"__{tag}__dt{dt}.h5")}
            if "baseline" not in res:
                continue
            base = res["baseline"]
            distinct = {}
            for n, r in res.items():
                distinct.setdefault(r["digest"], r)
            rs = list(distinct.values())
            s = ms.summarise(res)

            def dev(k, rel=False):
                return max(abs(r[k] - base[k]) / (abs(base[k]) if rel else 1) for r in rs)

            def fac(k):
                w = 1.0
                for r in rs:
                    if (r[k] == 0) != (base[k] == 0):
                        return math.inf
                    if base[k] != 0:
                        w = max(w, r[k] / base[k], base[k] / r[k])
                return w

            e = dict(n=len(res), distinct=len(rs), lost=s["lost"], windows=s["windows"],
                     fp_dev=dev("first_period"), vz_rel=dev("mean_velocity_z", True),
                     y1max_fac=fac("max_y1"), res_fac=fac("max_residual"), y1max=s["max_y1"], res=s["max_residual"],
                     y1w_early=s["y1_window_max_factor_early"], y1w=s["y1_window_max_factor"],
                     wp=s["window_period_rel_spread"], wa=s["window_amplitude_rel_spread"],
                     wp_early=s["window_period_rel_spread_early"], wa_early=s["window_amplitude_rel_spread_early"],
                     pd=s["period_drift_gap_over_ci_sum"], ad=s["amplitude_drift_gap_over_ci_sum"],
                     pde=s["period_drift_early_gap_over_ci_sum"], ade=s["amplitude_drift_early_gap_over_ci_sum"],
                     dups=s["duplicates"])
            for key in ("window_period", "window_amplitude"):
                e[key + "_pairwise_all"] = max(pair_windows(base, r, key) for r in rs)
                e[key + "_pairwise_early"] = max(pair_windows(base, r, key, 150000.0) for r in rs)
            for key in ("period_drift", "amplitude_drift", "period_drift_early", "amplitude_drift_early"):
                e[key + "_dev"] = max(abs(r[key] - base[key]) for r in rs)
                e[key + "_baseline"] = base[key]
            report[f"{mode} dt={dt}"] = e
            print(f"{mode} dt={dt}: " + ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                                                 for k, v in e.items() if k != "lost"))
        dsds = obs.get((runs / f"baseline__ds-ds__dt{dt}.h5").resolve())
        for tag in ("f64-f64", "f32-ds"):
            r = obs.get((runs / f"baseline__{tag}__dt{dt}.h5").resolve())
            if r is None or dsds is None:
                continue
            effect = {"window_period_all": pair_windows(dsds, r, "window_period"),
                      "window_amplitude_all": pair_windows(dsds, r, "window_amplitude"),
                      "window_period_early": pair_windows(dsds, r, "window_period", 150000.0),
                      "window_amplitude_early": pair_windows(dsds, r, "window_amplitude", 150000.0)}
            report[f"per-step effect {tag} vs ds-ds dt={dt}"] = effect
            print(f"per-step effect {tag} vs ds-ds, dt={dt}: " + ", ".join(f"{k}={v:.3g}" for k, v in effect.items()))
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(report, indent=1, default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main())
