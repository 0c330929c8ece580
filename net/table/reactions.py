"""Quick reactions (``react``, protocol 4): six canned words (``REACTIONS``), no free
text, so there is nothing to moderate. Each reaches every seat and watcher; a person
gets at most one every ``REACT_EVERY`` seconds, and the host drops the rest in silence
(the sender's own app already keeps to it; a flood costs the others nothing)."""

from __future__ import annotations

from typing import Any

from net import protocol as p
from net.table.people import Member

#: seconds between two reactions of one person (the host drops one sooner)
REACT_EVERY = 2.0


def react(table: Any, member: Member, message: p.React, now: float) -> bool:
    """Send ``member``'s reaction to everyone at ``table``; False when dropped."""
    if now - member.react_at < REACT_EVERY:
        return False
    member.react_at = now
    seats = table.seats_of(member)
    table.send_all(p.Reaction(seat=seats[0] if seats else None, name=member.name,
                              reaction=message.reaction, at=table.clock(now)))
    return True
