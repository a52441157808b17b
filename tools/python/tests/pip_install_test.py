#!/usr/bin/python3
"""CTest PythonPackage.PipInstallRunsTestsAndExamples (label quick): `pip install .` of the checkout
into a fresh venv (the engine compiled again, through ccache where it is installed), the CUDA choice
of the build checked against its rule (pyproject.toml: CUDA when nvcc is found and nvidia-smi lists a
GPU, unless STOKESIAN_CUDA says on or off), then the package's tests (tools/python/tests, against the
built CLI) and every script of examples/, run by the venv's Python from a folder outside the checkout.

    pip_install_test.py WORK CLI

WORK: a scratch folder (its build/ is kept: a second run compiles only what changed); CLI: the
built `stokesian`. Skipped (77) where this Python has no venv module (Debian: python3-venv)."""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import time

SOURCE = pathlib.Path(__file__).resolve().parents[3]


def step(what, command, log=None, **options):
    started = time.monotonic()
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, **options)
    seconds = time.monotonic() - started
    output = done.stdout + done.stderr
    if log:
        log.write_text(output)
    if done.returncode != 0:
        print(output[-20000:])
        print(f"FAILED: {what} (exit {done.returncode}, {seconds:.1f} s)")
        sys.exit(1)
    print(f"{what}: {seconds:.1f} s")
    return output


def cuda_expected():
    """Whether `pip install .` builds the CUDA backend here (cmake/StokesianCudaAuto.cmake's rule)."""
    nvcc = shutil.which("nvcc") or (os.access("/usr/local/cuda/bin/nvcc", os.X_OK) and "/usr/local/cuda/bin/nvcc")
    asked = os.environ.get("STOKESIAN_CUDA", "").lower()
    if asked in ("on", "off"):
        return asked == "on" and bool(nvcc)
    smi = shutil.which("nvidia-smi")
    listing = subprocess.run([smi, "-L"], capture_output=True, text=True).stdout if smi else ""
    return bool(nvcc) and any(line.startswith("GPU ") for line in listing.splitlines())


def main():
    work, cli = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    # python3 -m venv needs both (Debian's python3-venv brings ensurepip).
    missing = [name for name in ("ensurepip", "venv") if importlib.util.find_spec(name) is None]
    if missing:
        print(f"skipped: no module {', '.join(missing)} (ci/setup --dev installs python3-venv)")
        return 77
    venv_dir, runs = work / "venv", work / "runs"
    for folder in (venv_dir, runs):
        shutil.rmtree(folder, ignore_errors=True)
    runs.mkdir(parents=True)
    python = venv_dir / "bin" / "python"
    step("python3 -m venv", [sys.executable, "-m", "venv", venv_dir])
    step("pip install .", [python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
                           f"--config-settings=build-dir={work / 'build'}", SOURCE], log=work / "pip-install.log")
    expected = cuda_expected()
    built = step("the CUDA choice", [python, "-c", "import stokesian; print(stokesian.backends()['cuda']['built'])"],
                 cwd=runs).strip() == "True"
    print(f"CUDA backend built: {built} (expected {expected}: nvcc, nvidia-smi -L, STOKESIAN_CUDA)")
    if built != expected:
        print("FAILED: the CUDA choice of `pip install .`")
        return 1
    tests = SOURCE / "tools" / "python" / "tests"
    environment = dict(os.environ, STOKESIAN_CLI=str(cli))
    print(step("the package's tests", [python, "-m", "unittest", "discover", "-v", "-s", tests, "-t", tests],
               cwd=runs, env=environment))
    for example in sorted((SOURCE / "examples").glob("*.py")):
        print(step(f"examples/{example.name}", [python, example, runs], cwd=runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
