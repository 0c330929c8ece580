"""Scripted players and small helpers for the network tests."""

from __future__ import annotations

import asyncio

import nuggets
from net import protocol as p
from net.client import Client, Disconnected


def greedy_nuggets(view: dict) -> p.Roll | p.Keep | p.Stop:
    """A deterministic scripted Gold Nuggets player: keep the most dice, stop at 8."""
    if view["phase"] == "roll":
        return p.Roll()
    if view["phase"] == "keep":
        rolled = [nuggets.Face(f) for f in view["rolled"]]
        kept = [nuggets.Face(f) for f in view["kept"]]
        best = max(nuggets.legal_keeps(rolled, kept), key=lambda k: (len(k), [f.value for f in k]))
        return p.Keep(faces=[f.value for f in best])
    if view["phase"] == "choose" and view["kept_value"] < 8 and view["dice_left"] >= 3:
        return p.Roll()
    return p.Stop()


async def play_nuggets(client: Client, record: list | None = None) -> p.Over:
    """Play the client's seats with ``greedy_nuggets`` until the game is over."""
    async for message in client:
        if record is not None:
            record.append(message)
        if isinstance(message, p.State) and message.seat in client.seats:
            view = message.view
            if not view["over"] and view["current"] == message.seat:
                action = greedy_nuggets(view)
                action.seat = message.seat if len(client.seats) > 1 else None
                await client.send(action)
        elif isinstance(message, p.Over):
            return message
        elif isinstance(message, Disconnected):
            raise AssertionError(f"disconnected: {message}")
    raise AssertionError("stream ended")


async def next_of(client: Client, kind: type, *, where=lambda m: True, seen: list | None = None):
    """Read the client's stream until a message of ``kind`` that satisfies ``where``."""
    while True:
        message = await client.recv()
        if seen is not None:
            seen.append(message)
        if isinstance(message, kind) and where(message):
            return message
        if isinstance(message, Disconnected) and kind is not Disconnected:
            raise AssertionError(f"disconnected while waiting for {kind.__name__}: {message}")


async def settle() -> None:
    """Let the event loop run every ready callback (in-process work, not time)."""
    for _ in range(50):
        await asyncio.sleep(0)
