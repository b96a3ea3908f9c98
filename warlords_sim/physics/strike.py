"""Where the finger strikes: the die's motion just after a flick.

Pure arithmetic, no pymunk, no state; both engines start a flick from it.

A flick is a horizontal impulse J on the die's trailing face, at a height
``strike`` (mm) above the die's centre, ``-a/2 <= strike <= a/2``. The
flick's ``velocity`` is J / m: the speed the centre gets from a blow at the
centre height. A blow above the centre also turns the die forward (nose
down) and one below it turns it back (nose up), ``w = J strike / I`` for a
free die (``I = m i2``; a sharp cube's ``i2 = a^2 / 6`` in the formulas
below, the default; the 2.5D world passes its rounded die's,
:func:`~warlords_sim.physics.impact.die_inertia`). A die standing on a surface cannot turn into
it: the bottom edge that the turn would press down (the leading edge for a
high strike, the trailing edge for a low one) takes an impulsive contact
force, plastic (the finger holds the die against it while it strikes) and
with Coulomb friction. Solved in the vertical plane of the flick
(rigid-body impulse balance about the centre; the design brief's
"a blow at or above the centre"):

* high strike, edge sticking (``|P_t| <= mu_s P_n``): the die pivots about
  its leading edge, ``w = v (strike + a/2) / (i2 + a^2/2)`` = ``3 v (strike
  + a/2) / (2 a^2)``, its centre moving
  at ``w a / 2`` forward and up (at the top, strike = a/2: ``w = 3 v /
  (2 a)``, the angular momentum ``m v a`` about the edge over ``2 m a^2/3``);
* high strike, edge sliding: ``w = strike v / (i2 + (1 - mu) a^2 / 4)``,
  forward speed ``v - mu w a / 2``;
* low strike: the trailing edge slides forward, ``w = strike v / (i2 +
  (1 + mu) a^2 / 4)`` (negative: nose up), forward speed ``v - mu |w| a / 2``.

The pressed edge is taken sharp (its contact a/2 ahead of or behind the
centre and a/2 below it), whatever the die's rounding.

What follows (the die rolling forward over its edge, rocking back, or
sliding flat) is simulated motion, never decided here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["StrikeResponse", "free_strike", "strike_on_surface"]


@dataclass(frozen=True)
class StrikeResponse:
    """The die's motion just after the strike, in the plane of the flick.

    Attributes:
        forward: speed of the centre along the flick, mm/s.
        up: vertical speed of the centre, mm/s (>= 0).
        pitch: turning rate about the horizontal axis across the flick,
            rad/s, positive nose down (forward, toward the flick).
    """

    forward: float
    up: float
    pitch: float


def _check(speed: float, strike: float, size: float, i2: float | None = None) -> None:
    if not (math.isfinite(speed) and speed >= 0.0):
        raise ValueError(f"strike: speed must be a number >= 0 mm/s, got {speed}")
    if not (math.isfinite(size) and size > 0.0):
        raise ValueError(f"strike: die size must be a positive number of mm, got {size}")
    if not (math.isfinite(strike) and abs(strike) <= size / 2.0 + 1e-9):
        raise ValueError(
            f"strike height must be within the die, -{size / 2.0:g}..{size / 2.0:g} mm "
            f"from its centre, got {strike}"
        )
    if i2 is not None and not (math.isfinite(i2) and i2 > 0.0):
        raise ValueError(f"strike: inertia per unit mass must be positive (mm^2), got {i2}")


def free_strike(
    speed: float, strike: float, size: float, i2: float | None = None
) -> StrikeResponse:
    """A die struck in the air or over a ledge's edge (nothing under its
    bottom edges): ``w = J strike / I`` = ``v strike / i2``, ``i2`` (mm^2)
    the moment of inertia about the centre per unit mass (default a sharp
    cube's a^2 / 6: ``6 v strike / a^2``).

    Raises:
        ValueError: a speed below 0, a size that is not positive, a strike
            height outside the die, or an inertia that is not positive.
    """
    _check(speed, strike, size, i2)
    if i2 is None:
        return StrikeResponse(speed, 0.0, 6.0 * speed * strike / (size * size))
    return StrikeResponse(speed, 0.0, speed * strike / i2)


def strike_on_surface(
    speed: float,
    strike: float,
    size: float,
    friction: float,
    static_friction: float,
    i2: float | None = None,
) -> StrikeResponse:
    """A die standing flat on a surface, struck at ``strike`` mm above its
    centre with an impulse of ``speed`` mm/s per unit mass (see the module
    docstring for the three cases).

    Args:
        speed: J / m, mm/s (>= 0). strike: mm above the centre, within the die.
        size: die edge a, mm. friction: kinetic coefficient between die and
            surface. static_friction: the coefficient that decides sticking.
        i2: the moment of inertia about the centre per unit mass, mm^2
            (default a sharp cube's a^2 / 6, the formulas above; the pressed
            edge is taken sharp).

    Raises:
        ValueError: see :func:`free_strike`.
    """
    _check(speed, strike, size, i2)
    a = size
    k = a * a / 6.0 if i2 is None else i2
    if strike == 0.0 or speed == 0.0:
        return StrikeResponse(speed, 0.0, 0.0)
    if strike > 0.0:
        # pivoting on the leading edge: m v (strike + a/2) = m (i2 + a^2/2) w
        if i2 is None:
            w = 3.0 * speed * (strike + a / 2.0) / (2.0 * a * a)
        else:
            w = speed * (strike + a / 2.0) / (k + a * a / 2.0)
        p_n = w * a / 2.0  # per unit mass
        p_t = w * a / 2.0 - speed
        if abs(p_t) <= static_friction * p_n:
            return StrikeResponse(w * a / 2.0, w * a / 2.0, w)
        w = strike * speed / (k + (1.0 - friction) * a * a / 4.0)
        return StrikeResponse(speed - friction * w * a / 2.0, w * a / 2.0, w)
    w = strike * speed / (k + (1.0 + friction) * a * a / 4.0)
    return StrikeResponse(speed - friction * abs(w) * a / 2.0, abs(w) * a / 2.0, w)
