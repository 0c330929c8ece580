"""Where the app and the plain seat read a league (``net.league``): this machine's, the
serve host's for a served app, or, joined to a LAN host, that host's (asked over the
table's connection: protocol 4's ``standings``). Headless (no Textual): the League
screen (``tui.screens.league``) and the plain seat's ``league`` (``tui.plain.league``)
share it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

#: what the screen reads: (game, season) -> (standings, seasons' names, a problem, and
#: how many players the standings leave out: a host answers with the best of each game)
Reader = Callable[[str | None, str | None],
                  Awaitable[tuple[list[Any], list[str], str | None, int]]]


def local_league(saves: Any) -> Reader:
    """This machine's league, through the app's saves service."""

    async def read(game: str | None, season: str | None):
        return (*saves.league(game, season), 0)

    return read


def served_league(control: str) -> Reader:
    """The serve host's league (a served app: ``net.served``)."""

    async def read(game: str | None, season: str | None):
        from net.served import ServedError, league

        try:
            lines, names = await league(control, game, season)
        except ServedError as error:
            return [], [], f"The server cannot show its league: {error}", 0
        return lines, names, None, 0

    return read


def joined_host(session: Any) -> str | None:
    """The address of the LAN host ``session`` is joined to ("192.168.1.20:7777"), or
    None: no session, or one whose host runs here (solo, hot-seat, hosting)."""
    if session is None or not session.policy.remote or session.closed:
        return None
    return session.client.address


def host_league(session: Any) -> Reader:
    """The league of the LAN host ``session`` is joined to (``net.league.asked``): its
    best players of each game, and how many more there are."""

    async def read(game: str | None, season: str | None):
        from net.league.asked import NotAnswered, host_standings

        try:
            lines, names, more = await host_standings(session.client, game, season)
        except NotAnswered as error:
            return [], [], str(error), 0
        return lines, names, None, more

    return read
