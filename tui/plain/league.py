"""The plain seat's ``league``: the standings of the table's game, as lines, read from
the league this seat belongs to: the serve host's where the seat is served (asked of
the serve process), the LAN host's where it joined one (asked over the table's
connection; the lines open with "League at 192.168.1.20:7777"), else this machine's
(its saves). Asked at any time, in the lobby or in a game; the answer comes as the
lines after it."""

from __future__ import annotations

import asyncio
from typing import Any

from net.league.cli import standing_lines
from tui.plain.seat import PlainSeat

#: the players shown: the head of the standings (a big league reads on the League screen)
SHOWN = 12


class LeagueSeat(PlainSeat):
    """A plain seat that answers ``league`` (see the module docstring). ``read`` is a
    League screen's reader (``tui.screens.league``): (game, season) -> standings."""

    def __init__(self, *args: Any, read: Any = None, where: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.read = read
        self.where = where  # the LAN host whose league it is (None: this machine's, served)
        self._asked: set[asyncio.Task] = set()

    def _one(self, words: list[str]) -> bool:
        if words and words[0].casefold() == "league" and self.read is not None:
            task = asyncio.get_running_loop().create_task(self._league(words[1:]))
            self._asked.add(task)
            task.add_done_callback(self._asked.discard)
            return True
        return super()._one(words)

    async def _league(self, words: list[str]) -> None:
        season = " ".join(words) or None
        lines, _, problem, more = await self.read(self.game, season)
        if self.where is not None:
            self.say(f"League at {self.where}:")
        if problem:
            self.say(problem)
            return
        if not lines:
            self.say("No rated games yet: a finished game with a person at it is rated.")
            return
        for line in standing_lines(lines[:SHOWN], season):
            self.say(line.rstrip())
        if len(lines) + more > SHOWN:
            self.say(f"... and {len(lines) + more - SHOWN} more (the app's League screen).")

    def _help(self) -> str:
        said = super()._help()
        return said.replace("Questions: ", "Questions: league, ", 1) if self.read else said
