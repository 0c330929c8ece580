"""Issue 45's parts, in memory (``serve.via``): the relay's address, the address a
forwarded connection is counted under, the backoff, known_hosts read and written as
ssh does, a forwarded connection handed to a door's protocol, and the verdict's
words. The real relay is in ``tests/serve/test_via.py``."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from serve.via.check import OK, REFUSED, SILENT, Outcome, verdict
from serve.via.forwarded import ForwardedSession, Originators
from serve.via.relay import (
    KnownHosts,
    RelayAddress,
    changed_words,
    known_name,
    parse_relay,
    unknown_words,
)
from serve.via.tunnel import Forward, retry_delays


@pytest.mark.parametrize("text, address", [
    ("relay", RelayAddress("relay")),
    ("me@relay.example:2200", RelayAddress("relay.example", "me", 2200)),
    ("[2001:db8::1]:22", RelayAddress("2001:db8::1", None, 22)),
    ("me@2001:db8::1", RelayAddress("2001:db8::1", "me")),
    ("a@b@relay", RelayAddress("relay", "a@b")),
])
def test_the_relay_address_reads_as_ssh_reads_it(text, address):
    assert parse_relay(text) == address


@pytest.mark.parametrize("text", ["@relay", "relay:0", "relay:ssh", "", "-oProxyCommand=x",
                                  "[::1", "[::1]x", "re lay"])
def test_a_bad_relay_address_is_refused_in_words(text):
    with pytest.raises(ValueError):
        parse_relay(text)


def test_each_connection_counts_under_its_friends_address():
    said = []
    names = Originators("relay.example", said.append)
    assert names.address("203.0.113.7") == "203.0.113.7"
    assert names.address("::ffff:203.0.113.7") == "203.0.113.7"
    # someone on the relay itself is one address, and never this machine's loopback
    assert names.address("127.0.0.1") == names.address("::1") == "loopback@relay.example"
    assert not said
    # a relay that names nobody: each connection alone, said once
    assert names.address("") != names.address("0.0.0.0") != names.address("not an ip")
    assert len(said) == 1 and "budgeted alone" in said[0]


def test_the_tunnel_retries_doubling_up_to_a_minute():
    assert retry_delays() == [1, 2, 4, 8, 16, 32, 60]


def _key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519").convert_to_public()


def test_known_hosts_are_written_and_matched_as_ssh_does(tmp_path):
    path = tmp_path / ".ssh" / "known_hosts"
    known = KnownHosts([path])
    key, other = _key(), _key()
    assert known.add("relay.example", 2200, key) == path
    assert path.read_text().startswith("[relay.example]:2200 ssh-ed25519 ")
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert oct(path.parent.stat().st_mode & 0o777) == "0o700"
    assert known.load().match("relay.example", "", 2200)[0] == [key]
    # off port 22, a bare host's line is another host's key, as ssh reads it
    path.write_text(path.read_text() + f"relay.example {other.export_public_key().decode()}")
    assert known.offending("relay.example", "192.0.2.1", 2200) == [(path, 1, "ED25519")]
    assert known.offending("relay.example", "192.0.2.1", 22) == [(path, 2, "ED25519")]
    assert known.offending("elsewhere", "192.0.2.9", 22) == []


def test_the_words_are_ssh_s():
    key = _key()
    asked = unknown_words("relay.example", "192.0.2.1", 22, key)
    assert asked.startswith("The authenticity of host 'relay.example (192.0.2.1)' can't be "
                            "established.\nED25519 key fingerprint is SHA256:")
    assert asked.endswith("Are you sure you want to continue connecting "
                          "(yes/no/[fingerprint])? ")
    warned = changed_words("relay.example", 2200, key, [("/k", 3, "ED25519")])
    assert "WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!" in warned
    assert "Offending ED25519 key in /k:3" in warned
    assert warned.endswith("Host key verification failed.")
    assert known_name("h", 22) == "h" and known_name("h", 2222) == "[h]:2222"


class _Channel:
    """What a forwarded-tcpip channel offers a session, recorded."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.closing = self.aborted = False

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def is_closing(self) -> bool:
        return self.closing

    def abort(self) -> None:
        self.aborted = self.closing = True

    def get_write_buffer_size(self) -> int:
        return 0

    def set_write_buffer_limits(self, high=None, low=None) -> None:
        pass


async def test_a_forwarded_connection_reaches_a_door_as_its_friend():
    """asyncio's streams (the LAN host's) on a forwarded channel: the friend's address
    as peername, the relay's as sockname, bytes both ways, and a dropped tunnel as the
    ConnectionResetError a socket gives."""
    seen = {}

    async def serve(reader, writer):
        seen["peer"] = writer.get_extra_info("peername")
        seen["sock"] = writer.get_extra_info("sockname")
        writer.write(await reader.readline())
        try:
            await reader.read()
        except ConnectionResetError as error:
            seen["lost"] = error

    chan = _Channel()
    session = ForwardedSession(asyncio.StreamReaderProtocol(asyncio.StreamReader(), serve),
                               ("203.0.113.7", 50000), ("relay.example", 7777))
    session.connection_made(chan)
    session.data_received(b"hello\n", None)
    for _ in range(20):
        await asyncio.sleep(0)
    assert chan.sent == [b"hello\n"]
    session.connection_lost(asyncssh.ConnectionLost("Connection lost"))
    for _ in range(20):
        await asyncio.sleep(0)
    assert seen["peer"] == ("203.0.113.7", 50000)
    assert seen["sock"] == ("relay.example", 7777)
    assert isinstance(seen["lost"], ConnectionResetError)


async def test_a_door_that_raises_costs_its_own_connection_only():
    class Broken(asyncio.Protocol):
        def data_received(self, data):
            raise RuntimeError("a bug")

    chan = _Channel()
    session = ForwardedSession(Broken(), ("203.0.113.7", 1), ("relay", 2222))
    session.connection_made(chan)
    session.data_received(b"x", None)  # no exception reaches asyncssh
    assert chan.aborted


def _outcomes(*results: str) -> list[Outcome]:
    doors = [Forward("ssh", 2222, asyncio.Protocol), Forward("web", 8080, asyncio.Protocol),
             Forward("lan", 7777, asyncio.Protocol)]
    return [Outcome(door, result) for door, result in zip(doors, results, strict=True)]


def test_the_verdict_in_words():
    good = verdict(_outcomes(OK, OK, OK), "relay.example")
    assert good.startswith("Checked from outside: relay.example answers on ports 2222, "
                           "8080 and 7777 with this server's own doors")
    loopback = verdict(_outcomes(REFUSED, REFUSED, REFUSED), "relay.example")
    assert "listens only on its own loopback" in loopback
    assert "`GatewayPorts clientspecified` to /etc/ssh/sshd_config" in loopback
    walled = verdict(_outcomes(OK, SILENT, OK), "relay.example")
    assert "a firewall" in walled and "(--web)" in walled


async def test_a_relay_whose_key_changed_while_down_is_not_trusted_again(monkeypatch):
    """Each attempt to bring the tunnel back checks the relay's key again: one that
    failed to connect is tried again; one whose key changed stops the attempts."""
    from serve.via import tunnel as t
    from serve.via.relay import HostKeyRefused, RelayError

    class Relay:
        name, lost = "relay.example", None
        attempts = 0

        async def connect(self, ask=None):
            self.attempts += 1
            if self.attempts == 1:
                raise RelayError("nothing answers at relay.example:22")
            raise HostKeyRefused("WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!\n"
                                 "Host key verification failed.")

    monkeypatch.setattr(t, "retry_delays", lambda: [0.0])
    said: list[str] = []
    relay = Relay()
    tunnel = t.Tunnel(relay, said.append)  # type: ignore[arg-type]
    assert await asyncio.wait_for(tunnel._reconnect(), 5) is False
    assert relay.attempts == 2
    assert "attempt 1 failed (nothing answers at relay.example:22)" in said[0]
    assert "stays down" in said[1] and "Host key verification failed." in said[1]
