"""The relay as the organiser's own ``ssh`` would reach it (:class:`Relay`): its address
(``[USER@]HOST[:PORT]``, :func:`parse_relay`) read through ``~/.ssh/config`` (HostName,
Port, User, IdentityFile, UserKnownHostsFile, the agent), and its host key checked
against ``known_hosts`` as OpenSSH's client checks it:

- a known key passes;
- an unknown one is shown as ssh shows it, and passes only when the person at the
  terminal says yes (or types its fingerprint); it is then added to the first
  known_hosts file, as ssh adds it. Without a terminal to ask at, it is refused;
- a changed one is refused with ssh's own warning, and nothing is added.

Every connection checks again: a reconnect after a drop reads known_hosts afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

from net.client_hello import format_address
from serve.asyncssh_internals import known_keys

#: ssh's port, which a known_hosts line leaves unsaid
SSH_PORT = 22
CONNECT_TIMEOUT = 15.0
#: a dead relay is noticed within KEEPALIVE * KEEPALIVE_COUNT seconds (unless the
#: organiser's ssh_config sets ServerAliveInterval)
KEEPALIVE = 10.0
KEEPALIVE_COUNT = 3

#: asks the person at the terminal; returns their line, or None with nobody to ask
Ask = Callable[[str], Awaitable[str | None]]


class RelayError(Exception):
    """The relay cannot be used: words for the organiser (several lines, maybe)."""


class HostKeyRefused(RelayError):
    """The relay's host key is not one to trust (changed, revoked, or not accepted)."""


@dataclass(frozen=True)
class RelayAddress:
    """``[USER@]HOST[:PORT]`` as typed; what is not typed comes from ``~/.ssh/config``."""

    host: str
    user: str | None = None
    port: int | None = None

    def __str__(self) -> str:
        where = self.host if self.port is None else format_address(self.host, self.port)
        return where if self.user is None else f"{self.user}@{where}"


def parse_relay(text: str) -> RelayAddress:
    """``[USER@]HOST[:PORT]`` (an IPv6 address with a port in brackets); raises
    ValueError with words."""
    user, at, where = text.rpartition("@")
    if at and not user:
        raise ValueError(f"{text!r} has an @ but no user name before it")
    port: str | None = None
    if where.startswith("["):
        host, bracket, tail = where[1:].partition("]")
        if not bracket or (tail and not tail.startswith(":")):
            raise ValueError(f"{text!r}: write an IPv6 address as [ADDRESS]:PORT")
        port = tail[1:] if tail else None
    elif where.count(":") == 1:
        host, port = where.split(":")
    else:
        host = where  # a name, an IPv4 address, or an IPv6 address without a port
    if not host or any(c.isspace() for c in host) or host.startswith("-"):
        raise ValueError(f"{text!r} names no host")
    number = None
    if port is not None:
        if not port.isdigit() or not 1 <= int(port) <= 65535:
            raise ValueError(f"{text!r}: the port must be a number from 1 to 65535")
        number = int(port)
    return RelayAddress(host, user or None, number)


# -- host keys, as OpenSSH's client says them ------------------------------------------

def key_kind(key: asyncssh.SSHKey) -> str:
    """The key's type as ssh names it in its messages: ED25519, ECDSA, RSA..."""
    algorithm = key.get_algorithm()
    for part, kind in (("ed25519", "ED25519"), ("ed448", "ED448"), ("ecdsa", "ECDSA"),
                       ("rsa", "RSA"), ("dss", "DSA")):  # fmt: skip
        if part in algorithm:
            return kind + ("-SK" if algorithm.startswith("sk-") else "")
    return algorithm.upper()


def known_name(host: str, port: int) -> str:
    """The name a known_hosts line gives a host: ``[host]:port`` off port 22."""
    return host if port == SSH_PORT else f"[{host}]:{port}"


def unknown_words(host: str, addr: str, port: int, key: asyncssh.SSHKey) -> str:
    """ssh's question for a host key it has never seen."""
    name, where = known_name(host, port), known_name(addr or host, port)
    return (f"The authenticity of host '{name} ({where})' can't be established.\n"
            f"{key_kind(key)} key fingerprint is {key.get_fingerprint()}.\n"
            "This key is not known by any other names.\n"
            "Are you sure you want to continue connecting (yes/no/[fingerprint])? ")


def changed_words(host: str, port: int, key: asyncssh.SSHKey,
                  offending: list[tuple[Path, int, str]]) -> str:
    """ssh's warning for a host key that is not the one known for the host."""
    name = known_name(host, port)
    first = offending[0][0] if offending else Path("~/.ssh/known_hosts")
    lines = [
        "@" * 59,
        "@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @",
        "@" * 59,
        "IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!",
        "Someone could be eavesdropping on you right now (man-in-the-middle attack)!",
        "It is also possible that a host key has just been changed.",
        f"The fingerprint for the {key_kind(key)} key sent by the remote host is",
        f"{key.get_fingerprint()}.",
        "Please contact your system administrator.",
        f"Add correct host key in {first} to get rid of this message.",
    ]
    for path, line, kind in offending:
        lines.append(f"Offending {kind} key in {path}:{line}")
    lines += [
        "  remove with:",
        f"  ssh-keygen -f '{first}' -R '{name}'",
        f"Host key for {name} has changed and you have requested strict checking.",
        "Host key verification failed.",
    ]
    return "\n".join(lines)


class KnownHosts:
    """The known_hosts files OpenSSH's client reads for the relay (the config's
    UserKnownHostsFile, else ``~/.ssh/known_hosts``, then GlobalKnownHostsFile); a key
    the person accepts goes into the first."""

    def __init__(self, files: list[Path]) -> None:
        self.files = files

    def load(self) -> asyncssh.SSHKnownHosts:
        """Every readable file, read now (a reconnect sees what changed since)."""
        known = asyncssh.import_known_hosts("")
        for path in self.files:
            with contextlib.suppress(OSError, ValueError):
                known.load(path.read_text())
        return known

    def offending(self, host: str, addr: str, port: int) -> list[tuple[Path, int, str]]:
        """The lines that know another key for the host: ``(file, line number, kind)``."""
        found = []
        wanted = None if port == SSH_PORT else port
        for path in self.files:
            try:
                lines = path.read_text().splitlines()
            except OSError:
                continue
            for number, line in enumerate(lines, 1):
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                try:
                    entry = asyncssh.import_known_hosts(line)
                    # ssh looks a host off port 22 up as [host]:port alone
                    keys = known_keys(entry, host, addr, wanted)
                except (ValueError, asyncssh.KeyImportError):
                    continue
                if keys:
                    found.append((path, number, key_kind(keys[0])))
        return found

    def add(self, host: str, port: int, key: asyncssh.SSHKey) -> Path:
        """Add ``key`` for the host to the first file, as ssh does (0600, in a 0700
        folder when it makes one)."""
        path = self.files[0]
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        algorithm, data = key.export_public_key("openssh").decode().split()[:2]
        ends_cleanly = not path.exists() or path.read_bytes()[-1:] in (b"", b"\n")
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(fd, "a") as out:
            out.write(("" if ends_cleanly else "\n")
                      + f"{known_name(host, port)} {algorithm} {data}\n")
        return path


class _Client(asyncssh.SSHClient):
    """Notes the host key asyncssh could not match, and why the connection ended."""

    def __init__(self, relay: Relay) -> None:
        self.relay = relay

    def validate_host_public_key(self, host: str, addr: str, port: int,
                                 key: asyncssh.SSHKey) -> bool:
        self.relay.unmatched = (host, addr, port, key)
        return False  # decided outside, where the person can be asked

    def connection_lost(self, exc: Exception | None) -> None:
        self.relay.lost = exc


class Relay:
    """One relay, reached as the organiser's ssh reaches it (see the module docstring).
    ``report`` says a line to the organiser."""

    def __init__(self, address: RelayAddress, report: Callable[[str], None]) -> None:
        self.address = address
        self.report = report
        try:
            options = asyncssh.SSHClientConnectionOptions(  # config=(): ~/.ssh/config
                config=(), host=address.host, port=address.port or (),
                username=address.user or ())
        except (OSError, ValueError, asyncssh.Error) as error:
            raise RelayError(f"cannot read the ssh settings for {address}: {error}") \
                from None
        #: the relay's name as friends reach it (HostName, from ~/.ssh/config)
        self.name: str = options.host
        self.port: int = options.port
        self.user: str = options.username
        #: a key to offer: one ssh would (``~/.ssh/id_*``, the config's IdentityFile),
        #: or an agent that may hold some
        self.has_keys = bool(options.client_keys) or bool(options.agent_path)
        self.keepalive = {} if options.keepalive_interval else {
            "keepalive_interval": KEEPALIVE, "keepalive_count_max": KEEPALIVE_COUNT}
        files = options.known_hosts if isinstance(options.known_hosts, list) else []
        user_files = [Path(f).expanduser() for f in files]
        self.known_hosts = KnownHosts(user_files or [Path("~/.ssh/known_hosts").expanduser()])
        self.unmatched: tuple[str, str, int, asyncssh.SSHKey] | None = None
        self.lost: Exception | None = None

    async def connect(self, ask: Ask | None = None) -> asyncssh.SSHClientConnection:
        """Log in to the relay; raises RelayError with words. An unknown host key is
        put to ``ask`` (None: nobody to ask, so it is refused)."""
        self.unmatched = None
        self.lost = None
        try:
            return await asyncio.wait_for(asyncssh.connect(
                self.address.host, self.address.port or (),
                username=self.address.user or (), known_hosts=self.known_hosts.load(),
                client_factory=lambda: _Client(self), agent_forwarding=False,
                x11_forwarding=False, connect_timeout=CONNECT_TIMEOUT, **self.keepalive,
            ), CONNECT_TIMEOUT + 5)  # fmt: skip
        except asyncssh.HostKeyNotVerifiable as error:
            if self.unmatched is None:  # revoked, or a certificate refused
                raise HostKeyRefused(f"{error.reason}\nHost key verification failed.") from None
            host, addr, port, key = self.unmatched
            offending = self.known_hosts.offending(host, addr, port)
            if offending:
                raise HostKeyRefused(changed_words(host, port, key, offending)) from None
            question = unknown_words(host, addr, port, key)
            if ask is None:
                said = question.rsplit("\n", 1)[0]
                raise HostKeyRefused(
                    f"{said}\nNo terminal to ask whether to trust it: start serve --via "
                    "in a terminal once (or ssh to the relay once) and answer yes.\n"
                    "Host key verification failed.") from None
            if not await self._accepted(question, key, ask):
                raise HostKeyRefused("Host key verification failed.") from None
            path = self.known_hosts.add(host, port, key)
            self.report(f"Warning: Permanently added '{known_name(host, port)}' "
                        f"({key_kind(key)}) to the list of known hosts ({path}).")
            return await self.connect(None)  # the same key now passes; another is refused
        except asyncssh.PermissionDenied:
            if not self.has_keys:
                raise RelayError(
                    f"{self.user}@{self.name} wants a key, and there is none here to offer "
                    "(no ~/.ssh/id_ed25519 or other key, no IdentityFile in ~/.ssh/config, "
                    "no ssh-agent). Make one with `ssh-keygen -t ed25519`, put "
                    "~/.ssh/id_ed25519.pub in that account's ~/.ssh/authorized_keys on the "
                    f"relay (`ssh-copy-id {self.user}@{self.name}` does it), then start "
                    "serve again.") from None
            raise RelayError(
                f"{self.user}@{self.name} refused every key offered (the agent's and the "
                "IdentityFile ones in ~/.ssh/config): put your public key in that "
                "account's ~/.ssh/authorized_keys on the relay, or name the key in "
                "~/.ssh/config. A key with a passphrase must be in your ssh-agent.") \
                from None
        except asyncssh.DisconnectError as error:
            raise RelayError(f"{self.name} closed the connection: {error.reason}") from None
        except (TimeoutError, OSError) as error:
            raise RelayError(self.unreachable(error)) from None

    def unreachable(self, error: BaseException) -> str:
        """Why the relay could not be reached, in words."""
        where = format_address(self.name, self.port)
        if isinstance(error, ConnectionRefusedError):
            return f"nothing answers at {where}: is sshd running there, and the port right?"
        if isinstance(error, TimeoutError):
            return f"no answer from {where} within {CONNECT_TIMEOUT:g} s"
        if isinstance(error, socket.gaierror):
            return f"no machine called {self.name!r} is known here"
        return f"cannot reach {where}: {getattr(error, 'strerror', None) or error}"

    async def _accepted(self, question: str, key: asyncssh.SSHKey, ask: Ask) -> bool:
        """ssh's question until it gets yes, no, or the key's fingerprint."""
        answer = await ask(question)
        while answer is not None:
            answer = answer.strip()
            if answer.lower() == "yes" or answer == key.get_fingerprint():
                return True
            if answer.lower() == "no":
                return False
            answer = await ask("Please type 'yes', 'no' or the fingerprint: ")
        return False


def describe(conn: Any) -> str:
    """The address the relay was reached at ("" through a proxy)."""
    peer = conn.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer and peer[0] else ""
