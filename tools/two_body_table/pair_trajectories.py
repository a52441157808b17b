#!/usr/bin/python3
"""The head-on and oblique pair of scenarios/approaching_pairs_implicit.toml under the paper's and the
two-body lubrication model against the exact two-sphere trajectory (engine/docs/lubrication.md,
section 7): the figure engine/docs/figures/two_body_pair_trajectories.png and a summary on stdout.

The engine's trajectories are the positions of the runs
  stokesian run scenarios/approaching_pairs_implicit.toml --case C -o DIR/C.h5
for C = head_on, two_body_head_on, oblique, two_body_oblique. The exact trajectory is integrated
here from the two-sphere oracle's table (reference_data/two_sphere/exact_two_sphere.csv): two equal
torque-free spheres under forces F and -F move apart at
    d(r_0 - r_1)/dt = 2 [(x11a - x12a) e e + (y11a - y12a)(I - e e)] F      (a = mu0 = 1),
with the two mode resistances 1/(x11a - x12a) and 1/(y11a - y12a) interpolated between the table's
rows by cubic Lagrange interpolation in ln s (the squeeze resistance without its singular part
1/(2s) + (9/20) ln(1/s)), and classical RK4 with 20 steps per engine step. The interpolation's error
is estimated by interpolating every other row from the rest and printed.

  tools/two_body_table/pair_trajectories.py DIR [--figure engine/docs/figures/two_body_pair_trajectories.png]

Needs python3-numpy and python3-h5py (Debian); the figure python3-matplotlib.
"""
import argparse
import bisect
import csv
import math
import pathlib
import sys

import h5py
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
ORACLE = ROOT / "reference_data/two_sphere/exact_two_sphere.csv"
FIGURE = ROOT / "engine/docs/figures/two_body_pair_trajectories.png"
CASES = {"head-on": ("head_on", "two_body_head_on"), "oblique": ("oblique", "two_body_oblique")}


def singular_squeeze(s):
    return 1 / (2 * s) + 0.45 * math.log(1 / s)


class ExactPair:
    """The oracle's squeeze and shear mobilities of the torque-free pair at any gap in its range."""

    def __init__(self, rows):
        self.log_gap = [math.log(r["gap"]) for r in rows]
        self.squeeze = [1 / (r["x11a"] - r["x12a"]) - singular_squeeze(r["gap"]) for r in rows]
        self.shear = [1 / (r["y11a"] - r["y12a"]) for r in rows]

    @staticmethod
    def lagrange(xs, ys, x):
        k = min(max(bisect.bisect(xs, x) - 2, 0), len(xs) - 4)
        total = 0.0
        for i in range(k, k + 4):
            weight = 1.0
            for j in range(k, k + 4):
                if j != i:
                    weight *= (x - xs[j]) / (xs[i] - xs[j])
            total += weight * ys[i]
        return total

    def mobilities(self, s):
        """(x11a - x12a, y11a - y12a) at gap s. Below the table's first row (s0 = 1e-4) the squeeze
        resistance without its singular part continues as g(s0) + (3/56)(s ln(1/s) - s0 ln(1/s0))
        + c1 (s - s0) (Jeffrey & Onishi's near-contact form, Townsend's 3/56; c1 from the first two
        rows), which omits O(s^2) of a resistance ~ 1/(2s); the shear resistance, ~ ln(1/s), linearly in
        ln s."""
        t = math.log(s)
        if t > self.log_gap[-1]:
            raise SystemExit(f"gap {s:.3g} beyond the oracle's table")
        if t >= self.log_gap[0]:
            squeeze = self.lagrange(self.log_gap, self.squeeze, t)
            shear = self.lagrange(self.log_gap, self.shear, t)
        else:
            (s0, s1), (g0, g1) = map(math.exp, self.log_gap[:2]), self.squeeze[:2]
            near = lambda x: 3 / 56 * x * math.log(1 / x)  # noqa: E731
            c1 = ((g1 - near(s1)) - (g0 - near(s0))) / (s1 - s0)
            squeeze = g0 + near(s) - near(s0) + c1 * (s - s0)
            slope = (self.shear[1] - self.shear[0]) / (self.log_gap[1] - self.log_gap[0])
            shear = self.shear[0] + slope * (t - self.log_gap[0])
        return 1 / (squeeze + singular_squeeze(s)), 1 / shear

    def interpolation_error(self):
        """Largest relative error of each mode when every other row is interpolated from the rest."""
        worst = [0.0, 0.0]
        even = slice(0, None, 2)
        xs = self.log_gap[even]
        for k in range(1, len(self.log_gap) - 1, 2):
            t = self.log_gap[k]
            s = math.exp(t)
            exact = (1 / (self.squeeze[k] + singular_squeeze(s)), 1 / self.shear[k])
            guess = (1 / (self.lagrange(xs, self.squeeze[even], t) + singular_squeeze(s)),
                     1 / self.lagrange(xs, self.shear[even], t))
            worst = [max(w, abs(g / e - 1)) for w, g, e in zip(worst, guess, exact)]
        return worst


def exact_trajectory(pair, d0, force, times, substeps=20):
    """The gap s(t) at `times` from the separation d0 = r_0 - r_1 (a = 1) under forces F, -F."""
    def rate(d):
        r = np.linalg.norm(d)
        e = d / r
        squeeze, shear = pair.mobilities(r - 2)
        along = np.dot(e, force) * e
        return 2 * (squeeze * along + shear * (force - along))

    d = np.array(d0, dtype=float)
    gaps = [np.linalg.norm(d) - 2]
    for k in range(1, len(times)):
        h = (times[k] - times[k - 1]) / substeps
        for _ in range(substeps):
            k1 = rate(d)
            k2 = rate(d + 0.5 * h * k1)
            k3 = rate(d + 0.5 * h * k2)
            k4 = rate(d + h * k3)
            d = d + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        gaps.append(np.linalg.norm(d) - 2)
    return np.array(gaps)


def engine_run(directory, case):
    path = pathlib.Path(directory) / f"{case}.h5"
    with h5py.File(path, "r") as f:
        if str(f["parameters/scenario"].attrs["case"]) != case:
            raise SystemExit(f"{path}: not the run of case {case}")
        position = f["particles/trajectory/position/value"][()]
        time = f["particles/trajectory/position/time"][()]
    separation = position[:, 0, :] - position[:, 1, :]
    return time, np.linalg.norm(separation, axis=1) - 2, separation[0]


def first_below(times, gaps, level):
    below = np.nonzero(gaps < level)[0]
    return times[below[0]] if below.size else math.inf


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", help="the folder holding CASE.h5 for the four cases")
    parser.add_argument("--figure", default=str(FIGURE))
    args = parser.parse_args(argv)
    with open(ORACLE, newline="") as stream:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(l for l in stream if not l.startswith("#"))]
    pair = ExactPair(rows)
    squeeze_error, shear_error = pair.interpolation_error()
    print(f"interpolation of the oracle (every other row from the rest): squeeze {squeeze_error:.1e}, "
          f"shear {shear_error:.1e} relative (the full table's spacing errs less)")
    force = {"head-on": np.array([1.0, 0.0, 0.0]), "oblique": np.array([1.0, 0.0, 0.5])}
    curves = {}
    for name, (paper_case, two_body_case) in CASES.items():
        time, paper, d0 = engine_run(args.runs, paper_case)
        time_two, two_body, _ = engine_run(args.runs, two_body_case)
        exact = exact_trajectory(pair, d0, force[name], time)
        curves[name] = (time, paper, two_body, exact)
        print(f"{name}: smallest gap paper {paper.min():.3g} (t = {time[paper.argmin()]:.3g}), two-body "
              f"{two_body.min():.3g} (t = {time_two[two_body.argmin()]:.3g}), exact {exact.min():.3g} "
              f"(t = {time[exact.argmin()]:.3g}); s < 1e-4 from t = {first_below(time, paper, 1e-4):.3g} (paper), "
              f"{first_below(time_two, two_body, 1e-4):.3g} (two-body), {first_below(time, exact, 1e-4):.3g} (exact); "
              f"largest |ln(s/s_exact)|: paper {np.max(np.abs(np.log(paper / exact))):.2g}, two-body "
              f"{np.max(np.abs(np.log(two_body / exact))):.2g}")
    if args.figure:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        figure, axes = plt.subplots(1, 2, figsize=(9, 3.6), constrained_layout=True)
        for axis, (name, (time, paper, two_body, exact)) in zip(axes, curves.items()):
            axis.semilogy(time, exact, color="black", lw=2.5, alpha=0.35, label="exact (two-sphere oracle)")
            axis.semilogy(time, two_body, color="tab:blue", lw=1.2, label="two-body model")
            axis.semilogy(time, paper, color="tab:red", lw=1.2, ls="--", label="paper's model (implicit)")
            axis.set_xlabel("t / τ_s")
            axis.set_ylabel("gap s = r/a − 2")
            axis.set_title(f"{name}, forces ±({', '.join(f'{x:g}' for x in force[name])}) F")
            axis.grid(True, which="major", alpha=0.3)
        axes[0].legend(loc="lower left", fontsize=8)
        figure.savefig(args.figure, dpi=110)
        print(f"wrote {args.figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
