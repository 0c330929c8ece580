"""Gold Nuggets in the app: its table screen (``screen``), its replay (``replay``), its
dice (``dice``) and the advisor (``advisor``), found by the registry (``tui.games``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.games import TableContext

#: the key that jumps to its rules on the rules screen, and the section's anchor
RULES = ("g", "gold-nuggets")
#: it has an advisor panel (the odds of each choice; the Settings' toggle)
ADVISOR = True


def guide():
    """The guided first round's words (``tui.games.nuggets.guided``)."""
    from tui.games.nuggets.guided import NuggetsGuide

    return NuggetsGuide()


def table_screen(context: TableContext):
    from tui.games.nuggets.screen import NuggetsScreen

    pause = {} if context.turn_pause is None else {"turn_pause": context.turn_pause}
    return NuggetsScreen(context.seats, ascii_mode=context.ascii_mode,
                         advisor=context.advisor, hotseat=context.hotseat, **pause)  # fmt: skip


def settings_line(settings) -> str:
    """This game's own settings, for the lobby's line of a table's settings: none is
    shown beyond every table's (seats, bots, the kept seat)."""
    return ""


#: a game's turns each, by players (the median of 300 games between normal bots,
#: ``nuggets.sim.play_game``: about 170 moves in all, whatever the count)
TURNS_EACH = {2: 12, 3: 8, 4: 6, 5: 5}


def length_line(settings, players: int) -> str:
    """How long a game lasts, for the lobby: turns each (a person's turn is as long
    as they think)."""
    turns = TURNS_EACH.get(players)
    return f"A game lasts about {turns} turns each." if turns else ""


def replay_screen(replay, seat: int | None = None, *, ascii_mode: bool = False):
    from tui.games.nuggets.replay import NuggetsReplayScreen

    return NuggetsReplayScreen(replay, seat, ascii_mode=ascii_mode)


def describe(event, names):
    """One of this game's events in words, for the log (None: not one of them)."""
    from tui.games.nuggets.events import describe

    return describe(event, names)


def plain_seat():
    """This game at the plain seat (``tui.plain``): its adapter, new for each seat."""
    from tui.games.nuggets.plain import Plain

    return Plain()
