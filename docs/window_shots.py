"""Make the README's pictures of the play window by driving the real window
with xdotool, as a player would, and grabbing it to a PNG.

Run it under an X display; with none, let ``xvfb-run`` start one (``-a``:
a free display number; its default 1280x1024 screen holds the window):

    xvfb-run -a python docs/window_shots.py --out DIR [--only guide,scored] [--force]

(``--out docs --force`` redraws the README's own). It needs ``xdotool`` and
Pillow built with XCB (``PIL.features.check("xcb")``), and writes two
pictures into DIR (an existing one is refused unless ``--force``):

* ``guide.png``: ``warlords-sim play --seed 0`` (you against the aim bot),
  your first turn: the pointer presses area 2's high crenelation and pulls
  back 76 mm (1260 mm/s); the picture is taken with the button held, so the arrow, the
  speed and the dashed aim guide to the first thing in the way show; then
  ``Esc`` cancels the flick.
* ``scored.png``: ``warlords-sim replay examples/replays/game-2p-standard.jsonl
  --until 61`` (the window paused after action 61): dice framed in white in
  both courtyards, a die of each player just short of the other's courtyard
  and not framed, and each castle's damage this round in its label.

Each game is recorded into a temporary directory (nothing else is written);
every window is closed the way a window manager's close button does it.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The play window's default size (``warlords_sim.gui.app.run``).
WIDTH, HEIGHT = 1200, 830


def _xdotool(*args: str) -> str:
    out = subprocess.run(["xdotool", *args], capture_output=True, text=True, check=False)
    return out.stdout.strip()


def _wait_window(proc: subprocess.Popen[bytes], timeout: float = 60.0) -> str:
    """The id of the Warlords window once it is mapped (the process's own)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"window_shots: warlords-sim exited with status {proc.returncode}")
        wid = _xdotool("search", "--onlyvisible", "--pid", str(proc.pid), "--name", "^Warlords")
        if wid:
            time.sleep(1.5)  # the first frames
            return wid.split()[0]
        time.sleep(0.2)
    sys.exit("window_shots: no Warlords window appeared within 60 s")


def _grab(wid: str, out: Path) -> None:
    from PIL import ImageGrab

    geo = dict(
        line.split("=", 1) for line in _xdotool("getwindowgeometry", "--shell", wid).splitlines()
    )
    x, y, w, h = (int(geo[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
    img = ImageGrab.grab(xdisplay=os.environ["DISPLAY"]).crop((x, y, x + w, y + h))
    img.save(out)
    print(f"wrote {out}")


def _close(wid: str, proc: subprocess.Popen[bytes]) -> None:
    """Send WM_DELETE_WINDOW (the close button), then wait for the exit."""
    x11 = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]

    class _ClientMessage(ctypes.Structure):
        _fields_ = [  # noqa: RUF012  (ctypes layout)
            ("type", ctypes.c_int),
            ("serial", ctypes.c_ulong),
            ("send_event", ctypes.c_int),
            ("display", ctypes.c_void_p),
            ("window", ctypes.c_ulong),
            ("message_type", ctypes.c_ulong),
            ("format", ctypes.c_int),
            ("data", ctypes.c_long * 5),
        ]

    class _Event(ctypes.Union):
        _fields_ = [("xclient", _ClientMessage), ("pad", ctypes.c_long * 24)]  # noqa: RUF012

    x11.XSendEvent.argtypes = [
        ctypes.c_void_p,
        ctypes.c_ulong,
        ctypes.c_int,
        ctypes.c_long,
        ctypes.POINTER(_Event),
    ]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    dpy = x11.XOpenDisplay(None)
    ev = _Event()
    ev.xclient.type = 33  # ClientMessage
    ev.xclient.window = int(wid)
    ev.xclient.message_type = x11.XInternAtom(dpy, b"WM_PROTOCOLS", 0)
    ev.xclient.format = 32
    ev.xclient.data[0] = x11.XInternAtom(dpy, b"WM_DELETE_WINDOW", 0)
    x11.XSendEvent(dpy, int(wid), 0, 0, ctypes.byref(ev))
    x11.XFlush(dpy)
    x11.XCloseDisplay(dpy)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.terminate()
        proc.wait(timeout=10)


def _start(args: list[str], tmp: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-c", "from warlords_sim.cli import main; main()", *args]
    return subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.DEVNULL)


def _screen(wid: str, mm: tuple[float, float], bottom_seat: int = 0) -> tuple[int, int]:
    """Board mm to screen pixels of the window, by the window's own layout."""
    from warlords_sim.board import load_board
    from warlords_sim.gui.app import MARGIN_MM
    from warlords_sim.gui.hotseat import ViewTransform
    from warlords_sim.gui.hud import PANEL_WIDTH

    board = load_board("standard")
    avail = WIDTH - PANEL_WIDTH
    scale = min(avail, HEIGHT) / (board.size_mm + 2 * MARGIN_MM)
    px, py = ViewTransform(scale, (avail / 2.0, HEIGHT / 2.0), bottom_seat).to_px(*mm)
    geo = dict(
        line.split("=", 1) for line in _xdotool("getwindowgeometry", "--shell", wid).splitlines()
    )
    return int(geo["X"]) + round(px), int(geo["Y"]) + HEIGHT - round(py)


def guide(out: Path, tmp: Path) -> None:
    from warlords_sim.board import Crenelation, load_board

    proc = _start(["play", "--seed", "0", "--mute", "--record", str(tmp / "guide.jsonl")], tmp)
    wid = _wait_window(proc)
    spot = load_board("standard").launch_spot(0, 2, Crenelation.HIGH)
    sx, sy = _screen(wid, (spot.x, spot.y))
    ex, ey = _screen(wid, (spot.x + 3.0, spot.y - 76.0))
    _xdotool("mousemove", str(sx), str(sy), "mousedown", "1")
    for k in range(1, 11):  # pull back in steps, as a hand does
        _xdotool("mousemove", str(sx + (ex - sx) * k // 10), str(sy + (ey - sy) * k // 10))
        time.sleep(0.03)
    time.sleep(0.5)
    _grab(wid, out)
    _xdotool("key", "Escape", "mouseup", "1")  # cancelled: nothing is flicked
    _close(wid, proc)


def scored(out: Path, tmp: Path) -> None:
    replay = ROOT / "examples" / "replays" / "game-2p-standard.jsonl"
    proc = _start(["replay", str(replay), "--until", "61"], tmp)
    wid = _wait_window(proc, timeout=120.0)
    _xdotool("mousemove", "5", "5")  # the pointer off the board
    time.sleep(0.5)
    _grab(wid, out)
    _close(wid, proc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="directory for the PNGs")
    ap.add_argument("--only", default="guide,scored", help="guide, scored or both (default)")
    ap.add_argument("--force", action="store_true", help="overwrite existing PNGs")
    ns = ap.parse_args()
    if not os.environ.get("DISPLAY"):
        sys.exit("window_shots: no DISPLAY (run it under xvfb-run -a, see the docstring)")
    every = {"guide": guide, "scored": scored}
    names = [n.strip() for n in ns.only.split(",") if n.strip()]
    if not names or any(n not in every for n in names):
        sys.exit(f"window_shots: --only {ns.only!r}: expected guide, scored or guide,scored")
    if not ns.out.is_dir():
        sys.exit(f"window_shots: --out {ns.out}: no such directory")
    jobs = {f"{n}.png": every[n] for n in names}
    for name in jobs:
        if (ns.out / name).exists() and not ns.force:
            sys.exit(f"window_shots: {ns.out / name} exists (--force to overwrite it)")
    with tempfile.TemporaryDirectory() as d:
        for name, job in jobs.items():
            job(ns.out / name, Path(d))


if __name__ == "__main__":
    main()
