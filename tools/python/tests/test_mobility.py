"""stokesian.Mobility: M F bit for bit what the engine computes in a run, libMobility's interface."""
import math
import unittest

import numpy as np

import stokesian
from support import ScratchTestCase, run_cli

# Three spheres, one pair overlapping (the Rotne-Prager-Yamakawa overlap form), coordinates that are
# not exact in float (the precision modes round them differently).
POSITIONS = np.array([[0.1, -0.3, 0.7], [2.9, 0.45, -0.2], [-1.3, 2.2, 1.85], [3.6, 1.1, -0.4]])
FORCES = np.array([[0.0, 0.0, -1.0], [0.3, -0.1, -1.0], [-0.25, 1.0, 0.125], [1.0, 0.5, 0.0]])


def vectors_toml(vectors):
    return "[" + ", ".join("[" + ", ".join(repr(float(x)) for x in v) + "]" for v in vectors) + "]"


def first_velocities_of_a_run(scratch, *, tensor, precision, periodic_edge=None, radius=1.0, viscosity=1.0,
                              tolerance=1e-6):
    """The velocities at step 0 of `stokesian run` on POSITIONS with FORCES (the CLI's bits)."""
    box = f'boundary = "periodic"\nedges = [{periodic_edge!r}, {periodic_edge!r}, {periodic_edge!r}]' \
        if periodic_edge else 'boundary = "open"'
    ewald = f"[physics.ewald]\ntolerance = {tolerance!r}\n" if tensor == "rpy-ewald" else ""
    text = f"""[scenario]
name = "mobility_product"
[physics]
radius = {radius!r}
viscosity = {viscosity!r}
tensor = "{tensor}"
{ewald}[box]
{box}
[particles]
positions = {vectors_toml(POSITIONS)}
forces = {vectors_toml(FORCES)}
allow_overlap = true
[run]
dt = 0.01
steps = 1
sample_every = 0.01
precision = "{precision}"
"""
    scenario = scratch / f"mobility_{tensor}_{precision.replace(',', '_').replace('=', '')}.toml"
    scenario.write_text(text)
    output = scratch / (scenario.stem + ".h5")
    run_cli("run", scenario, "-o", output, "--threads", 1)
    result = stokesian.Result(output)
    assert result.step[0] == 0
    return result.velocities[0]


class MdotIsTheEnginesMobilityProduct(ScratchTestCase):
    CASES = [  # tensor, precision mode, periodic edge
        ("rotne-prager", "hi=f64,int=f64", None),
        ("oseen", "hi=f32,int=ds", None),
        ("rotne-prager", "hi=ds,int=f32", 9.0),
        ("rpy-ewald", "hi=f64,int=f64", 9.0),
        ("rpy-ewald", "hi=f32,int=f32", 9.0),
    ]

    def test_mdot_equals_the_first_velocities_of_a_cli_run_bit_for_bit(self):
        for tensor, precision, edge in self.CASES:
            with self.subTest(tensor=tensor, precision=precision, periodic=edge):
                expected = first_velocities_of_a_run(self.scratch, tensor=tensor, precision=precision,
                                                     periodic_edge=edge, radius=0.9, viscosity=0.7)
                periodicity = "periodic" if edge else "open"
                solver = stokesian.Mobility(periodicity, periodicity, periodicity)
                solver.setParameters(tensor=tensor, precision=precision, backend="cpu", hiKernel="auto",
                                     **({"Lx": edge, "Ly": edge, "Lz": edge} if edge else {}), threads=1)
                solver.initialize(viscosity=0.7, hydrodynamicRadius=0.9)
                solver.setPositions(POSITIONS)
                velocities, angular = solver.Mdot(forces=FORCES)
                self.assertIsNone(angular)
                self.assertEqual(velocities.shape, (4, 3))
                self.assertEqual(velocities.tobytes(), expected.tobytes(),
                                 f"Mdot {velocities.tolist()} != the run's {expected.tolist()}")
                self.assertEqual(solver.engine["backend"], "cpu")

    def test_the_precision_modes_give_different_bits(self):
        # Mdot runs the requested mode: f32 rounds where f64 does not (else the test above would
        # hold for a solver that ignores the mode).
        def mdot(precision):
            solver = stokesian.Mobility()
            solver.setParameters(precision=precision)
            solver.initialize(viscosity=1 / (6 * math.pi), hydrodynamicRadius=1.0)
            solver.setPositions(POSITIONS)
            return solver.Mdot(FORCES)[0]
        f64, f32 = mdot("hi=f64,int=f64"), mdot("hi=f32,int=f32")
        self.assertNotEqual(f64.tobytes(), f32.tobytes())
        np.testing.assert_allclose(f32, f64, rtol=1e-6, atol=1e-6)


class MdotFollowsLibMobilitysConventions(unittest.TestCase):
    def solver(self, **parameters):
        solver = stokesian.Mobility("open", "open", "open")
        solver.setParameters(**parameters)
        solver.initialize(viscosity=1.0, hydrodynamicRadius=1.0)
        return solver

    def test_two_spheres_move_as_the_rotne_prager_tensor_says(self):
        solver = self.solver()
        r = 3.0
        solver.setPositions([[0, 0, 0], [r, 0, 0]])
        velocities, _ = solver.Mdot([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
        mu0 = 1 / (6 * math.pi)
        along = mu0 * (1.5 / r - 1.0 / r**3)  # 3a/(4r) (1 + 1) + a^3/(2r^3) (1 - 3)
        across = mu0 * (0.75 / r + 0.5 / r**3)
        expected = [[mu0, across, 0.0], [along, mu0, 0.0]]
        np.testing.assert_allclose(velocities, expected, rtol=1e-15, atol=1e-18)

    def test_flat_arrays_give_flat_velocities_and_the_same_numbers(self):
        solver = self.solver()
        solver.setPositions(POSITIONS.ravel())
        flat, _ = solver.Mdot(FORCES.ravel())
        self.assertEqual(flat.shape, (12,))
        solver.setPositions(POSITIONS)
        self.assertEqual(solver.getNumberParticles(), 4)
        shaped, _ = solver.Mdot(FORCES)
        self.assertEqual(shaped.shape, (4, 3))
        self.assertEqual(shaped.ravel().tobytes(), flat.tobytes())

    def test_a_periodic_box_wraps_positions_outside_it(self):
        solver = stokesian.Mobility("periodic", "periodic", "periodic")
        solver.setParameters(Lx=8.0, Ly=8.0, Lz=8.0, tensor="rotne-prager")
        solver.initialize(viscosity=1.0, hydrodynamicRadius=1.0)
        inside = np.array([[0.5, -1.25, 3.0], [-3.5, 2.0, -4.0], [1.75, 3.5, 0.0]])
        solver.setPositions(inside)
        expected, _ = solver.Mdot(FORCES[:3])
        solver.setPositions(inside + np.array([8.0, -16.0, 24.0]))  # whole edges: exact in double
        moved, _ = solver.Mdot(FORCES[:3])
        self.assertEqual(moved.tobytes(), expected.tobytes())

    def test_what_it_cannot_do_is_refused_with_one_line(self):
        with self.assertRaisesRegex(ValueError, "periodicity"):
            stokesian.Mobility("periodic", "periodic", "open")
        with self.assertRaisesRegex(ValueError, "includeAngular"):
            stokesian.Mobility().initialize(1.0, 1.0, includeAngular=True)
        solver = self.solver()
        solver.setPositions(POSITIONS)
        with self.assertRaisesRegex(ValueError, "torques"):
            solver.Mdot(FORCES, torques=FORCES)
        with self.assertRaisesRegex(ValueError, r"forces: 3 vectors for 4 particles"):
            solver.Mdot(FORCES[:3])
        with self.assertRaisesRegex(ValueError, "not finite"):
            solver.Mdot(FORCES * np.nan)
        bad = self.solver(tensor="stokeslet")
        bad.setPositions(POSITIONS)
        with self.assertRaisesRegex(ValueError, "tensor 'stokeslet': expected one of rotne-prager, oseen, rpy-ewald"):
            bad.Mdot(FORCES)
        bad = self.solver(precision="hi=f16,int=f64")
        bad.setPositions(POSITIONS)
        with self.assertRaisesRegex(ValueError, "f16"):
            bad.Mdot(FORCES)
        bad = self.solver(tensor="rpy-ewald")
        bad.setPositions(POSITIONS)
        with self.assertRaisesRegex(ValueError, "periodic"):
            bad.Mdot(FORCES)
        with self.assertRaisesRegex(ValueError, r"threads = 5000: expected 0 \(all cores\) ... 4096"):
            stokesian.Mobility().setParameters(threads=5000)
        with self.assertRaisesRegex(ValueError, "Lx"):
            stokesian.Mobility().setParameters(Lx=4.0)
        with self.assertRaisesRegex(ValueError, "viscosity"):
            stokesian.Mobility().initialize(viscosity=-1.0, hydrodynamicRadius=1.0)


if __name__ == "__main__":
    unittest.main()
