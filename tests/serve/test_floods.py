"""A flood of lines at every new seat costs bounded memory and the others nothing
(issue 56, item 1), on a real ``motherlode serve``: four attackers, each a process of
its own (``tests.serve.floods``), flood the plain page, ``ssh HOST plain``, the app
page and ``join --plain`` at once for 20 s with 990-character lines, while Zed, a
player at the table, keeps asking the host the time (ping, pong).

Each seat's app stays under 100 MiB resident the whole time (2be58e5: a plain seat's
app reached 242 MiB in 3 s), the server's own process grows by less than 24 MiB, and
Zed's typical round trip stays within twice the quiet window's. The round trips'
figures measured alone on a quiet machine are in docs/RELIABILITY.md."""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

import pytest

from net import protocol as p
from tests.net.helpers import Raw
from tests.serve.helpers import ServeProcess, children_of
from tests.waiting import until

pytestmark = pytest.mark.timeout(240)

FLOOD = 20.0
ROOT = Path(__file__).resolve().parents[2]


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        for child in children_of(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


async def _pings(zed: Raw, seconds: float) -> list[float]:
    took, n = [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        n += 1
        start = time.monotonic()
        await zed.send(p.Ping(id=n))
        await zed.expect(p.Pong, lambda m, n=n: m.id == n)
        took.append((time.monotonic() - start) * 1000)
        await asyncio.sleep(0.05)  # a person's pace: Zed asks 20 times a second
    return sorted(took)


def _p99(values: list[float]) -> float:
    return values[min(len(values) - 1, int(len(values) * 0.99))]


@pytest.mark.slow
async def test_a_flood_at_every_new_seat_costs_bounded_memory_and_the_others_nothing(
        tmp_path):
    serve = await ServeProcess.start(tmp_path / "serve", "--web", "0", "--game", "nuggets")
    flooders: list[asyncio.subprocess.Process] = []
    try:
        zed = await Raw.open(serve.game_port)
        await zed.hello("Zed")
        for kind, port in (("plain-page", serve.web_port), ("ssh-plain", serve.ssh_port),
                           ("app-page", serve.web_port), ("join-plain", serve.game_port)):
            flooders.append(await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.serve.floods", kind, str(port), str(FLOOD),
                cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE))
        join_app = 0
        for flooder in flooders:  # every attacker seated, its app started
            assert flooder.stdout is not None
            said = (await asyncio.wait_for(flooder.stdout.readline(), 90)).decode().strip()
            if said.isdigit():
                join_app = int(said)
                said = (await asyncio.wait_for(flooder.stdout.readline(), 90)).decode()
            assert said.strip() == "ready", said
        quiet = await _pings(zed, 5.0)  # the apps all there, none flooded yet
        serve_before = rss_mib(serve.proc.pid)
        peaks: dict[int, float] = {}
        sampling = True

        def sampled() -> bool:
            """A sample (every half second: RSS between samples is not asked, only that
            no sample passes the bound); True once the flood is over."""
            for pid in [*descendants(serve.proc.pid), join_app]:
                peaks[pid] = max(peaks.get(pid, 0.0), rss_mib(pid))
            return not sampling

        def sample():
            return until(sampled, "the flood's end", FLOOD + 120, step=0.5)

        for flooder in flooders:
            assert flooder.stdin is not None
            flooder.stdin.write(b"go\n")
        sampler = asyncio.ensure_future(sample())
        flooded = await _pings(zed, FLOOD)
        sampling = False
        await sampler
        sent = []
        for flooder in flooders:
            assert flooder.stdout is not None
            out = (await asyncio.wait_for(flooder.stdout.read(), 60)).decode().split()
            sent.append((int(out[-1]), out[0]))
        serve_after = rss_mib(serve.proc.pid)
    finally:
        for flooder in flooders:
            if flooder.returncode is None:
                flooder.kill()
                await flooder.wait()
        await serve.stop()
    # every flood was one: at least the burst of 16 KiB went in at each seat
    assert all(n > 16384 for n, _ in sent), sent
    apps = {pid: mib for pid, mib in peaks.items() if pid != serve.proc.pid}
    assert len(apps) >= 4, apps  # the warm parent, and an app a seat (or more)
    assert max(apps.values()) < 100, apps
    # the doors hold what a flood sends only up to its window (SSH: 2 MiB a channel;
    # 2be58e5 held all of it: +39 MiB in 20 s from ssh plain alone)
    assert serve_after - serve_before < 24, (serve_before, serve_after)
    quiet_p99, flood_p99 = _p99(quiet), _p99(flooded)
    quiet_p50, flood_p50 = statistics.median(quiet), statistics.median(flooded)
    said = (f"Zed's round trips: quiet p50 {quiet_p50:.2f} p99 {quiet_p99:.2f} ms; flooded "
            f"p50 {flood_p50:.2f} p99 {flood_p99:.2f} ms; apps {apps}; the server "
            f"{serve_before:.0f} -> {serve_after:.0f} MiB; the floods {sent}")
    print(said)
    # the typical round trip (p50) stays within twice the quiet one: a flood costs Zed
    # nothing (loopback's quiet p50 is a fraction of a millisecond: 2 ms of slack for a
    # machine running other tests beside this one); the slowest (p99) says as much of
    # the machine's load as of the flood, so here it only has to stay under a second (no
    # stall): the p99 ratio is bench/attack_doors.py's, taken alone on a quiet machine
    assert flood_p50 < 2 * quiet_p50 + 2.0, said
    assert flood_p99 < 1000.0, said
    assert "Traceback" not in serve.output
