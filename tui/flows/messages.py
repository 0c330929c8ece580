"""What a screen, the command palette or the command line asks the app to open.

Each is an `OpenFlow`: a typed Textual message that bubbles up to the app, which hands
it to the flow that opens it (`tui.flows.routes`). A screen never calls the app.
"""

from __future__ import annotations

from typing import Any

from textual.message import Message


class OpenFlow(Message):
    """Something to open: a form, a list, a game, a table."""

    #: played under the person's own name: a first run asks for it before this opens
    NAMED = False


class Quit(OpenFlow):
    """Leave Motherlode."""


class ShowRules(OpenFlow):
    """The rules of every game."""


class ShowSettings(OpenFlow):
    """The settings form."""


class ShowReplays(OpenFlow):
    """The kept games, to replay or delete."""


class ShowStats(OpenFlow):
    """Every player's figures."""


class ShowLeague(OpenFlow):
    """The league's standings (ratings per game and season)."""


class SetUpHotseat(OpenFlow):
    """The hot-seat form: who sits where."""


class StartHotseat(OpenFlow):
    """Play hot-seat on this keyboard: ``seats`` are (name, bot) in seat order."""

    def __init__(self, seats: list[tuple[str, bool]]) -> None:
        super().__init__()
        self.seats = list(seats)


class ResumeGame(OpenFlow):
    """Pick a saved hot-seat game and play on."""


class PlayBots(OpenFlow):
    """Play ``game`` (a catalogue key) against bots: ``bots`` of them, None to ask;
    ``guided``: its guided first round (``solo --guided``), offered or not before."""

    NAMED = True

    def __init__(self, game: str, bots: int | None = None, guided: bool = False) -> None:
        super().__init__()
        self.game = game
        self.bots = bots
        self.guided = guided


class HostGame(OpenFlow):
    """Host a LAN table (or restore the saved ones)."""


class FindGame(OpenFlow):
    """The join form: tables found on the network, or an address."""


class JoinGame(OpenFlow):
    """Join the table at ``host:port`` (``watch``: as a spectator). Served, it joins
    again the table this player was at."""

    NAMED = True

    def __init__(self, host: str, port: int, watch: bool = False) -> None:
        super().__init__()
        self.host = host
        self.port = port
        self.watch = watch


class OpenReplay(OpenFlow):
    """Step through a kept game: a ``net.saves.Saved``, an id or an exported file,
    from ``seat`` (None: as a spectator)."""

    def __init__(self, game: Any, seat: int | None = None) -> None:
        super().__init__()
        self.game = game
        self.seat = seat


class JoinServedTable(OpenFlow):
    """Served: sit at (or ``watch``) the serve host's table called ``name``."""

    def __init__(self, name: str, watch: bool = False) -> None:
        super().__init__()
        self.name = name
        self.watch = watch


class NewServedTable(OpenFlow):
    """Served: start a new table of ``game`` (a catalogue key) at the serve host."""

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game


def start_message(start: tuple[Any, ...]) -> OpenFlow | None:
    """What a command line's start opens (``tui.cli``: ``("join", host, port, watch)``,
    ``("hotseat", seats)``, ``("solo", game, bots)``, ``("replay", game, seat)``);
    None for the menu."""
    kind, *args = start
    if kind == "join":
        return JoinGame(args[0], args[1], bool(args[2]) if len(args) > 2 else False)
    if kind == "hotseat":
        return StartHotseat(args[0])
    if kind == "solo":
        return PlayBots(args[0], args[1], guided=len(args) > 2 and args[2] is True)
    if kind == "replay":
        return OpenReplay(args[0], args[1] if len(args) > 1 else None)
    return None
