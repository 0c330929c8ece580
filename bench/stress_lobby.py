"""kill -9 a real host outside a game and mid-round, over and over; print the figures.

The long version of ``tests/hardening/test_lobby_resume.py`` and
``test_restored_wait.py``, on the crash tests' host process
(``tests/hardening/crash_host.py``: saves on, grace 600 s, clock 10x).

Lobby runs: people (raw TCP clients) join, leave, get ready and not, the owner
changes settings, in a seeded random order; the host is killed with SIGKILL after a
seeded number of those steps, restarted with ``--resume``, and every token still held
must take its own seat back (same seat number, ``resumed``), every token given up must
get ``bad_token``, and the owner and settings must be as before the kill.

Wait runs: a Fool's Gold round with a bot and two scripted passers, killed after a
seeded number of moves; after ``--resume`` the players come back one by one after
seeded delays, and the save must not gain a move before the last one is back.

    .venv/bin/python bench/stress_lobby.py --lobbies 30 --waits 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net import protocol as p  # noqa: E402
from net.client import Client  # noqa: E402
from tests.hardening.crashes import _start_host, free_port, passer, saved_moves  # noqa: E402
from tests.hardening.harness import Raw  # noqa: E402

SPEED = 10.0


async def _kill(host) -> None:
    host.proc.kill()
    await host.proc.wait()


async def lobby_run(directory: Path, seed: int, figures: dict) -> None:
    rng = random.Random(f"lobby/{seed}")
    port = free_port()
    options = {"game": "foolsgold", "seed": f"l{seed}", "speed": SPEED, "humans": 7,
               "bots": 1}  # fmt: skip
    host = await _start_host(directory, port, resume=False, kill_at=(0, ""), options=options)
    seated: dict[str, tuple[Raw, p.Welcome]] = {}
    gone: list[str] = []
    settings = None
    try:
        for step in range(rng.randint(3, 14)):
            roll = rng.random()
            if (roll < 0.45 or not seated) and len(seated) < 6:  # never full: no start
                name = f"P{step}"
                raw = await Raw.open(port)
                seated[name] = (raw, await raw.hello(name))
            elif roll < 0.65 and seated:
                name = rng.choice(sorted(seated))
                raw, welcome = seated.pop(name)
                await raw.send(p.Leave())
                await raw.closed()
                gone.append(welcome.token)
            elif roll < 0.85:
                raw, _ = seated[rng.choice(sorted(seated))]
                await raw.send(p.Ready(ready=rng.random() < 0.5))
            else:
                supply = rng.randint(1, 77)
                for raw, _ in seated.values():
                    await raw.send(p.Configure(game={"supply": supply},
                                               grace=rng.choice([300.0, 600.0])))
            # every connection's latest welcome says its seat (they move when one leaves)
            for name, (raw, welcome) in list(seated.items()):
                await raw.send(p.Ping(id=step))
                while True:
                    message = await asyncio.wait_for(raw.recv(), 10)
                    if isinstance(message, p.Welcome):
                        welcome = message
                    elif isinstance(message, p.TableUpdate):
                        settings = message.table
                    elif isinstance(message, p.Pong) and message.id == step:
                        break
                seated[name] = (raw, welcome)
        await _kill(host)
        figures["kills"] += 1
        began = time.monotonic()
        host = await _start_host(directory, port, resume=True, kill_at=(0, ""), options=options)
        figures["restart"].append(time.monotonic() - began)
        for name, (_, welcome) in seated.items():
            raw = await Raw.open(port)
            back = await asyncio.wait_for(raw.hello(name, token=welcome.token), 10)
            figures["tokens"] += 1
            same = back.resumed and back.seats == welcome.seats
            same = same and back.table.settings == settings.settings
            same = same and back.table.owner == settings.owner
            figures["seats_back"] += same
            if not same:
                print(f"lobby {seed}: {name} came back as {back.seats} (resumed "
                      f"{back.resumed}), had {welcome.seats}; owner {back.table.owner} was "
                      f"{settings.owner}; settings {back.table.settings} were "
                      f"{settings.settings}", flush=True)
            raw.close()
        for token in gone:
            raw = await Raw.open(port)
            await raw.send(p.Hello(protocol=3, name="x", token=token))
            figures["given_up"] += 1
            figures["given_up_refused"] += (await raw.expect(p.Error)).code == "bad_token"
            raw.close()
    finally:
        if host.proc.returncode is None:
            await _kill(host)


async def wait_run(directory: Path, seed: int, figures: dict) -> None:
    rng = random.Random(f"wait/{seed}")
    port = free_port()
    options = {"game": "foolsgold", "seed": f"w{seed}", "speed": SPEED, "humans": 2,
               "bots": 1}  # fmt: skip
    host = await _start_host(directory, port, resume=False, kill_at=(0, ""), options=options)
    tasks: list[asyncio.Task] = []
    try:
        people = [await Client.connect("127.0.0.1", port, n, reconnect=False, timeout=5.0)
                  for n in ("Ann", "Bob")]  # fmt: skip
        tokens = [c.welcome.token for c in people]
        tasks = [asyncio.create_task(passer(c)) for c in people]
        watcher = await Raw.open(port)
        await watcher.hello("watch", spectate=True)
        for _ in range(rng.randint(3, 20)):
            await asyncio.wait_for(watcher.expect(p.State, lambda s: s.events), 20)
        await _kill(host)
        await asyncio.gather(*tasks, return_exceptions=True)
        figures["wait_kills"] += 1
        before = saved_moves(directory)
        host = await _start_host(directory, port, resume=True, kill_at=(0, ""), options=options)
        waited = 0.0
        order = [0, 1] if rng.random() < 0.5 else [1, 0]
        people = []
        for i in order:
            delay = rng.uniform(0.2, 3.0)  # 2-30 s of the host's time
            await asyncio.sleep(delay)
            waited += delay
            figures["moves_while_waiting"] += saved_moves(directory) - before
            before = saved_moves(directory)
            name = ("Ann", "Bob")[i]
            people.append(await Client.connect("127.0.0.1", port, name, token=tokens[i],
                                               reconnect=False))  # fmt: skip
        figures["waited"].append(waited * SPEED)
        tasks = [asyncio.create_task(passer(c)) for c in people]
        watcher = await Raw.open(port)
        await watcher.hello("watch", spectate=True)
        await asyncio.wait_for(watcher.expect(p.State, lambda s: s.events), 30)
        figures["went_on"] += saved_moves(directory) > before
    finally:
        for task in tasks:
            task.cancel()
        if host.proc.returncode is None:
            await _kill(host)


async def main(args: argparse.Namespace) -> int:
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    figures: dict = {"kills": 0, "tokens": 0, "seats_back": 0, "given_up": 0,
                     "given_up_refused": 0, "restart": [], "wait_kills": 0,
                     "moves_while_waiting": 0, "waited": [], "went_on": 0}  # fmt: skip
    began = time.monotonic()
    for seed in range(args.lobbies):
        with tempfile.TemporaryDirectory(dir=base) as name:
            await lobby_run(Path(name), seed, figures)
    for seed in range(args.waits):
        with tempfile.TemporaryDirectory(dir=base) as name:
            await wait_run(Path(name), seed, figures)
    restart = sorted(figures["restart"]) or [0.0]
    print(f"lobby kills: {figures['kills']}; tokens held at the kill: {figures['tokens']}, "
          f"back to their own seat with owner and settings: {figures['seats_back']}; "
          f"tokens given up: {figures['given_up']}, refused after the resume: "
          f"{figures['given_up_refused']}; restart to listening p50 "
          f"{statistics.median(restart) * 1000:.0f} ms, max {restart[-1] * 1000:.0f} ms")
    waited = figures["waited"] or [0.0]
    print(f"mid-round kills: {figures['wait_kills']}; host seconds waited for the players: "
          f"{min(waited):.0f}-{max(waited):.0f}; moves made before everyone was back: "
          f"{figures['moves_while_waiting']}; games that went on after: {figures['went_on']}")
    print(f"{time.monotonic() - began:.0f} s")
    ok = (figures["seats_back"] == figures["tokens"]
          and figures["given_up_refused"] == figures["given_up"]
          and figures["moves_while_waiting"] == 0
          and figures["went_on"] == figures["wait_kills"])  # fmt: skip
    print("RESULT:", "nothing lost" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lobbies", type=int, default=30)
    parser.add_argument("--waits", type=int, default=10)
    sys.exit(asyncio.run(main(parser.parse_args())))
