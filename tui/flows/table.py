"""At a table: what the app's session reports reaches the lobby and the table screens.

The app attaches a session (`MotherlodeApp.attach`) and hands this flow every message
of the current one; each goes to the screens that show it, by its type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui.flows.base import Flow
from tui.messages import (
    AgainChanged,
    ChatSaid,
    GameStarted,
    LogLine,
    Reacted,
    Refused,
    SessionEnded,
    SessionMessage,
    StatusLine,
    TableChanged,
    ViewChanged,
)


class TableFlow(Flow):
    """The lobby and the table of the app's session, kept up to date."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.routes: dict[type[SessionMessage], Callable[[Any], None]] = {
            TableChanged: self.table_changed, GameStarted: self.game_started,
            ViewChanged: self.view_changed, LogLine: self.log_line, ChatSaid: self.log_line,
            StatusLine: self.status_line, Refused: self.refused, SessionEnded: self.ended,
            AgainChanged: self.again_changed, Reacted: self.reacted,
        }

    def receive(self, message: SessionMessage) -> None:
        """A message of the current session (the app drops a closed session's)."""
        route = self.routes.get(type(message))
        if route is not None:
            route(message)

    def table_changed(self, message: TableChanged) -> None:
        app = self.app
        if app.lobby is not None:
            app.lobby.show_table(message.table, message.seats, message.owner)
        if app.table is not None:
            app.table.set_seats(message.seats)
            app.table.set_away(frozenset(
                s.seat for s in message.table.seats
                if s.kind == "human" and (not s.connected or s.standin)))

    def game_started(self, message: GameStarted) -> None:
        from tui.plugin import TableContext, game_of

        app = self.app
        if app.table is not None:
            # a new game at the same table (LAN play again): start from a clean screen
            if app.screen is app.table:
                app.pop_screen()
            app.table = None
        session = app.session
        assert session is not None
        app.table = game_of(message.game).table_screen(TableContext(
            message.seats, message.names, ascii_mode=app.ascii_mode,
            advisor=app.settings.advisor, hotseat=session.policy.hotseat,
            turn_pause=app.turn_pause, host_now=session.host_now))  # fmt: skip
        app.push_screen(app.table)
        guided = app.flows.solo.guided
        if guided == message.game and message.seats:
            # the guided first round the person asked for (``SoloFlow``): once
            app.flows.solo.guided = None
            guide = game_of(message.game).guide()
            if guide is not None:
                app.table.start_guide(guide)
        app.table.add_log(f"Seed hash {message.seed_hash[:16]}... (revealed at the end)")

    def view_changed(self, message: ViewChanged) -> None:
        from tui.alerts import game_alert

        if self.app.table is not None:
            self.app.table.show_state(message.view, message.events)
            self.app.table.update_guide()
        game_alert(self.app, message.session, message.events)

    def log_line(self, message: LogLine) -> None:
        app = self.app
        if app.table is not None:
            app.table.add_log(message.text)
        if app.lobby is not None:
            app.lobby.add_chat(message.text)

    def status_line(self, message: StatusLine) -> None:
        app = self.app
        if app.table is not None:
            app.table.show_status(message.text)
        if app.lobby is not None:
            app.lobby.show_status(message.text)
        app.screen.refresh_bindings()  # a drop or a return changes which keys work

    def again_changed(self, message: AgainChanged) -> None:
        """The rematch offer: in the table's log and status line, and the lobby's chat."""
        app = self.app
        mine = message.session.seats
        if app.table is not None:
            app.table.show_again(message.state, message.news, mine)
        if app.lobby is not None:
            for line in message.news:
                app.lobby.add_chat(line)
        app.screen.refresh_bindings()

    def reacted(self, message: Reacted) -> None:
        """A reaction: one log line, and a fading mark by the player's name."""
        app = self.app
        if app.table is not None:
            app.table.add_log(message.text)
            app.table.show_reaction(message.seat, message.reaction)
        if app.lobby is not None:
            app.lobby.add_chat(message.text)

    def refused(self, message: Refused) -> None:
        app = self.app
        if app.table is not None and app.screen is app.table:
            app.table.show_error(message.text)
        elif app.lobby is not None:
            app.lobby.show_status(f"Refused: {message.text}")
        else:
            app.notify(message.text, severity="error")

    def ended(self, message: SessionEnded) -> None:
        from tui.flows.messages import JoinGame
        from tui.screens.common import MessageScreen

        app = self.app
        if message.error is not None:
            app.flows.crash.report(message.error)
            return
        # the host ended it, or the line did: the seat (if any) is not given up here,
        # so a host that comes back (``--resume``) still knows this player
        app.return_to_menu(give_up=False)
        if message.title and message.rejoin is not None:
            host, port = message.rejoin

            def answered(key: str | None) -> None:
                if key == "j":
                    app.flows.open(JoinGame(host, port))

            app.push_screen(MessageScreen(message.title, message.body,
                                          keys=[("j", "join again"), ("enter", "OK")]),
                            answered)
        elif message.title:
            app.show_message(message.title, message.body)

