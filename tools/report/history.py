"""The nightly history (`ci/nightly --history DIR`): DIR/nights.jsonl holds one JSON line per night
(its verdict, scale, provenance and every check's margin), DIR/nights/<night>/ a copy of the night's
report (documents, figures, check data; no result files), DIR/margins/scale-<F>/<observable>.png the
margin of each observable over the nights of one suite scale, one line per run, and DIR/index.html a
section per scale: its nights, newest first, with those figures: a drift creeping towards its
tolerance shows before it fails. Nights of different scales (`--scale`: the quick nights' short runs
against their own references) are never one trend: their margins are of other sizes."""
import json
import math
import pathlib
import shutil
import sys

import matplotlib.pyplot as plt
import numpy as np

from . import common, schema

FLOOR, CEILING = 1e-6, 1e3  # margins drawn: exact matches at FLOOR, infinite ones at CEILING


def _margin(value, verdict):
    """A stored margin back to a number: null is infinite for a failure, "not compared" otherwise."""
    if value is None:
        return math.inf if verdict == "fail" else None
    return float(value)


def _stored(value):
    return None if value is None or not math.isfinite(value) else value


def scale_of(night):
    """A night's suite scale (`suite run --scale`; 1 is full length), None where it is not known."""
    return (night.get("suite") or {}).get("scale")


def scale_text(scale):
    return "–" if scale is None else "1 (full length)" if scale == 1 else f"{scale:g}"


def scale_name(scale):
    """The scale in a file or anchor name: "scale-1", "scale-0.01", "scale-unknown"."""
    return "scale-" + ("unknown" if scale is None else f"{scale:g}")


def by_scale(nights):
    """[(scale, its nights, oldest first)]: full length first, then the larger scales, unknown last."""
    groups = {}
    for n in nights:
        groups.setdefault(scale_of(n), []).append(n)
    return sorted(groups.items(), key=lambda kv: (kv[0] is None, -(kv[0] or 0)))


def night_record(name, check, suite, model, negative=None):
    """One night as a JSON-ready dict (nightly.model(...) gives `model`, negative_control.verdict(...)
    `negative`: None where the negative control did not run)."""
    prov = check.get("provenance", {})

    def runs_say(key):
        values = sorted({r.get("provenance", {}).get(key) for r in check.get("runs", [])} - {None, "", "-"})
        return ", ".join(values) if values else None

    runs = []
    for run in model["runs"]:
        checks = {c["observable"]: [_stored(c["margin"]), c["verdict"]] for c in model["checks"]
                  if c["run"] == run["name"]}
        runs.append(dict(run=run["name"], mode=run["mode"], dt=run["dt"], passed=run["passed"],
                         worst_margin=_stored(run["worst_margin"]), worst_observable=run["worst_observable"],
                         bitwise=run["bitwise"], wall_seconds=run["wall_seconds"], checks=checks))
    return dict(night=name, date=prov.get("date"), verdict="PASS" if model["passed"] else "FAIL",
                negative_control=None if negative is None else "PASS" if negative["passed"] else "FAIL",
                counts=model["counts"],
                provenance=dict(commit=runs_say("git_commit"), device=runs_say("device_name"),
                                device_code=runs_say("device_code"),
                                driver=runs_say("driver_version"), runtime=runs_say("runtime_version"),
                                host=runs_say("host"), backend=runs_say("backend"),
                                build_flags="; ".join(filter(None, (runs_say(k) for k in (
                                    "build_type", "compiler", "host_fp_flags", "cuda_fp_flags",
                                    "cuda_architectures")))),
                                reference_dir=prov.get("reference_dir"),
                                reference_files=prov.get("reference_files", []), checked_with=prov.get("version")),
                suite=dict(name=(suite or {}).get("suite"), scale=(suite or {}).get("scale"),
                           wall_seconds=(suite or {}).get("wall_seconds")),
                runs=runs, report=f"nights/{name}/summary.html")


def _lines(folder):
    """(nights, unread lines) of folder/nights.jsonl: the lines that are nights (schema.NIGHT), and the
    others as they stand, each reported on stderr (FILE:LINE: what is wrong) and left out of the
    history: the history is secondary to the night being rendered, and one bad line must not cost it."""
    path = pathlib.Path(folder) / "nights.jsonl"
    if not path.exists():
        return [], []
    nights, unread = [], []
    for number, line in enumerate(path.read_bytes().splitlines(), 1):
        if line.strip():
            try:
                nights.append(schema.parse(line, schema.NIGHT, f"{path}:{number}", folder))
            except schema.BadDocument as e:
                print(f"tools/report: {e}; the line is left out of the history (and kept in the file)",
                      file=sys.stderr)
                unread.append(line)
    return nights, unread


def read(folder):
    """The nights of folder/nights.jsonl, as stored (lines that are no night reported and left out)."""
    return _lines(folder)[0]


def append(folder, record):
    """Adds a night (replacing one of the same name: a night rendered again) and returns every night,
    oldest first. The file is written whole, then renamed; lines that are no night stay in it, first,
    unchanged (a person may mend them)."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stored, unread = _lines(folder)
    nights = [n for n in stored if n["night"] != record["night"]] + [record]
    nights.sort(key=lambda n: n["night"])
    tmp = folder / "nights.jsonl.tmp"
    tmp.write_bytes(b"".join(line + b"\n" for line in unread) +
                    "".join(json.dumps(n, allow_nan=False, separators=(",", ":")) + "\n" for n in nights).encode())
    tmp.replace(folder / "nights.jsonl")
    return nights


def keep_report(src, dst):
    """The small files of a report folder (documents, figures, check data) into dst."""
    dst.mkdir(parents=True, exist_ok=True)
    for f in pathlib.Path(src).iterdir():
        if f.is_file() and f.suffix in (".html", ".md", ".png", ".json", ".xml", ".txt"):
            shutil.copy2(f, dst / f.name)


def run_margin(run):
    """A stored run's worst margin (infinite for a failed run whose worst is stored as null)."""
    return _margin(run["worst_margin"], "pass" if run["passed"] else "fail")


def recent(nights, count=10):
    """The last nights, newest first, as the report's history table shows them."""
    out = []
    for n in reversed(nights[-count:]):
        compared = [r for r in n["runs"] if run_margin(r) is not None]
        worst = max(compared, key=run_margin, default=None)
        out.append(dict(night=n["night"], date=n.get("date"), verdict=n["verdict"], counts=n["counts"],
                        scale=scale_text(scale_of(n)), negative_control=n.get("negative_control"),
                        commit=n["provenance"].get("commit"), device=n["provenance"].get("device"),
                        worst_margin=None if worst is None else run_margin(worst),
                        worst=None if worst is None else f"{worst['run']}: {worst['worst_observable']}",
                        report=n.get("report"), wall_seconds=(n.get("suite") or {}).get("wall_seconds")))
    return out


def series(nights):
    """{observable: {run: [margin or None per night]}} over the nights, oldest first."""
    out = {}
    for k, n in enumerate(nights):
        for r in n["runs"]:
            for observable, (value, verdict) in r["checks"].items():
                if verdict == "skip":
                    continue
                m = _margin(value, verdict)
                if m is None:
                    continue
                out.setdefault(observable, {}).setdefault(r["run"], [None] * len(nights))[k] = m
    return out


def _draw(ax, nights, runs, title):
    x = np.arange(len(nights))
    for run, values in sorted(runs.items()):
        y = np.array([np.nan if v is None else min(max(v, FLOOR), CEILING) for v in values])
        line, = ax.plot(x, y, "o-", ms=3, lw=1, label=run)
        bad = np.array([v is not None and v > 1 for v in values])
        if bad.any():
            ax.plot(x[bad], y[bad], "o", color="tab:red", ms=6, mfc="none")
    ax.axhline(1.0, color="tab:red", lw=1)
    ax.set_yscale("log")
    ax.set_ylim(FLOOR / 2, CEILING * 2)
    ax.set_xticks(x)
    ax.set_xticklabels([n["night"][4:13] for n in nights], rotation=45, fontsize=6)
    ax.set_title(title, fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)


def trend_figure(nights, path, panels=6):
    """The observables whose margins came closest to (or beyond) their tolerance over the nights (of
    one scale), one panel each, a line per run: the report's history figure. Returns the file name
    (None: no data)."""
    data = series(nights)
    if not data:
        return None
    def largest(observable):
        return max(v for values in data[observable].values() for v in values if v is not None)

    worst = sorted(data, key=lambda o: -largest(o))[:panels]
    rows = math.ceil(len(worst) / 2)
    fig, axes = plt.subplots(rows, 2, figsize=(10, 2.6 * rows), squeeze=False)
    for ax, observable in zip(axes.flat, worst):
        _draw(ax, nights, data[observable], f"{observable}: margin over the nights (1 = tolerance)")
    for ax in list(axes.flat)[len(worst):]:
        ax.axis("off")
    fig.suptitle(f"Closest to their tolerance over {len(nights)} nights at scale {scale_text(scale_of(nights[-1]))}, "
                 "a line per run (the others: history index)", fontsize=9)
    fig.tight_layout()
    return common.save_figure(fig, path, dpi=90)


def file_name(observable):
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in observable) + ".png"


def render_index(folder, nights=None):
    """index.html of a history folder and its figures, per scale: margins/scale-<F>/<observable>.png
    and overview-scale-<F>.png."""
    folder = pathlib.Path(folder)
    nights = read(folder) if nights is None else nights
    if not nights:
        raise ValueError(f"{folder / 'nights.jsonl'}: no night recorded")
    scales = []
    for scale, group in by_scale(nights):
        name = scale_name(scale)
        scales.append(dict(scale=scale_text(scale), anchor=name, count=len(group),
                           figures=_margin_figures(folder, name, group), overview=_overview(folder, name, group),
                           nights=[dict(n, exists=(folder / n["report"]).is_file())
                                   for n in recent(group, len(group))]))
    common.write(folder / "index.html", "history.html.j2", scales=scales, count=len(nights))
    return folder / "index.html"


def _margin_figures(folder, name, nights):
    """margins/<name>/<observable>.png over `nights` (one scale), highest latest margin first."""
    (folder / "margins" / name).mkdir(parents=True, exist_ok=True)
    figures = []
    for observable, runs in sorted(series(nights).items()):
        fig, ax = plt.subplots(figsize=(6, 2.8))
        _draw(ax, nights, runs, f"{observable}: margin |observed - reference| / tolerance over the nights")
        if len(runs) <= 10:
            ax.legend(fontsize=5, ncol=2)
        fig.tight_layout()
        file = common.save_figure(fig, folder / "margins" / name / file_name(observable), dpi=80)
        worst = max((v for vs in runs.values() for v in vs if v is not None), default=None)
        latest = max((vs[-1] for vs in runs.values() if vs[-1] is not None), default=None)
        figures.append(dict(observable=observable, file=f"margins/{name}/{file}", worst=worst, latest=latest))
    figures.sort(key=lambda f: -(f["latest"] if f["latest"] is not None else -1))
    return figures


def _overview(folder, name, nights):
    """overview-<name>.png: the worst margin of any check and the failed checks, night by night."""
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 4.5), sharex=True)
    x = np.arange(len(nights))
    worst = []
    for n in nights:
        ms = [m for m in map(run_margin, n["runs"]) if m is not None]
        worst.append(min(max(max(ms), FLOOR), CEILING) if ms else np.nan)
    ax1.semilogy(x, worst, "o-", color="black")
    ax1.axhline(1.0, color="tab:red", lw=1)
    ax1.set_ylabel("worst margin", fontsize=8)
    ax1.set_title(f"{len(nights)} nights at scale {scale_text(scale_of(nights[-1]))}: the worst margin of any "
                  "check, and the failed checks", fontsize=9)
    ax2.bar(x, [n["counts"]["failed"] for n in nights], color="tab:red")
    ax2.set_ylabel("failed checks", fontsize=8)
    ax2.set_xticks(x)
    ax2.set_xticklabels([n["night"][:13] for n in nights], rotation=45, fontsize=6)
    fig.tight_layout()
    return common.save_figure(fig, folder / f"overview-{name}.png", dpi=90)
