"""`python3 tools/report ...` (or `python3 -m report` with tools/ on sys.path): see __init__.py."""
import pathlib
import sys

if __package__ in (None, ""):  # run as a directory: make the package importable by its name
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
    __package__ = "report"  # noqa: A001

from report.cli import main  # noqa: E402

sys.exit(main())
