"""The command palette's commands (ctrl+p): the menu's choices and display settings.

Imported only when the palette opens, so the menu starts without it."""

from __future__ import annotations

from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.plugin import with_advisor


class GameCommands(Provider):
    """The command palette (ctrl+p): the menu's choices and the display settings."""

    def _commands(self) -> list[tuple[str, Any, str]]:
        from tui.flows import messages as m

        app = self.app

        def opens(message: type[m.OpenFlow]) -> Any:
            return lambda: app.post_message(message())

        local = [
            ("Host a LAN game", opens(m.HostGame), "start a table others join"),
            ("Join a LAN game", opens(m.FindGame), "find a table on the network"),
            ("Replays", opens(m.ShowReplays), "your finished and left games"),
            ("Player stats", opens(m.ShowStats), "games won, busts, bluffs"),
            ("League", opens(m.ShowLeague), "ratings per game, seasons"),
        ]
        # served (`motherlode serve`): nothing that runs on the server's network or disk
        commands = [] if getattr(app, "served", None) is not None else local
        commands += [
            ("Rules", opens(m.ShowRules), "both games' rules"),
            ("Settings", opens(m.ShowSettings), "name, bots, ASCII, theme"),
            ("ASCII mode: on or off", app.toggle_ascii, "box-drawing characters or plain"),
            ("Touch bar: on or off", app.toggle_touch,
             "large buttons for the keys of the footer, for a mouse or a finger"),
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
