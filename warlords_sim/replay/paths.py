"""How a replay names other files (``board.file``, ``branch_of.file``).

Replays are shared, so they hold no local path: a file in the replay's
folder (or below it) is named by its path relative to that folder, with
``/`` between the parts; any other file by its name alone. Before issue 18
``board.file`` was an absolute path (``/home/alice/...``), which also
travelled with every shared replay; such files still load (an absolute
path is used as it is).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["recorded_name", "recorded_path"]


def recorded_name(path: str | os.PathLike[str], replay: str | os.PathLike[str]) -> str:
    """How the replay at ``replay`` names the file ``path``: relative to
    the replay's folder when the file is inside it, else the file's name.

    >>> recorded_name("/data/runs/boards/mine.toml", "/data/runs/g.jsonl")
    'boards/mine.toml'
    >>> recorded_name("/home/alice/mine.toml", "/data/runs/g.jsonl")
    'mine.toml'
    """
    target = Path(os.path.abspath(path))
    folder = Path(os.path.abspath(replay)).parent
    try:
        return target.relative_to(folder).as_posix()
    except ValueError:
        return target.name


def recorded_path(name: str, replay: str | os.PathLike[str]) -> Path:
    """The file a name that :func:`recorded_name` wrote stands for, relative
    to the folder of the replay at ``replay`` (an absolute path, as older
    replays hold, as it is)."""
    p = Path(name)
    return p if p.is_absolute() else Path(replay).parent / p
