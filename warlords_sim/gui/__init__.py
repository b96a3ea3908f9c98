"""The game in a pyglet window (``warlords-sim play``); the only package that
imports pyglet.

* :mod:`.controller` - the game flow (turns, bots, flicks stepped frame by
  frame through the rules' ``begin``/``finish``, log, replay), no pyglet;
* :mod:`.input` - mouse and keys to actions (slingshot flicks, ability
  choices), no pyglet;
* :mod:`.render` - the board and dice as pyglet shapes in millimetres
  (:mod:`.castles`: the crenelations and launch-spot markers);
* :mod:`.sound` - impact sounds from the physics events (pyglet.media,
  imported only when sound is on);
* :mod:`.hud` - the side panel and the end screens;
* :mod:`.app` - the window, its frame loop and event handlers.

Import :mod:`.app` (which loads pyglet) only where a window is wanted.
"""

__all__ = ["prepare_window"]


def prepare_window() -> None:
    """Set pyglet's options for the play and watch windows (no shadow
    window, no vsync); call it before importing :mod:`.app` or :mod:`.watch`,
    which load ``pyglet.window``. pyglet is imported here, in the gui, so
    that the command line never imports it (docs/architecture.md)."""
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["vsync"] = False
