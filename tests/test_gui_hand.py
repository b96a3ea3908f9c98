"""A hand for everyone (issue 20, item 1): a human's drag in the window went
to the physics exactly as dragged, so a memorised drag repeated to the
pixel (a 6 in the yellow courtyard 6 times of 7 in the issue's game). Now
each human player's flick goes through a hand (``play --hand``, default
club), the same :meth:`~warlords_sim.bots.policy.Hand.deliver` the bots
flick through; ``exact`` keeps the old behaviour. Every test here fails on
the code before it (no ``hands``, no ``--hand``, no ``aimed``, no cone).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from gui_display import display, x_sync  # noqa: F401  (the session fixture)

from warlords_sim.board import Crenelation, load_board
from warlords_sim.bots import make_bot
from warlords_sim.bots.skill import SkillLevel
from warlords_sim.cli import main
from warlords_sim.gui.controller import GameController, Phase, open_recorder
from warlords_sim.gui.input import GAIN, Input
from warlords_sim.replay import load_replay, rebuild, verify
from warlords_sim.rules import GameConfig, HouseRules
from warlords_sim.rules.actions import BoardFlick, SupplyFlick

BOARD = load_board("standard")
CONFIG = GameConfig(BOARD, 2, HouseRules())
SPOT = BOARD.launch_spot(0, 3, Crenelation.LOW)
#: A pull straight back and a little to the side from area 3's low spot (mm).
PULL = (SPOT.x + 4.0, SPOT.y - 70.0)


def _controller(hand: Any, seed: int = 5, **kw: Any) -> GameController:
    hands = {0: hand} if hand != "none" else None
    return GameController(CONFIG, {1: make_bot("aim")}, seed=seed, bot_delay=0.0, hands=hands, **kw)


def _drag(c: GameController) -> None:
    """The same drag through the window's input code: press area 3's low
    spot, pull back, release."""
    inp = Input(c)
    inp.press(SPOT.x, SPOT.y)
    inp.drag_to(*PULL)
    inp.release(*PULL)
    assert c.actions, c.message


def _aimed() -> SupplyFlick:
    return SupplyFlick(3, Crenelation.LOW, ((SPOT.x - PULL[0]) * GAIN, (SPOT.y - PULL[1]) * GAIN))


def test_a_club_hand_scatters_the_same_drag_differently_with_other_draws() -> None:
    """Two identical drags, the player's generators seeded apart: both
    flicks differ from the drag and from each other in velocity, spin and
    strike height (the offset sideways gave the spin)."""
    flicks = []
    for seed in (5, 6):
        c = _controller(SkillLevel.CLUB, seed)
        _drag(c)
        assert c.last_stroke is not None
        aimed, delivered = c.last_stroke
        assert aimed == _aimed()
        assert isinstance(delivered, SupplyFlick)
        assert delivered.velocity != aimed.velocity
        assert delivered.spin != 0.0 and delivered.strike_mm != 0.0
        assert c.actions[-1] == delivered
        assert c.log[-1].startswith("hand: ")
        flicks.append(delivered)
    assert flicks[0].velocity != flicks[1].velocity
    assert flicks[0].spin != flicks[1].spin


@pytest.mark.parametrize("hand", [None, "none"])
def test_an_exact_hand_flicks_as_dragged_and_draws_nothing(hand: Any) -> None:
    """``--hand exact`` (None), as a controller given no hands: the flick
    is the drag, and the player's generator is not touched."""
    c = _controller(hand)
    before = c.rngs[0].bit_generator.state
    _drag(c)
    assert c.actions[-1] == _aimed()
    assert c.rngs[0].bit_generator.state == before
    assert c.last_stroke is None


def test_a_refused_flick_leaves_the_players_generator_as_it_was() -> None:
    """A flick the rules refuse (a die not on the board) draws nothing for
    good: the generator is put back, so a replay's re-draws stay in step."""
    c = _controller(SkillLevel.NOVICE)
    before = c.rngs[0].bit_generator.state
    assert not c.submit(BoardFlick(3, (0.0, 500.0)))
    assert c.message_is_refusal
    assert c.rngs[0].bit_generator.state == before


def _play_some(c: GameController, human_flicks: int) -> None:
    """The human drags the same flick ``human_flicks`` times (declining any
    ability), the aim bot plays its turns."""
    done = 0
    for _ in range(200):
        if c.phase is Phase.FLICKING:
            c.finish_flick()
        elif c.phase is Phase.ROUND_OVER:
            c.proceed()
        elif c.phase is Phase.BOT:
            c.tick(1.0)
        elif c.phase is Phase.INPUT:
            if done == human_flicks:
                return
            legal = c.legal()
            assert legal is not None
            if legal.pending is not None:
                from warlords_sim.rules.actions import Decline

                assert c.submit(Decline())
                continue
            _drag(c)
            done += 1
        else:
            return
    raise AssertionError("the game did not reach the human's turn")


def test_a_replay_of_scattered_human_flicks_verifies_and_records_the_drag(tmp_path: Path) -> None:
    """A recorded game with a club hand: each human line holds the
    delivered flick as its action and the drag as ``aimed``; the replay
    verifies digest by digest, and a rebuild with the bots brings the
    human's generator to where the window's stood (it re-draws the hand
    from ``aimed``)."""
    path = tmp_path / "hand.jsonl"
    rec, _ = open_recorder(path, CONFIG, 5, ("human", "aim"), skill=0.7, hands={0: SkillLevel.CLUB})
    c = _controller(SkillLevel.CLUB, recorder=rec)
    _play_some(c, 3)
    rec.close()
    header, *lines = (json.loads(x) for x in path.read_text().splitlines())
    assert header["version"] == 4 and header["hands"] == ["club", None]
    human = [ln for ln in lines if ln["player"] == 0 and ln["action"]["type"] == "supply_flick"]
    assert len(human) == 3
    for ln in human:
        assert ln["aimed"] == {"velocity": list(_aimed().velocity), "spin": 0.0, "strike_mm": 0.0}
        assert ln["action"]["velocity"] != ln["aimed"]["velocity"]
    assert all("aimed" not in ln for ln in lines if ln["player"] == 1)
    replay = load_replay(path)
    report = verify(replay)
    assert report.divergence is None and report.mismatch is None
    assert report.checked == len(lines) > 3
    rebuilt = rebuild(replay, policies=[None, make_bot("aim")])
    assert rebuilt.rngs[0].bit_generator.state == c.rngs[0].bit_generator.state
    assert rebuilt.rngs[1].bit_generator.state == c.rngs[1].bit_generator.state


def test_resume_takes_the_recorded_hands(tmp_path: Path) -> None:
    """``play --resume`` continues with the hand the file records (and an
    older file's humans, which has none, exact)."""
    from warlords_sim.gui.playback import recorded_hands, resume_game

    path = tmp_path / "hand.jsonl"
    rec, _ = open_recorder(
        path, CONFIG, 5, ("human", "aim"), skill=0.7, hands={0: SkillLevel.EXPERT}
    )
    c = _controller(SkillLevel.EXPERT, recorder=rec)
    _play_some(c, 2)
    rec.close()
    resumed, _ = resume_game(path)
    assert resumed.hand_specs == {0: SkillLevel.EXPERT}
    assert resumed.rngs[0].bit_generator.state == c.rngs[0].bit_generator.state
    resumed.recorder.close()
    old = Path(__file__).resolve().parents[1] / "examples" / "replays" / "game-2p-standard.jsonl"
    assert recorded_hands(load_replay(old)) == {}


BAD_HANDS = ["wobbly", "1.5", "", "0=club,0=expert", "1=club", "7=club", "x=club", "club,novice"]


@pytest.mark.parametrize("value", BAD_HANDS)
def test_bad_hand_values_fail_in_one_line_naming_the_option_and_the_choices(value: str) -> None:
    res = CliRunner().invoke(main, ["play", "--hand", value])
    assert res.exit_code == 2, res.output
    err = res.stderr.strip().splitlines()
    assert len(err) == 1, res.stderr
    assert err[0].startswith("warlords-sim: error: --hand: ")
    assert "exact, novice, club, expert or a number in [0, 1]" in err[0]


@pytest.mark.parametrize("value", ["w" * 100_000, "0=" + "w" * 100_000, "w" * 100_000 + "=club"])
def test_a_long_hand_value_is_clipped_in_the_error(value: str) -> None:
    """A 100,000-character ``--hand`` is cut as the rules' loader cuts a
    field, its closing quote kept. Failed before: echoed whole."""
    res = CliRunner().invoke(main, ["play", "--hand", value])
    assert res.exit_code == 2, res.output
    err = res.stderr.strip()
    assert len(err) < 300, err[:300]
    assert "'www" in err and "...' (100000 characters)" in err, err


def test_hand_help_gives_the_levels_numbers() -> None:
    """``--hand``'s help (copied so that --help loads no numpy) says what
    :mod:`warlords_sim.bots.skill` sets."""
    from warlords_sim.cli._seats import HAND_HELP

    for level, words in (
        (SkillLevel.NOVICE, "novice (speed off by {cv}, direction by {d} deg, strike by {s} mm"),
        (SkillLevel.CLUB, "club ({cv}, {d} deg, {s} mm)"),
        (SkillLevel.EXPERT, "expert ({cv}, {d} deg, {s} mm)"),
    ):
        n = level.noise
        text = words.format(
            cv=f"{100 * n.speed_cv:.1f} %", d=f"{n.direction_sd_deg:g}", s=f"{n.strike_sd_mm:g}"
        )
        assert text in HAND_HELP, text


# ------------------------------------------------------------ the window


@pytest.fixture(scope="module")
def pyglet_mod(display: str) -> Any:  # noqa: F811
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["vsync"] = False
    return pyglet


def test_play_gives_each_human_their_hand(
    display: str,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--hand`` reaches the controller and the recording: one hand for
    every human, or per player (P=HAND; the others club)."""
    from warlords_sim.gui import app

    seen: list[GameController] = []
    monkeypatch.setattr(app, "run", lambda controller, **_: seen.append(controller))
    cases = [
        (["--hand", "expert"], {0: SkillLevel.EXPERT}, ["expert", None]),
        ([], {0: SkillLevel.CLUB}, ["club", None]),
        (["--bots", "none", "--hand", "1=novice"], {0: SkillLevel.CLUB, 1: SkillLevel.NOVICE},
         ["club", "novice"]),
        (["--bots", "none", "--hand", "exact,1=0.8"], {0: None, 1: 0.8}, ["exact", 0.8]),
    ]  # fmt: skip
    for k, (extra, hands, header) in enumerate(cases):
        out = tmp_path / f"g{k}.jsonl"
        res = CliRunner().invoke(main, ["play", "--record", str(out), *extra])
        assert res.exit_code == 0, res.output
        assert seen[-1].hand_specs == hands
        assert json.loads(out.read_text().splitlines()[0])["hands"] == header


def _window(hand: Any) -> Any:
    from warlords_sim.gui.app import PlayWindow

    c = _controller(hand)
    w = PlayWindow(c, 1000, 700, mute=True)
    w.set_location(0, 0)
    x_sync(w)
    return w


def _rgb(path: Path, w: Any, x: float, y: float) -> tuple[int, int, int]:
    from PIL import Image

    px, py = w.to_px(x, y)
    with Image.open(path) as im:
        r, g, b = im.convert("RGB").getpixel((round(px), w.height - 1 - round(py)))  # type: ignore[misc]
    return int(r), int(g), int(b)


def test_the_guide_draws_the_hands_spread_and_the_panel_names_the_hand(
    pyglet_mod: Any, tmp_path: Path
) -> None:
    """While dragging with a club hand (direction sd 2 deg), the board 3
    deg off the aim, 150 mm out, is tinted by the cone (within its 4 deg);
    with an exact hand it is the bare board, and 6 deg off it is bare with
    either. The panel says "human, hand club" under P0's row."""
    import math

    from warlords_sim.gui.app import SPREAD_FILL

    shots = {}
    for name, hand in (("club", SkillLevel.CLUB), ("exact", None)):
        w = _window(hand)
        try:
            w.input.press(SPOT.x, SPOT.y)
            w.input.drag_to(*PULL)
            path = w.save_png(tmp_path / f"{name}.png")
            aim = math.atan2(SPOT.y - PULL[1], SPOT.x - PULL[0])
            at = {
                deg: _rgb(
                    path,
                    w,
                    SPOT.x + 150.0 * math.cos(aim + math.radians(deg)),
                    SPOT.y + 150.0 * math.sin(aim + math.radians(deg)),
                )
                for deg in (-3.0, 3.0, 6.0)
            }
            shots[name] = (at, w.hud.bot_tags[0].label.text)
        finally:
            w.close()
    club, exact = shots["club"], shots["exact"]
    assert club[1] == "human, hand club" and exact[1] == "human, hand exact"
    assert exact[0][3.0] == exact[0][6.0] == club[0][6.0]  # the bare board
    for deg in (-3.0, 3.0):
        tinted, bare = club[0][deg], exact[0][deg]
        assert tinted != bare
        # the fill is orange: blue drops the most, toward the fill's
        r, g, b = (t - s for t, s in zip(tinted, bare, strict=True))
        assert b < 0 and b < r and (SPREAD_FILL[2] < SPREAD_FILL[0])


@pytest.mark.parametrize(
    ("spin", "strike", "shown"),
    [
        (-0.22, 0.43, "strike +0.4 mm, spin -0.2 rad/s"),
        (-0.04, -0.03, "strike +0.0 mm, spin +0.0 rad/s"),
        (12.345, -1.26, "strike -1.3 mm, spin +12.3 rad/s"),
    ],
)
def test_the_hand_line_shows_spin_and_strike_to_one_decimal(
    spin: float, strike: float, shown: str
) -> None:
    """The log's hand line: "spin -0.2 rad/s" for -0.22 rad/s, never "-0.0".
    Failed before: "spin -0 rad/s"."""
    import dataclasses

    from warlords_sim.gui.controller import stroke_line
    from warlords_sim.rules.actions import SiegeShot

    aimed = SiegeShot(die=0, velocity=(0.0, 900.0))
    delivered = dataclasses.replace(aimed, velocity=(5.0, 910.0), spin=spin, strike_mm=strike)
    assert stroke_line(aimed, delivered).endswith(shown)


def test_play_help_lists_every_key_the_window_takes() -> None:
    """``play --help``'s "Keys:" named neither U, W/X nor shift+wheel, nor the
    log's wheel, PgUp/PgDn and End (only the window's panel did); README's
    controls table lacked the log's. Failed before."""
    res = CliRunner().invoke(main, ["play", "--help"], terminal_width=200)
    text = " ".join(res.output.split())
    for words in ("U face up", "W/X or shift+wheel strike", "G aim guide", "wheel over the panel",
                  "PgUp/PgDn", "End shows the newest"):  # fmt: skip
        assert words in text, words
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| read the log |"))
    assert "wheel over the panel" in row and "`PgUp` / `PgDn`" in row and "`End`" in row


def test_resume_tells_the_hands_lines_again_and_keeps_the_launch_spot(tmp_path: Path) -> None:
    """After ``play --resume`` the log lacked the "hand: ..." lines the live
    game showed, and the human's launch spot was forgotten. The log is told
    again as the live window told it (each hand's line from ``aimed``) and
    each human starts from the spot of their last supply flick. Failed
    before: no hand lines, no spot."""
    from warlords_sim.gui.playback import resume_game

    path = tmp_path / "hand.jsonl"
    rec, _ = open_recorder(path, CONFIG, 5, ("human", "aim"), skill=0.7, hands={0: "club"})
    c = _controller("club", recorder=rec)
    _play_some(c, 2)
    rec.close()
    assert sum(line.startswith("hand: ") for line in c.log) == 2
    resumed, _ = resume_game(path)
    try:
        assert resumed.log == c.log
        inp = Input(resumed)
        inp.sync()
        assert resumed.is_human_turn() and inp.spot == (3, Crenelation.LOW)
    finally:
        resumed.recorder.close()


@pytest.mark.parametrize(("turn", "side"), [(2.0, "left"), (-2.0, "right")])
def test_the_hand_line_says_which_way_the_hand_turned_the_flick(turn: float, side: str) -> None:
    """Guards the hand line's "left"/"right" (swapped, a flick the hand sent
    to the player's left was logged as sent right). Seen from behind the
    flick, looking along it, a turn counter-clockwise seen from above (the
    board's positive angles) takes it to the left: aimed straight up the
    board (+y), delivered 2 degrees counter-clockwise is "2.0 deg left"."""
    import dataclasses
    import math

    from warlords_sim.gui.controller import stroke_line
    from warlords_sim.rules.actions import SiegeShot

    aimed = SiegeShot(die=0, velocity=(0.0, 900.0))
    a = math.radians(90.0 + turn)
    delivered = dataclasses.replace(aimed, velocity=(900.0 * math.cos(a), 900.0 * math.sin(a)))
    assert stroke_line(aimed, delivered).startswith(f"hand: 900 of 900 mm/s, 2.0 deg {side},")
