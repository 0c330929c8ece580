"""A Fool's Gold match, replayed step by step at its own table (``tui.screens.replay``)."""

from __future__ import annotations

from tui.games.foolsgold.screen import FoolsGoldScreen
from tui.screens.replay import REPLAY_BINDINGS, REPLAY_HELP, Replay, ReplayControls
from tui.widgets.log import EventLog


class FoolsGoldReplayScreen(ReplayControls, FoolsGoldScreen, inherit_bindings=False):
    """A Fool's Gold match, step by step."""

    BINDINGS = REPLAY_BINDINGS
    HELP = REPLAY_HELP

    def __init__(self, replay: Replay, seat: int | None = None, *, ascii_mode: bool = False):
        super().__init__(seat, replay.names, ascii_mode=ascii_mode)
        self._init_replay(replay, seat)


    def _show(self) -> None:
        if not self._ready or not self.is_attached:
            return
        self.seat = self.watching
        self.view = self.replay.view(self.index, self.watching)
        self._log_events(self.query_one(EventLog))
        self.show_status(self._status_text())

    def _send(self, action) -> None:  # a replay never acts
        pass
