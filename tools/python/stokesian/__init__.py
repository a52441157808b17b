"""stokesian from Python: the mobility product M F with libMobility's solver interface
(``Mobility``), scenarios loaded, overridden and run (``Scenario``, ``run``), and result files read
into NumPy arrays (``Result``); ``backends()`` says which backends this build has and which can run
here. docs/how-to/python.md describes the API."""
from ._stokesian import backends, version
from .mobility import Mobility
from .result import Result, Series
from .scenario import RunFailed, Scenario, load_scenario, run

__all__ = ["Mobility", "Result", "RunFailed", "Scenario", "Series", "load_scenario", "run", "version", "backends"]
__version__ = version
