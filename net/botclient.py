"""A bot that plays over the network like any remote player (``motherlode bot``).

:class:`BotSeat` is the sans-I/O part: host messages in, the plan (an action and the
host time to send it) out. :func:`run_bot` is the asyncio shell around a
``net.client.Client``: it sends each plan when its time comes, newest plan wins.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import Any

from net import protocol as p
from net.client import Client, Disconnected, Reconnected
from net.games import Brain, make_brain
from net.table.phase import Phase
from net.views import to_plain


class BotSeat:
    """What a bot at one seat wants to do, from the messages it receives."""

    def __init__(self, difficulty: str = "normal", rng: random.Random | None = None,
                 pace: float = 0.9) -> None:  # fmt: skip
        self.difficulty = difficulty
        self.rng = rng or random.Random()
        self.pace = pace
        self.game: str | None = None
        self.seat: int | None = None
        self.brain: Brain | None = None
        #: (protocol action, host time) or None
        self.plan: tuple[Any, float] | None = None
        #: a ``ready`` sent that no table update has shown yet (one is enough)
        self.asked = False

    def _ready(self) -> list[Any]:
        self.asked = True
        return [p.Ready()]

    def receive(self, message: Any) -> list[Any]:
        """Take in a host message; returns messages to send at once (``ready``)."""
        if isinstance(message, p.Welcome):
            self.game, self.seat = message.table.game, message.seat
            if message.table.phase == Phase.PLAYING and self.seat is not None:
                self._new_brain()
            return [] if message.table.phase == Phase.PLAYING else self._ready()
        if isinstance(message, p.TableUpdate):
            # a bot takes any terms: when they change (a setting, who sits), its
            # "ready" is cleared with everyone's, and it says ready again
            # (once: a second, sent before the host shows the first, could arrive
            # after the game has started)
            table, seat = message.table, self.seat
            if seat is None or seat >= len(table.seats) or table.phase == Phase.PLAYING:
                return []
            if table.seats[seat].ready:
                self.asked = False
            elif not self.asked:
                return self._ready()
        elif isinstance(message, p.Error):
            self.asked = False
        elif isinstance(message, p.Started):
            self._new_brain()
            self.plan = None
        elif isinstance(message, p.State) and message.seat == self.seat and self.brain:
            # the policies read the rules' own form of a view (a dict)
            self.plan = self.brain.plan(to_plain(message.view), message.at)
        elif isinstance(message, p.Over):
            self.brain, self.plan = None, None
            return self._ready()  # ready for another game
        return []

    def _new_brain(self) -> None:
        if self.game is None or self.seat is None:
            return  # a spectator has nothing to plan
        self.brain = make_brain(self.game, self.seat, self.difficulty, self.rng, self.pace)


async def run_bot(
    client: Client,
    difficulty: str = "normal",
    *,
    rng: random.Random | None = None,
    pace: float = 0.9,
    games: int | None = None,
    on_over: Callable[[p.Over], None] | None = None,
) -> list[p.Over]:
    """Play at the client's seat until ``games`` games are over (None: until the host
    says bye or the connection is lost). Returns the results seen (and passes each
    to ``on_over`` as it comes)."""
    bot = BotSeat(difficulty, rng, pace)
    results: list[p.Over] = []
    timer: asyncio.Task | None = None

    sent: list[tuple[Any, float]] = []  # the last action sent, and when

    async def act_at(action: Any, at: float) -> None:
        clock = client.clock
        await clock.sleep_until(at - client.offset)
        if bot.plan == (action, at):
            bot.plan = None  # spent: the same plan again later is a new one
        sent[:] = [(action, at)]
        with contextlib.suppress(Exception):
            await client.send(action)

    try:
        async for message in client:
            if isinstance(message, Reconnected):
                message = message.welcome
            if isinstance(message, Disconnected):
                break
            before = bot.plan
            if isinstance(message, p.Error) and message.code == "rate_limited" and sent:
                # the host dropped the action: try it again a second later
                bot.plan = (sent[0][0], sent[0][1] + 1.0)
            replies = bot.receive(message)
            if isinstance(message, p.Over):
                results.append(message)
                if on_over is not None:
                    on_over(message)
                if games is not None and len(results) >= games:
                    break  # done: no "ready" for another game
            for reply in replies:
                await client.send(reply)
            if bot.plan != before:
                if timer is not None:
                    timer.cancel()
                    timer = None
                if bot.plan is not None:
                    timer = asyncio.create_task(act_at(*bot.plan))
            if isinstance(message, p.Bye):
                break
    finally:
        if timer is not None:
            timer.cancel()
    return results
