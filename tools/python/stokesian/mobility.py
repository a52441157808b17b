"""The mobility product M F of spheres with libMobility's solver interface.

A libMobility user replaces ``libMobility.NBody("open", "open", "open")`` (or ``PSE("periodic", ...)``)
by ``stokesian.Mobility(...)``; ``setParameters``, ``initialize``, ``setPositions`` and ``Mdot`` keep
their names and meaning. Each ``Mdot`` builds an engine of the chosen backend, precision mode and HI
kernel on the positions, with the forces as external forces, and returns its first velocities: bit
for bit what a run (``stokesian run``) computes at step 0 from the same positions and forces.
"""
import math

import numpy as np

from . import _stokesian

_PERIODICITIES = ("open", "periodic")


def _vectors(values, what, count=None):
    """values as a C-contiguous float64 (N, 3) array, and the shape they came in."""
    array = np.asarray(values, dtype=np.float64)
    shape = array.shape
    if array.ndim == 1 and array.size % 3 == 0:
        array = array.reshape(-1, 3)
    if array.ndim != 2 or array.shape[1] != 3:
        raise ValueError(f"{what}: shape {shape}: expected (N, 3) or (3N,)")
    if count is not None and array.shape[0] != count:
        raise ValueError(f"{what}: {array.shape[0]} vectors for {count} particles")
    bad = np.flatnonzero(~np.isfinite(array).all(axis=1))
    if bad.size:
        raise ValueError(f"{what}: particle {bad[0]} has a value that is not finite: {array[bad[0]].tolist()}")
    return np.ascontiguousarray(array), shape


def _wrap(positions, edges):
    """Positions outside the periodic box [-L/2, L/2) moved into it by whole edges; those inside
    are kept as they are (bit for bit)."""
    half = 0.5 * edges
    outside = (positions < -half) | (positions >= half)
    if not outside.any():
        return positions
    moved = positions - edges * np.floor((positions + half) / edges)
    moved = np.where(moved >= half, moved - edges, moved)
    moved = np.where(moved < -half, moved + edges, moved)
    return np.ascontiguousarray(np.where(outside, moved, positions))


def cpu_threads(threads):
    """threads checked as --threads is: 0 (all cores) ... the engine's maximum."""
    if isinstance(threads, bool) or not isinstance(threads, int) or not 0 <= threads <= _stokesian.max_cpu_threads:
        raise ValueError(f"threads = {threads!r}: expected 0 (all cores) ... {_stokesian.max_cpu_threads}")
    return threads


def _positive(value, what):
    if value is None or isinstance(value, bool) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{what} = {value!r}: expected a finite number > 0")
    return float(value)


class Mobility:
    """v = M F for spheres in an open or periodic box (libMobility's solver interface).

    Parameters
    ----------
    periodicityX, periodicityY, periodicityZ : str
        "open" (all three) or "periodic" (all three; the box edges go to setParameters).
    """

    #: The floating-point type of the arrays in and out (libMobility's class attribute): NumPy
    #: float64 always; the engine's own precision is setParameters(precision=...).
    precision = "double"

    def __init__(self, periodicityX="open", periodicityY="open", periodicityZ="open"):
        given = (periodicityX, periodicityY, periodicityZ)
        if given[0] not in _PERIODICITIES or len(set(given)) != 1:
            raise ValueError(f"periodicity {given}: expected ('open', 'open', 'open') or "
                             "('periodic', 'periodic', 'periodic')")
        self.periodic = given[0] == "periodic"
        self.setParameters()
        self._self_mobility = None
        self._positions = None
        #: The last Mdot's engine: backend, kernel, threads, precision, ... (its provenance).
        self.engine = {}

    def setParameters(self, tensor=None, precision="hi=f64,int=f64", backend="cpu", hiKernel="auto",
                      Lx=None, Ly=None, Lz=None, psi=None, threads=0, algorithm="advise", shearStrain=0.0):
        """The engine's settings.

        tensor : "rotne-prager" (Rotne-Prager-Yamakawa; in a periodic box the nearest image only),
            "oseen" or "rpy-ewald" (every periodic image, Ewald-summed). Default: "rotne-prager" in an
            open box, "rpy-ewald" in a periodic one (what libMobility's NBody and PSE compute).
        precision : a precision mode, "hi=f64,int=f64" ... "hi=f32,int=f32" (engine/docs/precision.md).
        backend : "cpu", "cuda" or "auto" (those this build has).
        hiKernel : "auto" (the fastest kernel with the CPU's bits), "fast" or a kernel's name.
        Lx, Ly, Lz : the periodic box's edges (periodic only); the box is [-L/2, L/2) per axis.
        psi : the Ewald splitting parameter xi in 1/length (rpy-ewald only; default 3 / V^(1/3)).
        threads : CPU worker threads (0: all cores).
        algorithm, shearStrain : libMobility's NBody and PSE keywords, accepted with the values that mean
            what stokesian does: "advise" (the kernel is hiKernel's choice) and 0 (no shear).
        """
        if algorithm != "advise":
            raise ValueError(f"algorithm = {algorithm!r}: only 'advise' (choose the kernel with hiKernel)")
        if shearStrain != 0:
            raise ValueError(f"shearStrain = {shearStrain!r}: only 0 (stokesian's periodic box is not sheared)")
        edges = (Lx, Ly, Lz)
        if self.periodic:
            self._edges = np.array([_positive(L, name) for L, name in zip(edges, ("Lx", "Ly", "Lz"))]
                                   if edges != (None, None, None) else [math.nan] * 3)
        elif edges != (None, None, None):
            raise ValueError("Lx, Ly, Lz: only for a periodic box")
        else:
            self._edges = np.zeros(3)
        self._tensor = tensor if tensor is not None else ("rpy-ewald" if self.periodic else "rotne-prager")
        if psi is not None and self._tensor != "rpy-ewald":
            raise ValueError(f"psi = {psi!r}: only with tensor 'rpy-ewald'")
        self._xi = None if psi is None else _positive(psi, "psi")
        self._precision_mode = precision
        self._backend = backend
        self._hi_kernel = hiKernel
        self._threads = cpu_threads(threads)

    def initialize(self, viscosity, hydrodynamicRadius, includeAngular=False, tolerance=1e-6):
        """The fluid and the spheres: mu0 = 1 / (6 pi viscosity hydrodynamicRadius).

        tolerance : the Ewald sum's truncation error per entry of M, in units of mu0 (rpy-ewald only;
            1e-12 ... 0.01; the scenario key physics.ewald.tolerance).
        includeAngular : must be False (stokesian computes the translational mobility only).
        """
        if includeAngular:
            raise ValueError("includeAngular = True: stokesian computes the translational mobility only")
        self._radius = _positive(hydrodynamicRadius, "hydrodynamicRadius")
        self._self_mobility = _stokesian.stokes_self_mobility(_positive(viscosity, "viscosity"), self._radius)
        self._tolerance = _positive(tolerance, "tolerance")

    @property
    def selfMobility(self):
        """mu0, the Stokes mobility of one sphere (after initialize)."""
        return self._self_mobility

    def getNumberParticles(self):
        return 0 if self._positions is None else len(self._positions)

    def setPositions(self, positions):
        """The sphere centres, shape (N, 3) or (3N,). In a periodic box a position outside
        [-L/2, L/2) is moved into it by whole edges."""
        array, _ = _vectors(positions, "positions")
        if self.periodic:
            if np.isnan(self._edges).any():
                raise ValueError("setPositions: a periodic box needs setParameters(Lx=..., Ly=..., Lz=...) first")
            array = _wrap(array, self._edges)
        self._positions = array

    def Mdot(self, forces=None, torques=None):
        """M F: (velocities in the shape of forces, None) -- libMobility's (linear, angular) pair."""
        if torques is not None:
            raise ValueError("torques: stokesian computes the translational mobility only (includeAngular is False)")
        if forces is None:
            raise ValueError("Mdot: forces are required")
        if self._self_mobility is None:
            raise ValueError("Mdot: call initialize(viscosity, hydrodynamicRadius) first")
        if self._positions is None:
            raise ValueError("Mdot: call setPositions(positions) first")
        array, shape = _vectors(forces, "forces", len(self._positions))
        velocities, self.engine = _stokesian.mobility_product(
            self._positions, array, self._radius, self._self_mobility, self._tensor, self.periodic,
            self._edges.tolist(), self._tolerance, self._xi, self._precision_mode, self._backend,
            self._hi_kernel, self._threads)
        return velocities.reshape(shape), None

    def clean(self):
        """Forgets the positions (libMobility's clean: frees what the solver holds)."""
        self._positions = None
