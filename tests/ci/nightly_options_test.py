#!/usr/bin/python3
"""ci/nightly refuses an option whose value is missing or bad in one line on stderr naming the option,
exit status 2 (the job could not run; 1 would read as a regression), before anything is built or run.
Every call passes --no-setup and an empty --build folder first, so that no call can build or run the
suite whatever it accepts. Exit status: 0 pass, 1 fail."""
import pathlib
import subprocess
import sys
import tempfile

NIGHTLY = pathlib.Path(__file__).resolve().parents[2] / "ci" / "nightly"
VALUED = ["--backend", "--scale", "--jobs", "--report", "--reference-dir", "--build", "--history", "--heartbeat"]


def nightly(args, build):
    p = subprocess.run([str(NIGHTLY), "--no-setup", "--build", str(build)] + args, capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stderr


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        build = tmp / "build"
        build.mkdir()
        a_file = tmp / "file"
        a_file.write_text("")
        cases = [([option], option) for option in VALUED]  # the value missing at the end
        cases += [([option, "--negative-control"], option) for option in VALUED]  # or the next option instead
        cases += [([option, ""], option) for option in VALUED]  # or empty
        cases += [(["--backend", "gpu"], "--backend"), (["--scale", "0"], "--scale"), (["--scale", "2"], "--scale"),
                  (["--scale", "x"], "--scale"), (["--scale", "-0.5"], "--scale"), (["--jobs", "0"], "--jobs"),
                  (["--jobs", "-1"], "--jobs"), (["--jobs", "two"], "--jobs"), (["--jobs", "5000"], "--jobs"),
                  (["--heartbeat", "-5"], "--heartbeat"), (["--heartbeat", "soon"], "--heartbeat"),
                  (["--reference-dir", str(tmp / "none")], "--reference-dir"), (["--report", str(a_file)], "--report"),
                  (["--history", str(a_file)], "--history"), (["--backend", "a\nb"], "--backend")]
        for args, option in cases:
            status, err = nightly(args, build)
            if status != 2 or err.count("\n") != 1 or option not in err:
                failures.append(f"ci/nightly {' '.join(map(repr, args))}: exit {status}, stderr {err!r} "
                                f"(expected exit 2 and one line naming {option})")
        # Good values pass on to the next check: here the missing build.
        status, err = nightly(["--backend", "cpu", "--scale", "0.01", "--jobs", "2", "--heartbeat", "0.5",
                               "--report", str(tmp / "report"), "--history", str(tmp / "history")], build)
        if status != 2 or f"no {build}/bin/stokesian" not in err:
            failures.append(f"good values: exit {status}, stderr {err!r} (expected the missing build)")
        if (tmp / "report").exists() or (tmp / "history").exists():
            failures.append("a refused run created its report or history folder")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
