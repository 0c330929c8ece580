"""The host's clocks pass a timer's arguments through (``call_at(when, fn, *args)``),
so the host arms a table's timer without building a closure per change."""

import asyncio

import pytest

from net.clock import FakeClock, RealClock

pytestmark = pytest.mark.timeout(10)


async def test_the_fake_clock_runs_a_timer_with_its_arguments_in_time_order() -> None:
    clock, ran = FakeClock(), []
    clock.call_at(2.0, ran.append, "second")
    clock.call_at(1.0, ran.append, "first")
    cancelled = clock.call_at(1.5, ran.append, "cancelled")
    cancelled.cancel()
    clock.advance(1.0)
    assert ran == ["first"]
    clock.advance(5.0)
    assert ran == ["first", "second"]
    clock.call_at(0.0, ran.append, "due")  # already due: the loop's next turn
    await asyncio.sleep(0)
    assert ran == ["first", "second", "due"]


async def test_the_real_clock_runs_a_timer_with_its_arguments() -> None:
    clock = RealClock()
    done = asyncio.get_running_loop().create_future()
    clock.call_at(clock.now(), lambda a, b: done.set_result((a, b)), "table", 1.5)
    assert await asyncio.wait_for(done, 5) == ("table", 1.5)
