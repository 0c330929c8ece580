"""The menu's plain screens: the rules, the settings, and quitting."""

from __future__ import annotations

from tui.flows.base import Flow
from tui.flows.messages import OpenFlow, Quit, ShowRules, ShowSettings


class MenuFlow(Flow):
    """Rules, settings, quit: from the menu, the served menu or the palette."""

    def open(self, message: OpenFlow) -> None:
        if isinstance(message, Quit):
            self.app.exit(0)
        elif isinstance(message, ShowRules):
            from tui.screens.common import RulesScreen

            self.app.push_screen(RulesScreen())
        elif isinstance(message, ShowSettings):
            from tui.screens.forms import SettingsScreen

            self.app.push_screen(SettingsScreen(self.app.settings))
