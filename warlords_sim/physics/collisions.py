"""The collision callbacks of a 2.5D world: what pymunk reports as a die's
shape begins or stops touching something, recorded for after the step.

Contract
--------
* "Physics records, rules decide" (docs/architecture.md): a callback only
  appends a CONTACT event, wakes the die, keeps which dice touch, and
  notes work for after the step (:class:`~warlords_sim.physics.bodies.Pending`:
  a landing on top of what a falling die met, a trip or a kick the side-blow
  model answered with); the one thing it tells pymunk is not to push a
  die that came down onto the top of what it met.
* pymunk calls these from C, where an exception is printed and lost:
  :class:`ContactRecorder` keeps the first one (a bug, or a Ctrl-C) in
  :attr:`ContactRecorder.error` for the world's ``step`` to raise.
* Units mm, s; board frame. Imports pymunk and the physics records,
  models and shape types; never the world.
"""

from __future__ import annotations

import pymunk

from warlords_sim.physics.bodies import TIMESTEP, WorldState
from warlords_sim.physics.flight import HeightBands
from warlords_sim.physics.impact import BlowResponse
from warlords_sim.physics.motion import DieMotion
from warlords_sim.physics.shapes import DIE_TYPE, ENGINE_TYPE, PIN_TYPE
from warlords_sim.physics.support import Support
from warlords_sim.physics.types import Event, EventKind

__all__ = ["ContactRecorder"]


class ContactRecorder:
    """The die collision handler of one world's space.

    Args:
        ws: the world's shared state.
        motion: the dice's motion (heights of dice, the side-blow model).
        support: what a die coming down may land on top of.
        bands: the collision height bands (the height of an obstacle).
        pins: the world's pin shapes by hole (its own dict, read as it changes).
    """

    def __init__(
        self,
        ws: WorldState,
        motion: DieMotion,
        support: Support,
        bands: HeightBands,
        pins: dict[int, pymunk.Circle],
    ) -> None:
        self._ws = ws
        self._motion = motion
        self._support = support
        self._bands = bands
        self._pins = pins
        #: the first exception a callback raised in the step, for step() to raise
        self.error: BaseException | None = None

    def install(self, space: pymunk.Space) -> None:
        """Register the handler for dice (with anything) in ``space``."""
        space.on_collision(DIE_TYPE, None, begin=self.begin_guarded, separate=self.separate_guarded)

    def begin_guarded(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        """:meth:`on_begin`, its exception kept in :attr:`error`."""
        # pymunk's C callback swallows exceptions (printing "Exception ignored"):
        # a Ctrl-C or a bug in here would silently skip the bookkeeping and
        # change the physics. Keep it and raise it after the step instead.
        try:
            self.on_begin(arbiter, space, data)
        except BaseException as e:  # noqa: BLE001 - re-raised by step()
            if self.error is None:
                self.error = e

    def separate_guarded(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        """:meth:`on_separate`, its exception kept in :attr:`error`."""
        try:
            self.on_separate(arbiter, space, data)
        except BaseException as e:  # noqa: BLE001 - re-raised by step()
            if self.error is None:
                self.error = e

    def on_begin(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        """A die's shape began touching something. pymunk calls the DIE
        wildcard handler once from each die's side, so this records only
        shape ``a``'s side: an event, a wake-up, maybe a trip."""
        ws = self._ws
        a, b = arbiter.shapes
        da = ws.die_of(a)
        if da is None:
            return
        n = arbiter.normal
        body_a, body_b = a.body, b.body
        if body_a is None or body_b is None:
            return
        f = da.flight
        if f is not None:
            # the step has moved the body already (ws.time is still its start)
            t = ws.time + TIMESTEP - f.t0
            db = ws.die_of(b)
            top = (
                self._support.on_top(b, body_a.position, f.height(t), f.vz(t))
                if db is None or (db.flight is None and db.floor == 0.0)
                else None
            )
            if top is not None:
                # it came down onto the top of what it met, not against its
                # side: a landing there after the step, no push from pymunk
                arbiter.process_collision = False
                ws.pending.tops.append((da.id, top))
                ws.wake(da)
                ws.dirty = True
                return
        va = body_a.velocity
        vb = body_b.velocity
        approach = (va.x - vb.x) * n.x + (va.y - vb.y) * n.y
        btype = b.collision_type
        if btype == DIE_TYPE:
            db = ws.die_of(b)
            other = "die" if db is None else f"die:{db.id}"
            if db is not None:
                ws.contacts.setdefault(da.id, set()).add(db.id)
            if approach > 0.0:
                ws.touched.add(da.id)
        elif btype == PIN_TYPE:
            other = "pin"
            for hole, shape in self._pins.items():
                if shape is b:
                    other = f"pin:{hole}"
                    break
        elif btype == ENGINE_TYPE:
            other = "siege_engine"
        else:
            other = "wall"
        ws.wake(da)
        x, y = body_a.position
        ws.events.append(Event(EventKind.CONTACT, ws.time, da.id, x, y, other, approach))
        # what the blow sets off beyond pymunk's push: the blow model decides
        bottom, top = self._extent_of(b)
        response = self._motion.blows.response(da.flight is not None, da.floor, approach, top)
        if response is BlowResponse.KICK:
            ws.pending.kicks.append((da.id, -n.x, -n.y, approach, bottom, top))
        elif response is BlowResponse.TRIP:
            ws.pending.trips.append((da.id, -n.x, -n.y, approach))
        ws.dirty = True

    def _extent_of(self, shape: pymunk.Shape) -> tuple[float, float]:
        """Bottom and top height (mm) of what ``shape`` stands for."""
        size = self._ws.size
        other = self._ws.die_of(shape)
        if other is not None:
            if other.flight is not None:
                z = self._motion.height(other)
                return (z - size / 2.0, z + size / 2.0)
            return (other.floor, other.floor + size)
        h = self._bands.height_of(shape.filter.categories)
        return (0.0, size if h is None else h)

    def on_separate(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        """Two dice stopped touching: forget the contact."""
        a, b = arbiter.shapes
        if a is None or b is None or b.collision_type != DIE_TYPE:
            return
        ia, ib = self._ws.shape_die.get(a), self._ws.shape_die.get(b)
        if ia is not None and ib is not None:
            self._ws.contacts.get(ia, set()).discard(ib)
