"""Helpers for the TUI tests: real rules views, screen text, recorded messages."""

from __future__ import annotations

from msgspec.structs import replace

from net.views import to_events, to_view
from nuggets import Game, Keep, Roll
from tui.messages import SendAction
from tui.screen_text import screen_text

__all__ = ["Recorder", "events", "footer_text", "foolsgold_view", "nuggets_view", "replace",
           "screen_text"]


def events(*dicts):
    """Events written as the rules write them, typed as a client receives them."""
    return to_events(list(dicts))


def nuggets_view(rolled=("nugget", "lasso", "3", "3", "3", "5", "2"), kept=(), names=("Ann", "Bob"),
                 seat=0):
    """A real Gold Nuggets view, typed as a client receives it: the rules engine played
    to the given position."""
    game = Game(list(names))
    if kept:
        first = list(kept) + list(rolled)[: 7 - len(kept) - len(rolled)]
        # roll the kept dice plus fillers so the kept set-aside is legal, then keep
        filler = ["nugget"] * (7 - len(first))
        game.apply(Roll(first + filler))
        game.apply(Keep(list(kept)))
    game.apply(Roll(list(rolled)))
    return to_view(game.view(seat))


def foolsgold_view(**changes):
    """A Fool's Gold match view, typed as a client receives it (cards may be given as
    the rules write them). As in every view a host sends, the seat's own entry in
    ``hand_sizes`` is the size of its hand, unless the sizes are given too."""
    card = lambda n, v, k="animal": {"name": n, "kind": k, "variant": v}  # noqa: E731
    view = {
        "game": "foolsgold", "seat": 0, "players": 4, "start": 1,
        "hand": [card("Owl", "a"), card("Owl", "c"), card("Calamity Kate", "f", "prospector"),
                 card("Gila Monster", "b"), card("Mule", "d"), card("Owl", "d")],
        "hand_sizes": [6, 5, 5, 5], "incoming_sizes": [0, 2, 1, 0], "draw_pile": 20,
        "trash_pile": 3, "nuggets_left": 3, "grabbed": [], "caller": None, "revealed": None,
        "revealed_set": None, "frozen": False, "deadline": None, "call_closes": None,
        "settled": False, "deltas": None, "scores": [1, 0, 2, 0], "winner": None, "round_no": 2,
    }
    view.update(changes)
    if "hand_sizes" not in changes and view["hand"] is not None and view["seat"] is not None:
        view["hand_sizes"] = list(view["hand_sizes"])
        view["hand_sizes"][view["seat"]] = len(view["hand"])
    return to_view(view)


class Recorder:
    """A message hook that keeps every action a screen asked to send."""

    def __init__(self) -> None:
        self.actions = []

    def __call__(self, message) -> None:
        if isinstance(message, SendAction):
            self.actions.append(message.action)


async def footer_text(pilot) -> str:
    """The footer's line, once it has redrawn: a footer whose keys changed composes
    itself again after the screen's next refresh, so wait for that first."""
    await pilot.pause()
    await pilot.pause()
    lines = screen_text(pilot.app).splitlines()
    footers = pilot.app.screen.query("Footer")
    if not footers or not footers.first().region.height:
        return lines[-1]
    region = footers.first().region  # above the touch bar, where one is shown
    return "\n".join(lines[region.y:region.bottom])


SIZES = [(80, 24), (60, 20)]


def flat(text: str) -> str:
    return " ".join(text.split())


ALWAYS = {"Advisor", "Leave", "Keys"}  # a Gold Nuggets table's keys that always work
