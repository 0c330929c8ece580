"""Fool's Gold in the app (``APP``, a ``tui.plugin.AppGame``): its table screen
(``screen``), its replay (``replay``) and its cards (``cards``), each imported when
asked for."""

from __future__ import annotations

from typing import Any

from tui.phases import paced
from tui.plugin import AppGame, TableContext

#: a match's median minutes by seats and pace: a modelled person (1.2 s a move) and
#: normal bots, 80 matches a cell (``bench/foolsgold_pace.py --matches 80 --medians 1.2
#: --seats 2,3,4,5,6,7,8``, seed 46; docs/BENCHMARKS.md)
MATCH_MINUTES = {
    2: {"normal": 5.1, "steady": 7.6, "relaxed": 9.2},
    3: {"normal": 6.1, "steady": 8.9, "relaxed": 10.1},
    4: {"normal": 7.0, "steady": 10.1, "relaxed": 11.9},
    5: {"normal": 7.7, "steady": 11.8, "relaxed": 16.7},
    6: {"normal": 8.5, "steady": 12.5, "relaxed": 18.1},
    7: {"normal": 9.3, "steady": 15.3, "relaxed": 18.3},
    8: {"normal": 9.4, "steady": 16.9, "relaxed": 18.6},
}


def lag_line(settings: Any) -> str:
    """How the races are judged: by arrival, or corrected for each player's delay up to
    the cap, timed by the host's own system (``lag_bound`` "kernel") or only by what
    the players' apps answer ("probes")."""
    cap = getattr(settings, "lag_cap", 0.0)
    if not cap:
        return ", races judged by arrival"
    line = f", races fair to {round(cap * 1000)} ms of lag"
    if getattr(settings, "lag_bound", "probes") != "kernel":
        line += " as players' apps report it"
    return line


class FoolsGoldApp(AppGame):
    """Fool's Gold's app side."""

    rules = ("f", "fools-gold")

    def table_screen(self, context: TableContext) -> Any:
        from tui.games.foolsgold.screen import FoolsGoldScreen

        seat = context.seats[0] if context.seats else None
        return FoolsGoldScreen(seat, context.names, ascii_mode=context.ascii_mode,
                               host_now=context.host_now)  # fmt: skip

    def replay_screen(self, replay: Any, seat: int | None = None, *,
                      ascii_mode: bool = False) -> Any:  # fmt: skip
        from tui.games.foolsgold.replay import FoolsGoldReplayScreen

        return FoolsGoldReplayScreen(replay, seat, ascii_mode=ascii_mode)

    def describe(self, event: Any, names: Any, view: Any = None) -> str | None:
        from tui.games.foolsgold.events import describe

        return describe(event, names, view)

    def settings_line(self, settings: Any) -> str:
        own = settings.game
        cap = own.get("round_cap")
        pace = settings.pace
        # the windows as the table plays them: its pace stretches them
        return (f", grab time-out {paced(own['grab_timeout'], pace)}, call window "
                f"{paced(own['call_window'], pace)}"
                + (", no round cap" if cap is None else
                   f", house rule: round cap {cap} (then the highest score wins)")
                + lag_line(settings))  # fmt: skip

    def length_line(self, settings: Any, players: int) -> str:
        """How long a match lasts at this pace with this many players."""
        minutes = MATCH_MINUTES.get(players, {}).get(getattr(settings, "pace", "normal"))
        if minutes is None:
            return ""
        return f"A match takes about {round(minutes)} minutes (half end sooner)."

    def guide(self) -> Any:
        from tui.games.foolsgold.guided import FoolsGoldGuide

        return FoolsGoldGuide()

    def alert(self, event: Any, seats: list[int], names: list[str]) -> str | None:
        """A race starting: someone else's first grab (grab or call now)."""
        if type(event).__name__ == "Grabbed" and event.order == 1 and event.seat not in seats:
            who = names[event.seat] if event.seat < len(names) else "Someone"
            return f"Race in Fool's Gold: {who} grabbed. Grab or call now!"
        return None

    def plain_seat(self, moves: Any) -> Any:
        from tui.games.foolsgold.plain import Plain

        return Plain(moves)


APP = FoolsGoldApp()
