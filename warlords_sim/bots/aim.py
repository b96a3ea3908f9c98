"""The ``aim`` bot: aims at opponents' gateways and uses abilities sensibly.

* Board flicks use the Coulomb slide distance: a die sliding at v mm/s on a
  table of kinetic friction mu stops after ``v**2 / (2 mu g)`` mm (design
  brief section 2), so ``v = sqrt(2 mu g d)`` sends it ``d`` mm.
* Launches (a crenelation, the siege engine) fly, bounce and tumble, which no
  formula captures: the bot measures, once per board (kept in the user's
  cache, :mod:`warlords_sim.bots.launch`), where a die launched straight
  out at each speed comes to rest on an empty board (:func:`launch_table`),
  and picks the speed whose measured distance is nearest the one it wants.
* Targets: a point inside each opponent's castle just behind a gateway (a
  die resting entirely in the gateway or the courtyard scores), approached
  head on; a die far off first goes to a staging point in front of the gateway.
* Abilities: Spy to the staging point in front of an opponent's gateway;
  Sapper on the pin that blocks most of its paths; center-ring pins to the
  open hole nearest its own gateways; Scout and General re-flick at once.
* :class:`~warlords_sim.bots.policy.Hand` adds the hand noise of ``skill``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from warlords_sim.board import Board, Crenelation
from warlords_sim.bots.launch import launch_table, launch_table_warmup
from warlords_sim.bots.policy import Hand
from warlords_sim.bots.skill import Skill
from warlords_sim.physics.types import LaunchKind
from warlords_sim.rules.actions import (
    Action,
    BoardFlick,
    Decline,
    RingPinMove,
    SapperPull,
    SiegeShot,
    SpyMove,
    SupplyFlick,
)
from warlords_sim.rules.errors import IllegalActionError
from warlords_sim.rules.game import GameState, Location, PendingKind
from warlords_sim.rules.legal import MAX_FLICK_SPEED, Legal, check_spy_spot

__all__ = [
    "AimBot",
    "Obstacles",
    "Target",
    "castle_targets",
    "coulomb_speed",
    "launch_table",
    "launch_table_warmup",
]

Point = tuple[float, float]


def coulomb_speed(board: Board, distance: float) -> float:
    """Speed (mm/s) that makes a die slide ``distance`` mm before Coulomb
    friction stops it: ``sqrt(2 mu g d)``, capped at the maximum flick speed."""
    mu = board.die.table_friction
    return min(math.sqrt(2.0 * mu * board.gravity_mm_s2 * max(distance, 0.0)), MAX_FLICK_SPEED)


@dataclass(frozen=True)
class Target:
    """A gateway to score through: its castle's seat and player, the spot
    (mm) a die should stop on to score, the staging spot in front of it
    outside the moat, and the unit vector into the castle."""

    seat: int
    player: int
    score: Point  # where a die should stop to score
    staging: Point  # in front of the gateway, outside the moat
    inward: Point  # unit vector into the castle


def castle_targets(state: GameState, me: int) -> list[Target]:
    """Every gateway of the other players' castles, as a :class:`Target`
    (the spots 25 mm inside the gateway and 6 mm outside the moat)."""
    b = state.board
    out = []
    for p in range(state.players):
        if p == me:
            continue
        seat = state.seat_of(p)
        castle = b.castles[seat]
        ox, oy = castle.outward
        moat_depth = min(castle.moat.width, castle.moat.height)
        for g in castle.gateways:
            gx, gy = g.center
            half = min(g.width, g.height) / 2.0
            score = (gx - ox * (half + 25.0), gy - oy * (half + 25.0))
            off = half + moat_depth + b.die.size_mm / 2.0 + 6.0
            out.append(Target(seat, p, score, (gx + ox * off, gy + oy * off), (-ox, -oy)))
    return out


class Obstacles:
    """Pins and board dice of one state, for the bot's path tests."""

    def __init__(self, pins: list[tuple[int, Point]], dice: list[tuple[int, Point]], board: Board):
        self.pins, self.dice = pins, dice
        self.pin_clear = board.pin.radius_mm + board.die.size_mm * 0.72
        self.die_clear = board.die.size_mm * 1.2

    @classmethod
    def of(cls, state: GameState) -> Obstacles:
        board = state.board
        pins = [(h, board.holes[h]) for h in state.physics.pins]
        dice = [
            (d.id, (d.pose.x, d.pose.y))
            for d in state.dice.values()
            if d.pose is not None and d.location is Location.BOARD
        ]
        return cls(pins, dice, board)

    def blockers(self, a: Point, b: Point, skip: int | None) -> list[int]:
        """Pins (hole ids) and, as -1 - id, dice in the way of a slide from a to b."""
        ax, ay = a
        dx, dy = b[0] - ax, b[1] - ay
        n2 = dx * dx + dy * dy
        out = []
        hypot = math.hypot
        # distance from the segment a + t (b - a), t in [0, 1], inlined: the bot's hot loop
        x0, x1 = (ax, b[0]) if dx >= 0 else (b[0], ax)
        y0, y1 = (ay, b[1]) if dy >= 0 else (b[1], ay)
        for clear, items, sign in ((self.pin_clear, self.pins, 0), (self.die_clear, self.dice, 1)):
            m = clear + 1.0  # farther than this outside the segment's box: farther than clear
            lo_x, hi_x, lo_y, hi_y = x0 - m, x1 + m, y0 - m, y1 + m
            for i, (px, py) in items:
                if not (lo_x < px < hi_x and lo_y < py < hi_y) or (sign and i == skip):
                    continue
                rx, ry = px - ax, py - ay
                t = 0.0 if n2 == 0 else max(0.0, min(1.0, (rx * dx + ry * dy) / n2))
                if hypot(rx - t * dx, ry - t * dy) < clear:
                    out.append(-1 - i if sign else i)
        return out

    def count(self, a: Point, b: Point, skip: int | None) -> int:
        """``len(blockers(a, b, skip))``."""
        return len(self.blockers(a, b, skip))


@dataclass(frozen=True)
class _View:
    """What one choice reads again and again, computed once: the targets
    with their leader bonus, and the obstacles."""

    state: GameState
    targets: list[tuple[Target, float]]
    obstacles: Obstacles

    @classmethod
    def of(cls, bot: AimBot, state: GameState) -> _View:
        bonus = {p: bot.leader_bonus(state, p) for p in range(state.players) if p != state.active}
        targets = [(t, bonus[t.player]) for t in castle_targets(state, state.active)]
        return cls(state, targets, Obstacles.of(state))


@dataclass(frozen=True)
class _Plan:
    cost: float
    action_kind: str  # "supply" | "board" | "siege"
    die: int | None
    spot: tuple[int, Crenelation] | None
    direction: float
    speed: float


class AimBot:
    """Aims at opponents' gateways; ``skill`` (a number in [0, 1] or a
    :class:`~warlords_sim.bots.skill.SkillLevel`) sets the hand noise."""

    name = "aim"

    def __init__(self, skill: Skill = 0.7) -> None:
        self.hand = Hand(skill)
        self._aims: dict[tuple[str, int, int, Crenelation, Point], tuple[float, float, float]] = {}

    # ------------------------------------------------------------- paths

    def _blockers(self, state: GameState, a: Point, b: Point, skip: int | None) -> list[int]:
        """Pins (hole ids) and, as -1 - id, dice in the way of a slide from a to b."""
        return Obstacles.of(state).blockers(a, b, skip)

    def leader_bonus(self, state: GameState, player: int) -> float:
        """The priority bonus (negative: sooner) for hitting ``player``: -30
        for the other player with the least damage (the leader), else 0."""
        lowest = min(t for p, t in enumerate(state.totals) if p != state.active)
        return -30.0 if state.totals[player] == lowest else 0.0

    def _board_plans(self, view: _View, die: int, kind: str) -> list[_Plan]:
        state = view.state
        pose = state.dice[die].pose
        assert pose is not None
        a = (pose.x, pose.y)
        plans = []
        board = state.board
        for t, bonus in view.targets:
            if kind == "siege":
                c = board.castles[t.seat].courtyard.center
                dist = math.hypot(c[0] - a[0], c[1] - a[1])
                table = launch_table(board, board.siege_engine.launch_height_mm, LaunchKind.SIEGE)
                speed, err = table.nearest(dist)
                plans.append(
                    _Plan(
                        60.0 + err + bonus,
                        "siege",
                        die,
                        None,
                        math.atan2(c[1] - a[1], c[0] - a[0]),
                        speed,
                    )
                )
                continue
            for goal, base in ((t.score, 0.0), (t.staging, 120.0)):
                dx, dy = goal[0] - a[0], goal[1] - a[1]
                dist = math.hypot(dx, dy)
                if dist < 1.0:
                    continue
                head_on = (dx * t.inward[0] + dy * t.inward[1]) / dist
                if goal is t.score and head_on < 0.9:
                    continue
                blocked = view.obstacles.count(a, goal, die)
                cost = base + 0.4 * dist + 200.0 * blocked + bonus
                plans.append(
                    _Plan(cost, "board", die, None, math.atan2(dy, dx), coulomb_speed(board, dist))
                )
        return plans

    def _supply_plans(self, view: _View, legal: Legal) -> list[_Plan]:
        board = view.state.board
        plans = []
        for area, cren in legal.supply_spots:
            for t, bonus in view.targets:
                dist, direction, speed = self._supply_aim(board, legal.seat, area, cren, t.staging)
                cost = 250.0 + 0.3 * dist + bonus
                plans.append(_Plan(cost, "supply", None, (area, cren), direction, speed))
        return plans

    def _supply_aim(
        self, board: Board, seat: int, area: int, cren: Crenelation, goal: Point
    ) -> tuple[float, float, float]:
        """(distance mm, direction rad, speed mm/s) of a supply flick from a
        launch spot at ``goal``: fixed per board, so kept per bot."""
        key = (board.sha256, seat, area, cren, goal)
        aim = self._aims.get(key)
        if aim is None:
            spot = board.launch_spot(seat, area, cren)
            kind = LaunchKind.HIGH if cren is Crenelation.HIGH else LaunchKind.LOW
            table = launch_table(board, spot.height_mm, kind)
            dx, dy = goal[0] - spot.x, goal[1] - spot.y
            dist = math.hypot(dx, dy)
            want = min(dist, table.reach * 0.8)
            aim = self._aims[key] = (dist, math.atan2(dy, dx), table.nearest(want)[0])
        return aim

    def _plans(self, state: GameState, legal: Legal) -> list[_Plan]:
        view = _View.of(self, state)
        plans = self._supply_plans(view, legal)
        for die in legal.board_dice:
            plans.extend(self._board_plans(view, die, "board"))
        for die in legal.siege_dice:
            plans.extend(self._board_plans(view, die, "siege"))
        return plans

    # ----------------------------------------------------------- choices

    def choose(self, state: GameState, legal: Legal, rng: np.random.Generator) -> Action:
        kind = legal.pending.kind if legal.pending is not None else None
        if kind is PendingKind.SPY and legal.spy_die is not None:
            return self._spy(state, legal.spy_die)
        if kind is PendingKind.SAPPER:
            return self._sapper(state, legal)
        if kind is PendingKind.RING:
            return self._ring(state, legal)
        plans = self._plans(state, legal)
        if not plans:
            return Decline()
        engines: dict[int, Point] = {}  # where the siege engine goes, per die
        for plan in sorted(plans, key=lambda p: p.cost):
            aim = (plan.speed * math.cos(plan.direction), plan.speed * math.sin(plan.direction))
            # it aims at the centre (strike_mm 0) with no spin: its launch
            # table is measured so, and a clean push is what it can aim; its
            # hand scatters the speed, direction, strike height and offset
            if plan.action_kind == "supply" and plan.spot is not None:
                return self.hand.deliver(SupplyFlick(plan.spot[0], plan.spot[1], aim, 0.0, 6),
                                         rng, state.board)  # fmt: skip
            if plan.action_kind == "board" and plan.die is not None:
                return self.hand.deliver(BoardFlick(plan.die, aim), rng, state.board)
            if plan.die is not None:
                from warlords_sim.rules.flicks import siege_engine_spot, siege_launch

                shot = self.hand.deliver(SiegeShot(plan.die, aim), rng, state.board)
                assert isinstance(shot, SiegeShot)
                engine = engines.get(plan.die)
                if engine is None:
                    engine = engines[plan.die] = siege_engine_spot(state, plan.die)
                try:  # the engine may have no room to launch that way
                    siege_launch(state, engine, shot.velocity)
                except IllegalActionError:
                    continue
                return shot
        return Decline()

    def _spy(self, state: GameState, die: int) -> Action:
        targets = sorted(
            castle_targets(state, state.active),
            key=lambda t: (
                self.leader_bonus(state, t.player),
                len(self._blockers(state, t.staging, t.score, die)),
            ),
        )
        for t in targets:
            for k in range(6):
                ox, oy = (
                    t.inward[1] * (5.0 * ((k + 1) // 2) * (-1) ** k),
                    -t.inward[0] * (5.0 * ((k + 1) // 2) * (-1) ** k),
                )
                x, y = t.staging[0] + ox, t.staging[1] + oy
                try:
                    check_spy_spot(state, die, x, y)
                except IllegalActionError:
                    continue
                return SpyMove(die, x, y)
        return Decline()

    def _sapper(self, state: GameState, legal: Legal) -> Action:
        plans = self._plans_for_sapper(state)
        counts = {h: 0 for h in legal.pins}
        for a, b in plans:
            for h in self._blockers(state, a, b, None):
                if h in counts:
                    counts[h] += 1
        gates = [t.score for t in castle_targets(state, state.active)]

        def key(h: int) -> tuple[int, float]:
            hx, hy = state.board.holes[h]
            return (-counts[h], min(math.hypot(hx - g[0], hy - g[1]) for g in gates))

        return SapperPull(min(legal.pins, key=key)) if legal.pins else Decline()

    def _plans_for_sapper(self, state: GameState) -> list[tuple[Point, Point]]:
        out = []
        for d in state.dice_of(state.active, Location.BOARD):
            if d.pose is None:
                continue
            for t in castle_targets(state, state.active):
                out.append(((d.pose.x, d.pose.y), t.score))
        return out

    def _ring(self, state: GameState, legal: Legal) -> Action:
        if not legal.ring_pins or not legal.open_holes:
            return Decline()
        castle = state.board.castles[legal.seat]
        ox, oy = castle.outward
        fronts = [(g.center[0] + ox * 60.0, g.center[1] + oy * 60.0) for g in castle.gateways]

        def near(h: int) -> float:
            hx, hy = state.board.holes[h]
            return min(math.hypot(hx - f[0], hy - f[1]) for f in fronts)

        ring = set(state.board.center_ring.hole_indices)
        field = [h for h in legal.open_holes if h not in ring] or list(legal.open_holes)
        return RingPinMove(max(legal.ring_pins, key=near), min(field, key=near))
