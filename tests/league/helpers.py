"""The league tests' shared parts: a client written from docs/PROTOCOL.md alone.

:class:`DocClient` uses only what the document says: NDJSON over TCP, the hello with
``protocol`` 4 and ``key`` (raw Ed25519 public key, padded base64), the
``challenge``'s nonce, the signed bytes ``b"motherlode-hello-4\\x00" + nonce + name``,
the ``prove``. It uses the ``cryptography`` package directly, not Motherlode's
``net.identity``. :func:`nc_game` plays the document's own ``nc`` game (seed nc-0,
supply 5: the client wins in one turn) at a new table."""

from __future__ import annotations

import asyncio
import base64
import json

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


class DocClient:
    """A client written from docs/PROTOCOL.md."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer

    async def send(self, obj):
        self.writer.write(json.dumps(obj).encode() + b"\n")
        await self.writer.drain()

    async def next(self, kind):
        while True:
            line = await asyncio.wait_for(self.reader.readline(), 10)
            assert line, f"closed while waiting for {kind}"
            data = json.loads(line)
            if data["type"] == kind:
                return data
            assert data["type"] != "error", data

    async def hello(self, name, key, table):
        hello = {"type": "hello", "protocol": 4, "name": name, "table": table}
        if key is not None:
            public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
            hello["key"] = base64.b64encode(public).decode()
        await self.send(hello)
        if key is not None:
            nonce = base64.b64decode((await self.next("challenge"))["nonce"])
            signature = key.sign(b"motherlode-hello-4\x00" + nonce + name.encode("utf-8"))
            await self.send({"type": "prove", "signature": base64.b64encode(signature).decode()})
        return await self.next("welcome")

    async def play_the_nc_game(self):
        await self.send({"type": "add_bot"})
        await self.send({"type": "start"})
        await self.next("started")
        await self.send({"type": "move", "move": "roll"})
        await self.send({"type": "move", "move": "keep", "args": {"faces": ["nugget"] * 5}})
        await self.send({"type": "move", "move": "stop"})
        return await self.next("over")


async def nc_game(host, table, name, key):
    host.create_table(table, "nuggets", seats=2, seed="nc-0", supply=5, first_player=0,
                      bot_pace=0.0)
    client = DocClient(*await asyncio.open_connection("127.0.0.1", host.port))
    welcome = await client.hello(name, key, table)
    over = await client.play_the_nc_game()
    assert over["winners"] == [0]
    return client, welcome
