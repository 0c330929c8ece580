"""Done when: a client written from docs/PROTOCOL.md alone ("Identity") proves its
key and is rated; the same name without the key is a guest and moves no rating.

The client below uses only what the document says: NDJSON over TCP, the hello with
``protocol`` 4 and ``key`` (raw Ed25519 public key, padded base64), the ``challenge``'s
nonce, the signed bytes ``b"motherlode-hello-4\\x00" + nonce + name``, the ``prove``.
It uses the ``cryptography`` package directly, not Motherlode's ``net.identity``. The
game is the document's own ``nc`` game (seed nc-0, supply 5: Ann wins in one turn)."""

from __future__ import annotations

import asyncio
import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from net.clock import FakeClock
from net.host import Host
from net.league.standings import standings
from net.saves import Store
from tests.league.helpers import DocClient, nc_game

pytestmark = pytest.mark.timeout(60)


async def test_a_key_proved_from_the_document_is_rated_and_a_guest_moves_nothing(tmp_path):
    store = Store(tmp_path, "tables")
    host = Host(clock=FakeClock(5.0), store=store)
    await host.start("127.0.0.1", 0)
    try:
        key = Ed25519PrivateKey.generate()
        client, welcome = await nc_game(host, "Saloon", "Ann", key)
        assert welcome["table"]["seats"][0]["guest"] is False
        rated = await client.next("rated")
        assert rated == {"type": "rated", "game": "nuggets", "changes": [
            {"seat": 0, "name": "Ann", "before": None, "after": None, "games": 1,
             "provisional": True},
            {"seat": 1, "name": "Normal bot", "before": None, "after": None, "games": 1,
             "provisional": True}]}
        rated_once = store.league(lambda c: [(s.name, s.games, s.wins, s.skill)
                                             for s in standings(c, "nuggets")])
        assert [line[:3] for line in rated_once] == [("Ann", 1, 1), ("Normal bot", 1, 0)]

        # the same name without the key: a guest, who plays, is saved, moves nothing
        guest, welcome = await nc_game(host, "Bar", "Ann", None)
        assert welcome["table"]["seats"][0]["guest"] is True
        assert store.league(lambda c: [(s.name, s.games, s.wins, s.skill)
                                       for s in standings(c, "nuggets")]) == rated_once
        games = store.league(lambda c: c.execute(
            "SELECT rated FROM league_games ORDER BY n").fetchall())  # fmt: skip
        assert games == [(1,), (0,)]  # saved, not rated
        # and with another key: a guest too (the name is pinned to the first)
        other, welcome = await nc_game(host, "Inn", "ann", Ed25519PrivateKey.generate())
        assert welcome["table"]["seats"][0]["guest"] is True
        # a signature that does not check is refused, and the connection closed
        host.create_table("Den", "nuggets", seats=2)
        bad = DocClient(*await asyncio.open_connection("127.0.0.1", host.port))
        public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        await bad.send({"type": "hello", "protocol": 4, "name": "Ann", "table": "Den",
                        "key": base64.b64encode(public).decode()})
        await bad.next("challenge")
        await bad.send({"type": "prove", "signature": base64.b64encode(b"x" * 64).decode()})
        line = json.loads(await asyncio.wait_for(bad.reader.readline(), 10))
        assert (line["type"], line["code"], line["ref"]) == ("error", "bad_field", "prove")
        assert await asyncio.wait_for(bad.reader.read(), 10) == b""
    finally:
        await host.close()
        store.close()
