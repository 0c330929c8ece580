"""Forms: the settings and the hot-seat set-up. Imported on first use, so the menu
opens without loading the form widgets."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Select, Static

from net.catalogue import DIFFICULTY_WORDS, hotseat_games
from tui.keys import with_ids
from tui.plugin import with_advisor
from tui.screens.common import FieldInput, OnOffBox
from tui.settings import ALERTS, DIFFICULTIES, NAME_MAX, Settings, clean_name
from tui.widgets.footer import Footer


class SettingsScreen(Screen[None]):
    """Name, bot difficulty, theme, ASCII mode, advisor, alerts: saved with ctrl+s."""

    BINDINGS = with_ids("settings", [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "app.pop_screen", "Back"),
        # help, even from inside a text field (a form's fields take no "?")
        Binding("question_mark", "app.help", "Keys", show=False, priority=True),
    ])

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings

    def compose(self) -> ComposeResult:
        s = self.settings
        with Vertical(id="form"):
            yield Static("Settings", classes="title")
            yield Static("Your name (shown to other players)")
            # compact fields: the whole form, Save and Back too, fits 80x24 (issue 47)
            yield FieldInput(s.name, max_length=NAME_MAX, id="name", compact=True)
            yield Static("Bot difficulty")
            yield Select([(f"{d}: {DIFFICULTY_WORDS[d]}", d) for d in DIFFICULTIES],
                         value=s.difficulty, allow_blank=False,
                         id="difficulty", compact=True)
            yield Static("Theme (ansi-dark uses your terminal's own colours: good over SSH)")
            themes = sorted(self.app.available_themes)
            yield Select([(t, t) for t in themes], allow_blank=False, id="theme",
                         value=s.theme if s.theme in themes else "textual-dark", compact=True)
            yield OnOffBox("ASCII mode (no box-drawing characters)", s.ascii, id="ascii",
                           compact=True)
            yield OnOffBox(f"Advisor panel in {' / '.join(with_advisor())} (key a in game)",
                           s.advisor, id="advisor", compact=True)
            with Horizontal(classes="setting-row"):
                yield Static("Alerts when a game needs you (desktop: a notification too) ",
                             classes="setting-label")
                yield Select([(a, a) for a in ALERTS], value=s.alerts, allow_blank=False,
                             id="alerts", compact=True)
            yield Static("", id="settings-status")
            with Horizontal(classes="buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Back", id="back")
        yield Footer()

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        name = clean_name(self.query_one("#name", Input).value)
        if not name:
            self.query_one("#settings-status", Static).update("A name needs a visible character.")
            return
        self.settings.name = name
        self.settings.difficulty = str(self.query_one("#difficulty", Select).value)
        self.settings.ascii = self.query_one("#ascii", Checkbox).value
        self.settings.advisor = self.query_one("#advisor", Checkbox).value
        self.settings.theme = str(self.query_one("#theme", Select).value)
        self.settings.alerts = str(self.query_one("#alerts", Select).value)
        path = self.app.save_settings()  # type: ignore[attr-defined]
        self.query_one("#settings-status", Static).update(Text(f"Saved to {path}"))

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.app.pop_screen()


class HotseatScreen(Screen[None]):
    """Two to five seats on this machine; any seat can be a bot. Empty names are no seat."""

    BINDINGS = with_ids("hotseat", [
        Binding("ctrl+s", "start", "Start"),
        Binding("escape", "app.pop_screen", "Back"),
        # help, even from inside a text field (a form's fields take no "?")
        Binding("question_mark", "app.help", "Keys", show=False, priority=True),
    ])

    def __init__(self, first_name: str) -> None:
        super().__init__()
        self.first_name = first_name

    def compose(self) -> ComposeResult:
        game = hotseat_games()[0]
        defaults = [self.first_name] + [""] * (game.high - 1)
        with Vertical(id="form"):
            yield Static(f"{game.title}: hot-seat", classes="title")
            yield Static(f"{game.seats}; leave a name empty for no seat. Tick 'bot' for a bot.")
            for i, name in enumerate(defaults):
                with Horizontal(classes="seat-row"):
                    yield Static(f"Seat {i + 1}", classes="seat-label")
                    yield FieldInput(name, placeholder="(empty: no seat)", max_length=NAME_MAX,
                                id=f"seat-{i}", compact=True)
                    yield OnOffBox("bot", False, id=f"bot-{i}", compact=True)
            with Horizontal(classes="buttons"):
                yield Button("Start (ctrl+s)", id="start", variant="primary")
                yield Button("Back", id="back")
            yield Static("", id="hotseat-status")
        yield Footer()

    def seats(self) -> list[tuple[str, bool]]:
        rows = []
        for i in range(hotseat_games()[0].high):
            name = clean_name(self.query_one(f"#seat-{i}", Input).value)
            bot = self.query_one(f"#bot-{i}", Checkbox).value
            if name or bot:
                rows.append((name or f"Bot {i + 1}", bot))
        return rows

    @on(Input.Submitted)
    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        seats = self.seats()
        game = hotseat_games()[0]
        if not game.low <= len(seats) <= game.high:
            self.query_one("#hotseat-status", Static).update(
                f"Fill in {game.low} to {game.high} seats.")
            return
        if all(bot for _, bot in seats):
            self.query_one("#hotseat-status", Static).update("At least one seat must be a person.")
            return
        from tui.flows.messages import StartHotseat

        self.post_message(StartHotseat(seats))

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.app.pop_screen()


ALL_INTERFACES = "all"


class HostScreen(Screen[tuple[int, str | None] | None]):
    """Where a LAN table listens: the port and the interface, with the usual defaults."""

    BINDINGS = with_ids("host", [
        Binding("ctrl+s", "start", "Start"),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.help", "Keys", show=False, priority=True),
    ])

    def __init__(self, title: str, port: int, bind: str | None) -> None:
        super().__init__()
        self.title_text = title
        self.port = port
        self.bind = bind

    def compose(self) -> ComposeResult:
        from net.discovery import local_addresses

        addresses = local_addresses()
        options = [("All interfaces: anyone on your networks can join", ALL_INTERFACES)]
        options += [(f"{address} only", address) for address in addresses]
        options.append(("This machine only (127.0.0.1): for trying it out", "127.0.0.1"))
        chosen = ALL_INTERFACES if self.bind in (None, "", "0.0.0.0", "::") else self.bind
        if chosen not in [value for _, value in options]:
            options.append((f"{chosen} only", chosen))
        with Vertical(id="form"):
            yield Static(self.title_text, classes="title")
            yield Static("The defaults suit a LAN party: port 7777 on all interfaces. "
                         "If the port is taken, any free one is used and shown.")
            yield Static("Port (7777 is usual; 0 takes any free port)")
            yield FieldInput(str(self.port or 7777), max_length=5, id="port")
            yield Static("Listen on")
            yield Select(options, value=chosen, allow_blank=False, id="interface")
            with Horizontal(classes="buttons"):
                yield Button("Start (ctrl+s)", id="start", variant="primary")
                yield Button("Back", id="back")
            yield Static("", id="host-status")
        yield Footer()

    @on(Input.Submitted)
    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        text = self.query_one("#port", Input).value.strip()
        if not text.isdigit() or not 0 <= int(text) <= 65535:
            self.query_one("#host-status", Static).update(
                Text(f"{text!r} is not a port: type a number up to 65535 "
                     "(7777 is usual; 0 takes any free port)."))
            return
        interface = self.query_one("#interface", Select).value
        bind = None if interface == ALL_INTERFACES else str(interface)
        self.dismiss((int(text), bind))

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.dismiss(None)
