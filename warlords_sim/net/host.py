"""``warlords-sim host``: the game server of network play.

The host owns the game. It runs the same controller as ``play``
(:class:`~warlords_sim.gui.controller.GameController`: the rules' checks,
each human seat's hand, the bots, the replay recorder), with every flick
run to rest at once instead of animated. Each human seat has a random
token; a connection that says it in its ``hello`` plays that seat, one
without a token watches.

For every action taken the host sends every connection a ``begun``
message as soon as the rules have accepted it (the action as the hand
delivered it, so the clients can start animating while the host
simulates) and, once it has settled and its line is on disk, that replay
line (``line``, with the digest every client checks its own
re-simulation against); then whose turn it is (``turn``).

Nothing is lost: every line is fsync'd before it is sent
(:class:`~warlords_sim.replay.Recorder`), so a host killed at any moment
leaves a replay that ``host --resume`` or ``play --resume`` continues; a
client that drops rejoins with its token and is sent the replay so far.
When no human is connected for ``wait`` seconds the game stops, recorded
and resumable.

Contract: all game state is touched in the event loop's thread, but for
the simulation of a flick and a bot's choice, which run in a worker thread
while the game lock is held (no other action is looked at meanwhile).
Units as everywhere: mm, g, s, rad.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from warlords_sim import __version__
from warlords_sim.bots.policy import Policy
from warlords_sim.gui.controller import GameController, Phase
from warlords_sim.net.protocol import (
    MAX_FRAME_BYTES,
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
    decode_client,
    encode,
)
from warlords_sim.net.state import encode_state
from warlords_sim.physics import MODEL_VERSION
from warlords_sim.replay.format import AimedRec
from warlords_sim.replay.loader import to_action
from warlords_sim.rules.actions import Action, BoardFlick, SiegeShot, SupplyFlick

__all__ = ["HELLO_TIMEOUT", "Host", "HostController", "Seat", "new_tokens"]

#: Seconds a new connection has to send its ``hello``.
HELLO_TIMEOUT = 10.0
#: Bytes waiting to be sent to one connection before it is dropped as too
#: slow (a client that does not read): a whole 4-player game's replay, the
#: largest single message, is about 0.25 MB.
MAX_BACKLOG_BYTES = 4 << 20
#: Seconds a closing connection is given to take what is queued for it.
CLOSE_DRAIN_S = 5.0


class _Outlet:
    """What is sent to one connection, in order, by a task of its own: the
    game never waits on a client's network (a client that does not read
    would otherwise hold the game lock, and every other player, while its
    send buffer is full). A client whose backlog passes
    :data:`MAX_BACKLOG_BYTES` is dropped."""

    def __init__(self, conn: ServerConnection) -> None:
        self.conn = conn
        self.backlog = 0
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._task = asyncio.create_task(self._run())
        self.dropped = False

    def put(self, text: str) -> bool:
        """Queue ``text``; False (and the connection cut) when the backlog is over."""
        if self.dropped:
            return False
        self.backlog += len(text)
        if self.backlog > MAX_BACKLOG_BYTES:
            self.dropped = True
            self.conn.transport.abort()  # it reads nothing: no goodbye can reach it
            return False
        self._queue.put_nowait(text)
        return True

    async def _run(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                return
            try:
                await self.conn.send(text)
            except ConnectionClosed:
                return
            finally:
                self.backlog -= len(text) if text is not None else 0

    async def drain(self, limit: float = CLOSE_DRAIN_S) -> None:
        """Wait (up to ``limit`` s) until everything queued is sent."""
        self._queue.put_nowait(None)
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._task), limit)

    def stop(self) -> None:
        self._task.cancel()


class HostController(GameController):
    """``play``'s controller as the host runs it: every action it starts is
    noted as a :class:`Begun` message, every line its recorder writes as a
    :class:`LineMsg`, for the host to send (:attr:`outbox`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.outbox: list[Begun | LineMsg] = []
        kwargs.setdefault("bot_delay", 0.0)
        super().__init__(*args, **kwargs)

    def _start(self, action: Action, aimed: Action | None = None) -> bool:
        player = self.state.active
        index = (self.recorder.actions if self.recorder is not None else len(self.actions)) + 1
        at = len(self.outbox)  # an ability settles inside _start: its begun goes before its line
        taken = super()._start(action, aimed)
        if taken:
            rec = None
            if isinstance(aimed, SupplyFlick | BoardFlick | SiegeShot):
                rec = AimedRec(
                    velocity=(aimed.velocity[0], aimed.velocity[1]),
                    spin=aimed.spin,
                    strike_mm=aimed.strike_mm,
                )
            self.outbox.insert(at, Begun(index=index, player=player, action=action.to_dict(),
                                         aimed=rec))  # fmt: skip
        return taken

    def _record(self, action: Action, outcome: Any) -> None:
        super()._record(action, outcome)
        self._note_line()

    def _finish_recording(self) -> None:
        done = self._finished
        super()._finish_recording()
        if not done:
            self._note_line()

    def _note_line(self) -> None:
        rec = self.recorder
        if rec is not None and rec.last_line is not None:
            self.outbox.append(LineMsg(line=rec.last_line))


@dataclass
class Seat:
    """A player of the game: a bot of the host's, or a human seat with its
    token and the connection playing it now (None: nobody)."""

    player: int
    token: str | None  # None: the host's bot plays it
    conn: ServerConnection | None = None
    address: str = ""

    @property
    def connected(self) -> bool:
        return self.token is None or self.conn is not None


def new_tokens(players: int, bots: Mapping[int, Policy]) -> dict[int, str]:
    """A random token (URL-safe, 128 bits) for every human player."""
    return {p: secrets.token_urlsafe(16) for p in range(players) if p not in bots}


@dataclass
class _Stats:
    """What the host has sent and received, for the closing figures."""

    sent_bytes: int = 0
    sent_messages: int = 0
    received_bytes: int = 0
    by_type: dict[str, int] = field(default_factory=dict)


class Host:
    """The server of one game (see the module docstring).

    Args:
        controller: the game, recording (a :class:`HostController`).
        tokens: human player -> token (every other player is a bot of
            ``controller``).
        wait: seconds the game waits for a human to (re)join when none is
            connected, then stops (recorded without a result, resumable).
        bot_delay: seconds the host's bots wait before each action (so
            that people can follow them; 0 in tests).
        say: where the host's own lines go (the command prints them).
        hello_timeout: seconds a new connection has to send its ``hello``
            before it is closed (:data:`HELLO_TIMEOUT`).
    """

    def __init__(
        self,
        controller: HostController,
        tokens: Mapping[int, str],
        *,
        wait: float = 600.0,
        bot_delay: float = 0.6,
        say: Callable[[str], None] = print,
        hello_timeout: float = HELLO_TIMEOUT,
    ) -> None:
        self.c = controller
        self.hello_timeout = hello_timeout
        players = controller.config.players
        self.seats = [Seat(p, tokens.get(p)) for p in range(players)]
        self.spectators: set[ServerConnection] = set()
        self.wait = wait
        self.bot_delay = bot_delay
        self.say = say
        self.stats = _Stats()
        self.lines: list[dict[str, Any]] = self._recorded_lines()
        self._lock = asyncio.Lock()
        self._done = asyncio.Event()
        self._outlets: dict[ServerConnection, _Outlet] = {}
        self._idle_since: float | None = time.monotonic()
        #: Why the game stopped (None while it goes on).
        self.ended: str | None = None

    # ------------------------------------------------------------ state

    def _recorded_lines(self) -> list[dict[str, Any]]:
        """The replay so far as its lines' objects (the header first): the
        file the recorder writes (a resumed game's earlier lines included)."""
        rec = self.c.recorder
        if rec is None:
            return []
        with open(rec.path, "rb") as fh:
            return [json.loads(line) for line in fh.read().splitlines() if line.strip()]

    def connected(self) -> list[bool]:
        return [s.connected for s in self.seats]

    def _humans_connected(self) -> bool:
        return any(s.token is not None and s.conn is not None for s in self.seats)

    def _has_humans(self) -> bool:
        return any(s.token is not None for s in self.seats)

    def turn(self) -> Turn:
        over = self.c.game.over
        n = self.c.recorder.actions if self.c.recorder is not None else len(self.c.actions)
        return Turn(player=None if over else self.c.state.active, actions=n,
                    connected=self.connected())  # fmt: skip

    # ------------------------------------------------------------ sending

    async def _send(self, conn: ServerConnection, message: msgspec.Struct) -> None:
        """Queue ``message`` for ``conn`` (its outlet sends it; never waits on
        the network, so it may be called under the game lock)."""
        outlet = self._outlets.get(conn)
        if outlet is None:
            return
        text = encode(message)
        self.stats.sent_bytes += len(text.encode())
        self.stats.sent_messages += 1
        kind = type(message).__name__
        self.stats.by_type[kind] = self.stats.by_type.get(kind, 0) + len(text.encode())
        was = outlet.dropped
        if not outlet.put(text) and not was:
            self.say(f"dropped {_address(conn)}: it did not read what was sent to it")

    def _everyone(self) -> list[ServerConnection]:
        return [s.conn for s in self.seats if s.conn is not None] + list(self.spectators)

    async def _broadcast(self, message: msgspec.Struct) -> None:
        for conn in self._everyone():
            await self._send(conn, message)

    async def _flush(self) -> None:
        """Send what the controller noted, in order (and keep the lines)."""
        while self.c.outbox:
            message = self.c.outbox.pop(0)
            if isinstance(message, LineMsg):
                self.lines.append(message.line)
            await self._broadcast(message)

    async def _error(self, conn: ServerConnection, code: str, text: str) -> None:
        await self._send(conn, ErrorMsg(code=code, message=text))  # type: ignore[arg-type]

    # ------------------------------------------------------------ game flow

    async def go_on(self) -> None:
        """Run the game on from where it stands until a human must act:
        flicks to rest, round screens passed, the host's bots played."""
        c = self.c
        while True:
            await self._flush()
            if c.phase is Phase.FLICKING:
                await asyncio.to_thread(c.finish_flick)
            elif c.phase is Phase.ROUND_OVER:
                c.proceed()
            elif c.phase is Phase.GAME_OVER:
                await self._flush()
                await self._broadcast(self.turn())
                self._end("the game is over")
                return
            elif c.phase is Phase.BOT:
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                await asyncio.to_thread(self._bot_launch)
            else:
                await self._broadcast(self.turn())
                return

    def _bot_launch(self) -> None:
        c = self.c
        c.play_for(c.bots[c.state.active])

    def stop(self, why: str) -> None:
        """End the game's serving (call it in the host's event loop, e.g.
        with ``loop.call_soon_threadsafe``): every connection is told
        ``why`` and :meth:`serve` returns it."""
        self._end(why)

    def _end(self, why: str) -> None:
        if self.ended is None:
            self.ended = why
        self._done.set()

    # ------------------------------------------------------------ connections

    async def handler(self, conn: ServerConnection) -> None:
        """One connection: its ``hello``, then its messages until it closes."""
        seat: Seat | None = None
        self._outlets[conn] = _Outlet(conn)
        try:
            seat, ok = await self._welcome(conn)
            if not ok:
                return
            outlet = self._outlets[conn]
            async for raw in conn:
                if outlet.dropped:
                    break  # what it sent before its drop is not answered
                self.stats.received_bytes += len(raw)
                await self._message(conn, seat, raw)
        except ConnectionClosed:
            pass
        finally:
            await self._left(conn, seat)
            gone = self._outlets.pop(conn, None)
            if gone is not None:
                gone.stop()

    async def _welcome(self, conn: ServerConnection) -> tuple[Seat | None, bool]:
        try:
            raw = await asyncio.wait_for(conn.recv(), self.hello_timeout)
        except TimeoutError:
            await self._close(conn, "malformed", f"no hello within {self.hello_timeout:g} s")
            return None, False
        self.stats.received_bytes += len(raw)
        try:
            hello = decode_client(raw)
        except ProtocolError as e:
            if "`$.token`" in str(e):  # not even shaped like a token: none of ours
                await self._close(conn, "token", "no seat of this game has that token "
                                  "(the host printed one line per seat)")  # fmt: skip
            else:
                await self._close(conn, "too_big" if "over the limit" in str(e) else "malformed",
                                  f"the first message must be a hello: {e}")  # fmt: skip
            return None, False
        if not isinstance(hello, Hello):
            await self._close(conn, "malformed", "the first message must be a hello")
            return None, False
        if hello.protocol != PROTOCOL:
            await self._close(conn, "protocol",
                f"this host speaks protocol {PROTOCOL} (warlords-sim {__version__}); the "
                f"client speaks {hello.protocol}: install the host's version to join")  # fmt: skip
            return None, False
        if hello.model != MODEL_VERSION:
            await self._close(conn, "model",
                f"this host simulates physics model {MODEL_VERSION}; the client {hello.model} "
                f"(every client re-simulates each flick): install the host's version "
                f"(warlords-sim {__version__}) to join")  # fmt: skip
            return None, False
        seat: Seat | None = None
        if hello.token is not None:
            seat = next((s for s in self.seats if s.token is not None
                         and secrets.compare_digest(s.token, hello.token)), None)  # fmt: skip
            if seat is None:
                await self._close(conn, "token", "no seat of this game has that token "
                                  "(the host printed one line per seat)")  # fmt: skip
                return None, False
        # taken, attached and sent the replay under the game lock: no line
        # can reach this connection before its seat message, nor be missed
        async with self._lock:
            taken = seat is not None and seat.conn is not None
            if taken:
                pass
            elif seat is not None:
                seat.conn = conn
                seat.address = _address(conn)
                self._idle_since = None
                self.say(f"player {seat.player} joined from {seat.address}")
            else:
                self.spectators.add(conn)
                self.say(f"a spectator joined from {_address(conn)}")
            if not taken:
                await self._send(conn, SeatMsg(protocol=PROTOCOL,
                    player=None if seat is None else seat.player,
                    replay=list(self.lines), connected=self.connected()))  # fmt: skip
                await self._send(conn, self.turn())
        if taken:
            assert seat is not None
            await self._close(conn, "taken", f"player {seat.player}'s seat is taken by a "
                              "connected client; close that one first (a client that "
                              "vanished frees its seat within a minute)")  # fmt: skip
            return None, False
        if seat is not None:
            await self._broadcast(self.turn())
        return seat, True

    async def _close(self, conn: ServerConnection, code: str, text: str) -> None:
        await self._error(conn, code, text)
        outlet = self._outlets.get(conn)
        if outlet is not None:
            await outlet.drain()
        with contextlib.suppress(ConnectionClosed):
            await conn.close(1008 if code != "too_big" else 1009, code)

    async def _left(self, conn: ServerConnection, seat: Seat | None) -> None:
        self.spectators.discard(conn)
        if seat is not None and seat.conn is conn:
            seat.conn = None
            if not self._done.is_set():
                self.say(f"player {seat.player} left; they can rejoin with their token")
            if not self._humans_connected():
                self._idle_since = time.monotonic()
            if not self._done.is_set():
                await self._broadcast(self.turn())

    async def _message(self, conn: ServerConnection, seat: Seat | None, raw: str | bytes) -> None:
        try:
            msg = decode_client(raw)
        except ProtocolError as e:
            code = "too_big" if "over the limit" in str(e) else "malformed"
            await self._error(conn, code, f"{e}; nothing changed")
            return
        if isinstance(msg, Hello):
            await self._error(conn, "malformed", "hello is the first message only; nothing changed")
        elif isinstance(msg, Bye):
            with contextlib.suppress(ConnectionClosed):
                await conn.close(1000, "bye")
        elif isinstance(msg, Sync):
            async with self._lock:
                await self._send(conn, self._state())
        elif isinstance(msg, Act):
            await self._act(conn, seat, msg)

    def _state(self) -> StateMsg:
        from warlords_sim.replay.snapshot import digest_of

        n = self.c.recorder.actions if self.c.recorder is not None else len(self.c.actions)
        return StateMsg(actions=n, digest=digest_of(self.c.game),
                        state=encode_state(self.c.state))  # fmt: skip

    async def _act(self, conn: ServerConnection, seat: Seat | None, msg: Act) -> None:
        if seat is None:
            await self._error(conn, "spectator", "a spectator cannot act (join with a seat's "
                              "token to play); nothing changed")  # fmt: skip
            return
        async with self._lock:
            c = self.c
            if c.game.over:
                await self._error(conn, "over", "the game is over; nothing changed")
                return
            if c.phase is not Phase.INPUT or c.state.active != seat.player:
                who = c.state.active
                await self._error(conn, "turn", f"not your turn: it is player {who}'s "
                                  f"(you are player {seat.player}); nothing changed")  # fmt: skip
                return
            action = to_action(msg.action)
            assert isinstance(action, Action)  # the protocol admits game actions only
            if not c.submit(action):
                await self._error(conn, "illegal", f"{c.message}; nothing changed")
                return
            await self.go_on()

    # ------------------------------------------------------------ serving

    async def serve(self, bind: str, port: int, ready: Callable[[int], None]) -> str:
        """Serve until the game ends or stops; returns why.

        ``ready`` is called with the port listened on (``port`` 0: one the
        system chose) once connections are taken.

        Raises:
            OSError: the address cannot be bound (taken, not this machine's).
        """
        async with serve(
            self.handler, bind, port, max_size=MAX_FRAME_BYTES, compression=None
        ) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            async with self._lock:
                await self.go_on()  # a bot may move first, a resumed game goes on
            ready(port)
            watcher = asyncio.create_task(self._watch_idle())
            await self._done.wait()
            watcher.cancel()
            everyone = self._everyone()
            for conn in everyone:
                await self._send(conn, Bye(reason=self.ended or "the host stopped"))
            outlets = [self._outlets[c] for c in everyone if c in self._outlets]
            await asyncio.gather(*(o.drain() for o in outlets))
            for conn in everyone:
                with contextlib.suppress(ConnectionClosed):
                    await conn.close(1000, "game over" if self.c.game.over else "host stopped")
        return self.ended or "the host stopped"

    async def _watch_idle(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, max(self.wait / 4, 0.05)))
            if not self._has_humans() or self._idle_since is None:
                continue
            if time.monotonic() - self._idle_since >= self.wait:
                self._end(f"no human player was connected for {self.wait:g} s")
                return


def _address(conn: ServerConnection) -> str:
    addr = conn.remote_address
    return f"{addr[0]}:{addr[1]}" if isinstance(addr, tuple) else str(addr)
