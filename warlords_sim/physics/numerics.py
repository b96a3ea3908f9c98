"""What the settled state's bits depend on besides the inputs: a probe of the C maths library.

Contract
--------
The 2.5D model's digests (:meth:`~warlords_sim.physics.World.digest`) are
the same wherever these are the same:

* the package's physics model (:data:`~warlords_sim.physics.MODEL_VERSION`),
* the pymunk version and the platform (one wheel, one machine code: pymunk
  has no run-time CPU dispatch of its own),
* the Python version (its float formatting and ``math`` wrappers),
* the C library's ``sin``, ``cos``, ``atan2`` and ``exp``, which Python's
  ``math`` and pymunk's Chipmunk (``cpBodySetAngle``, at every step of
  every moving body) both call.

The last one is chosen at run time: glibc on x86-64 picks an FMA variant of
these functions on CPUs that have FMA and AVX2 and a plain SSE2 variant on
others, and the two round differently in about 1 call in 1,300-2,500
(``benchmarks/portable.py``, masking the FMA variants with
``GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA``: 79 of 100,000 sines).
:func:`libm_probe` evaluates those functions on inputs where the variants
were measured to differ, so two machines with the same probe round alike;
the replay header records it (``versions.libm``) and ``replay --verify``
says before it simulates anything when the probe differs.

Nothing else in the physics depends on the CPU: numpy is used only as a
container and for elementwise arithmetic; its BLAS-backed products and
SIMD-dispatched transcendental ufuncs are never called on the way to a
settled state (:mod:`~warlords_sim.physics.linalg3`;
``tests/test_portable_digests.py`` guards it).
"""

from __future__ import annotations

import functools
import hashlib
import math
import platform

__all__ = ["libm_probe", "numerics_label"]

#: Inputs where glibc 2.36's FMA and SSE2 variants were measured to differ
#: (found among 100,000 uniform draws in [-8, 8]), four per function.
_PROBE: dict[str, tuple[str, ...]] = {
    "sin": ("0x1.ad9c81f8dca30p+1", "-0x1.9fb658f4c19acp+2", "-0x1.fa948d365a258p+1",
            "0x1.bc5314582de0ap+2"),
    "cos": ("0x1.54c2fc6369260p+0", "0x1.47686d7ffc4dep+2", "0x1.62654b03e43a0p+0",
            "-0x1.0501b3809b64cp+2"),
    "atan2": ("0x1.37fd68020ee6cp+2", "-0x1.95f082b3f30c0p+0", "-0x1.9201cea6cda88p+0",
              "0x1.60ce66bba3e2ap+2"),
    "exp": ("-0x1.6c8e87fe44d8cp+1", "-0x1.f4f9cf575cdf6p+2", "-0x1.1fd29ae9eef7cp+1",
            "0x1.590a060ca1ac8p+2"),
}  # fmt: skip


@functools.cache
def libm_probe() -> str:
    """A 12-hex-digit fingerprint of how this machine's C library rounds
    ``sin``, ``cos``, ``atan2`` (second argument 1.3) and ``exp`` on
    :data:`_PROBE`'s inputs: equal on two machines means their maths
    library rounds these like each other (e.g. ``6b1f0c2a9e41``)."""
    h = hashlib.sha256()
    for name, inputs in _PROBE.items():
        for text in inputs:
            x = float.fromhex(text)
            y = math.atan2(x, 1.3) if name == "atan2" else getattr(math, name)(x)
            h.update(f"{name}:{y.hex()};".encode())
    return h.hexdigest()[:12]


@functools.cache
def numerics_label() -> str:
    """The C library and its probe, as recorded in a replay header's
    ``versions.libm``, e.g. ``"glibc 2.36, probe 6b1f0c2a9e41"``
    (``"unknown libc"`` where Python cannot name it, as on macOS)."""
    lib, ver = platform.libc_ver()
    name = f"{lib} {ver}" if lib else "unknown libc"
    return f"{name}, probe {libm_probe()}"
