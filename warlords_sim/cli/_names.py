"""Names and limits the command line shows before it loads the simulator.

``--help`` texts and option choices need a few constants of the layers
below (the engines, the bots, the launch kinds, the flick limits, the
default fidelity scenarios). Importing those layers would load numpy and
pymunk for every ``--help``, so the command line keeps copies here;
tests/test_import_hygiene.py checks each copy against the layer that owns
it, so they cannot drift apart silently.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "BOTS",
    "BOTS_HELP",
    "DEFAULT_SCENARIOS",
    "ENGINES",
    "LAUNCH_KINDS",
    "MAX_FLICK_SPEED",
    "MAX_FLICK_SPIN",
]

#: :data:`warlords_sim.rules.physics_port.ENGINES`: the physics engines.
ENGINES: tuple[str, ...] = ("2.5d", "reference")
#: :data:`warlords_sim.bots.BOTS`: the bots ``make_bot`` knows.
BOTS: tuple[str, ...] = ("aim", "random", "search")
#: What each bot does, for ``--help`` (the figures: ``benchmarks/bots.py``).
BOTS_HELP = (
    "aim: aims at a gateway with a table of measured launches (fast); "
    "random: flicks at random; search: plans each flick by playing candidates "
    "on copies of the game (stronger than aim; about 0.3 s of CPU a decision, "
    "so a 2-player game takes about 16 s and a 4-player one minutes)"
)
#: The values of :class:`warlords_sim.physics.LaunchKind`, in its order.
LAUNCH_KINDS: tuple[str, ...] = ("table", "low", "high", "siege")
#: :data:`warlords_sim.physics.MAX_FLICK_SPEED`, mm/s.
MAX_FLICK_SPEED = 2000.0
#: :data:`warlords_sim.physics.MAX_FLICK_SPIN`, rad/s.
MAX_FLICK_SPIN = 200.0
#: :data:`warlords_sim.fidelity.DEFAULT_SCENARIOS`: the shipped scenario file.
DEFAULT_SCENARIOS = Path(__file__).parent.parent / "fidelity" / "scenarios.toml"
