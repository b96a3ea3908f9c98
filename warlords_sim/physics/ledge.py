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
        along: the centre's speed along the ledge's edge as it leaves, mm/s
            (the ``along`` it was flicked with, less what friction along the
            edge took).
        drift: how far the centre moved along the edge on the ledge, mm.
        spin: the yaw rate (about the vertical) as it leaves, rad/s.
        yaw: how far it turned about the vertical on the ledge, rad.
    """

    forward_mm: float
    drop_mm: float
    speed: float
    vz: float
    tilt: float
    tumble: float
    time: float
    along: float = 0.0
    drift: float = 0.0
    spin: float = 0.0
    yaw: float = 0.0


def slide_off_ledge(
    speed: float,
    size: float,
    gravity: float,
    friction: float,
    tumble: float = 0.0,
    i2: float | None = None,
    radius: float = 0.0,
    along: float = 0.0,
    spin: float = 0.0,
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
        radius: the die's edge radius, mm (0, the default: a sharp cube).
            Its flat bottom face then ends ``radius`` short of the edges;
            past that the ledge's edge presses on the rounded trailing edge
            (a cylinder of ``radius`` about the core cube's edge), and the
            die leaves the ledge where that contact can no longer hold it:
            sliding over a sharp edge at speed ``u`` needs a pull of ``u^2 /
            radius`` there, far more than gravity gives, so a rounded die
            leaves where its flat face ends (it was taken sharp before
            model 2.5d-10 and stayed on the ledge until its sharp trailing
            edge passed, 8 ms longer at 300 mm/s: tilted 21.3 against the
            reference's 14.6 degrees; saved case in tests/test_physics_ledge.py).
        along: the centre's speed along the ledge's edge, mm/s (a flick off
            square to the edge). spin: the yaw rate, rad/s (a finger striking
            the die beside its centre).

    Friction along the edge and against the yaw (from model 2.5d-11): the
    ledge's edge touches the die along a line of the die's flat width
    ``a - 2 radius`` across the motion, and Coulomb friction acts on each
    piece of that line against the way the die's material slides there:
    across the edge at the slide of the plane motion less ``sigma w_z``,
    along it at ``along - s w_z`` (``sigma`` the place on the line, ``s``
    the centre's distance past the edge, ``w_z`` the yaw rate). Summed over
    the line (eight pieces), the pressure's friction slows the slide along
    the edge, turns the die about the vertical (the line is behind the
    centre, so friction along it has a lever ``s``) and brakes its yaw;
    friction across the edge is the part of the cone that the slide across
    takes; while the die sticks across the edge (pivoting over it), what the
    cone has left once it holds the die there. A flick square to the edge
    with no yaw is the plane motion alone.
    Before 2.5d-11 the die kept its speed along the edge and its yaw rate,
    and a low launch 3-20 degrees off square came down on its leading edge
    exactly level in every trial (the reference's die, flicked 10 degrees
    off square at 300 mm/s, leaves the ledge yawing at -0.94 rad/s; flicked
    square with 20 rad/s of spin, at 18.6 rad/s: the saved cases in
    tests/test_physics_ledge.py).

    Returns:
        The :class:`LedgeExit`. Integrated with semi-implicit Euler steps of
        at most 50 us (at most a/100 of travel each), the contact constraint
        restored after every step.

    Raises:
        ValueError: a speed, size or gravity that is not positive and finite,
            a friction outside [0, 1], or a tumble, ``along`` or ``spin``
            that is not finite.
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
    if not (math.isfinite(radius) and 0.0 <= radius < size / 2.0):
        raise ValueError(f"slide_off_ledge: radius must be in [0, {size / 2.0:g}) mm, got {radius}")
    for name, value in (("along", along), ("spin", spin)):
        if not math.isfinite(value):
            raise ValueError(f"slide_off_ledge: {name} must be a finite number, got {value}")
    a = size
    h = a / 2.0
    hc = h - radius  # where the flat bottom face ends, from the centre
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
    side = _Sideways(along, spin, (a - 2.0 * radius) / 2.0, inv_i, slow)
    cos, sin = math.cos, math.sin
    quarter = math.pi / 2.0
    k_tt = inv_m + h * h * inv_i
    c, sn = cos(th), sin(th)
    for _ in range(200_000):
        # body axes in the (s, z) plane: forward f = (c, -sn), up u = (sn, c)
        # (c and sn are cos and sin of th, kept from the last step)
        lam = -(s * c - z * sn)  # (E - centre) . f
        if th >= quarter:
            break  # the die hangs off the edge
        if lam < -hc:
            if radius > 0.0:
                # the ledge's edge is on the rounded trailing edge
                st = _on_rounded_edge(
                    s, z, vs, vz, th, w, t, hc, radius, gravity, friction, inv_i, dt, side
                )
                s, z, vs, vz, th, w, t = st
            break  # the trailing bottom edge has passed the ledge's edge
        vf = vs * c - vz * sn  # v . f
        slide = vf - w * h  # the die's material point at E, along f
        # right-hand sides of the normal (no penetration) and tangential
        # (no sliding) conditions; unknowns N and T (force along f), per unit mass
        b_n = gravity * c - 2.0 * w * vf + w * w * h
        k_nn = inv_m + lam * lam * inv_i
        k_nt = lam * h * inv_i
        # the cone's share across when it also slides along the edge or yaws
        across = side.across(slide, s)
        if abs(slide) > slow:
            share = (1.0 if slide > 0.0 else -1.0) if across is None else across
            n = b_n / (k_nn - friction * share * k_nt)
            tf = -friction * share * n
            sideways = friction * n
        else:  # not sliding: it sticks and pivots if friction can hold it
            b_t = w * w * lam - gravity * sn
            det = k_nn * k_tt - k_nt * k_nt
            n = (b_n * k_tt - k_nt * b_t) / det
            tf = (k_nn * b_t - k_nt * b_n) / det
            # what the cone has left once it holds the die across
            sideways = math.sqrt(max((friction * n) ** 2 - tf * tf, 0.0)) if n > 0.0 else 0.0
            if abs(tf) > friction * n:
                sign = -1.0 if tf > 0.0 else 1.0  # it would slide against tf
                n = b_n / (k_nn - friction * sign * k_nt)
                tf = -friction * sign * n
                sideways = 0.0
        if n <= 0.0:
            break  # lifts off the edge
        side.advance(sideways, s, dt)
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
        along=side.u,
        drift=side.drift,
        spin=side.w,
        yaw=side.yaw,
    )


def _on_rounded_edge(
    s: float,
    z: float,
    vs: float,
    vz: float,
    th: float,
    w: float,
    t: float,
    hc: float,
    radius: float,
    gravity: float,
    friction: float,
    inv_i: float,
    dt: float,
    side: _Sideways,
) -> tuple[float, float, float, float, float, float, float]:
    """Follow the die while the ledge's edge E (the origin) presses on its
    rounded trailing bottom edge: a cylinder of ``radius`` about the core
    edge C = centre - hc (f + u), with the same unknowns as on the flat face
    (normal force N along n = (C - E) / radius, friction T along t), the
    no-penetration condition ``n . a_C + |v_C across n|^2 / radius = 0``
    and, while not sliding, no tangential acceleration of the die's point at
    E. Friction along the edge and against the yaw as on the flat face
    (``side``, advanced in place). Returns the state (s, z, vs, vz, th, w,
    t) where N falls to zero, the contact reaches the back face, or the die
    hangs off the edge."""
    cos, sin = math.cos, math.sin
    slow = 1e-3 * (abs(vs) + abs(vz))
    for _ in range(200_000):
        c, sn = cos(th), sin(th)
        # the core edge's offset from the centre, and C itself (E at the origin)
        dcs, dcz = -hc * (c + sn), -hc * (c - sn)
        cs_, cz_ = s + dcs, z + dcz
        dist = math.hypot(cs_, cz_)
        ns, nz = cs_ / dist, cz_ / dist
        if ns * sn + nz * c <= 0.0 or th >= math.pi / 2.0:
            break  # the contact has reached the back face, or it hangs off
        ts, tz = nz, -ns
        des, dez = -s, -z  # E - centre
        # velocities: the die's point at E, and the core edge C
        vps, vpz = vs + w * dez, vz - w * des
        vcs, vcz = vs + w * dcz, vz - w * dcs
        slide = vps * ts + vpz * tz
        vcn = vcs * ns + vcz * nz
        vperp2 = vcs * vcs + vcz * vcz - vcn * vcn
        tau_n = dez * ns - des * nz
        tau_t = dez * ts - des * tz
        q = ns * dcz - nz * dcs
        b_n = gravity * nz + w * w * (ns * dcs + nz * dcz) - vperp2 / radius
        k_nn = 1.0 + tau_n * q * inv_i
        k_nt = tau_t * q * inv_i
        across = side.across(slide, s)
        if abs(slide) > slow:
            share = (1.0 if slide > 0.0 else -1.0) if across is None else across
            n = b_n / (k_nn - friction * share * k_nt)
            tf = -friction * share * n
            sideways = friction * n
        else:  # not sliding: it rolls on the edge if friction can hold it
            b_t = gravity * tz + w * w * (ts * des + tz * dez)
            k_tn = tau_n * tau_t * inv_i
            k_tt = 1.0 + tau_t * tau_t * inv_i
            det = k_nn * k_tt - k_nt * k_tn
            n = (b_n * k_tt - k_nt * b_t) / det
            tf = (k_nn * b_t - k_tn * b_n) / det
            sideways = math.sqrt(max((friction * n) ** 2 - tf * tf, 0.0)) if n > 0.0 else 0.0
            if abs(tf) > friction * n:
                sign = -1.0 if tf > 0.0 else 1.0
                n = b_n / (k_nn - friction * sign * k_nt)
                tf = -friction * sign * n
                sideways = 0.0
        if n <= 0.0:
            break  # the rounded edge lifts off the ledge's edge
        side.advance(sideways, s, dt)
        fs = n * ns + tf * ts
        fz = n * nz + tf * tz - gravity
        alpha = (dez * (n * ns + tf * ts) - des * (n * nz + tf * tz)) * inv_i
        vs += fs * dt
        vz += fz * dt
        w += alpha * dt
        s += vs * dt
        z += vz * dt
        th += w * dt
        t += dt
        # restore the constraint: C at ``radius`` from E
        c, sn = cos(th), sin(th)
        cs_, cz_ = s - hc * (c + sn), z - hc * (c - sn)
        dist = math.hypot(cs_, cz_)
        s += cs_ / dist * (radius - dist)
        z += cz_ / dist * (radius - dist)
    return s, z, vs, vz, th, w, t


#: Pieces of the contact line that friction along the edge is summed over.
_PIECES = 8


class _Sideways:
    """The motion out of the plane of :func:`slide_off_ledge`: the centre's
    speed ``u`` along the ledge's edge (mm/s) and the yaw rate ``w`` (rad/s),
    with the distance ``drift`` (mm) and turn ``yaw`` (rad) they made, under
    Coulomb friction on a contact line of half-length ``half`` mm (the die's
    flat width across the motion) behind the centre. A piece of the line at
    ``sigma`` along the edge slides across at ``slide - sigma w`` and along at
    ``u - s w`` (``s`` the centre's distance past the edge); its friction,
    ``mu N / pieces`` against that slide, is summed over the pieces. Slides
    under ``slow`` mm/s are taken as viscous (friction in proportion), the
    usual regularisation of Coulomb's law near sticking."""

    __slots__ = ("_ce", "_cs", "_half", "_inv_i", "_sigmas", "_slow", "drift", "u", "w", "yaw")

    def __init__(self, u: float, w: float, half: float, inv_i: float, slow: float) -> None:
        self.u, self.w, self.drift, self.yaw = u, w, 0.0, 0.0
        self._half, self._inv_i, self._slow = half, inv_i, slow
        self._ce = self._cs = 0.0
        step = 2.0 * half / _PIECES
        self._sigmas = tuple(-half + (k + 0.5) * step for k in range(_PIECES))

    def across(self, slide: float, s: float) -> float | None:
        """The share of the friction cone across the edge (in [-1, 1], with
        the sign of ``slide``) when the die slides along the edge or yaws
        faster than ``slow``; None when it does neither, and the plane
        motion's own friction (sliding or sticking) holds."""
        along = self.u - s * self.w
        if abs(along) + abs(self.w) * self._half <= self._slow:
            self._ce = self._cs = 0.0
            return None
        slow = self._slow
        w = self.w
        hypot = math.hypot
        cn = ce = cs = 0.0
        for sigma in self._sigmas:
            vn = slide - sigma * w
            speed = hypot(vn, along)
            scale = 1.0 / (speed if speed > slow else slow)
            cn += vn * scale
            ce += along * scale
            cs += sigma * vn * scale
        self._ce, self._cs = ce / _PIECES, cs / _PIECES
        return cn / _PIECES

    def advance(self, mu_n: float, s: float, dt: float) -> None:
        """One step of ``dt`` s under the friction ``mu_n`` (mu N per unit
        mass, mm/s^2) of the shares :meth:`across` last found."""
        if self._ce == 0.0 and self._cs == 0.0:
            self.drift += self.u * dt
            self.yaw += self.w * dt
            return
        fe = -mu_n * self._ce  # along the edge
        torque = -s * fe + mu_n * self._cs  # about the vertical, per unit mass
        self.u += fe * dt
        self.w += torque * self._inv_i * dt
        self.drift += self.u * dt
        self.yaw += self.w * dt
