"""``warlords-sim join``: a seat (or a spectator's view) of a hosted game.

A :class:`Link` is the connection: a WebSocket opened with the
synchronous client of websockets, its ``hello`` answered by the host's
``seat`` message, then a reader thread that puts every message the host
sends on a queue, stamped with the monotonic clock when it arrived.

A :class:`NetController` is the window's controller
(:class:`~warlords_sim.gui.controller.GameController`) for that seat. It
starts from the replay the host sent (rebuilt action by action, every
digest checked, the whole log told again) and then plays what the host
sends: each ``begun`` action is started and animated frame by frame here,
re-simulated by this machine's physics, and each ``line`` brings the
host's digest to check it against. Where the two differ, the client says
so, asks for the host's state (``sync``) and takes it
(:mod:`warlords_sim.net.state`). The player's own flick is sent to the
host as aimed (``act``), never applied here first: it begins when the
host sends it back, scattered by the seat's hand as the host drew it.

The same controller runs headless (:func:`play_headless`), a bot
choosing the seat's actions: the tests' clients and a way to fill a seat.

Contract: the controller is touched by one thread only (the window's or
the headless loop's); the reader thread only fills the queue.
"""

from __future__ import annotations

import contextlib
import json
import math
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import numpy as np
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from warlords_sim import __version__
from warlords_sim.bots.policy import Policy
from warlords_sim.colours import SEAT_COLOUR_NAMES
from warlords_sim.errors import WarlordsError
from warlords_sim.gui.controller import GameController, Phase, stroke_line
from warlords_sim.gui.playback import recorded_hands, retell
from warlords_sim.net.protocol import (
    MAX_SERVER_MESSAGE_BYTES,
    PROTOCOL,
    Act,
    Begun,
    Bye,
    ErrorMsg,
    Hello,
    LineMsg,
    ProtocolError,
    SeatMsg,
    StateMsg,
    Sync,
    Turn,
    decode_server,
    encode,
)
from warlords_sim.net.state import StateError, take_state
from warlords_sim.physics import MODEL_VERSION
from warlords_sim.replay.errors import ReplayError
from warlords_sim.replay.format import GameActionRec
from warlords_sim.replay.loader import parse_replay
from warlords_sim.replay.model import check_model
from warlords_sim.replay.snapshot import digest_of
from warlords_sim.rules.actions import Action, BoardFlick, SiegeShot, SupplyFlick, action_from_dict
from warlords_sim.rules.engine import Outcome

__all__ = ["JoinError", "Link", "NetController", "join", "play_headless"]

#: Seconds to open the connection and to wait for the host's answer.
CONNECT_TIMEOUT = 10.0


class JoinError(WarlordsError):
    """Joining failed: the host is unreachable, refused the hello (the
    host's sentence), or sent what is not a game of this version."""


@dataclass(frozen=True)
class Lost:
    """The connection ended (the reader thread's last message)."""

    reason: str


class Link:
    """A connection to a host (see the module docstring).

    Raises:
        JoinError: as :func:`join`.
    """

    def __init__(self, url: str, token: str | None, timeout: float = CONNECT_TIMEOUT) -> None:
        self.url = url
        try:
            self.ws: ClientConnection = connect(
                url,
                max_size=MAX_SERVER_MESSAGE_BYTES,
                open_timeout=timeout,
                compression=None,
                proxy=None,
                legacy=True,
            )
        except (InvalidURI, ValueError) as e:  # a port out of range is a ValueError
            raise JoinError(
                f"{url!r} is not a WebSocket address: {e} (expected ws://HOST:PORT, as the "
                "host printed it)"
            ) from None
        except (OSError, TimeoutError, InvalidHandshake) as e:
            raise JoinError(f"cannot reach the host at {url}: {e}") from None
        hello = Hello(protocol=PROTOCOL, model=MODEL_VERSION, package=__version__, token=token)
        self.sent_bytes = 0
        self.received_bytes = 0
        try:
            self.send(hello)
            raw = self.ws.recv(timeout)
        except (ConnectionClosed, TimeoutError) as e:
            raise JoinError(f"the host at {url} did not answer the hello: {e}") from None
        self.received_bytes += len(raw)
        first = _decode(raw, url)
        if isinstance(first, ErrorMsg):
            self.ws.close()
            raise JoinError(f"the host refused: {first.message}")
        if not isinstance(first, SeatMsg):
            self.ws.close()
            raise JoinError(f"the host at {url} answered the hello with a {type(first).__name__}")
        self.seat: SeatMsg = first
        self.inbox: queue.Queue[tuple[float, Any]] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name="warlords-link", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        why = "it closed without a goodbye (the host stopped, or the network failed)"
        try:
            for raw in self.ws:
                t = time.monotonic()
                self.received_bytes += len(raw)
                try:
                    self.inbox.put((t, decode_server(raw)))
                except ProtocolError as e:
                    why = f"the host sent what is not protocol {PROTOCOL}: {e}"
                    self.ws.close()
                    return
            why = self.ws.close_reason or "closed"
        except ConnectionClosed as e:
            if e.rcvd is not None and e.rcvd.reason:
                why = e.rcvd.reason
        finally:  # whatever ended it, the controller hears of it
            self.inbox.put((time.monotonic(), Lost(why)))

    def send(self, message: msgspec.Struct) -> None:
        """Send one message.

        Raises:
            ConnectionClosed: the connection is gone.
        """
        text = encode(message)
        self.sent_bytes += len(text.encode())
        self.ws.send(text)

    def close(self) -> None:
        """Say goodbye (if the connection is still open), close it and let
        the reader thread end."""
        with contextlib.suppress(ConnectionClosed):
            self.send(Bye(reason="leaving"))
        self.ws.close()
        if threading.current_thread() is not self._reader:
            self._reader.join(CONNECT_TIMEOUT)


def _decode(raw: str | bytes, url: str) -> Any:
    try:
        return decode_server(raw)
    except ProtocolError as e:
        raise JoinError(f"the host at {url} does not speak protocol {PROTOCOL}: {e}") from None


def join(url: str, token: str | None, **kwargs: Any) -> NetController:
    """Connect to the host at ``url`` (``ws://HOST:PORT``) for the seat of
    ``token`` (None: a spectator) and build the controller of the game
    where it stands.

    Raises:
        JoinError: the host is unreachable or refused (a wrong token, a
            seat taken, another protocol or physics model: the host's
            sentence), or its replay cannot be rebuilt here.
    """
    link = Link(url, token)
    try:
        return NetController(link, **kwargs)
    except (ReplayError, ValueError) as e:
        link.close()
        raise JoinError(f"the host's game cannot be rebuilt here: {e}") from None


class _Remote:
    """Stands in the controller's ``bots`` for a player this window does
    not play: their actions come from the host."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, state: Any, legal: Any, rng: np.random.Generator) -> Action:
        raise RuntimeError("a remote player's actions come from the host")


class NetController(GameController):
    """The controller of one seat of a hosted game (module docstring).

    Args:
        link: the connection, its ``seat`` message answered.
        say: where notices go beside the log (a divergence, the host
            leaving); the headless client prints them.

    Attributes:
        me: the player this connection plays (None: a spectator).
        closed: why the connection ended (None while it is open).
        diverged: the actions whose digest differed from the host's.
        trace: (event, action index, monotonic time) of every action:
            ``sent`` (this seat's act sent), ``begun`` (the host's message
            arrived), ``started`` (the flick began here), ``first_frame``
            (set by the window when it first draws the flick).
    """

    def __init__(self, link: Link, say: Callable[[str], None] | None = None) -> None:
        self.link = link
        seat = link.seat
        self.me = seat.player
        data = b"".join(json.dumps(line).encode() + b"\n" for line in seat.replay)
        replay = parse_replay(data, link.url)
        if self.me is not None and not 0 <= self.me < replay.header.players:
            raise ReplayError(
                f"{link.url}: the host gave this client player {self.me} of a "
                f"{replay.header.players}-player game"
            )
        if replay.mode != "game":
            raise ReplayError(f"{link.url}: the host's replay is not a game")
        check_model(replay, ("2.5d",))
        rebuilt, told, spots = retell(replay)
        self.names = list(replay.header.bots)
        others = {p: _Remote(self.names[p]) for p in range(replay.header.players) if p != self.me}
        super().__init__(
            rebuilt.game.config,
            others,
            seed=replay.header.seed or 0,
            game=rebuilt.game,
            rngs=rebuilt.rngs,
            hands=recorded_hands(replay),
            bot_delay=math.inf,
            auto_continue=3.0,
        )
        self.log.extend(told.lines)
        self.told = told.headline
        if self.me is not None:
            self.launch_spots = {self.me: spots[self.me]} if self.me in spots else {}
        self.say = say
        self.connected = list(seat.connected)
        self.index = len(replay.actions)  # actions applied here
        self.result: dict[str, Any] | None = (
            None if replay.result is None else msgspec.to_builtins(replay.result)
        )
        self.closed: str | None = None
        self.diverged: list[int] = []
        self.trace: list[tuple[str, int, float]] = []
        self._queue: deque[tuple[float, Begun]] = deque()
        self._host_digest: dict[int, str] = {}
        self._own_digest: dict[int, str] = {}
        self._state_wanted: int | None = None
        self._waiting = False  # our act is with the host
        self._round_timer = 0.0
        what = "watching" if self.me is None else f"playing P{self.me}"
        self.message = f"joined {link.url}, {what}, after action {self.index}"

    # ------------------------------------------------------------ queries

    def player_name(self, p: int) -> str:
        seat = self.state.seat_of(p)
        if p == self.me:
            who = "you"
        elif self.names[p] != "human":
            who = f"host's {self.names[p]} bot"
        elif self.closed is not None:
            who = "not connected here"
        else:
            who = "remote" if self.connected[p] else "away"
        return f"P{p} {SEAT_COLOUR_NAMES[seat]} ({who})"

    def wait_reason(self) -> str:
        if self.closed is not None:
            return f"the connection to the host is closed ({self.closed})"
        if self.phase is Phase.FLICKING:
            return "wait: the dice are moving"
        if self.me is None:
            return "you are watching: join with a seat's --token to play"
        if self._waiting:
            return "wait: your action is with the host"
        return f"wait: it is {self.player_name(self.state.active)}'s turn"

    def caption(self) -> str:
        if self.me is None:
            return f"Warlords: watching {self.link.url}"
        seat = self.state.seat_of(self.me)
        return f"Warlords: P{self.me} {SEAT_COLOUR_NAMES[seat]} at {self.link.url}"

    def hand_label(self, p: int) -> str:
        if self.names[p] != "human":
            return ""
        return super().hand_label(p) if p in self.hand_specs else "hand exact"

    def is_human_turn(self) -> bool:
        return self.phase is Phase.INPUT and not self._waiting

    @property
    def me_to_act(self) -> bool:
        """Whether it is this seat's turn (whatever the phase)."""
        return self.me is not None and self.state.active == self.me

    @property
    def queued(self) -> int:
        """Actions the host has begun that have not started here yet."""
        return len(self._queue)

    # ------------------------------------------------------------ acting

    def submit(self, action: Action) -> bool:
        """This seat's action, sent to the host as aimed (the host's hand
        scatters a flick); it plays when the host sends it back."""
        if self.closed is not None:
            self.refuse(f"the connection to the host is closed ({self.closed})")
            return False
        if self.phase is not Phase.INPUT or self._waiting or self.state.active != self.me:
            self.refuse("wait: it is not your turn")
            return False
        rec = msgspec.convert(action.to_dict(), GameActionRec)
        try:
            self.link.send(Act(action=rec))
        except ConnectionClosed:
            self._lost("a message to the host could not be sent")
            return False
        self._waiting = True
        self.trace.append(("sent", self.index + 1, time.monotonic()))
        self.message = "sent to the host..."
        return True

    def _bot_act(self) -> None:
        """A remote player's turn: their action comes from the host."""

    def _next(self) -> None:
        super()._next()
        if self.phase is Phase.BOT:
            self._timer = math.inf

    def _record(self, action: Action, outcome: Outcome) -> None:
        """An action settled here: its digest, to check against the host's."""
        self.index += 1
        self._own_digest[self.index] = digest_of(outcome.settled(self.state))
        self._check(self.index)

    # ------------------------------------------------------------ messages

    def pump(self, block: float = 0.0) -> None:
        """Handle every message that has arrived (waiting up to ``block``
        seconds for the first), and start the next action the host sent
        once the last one has settled here. A message this client cannot
        use (a host of another make, or a hostile one) ends the connection,
        said, instead of the program."""
        inbox = self.link.inbox
        try:
            item = inbox.get(timeout=block) if block > 0 else inbox.get_nowait()
            while True:
                self._handle(*item)
                item = inbox.get_nowait()
        except queue.Empty:
            pass
        except (ValueError, KeyError, TypeError, IndexError) as e:
            self._bad_host(e)
            return
        try:
            self._start_next()
        except (ValueError, KeyError, TypeError, IndexError) as e:
            self._bad_host(e)

    def _bad_host(self, e: Exception) -> None:
        self._queue.clear()
        self.link.close()
        self._lost(f"the host sent a message this client cannot use ({e})")

    def _handle(self, t: float, msg: Any) -> None:
        if isinstance(msg, Begun):
            self.trace.append(("begun", msg.index, t))
            self._queue.append((t, msg))
        elif isinstance(msg, LineMsg):
            line = msg.line
            if line.get("kind") == "action":
                self._host_digest[int(line["index"])] = str(line["digest"])
                self._check(int(line["index"]))
            elif line.get("kind") == "result":
                self.result = line
        elif isinstance(msg, Turn):
            self.connected = list(msg.connected)
        elif isinstance(msg, ErrorMsg):
            self._waiting = False
            self.refuse(f"the host refused: {msg.message}")
        elif isinstance(msg, StateMsg):
            self._take(msg)
        elif isinstance(msg, Bye):
            self._lost(msg.reason or "the host closed the game", said=True)
        elif isinstance(msg, Lost):
            self._lost(msg.reason)

    def _lost(self, why: str, said: bool = False) -> None:
        """The connection ended: ``said`` when the host said goodbye (it
        stopped the game, or the game is over), not when it was cut."""
        if self.closed is None:
            self.closed = why
            self._waiting = False
            if said:
                text = f"the host ended the game here: {why}"
            else:
                text = f"the connection to the host was lost: {why}"
            if not self.game.over:
                text += (
                    "; to go on, run the same join line again once the host is back (a host "
                    "restarted with 'host --resume' prints new lines: use yours)"
                )
            self._notice(text)

    def _notice(self, text: str) -> None:
        self.log.append(text)
        self.message = text
        if self.say is not None:
            self.say(text)

    def _start_next(self) -> None:
        if self.phase is Phase.FLICKING or not self._queue:
            return
        if self._state_wanted is not None:
            return  # the host's state first
        if self.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            return  # the round screen gives way first (tick, or the player)
        _, msg = self._queue.popleft()
        if msg.index != self.index + 1:
            self._resync(msg.index - 1, f"the host's action {msg.index} came after {self.index}")
            return
        action = action_from_dict(msg.action)
        aimed = None
        if msg.aimed is not None and isinstance(action, SupplyFlick | BoardFlick | SiegeShot):
            from dataclasses import replace

            vx, vy = msg.aimed.velocity
            aimed = replace(
                action, velocity=(vx, vy), spin=msg.aimed.spin, strike_mm=msg.aimed.strike_mm
            )
            self.log.append(stroke_line(aimed, action))
        if msg.player == self.me:
            self._waiting = False
        self.phase = Phase.INPUT  # whoever's turn, the host's action starts now
        if not self._start(action, aimed=aimed):
            self._resync(msg.index - 1, f"the rules here refuse the host's action {msg.index}")
            return
        self.trace.append(("started", msg.index, time.monotonic()))

    def _check(self, index: int) -> None:
        own, host = self._own_digest.get(index), self._host_digest.get(index)
        if own is None or host is None:
            return
        self._own_digest.pop(index)
        self._host_digest.pop(index)
        if own != host:
            self.diverged.append(index)
            self._resync(index, f"action {index} settled here with digest {own[:12]}, "
                         f"at the host with {host[:12]}")  # fmt: skip

    def _resync(self, index: int, why: str) -> None:
        self._notice(f"{why}: taking the host's state")
        self._state_wanted = index
        try:
            self.link.send(Sync())
        except ConnectionClosed:
            self._lost("a message to the host could not be sent")

    def _take(self, msg: StateMsg) -> None:
        if self._state_wanted is None:
            return
        self._state_wanted = None
        self.finish_flick()
        try:
            take_state(self.state, msg.state)
        except StateError as e:
            self._lost(f"the host's state cannot be taken here: {e}")
            return
        self.index = msg.actions
        self._queue = deque((t, b) for t, b in self._queue if b.index > self.index)
        self.frozen = self.final = self.round_record = None
        got = digest_of(self.game)
        note = "" if got == msg.digest else f" (its digest here is {got[:12]}, not the host's)"
        self._notice(f"took the host's state after action {msg.actions}{note}")
        self._legal = None
        self.phase = Phase.INPUT
        self._next()

    # ------------------------------------------------------------ frames

    def tick(self, dt: float) -> None:
        """A frame: the messages that arrived, then the game's own tick (a
        flick animated; a round screen that gives way by itself after
        :attr:`auto_continue` seconds when the host has moved on)."""
        self.pump()
        if self.phase is Phase.ROUND_OVER and (self._queue or self.game.over):
            self._round_timer += dt
            if self._round_timer >= self.auto_continue and self._queue:
                self._round_timer = 0.0
                self.proceed()
        else:
            self._round_timer = 0.0
        super().tick(dt)
        self._start_next()

    def frame_shown(self) -> None:
        """The window showed a frame: the first one of each flick is traced."""
        if self.phase is not Phase.FLICKING:
            return
        index = self.index + 1
        if not any(e == "first_frame" and i == index for e, i, _ in self.trace[-4:]):
            self.trace.append(("first_frame", index, time.monotonic()))


def play_headless(
    c: NetController,
    policy: Policy | None,
    rng: np.random.Generator,
    *,
    say: Callable[[str], None] = print,
    timeout: float = 3600.0,
    delay: float = 0.0,
) -> str:
    """Play the seat with ``policy`` (None: a spectator only watches),
    every flick run to rest at once, each action's summary said (the
    bot waits ``delay`` seconds before each of its actions), until
    the game is over and the host says goodbye, or the connection ends;
    returns why it ended.

    Raises:
        TimeoutError: nothing happened for ``timeout`` seconds.
    """
    told = len(c.log)
    last = time.monotonic()
    # once the host has said goodbye, what it sent before is still shown:
    # the last actions may arrive in the same burst as the goodbye
    while c.closed is None or c.queued or c.phase is Phase.FLICKING:
        before = (c.index, c.phase, c.queued)
        c.pump(block=0.05 if c.closed is None else 0.0)
        if c.phase is Phase.FLICKING:
            c.finish_flick()
        elif c.phase is Phase.ROUND_OVER:
            c.proceed()
        elif (
            policy is not None and c.closed is None and c.is_human_turn() and c.state.active == c.me
        ):
            if delay > 0:
                time.sleep(delay)
            legal = c.game.legal_actions()
            c.submit(policy.choose(c.state, legal, rng))
        for line in c.log[told:]:
            say(line)
        told = len(c.log)
        if (c.index, c.phase, c.queued) != before:
            last = time.monotonic()
        elif c.closed is not None:
            break  # closed, and nothing it sent can be shown any more
        elif time.monotonic() - last > timeout:
            raise TimeoutError(f"nothing came from the host for {timeout:g} s")
    for line in c.log[told:]:
        say(line)
    c.link.close()
    return c.closed
