"""The fixed game description and the mutable game state.

:class:`GameConfig` (frozen) says what game is played: the board, the number
of players and the house rules. :class:`GameState` (mutable, with an explicit
:meth:`GameState.copy`) is where the game stands: every die's place, the
active player, a pending ability, the scores so far, and the physics world.

Players are numbered 0..n-1; each sits at a seat (0 bottom, 1 left, 2 top,
3 right) for a round: two players sit opposite (0 and 2), three at the three
castles other than the walled seat (rotating each round), four at 0..3.
Die ids are ``player * dice_per_player + i``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from warlords_sim.board import Board, castle_seats_for
from warlords_sim.physics.types import DiePose
from warlords_sim.rules.house_rules import HouseRules
from warlords_sim.rules.physics_port import Physics

__all__ = [
    "DieState",
    "GameConfig",
    "GameState",
    "Location",
    "Pending",
    "PendingKind",
    "RoundCounts",
    "RoundRecord",
]


@dataclass(frozen=True)
class GameConfig:
    """The game played (immutable).

    Raises:
        ValueError: players not 2..4, or the first player not one of them.
        HouseRulesError: house rules out of range (a ``ValueError`` too;
            :meth:`HouseRules.check`, so rules built in code are checked as
            a file's are).
    """

    board: Board
    players: int = 4
    house_rules: HouseRules = field(default_factory=HouseRules)

    def __post_init__(self) -> None:
        self.house_rules.check()
        if not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {self.players}")
        if not 0 <= self.house_rules.first_player < self.players:
            raise ValueError(
                f"house rule first_player = {self.house_rules.first_player} is not a player "
                f"(0..{self.players - 1})"
            )

    @property
    def rounds(self) -> int:
        """Rounds in the game: one per player unless the house rules say otherwise."""
        return self.house_rules.rounds or self.players

    @property
    def dice_per_player(self) -> int:
        return self.house_rules.dice_per_player

    def castle_seats(self) -> tuple[int, ...]:
        """Seats whose castles stand (sorted): :func:`~warlords_sim.board.castle_seats_for`
        with house rule ``three_player_walled_seat`` (the one owner of the seats in play)."""
        return castle_seats_for(self.players, self.house_rules.three_player_walled_seat)

    def seats_for_round(self, rnd: int) -> tuple[int, ...]:
        """Seat of each player in round ``rnd`` (0-based). Three players
        rotate one castle clockwise after each round (rulebook, Special Rules
        for a Three Player Game; house rule ``three_player_rotation``)."""
        castles = self.castle_seats()
        if self.players == 3 and self.house_rules.three_player_rotation:
            return tuple(castles[(p + rnd) % 3] for p in range(3))
        return castles

    def dice_of(self, player: int) -> range:
        """Ids of ``player``'s dice."""
        n = self.dice_per_player
        return range(player * n, (player + 1) * n)

    def owner(self, die: int) -> int:
        """The player owning die ``die``."""
        return die // self.dice_per_player


class Location(Enum):
    """Where a die is: exactly one of these at any time."""

    SUPPLY = "supply"
    BOARD = "board"  # on the board surface outside any courtyard (ring and moats included)
    COURTYARD = "courtyard"
    ELIMINATED = "eliminated"


class PendingKind(Enum):
    """An optional follow-up the active player may take or decline."""

    SCOUT = "scout"  # a 1: flick the same die a second time
    SPY = "spy"  # a 3: move the die anywhere outside the ring, not within a moat
    SAPPER = "sapper"  # a 4: pull any pin
    GENERAL = "general"  # a 6: flick a second die
    RING = "ring"  # landed entirely within the center ring: move a ring pin

    @property
    def title(self) -> str:
        """The ability's name as the rulebook gives it ("Scout", "Spy",
        "Sapper", "General"; "center ring pin move" for the ring's)."""
        return "center ring pin move" if self is PendingKind.RING else self.name.title()


@dataclass(frozen=True)
class Pending:
    """A pending ability and the die that earned it."""

    kind: PendingKind
    die: int


@dataclass
class DieState:
    """One die: owner, place and (on the board or in a courtyard) settled pose."""

    id: int
    owner: int
    location: Location = Location.SUPPLY
    pose: DiePose | None = None


@dataclass
class RoundCounts:
    """Tallies of one round kept for statistics (``warlords-sim variants``);
    no rule reads them.

    Attributes:
        siege_shots: flicks from the siege engine.
        wall_exits: dice that left the board over the side walls (removed, or
            returned to the supply when they left unlanded).
        final_die_end: the round ended because a non-active player's final
            die was knocked off the board (brief 4.4, the final-die rule).
    """

    siege_shots: int = 0
    wall_exits: int = 0
    final_die_end: bool = False

    def copy(self) -> RoundCounts:
        return RoundCounts(self.siege_shots, self.wall_exits, self.final_die_end)

    def to_dict(self) -> dict[str, object]:
        return {
            "siege_shots": self.siege_shots,
            "wall_exits": self.wall_exits,
            "final_die_end": self.final_die_end,
        }


@dataclass
class RoundRecord:
    """What happened in one finished round (per player lists, indexed by player)."""

    round: int
    first_player: int
    seats: tuple[int, ...]
    side_walls: bool
    damage: list[int]
    scored_on_opponents: list[int]
    flicks: int
    eliminated: list[int]
    ended_by: str  # "no_dice" or "flick_limit"
    out_player: int | None
    courtyard: list[tuple[int, int, int]] = field(default_factory=list)  # (die, seat, face)
    counts: RoundCounts = field(default_factory=RoundCounts)  # statistics only

    def to_dict(self) -> dict[str, object]:
        return {
            "round": self.round + 1,
            "first_player": self.first_player,
            "seats": list(self.seats),
            "side_walls": self.side_walls,
            "damage": list(self.damage),
            "scored_on_opponents": list(self.scored_on_opponents),
            "flicks": self.flicks,
            "eliminated": list(self.eliminated),
            "ended_by": self.ended_by,
            "out_player": self.out_player,
            "courtyard": [list(c) for c in self.courtyard],
            **self.counts.to_dict(),
        }


@dataclass
class GameState:
    """Where the game stands (mutable; :meth:`copy` gives an independent one).

    Attributes:
        config: the game played.
        physics: the world the dice live in (copied by :meth:`copy`).
        round: current round, 0-based.
        seats: seat of each player this round.
        first_player: who started this round.
        active: the player whose turn it is.
        dice: every die by id.
        pending: the ability waiting to be used or declined, if any.
        second_flick: the next flick is a Scout's or General's second flick.
        ring_at_turn_start: dice that were in the center ring when the turn began.
        turn_dice: dice flicked so far this turn.
        round_flicks, flicks: flicks this round, in the game.
        eliminated: dice eliminated this round, per player.
        pulled_pins: pins the Sappers removed this round.
        side_walls: whether the side walls stand this round.
        totals: damage per player over the finished rounds.
        history: the finished rounds.
        counts: this round's tallies for statistics (no rule reads them).
        over: the game is over; ``winners`` then holds the winner(s).
    """

    config: GameConfig
    physics: Physics
    round: int = 0
    seats: tuple[int, ...] = ()
    first_player: int = 0
    active: int = 0
    dice: dict[int, DieState] = field(default_factory=dict)
    pending: Pending | None = None
    second_flick: bool = False
    ring_at_turn_start: frozenset[int] = frozenset()
    turn_dice: list[int] = field(default_factory=list)
    round_flicks: int = 0
    flicks: int = 0
    eliminated: list[int] = field(default_factory=list)
    pulled_pins: int = 0
    side_walls: bool = False
    totals: list[int] = field(default_factory=list)
    history: list[RoundRecord] = field(default_factory=list)
    over: bool = False
    winners: tuple[int, ...] = ()
    counts: RoundCounts = field(default_factory=RoundCounts)

    def copy(self) -> GameState:
        """An independent copy (the physics world too)."""
        return GameState(
            config=self.config,
            physics=self.physics.copy(),
            round=self.round,
            seats=self.seats,
            first_player=self.first_player,
            active=self.active,
            dice={i: DieState(d.id, d.owner, d.location, d.pose) for i, d in self.dice.items()},
            pending=self.pending,
            second_flick=self.second_flick,
            ring_at_turn_start=self.ring_at_turn_start,
            turn_dice=list(self.turn_dice),
            round_flicks=self.round_flicks,
            flicks=self.flicks,
            eliminated=list(self.eliminated),
            pulled_pins=self.pulled_pins,
            side_walls=self.side_walls,
            totals=list(self.totals),
            history=[
                RoundRecord(
                    r.round,
                    r.first_player,
                    r.seats,
                    r.side_walls,
                    list(r.damage),
                    list(r.scored_on_opponents),
                    r.flicks,
                    list(r.eliminated),
                    r.ended_by,
                    r.out_player,
                    list(r.courtyard),
                    r.counts.copy(),
                )
                for r in self.history
            ],
            over=self.over,
            winners=self.winners,
            counts=self.counts.copy(),
        )

    # ------------------------------------------------------------ queries

    @property
    def board(self) -> Board:
        return self.config.board

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def winner(self) -> int | None:
        """The single winner once the game is over (None while playing or if tied)."""
        return self.winners[0] if len(self.winners) == 1 else None

    def seat_of(self, player: int) -> int:
        return self.seats[player]

    def player_at(self, seat: int) -> int | None:
        """The player whose castle stands at ``seat`` this round, if any."""
        for p, s in enumerate(self.seats):
            if s == seat:
                return p
        return None

    def dice_of(self, player: int, *where: Location) -> list[DieState]:
        """``player``'s dice (at ``where`` if given), by id."""
        out = [self.dice[i] for i in self.config.dice_of(player)]
        return [d for d in out if d.location in where] if where else out

    def supply(self, player: int) -> list[int]:
        """Ids of ``player``'s dice in the supply, lowest first."""
        return [d.id for d in self.dice_of(player, Location.SUPPLY)]

    def in_play(self, player: int) -> list[int]:
        """Ids of ``player``'s dice in play: the supply and the board (and the
        courtyards under house rule ``courtyard_dice_in_play``)."""
        where = [Location.SUPPLY, Location.BOARD]
        if self.config.house_rules.courtyard_dice_in_play:
            where.append(Location.COURTYARD)
        return [d.id for d in self.dice_of(player, *where)]

    def next_player(self, player: int) -> int:
        """The player after ``player`` in clockwise (increasing seat) order."""
        order = sorted(range(self.players), key=lambda p: self.seats[p])
        return order[(order.index(player) + 1) % len(order)]
