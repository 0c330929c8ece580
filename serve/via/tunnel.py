"""The tunnel through the relay (:class:`Tunnel`): one SSH connection, with the
organiser's own keys, that asks the relay to listen on the doors' ports and hands each
connection it forwards to its door (``serve.via.forwarded``).

Only the doors' ports are asked for (remote listeners: nothing runs on the relay, and
no local port is opened for them); the organiser's private key never leaves this
machine (no agent forwarding). When the connection drops, the tunnel comes back by
itself: attempts after 1, 2, 4 ... seconds, at most a minute apart, each checking the
relay's host key again; the doors, their tables and the players' seats stay as they
are, and the players reconnect as after any dropped line. A host key that has changed
stops the attempts (as ssh would refuse it). :meth:`Tunnel.close` closes the listeners
on the relay.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import asyncssh

from serve.via.forwarded import ForwardedSession, Originators
from serve.via.relay import Ask, HostKeyRefused, Relay, RelayError, describe

#: seconds before each attempt to reconnect: doubling, at most a minute
FIRST_RETRY = 1.0
LONGEST_RETRY = 60.0
#: serve asks the relay to listen on every address ("": OpenSSH's wildcard; the
#: relay's sshd grants it with ``GatewayPorts clientspecified`` or ``yes``)
EVERY_ADDRESS = ""


def retry_delays() -> list[float]:
    """The waits before the attempts after a drop, up to where they stay at a minute."""
    delays, delay = [], FIRST_RETRY
    while delay < LONGEST_RETRY:
        delays.append(delay)
        delay *= 2
    return [*delays, LONGEST_RETRY]


@dataclass(frozen=True)
class Forward:
    """One door's port, asked of the relay (the same port number there)."""

    what: str  #: "ssh", "web" or "lan": which door (its words in ``serve.via.check``)
    port: int
    #: a protocol for one forwarded connection, as the door's own listener builds one
    protocol: Callable[[], asyncio.Protocol]
    #: what proves from outside that the port reaches this door: the SSH door's host
    #: key fingerprint, the web door's mark; neither: a connection's arrival here
    fingerprint: str | None = None
    mark: str | None = None


@dataclass
class Arrivals:
    """Connections forwarded to each port so far (the outside check counts them)."""

    counts: dict[int, int] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def arrive(self, port: int) -> None:
        self.counts[port] = self.counts.get(port, 0) + 1
        self.changed.set()
        self.changed = asyncio.Event()


class Tunnel:
    """See the module docstring. ``report`` says a line on the organiser's screen."""

    def __init__(self, relay: Relay, report: Callable[[str], None]) -> None:
        self.relay = relay
        self.report = report
        self.conn: asyncssh.SSHClientConnection | None = None
        self.forwards: list[Forward] = []
        self.listeners: list[asyncssh.SSHListener] = []
        self.originators = Originators(relay.name, report)
        self.arrivals = Arrivals()
        self.closing = False
        self.drops = 0  # how often the tunnel has dropped
        #: called each time the tunnel is back (serve checks it from outside again)
        self.on_back: Callable[[], None] | None = None
        self._keeper: asyncio.Task | None = None

    @property
    def address(self) -> str:
        """The relay's address as reached (its name when reached through a proxy)."""
        return (describe(self.conn) if self.conn is not None else "") or self.relay.name

    @property
    def names(self) -> set[str]:
        """Every name friends may use for the relay (the web door answers to them)."""
        return {self.relay.name, self.relay.address.host, self.address}

    async def open(self, ask: Ask | None) -> None:
        """Log in to the relay (raises RelayError with words)."""
        self.conn = await self.relay.connect(ask)

    async def listen(self, forwards: list[Forward]) -> None:
        """Ask the relay to listen on each door's port; then keep the tunnel up."""
        self.forwards = list(forwards)
        await self._listen()
        self._keeper = asyncio.create_task(self._keep())

    async def _listen(self) -> None:
        assert self.conn is not None
        self.listeners = []
        for forward in self.forwards:
            try:
                listener = await self.conn.create_server(
                    lambda host, port, f=forward: self._arrive(f, host, port),
                    EVERY_ADDRESS, forward.port)
            except (asyncssh.ChannelListenError, asyncssh.Error) as error:
                raise PortRefused(refused_port(self.relay.name, forward, error),
                                  forward.port) from None
            self.listeners.append(listener)

    def _arrive(self, forward: Forward, orig_host: str, orig_port: int) -> ForwardedSession:
        self.arrivals.arrive(forward.port)
        address = self.originators.address(orig_host)
        return ForwardedSession(forward.protocol(), (address, orig_port),
                                (self.relay.name, forward.port))

    # -- a dropped tunnel comes back --------------------------------------------------------

    async def _keep(self) -> None:
        while not self.closing:
            assert self.conn is not None
            await self.conn.wait_closed()
            if self.closing:
                return
            self.drops += 1
            dropped = time.monotonic()
            why = self.relay.lost
            why_words = (str(why) or type(why).__name__) if why is not None else \
                "closed by the relay"
            self.report(f"the tunnel through {self.relay.name} dropped ({why_words}): "
                        "friends who came through it are "
                        "cut off; their games and seats wait for them. Reconnecting.")
            if not await self._reconnect():
                return
            self.report(f"the tunnel through {self.relay.name} is back after "
                        f"{time.monotonic() - dropped:.0f} s: friends reconnect as after "
                        "any dropped line (ssh again, or Play again on the page; the app "
                        "comes back by itself)")
            if self.on_back is not None:
                self.on_back()

    async def _reconnect(self) -> bool:
        """Attempts until one holds (True), or the relay's key changed (False)."""
        for attempt, delay in enumerate(_forever(retry_delays()), 1):
            await asyncio.sleep(delay)
            if self.closing:
                return False
            try:
                self.conn = await self.relay.connect(None)  # no question mid-game
                await self._listen()
                return True
            except HostKeyRefused as error:
                self.report(f"the tunnel through {self.relay.name} stays down, as ssh "
                            f"would refuse the relay now:\n{error}")
                return False
            except RelayError as error:
                if self.conn is not None:
                    self.conn.close()  # connected, but a listener was refused
                words = str(error)
                if isinstance(error, PortRefused):  # most likely the dead tunnel's own
                    words = (f"{self.relay.name} still holds port {error.port}: its sshd "
                             "frees it once it notices the old tunnel is gone")
                nxt = min(delay * 2, LONGEST_RETRY) if delay < LONGEST_RETRY else delay
                self.report(f"{self.relay.name}: attempt {attempt} failed ({words.strip()}); "
                            f"the next in {nxt:g} s")
        return False  # pragma: no cover - _forever never ends

    # -- the end -------------------------------------------------------------------------

    async def close(self, within: float = 5.0) -> None:
        """Close the listeners on the relay, then the connection."""
        self.closing = True
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._keeper
        conn = self.conn
        if conn is None:
            return
        for listener in self.listeners:
            listener.close()  # cancel-tcpip-forward: the relay stops listening
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(
                *(listener.wait_closed() for listener in self.listeners)), within)
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.wait_closed(), within)


class PortRefused(RelayError):
    """The relay would not listen on a door's port."""

    def __init__(self, words: str, port: int) -> None:
        super().__init__(words)
        self.port = port


def _forever(delays: list[float]):
    yield from delays
    while True:
        yield delays[-1]


DOOR_OPTION = {"ssh": "--ssh", "web": "--web", "lan": "--port"}


def refused_port(relay: str, forward: Forward, error: BaseException) -> str:
    """Why the relay would not listen on a door's port, and what to do."""
    return (f"{relay} would not listen on port {forward.port} for friends ({error}): "
            "another program there may hold it, its sshd may forbid remote forwarding "
            "(AllowTcpForwarding, PermitListen), and ports below 1024 need root there. "
            f"Choose another port with {DOOR_OPTION.get(forward.what, '--port')}.")
