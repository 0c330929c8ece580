"""The command palette's commands (ctrl+p): the menu's choices and display settings.

Imported only when the palette opens, so the menu starts without it."""

from __future__ import annotations

from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.games import with_advisor


class GameCommands(Provider):
    """The command palette (ctrl+p): the menu's choices and the display settings."""

    def _commands(self) -> list[tuple[str, Any, str]]:
        app = self.app
        local = [
            ("Host a LAN game", lambda: app.menu_choice("host"), "start a table others join"),
            ("Join a LAN game", lambda: app.menu_choice("join"), "find a table on the network"),
            ("Replays", lambda: app.menu_choice("replays"), "your finished and left games"),
            ("Player stats", lambda: app.menu_choice("stats"), "games won, busts, bluffs"),
        ]
        # served (`motherlode serve`): nothing that runs on the server's network or disk
        commands = [] if getattr(app, "served", None) is not None else local
        commands += [
            ("Rules", lambda: app.menu_choice("rules"), "both games' rules"),
            ("Settings", lambda: app.menu_choice("settings"), "name, bots, ASCII, theme"),
            ("ASCII mode: on or off", app.toggle_ascii, "box-drawing characters or plain"),
            ("Advisor: on or off", app.toggle_advisor,
             f"the {' / '.join(with_advisor())} odds panel"),
        ]
        for theme in sorted(app.available_themes):
            commands.append((f"Theme: {theme}", lambda t=theme: app.use_theme(t),
                             "saved in your settings"))
        return commands

    async def discover(self) -> Hits:
        for name, run, help_text in self._commands():
            yield DiscoveryHit(name, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, run, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), run, help=help_text)
