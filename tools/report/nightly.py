"""The nightly regression report (ci/nightly): summary.html and summary.md from check.json (written
by `stokesian reference check --json`), suite-summary.json (`stokesian suite run`) and the result
files, in the order a CI user reads it: the verdict and where it ran (commit, date, host, device,
driver, CUDA runtime, build flags, reference set), one row per run (checks, worst margin, bit for
bit, wall time), the failures with their margin and the figure that shows them, the figures, the
history over the nights, and last the full check table (collapsed)."""
import datetime
import math
import os
import pathlib

from . import common, history, negative_control, nightly_figures, schema

# Provenance shown in the header: label and the key of a run's provenance (check.json runs[].provenance).
HEADER = [("commit", "git_commit"), ("date", "date"), ("host", "host"), ("device", "device_name"),
          ("compute capability", "compute_capability"), ("device code", "device_code"), ("driver", "driver_version"),
          ("CUDA runtime", "runtime_version"), ("backend", "backend"), ("HI kernel", "hi_kernel")]
BUILD_FLAGS = ["build_type", "compiler", "host_fp_flags", "cuda_fp_flags", "cuda_architectures"]


def margin_of(check):
    """|observed - reference| / tolerance of a check row: its ratio; JSON null is infinite for a failed
    row (the writer stores infinities as null) and "not applicable" otherwise."""
    ratio = check.get("ratio")
    if ratio is None:
        return math.inf if check.get("verdict") == "fail" else None
    return float(ratio)


def entry_parts(entry):
    """(precision mode, dt) of a reference entry path "/[case/]hi=..,int=../dt=0.01/euler/cpu"."""
    mode = dt = None
    for part in (entry or "").split("/"):
        if part.startswith("hi="):
            mode = part
        elif part.startswith("dt="):
            try:
                dt = float(part[3:])
            except ValueError:
                dt = None
            if dt is not None and not math.isfinite(dt):  # "dt=nan": no time step (the history stores finite numbers)
                dt = None
    return mode, dt


def distinct(values):
    """One value, or "A (3 runs); B (2 runs)" when the runs disagree; "–" when none is known."""
    counts = {}
    for v in values:
        if v not in (None, "", "-"):
            counts[v] = counts.get(v, 0) + 1
    if not counts:
        return "–"
    if len(counts) == 1:
        return next(iter(counts))
    return "; ".join(f"{v} ({n} runs)" for v, n in sorted(counts.items(), key=lambda kv: -kv[1]))


def night_name(check):
    date = check.get("provenance", {}).get("date", "")
    try:
        return datetime.datetime.strptime(date, "%Y-%m-%dT%H:%M:%SZ").strftime("%Y%m%dT%H%M%SZ")
    except ValueError:
        return datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def header(check, suite):
    """The provenance the header shows: every run's (the commit, device, ... of what ran) and the
    check's (the reference set)."""
    runs = check.get("runs", [])
    prov = [r.get("provenance", {}) for r in runs]
    rows = [(label, distinct(p.get(key) for p in prov)) for label, key in HEADER]
    flags = "; ".join(f"{k} {distinct(p.get(k) for p in prov)}" for k in BUILD_FLAGS
                      if distinct(p.get(k) for p in prov) != "–")
    rows.append(("build flags", flags or "–"))
    ref = check.get("provenance", {})
    recorded = distinct(r.get("reference_provenance", {}).get("recorded_with") for r in runs)
    files = ", ".join(f"{pathlib.Path(f['file']).name} ({f['digest_algorithm']} {f['digest']})"
                      for f in ref.get("reference_files", []))
    rows.append(("reference set", f"{ref.get('reference_dir', '–')}: {files or 'no file read'}; "
                                  f"entries recorded with {recorded}"))
    if suite:
        rows.append(("suite", f"{suite.get('suite')} ({suite.get('manifest')}), scale {common.num(suite.get('scale'))}, "
                              f"wall time {common.duration(suite.get('wall_seconds'))}"))
    rows.append(("checked", f"{ref.get('date', '–')} on {ref.get('host', '–')} by stokesian {ref.get('version', '–')}"))
    return rows


def model(check, suite, figures_by_dt, margins_figure):
    """Everything the templates show, from the data (no formatting here beyond figure links)."""
    suite_runs = {r["name"]: r for r in (suite or {}).get("runs", [])}
    runs, failures, checks = [], [], []
    counts = {"runs": 0, "checks": 0, "passed": 0, "skipped": 0, "failed": 0}
    for run in check.get("runs", []):
        mode, dt = entry_parts(run.get("entry"))
        scenario = pathlib.Path(run.get("reference_file", "")).stem
        s = suite_runs.get(run["run"], {})
        prov = run.get("provenance", {})
        wall = s.get("wall_seconds")
        if wall is None and prov.get("wall_seconds"):
            wall = float(prov["wall_seconds"])
        tally = {"pass": 0, "skip": 0, "fail": 0}
        worst, worst_name = None, "–"
        for c in run.get("checks", []):
            verdict = c.get("verdict", "fail")
            tally[verdict] = tally.get(verdict, 0) + 1
            m = margin_of(c) if verdict != "skip" else None
            if m is not None and (worst is None or m > worst):
                worst, worst_name = m, c["observable"]
            figure = nightly_figures.figure_for(scenario, c["observable"], dt, figures_by_dt, margins_figure)
            row = dict(run=run["run"], observable=c["observable"], kind=c.get("kind", ""),
                       observed=c.get("observed", ""), reference=c.get("reference", ""),
                       tolerance=c.get("tolerance", ""), verdict=verdict, margin=m, detail=c.get("detail", ""),
                       figure=figure, anchor=anchor(run["run"], c["observable"]))
            checks.append(row)
            if verdict == "fail":
                failures.append(row)
        counts["runs"] += 1
        counts["checks"] += sum(tally.values())
        counts["passed"] += tally["pass"]
        counts["skipped"] += tally["skip"]
        counts["failed"] += tally["fail"]
        if worst == 0:
            worst_name = "every compared check exact"
        runs.append(dict(name=run["run"], scenario=scenario, mode=mode or "–", dt=dt, passed=tally["fail"] == 0,
                         tally=tally, worst_margin=worst, worst_observable=worst_name,
                         bitwise=run.get("bitwise_identical") if run.get("entry") else None,
                         wall_seconds=wall, steps=s.get("steps"), state=s.get("state", prov.get("status", "")),
                         note=run.get("note", ""), batch=batch_of(run["run"], prov),
                         verification=prov.get("verification", ""), anchor=anchor(run["run"])))
    failures.sort(key=lambda r: -(r["margin"] if r["margin"] is not None else math.inf))
    # Runs whose reference does not apply (another run length: a wrong --reference-dir or --scale):
    # their one failed row is that cause, not a regression found. Each cause once, with its runs.
    causes = {}
    for r in check.get("runs", []):
        if r.get("reference_mismatch"):
            causes.setdefault(r["reference_mismatch"], []).append(r["run"])
    not_checked = dict(runs=sum(map(len, causes.values())), causes=sorted(causes.items()))
    return dict(passed=counts["failed"] == 0 and bool(check.get("passed", True)), counts=counts, runs=runs,
                failures=failures, checks=checks, not_checked=not_checked)


def batch_of(name, prov):
    """How a run ran: "" alone, else its batch (stokesian/run/batched_runs.hpp) and the other runs in it."""
    batch = prov.get("batch_id", "")
    if not batch:
        return ""
    others = [m for m in prov.get("batch_members", "").split(",") if m and m != name and not m.endswith("/" + name)]
    return batch + (" with " + ", ".join(others) if others else "")


def anchor(*parts):
    return "check-" + "-".join("".join(ch if ch.isalnum() or ch in "._" else "_" for ch in p) for p in parts)


def render(args):
    out = pathlib.Path(args.report)
    check_path = pathlib.Path(args.check) if args.check else out / "check.json"
    results = pathlib.Path(args.results) if args.results else out / "results"
    suite_path = pathlib.Path(args.suite_summary) if args.suite_summary else results / "suite-summary.json"
    check = schema.load(check_path, schema.CHECK)
    suite = schema.load(suite_path, schema.SUITE) if suite_path.exists() else {}
    out.mkdir(parents=True, exist_ok=True)

    figures, figures_by_dt, margins_figure = [], {}, None
    if not args.no_figures:
        figures, figures_by_dt = nightly_figures.tetrahedron_figures(results, check, out)
        margins_figure = nightly_figures.margins_figure(check, out)
        if margins_figure:
            figures.append(margins_figure)
    m = model(check, suite, figures_by_dt, margins_figure["file"] if margins_figure else None)
    name = args.night or night_name(check)
    context = dict(title="Nightly regression report", night=name, header=header(check, suite),
                   negative_control=negative_verdict(out), figures=figures, history=None, links=local_links(out), **m)

    if args.history:
        hist = pathlib.Path(args.history)
        record = history.night_record(name, check, suite, m, context["negative_control"])
        nights = history.append(hist, record)
        # The report's own history section: the nights of its scale (a quick night's margins are of
        # another size than a full one's), its figure in the report folder, so the folder stands alone.
        scale = history.scale_of(record)
        same = [n for n in nights if history.scale_of(n) == scale]
        trend = None if args.no_figures else history.trend_figure(same, out / "history_margins.png")
        base = os.path.relpath(hist, out)
        context["history"] = dict(nights=history.recent(same), scale=history.scale_text(scale),
                                  other_scales=len(nights) - len(same), figure=trend,
                                  index=f"{base}/index.html#{history.scale_name(scale)}", base=base)
        _write(out, context)
        # The copy kept in the history folder links to the history's index from there.
        kept = hist / "nights" / name
        history.keep_report(out, kept)
        _write(kept, dict(context, history=dict(context["history"], base="../..",
                                                index=f"../../index.html#{history.scale_name(scale)}"),
                          links=local_links(kept)))
        history.render_index(hist, nights)
    else:
        _write(out, context)
    verdict = "PASS" if m["passed"] else "FAIL"
    if context["negative_control"]:
        verdict += "; negative control " + ("PASS" if context["negative_control"]["passed"] else "FAIL")
    print(f"report: {out / 'summary.html'}, {out / 'summary.md'} ({verdict}, {len(figures)} figures"
          f"{', history ' + str(args.history) if args.history else ''})")
    return 0


def negative_verdict(folder):
    """The verdict of the negative control run beside the night (ci/nightly --negative-control:
    folder/negative-control/check.json and its suite's summary), None where it did not run."""
    control = pathlib.Path(folder) / "negative-control"
    if not (control / "check.json").is_file():
        return None
    summary = control / "results" / "suite-summary.json"
    return negative_control.verdict(schema.load(control / "check.json", schema.CHECK),
                                    schema.load(summary, schema.SUITE) if summary.is_file() else None)


def local_links(folder):
    """Links to the other files of a ci/nightly report folder, where they exist."""
    out = []
    for name, what in (("check.txt", "the check table as printed"), ("check.json", "the data of this report"),
                       ("junit.xml", "JUnit XML"), ("suite.log", "the suite's log"),
                       ("negative-control/verdict.txt", "the negative control's verdict"),
                       ("negative-control/check.txt", "the negative control's checks")):
        if (folder / name).is_file():
            out.append((name, what))
    return out


def _write(folder, context):
    common.write(folder / "summary.html", "nightly.html.j2", **context)
    common.write(folder / "summary.md", "nightly.md.j2", **context)
