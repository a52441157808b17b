"""M F of a few spheres: the velocities four spheres get from the forces on them, in an open box
(Rotne-Prager) and in a periodic one (Ewald-summed), in double and in single precision.

    python examples/mobility_product.py
"""
import math

import numpy as np

import stokesian

positions = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 3.0]])
forces = np.array([[0.0, 0.0, -1.0]] * 4)  # all four pulled down: they sediment together

# libMobility's interface: a solver, its parameters, the fluid, the positions, then M F.
solver = stokesian.Mobility("open", "open", "open")
solver.setParameters(tensor="rotne-prager", precision="hi=f64,int=f64")
solver.initialize(viscosity=1 / (6 * math.pi), hydrodynamicRadius=1.0)  # mu0 = 1
solver.setPositions(positions)
velocities, _ = solver.Mdot(forces)
print("open box, Rotne-Prager, f64: v =\n", velocities)
print("a sphere alone would sink at", solver.selfMobility, "; together they sink faster:",
      velocities[:, 2].mean())

solver.setParameters(precision="hi=f32,int=f32")
single, _ = solver.Mdot(forces)
print("hi=f32,int=f32 differs from f64 by", np.abs(single - velocities).max())

periodic = stokesian.Mobility("periodic", "periodic", "periodic")
periodic.setParameters(Lx=16.0, Ly=16.0, Lz=16.0)  # tensor rpy-ewald: every periodic image
periodic.initialize(viscosity=1 / (6 * math.pi), hydrodynamicRadius=1.0)
periodic.setPositions(positions)
print("periodic box L = 16, Ewald-summed RPY: v_z =", periodic.Mdot(forces)[0][:, 2])
print("computed by", periodic.engine["backend"], periodic.engine.get("hi_kernel", ""))
