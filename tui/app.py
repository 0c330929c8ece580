"""The Motherlode Textual app: a conductor of flows.

The app mounts the first screen, hands every typed `tui.flows.messages.OpenFlow` a
screen posts to the flow that opens it (`tui.flows.routes.Flows`), attaches the one
`tui.session.Session` a launcher opened (what its table does comes in as the session's
messages, which `tui.flows.table` hands to the lobby and table screens; actions go out
from `SendAction`), and owns the app-wide toggles: ASCII, advisor, theme, keys. It
never touches rules objects, and screens never call it: they post messages."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

import tui.styles  # noqa: F401 - each style sheet parsed once a process
from tui.flows.messages import OpenFlow
from tui.flows.routes import Flows
from tui.inflow import BoundedInput
from tui.keys import with_ids
from tui.messages import SendAction, SessionMessage
from tui.saves import Saves
from tui.screens.menu import MenuScreen
from tui.settings import Settings
from tui.widgets.touchbar import show_touch_bars, touch_wanted

if TYPE_CHECKING:
    from tui.screens.lobby import LobbyScreen
    from tui.screens.table import TableScreen
    from tui.session import Session

def _game_commands() -> Any:
    from tui.commands import GameCommands

    return GameCommands


class MotherlodeApp(BoundedInput, App[int]):
    """The terminal app. `start` picks what opens: the menu or a shortcut mode."""

    CSS_PATH = "motherlode.tcss"
    TITLE = "Motherlode"
    # ctrl+p: a table needs no ctrl key, so the palette never takes one of a game's keys
    COMMANDS = {lambda: _game_commands()}
    COMMAND_PALETTE_DISPLAY = "ctrl+p"
    # every screen is "-narrow" below 80 columns and "-short" below 24 rows (Textual's
    # responsive classes): the stylesheets give each screen its narrow and short layout
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]
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
        saves: Saves | None = None,
        touch: bool | None = None,
    ) -> None:
        super().__init__()
        self.touch = touch_wanted() if touch is None else touch  # the touch bar (tui.widgets)
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
        self.saves = saves or Saves()  # the one way to the saves, handed to the screens
        self.flows = Flows(self)
        self.session: Session | None = None
        self.lobby: LobbyScreen | None = None
        self.table: TableScreen | None = None
        self.crash_log: Path | None = None
        self.crash_message = ""
        # served mode (`motherlode serve`): (host, port, table directory)
        self.served: tuple[str, int, str] | None = None
        self.detached = False  # served: the door says nobody is at this terminal

    # -- start -----------------------------------------------------------------------

    def get_default_screen(self) -> Screen:
        """The menu is the first screen itself (not pushed over an empty one, which
        was styled, resumed and suspended unseen before the menu's first frame);
        served mode opens its own menu over an empty screen."""
        if self.start[0] == "served":
            return super().get_default_screen()
        return MenuScreen(self.saves)

    def on_mount(self) -> None:
        self.set_class(self.flows.window.small(self.size), "-too-small")
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.on_terminal_signal)
        self._apply_ascii()
        show_touch_bars(self, self.touch)
        self._apply_theme()
        if self.settings.keys:
            self.set_keymap(self.settings.keys)
        self.flows.first_run.begin(self.start)

    def on_resize(self, event) -> None:
        self.flows.window.resized(event)

    @on(OpenFlow)
    def _open_flow(self, message: OpenFlow) -> None:
        self.flows.open(message)

    # -- app-wide toggles ------------------------------------------------------------

    def _apply_ascii(self) -> None:
        self.set_class(self.ascii_mode, "-ascii")

    def toggle_ascii(self) -> None:
        self.settings.ascii = not self.ascii_mode
        self.save_settings()

    def toggle_touch(self) -> None:
        self.touch = not self.touch
        show_touch_bars(self, self.touch)

    def toggle_advisor(self) -> None:
        self.settings.advisor = not self.settings.advisor
        self.save_settings()
        if self.table is not None:
            self.table.show_advisor(self.settings.advisor)

    def use_theme(self, theme: str) -> None:
        self.settings.theme = theme
        self.save_settings()

    def _apply_theme(self) -> None:
        if self.settings.theme in tui.styles.themes(self):  # Motherlode's own too
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

    # -- the session -----------------------------------------------------------------

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

    @on(SessionMessage)
    def _session_message(self, message: SessionMessage) -> None:
        # a message of a session already closed is dropped
        if self.session is not None and message.session is self.session:
            self.flows.table.receive(message)

    @on(SendAction)
    def _send_action(self, message: SendAction) -> None:
        if self.session is None:
            self.notify("Not connected to a table.", severity="error")
            return
        self.session.send(message.action)

    def return_to_menu(self, *, give_up: bool = True, step_away: bool = False) -> None:
        """Close any session and go back to the main menu."""
        if self.session is not None:
            session, self.session = self.session, None
            session.close(give_up=give_up, step_away=step_away)
        self.lobby = None
        self.table = None
        menu: type = MenuScreen
        if self.served is not None:
            from tui.screens.served import ServedMenuScreen

            menu = ServedMenuScreen
        while len(self.screen_stack) > 1 and not isinstance(self.screen, menu):
            self.pop_screen()

    def show_message(self, title: str, body: str) -> None:
        from tui.screens.common import MessageScreen

        self.push_screen(MessageScreen(title, body))

    # -- app-wide keys and signals ---------------------------------------------------

    def action_help(self) -> None:
        from tui.screens.common import HelpScreen, bindings_of

        if isinstance(screen := self.screen, HelpScreen):
            return
        keys = list(getattr(screen, "HELP", None) or bindings_of(screen))
        more = getattr(screen, "MORE_HELP", [])  # a table's own (the rematch, reactions)
        self.push_screen(HelpScreen([("This screen", keys), *more, ("Everywhere", self.APP_HELP)]))

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
        """q at a table (`tui.flows.leave`)."""
        self.flows.leave.leave()

    async def action_quit(self) -> None:
        await self.flows.leave.quit()

    def action_retry_now(self) -> None:
        """``j`` while the host is gone: try to reach it now."""
        if self.session is None or not self.session.retry_now():
            self.notify("Connected: there is nothing to retry.")

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

    def on_terminal_signal(self) -> None:
        """SIGTERM or SIGHUP (`tui.flows.leave`)."""
        self.flows.leave.terminal_closed()

    def _handle_exception(self, error: Exception) -> None:
        """No traceback on the user's screen: log it to a file and say where."""
        self.crash_message = self.flows.crash.stopped(error)
        self._return_code = 1
        if self._exception is None:
            self._exception = error
            self._exception_event.set()
        self._exit_renderables.append(Text(self.crash_message))
        self._close_messages_no_wait()
