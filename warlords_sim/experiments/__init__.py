"""House-rule experiments: many bot games per variant, statistics, plots.

``warlords-sim variants`` is :func:`run_experiment` on an :class:`Experiment`:

* :mod:`.specs`: variants, skills, the board, settings, one plain
  :class:`GameSpec` per game with a seed derived from (seed, variant, skill,
  index) by SHA-256;
* :mod:`.worker`: :func:`play` one spec into one plain row (``games.csv`` columns);
* :mod:`.runner`: in this process, local worker processes, or dask.distributed;
* :mod:`.store`: ``games.csv`` appended as games finish, resume;
* :mod:`.stats`: means and rates with 95% CIs, tests against the first
  variant at the same skill (a shared win counts 1/k to each of k winners);
* :mod:`.report`, :mod:`.plots`: the rich table, ``summary.json``, PNG plots.
"""

from warlords_sim.experiments.lab import ExperimentResult, build_summary, run_experiment
from warlords_sim.experiments.runner import GameFailedError, default_workers, run_games
from warlords_sim.experiments.specs import (
    BUILTIN_VARIANTS,
    DEFAULT_SKILL,
    Experiment,
    ExperimentBoard,
    ExperimentError,
    GameSpec,
    Variant,
    builtin_variant,
    experiment_board,
    game_seed,
    parse_skills,
    variant_from_file,
    variants_from_options,
)
from warlords_sim.experiments.worker import COLUMNS, Row, play

__all__ = [
    "BUILTIN_VARIANTS",
    "COLUMNS",
    "DEFAULT_SKILL",
    "Experiment",
    "ExperimentBoard",
    "ExperimentError",
    "ExperimentResult",
    "GameFailedError",
    "GameSpec",
    "Row",
    "Variant",
    "build_summary",
    "builtin_variant",
    "default_workers",
    "experiment_board",
    "game_seed",
    "parse_skills",
    "play",
    "run_experiment",
    "run_games",
    "variant_from_file",
    "variants_from_options",
]
