"""The Motherlode Textual app: menu, lobby and both game tables.

The app never touches rules objects. It talks to a host through one
`tui.session.Session` (opened by a launcher of `tui.modes`): what the table does comes
in as the session's typed messages, which the app hands to the lobby and table
screens; actions go out from `SendAction` messages. Screens render; the app routes.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import os
import signal
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from tui.keys import with_ids
from tui.messages import (
    GameStarted,
    LogLine,
    Refused,
    SendAction,
    SessionEnded,
    SessionMessage,
    StatusLine,
    TableChanged,
    ViewChanged,
)
from tui.screens.menu import MenuScreen

if TYPE_CHECKING:
    from tui.screens.lobby import LobbyScreen
    from tui.screens.table import TableScreen
    from tui.session import Session
from net.catalogue import games, title
from tui.settings import Settings, log_dir

log = logging.getLogger("motherlode.tui")


def _game_commands() -> Any:
    from tui.commands import GameCommands

    return GameCommands


SMALL_SETTLE = 0.5  # seconds a too-small terminal lasts before a served player is told
TOO_SMALL = "Make the window bigger"

STEPPED_AWAY = (
    "Your seat is kept, and a bot plays it until you are back. To come back, join the "
    "same table again (the same address and name): you get your seat, hand and dice back."
)


class MotherlodeApp(App[int]):
    """The terminal app. `start` picks what opens: the menu or a shortcut mode."""

    CSS_PATH = "motherlode.tcss"
    TITLE = "Motherlode"
    # ctrl+p: a table needs no ctrl key, so the palette never takes one of a game's keys
    COMMANDS = {lambda: _game_commands()}
    COMMAND_PALETTE_DISPLAY = "ctrl+p"
    BINDINGS = with_ids("app", [
        Binding("question_mark", "help", "Keys"),
        # F1 works where "?" is a character to type (chat)
        Binding("f1", "help", "Help", show=False),
        # in every screen's help ("Everywhere"), but not in footers: q leaves or quits there
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False),
    ])
    APP_HELP = [("? or F1", "show every key of this screen"),
                ("ctrl+p", "commands: host, join, rules, settings, ASCII, advisor, theme"),
                ("ctrl+q", "quit Motherlode")]

    def __init__(
        self,
        *,
        settings: Settings | None = None,
        settings_path: Path | None = None,
        ascii_mode: bool | None = None,
        start: tuple[Any, ...] = ("menu",),
        table_options: dict[str, Any] | None = None,
        host_clock: Any = None,
        client_clock: Any = None,
        lan_port: int = 7777,
        lan_bind: str | None = None,
        announce: bool = True,
        discover: bool = True,
        connect_timeout: float = 10.0,
        browse_options: dict[str, Any] | None = None,
        announce_options: dict[str, Any] | None = None,
        turn_pause: float | None = None,
    ) -> None:
        super().__init__()
        # How local and LAN hosts are made; tests fix seeds, clocks and ports here.
        self.table_options = dict(table_options or {})
        self.host_clock = host_clock
        self.client_clock = client_clock
        self.lan_port = lan_port
        self.lan_bind = lan_bind
        self.announce = announce
        self.discover = discover
        self.connect_timeout = connect_timeout
        # LAN discovery (net.discovery): options of the browser and the announcer
        self.browse_options = dict(browse_options or {})
        self.announce_options = dict(announce_options or {})
        # hot-seat: how long keys wait after the turn changes hands (None: the default)
        self.turn_pause = turn_pause
        self.settings = settings or Settings.load(settings_path)
        self.settings_path = settings_path
        self.ascii_mode = self.settings.ascii if ascii_mode is None else ascii_mode
        self.start = start
        self.session: Session | None = None
        self.lobby: LobbyScreen | None = None
        self.table: TableScreen | None = None
        self.crash_log: Path | None = None
        self.crash_message = ""
        # served mode (`motherlode serve`): (host, port, table directory), and the table
        # a join there is for
        self.served: tuple[str, int, str] | None = None
        self.served_table: str | None = None
        self.detached = False  # served: the door says nobody is at this terminal
        self._small_said = False
        self._small_timer: Any = None
        self._sized: Any = None  # the size of the last Resize (see on_resize)

    # -- start -----------------------------------------------------------------------

    def _apply_ascii(self) -> None:
        self.set_class(self.ascii_mode, "-ascii")

    def get_default_screen(self) -> Screen:
        """The menu is the first screen itself (not pushed over an empty one, which
        was styled, resumed and suspended unseen before the menu's first frame);
        served mode opens its own menu over an empty screen."""
        if self.start[0] == "served":
            return super().get_default_screen()
        return MenuScreen()

    def on_mount(self) -> None:
        from tui.widgets.board import MIN_SIZE

        self.set_class(self.size.width < MIN_SIZE[0] or self.size.height < MIN_SIZE[1],
                       "-too-small")
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.on_terminal_signal)
        self._apply_ascii()
        self._apply_theme()
        if self.settings.keys:
            self.set_keymap(self.settings.keys)
        kind, *args = self.start
        if kind == "served":
            # the door says when its player's line drops and when they are back
            for sig, handler in ((signal.SIGUSR1, self.on_player_detached),
                                 (signal.SIGUSR2, self.on_player_attached)):
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.add_signal_handler(sig, handler)
            # a door that died without hanging up (kill -9) leaves no one to: an app
            # whose server is gone ends as if its terminal closed (its pty is dead)
            door = os.getppid()
            self.set_interval(2.0, lambda: os.getppid() != door and self.on_terminal_signal())
            self._open_served(*args)
            return
        if kind in self.ASKS_NAME and not self.settings.named:
            self._ask_first_name(kind, args)
        elif kind != "menu":
            self.menu_choice(kind, *args)

    # the first run asks for a name where the player's own name plays (not hot-seat,
    # which names its seats, nor a replay); served mode gets it from the door
    ASKS_NAME = ("menu", "solo", "join")

    def _ask_first_name(self, kind: str, args: Any) -> None:
        """No name chosen yet (no settings file with one): ask once, offering the login
        name, and keep the answer in the settings."""
        from tui.screens.served import FirstNameScreen
        from tui.settings import clean_name

        def answered(name: str | None) -> None:
            cleaned = self.settings.name if name is None else clean_name(name)
            if not cleaned:
                self.push_screen(FirstNameScreen("Your name needs a visible character.",
                                                 default=self.settings.name), answered)
                return
            self.settings.name = cleaned
            self.settings.named = True
            try:
                self.save_settings()
            except OSError as error:  # a read-only config directory: play on, say so
                self.notify(f"The name could not be saved ({error}).", severity="warning")
            if kind != "menu":
                self.menu_choice(kind, *args)

        self.push_screen(FirstNameScreen(default=self.settings.name), answered)

    def toggle_ascii(self) -> None:
        self.settings.ascii = not self.ascii_mode
        self.save_settings()

    def toggle_advisor(self) -> None:
        self.settings.advisor = not self.settings.advisor
        self.save_settings()
        if self.table is not None and hasattr(self.table, "advisor_on"):
            self.table.advisor_on = self.settings.advisor

    def use_theme(self, theme: str) -> None:
        self.settings.theme = theme
        self.save_settings()

    def on_resize(self, event) -> None:
        from tui.widgets.board import MIN_SIZE, TooSmall

        # Textual lays the screens out again and repaints them for a Resize to the size
        # they already have (three arrive as the app starts: three more layouts and
        # paints of the menu after its first frame); only a new size goes on to them
        if event.size == self._sized:
            event.prevent_default()
        self._sized = event.size

        small = event.size.width < MIN_SIZE[0] or event.size.height < MIN_SIZE[1]
        self.set_class(small, "-too-small")
        for notice in self.screen.query(TooSmall):
            notice.refresh()
        if self.served is None:
            return
        # a served player cannot see the server's terminal: say it wherever they are, once
        # the small size has lasted (the SSH door's repaint of a re-attached terminal
        # shrinks it by a row for a moment, and that is no reason to ask for a bigger one)
        if self._small_timer is not None:
            self._small_timer.stop()
            self._small_timer = None
        if not small:
            self._small_said = False
            # the size is back: a warning still on screen is no longer true
            for notice in [n for n in self._notifications if n.message.startswith(TOO_SMALL)]:
                self._unnotify(notice)
        elif not self._small_said:
            self._small_timer = self.set_timer(SMALL_SETTLE, self._say_too_small)

    def _say_too_small(self) -> None:
        from tui.widgets.board import MIN_SIZE

        self._small_timer = None
        width, height = self.size
        if width >= MIN_SIZE[0] and height >= MIN_SIZE[1]:
            return
        self._small_said = True
        self.notify(f"{TOO_SMALL}: the tables need {MIN_SIZE[0]}x{MIN_SIZE[1]} "
                    f"(this one is {width}x{height}).", severity="warning", timeout=6)

    def _apply_theme(self) -> None:
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        else:
            self.notify(f"No theme called {self.settings.theme!r}: using {self.theme}.",
                        severity="warning")

    def save_settings(self) -> Path:
        self._apply_theme()
        path = self.settings.save(self.settings_path)
        if self.settings.ascii != self.ascii_mode:
            self.ascii_mode = self.settings.ascii
            self._apply_ascii()
        return path

    # -- served mode: a session of `motherlode serve` (SSH or web) ----------------------

    SERVED_CHOICES = ("quit", "rules", "settings", "join", "served-join", "new-nuggets",
                      "new-foolsgold")

    def _open_served(self, host: str, port: int, control: str, named: bool = True) -> None:
        from tui.screens.served import NameScreen, ServedMenuScreen

        self.served = (host, port, control)
        self._bind_served_link(control)
        if named:
            self.push_screen(ServedMenuScreen(self.served_tables, self.settings.name))
            self._back_to_kept_seat()
            return

        def answered(name: str | None, problem: str = "") -> None:
            from tui.settings import clean_name

            if name is None:
                self.exit(0)
                return
            cleaned = clean_name(name)
            if not cleaned:
                self.push_screen(NameScreen("Your name needs a visible character."), answered)
                return
            self.settings.name = cleaned
            self.push_screen(ServedMenuScreen(self.served_tables, cleaned))

        self.push_screen(NameScreen(), answered)

    @staticmethod
    def _bind_served_link(control: str) -> None:
        """Lag-fair races: the door that started this app measures the person's own
        link; every connection to the serve host is judged by that measurement."""
        import os

        from net.client import Client
        from net.served import LINK_ENV, ServedError, bind_link

        link = os.environ.get(LINK_ENV)
        if not link:
            return

        async def bind(client: Client) -> None:
            port = client.local_port
            if port is not None:
                with contextlib.suppress(ServedError):
                    await bind_link(control, link, port)

        Client.after_handshake = bind

    def _back_to_kept_seat(self) -> None:
        """A served player whose app ended while they held a seat here (the server
        restarted, their waiting app timed out) goes straight back to it."""
        from net.seats import SeatStore
        from tui import modes

        assert self.served is not None
        host, port, _ = self.served
        try:
            kept = SeatStore().seats_at(host, port, self.settings.name)
        except OSError:
            return
        if kept:
            self.served_table = kept[0].table
            self.launch(modes.join(self.launch_options(), host, port, table=kept[0].table))

    def _served_menu_class(self) -> type:
        if self.served is None:
            return MenuScreen
        from tui.screens.served import ServedMenuScreen

        return ServedMenuScreen

    async def served_tables(self) -> list[Any]:
        """The serve host's tables (for the served menu); raises on a failure."""
        from net.served import ServedError, list_tables

        assert self.served is not None
        try:
            return await list_tables(self.served[2])
        except ServedError as error:
            raise RuntimeError(str(error)) from None

    def _served_choice(self, choice: str, *args: Any) -> bool:
        """Served mode's own choices; True when handled here."""
        from tui import modes

        assert self.served is not None
        host, port, control = self.served
        if choice not in self.SERVED_CHOICES or (choice == "join" and not args):
            # the join form would dial any address from the server
            self.notify("That is not available when playing on a server.", severity="warning")
            return True
        if choice == "served-join":
            self.served_table, watch = args[0], bool(args[1])
            self.launch(modes.join(self.launch_options(), host, port, spectate=watch,
                                   table=self.served_table))
            return True
        if choice == "join" and args:  # watch instead, or join again: the same table
            spectate = bool(args[2]) if len(args) > 2 else False
            self.launch(modes.join(self.launch_options(), host, port, spectate=spectate,
                                   table=self.served_table))
            return True
        if choice in ("new-nuggets", "new-foolsgold"):
            game = choice.split("-")[1]
            self.launch(self._new_served_table(game))
            return True
        return False

    async def _new_served_table(self, game: str) -> Session:
        from net.served import ServedError, new_table
        from tui import modes

        assert self.served is not None
        host, port, control = self.served
        try:
            table = await new_table(control, game, self.settings.name)
        except ServedError as error:
            raise modes.LaunchFailed("Cannot start a table", str(error)) from None
        self.served_table = table
        # the first person to join a table owns it: add bots and start from its lobby
        return await modes.join(self.launch_options(), host, port, table=table)

    def menu_choice(self, choice: str, *args: Any) -> None:
        """Open what the menu (or a command-line shortcut) asked for."""
        from tui import modes
        from tui.screens.common import PickScreen, RulesScreen

        if self.served is not None and self._served_choice(choice, *args):
            return
        if choice == "quit":
            self.exit(0)
        elif choice == "rules":
            self.push_screen(RulesScreen())
        elif choice == "settings":
            from tui.screens.forms import SettingsScreen

            self.push_screen(SettingsScreen(self.settings))
        elif choice == "hotseat" and not args:
            from tui.screens.forms import HotseatScreen

            self.push_screen(HotseatScreen(self.settings.name))
        elif choice == "hotseat":
            self.start_hotseat(args[0])
        elif choice.endswith("-bots"):
            game = choice.removesuffix("-bots")
            most = modes.max_bots(game)
            choices = [(n, f"{n} bot{'s' if n > 1 else ''}") for n in range(1, most + 1)]

            def picked(bots: int | None) -> None:
                if bots:
                    self.launch(modes.solo(self.launch_options(), game, bots))

            self.push_screen(PickScreen(f"{title(game)}: how many bots?", choices), picked)
        elif choice == "solo":
            game, bots = args
            self.launch(modes.solo(self.launch_options(), game, bots))
        elif choice == "host":
            self._pick_lan_game()
        elif choice == "resume":
            self._pick_resume()
        elif choice == "replays":
            from tui.screens.replays import ReplaysScreen

            self.push_screen(ReplaysScreen())
        elif choice == "stats":
            from tui.screens.stats import StatsScreen

            self.push_screen(StatsScreen())
        elif choice == "replay":
            self._open_replay(args[0], args[1] if len(args) > 1 else None)
        elif choice == "join" and not args:
            from tui.screens.join import JoinScreen

            self.push_screen(JoinScreen())
        elif choice == "join":
            host, port = args[0], args[1]
            spectate = bool(args[2]) if len(args) > 2 else False
            self.launch(modes.join(self.launch_options(), host, port, spectate=spectate))
        else:
            self.notify(f"Unknown choice {choice!r}", severity="error")

    def start_hotseat(self, seats: list[tuple[str, bool]]) -> None:
        from tui import modes

        self.launch(modes.hotseat(self.launch_options(), seats))

    def launch_options(self) -> Any:
        """What the launchers (`tui.modes`) need from the app."""
        from tui.modes import Launch

        return Launch(
            name=self.settings.name, difficulty=self.settings.difficulty,
            table_options=dict(self.table_options), host_clock=self.host_clock,
            client_clock=self.client_clock, lan_port=self.lan_port, lan_bind=self.lan_bind,
            announce=self.announce, announce_options=dict(self.announce_options),
            connect_timeout=self.connect_timeout,
        )  # fmt: skip

    def launch(self, opening: Any) -> None:
        """Open a session from a launcher's coroutine, in a worker; a failure is said."""
        self.run_worker(self._launch(opening), group="mode", exclusive=True)

    async def _launch(self, opening: Any) -> None:
        from tui.modes import LaunchFailed

        try:
            session = await opening
        except LaunchFailed as failure:
            if failure.watch is not None:
                self._offer_watch(failure)
            else:
                self.show_message(failure.title, failure.body)
            return
        except Exception as error:  # a bug: logged, said, never a traceback
            self.report_error(error)
            return
        self.attach(session)

    def _offer_watch(self, failure: Any) -> None:
        from tui.screens.common import MessageScreen

        host, port = failure.watch

        def answered(key: str | None) -> None:
            if key == "w":
                self.menu_choice("join", host, port, True)

        self.push_screen(MessageScreen(failure.title, failure.body,
                                       keys=[("w", "watch the game"), ("esc", "back")]),
                         answered)

    def _pick_resume(self) -> None:
        """Choose a saved hot-seat game and play on."""
        from tui import modes
        from tui.screens.common import PickScreen

        saves = modes.saved_hotseat()
        if not saves:
            self.show_message("No saved games", "Hot-seat games are saved as you play; none "
                              "is waiting to be finished.")
            return
        choices = [(i, saved.describe()) for i, saved in enumerate(saves)]

        def chosen(index: int | None) -> None:
            if index is not None:
                self.launch(modes.resume_hotseat(self.launch_options(), saves[index]))

        self.push_screen(PickScreen("Resume which game?", choices), chosen)

    def _pick_lan_game(self) -> None:
        """Host a LAN game: offer to restore the saved tables if there are any, then ask
        where to listen."""
        from tui import modes
        from tui.screens.common import PickScreen

        saves, problems = modes.lan_saves()
        choices = [(i, spec.label) for i, spec in enumerate(games())]

        def chosen(index: int | None) -> None:
            if index is not None:
                spec = games()[index]
                self._ask_where(f"Host {spec.title}", spec.key, ())

        def restore_or_new(index: int | None) -> None:
            if index == 0:
                self._ask_where("Restore the saved tables", None, saves)
                return
            if index == 2:
                modes.abandon(saves)
                self.notify("The saved tables are kept as abandoned games, for replays.")
            if index in (1, 2):
                self.push_screen(PickScreen("Host which game?", choices), chosen)

        if problems:
            self.notify(problems[0], severity="warning")
        if not saves:
            self.push_screen(PickScreen("Host which game?", choices), chosen)
            return
        listed = "; ".join(saved.describe() for saved in saves[:3])
        self.push_screen(PickScreen(f"Saved LAN tables: {listed}", [
            (0, f"Restore {len(saves)} saved table{'s' if len(saves) > 1 else ''}: "
                "players come back to their seats"),
            (1, "Start a new table (keep the saves)"),
            (2, "Start a new table and give up the saved ones"),
        ]), restore_or_new)

    def _ask_where(self, title: str, game: str | None, saves: Any) -> None:
        """The port and interface to listen on (defaults: 7777, all interfaces)."""
        from tui import modes
        from tui.screens.forms import HostScreen

        def answered(where: tuple[int, str | None] | None) -> None:
            if where is None:
                return
            options = self.launch_options()
            options.lan_port, options.lan_bind = where
            self.launch(modes.lan_host(options, game, saves))

        self.push_screen(HostScreen(title, self.lan_port, self.lan_bind), answered)

    def _open_replay(self, game: Any, seat: int | None = None) -> None:
        """Step through a saved game (``motherlode replay ID|FILE``, the Replays list):
        a ``net.saves.Saved``, an id or a file; one that does not replay gets a message,
        never a traceback."""
        from net.saves import Saved, SaveError, open_game
        from tui.screens.replay import Replay, replay_screen

        try:
            replay = Replay(game if isinstance(game, Saved) else open_game(str(game)))
        except SaveError as error:
            self.show_message("Cannot replay that game", str(error))
            return
        if seat is not None and not 0 <= seat < len(replay.names):
            self.show_message("No such seat", f"That game has seats 1 to {len(replay.names)}.")
            return
        self.push_screen(replay_screen(replay, seat, ascii_mode=self.ascii_mode))

    # -- the session: what its table does reaches the screens ---------------------------

    def attach(self, session: Session) -> None:
        """Make ``session`` the app's connection (closing any previous one) and start it."""
        if self.session is not None:
            self.return_to_menu()
        self.session = session
        self.lobby = None
        self.table = None
        if session.policy.lobby:
            from tui.screens.lobby import LobbyScreen

            self.lobby = LobbyScreen(addresses=session.addresses)
            self.push_screen(self.lobby)
        session.start(self)

    def _current(self, message: SessionMessage) -> bool:
        return self.session is not None and message.session is self.session

    @on(TableChanged)
    def _table_changed(self, message: TableChanged) -> None:
        if not self._current(message):
            return
        if self.lobby is not None:
            self.lobby.show_table(message.table, message.seats, message.owner)
        if self.table is not None:
            self.table.set_seats(message.seats)

    @on(GameStarted)
    def _game_started(self, message: GameStarted) -> None:
        if not self._current(message):
            return
        if self.table is not None:
            # a new game at the same table (LAN play again): start from a clean screen
            if self.screen is self.table:
                self.pop_screen()
            self.table = None
        from tui.games import TableContext, game_of

        self.table = game_of(message.game).table_screen(TableContext(
            message.seats, message.names, ascii_mode=self.ascii_mode,
            advisor=self.settings.advisor, hotseat=self.session.policy.hotseat,
            turn_pause=self.turn_pause, host_now=self.session.host_now))  # fmt: skip
        self.push_screen(self.table)
        if not message.seats:
            self.table.add_log("You are watching this game.")
        self.table.add_log(f"Seed hash {message.seed_hash[:16]}... (revealed at the end)")

    @on(ViewChanged)
    def _view_changed(self, message: ViewChanged) -> None:
        if self._current(message) and self.table is not None:
            self.table.show_state(message.view, message.events)

    @on(LogLine)
    def _log_line(self, message: LogLine) -> None:
        if not self._current(message):
            return
        if self.table is not None:
            self.table.add_log(message.text)
        if self.lobby is not None:
            self.lobby.add_chat(message.text)

    @on(StatusLine)
    def _status_line(self, message: StatusLine) -> None:
        if not self._current(message):
            return
        if self.table is not None:
            self.table.show_status(message.text)
        if self.lobby is not None:
            self.lobby.show_status(message.text)
        self.screen.refresh_bindings()  # a drop or a return changes which keys work

    @on(Refused)
    def _refused(self, message: Refused) -> None:
        if not self._current(message):
            return
        if self.table is not None and self.screen is self.table:
            self.table.show_error(message.text)
        elif self.lobby is not None:
            self.lobby.show_status(f"Refused: {message.text}")
        else:
            self.notify(message.text, severity="error")

    @on(SessionEnded)
    def _session_ended(self, message: SessionEnded) -> None:
        from tui.screens.common import MessageScreen

        if not self._current(message):
            return
        if message.error is not None:
            self.report_error(message.error)
            return
        # the host ended it, or the line did: the seat (if any) is not given up here,
        # so a host that comes back (``--resume``) still knows this player
        self.return_to_menu(give_up=False)
        if message.title and message.rejoin is not None:
            host, port = message.rejoin

            def answered(key: str | None) -> None:
                if key == "j":
                    self.menu_choice("join", host, port)

            self.push_screen(MessageScreen(message.title, message.body,
                                           keys=[("j", "join again"), ("enter", "OK")]),
                             answered)
        elif message.title:
            self.show_message(message.title, message.body)

    @on(SendAction)
    def _send_action(self, message: SendAction) -> None:
        if self.session is None:
            self.notify("Not connected to a table.", severity="error")
            return
        self.session.send(message.action)

    def show_message(self, title: str, body: str) -> None:
        from tui.screens.common import MessageScreen

        self.push_screen(MessageScreen(title, body))

    # -- app-wide keys -----------------------------------------------------------------

    def action_help(self) -> None:
        from tui.screens.common import HelpScreen, bindings_of

        screen = self.screen
        if isinstance(screen, HelpScreen):
            return
        keys = list(getattr(screen, "HELP", None) or bindings_of(screen))
        self.push_screen(HelpScreen([("This screen", keys), ("Everywhere", self.APP_HELP)]))

    def action_chat(self) -> None:
        from tui.screens.common import ChatScreen

        if self.session is None:
            return

        def sent(text: str | None) -> None:
            from net import protocol as p

            if text and self.session is not None:
                self.session.send(p.Chat(text=text))

        self.push_screen(ChatScreen(), sent)

    def action_leave(self) -> None:
        """q at a table: what leaving means here, asked in words a player understands."""
        from tui.screens.common import ConfirmScreen

        session = self.session
        if session is None:
            self.return_to_menu()
            return
        table = self.table
        finished = table is not None and table.finished
        if finished and self.lobby is not None and self.screen is table:
            # a LAN game ended: back to the lobby, where the owner can start another
            self.pop_screen()
            self.table = None
            self.lobby.show_status("The game is over. The owner starts another with s; "
                                   "q leaves.")
            return
        if finished or (session.policy.remote and table is None and not session.seats):
            self.return_to_menu()
            return
        if session.policy.remote and table is not None and session.seats:
            self._ask_step_away()
            return
        question = "Leave this table? Your seat goes to the next person who joins."
        if session.policy.hotseat:
            question = "Leave this game? It is saved: Resume it from the menu."
        elif session.policy.owns_host and session.policy.lobby:
            question = "Leave and close the table for everyone?"
        elif session.policy.owns_host:
            question = "Leave this game? It ends here."

        def answered(yes: bool | None) -> None:
            if yes:
                self.return_to_menu()

        self.push_screen(ConfirmScreen(question), answered)

    def _ask_step_away(self) -> None:
        from tui.screens.common import PickScreen

        def answered(choice: int | None) -> None:
            if choice == 0:
                self.return_to_menu(step_away=True)
                self.show_message("You stepped away", STEPPED_AWAY)
            elif choice == 1:
                self.return_to_menu(give_up=True)

        self.push_screen(PickScreen("Leave the game?", [
            (0, "Step away: keep my seat, a bot plays until I am back"),
            (1, "Give up my seat for good: a bot finishes the game"),
            (2, "Stay at the table"),
        ]), answered)

    async def action_quit(self) -> None:
        """Quit, saying goodbye first: a LAN host tells its players the table closed;
        a player at someone else's table steps away (the seat waits for them)."""
        if self.session is not None:
            session, self.session = self.session, None
            # at someone else's table, in a game: step away (the seat waits, played by
            # a bot); anywhere else quitting leaves as q does
            away = session.policy.remote and session.in_game and not session.finished
            closing = session.close(give_up=not away, step_away=away)
            if closing is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(closing, 2.0)
        self.exit(self.return_code or 0)

    def return_to_menu(self, *, give_up: bool = True, step_away: bool = False) -> None:
        """Close any session and go back to the main menu."""
        if self.session is not None:
            session, self.session = self.session, None
            session.close(give_up=give_up, step_away=step_away)
        self.lobby = None
        self.table = None
        while len(self.screen_stack) > 1 and not isinstance(
                self.screen, (MenuScreen, self._served_menu_class())):
            self.pop_screen()

    def on_player_detached(self) -> None:
        """SIGUSR1 from a serve door: the player's line dropped, the app waits for them.
        Nobody is at this seat now, so the others see it away at once."""
        self.detached = True
        if self.session is not None:
            self.session.suspend()

    def on_player_attached(self) -> None:
        """SIGUSR2: the player is back on this app; their seat comes back at once."""
        self.detached = False
        if self.session is not None:
            self.session.wake()

    def action_retry_now(self) -> None:
        """``j`` while the host is gone: try to reach it now."""
        if self.session is None or not self.session.retry_now():
            self.notify("Connected: there is nothing to retry.")

    def on_terminal_signal(self) -> None:
        """SIGTERM or SIGHUP: close the connection as a dropped line would (the seat
        waits for its player), and exit so the terminal is restored. A served app whose
        player cannot come back (an SSH login without a key) gives the seat up instead,
        so the others are not told it waits for them."""
        if self.session is not None:
            from net.served import KEYLESS_ENV

            session, self.session = self.session, None
            leave = self.start[0] == "served" and os.environ.get(KEYLESS_ENV) == "1"
            closing = session.close(give_up=leave)
            if leave and closing is not None:
                self._leaving = asyncio.get_running_loop().create_task(
                    self._exit_after(closing))
                return
        self.exit(self.return_code or 0)

    async def _exit_after(self, closing: asyncio.Task) -> None:
        """Exit once the goodbye is sent (2 s at most: the door's hang-up waits 5)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(closing, 2.0)
        self.exit(self.return_code or 0)

    # -- failures ----------------------------------------------------------------------

    def write_crash_log(self, error: BaseException) -> str:
        """Save the traceback under the log directory; a sentence saying where."""
        try:
            directory = log_dir()
            directory.mkdir(parents=True, exist_ok=True)
            stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = directory / f"crash-{stamp}.log"
            path.write_text(
                "".join(traceback.format_exception(type(error), error, error.__traceback__)),
                encoding="utf-8",
            )
        except OSError as write_error:
            return f"The details could not be saved ({write_error})"
        self.crash_log = path
        return f"The details are in {path}"

    def report_error(self, error: BaseException) -> None:
        """An unexpected error off the screen's path (the connection's tasks): log it, say
        where, and go back to the menu; the app keeps running."""
        log.error("unexpected error", exc_info=error)
        where = self.write_crash_log(error)
        self.return_to_menu(give_up=False)  # a bug here is no reason to lose a seat
        self.show_message("Something went wrong", f"{error!r}\n\n{where}.")

    def _handle_exception(self, error: Exception) -> None:
        """No traceback on the user's screen: log it to a file and say where."""
        where = self.write_crash_log(error)
        self._return_code = 1
        if self._exception is None:
            self._exception = error
            self._exception_event.set()
        self.crash_message = f"Motherlode stopped after an unexpected error: {error!r}.\n{where}.\n"
        self._exit_renderables.append(Text(self.crash_message))
        self._close_messages_no_wait()
