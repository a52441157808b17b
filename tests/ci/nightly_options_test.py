#!/usr/bin/python3
"""ci/nightly refuses an option whose value is missing or bad in one line on stderr naming the option,
exit status 2 (the job could not run; 1 would read as a regression), before anything is built or run.
It runs ci/setup (or builds the --build tree) only when asked (--setup), and writes its report under
the build tree unless --report says where; relative paths are the caller's. Every call passes a
--build folder without a stokesian (or a stand-in that runs nothing), so that no call can build or run
the suite whatever it accepts. Exit status: 0 pass, 1 fail."""
import pathlib
import subprocess
import sys
import tempfile

SOURCE = pathlib.Path(__file__).resolve().parents[2]
NIGHTLY = SOURCE / "ci" / "nightly"
VALUED = ["--backend", "--scale", "--jobs", "--report", "--reference-dir", "--build", "--history", "--heartbeat"]


def nightly(args, build, cwd=None):
    p = subprocess.run([str(NIGHTLY), "--build", str(build)] + args, capture_output=True, text=True, timeout=60,
                       cwd=cwd)
    return p.returncode, p.stderr


def reports_in_checkout():
    folder = SOURCE / "nightly-report"
    return set(folder.iterdir()) if folder.is_dir() else set()


def where_it_writes(tmp, failures):
    """No setup unless asked; the report under the build tree, or at --report from the caller's folder."""
    # A build tree that cmake could build: without --setup it is used as it is (here: no stokesian).
    built = tmp / "configured"
    built.mkdir()
    (built / "CMakeCache.txt").write_text("not a cache\n")
    status, err = nightly([], built)
    if status != 2 or f"no {built}/bin/stokesian" not in err:
        failures.append(f"without --setup: exit {status}, stderr {err!r} (expected the build used as it is)")
    # A stand-in stokesian that runs nothing: the suite cannot complete (exit 2), the report folder is made.
    stub = tmp / "stub"
    (stub / "bin").mkdir(parents=True)
    (stub / "bin" / "stokesian").write_text("#!/bin/sh\nexit 2\n")
    (stub / "bin" / "stokesian").chmod(0o755)
    before = reports_in_checkout()
    common = ["--backend", "cpu", "--scale", "0.01", "--heartbeat", "0"]
    status, err = nightly(common, "stub", cwd=tmp)  # --build relative to the caller's folder
    made = reports_in_checkout() - before
    default_logs = list((stub / "nightly-report").glob("*/suite.log"))
    if status != 2 or len(default_logs) != 1 or made:
        failures.append(f"default report: exit {status}, stderr {err!r}, {default_logs} under the build tree, "
                        f"{sorted(map(str, made))} in the checkout (expected one under the build tree, none there)")
    status, err = nightly(common + ["--report", "here"], "stub", cwd=tmp)
    if status != 2 or not (tmp / "here" / "suite.log").is_file() or (SOURCE / "here").exists():
        failures.append(f"--report here: exit {status}, stderr {err!r} (expected {tmp}/here/suite.log)")
    for p in made:  # what a ci/nightly that still wrote into the checkout left there
        subprocess.run(["rm", "-rf", str(p)], check=False)


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
        where_it_writes(tmp, failures)
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
