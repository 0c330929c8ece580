"""What a player may send their app, for both doors (:class:`Inflow`): keys, typed
lines and pastes go on at ``rate`` bytes a second after a ``burst``; beyond it the door
stops reading that player's connection until the bucket refills. Nothing is dropped:
the flood waits in the player's own socket (TCP's window, SSH's channel window), so
the memory it costs the server is bounded by those windows, and the app it reaches
takes in at most ``rate`` bytes a second, whatever the sender does.

A person never meets it: typing is a few bytes a second, a paste of a chat line a
few hundred, the mouse's motion reports about 1 KiB a second; the burst holds a paste of
16 KiB at once. Measured figures: ``docs/RELIABILITY.md`` ("A flood of keys or lines").

Time is the caller's (``clock`` and ``sleep``: the event loop's, or a test's)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

#: bytes a second a player's keys reach their app, after ``BURST`` at once
RATE = 4096
BURST = 16384


class Inflow:
    """A token bucket of bytes, waited on: :meth:`take` returns once ``n`` bytes may
    pass (at once while the bucket holds them)."""

    def __init__(self, rate: float = RATE, burst: int = BURST, *,
                 clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock or asyncio.get_running_loop().time
        self.sleep = sleep
        self.tokens = float(burst)
        self.at = self.clock()
        self.waited = 0.0  # seconds the sender was held back (for figures and tests)

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now

    async def take(self, n: int) -> None:
        """Wait until ``n`` bytes may pass, then take them (a frame larger than the
        burst passes once the bucket is full, leaving it in debt)."""
        self._refill()
        need = min(float(n), float(self.burst))
        while self.tokens < need:
            wait = (need - self.tokens) / self.rate
            self.waited += wait
            await self.sleep(wait)
            self._refill()
        self.tokens -= n
