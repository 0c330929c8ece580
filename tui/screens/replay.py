"""Replays: step through a saved game (``motherlode replay FILE``) at its own table.

A saved game (``net.saves``) is replayed once by the replay engine when it is opened;
the screen then shows the view after any step, from any seat or as a spectator. The
table screens of live play draw it, with the replay's keys instead of the game's: the
screen sends no actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding

from net.text import clean_text
from net.views import Event, View, to_events, to_view
from tui.keys import with_ids
from tui.phases import pace_words
from tui.widgets.log import EventLog

if TYPE_CHECKING:
    from net.saves import Saved

REPLAY_BINDINGS = with_ids("replay", [
    Binding("right,l,space", "step(1)", "Next"),
    Binding("left,h", "step(-1)", "Back"),
    Binding("pagedown", "step(20)", "+20", show=False),
    Binding("pageup", "step(-20)", "-20", show=False),
    Binding("home", "jump(0)", "Start", show=False),
    Binding("end", "jump(-1)", "End", show=False),
    Binding("s,tab", "next_seat", "Seat"),
    *(Binding(str(i), f"seat({i - 1})", f"Seat {i}", show=False) for i in range(1, 9)),
    Binding("w", "seat(-1)", "Spectator", show=False),
    Binding("q,escape", "app.leave", "Leave"),
])
REPLAY_HELP = [
    ("right / space", "the next step"),
    ("left", "the step before"),
    ("pgup / pgdn", "20 steps back / on"),
    ("home / end", "the deal / the last step"),
    ("s / tab", "view from the next seat (then as a spectator)"),
    ("1-8", "view from that seat"),
    ("w", "view as a spectator"),
    ("q", "leave the replay"),
]


class Replay:
    """A loaded game's steps: ``views(i)[seat]``, the last one the spectator's."""

    def __init__(self, saved: Saved) -> None:
        self.saved = saved
        self.steps = saved.steps()  # replays and checks it: raises SaveError
        self.names = [clean_text(str(n)) for n in saved.players]
        self.game = saved.game

    def __len__(self) -> int:
        return len(self.steps)

    def view(self, index: int, seat: int | None) -> View:
        """The view after step ``index``: the rules' dict, typed as a client gets it."""
        _, views = self.steps[index]
        return to_view(views[-1 if seat is None else seat])

    def events(self, index: int) -> list[Event]:
        return to_events(self.steps[index][0].events)


class ReplayControls:
    """The replay's state and keys, for any game's table screen: a game's replay screen
    is ``class XReplayScreen(ReplayControls, XScreen, inherit_bindings=False)`` with
    ``BINDINGS = REPLAY_BINDINGS`` and ``HELP = REPLAY_HELP`` (``tui.games.<key>``)."""

    replay: Replay
    index: int
    watching: int | None

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#hint").display = False  # what to press in play: not here
        self._show()

    def _init_replay(self, replay: Replay, seat: int | None) -> None:
        self.replay = replay
        self.index = 0
        self.watching = seat

    def _show(self) -> None:
        raise NotImplementedError

    def _status_text(self) -> str:
        who = "a spectator" if self.watching is None else self.replay.names[self.watching]
        step = self.replay.steps[self.index][0]
        by = ""
        if step.seat is not None:
            by = f" ({self.replay.names[step.seat]}, {step.by})"
        elif step.pace is not None:
            by = f" (the pace: {step.pace} from here)"
        elif step.index:
            by = " (time-out)"
        return (
            f"Replay {self.index}/{len(self.replay) - 1}{by}, seen by {who}. "
            "right/left step, s changes seat, q leaves."
        )

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.replay) - 1, self.index + delta))
        self._show()

    def action_jump(self, index: int) -> None:
        self.index = index if index >= 0 else len(self.replay) - 1
        self._show()

    def action_seat(self, seat: int) -> None:
        if seat >= len(self.replay.names):
            return
        self.watching = None if seat < 0 else seat
        self._show()

    def action_next_seat(self) -> None:
        seats = len(self.replay.names)
        if self.watching is None:
            self.watching = 0
        else:
            self.watching = self.watching + 1 if self.watching + 1 < seats else None
        self._show()

    def _log_events(self, log: EventLog) -> None:
        """The log shows the game up to this step (the newest lines that fit)."""
        log.lines.clear()
        start = max(0, self.index - 60)
        for i in range(start, self.index + 1):
            log.add_events(self.replay.events(i), self.replay.names)
            if (pace := self.replay.steps[i][0].pace) is not None:  # a guided game's
                log.add_line(f"The rest of the game is at {pace_words(pace)}.")
        log.refresh()


def replay_screen(replay: Replay, seat: int | None = None, *, ascii_mode: bool = False):
    """The replay screen of the game's kind (its own, ``tui.games.<key>``)."""
    from tui.plugin import game_of

    return game_of(replay.game).replay_screen(replay, seat, ascii_mode=ascii_mode)
