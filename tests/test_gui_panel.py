"""What the window and the replay panel say and show (issue 11): a flick
that ends a round is told landing first (panel, log and caption agree); the
round-over screen draws a gateway die where the rules moved it; the panel's
columns are the rulebook's places; ``play --resume`` shows the log again
and closing the window prints the command that resumes; dice are named as
drawn ("red die 3"), never by internal number; dice that count as damage
are framed and each castle shows its damage; a flick that earns nothing
says why."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from gui_display import display  # noqa: F401  (the session fixture)
from rules_helpers import COURTYARD, OPEN, RING, game, land, phys, place, supply_flick

from warlords_sim.board import load_board
from warlords_sim.bots import make_bot, play_game
from warlords_sim.cli import main
from warlords_sim.gui.describe import Before, die_name, narrate, player_text
from warlords_sim.physics.types import RegionKind
from warlords_sim.plotting import SEAT_COLOUR_NAMES, SEAT_COLOURS
from warlords_sim.replay import Recorder, load_replay, rebuild, to_action
from warlords_sim.replay.rebuild import config_for
from warlords_sim.rules import (
    BoardFlick,
    Decline,
    Game,
    GameConfig,
    HouseRules,
    Location,
    RingPinMove,
    SapperPull,
)
from warlords_sim.rules.actions import Action

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "replays"
GAME_2P = EXAMPLES / "game-2p-standard.jsonl"
BOARD = load_board("standard")
RIGHT_KEY = 0xFF53  # pyglet.window.key.RIGHT


@pytest.fixture(scope="module")
def pyglet_mod(display: str) -> Any:  # noqa: F811
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["vsync"] = False
    return pyglet


def _rgb(path: Path, w: Any, x: float, y: float) -> tuple[int, int, int]:
    """The colour of the saved window PNG at board point (x, y) mm."""
    from PIL import Image

    px, py = w.to_px(x, y)
    with Image.open(path) as im:
        r, g, b = im.convert("RGB").getpixel((round(px), w.height - 1 - round(py)))  # type: ignore[misc]
    return int(r), int(g), int(b)


def _close(a: tuple[int, int, int], hex_colour: str, tol: int = 25) -> bool:
    want = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return max(abs(p - q) for p, q in zip(a, want, strict=True)) <= tol


# ------------------------------------------------------------ fault 2


def test_replay_panel_tells_a_round_ending_flick_landing_first(pyglet_mod: Any) -> None:
    """`replay game-2p-standard.jsonl --until K-1`, then Right, K the flick
    ending round 1: the panel said "die N back to the supply; round 1 ends"
    where the log said it landed in a courtyard (the summary was written
    after the round had put every die back)."""
    from warlords_sim.gui.movie import Canvas
    from warlords_sim.gui.playback import ReplayController
    from warlords_sim.gui.watch import WatchWindow

    rep = load_replay(GAME_2P)
    k = next(a.index for a in rep.actions if "round 1 ends" in a.summary)
    # what the rules say action k did, replayed headless
    g = rebuild(rep, k - 1).game
    action = to_action(rep.actions[k - 1].action)
    assert isinstance(action, Action)
    seats = g.state.seats
    out = g.apply(action)
    assert out.round_ended is not None and out.result is not None
    die = out.result.flick.die
    pose = out.result.poses[die]
    assert pose.region.kind is RegionKind.COURTYARD and pose.region.seat is not None
    n = g.config.dice_per_player
    name = f"{SEAT_COLOUR_NAMES[seats[die // n]]} die {die % n + 1}"
    landed = f"{name} landed {pose.face} in the {SEAT_COLOUR_NAMES[pose.region.seat]} courtyard"

    c = ReplayController(rep)
    c.skip_to(k - 1)
    c.paused = True
    w = WatchWindow(c, 1000, 700)
    try:
        w.on_key_press(RIGHT_KEY, 0)
        for _ in range(2000):
            if c.done == k:
                break
            c.tick(1 / 15)
        assert c.done == k and c.phase.value == "round_over" and c.diverged == []
        w.draw_frame()
        panel = w.hud.prompt.label.text
        log = w.hud.log.label.text
        end = "round 1 of 2 over"
        assert panel.startswith(f"action {k} of {len(rep.actions)}: P{out.player} ")
        assert landed in panel and end in panel, panel
        assert panel.index(landed) < panel.index(end)
        assert "back to the supply" not in panel
        assert f"{name} at " in log and landed.split(" ", 3)[3] in log and end in log
        # the out player has no dice in play, in the panel's table and the end screen
        assert out.round_ended.out_player is not None
        assert c.counts(out.round_ended.out_player)[1] == 0
        assert f"P{out.round_ended.out_player} has no dice in play" in w.hud.screen_text.text
        assert f"round {out.round_ended.round + 1} of 2" in w.hud.title.label.text
    finally:
        w.close()
    canvas = Canvas(c, 240)  # the rendered caption tells it the same way
    try:
        _, caption = canvas.captions()
    finally:
        canvas.close()
    assert landed in caption and caption.index(landed) < caption.index(end)


# ------------------------------------------------------------ fault 3


def _first_round_end_with_a_gateway_die(path: Path) -> tuple[int, dict[int, Any]]:
    """The first action of ``path`` ending a round with a die stopped in a
    gateway (the rules move it to the back of the courtyard), replayed
    headless: its index and the gateway dice's poses where they stopped."""
    rep = load_replay(path)
    g = Game(config_for(rep, BOARD))
    for line in rep.actions:
        action = to_action(line.action)
        assert isinstance(action, Action)
        out = g.apply(action)
        if out.round_ended is not None and out.placement and out.placement.gateway_moves:
            assert out.result is not None
            return line.index, {d: out.result.poses[d] for d in out.placement.gateway_moves}
    raise AssertionError(f"{path.name}: no round ends with a die in a gateway")


def _seed_ending_a_round_in_a_gateway() -> int:
    """The first seed (of 40) whose 4-player aim-bot game ends a round with a
    die in a gateway (found by playing; any change of the rules or physics
    may move it)."""
    config = GameConfig(BOARD, 4)
    found: list[int] = []

    def note(state: Any, outcome: Any) -> None:
        pl = outcome.placement
        if outcome.round_ended is not None and pl is not None and pl.gateway_moves:
            found.append(1)

    for seed in range(40):
        play_game(config, [make_bot("aim", 0.7) for _ in range(4)], seed, on_outcome=note)
        if found:
            return seed
    raise AssertionError("no round ended with a die in a gateway in 40 games")


#: The seed :func:`_seed_ending_a_round_in_a_gateway` finds (of seeds
#: 0-39; it plays six whole games, seeds 0 to 5, to find it), tried first so
#: that a run plays one game instead of seven. Only a starting point: a change
#: of the rules or physics that moves it makes the test search again.
GATEWAY_SEED = 5


def _record_a_round_ending_in_a_gateway(path: Path) -> tuple[Path, int, dict[int, Any]]:
    """A recorded 4-player game of aim bots with a round ending with a die in
    a gateway, at ``path``: the path, the action ending that round and the
    gateway dice's poses where they stopped (:func:`_first_round_end_with_a_gateway_die`).
    :data:`GATEWAY_SEED` first, else the seed the search finds."""
    _record_4p_game(path, GATEWAY_SEED)
    try:
        return path, *_first_round_end_with_a_gateway_die(path)
    except AssertionError:  # the seed moved: search for one (and record it)
        path.unlink()
    _record_4p_game(path, _seed_ending_a_round_in_a_gateway())
    return path, *_first_round_end_with_a_gateway_die(path)


def _record_4p_game(path: Path, seed: int) -> None:
    """Record a 4-player game of aim bots (skill 0.7) to ``path``."""
    config = GameConfig(BOARD, 4)
    with Recorder.create(path, config, seed=seed, bots=["aim"] * 4, skill=0.7) as rec:
        done = play_game(
            config,
            [make_bot("aim", 0.7) for _ in range(4)],
            seed,
            on_outcome=lambda state, outcome: rec.record(outcome.action, state, outcome),
        )
        rec.finish(done)


def test_round_over_screen_draws_a_gateway_die_at_the_back_of_the_courtyard(
    pyglet_mod: Any, tmp_path: Path
) -> None:
    """The flick ending a round of a recorded 4-player game leaves a die in a
    gateway; the rules move it to the back of the courtyard and score it.
    The round-over screen drew it where it stopped, in the gateway."""
    from warlords_sim.gui.playback import ReplayController
    from warlords_sim.gui.watch import WatchWindow

    path, k, stopped = _record_a_round_ending_in_a_gateway(tmp_path / "gateway.jsonl")
    rep = load_replay(path)
    c = ReplayController(rep)
    c.skip_to(k - 1)
    c.paused = True
    w = WatchWindow(c, 1100, 800)
    try:
        seats = c.state.seats
        w.on_key_press(RIGHT_KEY, 0)
        w.on_key_press(RIGHT_KEY, 0)  # the flick in flight to rest at once
        assert c.done == k and c.phase.value == "round_over" and c.diverged == []
        record = c.round_record
        assert record is not None
        png = w.save_png(tmp_path / "round_over.png")
        half = BOARD.die.size_mm / 2.0
        for die, pose in stopped.items():
            seat = pose.region.seat
            assert pose.region.kind is RegionKind.GATEWAY and seat is not None
            castle = BOARD.castles[seat]
            view = next(v for v in c.dice() if v.die == die)
            # drawn at the back of the courtyard, as the rules placed and scored it
            assert castle.courtyard.contains(view.x, view.y, half * 0.9), (view, castle.courtyard)
            assert die in {d for d, s, _ in record.courtyard if s == seat}
            assert die in c.scored_dice()
            # in the picture: the die's colour there, none where it stopped
            colour = SEAT_COLOURS[seats[die // c.config.dice_per_player]]
            # sampled 5 mm above the centre, where no face has a pip
            assert _close(_rgb(png, w, view.x, view.y + 5.0), colour, 40)
            assert not _close(_rgb(png, w, pose.x, pose.y + 5.0), colour, 40)
    finally:
        w.close()


# ------------------------------------------------------------ fault 6


def test_panel_counts_are_the_rulebooks_places() -> None:
    """The "board" column counted dice in courtyards, so a player could show
    "board 6" beside "P1 has no dice in play". Two dice on the board and one
    in a courtyard, so that a count reading the wrong place shows (with one
    of each, a courtyard count that read the board still said 1)."""
    from warlords_sim.gui.controller import GameController
    from warlords_sim.gui.hud import COUNTS_HEADER

    for in_courtyard_in_play in (False, True):
        config = GameConfig(BOARD, 2, HouseRules(courtyard_dice_in_play=in_courtyard_in_play))
        c = GameController(config, {}, bot_delay=0.0)
        s = c.state
        c.world.add_die(0, 150.0, -60.0, 2)  # on the board
        c.world.add_die(1, *BOARD.castles[2].courtyard.center, 5)  # in yellow's courtyard
        c.world.add_die(3, 150.0, 60.0, 4)  # on the board
        for die, where in ((0, Location.BOARD), (1, Location.COURTYARD), (3, Location.BOARD)):
            s.dice[die].location = where
            s.dice[die].pose = c.world.pose(die)
        s.dice[2].location = Location.ELIMINATED
        in_play = 2 + 2 + (1 if in_courtyard_in_play else 0)
        assert c.counts(0) == (2, in_play, 1, 1)
        assert c.counts(0)[1] == len(s.in_play(0))
        assert c.counts(1) == (6, 6, 0, 0)
    words = COUNTS_HEADER.split()
    assert words[:2] == ["supply", "in"] and "courtyard" in words and "board" not in words


# ------------------------------------------------------------ fault 8


def test_resume_shows_the_log_and_closing_prints_the_resume_command(
    display: str,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After ``play --resume`` the log was empty, and closing the window
    mid-game did not say how to go on."""
    import warlords_sim.gui.app as app
    from warlords_sim.gui.controller import Phase

    seen: list[Any] = []

    def close_after_12_actions(c: Any, **_: Any) -> None:
        while len(c.actions) < 12 or c.phase is Phase.FLICKING:
            if c.phase is Phase.FLICKING:
                c.finish_flick()
            elif c.phase is Phase.ROUND_OVER:
                c.proceed()
            else:
                c.tick(10.0)
        seen.append(list(c.log))

    path = tmp_path / "my game.jsonl"  # a space: the printed command quotes it
    monkeypatch.setattr(app, "run", close_after_12_actions)
    args = ["play", "--bots", "all", "--bot", "random", "--seed", "3", "--record", str(path)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    command = f"warlords-sim play --resume {shlex.quote(str(path))}"
    assert command in res.output.splitlines()[-1]
    shown = seen[0]
    assert len(shown) >= 8

    resumed: list[Any] = []
    monkeypatch.setattr(app, "run", lambda c, **_: resumed.append(c))
    res = CliRunner().invoke(main, shlex.split(command)[1:])
    assert res.exit_code == 0, res.output
    assert command in res.output.splitlines()[-1]  # closed again, unfinished
    c = resumed[0]
    assert list(c.log) == shown  # the log as the window showed it before it closed
    assert c.told and "resumed after action 12" in c.message


# ------------------------------------------------------------ names


def test_dice_are_named_as_drawn_never_by_internal_number() -> None:
    config4 = GameConfig(BOARD, 4, HouseRules())
    assert die_name(config4, (0, 1, 2, 3), 9) == "blue die 4"
    assert die_name(config4, (0, 1, 2, 3), 0) == "red die 1"
    config3 = GameConfig(BOARD, 3, HouseRules())
    # three players rotate castles: the same die is drawn in another colour
    names = {die_name(config3, config3.seats_for_round(r), 7) for r in range(3)}
    assert len(names) == 3 and all(n.endswith(" die 2") for n in names)
    with pytest.raises(ValueError, match="not a die"):
        die_name(config4, (0, 1, 2, 3), 24)
    g = game(4)
    text = player_text(g.state, "die 9 belongs to player 1; players can never flick dice")
    assert text == "blue die 4 belongs to P1; players can never flick dice"
    assert player_text(g.state, "hole 17 holds no pin to pull") == "that hole holds no pin to pull"
    before = Before.of(g.state)
    for action in (SapperPull(17), RingPinMove(3, 40)):
        from warlords_sim.rules.engine import Outcome

        told = narrate(before, Outcome(action, 0), 4)
        assert not any(ch.isdigit() for ch in told.headline.replace("P0", "")), told


# ------------------------------------------------------------ why no ability


def _tell(g: Game, action: Action, landing: Any) -> Any:
    phys(g).push(landing)
    before = Before.of(g.state)
    return narrate(before, g.apply(action), g.config.rounds)


def test_a_flick_that_earns_nothing_says_why() -> None:
    g = game(2)
    before = Before.of(g.state)
    out = supply_flick(g, land(*OPEN, 2))
    told = narrate(before, out, 2)
    assert told.lines[-1] == "no ability: a 2 has no ability"
    g.apply(Decline()) if g.state.pending else None
    supply_flick(g, land(-150.0, 60.0, 5))  # P1
    # P0 flicks its die on the board; it slides and keeps its face
    told = _tell(g, BoardFlick(0, (0.0, 300.0)), land(150.0, -20.0, 2))
    assert told.lines[-1] == "no ability: face unchanged (2)"
    assert told.headline.endswith("no ability: face unchanged (2)")
    supply_flick(g, land(-150.0, 20.0, 5))  # P1
    # into the center ring: the ring pin move is earned; declined
    told = _tell(g, BoardFlick(0, (0.0, 300.0)), land(*RING, 3))
    assert "center ring" in told.lines[-1] and g.state.pending is not None
    g.apply(Decline())
    supply_flick(g, land(-150.0, -20.0, 5))  # P1
    # a die that started the turn in the ring earns nothing there
    told = _tell(g, BoardFlick(0, (0.0, 100.0)), land(10.0, 5.0, 4))
    assert told.lines[-1] == "no ability: it started the turn in the center ring"


def test_a_round_ending_flick_is_told_landing_first() -> None:
    g = game(2, dice_per_player=1)
    place(g, 1, 150.0, 60.0, 3)  # P1's only die on the board
    before = Before.of(g.state)
    out = supply_flick(g, land(*COURTYARD[2], 4))  # P0's only die into yellow's courtyard
    assert out.round_ended is not None
    told = narrate(before, out, 2)
    land_text = "red die 1 landed 4 in the yellow courtyard"
    assert told.lines[0].startswith("P0 flicked red die 1 at ")
    assert told.lines[0].endswith(": landed 4 in the yellow courtyard")
    assert land_text in told.headline
    assert told.lines[-1] == "round 1 of 2 over (P0 has no dice in play): damage P0 0, P1 4"
    assert told.headline.index(land_text) < told.headline.index("round 1 of 2 over")
    assert "no ability" not in told.headline  # the round ended: nothing to earn


# ------------------------------------------------------------ scored at a glance


def test_dice_counting_as_damage_are_framed_and_castles_show_damage(
    pyglet_mod: Any, tmp_path: Path
) -> None:
    """A die entirely inside a courtyard is framed (the rules' own courtyard
    test); one 1.5 mm short of it, partly in the gateway, is not. Each
    castle's label shows its damage this round."""
    from warlords_sim.gui.app import PlayWindow
    from warlords_sim.gui.controller import GameController
    from warlords_sim.gui.hud import COUNTS_HEADER
    from warlords_sim.gui.render import SCORED_RGB

    c = GameController(GameConfig(BOARD, 2, HouseRules()), {}, bot_delay=0.0)
    yard = BOARD.castles[2].courtyard
    size = BOARD.die.size_mm
    inside = (yard.center[0] - 30.0, yard.center[1])
    short = (BOARD.castles[2].gateways[0].center[0], yard.y0 + size / 2.0 - 1.5)
    for die, (x, y), face in ((0, inside, 5), (1, short, 4), (6, COURTYARD[0], 3)):
        c.world.add_die(die, x, y, face)
        d = c.state.dice[die]
        d.pose = c.world.pose(die)
        # the rules' own place of a settled die (as rules.resolve sets it)
        d.location = (
            Location.COURTYARD if d.pose.region.kind is RegionKind.COURTYARD else Location.BOARD
        )
    assert c.state.dice[1].location is Location.BOARD  # looks inside, does not count
    assert c.scored_dice() == {0, 6}
    w = PlayWindow(c, 1200, 830)
    try:
        png = w.save_png(tmp_path / "scored.png")
        white = "#{:02x}{:02x}{:02x}".format(*SCORED_RGB)
        for (x, y), framed in ((inside, True), (short, False), (COURTYARD[0], True)):
            # left of the die, across where the frame's white band is drawn
            # (10.4..12 mm from its centre), inside the white ring own dice get
            seen = [_rgb(png, w, x - 10.0 - 0.25 * i, y) for i in range(10)]
            assert any(_close(got, white, 30) for got in seen) is framed, (x, y, seen)
        labels = {seat: lb.text for seat, lb in w.hud.castle_labels.items()}
        assert labels == {
            0: "red castle (P0): 3 damage this round",
            2: "yellow castle (P1): 5 damage this round",
        }
        # the table's numbers stand under their column names
        row = w.hud.rows[0].label.text
        for word in ("supply", "play", "courtyard", "out", "damage"):
            end = COUNTS_HEADER.index(word) + len(word) - 1
            assert row[end].isdigit(), (word, row)
    finally:
        w.close()
