"""The example replays of examples/replays/ verify digest for digest.

A failure here means a change altered physics or rules outcomes, or that
the physics model's version (``warlords_sim.physics.MODEL_VERSION``) is not
the one they were recorded with: if that is intended, re-record them
(``python examples/replays/record_examples.py --force``; ``--check`` lists
the stale ones) and say why in the commit message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from warlords_sim.physics import MODEL_VERSION
from warlords_sim.replay import load_replay, verify
from warlords_sim.replay.rebuild import version_notes

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "replays"
FILES = sorted(EXAMPLES.glob("*.jsonl"))


def test_the_examples_cover_2_3_4_players_both_walls_and_a_sandbox() -> None:
    headers = [load_replay(f).header for f in FILES]
    games = [h for h in headers if h.mode == "game"]
    assert {h.players for h in games} == {2, 3, 4}
    assert {h.house_rules.wall_variant for h in games if h.house_rules} >= {"wall1", "wall2"}
    assert any(h.mode == "sandbox" for h in headers)


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_example_verifies(path: Path) -> None:
    rep = load_replay(path)
    assert rep.result is not None and not rep.truncated
    physics = rep.header.physics
    assert physics is not None and physics.model == MODEL_VERSION, (
        f"{path.name} was recorded with model {physics and physics.model}, this build has "
        f"{MODEL_VERSION}: re-record the examples (python {EXAMPLES}/record_examples.py --force)"
    )
    libm = [n for n in version_notes(rep) if n.startswith("C maths library")]
    if libm:  # docs/replay-format.md, "What the digests depend on"
        pytest.xfail(f"recorded where the C maths library rounds otherwise: {libm[0]}")
    report = verify(rep)
    assert report.ok, report.divergence.describe() if report.divergence else report.result
    assert report.checked == len(rep.actions)
    if rep.header.mode == "game" and rep.header.house_rules is not None:
        walls = [r["side_walls"] for r in rep.result.rounds]
        if rep.header.house_rules.wall_variant == "wall1":
            assert walls[-1] and not any(walls[:-1])  # the walls rise in the final round
        if rep.header.house_rules.wall_variant == "wall2":
            assert all(walls)
