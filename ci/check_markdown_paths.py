#!/usr/bin/env python3
"""Every back-ticked path in the project's Markdown names a file or folder that exists.

A span between back-ticks is a path when it has a folder separator and ends in a file extension or a
'/', and holds no spaces, placeholders (<NAME>, *, {a,b}, $VAR, words in capitals such as OUTPUT or
DIR) or URLs. It may be written relative to the checkout, to the Markdown file's folder, to engine/
(`cuda/hi_kernels.cuh`), tools/ or tests/, or as a public header by its layer (`core/engine.hpp`) or
include path (`stokesian/io/h5md.hpp`), found in its layer's include folder. A span ending in '/' is a
folder when its first name is one of the checkout's folders (else it is a group of an HDF5 file). Paths a command creates (build trees, reports, results) are not files of
the checkout: their spans name such a folder first and are left alone.

Exit status 0 when every path exists, 1 otherwise (one line per missing path: FILE:LINE: `path`).
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXTENSIONS = {".cpp", ".hpp", ".cu", ".cuh", ".h", ".md", ".py", ".toml", ".h5", ".csv", ".json", ".yml",
              ".yaml", ".cmake", ".txt", ".sh", ".png", ".in", ".supp", ".jsonl", ".cff", ".html", ".svg"}
# First folders of paths that commands write, not files of the checkout.
CREATED = ("build", ".gpu-build", "nightly-report", "out/", "results/", "report/", "port-check-out",
           "port-report/", "gpu-check-out", "~", "/")
SPAN = re.compile(r"`([^`\n]+)`")
LAYERS = sorted(p.name for p in (ROOT / "engine").iterdir() if (p / "include").is_dir())
FOLDERS = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")} | set(LAYERS) | {
    "unit", "regression", "gpu", "support", "inputs", "fuzz", "cli", "report", "bench", "docs", "gpu-runs"}


def is_path(span):
    if any(c in span for c in " <>*{}$|:,;=()'\"") or "//" in span or "/" not in span:
        return False
    if span.startswith(CREATED) or span.startswith("-"):
        return False
    if any(part.isupper() and len(part) > 1 for part in re.split(r"[/._-]", span)):
        return False  # a placeholder: OUTPUT.h5, REPORT/results
    if span.endswith("/"):
        # A folder of the checkout; other names ending in '/' are groups inside HDF5 files.
        return span.split("/")[0] in FOLDERS
    return pathlib.PurePosixPath(span).suffix in EXTENSIONS


def candidates(span, markdown):
    relative = span.rstrip("/")
    yield ROOT / relative
    yield markdown.parent / relative
    for base in ("engine", "tools", "tests"):
        yield ROOT / base / relative
    parts = relative.split("/")
    if len(parts) > 1 and parts[0] in LAYERS:  # a public header by its layer: `core/engine.hpp`
        yield ROOT / "engine" / parts[0] / "include" / "stokesian" / relative
    if len(parts) > 2 and parts[0] == "stokesian":
        yield ROOT / "engine" / parts[1] / "include" / relative
    if len(parts) == 2 and parts[0] == "stokesian":
        yield ROOT / "engine" / "numeric" / "include" / relative


def main():
    files = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    missing = 0
    for name in files:
        markdown = ROOT / name
        fenced = False
        for number, line in enumerate(markdown.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            for span in SPAN.findall(line):
                if is_path(span) and not any(c.exists() for c in candidates(span, markdown)):
                    print(f"{name}:{number}: `{span}` does not exist")
                    missing += 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
