"""The ``search`` bot: tries its candidate flicks on copies of the game and
keeps the one whose outcomes score best on average.

For a flick decision (a turn's flick, a Scout's or a General's second one):

1. **Candidates** (:meth:`SearchBot.candidates`): supply launches from every
   legal launch spot (area and crenelation) at an opponent's gateway, its
   scoring point just behind it and its courtyard, each at the speed the
   aim bot's launch table (:mod:`warlords_sim.bots.launch`) says reaches that
   distance; board flicks of each own die at the same goals, at the Coulomb
   slide speed ``sqrt(2 mu g d)``; knock-outs: own board dice and supply
   launches aimed at an opponent's die poised at one of this player's
   gateways (within :data:`THREAT_MM` of its scoring point), fast enough to
   slide :data:`KNOCK_MM` past it; siege shots at each opponent's courtyard
   when a pair is legal; and Decline when it is legal. Each carries a prior
   cost (the aim bot's, with knock-outs early). At most ``candidates`` are
   kept: the cheapest, then the cheapest of each group (a launch spot, a
   die) in turn, so every spot and die is tried before any gets a second
   goal.
2. **Plays** (:meth:`SearchBot.rank`): successive halving over the
   shortlist within a budget of ``candidates * samples`` simulated flicks:
   every candidate is played a few times, the better half by mean score is
   played more, and so on, so the budget goes to the close calls. Each play
   is on a copy of the state from one
   :class:`~warlords_sim.rules.snapshot.Snapshot` taken per decision (the
   copies continue bitwise like :meth:`GameState.copy` copies, and follow
   the real game closely: benchmarks/copies.py), with this bot's own hand
   noise (:class:`~warlords_sim.bots.policy.Hand`: the same spreads of
   direction, speed, strike height and offset it will flick with). Play
   ``j`` of every candidate uses the same standard normal draws (common
   random numbers), so candidates are compared under the same luck.
3. **Score** (:func:`evaluate`, weights :class:`Weights`): damage dealt minus
   damage taken, dice kept in play, own dice poised at opponents' gateways
   (and theirs at own), the ability the flick earned. Leaving the board
   shows as a die lost from play. The best candidate is then flicked with
   fresh hand noise (the bot does not know its luck in advance).

Abilities other than a second flick (Spy, Sapper, center-ring pin) use the
aim bot's choices. At most ``candidates * samples`` flicks are simulated per
decision (:attr:`SearchBot.last_simulations` says how many were). Every
random draw comes from the ``rng`` given, so the same seed gives the same
choices.

The default budget (:data:`DEFAULT_CANDIDATES` x :data:`DEFAULT_SAMPLES`)
was chosen for a decision under 0.5 s of CPU on the development machine;
``python benchmarks/bots.py`` prints the decision times measured.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from warlords_sim.board import Board, Crenelation
from warlords_sim.bots.aim import AimBot, Obstacles, Target, castle_targets, coulomb_speed
from warlords_sim.bots.launch import launch_table
from warlords_sim.bots.policy import HAND_DRAWS
from warlords_sim.bots.skill import Skill
from warlords_sim.physics.types import LaunchKind
from warlords_sim.rules.actions import (
    Action,
    BoardFlick,
    Decline,
    SiegeShot,
    SupplyFlick,
)
from warlords_sim.rules.engine import apply
from warlords_sim.rules.errors import IllegalActionError
from warlords_sim.rules.game import GameState, Location, PendingKind
from warlords_sim.rules.legal import Legal, is_legal
from warlords_sim.rules.scoring import round_damage
from warlords_sim.rules.snapshot import Snapshot

__all__ = [
    "DEFAULT_CANDIDATES",
    "DEFAULT_SAMPLES",
    "Candidate",
    "SearchBot",
    "Weights",
    "evaluate",
]

Point = tuple[float, float]

#: Candidates tried per decision by default.
DEFAULT_CANDIDATES = 16
#: Noisy plays of each candidate by default.
DEFAULT_SAMPLES = 6
#: A die of an opponent this close (mm) to one of the player's own scoring
#: points is a threat worth knocking away: the distance scale of the
#: score's threat term (:attr:`Weights.threat_mm`; within it a die counts at
#: least exp(-1) = 37 % of a poised die).
THREAT_MM = 120.0
#: A knock-out flick is aimed to slide this far (mm) past the die it
#: strikes, so it still moves when it gets there: the struck die must be
#: pushed out of the gateway's approach, a gateway's width plus a moat's
#: depth (30 + 30 mm on the standard board).
KNOCK_MM = 60.0
#: The most candidates and plays per candidate a bot may be given: a
#: decision simulates at most their product (10,000 flicks, minutes of CPU).
MAX_CANDIDATES = 100
MAX_SAMPLES = 100


@dataclass(frozen=True)
class Weights:
    """How :func:`evaluate` scores a state for a player. A first choice, set
    by reasoning about the game, not fitted to any statistic:

    Attributes:
        damage: per point of damage (a die's face) on an opponent's castle
            (the mean over opponents) minus per point on one's own; the
            game is won on damage, so this is the unit.
        die: per own die in play minus the opponents' mean; a die that
            stays in play can still score, and the round ends when a player
            has none: 3.0, about one average face (3.5) it may yet score.
        threat: per own die on the board at an opponent's scoring point
            (falling off as ``exp(-d / threat_mm)`` with the distance d),
            minus the same for opponents' dice at one's own: 1.5, under half
            a face, because the next flick only may score it.
        threat_mm: the distance scale of :attr:`threat`, mm: 120, about
            two gateway widths and two moat depths (30 mm each on the
            standard board), so a die a gateway's width off the scoring
            point still counts exp(-30/120) = 78 % of one on it.
        ability: value of the ability the flick earned, by kind: a second
            flick (Scout, General) is worth most, a Spy move to a gateway
            next, a pin moved or pulled least.

    Raises:
        ValueError: a weight that is not a finite number, or ``threat_mm``
            not above 0.
    """

    damage: float = 1.0
    die: float = 3.0
    threat: float = 1.5
    threat_mm: float = 120.0
    ability: dict[PendingKind, float] = field(
        default_factory=lambda: {
            PendingKind.SCOUT: 2.0,
            PendingKind.GENERAL: 2.0,
            PendingKind.SPY: 1.5,
            PendingKind.SAPPER: 0.5,
            PendingKind.RING: 0.5,
        }
    )

    def __post_init__(self) -> None:
        values = {
            "damage": self.damage,
            "die": self.die,
            "threat": self.threat,
            "threat_mm": self.threat_mm,
            **{f"ability[{k.value}]": v for k, v in self.ability.items()},
        }
        for name, v in values.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"search weights: {name} must be a finite number, got {v!r}")
        if self.threat_mm <= 0.0:
            raise ValueError(f"search weights: threat_mm must be above 0 mm, got {self.threat_mm}")


def _threat(state: GameState, owner: int, points: list[Point], scale: float) -> float:
    total = 0.0
    for d in state.dice_of(owner, Location.BOARD):
        if d.pose is None or not points:
            continue
        near = min(math.hypot(d.pose.x - x, d.pose.y - y) for x, y in points)
        total += math.exp(-near / scale)
    return total


def evaluate(state: GameState, me: int, weights: Weights, start_round: int) -> float:
    """The score of ``state`` for player ``me`` (higher is better).

    Damage counts the finished rounds' totals and, while round
    ``start_round`` is still being played, the dice now in the courtyards
    (:func:`~warlords_sim.rules.scoring.round_damage`). Dice in play, threats
    and the ability count only in that round (after a round ends every die
    goes back to the supply).
    """
    n = state.players
    opps = [p for p in range(n) if p != me]
    same_round = not state.over and state.round == start_round
    dmg = list(state.totals)
    if same_round:
        cur = round_damage(state)
        dmg = [t + c for t, c in zip(dmg, cur, strict=True)]
    score = weights.damage * (sum(dmg[o] for o in opps) / len(opps) - dmg[me])
    if not same_round:
        return score
    dice = len(state.in_play(me)) - sum(len(state.in_play(o)) for o in opps) / len(opps)
    score += weights.die * dice
    targets = castle_targets(state, me)
    mine = [t.score for t in targets]
    score += weights.threat * _threat(state, me, mine, weights.threat_mm)
    for o in opps:
        theirs = [t.score for t in castle_targets(state, o) if t.player == me]
        score -= weights.threat * _threat(state, o, theirs, weights.threat_mm) / len(opps)
    if state.pending is not None and state.active == me:
        score += weights.ability.get(state.pending.kind, 0.0)
    return score


@dataclass(frozen=True)
class Candidate:
    """One planned action: what kind, which die or launch spot, the aimed
    direction (rad) and speed (mm/s), the aim bot's cost (lower first) and
    the group it diversifies over (a launch spot or a die)."""

    kind: str  # "supply" | "board" | "siege" | "decline"
    die: int | None
    spot: tuple[int, Crenelation] | None
    direction: float
    speed: float
    prior: float
    group: str

    def action(self, velocity: tuple[float, float], spin: float) -> Action:
        """The action that flicks this candidate with ``velocity`` (mm/s) and
        ``spin`` (rad/s), struck at the die's centre."""
        if self.kind == "supply" and self.spot is not None:
            return SupplyFlick(self.spot[0], self.spot[1], velocity, spin, 6)
        if self.kind == "board" and self.die is not None:
            return BoardFlick(self.die, velocity, spin)
        if self.kind == "siege" and self.die is not None:
            return SiegeShot(self.die, velocity, spin)
        return Decline()


class SearchBot:
    """Plans each flick by playing candidates on copies of the state.

    Args:
        skill: the hand (a number in [0, 1] or a level), as the aim bot's.
        candidates: most candidates tried per decision
            (1..:data:`MAX_CANDIDATES`).
        samples: noisy plays per candidate (1..:data:`MAX_SAMPLES`): a
            decision simulates at most ``candidates * samples`` flicks,
            shared out by successive halving (:meth:`rank`) over however
            many candidates the decision has (fewer get more plays each).
        weights: the outcome's scoring (:class:`Weights`).

    Raises:
        ValueError: candidates or samples not a whole number in range;
            weights not a :class:`Weights`; a bad skill.
    """

    name = "search"

    def __init__(
        self,
        skill: Skill = 0.7,
        candidates: int = DEFAULT_CANDIDATES,
        samples: int = DEFAULT_SAMPLES,
        weights: Weights | None = None,
    ) -> None:
        for name, value, most in (
            ("candidates", candidates, MAX_CANDIDATES),
            ("samples", samples, MAX_SAMPLES),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise ValueError(
                    f"search bot: {name} must be a whole number, got {value!r} "
                    f"({type(value).__name__})"
                )
            if not 1 <= value <= most:
                raise ValueError(f"search bot: {name} must be in 1..{most}, got {value}")
        if weights is not None and not isinstance(weights, Weights):
            raise ValueError(f"search bot: weights must be a Weights, got {type(weights).__name__}")
        candidates, samples = int(candidates), int(samples)
        self.aim = AimBot(skill)
        self.hand = self.aim.hand
        self.candidates_max = candidates
        self.samples = samples
        self.weights = weights if weights is not None else Weights()
        #: Flicks (and declines) simulated by the last :meth:`choose`.
        self.last_simulations = 0
        self._speeds: dict[tuple[str, int, int, Crenelation, Point, float], float] = {}

    @property
    def budget(self) -> int:
        """The most simulations one decision may run: candidates x samples."""
        return self.candidates_max * self.samples

    # -------------------------------------------------------- candidates

    def _launch_speed(
        self,
        board: Board,
        seat: int,
        area: int,
        cren: Crenelation,
        goal: Point,
        beyond: float = 0.0,
    ) -> tuple[float, float]:
        """(distance mm, table speed mm/s) of a launch from a spot to
        ``goal``, the speed that carries the die ``beyond`` mm further (as
        far as the table reaches)."""
        spot = board.launch_spot(seat, area, cren)
        dist = math.hypot(goal[0] - spot.x, goal[1] - spot.y)
        key = (board.sha256, seat, area, cren, goal, beyond)
        speed = self._speeds.get(key)
        if speed is None:
            kind = LaunchKind.HIGH if cren is Crenelation.HIGH else LaunchKind.LOW
            table = launch_table(board, spot.height_mm, kind)
            speed = self._speeds[key] = table.nearest(min(dist + beyond, table.reach))[0]
        return dist, speed

    @staticmethod
    def _supply(
        board: Board,
        seat: int,
        area: int,
        cren: Crenelation,
        goal: Point,
        speed: float,
        prior: float,
    ) -> Candidate:
        """A supply launch from spot (area, crenelation) aimed at ``goal``."""
        spot = board.launch_spot(seat, area, cren)
        direction = math.atan2(goal[1] - spot.y, goal[0] - spot.x)
        return Candidate(
            "supply", None, (area, cren), direction, speed, prior, f"spot {area} {cren.value}"
        )

    @staticmethod
    def _goals(state: GameState, t: Target) -> list[tuple[str, Point]]:
        court = state.board.castles[t.seat].courtyard.center
        return [("staging", t.staging), ("score", t.score), ("court", court)]

    def candidates(self, state: GameState, legal: Legal) -> list[Candidate]:
        """Every candidate of this decision, in no particular order."""
        board = state.board
        targets = castle_targets(state, state.active)
        bonus = {t.player: self.aim.leader_bonus(state, t.player) for t in targets}
        out: list[Candidate] = []
        for area, cren in legal.supply_spots:
            for t in targets:
                for name, goal in self._goals(state, t):
                    dist, speed = self._launch_speed(board, legal.seat, area, cren, goal)
                    base = 250.0 if name == "staging" else 300.0
                    prior = base + 0.3 * dist + bonus[t.player]
                    out.append(self._supply(board, legal.seat, area, cren, goal, speed, prior))
        obstacles = Obstacles.of(state)
        for die in legal.board_dice:
            pose = state.dice[die].pose
            if pose is None:
                continue
            a = (pose.x, pose.y)
            for t in targets:
                for name, goal in self._goals(state, t):
                    dx, dy = goal[0] - a[0], goal[1] - a[1]
                    dist = math.hypot(dx, dy)
                    if dist < 1.0:
                        continue
                    base = 120.0 if name == "staging" else 0.0
                    blocked = obstacles.count(a, goal, die)
                    out.append(
                        Candidate(
                            "board",
                            die,
                            None,
                            math.atan2(dy, dx),
                            coulomb_speed(board, dist),
                            base + 0.4 * dist + 200.0 * blocked + bonus[t.player],
                            f"die {die}",
                        )
                    )
        threats = self._threats(state)
        for die in legal.board_dice:  # knock-outs: own dice at the threats
            pose = state.dice[die].pose
            if pose is None:
                continue
            for goal in threats:
                dx, dy = goal[0] - pose.x, goal[1] - pose.y
                speed = coulomb_speed(board, math.hypot(dx, dy) + KNOCK_MM)
                out.append(
                    Candidate("board", die, None, math.atan2(dy, dx), speed, 50.0, f"die {die}")
                )
        for area, cren in legal.supply_spots:  # knock-outs: launches at the threats
            for goal in threats:
                dist, speed = self._launch_speed(board, legal.seat, area, cren, goal, KNOCK_MM)
                out.append(
                    self._supply(board, legal.seat, area, cren, goal, speed, 150.0 + 0.3 * dist)
                )
        siege = launch_table(board, board.siege_engine.launch_height_mm, LaunchKind.SIEGE)
        for die in legal.siege_dice:
            pose = state.dice[die].pose
            if pose is None:
                continue
            for t in targets:
                c = board.castles[t.seat].courtyard.center
                dist = math.hypot(c[0] - pose.x, c[1] - pose.y)
                speed, err = siege.nearest(dist)
                out.append(
                    Candidate(
                        "siege",
                        die,
                        None,
                        math.atan2(c[1] - pose.y, c[0] - pose.x),
                        speed,
                        60.0 + err + bonus[t.player],
                        f"siege {die}",
                    )
                )
        if legal.can_decline:
            out.append(Candidate("decline", None, None, 0.0, 0.0, 1e9, "decline"))
        return out

    @staticmethod
    def _threats(state: GameState) -> list[Point]:
        """Where opponents' dice on the board stand within :data:`THREAT_MM`
        of one of this player's scoring points (in front of a gateway)."""
        me = state.active
        out: list[Point] = []
        for o in range(state.players):
            if o == me:
                continue
            mine = [t.score for t in castle_targets(state, o) if t.player == me]
            for d in state.dice_of(o, Location.BOARD):
                if d.pose is None or not mine:
                    continue
                if min(math.hypot(d.pose.x - x, d.pose.y - y) for x, y in mine) < THREAT_MM:
                    out.append((d.pose.x, d.pose.y))
        return out

    def shortlist(self, cands: list[Candidate]) -> list[Candidate]:
        """At most ``candidates`` of ``cands``: the cheapest first, then the
        cheapest of each group in turn (groups by their cheapest), then the
        second cheapest of each, and so on; Decline, when present, always
        (it is the baseline a second flick must beat)."""
        decline = [c for c in cands if c.kind == "decline"]
        rest = sorted((c for c in cands if c.kind != "decline"), key=lambda c: c.prior)
        groups: dict[str, list[Candidate]] = {}
        for c in rest:
            groups.setdefault(c.group, []).append(c)
        order = sorted(groups.values(), key=lambda g: g[0].prior)
        picked: list[Candidate] = []
        room = self.candidates_max - len(decline)
        if rest and room > 0:
            picked.append(rest[0])
        depth = 0
        while len(picked) < room and any(depth < len(g) for g in order):
            for g in order:
                if depth < len(g) and g[depth] not in picked and len(picked) < room:
                    picked.append(g[depth])
            depth += 1
        return (picked + decline)[: self.candidates_max]

    # ----------------------------------------------------------- playing

    @staticmethod
    def _aimed(c: Candidate) -> Action:
        """``c``'s flick as aimed, before the hand: its speed and direction,
        no spin, struck at the centre (Decline for the decline candidate)."""
        if c.kind == "decline":
            return Decline()
        return c.action((c.speed * math.cos(c.direction), c.speed * math.sin(c.direction)), 0.0)

    def _play(self, snap: Snapshot, c: Candidate, z: np.ndarray, me: int, rnd: int) -> float | None:
        """:func:`evaluate` after one play of ``c`` with the standard normal
        draws ``z`` (the hand's: direction, speed, strike height, offset,
        :meth:`Hand.stroke`) on a copy of the snapshot (None: that play was
        illegal, e.g. no room for the siege engine)."""
        self.last_simulations += 1
        sim = snap.copy()
        if c.kind == "decline":
            action: Action = Decline()
        else:
            action = self.hand.deliver_z(self._aimed(c), [float(v) for v in z], sim.board)
        try:
            apply(sim, action)
        except IllegalActionError:
            return None
        return evaluate(sim, me, self.weights, rnd)

    def rank(
        self, state: GameState, shortlist: list[Candidate], noise: np.ndarray
    ) -> list[Candidate]:
        """``shortlist`` best first, by successive halving (Karnin, Koren and
        Somekh 2013, "Almost optimal exploration in multi-armed bandits",
        ICML 2013): the budget is split evenly over ``ceil(log2 n)`` rounds;
        in each round every surviving candidate gets an equal share of that
        round's budget as new plays (its earlier plays are kept), and the
        better half by mean :func:`evaluate` survive to the next. Play ``j``
        of every candidate uses row ``j`` of ``noise`` (common random
        numbers: candidates are compared under the same luck), so ``noise``
        needs :attr:`budget` rows. Decline is deterministic and played once.
        A lone candidate is not played. After the survivors come those
        dropped, the later dropped first; candidates whose every play was
        illegal come last.
        """
        n = len(shortlist)
        if n <= 1:
            return list(shortlist)
        me, rnd = state.active, state.round
        snap = Snapshot(state)
        scores: list[list[float]] = [[] for _ in range(n)]
        plays = [0] * n
        alive = list(range(n))
        dropped: list[int] = []
        rounds = math.ceil(math.log2(n))
        for r in range(rounds):
            share = max(1, self.budget // (rounds * len(alive)))
            for i in alive:
                c = shortlist[i]
                want = 1 if c.kind == "decline" else min(len(noise), plays[i] + share)
                while plays[i] < want and self.last_simulations < self.budget:
                    v = self._play(snap, c, noise[plays[i]], me, rnd)
                    plays[i] += 1
                    if v is not None:
                        scores[i].append(v)
            ranked = sorted(
                (i for i in alive if scores[i]), key=lambda i: (-sum(scores[i]) / len(scores[i]), i)
            )
            keep = ranked if r == rounds - 1 else ranked[: math.ceil(len(ranked) / 2)]
            dropped = ranked[len(keep) :] + dropped
            alive = keep
            if len(alive) <= 1:
                break
        order = alive + dropped
        return [shortlist[i] for i in order] + [
            c for i, c in enumerate(shortlist) if i not in order
        ]

    def choose(self, state: GameState, legal: Legal, rng: np.random.Generator) -> Action:
        """The best candidate's action, flicked with fresh hand noise; the
        aim bot's choice for Spy, Sapper and ring-pin decisions."""
        self.last_simulations = 0
        kind = legal.pending.kind if legal.pending is not None else None
        if kind in (PendingKind.SPY, PendingKind.SAPPER, PendingKind.RING):
            return self.aim.choose(state, legal, rng)
        shortlist = self.shortlist(self.candidates(state, legal))
        if not shortlist:
            return self.aim.choose(state, legal, rng)
        noise = rng.standard_normal((self.budget, HAND_DRAWS))
        for c in self.rank(state, shortlist, noise):
            if c.kind == "decline":
                return Decline()
            action = self.hand.deliver(self._aimed(c), rng, state.board)
            if is_legal(state, action):
                return action
        return self.aim.choose(state, legal, rng)
