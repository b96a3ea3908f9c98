"""The reference engine's contact, measured: the figures docs/physics.md quotes.

1. Calibrated damping ratios of the standard board's contacts (time
   constant 2 ms) at the timestep the engine uses, and face-down drops
   with the table's contact (the drop test).
2. A die leaving a high crenelation (the real scene, the flick convention of
   physics/ledge.py): its forward tumble as it leaves the ledge, against the
   2.5D model's constrained slide-and-pivot (``slide_off_ledge``, with the
   rounded die's inertia and edge radius as the world gives them).
3. One edge landing (a 16 mm die tilted 15 degrees forward, 889 mm/s
   forward, 598 mm/s down, the state a 900 mm/s launch lands in) on a bare
   plane with the reference's contact, against the 2.5D's bounce
   (``impact.RoundedLanding``: the rounded die's contact, Stronge's
   restitution; model 2.5d-9 on) and the sharp cube's rigid impact it
   replaced (``sharp_impact.impact``, Newton restitution at the contact point).
4. A die sliding at 900 mm/s on a bare plane: how far it sinks at rest, how
   far it slides, the share of steps it has no contact (it should stay
   down) and how high it rises.

Usage: python benchmarks/reference_contact.py     (prints; writes nothing)
"""

from __future__ import annotations

import mujoco
import numpy as np

from warlords_sim.board import Crenelation, load_board
from warlords_sim.physics import Flick, LaunchKind
from warlords_sim.physics.impact import RoundedLanding, die_inertia
from warlords_sim.physics.ledge import slide_off_ledge
from warlords_sim.physics.orientation import rotation_about
from warlords_sim.physics.sharp_impact import contact_point, impact
from warlords_sim.reference import ReferenceWorld
from warlords_sim.reference.calibrate import SOLIMP, TIME_CONSTANT

_PLANE = """
<mujoco>
  <option timestep="{dt}" cone="elliptic" gravity="0 0 -9.81"/>
  <worldbody>
    <geom type="plane" size="1 1 0.1" friction="{mu} 0 0" solref="{tc} {damp}" solimp="{si}"/>
    <body pos="0 0 0.05">
      <freejoint/>
      <geom type="box" size="0.008 0.008 0.008" mass="0.0046" friction="{mu} 0 0"
            solref="{tc} {damp}" solimp="{si}"/>
    </body>
  </worldbody>
</mujoco>"""


def _plane(board_mu: float, damp: float, dt: float) -> tuple[mujoco.MjModel, mujoco.MjData]:
    si = " ".join(str(x) for x in SOLIMP)
    xml = _PLANE.format(dt=dt, mu=board_mu, tc=TIME_CONSTANT, damp=damp, si=si)
    m = mujoco.MjModel.from_xml_string(xml)
    return m, mujoco.MjData(m)


def main() -> None:
    import argparse

    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    board = load_board("standard")
    world = ReferenceWorld(board)
    c = world.contact
    dt = world.timestep
    print(f"1. damping ratios at {dt * 1e3:g} ms, time constant {TIME_CONSTANT * 1e3:g} ms:")
    print(f"   table {c.table:.3f}, wall {c.wall:.3f}, pin {c.pin:.3f}, die {c.die:.3f}")

    print("   face-down drops on a bare plane with that contact, rebound ratio v_out / v_in:")
    ratios = []
    for h in (10.0, 17.0, 25.0, 34.0, 45.0, 60.0):
        m, d = _plane(board.die.table_friction, c.table, dt)
        d.qpos[2] = (8.0 + h) / 1000.0
        v_in, touched = 0.0, False
        for _ in range(int(0.5 / dt)):
            if not touched:
                v_in = -float(d.qvel[2])
            mujoco.mj_step(m, d)
            touched = touched or d.ncon > 0
            if touched and d.ncon == 0:
                break
        ratios.append(float(d.qvel[2]) / v_in)
        print(f"   from {h:4.0f} mm: {ratios[-1]:.3f}")
    target = board.die.table_restitution
    print(f"   mean {np.mean(ratios):.3f} (board restitution {target})\n")

    print("2. exit tumble off the high crenelation (rad/s): reference vs 2.5D ledge model")
    spot = board.launch_spot(0, 2, Crenelation.HIGH)
    mu_ledge = board.wall_material.friction
    for v in (300.0, 600.0, 900.0, 1600.0):
        w = ReferenceWorld(board)
        seen: dict[str, float] = {}

        def hook(m: mujoco.MjModel, d: mujoco.MjData, seen: dict[str, float] = seen) -> None:
            # in the air between the ledge and the table (until the centre
            # first comes down to 15 mm): the tumble a free flight keeps.
            # Not the first step without contact: off the ledge's edge the
            # contact flickers for a few ms at 600 mm/s and more
            if d.qpos[2] < 0.015:
                seen["down"] = 1.0
            if d.ncon == 0 and d.time > 5e-4 and "down" not in seen:
                r = np.array(d.xmat[-1]).reshape(3, 3)
                seen["w"] = float(-(r @ d.qvel[3:6])[0])

        fl = Flick(
            1, (0.0, v), launch=LaunchKind.HIGH, start=(spot.x, spot.y), height_mm=spot.height_mm
        )
        w.flick(fl, face=1, on_step=hook)
        model = slide_off_ledge(
            v,
            board.die.size_mm,
            board.gravity_mm_s2,
            mu_ledge,
            i2=die_inertia(board.die) / board.die.mass_g,
            radius=board.die.edge_radius_mm,
        ).tumble
        print(f"   {v:6.0f} mm/s: reference {seen.get('w', float('nan')):5.2f}, 2.5D {model:5.2f}")

    print("\n3. one edge landing, 15 degrees forward (mm/s, rad/s)")
    r = rotation_about((-1.0, 0.0, 0.0), 0.27)
    v = np.array([0.0, 889.0, -598.0])
    om = np.array([-4.2, 0.0, 0.0])
    cp = contact_point(r, 16.0, v, om)
    assert cp is not None
    vo, wo = impact(v, om, cp, 4.6, 16.0, 0.5, 0.3, 0.5)
    cz = vo[2] + wo[0] * cp[1]
    print(
        f"   2.5D sharp rigid (to 2.5d-8): rebound {vo[2]:.0f}, backspin {wo[0]:.1f}, "
        f"contact point leaves at {cz:.0f}"
    )
    rounded = RoundedLanding(board.die, board.gravity_mm_s2).land(v, om, r, 0)
    cz = rounded.v[2] + rounded.omega[0] * rounded.contact[1]
    print(
        f"   2.5D rounded (2.5d-9 on): rebound {rounded.v[2]:.0f}, backspin "
        f"{rounded.omega[0]:.1f}, contact point leaves at {cz:.0f}"
    )
    m, d = _plane(board.die.table_friction, c.table, dt)
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, r.ravel())
    corners = np.array([[x, y, z] for x in (-8, 8) for y in (-8, 8) for z in (-8, 8)]).T
    low = -float((r @ corners)[2].min())
    d.qpos[0:3] = [0.0, 0.0, (low + 0.05) / 1000.0]
    d.qpos[3:7] = q
    d.qvel[0:3] = v / 1000.0
    d.qvel[3:6] = r.T @ om
    touched = False
    for _ in range(int(0.03 / dt)):
        mujoco.mj_step(m, d)
        touched = touched or d.ncon > 0
        if touched and d.ncon == 0:
            break
    rn = np.array(d.xmat[1]).reshape(3, 3)
    wn = rn @ d.qvel[3:6]
    print(
        f"   reference:  rebound {d.qvel[2] * 1000:.0f}, backspin {wn[0]:.1f}, contact point "
        f"leaves at {d.qvel[2] * 1000 + wn[0] * cp[1]:.0f} (Newton e = 0.5 gives "
        f"{-0.5 * (v[2] + om[0] * cp[1]):.0f})"
    )

    print("\n4. a die sliding at 900 mm/s on a bare plane")
    m, d = _plane(board.die.table_friction, c.table, dt)
    d.qpos[2] = 0.008  # resting on the plane; let the contact settle
    for _ in range(int(0.2 / dt)):
        mujoco.mj_step(m, d)
    rest = float(d.qpos[2])
    d.qvel[0] = 0.9
    air = []
    rise = 0.0
    while d.qvel[0] > 0.02:
        mujoco.mj_step(m, d)
        air.append(d.ncon == 0)
        rise = max(rise, float(d.qpos[2]) - rest)
    print(f"   at rest it sinks {(0.008 - rest) * 1e6:.1f} um into the contact")
    print(
        f"   slides {d.qpos[0] * 1e3:.1f} mm (v^2/(2 mu g) = {0.81 / (2 * 0.3 * 9.81) * 1e3:.1f}),"
    )
    print(f"   no contact in {np.mean(air):.0%} of its steps, rising at most {rise * 1e6:.0f} um")


if __name__ == "__main__":
    main()
