"""Reading msgspec's validation messages, for the file loaders' errors.

msgspec says what is wrong as ``Expected `int`, got `str` - at
`$.scenario[2].flick.face``` or ``Object missing required field `name` -
at `$.castle```. Every loader (board, house rules, replay, scenarios)
turns that into its own one-line error naming the file and the field; this
module is the one place that takes the message apart. Imports nothing:
every layer may use it.
"""

from __future__ import annotations

__all__ = ["field_problem", "where_and_what"]


def where_and_what(message: str) -> tuple[str, str]:
    """msgspec's ``message`` as (the field's path without ``$.``, "" at the
    top; the message before ``- at``): ``("scenario[2].flick.face",
    "Expected `int`, got `str`")``."""
    if " - at `$" not in message:
        return "", message
    what, _, at = message.partition(" - at `$")
    return at.rstrip("`").lstrip("."), what


def field_problem(message: str) -> tuple[str, str] | None:
    """A missing or unknown field in ``message``, as (the field's whole
    path, ``"missing field"`` or ``"unknown field"``); None for any other
    problem."""
    where, what = where_and_what(message)
    for head, kind in (
        ("Object missing required field", "missing field"),
        ("Object contains unknown field", "unknown field"),
    ):
        if what.startswith(head):
            name = what.split("`")[1]
            return (f"{where}.{name}" if where else name), kind
    return None
