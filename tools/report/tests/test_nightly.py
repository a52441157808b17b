"""The nightly report and its history from synthetic check data (tests/synthetic.py): the model's
margins and verdicts (a skipped check is neither passed nor failed; a failure whose ratio is
infinite, stored as null, has an infinite margin), the documents' sections in the order a CI user
reads them, a history over three nights with its index, and no broken local link anywhere."""
import argparse
import json
import math
import pathlib
import tempfile
import unittest

import matplotlib

matplotlib.use("Agg")

from report import history, links, nightly  # noqa: E402
from report.tests import synthetic  # noqa: E402


def render(folder, check, hist=None, night=None, scale=1.0):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "check.json").write_text(json.dumps(check))
    (folder / "results").mkdir(exist_ok=True)
    (folder / "results" / "suite-summary.json").write_text(json.dumps(synthetic.suite(scale)))
    args = argparse.Namespace(report=str(folder), check=None, results=None, suite_summary=None,
                              history=None if hist is None else str(hist), night=night, no_figures=False)
    return nightly.render(args)


class NightlyModel(unittest.TestCase):
    def test_margins_verdicts_and_counts(self):
        m = nightly.model(synthetic.check(margin=0.25, fail=True), synthetic.suite(), {}, "margins.png")
        self.assertFalse(m["passed"])
        self.assertEqual(m["counts"], {"runs": 2, "checks": 5, "passed": 3, "skipped": 1, "failed": 1})
        tetra = m["runs"][0]
        self.assertEqual(tetra["tally"], {"pass": 2, "skip": 1, "fail": 1})
        self.assertTrue(math.isinf(tetra["worst_margin"]))
        self.assertEqual(tetra["worst_observable"], "symmetry.max_abs_y1")
        self.assertEqual(tetra["wall_seconds"], 299.0)  # the suite's, not the provenance's
        self.assertEqual(len(m["failures"]), 1)
        self.assertEqual(m["failures"][0]["figure"], "margins.png")
        skipped = [c for c in m["checks"] if c["verdict"] == "skip"]
        self.assertEqual(len(skipped), 1)
        self.assertIsNone(skipped[0]["margin"])
        fcc = m["runs"][1]
        self.assertEqual(fcc["worst_margin"], 0.0)
        self.assertEqual(fcc["worst_observable"], "every compared check exact")

    def test_a_batched_run_names_its_batch_and_the_other_runs_in_it(self):
        check = synthetic.check()
        prov = dict(check["runs"][0]["provenance"], batch_id="batch-2",
                    batch_members="tetrahedron_ds-ds_dt0.01,tetrahedron_ds-ds_dt0.001")
        check["runs"][0]["provenance"] = prov
        m = nightly.model(check, synthetic.suite(), {}, "margins.png")
        self.assertEqual(m["runs"][0]["batch"], "batch-2 with tetrahedron_ds-ds_dt0.001")
        self.assertEqual(m["runs"][1]["batch"], "")  # ran alone

    def test_a_run_verified_in_segments_says_so_and_one_that_fell_back_says_why(self):
        check = synthetic.check()
        check["runs"][0]["provenance"] = dict(check["runs"][0]["provenance"], verification="verified in 256 segments")
        why = "ran continuously: segment 1 of 51 (steps 0 to 201900) did not end bit for bit at its boundary"
        check["runs"][1]["provenance"] = dict(check["runs"][1]["provenance"], verification=why)
        m = nightly.model(check, synthetic.suite(), {}, "margins.png")
        self.assertEqual(m["runs"][0]["verification"], "verified in 256 segments")
        self.assertEqual(m["runs"][1]["verification"], why)
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            self.assertEqual(render(tmp, check), 0)
            html = (tmp / "summary.html").read_text()
            self.assertIn("<td>verified in 256 segments</td>", html)
            self.assertIn("<td>" + why + "</td>", html)

    def test_header_names_commit_device_driver_runtime_flags_and_reference_set(self):
        rows = dict(nightly.header(synthetic.check(), synthetic.suite()))
        self.assertEqual(rows["commit"], "abc1234")
        self.assertEqual(rows["device"], "NVIDIA H100 80GB HBM3")
        self.assertEqual(rows["driver"], "580.159.04")
        self.assertEqual(rows["CUDA runtime"], "13.0")
        self.assertIn("--fmad=false", rows["build flags"])
        self.assertIn("tetrahedron.h5 (fnv1a64 0123456789abcdef)", rows["reference set"])
        self.assertIn("recorded with 6fa6d42", rows["reference set"])

    def test_runs_that_disagree_are_all_named(self):
        check = synthetic.check()
        check["runs"][1]["provenance"] = dict(check["runs"][1]["provenance"], device_name="NVIDIA H200")
        self.assertIn("NVIDIA H200 (1 runs)", dict(nightly.header(check, {}))["device"])


class NightlyDocuments(unittest.TestCase):
    def test_three_nights_of_history_a_failing_report_and_no_broken_link(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            hist = tmp / "history"
            for k, (margin, fail) in enumerate(((0.01, False), (0.6, False), (0.9, True))):
                self.assertEqual(render(tmp / f"night{k}", synthetic.check(f"2026-11-2{k + 5}T02:30:00Z", margin, fail),
                                        hist), 0)
            nights = history.read(hist)
            self.assertEqual([n["verdict"] for n in nights], ["PASS", "PASS", "FAIL"])
            self.assertEqual(len((hist / "nights.jsonl").read_text().splitlines()), 3)
            # the margin of cycle.first_period over the nights, as the history draws it
            self.assertEqual(history.series(nights)["cycle.first_period"]["tetrahedron_ds-ds_dt0.01"], [0.01, 0.6, 0.9])
            self.assertNotIn("cycle.window_period", history.series(nights))  # skipped every night
            self.assertTrue((hist / "margins" / "scale-1" / "cycle.first_period.png").is_file())
            # rendering a night again replaces it, never adds one
            render(tmp / "night2", synthetic.check("2026-11-27T02:30:00Z", 0.9, True), hist)
            self.assertEqual(len(history.read(hist)), 3)

            html = (tmp / "night2" / "summary.html").read_text()
            order = [html.index(f'id="{s}"') for s in ("verdict", "provenance", "runs", "failures", "history",
                                                        "figures", "checks")]
            self.assertEqual(order, sorted(order))
            self.assertIn("<details>", html)
            failures = html.split('<table class="failures">')[1].split("</table>")[0]
            self.assertIn("<td>symmetry.max_abs_y1</td>", failures)
            self.assertIn("∞", failures)
            self.assertIn('href="margins.png"', failures)
            self.assertEqual(html.split('<table class="history">')[1].split("</table>")[0].count("<tr class="), 3)
            md = (tmp / "night2" / "summary.md").read_text()
            self.assertIn("# Nightly regression report: FAIL", md)
            self.assertIn("| tetrahedron_ds-ds_dt0.01 | **FAIL** |", md)
            for page in [tmp / f"night{k}" / "summary.html" for k in range(3)] + [hist / "index.html"] + \
                    sorted(hist.glob("nights/*/summary.html")):
                self.assertEqual(links.broken(page), [], page)
            self.assertEqual(len(list(hist.glob("nights/*/summary.html"))), 3)

    def test_quick_and_full_nights_are_never_one_trend_and_each_night_names_its_scale(self):
        # Two full-length nights around a quick one (--scale 0.01: short runs, margins of another size).
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            hist = tmp / "history"
            for k, (margin, scale) in enumerate(((0.001, 1.0), (0.5, 0.01), (0.002, 1.0))):
                self.assertEqual(render(tmp / f"night{k}", synthetic.check(f"2026-11-2{k + 5}T02:30:00Z", margin),
                                        hist, scale=scale), 0)
            # each report's history: the nights of its own scale, a scale column
            for k, rows, scale in ((2, 2, "1 (full length)"), (1, 1, "0.01")):
                html = (tmp / f"night{k}" / "summary.html").read_text()
                table = html.split('<table class="history">')[1].split("</table>")[0]
                self.assertEqual(table.count("<tr class="), rows, table)
                self.assertIn("<th>scale</th>", table)
                self.assertEqual(table.count(f"<td>{scale}</td>"), rows, table)
                md = (tmp / f"night{k}" / "summary.md").read_text().split("## History")[1].split("## Figures")[0]
                self.assertEqual(md.count(f"| {scale} |"), rows, md)
            # the index: a section per scale, full length first, each with its own margins over the nights
            index = (hist / "index.html").read_text()
            full, quick = index.split('id="scale-1"')[1], index.split('id="scale-0.01"')[1]
            self.assertLess(index.index('id="scale-1"'), index.index('id="scale-0.01"'))
            full = full.split('id="scale-0.01"')[0]
            self.assertIn("cycle.first_period: latest worst 0.002, worst ever 0.002", full)
            self.assertIn("cycle.first_period: latest worst 0.5, worst ever 0.5", quick)
            self.assertEqual(full.split('<table class="nights">')[1].split("</table>")[0].count("<tr class="), 2)
            self.assertTrue((hist / "margins" / "scale-1" / "cycle.first_period.png").is_file())
            self.assertTrue((hist / "margins" / "scale-0.01" / "cycle.first_period.png").is_file())
            self.assertEqual([history.scale_of(n) for n in history.read(hist)], [1.0, 0.01, 1.0])
            for page in [tmp / f"night{k}" / "summary.html" for k in range(3)] + [hist / "index.html"] + \
                    sorted(hist.glob("nights/*/summary.html")):
                self.assertEqual(links.broken(page), [], page)

    def test_runs_whose_reference_does_not_apply_are_named_not_checked_beside_the_verdict(self):
        cause = "reference recorded for 517000 tau_s, this run is 5170 tau_s: wrong --reference-dir or --scale?"
        check = synthetic.check()
        run = check["runs"][0]
        run.update(reference_mismatch=cause, passed=False,
                   checks=[{"observable": "run.length", "kind": "exact", "observed": "51700 steps, every 100th",
                            "reference": "5170000 steps, every 100th", "tolerance": "exact", "verdict": "fail",
                            "ratio": None, "detail": cause}])
        check.update(not_checked=1, passed=False)
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            self.assertEqual(render(tmp, check), 0)
            html = (tmp / "summary.html").read_text()
            top = html.split('id="provenance"')[0]
            self.assertIn(f"1 run not checked (its reference does not apply): {cause} (tetrahedron_ds-ds_dt0.01)", top)
            md = (tmp / "summary.md").read_text().split("## Runs")[0]
            self.assertIn(f"1 run not checked (its reference does not apply): {cause} (tetrahedron_ds-ds_dt0.01)", md)
            self.assertEqual(links.broken(tmp / "summary.html"), [])

    def test_a_broken_link_is_found(self):
        with tempfile.TemporaryDirectory() as tmp:
            page = pathlib.Path(tmp) / "a.html"
            page.write_text('<a href="missing.png">x</a><a href="#nowhere">y</a><img src="a.html"><p id="here">'
                            '<a href="#here">z</a><a href="https://example.org/x">w</a>')
            problems = links.broken(page)
            self.assertEqual(len(problems), 2, problems)


if __name__ == "__main__":
    unittest.main()
