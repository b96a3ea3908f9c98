"""How steady a bot's hand is: a number in [0, 1] or a named level.

A flick is a fast aimed movement, and the hand that makes it errs in three
ways this module sets the size of (:class:`~warlords_sim.bots.policy.Hand`
draws the errors, for a bot's flick and a person's alike):

* **Speed**: the spread grows with the speed, ``sd = cv * speed``
  (signal-dependent noise: the noise of a motor command is proportional to
  its size, Harris and Wolpert 1998, Nature 394:780-784; the variability of
  force and of the movement's outcome grows linearly with the impulse, that
  is with the speed: Schmidt, Zelaznik, Hawkins, Frank and Quinn 1979,
  Psychological Review 86:415-451; linearly for submaximal forces, levelling
  off only near maximal ones: Sherwood and Schmidt 1980, J. Motor Behavior
  12:75-89, abstract). So a level is one coefficient of variation ``cv``.
* **Direction**: a normal angle of constant sd, whatever the speed or the
  distance (the scatter across the movement grows in proportion to its
  extent, so the directional variability in angular terms is constant and
  independent of extent: Gordon, Ghilardi and Ghez 1994, Exp. Brain Res.
  99:97-111, abstract).
* **Where the finger meets the die**: a normal error of constant sd (mm) in
  the height above the die's centre (``strike_mm``: high it rolls forward,
  low it slides, :mod:`~warlords_sim.physics.strike`) and, independently and
  of the same sd, in the sideways offset from the centre, across the
  flick. An offset ``d`` turns the die about the vertical as the blow
  leaves it: ``spin = -v d / i2`` (a horizontal impulse ``m v`` at lever
  arm ``d`` about the centre; ``i2`` the die's moment of inertia per unit
  mass, 41.5 mm^2 for the standard die; an offset to the left of the
  flick, seen along it, turns the die clockwise).

The levels (:class:`SkillLevel`, numbers in :class:`HandNoise`):

========  =========  ====================  =========  ================
level     speed cv   speed sd at 500 /     direction  strike height and
                     1500 mm/s             sd         offset sd
========  =========  ====================  =========  ================
expert    0.032      16 / 47 mm/s          1 deg      0.8 mm
club      0.063      32 / 95 mm/s          2 deg      1.6 mm
novice    0.126      63 / 190 mm/s         4 deg      3.2 mm
========  =========  ====================  =========  ================

Where the numbers come from:

* **expert speed cv 0.032**, from a measurement: 43 highly skilled golfers
  (mean handicap 2.8) putting 30 times in a row at a 6 m hole left a
  relative distance sd of 6.8 % over the last 15 putts, 2.5 % of it from the
  green's own inconsistency (Karlsen and Nilsson 2008, International Journal
  of Sports Science & Coaching, doi:10.1260/174795408785024333, abstract).
  What the stroke leaves is sqrt(6.8^2 - 2.5^2) = 6.3 %; a ball stopped by
  a constant deceleration rolls ``v^2 / (2 a)``, so its distance spreads
  twice as much as its speed, and the speed cv is 3.2 %. A finger flick is
  assumed no steadier than an expert's putting stroke (weaker muscles make
  relatively noisier force: Hamilton, Jones and Wolpert 2004, Exp. Brain
  Res. 157:417-430), so this is the steadiest level.
* **club = 2 x expert, novice = 2 x club** (speed): the more skilled dart
  players varied the speed of their throw half as much as the less skilled
  (four players, two of them much more skilled, 120 throws each; Smeets and
  colleagues, Erasmus University Rotterdam, Society for Neuroscience meeting
  2000, as reported by New Scientist, 9 November 2000, "Bull's-eye"). One
  halving, between a regular and an expert, is that measurement; the
  second, between a novice and a regular, is an estimate: no source found
  measures novices' flicks.
* **direction sd 1, 2, 4 degrees: an estimate.** No source found gives the
  angular spread of a finger flick. Tour golfers' putter face, which sets
  about 83 % of the ball's start line (Pelz 2000, Putting Bible, as quoted
  by Hurrion, paulhurrion.com "Putting is difficult"), is on average
  0.3-0.5 deg open or closed at impact (a coaching blog, proshotgolfclub.com
  "Your putting is not that good"; not a study). A flick has no face to
  align, so the expert is put at twice that, 1 deg, and each level below
  doubles it like the speed, to the "few degrees" of a novice.
* **strike height and offset sd 0.8, 1.6, 3.2 mm: an estimate.** No source
  found measures where a flicking finger meets its target. Touches on a
  still target land, with the best model of the point users aim with,
  within 1.6 mm of it (4 mm for the centre of the contact area; Holz and
  Baudisch 2011, "Understanding touch", CHI 2011, doi:10.1145/1978942.1979308,
  abstract). The expert is put at sd 0.8 mm, reading those 1.6 mm as two sd
  of a careful, still touch (a fingertip at the end of a fast flick is
  assumed no steadier), and each level below doubles it like the speed and
  the direction. The same sd serves the height and the sideways offset:
  both lie in the struck face, across the finger's movement. A height
  outside the die is kept at its edge (half the die's height).

A number ``s`` in [0, 1] keeps the speed and direction noise the bots have
always had: a speed cv of ``0.02 + 0.20 (1 - s)`` and a direction sd of
``0.01 + 0.12 (1 - s)`` rad (not from a source; kept so that recorded games
resume as they were). Its strike height and offset sd follow its direction
sd as the levels' do, 0.8 mm per degree (0.46 mm at 1, 2.1 mm at 0.7, 5.9 mm
at 0; an extension of the levels' estimate, not a source).

A **hand** (``play --hand``) is a skill or ``exact``: no scatter at all,
the flick exactly as dragged (a sandbox's or a test's).

Replays record the value given: a number as a number, a level by its name
(``"club"``); see docs/replay-format.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Literal

__all__ = [
    "EXACT",
    "HAND_CHOICES",
    "SKILL_LEVELS",
    "HandSpec",
    "HandNoise",
    "Skill",
    "SkillLevel",
    "SkillName",
    "as_skill",
    "hand_label",
    "parse_hand",
    "parse_skill",
    "skill_label",
    "skill_noise",
]


@dataclass(frozen=True)
class HandNoise:
    """The size of a hand's errors.

    Attributes:
        speed_cv: sd of the delivered speed over the aimed speed (the speed's
            coefficient of variation); the sd in mm/s is ``speed_cv * speed``.
        direction_sd_deg: sd of the delivered direction, degrees.
        strike_sd_mm: sd of the height above the die's centre where the
            finger strikes it, mm (every level's and number's is
            :data:`PLACEMENT_MM_PER_DEG` times its direction sd).
        offset_sd_mm: sd of the sideways offset of that point from the
            centre, across the flick, mm (the same as the height's).

    Raises:
        ValueError: a negative or not finite value.
    """

    speed_cv: float
    direction_sd_deg: float
    strike_sd_mm: float = 0.0
    offset_sd_mm: float = 0.0

    def __post_init__(self) -> None:
        for name in ("speed_cv", "direction_sd_deg", "strike_sd_mm", "offset_sd_mm"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0.0):
                raise ValueError(f"HandNoise.{name}: expected a finite number >= 0, got {value}")

    @property
    def direction_sd(self) -> float:
        """sd of the direction, rad."""
        return math.radians(self.direction_sd_deg)

    def speed_sd(self, speed: float) -> float:
        """sd of the delivered speed (mm/s) when aiming at ``speed`` mm/s."""
        return self.speed_cv * speed


#: Expert sd of where the finger meets the die, mm (estimate: 1.6 mm, a
#: careful still touch's reach (Holz and Baudisch 2011), read as 2 sd; see
#: the module docstring), and so per degree of the expert's direction sd.
_EXPERT_PLACEMENT_MM = 0.8
#: Strike height and offset sd per degree of direction sd, mm/deg: every
#: level's (0.8 mm at the expert's 1 deg, doubling with it) and a number's.
PLACEMENT_MM_PER_DEG = _EXPERT_PLACEMENT_MM / 1.0


#: A level's name as a replay records it (the values of :class:`SkillLevel`;
#: tests/test_bots_skill.py checks they agree).
SkillName = Literal["novice", "club", "expert"]


class SkillLevel(Enum):
    """A named hand, shakiest first; :attr:`noise` gives its numbers
    (the module docstring gives their sources)."""

    NOVICE = "novice"
    CLUB = "club"
    EXPERT = "expert"

    @property
    def noise(self) -> HandNoise:
        return _LEVEL_NOISE[self]


#: Expert speed cv: an expert putter's stroke-only distance spread (6.8 % with
#: 2.5 % of green removed, Karlsen and Nilsson 2008), halved (distance ~ v^2).
_EXPERT_CV = math.sqrt(0.068**2 - 0.025**2) / 2.0
#: Each level below halves the steadiness (Smeets et al. 2000 for club vs
#: expert; novice vs club an estimate).
_STEP = 2.0
#: Expert direction sd, degrees (estimate, see the module docstring).
_EXPERT_DIRECTION_DEG = 1.0


def _noise(speed_cv: float, direction_deg: float) -> HandNoise:
    """A hand's noise; where the finger meets the die follows its direction
    sd (:data:`PLACEMENT_MM_PER_DEG`), in height and sideways alike."""
    place = PLACEMENT_MM_PER_DEG * direction_deg
    return HandNoise(speed_cv, direction_deg, place, place)


_LEVEL_NOISE = {
    SkillLevel.EXPERT: _noise(_EXPERT_CV, _EXPERT_DIRECTION_DEG),
    SkillLevel.CLUB: _noise(_EXPERT_CV * _STEP, _EXPERT_DIRECTION_DEG * _STEP),
    SkillLevel.NOVICE: _noise(_EXPERT_CV * _STEP**2, _EXPERT_DIRECTION_DEG * _STEP**2),
}

#: The level names, shakiest first (``--skill`` accepts these).
SKILL_LEVELS: tuple[str, ...] = tuple(level.value for level in SkillLevel)

#: A bot's skill: a number in [0, 1] (1: steadiest) or a named level.
Skill = float | SkillLevel

_EXPECTED = (
    f"a number in [0, 1] (0: shakiest hand, 1: steadiest) or a level: {', '.join(SKILL_LEVELS)}"
)


def as_skill(value: float | str | SkillLevel) -> Skill:
    """``value`` as a :data:`Skill`: a level stays, a level name becomes its
    level, a number is checked (and kept exactly as given).

    Raises:
        ValueError: an unknown name, a number outside [0, 1] (or nan), or
            another type; the message names the choices.
    """
    if isinstance(value, SkillLevel):
        return value
    if isinstance(value, str):
        try:
            return SkillLevel(value)
        except ValueError:
            raise ValueError(f"skill {value!r} is not a level; expected {_EXPECTED}") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"skill must be {_EXPECTED}, got {value!r}")
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise ValueError(f"skill must be in [0, 1], got {value}; expected {_EXPECTED}")
    return _no_negative_zero(value)


def _no_negative_zero(value: float) -> float:
    """``-0.0`` as ``0.0`` (the same hand: a label, a seed or a replay header
    must not tell them apart); any other number unchanged."""
    return 0.0 if value == 0.0 and math.copysign(1.0, value) < 0.0 else value


def parse_skill(text: str) -> Skill:
    """A skill from text: a level name (any case) or a number in [0, 1]
    (``-0`` is read as 0: the same skill, the same label and seeds).

    Raises:
        ValueError: neither; the message quotes the text and names the choices.
    """
    t = text.strip()
    if t.lower() in SKILL_LEVELS:
        return SkillLevel(t.lower())
    try:
        value = float(t)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a number or a level name; expected {_EXPECTED}"
        ) from None
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise ValueError(f"{t} is outside [0, 1]; expected {_EXPECTED}")
    return _no_negative_zero(value)


def skill_noise(skill: Skill) -> HandNoise:
    """The noise of a skill: a level's documented numbers, or for a number
    ``s`` the bots' original noise (speed cv ``0.02 + 0.20 (1 - s)``,
    direction sd ``0.01 + 0.12 (1 - s)`` rad) with a strike height and
    offset sd of :data:`PLACEMENT_MM_PER_DEG` per degree of it.

    Raises:
        ValueError: see :func:`as_skill`.
    """
    s = as_skill(skill)
    if isinstance(s, SkillLevel):
        return s.noise
    return _noise(0.02 + 0.20 * (1.0 - s), math.degrees(0.01 + 0.12 * (1.0 - s)))


def skill_label(skill: Skill) -> str:
    """How a skill is shown, and what the lab's seeds and duplicate checks
    use: a level by its name (``"club"``), a number exactly, in the fewest
    digits that give it back: ``0.7``, ``1``, ``0.3000001`` (``%g`` where
    that is exact, the shortest round-trip ``repr`` otherwise; ``-0`` as
    ``0``). Two different numbers never share a label, and a number that
    ``%g`` shows exactly keeps the label (and the lab its seeds) it had
    when labels were ``%g``, 6 significant digits.
    """
    if isinstance(skill, SkillLevel):
        return skill.value
    value = _no_negative_zero(skill)
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


#: The hand that scatters nothing: the flick exactly as dragged.
EXACT = "exact"

#: A hand: a skill, or None for :data:`EXACT`.
HandSpec = Skill | None

#: What ``play --hand`` takes (and a replay's ``hands`` records): a level,
#: ``exact``, or a number in [0, 1].
HAND_CHOICES: tuple[str, ...] = (EXACT, *SKILL_LEVELS)

_HAND_EXPECTED = f"{', '.join(HAND_CHOICES)} or a number in [0, 1] (1: steadiest)"


def parse_hand(text: str) -> HandSpec:
    """A hand from text: ``exact`` (None: no scatter), a level name (any
    case) or a number in [0, 1] as :func:`parse_skill` reads it.

    Raises:
        ValueError: none of these; the message quotes the text and names
            the choices.
    """
    if text.strip().lower() == EXACT:
        return None
    try:
        return parse_skill(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a hand; expected {_HAND_EXPECTED}") from None


def hand_label(hand: HandSpec) -> str:
    """How a hand is shown and recorded: ``exact``, a level's name, or a
    number as :func:`skill_label` shows it."""
    return EXACT if hand is None else skill_label(hand)
