"""The saves as the app sees them: one service, made once by the app and handed to the
screens, flows and launchers that read or write a save. Nothing else in ``tui`` opens
the saves database (``net.saves``) or the kept seats (``net.seats``).

What a screen reads comes back with what went wrong, in words (a damaged database is
named, never a traceback): ``(value, problem)``, ``problem`` None when all is well.
The saves' machinery is imported only when a save is first read, so the menu opens
without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from net.saves import Kept, Saved, Store
    from net.saves.stats import PlayerStats
    from net.seats import SeatStore

#: where finished, abandoned and LAN games are kept (``net.saves.KINDS``)
TABLES = "tables"
#: where hot-seat games wait to be resumed
HOTSEAT = "hotseat"


class Saves:
    """The saves database and the kept seats, for the app."""

    # -- the launchers: where a table saves itself, where a remote seat is kept ------------

    def store(self, kind: str = TABLES) -> Store:
        """The store of ``kind`` (``"tables"``, ``"hotseat"``, ``"solo"``)."""
        from net.saves import Store

        return Store.default(kind)

    def seats(self) -> SeatStore:
        """The seats this machine holds at other people's tables (their tokens)."""
        from net.seats import SeatStore

        return SeatStore()

    def seats_at(self, host: str, port: int, name: str) -> list[Any]:
        """The seats kept at ``host:port`` under ``name``, newest first; none on trouble."""
        try:
            return self.seats().seats_at(host, port, name)
        except OSError:
            return []

    # -- the menu: games waiting to be played on --------------------------------------------

    def hotseat_waiting(self) -> bool:
        """Whether a hot-seat game waits to be resumed: a glance, read-only (it never
        creates the database), False on any trouble."""
        from net.paths import has_saves

        return has_saves(HOTSEAT)

    def hotseat_games(self) -> list[Saved]:
        """The saved hot-seat games that read, newest first."""
        from net.saves import load_all

        saves, _ = load_all(self.store(HOTSEAT))
        return saves[::-1]

    def lan_tables(self) -> tuple[list[Saved], list[str]]:
        """The saved LAN tables that read, and what was wrong with the others."""
        from net.saves import load_all

        return load_all(self.store(TABLES))

    def abandon(self, saves: list[Saved]) -> None:
        """Keep saved tables only as abandoned games (for replays)."""
        from net.saves import SaveError

        store = self.store(TABLES)
        for saved in saves:
            try:
                store.abandon(saved)
            except SaveError:
                pass  # the database cannot be written: the save stays as it was

    # -- replays and stats ------------------------------------------------------------------

    def kept(self, limit: int) -> tuple[list[Kept], str | None]:
        """The finished and abandoned games, newest first (at most ``limit``)."""
        from net.saves import SaveError

        try:
            return self.store(TABLES).kept(limit), None
        except SaveError as error:
            return [], str(error)

    def delete(self, ident: str) -> str | None:
        """Delete a kept game for good; what went wrong, if anything."""
        from net.saves import SaveError

        try:
            self.store(TABLES).delete(ident)
        except SaveError as error:
            return str(error)
        return None

    def open(self, game: Saved | str) -> Saved:
        """A game to replay: a ``Saved`` as it is, else an id (or its start) or an
        exported file; raises ``net.saves.SaveError``."""
        from net.saves import Saved, open_game

        return game if isinstance(game, Saved) else open_game(str(game))

    def stats(self, *, bots: bool = False) -> tuple[list[PlayerStats], str | None]:
        """Every player's figures per game, from the finished games."""
        from net.saves import SaveError

        try:
            return self.store(TABLES).stats(bots=bots), None
        except SaveError as error:
            return [], str(error)

    def league(self, game: str | None = None, season: str | None = None
               ) -> tuple[list[Any], list[str], str | None]:  # fmt: skip
        """This machine's league (``net.league``): the standings of ``game`` in
        ``season`` (all time: None), the seasons' names, and a problem to show."""
        from net.league.ledger import LeagueError
        from net.league.standings import seasons, standings
        from net.saves import SaveError

        try:
            return self.store(TABLES).league(lambda conn: (
                standings(conn, game, season), [s["name"] for s in seasons(conn)], None))
        except (SaveError, LeagueError) as error:
            return [], [], str(error)

    @staticmethod
    def stats_lines(rows: list[PlayerStats]) -> list[str]:
        """The figures as plain lines, as ``motherlode stats`` prints them."""
        from net.saves.cli import table_lines

        return table_lines(rows)
