"""One owner per fact (issue 22, item 2): each fact below is decided in one
place, and every layer that uses it reads that place, so they cannot drift.

* Which walls stand: :func:`warlords_sim.board.standing_walls`. The 2.5D
  world builds its walls from it; the window (``gui.render``) and the plots
  (``plotting``) draw exactly those. What broke: the window drew the side
  walls but never the edge gap walls the physics adds at a seat without a
  castle, the plots only at the three-player wall's seat, so with two
  players and side walls the dice bounced off two walls neither drew (and
  with three, off one the window did not draw).
* The strike limit: ``DieSpec.strike_limit_mm``. What broke: the physics
  allowed half the die's height (``sides_mm[2] / 2``), the rules' legality
  check, the random bot and the window's strike control half its edge
  (``size_mm / 2``): on a 16 x 16 x 10 mm die the rules passed a 7 mm
  strike the physics refused, and the random bot chose such strikes.
* One generator per player: :func:`warlords_sim.bots.play_game`, the
  window's controller and the replay's rebuild all seed them with
  :func:`warlords_sim.bots.player_rngs`; a replay re-draws the recorded
  bots' choices and hands only while the three stay alike.
* The turn of a seat's label along its side:
  :data:`warlords_sim.colours.SIDE_LABEL_TURN`, read by the window's castle
  labels and the plots' seat labels (each wrote its own table, in its own
  library's sense of rotation).
* The abilities' names and faces: ``PendingKind.title`` and
  ``rules.abilities.ABILITY_BY_FACE`` (tests/test_rules_abilities.py), read
  by the log, the decline prompt and the "cannot be used" reason.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from matplotlib.patches import Rectangle

from warlords_sim import plotting
from warlords_sim.board import Board, Crenelation, castle_seats_for, load_board
from warlords_sim.bots import Hand, make_bot, play_game, player_rngs
from warlords_sim.bots.random_bot import RandomBot
from warlords_sim.gui import render
from warlords_sim.gui.controller import GameController
from warlords_sim.gui.input import STRIKE_STEP, Input
from warlords_sim.physics import Flick, FlickError, World
from warlords_sim.physics.checks import validate_flick
from warlords_sim.replay import Recorder, load_replay, rebuild
from warlords_sim.rules import Game, GameConfig, HouseRules, SupplyFlick
from warlords_sim.rules.errors import BadFlickError
from warlords_sim.rules.legal import check
from warlords_sim.rules.scripted import ScriptedPhysics

BOARD = load_board("standard")

RectKey = tuple[float, float, float, float]


def _key(x0: float, y0: float, x1: float, y1: float) -> RectKey:
    return (round(x0, 6), round(y0, 6), round(x1, 6), round(y1, 6))


# ---------------------------------------------------------------- the walls


def _physics_walls(seats: tuple[int, ...], side_walls: bool) -> list[RectKey]:
    """The wall shapes of a 2.5D world (mm): its pymunk boxes' corners."""
    world = World(BOARD, seats, side_walls)
    out = []
    for shape in world._walls:
        xs = [v.x for v in shape.get_vertices()]
        ys = [v.y for v in shape.get_vertices()]
        out.append(_key(min(xs), min(ys), max(xs), max(ys)))
    return sorted(out)


def _window_walls(
    monkeypatch: pytest.MonkeyPatch, seats: tuple[int, ...], side_walls: bool
) -> list[RectKey]:
    """The rectangles the window's board layer draws in its wall group
    (``order=2``), caught at ``render._rect`` with pyglet's shapes, batches
    and groups stubbed out: no display needed."""
    drawn: list[RectKey] = []

    def rect(r: Any, colour: Any, batch: Any, group: Any = None) -> None:
        if group is not None and group.order == 2:
            drawn.append(_key(r.x0, r.y0, r.x1, r.y1))

    monkeypatch.setattr(render, "_rect", rect)
    stub = SimpleNamespace(Rectangle=lambda *a, **k: None, Circle=lambda *a, **k: None)
    monkeypatch.setattr(render, "shapes", stub)
    graphics = SimpleNamespace(Batch=SimpleNamespace, Group=SimpleNamespace)
    monkeypatch.setattr(render, "pyglet", SimpleNamespace(graphics=graphics))
    monkeypatch.setattr(render, "crenelation_shapes", lambda *a, **k: [])
    render.BoardLayer(BOARD).update(seats, side_walls, (), None)
    return sorted(drawn)


def _plot_walls(seats: tuple[int, ...], side_walls: bool) -> list[RectKey]:
    """The rectangles the board plot draws at the walls' depth."""
    _, ax = plotting.board_figure(BOARD, castle_seats=seats, side_walls=side_walls)
    out = []
    for p in ax.patches:
        if isinstance(p, Rectangle) and p.get_zorder() == plotting._Z_WALL:
            x, y = p.get_xy()
            out.append(_key(x, y, x + p.get_width(), y + p.get_height()))
    return sorted(out)


@pytest.mark.parametrize("side_walls", [False, True], ids=["no side walls", "side walls"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_window_and_the_plots_draw_the_walls_the_physics_has(
    monkeypatch: pytest.MonkeyPatch, players: int, side_walls: bool
) -> None:
    """Failed on the old code with side walls: with two players the physics
    has 2 edge gap walls (seats 1 and 3) that neither the window nor the
    plot drew, with three the window left out the one behind the
    three-player wall."""
    seats = castle_seats_for(players)
    physics = _physics_walls(seats, side_walls)
    assert len(physics) == len(set(physics))  # no wall twice
    assert _window_walls(monkeypatch, seats, side_walls) == physics
    assert _plot_walls(seats, side_walls) == physics


def test_the_window_colours_each_kind_of_wall() -> None:
    """The window's wall list: castle walls in their seat's colour, the
    three-player wall grey, side and edge gap walls brown."""
    seats = castle_seats_for(3)  # seat 3 walled
    drawn = render.wall_rects(BOARD, seats, True)
    colours = dict(drawn)
    for seat in seats:
        for w in BOARD.castles[seat].walls:
            assert colours[w.rect] == render.shade(render.seat_rgb(seat), -0.45)
    assert colours[BOARD.castles[3].three_player_wall.rect] == render.rgb(render._THREE_PLAYER_WALL)
    assert colours[BOARD.castles[3].edge_gap_wall.rect] == render.rgb(render._SIDE_WALL)


# ---------------------------------------------------------- the strike limit


@pytest.fixture(scope="module")
def cuboid(tmp_path_factory: pytest.TempPathFactory) -> Board:
    """The standard board with a 16 x 16 x 10 mm die: size_mm 16, height 10."""
    text = Path(BOARD.path).read_text(encoding="utf-8")
    path = tmp_path_factory.mktemp("cuboid") / "cuboid.toml"
    cuboid = text.replace("# sides_mm = [16.0, 16.0, 16.0]", "sides_mm = [16.0, 16.0, 10.0]")
    path.write_text(cuboid, encoding="utf-8")
    board = load_board(path)
    assert board.die.size_mm == 16.0 and board.die.sides_mm[2] == 10.0
    return board


def test_the_strike_limit_is_half_the_die_height() -> None:
    assert BOARD.die.strike_limit_mm == BOARD.die.size_mm / 2.0  # a cube: half its edge


def test_physics_rules_bots_and_window_keep_one_strike_limit(cuboid: Board) -> None:
    """On a 16 x 16 x 10 mm die every layer allows strikes within 5 mm of
    the centre. Failed on the old code: the rules passed a 7 mm strike the
    physics refuses, the random bot drew strikes up to 8 mm and the
    window's control went up to 8 mm."""
    limit = cuboid.die.strike_limit_mm
    assert limit == 5.0
    inside, outside = 4.9, 7.0
    # the physics
    validate_flick(Flick(0, (0.0, 300.0), strike_mm=inside), cuboid, True, False)
    with pytest.raises(FlickError, match="strike height"):
        validate_flick(Flick(0, (0.0, 300.0), strike_mm=outside), cuboid, True, False)
    # the rules
    config = GameConfig(cuboid, 2, HouseRules())
    game = Game(config, ScriptedPhysics(cuboid, (), config.castle_seats()))
    check(game.state, SupplyFlick(2, Crenelation.LOW, (0.0, 800.0), 0.0, 1, inside))
    with pytest.raises(BadFlickError, match="-5..5 mm"):
        check(game.state, SupplyFlick(2, Crenelation.LOW, (0.0, 800.0), 0.0, 1, outside))
    # the random bot: uniform over the die's face, within the limit
    rng = np.random.default_rng(1)
    strikes = [RandomBot._strike(game.state, rng) for _ in range(400)]
    assert max(abs(s) for s in strikes) <= limit
    assert max(abs(s) for s in strikes) > 0.9 * limit  # it does reach the edges
    # the hand clamps a noisy strike to the limit
    hand = Hand(0.0)
    stroke = hand.stroke((0.0, 500.0), 0.0, 0.0, (0.0, 0.0, 1e6, 0.0), cuboid)
    assert math.isclose(stroke.strike_mm, limit)
    # the window's strike control (W/X, shift+wheel) stops at the limit
    ui = Input(SimpleNamespace(launch_spots={}, config=SimpleNamespace(board=cuboid)))  # type: ignore[arg-type]
    ui.nudge_strike(100.0 / STRIKE_STEP)
    assert ui.strike == limit
    ui.nudge_strike(-200.0 / STRIKE_STEP)
    assert ui.strike == -limit


# ------------------------------------------------- one generator per player


class _AllSeen(Exception):
    """Every player has chosen once: the game need not go on."""


class _Recording:
    """Plays as the random bot and records each player's generator state
    the first time it chooses (before it draws); stops the game once all
    ``players`` have."""

    name = "recording"

    def __init__(self, seen: dict[int, Any], players: int) -> None:
        self.seen = seen
        self.players = players
        self.inner = make_bot("random")

    def choose(self, state: Any, legal: Any, rng: np.random.Generator) -> Any:
        self.seen.setdefault(legal.player, rng.bit_generator.state)
        if len(self.seen) == self.players:
            raise _AllSeen
        return self.inner.choose(state, legal, rng)


def _stream(state: Mapping[str, Any], n: int = 6) -> list[float]:
    """The first ``n`` draws of a generator in ``state``."""
    rng = np.random.default_rng()
    rng.bit_generator.state = state
    return [float(v) for v in rng.random(n)]


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 11), (4, 2024)])
def test_bot_games_the_window_and_replays_seed_players_alike(
    tmp_path: Path, players: int, seed: int
) -> None:
    """A bot game (``play_game``), the window (``GameController``) and a
    replay's rebuild give player p the same generator for the same seed.
    This fact had not drifted; the test fails once any of the three seeds
    its generators another way (checked: ``default_rng(seed + p)`` in any
    one of the three fails every case, and so does one generator too many
    in the window)."""
    from warlords_sim.rules.scripted import RandomPhysics

    config = GameConfig(BOARD, players, HouseRules())
    seen: dict[int, Any] = {}
    policies = [_Recording(seen, players) for _ in range(players)]
    physics = RandomPhysics(BOARD, np.random.default_rng(5), config.castle_seats())
    with pytest.raises(_AllSeen):
        play_game(config, policies, seed=seed, physics=physics)
    assert sorted(seen) == list(range(players))

    window = GameController(config, {}, seed=seed, bot_delay=0.0)
    path = tmp_path / "header.jsonl"
    with Recorder.create(path, config, seed=seed, bots=["random"] * players):
        pass
    replayed = rebuild(load_replay(path)).rngs
    owner = player_rngs(seed, players)
    assert len(window.rngs) == len(replayed) == players
    for p in range(players):
        streams = {
            "bot game": _stream(seen[p]),
            "window": _stream(window.rngs[p].bit_generator.state),
            "replay": _stream(replayed[p].bit_generator.state),
            "player_rngs": _stream(owner[p].bit_generator.state),
        }
        assert len({tuple(s) for s in streams.values()}) == 1, (p, streams)
    # and the players' streams are not one another's
    assert len({tuple(_stream(r.bit_generator.state)) for r in owner}) == players


def test_player_rngs_refuses_no_players() -> None:
    with pytest.raises(ValueError, match="players=0"):
        player_rngs(1, 0)


def test_the_plots_turn_each_seat_label_as_the_window_does() -> None:
    """The plot's seat labels turn by SIDE_LABEL_TURN (matplotlib:
    counter-clockwise degrees); the window's castle labels by the same
    table (pyglet: clockwise degrees); left reads upwards, right downwards."""
    import matplotlib.pyplot as plt

    from warlords_sim.colours import SIDE_LABEL_TURN

    fig, ax = plt.subplots()
    try:
        plotting.draw_board(ax, load_board("standard"))
        turns = {t.get_text().split()[1]: t.get_rotation() for t in ax.texts
                 if t.get_text().startswith("seat ")}  # fmt: skip
    finally:
        plt.close(fig)
    assert turns == {"0": 0.0, "1": 90.0, "2": 0.0, "3": 270.0}
    assert [math.degrees(t) % 360.0 for t in SIDE_LABEL_TURN] == [0.0, 90.0, 0.0, 270.0]
