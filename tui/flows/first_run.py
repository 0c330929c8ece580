"""What opens first: the menu, or what the command line asked for, after the name a
first run asks once."""

from __future__ import annotations

from typing import Any

from tui.flows.base import Flow
from tui.flows.messages import OpenFlow, start_message


class FirstRun(Flow):
    """The app's start (``MotherlodeApp.start``): served mode, or a first message."""

    def begin(self, start: tuple[Any, ...]) -> None:
        """Open what ``start`` names; a first run asks the name where the player's own
        name plays (the menu, solo, join; not hot-seat, which names its seats, nor a
        replay); served mode gets it from the door."""
        kind, *args = start
        if kind == "served":
            self.app.flows.served.begin(*args)
            return
        opening = start_message(start)
        if (opening is None or opening.NAMED) and not self.app.settings.named:
            self.ask_name(opening)
        elif opening is not None:
            self.app.flows.open(opening)

    def ask_name(self, then: OpenFlow | None) -> None:
        """No name chosen yet (no settings file with one): ask once, offering the login
        name, keep the answer in the settings, then open ``then``."""
        from tui.screens.served import FirstNameScreen
        from tui.settings import clean_name

        app = self.app

        def answered(name: str | None) -> None:
            cleaned = app.settings.name if name is None else clean_name(name)
            if not cleaned:
                app.push_screen(FirstNameScreen("Your name needs a visible character.",
                                                default=app.settings.name), answered)
                return
            app.settings.name = cleaned
            app.settings.named = True
            try:
                app.save_settings()
            except OSError as error:  # a read-only config directory: play on, say so
                app.notify(f"The name could not be saved ({error}).", severity="warning")
            if then is not None:
                app.flows.open(then)

        app.push_screen(FirstNameScreen(default=app.settings.name), answered)
