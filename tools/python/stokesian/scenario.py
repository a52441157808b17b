"""Scenarios from Python: load a scenario file, override its [run] keys, run it (as ``stokesian run``
does, in this process) and get the path of the result file (read it with ``stokesian.Result``)."""
import os
import pathlib
import sys

from . import _stokesian
from .mobility import cpu_threads


class RunFailed(RuntimeError):
    """A run that a numerical blow-up (or a failed lubrication solve) stopped; its output is a valid
    file up to that point: ``output``."""

    def __init__(self, status, output):
        super().__init__(f"{output}: {status}")
        self.status = status
        self.output = output


class Scenario:
    """A scenario file (scenarios/README.md), loaded and checked as the CLI loads it.

    ``case`` selects one of the file's [cases] (default: the first). Errors in the file raise
    ValueError with the CLI's one-line message (file, key, value, what is expected).
    """

    def __init__(self, path, case=None, *, _data=None):
        self._data = _data if _data is not None else _stokesian.load_scenario(os.fspath(path), case or "")
        #: The last run's outcome: status, steps, wall seconds, summary, engine, final state digest.
        self.last_run = None

    @classmethod
    def from_text(cls, text, origin="<text>", case=None):
        """A scenario from TOML text; ``origin`` names it in error messages."""
        return cls(None, _data=_stokesian.parse_scenario(text, origin, case or ""))

    name = property(lambda self: self._data.name)
    description = property(lambda self: self._data.description)
    case = property(lambda self: self._data.case_name)
    source_path = property(lambda self: self._data.source_path)
    positions = property(lambda self: self._data.positions(), doc="the initial positions, (N, 3)")
    forces = property(lambda self: self._data.forces(), doc="the external forces, (N, 3)")
    run_settings = property(lambda self: self._data.run_settings(), doc="the [run] keys as they stand, a dict")

    def configuration(self):
        """The full resolved configuration as TOML text (what a run stores in its output)."""
        return self._data.configuration()

    def override(self, **values):
        """Sets [run] keys as the CLI's options do (``override(steps=1000, precision="hi=ds,int=f32")``):
        dt, time, steps, sample_every, precision, backend, hi_kernel, integrator, write_trajectory,
        checkpoint_every, min_separation, devices. Checked together: all apply, or none (ValueError).
        Returns the scenario."""
        self._data.override(list(values.items()))
        return self

    def default_output(self):
        """The CLI's default output name: NAME.h5, or NAME_CASE.h5 for a case."""
        return pathlib.Path(self.name + (f"_{self.case}" if self.case else "") + ".h5")

    def run(self, output=None, *, force=False, resume=False, threads=0, stop_after_step=None):
        """Runs the scenario into ``output`` (default: default_output() in the working directory) and
        returns its path. force: replace an existing output; resume: continue the interrupted run of
        ``output`` from its checkpoint; threads: CPU worker threads (0: all cores); stop_after_step:
        stop there with a checkpoint, as if interrupted (the output is valid up to there;
        last_run["resumable"]; resume=True goes on).
        Ctrl-C stops the run after the current step with a checkpoint and a valid output, as it stops
        `stokesian run` (resume=True continues it), and
        raises KeyboardInterrupt; a numerical blow-up raises RunFailed."""
        path = pathlib.Path(output) if output is not None else self.default_output()
        # Provenance: this process's command line (the run's "command" in the output).
        result = self._data.run(os.fspath(path), force, resume, cpu_threads(threads), stop_after_step,
                                [sys.executable] + sys.argv)
        self.last_run = result
        if result["signal"]:
            raise KeyboardInterrupt(f"{result['output']}: {result['status']}")
        if result["failed"]:
            raise RunFailed(result["status"], pathlib.Path(result["output"]))
        return pathlib.Path(result["output"])


def load_scenario(path, case=None):
    """The scenario file at ``path`` (``case``: one of its [cases])."""
    return Scenario(path, case)


def run(scenario, output=None, *, case=None, force=False, threads=0, **overrides):
    """Loads ``scenario`` (a path, or a Scenario), applies ``overrides`` ([run] keys) and runs it;
    returns the result file's path (Scenario.run)."""
    if not isinstance(scenario, Scenario):
        scenario = Scenario(scenario, case)
    elif case is not None:
        raise ValueError("case: only with a scenario path (a Scenario has its case)")
    if overrides:
        scenario.override(**overrides)
    return scenario.run(output, force=force, threads=threads)
