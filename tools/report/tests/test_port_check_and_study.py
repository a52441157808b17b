"""The port-check report and the study summary from synthetic data of the shapes the C++ commands
write: the tables the documents show, the CSV of the plots, escaping in HTML and Markdown."""
import argparse
import json
import pathlib
import tempfile
import unittest

import matplotlib

matplotlib.use("Agg")

from report import links, port_check, study  # noqa: E402


def port_report(passed=True):
    row = {"configuration": "tetrahedron", "mode": "hi=ds,int=f32", "particles": 4,
           "verdict": "bitwise" if passed else "FAIL", "differing_components": 0 if passed else 3,
           "max_ulp": 0.0 if passed else 12.0, "median_ulp": 0.0, "max_relative": 0.0, "rms_relative": 0.0,
           "max_bound_ratio": 0.0 if passed else None, "bound_factor": 9.5e-06, "worst_particle": 1,
           "worst_component": "z", "ulp_histogram": [12, 0], "ulp_histogram_labels": ["0", "1"],
           "relative_histogram": [12, 0], "relative_histogram_labels": ["0", "1e-20"]}
    side = {"file": "a.h5", "build": {"version": "abc<1>"}, "device": {"device_name": "H100", "sass": "sm_90"},
            "run": {"host": "h"}, "settings": {"CUDA_FORCE_PTX_JIT": "(unset)"}}
    return {"passed": passed, "a": "a.h5", "b": "b.h5", "per_mode": {"hi=ds,int=f32": row["verdict"]},
            "comparisons": [row], "not_compared": [], "long_runs": [],
            "modes": [{"mode": "hi=ds,int=f32", "verdict": row["verdict"], "compared": True,
                       "worst_configuration": None if passed else "tetrahedron",
                       "max_bound_ratio": 0.0 if passed else None, "max_ulp": row["max_ulp"], "max_relative": 0.0,
                       "bound_factor": 9.5e-06, "long_runs_passed": 0, "long_runs_failed": 0}],
            "long_run_checks": [], "reference_dir": "", "term_allowances": {"rotne-prager": 80.0},
            "records": {"a": side, "b": dict(side, file="b.h5")}}


class PortCheckReport(unittest.TestCase):
    def test_tables_csv_and_escaping(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = pathlib.Path(tmp)
            for passed in (True, False):
                (folder / "report.json").write_text(json.dumps(port_report(passed)))
                self.assertEqual(port_check.render(argparse.Namespace(report=str(folder), no_figures=False)), 0)
                md = (folder / "report.md").read_text()
                self.assertIn("| hi=ds,int=f32 | bitwise |" if passed else "| hi=ds,int=f32 | FAIL | tetrahedron | ∞ |",
                              md)
                self.assertIn("| sass | sm_90 | sm_90 |", md)  # every device key, whatever the build adds
                html = (folder / "report.html").read_text()
                self.assertIn("abc&lt;1&gt;", html)
                self.assertEqual(links.broken(folder / "report.html"), [])
            self.assertIn("tetrahedron,\"hi=ds,int=f32\",ulp,0,0,12",
                          (folder / "histograms.csv").read_text().replace("\r", ""))
            self.assertIn("tetrahedron,\"hi=ds,int=f32\",FAIL,inf,12,0", (folder / "verdicts.csv").read_text())


class StudySummary(unittest.TestCase):
    def test_sections_and_counts(self):
        run = {"name": "euler_dt0.01_f64-f64", "file": "runs/x.h5", "mode": "hi=f64,int=f64", "integrator": "euler",
               "dt": 0.01, "status": "completed", "backend": "cpu", "steps": 1000, "evaluations": 1000.0,
               "wall_seconds": 1.5, "regular_cycles": 3, "period_first": 517.3, "period_first_ci95": 1e-3,
               "period_mean": 517.4, "period_drift": 0.22, "period_drift_ci95": None, "amplitude_mean": 4.2,
               "amplitude_drift": 1e-3, "amplitude_drift_ci95": 1e-4, "period_drift_mean": 0.22,
               "period_drift_mean_ci95": 0.01, "amplitude_drift_mean": 1e-3, "amplitude_drift_mean_ci95": 1e-4,
               "period_trend": {"degree": 2, "cycles": 3, "lack_of_fit_p": 0.41, "residual_runs_p": None,
                                "residual_lag1_correlation": None, "interval_widening": 1.0,
                                "validity": "adequate"},
               "amplitude_trend": {"degree": None, "cycles": 0, "lack_of_fit_p": None, "residual_runs_p": None,
                                   "residual_lag1_correlation": None, "interval_widening": None,
                                   "validity": "none"},
               "lost_periodicity_time": None, "max_abs_y1": 3e-14}
        data = {"kind": "timestep", "scenario": "scenarios/tetrahedron.toml", "case": "", "backend": "cpu",
                "time": 2000.0, "sample_every": 1.0, "trajectory_time": 0.0, "fit_cycles": 10, "wall_seconds": 3.0,
                "modes": ["hi=f64,int=f64"], "dts": [0.01], "integrators": ["euler"], "drift_targets": [0.01],
                "runs": [run], "convergence": [], "cost": [], "figures": [], "provenance": {"git_commit": "abc"}}
        with tempfile.TemporaryDirectory() as tmp:
            folder = pathlib.Path(tmp)
            (folder / "study.json").write_text(json.dumps(data))
            self.assertEqual(study.render(argparse.Namespace(study=str(folder), no_figures=True)), 0)
            md = (folder / "summary.md").read_text()
            self.assertIn("# Time-step study: tetrahedron.toml", md)
            self.assertIn("runs: 1 (1 precision mode × 1 time step × 1 integrator)", md)
            self.assertIn("| 517.3 ± 0.001 | 517.4 | 0.22 | 0.22 ± 0.01 | adequate: degree 2 over 3 cycles, "
                          "lack-of-fit p = 0.41 |", md)
            self.assertIn("| periodic |", md)
            self.assertNotIn("## Convergence", md)


if __name__ == "__main__":
    unittest.main()
