#!/usr/bin/python3
"""The renderer's unit tests (CTest ReportRenderer.UnitTests, label quick): skipped (exit 77) with
a message when a Python package of tools/report is missing."""
import pathlib
import sys
import unittest

TOOLS = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(TOOLS))

from report import cli  # noqa: E402

missing = cli.missing_packages()
if missing:
    print("skipped: missing " + ", ".join(missing))
    sys.exit(77)
import matplotlib  # noqa: E402

matplotlib.use("Agg")
suite = unittest.defaultTestLoader.discover(str(TOOLS / "report" / "tests"), top_level_dir=str(TOOLS))
sys.exit(0 if unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful() else 1)
