"""House rules: the rulebook's open questions as named, validated options.

A house-rules file is TOML with optional ``format = "warlords-house-rules"``
and ``version = 1`` and any of the fields of :class:`HouseRules` at the top
level; missing fields keep their defaults. Every default follows the
rulebook where it speaks and design brief section 4 where it is silent;
``RULES.md`` quotes the sentence each option interprets.

Example::

    wall_variant = "wall1"
    rounds = 2
    courtyard_dice_in_play = false
"""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Literal

import msgspec

from warlords_sim._files import FileProblem, parse_toml, read_user_file
from warlords_sim._msgspec import where_and_what
from warlords_sim.rules.errors import HouseRulesError

__all__ = ["HouseRules", "WallVariant", "load_house_rules"]

WallVariant = Literal["standard", "wall1", "wall2"]
#: Largest house-rules file read, bytes, checked before it is parsed.
MAX_FILE_BYTES = 65_536


class HouseRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The options (defaults in brackets).

    Attributes:
        format, version: optional file header.
        wall_variant: ["standard"] no side walls; "wall1" side walls in the
            final round if any player has no damage then; "wall2" side walls
            from round one (rulebook, Optional Wall Variants).
        rounds: [0 = one per player] number of rounds.
        dice_per_player: [6] dice in each player's supply.
        courtyard_dice_in_play: [False] brief 4.1: a die resting in a
            courtyard is scored and stays; it cannot be flicked and does not
            keep its owner's round alive.
        second_flick_earns_ability: [True] brief 4.2: a Scout's re-flick or a
            General's second die earns its own ability (face changed as usual).
        siege_doubles: ["own_on_board"] brief 4.3: doubles are two of the
            active player's dice on the board outside the center ring showing
            the same face; "any_own_in_play" also counts dice in courtyards when
            ``courtyard_dice_in_play``.
        active_final_die: ["returns"] brief 4.4: the active player's final die
            leaving the board returns to their supply; "eliminated" drops the rule.
        cocked_die: ["as_if_support_removed"] brief 4.5: a cocked die reads the
            face pointing most upward; "no_ability" also denies it an ability.
        first_player: [0] the player who starts round one (players choose).
        first_player_by: ["total"] brief 4.6: later rounds start with the
            player with the most damage in total ("round": in the last round).
        three_player_rotation: [True] brief 4.7: with three players the castles
            rotate after each round.
        three_player_walled_seat: [3] the seat closed by the three-player wall.
        unlanded_wall_exit: ["return"] with side walls, a die flicked from
            the supply that leaves over a wall without first touching down
            returns to its owner's supply ("eliminate": it is eliminated
            like any other). A die flicked from the board or shot from the
            siege engine was on the board: it is removed from play either way.
        spy_into_castle: [False] a Spy may not be placed with any part of it
            in a courtyard or gateway (True: anywhere there).
        general_chain: ["rulebook"] "The die showing the 6 can not be flicked
            a second time" (General): under a General's ability no die
            flicked this turn that shows a 6 may be flicked again, so in a
            chain (A lands 6, B lands 6) A stays put; "last_general_only"
            bars only the die whose 6 gave the ability now pending.
        ring_pins: ["near_side"] "three pins ... in the holes directly across
            from their home castle": the arc of the ring facing the castle;
            "far_side" the arc beyond the ring's centre (the same holes with
            two or four players, others with three).
        gateway_straddle: ["stays"] a die resting across the line between
            a castle's gateway and its courtyard, entirely inside the two
            together but inside neither alone: "The die must be entirely
            inside with no portion sticking out of a gateway" and only a die
            "entirely inside a castle gateway is moved to the back of the
            courtyard", so it scores nothing and stays where it is, a die on
            the board; "to_courtyard" moves it to the back of the courtyard
            as a gateway die is (face unchanged), where it counts.
        max_flicks_per_round: [400] a safety cap: the round ends after this many
            flicks (``ended_by = "flick_limit"``); bots never reach it in practice.
    """

    format: Literal["warlords-house-rules"] = "warlords-house-rules"
    version: Literal[1] = 1
    wall_variant: WallVariant = "standard"
    rounds: int = 0
    dice_per_player: int = 6
    courtyard_dice_in_play: bool = False
    second_flick_earns_ability: bool = True
    siege_doubles: Literal["own_on_board", "any_own_in_play"] = "own_on_board"
    active_final_die: Literal["returns", "eliminated"] = "returns"
    cocked_die: Literal["as_if_support_removed", "no_ability"] = "as_if_support_removed"
    first_player: int = 0
    first_player_by: Literal["total", "round"] = "total"
    three_player_rotation: bool = True
    three_player_walled_seat: int = 3
    unlanded_wall_exit: Literal["return", "eliminate"] = "return"
    spy_into_castle: bool = False
    general_chain: Literal["rulebook", "last_general_only"] = "rulebook"
    ring_pins: Literal["near_side", "far_side"] = "near_side"
    gateway_straddle: Literal["stays", "to_courtyard"] = "stays"
    max_flicks_per_round: int = 400

    def check(self, where: str = "house rules", field_prefix: str = "") -> HouseRules:
        """Range checks msgspec's types cannot express; returns ``self``.

        Args:
            where: the file (and line) the rules come from, first in the message.
            field_prefix: put before the field's name (``"house_rules."`` in a
                replay header).

        Raises:
            HouseRulesError: naming ``where``, the field and what was expected.
        """

        def bad(field: str, expected: str, got: object) -> HouseRulesError:
            return HouseRulesError(
                f"{where}: field `{field_prefix}{field}`: expected {expected}, got {got!r}"
            )

        # the named choices (Literal fields), checked here too for rules built in code
        hints = typing.get_type_hints(type(self))
        for name in self.__struct_fields__:
            choices = typing.get_args(hints[name])
            if typing.get_origin(hints[name]) is typing.Literal:
                value = getattr(self, name)
                if value not in choices:
                    raise bad(name, "one of " + ", ".join(repr(c) for c in choices), value)
        if not 0 <= self.rounds <= 100:
            raise bad("rounds", "an integer 0..100 (0: one round per player)", self.rounds)
        if not 1 <= self.dice_per_player <= 20:
            raise bad("dice_per_player", "an integer 1..20", self.dice_per_player)
        if not 0 <= self.first_player <= 3:
            raise bad("first_player", "a player index 0..3", self.first_player)
        if not 0 <= self.three_player_walled_seat <= 3:
            raise bad("three_player_walled_seat", "a seat 0..3", self.three_player_walled_seat)
        if not 1 <= self.max_flicks_per_round <= 100_000:
            raise bad("max_flicks_per_round", "an integer 1..100000", self.max_flicks_per_round)
        return self

    def replace(self, **changes: object) -> HouseRules:
        """A copy with some fields changed (validated)."""
        return msgspec.structs.replace(self, **changes).check()

    def to_dict(self) -> dict[str, object]:
        result: dict[str, object] = msgspec.to_builtins(self)
        return result


def _allowed(field: str) -> str:
    hint = typing.get_type_hints(HouseRules).get(field)
    args = typing.get_args(hint) if hint is not None else ()
    return ", ".join(str(a) for a in args)


def _explain(msg: str) -> str:
    """Turn msgspec's ``Expected `int`, got `str` - at `$.rounds``` into
    ``field `rounds`: expected int, got str``."""
    if " - at `$" in msg:
        field, what = where_and_what(msg)
        what = what.replace("`", "")
        if what.startswith("Invalid enum value"):
            allowed = _allowed(field)
            if allowed:
                got = what.split(" ", 3)[3]
                if len(got) > 40:
                    got = f"{got[:37]}... ({len(got)} characters)"
                return f"field `{field}`: expected one of {allowed}, got {got}"
        return f"field `{field}`: {what[0].lower()}{what[1:]}"
    if msg.startswith("Object contains unknown field"):
        name = msg.split("`")[1]
        known = ", ".join(HouseRules.__struct_fields__)
        return f"unknown field `{name}`: expected one of {known}"
    return msg.replace("`", "")


def load_house_rules(path: str | Path) -> HouseRules:
    """Read and validate a house-rules TOML file.

    Raises:
        HouseRulesError: missing, unreadable or too large (over
            :data:`MAX_FILE_BYTES`) file, invalid TOML, an unknown
            or mistyped field, a value out of range; the message names the
            file, the field and what was expected.
    """
    p = Path(path)
    raw = read_user_file(p, MAX_FILE_BYTES, "house-rules file (every option fits in 1 kB)",
                         HouseRulesError, "house rules")  # fmt: skip
    try:
        data = parse_toml(raw)
    except FileProblem as e:
        raise HouseRulesError(f"{p}: {e}") from None
    try:
        rules = msgspec.convert(data, HouseRules)
    except msgspec.ValidationError as e:
        raise HouseRulesError(f"{p}: {_explain(str(e))}") from e
    return rules.check(str(p))
