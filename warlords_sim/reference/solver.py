"""The reference engine's numerical settings besides the timestep: how soft
every contact is and how MuJoCo solves and integrates it.

Contract
--------
* :class:`Solver` is a frozen value: the contact's time constant
  (``solref[0]``), the impedance ramp of ``solimp``, and MuJoCo's
  ``option`` fields that govern contact accuracy (integrator, ``impratio``,
  solver iterations and tolerance, NoSlip iterations). :data:`SOLVER` is
  the one the reference uses; :mod:`~warlords_sim.reference.calibrate`,
  :mod:`~warlords_sim.reference.scene` and
  :mod:`~warlords_sim.reference.toss` build their models with it.
* MuJoCo's documentation (Modeling, "Solver parameters" and "Preventing
  slip"; Computation, "Choosing timestep and integrator"; XML reference,
  ``option``; https://mujoco.readthedocs.io) names what decides a soft
  contact's accuracy: the timestep and the time constant (which "should be
  at least two times larger than the simulation time step"; the ``refsafe``
  flag, on by default, uses ``max(solref[0], 2 * timestep)``), ``solimp``,
  the integrator (``implicitfast`` recommended; ``RK4`` for nearly
  energy-conserving systems), elliptic cones with ``impratio`` and a tight
  Newton tolerance against slip, and the NoSlip post-processing solver.
  ``benchmarks/reference_convergence.py`` measures each of them on the
  launches (docs/fidelity.md, "Convergence of the reference").
* Imports mujoco (only to name the integrator). Units: s, mm at the
  interface; SI inside MuJoCo.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mujoco

__all__ = ["DMAX", "INTEGRATORS", "SOLVER", "TIMESTEP", "Solver"]

#: Physics timestep of the reference, s: a tenth of the contact's time
#: constant, where its face distributions have converged
#: (docs/fidelity.md, "Convergence of the reference").
TIMESTEP = 2.5e-5

#: MuJoCo's default solimp dmax (impedance at depth), used in the contact's stiffness.
DMAX = 0.95
#: Integrators by name (MuJoCo's ``option/integrator``).
INTEGRATORS = {
    "euler": mujoco.mjtIntegrator.mjINT_EULER,
    "implicitfast": mujoco.mjtIntegrator.mjINT_IMPLICITFAST,
    "rk4": mujoco.mjtIntegrator.mjINT_RK4,
}


@dataclass(frozen=True)
class Solver:
    """Contact softness and solver options of the reference engine.

    Attributes:
        time_constant: ``solref[0]`` of every contact, s (its damping ratio
            is calibrated per contact kind from the restitution).
        solimp_width_mm: penetration (mm) over which the impedance rises
            from 0 at first touch to :data:`DMAX` (``solimp`` is ``(0, DMAX,
            width, 0.5, 2)``; why: :mod:`~warlords_sim.reference.calibrate`).
        integrator: a key of :data:`INTEGRATORS`.
        impratio: MuJoCo's ratio of frictional to normal impedance (elliptic cones).
        iterations: most iterations of the (Newton) constraint solver.
        tolerance: its termination tolerance.
        noslip_iterations: iterations of the NoSlip post-processing (0: off).

    Raises:
        ValueError: a value out of range or an unknown integrator (one line).
    """

    time_constant: float = 2.5e-4
    solimp_width_mm: float = 0.025
    integrator: str = "euler"
    impratio: float = 1.0
    iterations: int = 100
    tolerance: float = 1e-8
    noslip_iterations: int = 0

    def __post_init__(self) -> None:
        for name in ("time_constant", "solimp_width_mm", "impratio", "tolerance"):
            v = getattr(self, name)
            if not (math.isfinite(v) and v > 0.0):
                raise ValueError(f"solver {name} must be a positive number, got {v}")
        if self.integrator not in INTEGRATORS:
            raise ValueError(
                f"solver integrator must be one of {', '.join(INTEGRATORS)}, "
                f"got {self.integrator!r}"
            )
        if self.iterations < 1 or self.noslip_iterations < 0:
            raise ValueError(
                f"solver iterations must be >= 1 and noslip_iterations >= 0, got "
                f"{self.iterations} and {self.noslip_iterations}"
            )

    @property
    def solimp(self) -> tuple[float, float, float, float, float]:
        """``solimp`` of every contact (width in m)."""
        return (0.0, DMAX, self.solimp_width_mm * 1e-3, 0.5, 2.0)

    def apply(self, spec: mujoco.MjSpec) -> None:
        """Set the options of ``spec`` (integrator, impratio, iterations,
        tolerance, NoSlip iterations); the timestep, gravity and cone are the
        caller's."""
        opt = spec.option
        opt.integrator = INTEGRATORS[self.integrator]
        opt.impratio = self.impratio
        opt.iterations = self.iterations
        opt.tolerance = self.tolerance
        opt.noslip_iterations = self.noslip_iterations

    def label(self) -> str:
        """A short text naming what differs from :data:`SOLVER` ("default" if nothing)."""
        parts = []
        for name, default in vars(SOLVER).items():
            v = getattr(self, name)
            if v != default:
                parts.append(f"{name} {v:g}" if isinstance(v, float) else f"{name} {v}")
        return ", ".join(parts) or "default"


#: The reference engine's settings.
SOLVER = Solver()
