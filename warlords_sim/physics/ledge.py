"""A die sliding off a ledge (a crenelation or the siege engine's top).

Pure arithmetic, no pymunk, no state. The 2.5D world uses it to start the
flight of a die flicked from a height; the reference engine simulates the
same motion in 3D.

The model (units mm, g, s, rad), in the vertical plane of the motion:
the die slides forward over the ledge's edge E. Once the ledge's edge is
less than ``mu a / 2`` ahead of the die's centre, the pressure under the die
can no longer balance the friction torque, and from then on the only
support is the edge itself: a point contact sliding along the die's bottom
face, with a normal force N >= 0 and kinetic friction ``mu N`` (a contact that
stops sliding sticks and pivots while friction can hold it). The die
pivots forward over the edge while it slides, and leaves it when N falls
to zero, when its trailing bottom edge passes the ledge's edge, or when it
has turned a quarter turn and hangs off the edge. Solving
the constraint (the edge stays on the bottom face) for N gives

    N = m (g cos(theta) - 2 w (v . f) + w^2 a / 2)
        / (1 + m lam (lam - mu s a / 2) / I)

with ``f`` the die's forward body axis, ``lam`` the contact's place on the
bottom face (forward of the centre positive), ``s`` the sign of the sliding
and ``I`` the die's moment of inertia (``m a^2 / 6`` for a sharp cube, the
default, whose figures follow; the world passes its rounded die's). For a
fast die (small angles, frictionless edge) this integrates in closed form to an exit
tumble ``w = 0.3 g / v``; with mu = 0.3 it is about ``0.39 g / v``. (The
model used before this one took the full weight at the edge throughout,
``w = 3 g / (4 v)``: about twice as much tumble.)

Convention shared with the reference engine: a flick's ``start`` is where
the die's centre is as it leaves the ledge; the ledge's edge lies
``a / 2 + 1 mm`` behind ``start`` along the flick direction, and the edge
runs across the flick direction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["LEDGE_GAP_MM", "LedgeExit", "slide_off_ledge"]

#: Clearance (mm) between the ledge's edge and the trailing face of a die
#: whose centre is at the flick's ``start`` (the launch spots of
#: boards/standard.toml lie 9 mm = a/2 + 1 mm in front of the wall's face).
LEDGE_GAP_MM = 1.0


@dataclass(frozen=True)
class LedgeExit:
    """The die's state as it leaves the ledge, in the plane of the motion.

    Attributes:
        forward_mm: centre's distance past the ledge's edge, mm (about a/2).
        drop_mm: how far the centre has dropped below its height on the
            ledge, mm (>= 0).
        speed: forward speed of the centre, mm/s.
        vz: vertical speed of the centre, mm/s (<= 0).
        tilt: forward (nose-down) tilt, rad.
        tumble: forward (nose-down) turning rate, rad/s (negative: nose up).
        time: seconds from the start of the overhang to leaving the ledge.
    """

    forward_mm: float
    drop_mm: float
    speed: float
    vz: float
    tilt: float
    tumble: float
    time: float


def slide_off_ledge(
    speed: float,
    size: float,
    gravity: float,
    friction: float,
    tumble: float = 0.0,
    i2: float | None = None,
) -> LedgeExit:
    """The die leaving a ledge it slides off at ``speed`` mm/s.

    Args:
        speed: the centre's speed across the ledge's edge as the overhang
            begins, mm/s (> 0).
        size: die edge a, mm. gravity: mm/s^2.
        friction: kinetic friction coefficient between die and ledge.
        tumble: forward (nose-down) turning rate at the start, rad/s (a
            finger striking above the centre, :mod:`~warlords_sim.physics.strike`).
        i2: the die's moment of inertia about its centre per unit mass,
            mm^2 (default a sharp cube's a^2 / 6; the 2.5D world passes its
            rounded die's, :func:`~warlords_sim.physics.impact.die_inertia`).
            The die's edges are taken sharp here.

    Returns:
        The :class:`LedgeExit`. Integrated with semi-implicit Euler steps of
        at most 50 us (at most a/100 of travel each), the contact constraint
        restored after every step.

    Raises:
        ValueError: a speed, size or gravity that is not positive and finite,
            or a friction outside [0, 1].
    """
    for name, value in (("speed", speed), ("size", size), ("gravity", gravity)):
        if not (math.isfinite(value) and value > 0.0):
            raise ValueError(f"slide_off_ledge: {name} must be a positive number, got {value}")
    if not (math.isfinite(friction) and 0.0 <= friction <= 1.0):
        raise ValueError(f"slide_off_ledge: friction must be in [0, 1], got {friction}")
    if not math.isfinite(tumble):
        raise ValueError(f"slide_off_ledge: tumble must be a finite number, got {tumble}")
    if i2 is not None and not (math.isfinite(i2) and i2 > 0.0):
        raise ValueError(f"slide_off_ledge: i2 must be a positive number (mm^2), got {i2}")
    a = size
    h = a / 2.0
    inv_m = 1.0  # per unit mass: every force below is divided by m
    inv_i = 6.0 / (a * a) if i2 is None else 1.0 / i2
    # state: centre (s, z) relative to the edge E = (0, 0); pitch th (nose down)
    s = 0.0  # the centre is over the edge (the shared launch convention)
    z = h
    vs, vz = speed, 0.0
    th = 0.0
    w = tumble
    t = 0.0
    dt = min(5e-5, a / (100.0 * speed))
    slow = 1e-3 * speed  # below this the contact is taken as not sliding
    cos, sin = math.cos, math.sin
    quarter = math.pi / 2.0
    k_tt = inv_m + h * h * inv_i
    c, sn = cos(th), sin(th)
    for _ in range(200_000):
        # body axes in the (s, z) plane: forward f = (c, -sn), up u = (sn, c)
        # (c and sn are cos and sin of th, kept from the last step)
        lam = -(s * c - z * sn)  # (E - centre) . f
        if lam < -h or th >= quarter:
            break  # the trailing bottom edge has passed the edge, or the die hangs off it
        vf = vs * c - vz * sn  # v . f
        slide = vf - w * h  # the die's material point at E, along f
        # right-hand sides of the normal (no penetration) and tangential
        # (no sliding) conditions; unknowns N and T (force along f), per unit mass
        b_n = gravity * c - 2.0 * w * vf + w * w * h
        k_nn = inv_m + lam * lam * inv_i
        k_nt = lam * h * inv_i
        if abs(slide) > slow:
            sign = 1.0 if slide > 0.0 else -1.0
            n = b_n / (k_nn - friction * sign * k_nt)
            tf = -friction * sign * n
        else:  # not sliding: it sticks and pivots if friction can hold it
            b_t = w * w * lam - gravity * sn
            det = k_nn * k_tt - k_nt * k_nt
            n = (b_n * k_tt - k_nt * b_t) / det
            tf = (k_nn * b_t - k_nt * b_n) / det
            if abs(tf) > friction * n:
                sign = -1.0 if tf > 0.0 else 1.0  # it would slide against tf
                n = b_n / (k_nn - friction * sign * k_nt)
                tf = -friction * sign * n
        if n <= 0.0:
            break  # lifts off the edge
        fs = n * sn + tf * c
        fz = n * c - tf * sn - gravity
        alpha = -(h * tf + lam * n) * inv_i  # clockwise (nose-down) positive
        vs += fs * dt
        vz += fz * dt
        w += alpha * dt
        s += vs * dt
        z += vz * dt
        th += w * dt
        t += dt
        # restore the constraint: E on the bottom face, (E - centre) . u = -h
        c, sn = cos(th), sin(th)
        gap = -(s * sn + z * c) + h  # (E - centre) . u + h
        s += gap * sn
        z += gap * c
        # kinetic friction cannot reverse the sliding: it stops at zero
        new_slide = vs * c - vz * sn - w * h
        if slide * new_slide < 0.0 and abs(slide) > slow:
            vs -= new_slide * c * 0.5
            vz += new_slide * sn * 0.5
            w += new_slide * 0.5 / h
    return LedgeExit(
        forward_mm=s,
        drop_mm=max(h - z, 0.0),
        speed=vs,
        vz=min(vz, 0.0),
        tilt=th,
        tumble=w,
        time=t,
    )
