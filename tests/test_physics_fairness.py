"""Fairness emerges from the simulated motion (issue 2, "What it must show").

The faces of energetic launches with small hand noise must be uniform, as
real dice are (640,934 casino rolls, Murray et al. 2001), while nothing in
the model draws a face at random: the noise is only on the flick's inputs.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner
from scipy.stats import chisquare

from warlords_sim.board import load_board
from warlords_sim.cli import main
from warlords_sim.cli.flick_cmd import run_trials
from warlords_sim.physics import LaunchKind


@pytest.mark.slow
def test_high_crenelation_launch_gives_uniform_faces() -> None:
    """``flick --from 0:2 --launch high --velocity 0,900 --trials 3000
    --noise 0.05``: a chi-square test of the faces against uniform has
    p > 0.01, and every face turns up (the launch starts with 1 up)."""
    result = CliRunner().invoke(
        main,
        [
            "flick", "--from", "0:2", "--launch", "high", "--velocity", "0,900",
            "--trials", "3000", "--noise", "0.05", "--json",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == 3000
    assert [r["trial"] for r in rows] == list(range(3000))
    counts = Counter(r["face"] for r in rows)
    observed = [counts.get(f, 0) for f in range(1, 7)]
    assert min(observed) > 0
    p = float(chisquare(observed).pvalue)
    assert p > 0.01, f"faces {observed}, chi-square p = {p:.3g}"


def test_without_noise_every_trial_is_the_same() -> None:
    """No noise, no randomness: 20 trials of one launch give one outcome,
    so the spread above comes from the inputs, not from a random draw."""
    board = load_board("standard")
    results = run_trials(
        board, seat_area=(0, 2), velocity=(0.0, 900.0), launch=LaunchKind.HIGH, trials=20
    )
    assert len({(r.face, r.x_mm, r.y_mm, r.digest) for r in results}) == 1


def test_small_noise_changes_the_face() -> None:
    """Sensitivity: 60 launches with 5 % noise do not all show the same
    face (a model that ignored the motion would)."""
    board = load_board("standard")
    results = run_trials(
        board,
        seat_area=(0, 2),
        velocity=(0.0, 900.0),
        launch=LaunchKind.HIGH,
        trials=60,
        noise=0.05,
    )
    assert len({r.face for r in results}) >= 4
