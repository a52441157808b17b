"""stokesian.Scenario and stokesian.Result: load, override and run a scenario as the CLI does, bit
for bit, and read its output into NumPy arrays."""
import signal
import subprocess
import sys
import time
import unittest

import numpy as np

import stokesian
from support import SCENARIOS, ScratchTestCase, run_cli

TETRAHEDRON = SCENARIOS / "tetrahedron.toml"


class RunIsTheCLIsRun(ScratchTestCase):
    def test_an_overridden_run_writes_what_stokesian_run_writes(self):
        ours = stokesian.Scenario(TETRAHEDRON).override(steps=400, sample_every=0.5, precision="hi=ds,int=f32")
        path = ours.run(self.scratch / "python.h5", threads=1)
        self.assertEqual(path, self.scratch / "python.h5")
        self.assertEqual(ours.last_run["status"], "completed")
        cli_path = self.scratch / "cli.h5"
        run_cli("run", TETRAHEDRON, "-o", cli_path, "--steps", 400, "--sample-every", 0.5,
                "--precision", "hi=ds,int=f32", "--threads", 1)
        python, cli = stokesian.Result(path), stokesian.Result(cli_path)
        self.assertEqual(python.positions.shape, (9, 4, 3))  # t = 0, 0.5, ..., 4
        np.testing.assert_array_equal(python.time, np.arange(9) * 0.5)
        np.testing.assert_array_equal(python.step, np.arange(9) * 50)
        for name in ("positions", "velocities", "forces", "images"):
            self.assertEqual(getattr(python, name).tobytes(), getattr(cli, name).tobytes(), name)
        self.assertEqual(sorted(python.observables), sorted(cli.observables))
        self.assertTrue(python.observables, "the tetrahedron's observables")
        for name, series in python.observables.items():
            self.assertEqual(series.value.tobytes(), cli.observables[name].value.tobytes(), name)
            self.assertEqual(series.step.shape, series.value.shape)
        self.assertEqual(sorted(python.analysis), sorted(cli.analysis))
        self.assertEqual(python.parameters["/parameters/engine"]["backend"], "cpu")

    def test_the_period_of_the_tetrahedron_is_in_the_analysis(self):
        # Two cycles of T ~ 517 tau_s at dt = 0.1 (a few seconds): the cycle observable's period.
        path = stokesian.run(TETRAHEDRON, self.scratch / "cycles.h5", threads=1, dt=0.1, time=1100.0,
                             write_trajectory=False)
        result = stokesian.Result(path)
        self.assertEqual(result.positions.shape, (0, 4, 3))  # write_trajectory = false: no frames
        periods = result.analysis["cycle/period"]
        self.assertGreaterEqual(periods.size, 1)
        # engine/docs/tetrahedron.md: the period from maxima is T0 + c dt + c2 dt^2 with T0 = 517.035980,
        # c = 27.930, c2 = 2.68 (fitted for dt <= 0.01; here extrapolated to 0.1, to ~1e-3 tau_s).
        dt = 0.1
        self.assertAlmostEqual(float(periods[0]), 517.035980 + 27.930 * dt + 2.68 * dt**2, delta=5e-3)


class StoppedRuns(ScratchTestCase):
    def test_a_run_stopped_at_a_step_resumes_to_the_uninterrupted_runs_bits(self):
        s = stokesian.Scenario(TETRAHEDRON).override(steps=400, sample_every=0.5)
        whole = stokesian.Result(s.run(self.scratch / "whole.h5", threads=1))
        stopped = self.scratch / "stopped.h5"
        s.run(stopped, threads=1, stop_after_step=150)
        self.assertTrue(s.last_run["resumable"], s.last_run["status"])
        self.assertEqual(stokesian.Result(stopped).step[-1], 150)  # valid as it is, as the CLI leaves it
        resumed = stokesian.Result(s.run(stopped, threads=1, resume=True))
        self.assertEqual(s.last_run["status"], "completed")
        self.assertEqual(resumed.positions.tobytes(), whole.positions.tobytes())
        self.assertEqual(resumed.velocities.tobytes(), whole.velocities.tobytes())

    def test_ctrl_c_stops_the_run_with_a_checkpoint_and_raises_keyboard_interrupt(self):
        output = self.scratch / "long.h5"
        program = (f"import stokesian, sys\n"
                   f"s = stokesian.Scenario({str(TETRAHEDRON)!r}).override(time=5e5)\n"
                   f"try:\n    s.run({str(output)!r}, threads=1)\n"
                   f"except KeyboardInterrupt as e:\n    print('interrupted:', e)\n    sys.exit(3)\n")
        process = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        partial = output.with_name(output.name + ".partial")
        deadline = time.monotonic() + 30
        while not partial.exists() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        time.sleep(0.5)  # well into the run (5e7 steps: minutes)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        self.assertEqual(process.returncode, 3, out + err)
        self.assertIn("interrupted by signal 2", out)
        self.assertTrue(output.with_name(output.name + ".checkpoint").exists())
        self.assertGreater(stokesian.Result(output).step[-1], 0)  # closed, readable, as `stokesian run` leaves it


class ScenarioSettings(ScratchTestCase):
    def test_loading_and_overriding_follow_the_scenario_rules(self):
        s = stokesian.load_scenario(TETRAHEDRON)
        self.assertEqual(s.name, "tetrahedron")
        self.assertEqual(s.positions.shape, (4, 3))
        self.assertEqual(s.run_settings["dt"], 0.01)
        s.override(dt=0.02)  # keeps the run length in tau_s, as --dt does
        self.assertEqual(s.run_settings["dt"], 0.02)
        self.assertEqual(s.run_settings["time"], 5170.0)
        self.assertIn("dt = 0.02", s.configuration())
        self.assertEqual(s.default_output().name, "tetrahedron.h5")

    def test_bad_input_is_one_line_and_changes_nothing(self):
        with self.assertRaisesRegex(ValueError, "cannot read the scenario file"):
            stokesian.Scenario(self.scratch / "missing.toml")
        bad = self.scratch / "bad.toml"
        bad.write_text(TETRAHEDRON.read_text().replace("dt = 0.01 ", "dt = -0.01 "))
        with self.assertRaisesRegex(ValueError, r"key 'run.dt' = -0.01"):
            stokesian.Scenario(bad)
        s = stokesian.Scenario(TETRAHEDRON)
        with self.assertRaisesRegex(ValueError, "run key 'dtt' cannot be overridden"):
            s.override(dtt=0.1)
        with self.assertRaisesRegex(ValueError, "expected a whole number"):
            s.override(steps=-3)
        with self.assertRaisesRegex(ValueError, "precision"):
            s.override(steps=10, precision="hi=f16")
        self.assertEqual(s.run_settings["steps"], None, "a refused override changes nothing")
        with self.assertRaisesRegex(ValueError, "threads = 5000"):
            s.run(self.scratch / "threads.h5", threads=5000)
        self.assertEqual(list(self.scratch.iterdir()), [bad])
        existing = self.scratch / "existing.h5"
        existing.write_text("not a result")
        with self.assertRaisesRegex(ValueError, "existing.h5"):
            s.override(steps=10).run(existing)
        self.assertEqual(existing.read_text(), "not a result")
        with self.assertRaisesRegex(ValueError, "not-a-result.txt"):
            stokesian.Result(existing.with_name("not-a-result.txt"))


if __name__ == "__main__":
    unittest.main()
