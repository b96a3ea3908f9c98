"""The mutable state of a 2.5D world that its jobs share: the pymunk space,
each die's body and motion state, the clock, the event log and the
bookkeeping of which dice move and touch.

:class:`~warlords_sim.physics.world.World` owns one :class:`WorldState`
and hands it to the modules that do the work: the motion of a die
(:mod:`~warlords_sim.physics.motion`), the removal of overlaps
(:mod:`~warlords_sim.physics.overlap`), the collision callbacks
(:mod:`~warlords_sim.physics.collisions`). Each reads and changes it
explicitly; nothing here decides anything.

Contract
--------
* Records only: a die's record (:class:`DieBody`) and its pivot
  (:class:`Rolling`) and ledge exit (:class:`OnLedge`), the work collision
  callbacks leave for after the step (:class:`Pending`), and
  :class:`WorldState` with the few helpers every job needs (wake a die,
  tell pymunk of a body moved by hand, the die of a shape).
* Units mm, g, s, rad; board frame. Imports pymunk, numpy and the physics
  value modules; never the world or a job module.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pymunk
from numpy.typing import NDArray

from warlords_sim.board import Board
from warlords_sim.physics.flight import InFlight
from warlords_sim.physics.pivot import PivotEnd, PivotState
from warlords_sim.physics.types import DiePose, Event, WorldError

__all__ = ["TIMESTEP", "DieBody", "OnLedge", "Pending", "Rolling", "WorldState"]

#: Physics timestep, s.
TIMESTEP = 1.0 / 240.0


@dataclass
class Rolling:
    """A die pivoting on a bottom edge on its floor, step by step
    (:func:`~warlords_sim.physics.pivot.advance`)."""

    ux: float  # pivot direction (along a body axis), board frame
    uy: float
    ox: float  # the edge's floor contact point when the pivot began, mm
    oy: float
    r0: NDArray[np.float64]  # world orientation lying flat on the face it left
    state: PivotState  # where the body is now
    next: PivotState  # where the body is sent by the next step
    end: PivotEnd = PivotEnd.NONE  # what the next step ends with, if anything
    sent: tuple[float, float] = (0.0, 0.0)  # the body's velocity set for the step, mm/s
    begun: int = -1  # the world step at whose end it began

    @property
    def phi(self) -> float:
        """Turned so far about the edge, rad (where the body is now)."""
        return self.state.phi


@dataclass(frozen=True)
class OnLedge:
    """A die sliding off a ledge (:func:`~warlords_sim.physics.tumble.ledge_launch`,
    solved in closed form): its flight starts at the end of step ``step``,
    the first step boundary after it left the ledge, in the state it has
    then (centre x, y, z mm; velocity mm/s; orientation; angular velocity
    rad/s; yaw rad); ``on_ledge`` is its centre's height on the ledge, mm."""

    step: int
    x: float
    y: float
    z: float
    vx: float
    vy: float
    vz: float
    r: NDArray[np.float64]
    omega: NDArray[np.float64]
    yaw: float
    on_ledge: float


@dataclass
class DieBody:
    """One die of the world: its pymunk parts and its motion state."""

    id: int
    body: pymunk.Body
    shape: pymunk.Poly
    pivot: pymunk.PivotJoint
    gear: pymunk.GearJoint
    r_rel: NDArray[np.float64]  # orientation in the die's yaw frame (at rest: exact)
    floor: float = 0.0  # height of what it stands on, mm
    flight: InFlight | None = None
    awake: bool = False
    cocked: bool = False  # decided when it comes to rest (settle.Settling.decide_cocked)
    lean: tuple[float, float] | None = None  # direction it tipped against something
    roll: Rolling | None = None  # pivoting over an edge
    ledge: OnLedge | None = None  # sliding off the ledge it was flicked from
    mask: int = -1
    next_mask_step: int = -1
    # (x, y, yaw) where it came to rest (WorldState.rested); None while it moves
    rest_at: tuple[float, float, float] | None = None

    @property
    def airborne(self) -> bool:
        return self.flight is not None


@dataclass
class Pending:
    """Work noted by collision callbacks, done after the step: the side
    blows the blow model answered with a trip (grounded dice) or a kick
    (airborne dice), and the landings on top of what a flying die met
    (:meth:`Support.on_top`). Landings are done first, then trips, then
    kicks (a die that landed on top is not kicked)."""

    trips: list[tuple[int, float, float, float]] = field(default_factory=list)
    kicks: list[tuple[int, float, float, float, float, float]] = field(default_factory=list)
    #: flying dice that came down onto the top of what they met (die, top mm)
    tops: list[tuple[int, float]] = field(default_factory=list)


class WorldState:
    """The state a world's jobs share (see the module docstring).

    Attributes:
        board: the board. space: the pymunk space. size: the die's edge, mm.
        time, steps: the clock (s) and the steps taken.
        dice: the dice by id. shape_die: the die of each die's shape.
        events: the event log of the flick (and the settling after changes).
        exited: dice that left the board in the flick, in order.
        touched: dice that ran into another die in the flick.
        active: dice airborne or moving. moved: dice that moved in the flick.
        contacts: die -> dice it touches. poses: cached poses of dice at rest.
        pending: work the callbacks left for after the step.
        next_check: the step at which the moving dice are next looked at.
        dirty: a callback left work for after this step.
        hand_moved: a body moved by hand since pymunk last looked for contacts.
    """

    def __init__(self, board: Board, space: pymunk.Space) -> None:
        self.board = board
        self.space = space
        self.size = board.die.size_mm
        self.time = 0.0
        self.steps = 0
        self.dice: dict[int, DieBody] = {}
        self.shape_die: dict[pymunk.Shape, int] = {}
        self.events: list[Event] = []
        self.pending = Pending()
        self.touched: set[int] = set()
        self.active: set[int] = set()
        self.moved: set[int] = set()
        self.contacts: dict[int, set[int]] = {}
        self.poses: dict[int, DiePose] = {}
        self.exited: list[int] = []
        self.next_check = 0
        self.dirty = False
        self.hand_moved = True

    def get(self, die: int) -> DieBody:
        """Die ``die``.

        Raises:
            WorldError: no such die.
        """
        d = self.dice.get(die)
        if d is None:
            raise WorldError(f"no die {die} in the world")
        return d

    def add(self, d: DieBody) -> None:
        """Keep die ``d`` (its parts already in the space)."""
        self.dice[d.id] = d
        self.shape_die[d.shape] = d.id

    def remove(self, die: int) -> None:
        """Take die ``die``'s parts out of the space and forget it.

        Raises:
            WorldError: no such die.
        """
        d = self.get(die)
        self.space.remove(d.body, d.shape, d.pivot, d.gear)
        del self.dice[die]
        self.active.discard(die)
        self.poses.pop(die, None)
        for other in self.contacts.pop(die, set()):
            self.contacts.get(other, set()).discard(die)
        del self.shape_die[d.shape]

    def die_of(self, shape: pymunk.Shape) -> DieBody | None:
        """The die whose shape ``shape`` is, or None (a wall, pin, the engine)."""
        die = self.shape_die.get(shape)
        return None if die is None else self.dice.get(die)

    def wake(self, d: DieBody) -> None:
        """Die ``d`` moves: followed every step until it rests again."""
        d.awake = True
        d.rest_at = None
        self.active.add(d.id)
        self.poses.pop(d.id, None)

    def reindex(self, body: pymunk.Body) -> None:
        """pymunk learns of a body moved by hand (not by its own step): its
        contacts are now out of date until the next step."""
        self.hand_moved = True
        self.space.reindex_shapes_for_body(body)

    def put(self, d: DieBody, x: float, y: float, angle: float) -> None:
        """Set die ``d``'s body at (x, y) mm turned ``angle`` rad."""
        d.body.position = (x, y)
        d.body.angle = angle
        self.reindex(d.body)

    @staticmethod
    def rested(d: DieBody) -> None:
        """Note where die ``d`` lies at rest (:attr:`DieBody.rest_at`)."""
        x, y = d.body.position
        d.rest_at = (float(x), float(y), float(d.body.angle))

    def check_soon(self, step: int) -> None:
        """Look at the moving dice no later than step ``step``."""
        self.next_check = min(self.next_check, step)
