"""Pixel helpers shared by the window tests: board millimetres to the
window's pixels and to X screen pixels (what xdotool moves to)."""

from __future__ import annotations

from typing import Any


def board_px(w: Any, x: float, y: float) -> tuple[int, int]:
    """Board mm (x, y) to the window's pixels, rounded (origin bottom left)."""
    px, py = w.to_px(x, y)
    return round(px), round(py)


def board_screen(w: Any, x: float, y: float) -> tuple[int, int]:
    """Board mm to X screen pixels (X runs downwards from the screen's top)."""
    wx, wy = w.get_location()
    px, py = board_px(w, x, y)
    return wx + px, wy + (w.height - py)
