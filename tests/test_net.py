"""Network play (issue 21): ``warlords-sim host`` and ``join`` over real
sockets on 127.0.0.1, every wait bounded.

Whole games between headless bot clients (the host's replay verifies and
every client ends on the host's final digest), a client killed and
rejoined, the host killed with ``kill -9`` and resumed, and the hostile
messages, each refused with an error that changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from net_helpers import (
    Hosted,
    Proc,
    Raw,
    final_digest,
    join,
    processes,
    replay_lines,
    start_host,
)
from websockets.exceptions import ConnectionClosed

from warlords_sim.board import load_board
from warlords_sim.net.protocol import (
    MAX_FRAME_BYTES,
    MAX_MESSAGE_BYTES,
    ProtocolError,
    decode_client,
)
from warlords_sim.replay import load_replay, verify
from warlords_sim.rules import GameConfig

GAME_2P = Path(__file__).resolve().parent.parent / "examples" / "replays" / "game-2p-standard.jsonl"
BOARD = load_board("standard")


def _verified(path: Path) -> dict[str, object]:
    """The replay verifies whole; its result line."""
    report = verify(load_replay(path))
    assert report.ok, report
    result = replay_lines(path)[-1]
    assert result["kind"] == "result"
    return result


def _whole_game(tmp_path: Path, players: int, *host_args: str) -> None:
    rec = tmp_path / "g.jsonl"
    h = start_host(tmp_path, "--players", str(players), "--hand", "exact",
                   "--record", str(rec), *host_args)  # fmt: skip
    clients = [join(tmp_path, h.url, "--token", t, "--bot", "aim", "--seed", str(p))
               for p, t in h.tokens.items()]  # fmt: skip
    watcher = join(tmp_path, h.url, "--headless")
    with processes(h.proc, watcher, *clients):
        for c in (*clients, watcher):
            assert c.wait() == 0, c.text[-2000:]
        assert h.proc.wait() == 0, h.proc.text[-2000:]
    result = _verified(rec)
    for c in (*clients, watcher):
        assert final_digest(c) == result["digest"]
        assert "; 0 actions differed from the host's" in c.text
    assert re.search(r"sent \d+ bytes in \d+ messages", h.proc.text)


def test_a_whole_two_player_game_between_bot_clients(tmp_path: Path) -> None:
    _whole_game(tmp_path, 2)


def test_a_whole_four_player_game_between_bot_clients(tmp_path: Path) -> None:
    _whole_game(tmp_path, 4)


def test_a_four_player_game_with_two_host_bots_and_a_club_hand(tmp_path: Path) -> None:
    """The host's bots play seats 1 and 3; the network seats' flicks go
    through a club hand drawn by the host: the replay's lines carry
    ``aimed`` and verify (the hand re-drawn), and the clients agree."""
    rec = tmp_path / "g.jsonl"
    h = start_host(tmp_path, "--players", "4", "--bots", "1,3", "--hand", "club",
                   "--record", str(rec))  # fmt: skip
    assert sorted(h.tokens) == [0, 2]
    clients = [join(tmp_path, h.url, "--token", t, "--bot", "aim") for t in h.tokens.values()]
    with processes(h.proc, *clients):
        for c in clients:
            assert c.wait() == 0, c.text[-2000:]
        assert h.proc.wait() == 0
    result = _verified(rec)
    assert any("aimed" in line for line in replay_lines(rec)[1:-1])
    assert all(final_digest(c) == result["digest"] for c in clients)


def _actions(path: Path) -> int:
    return sum(1 for line in replay_lines(path) if line["kind"] == "action")


def _wait_for_actions(h: Hosted, n: int) -> None:
    end = time.monotonic() + 120
    rec = Path(h.proc.args[h.proc.args.index("--record") + 1])
    while _actions(rec) < n:
        assert time.monotonic() < end, f"the game did not reach {n} actions"
        assert h.proc.p.poll() is None, h.proc.text
        time.sleep(0.05)


def test_a_client_killed_mid_game_rejoins_with_its_token(tmp_path: Path) -> None:
    """P1's client is killed (``kill -9``) after 12 actions; the host
    waits; the same command joins again, gets the game where it stands and
    plays it to the end on the host's digest."""
    rec = tmp_path / "g.jsonl"
    h = start_host(tmp_path, "--hand", "exact", "--record", str(rec))
    a = join(tmp_path, h.url, "--token", h.tokens[0], "--bot", "aim", delay=0.05)
    b = join(tmp_path, h.url, "--token", h.tokens[1], "--bot", "aim", "--seed", "1", delay=0.05)
    with processes(h.proc, a, b):
        _wait_for_actions(h, 12)
        b.kill()
        h.proc.expect(r"player 1 left")
        b2 = join(tmp_path, h.url, "--token", h.tokens[1], "--bot", "aim", "--seed", "1")
        with processes(b2):
            m = b2.expect(r"joined .*: playing P1, the game after action (\d+)")
            assert int(m.group(1)) >= 12
            assert b2.wait() == 0 and a.wait() == 0, b2.text[-2000:]
            assert h.proc.wait() == 0
    result = _verified(rec)
    assert final_digest(b2) == final_digest(a) == result["digest"]


def test_the_host_killed_mid_game_resumes_from_its_replay(tmp_path: Path) -> None:
    """``kill -9`` of the host after 15 actions leaves a replay without a
    result; the clients say the connection is lost; ``host --resume``
    prints new tokens and the game goes on to a result that verifies."""
    rec = tmp_path / "g.jsonl"
    h = start_host(tmp_path, "--hand", "exact", "--record", str(rec))
    a = join(tmp_path, h.url, "--token", h.tokens[0], "--bot", "aim", delay=0.05)
    b = join(tmp_path, h.url, "--token", h.tokens[1], "--bot", "aim", delay=0.05)
    with processes(h.proc, a, b):
        _wait_for_actions(h, 15)
        h.proc.kill()
        for c in (a, b):
            assert c.wait() == 1  # the host went away mid-game
            assert "the connection to the host was lost" in c.text, c.text[-1500:]
            assert "run the same join line again once the host is back" in c.text
    kept = load_replay(rec)
    assert kept.result is None and len(kept.actions) >= 15
    h2 = start_host(tmp_path, "--resume", str(rec))
    assert sorted(h2.tokens) == [0, 1] and h2.tokens[0] != h.tokens[0]
    assert f"resuming {rec} after action {len(kept.actions)}" in h2.proc.text
    a2 = join(tmp_path, h2.url, "--token", h2.tokens[0], "--bot", "aim")
    b2 = join(tmp_path, h2.url, "--token", h2.tokens[1], "--bot", "aim")
    with processes(h2.proc, a2, b2):
        assert a2.wait() == 0 and b2.wait() == 0, a2.text[-1500:]
        assert h2.proc.wait() == 0
    result = _verified(rec)
    assert final_digest(a2) == result["digest"]


def test_a_game_with_nobody_left_stops_recorded_and_says_how_to_go_on(tmp_path: Path) -> None:
    """P0 flicks once and leaves; after ``--wait`` the host stops on its
    own (exit 0), the game recorded with its action, and says how to go on.
    With ``--force`` over an existing file, the file is replaced then."""
    rec = tmp_path / "g.jsonl"
    rec.write_text("an old file\n")
    h = start_host(tmp_path, "--record", str(rec), "--force", "--wait", "1", "--hand", "exact")
    with processes(h.proc):
        p0 = Raw(h.url, token=h.tokens[0])
        assert p0.until("seat")["player"] == 0
        p0.send({"type": "act", "action": _flick()})
        assert p0.until("line")["line"]["index"] == 1
        p0.close()
        assert h.proc.wait() == 0
    assert "no human player was connected for 1 s" in h.proc.text
    assert f"warlords-sim host --resume {rec}" in h.proc.text
    kept = load_replay(rec)
    assert kept.result is None and len(kept.actions) == 1
    assert not list(tmp_path.glob(".g.*.partial.jsonl"))


@pytest.mark.parametrize(("sig", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_host_stopped_by_a_signal_exits_128_plus_it_and_says_how_to_go_on(
    tmp_path: Path, sig: str, status: int
) -> None:
    """As every command (README): Ctrl+C or a SIGTERM ends the host with
    130 or 143, saying which signal, where the game is and the command that
    continues it; a game stopped before its first action leaves no file."""
    import signal

    rec = tmp_path / "g.jsonl"
    h = start_host(tmp_path, "--record", str(rec), "--hand", "exact")
    watcher = join(tmp_path, h.url, "--headless")
    with processes(h.proc, watcher):
        watcher.expect(r"^joined ")
        p0 = Raw(h.url, token=h.tokens[0])
        p0.until("seat")
        p0.send({"type": "act", "action": _flick()})
        p0.until("line")
        h.proc.p.send_signal(getattr(signal, sig))
        assert p0.until("bye")["reason"] == f"stopped ({sig})"  # a goodbye to everyone
        assert h.proc.wait() == status, h.proc.text
        assert watcher.wait() == 1
    assert f"the host ended the game here: stopped ({sig})" in watcher.text
    assert "to join again" not in watcher.text  # a resumed host prints new lines
    assert f"stopped ({sig})" in h.proc.text
    assert f"warlords-sim host --resume {rec}" in h.proc.text
    assert len(load_replay(rec).actions) == 1

    empty = tmp_path / "empty.jsonl"
    h = start_host(tmp_path, "--record", str(empty))
    with processes(h.proc):
        h.proc.p.send_signal(getattr(signal, sig))
        assert h.proc.wait() == status
    assert "nothing was recorded" in h.proc.text and not empty.exists()


def test_a_port_in_use_is_one_line_and_leaves_no_file(tmp_path: Path) -> None:
    h = start_host(tmp_path, "--record", str(tmp_path / "first.jsonl"))
    port = h.url.rsplit(":", 1)[1]
    rec = tmp_path / "second.jsonl"
    with processes(h.proc):
        p = Proc(["host", "--port", port, "--record", str(rec)], tmp_path)
        with processes(p):
            assert p.wait() == 2
    assert f"cannot listen on 127.0.0.1:{port}" in p.text and "try another --port" in p.text
    assert "Traceback" not in p.text and not rec.exists()


# ------------------------------------------------------------ hostile messages


def _flick(area: int = 2) -> dict[str, object]:
    return {"type": "supply_flick", "area": area, "crenelation": "high",
            "velocity": [0.0, 600.0], "face": 1}  # fmt: skip


def _refused(ws: Raw, code: str, msg: object) -> str:
    ws.send(msg)
    got = ws.until("error")
    assert got["code"] == code, got
    return str(got["message"])


def _closed_with(hello: dict[str, object] | None, url: str, code: str, **fields: object) -> str:
    ws = Raw(url, hello, **fields)
    got = ws.recv()
    assert got["type"] == "error" and got["code"] == code, got
    with pytest.raises(ConnectionClosed):
        ws.recv(10)
    return str(got["message"])


def test_hostile_messages_are_refused_and_change_nothing(tmp_path: Path) -> None:
    """Each of these gets an ``error`` naming what was wrong, and the
    replay on disk stays as it was (its header only, then one action once
    P0 sends a good one). Nobody acts for another seat."""
    rec = tmp_path / "g.jsonl"
    h = start_host(tmp_path, "--record", str(rec), "--hand", "exact")
    config = GameConfig(BOARD, 2)
    p1_die = next(d for d in range(12) if config.owner(d) == 1)
    with processes(h.proc):
        for version in (99, 0):  # newer and older: only this protocol is let in
            hello = {"type": "hello", "protocol": version, "model": "x"}
            assert "protocol 1" in _closed_with(hello, h.url, "protocol")
        from warlords_sim import __version__

        hello = {"type": "hello", "protocol": 1, "model": "2.5d-1", "package": __version__}
        assert "physics model" in _closed_with(hello, h.url, "model")
        assert "no seat" in _closed_with(None, h.url, "token", token="wrong")
        assert "hello" in _closed_with({"type": "act", "action": _flick()}, h.url, "malformed")
        assert "hello" in _closed_with("not json", h.url, "malformed")  # type: ignore[arg-type]

        p0 = Raw(h.url, token=h.tokens[0])
        assert p0.until("seat")["player"] == 0
        assert "taken" in _closed_with(None, h.url, "taken", token=h.tokens[0])
        p1 = Raw(h.url, token=h.tokens[1])
        assert p1.until("seat")["player"] == 1
        watcher = Raw(h.url)
        assert watcher.until("seat")["player"] is None

        assert "not your turn" in _refused(p1, "turn", {"type": "act", "action": _flick()})
        flick_p1_die = {"type": "board_flick", "die": p1_die, "velocity": [0.0, 500.0]}
        assert "nothing changed" in _refused(p0, "illegal", {"type": "act",
                                                              "action": flick_p1_die})  # fmt: skip
        assert "spectator" in _refused(watcher, "spectator", {"type": "act", "action": _flick()})
        _refused(p0, "malformed", "{not json")
        _refused(p0, "malformed", {"type": "act", "action": {"type": "flick", "die": 0}})
        _refused(p0, "malformed", {"type": "act", "action": _flick(area=7)})
        _refused(p0, "malformed", '{"type":"act","action":{"type":"supply_flick","area":2,'
                 '"crenelation":"high","velocity":[1e999,0]}}')  # fmt: skip
        _refused(p0, "malformed", {"type": "hello", "protocol": 1, "model": "2.5d-11"})
        _refused(p0, "malformed", {"type": "act", "action": _flick(), "extra": 1})
        too_big = json.dumps({"type": "bye", "reason": "x" * (MAX_MESSAGE_BYTES + 10)})
        assert "over the limit" in _refused(p0, "too_big", too_big)
        fast = {**_flick(), "velocity": [0.0, 1e6]}
        assert "nothing changed" in _refused(p0, "illegal", {"type": "act", "action": fast})
        assert _actions(rec) == 0

        p0.send({"type": "act", "action": _flick()})  # a good one goes through
        assert p0.until("begun")["index"] == 1
        line = p0.until("line")["line"]
        assert line["index"] == 1 and line["player"] == 0
        assert watcher.until("line")["line"]["digest"] == line["digest"]
        assert _actions(rec) == 1

        huge = "x" * (MAX_FRAME_BYTES + 1)
        p1.send(huge)
        with pytest.raises(ConnectionClosed) as e:
            for _ in range(100):  # the messages of the flick above, then the close
                p1.recv(10)
        assert e.value.rcvd is not None and e.value.rcvd.code == 1009
        for ws in (p0, watcher):
            ws.close()
        assert _actions(rec) == 1


def test_a_connection_that_never_says_hello_is_closed_and_the_seat_stays_free() -> None:
    """A client that connects and says nothing (a slow-loris) gets an
    ``error`` after the host's hello timeout and is closed; the seat it
    could have taken is still free for its player (host in this process,
    with a 0.5 s timeout)."""
    import asyncio
    import queue
    import threading

    from websockets.sync.client import connect

    from warlords_sim.net.host import Host, HostController, new_tokens

    c = HostController(GameConfig(BOARD, 2), {}, seed=0)
    tokens = new_tokens(2, c.bots)
    host = Host(c, tokens, bot_delay=0.0, say=lambda _: None, hello_timeout=0.5)
    ready: queue.Queue[tuple[asyncio.AbstractEventLoop, int]] = queue.Queue()

    async def serve() -> str:
        loop = asyncio.get_running_loop()
        return await host.serve("127.0.0.1", 0, lambda port: ready.put((loop, port)))

    t = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    t.start()
    loop, port = ready.get(timeout=30)
    url = f"ws://127.0.0.1:{port}"
    try:
        with connect(url, open_timeout=10, proxy=None) as ws:
            t0 = time.monotonic()
            msg = json.loads(ws.recv(10))
            assert msg["type"] == "error" and msg["code"] == "malformed", msg
            assert "no hello within 0.5 s" in msg["message"]
            with pytest.raises(ConnectionClosed):
                ws.recv(10)
            assert 0.4 < time.monotonic() - t0 < 10
        p0 = Raw(url, token=tokens[0])
        assert p0.until("seat")["player"] == 0
        p0.close()
    finally:
        loop.call_soon_threadsafe(host.stop, "the test is over")
        t.join(30)
    assert not t.is_alive() and host.ended == "the test is over"


def test_a_spectator_that_never_reads_cannot_freeze_the_game(tmp_path: Path) -> None:
    """Saved case (issue 21's hostile run): a spectator, no token needed,
    sent 3000 ``sync`` and read nothing; the host answered each under the
    game lock and waited on its full send buffer, and for 200+ s nobody
    could join or act. Now each connection has its own outlet: the players
    join and play at once, and the reader-less client is dropped when its
    backlog passes the limit."""
    import os
    import socket
    import struct

    from warlords_sim import __version__
    from warlords_sim.physics import MODEL_VERSION

    def frame(data: bytes) -> bytes:
        mask = os.urandom(4)
        head = struct.pack("!BBH", 0x81, 0x80 | 126, len(data)) if len(data) > 125 else \
            struct.pack("!BB", 0x81, 0x80 | len(data))  # fmt: skip
        return head + mask + bytes(c ^ mask[i % 4] for i, c in enumerate(data))

    h = start_host(tmp_path, "--hand", "exact")
    host, port = h.url.removeprefix("ws://").rsplit(":", 1)
    with processes(h.proc):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect((host, int(port)))
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                  b"Sec-WebSocket-Version: 13\r\n\r\n")  # fmt: skip
        hello = json.dumps({"type": "hello", "protocol": 1, "model": MODEL_VERSION,
                            "package": __version__})  # fmt: skip
        s.sendall(frame(hello.encode()))
        s.setblocking(False)
        sent = 0
        try:
            for _ in range(3000):
                s.send(frame(b'{"type":"sync"}'))
                sent += 1
        except BlockingIOError:
            pass
        try:
            assert sent > 100
            t0 = time.monotonic()
            p0 = Raw(h.url, token=h.tokens[0])
            assert p0.until("seat", 15)["player"] == 0
            p0.send({"type": "act", "action": _flick()})
            assert p0.until("line", 15)["line"]["index"] == 1
            assert time.monotonic() - t0 < 15
            p0.close()
        finally:
            s.close()


def test_the_protocol_decoder_refuses_what_is_not_a_client_message() -> None:
    """Unit level: each of these is a ProtocolError naming the place."""
    for text in (
        "[]",
        "{}",
        '{"type":"act"}',
        '{"type":"act","action":{"type":"decline","x":1}}',
        '{"type":"hello","protocol":"1","model":"m"}',
        "x" * (MAX_MESSAGE_BYTES + 1),
    ):
        with pytest.raises(ProtocolError):
            decode_client(text)
    assert decode_client('{"type":"sync"}').__class__.__name__ == "Sync"


def test_join_refuses_a_headless_seat_that_would_play_nothing() -> None:
    """New-user run: ``join --token T --headless`` held the seat (the
    player's own window was then refused as "taken") and played nothing."""
    from click.testing import CliRunner

    from warlords_sim.cli import main

    res = CliRunner().invoke(main, ["join", "ws://127.0.0.1:1", "--token", "abc", "--headless"])
    assert res.exit_code == 2
    assert "add --bot NAME to play it headless, or drop --token to watch" in res.output


# ------------------------------------------------------------ the hostile run's findings


def _fake_host(then: list[dict[str, object]], player: int | None = 0) -> tuple[str, Any]:
    """A WebSocket server in a thread that answers a hello with the seat of
    a fresh 2-player game (the example's header), then sends ``then``."""
    import threading

    from websockets.sync.server import serve

    header = json.loads(GAME_2P.read_text().splitlines()[0])
    header["bots"] = ["human", "human"]

    def handler(ws: Any) -> None:
        ws.recv(10)
        ws.send(json.dumps({"type": "seat", "protocol": 1, "player": player,
                            "replay": [header], "connected": [True, True]}))  # fmt: skip
        for msg in then:
            ws.send(json.dumps(msg))
        with contextlib.suppress(Exception):
            ws.recv(30)

    server = serve(handler, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"ws://127.0.0.1:{server.socket.getsockname()[1]}", server


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "begun", "index": 1, "player": 0, "action": {"type": "nonsense"}},
        {"type": "line", "line": {"kind": "action", "index": "x", "digest": "d"}},
    ],
)
def test_a_client_survives_a_host_that_sends_nonsense(bad: dict[str, object]) -> None:
    """Hostile run: a host's ``begun`` with an unknown action, or a line
    with a non-numeric index, raised a traceback in ``join``. Now the client
    ends the connection and says why."""
    from warlords_sim.net.client import join as connect

    url, server = _fake_host([bad])
    try:
        c = connect(url, "tok")
        end = time.monotonic() + 20
        while c.closed is None and time.monotonic() < end:
            c.pump(0.05)
        assert c.closed is not None and "cannot use" in c.closed, c.closed
    finally:
        server.shutdown()


def test_a_host_giving_a_player_outside_the_game_is_refused() -> None:
    from warlords_sim.net.client import JoinError
    from warlords_sim.net.client import join as connect

    url, server = _fake_host([], player=7)
    try:
        with pytest.raises(JoinError, match="player 7 of a 2-player game"):
            connect(url, "tok")
    finally:
        server.shutdown()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["ws://127.0.0.1:99999", "--headless"], "is not a WebSocket address: Port out of range"),
        (["ws://127.0.0.1:1", "--token", "ABC.", "--bot", "aim"], "--token: 'ABC.' is not a"),
        (["ws://127.0.0.1:1", "--token", "a b", "--bot", "aim"], "is not a seat's token"),
    ],
)
def test_join_bad_input_is_one_line(args: list[str], said: str) -> None:
    from click.testing import CliRunner

    from warlords_sim.cli import main

    res = CliRunner().invoke(main, ["join", *args])
    assert res.exit_code == 2, res.output
    assert said in res.output and "Traceback" not in res.output


def test_a_token_not_shaped_like_one_gets_the_wrong_token_sentence(tmp_path: Path) -> None:
    h = start_host(tmp_path)
    with processes(h.proc):
        for token in ("ABC.", "x" * 129, "a b"):
            assert "no seat of this game has that token" in _closed_with(
                None, h.url, "token", token=token
            )


def test_a_hand_seat_refuses_an_aimed_flick_out_of_bounds(tmp_path: Path) -> None:
    """Hostile run: with a hand (club, the default) any finite aim was taken
    and clamped (velocity 1e308 delivered at 2000 mm/s, ``aimed`` recorded as
    1e+308); an exact seat refused it. Both now refuse, nothing recorded."""
    rec = tmp_path / "g.jsonl"
    h = start_host(tmp_path, "--record", str(rec))  # club hands
    with processes(h.proc):
        p0 = Raw(h.url, token=h.tokens[0])
        p0.until("seat")
        for bad in ({**_flick(), "velocity": [1e308, 1e308]}, {**_flick(), "spin": 1e6},
                    {**_flick(), "strike_mm": 1e300}):  # fmt: skip
            assert "nothing changed" in _refused(p0, "illegal", {"type": "act", "action": bad})
        assert _actions(rec) == 0
        p0.send({"type": "act", "action": _flick()})
        assert p0.until("line")["line"]["index"] == 1
        p0.close()


def test_host_resume_refuses_a_game_of_bots_only(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from warlords_sim.cli import main

    cut = tmp_path / "bots.jsonl"
    cut.write_bytes(b"".join(GAME_2P.read_bytes().splitlines(keepends=True)[:11]))
    res = CliRunner().invoke(main, ["host", "--resume", str(cut), "--port", "0"])
    assert res.exit_code == 2 and "every player of this game is a bot" in res.output
    from warlords_sim.gui.playback import resume_game

    c, _ = resume_game(cut)  # the file is not held: play --resume can take it
    assert c.recorder is not None
    c.recorder.close()


def test_the_size_limit_takes_a_message_of_exactly_the_limit() -> None:
    """Guards the decoder's size bound (``len > MAX_MESSAGE_BYTES``; a ``>=``
    refused a message of exactly the documented largest size): a ``sync``
    padded with JSON whitespace to 16 KiB is read, one byte more is refused
    naming the limit."""
    assert MAX_MESSAGE_BYTES == 16 * 1024
    sync = '{"type":"sync"}'
    at = sync + " " * (MAX_MESSAGE_BYTES - len(sync))
    assert len(at.encode()) == MAX_MESSAGE_BYTES
    assert decode_client(at).__class__.__name__ == "Sync"
    with pytest.raises(ProtocolError, match=f"over the limit of {MAX_MESSAGE_BYTES}"):
        decode_client(at + " ")
