"""A small sweep: the tetrahedron's first velocities in every precision mode, and how far each is
from double precision -- the rounding each mode commits in one mobility product.

    python examples/precision_sweep.py
"""
import math
import pathlib

import numpy as np

import stokesian

root = pathlib.Path(__file__).resolve().parents[1]
scenario = stokesian.load_scenario(root / "scenarios" / "tetrahedron.toml")

# The scenario's box and tensor: the nearest image in a periodic box of 64 a, mu0 = 1.
box = dict(tensor="rotne-prager", Lx=64.0, Ly=64.0, Lz=64.0)
solver = stokesian.Mobility("periodic", "periodic", "periodic")
solver.setParameters(**box)
solver.initialize(viscosity=1 / (6 * math.pi), hydrodynamicRadius=1.0)
solver.setPositions(scenario.positions)
reference, _ = solver.Mdot(scenario.forces)
for hi in ("f64", "ds", "f32"):
    for integration in ("f64", "ds", "f32"):
        mode = f"hi={hi},int={integration}"
        solver.setParameters(precision=mode, **box)
        velocities, _ = solver.Mdot(scenario.forces)
        deviation = np.abs(velocities - reference).max() / np.abs(reference).max()
        print(f"{mode:16s} v_z of sphere 1 = {velocities[0, 2]: .17f}  relative to f64: {deviation:.2e}")
