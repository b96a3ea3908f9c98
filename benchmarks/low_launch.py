"""The low launch, impact by impact, in both engines (issue 19): the figures
docs/physics.md quotes for why a 900 mm/s low launch keeps its face in the
2.5D model and changes it in the reference.

1. The die leaving seat 0's middle low crenelation, flicked at 300, 900 and
   1500 mm/s, square to the wall or 3 or 10 degrees off, with and without
   20 rad/s of spin: the reference's turning rates and yaw read in the air
   (the first step without contact once the centre is 2 mm below its
   height on the ledge) against the 2.5D ledge's exit
   (``tumble.ledge_launch``: friction along the edge from model 2.5d-11).
2. The first two impacts of the 900 mm/s low launch 3 degrees off square,
   face 6 up: the reference's state before and after each, and the 2.5D
   floor impact (``impact.RoundedLanding``) of the same state before; the
   first impact again with the die level about the flick (the 2.5D's own
   ledge lands it so), and the same launch on a reference whose die mesh
   has 16 facets to a rounded edge instead of 4.
3. The 2.5D impact of that first landing as the die leans 0 to 0.004 rad
   about the flick (the near-level edge of model 2.5d-11).

Usage: python benchmarks/low_launch.py     (prints; writes nothing; about
two CPU minutes, the reference's flicks)
"""

from __future__ import annotations

import argparse
import functools
import math

import mujoco
import numpy as np

from warlords_sim.board import Crenelation, load_board
from warlords_sim.physics import EventKind, Flick, LaunchKind, World, tumble
from warlords_sim.physics.impact import RoundedLanding, die_inertia
from warlords_sim.physics.orientation import rotation_about
from warlords_sim.reference import ReferenceWorld, shapes
from warlords_sim.reference import scene as reference_scene

State = tuple[float, int, np.ndarray, np.ndarray, np.ndarray]


def _flick(board_spot: object, v: float, beta_deg: float, spin: float) -> Flick:
    b = math.radians(beta_deg)
    spot = board_spot
    return Flick(
        1,
        (v * math.sin(b), v * math.cos(b)),
        spin=spin,
        launch=LaunchKind.LOW,
        start=(spot.x, spot.y),
        height_mm=spot.height_mm,
    )  # type: ignore[attr-defined]


def _record(world: ReferenceWorld, fl: Flick) -> tuple[list[State], int]:
    """(time s, contacts, v mm/s, omega rad/s world, orientation) every step
    from 12 ms on, and the face at rest."""
    log: list[State] = []

    def hook(m: mujoco.MjModel, d: mujoco.MjData) -> None:
        if 0.012 <= d.time <= 0.2:
            r = np.array(d.xmat[-1]).reshape(3, 3)
            log.append(
                (
                    float(d.time),
                    int(d.ncon),
                    np.array(d.qvel[0:3]) * 1000.0,
                    r @ d.qvel[3:6],
                    r.copy(),
                )
            )

    res = world.flick(fl, face=6, on_step=hook)
    pose = res.poses.get(1)
    return log, (pose.face if pose is not None else 0)


def _impacts(log: list[State]) -> list[tuple[State, State]]:
    out, start = [], -1
    for i, (_, nc, *_rest) in enumerate(log):
        if nc > 0 and start < 0:
            start = i
        elif nc == 0 and start >= 0:
            out.append((log[start - 1], log[i]))
            start = -1
    return out


def _fmt(v: np.ndarray) -> str:
    return "(" + ", ".join(f"{x:7.2f}" for x in v) + ")"


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    board = load_board("standard")
    spot = board.launch_spot(0, 2, Crenelation.LOW)
    a, g = board.die.size_mm, board.gravity_mm_s2
    i2 = die_inertia(board.die) / board.die.mass_g

    print("1. leaving the low crenelation (world rad/s about x, y, z; yaw rad; vx mm/s)")
    for v in (300.0, 900.0, 1500.0):
        for beta in (0.0, 3.0, 10.0):
            for spin in (0.0, 20.0):
                fl = _flick(spot, v, beta, spin)
                seen: dict[str, object] = {}

                def hook(
                    m: mujoco.MjModel, d: mujoco.MjData, seen: dict[str, object] = seen
                ) -> None:
                    low = spot.height_mm + a / 2.0 - 2.0
                    if "w" not in seen and d.time > 1e-3 and d.ncon == 0 and d.qpos[2] * 1e3 < low:
                        r = np.array(d.xmat[-1]).reshape(3, 3)
                        seen["w"] = r @ d.qvel[3:6]
                        seen["yaw"] = math.atan2(r[1, 0], r[0, 0])
                        seen["vx"] = float(d.qvel[0]) * 1e3

                ReferenceWorld(board).flick(fl, face=6, on_step=hook)
                off = tumble.ledge_launch(
                    fl.velocity[0],
                    fl.velocity[1],
                    spin,
                    np.eye(3),
                    a,
                    g,
                    board.wall_material.friction,
                    i2=i2,
                    radius=board.die.edge_radius_mm,
                    edge=(0.0, 1.0),
                )
                w_ref = seen.get("w", np.full(3, math.nan))
                print(
                    f"   {v:5.0f} mm/s, {beta:4.1f} deg, spin {spin:4.1f}: reference "
                    f"{_fmt(w_ref)} yaw {seen.get('yaw', math.nan):6.3f} vx "  # type: ignore[arg-type]
                    f"{seen.get('vx', math.nan):5.0f} | 2.5D {_fmt(off.omega)} yaw "
                    f"{math.atan2(off.r[1, 0], off.r[0, 0]):6.3f} vx {off.vx:5.0f}"
                )

    print("\n2. the 900 mm/s low launch, 3 degrees off square, face 6 up: impacts")
    land = RoundedLanding(board.die, g)
    fl = _flick(spot, 900.0, 3.0, 0.0)
    for label, segments in (("4 facets an edge (the reference)", 4), ("16 facets", 16)):
        original = reference_scene.rounded_box_vertices
        reference_scene.rounded_box_vertices = functools.partial(  # type: ignore[assignment]
            shapes.rounded_box_vertices, segments=segments
        )
        try:
            log, face = _record(ReferenceWorld(board), fl)
        finally:
            reference_scene.rounded_box_vertices = original  # type: ignore[assignment]
        back = min(math.asin(max(-1.0, min(1.0, float(st[4][2, 1])))) for st in log)
        print(
            f"   reference, die mesh {label}: face at rest {face}, rocked back at most "
            f"{-math.degrees(back):.1f} deg"
        )
        for (t0, _, v0, w0, r0), (_t1, _, v1, w1, _r1) in _impacts(log)[:2]:
            out = land.land(v0, w0, r0, 0)
            lean = math.degrees(math.asin(max(-1.0, min(1.0, float(r0[2, 1])))))
            print(f"     impact at {t0 * 1e3:6.2f} ms, tilted {lean:6.1f} deg about the edge:")
            print(f"       before     v {_fmt(v0)} w {_fmt(w0)}")
            print(f"       reference  v {_fmt(v1)} w {_fmt(w1)}")
            print(f"       2.5D       v {_fmt(out.v)} w {_fmt(out.omega)}")
            if t0 < 0.07:
                dv = v0 - v1
                print(
                    f"       the reference's friction impulse / normal impulse: "
                    f"{abs(dv[1]) / abs(dv[2]):.3f} (Coulomb: {board.die.table_friction})"
                )
        first = _impacts(log)[0][0]
        tilt = math.asin(float(first[4][2, 1]))
        level = rotation_about((-1.0, 0.0, 0.0), tilt) @ np.diag([1.0, -1.0, -1.0])
        out = land.land(first[2] * [0.0, 1.0, 1.0], first[3] * [1.0, 0.0, 0.0], level, 0)
        print(
            f"     the first impact level about the flick, 2.5D: v {_fmt(out.v)} "
            f"w {_fmt(out.omega)}"
        )

    w = World(board)
    w.begin_flick(fl, face=6)
    back, hits = 0.0, []
    while not w.settled:
        w.step()
        lean = math.asin(max(-1.0, min(1.0, float(w.orientation(1)[2, 1]))))
        back = min(back, lean)
        hits += [e for e in w.events if e.kind is EventKind.LANDING and e not in hits]
    lands = ", ".join(f"{e.t * 1e3:.1f}" for e in hits[:4])
    print(
        f"   2.5D's own launch: face at rest {w.face(1)}, rocked back at most "
        f"{-math.degrees(back):.1f} deg; first landings at {lands} ms"
    )

    print("\n3. that first landing (level about the edge, 889 mm/s forward, 605 down) leaning")
    print("   about the flick: the 2.5D's turn about it, rad/s")
    tilt = math.asin(0.2386)
    for lean in (0.0, 0.0005, 0.001, 0.002, 0.003, 0.004):
        r = rotation_about((0.0, 1.0, 0.0), lean) @ rotation_about((-1.0, 0.0, 0.0), tilt)
        out = land.land(
            np.array([0.0, 889.0, -605.0]),
            np.array([-3.89, 0.0, 0.0]),
            r @ np.diag([1.0, -1.0, -1.0]),
            0,
        )
        print(f"   {lean:6.4f} rad: {out.omega[1]:7.2f}")


if __name__ == "__main__":
    main()
