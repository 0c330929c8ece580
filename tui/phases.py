"""What a table accepts now and what is true now, derived from the view a screen holds.

One function per table, pure and headless (no Textual): `lobby_now` here, and each
game's own in its folder (``tui.games.<key>.phases``). Each takes what the screen
holds and returns a `Now`, the name of the phase, the play actions that would be
accepted, and the status line. A screen's
``check_action`` (so its footer) and its status line both read that one answer, so
they cannot drift apart: a key is in the footer only while pressing it does something,
and the status never says what stopped being true.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from net import protocol as p
from net.catalogue import spec
from net.text import clean_text

LOBBY_ACTIONS = frozenset({"ready", "start", "add_bot", "remove_bot", "kick", "seats",
                           "difficulty", "house_rule", "pace"})


#: the tables' paces, in the order `p` steps through them (``net.table.PACES``)
PACES = ("normal", "steady", "relaxed")


#: how many times the game's own time windows each pace stretches them
#: (``net.table.settings.PACES``)
PACE_TIMES = {"normal": 1, "steady": 2, "relaxed": 4}


def pace_words(pace: str) -> str:
    """A pace in words: "relaxed pace (time windows x4, bots 4x slower)"."""
    times = PACE_TIMES.get(pace, 1)
    return f"{pace} pace" + (f" (time windows x{times}, bots {times}x slower)"
                             if times != 1 else "")


def paced(seconds: float, pace: str) -> str:
    """A time window as a table of ``pace`` plays it: "20 s", or "10 s" at normal."""
    return f"{seconds * PACE_TIMES.get(pace, 1):g} s"


@dataclass(frozen=True)
class Now:
    """The state of play as one screen sees it."""

    phase: str  # a name for it ("keep", "race", "round-over"...): for tests and logs
    keys: frozenset[str]  # the screen's play actions that would be accepted now
    status: str  # one line: what is true now, and what the keys do


def namer(names: Sequence[str]) -> Callable[[int | None], str]:
    def name(seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(names):
            return names[seat]
        return "?"

    return name


# -- the lobby -----------------------------------------------------------------------


def lobby_now(info: p.TableInfo | None, mine: Iterable[int], owner: bool) -> Now:
    """The lobby of a LAN table: who may start, who is awaited, what the owner may do."""
    if info is None:
        return Now("joining", frozenset(), "")
    mine = set(mine)
    name = namer([clean_text(s.name) for s in info.seats])
    owner_name = name(info.owner) if info.owner is not None else "the owner"
    settings = info.settings
    if info.phase == "playing":
        return Now("playing", frozenset(), "The game is running.")
    keys: set[str] = set()
    if mine:  # the owner too: a full table whose people are all ready starts itself
        keys.add("ready")
    if owner:
        keys |= {"seats", "difficulty", "pace"}
        if any(s.choices and s.configurable for s in spec(info.game).settings):
            keys.add("house_rule")  # a game's house rule (h), where it has one
        if len(info.seats) < settings.seats:
            keys.add("add_bot")
        if any(s.kind == "bot" for s in info.seats):
            keys.add("remove_bot")
        if any(s.kind == "human" and s.seat not in mine and not (s.ready and s.connected)
               for s in info.seats):
            keys.add("kick")  # a seat held by someone not ready (or away) can be freed
    waiting = [clean_text(s.name) for s in info.seats
               if s.kind == "human" and s.seat not in mine and not (s.ready and s.connected)]
    low = spec(info.game).low
    again = "The game is over. " if info.phase == "over" else ""
    if owner:
        if len(info.seats) < low:
            status = (f"{spec(info.game).title} needs at least {low} players: b adds a bot, "
                      "or wait for someone to join.")
        elif waiting:
            status = f"Waiting for {', '.join(waiting)} to get ready."
        else:
            keys.add("start")
            others = any(s.kind == "human" and s.seat not in mine for s in info.seats)
            status = ("Everyone else is ready: press s to start." if others
                      else "Press s to start.")
        return Now("lobby-owner", frozenset(keys), again + status)
    if not mine:
        return Now("lobby-watching", frozenset(keys),
                   again + f"You are watching: the game starts when {owner_name} starts it.")
    if any(s.ready for s in info.seats if s.seat in mine):
        status = f"You are ready: waiting for {owner_name} to start (r: not ready)."
    else:
        status = f"Press r when you are ready; {owner_name} starts the game."
    return Now("lobby-player", frozenset(keys), again + status)
