"""Command line of the renderer (see __init__.py). Exit status: 0 rendered, 2 bad arguments or
unreadable data, 3 a Python package missing (the message names it and the Debian package)."""
import argparse
import importlib
import sys

DEBIAN = {"jinja2": "python3-jinja2", "matplotlib": "python3-matplotlib", "h5py": "python3-h5py",
          "numpy": "python3-numpy"}


def missing_packages():
    missing = []
    for module, package in DEBIAN.items():
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(f"{module} (Debian {package})")
    return missing


def parser():
    p = argparse.ArgumentParser(prog="tools/report", description=__doc__)
    sub = p.add_subparsers(dest="kind", required=True)
    n = sub.add_parser("nightly", help="the nightly regression report of a ci/nightly report folder")
    n.add_argument("report", help="report folder: check.json, results/ (H5MD files and suite-summary.json)")
    n.add_argument("--check", help="check.json (default REPORT/check.json)")
    n.add_argument("--results", help="folder of the result files (default REPORT/results)")
    n.add_argument("--suite-summary", help="suite-summary.json (default RESULTS/suite-summary.json)")
    n.add_argument("--history", help="history folder: append this night, redraw the margins over the nights "
                                     "and the index of the nights")
    n.add_argument("--night", help="the night's name in the history (default: the check's UTC date and time)")
    n.add_argument("--no-figures", action="store_true", help="documents only")
    s = sub.add_parser("study", help="summary.md, summary.html and figures/ of a study folder (study.json)")
    s.add_argument("study", help="study folder")
    s.add_argument("--no-figures", action="store_true", help="documents only")
    c = sub.add_parser("port-check", help="report.md, report.html, CSV and figures of a port-check report.json")
    c.add_argument("report", help="report folder (report.json)")
    c.add_argument("--no-figures", action="store_true", help="documents only")
    h = sub.add_parser("history", help="redraw a history folder (index.html, margins over the nights)")
    h.add_argument("history", help="history folder (nights.jsonl)")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    missing = missing_packages()
    if missing:
        print("tools/report: missing Python package(s): " + ", ".join(missing) + " (ci/setup installs them; "
              "run with /usr/bin/python3)", file=sys.stderr)
        return 3
    import matplotlib
    matplotlib.use("Agg")
    from . import history, nightly, port_check, study
    try:
        if args.kind == "nightly":
            return nightly.render(args)
        if args.kind == "study":
            return study.render(args)
        if args.kind == "port-check":
            return port_check.render(args)
        index = history.render_index(args.history)
        print(f"history: {index}")
        return 0
    except (OSError, ValueError, KeyError) as e:
        print(f"tools/report {args.kind}: {e}", file=sys.stderr)
        return 2
