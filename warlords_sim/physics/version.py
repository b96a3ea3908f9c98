"""The version of the 2.5D physics model, recorded in every replay.

:data:`MODEL_VERSION` names what this layer simulates. Bump it (``"2.5d-3"``,
``"2.5d-4"``, ...) in the same commit as any change that alters what is
simulated, i.e. whenever the same inputs (board, flick, world) settle to a
different :meth:`~warlords_sim.physics.World.digest`: a parameter, a model
(flight, impact, tumble, support, ledge), the timestep, settling, regions.
A refactor that leaves every digest bit-identical keeps it.

Replays record it (``docs/replay-format.md``, header field ``physics``) and
refuse to re-simulate a replay made with another model version: its digests
could not match. ``tests/test_model_version.py`` holds a fingerprint (the
digest of a fixed set of flicks) per model version and fails when the
digests change while the version does not.

History:
    ``2.5d-1``: the model before issue 9 (never recorded in replays).
    ``2.5d-2``: a die sliding off a ledge as constrained edge motion
    (``physics/ledge.py``, issue 9); the first version replays record.
    ``2.5d-3``: issue 9's revision: restitution 0.5 for every die-on-wood
    contact (was 0.8 table, 0.6 walls and pins); the overhang starts with
    the centre over the edge and a die that stops sliding pivots; a contact
    sliding as an impact begins sticks only if kinetic friction stops it;
    blows at or above a grounded die's centre height never trip it.
    ``2.5d-4``: issue 9's known faults: exact flat orientations
    (``tumble.lay_flat``), a settled die moved clear of what it overlaps,
    cocked decided at rest, and a die whose support is moved or removed
    between flicks falls at once.
    ``2.5d-5``: a die rolling over an edge (edge catches, the end of a
    bounce, a struck die) turns about that edge step by step, as motion,
    where it jumped a whole face in one step; the edge it pivots on slides
    on with table friction.
    ``2.5d-6``: dice that come to rest pressed together (pymunk's collision
    slop and bias) are relaxed jointly, with shock propagation, instead of
    each being pushed out on its own, which shuttled a die between its
    neighbours and then turned it up to 43 degrees or set it down up to
    18 mm away (issue 10). A die touching a die that still moves is not at
    rest, however slow: one declared at rest there was struck after the
    check and slid on unwatched. Kept poses of dice that
    pymunk nudged since are dropped when everything rests. A 2-player game
    has no three-player wall at its empty seats (the rulebook gives that
    wall for "a three player game" only). The siege engine is placed within
    about 0.25 mm of the nearest free place (it took the first free place on
    rings 2 mm apart). Dice resting against the flicked die are moving from
    the first step of the flick.
    ``2.5d-7``: nothing that feeds the settled state depends on the CPU
    (issue 18): matrix products, norms and sines are plain floats in a fixed
    order (``physics/linalg3.py``) instead of numpy's BLAS-backed ``@`` and
    SIMD-dispatched ``np.sin``/``np.cos``, whose last bits differ between
    CPUs (an example replay recorded on an AVX-512 machine diverged by
    8e-17 rad on an AVX2 one); results differ from 2.5d-6 in the last
    bits. And a low strike's pressed trailing edge slides at ``forward +
    |w| a / 2`` (it was given ``forward - |w| a / 2``, the high strike's
    leading edge, and 70 % of low strikes ended behind their start).
    And a rolling die that runs into something (a wall, a pin, the
    siege engine, a die: a contact pushing back against its motion) stops
    rolling there, lying on the face nearer up and sliding on at the
    velocity the contact left it; the roll used to overwrite every
    contact's answer and drive the die on through walls and pins (issue 18).
    ``2.5d-8``: a die turning over a bottom edge is dynamics, not a
    kinematic path (``physics/pivot.py``, issue 19): it rolls on the edge or
    slips under Coulomb friction, rocks back when it cannot tip, and hops
    off the edge where the floor would have to pull; a die that stops
    bouncing pivots from the tilt it came down at (it was snapped flat); a
    pivot reaching a face is an impact of the landing model (it kept 1/4 of
    its turning rate whatever its edge's slip); a contact's answer during a
    pivot is folded into it (momentum passes as pymunk solved it; it ended
    the roll in 2.5d-7). In 10,000 fuzzed flicks 260 gained over 1 % of
    their energy before. And a flying die that meets something with its
    centre over it and above its top has come down onto that top and lands
    there (``Support.on_top``); it was pushed out sideways from up to half
    a die deep, its bottom inside the wall meanwhile. A die that pivots at
    a yaw off the board's axes comes down flat on its next face at its own
    yaw (the quarter turn was exact only about the board's axes: tilted by
    the difference, it gained energy), and that face's impact is at the far
    edge (the pivot edge's corners counted as moving down by a rounding
    error's speed, or not). A die whose lowest point has sunk below the
    surface it lands on is set on it at the cost of the motion the impact
    leaves it (the rise was free: up to 1.2 % of the energy gained).
    ``2.5d-9``: the die is rounded (board data ``die.edge_radius_mm``, 1.6
    mm) in its flight, bounces and pivot, with one moment of inertia
    (issue 19): a landing is the rounded die's floor impact
    (``impact.RoundedLanding`` on ``physics/contact.py``: the corner
    sphere, edge cylinder or face that touches, Coulomb friction through
    slip, stick and slip reversal, Stronge's energetic restitution) where
    it was a sharp corner's Newton impact (``physics/sharp_impact.py``,
    kept as a baseline); the flight lands the rounded die's lowest point;
    the pivot rolls on the rounded edge; the die's inertia is the rounded
    cube's (2.8 % below m a^2 / 6) in the pivot, the impact, the strike,
    the ledge exit, side kicks, trips and pymunk's turning in the plane.
    The rounded floor contact, like the sharp one in 2.5d-8, counts a
    corner as falling only faster than rounding (a die pivoted flat onto a
    face took a side edge). The 900 mm/s high launch's first impact leaves
    15.7 rad/s (35.4 before; the reference 6.1).
    ``2.5d-10``: the launch from a ledge and the bounces, from a
    step-by-step comparison with the reference (issue 19, item 3). The
    rounded die leaves a ledge where its flat bottom face ends (its edges
    were taken sharp there: at 300 mm/s it left 8 ms later, tilted 21.3
    against the reference's 14.6 degrees). It tips over the ledge's edge as
    it runs (a crenelation's along its wall; it tipped about the line
    across the flick, so a flick a fraction of a degree off square came
    down on one corner of its leading edge instead of the edge), turning
    at its yaw rate meanwhile (the yaw on the ledge was left out: 0.6 rad
    at 300 mm/s and 20 rad/s). Its flight starts when it leaves the ledge,
    the time on the ledge in the clock (the flight started with the flick:
    a 900 mm/s high launch's first landing at 83 ms, the reference's at
    91). A bounce ends only when both the point that struck and the centre
    leave the floor slower than ``REST_BOUNCE_SPEED`` (it took the centre's
    speed alone: a corner's impact leaves a tumbling die's centre still
    falling while the corner springs up, and the die was laid on an edge,
    turning at 86 rad/s, where the reference's strikes its next corner and
    bounces 0.46 m/s high). And a bounce flies on from the impact (its
    flight started at the end of the step, in the state of the impact:
    each bounce lost up to a step of fall and turn while pymunk carried the
    die on, and impacts a fraction of a millisecond apart came a step apart
    each).
    ``2.5d-11``: two faults the fuzz found (issue 19), near-level edge
    landings and the ledge's friction. Corners within the impact's
    compression (Hertz's depth, about 0.05 mm for a corner at 600 mm/s)
    touch in the same impact, the contact point between the edge's
    midpoint and the lower corner (two corners within 1e-3 of the die's
    size were an edge, any others one corner: 0.002 rad out of level, a
    900 mm/s low launch's landing turned the die at 58.7 rad/s about the
    flick where level it turned it at 0, the reference's at 8.8). A pivot
    begun after a step (a trip, a landing on top of something) was
    advanced in the same pass as if the step had moved it: its clock ran
    a step ahead of the world's and its body was sent two steps' way in
    the next; and a change of a pivoting die's velocity by pymunk's
    rounding (6e-14 mm/s) ended the pivot as if it had run into
    something, the die sliding on at that doubled velocity (fuzz #5388 of
    10,000: +29 % energy). The ledge's edge now rubs: Coulomb friction on
    the line where it touches the die slows the die's slide along the
    edge, turns it about the vertical and brakes its yaw (it kept both as
    flicked: a die flicked at 300 mm/s with 20 rad/s of spin left the
    ledge at 20.0 rad/s, the reference's at 18.6, now 18.9).
"""

from __future__ import annotations

__all__ = ["ENGINE", "MODEL_VERSION", "pymunk_version"]

#: The engine name of this model in replays and on the command line
#: (see :data:`warlords_sim.rules.physics_port.ENGINES`).
ENGINE = "2.5d"
#: The version of the 2.5D model (see the module docstring for when to bump it).
MODEL_VERSION = "2.5d-11"


def pymunk_version() -> str:
    """The version of pymunk this model runs on (recorded in replays and in
    the aim bot's launch-table keys). pymunk is imported here, inside the
    physics layer, so that no other layer imports it (docs/architecture.md)."""
    import pymunk

    return str(pymunk.version)
