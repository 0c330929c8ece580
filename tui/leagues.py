"""Where the app and the plain seat read a league (``net.league``): this machine's, or
the serve host's for a served app. Headless (no Textual): the League screen
(``tui.screens.league``) and the plain seat's ``league`` (``tui.plain.league``) share
it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

#: what the screen reads: (game, season) -> (standings, seasons' names, a problem)
Reader = Callable[[str | None, str | None], Awaitable[tuple[list[Any], list[str], str | None]]]


def local_league(saves: Any) -> Reader:
    """This machine's league, through the app's saves service."""

    async def read(game: str | None, season: str | None):
        return saves.league(game, season)

    return read


def served_league(control: str) -> Reader:
    """The serve host's league (a served app: ``net.served``)."""

    async def read(game: str | None, season: str | None):
        from net.served import ServedError, league

        try:
            lines, names = await league(control, game, season)
        except ServedError as error:
            return [], [], f"The server cannot show its league: {error}"
        return lines, names, None

    return read
