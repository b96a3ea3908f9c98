"""Watching a replay in the window (``warlords-sim replay FILE``).

The same window, board, dice and side panel as ``play``
(:class:`~warlords_sim.gui.app.PlayWindow`), driven by a
:class:`~warlords_sim.gui.playback.ReplayController`. Keys: Space pauses,
Right steps one action, + and - change the speed, M turns the
impact sounds off and on, the wheel over the panel or PgUp/PgDn scroll
the log (End: the newest lines), Esc quits.
"""

from __future__ import annotations

from typing import Any

import pyglet

from warlords_sim.gui.app import PlayWindow, key_name
from warlords_sim.gui.controller import Phase
from warlords_sim.gui.playback import ReplayController

__all__ = ["WATCH_HELP", "WatchWindow", "run_watch"]

WATCH_HELP = (
    "Space: pause or play, Right: one action (or finish the one in flight),\n"
    "+ / -: faster / slower, M: sound, Esc: quit.\n"
    "Log: wheel over the panel or PgUp/PgDn scroll it, End: the newest lines."
)

_FASTER = ("plus", "equal", "num_add", "kp_add")
_SLOWER = ("minus", "underscore", "num_subtract", "kp_subtract")


class WatchWindow(PlayWindow):
    """The play window showing a replay: playback keys, no slingshot."""

    c: ReplayController

    def __init__(
        self,
        controller: ReplayController,
        width: int = 1200,
        height: int = 830,
        visible: bool = True,
    ) -> None:
        super().__init__(controller, width, height, visible)
        self.set_caption(f"Warlords replay: {controller.replay.path.name}")
        self.hud.help_text = WATCH_HELP

    def _prompt(self) -> str:
        return self.c.headline()

    def _status(self) -> str:
        return self.c.status()

    def _build_overlay(self) -> bool:
        return self.overlay.rebuild(None)  # nothing to aim in a replay

    def on_key_press(self, symbol: int, modifiers: int) -> Any:
        name = key_name(symbol)
        c = self.c
        if name == "space":
            c.toggle_pause()
        elif name == "right":
            c.step_action()
        elif name in _FASTER:
            c.faster()
        elif name in _SLOWER:
            c.slower()
        elif name == "m":
            self.toggle_sound()
        elif name == "escape":
            self.close()
        else:
            self.log_key(name)
        return pyglet.event.EVENT_HANDLED

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.c.phase is Phase.ROUND_OVER:
            self.c.proceed()

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        pass

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        pass

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        self.scroll_panel(x, scroll_y)


def run_watch(controller: ReplayController, *, width: int = 1200, height: int = 830) -> None:
    """Open the window and play the replay back until the window is closed."""
    window = WatchWindow(controller, width, height)
    window.start()
    pyglet.app.run(None)
