"""Every file a command writes, under one rule.

The rule: a command never replaces a file it did not create in this run
unless ``--force`` is given. Each writer (``board --png``, ``flick --plot``,
``play --screenshot``, ``render --out``, ``fidelity --plot``, ``variants
--out``; the replays of ``--record`` and ``--branch`` are created
exclusively by :class:`warlords_sim.replay.Recorder`, with the same message,
and with ``--force`` written to a hidden temporary file that replaces the
old one only when the recording ends)
goes through this module:

* :func:`check_output`, before any work: the path has an expected suffix,
  is not a folder, its folder exists and is writable, and it does not exist
  unless ``force``. A refusal ends the command with one line on stderr and
  exit status 2: ``OPTION PATH: the file already exists; pass --force to
  overwrite it or pick another path``.
* :func:`saving`, around the write itself: the writer fills a hidden
  temporary file in the same folder, moved into place only once complete.
  A failed or interrupted write leaves an existing file as it was, and
  without ``force`` a file that appeared at the path meanwhile is not
  replaced (the move is an exclusive hard link where the file system has
  them). A write that fails (a full disk) ends the command with one line
  naming the option and the file. A run killed outright (``kill -9``)
  cannot remove its temporary file; the next write to the same path does
  (no process holds its lock any more).
* :func:`recording`, around a run that records (``--record``,
  ``--branch``): a SIGTERM stops it as Ctrl-C does; a run that fails or
  is interrupted before its first action removes the replay it created,
  and an interrupted one says where its resumable prefix is (a forced
  recording's hidden temporary file: the old file is unchanged).
* :func:`same_file`: two options naming one file are refused.
* :func:`data_dir` and :func:`default_recording`: where ``play`` records
  when no ``--record`` is given, the user's data directory
  (``platformdirs.user_data_dir``; ``$WARLORDS_SIM_DATA_DIR`` overrides it),
  never the current directory.

Imports click at load time; tempfile, datetime and platformdirs when first used
(the temporary file is :func:`warlords_sim._files.partial_file`'s).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from warlords_sim._files import EXISTS_HINT, exists_message
from warlords_sim.cli._common import echo, fail

if TYPE_CHECKING:
    import datetime as _dt

    from warlords_sim.replay import Recorder

__all__ = [
    "DATA_ENV",
    "EXISTS_HINT",
    "check_output",
    "data_dir",
    "default_recording",
    "exists_message",
    "recording",
    "same_file",
    "saving",
]

#: Environment variable that overrides the user's data directory (tests).
DATA_ENV = "WARLORDS_SIM_DATA_DIR"


def check_output(
    path: str | os.PathLike[str],
    option: str,
    force: bool,
    suffixes: Sequence[str] = (),
) -> Path:
    """``path`` checked before the command does any work.

    Args:
        path: the file the command will write.
        option: the option that named it (``--plot``), for the message.
        force: ``--force`` was given: an existing file may be replaced.
        suffixes: accepted suffixes, lower case with the dot (``(".png",)``);
            empty: any.

    Returns:
        ``path`` as a :class:`Path`.

    Raises:
        click.exceptions.Exit: (via :func:`fail`, one line, status 2) a
            suffix not in ``suffixes``, a folder, a missing or read-only
            folder, or an existing file without ``force``.
    """
    p = Path(path)
    text = os.fspath(path)
    if not p.name:
        fail(f"{option}: expected a file name, got {text!r}")
    if p.is_dir():
        fail(f"{option} {text}: is a directory, expected a file name")
    if suffixes and p.suffix.lower() not in suffixes:
        names = " or ".join(filter(None, [", ".join(suffixes[:-1]), suffixes[-1]]))
        fail(f"{option} {text}: expected a {names} file name")
    parent = p.parent
    if not parent.is_dir():
        fail(f"{option} {text}: no such directory {str(parent)!r}")
    if p.exists() and not force:
        fail(exists_message(option, text))
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        fail(f"{option} {text}: cannot write there (permission denied)")
    return p


@contextlib.contextmanager
def saving(path: str | os.PathLike[str], option: str, force: bool) -> Iterator[Path]:
    """Write ``path`` through a temporary file: yields the temporary path
    (same folder and suffix, hidden: :func:`warlords_sim._files.partial_file`,
    which also removes the stale ones a writer killed outright left) for the
    writer to fill; on a normal exit it becomes ``path``. On an exception
    the temporary file is removed and ``path`` is untouched.

    Raises:
        click.exceptions.Exit: (via :func:`fail`, one line naming ``option``
            and ``path``) the file cannot be written (a full disk, say), or,
            without ``force``, a file appeared at ``path`` while the command ran.
    """
    from warlords_sim._files import partial_file

    target = Path(path)
    try:
        with partial_file(target) as tmp:  # a unique name, the mode of any new file
            yield tmp
            if force:
                os.replace(tmp, target)
            else:
                _place_exclusively(tmp, target, option)
    except OSError as e:
        kept = "the old file is unchanged" if target.exists() else "nothing was written"
        fail(f"{option} {target}: cannot write it: {e.strerror or e} ({kept})")


def _place_exclusively(tmp: Path, target: Path, option: str) -> None:
    """Move ``tmp`` to ``target`` unless ``target`` exists."""
    try:
        os.link(tmp, target)  # fails if target exists: no window for a race
    except FileExistsError:
        fail(exists_message(option, target))
    except OSError:  # no hard links here (some network or FAT file systems)
        if target.exists():
            fail(exists_message(option, target))
        os.replace(tmp, target)


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """``a`` and ``b`` name one file: :func:`os.path.samefile` when both
    exist (hard and symbolic links too), else their resolved paths are equal."""
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


@contextlib.contextmanager
def recording(rec: Recorder | None, option: str = "--record") -> Iterator[None]:
    """Run the block that fills ``rec`` (None: just the SIGTERM handling).

    Ctrl-C or a SIGTERM in the block raises KeyboardInterrupt (never inside a
    pymunk callback: :mod:`warlords_sim.stop`). On an
    exception before the first action the file ``rec`` created is removed
    (no stray header-only file). On an interruption the command ends with one
    line on stderr saying where the recording so far is and status 130/143.

    Raises:
        click.exceptions.Exit: interrupted.
    """
    import click

    from warlords_sim.cli._signals import Stop, signals_as_interrupt

    stop = Stop()
    try:
        # the block's end raises a stop that came after the physics' last step
        with signals_as_interrupt() as stop:
            yield
    except KeyboardInterrupt:
        notes = getattr(sys.exc_info()[1], "__notes__", None)
        if rec is None:
            where = "; ".join(notes or ["nothing was kept"])
        elif rec.discard():
            where = "nothing was recorded"
        else:
            where = f"the recording so far is in {rec.path}"
            if rec.pending:
                where += f" ({rec.target_note(option)})"
            how = rec.how_to_continue()
            if how is not None:
                where += f"; continue it with: {how}"
        echo(f"interrupted by {stop.name}: {where}", err=True)
        raise click.exceptions.Exit(stop.exit_status) from None
    except BaseException:
        if rec is not None:
            rec.discard()
        raise


def data_dir() -> Path:
    """The user's data directory for warlords-sim (``$WARLORDS_SIM_DATA_DIR``
    if set, else ``platformdirs.user_data_dir("warlords-sim")``); not created."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("warlords-sim"))


def default_recording(now: _dt.datetime | None = None) -> Path:
    """Where ``play`` records a game when no ``--record`` is given:
    ``DATA/recordings/warlords-YYYYmmdd-HHMMSS.jsonl`` (``-2``, ``-3``, ...
    added if that name is taken), the folder created.

    Raises:
        OSError: the folder cannot be created.
    """
    import datetime as _dt

    folder = data_dir() / "recordings"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = folder / f"warlords-{stamp}.jsonl"
    k = 1
    while path.exists():
        k += 1
        path = folder / f"warlords-{stamp}-{k}.jsonl"
    return path
