"""Hot-seat: several people at one keyboard."""

from __future__ import annotations

from tui.flows.base import Flow
from tui.flows.messages import OpenFlow, SetUpHotseat, StartHotseat


class HotseatFlow(Flow):
    """The hot-seat form, then the game it sets up."""

    def open(self, message: OpenFlow) -> None:
        if isinstance(message, SetUpHotseat):
            from tui.screens.forms import HotseatScreen

            self.app.push_screen(HotseatScreen(self.app.settings.name))
        elif isinstance(message, StartHotseat):
            from tui import modes

            self.launch(modes.hotseat(self.launch_options(), message.seats))

