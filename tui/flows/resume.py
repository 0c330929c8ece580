"""Resuming a saved hot-seat game."""

from __future__ import annotations

from tui.flows.base import Flow
from tui.flows.messages import ResumeGame


class ResumeFlow(Flow):
    """Choose a saved hot-seat game and play on."""

    def open(self, message: ResumeGame) -> None:
        from tui import modes
        from tui.screens.common import PickScreen

        saves = self.app.saves.hotseat_games()
        if not saves:
            self.app.show_message("No saved games", "Hot-seat games are saved as you play; "
                                  "none is waiting to be finished.")
            return
        choices = [(i, saved.describe()) for i, saved in enumerate(saves)]

        def chosen(index: int | None) -> None:
            if index is not None:
                self.launch(modes.resume_hotseat(self.launch_options(), saves[index]))

        self.app.push_screen(PickScreen("Resume which game?", choices), chosen)
