"""After each step of a 2.5D world: the work the step made due, and the
dice coming to rest.

Contract
--------
* :meth:`Settling.after_step` runs after every step that a collision
  callback left work for, and at the scheduled checks: the landings on top,
  trips and kicks the callbacks noted (in that order); the dice pressed by
  a moving die woken; a ledge exit, a pivot's next step, a flight's
  landing or change of collision mask where due; every
  :data:`CHECK_EVERY` steps each moving die checked (off the board: EXIT;
  lost its support: it falls; slow enough and pressed by nothing moving:
  at rest, its overlaps relaxed, its cocked flag decided, REST). When the
  last die stops, a die pymunk nudged since it rested is relaxed again and
  every cocked flag re-decided.
* Cocked: a die at rest is cocked if it rests on a die (or anything lower
  than a castle wall) or is tipped against what stopped its last roll,
  still right beside it (:meth:`Settling.decide_cocked`).
* Changes the dice through :class:`~warlords_sim.physics.motion.DieMotion`
  and :mod:`~warlords_sim.physics.overlap`, the bookkeeping through the
  :class:`~warlords_sim.physics.bodies.WorldState`; never steps the space.
* Units mm, s; board frame. Imports pymunk (through the records) and the
  physics modules below the world; never the world.
"""

from __future__ import annotations

from warlords_sim.physics import overlap
from warlords_sim.physics.bodies import DieBody, WorldState
from warlords_sim.physics.motion import DieMotion
from warlords_sim.physics.support import Support
from warlords_sim.physics.types import Event, EventKind

__all__ = ["CHECK_EVERY", "REST_SPEED", "REST_SPIN", "Settling"]

#: A grounded die slower than this (mm/s and rad/s) is at rest.
REST_SPEED = 0.5
REST_SPIN = 0.01
#: Steps between checks of moving dice (rest, exit, lost support).
CHECK_EVERY = 4


class Settling:
    """What is due after a step, and rest (see the module docstring).

    Args:
        ws: the world's shared state. motion: the dice's motion.
        support: what holds up a die off the table.
    """

    def __init__(self, ws: WorldState, motion: DieMotion, support: Support) -> None:
        self._ws = ws
        self._motion = motion
        self._support = support

    def after_step(self, side_walls: bool) -> None:
        ws, m = self._ws, self._motion
        ws.dirty = False
        was_moving = bool(ws.active)
        landed: set[int] = set()
        if ws.pending.tops:
            tops, ws.pending.tops = ws.pending.tops, []
            for die_id, top in tops:
                d = ws.dice.get(die_id)
                if d is not None and d.flight is not None and die_id not in landed:
                    landed.add(die_id)
                    m.bounce(d, floor=top)
        if ws.pending.trips:
            trips, ws.pending.trips = ws.pending.trips, []
            for die_id, nx, ny, speed in trips:
                d = ws.dice.get(die_id)
                if d is not None and d.flight is None:
                    m.trip(d, nx, ny, speed)
        if ws.pending.kicks:
            kicks, ws.pending.kicks = ws.pending.kicks, []
            for die_id, nx, ny, speed, bottom, top in kicks:
                d = ws.dice.get(die_id)
                if d is not None and d.flight is not None and die_id not in landed:
                    m.side_kick(d, nx, ny, speed, bottom, top)
        check = ws.steps % CHECK_EVERY == 0
        nxt = ws.steps + (CHECK_EVERY - ws.steps % CHECK_EVERY)
        if check and ws.active:
            # dice resting against a moving die, or standing on one, may move too
            for i in sorted(ws.active):
                for j in sorted(ws.contacts.get(i, ())):
                    other = ws.dice.get(j)
                    if other is not None and j not in ws.active:
                        ws.wake(other)
            for d in ws.dice.values():
                if d.floor > 0.0 and d.id not in ws.active:
                    ws.wake(d)
        for i in sorted(ws.active):
            d = ws.dice[i]
            if d.ledge is not None:
                if ws.steps >= d.ledge.step:
                    m.leave_ledge(d)
                else:
                    nxt = min(nxt, d.ledge.step)
            if d.roll is not None:
                # a pivot begun after this step (a trip, a landing on top)
                # has not been stepped yet: advanced now, its clock ran a
                # step ahead of the world's and its body was sent two
                # steps' way in one (to 2.5d-10; saved case in
                # tests/test_physics_roll.py)
                if d.roll.begun < ws.steps:
                    m.advance_roll(d)
                if d.roll is not None:
                    nxt = ws.steps + 1
            f = d.flight
            if f is not None:
                if ws.steps >= f.hit_step:
                    m.bounce(d, floor=f.floor)
                elif ws.steps >= d.next_mask_step:
                    m.update_air_mask(d)
                if d.flight is not None:
                    nxt = min(nxt, d.next_mask_step)
            if check and d.id in ws.dice:
                self.check_die(d, side_walls)
        ws.next_check = nxt
        if was_moving and not ws.active:
            # everything has stopped: a die at rest that pymunk nudged since
            # (too slowly to wake it) is relaxed again where it now lies; what
            # leaned on a die that moved away drops back flat
            self.relax_nudged()
            self.decide_all_cocked()

    def check_die(self, d: DieBody, side_walls: bool) -> None:
        """Every CHECK_EVERY steps, for a moving die: off the board? lost its
        support? at rest?"""
        ws, m = self._ws, self._motion
        x, y = d.body.position
        if not ws.board.on_board(x, y):
            self.exit(d, side_walls)
            return
        if d.flight is not None or d.roll is not None or d.ledge is not None:
            return
        if d.floor > 0.0 and not self._support.holds(d.shape, d.body.position, d.floor):
            m.fall(d)
            return
        v = d.body.velocity
        if (
            abs(v.x) + abs(v.y) < REST_SPEED
            and abs(d.body.angular_velocity) < REST_SPIN
            and not self.pressed_by_moving(d)
        ):
            d.body.velocity = (0.0, 0.0)
            d.body.angular_velocity = 0.0
            d.awake = False
            ws.active.discard(d.id)
            # pymunk pushes overlapping shapes apart only a few per cent a
            # step (its collision bias): finish the job now it has stopped
            if overlap.may_overlap(ws, d):
                overlap.relax_at_rest(ws, d)
            ws.rested(d)
            d.cocked = self.decide_cocked(d)
            x, y = d.body.position
            if d.id in ws.moved:
                ws.events.append(
                    Event(EventKind.REST, ws.time, d.id, float(x), float(y), face=m.face(d))
                )
        else:
            ws.moved.add(d.id)

    def pressed_by_moving(self, d: DieBody) -> bool:
        """Is die ``d`` touching a die that still moves? Then it is not at
        rest, however slow it is now: pymunk's first impulses of a contact are
        small, and a die declared at rest there was struck after the check,
        by a contact that ended before the next, and slid on unwatched (saved
        case in tests/test_physics_faults.py)."""
        ws = self._ws
        for j in ws.contacts.get(d.id, ()):
            e = ws.dice.get(j)
            if e is None or j not in ws.active:
                continue
            if e.flight is not None or e.roll is not None:
                return True
            v = e.body.velocity
            if abs(v.x) + abs(v.y) >= REST_SPEED:
                return True
        return False

    def exit(self, d: DieBody, over_wall: bool) -> None:
        ws, m = self._ws, self._motion
        x, y = d.body.position
        ws.events.append(
            Event(
                EventKind.EXIT,
                ws.time,
                d.id,
                float(x),
                float(y),
                face=m.face(d),
                over_wall=over_wall,
            )
        )
        ws.exited.append(d.id)
        ws.remove(d.id)

    def decide_cocked(self, d: DieBody) -> bool:
        """Does die ``d``, at rest, rest cocked: on top of a die (or anything
        lower than a castle wall, :meth:`Support.rests_cocked`), or tilted
        against what stopped its last roll, which must still be right beside
        it in the direction it tipped? A lean whose support has gone (it slid
        away, or the pin or die was taken away) is forgotten: the die has
        dropped back flat on the face it had before it tipped."""
        ws = self._ws
        if self._support.rests_cocked(d.floor):
            return True
        if d.lean is None:
            return False
        ux, uy = d.lean
        x, y = d.body.position
        if overlap.blocked(ws, d, x + ux * ws.size, y + uy * ws.size):
            return True
        d.lean = None
        return False

    def decide_all_cocked(self) -> None:
        """Re-decide every die's cocked flag (everything is at rest)."""
        ws = self._ws
        for i in sorted(ws.dice):
            d = ws.dice[i]
            cocked = self.decide_cocked(d)
            if cocked != d.cocked:
                d.cocked = cocked
                ws.poses.pop(i, None)

    def relax_nudged(self) -> None:
        """Every die that is no longer where it came to rest (pymunk pushed it
        without waking it: a slow contact, its collision bias) forgets its
        kept pose and is relaxed where it now lies (saved case in
        tests/test_physics_faults.py: a die pressed 2.5 um into a wall)."""
        ws = self._ws
        for i in sorted(ws.dice):
            d = ws.dice[i]
            x, y = d.body.position
            if d.rest_at != (x, y, d.body.angle):
                ws.poses.pop(i, None)
                if overlap.may_overlap(ws, d):
                    overlap.relax_at_rest(ws, d)
                ws.rested(d)
