"""The 3D rigid-body reference engine (MuJoCo): the same board and dice,
behind the same physics port as :mod:`warlords_sim.physics`.

Public API: :class:`ReferenceWorld` (the ``Physics`` port of
:mod:`warlords_sim.rules.physics_port`), :data:`TIMESTEP` and :data:`SOLVER`
(the timestep and contact settings, :class:`Solver`), and the contact
calibration :func:`calibrate_board` / :class:`ContactDamping`.

Only this package imports ``mujoco`` (the optional ``reference`` extra:
``pip install 'warlords-sim[reference]'``); without it, importing this
package raises :class:`~warlords_sim.extras.MissingExtraError` (an
ImportError) saying so. Modules: :mod:`.shapes` (the rounded
die), :mod:`.solver` (timestep, contact softness, solver options),
:mod:`.calibrate` (contact damping from restitution), :mod:`.scene` (the
MuJoCo model), :mod:`.world` (the port).
"""

from warlords_sim.extras import require_extra

# before any module that imports mujoco: one clear line, not mujoco's ImportError
require_extra("reference", "the reference engine")  # MissingExtraError (an ImportError)

from warlords_sim.reference.calibrate import (  # noqa: E402
    CalibrationError,
    ContactDamping,
    calibrate_board,
)
from warlords_sim.reference.solver import SOLVER, TIMESTEP, Solver  # noqa: E402
from warlords_sim.reference.world import ReferenceWorld  # noqa: E402

#: Version of the reference model, recorded in replays made on it (bump it
#: whenever the same inputs settle differently; see physics/version.py).
#: ``reference-4``: no three-player wall in a 2-player game (issue 12).
#: ``reference-5``: the dice's set-up and read-out in plain floats, no BLAS
#: (``physics/linalg3.py``, issue 18).
#: ``reference-6``: a stiffer contact and a finer timestep (time constant
#: 2 -> 0.25 ms, solimp width 0.2 -> 0.025 mm, timestep 0.2 -> 0.025 ms),
#: where the launch faces have converged in the timestep and the contact
#: lasts as long as a real die's (issue 19, item 2; docs/fidelity.md); a
#: crenelation or siege launch where the board has no ledge leaves a block
#: set there for the flick, as the 2.5D world's (issue 19, item 3).
MODEL_VERSION = "reference-6"

__all__ = [
    "MODEL_VERSION",
    "SOLVER",
    "TIMESTEP",
    "CalibrationError",
    "ContactDamping",
    "ReferenceWorld",
    "Solver",
    "calibrate_board",
]
