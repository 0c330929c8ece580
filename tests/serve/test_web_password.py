"""The web door's password back-off (issue 35, item 7), in process: guesses from one
address are answered one at a time, each counted before its wait, so twenty sent at
once wait in turn, each longer than the last; another address is not slowed. The
back-off's clock is the test's (``Guard.sleep``): nothing here sleeps for real."""

from __future__ import annotations

import asyncio
import sys

import aiohttp
import pytest

from net.budgets import Budgets, Ledger
from serve.web import WebDoor

pytestmark = pytest.mark.timeout(60)

PASSWORD = "gold rush 1849"


class Clock:
    """The back-off's waits, recorded: who waited how long, and how many at once."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.inside = 0
        self.most_inside = 0

    async def sleep(self, delay: float) -> None:
        self.waits.append(delay)
        self.inside += 1
        self.most_inside = max(self.most_inside, self.inside)
        for _ in range(20):  # give any other guess the chance to wait beside this one
            await asyncio.sleep(0)
        self.inside -= 1


def _session(source: str) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0),
                                                                limit=0))


async def test_twenty_guesses_at_once_wait_in_turn_and_each_counts():
    door = WebDoor([sys.executable, "-c", "pass"], password=PASSWORD,
                   ledger=Ledger(Budgets(pending_per_address=64)))
    clock = Clock()
    door.guard.sleep = clock.sleep
    await door.start("127.0.0.1", 0)
    login = f"http://127.0.0.1:{door.port}/login"
    try:
        async with _session("127.0.0.3") as guesser:
            async def guess(word: str) -> int:
                async with guesser.post(login, data={"password": word},
                                        allow_redirects=False) as answer:
                    return answer.status

            statuses = await asyncio.gather(*(guess(f"wrong {n}") for n in range(20)))
            assert statuses == [403] * 20
            assert door.guard._failures["127.0.0.3"] == 20  # each one counted
            assert clock.most_inside == 1  # one at a time
            assert clock.waits == [min(0.5 * n, 8.0) for n in range(20)]  # growing
            async with _session("127.0.0.4") as other:  # another address: no wait
                async with other.post(login, data={"password": "nope"}) as answer:
                    assert answer.status == 403
            assert clock.waits[-1] == 0.0
            # the right password after them: the longest wait, then in
            assert await guess(PASSWORD) == 303
            assert clock.waits[-1] == 8.0
            assert "127.0.0.3" not in door.guard._failures
            assert not door.guard._turns  # no lock left behind
    finally:
        await door.stop()
