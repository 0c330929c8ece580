"""The SSH front door of ``motherlode serve`` (asyncssh).

One session, one app: each SSH session gets its own process on a pseudo-terminal,
running the unchanged app in served mode (``motherlode served``), so one player's crash
or slow terminal takes no one else down, and Textual's own driver handles keys, a lone
Esc and resizes. The door pumps bytes between the SSH channel and the pty master:

- client -> app: keys as they come; a resize sets the pty's size and signals the app.
- app -> client: whatever the app draws. The pty is drained all the time, attached or
  not, so an app never blocks on its terminal. A client whose channel holds more than
  ``slow_reader_bytes`` unsent is dropped (and may re-attach).

Drops re-attach: when a keyed player's line drops, their app keeps running for
``keep_detached`` seconds, but is told nobody is at it (``SIGUSR1``): it closes its
connection to the host as a dropped line would, so the others see the seat away at once
and the stand-in comes after the game's grace period, as on the LAN. The same user name
with the same key within that time gets the same app back, fully repainted, and the
app takes the seat back at once (``SIGUSR2``). After it, the app is told to hang up, as
a closed terminal would; the seat's token stays in the player's directory, so their next
``ssh`` takes the seat back.

Identity: any public key is accepted and the user name is pinned to its fingerprint on
first use (``Pins``). A client without a key (keyboard-interactive with no question)
plays under a name nobody has pinned, gets a fresh app and a fresh directory, and never
re-attaches. ``authorized_keys`` admits only those keys; ``password`` asks every
client without a pinned key for a shared password.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hmac
import itertools
import logging
import os
import re
import secrets
import shutil
import signal
import struct
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from net import budgets as b
from net.latency import DelayMeter
from net.served import KEYLESS_ENV, LINK_ENV, Links
from net.text import clean_text
from serve.pins import OK, Pins, slug
from serve.resize import Coalesced
from serve.wrapped import Wrapped

__all__ = ["Door", "DoorConfig", "DoorError", "Pins", "inside", "load_host_key",
           "player_name", "slug"]

log = logging.getLogger(__name__)

HOST_KEY_FILE = "ssh_host_ed25519_key"
NAME_MAX = 20
# what a client's environment may set in its app (values are checked too)
PASSED_ENV = ("LANG", "COLORTERM", "NO_COLOR")
CLIENT_ENV = re.compile(r"^(LANG|LC_[A-Z_]+|COLORTERM|NO_COLOR)$")
SAFE_VALUE = re.compile(r"^[A-Za-z0-9_.@+=:,-]{0,64}$")
TERM_VALUE = re.compile(r"^[A-Za-z0-9_.+-]{1,64}$")
# the server's own variables that describe *its* terminal, not the player's
SERVER_TERMINAL_ENV = ("TERM", "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", "LANG",
                       "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "TMUX", "STY")
# modes a fresh terminal needs to show an app that is already running (Textual's)
REATTACH_MODES = (b"\x1b[?1049h\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"
                  b"\x1b[?25l\x1b[?1004h\x1b[?2004h\x1b[?7l\x1b[2J")

NO_PTY = (b"Motherlode is a terminal game and needs a terminal: connect with plain "
          b"`ssh -p PORT NAME@HOST` (no command, no -T).\r\n")


class DoorError(Exception):
    """The door cannot open (a damaged host key, say): words for the person."""


# -- names, directories, keys ----------------------------------------------------------


def player_name(username: str) -> str:
    """The player's name from an SSH user name: literal text, 1-20 characters."""
    return clean_text(username)[:NAME_MAX] or "Player"


def inside(root: Path, child: Path) -> Path:
    """``child`` if it lies inside ``root``; raises ValueError otherwise."""
    resolved = child.resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise ValueError(f"{child} is outside {root}")
    return resolved


def load_host_key(directory: Path) -> asyncssh.SSHKey:
    """The server's ed25519 host key: generated once, kept 0600, never regenerated."""
    path = directory / HOST_KEY_FILE
    if path.exists():
        try:
            return asyncssh.read_private_key(str(path))
        except (OSError, ValueError, asyncssh.KeyImportError) as error:
            raise DoorError(f"cannot read the SSH host key {path}: {error}. Fix or move "
                            "it away (a new key makes every friend's ssh warn).") from None
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="motherlode serve")
    tmp = path.with_suffix(".tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    tmp.replace(path)
    return key


# -- the door --------------------------------------------------------------------------


@dataclass
class DoorConfig:
    """Limits of the SSH door."""

    max_sessions: int = 16  # live apps, attached or waiting for their player (a
    # waiting game is never hung up on to make room)
    # apps starting at once: an app's start is 0.56 CPU-seconds, so at most half the
    # cores start apps and the rest stay with the apps already playing
    max_startups: int = field(
        default_factory=lambda: max(1, (os.cpu_count() or 2) // 2))
    startup_timeout: float = 15.0
    keep_detached: float = 600.0  # seconds a dropped player's app waits for them
    login_timeout: float = 20.0  # accept -> logged in
    session_timeout: float = 10.0  # logged in -> a session (else closed)
    keepalive_interval: float = 15.0
    keepalive_count_max: int = 3
    slow_reader_bytes: int = 1 << 20
    max_width: int = 400
    max_height: int = 200
    # connections before login and logged in without a session are counted in the
    # process's ledger (net.budgets), with the host's and the web door's
    max_auth_tries: int = 6  # wrong passwords or keys on one connection (MaxAuthTries)
    auth_delay: float = 0.5  # seconds before answering a password, per wrong one so far
    max_auth_delay: float = 8.0
    max_env: int = 16  # env requests on one session
    max_env_bytes: int = 256  # name + value of one
    resize_every: float = 0.1  # window changes coalesced to one per this many seconds


#: seconds between the door's round trips on a person's SSH link (lag-fair races)
LINK_EVERY = 0.5


async def measure_link(process: Any, meter: DelayMeter) -> None:
    """The person's own link, for lag-fair races: the round trips of SSH keepalive
    requests (the global request asyncssh's keepalives send, which every client
    answers, if only to refuse it), a couple of times a second while attached."""
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
        await asyncio.sleep(LINK_EVERY)


class _Child:
    """One app on a pty, with the session (if any) it draws to."""

    def __init__(self, door: Door, key: tuple[str, str] | None, name: str, scratch: Path | None):
        self.door = door
        self.key = key
        self.name = name
        self.scratch = scratch  # a keyless player's directory, removed at the end
        self.proc: asyncio.subprocess.Process | None = None
        self.master = -1
        self.session: _Session | None = None
        self.size = (80, 24)
        self.first_output = asyncio.Event()
        self.output_done = asyncio.Event()
        self.exited: int | None = None
        self.detached_at: float | None = None
        self.expiry: asyncio.TimerHandle | None = None
        self.resizes = Coalesced(self.resize, door.config.resize_every, self.size,
                                 lambda delay, then: asyncio.get_running_loop().call_later(
                                     delay, then))  # fmt: skip
        self.link: str | None = None  # lag-fair races: its id in the door's Links
        self.meter: DelayMeter | None = None

    async def spawn(self, argv: list[str], env: dict[str, str], cwd: Path,
                    size: tuple[int, int]) -> None:
        master, slave = os.openpty()
        try:
            self.master = master
            self.size = size
            self._set_size(size)
            os.set_blocking(master, False)
            self.proc = await asyncio.create_subprocess_exec(
                *argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=str(cwd),
                start_new_session=True, close_fds=True,
            )  # fmt: skip
        except BaseException:
            os.close(master)
            self.master = -1
            raise
        finally:
            os.close(slave)
        asyncio.get_running_loop().add_reader(master, self._readable)

    def _set_size(self, size: tuple[int, int]) -> None:
        width, height = size
        with contextlib.suppress(OSError):
            fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))

    def resize(self, size: tuple[int, int]) -> None:
        self.size = self.resizes.size = size
        self._set_size(size)
        self.signal(signal.SIGWINCH)

    def signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, sig)

    async def repaint(self) -> None:
        """A full repaint for a fresh terminal: its modes, then a size change and back."""
        if self.session is not None:
            self.session.write(REATTACH_MODES)
        width, height = self.size
        self._set_size((width, max(1, height - 1)))
        self.signal(signal.SIGWINCH)
        await asyncio.sleep(0.05)
        self.resize((width, height))

    def write(self, data: bytes) -> None:
        """Keys to the app. A flood the app cannot take in is dropped, never queued."""
        if self.master < 0:
            return
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self.master, data)

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app closed its terminal (it exited)
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            self.output_done.set()
            return
        self.first_output.set()
        if self.session is not None:
            self.session.write(data)

    async def wait(self) -> int:
        """Wait for the app to exit; returns its exit status."""
        assert self.proc is not None
        code = await self.proc.wait()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.output_done.wait(), 1.0)  # the last frame
        if not self.output_done.is_set():
            asyncio.get_running_loop().remove_reader(self.master)
        self.resizes.cancel()
        if self.master >= 0:
            os.close(self.master)
            self.master = -1
        self.exited = code
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
        return code

    async def stop(self, grace: float = 5.0) -> None:
        """Hang up on the app (it closes its connection as a dropped line would)."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.signal(signal.SIGHUP)
        try:
            await asyncio.wait_for(asyncio.shield(self.proc.wait()), grace)
        except TimeoutError:
            self.signal(signal.SIGKILL)


class _Session:
    """One SSH session attached to an app."""

    def __init__(self, process: asyncssh.SSHServerProcess) -> None:
        self.process = process
        self.dropped = False

    def write(self, data: bytes) -> None:
        if self.dropped:
            return
        channel = self.process.channel
        try:
            self.process.stdout.write(data)
        except (OSError, asyncssh.Error, BrokenPipeError):
            self.drop()
            return
        if channel.get_write_buffer_size() > self.process_limit:
            log.info("dropping a slow SSH reader")
            self.drop()

    process_limit = 1 << 20

    def drop(self) -> None:
        if not self.dropped:
            self.dropped = True
            with contextlib.suppress(Exception):
                self.process.channel.get_connection().abort()


class _Gate(asyncssh.SSHServer):
    """One connection: its stage in the ledger, its authentication (see the module
    docstring), and its one session."""

    def __init__(self, door: Door) -> None:
        self.door = door
        self.fingerprint: str | None = None
        self.address = ""
        self.conn: asyncssh.SSHServerConnection | None = None
        self.stage: str | None = None
        self.failures = 0  # wrong passwords and keys on this connection
        self.sessions = 0
        self.idle_timer: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else ""
        # admitted by ``_Screen``'s knock: a connection, pending until it logs in
        self.door.ledger.settle(self, b.PENDING, _Gate.disconnect)

    def _enter(self, stage: str) -> None:
        """Move to ``stage``; a full stage makes room from its busiest address."""
        self.door.ledger.settle(self, stage, _Gate.disconnect)

    def disconnect(self, text: str) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, text)

    def auth_completed(self) -> None:
        # logged in: a session must follow soon, or the connection goes
        self._enter(b.IDLE)
        self.idle_timer = asyncio.get_running_loop().call_later(
            self.door.config.session_timeout, self._no_session)

    def _no_session(self) -> None:
        if self.sessions == 0:
            self.disconnect(f"No session within {self.door.config.session_timeout:g} "
                            "seconds of login.")

    def connection_lost(self, exc: Exception | None) -> None:
        if self.idle_timer is not None:
            self.idle_timer.cancel()
        self.door.ledger.settle(self, None, _Gate.disconnect)

    def session_requested(self) -> Any:
        """One session (channel) per connection; its environment is capped."""
        if self.sessions >= 1 or self.conn is None:
            return False
        self.sessions += 1
        if self.idle_timer is not None:
            self.idle_timer.cancel()
        self._enter(b.SEATED)  # a session plays: the door's max_sessions caps those
        channel = self.conn.create_server_channel(None)
        channel._process_env_request = _capped_env(channel, self.door.config)  # type: ignore
        return channel, asyncssh.SSHServerProcess(self.door._session, None, 0, False)

    def begin_auth(self, username: str) -> bool:
        return True

    def _failed(self) -> None:
        self.failures += 1
        self.door.auth_failed(self.address)
        if self.failures >= self.door.config.max_auth_tries:
            with contextlib.suppress(Exception):
                assert self.conn is not None
                self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                     "Too many failed logins; wait a while.")

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        fingerprint = key.get_fingerprint()
        door = self.door
        if door.authorized is not None:
            ok = fingerprint in door.authorized
        elif door.password is not None:
            ok = door.pins.get(player_name(username)) == fingerprint  # a known friend
        else:
            ok = True
        if ok:
            self.fingerprint = fingerprint
        else:
            self._failed()
        return ok

    def kbdint_auth_supported(self) -> bool:
        return self.door.authorized is None and self.door.password is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.fingerprint = None  # keyless
        return True

    def password_auth_supported(self) -> bool:
        return self.door.password is not None and self.door.authorized is None

    async def validate_password(self, username: str, password: str) -> bool:
        # a growing delay per wrong password on this connection and from this address
        await asyncio.sleep(self.door.auth_delay(self.address, self.failures))
        expected = self.door.password or ""
        ok = hmac.compare_digest(password.encode("utf-8", "replace"), expected.encode())
        if ok:
            self.fingerprint = None
        else:
            self._failed()
        return ok


def _capped_env(channel: Any, config: DoorConfig) -> Callable[[Any], bool]:
    """An env request handler keeping at most ``max_env`` small variables (asyncssh
    keeps every one, of any size, for the channel's life)."""
    original = channel._process_env_request

    def process(packet: Any) -> bool:
        env = channel._env
        size = len(packet.get_remaining_payload()) if hasattr(
            packet, "get_remaining_payload") else 0
        if len(env) >= config.max_env or size > config.max_env_bytes + 8:
            return False
        return original(packet)

    return process


def _refusal(text: str) -> bytes:
    """What a connection turned away at accept is sent: an SSH version line, then a
    disconnect packet carrying ``text`` (sent in the clear, as packets are before the key
    exchange), so every client prints the words."""
    words = text.encode()
    payload = (struct.pack(">BI", 1, asyncssh.DISC_TOO_MANY_CONNECTIONS)  # DISCONNECT
               + struct.pack(">I", len(words)) + words + struct.pack(">I", 0))
    pad = 8 - (len(payload) + 5) % 8
    pad += 8 if pad < 4 else 0
    packet = struct.pack(">IB", len(payload) + pad + 1, pad) + payload + bytes(pad)
    return b"SSH-2.0-AsyncSSH_" + asyncssh.__version__.encode() + b"\r\n" + packet


class _Screen(Wrapped):
    """One accepted socket, screened before asyncssh sees it (the web door's
    ``_Counted``, for SSH): a loop opening sockets is turned away for the cost of one
    write and a close, and asyncssh builds its connection (and key exchange) only for a
    socket the ledger's knock admits.

    A refused socket is closed once the client's version line is in, or after
    ``LINGER`` seconds: OpenSSH writes its key exchange after reading ours, and had we
    closed first, that write fails ("Broken pipe") before it reads the words. At most
    ``LINGER_MAX`` refused sockets linger at once; past that they are closed at once."""

    LINGER = 0.5
    LINGER_MAX = 32

    def __init__(self, door: Door) -> None:
        self.door = door
        self.linger: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        why = self.door.ledger.knock(str(peer[0]) if peer else "")
        if why is None:
            self.inner = asyncssh.SSHServerConnection(asyncio.get_running_loop(),
                                                      self.door._options)
            self.inner.connection_made(transport)
            return
        transport.write(_refusal(why))
        if self.door.lingering < self.LINGER_MAX:
            self.door.lingering += 1
            self.linger = asyncio.get_running_loop().call_later(self.LINGER, self._close)
        else:
            transport.close()

    def _unlinger(self) -> None:
        if self.linger is not None:
            self.linger.cancel()
            self.linger = None
            self.door.lingering -= 1

    def _close(self) -> None:
        self._unlinger()
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)
        elif b"\n" in data:  # its version line: it reads the words next
            self._close()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._unlinger()


class Door:
    """The SSH door: see the module docstring. ``command(name)`` is the argv of one
    served app; ``root`` is the serve data directory (host key, pins, players)."""

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
    ) -> None:
        self.command = command
        # lag-fair races: this door's measurements of its people's links, by the id
        # each app is given (``net.served``); None measures nothing
        self.links = links
        self.root = root
        self.config = config or DoorConfig()
        self.authorized = authorized
        self.password = password
        self.report = report or (lambda text: None)
        self.host_key = load_host_key(root)
        self.pins = Pins(root / "pins.json")
        self.players = root / "players"
        self.children: set[_Child] = set()
        #: connections by stage and address, shared with the host under ``serve``
        self.ledger = ledger or b.Ledger()
        # wrong logins per address: (count, last time), for the per-address back-off
        self.failures: dict[str, tuple[int, float]] = {}
        self.closing = False
        self._startups = asyncio.Semaphore(self.config.max_startups)
        self._server: Any = None
        self._options: Any = None
        self.lingering = 0  # refused sockets waiting to be closed (``_Screen``)
        self._tasks: set[asyncio.Task] = set()

    @property
    def fingerprint(self) -> str:
        return self.host_key.get_fingerprint()

    async def start(self, bind: str | None, port: int) -> int:
        """Listen; returns the port. Raises OSError."""
        config = self.config
        self._options = await asyncssh.SSHServerConnectionOptions.construct(
            server_factory=lambda: _Gate(self),
            server_host_keys=[self.host_key], encoding=None, line_editor=False,
            allow_pty=True, agent_forwarding=False, x11_forwarding=False,
            allow_scp=False, sftp_factory=None,
            login_timeout=config.login_timeout, keepalive_interval=config.keepalive_interval,
            keepalive_count_max=config.keepalive_count_max,
        )  # fmt: skip
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Screen(self), bind or None, port, backlog=100)
        return self.port

    @property
    def port(self) -> int:
        return self._server.sockets[0].getsockname()[1]

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

    async def _session(self, process: asyncssh.SSHServerProcess) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
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
        if self.closing:
            self._refuse(process, b"The server is shutting down.\r\n")
            return
        conn = process.channel.get_connection()
        if process.get_terminal_type() is None:
            host, port = self._address(conn)
            name = player_name(conn.get_extra_info("username") or "")
            self._refuse(process, NO_PTY.replace(b"PORT", str(port).encode()).replace(
                b"NAME@HOST", f"{name}@{host}".encode("utf-8", "replace")))
            return
        gate = conn.get_owner()
        name = player_name(conn.get_extra_info("username") or "")
        fingerprint = gate.fingerprint if isinstance(gate, _Gate) else None
        if self.pins.check(name, fingerprint) != OK:
            self._refuse(process, self._taken(name, conn))
            return
        key = (slug(name), fingerprint) if fingerprint is not None else None
        size = self._size(process)
        child = self._detached(key)
        if child is not None:
            await self._attach(child, process, size, reattach=True)
            return
        # full: refused. A game waiting for its dropped player is never hung up on to
        # make room (its player may be reconnecting right now)
        if len(self.children) >= self.config.max_sessions:
            self._refuse(process, b"The server is busy: every place is taken. Try again in "
                         b"a while.\r\n")
            return
        gate_address = gate.address if isinstance(gate, _Gate) else ""
        too_many = self.ledger.start_app(gate_address) if gate_address else None
        if too_many is not None:  # every new session starts an app: churn is capped
            self._refuse(process, too_many.encode() + b"\r\n")
            return
        if fingerprint is not None and not self.pins.admit(name, fingerprint):
            self._refuse(process, self._taken(name, conn))  # pinned only once admitted
            return
        session = _Session(process)  # before the app starts: its first bytes set modes
        session.process_limit = self.config.slow_reader_bytes
        child = await self._start_child(process, session, key, name, size)
        if child is not None:
            await self._attach(child, process, size, reattach=False, session=session)

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

    @staticmethod
    def _refuse(process: asyncssh.SSHServerProcess, text: bytes) -> None:
        with contextlib.suppress(Exception):
            process.stderr.write(text)
            process.exit(1)

    def _size(self, process: asyncssh.SSHServerProcess) -> tuple[int, int]:
        width, height, _, _ = process.get_terminal_size()
        return self._clamp(width, height)

    def _clamp(self, width: int, height: int) -> tuple[int, int]:
        width = min(max(width or 80, 10), self.config.max_width)
        height = min(max(height or 24, 5), self.config.max_height)
        return width, height

    def _detached(self, key: tuple[str, str] | None) -> _Child | None:
        if key is None:
            return None
        for child in self.children:
            if child.key == key and child.exited is None:
                if child.session is not None:  # the old line has not noticed its drop yet
                    old, child.session = child.session, None
                    old.drop()
                return child
        return None

    def _environment(self, process: asyncssh.SSHServerProcess, home: Path) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if k not in SERVER_TERMINAL_ENV and not k.startswith(("LC_", "MOTHERLODE_"))}
        term = process.get_terminal_type() or "xterm"
        env["TERM"] = term if TERM_VALUE.match(term) else "xterm-256color"
        for raw_key, raw_value in process.env.items():
            key = raw_key.decode("ascii", "replace") if isinstance(raw_key, bytes) else raw_key
            value = (raw_value.decode("utf-8", "replace") if isinstance(raw_value, bytes)
                     else str(raw_value))
            if CLIENT_ENV.match(key) and SAFE_VALUE.match(value):
                env[key] = value
        for kind in ("config", "state", "data", "log"):
            env[f"MOTHERLODE_{kind.upper()}_DIR"] = str(home / kind)
        return env

    async def _start_child(self, process: asyncssh.SSHServerProcess, session: _Session,
                           key: tuple[str, str] | None, name: str,
                           size: tuple[int, int]) -> _Child | None:
        self.players.mkdir(parents=True, exist_ok=True, mode=0o700)
        scratch = None
        if key is None:  # keyless: a fresh directory, so no kept seat is ever shared
            home = inside(self.players, self.players / "_keyless" / secrets.token_hex(8))
            scratch = home
        else:
            home = inside(self.players, self.players / key[0])
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        child = _Child(self, key, name, scratch)
        child.session = session
        self.children.add(child)
        env = self._environment(process, home)
        if key is None:  # nobody can come back to this app: its hang-up leaves the seat
            env[KEYLESS_ENV] = "1"
        if self.links is not None:
            child.link, child.meter = self.links.new()
            env[LINK_ENV] = child.link
        try:
            async with self._startups:
                await child.spawn(self.command(name), env, home, size)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(child.first_output.wait(),
                                           self.config.startup_timeout)
        except (OSError, asyncio.CancelledError) as error:
            child.session = None
            self.children.discard(child)
            if self.links is not None and child.link is not None:
                self.links.drop(child.link)
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            if isinstance(error, OSError):
                log.error("cannot start an app: %s", error)
                self._refuse(process, b"The server could not start the game; try again.\r\n")
                return None
            raise
        self.report(f"SSH: {name} connected{'' if key else ' (no key)'}")
        self._watch(child)
        return child

    def _watch(self, child: _Child) -> None:
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

        task = asyncio.get_running_loop().create_task(ended())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _attach(self, child: _Child, process: asyncssh.SSHServerProcess,
                      size: tuple[int, int], *, reattach: bool,
                      session: _Session | None = None) -> None:
        if session is None:
            session = _Session(process)
            session.process_limit = self.config.slow_reader_bytes
        if child.expiry is not None:
            child.expiry.cancel()
            child.expiry = None
        child.session = session
        child.detached_at = None
        if reattach:
            self.report(f"SSH: {child.name} is back")
            child.size = size
            child.signal(signal.SIGUSR2)  # the app takes its seat back at once
            await child.repaint()
        elif child.size != size:
            child.resize(size)
        measuring = None
        if child.meter is not None:
            measuring = asyncio.get_running_loop().create_task(measure_link(process, child.meter))
        try:
            while child.exited is None and not session.dropped:
                try:
                    data = await process.stdin.read(4096)
                except asyncssh.TerminalSizeChanged as change:
                    child.resizes.want(self._clamp(change.width, change.height))
                    continue
                except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                    continue
                if not data:
                    break
                child.write(data)
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

    def _detach(self, child: _Child) -> None:
        """The player's line dropped: keep the app (and the seat) for a while."""
        if child.key is None or self.closing:  # keyless: nobody could come back to it
            self._spawn_task(child.stop())
            return
        child.detached_at = time.monotonic()
        # nobody is at the app now: it closes its connection to the host, so the seat
        # is away for the others at once (the stand-in after the game's grace period)
        child.signal(signal.SIGUSR1)
        self.report(f"SSH: {child.name} dropped; their seat is away, and their app waits "
                    f"{self.config.keep_detached:g} s for them")
        child.expiry = asyncio.get_running_loop().call_later(
            self.config.keep_detached, lambda: self._spawn_task(child.stop()))

    def _spawn_task(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the end -------------------------------------------------------------------------

    async def close(self, message: str = "The server is shutting down. Thanks for playing!",
                    grace: float = 5.0) -> None:
        """Stop every app, tell every player ``message`` and close the door."""
        self.closing = True
        if self._server is not None:
            self._server.close()
        children = list(self.children)
        sessions = [c.session for c in children if c.session is not None]
        for child in children:
            if child.expiry is not None:
                child.expiry.cancel()
            child.session = None  # the app's last frames are not needed: the message is
        await asyncio.gather(*(child.stop(grace) for child in children),
                             return_exceptions=True)
        for session in sessions:
            with contextlib.suppress(Exception):
                session.process.stdout.write(b"\x1b[?1049l\x1b[?1000l\x1b[?1003l\x1b[?1015l"
                                             b"\x1b[?1006l\x1b[?25h\x1b[?2004l\x1b[?7h\r\n"
                                             + message.encode() + b"\r\n")
                session.process.exit(0)
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=grace)
        await self.pins.flush()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), grace)
