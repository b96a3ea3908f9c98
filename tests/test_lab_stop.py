"""Stopping the house-rule lab from outside (issue 12, fault 2), with real
processes: a plain ``kill`` (SIGTERM, as ``timeout`` and job schedulers send)
ends ``warlords-sim variants`` as cleanly as Ctrl-C (games kept, summary
written, no process left behind, exit 143); after ``kill -9`` of the command
its worker processes and the multiprocessing resource tracker exit on their
own within seconds; a second run into the same ``--out`` ends at once naming
the first one's pid; a ``--dask`` address where no scheduler answers ends
within ``--dask-timeout`` with one line and exit 2.

Before the fix a plain kill wrote no summary and, like kill -9, left both
workers and the resource tracker running forever, reparented to PID 1; a
peer that accepted the connection and said nothing hung ``--dask`` for good.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from waits import wait_for

from warlords_sim.experiments.store import read_rows

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

CLI = [sys.executable, "-c", "from warlords_sim.cli import main; main()", "variants"]


def _children(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (psutil if installed, else /proc)."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        return [c.pid for c in psutil.Process(pid).children(recursive=True)]
    if not Path("/proc").is_dir():
        pytest.skip("needs psutil or /proc to list child processes")
    parents: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:  # "pid (comm) state ppid ...": comm may hold spaces
                parents[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        found += kids
        todo += kids
    return found


def _running(pid: int) -> bool:
    """``pid`` exists and is not a zombie (an exited orphan that the PID 1 of
    a container may never reap)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def _wait_gone(pids: list[int], what: str) -> float:
    """Seconds until none of ``pids`` runs; fails naming those left after
    a generous timeout (the workers notice their parent has gone when they
    next look, a fraction of a second on an idle machine)."""
    try:
        return wait_for(what, lambda: not any(_running(p) for p in pids), interval=0.01)
    except AssertionError as e:
        raise AssertionError(f"{e}: {[p for p in pids if _running(p)]} still run") from None


def _start(tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path, list[int]]:
    """The lab on 2 workers with 30 one-round games, once 2 games are kept:
    (process, games.csv, its child processes). Its output goes to files
    (``err.txt``): workers left behind would hold a pipe open."""
    rules = tmp_path / "short.toml"
    rules.write_text("rounds = 1\n")
    out = tmp_path / "lab"
    args = ["--players", "2", "--games", "30", "--rules", str(rules), "--json"]
    with (tmp_path / "out.txt").open("wb") as o, (tmp_path / "err.txt").open("wb") as e:
        proc = subprocess.Popen(
            [*CLI, *args, "--workers", "2", "--out", str(out)],
            stdout=o,
            stderr=e,
            start_new_session=True,  # a signal to it reaches nothing else of the test
        )
    csv = out / "games.csv"
    wait_for(
        "two games kept in games.csv",
        lambda: csv.exists() and len(csv.read_text().splitlines()) >= 3,  # header + 2 games
        proc=proc,
    )
    assert proc.poll() is None, (tmp_path / "err.txt").read_text()
    kids = _children(proc.pid)
    assert len(kids) >= 3, kids  # two workers and the resource tracker
    return proc, csv, kids


@pytest.fixture
def reap() -> Iterator[list[int]]:
    """Pids a failing test must not leave running (killed at the end)."""
    pids: list[int] = []
    yield pids
    for p in pids:
        if _running(p):
            os.kill(p, signal.SIGKILL)


def test_sigterm_stops_like_ctrl_c(tmp_path: Path, reap: list[int]) -> None:
    proc, csv, kids = _start(tmp_path)
    reap += [proc.pid, *kids]
    os.kill(proc.pid, signal.SIGTERM)  # the command alone, as `kill PID` does
    proc.wait(timeout=60)
    err = (tmp_path / "err.txt").read_text()
    assert proc.returncode == 143, err
    lines = err.strip().splitlines()
    assert "Traceback" not in err and lines[-1].startswith("interrupted by SIGTERM: "), err
    kept = read_rows(csv)
    summary = json.loads((csv.parent / "summary.json").read_text())
    assert summary["complete"] is False
    assert summary["variants"][0]["games"] == len(kept)
    assert 2 <= len(kept) < 30
    _wait_gone(kids, "the workers gone after SIGTERM")


def test_workers_exit_after_kill_9_of_the_command(tmp_path: Path, reap: list[int]) -> None:
    proc, csv, kids = _start(tmp_path)
    reap += kids
    proc.kill()
    proc.wait(timeout=10)
    _wait_gone(kids, "the workers gone after kill -9 of the command")
    assert len(read_rows(csv)) >= 2  # what was kept stays readable


def test_a_second_run_into_the_same_folder_is_refused_while_the_first_runs(
    tmp_path: Path, reap: list[int]
) -> None:
    """Two runs into one --out at once wrote one games.csv together
    (duplicate games, the settings of one and the games of the other, wrong
    statistics). The second now ends at once, exit 2, naming the first's
    pid; killed outright (kill -9), the first leaves its lock behind with
    nothing locked, and the folder resumes."""
    rules = tmp_path / "short.toml"
    rules.write_text("rounds = 1\n")
    out = tmp_path / "lab"
    args = [*CLI, "--players", "2", "--rules", str(rules), "--workers", "1", "--out", str(out)]
    with (tmp_path / "err.txt").open("wb") as e:
        first = subprocess.Popen(
            [*args, "--games", "5000", "--json"],
            stdout=subprocess.DEVNULL,
            stderr=e,
            start_new_session=True,
        )
    reap.append(first.pid)
    csv = out / "games.csv"
    wait_for(
        "a game kept in games.csv",
        lambda: csv.exists() and len(csv.read_text().splitlines()) >= 2,  # header + a game
        proc=first,
    )
    assert first.poll() is None, (tmp_path / "err.txt").read_text()
    second = subprocess.run(
        [*args, "--games", "5000"], capture_output=True, text=True, timeout=60, check=False
    )
    assert second.returncode == 2, second.stderr
    assert second.stderr.strip().splitlines() == [
        f"warlords-sim: error: --out {out}: the folder is in use by another variants run "
        f"(pid {first.pid}); wait for it to finish or use another --out"
    ]
    assert first.poll() is None  # the first was not disturbed
    first.kill()
    first.wait(timeout=10)
    kept = read_rows(csv)
    third = subprocess.run(
        [*args, "--games", str(len(kept) + 1), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert third.returncode == 0, third.stderr
    rows = read_rows(csv)
    assert [r["index"] for r in rows] == list(range(len(kept) + 1))  # each game once
    assert json.loads(third.stdout)["variants"][0]["games"] == len(kept) + 1


@contextmanager
def _silent_peer() -> Iterator[int]:
    with socket.socket() as s:  # listens, so connections complete, and never answers
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        yield s.getsockname()[1]


@contextmanager
def _http_peer() -> Iterator[int]:
    with socket.socket() as s:  # answers as a web server would
        s.bind(("127.0.0.1", 0))
        s.listen(8)

        def serve() -> None:
            try:
                while True:
                    conn, _ = s.accept()
                    with conn:
                        conn.recv(4096)
                        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            except OSError:
                return

        threading.Thread(target=serve, daemon=True).start()
        yield s.getsockname()[1]


@pytest.mark.parametrize(
    ("peer", "message"),
    [(_silent_peer, "no dask scheduler answered"), (_http_peer, "is not a dask scheduler")],
)
def test_dask_address_that_is_no_scheduler_ends_in_time(
    peer: Callable[[], AbstractContextManager[int]], message: str
) -> None:
    """A Client alone hangs on the first peer for good, whatever its timeout,
    and reads the second's answer as a message of exabytes."""
    with peer() as port:
        res = subprocess.run(
            [*CLI, "--games", "1", "--dask", f"tcp://127.0.0.1:{port}", "--dask-timeout", "1"],
            capture_output=True,
            text=True,
            timeout=60,  # the interpreter's and dask's start-up, then 1 s
        )
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warlords-sim: error: --dask: "), lines
    assert message in lines[0]
