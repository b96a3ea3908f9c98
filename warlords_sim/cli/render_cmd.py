"""``warlords-sim render``: a replay drawn off-screen to a GIF, an MP4 or a PNG
(pyglet loaded lazily, inside the command)."""

from __future__ import annotations

from pathlib import Path

import click

from warlords_sim.cli._common import echo, fail, load_board_or_fail
from warlords_sim.cli._outputs import check_output, saving
from warlords_sim.cli._signals import Stop, signals_as_interrupt
from warlords_sim.extras import require_extra

__all__ = ["render"]

_FORMATS = (".gif", ".mp4", ".png")

_HELP = """Draw a replay (see docs/replay-format.md) off-screen with the play
window's renderer and write an animation (.gif, .mp4) or a picture of the
final state (.png).

\b
The physics is re-simulated from the recorded actions, so the dice move as
they did. An animation shows actions --from..--to: the board before the
first, then each flick at 1/FPS s of simulated time a frame (real speed),
each action's settled state held 0.6 s more. A caption above the board
says the round, the action and what it did (over two lines; at the end,
each player's total damage with their castle's colour). A PNG shows the
state after --to (default: the last action). --size is the width in
pixels (even); the board is square, the caption bar adds about 12% at
600 px and wider (more below: 18% at 240 px, 28% at 160 px).

\b
Without a DISPLAY, pyglet's headless (EGL) mode is used. Needs the
render extra (Pillow; imageio-ffmpeg for MP4, whose wheel ships ffmpeg):
pip install 'warlords-sim[render]'.

\b
Examples:
  warlords-sim render examples/replays/game-2p-standard.jsonl --out game.gif --to 12
  warlords-sim render game.jsonl --out game.mp4 --fps 30 --size 720
  warlords-sim render game.jsonl --out end.png

\b
An existing OUT is never replaced without --force.
"""


def _check_out(out: str, force: bool) -> Path:
    return check_output(out, "--out", force, _FORMATS)


@click.command("render", help=_HELP)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--out", "out", required=True, metavar="OUT.gif|OUT.mp4|OUT.png", help="Output.")
@click.option("--from", "first", type=int, default=None, metavar="N", help="First action [1].")
@click.option("--to", "last", type=int, default=None, metavar="M", help="Last action [the last].")
@click.option(
    "--fps", type=click.IntRange(1, 60), default=20, show_default=True, help="Frames a second."
)
@click.option(
    "--size",
    type=click.IntRange(160, 1920),
    default=600,
    show_default=True,
    metavar="W",
    help="Width in pixels.",
)
@click.option(
    "--board",
    "board_name",
    metavar="NAME|PATH",
    default=None,
    help="Board [default: the recording's, checked by SHA-256].",
)
@click.option("--force", is_flag=True, help="Overwrite OUT; draw on a board whose SHA-256 differs.")
def render(
    file: str,
    out: str,
    first: int | None,
    last: int | None,
    fps: int,
    size: int,
    board_name: str | None,
    force: bool,
) -> None:
    require_extra("render", "render")
    from warlords_sim.replay import ReplayError, check_model, load_replay

    path = _check_out(out, force)
    board = load_board_or_fail(board_name) if board_name is not None else None
    try:
        rep = load_replay(file)
    except ReplayError as e:
        fail(e)
    if rep.mode != "game":
        fail(f"{file}: a sandbox replay (flicks without a game) cannot be rendered")
    try:
        check_model(rep, ("2.5d",))  # the window's drawing steps the 2.5D World
    except ReplayError as e:
        fail(e)
    n = len(rep.actions)
    start = 1 if first is None else first
    end = n if last is None else last
    if first is not None and not 1 <= first <= max(n, 1):
        fail(f"--from {first} is out of range: the replay has actions 1..{n}")
    if last is not None and not 0 <= last <= n:
        fail(f"--to {last} is out of range: the replay has actions 1..{n}")
    if end < start - 1 or (first is not None and last is not None and last < first):
        fail(f"--from {start} --to {end}: the range is empty (expected --from <= --to)")

    from warlords_sim.gui.movie import prepare_offscreen

    prepare_offscreen()
    from warlords_sim.gui.movie import Canvas, OffscreenError
    from warlords_sim.gui.playback import ReplayController

    try:
        controller = ReplayController(rep, board=board, force=force)
    except ReplayError as e:
        fail(e)
    for w in [*rep.warnings, *controller.warnings]:
        echo(f"warning: {w}", err=True)
    try:
        canvas = Canvas(controller, size)
    except OffscreenError as e:
        fail(e)
    suffix = path.suffix.lower()
    stop = Stop()
    try:
        # SIGTERM as Ctrl-C: saving() removes the partial file, an old --out stays
        # (a stop still pending when the drawing ends is raised before it is saved)
        with saving(path, "--out", force) as tmp, signals_as_interrupt() as stop:
            frames, seconds = _draw(controller, canvas, tmp, suffix, start, end, fps)
            if controller.refused is not None:
                fail(f"{file}: {controller.refused}")
    except KeyboardInterrupt:
        echo(f"interrupted by {stop.name}: nothing was written to {path}", err=True)
        raise click.exceptions.Exit(stop.exit_status) from None
    finally:
        canvas.close()
    what = "picture" if suffix == ".png" else f"{frames} frames, {seconds:.1f} s at {fps} fps"
    span = f"after action {end}" if suffix == ".png" else f"actions {start}..{end}"
    echo(f"wrote {path}: {span}, {canvas.out_w}x{canvas.out_h} px, {what}")
    if controller.diverged:
        echo(
            f"warning: {len(controller.diverged)} actions settled otherwise than recorded "
            f"(first: {controller.diverged[0]}); see 'warlords-sim replay {file} --verify'",
            err=True,
        )


def _draw(
    controller: object,
    canvas: object,
    tmp: Path,
    suffix: str,
    start: int,
    end: int,
    fps: int,
) -> tuple[int, float]:
    """Draw and write; (frames written, seconds of animation)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from warlords_sim.gui.movie import Canvas, GifWriter, Mp4Writer, replay_frames
    from warlords_sim.gui.playback import ReplayController

    assert isinstance(controller, ReplayController) and isinstance(canvas, Canvas)
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("actions"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    with progress:
        skip = end if suffix == ".png" else start - 1
        task = progress.add_task("replaying", total=max(end, 1))
        while controller.done < skip and controller.advance():
            progress.update(task, completed=controller.done)
        if suffix == ".png":
            canvas.draw().image().save(tmp, format="PNG")
            return 1, 0.0
        writer: GifWriter | Mp4Writer = GifWriter(tmp) if suffix == ".gif" else Mp4Writer(tmp, fps)
        progress.update(task, description="drawing")
        count, seconds = 0, 0.0
        for frame in replay_frames(
            canvas, start, end, fps, lambda n: progress.update(task, completed=n)
        ):
            writer.add(frame)
            count += 1
            seconds += frame.duration
        progress.update(task, description=f"writing {suffix[1:].upper()}")
        writer.close()
    if isinstance(writer, Mp4Writer):
        # a video repeats a frame held longer than 1/fps: say what the file holds
        # (it said 38 frames for an MP4 of 110)
        return writer.count, writer.count / fps
    return count, seconds
