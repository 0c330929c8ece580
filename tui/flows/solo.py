"""Playing against bots on this machine."""

from __future__ import annotations

from net.catalogue import title
from tui.flows.base import Flow
from tui.flows.messages import PlayBots

#: the guided opening's pace (time to read the guide); the rest of the game goes on
#: at the pace the person would have had (``Settings.after_guide``, ``net.table.guided``)
GUIDE_PACE = "relaxed"


class SoloFlow(Flow):
    """A game against bots: how many is asked when the message does not say. A
    person's first game of each, chosen from the menu, offers a guided first round."""

    #: the game whose next table is guided (read, and cleared, when it starts)
    guided: str | None = None

    def open(self, message: PlayBots) -> None:
        from tui import modes

        game = message.game
        if message.guided and message.bots is not None:
            self.play_guided(game, message.bots)
            return
        if message.bots is not None:
            self.launch(modes.solo(self.launch_options(), game, message.bots))
            return
        from tui.screens.common import BotsPick

        most = modes.max_bots(game)
        choices = [(n, f"{n} bot{'s' if n > 1 else ''}") for n in range(1, most + 1)]

        def picked(bots: int | None) -> None:
            if bots:
                self.offer_guide(game, bots)

        self.app.push_screen(BotsPick(f"{title(game)}: how many bots?", choices,
                                      self.app.settings), picked)

    def play_guided(self, game: str, bots: int) -> None:
        """``game`` against ``bots`` with the guided first round: its guided opening at
        the guide's pace, the rest at the pace asked for (``--pace``) or the table's
        own. The host changes it as the opening ends (``net.table.guided``)."""
        from tui import modes

        options = self.launch_options()
        self.guided = game
        after = options.table_options.get("pace", "normal")
        options.table_options["pace"] = GUIDE_PACE
        if after != GUIDE_PACE:
            options.table_options["after_guide"] = after
        self.launch(modes.solo(options, game, bots))

    def offer_guide(self, game: str, bots: int) -> None:
        """A first game of ``game``: offer the guided first round (once: the answer is
        kept in the settings), then play."""
        from tui import modes
        from tui.plugin import game_of
        from tui.screens.common import PickScreen

        app = self.app
        if game in app.settings.guided or game_of(game).guide() is None:
            self.launch(modes.solo(self.launch_options(), game, bots))
            return

        def answered(choice: int | None) -> None:
            if choice is None:
                return  # esc: back to the menu, asked again next time
            app.settings.guided.append(game)
            try:
                app.save_settings()
            except OSError as error:  # a read-only config directory: play on, say so
                app.notify(f"The settings could not be saved ({error}).", severity="warning")
            if choice == 1:
                self.play_guided(game, bots)
            else:
                self.launch(modes.solo(self.launch_options(), game, bots))

        app.push_screen(PickScreen(f"Your first game of {title(game)}", [
            (1, "A guided first round: each step explained as it comes (at relaxed pace; "
                "then the usual pace)"),
            (0, "Just play"),
        ]), answered)
