"""The host's clock, injected: the real one for play, a fake one for tests.

A clock gives ``now()`` (seconds since the clock started) and ``call_at(when, fn,
*args)``, which runs ``fn(*args)`` once ``now()`` reaches ``when`` and returns a
handle with ``cancel()``. ``sleep_until(when)`` is the awaitable form. Tests drive a
:class:`FakeClock` by hand (``advance``), so nothing in a test sleeps.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Protocol


class Handle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[..., object], *args: object) -> Handle: ...

    async def sleep_until(self, when: float) -> None: ...


class RealClock:
    """Monotonic time from the running event loop, counted from the clock's creation
    (from ``start``: a resumed host's clock goes on from its latest save)."""

    def __init__(self, start: float = 0.0) -> None:
        self._loop = asyncio.get_running_loop()
        self._epoch = self._loop.time() - start

    def now(self) -> float:
        return self._loop.time() - self._epoch

    def call_at(self, when: float, callback: Callable[..., object], *args: object) -> Handle:
        return self._loop.call_at(when + self._epoch, callback, *args)

    async def sleep_until(self, when: float) -> None:
        delay = when - self.now()
        if delay > 0:
            await asyncio.sleep(delay)


class _FakeHandle:
    __slots__ = ("args", "callback", "cancelled", "soon")

    def __init__(self, callback: Callable[..., object], args: tuple) -> None:
        self.callback = callback
        self.args = args
        self.cancelled = False
        self.soon: asyncio.Handle | None = None

    def cancel(self) -> None:
        self.cancelled = True
        if self.soon is not None:
            self.soon.cancel()


class FakeClock:
    """A clock that moves only when told to. Callbacks due at or before ``now`` run
    on the event loop's next turn (``call_soon``); later ones when ``advance`` passes
    their time, in time order, each seeing ``now()`` equal to its own time."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self._heap: list[tuple[float, int, _FakeHandle]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[..., object], *args: object) -> Handle:
        handle = _FakeHandle(callback, args)
        if when <= self._now:
            handle.soon = asyncio.get_running_loop().call_soon(callback, *args)
        else:
            heapq.heappush(self._heap, (when, next(self._seq), handle))
        return handle

    async def sleep_until(self, when: float) -> None:
        future = asyncio.get_running_loop().create_future()
        handle = self.call_at(when, lambda: future.done() or future.set_result(None))
        try:
            await future
        finally:
            handle.cancel()

    def next_due(self) -> float | None:
        """The time of the earliest pending callback, or None."""
        while self._heap and self._heap[0][2].cancelled:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    def advance(self, seconds: float) -> None:
        """Move time forward, running every callback that falls due on the way."""
        self.advance_to(self._now + seconds)

    def advance_to(self, when: float) -> None:
        while (due := self.next_due()) is not None and due <= when:
            _, _, handle = heapq.heappop(self._heap)
            self._now = max(self._now, due)
            handle.callback(*handle.args)
        self._now = max(self._now, when)
