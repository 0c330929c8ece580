"""Messages of the app.

State flows down (the app sets screens' and widgets' state); intent flows up as these
messages, handled with `@on(...)`. A `tui.session.Session` posts the `Session*`
messages: what its table did, already digested for the screens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from net import protocol as p
    from net.views import Event, View


class SendAction(Message):
    """A screen wants a protocol message sent to the host (a game action, a lobby
    request, chat)."""

    def __init__(self, action: Any) -> None:
        super().__init__()
        self.action = action


# -- what a session posts -------------------------------------------------------------


class SessionMessage(Message):
    """Something a session reports; ``session`` tells the app which one (a message of
    a session already closed is ignored)."""

    def __init__(self, session: Any) -> None:
        super().__init__()
        self.session = session


class TableChanged(SessionMessage):
    """The table's public info, and which of its seats are this connection's."""

    def __init__(self, session: Any, table: p.TableInfo, seats: list[int], owner: bool) -> None:
        super().__init__(session)
        self.table = table
        self.seats = seats
        self.owner = owner


class GameStarted(SessionMessage):
    """A game began, or is already running when this connection arrived: open its
    table. ``seats`` is empty for a spectator."""

    def __init__(self, session: Any, game: str, names: list[str], seats: list[int],
                 seed_hash: str) -> None:
        super().__init__(session)
        self.game = game
        self.names = names
        self.seats = seats
        self.seed_hash = seed_hash


class ViewChanged(SessionMessage):
    """A new view of the game for this connection, and the events that led to it."""

    def __init__(self, session: Any, view: View, events: list[Event]) -> None:
        super().__init__(session)
        self.view = view
        self.events = events


class LogLine(SessionMessage):
    """A line for the table's log or the lobby's chat: literal text."""

    def __init__(self, session: Any, text: str) -> None:
        super().__init__(session)
        self.text = text


class ChatSaid(LogLine):
    """A person's chat line: ``name`` and what they ``said`` (both cleaned by the host).
    ``text`` is the line the app's log shows; the plain seat sets chat apart in words of
    its own ("Chat from Ann: good luck")."""

    def __init__(self, session: Any, name: str, said: str) -> None:
        super().__init__(session, f"{name}: {said}")
        self.name = name
        self.said = said


class AgainChanged(LogLine):
    """The rematch offer changed (``state``: the host's ``again``); ``news``: its lines
    for the log ("Bob offers a rematch...")."""

    def __init__(self, session: Any, state: p.AgainState, news: list[str]) -> None:
        super().__init__(session, "\n".join(news))
        self.state = state
        self.news = news


class Reacted(LogLine):
    """Someone reacted: ``seat`` (None: a watcher), the reaction's name and its line
    ("Ann reacts: Nice!")."""

    def __init__(self, session: Any, seat: int | None, reaction: str, text: str) -> None:
        super().__init__(session, text)
        self.seat = seat
        self.reaction = reaction


class StatusLine(SessionMessage):
    """A status line that stays until the next one (reconnects, waits); "" clears it."""

    def __init__(self, session: Any, text: str) -> None:
        super().__init__(session)
        self.text = text


class Refused(SessionMessage):
    """The host refused something this connection asked."""

    def __init__(self, session: Any, text: str) -> None:
        super().__init__(session)
        self.text = text


class SessionEnded(SessionMessage):
    """The session is over: back to the menu, saying ``title`` and ``body`` if given."""

    def __init__(self, session: Any, title: str | None = None, body: str = "",
                 error: BaseException | None = None,
                 rejoin: tuple[str, int] | None = None) -> None:
        super().__init__(session)
        self.title = title
        self.body = body
        self.error = error  # an unexpected error (a bug): the app logs it
        self.rejoin = rejoin  # the address to offer joining again (a remote table)
