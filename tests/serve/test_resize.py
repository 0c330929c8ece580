"""Resize storms are coalesced (issue 20): the app hears the first change at once, then
at most one change per interval (the latest), and never the size it has already. Time
is a stand-in scheduler here, fired by hand; the web door's storm runs for real."""

import asyncio
import json
import sys

import aiohttp
import pytest

from serve.resize import Coalesced
from serve.web import WebDoor

pytestmark = pytest.mark.timeout(60)


class Later:
    """call_later's stand-in: callbacks wait until ``fire``."""

    def __init__(self) -> None:
        self.waiting: list[_Handle] = []

    def __call__(self, delay, then):
        self.waiting.append(_Handle(delay, then))
        return self.waiting[-1]

    def fire(self) -> None:
        waiting, self.waiting = self.waiting, []
        for handle in waiting:
            if not handle.cancelled:
                handle.then()


class _Handle:
    def __init__(self, delay, then) -> None:
        self.delay, self.then, self.cancelled = delay, then, False

    def cancel(self) -> None:
        self.cancelled = True


def test_a_storm_reaches_the_app_once_per_interval_with_the_latest_size():
    told, later = [], Later()
    sizes = Coalesced(told.append, 0.1, (80, 24), later)
    sizes.want((80, 24))
    assert told == []  # the size it has: nothing
    for n in range(50):  # a storm inside one interval
        sizes.want((81 + n, 25))
    assert told == [(81, 25)] and later.waiting[0].delay == 0.1
    later.fire()
    assert told == [(81, 25), (130, 25)]  # the latest, once
    later.fire()
    assert told == [(81, 25), (130, 25)]  # the storm is over: the timer ends
    sizes.want((130, 25))
    assert told == [(81, 25), (130, 25)]
    sizes.want((100, 30))
    assert told[-1] == (100, 30) and sizes.applied == 3


def test_a_storm_that_goes_on_is_slowed_to_one_change_per_half_second():
    told, later = [], Later()
    sizes = Coalesced(told.append, 0.1, (80, 24), later, most=0.5)
    intervals = []
    for n in range(8):  # a change waiting at the end of every interval
        sizes.want((100 + n, 30))
        intervals.append(later.waiting[0].delay)
        sizes.want((200 + n, 30))
        later.fire()
    assert intervals == [0.1, 0.2, 0.4, 0.5, 0.5, 0.5, 0.5, 0.5]
    assert told[-1] == (207, 30)
    later.fire()  # an interval with nothing waiting: the storm is over
    sizes.want((90, 30))
    assert told[-1] == (90, 30) and later.waiting[0].delay == 0.1


def test_a_storm_that_comes_back_to_the_size_costs_nothing_more():
    told, later = [], Later()
    sizes = Coalesced(told.append, 0.1, (80, 24), later)
    sizes.want((90, 30))
    sizes.want((85, 24))
    sizes.want((90, 30))  # back where the app is
    later.fire()
    assert told == [(90, 30)]
    sizes.cancel()
    assert later.waiting == []


APP = """
import sys
out = open(sys.argv[1], "a")
while True:
    head = sys.stdin.buffer.read(5)
    if len(head) < 5:
        break
    body = sys.stdin.buffer.read(int.from_bytes(head[1:], "big"))
    out.write(body.decode("utf-8", "replace") + "\\n")
    out.flush()
"""


async def test_a_tab_resizing_to_30000_a_hundred_times_costs_its_app_one_resize(tmp_path):
    log = tmp_path / "app.log"
    door = WebDoor([sys.executable, "-c", APP, str(log)])
    await door.start("127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"http://127.0.0.1:{door.port}/ws?width=90&height=30")
            for _ in range(100):
                await ws.send_json(["resize", {"width": 30000, "height": 30000}])
            await ws.send_json(["resize", {"width": 33, "height": 11}])
            for _ in range(400):
                if log.exists() and '"width": 33' in log.read_text():
                    break
                await asyncio.sleep(0.05)
            await ws.close()
    finally:
        await door.close()
    sizes = [json.loads(line) for line in log.read_text().splitlines()
             if '"resize"' in line]  # fmt: skip
    assert [(s["width"], s["height"]) for s in sizes] == [(400, 200), (33, 11)]
