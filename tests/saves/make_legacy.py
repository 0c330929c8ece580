"""Make the old save files of ``tests/saves/legacy/`` (run once, with the file-based
``net.persist`` of commit 8301f12, the last before the SQLite saves):

    git worktree add /tmp/old 8301f12 && cd /tmp/old && \
        PYTHONPATH=. python <this file> <out dir>

It plays seeded games on a fake clock and leaves, in <out dir>, what a user's data
directory held: a LAN table in the lobby, a LAN game in play with a history file, a
hot-seat game, a solo game, finished and abandoned games; then a version 2 and a
version 1 copy made by hand the way those versions differ (v2: no ``clock``; v1: no
``history``, the whole log inline).
"""

import asyncio
import json
import shutil
import sys
from pathlib import Path

from net import persist
from net import protocol as p
from net.clock import FakeClock
from net.host import Host
from tests.hardening.harness import Player, drive


async def lan(root: Path) -> None:
    clock = FakeClock(10.0)
    store = persist.Store(root / "tables", root / "games", spill=4)
    host = Host(clock=clock, store=store)
    await host.start("127.0.0.1", 0)
    table = host.create_table("Saloon", "nuggets", seats=3, bots=1, seed="legacy-lan",
                              supply=30, bot_pace=0.5)
    ann = await Player.join(host.port, "Ann")
    bob = await Player.join(host.port, "Bob")
    await ann.raw.send(p.Ready())
    await bob.raw.send(p.Ready())
    play = [asyncio.create_task(ann.play()), asyncio.create_task(bob.play())]
    await drive(clock, lambda: table.moves >= 14)
    for task in play:
        task.cancel()
    await host.close()  # a game in play stays saved


async def bots(root: Path, kind: str, game: str, seed: str, finish: bool) -> None:
    clock = FakeClock(5.0)
    store = persist.Store(root / kind, root / "games", lobbies=False)
    host = Host(clock=clock, store=store)
    seats = 3
    table = host.create_table(f"{kind}-{game}", game, seats=seats, bots=seats, seed=seed,
                              bot_pace=0.2, supply=12)
    host.start_game(table)
    if finish:
        await drive(clock, lambda: table.phase == "over")
    else:
        await drive(clock, lambda: table.moves >= 10)
    await host.close()


async def lobby_only(root: Path) -> None:
    """A LAN table in the lobby, as a crash leaves it (a clean close deletes it)."""
    clock = FakeClock(7.0)
    store = persist.Store(root / "tables", root / "games")
    host = Host(clock=clock, store=store)
    await host.start("127.0.0.1", 0)
    table = host.create_table("Parlour", "foolsgold", seats=4, seed="legacy-lobby")
    cat = await Player.join(host.port, "Cat <b>[red]")
    await cat.raw.send(p.Configure(grace=45.0))
    await drive(clock, lambda: table.settings.grace == 45.0)
    kept = {f: f.read_bytes() for f in (root / "tables").glob("*.json")}
    await host.close()
    for path, data in kept.items():
        path.write_bytes(data)


async def main(out: Path) -> None:
    v3 = out / "v3"
    if v3.exists():
        shutil.rmtree(v3)
    await lan(v3)
    await lobby_only(v3)
    await bots(v3, "hotseat", "nuggets", "legacy-hotseat", finish=False)
    await bots(v3, "solo", "foolsgold", "legacy-solo", finish=False)
    await bots(v3, "solo", "nuggets", "legacy-done", finish=True)
    await bots(v3, "solo", "foolsgold", "legacy-fg-done", finish=True)
    # an abandoned game
    store = persist.Store(v3 / "solo", v3 / "games", lobbies=False)
    for path in store.unfinished():
        if "foolsgold" in path.name:
            store.abandon(path)
    await bots(v3, "solo", "foolsgold", "legacy-solo", finish=False)
    # version 2: the live LAN game with its history, without the table clock
    v2 = out / "v2"
    if v2.exists():
        shutil.rmtree(v2)
    (v2 / "tables").mkdir(parents=True)
    for path in (v3 / "tables").glob("*.json"):
        doc = json.loads(path.read_bytes())
        if doc["status"] != "playing":
            continue
        doc["version"] = 2
        doc.pop("clock", None)
        (v2 / "tables" / path.name).write_text(json.dumps(doc))
        shutil.copy(path.with_suffix(".history"), v2 / "tables" / path.with_suffix(".history").name)
    # version 1: a finished game with the whole log inline
    v1 = out / "v1"
    if v1.exists():
        shutil.rmtree(v1)
    (v1 / "games").mkdir(parents=True)
    for path in (v3 / "games").glob("*.json"):
        doc = json.loads(path.read_bytes())
        if doc["status"] == "finished" and doc["table"]["game"] == "nuggets":
            doc["version"] = 1
            doc.pop("history", None)
            doc.pop("clock", None)
            (v1 / "games" / path.name).write_text(json.dumps(doc))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
