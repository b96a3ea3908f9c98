"""Re-record the example replays of this folder (run from the repository root).

    python examples/replays/record_examples.py [--force]

The examples are verified by ``tests/test_replay_examples.py``: a change to
the physics or the rules that alters any outcome makes them diverge. Re-record
them only deliberately, and say why in the commit message.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from warlords_sim.board import Crenelation, load_board
from warlords_sim.bots import make_bot, play_game
from warlords_sim.physics import LaunchKind
from warlords_sim.replay import Recorder, SandboxFlick, apply_sandbox, sandbox_setup, sandbox_world
from warlords_sim.rules import GameConfig, HouseRules

HERE = Path(__file__).resolve().parent

#: (file, players, wall variant, bots, skill, seed)
GAMES = [
    ("game-2p-standard.jsonl", 2, "standard", ["aim", "aim"], 0.7, 3),
    # weak bots so that a player is still without damage before the final round,
    # which raises the side walls of variant wall1 then
    ("game-3p-wall1.jsonl", 3, "wall1", ["aim", "random", "random"], 0.0, 2),
    ("game-4p-wall2.jsonl", 4, "wall2", ["aim", "aim", "aim", "aim"], 0.7, 1),
]


def record_game(
    path: Path, players: int, variant: str, bots: list[str], skill: float, seed: int, force: bool
) -> None:
    config = GameConfig(load_board("standard"), players, HouseRules().replace(wall_variant=variant))
    with Recorder.create(path, config, seed=seed, bots=bots, skill=skill, force=force) as rec:
        game = play_game(
            config,
            [make_bot(b, skill) for b in bots],
            seed,
            on_outcome=lambda state, outcome: rec.record(outcome.action, state, outcome),
        )
        rec.finish(game)


def record_sandbox(path: Path, force: bool) -> None:
    """Five flicks in one world: a table slide, launches from a high and a
    low crenelation, a slide into another die, and a siege-engine shot."""
    board = load_board("standard")
    setup = sandbox_setup(board)
    world = sandbox_world(board, setup)
    high = board.launch_spot(0, 2, Crenelation.HIGH)
    low = board.launch_spot(1, 1, Crenelation.LOW)
    flicks = [
        SandboxFlick(0, (0.0, 620.0), 0.0, LaunchKind.TABLE, face=1, add_at=(0.0, -120.0)),
        SandboxFlick(1, (15.0, 880.0), 2.0, LaunchKind.HIGH, (high.x, high.y), high.height_mm, 5),
        SandboxFlick(2, (950.0, -40.0), -1.5, LaunchKind.LOW, (low.x, low.y), low.height_mm, 3),
        SandboxFlick(3, (60.0, 1000.0), 0.0, LaunchKind.TABLE, face=6, add_at=(-40.0, -130.0)),
    ]
    with Recorder.create(path, board, seed=None, bots=[], mode="sandbox", force=force) as rec:
        for f in flicks:
            result = apply_sandbox(world, f)
            rec.record(f, world, result=result)
        # the last die shot from the siege engine placed next to it
        pose = world.pose(3)
        ex, ey = world.free_spot_near(pose.x, pose.y, board.siege_engine.width_mm, exclude_die=3)
        off = board.siege_engine.width_mm / 2.0 + board.die.size_mm / 2.0 + 0.5
        shot = SandboxFlick(
            3,
            (-700.0, -300.0),
            0.5,
            LaunchKind.SIEGE,
            (ex - off * 0.919145, ey - off * 0.393919),
            board.siege_engine.launch_height_mm,
            siege_engine=(ex, ey),
        )
        rec.record(shot, world, result=apply_sandbox(world, shot))
        rec.finish(world)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--force", action="store_true", help="overwrite the existing examples")
    args = parser.parse_args()
    for name, players, variant, bots, skill, seed in GAMES:
        record_game(HERE / name, players, variant, bots, skill, seed, args.force)
        print(f"wrote {HERE / name}")
    record_sandbox(HERE / "sandbox-flicks.jsonl", args.force)
    print(f"wrote {HERE / 'sandbox-flicks.jsonl'}")


if __name__ == "__main__":
    main()
