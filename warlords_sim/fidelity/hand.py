"""Hand noise on a flick's inputs: the one noise model ``flick --noise`` and
the fidelity suite share.

A real hand never flicks exactly the same way twice. The noise is explicit
and seeded, on the inputs only (design brief, section 2): the speed is
multiplied by ``1 + N(0, s)`` and the heading turned by ``N(0, s)`` rad,
drawn in that order from the generator passed in. Units mm/s and rad.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["noisy_velocity"]


def noisy_velocity(
    velocity: tuple[float, float],
    noise: float,
    rng: np.random.Generator,
    max_speed: float = math.inf,
) -> tuple[float, float]:
    """``velocity`` (vx, vy) mm/s after hand noise of relative size ``noise``.

    Draws two normals from ``rng``: the speed factor ``1 + N(0, noise)``
    first, then the heading turn ``N(0, noise)`` rad. The noisy speed is
    clamped to ``max_speed`` (mm/s). With ``noise == 0`` nothing is drawn
    and ``velocity`` is returned unchanged.

    Raises:
        ValueError: ``noise`` not a finite number in [0, 1].
    """
    if not (math.isfinite(noise) and 0.0 <= noise <= 1.0):
        raise ValueError(f"hand noise must be a number in [0, 1], got {noise}")
    if noise == 0.0:
        return velocity
    speed0 = math.hypot(*velocity)
    heading0 = math.atan2(velocity[1], velocity[0])
    speed = min(speed0 * (1.0 + rng.normal(0.0, noise)), max_speed)
    heading = heading0 + rng.normal(0.0, noise)
    return (speed * math.cos(heading), speed * math.sin(heading))
