"""The same drag, 20 times, at each hand: where the die lands (issue 20, item 1).

The drag is the one of issue 20's play-through (a 2-player game against the
aim bot, seed 5): press at window pixel (551, 658) on area 3's low
crenelation of the bottom castle, release at (579, 889), in X's pixel
coordinates (y down from the top of the default 1200 x 830 px window at the
screen's top left corner; the release lies below the window, where the drag
goes on). The pixels are mapped to board millimetres by the window's own
layout (:class:`~warlords_sim.gui.app.PlayWindow`, opened hidden), and the
drag goes through the window's own input code (:class:`~warlords_sim.gui.input.Input`:
``U`` five times sets the supply die down 6 up, press, drag, release) and
controller (:meth:`~warlords_sim.gui.controller.GameController.submit`,
where the hand scatters it), from the opening position of seed 5.

Each level (exact, expert, club, novice) flicks it 20 times; trial ``i``
draws the hand's normals from ``SeedSequence([5, i])`` at every level (the
same luck, scaled by the level). Printed per level: how many distinct
landing places the 20 flicks give, the spread of the landing place along
and across the aim (median, interquartile range and sd, mm, from the launch
spot along the dragged direction), the faces that came up, how many landed
a 6 in the yellow (top) castle's courtyard, and how many left the board.
With ``--png PATH`` the landings are drawn on the board, one panel a level.

The drag is aimed as the window aims it (``input.GAIN``, full speed in a
120 mm pull): the play-through's 185 mm pull is capped at the full 2000 mm/s,
and the line "drag: ..." prints the speed the window's input produced.

Run: xvfb-run -a python benchmarks/hand_spread.py [--png docs/hand-spread.png] [--force]
[--trials N] (it opens a hidden window to map the pixels, so it needs a
display: without one it stops with a line saying to use xvfb-run -a; it
writes nothing without --png, checks the PNG's name, folder and an existing
file before computing, and replaces an existing PNG only with --force).
Cost: about 5 s CPU at 20 trials (4 levels x 20 flicks, plus the PNG),
measured under Xvfb on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from warlords_sim.board import Board, Crenelation, load_board
from warlords_sim.bots import make_bot
from warlords_sim.bots.skill import HandSpec, SkillLevel, hand_label
from warlords_sim.rules import GameConfig, HouseRules
from warlords_sim.rules.actions import SupplyFlick
from warlords_sim.rules.game import Location
from warlords_sim.rules.scoring import courtyard_dice

SEED = 5
TRIALS = 20
#: The play-through's drag, X pixel coordinates (y down) in a 1200 x 830 window.
PRESS_PX = (551, 658)
RELEASE_PX = (579, 889)
WINDOW = (1200, 830)
#: The yellow castle: seat 2, the top one (warlords_sim.colours).
YELLOW = 2
LEVELS: tuple[HandSpec, ...] = (None, SkillLevel.EXPERT, SkillLevel.CLUB, SkillLevel.NOVICE)


@dataclass(frozen=True)
class Landing:
    """Where one flick's die came to rest (None: off the board)."""

    x: float | None
    y: float | None
    face: int | None
    six_in_yellow: bool


def drag_mm(board: Board) -> tuple[tuple[float, float], tuple[float, float]]:
    """The press and release points of the play-through's drag, board mm,
    through the window's own pixel mapping."""
    from warlords_sim.gui import prepare_window

    prepare_window()
    from warlords_sim.gui.app import PlayWindow
    from warlords_sim.gui.controller import GameController

    config = GameConfig(board, 2, HouseRules())
    w, h = WINDOW
    window = PlayWindow(GameController(config, {}), w, h, visible=False, mute=True)
    try:
        press = window.to_mm(PRESS_PX[0], h - PRESS_PX[1])
        release = window.to_mm(RELEASE_PX[0], h - RELEASE_PX[1])
    finally:
        window.close()
    return press, release


def flick(
    board: Board,
    hand: HandSpec,
    trial: int,
    press: tuple[float, float],
    release: tuple[float, float],
) -> tuple[Landing, tuple[float, float], tuple[float, float]]:
    """The drag made once by the human (P0) at the opening of seed 5's game
    against the aim bot, with ``hand``; returns the landing, the launch
    spot (mm) and the velocity the window's input code aimed (mm/s, before
    the hand: capped at the window's full speed)."""
    from warlords_sim.gui.controller import GameController
    from warlords_sim.gui.input import Input

    config = GameConfig(board, 2, HouseRules())
    rngs = [
        np.random.default_rng(np.random.SeedSequence([SEED, trial])),
        np.random.default_rng(np.random.SeedSequence(SEED).spawn(2)[1]),
    ]
    c = GameController(
        config, {1: make_bot("aim")}, seed=SEED, bot_delay=0.0, rngs=rngs, hands={0: hand}
    )
    inp = Input(c)
    for _ in range(5):
        inp.key("u")  # 1 -> 6 up
    inp.press(*press)
    drag = inp.drag
    if drag is None or drag.spot is None:
        raise SystemExit(f"the press at {press} mm picked no launch spot: {c.message}")
    spot = board.launch_spot(0, *drag.spot)
    inp.drag_to(*release)
    inp.release(*release)
    if not c.actions:
        raise SystemExit(f"the drag was refused: {c.message}")
    aimed = c.last_stroke[0] if c.last_stroke is not None else c.actions[0]
    assert isinstance(aimed, SupplyFlick)
    c.finish_flick()
    die = 0  # P0's first supply die
    d = c.state.dice[die]
    six = (die, YELLOW, 6) in courtyard_dice(c.shown_state())
    if d.location is Location.ELIMINATED or d.pose is None:
        return Landing(None, None, None, False), (spot.x, spot.y), aimed.velocity
    return Landing(d.pose.x, d.pose.y, d.pose.face, six), (spot.x, spot.y), aimed.velocity


def _along(
    board: Board,
    aim: tuple[float, float],
    z: tuple[float, float, float, float],
    start: tuple[float, float],
    u: tuple[float, float],
) -> float:
    """How far along the aim the die stops when a hand of 1 mm strike sd
    delivers the drag (aimed at ``aim``, mm/s, as the window's input made
    it) with the standard normals ``z`` (no other scatter)."""
    from warlords_sim.bots.policy import Hand
    from warlords_sim.bots.skill import HandNoise
    from warlords_sim.gui.controller import GameController

    class _OneMm(Hand):
        @property
        def noise(self) -> HandNoise:
            return HandNoise(0.0, 0.0, 1.0, 1.0)

        @property
        def angle_sd(self) -> float:
            return 0.0

        @property
        def speed_sd(self) -> float:
            return 0.0

    c = GameController(GameConfig(board, 2, HouseRules()), {1: make_bot("aim")}, seed=SEED)
    action = _OneMm(1.0).deliver_z(SupplyFlick(3, Crenelation.LOW, aim, 0.0, 6), z, board)
    if not c.submit(action):
        raise SystemExit(f"refused: {c.message}")
    c.finish_flick()
    pose = c.state.dice[0].pose
    if pose is None:
        return math.nan
    return (pose.x - start[0]) * u[0] + (pose.y - start[1]) * u[1]


def spread(values: list[float]) -> tuple[float, float, float]:
    """(median, interquartile range, sd) of ``values``."""
    a = np.asarray(values, dtype=float)
    q1, med, q3 = np.percentile(a, [25, 50, 75])
    return float(med), float(q3 - q1), float(a.std(ddof=1)) if len(a) > 1 else 0.0


def _trials(text: str) -> int:
    """``--trials``: an integer >= 2 (a spread needs two flicks)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 2, got {text!r}") from None
    if n < 2:
        raise argparse.ArgumentTypeError(f"expected an integer >= 2 (a spread), got {n}")
    return n


def _check_png(path: Path, force: bool) -> str | None:
    """Why ``--png PATH`` cannot be written (None: it can), checked before
    anything is computed."""
    if path.suffix.lower() != ".png":
        return f"--png {path}: expected a file name ending in .png"
    if path.is_dir():
        return f"--png {path}: a folder, expected a PNG file's name"
    if path.exists() and not force:
        return f"--png {path}: the file exists; give --force to replace it"
    if not path.parent.is_dir():
        return f"--png {path}: no folder {path.parent}; create it first"
    return None


def _no_display() -> str | None:
    """Why no window can be opened here (None: one can)."""
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        return (
            "no DISPLAY: this script opens a hidden window to map the drag's pixels; "
            "run it as: xvfb-run -a python benchmarks/hand_spread.py"
        )
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--png", type=Path, default=None, help="draw the landings to this PNG (a .png name)"
    )
    ap.add_argument("--force", action="store_true", help="replace an existing --png file")
    ap.add_argument(
        "--trials",
        type=_trials,
        default=TRIALS,
        help=f"flicks of the drag at each hand, at least 2 (default {TRIALS})",
    )
    args = ap.parse_args(argv)
    why = _check_png(args.png, args.force) if args.png is not None else None
    why = why or _no_display()
    if why is not None:
        print(f"error: {why}", file=sys.stderr)
        return 2
    board = load_board("standard")
    try:
        press, release = drag_mm(board)
    except Exception as e:  # no usable display after all (a dead X server)
        print(
            f"error: cannot open a window ({type(e).__name__}: {e}); "
            "run it as: xvfb-run -a python benchmarks/hand_spread.py",
            file=sys.stderr,
        )
        return 2
    from warlords_sim.gui.input import GAIN
    from warlords_sim.rules.flick_setup import MAX_FLICK_SPEED

    pulled = math.hypot(press[0] - release[0], press[1] - release[1])
    _, _, aim = flick(board, None, 0, press, release)  # as the window's input aims it
    speed = math.hypot(*aim)
    capped = " (the window's full speed: capped)" if speed >= MAX_FLICK_SPEED - 1e-6 else ""
    print(
        f"drag: press {PRESS_PX} px -> ({press[0]:.1f}, {press[1]:.1f}) mm, release "
        f"{RELEASE_PX} px -> ({release[0]:.1f}, {release[1]:.1f}) mm, a {pulled:.0f} mm pull "
        f"(gain {GAIN:.2f} mm/s per mm); aimed {speed:.0f} mm/s{capped} at "
        f"{math.degrees(math.atan2(aim[1], aim[0])):.1f} deg, "
        f"face 6 up, no spin, struck at the centre; {args.trials} flicks a level"
    )
    u = (aim[0] / math.hypot(*aim), aim[1] / math.hypot(*aim))
    results: dict[str, list[Landing]] = {}
    titles: dict[str, str] = {}
    start = (0.0, 0.0)
    print(
        f"{'hand':<7} {'places':>6}  {'along: median IQR sd':>22}  {'across: median IQR sd':>23}"
        f"  {'6 in yellow':>11}  {'off':>3}  faces"
    )
    for hand in LEVELS:
        rows = []
        for i in range(args.trials):
            landing, start, _ = flick(board, hand, i, press, release)
            rows.append(landing)
        results[hand_label(hand)] = rows
        on = [r for r in rows if r.x is not None and r.y is not None]
        along = [(r.x - start[0]) * u[0] + (r.y - start[1]) * u[1] for r in on]  # type: ignore[operator]
        across = [(r.x - start[0]) * -u[1] + (r.y - start[1]) * u[0] for r in on]  # type: ignore[operator]
        places = len({(r.x, r.y) for r in rows})
        a, c = spread(along), spread(across)
        faces = Counter(r.face for r in on)
        sixes = sum(r.six_in_yellow for r in rows)
        titles[hand_label(hand)] = (
            f"{hand_label(hand)}: sd {a[2]:.0f} mm along, {c[2]:.0f} across\n"
            f"a 6 in yellow's courtyard: {sixes} of {len(rows)}"
            + (f" (all {len(rows)} at one spot)" if places == 1 else "")
        )
        print(
            f"{hand_label(hand):<7} {places:>6}  {a[0]:>8.1f} {a[1]:>6.1f} {a[2]:>6.1f}  "
            f"{c[0]:>9.1f} {c[1]:>6.1f} {c[2]:>6.1f}  {sixes:>5} of {len(rows):<3}  "
            f"{len(rows) - len(on):>3}  "
            + " ".join(f"{f}:{faces[f]}" for f in range(1, 7) if faces[f])
        )
    # how much where the finger meets the die matters: the exact drag struck
    # a little higher or lower, or spun (Input's W/X and Q/E, 2 mm / 10 rad/s a press)
    parts = []
    for label, z in (
        ("0.5 mm higher", (0.0, 0.0, 0.5, 0.0)),
        ("0.5 mm lower", (0.0, 0.0, -0.5, 0.0)),
    ):
        parts.append(f"{label} {_along(board, aim, z, start, u):.0f} mm")
    print(f"the exact drag, along the aim, struck {', '.join(parts)}")
    if args.png is not None:
        draw(board, results, start, u, args.png, titles, speed, args.trials)
        print(f"wrote {args.png}")
    return 0


def draw(
    board: Board,
    results: dict[str, list[Landing]],
    start: tuple[float, float],
    u: tuple[float, float],
    path: Path,
    titles: dict[str, str],
    speed: float,
    trials: int,
) -> None:
    """One panel a hand: the board around the drag, the aim line from the
    launch spot, and each landing as its face in a square (mm, to scale)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from warlords_sim.plotting import draw_board

    fig = Figure(figsize=(13.0, 4.3))
    FigureCanvasAgg(fig)
    xs = [r.x for rows in results.values() for r in rows if r.x is not None]
    ys = [r.y for rows in results.values() for r in rows if r.y is not None]
    pad = 35.0
    x0, x1 = min([*xs, start[0]]) - pad, max([*xs, start[0]]) + pad
    y0, y1 = min([*ys, start[1]]) - pad, max([*ys, start[1]]) + pad
    size = max(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    for k, (label, rows) in enumerate(results.items()):
        ax = fig.add_subplot(1, len(results), k + 1)
        draw_board(ax, board, castle_seats=(0, 2), labels=False)
        reach = 520.0
        ax.plot([start[0], start[0] + u[0] * reach], [start[1], start[1] + u[1] * reach],
                "--", color="#333333", lw=0.9)  # fmt: skip
        for r in rows:
            if r.x is None or r.y is None:
                continue
            ax.plot(r.x, r.y, "s", ms=7, mfc="white", mec="#b03010", mew=1.2, alpha=0.85,
                    zorder=20)  # fmt: skip
            ax.annotate(str(r.face), (r.x, r.y), ha="center", va="center", fontsize=6, zorder=21)
        ax.plot(*start, "^", color="#b03010", ms=7, zorder=20)
        ax.set_xlim(cx - size / 2, cx + size / 2)
        ax.set_ylim(cy - size / 2, cy + size / 2)
        ax.set_title(titles[label], fontsize=9)
        ax.tick_params(labelsize=7)
        ax.set_xlabel("x (mm)", fontsize=8)
        ax.set_ylabel("y (mm)" if k == 0 else "", fontsize=8)
    fig.suptitle(
        f"The same drag {trials} times at each hand (issue 20's: area 3 low, aimed "
        f"{speed:.0f} mm/s, seed 5's opening); squares: where the die stopped, with its face",
        fontsize=10,
    )
    fig.subplots_adjust(left=0.045, right=0.995, bottom=0.1, top=0.82, wspace=0.16)
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    raise SystemExit(main())
