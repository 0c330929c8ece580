"""A Gold Nuggets game, replayed step by step at its own table (``tui.screens.replay``)."""

from __future__ import annotations

import msgspec

from tui.games.nuggets.screen import NuggetsScreen
from tui.screens.replay import REPLAY_BINDINGS, REPLAY_HELP, Replay, ReplayControls
from tui.widgets.log import EventLog


class NuggetsReplayScreen(ReplayControls, NuggetsScreen, inherit_bindings=False):
    """A Gold Nuggets game, step by step."""

    BINDINGS = REPLAY_BINDINGS
    HELP = REPLAY_HELP

    def __init__(self, replay: Replay, seat: int | None = None, *, ascii_mode: bool = False):
        super().__init__([] if seat is None else [seat], ascii_mode=ascii_mode, advisor=False)
        self._init_replay(replay, seat)


    def _show(self) -> None:
        if not self._ready or not self.is_attached:
            return
        self.my_seats = [] if self.watching is None else [self.watching]
        view = self.replay.view(self.index, self.watching)
        view = msgspec.structs.replace(view, players=list(self.replay.names))
        self.selected = frozenset()
        self.view = view
        self._log_events(self.query_one(EventLog))
        self.show_status(self._status_text())

    def _send(self, action) -> None:  # a replay never acts
        pass
