"""Waiting for something to happen, with a deadline: never a guess at how long it takes.
The one poller of the suite (``tests/test_hygiene.py`` keeps it so).

A test that needs "X has happened" polls for X and goes on the moment it holds; the
deadline is only there to fail, saying what never happened, and is generous because a
loaded machine is slow. Time is the event loop's (``loop.time()``), so the same wait
works on a loop in virtual time (``tests/net/lagproxy.py``), where it costs nothing.

- ``until``: an asyncio test; the condition may be a coroutine (a page read, a query);
  ``pause`` replaces the sleep between looks (the TUI's harness passes the pilot's, so
  the app runs between them: ``tests/tui/harness.until``).
- ``until_blocking``: a test outside an event loop (a terminal in tmux, a pty).
- ``within``: one awaitable, with a deadline.
- ``settle``: let the loop run its ready callbacks (turns of the loop, not time).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


async def until(condition: Callable[[], Any], what: str | Callable[[], str],
                deadline: float = 10.0,
                step: float = 0.01, pause: Callable[[float], Awaitable[Any]] | None = None
                ) -> Any:  # fmt: skip
    """Poll ``condition()`` (awaited, when it returns an awaitable) every ``step``
    seconds until it is true, and return it; fail naming ``what`` (or what ``what()``
    says then: the screen at that moment) never happened once ``deadline`` seconds have
    gone. ``pause(step)`` waits between looks (default ``asyncio.sleep``)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    pause = pause or asyncio.sleep
    while True:
        result = condition()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        if loop.time() > end:
            raise AssertionError(f"never happened within {deadline} s: {_said(what)}")
        await pause(step)


def _said(what: str | Callable[[], str]) -> str:
    return what() if callable(what) else what


def until_blocking(condition: Callable[[], Any], what: str | Callable[[], str],
                   deadline: float = 20.0,
                   step: float = 0.05) -> Any:  # fmt: skip
    """``until`` for a test with no event loop: the thread sleeps between looks."""
    end = time.monotonic() + deadline
    while not (result := condition()):
        if time.monotonic() > end:
            raise AssertionError(f"never happened within {deadline} s: {_said(what)}")
        time.sleep(step)
    return result


async def within(awaitable: Awaitable[T], what: str, deadline: float = 10.0) -> T:
    """``awaitable``'s result, or a failure naming ``what`` never came within
    ``deadline`` seconds."""
    try:
        return await asyncio.wait_for(awaitable, deadline)
    except TimeoutError:
        raise AssertionError(f"no {what} within {deadline} s") from None


async def settle(turns: int = 50) -> None:
    """Let the event loop run every ready callback (in-process work, not time)."""
    for _ in range(turns):
        await asyncio.sleep(0)
