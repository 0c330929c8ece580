"""A link whose delay the kernel sees, made by the test itself: two network namespaces
joined by a relay between two TUN devices that holds every packet ``delay`` seconds
each way (this machine's kernel has no ``sch_netem``; a relay works on any kernel with
``/dev/net/tun``). The host side is 10.213.0.1 in one namespace, the far side
10.213.0.2 in the other; a socket is made in either with :meth:`DelayedLink.socket`.

It needs root (or CAP_NET_ADMIN and CAP_SYS_ADMIN), ``ip`` and ``/dev/net/tun``;
:func:`why_not` says which is missing, for a skip with the reason."""

from __future__ import annotations

import ctypes
import os
import shutil
import socket
import subprocess
import sys
import threading
import uuid

HOST, FAR = "10.213.0.1", "10.213.0.2"
CLONE_NEWNET = 0x40000000

RELAY = r"""
import ctypes, fcntl, heapq, os, select, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
def enter(ns):
    fd = os.open("/run/netns/" + ns, os.O_RDONLY)
    if libc.setns(fd, 0x40000000) != 0:
        raise OSError(ctypes.get_errno(), "setns " + ns)
    os.close(fd)
def tun():
    fd = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(fd, 0x400454CA, struct.pack("16sH22x", b"mlt0", 0x0001 | 0x1000))
    os.set_blocking(fd, False)
    return fd
delay = float(sys.argv[3])
enter(sys.argv[1]); a = tun()
enter(sys.argv[2]); b = tun()
print("ready", flush=True)
other = {a: b, b: a}
queue, seq = [], 0
while True:
    timeout = max(0.0, queue[0][0] - time.monotonic()) if queue else None
    readable, _, _ = select.select([a, b], [], [], timeout)
    now = time.monotonic()
    for fd in readable:
        while True:
            try:
                packet = os.read(fd, 65536)
            except BlockingIOError:
                break
            seq += 1
            heapq.heappush(queue, (now + delay, seq, other[fd], packet))
    now = time.monotonic()
    while queue and queue[0][0] <= now:
        _, _, fd, packet = heapq.heappop(queue)
        try:
            os.write(fd, packet)
        except OSError:
            pass
"""


def why_not() -> str | None:
    """Why a delayed link cannot be made here, or None if it can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux's"
    if os.geteuid() != 0:
        return "making network namespaces needs root"
    if shutil.which("ip") is None:
        return "no `ip` command (iproute2)"
    if not os.path.exists("/dev/net/tun"):
        return "no /dev/net/tun"
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


class DelayedLink:
    """Two namespaces, ``host`` and ``far``, ``delay`` seconds apart each way."""

    def __init__(self, delay: float) -> None:
        tag = uuid.uuid4().hex[:8]
        self.delay = delay
        self.host, self.far = f"ml-{tag}-h", f"ml-{tag}-f"
        self.relay: subprocess.Popen | None = None

    def __enter__(self) -> DelayedLink:
        try:
            for ns in (self.host, self.far):
                _ip("netns", "add", ns)
                _ip("-n", ns, "link", "set", "lo", "up")
            self.relay = subprocess.Popen(
                [sys.executable, "-c", RELAY, self.host, self.far, str(self.delay)],
                stdout=subprocess.PIPE, text=True)  # fmt: skip
            assert self.relay.stdout is not None
            line = self.relay.stdout.readline()
            if line.strip() != "ready":
                raise RuntimeError(f"the relay did not start: {line!r}")
            for ns, mine, theirs in ((self.host, HOST, FAR), (self.far, FAR, HOST)):
                _ip("-n", ns, "addr", "add", mine, "peer", theirs, "dev", "mlt0")
                _ip("-n", ns, "link", "set", "mlt0", "up")
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.relay is not None:
            self.relay.kill()
            self.relay.wait()
            if self.relay.stdout is not None:
                self.relay.stdout.close()
        for ns in (self.host, self.far):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)

    def socket(self, ns: str, kind: int = socket.SOCK_STREAM) -> socket.socket:
        """A socket of namespace ``ns`` (:func:`ns_socket`)."""
        return ns_socket(ns, kind)

    def listener(self, port: int = 0) -> socket.socket:
        """A listening TCP socket on the host side."""
        sock = self.socket(self.host)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(64)
        sock.setblocking(False)
        return sock

    async def connect(self, port: int, ns: str | None = None) -> socket.socket:
        """A connected TCP socket to the host side, from the far side (or ``ns``)."""
        import asyncio

        sock = self.socket(ns or self.far)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (HOST, port))
        return sock


# -- a relay between two networks (serve --via, issue 45) ---------------------------------

#: the relay's public address, the one address both other namespaces reach
RELAY_ADDRESS = "10.214.0.1"
ORGANISER = "10.214.1.2"
FRIENDS = ("10.214.2.2", "10.214.2.3")  # two friends' machines, in one namespace


class RelayNet:
    """Three namespaces, as the internet looks to ``serve --via``: ``relay`` holds
    :data:`RELAY_ADDRESS`; ``organiser`` and ``friends`` are each linked to the relay
    alone (a veth pair), with a route to that one address. The relay forwards nothing
    (a new namespace's ``ip_forward`` is 0), so the friends reach the relay's address
    and nothing else: not the organiser's machine. ``friends`` holds two addresses
    (:data:`FRIENDS`), two machines to the relay. Needs what :func:`why_not` checks."""

    def __init__(self) -> None:
        tag = uuid.uuid4().hex[:6]
        self.relay, self.organiser, self.friends = (f"ml-{tag}-r", f"ml-{tag}-o",
                                                    f"ml-{tag}-f")
        self.tag = tag

    def __enter__(self) -> RelayNet:
        try:
            for ns in (self.relay, self.organiser, self.friends):
                _ip("netns", "add", ns)
                _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", self.relay, "addr", "add", f"{RELAY_ADDRESS}/32", "dev", "lo")
            for ns, near, far, mine in ((self.organiser, "10.214.1.1/30", "o", [ORGANISER]),
                                        (self.friends, "10.214.2.1/29", "f", FRIENDS)):
                relay_end, their_end = f"r{far}{self.tag}", f"{far}r{self.tag}"
                _ip("link", "add", relay_end, "netns", self.relay, "type", "veth", "peer",
                    "name", their_end, "netns", ns)
                _ip("-n", self.relay, "addr", "add", near, "dev", relay_end)
                _ip("-n", self.relay, "link", "set", relay_end, "up")
                prefix = near.split("/")[1]
                for address in mine:
                    _ip("-n", ns, "addr", "add", f"{address}/{prefix}", "dev", their_end)
                _ip("-n", ns, "link", "set", their_end, "up")
                _ip("-n", ns, "route", "add", f"{RELAY_ADDRESS}/32", "via",
                    near.split("/")[0])
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        for ns in (self.relay, self.organiser, self.friends):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)

    @staticmethod
    def run_in(ns: str) -> list[str]:
        """The argv prefix that runs a command in namespace ``ns``."""
        return ["ip", "netns", "exec", ns]

    def pids(self, ns: str) -> list[int]:
        """Every process in namespace ``ns``."""
        done = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True,
                              timeout=10)
        return [int(pid) for pid in done.stdout.split()]

    async def connect(self, ns: str, host: str, port: int,
                      source: str | None = None) -> socket.socket:
        """A TCP socket of namespace ``ns`` connected to ``host:port`` (from
        ``source``, one of the namespace's addresses)."""
        import asyncio

        sock = ns_socket(ns)
        sock.setblocking(False)
        if source is not None:
            sock.bind((source, 0))
        await asyncio.get_running_loop().sock_connect(sock, (host, port))
        return sock


def ns_socket(ns: str, kind: int = socket.SOCK_STREAM) -> socket.socket:
    """A socket of namespace ``ns`` (a socket stays in the namespace it was made in;
    ``setns`` moves only the calling thread, so a thread makes it)."""
    made: list = []

    def make() -> None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            fd = os.open(f"/run/netns/{ns}", os.O_RDONLY)
            try:
                if libc.setns(fd, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), f"setns {ns}")
            finally:
                os.close(fd)
            # a TCP socket says so, as asyncio's own do: asyncio sets TCP_NODELAY only
            # on a socket whose proto is IPPROTO_TCP (else Nagle holds a small write
            # for the peer's ACK, a whole round trip)
            proto = socket.IPPROTO_TCP if kind == socket.SOCK_STREAM else 0
            made.append(socket.socket(socket.AF_INET, kind, proto))
        except BaseException as error:  # handed to the caller
            made.append(error)

    thread = threading.Thread(target=make)
    thread.start()
    thread.join()
    if isinstance(made[0], BaseException):
        raise made[0]
    return made[0]
