"""The server's limits, written once: the LAN host (``net.host``), the SSH door
(``serve.ssh``) and the web door (``serve.web``) count every connection here, from
accept to close, in one :class:`Ledger` per process.

One idea: nobody's seat depends on a stranger's good behaviour.

- Every connection is in one *stage*: ``pending`` (before a hello or a login),
  ``idle`` (logged in over SSH, no session yet), ``spectating``, ``seated`` (it holds a
  seat, or a door's session that plays one). All but ``seated`` are *strangers*.
- Strangers are capped in total and per source address, per stage. Seated connections
  are never refused for capacity: the descriptors of ``seat_reserve`` are theirs.
- ``pending`` and ``idle`` are full of *nobody yet*: when they are full, the oldest
  connection of the busiest address makes room (a real client says hello in a
  millisecond, so a flood evicts itself, and a seat holder's reconnect always gets in).
  ``spectating`` is refused at once with words saying why.
- ``raise_nofile`` lifts the soft descriptor limit to the hard one at start; the
  budgets still plan for 1024 (``plan``).
- ``guard_accept`` makes ``accept()`` out of descriptors back off (growing delay) and
  log once per ``accept_log_every`` seconds, not once per attempt.
"""

from __future__ import annotations

import asyncio
import logging
import math
import resource
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from net import asyncio_internals

log = logging.getLogger(__name__)

PENDING, IDLE, SPECTATING, SEATED = "pending", "idle", "spectating", "seated"
STAGES = (PENDING, IDLE, SPECTATING, SEATED)
EVICTING = (PENDING, IDLE)  # full: the busiest address's oldest makes room
ALL = "*"  # the key of the whole server's bucket of app starts (no address is "*")
LOCAL = ("127.0.0.1", "::1")  # where the server's own apps connect from


@dataclass
class Budgets:
    """Every limit with its default; docs/RELIABILITY.md gives the reasons."""

    #: descriptors the budgets plan for, whatever the hard limit allows
    plan_nofile: int = 1024
    #: descriptors only seat holders, their apps, files and the loop itself may use
    seat_reserve: int = 320
    #: connections before a hello / login, every door together; and per address
    pending: int = 160
    pending_per_address: int = 24
    #: SSH connections logged in with no session yet; and per address
    idle: int = 32
    idle_per_address: int = 4
    #: spectators of the LAN host (every table); per address; per table
    spectating: int = 256
    spectating_per_address: int = 16
    spectators_per_table: int = 64
    #: chat lines a second at one table (each goes to everyone there), and at once:
    #: from its players; from all its spectators together; one spectator's spacing
    chat_rate: float = 10.0
    chat_burst: float = 20.0
    spectator_chat_rate: float = 4.0
    spectator_chat_burst: float = 8.0
    spectator_chat_every: float = 2.0
    #: seconds a connection may stay in a stage that does nothing useful (the SSH
    #: door's login and session time-outs are ``serve.ssh.DoorConfig``'s)
    hello_timeout: float = 10.0  # LAN: accept -> hello (``HostConfig`` sets it)
    header_timeout: float = 5.0  # web: accept -> a whole request's headers
    #: seconds between two log lines about accept() out of descriptors
    accept_log_every: float = 10.0
    #: apps started for one address (a new SSH session or web tab runs an app, 0.56
    #: CPU-seconds to its menu): this many at once, then one per ``app_start_every``
    #: seconds. A dropped player's app waits for them, so coming back starts nothing
    app_start_burst: int = 8
    app_start_every: float = 5.0
    #: and for every address together (several source addresses cannot churn apps
    #: either): a whole party at once, then one every 5 seconds (an app start is
    #: 0.56 CPU-seconds to its menu: a churn costs the server a tenth of a core)
    app_starts: int = 16
    app_starts_every: float = 5.0
    #: apps started again for one person whose own app is replaced (a browser that
    #: reloads its page): from a bucket of its own, not its address's, so reloads never
    #: cost the address its new sessions; the whole server's bucket still counts them
    app_restart_burst: int = 20
    app_restart_every: float = 2.0
    #: new connections from one address, every door together: this many at once, then
    #: ``connect_rate`` a second (a classroom behind one address joins at once; a loop
    #: that opens sockets as fast as it can is turned away at accept, for the cost of a
    #: close). The server's own apps connect from 127.0.0.1 and ::1, which are not
    #: counted (``LOCAL``)
    connect_burst: int = 40
    connect_rate: float = 2.0

    def cap(self, stage: str, nofile: int | None = None) -> int:
        """The total cap of a stranger stage, shrunk to fit a small descriptor limit."""
        total = getattr(self, stage)
        if stage == SEATED:
            return 1 << 30
        nofile = nofile or self.plan_nofile
        room = max(16, nofile - min(self.seat_reserve, nofile * 5 // 16))
        share = {PENDING: 0.3, IDLE: 0.1, SPECTATING: 0.6}[stage]
        return max(1, min(total, int(room * share)))

    def per_address(self, stage: str) -> int:
        return {PENDING: self.pending_per_address, IDLE: self.idle_per_address,
                SPECTATING: self.spectating_per_address}.get(stage, 1 << 30)


class Ledger:
    """The connections of one process by stage and address (see the module docstring).

    ``enter(stage, address, item)`` returns ``(admitted, evicted)``: the items that must
    be closed to make room (an evicting stage), or ``admitted`` False with nobody
    evicted (a refusing stage: say :meth:`why` and close)."""

    def __init__(self, budgets: Budgets | None = None, nofile: int | None = None) -> None:
        self.budgets = budgets or Budgets()
        self.nofile = nofile if nofile is not None else soft_nofile()
        # stage -> address -> item -> entry time, oldest first
        self._items: dict[str, dict[str, OrderedDict[Hashable, float]]] = {
            stage: {} for stage in STAGES}
        self._count = dict.fromkeys(STAGES, 0)
        # each settled holder's own eviction: a stage is shared by every door, so the
        # holder evicted to make room may be another door's (``settle``)
        self._evictors: dict[Hashable, Callable[[Any, str], None]] = {}
        self.refused = dict.fromkeys(STAGES, 0)
        self.evicted = dict.fromkeys(STAGES, 0)
        self._starts: dict[str, tuple[float, float]] = {}  # address -> (tokens, at)
        self.starts_refused = 0
        self._connects: dict[str, tuple[float, float]] = {}  # address -> (tokens, at)
        self.connects_refused = 0

    def count(self, stage: str, address: str | None = None) -> int:
        if address is None:
            return self._count[stage]
        return len(self._items[stage].get(address, ()))

    def cap(self, stage: str) -> int:
        return self.budgets.cap(stage, self.nofile)

    def why(self, stage: str, address: str) -> str:
        """Words for a refused stranger."""
        if self.count(stage, address) >= self.budgets.per_address(stage):
            return (f"Too many connections from your address ({address}) are {stage} here "
                    f"(at most {self.budgets.per_address(stage)}); close some and try again.")
        return (f"The server has no room for another {stage} connection "
                f"(at most {self.cap(stage)}); seated players come first. Try later.")

    def enter(self, stage: str, address: str, item: Hashable) -> tuple[bool, list[Hashable]]:
        evicted: list[Hashable] = []
        if stage != SEATED:
            full_here = self.count(stage, address) >= self.budgets.per_address(stage)
            full = self._count[stage] >= self.cap(stage)
            if full_here or full:
                if stage not in EVICTING:
                    self.refused[stage] += 1
                    return False, []
                victim_address = address if full_here else self._busiest(stage)
                victim = next(iter(self._items[stage][victim_address]))
                self.leave(stage, victim_address, victim)
                self.evicted[stage] += 1
                evicted.append(victim)
        self._items[stage].setdefault(address, OrderedDict())[item] = time.monotonic()
        self._count[stage] += 1
        return True, evicted

    def leave(self, stage: str, address: str, item: Hashable) -> bool:
        """Forget ``item`` (True if it was counted there)."""
        here = self._items[stage].get(address)
        if here is None or item not in here:
            return False
        del here[item]
        if not here:
            del self._items[stage][address]
        self._count[stage] -= 1
        return True

    def settle(self, holder: Any, stage: str | None,
               evict: Callable[[Any, str], None]) -> bool:
        """Move ``holder`` (anything with ``stage`` and ``address``) to ``stage`` (None:
        gone). Refused, it keeps its stage and this says False. ``evict`` is how this
        holder goes if it is ever evicted: whoever is evicted to make room (of any door)
        loses its stage and goes to its own ``evict`` with the reason, in words."""
        if stage == holder.stage:
            return True
        if stage is None:
            self.leave(holder.stage, holder.address, holder)
            self._evictors.pop(holder, None)
            holder.stage = None
            return True
        admitted, evicted = self.enter(stage, holder.address, holder)
        if not admitted:
            return False
        if holder.stage is not None:
            self.leave(holder.stage, holder.address, holder)
        holder.stage = stage
        self._evictors[holder] = evict
        for victim in evicted:
            victim.stage = None
            self._evictors.pop(victim, evict)(victim, self.why(stage, victim.address))
        return True

    def arrive(self, holder: Any, evict: Callable[[Any, str], None],
               now: float | None = None) -> str | None:
        """A new connection from ``holder.address``: within the address's rate of new
        connections (:meth:`knock`) it enters ``pending`` (:meth:`settle`) and this says
        None; past it, nothing is counted and this says why, for the door to close it
        with."""
        why = self.knock(holder.address, now)
        if why is None:
            self.settle(holder, PENDING, evict)
        return why

    def knock(self, address: str, now: float | None = None) -> str | None:
        """Take one new connection from ``address`` out of its bucket (``connect_burst``
        at once, then ``connect_rate`` a second): None if it may come in, else the words
        to turn it away with (and nothing is taken). Loopback is not counted: the
        server's own apps connect from there."""
        if address in LOCAL:
            return None
        now = time.monotonic() if now is None else now
        budgets = self.budgets
        every = 1.0 / budgets.connect_rate
        if _refill(self._connects, address, budgets.connect_burst, every, now) < 1:
            self.connects_refused += 1
            return (f"Too many new connections from your address ({address}): at most "
                    f"{budgets.connect_burst} at once, then {budgets.connect_rate:g} a "
                    "second. Wait a moment and try again.")
        _take(self._connects, address, budgets.connect_burst, every, now)
        return None

    def start_app(self, address: str, now: float | None = None, *,
                  again: str | None = None) -> str | None:
        """Take one app start for ``address``: a token bucket per address
        (``app_start_burst``, refilled one per ``app_start_every`` seconds) and one for
        the whole server (``app_starts``, one per ``app_starts_every``), so several
        source addresses cannot churn apps either. ``again`` names a person whose own
        app this one replaces (a browser reloading its page): their own bucket
        (``app_restart_burst``, one per ``app_restart_every``) is taken instead of the
        address's. None if it may start one; otherwise the words to refuse it with (and
        no token is taken)."""
        now = time.monotonic() if now is None else now
        budgets = self.budgets
        if again is None:
            key, burst, rate = address, budgets.app_start_burst, budgets.app_start_every
        else:
            key, burst, rate = (f"again {again}", budgets.app_restart_burst,
                                budgets.app_restart_every)
        mine = _refill(self._starts, key, burst, rate, now)
        every = _refill(self._starts, ALL, budgets.app_starts, budgets.app_starts_every, now)
        if mine < 1:
            self.starts_refused += 1
            wait = math.ceil((1 - mine) * rate)
            if again is not None:
                return (f"Your game was started again too often: at most {burst} times "
                        f"at once, then once every {rate:g} seconds. Try again in {wait} s.")
            return (f"Too many new sessions from your address ({address}): at most "
                    f"{burst} at once, then one every {rate:g} seconds. "
                    f"Try again in {wait} s.")
        if every < 1:
            self.starts_refused += 1
            wait = math.ceil((1 - every) * budgets.app_starts_every)
            return (f"The server is starting too many new sessions right now (at most "
                    f"{budgets.app_starts} at once, then one every "
                    f"{budgets.app_starts_every:g} seconds); players already here come "
                    f"first. Try again in {wait} s.")
        _take(self._starts, ALL, budgets.app_starts, budgets.app_starts_every, now)
        _take(self._starts, key, burst, rate, now)
        return None

    def _busiest(self, stage: str) -> str:
        return max(self._items[stage].items(), key=lambda pair: len(pair[1]))[0]

    def snapshot(self) -> dict[str, Any]:
        return {"count": dict(self._count), "refused": dict(self.refused),
                "evicted": dict(self.evicted), "starts_refused": self.starts_refused,
                "connects_refused": self.connects_refused,
                "nofile": self.nofile}


def _refill(buckets: dict[str, tuple[float, float]], key: str, burst: int, every: float,
            now: float) -> float:  # fmt: skip
    """A token bucket's tokens at ``now`` (``burst`` at most, one more per ``every``
    seconds), kept in ``buckets`` as (tokens, when)."""
    tokens, at = buckets.get(key, (float(burst), now))
    tokens = min(float(burst), tokens + (now - at) / every)
    buckets[key] = (tokens, now)
    return tokens


def _take(buckets: dict[str, tuple[float, float]], key: str, burst: int, every: float,
          now: float) -> None:  # fmt: skip
    """Take a token just refilled (:func:`_refill`). Past 4,096 keys, the buckets that
    are full again are forgotten (the whole server's ``ALL`` is kept)."""
    tokens, _ = buckets[key]
    buckets[key] = (tokens - 1, now)
    if len(buckets) > 4096:
        for stale in [k for k, (t, w) in buckets.items()
                      if k != ALL and t + (now - w) / every >= burst]:  # fmt: skip
            del buckets[stale]


_ledger: Ledger | None = None


def ledger() -> Ledger:
    """The process's ledger (every door and the host share it)."""
    global _ledger
    if _ledger is None:
        _ledger = Ledger()
    return _ledger


def set_ledger(new: Ledger | None) -> None:
    """Replace the process's ledger (tests, or a server with its own budgets)."""
    global _ledger
    _ledger = new


def soft_nofile() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def raise_nofile() -> int:
    """Lift the soft descriptor limit to the hard one; returns the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError) as error:
            log.info("cannot raise the descriptor limit to %s: %s", hard, error)
    return soft_nofile()


# -- accept() out of descriptors -------------------------------------------------------

def guard_accept(loop: asyncio.AbstractEventLoop | None = None,
                 every: float | None = None) -> None:
    """Make ``loop``'s accept() back off and log rarely when out of descriptors
    (``net.asyncio_internals.guard_accept``: asyncio's own accept, wrapped)."""
    every = every if every is not None else ledger().budgets.accept_log_every
    asyncio_internals.guard_accept(loop or asyncio.get_running_loop(), every)


def timer(delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
    return asyncio.get_running_loop().call_later(delay, callback)
