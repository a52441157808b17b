"""Documents of another shape than the C++ tools write (check.json, suite-summary.json, study.json,
report.json) are refused through the command line in one line naming the file and the place, exit
status 2, nothing written; a study run file outside the study folder is refused before it is opened;
a line of nights.jsonl that is not a night is reported (FILE:LINE) and left out while the night's own
report and the history are written; `tools/report history DIR` exits 0."""
import contextlib
import copy
import io
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

import matplotlib

matplotlib.use("Agg")

from report import cli, history  # noqa: E402
from report.tests import synthetic  # noqa: E402
from report.tests.test_nightly import render  # noqa: E402
from report.tests.test_port_check_and_study import port_report  # noqa: E402

TOOLS = pathlib.Path(__file__).resolve().parents[2]
DEEP = 100000  # nesting of the deepest document: far beyond Python's recursion limit


def deep(key):
    return "{" + json.dumps(key) + ": " + "[" * DEEP + "]" * DEEP + "}"


def main(argv):
    """(exit status, stderr) of `tools/report ARGV`, in this process (a traceback fails the test)."""
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = cli.main(argv)
    return status, err.getvalue()


def changed(document, edit):
    document = copy.deepcopy(document)
    edit(document)
    return document


def study_run():
    trend = {"degree": 2, "cycles": 3, "lack_of_fit_p": 0.41, "residual_runs_p": None,
             "residual_lag1_correlation": None, "interval_widening": 1.0, "validity": "adequate"}
    return {"name": "euler_dt0.01_f64-f64", "file": "runs/x.h5", "mode": "hi=f64,int=f64", "integrator": "euler",
            "dt": 0.01, "status": "completed", "backend": "cpu", "steps": 1000, "evaluations": 1000.0,
            "wall_seconds": 1.5, "regular_cycles": 3, "period_first": 517.3, "period_first_ci95": 1e-3,
            "period_mean": 517.4, "period_drift": 0.22, "period_drift_ci95": None, "amplitude_mean": 4.2,
            "amplitude_drift": 1e-3, "amplitude_drift_ci95": 1e-4, "period_drift_mean": 0.22,
            "period_drift_mean_ci95": 0.01, "amplitude_drift_mean": 1e-3, "amplitude_drift_mean_ci95": 1e-4,
            "period_trend": trend, "amplitude_trend": dict(trend, degree=None, cycles=0, validity="none"),
            "lost_periodicity_time": None, "max_abs_y1": 3e-14}


def study():
    return {"kind": "timestep", "scenario": "scenarios/tetrahedron.toml", "case": "", "backend": "cpu",
            "time": 2000.0, "sample_every": 1.0, "trajectory_time": 0.0, "fit_cycles": 10, "wall_seconds": 3.0,
            "modes": ["hi=f64,int=f64"], "dts": [0.01], "integrators": ["euler"], "drift_targets": [0.01],
            "runs": [study_run()], "convergence": [], "cost": [], "figures": [], "provenance": {"git_commit": "abc"}}


def run0(document):
    return document["runs"][0]


# (what, check.json text or document): each of another shape than `stokesian reference check --json` writes.
BAD_CHECKS = [
    ("a list", []), ("a number", 42), ("a string", "check"), ("null", None), ("not JSON", "{\"runs\": ["),
    ("runs null", changed(synthetic.check(), lambda d: d.update(runs=None))),
    ("runs an object", changed(synthetic.check(), lambda d: d.update(runs={}))),
    ("a run a number", changed(synthetic.check(), lambda d: d.update(runs=[42]))),
    ("a run a list", changed(synthetic.check(), lambda d: d.update(runs=[[]]))),
    ("a run name a number", changed(synthetic.check(), lambda d: run0(d).update(run=7))),
    ("a run without a name", changed(synthetic.check(), lambda d: run0(d).pop("run"))),
    ("checks null", changed(synthetic.check(), lambda d: run0(d).update(checks=None))),
    ("a check a number", changed(synthetic.check(), lambda d: run0(d).update(checks=[1]))),
    ("an observable a number", changed(synthetic.check(), lambda d: run0(d)["checks"][0].update(observable=3))),
    ("a check without observable", changed(synthetic.check(), lambda d: run0(d)["checks"][0].pop("observable"))),
    ("a verdict of 5", changed(synthetic.check(), lambda d: run0(d)["checks"][0].update(verdict=5))),
    ("a ratio as text", changed(synthetic.check(), lambda d: run0(d)["checks"][1].update(ratio="x"))),
    ("a run's provenance a list", changed(synthetic.check(), lambda d: run0(d).update(provenance=[]))),
    ("a provenance value a list", changed(synthetic.check(), lambda d: run0(d)["provenance"].update(device_name=[1]))),
    ("a wall time that is no number",
     changed(synthetic.check(), lambda d: run0(d)["provenance"].update(wall_seconds="abc"))),
    ("reference provenance text", changed(synthetic.check(), lambda d: run0(d).update(reference_provenance="x"))),
    ("an entry a number", changed(synthetic.check(), lambda d: run0(d).update(entry=5))),
    ("the provenance a list", changed(synthetic.check(), lambda d: d.update(provenance=[]))),
    ("a date a number", changed(synthetic.check(), lambda d: d["provenance"].update(date=5))),
    ("a reference file named by a number",
     changed(synthetic.check(), lambda d: d["provenance"]["reference_files"][0].update(file=3))),
    ("a reference file without digest",
     changed(synthetic.check(), lambda d: d["provenance"]["reference_files"][0].pop("digest"))),
    ("passed as text", changed(synthetic.check(), lambda d: d.update(passed="no"))),
    ("a ratio NaN", json.dumps(synthetic.check()).replace('"ratio": 0.25', '"ratio": NaN')),
    ("a lone surrogate", json.dumps(synthetic.check()).replace('"note": ""', '"note": "\\udcff"', 1)),
    ("bytes that are not UTF-8", json.dumps(synthetic.check()).replace('"note": ""', '"note": "\xff"', 1).encode("latin-1")),
    ("100 000-deep nesting", deep("runs")),
]

BAD_SUITES = [
    ("a list", []), ("runs null", dict(synthetic.suite(), runs=None)),
    ("a run name a number", changed(synthetic.suite(), lambda d: run0(d).update(name=1))),
    ("a wall time as text", dict(synthetic.suite(), wall_seconds="long")),
]

OUTSIDE = "../../../../etc/passwd"
BAD_STUDIES = [
    ("a list", []), ("runs null", dict(study(), runs=None)), ("modes null", dict(study(), modes=None)),
    ("a run without period_trend", changed(study(), lambda d: run0(d).pop("period_trend"))),
    ("a dt as text", changed(study(), lambda d: run0(d).update(dt="x"))),
    ("a trend a list", changed(study(), lambda d: run0(d).update(period_trend=[]))),
    ("a convergence series of a number", dict(study(), convergence=[{"quantity": 1}])),
    ("a cost entry without lists", dict(study(), cost=[{"mode": "hi=f64,int=f64", "integrator": "euler",
                                                        "wall_per_tau": None}])),
    ("a time of 0", dict(study(), time=0)),
    ("100 000-deep nesting", deep("runs")),
]
# Run files that leave the study folder, or name no file: never opened.
ESCAPES = [("../../../../etc/passwd", OUTSIDE, "outside"), ("an absolute path", "/etc/passwd", "outside"),
           ("a NUL byte", "runs/a\0b.h5", "cannot be resolved")]

BAD_PORT_REPORTS = [
    ("a list", []), ("comparisons null", dict(port_report(), comparisons=None)),
    ("particles as text", changed(port_report(), lambda d: d["comparisons"][0].update(particles="4"))),
    ("a count null", changed(port_report(), lambda d: d["modes"][0].update(long_runs_failed=None))),
    ("a build section a list", changed(port_report(), lambda d: d["records"]["a"].update(build=[]))),
    ("an allowance as text", dict(port_report(), term_allowances={"rotne-prager": "many"})),
    ("100 000-deep nesting", deep("comparisons")),
]


def write(path, document):
    if isinstance(document, bytes):
        path.write_bytes(document)
    else:
        path.write_text(document if isinstance(document, str) else json.dumps(document))


class BadDocuments(unittest.TestCase):
    def assert_refused(self, status, err, file, place=None):
        self.assertEqual(status, 2, err)
        self.assertEqual(err.count("\n"), 1, err)
        self.assertIn(file + ": ", err)
        if place:
            self.assertIn(place, err)

    def test_check_documents_of_another_shape_are_one_line_exit_2_nothing_written(self):
        for what, document in BAD_CHECKS:
            with self.subTest(what), tempfile.TemporaryDirectory() as tmp:
                folder = pathlib.Path(tmp)
                write(folder / "check.json", document)
                (folder / "results").mkdir()
                write(folder / "results" / "suite-summary.json", synthetic.suite())
                status, err = main(["nightly", str(folder)])
                self.assert_refused(status, err, str(folder / "check.json"))
                self.assertEqual(sorted(p.name for p in folder.iterdir()), ["check.json", "results"])

    def test_suite_summaries_of_another_shape_are_one_line_exit_2(self):
        for what, document in BAD_SUITES:
            with self.subTest(what), tempfile.TemporaryDirectory() as tmp:
                folder = pathlib.Path(tmp)
                write(folder / "check.json", synthetic.check())
                (folder / "results").mkdir()
                write(folder / "results" / "suite-summary.json", document)
                status, err = main(["nightly", str(folder)])
                self.assert_refused(status, err, str(folder / "results" / "suite-summary.json"))
                self.assertFalse((folder / "summary.html").exists())

    def test_study_documents_of_another_shape_are_one_line_exit_2_nothing_written(self):
        for what, document in BAD_STUDIES:
            with self.subTest(what), tempfile.TemporaryDirectory() as tmp:
                folder = pathlib.Path(tmp)
                write(folder / "study.json", document)
                status, err = main(["study", str(folder)])
                self.assert_refused(status, err, str(folder / "study.json"))
                self.assertEqual([p.name for p in folder.iterdir()], ["study.json"])

    def test_a_study_run_file_outside_the_folder_is_refused_unopened(self):
        with tempfile.TemporaryDirectory() as tmp:
            outside = pathlib.Path(tmp) / "elsewhere.h5"
            outside.write_text("not a run")
            folder = pathlib.Path(tmp) / "study"
            (folder / "runs").mkdir(parents=True)
            (folder / "runs" / "link.h5").symlink_to(outside)
            for what, file, fault in ESCAPES + [("a link to a file outside", "runs/link.h5", "outside")]:
                with self.subTest(what):
                    write(folder / "study.json", changed(study(), lambda d: run0(d).update(file=file)))
                    status, err = main(["study", str(folder)])
                    self.assert_refused(status, err, str(folder / "study.json"), "runs[0].file")
                    self.assertIn(fault, err)
                    self.assertFalse((folder / "figures").exists())  # no figure drawn, no file opened
                    self.assertFalse((folder / "summary.md").exists())

    def test_port_check_reports_of_another_shape_are_one_line_exit_2(self):
        for what, document in BAD_PORT_REPORTS:
            with self.subTest(what), tempfile.TemporaryDirectory() as tmp:
                folder = pathlib.Path(tmp)
                write(folder / "report.json", document)
                status, err = main(["port-check", str(folder)])
                self.assert_refused(status, err, str(folder / "report.json"))
                self.assertEqual([p.name for p in folder.iterdir()], ["report.json"])


class BadHistoryLines(unittest.TestCase):
    def test_a_line_that_is_no_night_is_reported_and_the_night_and_history_are_written(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            hist = tmp / "history"
            self.assertEqual(render(tmp / "night0", synthetic.check("2026-11-25T02:30:00Z", 0.1), hist), 0)
            good = (hist / "nights.jsonl").read_text()
            night = json.loads(good)
            bad_checks = changed(night, lambda n: n["runs"][0].update(checks={"x": 1}))
            bad_counts = changed(night, lambda n: n["counts"].update(failed="none"))
            bad_report = dict(night, night="20261124T023000Z", report=OUTSIDE)
            lines = ["[]", "42", json.dumps(bad_checks), "{not json", json.dumps(bad_counts), json.dumps(bad_report),
                     "\xff"]
            (hist / "nights.jsonl").write_bytes(("\n".join(lines[:3]) + "\n" + good + "\n".join(lines[3:]) +
                                                 "\n").encode("latin-1"))
            path = hist / "nights.jsonl"
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                status = render(tmp / "night1", synthetic.check("2026-11-26T02:30:00Z", 0.2), hist)
            self.assertEqual(status, 0, err.getvalue())
            self.assertTrue((tmp / "night1" / "summary.html").is_file())
            self.assertTrue((tmp / "night1" / "summary.md").is_file())
            reported = err.getvalue().splitlines()
            self.assertEqual(len(reported), 7, reported)
            for line, number in zip(reported, (1, 2, 3, 5, 6, 7, 8)):
                self.assertIn(f"{path}:{number}: ", line)
            self.assertIn("runs[0].checks.x", reported[2])
            self.assertIn("counts.failed", reported[4])
            self.assertIn("report", reported[5])
            self.assertIn("not UTF-8", reported[6])
            # the nights that are nights, this one among them; the lines that are not kept, unread
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                nights = history.read(hist)
            self.assertEqual([n["night"] for n in nights], ["20261125T023000Z", "20261126T023000Z"])
            self.assertEqual(len(err.getvalue().splitlines()), 7)
            kept = (hist / "nights.jsonl").read_bytes().splitlines()[:7]
            self.assertEqual(sorted(line.encode("latin-1") for line in lines), sorted(kept))
            self.assertTrue((hist / "index.html").is_file())
            self.assertIn("20261126T023000Z", (hist / "index.html").read_text())

    def test_history_command_redraws_the_index_and_exits_0(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            hist = tmp / "history"
            self.assertEqual(render(tmp / "night0", synthetic.check(), hist), 0)
            os.remove(hist / "index.html")
            status, err = main(["history", str(hist)])
            self.assertEqual(status, 0, err)
            self.assertEqual(err, "")
            self.assertTrue((hist / "index.html").is_file())
            # as a user runs it: the exit status of the process (sys.exit of what main returns)
            os.remove(hist / "index.html")
            done = subprocess.run([sys.executable, str(TOOLS / "report"), "history", str(hist)], capture_output=True,
                                  text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(done.stderr, "")
            self.assertEqual(done.stdout, f"history: {hist / 'index.html'}\n")
            self.assertTrue((hist / "index.html").is_file())


if __name__ == "__main__":
    unittest.main()
