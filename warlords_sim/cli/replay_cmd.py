"""``warlords-sim replay``: watch or verify a recorded game or flick sequence, or branch from it.

``flick --record`` records with :mod:`warlords_sim.cli.flick_trials`.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING

import click

from warlords_sim.cli._common import echo, fail, load_board_or_fail
from warlords_sim.cli._outputs import check_output, recording, same_file
from warlords_sim.cli._seats import SKILL_METAVAR, parse_skill

if TYPE_CHECKING:
    from warlords_sim.board import Board
    from warlords_sim.replay import Replay

__all__ = ["replay"]

_HELP = """Watch a replay (a recorded game or flick sequence, JSON Lines; see
docs/replay-format.md) in the window, verify it, or branch a new game from
any of its actions.

\b
Without --verify or --branch the game is played back in the play window,
the physics re-simulated so the dice move as they did: Space pauses, Right
plays one action (or finishes the one in flight), + and - change the
speed; the side panel shows the action number and its summary. --until N
starts paused after action N.

\b
--verify re-simulates every action headless and compares the digest of the
settled state after each one. Exit status 0: all match; 1: an action
diverges (named, with the dice that differ and by how much); 2: the file
is bad (one line naming the file, line and field). A replay recorded with
other package, pymunk or Python versions, on another platform or with a
C maths library that rounds otherwise says so first; a board whose SHA-256
differs is an error unless --force. A replay
made with another physics model version (or before replays recorded it) is
refused, exit status 2, before anything is simulated, as are watching,
rendering, resuming and branching it: its digests could not match.

\b
--until N --branch NEW writes actions 1..N to NEW and, with --bots,
continues the game headless from there ("what if"). With the bots that
recorded the game (same seed), the branch replays the original game.

\b
Examples:
  warlords-sim simulate --players 3 --seed 7 --record game.jsonl
  warlords-sim replay game.jsonl
  warlords-sim replay game.jsonl --verify
  warlords-sim replay game.jsonl --until 40 --branch whatif.jsonl --bots random
"""


def _load(path: str) -> Replay:
    from warlords_sim.replay import ReplayError, load_replay

    try:
        return load_replay(path)
    except ReplayError as e:
        fail(e)


def _bots(text: str, players: int) -> list[str]:
    """``--bots``: one name per player (:func:`warlords_sim.bots.parse_bot_names`)."""
    from warlords_sim.bots import parse_bot_names

    try:
        return list(parse_bot_names(text, players))
    except ValueError as e:
        fail(e)


@click.command("replay", help=_HELP)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--verify", "do_verify", is_flag=True, help="Re-simulate and compare every digest.")
@click.option("--json", "as_json", is_flag=True, help="With --verify: one JSON object.")
@click.option("--until", type=int, default=None, metavar="N", help="Use actions 1..N only.")
@click.option("--branch", "branch_to", metavar="NEW", help="Write actions 1..N to NEW.")
@click.option(
    "--bots",
    metavar="BOT[,BOT...]",
    help="With --branch: continue headless with these bots (one, or one per player).",
)
@click.option(
    "--skill",
    default=None,
    metavar=SKILL_METAVAR,
    help="With --bots: their skill, a number in [0, 1] or a level [default: the recording's].",
)
@click.option(
    "--board",
    "board_name",
    metavar="NAME|PATH",
    default=None,
    help="Board to replay on [default: the recording's, checked by SHA-256].",
)
@click.option(
    "--force",
    is_flag=True,
    help="Replay on a board whose SHA-256 differs, branch from a diverging replay, overwrite NEW.",
)
def replay(
    file: str,
    do_verify: bool,
    as_json: bool,
    until: int | None,
    branch_to: str | None,
    bots: str | None,
    skill: str | None,
    board_name: str | None,
    force: bool,
) -> None:
    if do_verify and branch_to is not None:
        fail("give --verify or --branch NEW, not both")
    if branch_to is not None and same_file(branch_to, file):
        fail(f"--branch {branch_to} is the replay being read: give a new file")
    if branch_to is not None:
        check_output(branch_to, "--branch", force)
    if branch_to is None and not do_verify:
        for opt, value in (("--json", as_json), ("--bots", bots), ("--skill", skill)):
            if value is not None and value is not False:
                fail(f"{opt} needs --verify or --branch NEW")
    if do_verify:  # verify re-simulates the recorded actions: no bot plays
        for opt, value in (("--bots", bots), ("--skill", skill)):
            if value is not None:
                fail(f"{opt} has no effect with --verify (it re-simulates the recorded actions)")
    if branch_to is not None:
        if as_json:
            fail("--json needs --verify (--branch prints one line)")
        if skill is not None and bots is None:
            fail(
                "--skill needs --bots: the branch's skill is that of the bots that continue "
                "it (without --bots, nobody plays on and the recording's skill stays)"
            )
    if until is not None and until < 0:
        fail(f"--until must be >= 0, got {until}")
    board = load_board_or_fail(board_name) if board_name is not None else None
    rep = _load(file)
    if branch_to is None and not do_verify:
        _watch(rep, board, force, until)
    elif do_verify:
        if rep.truncated:
            fail(
                f"{rep.warnings[0]}; resume the game or branch from it "
                "(--until N --branch NEW) to use the valid prefix"
            )
        _verify(rep, board, force, until, as_json)
    else:
        assert branch_to is not None
        for w in rep.warnings:
            echo(f"warning: {w}", err=True)
        _branch(rep, branch_to, until, bots, skill, board, force)


def _watch(rep: Replay, board: Board | None, force: bool, until: int | None) -> None:
    """Play the replay back in the window (``until``: start paused after action N)."""
    from warlords_sim.replay import ReplayError, check_model

    n = len(rep.actions)
    if until is not None and until > n:
        fail(f"--until {until} is out of range: the replay has {n} actions")
    try:
        check_model(rep, ("2.5d",))  # the window steps the 2.5D World
    except ReplayError as e:
        fail(e)
    for w in rep.warnings:
        echo(f"warning: {w}", err=True)
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        fail(
            "no DISPLAY to open the window on; draw the replay off-screen with "
            "'warlords-sim render FILE --out OUT.gif' instead"
        )
    from warlords_sim.gui import prepare_window

    prepare_window()  # before the window modules load pyglet.window
    from warlords_sim.gui.playback import ReplayController
    from warlords_sim.gui.watch import run_watch

    try:
        controller = ReplayController(rep, board=board, force=force)
    except ReplayError as e:
        fail(e)
    for w in controller.warnings:
        echo(f"warning: {w}", err=True)
    if until is not None:
        controller.skip_to(until)
        controller.paused = True
    echo(f"watching {rep.path}: {n} actions (Space: pause, Right: step, +/-: speed)")
    try:
        run_watch(controller)
    except Exception as e:
        if type(e).__name__ == "NoSuchDisplayException":
            fail(f"cannot open the window: {e} (is DISPLAY set?)")
        raise


def _verify(
    rep: Replay, board: Board | None, force: bool, until: int | None, as_json: bool
) -> None:
    from warlords_sim.replay import ReplayError, check_model, verify
    from warlords_sim.replay.model import verify_engines
    from warlords_sim.replay.rebuild import version_notes

    try:
        check_model(rep, verify_engines(rep))  # before anything is printed or simulated
    except ReplayError as e:
        fail(e)
    notes = version_notes(rep)
    if notes and not as_json:
        echo("note: recorded with other versions: " + ", ".join(notes) + "; digests may differ")
    try:
        report = verify(rep, board=board, force=force, until=until)
    except ReplayError as e:
        fail(e)
    if as_json:
        click.echo(json.dumps(report.as_json()))
    else:
        for w in report.warnings:
            if w not in rep.warnings:
                echo(f"warning: {w}")
        if report.divergence is not None:
            echo(f"{rep.path}: {report.divergence.describe()}")
            echo(f"{report.checked - 1} of {report.total} actions matched before it")
        elif report.mismatch is not None:
            echo(
                f"{rep.path}: {report.mismatch.describe()}; its digest matches, so the line "
                "was edited or mis-recorded"
            )
        elif report.result is not None:
            echo(f"{rep.path}: {report.checked} actions, all digests match, but {report.result}")
        else:
            echo(f"{rep.path}: {report.checked} actions, all digests match{_tail(rep, report)}")
    if not report.ok:
        raise click.exceptions.Exit(1)


def _span(n: int, total: int) -> str:
    """The first ``n`` of ``total`` actions in words: "actions 1..N of T",
    "action 1 of T", or for N = 0 (``--until 0``, the set-up alone; it said
    "actions 1..0") "none of its T actions"."""
    if n == 0:
        return f"none of its {total} actions"
    return f"action 1 of {total}" if n == 1 else f"actions 1..{n} of {total}"


def _tail(rep: Replay, report: object) -> str:
    res = rep.result
    n = len(rep.actions)
    from warlords_sim.replay.verify import VerifyReport

    assert isinstance(report, VerifyReport)
    if report.checked < n:
        return f" ({_span(report.checked, n)})"
    if res is None:
        return " (no result line: an unfinished game or sequence)"
    if rep.mode == "game":
        win = " ".join(f"P{w}" for w in res.winners) or "-"
        return f"; result verified: totals {' '.join(map(str, res.totals))}, winner {win}"
    return "; result verified"


def _branch(
    rep: Replay,
    new: str,
    until: int | None,
    bots: str | None,
    skill_text: str | None,
    board: Board | None,
    force: bool,
) -> None:
    from warlords_sim.bots import Skill, make_bot
    from warlords_sim.replay import ReplayError, branch, load_replay

    h = rep.header
    n = len(rep.actions) if until is None else until
    names = list(h.bots)
    policies = None
    # without --bots the recording's bots stay in the header, and so does their skill
    skill: Skill | str | None = h.skill
    if skill_text is not None:
        try:
            skill = parse_skill(skill_text)
        except ValueError as e:
            fail(e)
    if bots is not None:
        if h.mode != "game":
            fail("--bots: a sandbox replay has no players to continue with")
        names = _bots(bots, h.players)
        s = skill if skill is not None else 0.7
        try:
            policies = [make_bot(b, s) for b in names]
        except ValueError as e:
            fail(e)
        skill = s
    try:
        with recording(None, "--branch"):  # SIGTERM as Ctrl-C: the old NEW stays whole
            rebuilt = branch(
                rep, new, n, policies, names, skill=skill, board=board, force=force, overwrite=force
            )
    except ReplayError as e:
        fail(e)
    out = load_replay(new)
    head = (
        f"{new}: the set-up of {rep.path}, none of its actions"
        if n == 0
        else f"{new}: {'action 1' if n == 1 else f'actions 1..{n}'} of {rep.path}"
    )
    if rebuilt.divergence is not None:
        echo(f"warning: {rebuilt.divergence.describe()}", err=True)
    if out.result is None:
        how = "with --bots, or in the window: warlords-sim play --resume " + new
        echo(head + f" (continue it {how})" if h.mode == "game" else head)
    elif h.mode == "game":
        more = len(out.actions) - n
        win = " ".join(f"P{w}" for w in out.result.winners) or "-"
        echo(
            head + f", then {more} more by {','.join(names)}: totals "
            f"{' '.join(map(str, out.result.totals))}, winner {win}"
        )
