"""Skill as a human hand (issue 13, item 2).

The named levels (``novice``, ``club``, ``expert``) give a speed spread that
grows with the speed and a direction spread in degrees, documented in
:mod:`warlords_sim.bots.skill`; many sampled flicks must show those numbers.
A number in [0, 1] must keep the bots' original noise draw for draw, or
recorded games would resume differently. Replays record a level by its name
and still read the numbers older files carry.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import get_args

import numpy as np
import pytest
from click.testing import CliRunner

import warlords_sim.bots.skill as skill_module
from warlords_sim.board import load_board
from warlords_sim.bots import (
    SKILL_LEVELS,
    AimBot,
    Hand,
    SkillLevel,
    make_bot,
    parse_skill,
    skill_label,
    skill_noise,
)
from warlords_sim.bots.skill import SkillName
from warlords_sim.cli import main
from warlords_sim.cli._seats import SKILL_HELP
from warlords_sim.cli._seats import parse_skill as cli_parse_skill
from warlords_sim.replay import Recorder, ReplayError, load_replay
from warlords_sim.rules.game import GameConfig
from warlords_sim.rules.house_rules import HouseRules
from warlords_sim.rules.legal import MAX_FLICK_SPEED

N = 20_000  # flicks per level and speed: the sd is then known to about 0.5 %


def _sample(hand: Hand, speed: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Delivered speeds (mm/s) and directions (rad) of N flicks aimed along +x."""
    rng = np.random.default_rng(seed)
    v = np.array([hand.flick(0.0, speed, rng) for _ in range(N)])
    return np.hypot(v[:, 0], v[:, 1]), np.arctan2(v[:, 1], v[:, 0])


@pytest.mark.parametrize("level", list(SkillLevel), ids=lambda lv: lv.value)
def test_sampled_spreads_match_the_documented_numbers(level: SkillLevel) -> None:
    """Speed cv at 500 and at 1500 mm/s (so the sd in mm/s triples with the
    speed) and direction sd in degrees, within 3 % of the documentation."""
    noise = level.noise
    for k, speed in enumerate((500.0, 1500.0)):
        speeds, angles = _sample(Hand(level), speed, seed=k)
        assert speeds.mean() == pytest.approx(speed, rel=0.01)
        assert speeds.std() / speed == pytest.approx(noise.speed_cv, rel=0.03)
        assert speeds.std() == pytest.approx(noise.speed_sd(speed), rel=0.03)
        assert math.degrees(angles.std()) == pytest.approx(noise.direction_sd_deg, rel=0.03)


def test_the_documented_table_is_the_levels_numbers() -> None:
    """The module docstring's table (speed sd at 500 and 1500 mm/s, direction
    in degrees) says what the levels draw."""
    doc = skill_module.__doc__ or ""
    for level in SkillLevel:
        n = level.noise
        row = re.search(rf"^{level.value}\s+(.*)$", doc, re.M)
        assert row is not None, level
        want = (
            f"{n.speed_cv:.3f}",
            f"{n.speed_sd(500.0):.0f} / {n.speed_sd(1500.0):.0f} mm/s",
            f"{n.direction_sd_deg:g} deg",
        )
        for text in want:
            assert text in row.group(1), (level, text, row.group(1))


def test_levels_get_steadier_from_novice_to_expert() -> None:
    noises = [lv.noise for lv in SkillLevel]  # shakiest first
    assert [lv.value for lv in SkillLevel] == ["novice", "club", "expert"]
    for shaky, steady in zip(noises, noises[1:], strict=False):
        assert steady.speed_cv < shaky.speed_cv and steady.direction_sd_deg < shaky.direction_sd_deg
    # a level's spread stays well inside the flick range at the speeds documented
    assert noises[0].speed_sd(1500.0) * 2 < MAX_FLICK_SPEED - 1500.0


def _old_flick(
    skill: float, direction: float, speed: float, rng: np.random.Generator
) -> tuple[float, float]:
    """The bots' hand before named levels existed (``Hand.flick`` at the
    commit before this test), kept verbatim as the reference."""
    a = direction + float(rng.normal(0.0, 0.01 + 0.12 * (1.0 - skill)))
    s = speed * (1.0 + float(rng.normal(0.0, 0.02 + 0.20 * (1.0 - skill))))
    s = min(max(s, 20.0), MAX_FLICK_SPEED)
    return (s * math.cos(a), s * math.sin(a))


@pytest.mark.parametrize("skill", [0.0, 0.3, 0.7, 1.0, 1, 0])
def test_a_number_keeps_the_old_noise_draw_for_draw(skill: float) -> None:
    hand, bot = Hand(skill), make_bot("aim", skill)
    assert isinstance(bot, AimBot) and bot.hand == hand and hand.skill == skill
    assert hand.angle_sd == 0.01 + 0.12 * (1.0 - skill)
    assert hand.speed_sd == 0.02 + 0.20 * (1.0 - skill)
    new, old = np.random.default_rng(5), np.random.default_rng(5)
    for direction, speed in [(0.3, 50.0), (-2.0, 700.0), (1.0, 1900.0)] * 50:
        assert hand.flick(direction, speed, new) == _old_flick(skill, direction, speed, old)
    noise = skill_noise(skill)
    assert noise.speed_cv == hand.speed_sd
    assert noise.direction_sd == pytest.approx(hand.angle_sd, rel=1e-12)


def test_levels_are_parsed_and_bad_values_name_the_choices() -> None:
    assert parse_skill("club") is SkillLevel.CLUB and parse_skill(" Expert ") is SkillLevel.EXPERT
    assert parse_skill("0.25") == 0.25 and parse_skill("1") == 1.0
    assert make_bot("aim", "novice").hand.skill is SkillLevel.NOVICE  # type: ignore[attr-defined]
    assert Hand("club").skill is SkillLevel.CLUB  # type: ignore[arg-type]
    for bad in ("pro", "", "1.5", "nan"):
        with pytest.raises(ValueError, match="expected a number in .* or a level: novice, club"):
            parse_skill(bad)
    with pytest.raises(ValueError, match=r"--skill: 'pro' is not a number or a level name"):
        cli_parse_skill("pro")
    for bad_value in ("pro", 1.5, -0.1):
        with pytest.raises(ValueError, match="novice, club, expert"):
            make_bot("random", bad_value)
    assert get_args(SkillName) == SKILL_LEVELS
    assert skill_label(SkillLevel.CLUB) == "club" and skill_label(0.3) == "0.3"


def test_play_refuses_an_unknown_level_in_one_line_naming_the_choices() -> None:
    res = CliRunner().invoke(main, ["play", "--skill", "pro", "--screenshot", "never.png"])
    assert res.exit_code == 2, res.output
    error = [line for line in res.output.splitlines() if "--skill" in line and "pro" in line]
    assert len(error) == 1 and "novice, club, expert" in error[0]
    assert not Path("never.png").exists()


def test_help_quotes_the_levels_numbers() -> None:
    for level in SkillLevel:
        n = level.noise
        assert f"{level.value} (" in SKILL_HELP
        assert f"{n.speed_cv * 100:.1f} %" in SKILL_HELP
        assert f"{n.direction_sd_deg:g} deg" in SKILL_HELP
    out = CliRunner().invoke(main, ["simulate", "--help"], terminal_width=200).output
    assert "0..1|novice|club|expert" in out


def test_replays_record_a_level_by_name_and_still_read_numbers(tmp_path: Path) -> None:
    config = GameConfig(load_board("standard"), 2, HouseRules())
    for given, recorded in ((SkillLevel.CLUB, "club"), ("expert", "expert"), (0.3, 0.3)):
        path = tmp_path / f"{recorded}.jsonl"
        Recorder.create(path, config, seed=1, bots=["aim", "aim"], skill=given).close()
        assert json.loads(path.read_text().splitlines()[0])["skill"] == recorded
        header = load_replay(path).header
        assert header.skill == recorded
        assert make_bot("aim", header.skill).hand == Hand(given)  # type: ignore[attr-defined,arg-type]
    with pytest.raises(ReplayError, match="novice, club, expert"):
        Recorder.create(tmp_path / "bad.jsonl", config, seed=1, bots=["aim", "aim"], skill="pro")
    good = (tmp_path / "club.jsonl").read_text().splitlines()
    for bad in ('"pro"', "7", "true"):
        head = json.loads(good[0])
        head["skill"] = json.loads(bad)
        path = tmp_path / "edited.jsonl"
        path.write_text(json.dumps(head) + "\n")
        with pytest.raises(ReplayError, match=r"line 1: field `skill`: expected float in \[0, 1\]"):
            load_replay(path)
