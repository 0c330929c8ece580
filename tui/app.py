"""The Motherlode Textual app: menu, lobby and both game tables.

The app never touches rules objects. It talks to a host through a `tui.link.Link`
(which wraps `net.client`): host messages come in as `Update` messages, actions go
out from `SendAction` messages. Screens render; the app routes.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import traceback
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import App
from textual.binding import Binding

from tui.messages import SendAction, Update
from tui.screens.common import HelpScreen, MessageScreen, RulesScreen, bindings_of
from tui.screens.menu import MenuScreen
from tui.settings import Settings, log_dir

log = logging.getLogger("motherlode.tui")


class MotherlodeApp(App[int]):
    """The terminal app. `start` picks what opens: the menu or a shortcut mode."""

    CSS_PATH = "motherlode.tcss"
    TITLE = "Motherlode"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("question_mark", "help", "Keys"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]
    APP_HELP = [("?", "show every key of this screen"), ("ctrl+q", "quit Motherlode")]

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
        self.settings = settings or Settings.load(settings_path)
        self.settings_path = settings_path
        self.ascii_mode = self.settings.ascii if ascii_mode is None else ascii_mode
        self.start = start
        self.link = None
        self.crash_log: Path | None = None
        self.crash_message = ""

    # -- start -----------------------------------------------------------------------

    def _apply_ascii(self) -> None:
        self.set_class(self.ascii_mode, "-ascii")

    def on_mount(self) -> None:
        self._apply_ascii()
        self.push_screen(MenuScreen())
        kind, *args = self.start
        if kind != "menu":
            self.menu_choice(kind, *args)

    def save_settings(self) -> Path:
        path = self.settings.save(self.settings_path)
        if self.settings.ascii != self.ascii_mode:
            self.ascii_mode = self.settings.ascii
            self._apply_ascii()
        return path

    def menu_choice(self, choice: str, *args: Any) -> None:
        """Open what the menu (or a command-line shortcut) asked for."""
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
        else:
            from tui import modes

            modes.open_mode(self, choice, *args)

    def start_hotseat(self, seats: list[tuple[str, bool]]) -> None:
        from tui import modes

        modes.open_mode(self, "hotseat", seats)

    def attach(self, link) -> None:
        """Make `link` the app's connection (closing any previous one) and start it."""
        if self.link is not None:
            self.return_to_menu()
        self.link = link
        link.start()

    # -- routing ---------------------------------------------------------------------

    @on(SendAction)
    def _send_action(self, message: SendAction) -> None:
        if self.link is None:
            self.notify("Not connected to a table.", severity="error")
            return
        self.link.send(message.action)

    @on(Update)
    def _update(self, message: Update) -> None:
        if self.link is not None:
            self.link.handle(message.message)

    def show_message(self, title: str, body: str) -> None:
        self.push_screen(MessageScreen(title, body))

    # -- app-wide keys -----------------------------------------------------------------

    def action_help(self) -> None:
        screen = self.screen
        if isinstance(screen, HelpScreen):
            return
        keys = list(getattr(screen, "HELP", None) or bindings_of(screen))
        self.push_screen(HelpScreen([("This screen", keys), ("Everywhere", self.APP_HELP)]))

    def action_chat(self) -> None:
        if self.link is not None:
            self.link.open_chat()

    def action_leave(self) -> None:
        if self.link is not None:
            self.link.confirm_leave()
        else:
            self.return_to_menu()

    async def action_quit(self) -> None:
        """Quit, saying goodbye first: a LAN host tells its players the table closed."""
        if self.link is not None:
            link, self.link = self.link, None
            closing = link.close()
            if closing is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(closing, 2.0)
        self.exit(self.return_code or 0)

    def return_to_menu(self) -> None:
        """Close any link and go back to the main menu."""
        if self.link is not None:
            link, self.link = self.link, None
            link.close()
        while len(self.screen_stack) > 1 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()

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
        self.return_to_menu()
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
