"""The SSH door under abuse (docs/RELIABILITY.md, "ssh door").

    python bench/stress_ssh.py [--names 200] [--flood 80] [--slow 4]

One real ``motherlode serve`` process on loopback (``--max-sessions 16``), three phases:

- hostile user names: ``--names`` sessions, one after another, under names made of
  path tricks (``../``, ``/``, ``\\``, ``.``), NUL-free control-looking text that SSH
  lets through, Unicode (bidi, combining, wide), and 1,000-character names. Each must
  reach the menu under its cleaned name; afterwards every directory the server made
  must lie inside ``players/`` and nothing may appear beside it.
- session flood: ``--flood`` clients connect at once (keyed, distinct names, from 20
  loopback addresses: 20 machines). At most 16 may get an app, the others "busy" and
  exit 1, or are cut before login beyond 8 at once from one address; a new player
  right after gets in.
- slow readers: at a busy Fool's Gold table (SSH players drawing and passing), ``--slow``
  SSH clients that stop reading; the door must drop them while the readers' key-to-
  screen stays within a bound.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.serve.helpers import Player, ServeProcess  # noqa: E402

PIECES = ["../", "..", "/", "\\", ".", "~", "$(id)", "`id`", "%s", "%n", "*", "?",
          "\u202e", "\u2066", "e\u0301", "名前", "🦉", "\u3000", "-rf ", "'", '"', "<b>",
          "[bold]", "nul", "CON", "AUX", ".ssh/", "etc/passwd", " "]


def hostile_name(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return rng.choice(PIECES) * 400
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 8))) + \
        rng.choice(["", "x", "Ann"])


async def names_phase(tmp: Path, count: int) -> None:
    serve = await ServeProcess.start(tmp / "data")
    rng = random.Random(12)
    reached = refused_by_client = pinned = 0
    try:
        for _ in range(count):
            name = hostile_name(rng)
            try:
                player = await Player.connect(serve.ssh_port, name,
                                              asyncssh.generate_private_key("ssh-ed25519"))
            except (asyncssh.Error, ValueError):
                refused_by_client += 1  # asyncssh's own saslprep refuses some names
                continue
            await player.wait_for("You play as|belongs to another key", 30)
            if "belongs to another key" in player.text:
                pinned += 1  # it cleans to a name an earlier key holds: refused, exit 1
                assert await player.exit_status() == 1
            else:
                reached += 1
                player.send(b"\x11")
                assert await player.exit_status() == 0
            await player.close()
    finally:
        await serve.stop()
    players = (tmp / "data" / "serve" / "players").resolve()
    made = list(players.iterdir())
    outside = [p for p in made if p.resolve().parent != players]
    beside = sorted(p.name for p in (tmp / "data" / "serve").iterdir())
    print(f"hostile names: {reached} reached the menu and quit with 0, {pinned} cleaned to a "
          f"name another key holds (refused, exit 1), {refused_by_client} refused by the "
          f"client library; {len(made)} player directories, {len(outside)} outside "
          f"players/; the serve directory holds {beside}")


async def flood_phase(tmp: Path, count: int, machines: int = 20) -> None:
    serve = await ServeProcess.start(tmp / "flood")
    outcomes: dict[str, int] = {}
    start = time.perf_counter()

    async def one(i: int) -> str:
        try:
            player = await Player.connect(serve.ssh_port, f"f{i}",
                                          asyncssh.generate_private_key("ssh-ed25519"),
                                          source=f"127.0.0.{2 + i % machines}")
        except (asyncssh.Error, OSError) as error:
            return f"refused ({type(error).__name__})"
        try:
            for _ in range(600):
                if b"busy" in player.raw:
                    return "busy"
                if "Tables at this host" in player.text:
                    return "menu"
                await asyncio.sleep(0.05)
            return "nothing in 30 s"
        finally:
            await player.close()

    try:
        results = await asyncio.gather(*(one(i) for i in range(count)))
        took = time.perf_counter() - start
        for result in results:
            outcomes[result] = outcomes.get(result, 0) + 1
        await asyncio.sleep(1.0)
        after = time.perf_counter()
        newcomer = await Player.connect(serve.ssh_port, "after",
                                        asyncssh.generate_private_key("ssh-ed25519"))
        await newcomer.wait_for("Tables at this host|busy", 30)
        answer = time.perf_counter() - after
        got = "menu" if "Tables" in newcomer.text else "busy"
        await newcomer.close()
    finally:
        await serve.stop()
    print(f"flood: {count} at once from {machines} addresses in {took:.1f} s: {outcomes}; "
          f"a newcomer 1 s later got the {got} in {answer * 1000:.0f} ms; "
          f"server exit {serve.proc.returncode}")


async def slow_phase(tmp: Path, slow: int, presses: int) -> None:
    serve = await ServeProcess.start(tmp / "slow", "--game", "foolsgold", "--seats", "8",
                                     "--bots", "2")
    readers: list[Player] = []
    try:
        for i in range(3):
            player = await Player.connect(serve.ssh_port, f"r{i}",
                                          asyncssh.generate_private_key("ssh-ed25519"))
            await player.wait_for("Tables at this host", 30)
            player.send(b"\r")
            await player.wait_for(r"\(you\)", 30)
            readers.append(player)
        for player in readers[1:]:
            player.send(b"r")
        await asyncio.sleep(0.5)
        readers[0].send(b"s")
        await asyncio.sleep(2.0)

        async def press(player: Player) -> float:
            mark = len(player.raw)
            begin = time.perf_counter()
            player.send(b"?")
            while b"Everywhere" not in player.raw[mark:]:
                await asyncio.sleep(0.005)
                if time.perf_counter() - begin > 20:
                    raise TimeoutError("no help")
            took = time.perf_counter() - begin
            player.send(b"\x1b")
            await asyncio.sleep(0.6)
            return took

        baseline = [await press(readers[i % 3]) for i in range(presses)]
        sluggards = []
        for i in range(slow):
            conn = await asyncssh.connect(
                "127.0.0.1", serve.ssh_port, username=f"slow{i}", known_hosts=None,
                encoding=None, agent_path=None,
                client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
            proc = await conn.create_process(term_type="xterm", term_size=(400, 200))
            sluggards.append((conn, proc))
        for _conn, proc in sluggards:  # they watch the table, then stop reading at all
            proc.stdin.write(b"w")
        loaded = []
        for i in range(presses):
            loaded.append(await press(readers[i % 3]))
            for _conn, proc in sluggards:
                with contextlib.suppress(Exception):
                    proc.change_terminal_size(random.randint(300, 400), 200)
        dropped = 0
        for conn, _ in sluggards:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(conn.wait_closed(), 60)
                dropped += 1
        print(f"slow readers: {dropped}/{slow} dropped; the readers' key to screen p50 "
              f"{statistics.median(baseline) * 1000:.0f} -> {statistics.median(loaded) * 1000:.0f}"
              f" ms, max {max(baseline) * 1000:.0f} -> {max(loaded) * 1000:.0f} ms")
    finally:
        for player in readers:
            await player.close()
        await serve.stop()


async def main(options) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="motherlode-stress-ssh-"))
    os.environ["MOTHERLODE_STATE_DIR"] = str(tmp / "state")
    await names_phase(tmp, options.names)
    await flood_phase(tmp, options.flood)
    await slow_phase(tmp, options.slow, options.presses)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", type=int, default=200)
    parser.add_argument("--flood", type=int, default=80)
    parser.add_argument("--slow", type=int, default=4)
    parser.add_argument("--presses", type=int, default=20)
    asyncio.run(main(parser.parse_args()))
