"""The port-check report (`stokesian port-check compare --report DIR`): report.md, report.html, the
data of the plots as CSV (histograms.csv, verdicts.csv) and the figures, from DIR/report.json (every
number and verdict computed by the C++ command; engine/docs/porting.md explains them)."""
import csv
import math
import pathlib

from . import common, schema

BOUND_TEXT = (
    "Bound per component: |v^A_ic - v^B_ic| <= B_ic = f A_ic + N 2^-125, with A_ic = sum_j |mu_ij| |F_j| (absolute "
    "evaluation of every pair term, in double, stored in the record) and f = 2 [gamma_{{N-1}}(u_a)(1 + k u_w) + k u_w], "
    "gamma_n(u) = n u / (1 - n u): each of the two results is the exact sum up to a reordered sum of N terms in the "
    "accumulator (u_a = 2^-24 f32, 2^-47 ds (DWPlusFP), 2^-53 f64) and up to k u_w per term (k = {k}: the roundings on "
    "the longest path of a pair term, with approximate rsqrt, division and square root of the fast kernels and the "
    "paper-fast flags; u_w = 2^-24 for f32 and ds, 2^-53 for f64). N 2^-125 covers subnormal terms flushed to zero "
    "(--ftz=true). Derivation: engine/docs/porting.md.")


def term_allowances(report):
    """'80 (rotne-prager)': k of each tensor the record names (report.json's term_allowances)."""
    return ", ".join(f"{common.num(k)} ({tensor})" for tensor, k in report["term_allowances"].items())


FIGURES = ("verdicts.png", "ulp_histograms.png", "relative_histograms.png")


def csv_number(x):
    """%.6g as the earlier C++ writer had it; inf and nan spelled out."""
    if x is None:
        return "inf"
    return f"{x:.6g}"


def write_csvs(folder, report):
    rows = report["comparisons"]
    with open(folder / "histograms.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["configuration", "mode", "kind", "bin", "label", "count"])
        for r in rows:
            for kind in ("ulp", "relative"):
                for k, (label, count) in enumerate(zip(r[f"{kind}_histogram_labels"], r[f"{kind}_histogram"])):
                    w.writerow([r["configuration"], r["mode"], kind, k, label, count])
    with open(folder / "verdicts.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["configuration", "mode", "verdict", "max_bound_ratio", "max_ulp", "max_relative"])
        for r in rows:
            w.writerow([r["configuration"], r["mode"], r["verdict"], csv_number(r["max_bound_ratio"]),
                        csv_number(r["max_ulp"]), csv_number(r["max_relative"])])


def provenance_rows(records):
    """(label, A, B) for every key either record holds, section by section: the build, the device
    (the architecture of the code that ran included), the settings, the run."""
    a, b = records["a"], records["b"]
    rows = [("file", a["file"], b["file"])]
    for section in ("build", "device", "settings", "run"):
        keys = sorted(set(a[section]) | set(b[section]))
        for k in keys:
            label = "git describe" if (section, k) == ("build", "version") else k
            rows.append((label, a[section].get(k, "-"), b[section].get(k, "-")))
    return rows


def ratio(value, verdict):
    """max |dv| / bound: JSON has no infinity (null), which a FAIL means where the bound is 0."""
    return math.inf if value is None and str(verdict).startswith("FAIL") else value


def context(report, figures, plot_note):
    n = common.num
    verdicts = []
    for m in report["modes"]:
        failed, ok = m["long_runs_failed"], m["long_runs_passed"]
        long_run = (f"FAIL ({failed} of {ok + failed} runs)" if failed else f"pass ({ok} runs)" if ok else "-")
        worst = m["worst_configuration"]
        verdicts.append([m["mode"], m["verdict"] if m["compared"] else "-", worst or "-",
                         n(ratio(m["max_bound_ratio"], m["verdict"])) if worst else "-", n(m["max_ulp"], 4) if m["compared"] else "-",
                         n(m["max_relative"]) if m["compared"] else "-", n(m["bound_factor"]) if m["compared"] else "-",
                         long_run])
    detail, runs = [], []
    for r in report["comparisons"]:
        detail.append([r["configuration"], str(r["particles"]), r["mode"], r["verdict"],
                       f"{r['differing_components']} / {3 * r['particles']}", n(r["max_ulp"], 4), n(r["median_ulp"]),
                       n(r["max_relative"]), n(r["rms_relative"]), n(ratio(r["max_bound_ratio"], r["verdict"])),
                       f"({r['worst_particle']}, {r['worst_component']})" if r["differing_components"] else "-"])
        if "run_bitwise" in r:
            runs.append([r["configuration"], r["mode"], "bitwise" if r["run_bitwise"] else "differs",
                         n(r["run_max_position_difference"]), n(r["run_max_relative_velocity"])])
    observables = [[c["run"], c["mode"], c["entry"] or "(none)", "pass" if c["passed"] else "FAIL",
                    f"{c['failed_checks']} / {c['checks']}", c["first_failure"]] for c in report["long_run_checks"]]
    return dict(report=report, passed=report["passed"], bound_text=BOUND_TEXT.format(k=term_allowances(report)),
                verdicts=dict(header=["mode", "verdict", "worst configuration", "max |dv| / bound", "max ULP",
                                      "max |dv|/|v|", "bound factor (N max)", "long-run observables"], rows=verdicts),
                detail=dict(header=["configuration", "N", "mode", "verdict", "differing components", "max ULP",
                                    "median ULP", "max |dv|/|v|", "rms |dv|/|v|", "max |dv|/bound",
                                    "worst (particle, component)"], rows=detail),
                runs=dict(header=["configuration", "mode", "short run", "max |dr| (a)", "max |dv| / max |v|"],
                          rows=runs),
                observables=dict(header=["run", "mode", "entry", "verdict", "failed checks", "first failure"],
                                 rows=observables),
                provenance=dict(header=["", "A", "B"], rows=provenance_rows(report["records"])),
                figures=figures, plot_note=plot_note)


def cell_class(cell):
    cell = str(cell)
    if cell.startswith("FAIL"):
        return "fail"
    if cell == "bitwise":
        return "bitwise"
    if cell == "within rounding bound" or cell.startswith("pass"):
        return "pass"
    return ""


def render(args):
    folder = pathlib.Path(args.report)
    report = schema.load(folder / "report.json", schema.PORT_CHECK)
    write_csvs(folder, report)
    figures, note = [], ""
    if not args.no_figures:
        from . import port_check_figures as pf
        hist, verdicts = pf.read_csv(folder / "histograms.csv"), pf.read_csv(folder / "verdicts.csv")
        try:
            pf.verdict_plot(verdicts, folder / "verdicts.png")
            pf.histograms(hist, "ulp", folder / "ulp_histograms.png", "ULP differences (storage type of the mode)")
            pf.histograms(hist, "relative", folder / "relative_histograms.png", "relative differences |dv_ic| / |v_i|")
        except (ValueError, IndexError) as e:
            note = f"figures failed: {e}"
        figures = [f for f in FIGURES if (folder / f).is_file()]
    ctx = context(report, figures, note)
    common.write(folder / "report.md", "port_check.md.j2", **ctx)
    env_ctx = dict(ctx, cell_class=cell_class)
    common.write(folder / "report.html", "port_check.html.j2", **env_ctx)
    print(f"port-check report: {folder / 'report.md'}, {folder / 'report.html'}, {len(figures)} figures")
    return 0
