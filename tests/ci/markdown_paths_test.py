#!/usr/bin/python3
"""ci/check_markdown_paths.py fails on each kind of broken reference and passes on the good ones: it is
run with --root on a small git checkout made here, once with every reference good (exit 0, no output)
and once with each broken one added (exit 1, one line per broken reference naming file and line).
Exit status: 0 pass, 1 fail."""
import pathlib
import subprocess
import sys
import tempfile

CHECKER = pathlib.Path(__file__).resolve().parents[2] / "ci" / "check_markdown_paths.py"

GOOD = """# Guide

## Running a study: `study precision`

See [the other page](other.md), [its section](other.md#the-h5md-file-1), [this one](#guide),
[a folder](sub/), [a file up](../README.md), [from the root](/docs/sub/page.md#page),
![a figure](sub/figure.png), [a site](https://example.org/x.md), [mail](mailto:a@b.c),
`sub/page.md`, `docs/sub/figure.png`, [`[run]` keys](other.md#run-keys), [ref][r].
In code the syntax is shown, not followed: `[text](missing.md)`.

[r]: sub/page.md#page

```
[inside a fence](missing.md) and `missing/file.md`
```
"""

OTHER = """# Other

## The H5MD file
## The H5MD file
## `[run]` keys
"""

BROKEN = {
    "[gone](missing.md)": "missing.md does not exist",
    "[gone folder](nothing/)": "nothing/ does not exist",
    "[bad anchor](other.md#no-such-heading)": "#no-such-heading",
    "[bad own anchor](#nowhere)": "#nowhere",
    "[outside](../../outside.md)": "outside the checkout",
    "![figure](sub/none.png)": "sub/none.png does not exist",
    "`sub/none.md`": "`sub/none.md` does not exist",
    "[r2]: sub/page.md#not-a-heading": "#not-a-heading",
}


def check(root):
    p = subprocess.run([sys.executable, str(CHECKER), "--root", str(root)], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stdout


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        top = pathlib.Path(tmp)
        (top / "outside.md").write_text("# outside\n")
        root = top / "checkout"
        (root / "docs" / "sub").mkdir(parents=True)
        (root / "README.md").write_text("# Top\n")
        (root / "docs" / "other.md").write_text(OTHER)
        (root / "docs" / "sub" / "page.md").write_text("# Page\n")
        (root / "docs" / "sub" / "figure.png").write_bytes(b"")
        guide = root / "docs" / "guide.md"
        guide.write_text(GOOD)
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
        status, out = check(root)
        if status != 0 or out:
            failures.append(f"good references: exit {status}, output {out!r} (expected 0 and nothing)")
        first = GOOD.count("\n") + 1
        guide.write_text(GOOD + "\n".join(BROKEN) + "\n")
        status, out = check(root)
        lines = out.splitlines()
        if status != 1 or len(lines) != len(BROKEN):
            failures.append(f"broken references: exit {status}, {len(lines)} lines {out!r} (expected 1 and "
                            f"{len(BROKEN)} lines)")
        for number, (reference, why) in enumerate(BROKEN.items(), first):
            if not any(line.startswith(f"docs/guide.md:{number}:") and why in line for line in lines):
                failures.append(f"{reference}: no line 'docs/guide.md:{number}: ...{why}...' in {out!r}")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
