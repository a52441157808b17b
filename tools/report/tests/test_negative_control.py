"""The negative control's verdict (negative_control.py) and its place in the nightly report's
headline: every perturbed run must fail a check, the unperturbed control none; a run whose reference
did not apply, or that did not complete, was not checked and the verdict cannot pass. ci/nightly runs
the same module as a script (verdict.txt, exit status 0/1)."""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

import matplotlib

matplotlib.use("Agg")

from report import negative_control, nightly  # noqa: E402
from report.tests import synthetic  # noqa: E402

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "negative_control.py"


def report(folder, negative=None, suite_states=None):
    """A nightly report folder, with negative-control/ when `negative` (its check.json) is given."""
    (folder / "results").mkdir(parents=True)
    (folder / "check.json").write_text(json.dumps(synthetic.check()))
    (folder / "results" / "suite-summary.json").write_text(json.dumps(synthetic.suite()))
    if negative is not None:
        (folder / "negative-control" / "results").mkdir(parents=True)
        (folder / "negative-control" / "check.json").write_text(json.dumps(negative))
        if suite_states:
            summary = dict(synthetic.suite(), suite="negative_control",
                           runs=[{"name": n, "state": s} for n, s in suite_states.items()])
            (folder / "negative-control" / "results" / "suite-summary.json").write_text(json.dumps(summary))
    args = argparse.Namespace(report=str(folder), check=None, results=None, suite_summary=None, history=None,
                              night=None, no_figures=True)
    assert nightly.render(args) == 0
    return (folder / "summary.html").read_text(), (folder / "summary.md").read_text()


def headline(html):
    return html.split('<h1 id="verdict">')[1].split("</h1>")[0]


class Verdict(unittest.TestCase):
    def test_caught_not_rejected_false_alarm_and_not_checked(self):
        v = negative_control.verdict(synthetic.negative_check(caught=True))
        self.assertTrue(v["passed"])
        self.assertEqual(v["lines"][0], "rejected      tetrahedron_f64-f64_dt0.01: NEGATIVE CONTROL: every step 1% "
                                        "longer than the recorded dt\n              failing: cycle.first_period")
        self.assertEqual(v["lines"][-1], "negative control: PASS (every perturbation caught, the control accepted)")
        self.assertEqual(v["summary"], "1 perturbed run rejected, 1 unperturbed control accepted")
        v = negative_control.verdict(synthetic.negative_check(caught=False))
        self.assertFalse(v["passed"])
        self.assertTrue(v["lines"][0].startswith("NOT REJECTED  tetrahedron_f64-f64_dt0.01: NEGATIVE CONTROL"))
        self.assertEqual(v["summary"], "NOT REJECTED: tetrahedron_f64-f64_dt0.01")
        alarm = synthetic.negative_check()
        alarm["runs"][1]["checks"][0]["verdict"] = "fail"
        v = negative_control.verdict(alarm)
        self.assertFalse(v["passed"])
        self.assertIn("FALSE ALARM   tetrahedron_f32-f32_dt0.01 (unperturbed): cycle.first_period", v["lines"])
        # A reference of another run length fails every run for that reason alone: nothing was caught.
        v = negative_control.verdict(synthetic.negative_check(mismatch="reference recorded for 517000 tau_s, "
                                                                        "this run is 5170 tau_s"))
        self.assertFalse(v["passed"])
        self.assertIn("NOT CHECKED   tetrahedron_f64-f64_dt0.01: reference recorded for 517000 tau_s, this run "
                      "is 5170 tau_s", v["lines"])
        # A run of the suite that did not complete was not checked either.
        v = negative_control.verdict(synthetic.negative_check(), {"runs": [
            {"name": "tetrahedron_f64-f64_dt0.01", "state": "completed"},
            {"name": "tetrahedron_ds-ds_dt0.01", "state": "failed"}]})
        self.assertFalse(v["passed"])
        self.assertIn("NOT CHECKED   tetrahedron_ds-ds_dt0.01: the run did not complete (failed)", v["lines"])
        self.assertFalse(negative_control.verdict({"runs": []})["passed"])  # nothing checked is no pass

    def test_as_ci_nightly_runs_it_verdict_lines_and_exit_status(self):
        with tempfile.TemporaryDirectory() as tmp:
            for caught, status in ((True, 0), (False, 1)):
                path = pathlib.Path(tmp) / "check.json"
                path.write_text(json.dumps(synthetic.negative_check(caught)))
                done = subprocess.run([sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True)
                self.assertEqual(done.returncode, status, done.stderr)
                self.assertEqual(done.stdout, "\n".join(
                    negative_control.verdict(synthetic.negative_check(caught))["lines"]) + "\n")


class Headline(unittest.TestCase):
    def test_the_negative_controls_verdict_is_in_the_headline(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            html, md = report(tmp / "caught", synthetic.negative_check(caught=True))
            self.assertIn("negative control: <span class=\"pass\">PASS</span>", headline(html))
            self.assertIn("1 perturbed run rejected, 1 unperturbed control accepted", html.split('id="provenance"')[0])
            self.assertEqual(md.splitlines()[0], "# Nightly regression report: PASS; negative control: PASS")

            html, md = report(tmp / "missed", synthetic.negative_check(caught=False))
            self.assertIn("negative control: <span class=\"fail\">FAIL</span>", headline(html))
            self.assertIn("<title>Nightly regression report: PASS; negative control: FAIL", html)
            self.assertIn("NOT REJECTED: tetrahedron_f64-f64_dt0.01", html.split('id="provenance"')[0])
            self.assertEqual(md.splitlines()[0], "# Nightly regression report: PASS; negative control: FAIL")

            html, md = report(tmp / "incomplete", synthetic.negative_check(),
                              {"tetrahedron_f64-f64_dt0.01": "completed", "tetrahedron_f32-f32_dt0.01": "interrupted"})
            self.assertIn("negative control: <span class=\"fail\">FAIL</span>", headline(html))

            html, md = report(tmp / "without")
            self.assertIn("negative control: not run", headline(html))
            self.assertEqual(md.splitlines()[0], "# Nightly regression report: PASS; negative control: not run")


if __name__ == "__main__":
    unittest.main()
