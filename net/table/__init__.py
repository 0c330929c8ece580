"""The host's tables, without I/O: lobby, game loop, bots, stand-ins, chat, log.

One idea a module: ``settings`` (a table's settings), ``people`` (members, seats,
refusals), ``core`` (state, seats, members,
sending), ``lobby`` (the requests), ``play`` (the game loop), ``registry`` (the tables
and ``hello``). A :class:`Table` is the core, and holds a ``Lobby`` and a ``Play``:
objects of their own, each with its own state (the chat's token buckets; the race
actions held and the loop's times), that reach the table's state through it.

Everything here is driven by plain calls that carry ``now`` (the host's clock):
``Tables.hello``, ``Table.handle``, ``Table.disconnect``, ``Table.tick``; and
``Table.next_wakeup()`` says when ``tick`` is next due. Members receive messages
through their ``deliver`` callback. The asyncio shell (``net.host``) feeds these
from sockets and a clock; tests call them directly.

The life of a table::

    lobby --start (owner, or a full table with everyone ready)--> playing
    playing --the game ends--> over --start--> playing ...

In ``lobby`` and ``over`` the owner configures the table and adds or removes bots;
people join, take seats, get ready, and leave. In ``playing`` the seats are fixed: a
player who drops is "away", and after the grace period a stand-in bot plays the seat
until they come back with their resume token.

Two clocks: ``now`` is always the host's. The game runs on the table's own clock,
``Table.clock(now)``: the host's minus the time the table spent waiting. A game
restored after a crash (``net.saves``) waits for its people (``hold``): until every
seated person is back or the grace period ends, the table's clock stands still, so no
deadline passes and no bot or stand-in acts, and game actions are refused. Everything
the game sees or sends (actions, deadlines, bot plans, the log, ``state.at``) is on
the table's clock; away times and the grace period on the host's.
"""

from net.table.people import BOT_NAMES, Member, Refusal, Seat
from net.table.registry import Tables
from net.table.settings import Settings
from net.table.table import Table

__all__ = ["BOT_NAMES", "Member", "Refusal", "Seat", "Settings", "Table", "Tables"]
