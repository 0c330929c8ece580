"""Gold Nuggets in the app (``APP``, a ``tui.plugin.AppGame``): its table screen
(``screen``), its replay (``replay``), its dice (``dice``) and the advisor
(``advisor``), each imported when asked for."""

from __future__ import annotations

from typing import Any

from tui.plugin import AppGame, TableContext

#: a game's turns each, by players (the median of 300 games between normal bots,
#: ``nuggets.sim.play_game``: about 170 moves in all, whatever the count)
TURNS_EACH = {2: 12, 3: 8, 4: 6, 5: 5}


class NuggetsApp(AppGame):
    """Gold Nuggets' app side."""

    rules = ("g", "gold-nuggets")
    advisor = True  # the odds of each choice; the Settings' toggle

    def table_screen(self, context: TableContext) -> Any:
        from tui.games.nuggets.screen import NuggetsScreen

        pause = {} if context.turn_pause is None else {"turn_pause": context.turn_pause}
        return NuggetsScreen(context.seats, ascii_mode=context.ascii_mode,
                             advisor=context.advisor, hotseat=context.hotseat,
                             **pause)  # fmt: skip

    def replay_screen(self, replay: Any, seat: int | None = None, *,
                      ascii_mode: bool = False) -> Any:  # fmt: skip
        from tui.games.nuggets.replay import NuggetsReplayScreen

        return NuggetsReplayScreen(replay, seat, ascii_mode=ascii_mode)

    def describe(self, event: Any, names: Any, view: Any = None) -> str | None:
        from tui.games.nuggets.events import describe

        return describe(event, names)

    def length_line(self, settings: Any, players: int) -> str:
        """How long a game lasts: turns each (a person's turn is as long as they
        think)."""
        turns = TURNS_EACH.get(players)
        return f"A game lasts about {turns} turns each." if turns else ""

    def guide(self) -> Any:
        from tui.games.nuggets.guided import NuggetsGuide

        return NuggetsGuide()

    def alert(self, event: Any, seats: list[int], names: list[str]) -> str | None:
        """Your turn (a bonus turn too), and a steal from you."""
        kind = type(event).__name__
        if kind in ("Turn", "BonusTurn") and event.seat in seats:
            return "Your turn in Gold Nuggets."
        if kind == "Stole" and event.victim in seats and event.seat < len(names):
            return f"{names[event.seat]} stole {event.amount} nuggets from you."
        return None

    def plain_seat(self, moves: Any) -> Any:
        from tui.games.nuggets.plain import Plain

        return Plain(moves)


APP = NuggetsApp()
