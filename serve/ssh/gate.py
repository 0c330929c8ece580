"""One SSH connection as its door sees it (:class:`Gate`): its stage in the process's
ledger (``net.budgets``: before login, logged in without a session, playing), its login,
and its one session.

Identity: any public key is accepted and the user name is pinned to its fingerprint on
first use (``serve.pins``). A client without a key (keyboard-interactive with no
question) plays under a name nobody has pinned. ``authorized_keys`` admits only those
keys; ``password`` asks every client without a pinned key for a shared password, with
a growing delay per wrong one (the door's ``auth_delay``), and a connection is cut off
after ``max_auth_tries`` wrong ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from typing import Any, Protocol

import asyncssh

from net import budgets as b
from serve.pins import Pins
from serve.ssh.config import DoorConfig
from serve.ssh.environment import capped_env
from serve.ssh.identity import player_name


class GateDoor(Protocol):
    """What a gate asks of its door."""

    config: DoorConfig
    ledger: b.Ledger
    pins: Pins
    authorized: set[str] | None
    password: str | None

    def auth_failed(self, address: str) -> None: ...

    def auth_delay(self, address: str, failures_here: int) -> float: ...

    async def serve_session(self, process: asyncssh.SSHServerProcess) -> None: ...


class Gate(asyncssh.SSHServer):
    """One connection: its stage in the ledger, its authentication (see the module
    docstring), and its one session."""

    def __init__(self, door: GateDoor) -> None:
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
        # admitted by the ``Screen``'s knock: a connection, pending until it logs in
        self.door.ledger.settle(self, b.PENDING, Gate.disconnect)

    def _enter(self, stage: str) -> None:
        """Move to ``stage``; a full stage makes room from its busiest address."""
        self.door.ledger.settle(self, stage, Gate.disconnect)

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
        self.door.ledger.settle(self, None, Gate.disconnect)

    def session_requested(self) -> Any:
        """One session (channel) per connection; its environment is capped."""
        if self.sessions >= 1 or self.conn is None:
            return False
        self.sessions += 1
        if self.idle_timer is not None:
            self.idle_timer.cancel()
        self._enter(b.SEATED)  # a session plays: the door's max_sessions caps those
        channel = self.conn.create_server_channel(None)
        channel._process_env_request = capped_env(channel, self.door.config)  # type: ignore
        return channel, asyncssh.SSHServerProcess(self.door.serve_session, None, 0, False)

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
