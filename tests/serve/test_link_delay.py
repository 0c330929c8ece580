"""Lag-fair races behind the doors: the door measures the person's own link, and the
served app binds its game connection to that measurement on the serve process's
Unix socket (``net.served``), which a LAN client cannot reach."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

import pytest

from net import protocol as p
from net.client import Client
from net.latency import KERNEL_SLACK, DelayMeter
from net.served import Links, ServedError, TableDirectory, bind_link
from serve.ssh import measure_link
from tests.waiting import until

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
async def make_host():
    from net.host import Host

    hosts = []

    async def make():
        host = Host()
        await host.start("127.0.0.1", 0)
        hosts.append(host)
        return host

    yield make
    for host in hosts:
        await host.close()


@pytest.fixture
def short_dir():
    directory = tempfile.mkdtemp(prefix="ml-")  # short: an AF_UNIX path is short
    yield Path(directory)
    shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.slow
async def test_a_served_connection_is_judged_by_its_doors_measurement(make_host, short_dir):
    host = await make_host()
    table = host.create_table("Camp", "foolsgold", seats=2)
    directory = TableDirectory(host)
    path = short_dir / "tables.sock"
    await directory.start(path)
    try:
        link, meter = directory.links.new()
        for rtt in (0.160, 0.162, 0.158, 0.170):
            meter.add(rtt)
        served = await Client.connect("127.0.0.1", host.port, "Ann", reconnect=False)
        lan = await Client.connect("127.0.0.1", host.port, "Bob", reconnect=False)
        ann, bob = table.members
        peer = {link.member.name: link for link in host._peers if link.member}
        await until(lambda: peer["Ann"].meter.samples and peer["Bob"].meter.samples,
                    "the loopback's first probe answered on both connections")
        assert ann.lag < 0.05  # the loopback's own probes
        await bind_link(path, link, served.local_port)
        assert ann.lag == pytest.approx(meter.lag) and ann.lag > 0.07
        assert bob.lag < 0.05  # only that connection
        # later probe answers keep it on the door's measurement
        answered = len(peer["Ann"].meter.samples)
        await until(lambda: len(peer["Ann"].meter.samples) > answered,
                    "a probe answered after the binding")
        assert ann.lag == pytest.approx(meter.lag)
        # a wrong id, or a port with no connection, binds nothing
        with pytest.raises(ServedError):
            await bind_link(path, "not-a-link", lan.local_port)
        with pytest.raises(ServedError):
            await bind_link(path, link, 1)
        assert bob.lag < 0.05
        await served.close()
        await lan.close()
    finally:
        await directory.close()


async def test_a_served_app_binds_every_connection_it_opens(make_host, short_dir, monkeypatch):
    """The app's hook (``tui.flows.served``) runs after each handshake, resumes included."""
    from tui.flows.served import ServedFlow

    host = await make_host()
    table = host.create_table("Camp", "foolsgold", seats=2)
    directory = TableDirectory(host)
    path = short_dir / "tables.sock"
    await directory.start(path)
    link, meter = directory.links.new()
    meter.add(0.1)
    monkeypatch.setenv("MOTHERLODE_LINK", link)
    monkeypatch.setattr(Client, "after_handshake", None)
    try:
        ServedFlow.bind_link(str(path))
        client = await Client.connect("127.0.0.1", host.port, "Ann", reconnect=False)
        await until(lambda: table.members[0].lag == pytest.approx(0.05), "the lag measured",
                    step=0.02)
        await client.close()
    finally:
        await directory.close()


@pytest.mark.slow
async def test_the_ssh_door_times_keepalive_round_trips():
    class Connection:
        async def _make_global_request(self, request: bytes):
            assert request == b"keepalive@openssh.com"
            await asyncio.sleep(0.04)  # the time is what is tested: a 40 ms round trip

        def get_extra_info(self, name, default=None):
            return default  # no socket: the kernel's bound is tested through a real door

    class Process:
        def get_extra_info(self, name):
            return Connection() if name == "connection" else None

    links = Links()
    ident, meter = links.new()
    task = asyncio.ensure_future(measure_link(Process(), meter))
    await until(lambda: len(meter.samples) >= 2, "two keepalive round trips timed")
    task.cancel()
    assert len(meter.samples) >= 2
    assert meter.delay == pytest.approx(0.02, abs=0.015)
    links.drop(ident)
    assert ident not in links.meters


def test_a_probe_reply_cannot_claim_a_delay():
    # the game protocol has no field for a delay: a client can only answer probes
    assert set(p.ProbeReply.__struct_fields__) == {"id"}


async def test_the_web_door_times_websocket_pings():
    aiohttp = pytest.importorskip("aiohttp")
    from aiohttp import web

    from serve.web import TimedWebSocket

    links = Links()
    ident, meter = links.new()
    got = []

    async def handler(request):
        websocket = TimedWebSocket(meter, heartbeat=15)
        await websocket.prepare(request)
        async for message in websocket:  # pongs are timed, never passed on
            got.append(message.data)
            for _ in range(3):
                await websocket.ping_now()
            await websocket.send_str("echo " + message.data)
        return websocket

    app = web.Application()
    app.router.add_get("/ws", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    try:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
                await ws.send_str("hi")
                answer = await ws.receive()
                assert answer.data == "echo hi"
                await ws.ping(b"browser")  # the browser's own ping is answered
                # the door answers a close after all that came before it on the line
                # (the pongs, the ping): once it has, it has read them all
                await ws.close()
    finally:
        await runner.cleanup()
    assert got == ["hi"]
    assert len(meter.samples) == 3 and 0 <= meter.delay < 0.05


@pytest.mark.slow
async def test_an_ssh_client_that_holds_its_keepalive_answers_gains_nothing():
    """A real SSH link on loopback, the client's answers to the door's keepalive
    requests held 300 ms each (what a modified client can do): the round trips say
    150 ms away, and the kernel's round trip on the person's SSH socket says not."""
    import asyncssh

    from net import tcpinfo

    if not tcpinfo.AVAILABLE:
        pytest.skip("TCP_INFO is Linux's")
    meter = DelayMeter()
    measured: asyncio.Future = asyncio.get_running_loop().create_future()

    async def door(process):
        task = asyncio.ensure_future(measure_link(process, meter))
        await until(lambda: len(meter.samples) >= 3, "three held keepalives timed", 20.0)
        task.cancel()
        measured.set_result(None)
        process.exit(0)

    class Open(asyncssh.SSHServer):
        def begin_auth(self, username):
            return False

    server = await asyncssh.create_server(
        Open, "127.0.0.1", 0, server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")],
        process_factory=door,
    )  # fmt: skip
    port = server.sockets[0].getsockname()[1]
    try:
        async with asyncssh.connect("127.0.0.1", port, known_hosts=None, username="ann") as conn:
            answer = conn._report_global_response  # the client's answer to a request
            loop = asyncio.get_running_loop()
            conn._report_global_response = lambda result: loop.call_later(0.3, answer, result)
            process = await conn.create_process()
            await asyncio.wait_for(measured, 30)
            process.close()
    finally:
        server.close()
        await server.wait_closed()
    assert meter.estimate == pytest.approx(0.15, abs=0.05)  # the round trips: fooled
    assert meter.kernel_rtt is not None and meter.kernel_rtt < 0.01
    assert meter.lag <= KERNEL_SLACK + 0.001  # what the seat is credited: the slack


@pytest.mark.slow
async def test_a_browser_that_holds_its_pongs_gains_nothing():
    """The web door's pings answered 300 ms late (a modified page, or a proxy): the
    pongs say 150 ms away, the kernel's round trip on the browser's socket says not."""
    import aiohttp
    from aiohttp import WSMsgType, web

    from net import tcpinfo
    from serve.web import TimedWebSocket

    if not tcpinfo.AVAILABLE:
        pytest.skip("TCP_INFO is Linux's")
    meter = DelayMeter()

    async def handler(request):
        websocket = TimedWebSocket(meter, request.transport, heartbeat=15)
        await websocket.prepare(request)
        for _ in range(3):
            await websocket.ping_now()
        async for _message in websocket:  # the pongs are timed as they are read
            pass
        return websocket

    app = web.Application()
    app.router.add_get("/ws", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    try:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"http://127.0.0.1:{port}/ws", autoping=False) as ws:
                for _ in range(3):
                    ping = await ws.receive()
                    assert ping.type is WSMsgType.PING
                    await asyncio.sleep(0.3)  # the held pong
                    await ws.pong(ping.data)
                await until(lambda: len(meter.samples) == 3, "three held pongs timed")
                await ws.close()
    finally:
        await runner.cleanup()
    assert meter.estimate >= 0.15  # the pongs: fooled
    assert meter.kernel_rtt is not None and meter.kernel_rtt < 0.01
    assert meter.lag <= KERNEL_SLACK + 0.001
