"""Window changes, coalesced, for both doors: a storm of resizes (a tab sending
30000x30000 ten times a second, an SSH client changing its size seven times a second)
costs the app one redraw per ``every`` seconds, with the latest size, and a repeat of
the size the app has already costs nothing. A storm that goes on is slowed further:
each interval that ends with a change waiting doubles the next, up to ``most`` (a
person dragging a window corner sees the final size within ``most`` seconds of letting
go; a script resizing forever costs its app ``1 / most`` redraws a second).

Time is the caller's: ``call_later`` is the event loop's (or a test's stand-in)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Size = tuple[int, int]

#: the largest terminal a door gives an app (both doors clamp to it): a bigger window
#: shows the game in this much of it. The games' layouts need no more, and an app's
#: redraw costs by its cells: three SSH sessions resizing at 400x200 without end (the
#: coalescing's one redraw each half second) slowed another player's chat p50 3.5-3.8x
#: on this machine's two cores; at 240x80 (10 times an 80x24 screen), not at all
#: (issue 56, finding 6; ``bench/resize_storm.py``)
MAX_SIZE: Size = (240, 80)


class Coalesced:
    """The size an app is told: the first change at once, then at most one change per
    ``every`` seconds (the latest asked for); the same size again is dropped."""

    def __init__(self, apply: Callable[[Size], Any], every: float, size: Size,
                 call_later: Callable[..., Any], most: float = 0.5) -> None:  # fmt: skip
        self.apply = apply
        self.every = every
        self.most = max(most, every)
        self.interval = every  # the current interval: it grows while a storm goes on
        self.size = size  # what the app was last told
        self.pending: Size | None = None
        self.call_later = call_later
        self._handle: Any = None
        self.applied = 0  # changes the app was told (for tests and figures)

    def want(self, size: Size) -> None:
        if self._handle is not None:  # within the interval: only the latest counts
            self.pending = size
            return
        if size != self.size:
            self._apply(size)

    def _apply(self, size: Size) -> None:
        self.size, self.pending = size, None
        self.applied += 1
        self.apply(size)
        self._handle = self.call_later(self.interval, self._later)

    def _later(self) -> None:
        self._handle = None
        if self.pending is not None and self.pending != self.size:
            self.interval = min(self.interval * 2, self.most)  # the storm goes on
            self._apply(self.pending)
        else:
            self.interval = self.every  # it is over
        self.pending = None

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
