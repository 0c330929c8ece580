"""A joined client asks its host for the host's league (protocol 4's ``standings``):
:func:`host_standings`, for the app's League screen and the plain seat's ``league``
while they are at a table of a LAN host (``tui.leagues.host_league``).

Every way it can fail is one sentence (:class:`NotAnswered`), never a traceback: a host
of protocol 3, or of protocol 4 from before ``standings``, has no league to share; a
season it does not have; no answer within the time-out; the connection gone.
"""

from __future__ import annotations

from typing import Any

from net import protocol as p
from net.league.standings import Standing
from net.protocol import Code

#: seconds a question waits for its answer
TIMEOUT = 10.0


class NotAnswered(Exception):
    """The host's standings could not be had; the message says why, in words."""


def standing(line: p.StandingLine) -> Standing:
    """A line of the host's answer as a line of the standings (as this machine's own
    league reads them: ``net.league.standings``)."""
    return Standing(line.rank, line.name, line.name.casefold(), line.game, line.rating,
                    line.games, line.wins, line.provisional, line.rated_games,
                    line.last_played)  # fmt: skip


async def host_standings(client: Any, game: str | None, season: str | None,
                         timeout: float = TIMEOUT) -> tuple[list[Standing], list[str], int]:
    """The standings of the host ``client`` is joined to: its lines (the best of each
    game), its seasons' names, and how many players the answer left out. Raises
    :class:`NotAnswered`."""
    from net.client import NetError

    where = client.address
    old = (f"The host at {where} runs an older Motherlode, without a league to share: "
           "update it there to see its standings here.")
    if client.protocol < 4:
        raise NotAnswered(old.replace("an older Motherlode", f"protocol {client.protocol}"))
    try:
        answer = await client.asks.ask(client, p.AskStandings(game=game, season=season),
                                       p.Standings, timeout)  # fmt: skip
    except TimeoutError:
        raise NotAnswered(f"The host at {where} did not answer within {timeout:g} s: "
                          "try again.") from None
    except NetError as error:
        raise NotAnswered(f"Not connected to the host at {where}: {error.message}") from None
    if isinstance(answer, p.Error):
        raise NotAnswered(old if answer.code == Code.UNKNOWN_TYPE else answer.message)
    return [standing(line) for line in answer.lines], answer.seasons, answer.more
