"""Hostile shared files (issue 18, item 3): each built in a temporary folder,
its command run in a child process under a memory cap, and a table of the
exit status, peak memory, time and the line(s) each gets.

A shared board, house-rules file, replay or lab folder, or a file in our own
cache, must be refused with one line naming the file and the field (exit 2)
in bounded time and memory; a bad launch-table cache is ignored and rebuilt
(exit 0 and one warning); a full disk names the file; a render killed with
-9 leaves nothing the next render keeps. Each case is run as
``warlords-sim ARGS`` in a fresh interpreter with the checkout first on the
path, under ``RLIMIT_AS`` = ``--mem-cap``; peak memory is the child's
``ru_maxrss`` (``os.wait4``), time its wall-clock seconds; a case still
running after ``--timeout`` (30 s for the FIFO cases) is killed and shown
as hung. The three escape-code cases run on a pseudo-terminal (click
strips ANSI sequences only when it does not write to one) and ``ctl`` says
whether the file's control sequence reached it. With ``--against
CHECKOUT`` (another checkout, e.g. main before the change) every case runs
on both, the table side by side.

The full-disk cases need a small file system: ``--full-disk DIR`` (an empty
folder on one), or, run as root on Linux, a 1 MB tmpfs mounted under the
temporary folder for the run (and unmounted after); else they are skipped,
as is ``play --screenshot`` without ``xvfb-run``.

Run:  python benchmarks/hostile.py [--against CHECKOUT] [--only NAME,...]
      [--mem-cap MB] [--timeout S] [--full-disk DIR] [--list]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pty
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_RUN = "import sys; from warlords_sim.cli import main; sys.argv[0] = 'warlords-sim'; main()"
#: Control characters, shown as ``\xNN`` in the messages printed here.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
STANDARD = ROOT / "boards" / "standard.toml"
GAME = ROOT / "examples" / "replays" / "game-2p-standard.jsonl"


@dataclass
class Ctx:
    """Where a case runs: its folder, the checkout under test, the shared cache."""

    dir: Path
    checkout: Path
    cache: Path
    full: Path | None = None  # the small file system, emptied for the case
    env: dict[str, str] = field(default_factory=dict)  # the case's own variables
    notes: dict[str, str] = field(default_factory=dict)  # what a build saw, for `after`

    def python(self, code: str) -> str:
        """Output of ``code`` run with the checkout first on the path."""
        out = subprocess.run(
            [sys.executable, "-c", code], env=_env(self.checkout, self.cache), check=True,
            capture_output=True, text=True, cwd=self.dir, timeout=300,
        )  # fmt: skip
        return out.stdout


@dataclass
class Case:
    name: str
    what: str
    build: Callable[[Ctx], list[str]]  # makes the files, returns the arguments
    full_disk: bool = False
    timeout: float | None = None
    after: Callable[[Ctx], str] | None = None  # a note on what is left behind
    #: run on a terminal (a pty: click keeps ANSI sequences only there), and
    #: the file's control sequence that must not reach it
    payload: bytes | None = None
    display: bool = False  # needs a display: run under xvfb-run (skipped without it)


def _env(checkout: Path, cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(checkout), env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep
    )
    env["WARLORDS_SIM_CACHE_DIR"] = str(cache)
    env["WARLORDS_SIM_DATA_DIR"] = str(cache.parent / "data")
    env.pop("DISPLAY", None)
    env["COLUMNS"] = "120"
    return env


# ------------------------------------------------------------------ files


def _board_text(old: str | None = None, new: str = "", count: int = 1) -> str:
    text = STANDARD.read_text(encoding="utf-8")
    if old is not None:
        assert old in text, old
        text = text.replace(old, new, count)
    return text


def _write(ctx: Ctx, name: str, data: str | bytes) -> str:
    path = ctx.dir / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return str(path)


def _escaped_dotted(parts: int) -> str:
    """A dotted key of ``parts`` parts, each ``"\\""`` (a quote, escaped)."""
    return ".".join(['"\\""'] * parts) + " = 1\n"


def _game_lines() -> list[bytes]:
    return GAME.read_bytes().split(b"\n")


def _with_header_field(extra: bytes) -> bytes:
    lines = _game_lines()
    return b"\n".join([lines[0][:-1] + b"," + extra + b"}", *lines[1:]])


def _with_action_field(name: str, value: bytes) -> bytes:
    lines = _game_lines()
    obj = json.loads(lines[1])
    obj[name] = "@@"
    text = json.dumps(obj, separators=(",", ":")).encode().replace(b'"@@"', value)
    return b"\n".join([lines[0], text, *lines[2:]])


_LONG_MASS = "mass_g = " + "9" * 5000
#: A wall added before the back wall (the text that replaces the back wall's header).
_WALL = "  [[castle.walls]]\n  rect = [{}]\n  height_mm = 40.0\n  [[castle.walls]]"


def _ints(n: int) -> bytes:
    """A header field ``"x"`` holding ``n`` zeros."""
    return b'"x":[' + b"0," * (n - 1) + b"0]"


def _diverging_escape() -> bytes:
    """The first action flicked harder (so verify diverges there) with an
    ESC sequence in its summary."""
    lines = _game_lines()
    obj = json.loads(lines[1])
    obj["action"]["velocity"][1] += 200.0
    obj["summary"] = "\x1b[2J\x1b]0;pwned\x07cleared"
    return b"\n".join([lines[0], json.dumps(obj).encode(), *lines[2:]])


def _cache_files(ctx: Ctx, cache: Path) -> list[Path]:
    """The launch-table cache files the standard board's aim bots read."""
    code = (
        "from warlords_sim.board import load_board\n"
        "from warlords_sim.bots import launch as L\n"
        "from warlords_sim.physics.types import LaunchKind as K\n"
        "b = load_board('standard')\n"
        "for h, k in ((b.low_crenelation_mm, K.LOW), (b.high_crenelation_mm, K.HIGH),"
        " (b.siege_engine.launch_height_mm, K.SIEGE)):\n"
        "    print(f'launch-{L._key(b, h, k)[:32]}.json')\n"
    )
    return [cache / n for n in ctx.python(code).split()]


def _bad_cache(kind: str) -> Callable[[Ctx], list[str]]:
    def build(ctx: Ctx) -> list[str]:
        cache = ctx.dir / "cache"
        cache.mkdir()
        ctx.env["WARLORDS_SIM_CACHE_DIR"] = str(cache)
        for path in _cache_files(ctx, cache):
            if kind == "fifo":
                os.mkfifo(path)
            else:
                path.symlink_to("/dev/zero")
        return ["simulate", "--players", "2", "--seed", "1"]

    return build


_LAB = ["variants", "--players", "2", "--games", "1", "--workers", "1", "--bots", "random"]


def _lab(kind: str) -> Callable[[Ctx], list[str]]:
    def build(ctx: Ctx) -> list[str]:
        lab = ctx.dir / "lab"
        _run_quietly(ctx, [*_LAB, "--out", str(lab)])
        csv = lab / "games.csv"
        if kind == "fifo":
            csv.unlink()
            os.mkfifo(csv)
        elif kind == "zero":
            csv.unlink()
            csv.symlink_to("/dev/zero")
        else:
            lines = csv.read_text(encoding="utf-8").splitlines()
            cells = lines[1].split(",")
            cells[1] = "x" * ((128 << 10) + 1)  # just over csv's field limit
            csv.write_text("\n".join([lines[0], ",".join(cells), *lines[2:]]) + "\n")
        return [*_LAB, "--games", "2", "--out", str(lab)]

    return build


def _run_quietly(ctx: Ctx, args: list[str]) -> None:
    env = _env(ctx.checkout, ctx.cache)
    subprocess.run(
        [sys.executable, "-c", _RUN, *args], env=env, cwd=ctx.dir, check=True,
        capture_output=True, timeout=600,
    )  # fmt: skip


def _fill(ctx: Ctx, free_kb: int) -> None:
    """Empty the small file system and leave about ``free_kb`` kB free."""
    assert ctx.full is not None
    for p in ctx.full.iterdir():
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        else:
            p.unlink()
    st = os.statvfs(ctx.full)
    left = st.f_bavail * st.f_frsize - free_kb * 1024
    with open(ctx.full / "filler", "wb") as f:
        while left > 0:
            try:
                left -= f.write(b"\0" * min(left, 1 << 16))
            except OSError:
                break


def _full(free_kb: int, args: Callable[[Ctx], list[str]]) -> Callable[[Ctx], list[str]]:
    def build(ctx: Ctx) -> list[str]:
        result = args(ctx)  # before filling: it may need room of its own
        _fill(ctx, free_kb)
        return result

    return build


def _left_on_full(ctx: Ctx) -> str:
    assert ctx.full is not None
    return _listing(ctx.full, skip={"filler"})


def _listing(folder: Path, skip: set[str] = frozenset()) -> str:  # type: ignore[assignment]
    files = []
    for p in sorted(folder.rglob("*")):
        if p.name in skip or p.is_dir():
            continue
        files.append(f"{p.relative_to(folder)} ({p.lstat().st_size} B)")
    return "left: " + (", ".join(files) if files else "nothing")


def _render_killed(ctx: Ctx) -> list[str]:
    """``render`` killed with -9 while it draws; the case's own command is a
    second render to the same --out, and the note lists what is left."""
    out = ctx.dir / "shots"
    out.mkdir()
    env = _env(ctx.checkout, ctx.cache) | ctx.env
    args = ["render", str(GAME), "--out", str(out / "g.gif"), "--to", "40", "--size", "160"]
    proc = subprocess.Popen(
        [sys.executable, "-c", _RUN, *args], env=env, cwd=ctx.dir,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(out.iterdir()):
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    ctx.notes["killed"] = _listing(out)
    time.sleep(2.5)  # a partial file younger than 2 s may be a live writer's (see _files)
    return ["render", str(GAME), "--out", str(out / "g.gif"), "--to", "2", "--size", "160"]


def _after_render(ctx: Ctx) -> str:
    again = _listing(ctx.dir / "shots").removeprefix("left: ")
    return f"after kill -9: {ctx.notes['killed']}; after the next render: {again}"


CASES: list[Case] = [
    Case(
        "rules-dotted-escaped",
        'rules file: a dotted key of 13 100 parts `"\\""` (64 kB)',
        lambda c: ["simulate", "--rules", _write(c, "r.toml", _escaped_dotted(13_100))],
    ),
    Case(
        "board-dotted-escaped",
        'board: a dotted key of 21 000 parts `"\\""` (105 kB)',
        lambda c: ["board", _write(c, "b.toml", _escaped_dotted(21_000) + _board_text())],
    ),
    Case(
        "replay-31M-ints",
        "replay: a header field holding 31 million integers (62 MB)",
        lambda c: [
            "replay",
            _write(c, "r.jsonl", _with_header_field(_ints(31_000_000))),
            "--verify",
        ],
    ),
    Case(
        "replay-dice-1M",
        "replay: an action's `dice` of a million entries",
        lambda c: [
            "replay",
            _write(
                c,
                "r.jsonl",
                _with_action_field(
                    "dice", b"[" + b",".join([b'[0,0.5,0.5,0.0,1,"board"]'] * 1_000_000) + b"]"
                ),
            ),
            "--verify",
        ],
    ),  # fmt: skip
    Case(
        "replay-gone-1M",
        "replay: an action's `gone` of a million entries",
        lambda c: [
            "replay",
            _write(
                c,
                "r.jsonl",
                _with_action_field("gone", b"[" + b",".join([b"0"] * 1_000_000) + b"]"),
            ),
            "--verify",
        ],
    ),  # fmt: skip
    Case(
        "board-5000-digits",
        "board: die.mass_g an integer of 5000 digits",
        lambda c: ["board", _write(c, "b.toml", _board_text("mass_g = 4.6", _LONG_MASS))],
    ),
    Case(
        "rules-5000-digits",
        "rules file: rounds an integer of 5000 digits",
        lambda c: ["simulate", "--rules", _write(c, "r.toml", "rounds = " + "9" * 5000 + "\n")],
    ),
    Case(
        "board-two-walls",
        "board: the back wall given twice",
        lambda c: [
            "board",
            _write(
                c,
                "b.toml",
                _board_text(
                    "  [[castle.walls]]              # back wall, on the board edge",
                    _WALL.format("-110.0, -300.0, 110.0, -284.0"),
                ),
            ),
        ],
    ),  # fmt: skip
    Case(
        "board-wall-in-courtyard",
        "board: a wall across the courtyard",
        lambda c: [
            "board",
            _write(
                c,
                "b.toml",
                _board_text(
                    "  [[castle.walls]]              # back wall, on the board edge",
                    _WALL.format("-100.0, -260.0, 100.0, -250.0"),
                ),
            ),
        ],
    ),  # fmt: skip
    Case(
        "board-moat-overlap",
        "board: a moat so wide the turned castles overlap",
        lambda c: [
            "board",
            _write(
                c,
                "b.toml",
                _board_text(
                    "moat = [-110.0, -202.0, 110.0, -172.0]",
                    "moat = [-300.0, -202.0, 300.0, -172.0]",
                ),
            ),
        ],
    ),  # fmt: skip
    Case(
        "board-gateway-away",
        "board: a gateway 50 mm in front of its castle",
        lambda c: [
            "board",
            _write(
                c,
                "b.toml",
                _board_text("[25.0, -226.0, 55.0, -202.0]", "[25.0, -150.0, 55.0, -126.0]"),
            ),
        ],
    ),  # fmt: skip
    Case(
        "board-ring-250",
        "board: a centre ring of radius 250 mm (pins inside the castles)",
        lambda c: [
            "board",
            _write(c, "b.toml", _board_text("radius_mm = 60.0", "radius_mm = 250.0")),
        ],
    ),  # fmt: skip
    Case(
        "board-hole-in-courtyard",
        "board: a field hole inside a courtyard",
        lambda c: [
            "board",
            _write(c, "b.toml", _board_text("holes = [\n", "holes = [\n  [0, -255],\n")),
        ],
    ),  # fmt: skip
    Case(
        "board-side-wall-through",
        "board: a side wall through the castle",
        lambda c: [
            "board",
            _write(
                c,
                "b.toml",
                _board_text(
                    "rect = [-300.0, -300.0, -110.0, -294.0]",
                    "rect = [-300.0, -250.0, 300.0, -244.0]",
                ),
            ),
        ],
    ),  # fmt: skip
    Case(
        "board-mass-1e-320",
        "board: die.mass_g = 1e-320, then simulate on it",
        lambda c: [
            "simulate",
            "--board",
            _write(c, "b.toml", _board_text("mass_g = 4.6", "mass_g = 1e-320")),
        ],
    ),  # fmt: skip
    Case(
        "rules-key-osc",
        "rules file: a key ESC ]0;pwned BEL (sets the terminal title)",
        lambda c: ["simulate", "--rules", _write(c, "r.toml", '"\\u001b]0;pwned\\u0007" = 1\n')],
        payload=b"\x1b]0;pwned\x07",
    ),
    Case(
        "board-key-clear",
        "board: a key ESC [2J (clears the screen)",
        lambda c: ["board", _write(c, "b.toml", '"\\u001b[2Jevil" = 1\n' + _board_text())],
        payload=b"\x1b[2J",
    ),
    Case(
        "replay-summary-esc",
        "replay: a diverging action whose summary holds ESC sequences",
        lambda c: ["replay", _write(c, "r.jsonl", _diverging_escape()), "--verify"],
        payload=b"\x1b[2J",
    ),
    Case(
        "cache-fifo",
        "launch-table cache files that are FIFOs",
        _bad_cache("fifo"),
        timeout=30,
    ),
    Case("cache-dev-zero", "launch-table cache files linked to /dev/zero", _bad_cache("zero")),
    Case("lab-csv-fifo", "a lab folder whose games.csv is a FIFO", _lab("fifo"), timeout=30),
    Case("lab-csv-dev-zero", "a lab folder whose games.csv is linked to /dev/zero", _lab("zero")),
    Case("lab-csv-128k-cell", "a lab folder whose games.csv has a cell over 128 kB", _lab("cell")),
    Case(
        "full-simulate-record",
        "simulate --record on a full disk (12 kB free)",
        _full(12, lambda c: ["simulate", "--players", "2", "--record", str(c.full / "g.jsonl")]),  # type: ignore[operator]
        full_disk=True,
        after=_left_on_full,
    ),
    Case(
        "full-render",
        "render on a full disk (12 kB free)",
        _full(
            12,
            lambda c: [
                "render",
                str(GAME),
                "--out",
                str(c.full / "g.gif"),
                "--to",
                "3",
                "--size",
                "160",  # type: ignore[operator]
            ],
        ),
        full_disk=True,
        after=_left_on_full,
    ),  # fmt: skip
    Case(
        "full-screenshot",
        "play --screenshot on a full disk (4 kB free; under xvfb-run)",
        _full(4, lambda c: ["play", "--screenshot", str(c.full / "s.png")]),  # type: ignore[operator]
        full_disk=True,
        after=_left_on_full,
        display=True,
    ),
    Case(
        "full-variants",
        "variants --out on a full disk (12 kB free: games.csv fits, summary.json not)",
        _full(
            12,
            lambda c: [
                *_LAB,
                "--variants",
                "standard",
                "--games",
                "2",
                "--out",
                str(c.full / "lab"),  # type: ignore[operator]
            ],
        ),
        full_disk=True,
        after=_left_on_full,
    ),  # fmt: skip
    Case(
        "render-kill-9",
        "render killed with -9, then render again",
        _render_killed,
        after=_after_render,
    ),
]


# ------------------------------------------------------------------ running


@dataclass
class Outcome:
    status: str  # exit status, or "hung (N s)"
    peak_mb: float
    seconds: float
    message: str
    control: bool | None  # the file's control sequence reached the terminal (pty cases)
    note: str = ""


_ANSI_STYLE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def _message(stdout: bytes, stderr: bytes) -> str:
    """The lines a person sees (stderr, else stdout), control characters shown
    as ``\\xNN``; a traceback as its length and last line."""
    lines = [ln for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    if any(ln.startswith("Traceback") for ln in lines):
        return f"traceback ({len(lines)} lines): {lines[-1]}"
    if not lines:
        lines = [ln for ln in stdout.decode("utf-8", "replace").splitlines() if ln.strip()]
    shown = " | ".join(lines[:3]) + (f" (+{len(lines) - 3} lines)" if len(lines) > 3 else "")
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", shown)


def run_case(case: Case, checkout: Path, work: Path, cache: Path, full: Path | None,
             mem_cap_mb: int, timeout: float) -> Outcome:  # fmt: skip
    folder = Path(tempfile.mkdtemp(prefix=f"{case.name}-", dir=work))
    ctx = Ctx(folder, checkout, cache, full)
    args = case.build(ctx)
    env = _env(checkout, cache) | ctx.env
    cap = mem_cap_mb << 20

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        os.setsid()

    out_path, err_path = folder / ".stdout", folder / ".stderr"
    tty = b""
    argv = [sys.executable, "-c", _RUN, *args]
    if case.display:
        argv = ["xvfb-run", "-a", *argv]
    with open(out_path, "wb") as fo, open(err_path, "wb") as fe:
        if case.payload is not None:  # stdout and stderr on one terminal
            master, slave = pty.openpty()
            streams: dict[str, object] = {"stdout": slave, "stderr": slave}
        else:
            master, streams = -1, {"stdout": fo, "stderr": fe}
        start = time.monotonic()
        proc = subprocess.Popen(
            argv, cwd=folder, env=env,
            stdin=subprocess.DEVNULL, preexec_fn=limit, **streams,  # type: ignore[arg-type]
        )  # fmt: skip
        if master >= 0:
            os.close(slave)
        limit_s = case.timeout or timeout
        status = ""
        while True:
            if master >= 0:
                ready, _, _ = select.select([master], [], [], 0.02)
                if ready:
                    with contextlib.suppress(OSError):  # EIO: the child closed the terminal
                        tty += os.read(master, 1 << 16)
            pid, code, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > limit_s:
                os.killpg(proc.pid, signal.SIGKILL)
                pid, code, usage = os.wait4(proc.pid, 0)
                status = f"hung ({limit_s:g} s)"
                break
            if master < 0:
                time.sleep(0.02)
        seconds = time.monotonic() - start
        proc.returncode = 0  # reaped here (wait4), not by Popen
        if master >= 0:
            with contextlib.suppress(OSError):
                while chunk := os.read(master, 1 << 16):
                    tty += chunk
            os.close(master)
    if not status:
        status = str(os.waitstatus_to_exitcode(code))
    if case.payload is not None:
        stdout, stderr = b"", tty.replace(b"\r\n", b"\n")
        control: bool | None = case.payload in tty
        stderr = _ANSI_STYLE.sub(b"", stderr) if not control else stderr
    else:
        stdout, stderr, control = out_path.read_bytes(), err_path.read_bytes(), None
    outcome = Outcome(status, usage.ru_maxrss / 1024, seconds, _message(stdout, stderr), control)
    if case.after is not None:
        outcome.note = case.after(ctx)
    with contextlib.suppress(OSError):
        shutil.rmtree(folder)
    return outcome


@contextlib.contextmanager
def small_file_system(given: Path | None, work: Path) -> Iterator[Path | None]:
    """The folder on a small file system for the full-disk cases, or None."""
    if given is not None:
        yield given
        return
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        yield None
        return
    mount = work / "full"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)])
    if done.returncode != 0:
        yield None
        return
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--against", type=Path, help="Another checkout to run as 'before'.")
    parser.add_argument("--only", help="Comma-separated case names.")
    parser.add_argument("--mem-cap", type=int, default=6144, help="RLIMIT_AS of a child, MB.")
    parser.add_argument("--timeout", type=float, default=300.0, help="Seconds a case may take.")
    parser.add_argument("--full-disk", type=Path, help="An empty folder on a small file system.")
    parser.add_argument("--list", action="store_true", help="List the cases and exit.")
    args = parser.parse_args()
    cases = CASES
    if args.list:
        for c in cases:
            print(f"{c.name:24s} {c.what}")
        return
    if args.only:
        wanted = args.only.split(",")
        unknown = set(wanted) - {c.name for c in CASES}
        if unknown:
            parser.error(f"--only: unknown cases {', '.join(sorted(unknown))}")
        cases = [c for c in CASES if c.name in wanted]
    checkouts = [ROOT] if args.against is None else [args.against.resolve(), ROOT]
    labels = ["after"] if args.against is None else ["before", "after"]
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        work = Path(tmp)
        caches = []
        for i, checkout in enumerate(checkouts):  # warm each checkout's launch tables
            cache = work / f"cache{i}"
            cache.mkdir()
            caches.append(cache)
            subprocess.run(
                [sys.executable, "-c", _RUN, "simulate", "--players", "2", "--seed", "1"],
                env=_env(checkout, cache), check=True, capture_output=True, timeout=600,
            )  # fmt: skip
        results: dict[str, list[Outcome | None]] = {}
        with small_file_system(args.full_disk, work) as full:
            for case in cases:
                row: list[Outcome | None] = []
                for checkout, cache in zip(checkouts, caches, strict=True):
                    if (case.full_disk and full is None) or (
                        case.display and shutil.which("xvfb-run") is None
                    ):
                        row.append(None)
                        continue
                    row.append(
                        run_case(case, checkout, work, cache, full, args.mem_cap, args.timeout)
                    )
                    print(f"  {case.name} on {checkout}: done", file=sys.stderr, flush=True)
                results[case.name] = row
    _print(cases, results, labels, checkouts, args.mem_cap)


def _print(cases: list[Case], results: dict[str, list[Outcome | None]], labels: list[str],
           checkouts: list[Path], cap: int) -> None:  # fmt: skip
    print(f"memory cap {cap} MB (RLIMIT_AS); " + "; ".join(
        f"{label}: {c}" for label, c in zip(labels, checkouts, strict=True)
    ))  # fmt: skip
    head = "| case | " + " | ".join(f"{lb} exit | {lb} peak MB | {lb} s | ctl" for lb in labels)
    print(head + " |")
    print("|" + "---|" * (1 + 4 * len(labels)))
    for case in cases:
        cells = [case.name]
        for o in results[case.name]:
            if o is None:
                cells += ["skipped", "", "", ""]
            else:
                ctl = "-" if o.control is None else "yes" if o.control else "no"
                cells += [o.status, f"{o.peak_mb:.0f}", f"{o.seconds:.1f}", ctl]
        print("| " + " | ".join(cells) + " |")
    print()
    for case in cases:
        print(f"{case.name}: {case.what}")
        for label, o in zip(labels, results[case.name], strict=True):
            if o is not None:
                print(f"  {label}: {o.message}" + (f" [{o.note}]" if o.note else ""))
    print()


if __name__ == "__main__":
    main()
