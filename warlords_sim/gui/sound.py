"""Impact sounds: a short knock for each blow the physics reports, as loud
as the blow's impulse, rate-limited, and silent where there is no sound.

The layer reads the physics event log (:attr:`World.events
<warlords_sim.physics.world.World.events>`) and changes nothing in it:

* :func:`knock_of` maps one event to a :class:`Knock`: a die touching a die
  (``CONTACT`` with ``die:``), a wall or the siege engine (``wall``,
  ``siege_engine``), a pin (``pin:``), or landing (``LANDING`` on the
  ``table``, or on a ``top``: a wall, the engine or a die, which knocks like
  a wall). Its volume is the blow's impulse over the largest one
  (:func:`volume_for`).
* :class:`RateLimit` keeps a pile-up from making hundreds of sounds: the
  loudest knock of each kind in a frame, one knock of a kind every
  :data:`KIND_GAP_S` seconds, at most :data:`WINDOW_MAX` in any
  :data:`WINDOW_S` seconds (wall-clock).
* :class:`ImpactSounds` follows the event log frame by frame and plays the
  admitted knocks with ``pyglet.media`` (waveforms made here, no sound
  files). pyglet picks its audio driver when ``pyglet.media`` is first
  imported (``pyglet.options['audio']``, or ``PYGLET_AUDIO``); where no
  device answers it falls back to its silent driver, and then nothing is
  played, nothing is printed and the window goes on. Muted
  (``play --mute``, the ``M`` key) it reads the log only to stay in step,
  and ``pyglet.media`` is not even imported until it is unmuted.

Nothing here imports ``pyglet`` at module level: the pure parts (mapping,
rate limit, waveforms) are tested without a display.
"""

from __future__ import annotations

import contextlib
import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np
from numpy.typing import NDArray

from warlords_sim.physics.types import Event, EventKind
from warlords_sim.rules.flick_setup import MAX_FLICK_SPEED

__all__ = [
    "FULL_SPEED",
    "KIND_GAP_S",
    "MIN_VOLUME",
    "SAMPLE_RATE",
    "WINDOW_MAX",
    "WINDOW_S",
    "ImpactSounds",
    "Knock",
    "Knocked",
    "RateLimit",
    "knock_of",
    "knocks",
    "volume_for",
    "waveform",
]


class Knocked(Enum):
    """What a die struck: each kind has its own sound."""

    DIE = "die"
    WALL = "wall"
    PIN = "pin"
    TABLE = "table"


#: Approach speed (mm/s) of a full-volume blow on something that does not
#: move (a wall, a pin, the table): the fastest flick the physics accepts.
FULL_SPEED = MAX_FLICK_SPEED
#: Quieter knocks are not played (1/50 of full amplitude, -34 dB): dice
#: pressed together at rest or brushing past each other.
MIN_VOLUME = 0.02
#: Reduced mass over a die's mass for each kind: for two bodies meeting at
#: a relative normal speed v the impulse is (1 + e) m1 m2 / (m1 + m2) v, so
#: m/2 for two dice of one mass and m against the fixed board, walls and
#: pins. The restitution e, which differs little between these pairs, is
#: left out.
_REDUCED_MASS = {Knocked.DIE: 0.5, Knocked.WALL: 1.0, Knocked.PIN: 1.0, Knocked.TABLE: 1.0}

#: Seconds between two knocks of one kind (wall-clock).
KIND_GAP_S = 0.04
#: At most :data:`WINDOW_MAX` knocks in any :data:`WINDOW_S` seconds.
WINDOW_S = 0.25
WINDOW_MAX = 6
#: Knocks sounding at once, at most (a knock lasts under 0.1 s).
MAX_VOICES = 8

#: Samples per second of the generated waveforms.
SAMPLE_RATE = 22050


@dataclass(frozen=True)
class Knock:
    """One blow to be heard: what was struck, volume in (0, 1] (linear
    amplitude), and when (s of simulated time, the event's)."""

    kind: Knocked
    volume: float
    t: float = 0.0


def volume_for(kind: Knocked, speed: float) -> float:
    """Volume (linear amplitude, 0..1) of a blow of ``kind`` at normal
    approach ``speed`` (mm/s): the impulse relative to a die striking a
    fixed body at :data:`FULL_SPEED` (the sound pressure of a short impact
    grows with its impulse), 0 below :data:`MIN_VOLUME`, at most 1.

    A non-finite or non-positive speed (a contact that began while
    separating) gives 0.
    """
    if not math.isfinite(speed) or speed <= 0.0:
        return 0.0
    v = _REDUCED_MASS[kind] * speed / FULL_SPEED
    if v < MIN_VOLUME:
        return 0.0
    return min(v, 1.0)


def knock_of(event: Event) -> Knock | None:
    """The knock of one physics event, or None: not a blow (a launch, a
    rest, an exit, a trip) or too soft to hear."""
    if event.kind is EventKind.CONTACT:
        what = event.other.split(":", 1)[0]
        if what == "die":
            kind = Knocked.DIE
        elif what == "pin":
            kind = Knocked.PIN
        elif what in ("wall", "siege_engine"):
            kind = Knocked.WALL
        else:
            return None
    elif event.kind is EventKind.LANDING:
        kind = Knocked.TABLE if event.other == "table" else Knocked.WALL
    else:
        return None
    volume = volume_for(kind, event.speed)
    if volume <= 0.0:
        return None
    return Knock(kind, volume, event.t)


def knocks(events: Iterable[Event]) -> list[Knock]:
    """The audible knocks of ``events``, in order."""
    return [k for e in events if (k := knock_of(e)) is not None]


class RateLimit:
    """Which knocks are played: of those arriving together (one frame) only
    the loudest of each kind; a kind at most once every ``gap`` s; and at
    most ``most`` knocks in any ``window`` s, the loudest first.

    Args:
        gap: seconds between two knocks of one kind (>= 0).
        window: seconds of the sliding window (> 0).
        most: knocks allowed in the window (>= 1).

    Raises:
        ValueError: a bound out of range.
    """

    def __init__(
        self, gap: float = KIND_GAP_S, window: float = WINDOW_S, most: int = WINDOW_MAX
    ) -> None:
        if not (gap >= 0.0 and window > 0.0 and most >= 1):
            raise ValueError(
                f"RateLimit: gap >= 0, window > 0 and most >= 1 expected, "
                f"got gap={gap}, window={window}, most={most}"
            )
        self.gap = gap
        self.window = window
        self.most = most
        self._last: dict[Knocked, float] = {}
        self._times: deque[float] = deque()

    def admit(self, batch: Iterable[Knock], now: float) -> list[Knock]:
        """The knocks of ``batch`` (arriving at wall-clock ``now`` s) to play,
        loudest first; the others are dropped."""
        loudest: dict[Knocked, Knock] = {}
        for k in batch:
            best = loudest.get(k.kind)
            if best is None or k.volume > best.volume:
                loudest[k.kind] = k
        times = self._times
        while times and times[0] <= now - self.window:
            times.popleft()
        out = []
        for k in sorted(loudest.values(), key=lambda k: -k.volume):
            if len(times) >= self.most:
                break
            last = self._last.get(k.kind)
            if last is not None and now - last < self.gap:
                continue
            self._last[k.kind] = now
            times.append(now)
            out.append(k)
        return out


def waveform(kind: Knocked, rate: int = SAMPLE_RATE) -> NDArray[np.float64]:
    """The knock of ``kind`` at full volume: a few exponentially damped
    sine modes (a struck small body rings at its modes) and a short noise
    click, peak 0.9, about 60-90 ms, ``rate`` samples a second.

    The mode frequencies are chosen by ear to tell the kinds apart (a high
    click for two dice, a hollow knock for a wooden wall, a ringing tick for
    a pin, a low thud for the table); they are not measured.
    """
    modes, decay, noise, dur = _TIMBRE[kind]
    t = np.arange(int(rate * dur)) / rate
    y = np.zeros_like(t)
    for freq, amp in modes:
        y += amp * np.sin(2.0 * np.pi * freq * t)
    y *= np.exp(-t / decay)
    rng = np.random.default_rng(7)  # the click is the same every run
    y += noise * rng.uniform(-1.0, 1.0, t.size) * np.exp(-t / 0.002)
    attack = np.minimum(t / 0.0008, 1.0)  # no click from a jump at the start
    y *= attack
    peak = float(np.max(np.abs(y)))
    return y * (0.9 / peak) if peak > 0 else y


#: kind -> ((frequency Hz, amplitude), ...), decay time constant s, noise, duration s.
_TIMBRE: dict[Knocked, tuple[tuple[tuple[float, float], ...], float, float, float]] = {
    Knocked.DIE: (((2650.0, 1.0), (4100.0, 0.6), (6300.0, 0.3)), 0.008, 0.5, 0.06),
    Knocked.WALL: (((420.0, 1.0), (1130.0, 0.5), (2300.0, 0.2)), 0.016, 0.35, 0.09),
    Knocked.PIN: (((1650.0, 1.0), (3350.0, 0.4)), 0.022, 0.2, 0.09),
    Knocked.TABLE: (((180.0, 1.0), (640.0, 0.6), (1500.0, 0.2)), 0.014, 0.4, 0.08),
}


class ImpactSounds:
    """Knocks for the window: follows the physics event log, rate-limits
    and plays.

    Args:
        muted: start muted (``play --mute``).
        limit: the rate limit (default :class:`RateLimit`'s).

    Attributes:
        heard: knocks admitted so far (played if a device answered): a count.
        last: the knocks admitted by the last :meth:`poll`.
        device: True once pyglet opened a real audio driver; False where it
            fell back to its silent driver or failed (then :attr:`why` says
            why), None before it was tried.
    """

    def __init__(self, muted: bool = False, limit: RateLimit | None = None) -> None:
        self.muted = muted
        self.limit = limit or RateLimit()
        self.heard = 0
        self.last: list[Knock] = []
        self.device: bool | None = None
        self.why = ""
        self._sources: dict[Knocked, Any] = {}
        self._media: Any = None
        self._voices: list[Any] = []
        self._seen = 0
        self._first: Event | None = None

    # ------------------------------------------------------------ the log

    def skip(self, events: Sequence[Event]) -> None:
        """Treat every event of ``events`` as heard (a window opening on a
        game in progress)."""
        self._seen = len(events)
        self._first = events[0] if events else None

    def _new(self, events: Sequence[Event]) -> Sequence[Event]:
        """The events of the log not seen yet; the log starts again with each
        flick (its first event is then another one)."""
        first = events[0] if events else None
        if first is not self._first or len(events) < self._seen:
            self._first = first
            self._seen = 0
        fresh = events[self._seen :]
        self._seen = len(events)
        return fresh

    def poll(self, events: Sequence[Event], now: float) -> list[Knock]:
        """Play the knocks of the events added to the log ``events`` since
        the last poll (wall-clock ``now`` s); returns them (none when muted)."""
        fresh = self._new(events)
        if self.muted or not fresh:
            self.last = []
            return self.last
        self.last = self.limit.admit(knocks(fresh), now)
        self.heard += len(self.last)
        if self.last and self.open():
            for k in self.last:
                self._play(k)
        return self.last

    # ------------------------------------------------------------ playing

    def toggle(self) -> bool:
        """Mute or unmute; returns whether it is muted now."""
        self.muted = not self.muted
        if not self.muted:
            self.open()
        return self.muted

    def open(self) -> bool:
        """Open pyglet's audio driver and make the sounds, once; returns
        whether a real device plays them. Never raises: any failure leaves
        the window silent (:attr:`why`)."""
        if self.device is not None:
            return self.device
        self.device = False
        try:
            from pyglet import media
            from pyglet.media.synthesis import SynthesisSource

            driver = media.get_audio_driver()  # type: ignore[no-untyped-call]
            name = type(driver).__name__ if driver is not None else "none"
            if driver is None or name == "SilentDriver":
                self.why = "no audio device (pyglet's silent driver)"
                return False
            for kind in Knocked:
                samples = waveform(kind)
                gen = (float(v) for v in samples)
                synth = SynthesisSource(gen, samples.size / SAMPLE_RATE, SAMPLE_RATE)
                self._sources[kind] = media.StaticSource(synth)
            self._media = media
        except Exception as e:  # no sound is never an error for the game
            self.why = f"no sound: {type(e).__name__}: {e}"
            self._sources = {}
            return False
        self.device = True
        return True

    def _play(self, k: Knock) -> None:
        self._voices = [p for p in self._voices if p.source is not None]
        if len(self._voices) >= MAX_VOICES:
            return
        try:
            player = self._media.Player()
            player.volume = k.volume
            player.queue(self._sources[k.kind])

            def done() -> None:
                player.delete()

            player.push_handlers(on_player_eos=done)
            player.play()
            self._voices.append(player)
        except Exception as e:  # a device that went away: go quiet, not down
            self.why = f"no sound: {type(e).__name__}: {e}"
            self.device = False

    def close(self) -> None:
        """Stop and free every sounding knock."""
        for p in self._voices:
            with contextlib.suppress(Exception):  # closing: a lost device is no news
                p.delete()
        self._voices = []
