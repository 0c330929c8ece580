"""The plain seat's lobby: its requests (``ready``, ``start``, ``bot``, ``unbot``,
``pace``, ``say``, ``leave``), the pace said in words, and ``who`` sits where. Each
takes the seat (``tui.plain.seat.PlainSeat``) it speaks for, as ``tui.plain.between``'s
words do."""

from __future__ import annotations

from typing import Any

from net import protocol as p
from net.catalogue import DIFFICULTIES
from net.text import clean_text, quote_peer
from tui.phases import PACES, pace_words
from tui.plain.between import race_words


def seat_name(seat: p.SeatInfo) -> str:
    """A seat's name as the plain seat says it: a bot's says so once ("Hattie (bot)" is
    named so by the host already; a bot named otherwise gets the word)."""
    name = clean_text(seat.name) + (" (guest)" if seat.guest else "")  # rates nobody
    return f"{name} (bot)" if seat.kind == "bot" and "(bot)" not in name else name


def request(seat: Any, what: str, words: list[str]) -> bool:
    """One of the lobby's requests (``ready``, ``start``, ``bot``, ``unbot``, ``pace``,
    ``say``, ``leave``); False when it was refused (the rest of a chain then stops)."""
    session = seat.session
    if what == "leave":
        seat.say(f"Leaving the table{' for the menu' if seat.after_leave else ''}.")
        seat.leaving = True
        return True
    if what == "say":
        if words:
            seat._send(p.Chat(text=" ".join(words)))
        else:
            seat.say("say what? For example: say good luck")
            return False
        return True
    if what == "pace" and seat.info is not None and (
            seat.info.phase == "playing" or not words):
        seat.say(pace_now(seat, asked=bool(words)))
        return not words
    if seat.info is not None and seat.info.phase == "playing":
        seat.say(f"Not during a game: {what} is for the lobby. " + seat._legal_words())
        return False
    if what == "ready":
        mine = [s for s in (seat.info.seats if seat.info else []) if s.seat in seat.seats]
        seat._send(p.Ready(ready=not (mine and all(s.ready for s in mine))))
    elif what == "start":
        seat._send(p.Start())
    elif what == "bot":
        level = words[0].casefold() if words else None
        if level is not None and level not in DIFFICULTIES:
            seat.say(f"A bot is {', '.join(DIFFICULTIES)}, not {quote_peer(words[0])}.")
            return False
        seat._send(p.AddBot(difficulty=level))
    elif what == "pace":
        pace = words[0].casefold() if words else ""
        if pace not in PACES:
            seat.say(f"pace is one of {', '.join(PACES)}: {pace_words('steady')}; "
                     f"{pace_words('relaxed')}.")
            return False
        if session.is_owner:
            seat._send(p.Configure(pace=pace))
        else:  # only the owner sets it: the player asks, in the table's chat
            seat._send(p.Chat(text=f"Please set the table to {pace_words(pace)}."))
            seat.say(f"Asked the owner for {pace} pace.")
    elif what == "unbot":
        bots = [s.seat for s in (seat.info.seats if seat.info else []) if s.kind == "bot"]
        if not bots:
            seat.say("No bot sits at this table.")
            return False
        seat._send(p.RemoveBot(seat=bots[-1]))
    return True

def pace_now(seat: Any, *, asked: bool) -> str:
    """The pace this table plays at, and how long a race lasts there; ``asked``: a
    change was asked for in a game, where the pace waits for the lobby."""
    assert seat.info is not None
    said = f"This table plays at {pace_words(seat.info.settings.pace)}."
    if race := race_words(seat.info):
        said += f" {race}"
    if asked:
        said += " The pace is set in the lobby, before a game: " + (
            "type again relaxed when this game is over." if
            seat.session.policy.owns_host and not seat.session.policy.lobby
            else "type pace relaxed there.")
    return said


def who(seat: Any) -> str:
    """``who``: every seat, who is away, who is this keyboard's, and how many watch."""
    if seat.info is None:
        return "Nobody yet."
    said = []
    for s in seat.info.seats:
        away = "" if s.connected or s.kind == "bot" else ", away"
        you = ", you" if s.seat in seat.seats else ""
        said.append(f"seat {s.seat + 1}: {seat_name(s)}{away}{you}")
    watching = seat.info.spectators
    return "; ".join(said) + (f"; {watching} watching" if watching else "") + "."
