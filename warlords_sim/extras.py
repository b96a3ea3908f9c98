"""The optional extras: which packages each brings, and one line when one is missing.

``pip install warlords-sim`` is the player's install: ``play``, ``flick``,
``simulate``, ``replay`` and ``board`` need nothing more (pymunk, pyglet,
numpy, click, msgspec, platformdirs, rich). The rest comes as extras,
declared in pyproject.toml (``[project.optional-dependencies]``; a test
checks :data:`EXTRAS` against it):

- ``lab``: scipy, dask[distributed], matplotlib, filelock, cryptography.
  ``variants`` (statistics, plots, ``--dask``, the lock on its ``--out``
  folder, the TLS credentials of ``--dask local``) and the chi-square
  p-value of ``flick --trials``.
- ``render``: Pillow, imageio, imageio-ffmpeg, matplotlib. Pictures:
  ``render`` (GIF, MP4, PNG), ``board --png``, ``flick --plot``,
  ``fidelity --plot``.
- ``reference``: MuJoCo. The reference engine (``--engine reference``,
  ``fidelity``).
- ``all``: the three; ``test``: all, and the test and lint tools.

A command checks the extra it needs before it starts any work, with
:func:`require_extra`; a missing one raises :class:`MissingExtraError`,
which the command line prints as one line (``warlords-sim: error: variants
needs the 'lab' extra (scipy is not installed): pip install
'warlords-sim[lab]' ...``) with exit status 2. The check looks modules up
with :func:`importlib.util.find_spec` and imports none of them, so it costs
a few file look-ups. Imports only the standard library: any layer may use
it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable

from warlords_sim.errors import WarlordsError

__all__ = ["EXTRAS", "MissingExtraError", "extra_hint", "missing_modules", "require_extra"]

#: Extra -> {top-level module a command imports: the distribution in
#: pyproject.toml's extra that brings it}.
EXTRAS: dict[str, dict[str, str]] = {
    "lab": {
        "scipy": "scipy",
        "dask": "dask",
        "distributed": "dask",  # dask[distributed]
        "matplotlib": "matplotlib",
        "filelock": "filelock",
        "cryptography": "cryptography",  # the TLS credentials of --dask local
    },
    "render": {
        "PIL": "pillow",
        "imageio": "imageio",
        "imageio_ffmpeg": "imageio-ffmpeg",
        "matplotlib": "matplotlib",
    },
    "reference": {"mujoco": "mujoco"},
}


class MissingExtraError(WarlordsError, ImportError):
    """A command (or the reference engine) needs an extra that is not installed.

    Attributes:
        what: what needs it ("variants", "board --png", "the reference engine").
        extra: the extra's name, a key of :data:`EXTRAS`.
        missing: the extra's modules that cannot be found.
    """

    def __init__(self, what: str, extra: str, missing: Iterable[str]) -> None:
        self.what = what
        self.extra = extra
        self.missing = tuple(missing)
        names = ", ".join(self.missing)
        verb = "is" if len(self.missing) == 1 else "are"
        super().__init__(f"{what} needs the {extra_hint(extra, f'{names} {verb} not installed')}")


def _check(extra: str) -> dict[str, str]:
    try:
        return EXTRAS[extra]
    except KeyError:
        raise ValueError(f"unknown extra {extra!r}; expected one of {', '.join(EXTRAS)}") from None


def extra_hint(extra: str, why: str | None = None) -> str:
    """``'lab' extra: pip install 'warlords-sim[lab]' (in a clone: pip
    install -e '.[lab]')``, with ``why`` in brackets after the name.

    Raises:
        ValueError: ``extra`` is not a key of :data:`EXTRAS`.
    """
    _check(extra)
    because = f" ({why})" if why else ""
    return (
        f"'{extra}' extra{because}: pip install 'warlords-sim[{extra}]' "
        f"(in a clone: pip install -e '.[{extra}]')"
    )


def missing_modules(extra: str, modules: Iterable[str] | None = None) -> tuple[str, ...]:
    """The modules of ``extra`` (or only those of ``modules``, which must
    belong to it) that cannot be imported, in :data:`EXTRAS` order; none
    is imported (a module set to None in ``sys.modules`` counts as missing).

    Raises:
        ValueError: an unknown extra, or a module that is not part of it.
    """
    known = _check(extra)
    wanted = tuple(known) if modules is None else tuple(modules)
    stray = [m for m in wanted if m not in known]
    if stray:
        raise ValueError(f"{', '.join(stray)}: not a module of the {extra!r} extra")
    return tuple(m for m in known if m in wanted and importlib.util.find_spec(m) is None)


def require_extra(extra: str, what: str, modules: Iterable[str] | None = None) -> None:
    """Make sure ``extra`` (or the listed ``modules`` of it) is installed.

    Args:
        extra: a key of :data:`EXTRAS`.
        what: what needs it, for the message ("variants", "board --png").
        modules: only these modules of the extra (default: all of them).

    Raises:
        MissingExtraError: one of them cannot be found; the message is one
            line naming the extra and how to install it.
        ValueError: an unknown extra or module (a bug in the caller).
    """
    missing = missing_modules(extra, modules)
    if missing:
        raise MissingExtraError(what, extra, missing)
