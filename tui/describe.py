"""Events in words, for the event log: one short line per event.

Headless and pure. Events are the typed ``net.views`` Structs a client decodes; each
game puts its own in words (``tui.games.<key>.describe``), with the helpers here. Names
are peer text: callers put the returned strings into `rich.text.Text` objects (never
markup), so a name like "[bold]" prints as typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from net import views


def name(names: Sequence[str], seat: int | None) -> str:
    if seat is not None and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def lag(lag: float) -> str:
    """", lag +35 ms": the host counted the action that much before it arrived, for
    its sender's network delay (lag-fair races); "" for none."""
    ms = round(lag * 1000)
    return f", lag +{ms} ms" if ms > 0 else ""


def faces(faces: Sequence[str]) -> str:
    return " ".join(faces) or "nothing"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe(event: views.Event, names: Sequence[str], view: Any = None) -> str:
    """One line for an event of any game; ``view``, the view the events led to, lets a
    game explain more (Fool's Gold: what made each seat's points)."""
    from tui.plugin import game_of

    for key in views.games_of(event):
        line = game_of(key).describe(event, names, view)
        if line is not None:
            return line
    # an event this version does not put in words (a newer net.views): its fields
    fields = msgspec.to_builtins(event)
    kind = fields.pop("type", type(event).__name__)
    detail = ", ".join(f"{k}={val}" for k, val in fields.items())
    return f"{kind}: {detail}" if detail else str(kind)
