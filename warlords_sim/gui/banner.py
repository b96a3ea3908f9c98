"""Drawing the turn banner (:class:`~warlords_sim.gui.hotseat.Banner`) in
window pixels: a rounded band over the board with the text in the seat's
colour, upright whichever way the board is turned, fading with the banner.
It is only drawn; it takes no input."""

from __future__ import annotations

from typing import Any

import pyglet
from pyglet import shapes

from warlords_sim.gui.hotseat import Banner
from warlords_sim.gui.render import seat_rgb, shade

__all__ = ["BannerLayer"]

_FONT = 22
_PAD = 16.0


class BannerLayer:
    """The banner's band and text."""

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        back = pyglet.graphics.Group(0)
        middle = pyglet.graphics.Group(1)
        front = pyglet.graphics.Group(2)
        self.rim = shapes.RoundedRectangle(
            0, 0, 10, 10, 12, color=(0, 0, 0, 0), batch=self.batch, group=back
        )
        self.band = shapes.RoundedRectangle(
            0, 0, 10, 10, 10, color=(0, 0, 0, 0), batch=self.batch, group=middle
        )
        self.label = pyglet.text.Label(
            "",
            font_size=_FONT,
            weight="bold",
            anchor_x="center",
            anchor_y="center",
            batch=self.batch,
            group=front,
        )
        self._key: object = None

    def update(self, banner: Banner, centre: tuple[float, float]) -> bool:
        """Show ``banner`` centred at ``centre`` (px); returns whether what
        is drawn changed."""
        alpha = round(255 * banner.opacity)
        key = (banner.text, banner.seat, alpha, centre) if alpha else None
        if key == self._key:
            return False
        self._key = key
        if key is None:
            return True
        colour = seat_rgb(banner.seat)
        lb: Any = self.label
        lb.text = banner.text
        lb.color = (*shade(colour, -0.55), alpha)
        lb.position = (centre[0], centre[1], 0)
        w = float(lb.content_width) + 2 * _PAD
        h = float(lb.content_height) + _PAD
        x, y = centre[0] - w / 2.0, centre[1] - h / 2.0
        self.rim.position = (x - 3.0, y - 3.0)
        self.rim.width, self.rim.height = w + 6.0, h + 6.0
        self.rim.color = (*colour, alpha)
        self.band.position = (x, y)
        self.band.width, self.band.height = w, h
        self.band.color = (*shade(colour, 0.8), round(alpha * 0.92))
        return True

    @property
    def showing(self) -> bool:
        return self._key is not None

    def draw(self) -> None:
        if self.showing:
            self.batch.draw()
