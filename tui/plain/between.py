"""The plain seat's words between the moves and between the games (issue 61):
``again`` offers the same game again or accepts the offer (at a table of people; against
bots, the same game at once, at the pace asked for), ``no`` declines it, and
``react nice`` (or ``ouch``, ``bluff``, ``gg``, ``hurry``, ``thanks``) shows a canned
reaction to everyone ("Ann reacts: Nice!"), and ``alerts off`` (or ``bell``) takes the
bell off (or puts it back) before each line that needs the person."""

from __future__ import annotations

import time
from typing import Any

from net import protocol as p
from net.catalogue import spec
from net.table.reactions import REACT_EVERY
from net.table.settings import PACES as SLOWER
from net.text import quote_peer
from tui.phases import PACES, pace_words

#: the words ``help`` lists for these
WORDS = {
    "again": "at a game's end: offer the same game again, or accept the offer made",
    "no": "decline the rematch offered (your seat is freed; you watch)",
    "react": "a quick reaction everyone sees: react " + ", react ".join(p.REACTIONS),
    "alerts": "alerts off: no bell before a line that needs you; alerts bell: the bell",
}


def again(seat: Any, words: list[str]) -> bool:
    """``again``: a rematch at a table of people, or the same game against bots."""
    session = seat.session
    if session is not None and session.policy.lobby:
        if not seat.over:
            seat.say("again is for a game's end. " + seat._legal_words())
            return False
        seat._send(p.Again(answer="yes"))
        return True
    pace = words[0].casefold() if words else None
    if not (seat.over and session is not None and session.policy.owns_host):
        seat.say("again is for the end of a game: " + seat._legal_words())
        return False
    if pace is not None and pace not in PACES:
        seat.say(f"again with a pace: again {', again '.join(PACES)}.")
        return False
    seat.say("Another game." if pace is None else f"Another game, at {pace_words(pace)}.")
    seat.again = pace or True
    seat.leaving = True
    return True


def no(seat: Any, words: list[str]) -> bool:
    """``no``: decline the rematch offered."""
    offer = seat.session.again if seat.session is not None else None
    if offer is None or offer.by is None:
        seat.say("No rematch is offered: nothing to decline. Type leave to go.")
        return False
    seat._send(p.Again(answer="no"))
    return True


def react(seat: Any, words: list[str]) -> bool:
    """``react nice``: one of the six canned reactions."""
    word = words[0].casefold() if words else ""
    if word not in p.REACTIONS:
        shown = ", ".join(f"{k} ({v})" for k, v in p.REACTIONS.items())
        seat.say(f"react with one of: {shown}" + (f"; not {quote_peer(words[0])}." if words
                                                  else "."))
        return False
    if seat.session is None or not seat.session.policy.lobby:
        seat.say("Reactions are for a table of people.")
        return False
    now = time.monotonic()
    if now - seat.reacted_at < REACT_EVERY:
        seat.say(f"One reaction every {REACT_EVERY:g} s: that one was not sent.")
        return False
    seat.reacted_at = now
    seat._send(p.React(reaction=word))  # type: ignore[arg-type]
    return True


def alerts(seat: Any, words: list[str]) -> bool:
    """``alerts off`` (or ``bell``, ``desktop``: the bell): the bell before a line that
    needs you, or none; ``alerts`` alone says which."""
    word = words[0].casefold() if words else ""
    if word not in ("off", "bell", "desktop", "on"):
        seat.say(f"Alerts are {seat.alerts}: alerts off writes no bell, alerts bell one "
                 "before each line that needs you.")
        return not words
    seat.alerts = "bell" if word == "on" else word
    seat.say("No bell from now on." if word == "off"
             else "The bell rings before each line that needs you.")
    return True


COMMANDS = {"again": again, "no": no, "react": react, "alerts": alerts}


def race_words(info: p.TableInfo) -> str:
    """How long a race lasts at this table's pace, for a player who listens ("" for a
    game without races): the seconds its bots take to grab after the first grab."""
    found = dict(spec(info.game).race_seconds)
    if not found:
        return ""
    pace = info.settings.pace
    seconds = found.get(info.settings.difficulty, max(found.values())) * SLOWER.get(pace, 1.0)
    said = f"Races: at {pace} pace the bots grab within {seconds:.1f} s of the first grab"
    if pace != "relaxed":
        said += f"; relaxed pace gives {seconds * SLOWER['relaxed'] / SLOWER.get(pace, 1.0):.1f} s"
    return said + "."
