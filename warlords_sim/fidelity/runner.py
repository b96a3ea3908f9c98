"""Running a scenario's noisy trials on one physics engine.

Engine-agnostic: worlds come from
:func:`warlords_sim.rules.physics_port.make_world` and are used only
through the :class:`~warlords_sim.rules.physics_port.Physics` port, so the
2.5D model and the 3D reference run exactly the same set-up and inputs.
Trial i of every scenario and engine draws its hand noise from
``numpy.random.default_rng(seed + i)`` (as ``warlords-sim flick --seed
SEED --noise S`` does), so both engines see the same noisy flicks and a
trial can be replayed alone with ``flick``.

Units mm, mm/s, rad, s; board frame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from warlords_sim.board import Board
from warlords_sim.fidelity.hand import noisy_velocity
from warlords_sim.fidelity.scenarios import Scenario, ScenarioError
from warlords_sim.physics.types import Flick, FlickResult, LaunchKind
from warlords_sim.rules.flick_setup import MAX_FLICK_SPEED
from warlords_sim.rules.physics_port import Physics, make_world

__all__ = ["TrialOutcome", "build_world", "engine_problem", "run_scenario", "trial_outcome"]


@dataclass(frozen=True)
class TrialOutcome:
    """Where one trial's flicked die ended, in the board and the aim frame.

    Attributes:
        trial: index i (its noise seed is ``seed + i``).
        velocity: the noisy flick velocity, mm/s.
        x, y: settled centre, or the point where it left the board, mm.
        along, across: (x, y) minus the launch point, along the aim and
            across it (positive to the left of the aim), mm.
        exited: it left the board.
        initial_face, face: face up at launch and at rest (for a die that
            left the board, the face as it left).
        region: ``str(Region)`` of the settled die (``"off_board"`` if it left).
        landings: LANDING events of the flicked die.
        settle_s: simulated seconds until everything rested.
        cocked: it rests tilted against or on something.
    """

    trial: int
    velocity: tuple[float, float]
    x: float
    y: float
    along: float
    across: float
    exited: bool
    initial_face: int
    face: int
    region: str
    landings: int
    settle_s: float
    cocked: bool

    def as_json(self) -> dict[str, object]:
        return {
            "trial": self.trial,
            "vx_mm_s": self.velocity[0],
            "vy_mm_s": self.velocity[1],
            "x_mm": self.x,
            "y_mm": self.y,
            "along_mm": self.along,
            "across_mm": self.across,
            "exited": self.exited,
            "initial_face": self.initial_face,
            "face": self.face,
            "region": self.region,
            "landings": self.landings,
            "settle_s": self.settle_s,
            "cocked": self.cocked,
        }


def engine_problem(board: Board, engine: str) -> str | None:
    """Why ``engine`` cannot simulate ``board`` (the 2.5D engine and a cuboid
    die; a restitution out of the reference contact's reach), or None.

    Raises:
        ImportError: the engine is not installed.
    """
    try:
        make_world(board, engine, (0, 1, 2, 3), False)
    except ImportError:
        raise
    except ValueError as e:  # WorldError
        return str(e)
    return None


def build_world(board: Board, scenario: Scenario, engine: str) -> Physics:
    """A fresh world of ``engine`` holding the scenario's set-up (and, for a
    table flick, the flicked die at rest).

    Raises:
        ScenarioError: the engine cannot simulate the board (a cuboid die on
            the 2.5D engine), or the set-up does not fit it (a die
            overlapping a pin, wall or die, a siege engine on a wall or pin);
            the message names the scenario file, the scenario, the field
            and the engine. :func:`~.scenarios.load_scenarios` with a board
            refuses the same set-ups before any world is built.
        ValueError, ImportError: an unknown or unavailable engine
            (see :func:`~warlords_sim.rules.physics_port.make_world`).
    """
    where = f"{scenario.path}: " if scenario.path else ""
    head = f"{where}scenario {scenario.name!r}"
    f = scenario.flick
    field = "board"
    try:
        world = make_world(board, engine, scenario.castle_seats, scenario.side_walls)
        for k, hole in enumerate(scenario.pins):
            field = f"pins[{k}]"
            world.add_pin(hole)
        if scenario.siege_engine is not None:
            field = "siege_engine"
            world.place_siege_engine(*scenario.siege_engine)
        for k, d in enumerate(scenario.dice):
            field = f"dice[{k}].at"
            world.add_die(d.die, d.x, d.y, d.face, d.angle)
        if f.launch is LaunchKind.TABLE:
            assert f.at is not None  # checked on load
            field = "flick.at"
            world.add_die(f.die, f.at[0], f.at[1], f.face)
    except ImportError:
        raise
    except ValueError as e:  # WorldError is a ValueError
        if field == "board":
            raise ScenarioError(f"{head}: engine {engine} cannot run the board: {e}") from e
        raise ScenarioError(f"{head}, field `{field}`: set-up on {engine}: {e}") from e
    return world


def trial_outcome(
    trial: int,
    velocity: tuple[float, float],
    start: tuple[float, float],
    aim: tuple[float, float],
    res: FlickResult,
) -> TrialOutcome:
    """Summarise one :class:`FlickResult` of the flicked die ``res.flick.die``."""
    e = res.end()
    dx, dy = e.x - start[0], e.y - start[1]
    along = dx * aim[0] + dy * aim[1]
    across = -dx * aim[1] + dy * aim[0]
    return TrialOutcome(
        trial, velocity, e.x, e.y, along, across, e.exited, res.initial_face, e.face,
        str(e.region), e.landings, res.settle_s, e.cocked,
    )  # fmt: skip


def run_scenario(
    board: Board,
    scenario: Scenario,
    engine: str,
    trials: int,
    seed: int,
    on_trial: Callable[[], None] | None = None,
) -> tuple[TrialOutcome, ...]:
    """Run ``trials`` noisy flicks of ``scenario`` on ``engine``, each in a
    fresh world; trial i draws its noise from ``default_rng(seed + i)``.

    Raises:
        ScenarioError: the set-up does not fit the board.
        RuntimeError: the engine failed on a trial (the message names the
            scenario, engine and trial; the engine's error is chained).
    """
    start, height = scenario.launch_point(board)
    f = scenario.flick
    aim = f.aim
    out: list[TrialOutcome] = []
    for i in range(trials):
        v = noisy_velocity(
            f.velocity, scenario.noise, np.random.default_rng(seed + i), MAX_FLICK_SPEED
        )
        world = build_world(board, scenario, engine)
        if f.launch is LaunchKind.TABLE:
            flick = Flick(f.die, v, f.spin, f.launch, strike_mm=f.strike_mm)
        else:
            flick = Flick(f.die, v, f.spin, f.launch, start, height, f.strike_mm)
        try:
            res = world.flick(flick, face=f.face)
        except Exception as e:
            raise RuntimeError(
                f"scenario {scenario.name!r} on {engine}, trial {i} (noise seed {seed + i}, "
                f"velocity {v[0]:.3f},{v[1]:.3f} mm/s): {e}"
            ) from e
        out.append(trial_outcome(i, v, start, aim, res))
        if on_trial is not None:
            on_trial()
    return tuple(out)
