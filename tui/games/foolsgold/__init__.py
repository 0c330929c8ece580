"""Fool's Gold in the app: its table screen (``screen``), its replay (``replay``) and
its cards (``cards``), found by the registry (``tui.games``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.games import TableContext

#: the key that jumps to its rules on the rules screen, and the section's anchor
RULES = ("f", "fools-gold")


def table_screen(context: TableContext):
    from tui.games.foolsgold.screen import FoolsGoldScreen

    seat = context.seats[0] if context.seats else None
    return FoolsGoldScreen(seat, context.names, ascii_mode=context.ascii_mode,
                           host_now=context.host_now)  # fmt: skip


def settings_line(settings) -> str:
    """This game's own settings, for the lobby's line of a table's settings."""
    own = settings.game
    cap = own.get("round_cap")
    return (f", grab time-out {own['grab_timeout']:g} s, call window "
            f"{own['call_window']:g} s"
            + (", no round cap" if cap is None else
               f", house rule: round cap {cap} (then the highest score wins)")
            + lag_line(settings))  # fmt: skip


def lag_line(settings) -> str:
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


def replay_screen(replay, seat: int | None = None, *, ascii_mode: bool = False):
    from tui.games.foolsgold.replay import FoolsGoldReplayScreen

    return FoolsGoldReplayScreen(replay, seat, ascii_mode=ascii_mode)


def describe(event, names, view=None):
    """One of this game's events in words, for the log (None: not one of them)."""
    from tui.games.foolsgold.events import describe

    return describe(event, names, view)


def plain_seat():
    """This game at the plain seat (``tui.plain``): its adapter, new for each seat."""
    from tui.games.foolsgold.plain import Plain

    return Plain()
