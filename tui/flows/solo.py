"""Playing against bots on this machine."""

from __future__ import annotations

from net.catalogue import title
from tui.flows.base import Flow
from tui.flows.messages import PlayBots


class SoloFlow(Flow):
    """A game against bots: how many is asked when the message does not say."""

    def open(self, message: PlayBots) -> None:
        from tui import modes

        game = message.game
        if message.bots is not None:
            self.launch(modes.solo(self.launch_options(), game, message.bots))
            return
        from tui.screens.common import BotsPick

        most = modes.max_bots(game)
        choices = [(n, f"{n} bot{'s' if n > 1 else ''}") for n in range(1, most + 1)]

        def picked(bots: int | None) -> None:
            if bots:
                self.launch(modes.solo(self.launch_options(), game, bots))

        self.app.push_screen(BotsPick(f"{title(game)}: how many bots?", choices,
                                      self.app.settings), picked)
