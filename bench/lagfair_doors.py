"""Lag-fair races through real doors, on real sockets and the real clock (issue 35):
does holding replies win a race, and is a real far link still corrected?

Each race is a fresh two-seat Fool's Gold table (one nugget: the first grab takes
it) on a real host, its two players on real TCP connections. Once the game has begun
and the host has timed both links, the honest player grabs, and the other grabs
``late`` seconds after (drawn from 30-140 ms). The host judges.

The late player holds its replies 300 ms, in each way the doors time a link:

- ``lan``: a raw protocol client holds its ``probe_reply`` messages;
- ``ssh``: an SSH client (asyncssh) holds its answers to the SSH door's keepalive
  requests, timed by the door's own ``measure_link``; the player's game connection is
  bound to that measurement as a served app's is (``net.served``);
- ``web``: a browser's WebSocket holds its pongs to the web door's pings
  (``serve.web.TimedWebSocket``), bound the same way.

And an honest player 80 ms away each way (``far-80ms``: two network namespaces joined
by a delaying relay, ``tests/netns.py``; root only) against a near one, pressing
within 10 ms of each other, before or after it as often: the far one should win about
half, corrected by its whole delay.

Columns: races, the late player's wins (with a Wilson 95% interval), the correction
the held replies claimed (the estimate alone, capped), and the correction applied.

    .venv/bin/python bench/lagfair_doors.py [--races 30] [--only lan,ssh,web,far-80ms]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net import protocol as p  # noqa: E402
from net.games.foolsgold import moves as fm  # noqa: E402
from net.host import Host  # noqa: E402
from net.served import TableDirectory, bind_link  # noqa: E402
from tests.net.helpers import Seat  # noqa: E402
from tests.waiting import until  # noqa: E402

HOLD = 0.300
LATE = (0.030, 0.140)
TIE = 0.010


def wilson(wins: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z, phat = 1.96, wins / n
    centre = (phat + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


async def race(host: Host, honest: Seat, late: Seat, gap: float) -> tuple[bool, float, float]:
    """One race: the late player presses ``gap`` seconds after the honest one (before
    it, if ``gap`` is negative). Returns (the late player won, its estimate, the
    correction applied)."""
    table = host.tables.find(f"Race{race.count}")
    for seat in (honest, late):
        await seat.raw.send(p.Ready())
    await honest.expect(p.Started)
    member = {m.name: m for m in table.members}
    cheat = member["Late"]

    def timed() -> bool:
        link = cheat.link
        meter = link.link_meter if link.link_meter is not None else link.meter
        return len(meter.samples) >= 3 and len(member["Honest"].link.meter.samples) >= 3

    await until(timed, "both links timed", 30.0)
    link = cheat.link
    meter = link.link_meter if link.link_meter is not None else link.meter
    first, second = (honest, late) if gap >= 0 else (late, honest)
    await first.raw.send(fm.GRAB())
    if gap:
        await asyncio.sleep(abs(gap))
    await second.raw.send(fm.GRAB())
    seen = await honest.expect(p.State, lambda s: bool(s.view.grabbed))
    won = seen.view.grabbed[0][0] == late.number
    applied = min(cheat.lag, table.settings.lag_cap)
    return won, min(meter.estimate, table.settings.lag_cap), applied


race.count = 0


async def seats_for(host: Host, late_sock, honest_sock, hold: float = 0.0):
    race.count += 1
    name = f"Race{race.count}"
    host.create_table(name, "foolsgold", seats=2, seed=f"race-{race.count}")
    honest = await Seat.open(honest_sock, "Honest", table=name)
    late = await Seat.open(late_sock, "Late", hold=hold, table=name)
    return honest, late


async def run_lan(races: int, rng: random.Random) -> list:
    host = Host()
    await host.start("127.0.0.1", 0)
    results = []
    try:
        for _ in range(races):
            honest, late = await seats_for(host, host.port, host.port, hold=HOLD)
            results.append(await race(host, honest, late, rng.uniform(*LATE)))
            honest.close()
            late.close()
    finally:
        await host.close()
    return results


async def served(races: int, rng: random.Random, measure) -> list:
    """Races whose late player's game connection is bound to a door's measurement."""
    host = Host()
    await host.start("127.0.0.1", 0)
    directory = TableDirectory(host)
    folder = tempfile.mkdtemp(prefix="ml-")
    path = Path(folder) / "tables.sock"
    await directory.start(path)
    ident, meter = directory.links.new()
    stop = await measure(meter)
    results = []
    try:
        await until(lambda: len(meter.samples) >= 3, "the door timed the link", 30.0)
        for _ in range(races):
            honest, late = await seats_for(host, host.port, host.port)
            port = late.raw.writer.get_extra_info("sockname")[1]
            await bind_link(path, ident, port)
            results.append(await race(host, honest, late, rng.uniform(*LATE)))
            honest.close()
            late.close()
    finally:
        await stop()
        await directory.close()
        await host.close()
    return results


async def ssh_measure(meter):
    import asyncssh

    from serve.ssh import measure_link

    class Open(asyncssh.SSHServer):
        def begin_auth(self, username):
            return False

    async def door(process):
        await measure_link(process, meter)

    server = await asyncssh.create_server(
        Open, "127.0.0.1", 0, process_factory=door,
        server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")])  # fmt: skip
    port = server.sockets[0].getsockname()[1]
    conn = await asyncssh.connect("127.0.0.1", port, known_hosts=None, username="late")
    answer = conn._report_global_response  # the client's answer to a global request
    loop = asyncio.get_running_loop()
    conn._report_global_response = lambda r: loop.call_later(HOLD, answer, r)
    process = await conn.create_process()

    async def stop():
        process.close()
        conn.close()
        server.close()

    return stop


async def web_measure(meter):
    import aiohttp
    from aiohttp import WSMsgType, web

    from serve.web import TimedWebSocket
    from serve.web.link import keep_timing

    async def handler(request):
        websocket = TimedWebSocket(meter, request.transport, heartbeat=15)
        await websocket.prepare(request)
        timing = asyncio.ensure_future(keep_timing(websocket))
        async for _message in websocket:
            pass
        timing.cancel()
        return websocket

    app = web.Application()
    app.router.add_get("/ws", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    http = aiohttp.ClientSession()
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", autoping=False)
    loop = asyncio.get_running_loop()

    async def browser():  # a page that holds every pong
        async for message in ws:
            if message.type is WSMsgType.PING:
                data = message.data
                loop.call_later(HOLD, lambda d=data: asyncio.ensure_future(ws.pong(d)))

    task = asyncio.ensure_future(browser())

    async def stop():
        task.cancel()
        await ws.close()
        await http.close()
        await runner.cleanup()

    return stop


async def run_far(races: int, rng: random.Random) -> list:
    from tests.netns import DelayedLink, why_not

    if why_not():
        print(f"far-80ms: skipped ({why_not()})")
        return []
    results = []
    with DelayedLink(0.080) as link:
        host = Host()
        await host.start(sock=link.listener())
        try:
            for _ in range(races):
                # the far player ("late") presses within 10 ms of the near one, before
                # or after it, as often
                gap = rng.uniform(-TIE, TIE)
                honest, late = await seats_for(
                    host, await link.connect(host.port), await link.connect(host.port, link.host))
                won, claimed, applied = await race(host, honest, late, gap)
                results.append((won, claimed, applied, gap))
                honest.close()
                late.close()
        finally:
            await host.close()
    return results


def report(name: str, results: list, far: bool = False) -> None:
    if not results:
        return
    n = len(results)
    wins = sum(1 for won, *_ in results if won)
    low, high = wilson(wins, n)
    claimed = statistics.median(r[1] for r in results)
    applied = [r[2] for r in results]
    who = "far player's wins" if far else "late player's wins"
    if far:  # and how often the one who pressed first won
        right = sum(1 for won, _, _, gap in results if won == (gap < 0))
        print(f"{name:10} the one who pressed first won {right}/{n}; the far player pressed"
              f" first in {sum(1 for r in results if r[3] < 0)}")  # fmt: skip
    middle = statistics.median(applied) * 1000
    print(f"{name:10} {n:5} races  {who}: {wins:3} ({wins / n:6.1%}, 95% {low:.0%}-{high:.0%})"
          f"  claimed {claimed * 1000:6.1f} ms  applied median {middle:6.2f} ms,"
          f" max {max(applied) * 1000:6.2f} ms")  # fmt: skip


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=30)
    parser.add_argument("--only", default="lan,ssh,web,far-80ms")
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    only = args.only.split(",")
    if "lan" in only:
        report("lan", await run_lan(args.races, rng))
    if "ssh" in only:
        report("ssh", await served(args.races, rng, ssh_measure))
    if "web" in only:
        report("web", await served(args.races, rng, web_measure))
    if "far-80ms" in only:
        report("far-80ms", await run_far(args.races, rng), far=True)


if __name__ == "__main__":
    asyncio.run(main())
