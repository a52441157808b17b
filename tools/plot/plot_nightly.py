#!/usr/bin/python3
"""Report of a nightly regression run (ci/nightly): Markdown and HTML summaries of the reference
check, and the paper's figures from the results.

  tools/plot/plot_nightly.py --results DIR --check CHECK.json --out REPORT_DIR [--suite-summary S.json]

Figures (PNG, one per time step):
  fig4_period_amplitude_dt<dt>.png  period and amplitude per window of 1e4 tau_s, every precision mode
                                    (paper Fig. 4), the per-cycle values faint behind them, the
                                    reference windows dashed; a cross where periodicity was lost
  fig5_y1_dt<dt>.png                largest |y1| per block (paper Fig. 5; log scale, ds modes are
                                    exactly 0 and listed in the legend)
Needs the Debian packages python3-matplotlib, python3-h5py, python3-numpy (ci/setup installs them).
"""
import argparse
import html
import json
import pathlib
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from tetrahedron_figures import MODE_STYLE, draw_cycles, draw_y1, finish, label_fig4, label_fig5  # noqa: E402


def tetrahedron_runs(results):
    """{dt: [(mode, path)]} for the tetrahedron results in the directory."""
    runs = {}
    for path in sorted(pathlib.Path(results).glob("*.h5")):
        try:
            with h5py.File(path, "r") as f:
                if f["parameters/scenario"].attrs["name"] != "tetrahedron" or "analysis/cycle" not in f:
                    continue
                dt = float(f["parameters/run"].attrs["dt"])
                runs.setdefault(dt, []).append((f["parameters/run"].attrs["precision"], path))
        except (OSError, KeyError):
            continue
    return runs


def reference_windows(check, path):
    """The reference entry's window periods and amplitudes for a result, if the check found one."""
    for run in check.get("runs", []):
        if pathlib.Path(run["result_file"]).name != path.name or not run.get("entry"):
            continue
        try:
            with h5py.File(run["reference_file"], "r") as f:
                entry = f[run["entry"]]
                out = {}
                for name in ("cycle.window_period", "cycle.window_amplitude"):
                    if name in entry:
                        out[name] = (np.asarray(entry[name].attrs["window_end_time"]), np.asarray(entry[name][()]))
                return out
        except (OSError, KeyError):
            return {}
    return {}


def plot_fig4(dt, runs, check, out):
    fig, (ax_p, ax_a) = plt.subplots(2, 1, figsize=(9, 7.5), sharex=True)
    for mode, path in sorted(runs):
        colour = MODE_STYLE.get(mode, "grey")
        with h5py.File(path, "r") as f:
            width = draw_cycles(ax_p, ax_a, f["analysis/cycle"], colour, mode)
        ref = reference_windows(check, path)
        for ax, name in ((ax_p, "cycle.window_period"), (ax_a, "cycle.window_amplitude")):
            if name in ref:
                end, value = ref[name]
                ax.plot(end - 0.5 * width, value, "--", color=colour, lw=0.8)
    label_fig4(ax_p, ax_a)
    return finish(fig, ax_p, f"Tetrahedron, dt = {dt:g}: window means (dots), per cycle (faint), reference (dashed), "
                  "loss of periodicity (dotted)  [paper Fig. 4]", out, f"fig4_period_amplitude_dt{dt:g}.png")


def plot_fig5(dt, runs, out):
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for mode, path in sorted(runs):
        with h5py.File(path, "r") as f:
            draw_y1(ax, f["observables/symmetry/y1/time"][()], f["analysis/symmetry/y1_block_max_abs"][()],
                    MODE_STYLE.get(mode, "grey"), mode)
    label_fig5(ax)
    return finish(fig, ax, f"Tetrahedron, dt = {dt:g}: deviation of particle 1 from the xz-plane  [paper Fig. 5]",
                  out, f"fig5_y1_dt{dt:g}.png")


def rows(check):
    for run in check.get("runs", []):
        for c in run["checks"]:
            yield run, c


def write_markdown(check, suite, figures, out):
    failed = [(r, c) for r, c in rows(check) if c["verdict"] == "fail"]
    lines = ["# Nightly regression report", ""]
    verdict = "PASS" if check.get("passed") else "FAIL"
    lines.append(f"**{verdict}**: {int(check.get('checks', 0))} checks, {int(check.get('failed', 0))} failed, "
                 f"{len(check.get('runs', []))} runs.")
    if suite:
        lines.append(f"Suite `{suite.get('suite')}` ({suite.get('manifest')}), scale {suite.get('scale')}, "
                     f"wall time {suite.get('wall_seconds', 0):.0f} s.")
    lines.append("")
    if failed:
        lines += ["## Failures", "", "| run | observable | observed | reference | tolerance | why |", "|---|---|---|---|---|---|"]
        for r, c in failed:
            lines.append(f"| {r['run']} | {c['observable']} | {c['observed']} | {c['reference']} | {c['tolerance']} | "
                         f"{c['detail'].replace('|', '/')} |")
        lines.append("")
    lines += ["## Figures", ""] + [f"![{f}]({f})" for f in figures] + [""]
    lines += ["## All checks", "", "| run | observable | observed | reference | tolerance | verdict |",
              "|---|---|---|---|---|---|"]
    for r, c in rows(check):
        lines.append(f"| {r['run']} | {c['observable']} | {c['observed']} | {c['reference']} | {c['tolerance']} | "
                     f"{'pass' if c['verdict'] == 'pass' else '**FAIL**'} |")
    notes = [f"- {r['run']}: {r['note']}" for r in check.get("runs", []) if r.get("note")]
    if notes:
        lines += ["", "## Notes", ""] + notes
    if suite:
        lines += ["", "## Runs", "", "| run | backend | state | steps | wall time / s |", "|---|---|---|---|---|"]
        for r in suite.get("runs", []):
            lines.append(f"| {r['name']} | {r['backend']} | {r['state']} | {int(r['steps'])} | {r['wall_seconds']:.1f} |")
    (out / "summary.md").write_text("\n".join(lines) + "\n")


def write_html(check, suite, figures, out):
    e = html.escape
    verdict = "PASS" if check.get("passed") else "FAIL"
    colour = "#1a7f37" if check.get("passed") else "#cf222e"
    parts = ["<!doctype html><html><head><meta charset='utf-8'><title>Nightly regression report</title><style>",
             "body{font-family:sans-serif;margin:2em} table{border-collapse:collapse;font-size:13px}",
             "td,th{border:1px solid #ccc;padding:3px 6px;text-align:left} tr.fail{background:#ffebe9}",
             "img{max-width:100%}</style></head><body>",
             f"<h1>Nightly regression report: <span style='color:{colour}'>{verdict}</span></h1>",
             f"<p>{int(check.get('checks', 0))} checks, {int(check.get('failed', 0))} failed, "
             f"{len(check.get('runs', []))} runs.</p>"]
    if suite:
        parts.append(f"<p>Suite <code>{e(str(suite.get('suite')))}</code>, scale {suite.get('scale')}, "
                     f"wall time {suite.get('wall_seconds', 0):.0f} s.</p>")
    parts.append("<table><tr><th>run</th><th>observable</th><th>observed</th><th>reference</th><th>tolerance</th>"
                 "<th>verdict</th><th>detail</th></tr>")
    ordered = sorted(rows(check), key=lambda rc: rc[1]["verdict"] == "pass")
    for r, c in ordered:
        cls = "" if c["verdict"] == "pass" else " class='fail'"
        parts.append(f"<tr{cls}><td>{e(r['run'])}</td><td>{e(c['observable'])}</td><td>{e(c['observed'])}</td>"
                     f"<td>{e(c['reference'])}</td><td>{e(c['tolerance'])}</td><td>{e(c['verdict'])}</td>"
                     f"<td>{e(c['detail'])}</td></tr>")
    parts.append("</table>")
    for f in figures:
        parts.append(f"<h2>{e(f)}</h2><img src='{e(f)}'>")
    parts.append("</body></html>")
    (out / "summary.html").write_text("\n".join(parts) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", required=True, help="directory of result files (.h5)")
    p.add_argument("--check", required=True, help="JSON written by stokesian reference check --json")
    p.add_argument("--suite-summary", help="suite-summary.json written by stokesian suite run")
    p.add_argument("--out", required=True, help="report directory")
    a = p.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    check = json.loads(pathlib.Path(a.check).read_text()) if pathlib.Path(a.check).exists() else {}
    suite = json.loads(pathlib.Path(a.suite_summary).read_text()) if a.suite_summary and pathlib.Path(a.suite_summary).exists() else {}
    figures = []
    for dt, runs in sorted(tetrahedron_runs(a.results).items(), reverse=True):
        figures.append(plot_fig4(dt, runs, check, out))
        figures.append(plot_fig5(dt, runs, out))
    write_markdown(check, suite, figures, out)
    write_html(check, suite, figures, out)
    print(f"report: {out / 'summary.md'}, {out / 'summary.html'}, {len(figures)} figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
