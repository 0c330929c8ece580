"""What a finished game gives the league: each seat's identity, place and share.

- A person: the name as played, casefolded (one player across games and case). A
  connection's person counts only with an identity (``Member.verified``: a key proved
  in the hello, the SSH door's pinned key, this machine's own app); without one the
  seat is a guest: the game is saved, and the guest's seat rates nobody.
- Hot-seat players (``local`` seats) count by name in that machine's own league.
- A bot: its level (``bot:hard``), one rated player a level, shown as "Hard bot".
- Games saved before identities (the backfill) count for each name as it was.
- The place comes from the final scores (ties share it); the share is the part of
  the seat's moves the person made (a stand-in the rest).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from net.league.ledger import Seat
from net.league.rating import places


def bot_who(level: str) -> str:
    return f"bot:{level}"


def bot_name(level: str) -> str:
    return f"{level.capitalize()} bot"


def shares(entries: Iterable[dict[str, Any]], count: int) -> list[float]:
    """Each seat's share of its own moves made by its player, not a stand-in (1.0 for
    a seat that never moved)."""
    own, standin = [0] * count, [0] * count
    for entry in entries:
        action = entry.get("action")
        seat = action.get("seat") if isinstance(action, dict) else None
        if not isinstance(seat, int) or not 0 <= seat < count:
            continue
        if entry.get("by") == "standin":
            standin[seat] += 1
        else:
            own[seat] += 1
    return [1.0 if o + s == 0 else o / (o + s) for o, s in zip(own, standin, strict=True)]


def league_seats(
    seats: Sequence[tuple[str, str, str, bool]],
    scores: Sequence[float],
    winners: Iterable[int],
    seat_shares: Sequence[float],
) -> list[Seat]:
    """The league's seats of a finished game: ``seats`` are (name, kind, difficulty,
    has an identity) by seat."""
    won = set(winners)
    placed = places(scores)
    out = []
    for i, (name, kind, level, known) in enumerate(seats):
        if kind == "bot":
            who, shown, person = bot_who(level), bot_name(level), False
        else:
            person = True
            guest = kind == "human" and not known
            who, shown = ("" if guest else name.casefold()), name
        out.append(Seat(i, who, shown, person, placed[i], seat_shares[i], i in won))
    return out
