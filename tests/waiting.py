"""Waiting for something to happen, with a deadline: never a guess at how long it takes.

A test that needs "X has happened" polls for X and goes on the moment it holds; the
deadline is only there to fail, saying what never happened, and is generous because a
loaded machine is slow. Time is the event loop's (``loop.time()``), so the same wait
works on a loop in virtual time (``tests/net/lagproxy.py``), where it costs nothing.

(The TUI's tests wait through the app's pilot: ``tests/tui/test_modes.until``.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


async def until(condition: Callable[[], Any], what: str, deadline: float = 10.0,
                step: float = 0.01) -> Any:
    """Poll ``condition()`` every ``step`` seconds until it is true, and return it; fail
    naming ``what`` never happened once ``deadline`` seconds have gone."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while not (result := condition()):
        if loop.time() > end:
            raise AssertionError(f"never happened within {deadline} s: {what}")
        await asyncio.sleep(step)
    return result


async def within(awaitable: Awaitable[T], what: str, deadline: float = 10.0) -> T:
    """``awaitable``'s result, or a failure naming ``what`` never came within
    ``deadline`` seconds."""
    try:
        return await asyncio.wait_for(awaitable, deadline)
    except TimeoutError:
        raise AssertionError(f"no {what} within {deadline} s") from None
