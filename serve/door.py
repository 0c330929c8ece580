"""The one interface of a front door of ``motherlode serve``: the SSH door
(``serve.ssh.SSHDoor``) and the web door (``serve.web.WebDoor``) both offer it, and
``serve.cli`` opens, lists and closes them through it alone.

A door listens (:meth:`Door.start`), runs one app process per session (the product's
``motherlode served``), and at the end hangs up on every app and says goodbye to its
players (:meth:`Door.stop`). While it runs it says who is at it (:attr:`Door.sessions`)
and what it allows (:attr:`Door.budgets`). Every door counts its connections in the
process's one ledger (``net.budgets``), shared with the LAN host.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from net.budgets import Budgets

GOODBYE = "The server is shutting down. Thanks for playing!"
#: the header the web door marks every answer with (its own random value), so that
#: ``serve --via`` can tell from outside that a port reaches this very door
MARK_HEADER = "X-Motherlode-Door"


@dataclass(frozen=True)
class Session:
    """One live session at a door: an app process and the person it runs for."""

    door: str  #: the door's ``name``
    who: str | None  #: the player's name, when the door knows it (a browser has none)
    where: str  #: the address the person came from
    since: float  #: when its app started (``time.time()``)
    #: someone is at it; False while an app waits for its dropped player
    attached: bool = True


@dataclass(frozen=True)
class DoorBudgets:
    """A door's own limits (their reasons: ``docs/RELIABILITY.md``)."""

    #: live apps at once, attached or waiting for their player
    max_sessions: int
    #: live apps from one address at once; None: only the ledger's caps hold
    per_address: int | None
    #: seconds an app waits for its dropped player (0: it ends with the line)
    keep_detached: float
    #: the largest terminal an app is given, ``(width, height)``
    max_size: tuple[int, int]
    #: the process's limits every door shares: connections and app starts per address
    shared: Budgets


@runtime_checkable
class Door(Protocol):
    """A front door (see the module docstring)."""

    #: a short name for the door, in lower case: ``"ssh"``, ``"web"``
    name: str

    @property
    def port(self) -> int:
        """The port it listens on; 0 before :meth:`start`."""
        ...

    async def start(self, bind: str | None, port: int) -> int:
        """Listen on ``bind`` (None or "": every interface) and ``port`` (0: any free
        one); returns the port. Raises OSError."""
        ...

    async def stop(self, goodbye: str = GOODBYE) -> None:
        """Stop listening, hang up on every app, and tell every player ``goodbye`` where
        the door can show words; returns once the door is closed."""
        ...

    @property
    def sessions(self) -> list[Session]:
        """The live sessions, oldest first."""
        ...

    @property
    def budgets(self) -> DoorBudgets:
        """The door's limits."""
        ...

    def forwarded(self) -> asyncio.Protocol:
        """A protocol for one connection the door did not accept itself (one a relay
        forwards, ``serve.via``), as its own listener builds one: its transport's
        ``peername`` names the person, and the door counts it as any other."""
        ...

    def invite(self, address: str) -> str:
        """What a friend types or opens to come in at ``address`` (this machine's)."""
        ...

    def notes(self) -> list[str]:
        """Lines the server prints once, after the invitations (may be none)."""
        ...
