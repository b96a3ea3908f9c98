"""The wire protocol of network play: JSON messages over a WebSocket.

Every message is one JSON object in one text frame (a binary frame is read
the same way), tagged by ``"type"``.
The game's own messages are the replay's lines (docs/replay-format.md):
an action with its exact inputs (``begun``: sent the moment the host has
checked it, before it is simulated) and the settled state with its digest
(``line``: the replay line as the host's file has it). Around them are the
few a connection needs:

client -> host
    ``hello``  first message: protocol version, physics model, package
               version, the seat's token (null: a spectator).
    ``act``    the active player's action as aimed (a flick before the
               host's hand scatters it), as a replay action record.
    ``sync``   ask for the host's whole state (after a digest differed).
    ``bye``    leaving.

host -> client
    ``seat``   the answer to ``hello``: the player this connection plays
               (null: a spectator), the replay so far (header and lines,
               the game where it stands) and who is connected.
    ``begun``  an action taken: its index, player, the action as
               delivered (after the hand) and as aimed.
    ``line``   a replay line: an action line (with its digest) once the
               action has settled, or the closing result line.
    ``turn``   whose turn it is after action ``actions``, and who is connected.
    ``state``  the host's settled state in full (:mod:`warlords_sim.net.state`).
    ``error``  a refusal: a code and a sentence; nothing changed.
    ``bye``    the host is closing this connection (or the game), and why.

The version is :data:`PROTOCOL`; a ``hello`` of another version, or of
another physics model (every client re-simulates each action), is refused
with an ``error`` and the connection closed. A message over
:data:`MAX_MESSAGE_BYTES` from a client is refused unread; WebSocket frames
over :data:`MAX_FRAME_BYTES` close the connection (code 1009).

Contract: this module only encodes and decodes (msgspec); it opens no
socket and knows no game.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

import msgspec

from warlords_sim.errors import WarlordsError
from warlords_sim.replay.format import AimedRec, GameActionRec

__all__ = [
    "TOKEN_PATTERN",
    "MAX_FRAME_BYTES",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL",
    "Act",
    "Begun",
    "Bye",
    "ClientMessage",
    "ErrorMsg",
    "Hello",
    "LineMsg",
    "ProtocolError",
    "SeatMsg",
    "ServerMessage",
    "StateMsg",
    "Sync",
    "Turn",
    "decode_client",
    "decode_server",
    "encode",
]

#: The protocol version this code speaks (both ends must agree).
PROTOCOL = 1
#: The largest message a client may send, bytes (an ``act`` is about 200).
MAX_MESSAGE_BYTES = 16 * 1024
#: The largest WebSocket frame the host reads from a client at all, bytes;
#: a larger one closes the connection (the library's 1009, "message too big").
MAX_FRAME_BYTES = 256 * 1024
#: The largest message a client reads from the host, bytes: a ``seat``
#: message carries the whole replay so far (the largest example replay, a
#: 4-player game, is 241 kB; replays are capped at 64 MB).
MAX_SERVER_MESSAGE_BYTES = 64 << 20

#: What a seat's token is made of (``host`` makes them with
#: :func:`secrets.token_urlsafe`).
TOKEN_PATTERN = "^[A-Za-z0-9_-]{1,128}$"
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern="^[A-Za-z0-9_-]+$")]
Player = Annotated[int, msgspec.Meta(ge=0, le=3)]


class ProtocolError(WarlordsError, ValueError):
    """A message that is not one of this protocol's: not JSON, an unknown
    type, a missing or mistyped field, a number that is not finite, too
    long. The text says which, in one line."""


class _M(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, tag_field="type"):
    pass


# ------------------------------------------------------------ client -> host


class Hello(_M, tag="hello"):
    protocol: int
    model: Annotated[str, msgspec.Meta(max_length=64)]
    package: Annotated[str, msgspec.Meta(max_length=64)] = ""
    token: Token | None = None


class Act(_M, tag="act"):
    action: GameActionRec


class Sync(_M, tag="sync"):
    pass


class Bye(_M, tag="bye"):
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


ClientMessage = Hello | Act | Sync | Bye


# ------------------------------------------------------------ host -> client


class SeatMsg(_M, tag="seat"):
    protocol: int
    player: int | None  # null: a spectator
    replay: list[dict[str, Any]]  # the header, then every line so far
    connected: list[bool]  # per player: a client plays it now (bots: true)


class Begun(_M, tag="begun"):
    index: int
    player: int
    action: dict[str, Any]  # as delivered (a replay action record)
    aimed: AimedRec | None = None  # a flick through a hand: as aimed


class LineMsg(_M, tag="line"):
    line: dict[str, Any]  # a replay action line or the result line


class Turn(_M, tag="turn"):
    player: int | None  # null: the game is over
    actions: int
    connected: list[bool]


class StateMsg(_M, tag="state"):
    actions: int
    digest: str
    state: dict[str, Any]  # net.state.encode_state


class ErrorMsg(_M, tag="error"):
    code: Literal[
        "malformed", "too_big", "protocol", "model", "token", "taken", "turn",
        "illegal", "spectator", "over",
    ]  # fmt: skip
    message: str


ServerMessage = SeatMsg | Begun | LineMsg | Turn | StateMsg | ErrorMsg | Bye

_client_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)
_encoder = msgspec.json.Encoder()


def encode(message: msgspec.Struct) -> str:
    """One message as the text of a WebSocket frame (compact JSON; the
    host's lines are the replay's, whose numbers are finite)."""
    return _encoder.encode(message).decode()


def _has_nonfinite(obj: Any) -> bool:
    if isinstance(obj, float):
        return not math.isfinite(obj)
    if isinstance(obj, dict):
        return any(_has_nonfinite(v) for v in obj.values())
    if isinstance(obj, list | tuple):
        return any(_has_nonfinite(v) for v in obj)
    return False


def decode_client(data: str | bytes) -> Hello | Act | Sync | Bye:
    """A client's message, checked.

    Raises:
        ProtocolError: over :data:`MAX_MESSAGE_BYTES`, not JSON, not a
            client message of this protocol, a number that is not finite.
    """
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            f"a message of {len(raw)} bytes is over the limit of {MAX_MESSAGE_BYTES}"
        )
    try:
        msg = _client_decoder.decode(raw)
    except msgspec.DecodeError as e:
        raise ProtocolError(f"not a message of protocol {PROTOCOL}: {e}") from None
    if isinstance(msg, Act) and _has_nonfinite(msgspec.to_builtins(msg.action)):
        raise ProtocolError("the action holds a number that is not finite")
    return msg


def decode_server(
    data: str | bytes,
) -> SeatMsg | Begun | LineMsg | Turn | StateMsg | ErrorMsg | Bye:
    """A host's message, checked.

    Raises:
        ProtocolError: not JSON or not a host message of this protocol.
    """
    try:
        return _server_decoder.decode(data)
    except msgspec.DecodeError as e:
        raise ProtocolError(f"not a message of protocol {PROTOCOL}: {e}") from None
