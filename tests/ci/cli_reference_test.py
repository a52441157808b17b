#!/usr/bin/python3
"""docs/reference/cli.md names every option of every command: each long option that `stokesian CMD
--help` lists (subcommands found from the top-level --help down) appears back-ticked in the section of
its command (the first heading that holds `stokesian CMD`) or in the shared "Command-line vocabulary"
section. A second pass on the reference with one option taken out must report exactly that option,
so the check can fail. Exit status: 0 pass, 1 fail.

Usage: cli_reference_test.py STOKESIAN_BINARY SOURCE_DIR"""
import pathlib
import re
import subprocess
import sys

OPTION = re.compile(r"^\s+(?:-\w,)?(--[a-z][a-z0-9-]*)")
HEADING = re.compile(r"^#{2,6} ")
SHARED = "## Command-line vocabulary"


def help_text(binary, command):
    p = subprocess.run([binary, *command, "--help"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(f"stokesian {' '.join(command)} --help: exit {p.returncode}: {p.stderr}")
    return p.stdout


def commands(binary, command=()):
    """(command path, its long options) of every command that has no subcommands."""
    text = help_text(binary, command)
    lines = text.splitlines()
    if "Subcommands:" in lines:
        found = []
        for line in lines[lines.index("Subcommands:") + 1:]:
            if not line.startswith("  ") or not line.strip():
                break
            found += commands(binary, (*command, line.split()[0]))
        return found
    options = {m.group(1) for line in lines for m in [OPTION.match(line)] if m} - {"--help", "--version"}
    return [(command, options)]


def sections(reference):
    """The reference's sections: heading line -> the text up to the next heading."""
    parts, heading = {}, ""
    for line in reference.splitlines():
        if HEADING.match(line):
            heading = line
        parts[heading] = parts.get(heading, "") + line + "\n"
    return parts


def missing(reference, found):
    parts = sections(reference)
    shared = next((text for heading, text in parts.items() if heading.startswith(SHARED)), "")
    problems = []
    for command, options in found:
        name = "stokesian " + command[0]
        section = next((text for heading, text in parts.items() if name in heading), None)
        if section is None:
            problems.append(f"no section whose heading holds `{name}`")
            continue
        for option in sorted(options):
            spelled = re.compile(r"`[^`]*" + re.escape(option) + r"(?![a-z0-9-])[^`]*`")
            if not spelled.search(section) and not spelled.search(shared):
                problems.append(f"stokesian {' '.join(command)} {option}: not in the reference")
    return problems


def main():
    binary, source = sys.argv[1], pathlib.Path(sys.argv[2])
    reference = (source / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    found = commands(binary)
    failures = []
    if len(found) < 15 or not any(command == ("run",) and "--dt" in options for command, options in found):
        failures.append(f"the --help walk found too little: {found}")
    failures += missing(reference, found)
    # The check can fail: take `--only` (suite run's alone) out of the reference.
    without = reference.replace("`--only PATTERN...`", "PATTERN")
    if without == reference or missing(without, found) != ["stokesian suite run --only: not in the reference"]:
        failures.append("the check did not notice --only taken out of the reference")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} failures ({len(found)} commands)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
