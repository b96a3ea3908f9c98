"""The built-in bots' names, and ``--bots`` text read as one name per player.

One parser for every command that takes bot names (``simulate``,
``variants``, ``replay --branch``), with the rules of ``--skills``: items
are comma-separated, an empty item is refused (``search,`` is not "search
for every seat"), names are read in any case (``SEARCH`` is ``search``),
and an unknown name is refused naming the known ones.
"""

from __future__ import annotations

__all__ = ["BOTS", "parse_bot_names"]

#: Names of the built-in bots.
BOTS: tuple[str, ...] = ("aim", "random", "search")


def parse_bot_names(text: str, players: int, option: str = "--bots") -> tuple[str, ...]:
    """``"aim"`` (every seat) or ``"aim,random"`` (one per player) as bot
    names, lower case, one per player.

    Args:
        text: the option's value.
        players: the number of players (2..4).
        option: the option's name, for the messages.

    Raises:
        ValueError: nothing given, an empty item, an unknown name (naming
            the known ones), or neither 1 nor ``players`` names; one line
            starting with ``option``.
    """
    items = [t.strip() for t in text.split(",")]
    if not any(items):
        raise ValueError(
            f"{option}: expected 1 or {players} comma-separated bot names "
            f"({', '.join(BOTS)}), got {text!r}"
        )
    names: list[str] = []
    for item in items:
        if not item:
            raise ValueError(f"{option}: an empty item in {text!r}")
        if item.lower() not in BOTS:
            raise ValueError(f"{option}: unknown bot {item!r} (known: {', '.join(BOTS)})")
        names.append(item.lower())
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(
            f"{option}: expected 1 or {players} comma-separated names, got {len(names)} in {text!r}"
        )
    return tuple(names)
