"""Fool's Gold in the app: its table screen (``screen``), its replay (``replay``) and
its cards (``cards``), found by the registry (``tui.games``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.games import TableContext


def table_screen(context: TableContext):
    from tui.games.foolsgold.screen import FoolsGoldScreen

    seat = context.seats[0] if context.seats else None
    return FoolsGoldScreen(seat, context.names, ascii_mode=context.ascii_mode,
                           host_now=context.host_now)  # fmt: skip


def replay_screen(replay, seat: int | None = None, *, ascii_mode: bool = False):
    from tui.games.foolsgold.replay import FoolsGoldReplayScreen

    return FoolsGoldReplayScreen(replay, seat, ascii_mode=ascii_mode)
