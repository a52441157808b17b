"""A result file (H5MD, engine/io/include/stokesian/io/h5md.hpp) as NumPy arrays, read by the
engine's own reader."""
import collections
import functools
import os

from . import _stokesian

#: One observable's time series: step (int64), time and value (float64), each of shape (T,).
Series = collections.namedtuple("Series", "step time value")


class Result:
    """The output of a run: ``positions``, ``velocities``, ``forces`` (T, N, 3), ``images`` (T, N, 3,
    periodic boxes), ``time`` and ``step`` (T,) of the trajectory; ``observables`` (name: Series),
    ``analysis`` (name: array, time-independent results such as the cycles' periods) and
    ``parameters`` (the run's provenance as text)."""

    def __init__(self, path):
        self.path = os.fspath(path)
        self._file = _stokesian.H5mdFile(self.path)

    def _particles(self, element, integers=False):
        dataset = f"/particles/trajectory/{element}/value"
        if not self._file.exists(dataset):
            return None
        return self._file.read_integers(dataset) if integers else self._file.read(dataset)

    positions = functools.cached_property(lambda self: self._particles("position"))
    velocities = functools.cached_property(lambda self: self._particles("velocity"))
    forces = functools.cached_property(lambda self: self._particles("force"))
    images = functools.cached_property(lambda self: self._particles("image", integers=True))

    @functools.cached_property
    def time(self):
        return self._file.read("/particles/trajectory/position/time")

    @functools.cached_property
    def step(self):
        return self._file.read_integers("/particles/trajectory/position/step")

    def _walk(self, top, is_leaf):
        """{path below top ("cycle/period"): object path} of the objects is_leaf accepts."""
        found, pending = {}, [top] if self._file.is_group(top) else []
        while pending:
            group = pending.pop()
            for name in self._file.list(group):
                path = f"{group}/{name}"
                if is_leaf(path):
                    found[path[len(top) + 1:]] = path
                elif self._file.is_group(path):
                    pending.append(path)
        return dict(sorted(found.items()))

    @functools.cached_property
    def observables(self):
        series = self._walk("/observables", lambda path: self._file.exists(f"{path}/value"))
        return {name: Series(self._file.read_integers(f"{path}/step"), self._file.read(f"{path}/time"),
                             self._file.read(f"{path}/value")) for name, path in series.items()}

    @functools.cached_property
    def analysis(self):
        results = self._walk("/analysis", lambda path: not self._file.is_group(path))
        return {name: self._file.read(path) for name, path in results.items()}

    def analysis_attributes(self, name):
        """The string attributes of /analysis/NAME (units, what it is)."""
        return self._file.attributes(f"/analysis/{name}")

    @functools.cached_property
    def parameters(self):
        """{group path under /parameters: its attributes as text (numbers in their exact text)}."""
        found, pending = {}, ["/parameters"]
        while pending:
            group = pending.pop()
            if not self._file.is_group(group):
                continue
            found[group] = self._file.parameter_attributes(group)
            pending += [f"{group}/{name}" for name in self._file.list(group)]
        return found
