"""A delay proxy and scripted racers, for the lag-fair race tests and bench/lagfair.py.

- :func:`pump` copies a byte stream, delivering each chunk a chosen one-way delay plus
  a seeded jitter later, in order (as TCP would).
- :func:`proxied_local` joins a player to an in-process host through two such pumps
  (one each way); :func:`serve_tcp` is the same proxy on TCP, for a walk by hand
  (``python -m tests.net.lagproxy --listen 7778 --to 127.0.0.1:7777 --delay 0.08``).
- A *cheat* holds back its ``probe_reply`` lines by ``cheat`` more seconds (its other
  messages go on as usual), to look further away than it is.
- :class:`VirtualLoop` is an asyncio loop whose clock jumps to the next timer when
  nothing is ready. In-process transports do no real I/O, so a whole race (host,
  proxies, clients) runs in virtual time: deterministic, and as fast as the CPU allows,
  whatever the machine's load.
- :func:`run_races` seats scripted players with known true press times and reports, for
  each race, the true order, the order of arrival at the host and the host's order.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import selectors
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from net import protocol as p
from net.client import Client
from net.games.foolsgold import moves as fm
from net.pipe import PipeWriter

# -- virtual time -----------------------------------------------------------------------


class _VirtualSelector(selectors.SelectSelector):
    def __init__(self, loop: VirtualLoop) -> None:
        super().__init__()
        self._loop = loop

    def select(self, timeout: float | None = None) -> list:
        if timeout is None:
            raise RuntimeError("virtual time: nothing is scheduled and nothing is ready")
        if timeout > 0:
            self._loop.now += timeout
        return []


class VirtualLoop(asyncio.SelectorEventLoop):
    """An event loop on virtual time: for in-process transports only (no real I/O)."""

    def __init__(self) -> None:
        self.now = 0.0
        super().__init__(_VirtualSelector(self))

    def time(self) -> float:
        return self.now


def run_virtual(coro: Any) -> Any:
    """Run ``coro`` to its end on a :class:`VirtualLoop`."""
    with asyncio.Runner(loop_factory=VirtualLoop) as runner:
        return runner.run(coro)


# -- the proxy ---------------------------------------------------------------------------


@dataclass
class Link:
    """One way of one player's line: a one-way delay and a jitter (uniform, seconds)."""

    delay: float
    jitter: float = 0.0
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    cheat: float = 0.0  # extra hold of probe_reply lines (client to host only)
    last: float = float("-inf")  # in-order delivery
    last_cheat: float = float("-inf")
    #: (loop time delivered, line) for every grab or call line it carried
    races: list[tuple[float, bytes]] = field(default_factory=list)

    def when(self, now: float, data: bytes) -> float:
        at = now + self.delay + self.rng.uniform(0.0, self.jitter)
        if self.cheat and b'"probe_reply"' in data:
            # the client itself sits on its answers; the rest of its stream goes on
            at = max(self.last_cheat, at + self.cheat)
            self.last_cheat = at
            return at
        at = max(self.last, at)
        self.last = at
        if b'"grab"' in data or b'"call"' in data:
            self.races.append((at, data))
        return at


async def pump(reader: asyncio.StreamReader, write: Callable[[bytes], None],
               close: Callable[[], None], link: Link) -> None:  # fmt: skip
    """Copy ``reader`` to ``write`` through ``link``'s delay, line by line."""
    loop = asyncio.get_running_loop()
    last_close = 0.0
    try:
        while True:
            data = await reader.readline()
            if not data:
                break
            at = link.when(loop.time(), data)
            last_close = max(last_close, at)
            loop.call_at(at, write, data)
    except (ConnectionError, OSError, ValueError):
        pass
    loop.call_at(max(last_close, loop.time() + link.delay), close)


def proxied_local(host: Any, up: Link, down: Link) -> tuple[asyncio.StreamReader, PipeWriter,
                                                             list[asyncio.Task]]:  # fmt: skip
    """A client's (reader, writer) to an in-process host, through the delay proxy:
    ``up`` carries client to host, ``down`` host to client."""
    host_reader, host_writer = host.open_local()  # the host's end, as a client sees it
    client_reader = asyncio.StreamReader()
    to_proxy = asyncio.StreamReader()
    client_writer = PipeWriter(to_proxy, "proxied")
    tasks = [
        asyncio.ensure_future(pump(to_proxy, host_writer.write, host_writer.close, up)),
        asyncio.ensure_future(pump(host_reader, client_reader.feed_data,
                                   client_reader.feed_eof, down)),
    ]  # fmt: skip
    return client_reader, client_writer, tasks


async def proxied_client(host: Any, name: str, up: Link, down: Link,
                         protocol: int = p.PROTOCOL_VERSION, **hello: Any) -> Client:  # fmt: skip
    """A :class:`~net.client.Client` (it answers probes itself) behind the proxy."""
    tasks: list[asyncio.Task] = []

    async def opener() -> tuple[asyncio.StreamReader, Any]:
        reader, writer, more = proxied_local(host, up, down)
        tasks.extend(more)
        return reader, writer

    client = Client(opener, p.Hello(protocol=protocol, name=name, **hello),
                    reconnect=False)  # fmt: skip
    await client._open()
    client.proxy_tasks = tasks  # type: ignore[attr-defined]
    return client


# -- scripted races -----------------------------------------------------------------------


@dataclass
class Race:
    """One race: the true press times (host clock), what arrived when, and the host's
    judged order (seats that got a nugget, in order)."""

    presses: dict[int, float]
    arrivals: dict[int, float] = field(default_factory=dict)
    judged: list[int] = field(default_factory=list)
    lags: dict[int, float] = field(default_factory=dict)  # the host's correction
    judged_at: dict[int, float] = field(default_factory=dict)

    def true_order(self) -> list[int]:
        return sorted(self.presses, key=self.presses.__getitem__)

    def arrival_order(self) -> list[int]:
        return sorted(self.arrivals, key=self.arrivals.__getitem__)

    def winner_right(self, order: list[int]) -> bool:
        return bool(order) and order[0] == self.true_order()[0]

    def order_right(self, order: list[int]) -> bool:
        nuggets = len(self.presses) - 1
        return order[:nuggets] == self.true_order()[:nuggets]


@dataclass
class Setting:
    delays: list[float]  # one-way, seconds, per player
    jitter: float = 0.0
    gap_min: float = 0.02
    gap_max: float = 0.3
    lag_cap: float = 0.15
    cheat: dict[int, float] = field(default_factory=dict)  # seat: extra probe hold
    seed: int = 0


async def run_races(setting: Setting, races: int) -> list[Race]:
    """``races`` grab races between scripted players behind the proxy (virtual time:
    run inside :func:`run_virtual`). Every player presses `g` at a scripted instant;
    the order of the instants is random, gaps between consecutive presses uniform in
    ``gap_min..gap_max``."""
    from net.host import Host

    rng = random.Random(setting.seed)
    host = Host()
    players = len(setting.delays)
    host.create_table("Race", "foolsgold", seats=players, seed=f"race-{setting.seed}",
                      lag_cap=setting.lag_cap, call_window=1.0, grab_timeout=5.0,
                      intermission=1.0)  # fmt: skip
    ups, clients = [], []
    for i, delay in enumerate(setting.delays):
        up = Link(delay, setting.jitter, random.Random(rng.random()), setting.cheat.get(i, 0.0))
        down = Link(delay, setting.jitter, random.Random(rng.random()))
        ups.append(up)
        clients.append(await proxied_client(host, f"P{i}", up, down))
    done: list[Race] = []
    current: list[Race | None] = [None]
    finished = asyncio.Event()
    loop = asyncio.get_running_loop()
    clock = host.clock

    def press(i: int) -> None:
        asyncio.ensure_future(clients[i].send(fm.GRAB()))

    def new_race() -> None:
        order = list(range(players))
        rng.shuffle(order)
        t = clock.now() + 1.0  # after a few more probes
        presses = {}
        for seat in order:
            presses[seat] = t
            t += rng.uniform(setting.gap_min, setting.gap_max)
        for up in ups:
            up.races.clear()
        race = Race(presses)
        current[0] = race
        for seat, at in presses.items():
            clock.call_at(at, lambda seat=seat: press(seat))

    def end_race(view: Any) -> None:
        race = current[0]
        if race is None:
            return
        current[0] = None
        epoch = loop.time() - clock.now()
        for seat, up in enumerate(ups):
            grabs = [at for at, line in up.races if b'"grab"' in line]
            if grabs:
                race.arrivals[seat] = grabs[0] - epoch
        lags = list(view.grab_lags or []) or [0.0] * len(view.grabbed)
        for (seat, at), lag in zip(view.grabbed, lags, strict=True):
            race.judged.append(seat)
            race.lags[seat] = lag
            race.judged_at[seat] = at
        done.append(race)
        if len(done) >= races:
            finished.set()

    async def play(i: int) -> None:
        client = clients[i]
        await client.send(p.Ready())
        async for message in client:
            if finished.is_set():
                return
            if isinstance(message, p.Over):
                await client.send(p.Ready())  # everyone ready: the next match starts
            if i != 0:
                continue
            if isinstance(message, p.State):
                kinds = {p.message_type(e) for e in message.events}
                if "round_started" in kinds:
                    new_race()
                elif "race_over" in kinds:
                    end_race(message.view)

    tasks = [asyncio.ensure_future(play(i)) for i in range(players)]
    await finished.wait()
    for task in tasks:
        task.cancel()
    for client in clients:
        await client.close()
    await host.close()
    return done


# -- the TCP proxy, for a walk by hand ------------------------------------------------------


async def serve_tcp(listen: int, host: str, port: int, delay: float, jitter: float) -> None:
    """Accept on ``listen`` and forward each connection to ``host:port`` with ``delay``
    (and ``jitter``) each way."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(host, port)
        seed = random.Random()
        await asyncio.gather(
            pump(reader, up_writer.write, up_writer.close, Link(delay, jitter, seed)),
            pump(up_reader, writer.write, writer.close, Link(delay, jitter, seed)),
        )

    server = await asyncio.start_server(handle, "127.0.0.1", listen)
    print(f"delay proxy: 127.0.0.1:{listen} -> {host}:{port}, {delay * 1000:.0f} ms each way")
    async with server:
        await server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", type=int, required=True)
    parser.add_argument("--to", required=True, help="host:port")
    parser.add_argument("--delay", type=float, default=0.08, help="one way, seconds")
    parser.add_argument("--jitter", type=float, default=0.0)
    args = parser.parse_args(argv)
    host, _, port = args.to.rpartition(":")
    asyncio.run(serve_tcp(args.listen, host, int(port), args.delay, args.jitter))


if __name__ == "__main__":
    main()
