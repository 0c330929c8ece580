"""The SSH door itself (:class:`SSHDoor`, a ``serve.door.Door``): it listens, screens
every socket (``serve.ssh.screen``), lets a connection log in (``serve.ssh.gate``),
admits or refuses its one session, and hands an admitted one its app
(``serve.ssh.apps``). See ``serve.ssh`` for the whole door."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh

from net import budgets as b
from net.served import Links
from serve.door import GOODBYE, DoorBudgets, Session
from serve.pins import OK, Pins, slug
from serve.ssh.apps import Apps
from serve.ssh.child import Child, SSHSession, refuse
from serve.ssh.config import DoorConfig
from serve.ssh.gate import Gate
from serve.ssh.identity import load_host_key, player_name
from serve.ssh.screen import Screen
from serve.ssh.window import hold_windows
from serve.warm import Warm

log = logging.getLogger(__name__)

NO_PTY = (b"Motherlode is a terminal game and needs a terminal: connect with "
          b"`ssh -p PORT NAME@HOST` (no command, no -T), or play in plain lines of words "
          b"with `ssh -p PORT NAME@HOST plain`.\r\n")
#: the command that asks for the plain seat (lines of words; ``tui.plain``)
PLAIN = "plain"


class SSHDoor:
    """The SSH door: see ``serve.ssh``. ``command(name)`` is the argv of one served app;
    ``root`` is the serve data directory (host key, pins, players)."""

    name = "ssh"

    def __init__(
        self,
        command: Callable[[str], list[str]],
        root: Path,
        *,
        config: DoorConfig | None = None,
        authorized: set[str] | None = None,
        password: str | None = None,
        report: Callable[[str], None] | None = None,
        ledger: b.Ledger | None = None,
        links: Links | None = None,
        warm: Warm | None = None,
    ) -> None:
        self.root = root
        self.config = config or DoorConfig()
        self.authorized = authorized
        self.password = password
        self.host_key = load_host_key(root)
        self.pins = Pins(root / "pins.json")
        self.apps = Apps(command, root / "players", self.config, links=links,
                         report=report or (lambda text: None), warm=warm)
        #: connections by stage and address, shared with the host under ``serve``
        self.ledger = ledger or b.Ledger()
        # wrong logins per address: (count, last time), for the per-address back-off
        self.failures: dict[str, tuple[int, float]] = {}
        self._server: Any = None
        self.options: Any = None  # asyncssh's, once listening (``Screen`` builds with it)
        self.lingering = 0  # refused sockets waiting to be closed (``Screen``)

    @property
    def fingerprint(self) -> str:
        return self.host_key.get_fingerprint()

    @property
    def children(self) -> set[Child]:
        """The live apps (``Apps.children``)."""
        return self.apps.children

    async def start(self, bind: str | None, port: int) -> int:
        """Listen; returns the port. Raises OSError."""
        hold_windows()  # a flood waits in the client, never in this process
        config = self.config
        self.options = await asyncssh.SSHServerConnectionOptions.construct(
            server_factory=lambda: Gate(self),
            server_host_keys=[self.host_key], encoding=None, line_editor=False,
            allow_pty=True, agent_forwarding=False, x11_forwarding=False,
            allow_scp=False, sftp_factory=None,
            login_timeout=config.login_timeout, keepalive_interval=config.keepalive_interval,
            keepalive_count_max=config.keepalive_count_max,
        )  # fmt: skip
        self._server = await asyncio.get_running_loop().create_server(
            lambda: Screen(self), bind or None, port, backlog=100)
        if self.apps.warm is not None:
            self.apps.warm.up()
        return self.port

    @property
    def port(self) -> int:
        """The port it listens on; 0 before :meth:`start`."""
        return self._server.sockets[0].getsockname()[1] if self._server is not None else 0

    # -- the door's face (``serve.door.Door``) ------------------------------------------

    @property
    def sessions(self) -> list[Session]:
        return self.apps.sessions

    @property
    def budgets(self) -> DoorBudgets:
        config = self.config
        return DoorBudgets(max_sessions=config.max_sessions, per_address=None,
                           keep_detached=config.keep_detached,
                           max_size=(config.max_width, config.max_height),
                           shared=self.ledger.budgets)

    def forwarded(self) -> asyncio.Protocol:
        return Screen(self)

    def invite(self, address: str) -> str:
        return f"ssh -p {self.port} NAME@{address}"

    def notes(self) -> list[str]:
        return [f"The SSH host key's fingerprint is {self.fingerprint}",
                "  (friends check it against ssh's first-connect prompt)"]

    # -- wrong logins --------------------------------------------------------------------

    def auth_failed(self, address: str) -> None:
        count, _ = self.failures.get(address, (0, 0.0))
        self.failures[address] = (count + 1, time.monotonic())
        if len(self.failures) > 4096:  # forget the stalest addresses
            for stale, _ in sorted(self.failures.items(), key=lambda i: i[1][1])[:1024]:
                del self.failures[stale]

    def auth_delay(self, address: str, failures_here: int) -> float:
        """Seconds to wait before answering a password: growing with the wrong ones on
        this connection and, doubling, with the address's recent ones (10 min memory)."""
        config = self.config
        count, last = self.failures.get(address, (0, 0.0))
        if count and time.monotonic() - last > 600:
            del self.failures[address]
            count = 0
        delay = config.auth_delay * failures_here
        if count:
            delay += config.auth_delay * 2 ** min(count // config.max_auth_tries, 8)
        return min(delay, config.max_auth_delay)

    # -- one session ---------------------------------------------------------------------

    async def serve_session(self, process: asyncssh.SSHServerProcess) -> None:
        """One SSH session, from its request to its end (asyncssh runs it)."""
        task = asyncio.current_task()
        if task is not None:
            self.apps.track(task)
        try:
            await self._run_session(process)
        except Exception as error:  # a bug here costs one session, never the server
            log.exception("SSH session failed")
            with contextlib.suppress(Exception):
                process.stderr.write(f"\r\nThe server failed: {error!r}\r\n".encode())
                process.exit(1)
        finally:
            # a connection gets one session: once it is over (or refused), the
            # connection goes too, after a moment for the last words to reach the client
            conn = process.channel.get_connection()
            asyncio.get_running_loop().call_later(1.0, conn.close)

    async def _run_session(self, process: asyncssh.SSHServerProcess) -> None:
        if self.apps.closing:
            refuse(process, b"The server is shutting down.\r\n")
            return
        conn = process.channel.get_connection()
        term = process.get_terminal_type()
        # the plain seat: asked for by name, or a terminal that says it cannot draw
        plain = (process.command or "").strip().casefold() == PLAIN or \
            (term or "").casefold() == "dumb"
        if term is None and not plain:
            host, port = self._address(conn)
            name = player_name(conn.get_extra_info("username") or "")
            refuse(process, NO_PTY.replace(b"PORT", str(port).encode()).replace(
                b"NAME@HOST", f"{name}@{host}".encode("utf-8", "replace")))
            return
        gate = conn.get_owner()
        name = player_name(conn.get_extra_info("username") or "")
        fingerprint = gate.fingerprint if isinstance(gate, Gate) else None
        if self.pins.check(name, fingerprint) != OK:
            refuse(process, self._taken(name, conn))
            return
        key = (slug(name), fingerprint) if fingerprint is not None else None
        width, height, _, _ = process.get_terminal_size()
        size = self.config.clamp(width or 80, height or 24)
        gate_address = gate.address if isinstance(gate, Gate) else ""
        child = self.apps.detached(key)
        if child is not None:
            child.address = gate_address or child.address
            await self.apps.attach(child, process, size, reattach=True)
            return
        # full: refused. A game waiting for its dropped player is never hung up on to
        # make room (its player may be reconnecting right now)
        if len(self.apps.children) >= self.config.max_sessions:
            refuse(process, b"The server is busy: every place is taken. Try again in "
                   b"a while.\r\n")
            return
        too_many = self.ledger.start_app(gate_address) if gate_address else None
        if too_many is not None:  # every new session starts an app: churn is capped
            refuse(process, too_many.encode() + b"\r\n")
            return
        if fingerprint is not None and not self.pins.admit(name, fingerprint):
            refuse(process, self._taken(name, conn))  # pinned only once admitted
            return
        session = SSHSession(process)  # before the app starts: its first bytes set modes
        session.process_limit = self.config.slow_reader_bytes
        child = await self.apps.start(process, session, key, name, size, gate_address,
                                      plain=plain, lines=term is None)
        if child is not None:
            await self.apps.attach(child, process, size, reattach=False, session=session)

    def _taken(self, name: str, conn: asyncssh.SSHServerConnection) -> bytes:
        """Why the name is refused, and the command line that gets in: this door's port
        and the address the client reached it at, with a name nobody has pinned."""
        host, port = self._address(conn)
        base = re.sub(r"[^a-z0-9_-]+", "", name.casefold())[:16] or "player"
        other = next(f"{base}{n}" for n in itertools.count(2)
                     if self.pins.get(f"{base}{n}") is None)
        return (f"The name {name!r} belongs to another key on this server. Connect with "
                f"another name, e.g.: ssh -p {port} {other}@{host}\r\n").encode()

    def _address(self, conn: asyncssh.SSHServerConnection) -> tuple[str, int]:
        """The address and port the client reached this door at."""
        where = conn.get_extra_info("sockname")
        return (str(where[0]), int(where[1])) if where else ("HOST", self.port)

    # -- the end -------------------------------------------------------------------------

    async def stop(self, goodbye: str = GOODBYE, grace: float = 5.0) -> None:
        """Stop every app, tell every player ``goodbye`` and close the door."""
        self.apps.closing = True
        if self._server is not None:
            self._server.close()
        await self.apps.stop(goodbye, grace)
        await self.pins.flush()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), grace)
