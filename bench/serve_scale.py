"""A hall, not a room (issues 36 and 48): what players arriving at once at ``motherlode
serve`` wait for, and what each costs in memory, with the warm parent (``serve.warm``)
and without it (``serve --cold``), side by side in one run, through both doors.

    python bench/serve_scale.py [--arrivals 1,8,32] [--rounds 2] [--doors ssh,web]
                                [--ways warm,cold]

For each round, each way in turn (warm, cold, then cold, warm in the next round): a
fresh ``motherlode serve --web 0 --keep-detached 0`` on loopback (for warm: once its
parent is ready), then for each door and each count N, N players arrive at once, each
from a loopback address of its own (127.0.0.2, 127.0.0.3, ...: a machine each, so the
door's per-address start bucket does not refuse them). The server's whole-party bucket
(``Budgets.app_starts``, 16 at once) is raised to every arrival of the run, or a party
of 32 would be refused by design (and a door's party would wait on the refill after
the last door's).

- SSH: asyncssh, a pty each, a pyte screen; first screen = connect to the menu's text.
- Web: what a browser does, with aiohttp: the page (which sets the player cookie),
  then the websocket, speaking textual-serve's protocol (binary frames are the
  terminal, into a pyte screen); first screen = page request to the name prompt.

After each door's largest count, while every app is up: the proportional set size
(PSS, from ``/proc/PID/smaps_rollup``: shared pages split between the processes that
share them) of every app and of the warm parent, per player (the parent's share
included). Then everyone leaves, the apps end, and the next count arrives.

Figures: first screen median and max per door and count, and PSS per player, warm and
cold. Run it alone (load average under 0.5): start-up is CPU, so anything else running
is in the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import asyncssh
import pyte

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from serve.warm import WARM_PARENT  # noqa: E402
from tests.serve.helpers import Player, ServeProcess, children_of, pss_mib  # noqa: E402

MENU = "Tables at this host"
NAME_PROMPT = "Your name at the table"
# ``motherlode serve`` with the whole server's app-start bucket as big as the party (the
# host's start sets a fresh ledger of the default budgets: that one is kept instead)
PROGRAM = ("import sys; from net import budgets as b; "
           "b.set_ledger(b.Ledger(b.Budgets(app_starts=int(sys.argv[1])))); "
           "b.set_ledger = lambda new: None; "
           "from tui.cli import main; sys.exit(main(sys.argv[2:]))")


def descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        for child in children_of(todo.pop()):
            out.append(child)
            todo.append(child)
    return out


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def source(n: int) -> str:
    """The n-th player's loopback address: 127.0.0.2 and on."""
    n += 2
    return f"127.0.{n // 250}.{n % 250}" if n >= 250 else f"127.0.0.{n}"


class WebPlayer:
    """A browser as aiohttp: its cookie, its page, its tab's terminal in pyte."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse,
                 ) -> None:
        self.http = http
        self.ws = ws
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self._pump = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int, address: str) -> WebPlayer:
        http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(address, 0)),
            cookie_jar=aiohttp.CookieJar(unsafe=True))
        try:
            base = f"http://127.0.0.1:{port}"
            async with http.get(base + "/") as page:
                if page.status != 200:
                    raise RuntimeError(f"the page answered {page.status}")
            ws = await http.ws_connect(base + "/ws?width=80&height=24")
        except BaseException:
            await http.close()
            raise
        return cls(http, ws)

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for message in self.ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.stream.feed(message.data)
                    self.changed.set()
        self.changed.set()

    async def wait_for(self, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            self.changed.clear()
            if any(text in line for line in self.screen.display):
                return
            if self.ws.closed or time.monotonic() > deadline:
                raise AssertionError(f"no {text!r} in the tab:\n"
                                     + "\n".join(self.screen.display))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self._pump.cancel()
        await self.http.close()


async def arrive(door: str, serve: ServeProcess, count: int, keys: dict,
                 ) -> tuple[list[float], list]:
    async def one(n: int) -> tuple[float, object]:
        start = time.monotonic()
        if door == "ssh":
            name = f"p{count}x{n}"
            player = await Player.connect(serve.ssh_port, name, keys[name], size=(80, 24),
                                          source=source(n))
            await player.wait_for(MENU, timeout=180.0)
        else:
            player = await WebPlayer.open(serve.web_port, source(n))
            await player.wait_for(NAME_PROMPT, timeout=180.0)
        return time.monotonic() - start, player

    done = await asyncio.gather(*(one(n) for n in range(count)))
    return [t for t, _ in done], [p for _, p in done]


def apps_of(serve: ServeProcess) -> tuple[list[int], list[int]]:
    """Every process under ``serve`` but the warm parents (the apps, and the old way's
    shells: textual-serve starts a web app through ``/bin/sh -c``, which stays), and
    the warm parents."""
    every = descendants(serve.proc.pid)
    # a forked app's command line is its parent's: the parents are serve's own children
    parents = [p for p in children_of(serve.proc.pid) if WARM_PARENT in command_of(p)]
    return [p for p in every if p not in parents], parents


def players_apps(processes: list[int]) -> list[int]:
    return [p for p in processes if not command_of(p).startswith("/bin/sh ")]


async def until_no_apps(serve: ServeProcess, within: float = 60.0) -> None:
    deadline = time.monotonic() + within
    while apps_of(serve)[0]:
        if time.monotonic() > deadline:
            raise AssertionError(f"apps still running: {apps_of(serve)[0]}")
        await asyncio.sleep(0.1)


async def one_way(warm: bool, counts: list[int], doors: list[str], keys: dict) -> dict:
    data = Path(tempfile.mkdtemp(prefix="ml-scale-"))
    most = max(counts)
    args = ["--max-sessions", str(most + 4), "--keep-detached", "0", "--web", "0"]
    if not warm:
        args.append("--cold")
    # every arrival of this run may start at once: the bucket holds them all (one
    # door's party would otherwise leave the next door's waiting on the refill)
    starts = len(doors) * sum(counts) + 4
    serve = await ServeProcess.start(data, *args, timeout=60.0,
                                     program=(sys.executable, "-c", PROGRAM, str(starts)))
    figures: dict = {}
    try:
        if warm:
            await serve.wait_for_line("forked from a warm parent", 60.0)
        await until_no_apps(serve)
        for door in doors:
            for count in counts:
                times, players = await arrive(door, serve, count, keys)
                figures[door, count] = {"median": statistics.median(times), "max": max(times)}
                if count == most:
                    apps, parents = apps_of(serve)
                    if len(players_apps(apps)) != count:
                        raise AssertionError(f"{len(apps)} apps for {count} {door} players:"
                                             f"\n{serve.output[-2000:]}")
                    total = sum(pss_mib(p) for p in apps + parents)
                    # apps (+ the parent, + the old way's shells) per player
                    figures[door, "pss"] = total / count
                    figures[door, "serve_pss"] = pss_mib(serve.proc.pid)
                for player in players:
                    await player.close()
                await until_no_apps(serve)
    finally:
        await serve.stop()
    return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arrivals", default="1,8,32",
                        help="players arriving at once, counts in turn (default 1,8,32)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--doors", default="ssh,web", help="ssh, web or both (default)")
    parser.add_argument("--ways", default="warm,cold",
                        help="warm, cold or both (default): warm alone keeps the machine "
                        "quiet for the warm figures (the cold starts load it for a while)")
    args = parser.parse_args()
    try:
        counts = [int(c) for c in args.arrivals.split(",")]
    except ValueError:
        parser.error(f"--arrivals takes counts like 1,8,32, not {args.arrivals!r}")
    if not counts or min(counts) < 1 or max(counts) > 200:
        parser.error("--arrivals: each count from 1 to 200")
    doors = [d.strip() for d in args.doors.split(",") if d.strip()]
    if not doors or set(doors) - {"ssh", "web"}:
        parser.error(f"--doors takes ssh, web or ssh,web, not {args.doors!r}")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    ways = [w.strip() for w in args.ways.split(",") if w.strip()]
    if not ways or set(ways) - {"warm", "cold"}:
        parser.error(f"--ways takes warm, cold or warm,cold, not {args.ways!r}")
    names = [f"p{c}x{i}" for c in counts for i in range(c)]
    keys = {n: asyncssh.generate_private_key("ssh-ed25519") for n in names}
    results: dict[str, list[dict]] = {way: [] for way in ways}
    for round_ in range(args.rounds):
        order = ways if round_ % 2 == 0 else ways[::-1]
        for way in order:
            results[way].append(await one_way(way == "warm", counts, doors, keys))
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (rounds: {args.rounds}, "
          f"{' and '.join(ways)}{' interleaved' if len(ways) > 1 else ''})")
    for door in doors:
        for count in counts:
            for way in ways:
                medians = [r[door, count]["median"] for r in results[way]]
                maxes = [r[door, count]["max"] for r in results[way]]
                print(f"{door:3} {count:3} arriving, {way}: first screen median "
                      f"{' / '.join(f'{m:.2f}' for m in medians)} s, max "
                      f"{' / '.join(f'{m:.2f}' for m in maxes)} s")  # fmt: skip
        for way in ways:
            pss = [r[door, "pss"] for r in results[way]]
            serve_own = statistics.median(r[door, "serve_pss"] for r in results[way])
            print(f"{door:3} PSS per player ({max(counts)} players, the parent's share "
                  f"included), {way}: {' / '.join(f'{p:.1f}' for p in pss)} MiB (serve "
                  f"itself {serve_own:.1f} MiB)")  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
