"""The 2.5D model's version changes whenever its results do (issue 9, item 8).

Replays refuse to re-simulate a replay of another
:data:`warlords_sim.physics.MODEL_VERSION`, so the version must change with
every change of what is simulated; otherwise old replays of the "same"
version would diverge. This test keeps one fingerprint per model version:
the digest of the world after a fixed sequence of flicks (a table slide,
launches from a high and a low crenelation, a slide into another die, a
siege-engine shot; the flicks of ``examples/replays/sandbox-flicks.jsonl``).
Digests are bitwise reproducible with the same pymunk on the same platform
and a C maths library that rounds alike (docs/replay-format.md,
``warlords_sim.physics.numerics``), as the example replays are; from
2.5d-7 on they no longer depend on numpy's SIMD dispatch or BLAS.

When it fails after a deliberate change of the physics: bump MODEL_VERSION
(``warlords_sim/physics/version.py``, with a line of history), add the new
version's fingerprint below (keep the old ones), and re-record the example
replays (``python examples/replays/record_examples.py --force``).
"""

from __future__ import annotations

from warlords_sim.board import Crenelation, load_board
from warlords_sim.physics import MODEL_VERSION, Flick, LaunchKind, World
from warlords_sim.replay import SandboxFlick, apply_sandbox, sandbox_setup, sandbox_world

#: model version -> digest of the world after the flicks of :func:`fingerprint`
FINGERPRINTS = {
    "2.5d-2": "61cf0c1300a0b17d2e21e7a207f4175eadf927932c6977c07f394a12102061e9",
    "2.5d-3": "8358d510ba0c817b0a727cf31fdcbc40fed552222e486cdf39e98629452ff3e9",
    "2.5d-4": "b54a7ba227aa82a5f64788eb4dba31f4c97baa45818cf195379da810ec7366a3",
    "2.5d-5": "b54a7ba227aa82a5f64788eb4dba31f4c97baa45818cf195379da810ec7366a3",
    "2.5d-6": "b608b1c6de33a90b9c1bfbca0f9fd2abcf7e27e62ff22ed768599f3f2d9c032e",
    "2.5d-7": "d7c31abcbec48507ee937344f71094230f76ebea40903fae62a95d711f06cc80",
    "2.5d-8": "d69e864919ad3acad6e1496e2fcba184d1bfe491dc9e12818c2ee01b0f70fd1d",
    "2.5d-9": "adea274a1394e115f115b7ff398081b77f9bb22d89eef4b5a633d7df85fa69bf",
    "2.5d-10": "13a7479ea324e9539b309fd0361e730f7ea703ab4e36d4590f39fd4748b38b2e",
    "2.5d-11": "e6b08de70888bd6c63561c061acde90f74d974215c2249598ecb2f24a7d65c21",
}


def fingerprint() -> str:
    board = load_board("standard")
    world: World = sandbox_world(board, sandbox_setup(board))
    high = board.launch_spot(0, 2, Crenelation.HIGH)
    low = board.launch_spot(1, 1, Crenelation.LOW)
    flicks = [
        SandboxFlick(0, (0.0, 620.0), 0.0, LaunchKind.TABLE, face=1, add_at=(0.0, -120.0)),
        SandboxFlick(1, (15.0, 880.0), 2.0, LaunchKind.HIGH, (high.x, high.y), high.height_mm, 5),
        SandboxFlick(2, (950.0, -40.0), -1.5, LaunchKind.LOW, (low.x, low.y), low.height_mm, 3),
        SandboxFlick(3, (60.0, 1000.0), 0.0, LaunchKind.TABLE, face=6, add_at=(-40.0, -130.0)),
    ]
    for f in flicks:
        apply_sandbox(world, f)
    pose = world.pose(3)
    ex, ey = world.free_spot_near(pose.x, pose.y, board.siege_engine.width_mm, exclude_die=3)
    off = board.siege_engine.width_mm / 2.0 + board.die.size_mm / 2.0 + 0.5
    start = (ex - off * 0.919145, ey - off * 0.393919)
    height = board.siege_engine.launch_height_mm
    shot = SandboxFlick(
        3, (-700.0, -300.0), 0.5, LaunchKind.SIEGE, start, height, siege_engine=(ex, ey)
    )
    apply_sandbox(world, shot)
    return world.digest()


#: model version -> digest after two struck flicks that roll the die over its
#: edges (rolls are motion from 2.5d-5 on; the flicks above roll nothing)
ROLL_FINGERPRINTS = {
    "2.5d-5": "ba16e85935ae35a63a1ec3af69e08b8d440877acbfd0c44329f80a6db28ce1f1",
    "2.5d-6": "ba16e85935ae35a63a1ec3af69e08b8d440877acbfd0c44329f80a6db28ce1f1",
    "2.5d-7": "ebfd54224ffbb482fa9ba02d86104afe1d4e8fe0bcc198e937aa85d64a554647",
    "2.5d-8": "dec02080c38bd2e9afd930eae77130986b1c5974ddba32d7899763f411c4f526",
    "2.5d-9": "2acdd9b821f9f40a6b7090c33b2280c8292f6a6ff8960960aa275455c5d18bad",
    "2.5d-10": "f8ede114f4b38ffcdf76241f894716b6d5fee1cf56780c24ee95cdc8102ea7ed",
    "2.5d-11": "d3741764b9e8bc9a9b95caf659be921c5c2eb37c2e6f764ad9acdf21bc2445fc",
}


def roll_fingerprint() -> str:
    board = load_board("standard")
    world = World(board)
    world.add_die(1, 0.0, -150.0)
    world.flick(Flick(1, (0.0, 300.0), strike_mm=8.0))
    world.add_die(2, 100.0, -150.0, face=3)
    world.flick(Flick(2, (-200.0, 900.0), strike_mm=-8.0))
    return world.digest()


def test_the_model_version_changes_with_its_rolls() -> None:
    if MODEL_VERSION not in ROLL_FINGERPRINTS:
        got = roll_fingerprint()
        raise AssertionError(
            f"MODEL_VERSION {MODEL_VERSION} has no roll fingerprint: add {MODEL_VERSION!r}: {got!r}"
        )
    assert roll_fingerprint() == ROLL_FINGERPRINTS[MODEL_VERSION], (
        f"the 2.5D model's rolls changed but MODEL_VERSION is still {MODEL_VERSION}: bump it"
    )


def test_the_model_version_changes_with_the_models_results() -> None:
    got = fingerprint()
    assert MODEL_VERSION in FINGERPRINTS, (
        f"MODEL_VERSION {MODEL_VERSION} has no fingerprint: add {MODEL_VERSION!r}: {got!r}"
    )
    assert got == FINGERPRINTS[MODEL_VERSION], (
        f"the 2.5D model's results changed but MODEL_VERSION is still {MODEL_VERSION}: "
        f"bump it, add its fingerprint {got!r} here and re-record the example replays "
        "(see this module's docstring)"
    )


#: model version -> digest after a die strikes a row of three dice against a
#: wall end-on (dice at rest pressed together: relaxed jointly from 2.5d-6 on)
ROW_FINGERPRINTS = {
    "2.5d-5": "25b8b323c44bf70ec05d3c0201e4b07a4f65c0b6eee3fe3a18e71e230d34bbe8",
    "2.5d-6": "7d61a912d786e98a62a351b685f8a33b711b30ffb413d2e8b28f52f4adffab55",
    "2.5d-7": "7d61a912d786e98a62a351b685f8a33b711b30ffb413d2e8b28f52f4adffab55",
    "2.5d-8": "7d61a912d786e98a62a351b685f8a33b711b30ffb413d2e8b28f52f4adffab55",
    "2.5d-9": "004ce77e74d9ce5cb2518d147119c9734ffa9fe8e851fccff498e0b6891cd890",
    "2.5d-10": "004ce77e74d9ce5cb2518d147119c9734ffa9fe8e851fccff498e0b6891cd890",
    "2.5d-11": "004ce77e74d9ce5cb2518d147119c9734ffa9fe8e851fccff498e0b6891cd890",
}


def row_fingerprint() -> str:
    board = load_board("standard")
    world = World(board)
    for k, x in enumerate((-91.95, -75.9, -59.85)):  # against courtyard 0's side wall
        world.add_die(k + 1, x, -266.0)
    world.add_die(0, 40.0, -266.0)
    world.flick(Flick(0, (-1600.0, 0.0)))
    return world.digest()


def test_the_model_version_changes_with_dice_pressed_together() -> None:
    got = row_fingerprint()
    assert MODEL_VERSION in ROW_FINGERPRINTS, (
        f"MODEL_VERSION {MODEL_VERSION} has no row fingerprint: add {MODEL_VERSION!r}: {got!r}"
    )
    assert got == ROW_FINGERPRINTS[MODEL_VERSION], (
        f"the 2.5D model's resting contacts changed but MODEL_VERSION is still {MODEL_VERSION}: "
        "bump it"
    )


#: model version -> digest after two struck dice roll into walls: a side
#: wall (side walls up) and a castle's side wall (both passed through them
#: and left the board on 2.5d-6; they stop at the walls from 2.5d-7 on;
#: the saved cases of issue 18 in tests/test_physics_tunnelling.py)
WALL_ROLL_FINGERPRINTS = {
    "2.5d-6": "e059489f32bf51f86fa4a3f99c40c2a870c76e238cfb69d433a54111f5902cc4",
    "2.5d-7": "431b25c4ad0e0b13617034cae4cec12d7f46fa4aeaa77b020b05b397d55caf76",
    "2.5d-8": "4df47bbdeed49a3c76f78df6f932e59ce5944de3b69ca86bcb913c74a15f746a",
    "2.5d-9": "e7e5951dfccf9763da90086a2968ebe891418fa1f2d4fa10ba3a6f3b45ed2187",
    "2.5d-10": "e7e5951dfccf9763da90086a2968ebe891418fa1f2d4fa10ba3a6f3b45ed2187",
    "2.5d-11": "e7e5951dfccf9763da90086a2968ebe891418fa1f2d4fa10ba3a6f3b45ed2187",
}


def wall_roll_fingerprint() -> str:
    board = load_board("standard")
    world = World(board, side_walls=True)
    world.add_die(1, 244.6521642745504, 134.33641166544712, face=2, angle=-2.3326100386669117)
    world.flick(
        Flick(
            1,
            (884.4548360563822, 93.00385829357258),
            spin=-3.4687506847164524,
            strike_mm=1.925626483225443,
        )
    )
    world.add_die(2, -226.92, 130.43, face=5, angle=2.915)
    world.flick(
        Flick(
            2,
            (-1303.433708272538, -350.88895338285363),
            spin=-6.797635110097322,
            strike_mm=-2.220856553773041,
        )
    )
    return world.digest()


def test_the_model_version_changes_with_rolls_into_walls() -> None:
    got = wall_roll_fingerprint()
    assert MODEL_VERSION in WALL_ROLL_FINGERPRINTS, (
        f"MODEL_VERSION {MODEL_VERSION} has no wall-roll fingerprint: add {MODEL_VERSION!r}: "
        f"{got!r}"
    )
    assert got == WALL_ROLL_FINGERPRINTS[MODEL_VERSION], (
        f"the 2.5D model's rolls into walls changed but MODEL_VERSION is still {MODEL_VERSION}: "
        "bump it"
    )


def test_each_model_version_has_its_own_fingerprint() -> None:
    every = {
        (
            v,
            ROLL_FINGERPRINTS.get(k),
            ROW_FINGERPRINTS.get(k),
            WALL_ROLL_FINGERPRINTS.get(k),
        )
        for k, v in FINGERPRINTS.items()
    }
    assert len(every) == len(FINGERPRINTS)
