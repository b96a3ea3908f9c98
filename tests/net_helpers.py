"""Hosts and clients of network play for the tests: real processes on
real sockets on 127.0.0.1, every wait bounded (issue 21)."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from warlords_sim import __version__
from warlords_sim.physics import MODEL_VERSION

CLI = [sys.executable, "-c", "from warlords_sim.cli import main; main()"]
#: Longest a test waits for any one thing, s (a whole 4-player game of
#: bots takes about 20 s of CPU on the development machine).
LIMIT = 240.0


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["WARLORDS_SIM_DATA_DIR"] = str(tmp / "data")
    return env


class Proc:
    """A command of the package run in the background, its output lines
    read by a thread into a queue (so that a wait is bounded)."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.args = args
        self.p = subprocess.Popen(
            [*CLI, *args], cwd=cwd, env=_env(cwd), stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )  # fmt: skip
        self.lines: list[str] = []
        self._q: queue.Queue[str | None] = queue.Queue()
        self._t = threading.Thread(target=self._read, daemon=True)
        self._t.start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self._q.put(line.rstrip("\n"))
        self._q.put(None)

    def expect(self, pattern: str, limit: float = LIMIT) -> re.Match[str]:
        """The first line from now on matching ``pattern`` (a regex)."""
        end = time.monotonic() + limit
        while True:
            left = end - time.monotonic()
            if left <= 0:
                said = "\n".join(self.lines[-30:])
                raise TimeoutError(
                    f"{self.args[0]}: no line matching {pattern!r} in {limit:g} s; said:\n{said}"
                )
            try:
                line = self._q.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self._q.put(None)
                said = "\n".join(self.lines[-30:])
                raise EOFError(
                    f"{self.args[0]} ended (exit {self.p.wait()}) without a line matching "
                    f"{pattern!r}; said:\n{said}"
                )
            self.lines.append(line)
            m = re.search(pattern, line)
            if m:
                return m

    def wait(self, limit: float = LIMIT) -> int:
        """Its exit status, once its output is all read."""
        code = self.p.wait(limit)
        self._t.join(limit)
        while True:
            try:
                line = self._q.get_nowait()
            except queue.Empty:
                break
            if line is not None:
                self.lines.append(line)
        return code

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def kill(self) -> None:
        """``kill -9`` of the process (and anything it started)."""
        if self.p.poll() is None:
            os.killpg(self.p.pid, signal.SIGKILL)
        self.p.wait(LIMIT)


@dataclass
class Hosted:
    """A ``warlords-sim host`` run: its address and each human seat's token."""

    proc: Proc
    url: str
    tokens: dict[int, str] = field(default_factory=dict)


def start_host(tmp: Path, *args: str) -> Hosted:
    """``host --port 0`` (any free port) with ``args``, waited for until it
    listens; its join lines parsed."""
    proc = Proc(["host", "--port", "0", "--bot-delay", "0", *args], tmp)
    tokens: dict[int, str] = {}
    while True:
        m = proc.expect(r"^(P(\d) \(seat \d, \w+\)|watch): warlords-sim join (ws://\S+)")
        if m.group(1) == "watch":
            return Hosted(proc, m.group(3), tokens)
        line = proc.lines[-1]
        tokens[int(m.group(2))] = line.rsplit("--token ", 1)[1].strip()


def join(tmp: Path, url: str, *args: str, delay: float = 0.0) -> Proc:
    """``join URL ARGS``; a ``--bot`` waits ``delay`` s before each action."""
    return Proc(["join", url, "--bot-delay", str(delay), *args], tmp)


@contextmanager
def processes(*procs: Proc) -> Iterator[None]:
    """Kill whatever is left of ``procs`` (and any added later) at the end."""
    try:
        yield
    finally:
        for p in procs:
            p.kill()


def final_digest(proc: Proc) -> str:
    m = re.search(r"final digest ([0-9a-f]{64})", proc.text)
    assert m, proc.text[-2000:]
    return m.group(1)


def replay_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# ------------------------------------------------------------ a raw client


class Raw:
    """A bare protocol client (the hostile tests' and the latency probe's)."""

    def __init__(self, url: str, hello: dict[str, Any] | None = None, **fields: Any) -> None:
        self.ws: ClientConnection = connect(
            url, max_size=None, open_timeout=10, proxy=None, legacy=True
        )
        if hello is None:
            hello = {"type": "hello", "protocol": 1, "model": MODEL_VERSION,
                     "package": __version__, **fields}  # fmt: skip
        self.send(hello)

    def send(self, obj: Any) -> None:
        self.ws.send(obj if isinstance(obj, str | bytes) else json.dumps(obj))

    def recv(self, limit: float = 30.0) -> dict[str, Any]:
        return json.loads(self.ws.recv(limit))

    def until(self, kind: str, limit: float = 60.0) -> dict[str, Any]:
        """The next message of type ``kind`` (others skipped)."""
        end = time.monotonic() + limit
        while True:
            msg = self.recv(max(end - time.monotonic(), 0.01))
            if msg["type"] == kind:
                return msg

    def close(self) -> None:
        self.ws.close()
