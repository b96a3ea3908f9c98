"""Whole games with the real physics: bots, variants, determinism, the CLI,
the custom-bot example, and the layering (no pyglet)."""

from __future__ import annotations

import ast
import json
import pickle
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from rules_helpers import BOARD

from warlords_sim.bots import AimBot, Hand, RandomBot, make_bot, play_game
from warlords_sim.cli.simulate_cmd import simulate
from warlords_sim.rules import Game, GameConfig, HouseRules

ROOT = Path(__file__).resolve().parent.parent


def _check_finished(config: GameConfig, rec: object) -> None:
    s = rec.state  # type: ignore[attr-defined]
    assert s.over
    assert len(s.history) == config.rounds
    assert s.totals == [sum(r.damage[p] for r in s.history) for p in range(config.players)]
    low = min(s.totals)
    tied = [p for p in range(config.players) if s.totals[p] == low]
    final = s.history[-1].scored_on_opponents
    best = max(final[p] for p in tied)
    assert s.winners == tuple(p for p in tied if final[p] == best)
    if config.house_rules.wall_variant == "wall2":
        assert all(r.side_walls for r in s.history)
    if config.house_rules.wall_variant == "standard":
        assert not any(r.side_walls for r in s.history)


@pytest.mark.parametrize("variant", ["standard", "wall1", "wall2"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_aim_bots_finish_a_game(players: int, variant: str) -> None:
    config = GameConfig(BOARD, players, HouseRules(wall_variant=variant))
    rec = play_game(config, [make_bot("aim") for _ in range(players)], seed=players)
    _check_finished(config, rec)
    if players == 3:
        assert [r.seats for r in rec.state.history] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_random_and_mixed_bots_finish() -> None:
    config = GameConfig(BOARD, 3)
    rec = play_game(config, [RandomBot(), AimBot(0.3), RandomBot()], seed=11)
    _check_finished(config, rec)


def test_same_seed_same_game() -> None:
    config = GameConfig(BOARD, 2, HouseRules(rounds=1))
    a = play_game(config, [make_bot("aim"), make_bot("random")], seed=5)
    b = play_game(config, [make_bot("aim"), make_bot("random")], seed=5)
    assert a.actions == b.actions and a.state.totals == b.state.totals
    assert [r.to_dict() for r in a.state.history] == [r.to_dict() for r in b.state.history]
    c = play_game(config, [make_bot("aim"), make_bot("random")], seed=6)
    assert c.actions != a.actions


def _midgame() -> Game:
    game = Game(GameConfig(BOARD, 2))
    bots = [make_bot("aim"), make_bot("aim")]
    rng = np.random.default_rng(1)
    for _ in range(6):
        game.apply(bots[game.state.active].choose(game.state, game.legal_actions(), rng))
    return game


def _continue(game: Game, seed: int = 2, n: int = 8) -> list[object]:
    bots = [make_bot("aim"), make_bot("aim")]
    rng = np.random.default_rng(seed)
    acts = []
    for _ in range(n):
        if game.over:
            break
        a = bots[game.state.active].choose(game.state, game.legal_actions(), rng)
        acts.append(a)
        game.apply(a)
    return acts


def test_game_copy_and_pickle_continue_identically() -> None:
    """Two copies of one state (copy() and a pickle round trip) play on alike."""
    game = _midgame()
    twin = game.copy()
    pickled = Game.from_state(pickle.loads(pickle.dumps(game.state)))
    acts = _continue(twin)
    for a in acts:
        pickled.apply(a)  # type: ignore[arg-type]
    assert twin.state.physics.digest() == pickled.state.physics.digest()  # type: ignore[attr-defined]
    assert twin.state.totals == pickled.state.totals


def test_copy_continues_like_the_original() -> None:
    """A game copied between flicks (everything at rest) continues exactly
    like the original: same digests, same totals."""
    game = _midgame()
    twin = game.copy()
    acts = _continue(game)
    for a in acts:
        twin.apply(a)  # type: ignore[arg-type]
    assert twin.state.physics.digest() == game.state.physics.digest()  # type: ignore[attr-defined]


def test_skill_sets_hand_noise() -> None:
    rng = np.random.default_rng(0)
    steady = [Hand(1.0).flick(0.0, 1000.0, rng) for _ in range(300)]
    shaky = [Hand(0.0).flick(0.0, 1000.0, rng) for _ in range(300)]
    assert np.std([v[1] for v in steady]) < np.std([v[1] for v in shaky]) / 3
    with pytest.raises(ValueError, match="skill"):
        Hand(1.5)


def test_custom_bot_example_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    mod = runpy.run_path(str(ROOT / "examples" / "custom_bot.py"), run_name="example")
    assert mod["main"](1) == 0
    out = capsys.readouterr().out
    assert "round 2:" in out and "winner" in out


def test_simulate_command_json() -> None:
    res = CliRunner().invoke(
        simulate, ["--players", "2", "--seed", "4", "--json", "--variant", "wall2"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert {"seed", "players", "variant", "rounds", "totals", "winner", "flicks"} <= set(data)
    assert data["seed"] == 4 and data["players"] == 2 and data["variant"] == "wall2"
    assert len(data["rounds"]) == 2
    for r in data["rounds"]:
        assert {"round", "first_player", "damage", "flicks", "eliminated", "ended_by"} <= set(r)
        assert len(r["damage"]) == 2 and len(r["eliminated"]) == 2
    assert data["totals"] == [sum(r["damage"][p] for r in data["rounds"]) for p in range(2)]
    assert data["flicks"] == sum(r["flicks"] for r in data["rounds"])


def test_simulate_command_table(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text("rounds = 1\n")
    res = CliRunner().invoke(
        simulate,
        ["--players", "3", "--bots", "aim,random,aim", "--rules", str(rules), "--progress"],
    )
    assert res.exit_code == 0, res.output
    assert "P2 dmg" in res.output
    assert "Winner" in res.output or "Shared win" in res.output


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--bots", "aim,random"], "--bots: expected 1 or 4"),
        (["--bots", "clever"], "unknown bot 'clever'"),
        (["--skill", "3"], "--skill: 3 is outside [0, 1]"),
        (["--skill", "pro"], "or a level: novice, club, expert"),
        (["--rules", "/nonexistent/h.toml"], "cannot read house rules"),
        (["--board", "nope"], "unknown board 'nope'"),
    ],
)
def test_simulate_errors_are_one_line_exit_2(args: list[str], match: str) -> None:
    res = CliRunner().invoke(simulate, args)
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warlords-sim: error: ") and match in lines[0]


def _imports(source: str) -> set[str]:
    """Top-level names of every module ``source`` imports, wherever the import
    stands (module level or inside a function): ``import a.b``, ``from a.b
    import c`` and ``importlib.import_module("a.b")`` / ``__import__("a")``
    with a literal name. Relative imports (within warlords_sim) are left out."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and node.args:
            f, arg = node.func, node.args[0]
            called = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if called in ("import_module", "__import__") and isinstance(arg, ast.Constant):
                names.add(str(arg.value).split(".")[0])
    return names


def test_import_reader_sees_every_form_of_import() -> None:
    """The reader below finds what a text search for "import pymunk" missed."""
    src = (
        "from pymunk import Body\n"
        "def f():\n    import pyglet.window as w\n"
        "def g():\n    import importlib\n    return importlib.import_module('scipy.stats')\n"
        "from . import physics_port\n"
    )
    assert _imports(src) == {"pymunk", "pyglet", "importlib", "scipy"}
    assert "pymunk" in _imports((ROOT / "warlords_sim" / "physics" / "world.py").read_text())


def test_rules_and_bots_load_no_pyglet_and_rules_import_no_pymunk() -> None:
    """Loading the rules, the bots and ``simulate`` loads no pyglet; no module
    of the rules imports pymunk or pyglet itself, in any form (the rules read
    the physics through ``physics_port``; pymunk comes in only through
    ``warlords_sim.physics``), and no bot module imports pyglet."""
    code = (
        "import sys; import warlords_sim.rules, warlords_sim.bots, warlords_sim.cli.simulate_cmd; "
        "assert 'pyglet' not in sys.modules, 'pyglet loaded'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    rules = sorted((ROOT / "warlords_sim" / "rules").glob("*.py"))
    bots = sorted((ROOT / "warlords_sim" / "bots").glob("*.py"))
    assert rules and bots
    banned = {p: {"pymunk", "pyglet"} for p in rules} | {p: {"pyglet"} for p in bots}
    for path, names in banned.items():
        found = _imports(path.read_text(encoding="utf-8")) & names
        assert not found, f"{path.relative_to(ROOT)} imports {sorted(found)}"
