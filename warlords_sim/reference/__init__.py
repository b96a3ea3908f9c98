"""The 3D rigid-body reference engine (MuJoCo): the same board and dice,
behind the same physics port as :mod:`warlords_sim.physics`.

Only this package imports ``mujoco`` (the optional ``reference`` extra).
Under construction (issue 9).
"""
