"""The SSH door's live apps (:class:`Apps`): one per session, started on a pty
(``serve.ssh.child``), attached to its session, kept for its dropped player, stopped.

Drops re-attach: when a keyed player's line drops, their app keeps running for
``keep_detached`` seconds, but is told nobody is at it (``SIGUSR1``): it closes its
connection to the host as a dropped line would, so the others see the seat away at once
and the stand-in comes after the game's grace period, as on the LAN. The same user name
with the same key within that time gets the same app back, fully repainted, and the
app takes the seat back at once (``SIGUSR2``). After it, the app is told to hang up, as
a closed terminal would; the seat's token stays in the player's directory, so their next
``ssh`` takes the seat back. A keyless player's app is started with
``MOTHERLODE_KEYLESS`` and gives its seat up when its line drops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import shutil
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh

from net import tcpinfo
from net.identity import GUEST_ENV
from net.latency import DelayMeter
from net.served import KEYLESS_ENV, LINK_ENV, Links
from serve.door import Session
from serve.inflow import Inflow
from serve.ssh.child import Child, SSHSession, refuse
from serve.ssh.config import DoorConfig
from serve.ssh.environment import app_environment
from serve.ssh.identity import inside
from serve.warm import Warm

log = logging.getLogger(__name__)


#: seconds between the door's round trips on a person's SSH link (lag-fair races)
LINK_EVERY = 0.5


async def measure_link(process: Any, meter: DelayMeter) -> None:
    """The person's own link, for lag-fair races: the round trips of SSH keepalive
    requests (the global request asyncssh's keepalives send, which every client
    answers, if only to refuse it), a couple of times a second while attached, each
    bounded by the kernel's least round trip on the person's SSH socket (a client that
    holds its answers gains nothing: ``net.tcpinfo``)."""
    connection = process.get_extra_info("connection")
    request = getattr(connection, "_make_global_request", None)
    if request is None:  # another asyncssh: no measurement, the loopback's stands
        return
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        try:
            await asyncio.wait_for(request(b"keepalive@openssh.com"), 10.0)
        except (TimeoutError, asyncssh.Error, OSError, ConnectionError):
            return
        meter.add(loop.time() - started)
        meter.bound(tcpinfo.min_rtt(connection.get_extra_info("socket")))
        await asyncio.sleep(LINK_EVERY)


class Apps:
    """The apps of one SSH door (see the module docstring). ``command(name)`` is the
    argv of one served app; each player's directory lies inside ``players``."""

    def __init__(self, command: Callable[[str], list[str]], players: Path,
                 config: DoorConfig, *, links: Links | None,
                 report: Callable[[str], None],
                 warm: Warm | None = None) -> None:  # fmt: skip
        self.command = command
        self.players = players
        self.config = config
        # lag-fair races: this door's measurements of its people's links, by the id
        # each app is given (``net.served``); None measures nothing
        self.links = links
        self.report = report
        self.children: set[Child] = set()
        self.closing = False
        self._startups = asyncio.Semaphore(config.max_startups)
        self._tasks: set[asyncio.Task] = set()
        # the warm parent the apps are forked from (``serve.warm``, shared with the
        # web door; its owner closes it); None: each app is a fresh interpreter
        self.warm = warm

    @property
    def sessions(self) -> list[Session]:
        return [Session("ssh", child.name, child.address, child.since,
                        attached=child.session is not None)
                for child in sorted(self.children, key=lambda c: c.since)]

    def detached(self, key: tuple[str, str] | None) -> Child | None:
        """The live app of ``key``, to re-attach to (its old line dropped)."""
        if key is None:
            return None
        for child in self.children:
            if child.key == key and child.exited is None:
                if child.session is not None:  # the old line has not noticed its drop yet
                    old, child.session = child.session, None
                    old.drop()
                return child
        return None

    async def start(self, process: asyncssh.SSHServerProcess, session: SSHSession,
                    key: tuple[str, str] | None, name: str, size: tuple[int, int],
                    address: str, *, plain: bool = False, lines: bool = False) -> Child | None:
        """Start the app of a new session (``key`` None: keyless, a fresh directory);
        None if it could not start (the session was told)."""
        self.players.mkdir(parents=True, exist_ok=True, mode=0o700)
        scratch = None
        if key is None:  # keyless: a fresh directory, so no kept seat is ever shared
            home = inside(self.players, self.players / "_keyless" / secrets.token_hex(8))
            scratch = home
        else:
            home = inside(self.players, self.players / key[0])
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        child = Child(key, name, scratch, address=address,
                      resize_every=self.config.resize_every, plain=plain)
        child.session = session
        self.children.add(child)
        env = app_environment(process, home)
        if key is None:  # nobody can come back to this app: its hang-up leaves the seat
            env[KEYLESS_ENV] = env[GUEST_ENV] = "1"  # and it has no identity (a guest)
        if self.links is not None:
            child.link, child.meter = self.links.new(address)
            env[LINK_ENV] = child.link
        try:
            async with self._startups:
                argv = self.command(name) + (["--plain"] if plain else [])
                await child.spawn(argv, env, home, size, warm=self.warm, lines=lines)
                # the slot is held until the app's first frame, not its first bytes
                # (its terminal modes, a few milliseconds after the fork): each start
                # then has a core to itself, so arrivals see their screens in the
                # order they came, where all at once would all wait for the last
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(child.first_output.wait(),
                                           self.config.startup_timeout)
                    await asyncio.wait_for(child.first_frame.wait(),
                                           self.config.first_frame_wait)
        except (OSError, asyncio.CancelledError) as error:
            child.session = None
            self.children.discard(child)
            if self.links is not None and child.link is not None:
                self.links.drop(child.link)
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            if isinstance(error, OSError):
                log.error("cannot start an app: %s", error)
                refuse(process, b"The server could not start the game; try again.\r\n")
                return None
            raise
        self.report(f"SSH: {name} connected from {address or 'an unknown address'}"
                    f"{'' if key else ' (no key)'}")
        self._watch(child)
        return child

    def _watch(self, child: Child) -> None:
        async def ended() -> None:
            code = await child.wait()
            self.children.discard(child)
            if self.links is not None and child.link is not None:
                self.links.drop(child.link)
            if child.expiry is not None:
                child.expiry.cancel()
            session, child.session = child.session, None
            if session is not None and not session.dropped:
                with contextlib.suppress(Exception):
                    session.process.exit(code if 0 <= code < 256 else 1)

        self.spawn(ended())

    async def attach(self, child: Child, process: asyncssh.SSHServerProcess,
                     size: tuple[int, int], *, reattach: bool,
                     session: SSHSession | None = None) -> None:
        """Pump ``process``'s keys into ``child`` until the line or the app ends."""
        if session is None:
            session = SSHSession(process)
            session.process_limit = self.config.slow_reader_bytes
        if child.expiry is not None:
            child.expiry.cancel()
            child.expiry = None
        child.session = session
        if reattach:
            self.report(f"SSH: {child.name} is back, from "
                        f"{child.address or 'an unknown address'}")
            child.size = size
            child.signal(signal.SIGUSR2)  # the app takes its seat back at once
            await child.repaint()
        elif child.size != size:
            child.resize(size)
        inflow = Inflow()
        measuring = None
        if child.meter is not None:
            measuring = asyncio.get_running_loop().create_task(measure_link(process, child.meter))
        try:
            while child.exited is None and not session.dropped:
                try:
                    data = await process.stdin.read(4096)
                except asyncssh.TerminalSizeChanged as change:
                    if not child.plain:  # lines of words have no size to tell
                        child.resizes.want(self.config.clamp(change.width, change.height))
                    continue
                except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                    continue
                if not data:
                    break
                await inflow.take(len(data))  # a flood waits in the player's channel
                await child.feed(data)
        except (asyncssh.Error, OSError, ConnectionError):
            pass
        finally:
            if measuring is not None:
                measuring.cancel()
            if child.session is session:
                child.session = None
                if child.exited is None and child.proc is not None \
                        and child.proc.returncode is None:
                    self._detach(child)

    def _detach(self, child: Child) -> None:
        """The player's line dropped: keep the app (and the seat) for a while."""
        if child.key is None or self.closing:  # keyless: nobody could come back to it
            self.spawn(child.stop())
            return
        # nobody is at the app now: it closes its connection to the host, so the seat
        # is away for the others at once (the stand-in after the game's grace period)
        child.signal(signal.SIGUSR1)
        self.report(f"SSH: {child.name} dropped; their seat is away, and their app waits "
                    f"{self.config.keep_detached:g} s for them")
        child.expiry = asyncio.get_running_loop().call_later(
            self.config.keep_detached, lambda: self.spawn(child.stop()))

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` as a task the door waits for when it stops."""
        self.track(asyncio.get_running_loop().create_task(coro))

    def track(self, task: asyncio.Task) -> None:
        """Wait for ``task`` (a session's, say) when the door stops."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self, goodbye: str, grace: float) -> None:
        """Stop every app, and tell every attached player ``goodbye``."""
        self.closing = True
        children = list(self.children)
        sessions = [(c.session, c.plain) for c in children if c.session is not None]
        for child in children:
            if child.expiry is not None:
                child.expiry.cancel()
            child.session = None  # the app's last frames are not needed: the words are
        await asyncio.gather(*(child.stop(grace) for child in children),
                             return_exceptions=True)
        for session, plain in sessions:
            with contextlib.suppress(Exception):
                modes = b"" if plain else (b"\x1b[?1049l\x1b[?1000l\x1b[?1003l\x1b[?1015l"
                                           b"\x1b[?1006l\x1b[?25h\x1b[?2004l\x1b[?7h\r\n")
                session.process.stdout.write(modes + goodbye.encode() + b"\r\n")
                session.process.exit(0)
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=grace)
