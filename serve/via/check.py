"""Checked from outside (:func:`check`): serve connects to the relay's public address
itself, as a friend would, and confirms that each forwarded port answers with its own
door: the SSH door's host key, the web door's page (its mark), the LAN host (the
connection arrives here through the tunnel). :func:`verdict` puts the outcome in words
for the banner: one line when friends can come in, else one plain paragraph saying
what to change on the relay (``GatewayPorts clientspecified`` when it listens only on
its loopback) or which other port to ask for."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

import asyncssh

from serve.door import MARK_HEADER
from serve.via.tunnel import DOOR_OPTION, Forward, Tunnel

#: seconds for each port's check; they run at once, so the verdict is in within this
WITHIN = 4.0

OK, REFUSED, SILENT, OTHER, UNCHECKED = "ok", "refused", "silent", "other", "unchecked"
DOOR_WORDS = {"ssh": "the SSH door", "web": "the web door", "lan": "the LAN port"}


@dataclass(frozen=True)
class Outcome:
    forward: Forward
    result: str  #: OK, REFUSED (nothing listens there), SILENT, OTHER, UNCHECKED
    detail: str = ""


async def check(tunnel: Tunnel, within: float = WITHIN) -> list[Outcome]:
    """Each forwarded port, tried from here at the relay's address, all at once."""
    return list(await asyncio.gather(*(
        _one(tunnel, forward, within) for forward in tunnel.forwards)))


async def _one(tunnel: Tunnel, forward: Forward, within: float) -> Outcome:
    address = tunnel.address
    try:
        async with asyncio.timeout(within):
            if forward.fingerprint is not None:
                key = await asyncssh.get_server_host_key(address, forward.port, config=[])
                seen = key.get_fingerprint() if key is not None else "no key"
                if seen != forward.fingerprint:
                    return Outcome(forward, OTHER, f"an SSH server with the key {seen}")
                return Outcome(forward, OK)
            if forward.mark is not None:
                seen = await _page_mark(address, tunnel.relay.name, forward.port)
                if seen != forward.mark:
                    return Outcome(forward, OTHER, "another web server")
                return Outcome(forward, OK)
            return await _arrives(tunnel, address, forward)
    except ConnectionRefusedError:
        return Outcome(forward, REFUSED)
    except TimeoutError:
        return Outcome(forward, SILENT)
    except (OSError, asyncssh.Error, ValueError, asyncio.IncompleteReadError,
            asyncio.LimitOverrunError) as error:
        return Outcome(forward, UNCHECKED, str(error) or type(error).__name__)


async def _page_mark(address: str, name: str, port: int) -> str | None:
    """The web door's mark on the page at ``address:port`` (asked for by ``name``)."""
    reader, writer = await asyncio.open_connection(address, port)
    try:
        host = f"[{name}]" if ":" in name else name
        writer.write(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
                     "User-Agent: motherlode-serve-check\r\n\r\n".encode())
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    finally:
        writer.close()
    for line in head.split("\r\n")[1:]:
        key, _, value = line.partition(":")
        if key.strip().lower() == MARK_HEADER.lower():
            return value.strip()
    return None


async def _arrives(tunnel: Tunnel, address: str, forward: Forward) -> Outcome:
    """A connection to the relay's port arrives here, through the tunnel."""
    before = tunnel.arrivals.counts.get(forward.port, 0)
    _, writer = await asyncio.open_connection(address, forward.port)
    try:
        while tunnel.arrivals.counts.get(forward.port, 0) == before:
            await tunnel.arrivals.changed.wait()
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    return Outcome(forward, OK)


def reachable(outcomes: list[Outcome]) -> bool:
    """Friends can come in at every door: each port answered from outside as its own."""
    return all(o.result == OK for o in outcomes)


def verdict(outcomes: list[Outcome], relay: str) -> str:
    """The outcome in words: a line when friends can come in, else one paragraph."""
    where = {o.forward.port: o for o in outcomes}
    if all(o.result == OK for o in outcomes):
        return (f"Checked from outside: {relay} answers on port{'s' * (len(where) > 1)} "
                f"{_ports(outcomes)} with this server's own doors. Friends can come in.")
    refused = [o for o in outcomes if o.result == REFUSED]
    silent = [o for o in outcomes if o.result == SILENT]
    other = [o for o in outcomes if o.result == OTHER]
    unchecked = [o for o in outcomes if o.result == UNCHECKED]
    options = " / ".join(dict.fromkeys(DOOR_OPTION[o.forward.what] for o in silent))
    said = []
    if refused and len(refused) == len(outcomes):
        said.append(
            f"Friends cannot reach this game through {relay} yet: the relay took the "
            "tunnel but listens only on its own loopback (its sshd's GatewayPorts is "
            f"no, the default), so {_port_words(refused)} there refuse"
            f"{'s' * (len(refused) == 1)} connections from outside. On the relay, add "
            "the line `GatewayPorts clientspecified` to /etc/ssh/sshd_config, reload "
            "its sshd (`sudo systemctl reload ssh`), then start serve again; it asks "
            "the relay for every address by itself. Without root on the relay, use "
            "another one (README: Play from home).")
    elif refused:
        said.append(f"Friends cannot reach {_doors(refused)} through {relay}: "
                    f"{_port_words(refused)} there refuse{'s' * (len(refused) == 1)} "
                    "connections from outside.")
    if silent:
        said.append(f"No answer from {relay} on {_port_words(silent)} within {WITHIN:g} s: "
                    "a firewall on the relay (or before it) drops it. Open the port there, "
                    f"or ask for one it lets in ({options}).")
    for o in other:
        said.append(f"Port {o.forward.port} at {relay} answers with {o.detail}, not "
                    f"{DOOR_WORDS[o.forward.what]}: something else holds that port for "
                    f"another address there. Ask for another one "
                    f"({DOOR_OPTION[o.forward.what]}).")
    if unchecked:
        said.append(f"Could not check {_port_words(unchecked)} at {relay} from here "
                    f"({unchecked[0].detail}); friends may still reach it.")
    return " ".join(said)


def _ports(outcomes: list[Outcome]) -> str:
    numbers = [str(o.forward.port) for o in outcomes]
    return numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]


def _port_words(outcomes: list[Outcome]) -> str:
    return f"port{'s' * (len(outcomes) > 1)} {_ports(outcomes)}"


def _doors(outcomes: list[Outcome]) -> str:
    return " and ".join(DOOR_WORDS[o.forward.what] for o in outcomes)
