"""What the package's tests share: the CLI to compare with (STOKESIAN_CLI, set by the CTest
PythonPackage.PipInstallRunsTestsAndExamples), the checkout, scratch folders."""
import os
import pathlib
import subprocess
import tempfile
import unittest

SOURCE = pathlib.Path(__file__).resolve().parents[3]
SCENARIOS = SOURCE / "scenarios"


def cli():
    """The built `stokesian` CLI (STOKESIAN_CLI); the test is skipped without it."""
    path = os.environ.get("STOKESIAN_CLI")
    if not path:
        raise unittest.SkipTest("STOKESIAN_CLI is not set (the CTest sets it to the built CLI)")
    return path


def run_cli(*arguments):
    done = subprocess.run([cli(), *map(str, arguments)], capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"stokesian {' '.join(map(str, arguments))}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


class ScratchTestCase(unittest.TestCase):
    """A test with a scratch folder, self.scratch, removed afterwards."""

    def setUp(self):
        folder = tempfile.TemporaryDirectory(prefix="stokesian-python-test-")
        self.addCleanup(folder.cleanup)
        self.scratch = pathlib.Path(folder.name)
