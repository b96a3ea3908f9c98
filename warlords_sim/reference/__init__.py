"""The 3D rigid-body reference engine (MuJoCo): the same board and dice,
behind the same physics port as :mod:`warlords_sim.physics`.

Public API: :class:`ReferenceWorld` (the ``Physics`` port of
:mod:`warlords_sim.rules.physics_port`), :data:`TIMESTEP`, and the contact
calibration :func:`calibrate_board` / :class:`ContactDamping`.

Only this package imports ``mujoco`` (the optional ``reference`` extra:
``pip install 'warlords-sim[reference]'``); without it, importing this
package raises :class:`~warlords_sim.extras.MissingExtraError` (an
ImportError) saying so. Modules: :mod:`.shapes` (the rounded
die), :mod:`.footprint` (placement checks), :mod:`.calibrate` (contact
damping from restitution), :mod:`.scene` (the MuJoCo model), :mod:`.world`
(the port).
"""

from warlords_sim.extras import require_extra

# before any module that imports mujoco: one clear line, not mujoco's ImportError
require_extra("reference", "the reference engine")  # MissingExtraError (an ImportError)

from warlords_sim.reference.calibrate import (  # noqa: E402
    CalibrationError,
    ContactDamping,
    calibrate_board,
)
from warlords_sim.reference.world import TIMESTEP, ReferenceWorld  # noqa: E402

#: Version of the reference model, recorded in replays made on it (bump it
#: whenever the same inputs settle differently; see physics/version.py).
#: ``reference-4``: no three-player wall in a 2-player game (issue 12).
#: ``reference-5``: the dice's set-up and read-out in plain floats, no BLAS
#: (``physics/linalg3.py``, issue 18).
MODEL_VERSION = "reference-5"

__all__ = [
    "MODEL_VERSION",
    "TIMESTEP",
    "CalibrationError",
    "ContactDamping",
    "ReferenceWorld",
    "calibrate_board",
]
