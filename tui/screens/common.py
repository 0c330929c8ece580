"""Screens shared by every mode: help, rules, a message box, a picker.

Each dialog has a touch bar in its box (``tui.widgets.touchbar``, shown where people
tap): its keys as buttons, since a modal takes every tap and the bar of the screen
below stays out of reach."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Checkbox, Input, OptionList, Static
from textual.widgets.option_list import Option

from net.catalogue import DIFFICULTIES, DIFFICULTY_WORDS, games
from tui.keys import add_bindings, with_ids
from tui.plugin import game_of
from tui.textual_internals import bind, key_bindings
from tui.widgets.footer import Footer
from tui.widgets.touchbar import TouchBar


def _key_name(key: str) -> str:
    names = {"question_mark": "?", "space": "space", "enter": "enter", "escape": "esc"}
    return ", ".join(names.get(k, k) for k in key.split(","))


class FieldInput(Input):
    """A form's text field: "?" opens help instead of typing (no name or address needs
    one), so the form's help key works from inside the field."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return key != "question_mark" and super().check_consume_key(key, character)


class OnOffBox(Checkbox):
    """A checkbox whose label ends in "on" or "off", so it reads without colour."""

    def __init__(self, label: str, value: bool = False, **kwargs) -> None:
        self._base = label
        super().__init__(self._text(value), value, **kwargs)

    @property
    def BUTTON_INNER(self) -> str:  # noqa: N802 (Textual's name)
        """A mark only when on: an X in an "off" box read as on (issue 47)."""
        return "X" if self.value else " "

    def _text(self, value: bool) -> Text:
        return Text(f"{self._base}: {'on' if value else 'off'}")

    def watch_value(self) -> None:
        super().watch_value()
        self.label = self._text(self.value)


class HelpScreen(ModalScreen[None]):
    """Every key of the screen below, and the app's own keys."""

    BINDINGS = with_ids("help", [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ])

    def __init__(self, sections: list[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        from rich.console import Group
        from rich.table import Table

        parts = []
        for title, keys in self.sections:
            parts.append(Text(title, "bold"))
            # a grid, so a long description wraps under its own column
            grid = Table.grid(padding=(0, 2), pad_edge=False)
            grid.add_column(no_wrap=True, style="bold", min_width=10)
            grid.add_column(ratio=1)
            for key, description in keys:
                grid.add_row(Text(f"  {key}"), Text(description))
            parts.extend([grid, Text("")])
        parts.append(Text("esc closes this help."))
        with VerticalScroll(id="help-box"):
            yield Static(Group(*parts), id="help-text")
            yield TouchBar(classes="dialog")
        yield Footer()

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)


def bindings_of(node) -> list[tuple[str, str]]:
    """(keys, description) for each binding of a screen or app, in order: its class's
    first, then those it was given when made (``tui.keys.add_bindings``), then its base
    classes'."""
    rows: list[tuple[str, str]] = []
    seen: set[str] = set()
    classes = type(node).__mro__
    own = [b for bound in key_bindings(node).values() for b in bound]
    for cls in (classes[0], node, *classes[1:]):
        if cls is node:
            declared = {getattr(b, "action", None) for c in classes
                        for b in getattr(c, "BINDINGS", ())}  # fmt: skip
            found = [b for b in own if b.action not in declared]
        else:
            found = getattr(cls, "BINDINGS", ()) if "BINDINGS" in cls.__dict__ else ()
        for binding in found:
            if isinstance(binding, Binding):
                key, description = binding.key, binding.description
            else:
                key, description = binding[0], binding[2] if len(binding) > 2 else binding[1]
            if key in seen or not description:
                continue
            seen.add(key)
            rows.append((_key_name(key), description))
    return rows


def rules_text() -> str:
    """docs/RULES.md, shipped inside the package as tui/RULES.md."""
    from importlib import resources

    try:
        return resources.files("tui").joinpath("RULES.md").read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError) as error:
        return f"# Rules\n\nThe rules file could not be read ({error})."


class RulesScreen(Screen[None]):
    """The rules of both games, from docs/RULES.md, with a contents list to jump from."""

    BINDINGS = with_ids("rules", [
        Binding("escape,q", "app.pop_screen", "Back"),
        Binding("t", "contents", "Contents"),
    ])

    def __init__(self) -> None:
        super().__init__()
        # each game's key to its section (``RULES`` of its app side, ``tui.games``)
        jumps = [(game.title, *rules) for game in games()
                 if (rules := game_of(game.key).rules)]
        add_bindings(self, "rules", [Binding(key, f"jump('{anchor}')", title)
                                     for title, key, anchor in jumps])
        self.HELP = [
            ("up / down, pgup / pgdn", "scroll"),
            ("t", "show or hide the contents (enter there jumps to a section)"),
            (" / ".join(key for _, key, _ in jumps),
             f"jump to {' / '.join(title for title, _, _ in jumps)}"),
            ("esc", "back"),
        ]

    def compose(self) -> ComposeResult:
        from textual.widgets import MarkdownViewer  # loaded on first use: slow to import

        yield MarkdownViewer(rules_text(), show_table_of_contents=True, id="rules")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules").document.focus()

    def action_contents(self) -> None:
        viewer = self.query_one("#rules")
        viewer.show_table_of_contents = not viewer.show_table_of_contents

    def action_jump(self, anchor: str) -> None:
        viewer = self.query_one("#rules")
        viewer.document.goto_anchor(anchor)


CLOSE_KEYS = ("esc", "enter", "space", "q")  # what closes a MessageScreen, as its line names them


class MessageScreen(ModalScreen[str | None]):
    """A clear message (a failure, the end of a game) that enter or esc closes.

    ``keys`` offers a way on, e.g. ``[("w", "watch the game"), ("esc", "back")]``: the
    screen dismisses with the key pressed (None for enter, esc, space or q). Each
    letter it offers is bound too, so the footer shows it beside ``esc OK``."""

    BINDINGS = with_ids("message", [Binding("escape,enter,space,q", "close", "OK")])

    def __init__(self, title: str, body: str,
                 keys: list[tuple[str, str]] | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.keys = list(keys or [("enter", "OK")])
        # the footer names the closing keys as the box's own line does ("esc: back")
        close = next((what for key, what in self.keys if key in CLOSE_KEYS), "OK")
        if close != "OK":
            by_key = key_bindings(self)
            for key, bindings in by_key.items():
                by_key[key] = [replace(b, description=close[:1].upper() + close[1:])
                               if b.action == "close" else b for b in bindings]
        for key, what in self.keys:
            if len(key) == 1 and key.isalpha() and key != "q":  # (q closes)
                bind(self, key, f"pick({key!r})", what[:1].upper() + what[1:])

    def compose(self) -> ComposeResult:
        hint = "   ".join(f"{key}: {what}" for key, what in self.keys)
        with Vertical(id="message-box"):
            yield Static(Text(self.title_text, "bold"), id="message-title")
            yield Static(Text(self.body), id="message-body")
            yield Static(Text(hint, "dim"), id="message-keys")
            yield TouchBar(classes="dialog")
        yield Footer()

    def action_pick(self, key: str) -> None:
        self.dismiss(key)

    def action_close(self) -> None:
        self.dismiss(None)


class PickScreen(ModalScreen[int | None]):
    """Pick one of a few choices (e.g. whom to steal from); a digit picks the choice of
    that number (the first is 1), esc cancels."""

    BINDINGS = with_ids("pick", [Binding("escape", "cancel", "Cancel")])

    def __init__(self, title: str, choices: list[tuple[int, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="pick-box"):
            yield Static(Text(self.title_text, "bold"))
            yield OptionList(*(Option(Text(label), id=str(v)) for v, label in self.choices))
            digits = f"1-{min(len(self.choices), 9)}, or " if self.choices else ""
            yield Static(Text(f"{digits}up/down and enter: choose   esc: cancel", "dim"))
            yield TouchBar(classes="dialog")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option_id or 0))

    def on_key(self, event) -> None:
        """A digit picks the choice of that number, as enter would on it."""
        if event.character and event.character.isdigit():
            number = int(event.character)
            if 1 <= number <= len(self.choices):
                event.stop()
                self.dismiss(self.choices[number - 1][0])

    def action_cancel(self) -> None:
        self.dismiss(None)


class BotsPick(PickScreen):
    """How many bots, and how well they play: a digit picks the number, ``d`` the
    difficulty (kept in the person's settings, as the Settings screen does)."""

    BINDINGS = with_ids("bots", [Binding("d", "difficulty", "Difficulty")])

    def __init__(self, title: str, choices: list[tuple[int, str]], settings: Any) -> None:
        super().__init__(title, choices)
        self.settings = settings
        self.base_title = title

    def compose(self) -> ComposeResult:
        self.title_text = self._title()
        yield from super().compose()

    def _title(self) -> str:
        level = self.settings.difficulty
        return (f"{self.base_title}  Bots: {level} (d changes)\n"
                f"{level}: {DIFFICULTY_WORDS.get(level, '')}")

    def action_difficulty(self) -> None:
        now = self.settings.difficulty
        self.settings.difficulty = DIFFICULTIES[(DIFFICULTIES.index(now) + 1)
                                                % len(DIFFICULTIES)] \
            if now in DIFFICULTIES else "normal"
        self.query_one("#pick-box Static", Static).update(Text(self._title(), "bold"))
        with contextlib.suppress(OSError, AttributeError):
            self.app.save_settings()


class ChatScreen(ModalScreen[str | None]):
    """One line of chat; enter sends, esc cancels."""

    BINDINGS = with_ids("chat", [
        Binding("escape", "cancel", "Cancel"),
        # before the field's own enter (hidden, so the footer showed no Send): enter
        # and the touch bar's Send both send what is typed
        Binding("enter", "send", "Send", key_display="enter", priority=True),
    ])

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-box"):
            yield Static(Text("Say something to the table (enter sends, esc cancels)"))
            yield Input(max_length=200, id="chat-input")
            yield TouchBar(classes="dialog")
        yield Footer()

    def action_send(self) -> None:
        # the field sends, once it has taken the letters typed just before enter (see
        # tui.screens.served.NameScreen.action_submit)
        field = self.query_one("#chat-input", Input)
        field.call_later(field.action_submit)

    def on_input_submitted(self, event) -> None:
        self.dismiss(event.value.strip() or None)

    def on_mount(self) -> None:
        self.query_one("#chat-input").focus()

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or enter for yes, n or esc for no."""

    BINDINGS = with_ids("confirm", [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ])

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="message-box"):
            yield Static(Text(self.question, "bold"))
            yield Static(Text("y: yes   n: no", "dim"))
            yield TouchBar(classes="dialog")
        yield Footer()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def reconnecting(app: object) -> bool:
    """The app's connection dropped and it is coming back: no play key works, j does."""
    session = getattr(app, "session", None)
    return bool(session is not None and session.reconnecting)
