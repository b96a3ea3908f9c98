"""The replay file format (JSON Lines), as msgspec schemas.

One JSON object a line: a header (``"kind": "header"``), one line per action
(``"kind": "action"``) and, once the game or sequence is over, a closing line
(``"kind": "result"``). ``docs/replay-format.md`` documents every field,
its type and unit. Floats are written by :func:`json.dumps` (shortest repr),
so they read back bit-exact; NaN and infinities are refused on load.
"""

from __future__ import annotations

import platform
import sys
from typing import Annotated, Any, Literal

import msgspec

from warlords_sim.bots.skill import SkillName
from warlords_sim.rules.house_rules import HouseRules

__all__ = [
    "FORMAT",
    "READS",
    "VERSION",
    "ActionLine",
    "ActionRec",
    "GameActionRec",
    "AimedRec",
    "HandRec",
    "BoardFlickRec",
    "BoardRef",
    "BranchOf",
    "DeclineRec",
    "DieRec",
    "Header",
    "PhysicsRef",
    "ResultLine",
    "RingPinMoveRec",
    "SandboxFlickRec",
    "SandboxSetup",
    "SapperPullRec",
    "SiegeShotRec",
    "SpyMoveRec",
    "SupplyFlickRec",
    "Versions",
    "current_versions",
]

#: The format name every header carries.
FORMAT = "warlords-replay"
#: The format version this code writes. Version 2 added the header field
#: ``physics`` (engine and model version); version 1 had none. Version 3
#: added ``versions.libm`` (the C maths library and a probe of its rounding,
#: which the digests depend on: :mod:`warlords_sim.physics.numerics`).
#: Version 4 added the header's ``hands`` (each human player's hand) and
#: the action lines' ``aimed`` (the flick as dragged, before the hand
#: scattered it; the ``action`` is what the hand delivered).
VERSION = 4
#: The format versions this code reads. A version-1 file loads (its lines can
#: be read and shown) but is never re-simulated: it does not say which physics
#: model made it (see :mod:`warlords_sim.replay.model`).
READS = (1, 2, 3, 4)

Digest = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
Vec = tuple[float, float]
Seat = Annotated[int, msgspec.Meta(ge=0, le=3)]
Face = Annotated[int, msgspec.Meta(ge=1, le=6)]
Area = Annotated[int, msgspec.Meta(ge=1, le=3)]
Index = Annotated[int, msgspec.Meta(ge=0)]  # a die id or a hole index


class _S(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class Versions(_S):
    """What recorded the file, and so what its digests depend on: package,
    pymunk and Python versions, platform, and (format version 3 on) the C
    maths library with a probe of how it rounds (``libm``, e.g.
    ``"glibc 2.36, probe d5dc7acfa7a2"``: glibc picks its ``sin``/``cos``
    by CPU, see :mod:`warlords_sim.physics.numerics`)."""

    package: str
    pymunk: str
    python: str
    platform: str
    libm: str | None = None


def current_versions() -> Versions:
    """The versions running now."""
    from warlords_sim import __version__
    from warlords_sim.physics.numerics import numerics_label
    from warlords_sim.physics.version import pymunk_version

    return Versions(
        package=__version__,
        pymunk=pymunk_version(),
        python=platform.python_version(),
        platform=f"{sys.platform}-{platform.machine()}",
        libm=numerics_label(),
    )


class PhysicsRef(_S):
    """The physics that recorded the file: the engine (``"2.5d"`` or
    ``"reference"``, :data:`warlords_sim.rules.physics_port.ENGINES`) and its
    model version (``warlords_sim.physics.MODEL_VERSION``, or the reference
    package's ``MODEL_VERSION``), e.g. ``PhysicsRef(engine="2.5d", model="2.5d-2")``."""

    engine: str
    model: str


class BoardRef(_S):
    """The board: its name, the file it was loaded from, the SHA-256 of its bytes."""

    name: str
    file: str
    sha256: Digest


class SandboxSetup(_S):
    """The world of a sandbox replay before its first flick."""

    castle_seats: Annotated[list[Seat], msgspec.Meta(max_length=4)]
    side_walls: bool
    pins: list[Index]  # hole indices, in the order the pins were put in


class BranchOf(_S):
    """Where a branched replay came from."""

    file: str
    until: int


class Header(_S, tag="header", tag_field="kind", kw_only=True):
    format: str
    version: int
    versions: Versions
    physics: PhysicsRef | None = None  # required from format version 2 on
    created: str
    mode: Literal["game", "sandbox"]
    board: BoardRef
    players: Annotated[int, msgspec.Meta(ge=0, le=4)]  # 2..4 in a game, 0 in a sandbox
    seats: Annotated[list[Seat], msgspec.Meta(max_length=4)]
    bots: Annotated[list[str], msgspec.Meta(max_length=4)]
    # the bots' skill as given: a number in [0, 1] or a level's name
    skill: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] | SkillName | None = None
    # each player's hand in the window (format version 4 on): humans' only
    hands: Annotated[list[HandRec], msgspec.Meta(max_length=4)] | None = None
    seed: Annotated[int, msgspec.Meta(ge=0)] | None = None  # required in a game
    house_rules: HouseRules | None = None
    sandbox: SandboxSetup | None = None
    branch_of: BranchOf | None = None


#: A player's hand as a header's ``hands`` records it: a number in [0, 1],
#: a level's name, ``"exact"`` (no scatter), or null (a bot's seat: its hand
#: is the header's ``skill``).
HandRec = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] | SkillName | Literal["exact"] | None


# ----------------------------------------------------------------- actions
# mirrors of warlords_sim.rules.actions (to_dict / from_dict), tagged by "type"


class _A(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, tag_field="type"):
    pass


class SupplyFlickRec(_A, tag="supply_flick"):
    area: Area
    crenelation: Literal["high", "low"]
    velocity: Vec
    spin: float = 0.0
    face: Face = 1
    strike_mm: float = 0.0


class BoardFlickRec(_A, tag="board_flick"):
    die: Index
    velocity: Vec
    spin: float = 0.0
    strike_mm: float = 0.0


class SiegeShotRec(_A, tag="siege_shot"):
    die: Index
    velocity: Vec
    spin: float = 0.0
    strike_mm: float = 0.0


class SpyMoveRec(_A, tag="spy_move"):
    die: Index
    x: float
    y: float


class SapperPullRec(_A, tag="sapper_pull"):
    hole: Index


class RingPinMoveRec(_A, tag="ring_pin_move"):
    from_hole: Index
    to_hole: Index


class DeclineRec(_A, tag="decline"):
    pass


class SandboxFlickRec(_A, tag="flick"):
    die: Index
    velocity: Vec
    spin: float = 0.0
    strike_mm: float = 0.0
    launch: Literal["table", "low", "high", "siege"] = "table"
    start: Vec | None = None
    height_mm: float = 0.0
    face: Face | None = None
    add_at: Vec | None = None
    siege_engine: Vec | None = None


#: An action of a game (a sandbox flick is not one).
GameActionRec = (
    SupplyFlickRec
    | BoardFlickRec
    | SiegeShotRec
    | SpyMoveRec
    | SapperPullRec
    | RingPinMoveRec
    | DeclineRec
)
ActionRec = GameActionRec | SandboxFlickRec

GAME_ACTIONS = (
    "supply_flick",
    "board_flick",
    "siege_shot",
    "spy_move",
    "sapper_pull",
    "ring_pin_move",
    "decline",
)


class AimedRec(_S):
    """A flick as the player aimed it, before the hand's scatter: its
    velocity (mm/s), spin (rad/s) and strike height (mm above the die's
    centre); the rest (area, crenelation, face, die) is the action's."""

    velocity: Vec
    spin: float = 0.0
    strike_mm: float = 0.0


class DieRec(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """A die's settled place, written as ``[id, x, y, angle, face, region]``."""

    id: int
    x: float
    y: float
    angle: float
    face: int
    region: str


class ActionLine(_S, tag="action", tag_field="kind"):
    index: int
    player: int | None
    action: ActionRec
    digest: Digest
    summary: str
    dice: list[DieRec] = []
    gone: list[int] = []
    # the flick as aimed before the hand scattered it (format version 4 on)
    aimed: AimedRec | None = None


class ResultLine(_S, tag="result", tag_field="kind"):
    actions: int
    digest: Digest | None
    winners: list[int] = []
    totals: list[int] = []
    rounds: list[dict[str, Any]] = []
