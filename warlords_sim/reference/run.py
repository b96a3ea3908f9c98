"""One flick in the reference world: step MuJoCo until everything rests,
recording the event log.

Contract
--------
* Takes a compiled scene (:mod:`~warlords_sim.reference.scene`), the dice's
  resting states and the flick; gives the settled states, exits, events and
  the dice touched. Changes nothing but its own MuJoCo data, except that a
  die leaving the board is switched out of the model (no contacts, no
  gravity): :attr:`FlickRun.model_changed` then says the model must be
  rebuilt before it is used again.
* Rest: every die slower than :data:`REST_SPEED` and turning slower than
  :data:`REST_SPIN` for :data:`REST_TIME`. Events: LAUNCH; CONTACT when a
  die begins touching a wall, pin, die or the siege engine from the side
  (not within :data:`DEBOUNCE_S` of last touching it); LANDING when a die
  touching no support (the table, or the top of something: a contact
  normal within 45 degrees of vertical) begins touching one at a normal
  approach speed of at least :data:`LANDING_SPEED`; EXIT when its centre
  leaves the board square; REST for every die that moved.
* Units mm, s at the interface; SI inside MuJoCo.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import mujoco
import numpy as np
from numpy.typing import NDArray

from warlords_sim.board import Board
from warlords_sim.physics.linalg3 import dot3, matvec
from warlords_sim.physics.orientation import face_up
from warlords_sim.physics.strike import free_strike, strike_on_surface
from warlords_sim.physics.types import Event, EventKind, Flick, LaunchKind
from warlords_sim.physics.world import WorldError
from warlords_sim.reference.scene import Built
from warlords_sim.reference.state import RestingDie, close, laid_flat, quat_to_mat

__all__ = [
    "CHECK_EVERY",
    "DEBOUNCE_S",
    "LANDING_SPEED",
    "REST_SPEED",
    "REST_SPIN",
    "REST_TIME",
    "FlickRun",
    "StepHook",
]

#: A die slower than this (mm/s) and turning slower than REST_SPIN (rad/s)
#: for REST_TIME (s) is at rest. A die left after a slide chatters on its
#: soft contacts at about 0.1 rad/s and 0.3 mm/s, so the thresholds lie above that.
REST_SPEED = 5.0
REST_SPIN = 0.5
REST_TIME = 0.05
#: Least normal approach speed (mm/s) of a landing (a bounce slower than
#: this rises under 0.2 mm: settling, not a landing).
LANDING_SPEED = 60.0
#: A contact with the same thing within this time (s) is the same contact.
DEBOUNCE_S = 0.01
#: Steps between checks for exits and rest.
CHECK_EVERY = 10
#: Cosine of the largest angle from vertical of a supporting contact's normal.
_SUPPORT_COS = math.sqrt(0.5)
_MM = 1e-3

#: Called after every step of a flick with the MuJoCo model and data (SI units).
StepHook = Callable[[mujoco.MjModel, mujoco.MjData], None]


class FlickRun:
    """One flick's simulation: steps, events, exits, rest.

    Args:
        built: the compiled scene holding every die of ``dice``.
        dice: each die's resting state before the flick (the flicked die at
            its launch state).
        flick: the flick (its die gets the flick's velocity and spin).
        initial: the flicked die's face up at launch.
        board: the board (its size decides exits; its die laid flat).
        side_walls: whether the side walls stand (marks exits over them).
        max_time: simulated seconds before giving up.
    """

    def __init__(
        self,
        built: Built,
        dice: Mapping[int, RestingDie],
        flick: Flick,
        initial: int,
        board: Board,
        side_walls: bool,
        max_time: float,
    ) -> None:
        self.before = dict(dice)
        self.board = board
        self.side_walls = side_walls
        self.flick = flick
        self.max_time = max_time
        self.model_changed = False
        self.built = built
        self.model = self.built.model
        self.data = mujoco.MjData(self.model)
        self.events: list[Event] = []
        self.touched: set[int] = set()
        self.exited: list[int] = []
        self.settled: dict[int, RestingDie] = {}
        self.steps = 0
        self.gone = np.zeros(len(self.built.dice), dtype=bool)
        self._contact_seen: dict[int, int] = {}  # pair code -> last step seen
        self._supported: set[int] = set()  # die indices touching a support
        self._moved: set[int] = set()
        self._set_state(initial)

    # ------------------------------------------------------------- set-up

    def _set_state(self, initial: int) -> None:
        d, b = self.data, self.built
        for k, i in enumerate(b.dice):
            s = self.before[i]
            a = b.qpos[k]
            d.qpos[a : a + 3] = [s.x * _MM, s.y * _MM, s.z * _MM]
            d.qpos[a + 3 : a + 7] = s.quat
        fl = self.flick
        k = b.dice.index(fl.die)
        s = self.before[fl.die]
        v = b.qvel[k]
        vx, vy, vz = fl.velocity[0], fl.velocity[1], 0.0
        omega = np.array([0.0, 0.0, fl.spin])
        if fl.strike_mm != 0.0 and fl.speed > 0.0:
            # the finger's blow off the centre height (physics/strike.py, shared
            # with the 2.5D world): on the table the pressed bottom edge's
            # impulsive reaction is solved there; over a ledge's edge it is free
            ux, uy = vx / fl.speed, vy / fl.speed
            spec = self.board.die
            if fl.launch is LaunchKind.TABLE:
                hit = strike_on_surface(
                    fl.speed,
                    fl.strike_mm,
                    spec.size_mm,
                    spec.table_friction,
                    spec.table_static_friction,
                )
            else:
                hit = free_strike(fl.speed, fl.strike_mm, spec.size_mm)
            vx, vy, vz = ux * hit.forward, uy * hit.forward, hit.up
            omega = np.array([-uy * hit.pitch, ux * hit.pitch, fl.spin])
        d.qvel[v : v + 3] = [vx * _MM, vy * _MM, vz * _MM]
        # a free joint's angular velocity is in the body frame
        d.qvel[v + 3 : v + 6] = matvec(s.rotation.T, omega)
        mujoco.mj_forward(self.model, d)
        self._moved.add(k)
        self.events.append(
            Event(EventKind.LAUNCH, 0.0, fl.die, s.x, s.y, fl.launch.value, fl.speed, initial)
        )
        self._contacts(record=False)  # what it touches at the start is no news

    # --------------------------------------------------------------- loop

    def simulate(self, on_step: StepHook | None = None) -> None:
        model, data = self.model, self.data
        dt = model.opt.timestep
        limit = int(round(self.max_time / dt))
        quiet_needed = int(math.ceil(REST_TIME / dt))
        quiet = 0
        step = mujoco.mj_step
        while True:
            step(model, data)
            self.steps += 1
            if on_step is not None:
                on_step(model, data)
            if data.ncon:
                self._contacts()
            elif self._supported:
                self._supported = set()
            if self.steps % CHECK_EVERY == 0:
                self._exits()
                if self._calm():
                    quiet += CHECK_EVERY
                    if quiet >= quiet_needed:
                        break
                else:
                    quiet = 0
            if self.steps >= limit:
                raise WorldError(f"dice still moving after {self.max_time} s")
        self._finish()

    # ----------------------------------------------------------- contacts

    def _contacts(self, record: bool = True) -> None:
        """Record CONTACT and LANDING events of this step's new contacts
        (only note them with ``record=False``)."""
        data, built = self.data, self.built
        n = data.ncon
        con = data.contact
        geom = con.geom[:n]
        nz = con.frame[:n, 2]
        gd = built.geom_die
        da, db = gd[geom[:, 0]], gd[geom[:, 1]]
        ng = self.model.ngeom
        supported: dict[int, int] = {}  # die index -> contact index of a support
        new: list[tuple[int, int, int]] = []  # (die index, other geom, contact)
        step = self.steps
        window = max(1, int(round(DEBOUNCE_S / self.model.opt.timestep)))
        for c in range(n):
            for die_k, other, sign in ((da[c], geom[c, 1], -1.0), (db[c], geom[c, 0], 1.0)):
                if die_k < 0 or self.gone[die_k]:
                    continue
                # the contact normal points from geom 0 to geom 1; sign turns it
                # to point from the other thing to this die
                up = sign * float(nz[c])
                other = int(other)
                is_table = built.labels[other] == "table"
                if is_table or up > _SUPPORT_COS:
                    supported.setdefault(int(die_k), c)
                    continue
                code = int(die_k) * ng + other
                last = self._contact_seen.get(code)
                self._contact_seen[code] = step
                if last is None or step - last > window:
                    new.append((int(die_k), other, c))
        if record:
            for die_k, other, c in new:
                self._side_contact(die_k, other, c)
            for die_k, c in supported.items():
                if die_k not in self._supported:
                    self._landing(die_k, c, geom[c])
        self._supported = set(supported)

    def _point_velocity(self, body: int, point: NDArray[np.float64]) -> NDArray[np.float64]:
        """World velocity (m/s) of ``point`` (m) moving with ``body``."""
        if body == 0:
            return np.zeros(3)
        v = np.zeros(6)
        mujoco.mj_objectVelocity(self.model, self.data, mujoco.mjtObj.mjOBJ_BODY, body, v, 0)
        arm = point - self.data.xpos[body]
        return np.asarray(v[3:] + np.cross(v[:3], arm), dtype=np.float64)

    def _approach(self, c: int) -> float:
        """Normal approach speed (mm/s) of the two geoms of contact ``c``."""
        con = self.data.contact
        g0, g1 = int(con.geom[c, 0]), int(con.geom[c, 1])
        p = np.array(con.pos[c])
        n = np.array(con.frame[c, :3])
        b0, b1 = int(self.model.geom_bodyid[g0]), int(self.model.geom_bodyid[g1])
        rel = self._point_velocity(b1, p) - self._point_velocity(b0, p)
        # geom 1 approaches geom 0 when its velocity along n (0 -> 1) is negative
        return -dot3(rel, n) / _MM

    def _die_xy(self, k: int) -> tuple[float, float]:
        a = self.built.qpos[k]
        return float(self.data.qpos[a]) / _MM, float(self.data.qpos[a + 1]) / _MM

    def _side_contact(self, k: int, other: int, c: int) -> None:
        speed = self._approach(c)
        label = self.built.labels[other]
        if label.startswith("die:") and speed > 0.0:
            self.touched.add(self.built.dice[k])
            self.touched.add(int(label[4:]))
        x, y = self._die_xy(k)
        i = self.built.dice[k]
        self._moved.add(k)
        self.events.append(
            Event(EventKind.CONTACT, self.steps * self.model.opt.timestep, i, x, y, label, speed)
        )

    def _landing(self, k: int, c: int, geom: NDArray[np.int64]) -> None:
        speed = self._approach(c)
        if speed < LANDING_SPEED:
            return
        other = int(geom[0]) if int(geom[1]) == self.built.geoms[k] else int(geom[1])
        label = self.built.labels[other]
        x, y = self._die_xy(k)
        i = self.built.dice[k]
        self._moved.add(k)
        self.events.append(
            Event(
                EventKind.LANDING,
                self.steps * self.model.opt.timestep,
                i,
                x,
                y,
                "table" if label == "table" else "top",
                speed,
                face_up(self._rotation(k)),
            )
        )

    def _rotation(self, k: int) -> NDArray[np.float64]:
        a = self.built.qpos[k]
        return quat_to_mat(self.data.qpos[a + 3 : a + 7])

    # -------------------------------------------------------- exits, rest

    def _exits(self) -> None:
        half = self.board.half_size_mm * _MM
        qpos = self.data.qpos
        for k, a in enumerate(self.built.qpos):
            if self.gone[k]:
                continue
            if abs(qpos[a]) > half or abs(qpos[a + 1]) > half:
                self._exit(k)

    def _exit(self, k: int) -> None:
        i = self.built.dice[k]
        x, y = self._die_xy(k)
        self.events.append(
            Event(
                EventKind.EXIT,
                self.steps * self.model.opt.timestep,
                i,
                x,
                y,
                face=face_up(self._rotation(k)),
                over_wall=self.side_walls,
            )
        )
        self.exited.append(i)
        self.gone[k] = True
        g = self.built.geoms[k]
        # out of the simulation: it touches nothing and floats where it is
        self.model.geom_contype[g] = 0
        self.model.geom_conaffinity[g] = 0
        body = int(self.model.geom_bodyid[g])
        self.model.body_gravcomp[body] = 1.0
        v = self.built.qvel[k]
        self.data.qvel[v : v + 6] = 0.0
        self.model_changed = True  # build afresh before using the model again

    def _calm(self) -> bool:
        qvel = self.data.qvel
        for k, v in enumerate(self.built.qvel):
            if self.gone[k]:
                continue
            lin = math.sqrt(float(qvel[v] ** 2 + qvel[v + 1] ** 2 + qvel[v + 2] ** 2)) / _MM
            ang = math.sqrt(float(qvel[v + 3] ** 2 + qvel[v + 4] ** 2 + qvel[v + 5] ** 2))
            if lin >= REST_SPEED or ang >= REST_SPIN:
                self._moved.add(k)
                return False
        return True

    def _finish(self) -> None:
        """Read back every die's settled state (a die lying flat on the table
        is laid exactly flat: see :func:`_laid_flat`); REST events for those
        that moved."""
        on = self._resting_on_die_or_engine()
        t = self.steps * self.model.opt.timestep
        board = self.board
        for k, i in enumerate(self.built.dice):
            if self.gone[k]:
                continue
            a = self.built.qpos[k]
            q = self.data.qpos
            quat = np.array(q[a + 3 : a + 7])
            quat /= math.sqrt(sum(float(x) * float(x) for x in quat))
            s = laid_flat(
                RestingDie(
                    float(q[a]) / _MM,
                    float(q[a + 1]) / _MM,
                    float(q[a + 2]) / _MM,
                    (float(quat[0]), float(quat[1]), float(quat[2]), float(quat[3])),
                    k in on,
                ),
                board.die.sides_mm,
                board.die.edge_radius_mm,
            )
            self.settled[i] = s
            old = self.before.get(i)
            if k in self._moved or old is None or not close(old, s):
                self.events.append(Event(EventKind.REST, t, i, s.x, s.y, face=face_up(s.rotation)))

    def _resting_on_die_or_engine(self) -> set[int]:
        """Die indices with a supporting contact on a die or the siege engine."""
        out: set[int] = set()
        data, built = self.data, self.built
        for c in range(data.ncon):
            g0, g1 = (int(g) for g in data.contact.geom[c])
            nz = float(data.contact.frame[c, 2])
            for die_g, other, up in ((g0, g1, -nz), (g1, g0, nz)):
                k = int(built.geom_die[die_g])
                if k < 0 or up <= _SUPPORT_COS:
                    continue
                label = built.labels[other]
                if label.startswith("die:") or label == "siege_engine":
                    out.add(k)
        return out
