"""The kept games: the Replays list, the players' stats, and one game step by step."""

from __future__ import annotations

from tui.flows.base import Flow
from tui.flows.messages import OpenFlow, OpenReplay, ShowLeague, ShowReplays, ShowStats


class ReplayFlow(Flow):
    """Replays and stats read the saves through the app's saves service."""

    def open(self, message: OpenFlow) -> None:
        if isinstance(message, ShowReplays):
            from tui.screens.replays import ReplaysScreen

            self.app.push_screen(ReplaysScreen(self.app.saves))
        elif isinstance(message, ShowStats):
            from tui.screens.stats import StatsScreen

            self.app.push_screen(StatsScreen(self.app.saves))
        elif isinstance(message, ShowLeague):  # the serve host's or a LAN host's, if there
            from tui.leagues import host_league, joined_host, local_league, served_league
            from tui.screens.league import LeagueScreen

            served, session = self.app.served, self.app.session
            where = None if served is not None else joined_host(session)
            if where is not None:  # at a LAN host's table: that host's league
                self.app.push_screen(LeagueScreen(host_league(session), where))
                return
            read = local_league(self.app.saves) if served is None else served_league(served[2])
            self.app.push_screen(LeagueScreen(read))
        elif isinstance(message, OpenReplay):
            self.replay(message.game, message.seat)

    def replay(self, game: object, seat: int | None = None) -> None:
        """Step through a saved game (``motherlode replay ID|FILE``, the Replays list):
        a ``net.saves.Saved``, an id or a file; one that does not replay gets a message,
        never a traceback."""
        from net.saves import SaveError
        from tui.screens.replay import Replay, replay_screen

        app = self.app
        try:
            replay = Replay(app.saves.open(game))
        except SaveError as error:
            app.show_message("Cannot replay that game", str(error))
            return
        if seat is not None and not 0 <= seat < len(replay.names):
            app.show_message("No such seat", f"That game has seats 1 to {len(replay.names)}.")
            return
        app.push_screen(replay_screen(replay, seat, ascii_mode=app.ascii_mode))
