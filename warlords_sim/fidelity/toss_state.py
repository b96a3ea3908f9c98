"""The state of a tossed cube in the air, estimated from its measured free
flight.

Contract
--------
* :func:`first_contact` finds the first sample at which a corner of the
  cube is within :data:`CONTACT_CLEARANCE_M` of the table;
  :func:`estimate_state` fits the samples before it: the centre by least
  squares to a parabola under gravity (``p0 + v0 t - g t^2 / 2``, g fixed),
  the orientation to a rotation at a constant angular velocity in the
  world (``R(t) = exp([w] t) R0``; a cube's inertia is the same about every
  axis, so its free-flight spin is constant: Euler's equations), by
  Gauss-Newton on the rotation errors. Pure numpy, no state.
* Frames and units: SI. The measurement's lengths are multiplied by
  ``length_scale`` about the board frame's origin before anything else
  (:class:`Frame`): the ContactNets tosses' free flight falls at 9.61 m/s^2
  and their cube rests 51.25 mm above the board frame where its half side
  is 52.4 mm, both about 2 % short (a tag-size calibration, most likely:
  the data's README), so their lengths times 1.021 fall at 9.81 and rest
  on the board frame's z = 0. The state and everything simulated from it
  is in that scaled frame; :meth:`Frame.to_file` takes positions back.
* Errors: :class:`TossStateError` (a ValueError), one line naming the
  file's keys of the toss.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from warlords_sim.errors import WarlordsError
from warlords_sim.fidelity.rotations import qexp, qlog, qmat, qmul, qnormalize
from warlords_sim.fidelity.toss_file import Toss

__all__ = [
    "CONTACT_CLEARANCE_M",
    "MIN_FLIGHT_SAMPLES",
    "AirState",
    "Frame",
    "TossStateError",
    "estimate_state",
    "first_contact",
    "lowest_corner",
]

Array = NDArray[np.float64]

#: A sample whose lowest corner is less than this (m) above the table is
#: taken as touching it. The pose noise at first contact reads corners up to
#: about 4 mm below the table (the data's README); between samples (6.8 ms)
#: the median toss falls 7 mm, so the last sample in the air is 0-7 mm up.
CONTACT_CLEARANCE_M = 0.001
#: Fewest flight samples a state is estimated from: the fit has 6 unknowns
#: for the centre and 6 for the orientation, 3 equations a sample.
MIN_FLIGHT_SAMPLES = 5
#: The simulation starts from the fitted flight where its lowest corner is
#: at least this high (m): never inside the table, whatever the pose noise.
START_CLEARANCE_M = 0.002
_GN_ITERATIONS = 12

_CORNERS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)


class TossStateError(WarlordsError, ValueError):
    """A toss whose state in the air cannot be estimated."""


@dataclass(frozen=True)
class Frame:
    """The measurement's frame made physical: lengths times ``length_scale``
    about the board frame's origin, the table a plane at :attr:`table_z`.

    Attributes:
        length_scale: what the file's lengths are multiplied by.
        half_side: the cube's half side, m (physical).
        table_z: the table's height in the scaled frame, m: the scaled
            height of the measured resting centre (``ground_z`` + the
            nominal half side) less the half side.
    """

    length_scale: float
    half_side: float
    table_z: float

    @classmethod
    def of(cls, toss: Toss, half_side: float, length_scale: float) -> Frame:
        """The frame of ``toss`` (its ``ground_z`` was the file's resting
        centre height less ``half_side``)."""
        return cls(length_scale, half_side, length_scale * (toss.ground_z + half_side) - half_side)

    def from_file(self, pos: Array) -> Array:
        """File positions (..., 3) in the scaled frame."""
        return np.asarray(pos, dtype=np.float64) * self.length_scale

    def to_file(self, pos: Array) -> Array:
        """Scaled-frame positions (..., 3) in the file's frame."""
        return np.asarray(pos, dtype=np.float64) / self.length_scale


def lowest_corner(pos: Array, quat: Array, half_side: float) -> Array:
    """Height (m) of the lowest corner of a cube of ``half_side`` m at
    centres ``pos`` (..., 3) turned by ``quat`` (..., 4)."""
    r = qmat(quat)
    return np.asarray(pos[..., 2] - half_side * np.sum(np.abs(r[..., 2, :]), axis=-1))


def first_contact(toss: Toss, frame: Frame) -> int | None:
    """Index of the first sample of ``toss`` whose lowest corner is within
    :data:`CONTACT_CLEARANCE_M` of the table, or None (all in the air)."""
    low = lowest_corner(frame.from_file(toss.pos), toss.quat, frame.half_side) - frame.table_z
    hits = np.flatnonzero(low <= CONTACT_CLEARANCE_M)
    return int(hits[0]) if hits.size else None


@dataclass(frozen=True)
class AirState:
    """A cube in free flight, fitted (scaled frame, SI).

    Attributes:
        t: the file's time (s) at which the state is given and the
            simulation starts.
        pos: centre (3,), m. vel: centre velocity (3,), m/s.
        quat: orientation (4,), (w, x, y, z). omega: angular velocity (3,),
            rad/s, world frame.
        flight_samples: how many samples were fitted.
        contact_index: the first sample touching the table, or None.
        rms_pos: RMS of the centre's fit residuals, m.
        rms_angle: RMS of the orientation's fit residuals, rad.
        gravity_fit: the vertical acceleration (m/s^2, down) of a parabola
            fitted with g free (a check of the length scale).
    """

    t: float
    pos: Array
    vel: Array
    quat: Array
    omega: Array
    flight_samples: int
    contact_index: int | None
    rms_pos: float
    rms_angle: float
    gravity_fit: float

    def at(self, t: float | Array, gravity: float) -> tuple[Array, Array]:
        """The fitted flight's centre (..., 3) and orientation (..., 4) at
        file time(s) ``t`` (s): exact free flight, before or after :attr:`t`."""
        tau = np.asarray(t, dtype=np.float64) - self.t
        pos = (
            self.pos
            + tau[..., None] * self.vel
            - 0.5 * gravity * (tau**2)[..., None] * np.array([0.0, 0.0, 1.0])
        )
        quat = qmul(qexp(tau[..., None] * self.omega), self.quat)
        return np.asarray(pos), qnormalize(quat)


def _fit_parabola(tau: Array, p: Array, gravity: float) -> tuple[Array, Array, float, float]:
    """Centre p0, velocity v0 at tau = 0 (g fixed), RMS residual (m), and
    the free-g vertical acceleration."""
    a = np.stack([np.ones_like(tau), tau], axis=1)
    target = p.copy()
    target[:, 2] += 0.5 * gravity * tau * tau
    coef, *_ = np.linalg.lstsq(a, target, rcond=None)
    resid = a @ coef - target
    free = np.stack([np.ones_like(tau), tau, -0.5 * tau * tau], axis=1)
    gz, *_ = np.linalg.lstsq(free, p[:, 2], rcond=None)
    return coef[0], coef[1], float(np.sqrt(np.mean(np.sum(resid**2, axis=1)))), float(gz[2])


def _rotation_residuals(x: Array, tau: Array, q_ref: Array, q_meas: Array) -> Array:
    """World-frame rotation errors (n x 3) of R(tau) = exp([w] tau) exp([d]) R_ref
    against the measured orientations; x = (d, w)."""
    q0 = qmul(qexp(x[:3]), q_ref)
    model = qmul(qexp(tau[:, None] * x[3:]), q0)
    return qlog(qmul(model, q_meas * np.array([1.0, -1.0, -1.0, -1.0])))


def _fit_spin(tau: Array, q: Array) -> tuple[Array, Array, float]:
    """Orientation at tau = 0 and constant world angular velocity, by
    Gauss-Newton from a linear start; RMS angle residual (rad)."""
    k = int(np.argmin(np.abs(tau)))
    q_ref = q[k]
    # start: rotation vectors relative to the reference sample, a line in tau
    rel = qlog(qmul(q, q_ref * np.array([1.0, -1.0, -1.0, -1.0])))
    dtau = tau - tau[k]
    denom = float(np.sum(dtau * dtau))
    w = (dtau @ rel) / denom if denom > 0.0 else np.zeros(3)
    x = np.concatenate([-w * tau[k], w])
    eps = 1e-6
    for _ in range(_GN_ITERATIONS):
        r = _rotation_residuals(x, tau, q_ref, q).ravel()
        jac = np.empty((r.size, 6))
        for j in range(6):
            dx = np.zeros(6)
            dx[j] = eps
            jac[:, j] = (_rotation_residuals(x + dx, tau, q_ref, q).ravel() - r) / eps
        step, *_ = np.linalg.lstsq(jac, -r, rcond=None)
        x = x + step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    r = _rotation_residuals(x, tau, q_ref, q)
    q0 = qnormalize(qmul(qexp(x[:3]), q_ref))
    return q0, x[3:].copy(), float(np.sqrt(np.mean(np.sum(r**2, axis=1))))


def estimate_state(
    toss: Toss, frame: Frame, gravity: float = 9.81, path: str = "the toss file"
) -> AirState:
    """Fit the free flight of ``toss`` before its first contact (see the
    module docstring) and give the state at the last sample in the air,
    or earlier if the fitted lowest corner is lower there than
    :data:`START_CLEARANCE_M` (free flight is exact, so where it starts
    before the contact changes nothing).

    Args:
        toss: the measurement. frame: its scaled frame (:meth:`Frame.of`).
        gravity: m/s^2 (down, -z). path: the file, for messages.

    Raises:
        TossStateError: fewer than :data:`MIN_FLIGHT_SAMPLES` samples before
            the first contact, or a flight that starts already below the
            start clearance.
    """
    contact = first_contact(toss, frame)
    n = toss.t.size if contact is None else contact
    keys = f"pos_{toss.name}, quat_{toss.name}"
    if n < MIN_FLIGHT_SAMPLES:
        where = "in the record" if contact is None else "before the first contact"
        raise TossStateError(
            f"{path}: toss {toss.name} ({keys}): {n} sample{'s' if n != 1 else ''} in the air "
            f"{where} (a corner within {CONTACT_CLEARANCE_M * 1e3:g} mm of ground_z_{toss.name} "
            f"+ the half side), expected at least {MIN_FLIGHT_SAMPLES}"
        )
    t = toss.t[:n]
    p = frame.from_file(toss.pos[:n])
    q = qnormalize(toss.quat[:n])
    t_ref = float(t[-1])
    tau = t - t_ref
    p0, v0, rms_p, g_free = _fit_parabola(tau, p, gravity)
    q0, w, rms_q = _fit_spin(tau, q)
    state = AirState(t_ref, p0, v0, q0, w, n, contact, rms_p, rms_q, g_free)
    # start where the fitted flight is clear of the table
    for i in range(n - 1, -1, -1):
        ps, qs = state.at(float(t[i]), gravity)
        clear = float(lowest_corner(ps, qs, frame.half_side)) - frame.table_z
        if clear >= START_CLEARANCE_M:
            if i == n - 1:
                return state
            vel = state.vel - gravity * (float(t[i]) - t_ref) * np.array([0.0, 0.0, 1.0])
            return AirState(float(t[i]), ps, vel, qs, w, n, contact, rms_p, rms_q, g_free)
    raise TossStateError(
        f"{path}: toss {toss.name} ({keys}): the fitted flight is never "
        f"{START_CLEARANCE_M * 1e3:g} mm clear of the table (ground_z_{toss.name})"
    )
