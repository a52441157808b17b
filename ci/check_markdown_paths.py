#!/usr/bin/env python3
"""Every back-ticked path and every relative link in the project's Markdown names something that exists.

Back-ticked paths: a span between back-ticks is a path when it has a folder separator and ends in a
file extension or a '/', and holds no spaces, placeholders (<NAME>, *, {a,b}, $VAR, words in capitals
such as OUTPUT or DIR) or URLs. It may be written relative to the checkout, to the Markdown file's
folder, to engine/ (`cuda/hi_kernels.cuh`), tools/ or tests/, or as a public header by its layer
(`core/engine.hpp`) or include path (`stokesian/io/h5md.hpp`), found in its layer's include folder. A
span ending in '/' is a folder when its first name is one of the checkout's folders (else it is a group
of an HDF5 file). Paths a command creates (build trees, reports, results) are not files of the
checkout: their spans name such a folder first and are left alone.

Links: every inline link or image `[text](target)` and every reference definition `[name]: target`
whose target has no scheme (http:, mailto:, ...) names a file or folder relative to the Markdown file
(or to the checkout when it starts with '/'); a `#anchor` after a Markdown file, or alone (this file),
must be one of that file's headings as GitHub spells their anchors.

Exit status 0 when everything exists, 1 otherwise (one line per problem: FILE:LINE: ...).
`--root DIR` checks the Markdown files git lists in another checkout (the checker's own test).
"""
import argparse
import pathlib
import re
import subprocess
import sys
import urllib.parse

EXTENSIONS = {".cpp", ".hpp", ".cu", ".cuh", ".h", ".md", ".py", ".toml", ".h5", ".csv", ".json", ".yml",
              ".yaml", ".cmake", ".txt", ".sh", ".png", ".in", ".supp", ".jsonl", ".cff", ".html", ".svg"}
# First folders of paths that commands write, not files of the checkout.
CREATED = ("build", ".gpu-build", "nightly-report", "out/", "results/", "report/", "port-check-out",
           "port-report/", "gpu-check-out", "~", "/")
SPAN = re.compile(r"`([^`\n]+)`")
# [text](target "title") and ![alt](target); the text may hold one level of brackets ([`[run]`](...)).
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


class Checkout:
    def __init__(self, root):
        self.root = root
        self.layers = sorted(p.name for p in (root / "engine").iterdir() if (p / "include").is_dir()) \
            if (root / "engine").is_dir() else []
        self.folders = {p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")} | set(
            self.layers) | {"unit", "regression", "gpu", "support", "inputs", "fuzz", "cli", "report", "bench",
                            "docs", "gpu-runs"}
        self.anchors_of = {}

    def is_path(self, span):
        if any(c in span for c in " <>*{}$|:,;=()'\"") or "//" in span or "/" not in span:
            return False
        if span.startswith(CREATED) or span.startswith("-"):
            return False
        if any(part.isupper() and len(part) > 1 for part in re.split(r"[/._-]", span)):
            return False  # a placeholder: OUTPUT.h5, REPORT/results
        if span.endswith("/"):
            # A folder of the checkout; other names ending in '/' are groups inside HDF5 files.
            return span.split("/")[0] in self.folders
        return pathlib.PurePosixPath(span).suffix in EXTENSIONS

    def candidates(self, span, markdown):
        relative = span.rstrip("/")
        yield self.root / relative
        yield markdown.parent / relative
        for base in ("engine", "tools", "tests"):
            yield self.root / base / relative
        parts = relative.split("/")
        if len(parts) > 1 and parts[0] in self.layers:  # a public header by its layer: `core/engine.hpp`
            yield self.root / "engine" / parts[0] / "include" / "stokesian" / relative
        if len(parts) > 2 and parts[0] == "stokesian":
            yield self.root / "engine" / parts[1] / "include" / relative
        if len(parts) == 2 and parts[0] == "stokesian":
            yield self.root / "engine" / "numeric" / "include" / relative

    def anchors(self, markdown):
        """The anchors GitHub gives the headings of a Markdown file (and its explicit <a name=...>)."""
        if markdown not in self.anchors_of:
            found, seen, fenced = set(), {}, False
            for line in markdown.read_text(encoding="utf-8").splitlines():
                if line.lstrip().startswith("```"):
                    fenced = not fenced
                    continue
                if fenced:
                    continue
                found.update(EXPLICIT_ANCHOR.findall(line))
                heading = HEADING.match(line)
                if not heading:
                    continue
                text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(2))  # a link's text only
                text = re.sub(r"<[^>]+>", "", text)
                slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
                count = seen.get(slug, 0)
                seen[slug] = count + 1
                found.add(slug if count == 0 else f"{slug}-{count}")
            self.anchors_of[markdown] = found
        return self.anchors_of[markdown]

    def link_problem(self, target, markdown):
        """Why a link target does not resolve, or None when it does (or is not a file of the checkout)."""
        if not target or SCHEME.match(target) or target.startswith("//"):
            return None
        path, _, anchor = target.partition("#")
        path = urllib.parse.unquote(path.split("?")[0])
        if path:
            base = self.root if path.startswith("/") else markdown.parent
            resolved = (base / path.lstrip("/")).resolve()
            if not resolved.exists():
                return f"link ({target}): {path} does not exist"
            if self.root.resolve() not in (resolved, *resolved.parents):
                return f"link ({target}): {path} lies outside the checkout"
        else:
            resolved = markdown
        if anchor and resolved.suffix == ".md" and resolved.is_file():
            if urllib.parse.unquote(anchor).lower() not in self.anchors(resolved):
                return f"link ({target}): no heading with the anchor #{anchor} in {resolved.name}"
        return None

    def problems(self, markdown, name):
        fenced = False
        for number, line in enumerate(markdown.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            for span in SPAN.findall(line):
                if self.is_path(span) and not any(c.exists() for c in self.candidates(span, markdown)):
                    yield f"{name}:{number}: `{span}` does not exist"
            # Links in the text, not inside code spans (a code span's text is kept as letters: [`x`](y)).
            text = SPAN.sub(lambda m: "x" * len(m.group(0)), line)
            targets = LINK.findall(text)
            definition = DEFINITION.match(text)
            if definition:
                targets.append(definition.group(1))
            for target in targets:
                problem = self.link_problem(target, markdown)
                if problem:
                    yield f"{name}:{number}: {problem}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent)
    root = parser.parse_args().root.resolve()
    files = subprocess.run(["git", "ls-files", "*.md"], cwd=root, capture_output=True, text=True,
                           check=True).stdout.split()
    checkout = Checkout(root)
    missing = 0
    for name in files:
        for problem in checkout.problems(root / name, name):
            print(problem)
            missing += 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
