"""Storm, long version: random drops (an abort, or half a frame then an abort) and
token reconnects, plus forged tokens, during 200 concurrent games against a host
process on the real clock.

Most tables play Gold Nuggets with a short supply (two scripted clients and a bot
client each); some play Fool's Gold (three bot clients, whole matches, which can run
long). Figures: games finished, drops, reconnects, forged tokens refused, and the
seat checks: every client keeps its one seat through every reconnect, the clients of a
table hold distinct seats, the host's seat list at the end is the one from the start,
and all clients of a table saw the same result. The CI version is
``tests/hardening/test_storm.py``.

    .venv/bin/python bench/stress_storm.py [--games 200] [--foolsgold 10] [--minutes 15]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net import protocol as p  # noqa: E402
from net.client import Client  # noqa: E402
from net.protocol import Code  # noqa: E402
from tests.hardening.harness import Raw, rss_kib  # noqa: E402
from tests.hardening.hostproc import HostProcess  # noqa: E402
from tests.hardening.test_storm import Player  # noqa: E402


async def run(args) -> int:
    rng = random.Random(args.seed)
    nuggets_tables = args.games - args.foolsgold
    tables = [
        {"name": f"N{i}", "game": "nuggets", "seats": 3, "supply": args.supply, "grace": 5.0,
         "seed": f"storm-{i}"}
        for i in range(nuggets_tables)
    ] + [
        {"name": f"F{i}", "game": "foolsgold", "seats": 3, "grace": 5.0, "seed": f"fg-{i}"}
        for i in range(args.foolsgold)
    ]  # fmt: skip
    host = HostProcess({"config": {"max_connections": 4096}, "tables": tables})
    players: list[Player] = []
    for table in tables:
        for s in range(table["seats"]):
            kind = "script" if table["game"] == "nuggets" and s < 2 else "bot"
            client = await Client.connect(
                "127.0.0.1", host.port, f"{table['name']}p{s}", table=table["name"]
            )
            players.append(Player(client, table["name"], kind))
    names = {t["name"]: [f"{t['name']}p{s}" for s in range(t["seats"])] for t in tables}
    start = time.perf_counter()
    tasks = {asyncio.create_task(player.play()): player for player in players}
    drops = forged = refused = 0
    deadline = start + args.minutes * 60
    while not all(t.done() for t in tasks) and time.perf_counter() < deadline:
        await asyncio.sleep(args.every)
        live = [pl for pl in players if pl.over is None and pl.client._writer is not None]
        # the same chance of a drop for every player still playing, however many are left
        for pl in live:
            if rng.random() >= args.drop * args.every:
                continue
            victim = pl.client
            if rng.random() < 0.5:
                victim._writer.write(b'{"type":"ke')
            victim._writer.transport.abort()
            drops += 1
        if rng.random() < 0.05:
            raw = await Raw.open(host.port)
            member = f"{rng.randint(1, len(players))}.{'A' * 32}"
            await raw.send(p.Hello(protocol=3, name="Mallory", token=member))
            message = await raw.recv()
            forged += 1
            refused += isinstance(message, p.Error) and message.code == Code.BAD_TOKEN
            raw.close()
    elapsed = time.perf_counter() - start
    failures = [t.exception() for t in tasks if t.done() and t.exception() is not None]
    unfinished = sorted({pl.table for pl in players if pl.over is None})
    # the host's own seat lists, seen by a spectator at each table
    seat_lists_ok = 0
    for table in tables:
        raw = await Raw.open(host.port)
        info = (await raw.hello("Auditor", table=table["name"], spectate=True)).table
        seat_lists_ok += [s.name for s in info.seats] == names[table["name"]]
        if table["name"] in unfinished:
            mine = [pl for pl in players if pl.table == table["name"]]
            print(
                f"{table['name']} unfinished: host phase {info.phase}; clients' results "
                f"{[bool(pl.over) for pl in mine]}; last items {[pl.last[-3:] for pl in mine]}"
            )
        if info.phase == "playing":  # still going: how far?
            state = await raw.expect(p.State)
            print(
                f"{table['name']} still playing: round {state.view.get('round_no')}, "
                f"scores {state.view.get('scores')}"
            )
        raw.close()
    per_table_ok = 0
    seats_kept = sum(1 for pl in players if set(pl.seats) == {pl.seats[0]})
    for table in tables:
        mine = [pl for pl in players if pl.table == table["name"]]
        distinct = sorted(pl.seats[0] for pl in mine) == list(range(len(mine)))
        results = {(tuple(pl.over.winners), tuple(pl.over.scores)) for pl in mine if pl.over}
        per_table_ok += distinct and len(results) == 1 and all(pl.over for pl in mine)
    errors = {}
    for pl in players:
        for code in pl.errors:
            errors[code] = errors.get(code, 0) + 1
    rss = rss_kib(host.pid) / 1024
    alive = host.alive
    for task in tasks:
        task.cancel()
    for pl in players:
        await pl.client.close()
    host.stop()
    reconnects = sum(pl.reconnects for pl in players)
    finished = len(tables) - len(unfinished)
    print(f"{len(tables)} concurrent games ({nuggets_tables} Gold Nuggets with supply "
          f"{args.supply}, {args.foolsgold} Fool's Gold matches), {len(players)} clients, "
          f"{elapsed:.0f} s")  # fmt: skip
    print(f"games finished: {finished}/{len(tables)}; unfinished: {unfinished or 'none'}")
    print(
        f"drops: {drops} (each player about once every {1 / args.drop:.0f} s of play, "
        f"half of them mid-frame); "
        f"token reconnects: {reconnects}; forged tokens refused: {refused}/{forged}"
    )
    print(f"clients that kept their one seat through every reconnect: {seats_kept}/"
          f"{len(players)}; tables with distinct seats, one result seen by all: "
          f"{per_table_ok}/{len(tables)}; host seat lists unchanged: {seat_lists_ok}/"
          f"{len(tables)}")  # fmt: skip
    print(f"errors the clients got: {errors or 'none'}; client failures: {len(failures)}")
    for failure in failures[:3]:
        print("   ", repr(failure)[:300])
    print(f"host alive: {alive}, RSS {rss:.1f} MiB")
    ok = (
        alive
        and finished == len(tables)
        and not failures
        and seats_kept == len(players)
        and per_table_ok == len(tables)
        and seat_lists_ok == len(tables)
        and refused == forged
    )
    print("RESULT:", "nothing lost" if ok else "FAILURES")
    return 0 if ok else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--foolsgold", type=int, default=10)
    parser.add_argument("--supply", type=int, default=30)
    parser.add_argument("--every", type=float, default=0.05, help="storm tick, seconds")
    parser.add_argument("--drop", type=float, default=1 / 30, help="drops per player-second")
    parser.add_argument("--minutes", type=float, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
