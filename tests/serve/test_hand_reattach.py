"""A Fool's Gold hand after an SSH re-attach (issue 18): a real `motherlode serve`, its
PTY apps, two asyncssh clients with pyte screens of 80x24. The player who starts draws
and passes the card in slot 2; the line drops (no goodbye) and the same key comes
back: the hand's rows, every character and colour, are what they were."""

from __future__ import annotations

import asyncssh
import pytest

from tests.serve.helpers import Player, ServeProcess
from tests.waiting import until

pytestmark = pytest.mark.timeout(120)

MENU = "Tables at this host"


def _hand(player: Player) -> list[list[tuple[str, str]]] | None:
    """The hand's seven rows as (character, colour) pairs, or None when none shows."""
    screen = player.screen
    rows = screen.display
    top = next((y for y, line in enumerate(rows) if line.startswith(("╭─1", "┏━1"))), None)
    if top is None or top + 7 > len(rows):
        return None
    return [[(screen.buffer[y][x].data, screen.buffer[y][x].fg) for x in range(screen.columns)]
            for y in range(top, top + 7)]  # fmt: skip


def _text(hand) -> str:
    return "\n".join("".join(ch for ch, _ in row) for row in hand or [])


@pytest.mark.slow
async def test_a_reattached_ssh_player_sees_the_same_hand(tmp_path):
    serve = await ServeProcess.start(tmp_path / "data", "--game", "foolsgold", "--seats", "2",
                                     "--seed", "slots")  # fmt: skip
    players: list[Player] = []
    try:
        keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "bob")}
        for name in ("ann", "bob"):
            player = await Player.connect(serve.ssh_port, name, keys[name], size=(80, 24))
            players.append(player)
            await player.wait_for(MENU)
            player.send(b"\r")  # join the table
            await player.wait_for(rf"{name} +not ready +\(you\)")
        for player in players:
            player.send(b"r")
        for player in players:
            await until(lambda p=player: _hand(p), "a dealt hand", 20, step=0.05)
            player.send(b"d")  # only the start player can draw (the other is refused)
        def drawer() -> tuple[int] | None:
            return next(((i,) for i, p in enumerate(players) if "━new" in _text(_hand(p))),
                        None)  # fmt: skip

        (starter,) = await until(drawer, "a card drawn", 20, step=0.05)
        name = ("ann", "bob")[starter]
        player = players[starter]
        player.send(b"2")  # pass the card in slot 2: its slot stays, empty
        before = await until(lambda: (h := _hand(player)) and "new" not in _text(h) and h,
                             "the gap", 20, step=0.05)
        rows = _text(before).splitlines()
        assert rows[1][13:26] == "│" + " " * 11 + "│" and rows[0].count("╭─") == 6
        player.abort()  # the line drops
        back = await Player.connect(serve.ssh_port, name, keys[name], size=(80, 24))
        players.append(back)
        # the same app, repainted (a fresh one would show the menu): the hand as it was
        after = await until(lambda: (h := _hand(back)) == before and h, "the same hand", 20,
                            step=0.05)
        assert after == before and "Traceback" not in back.text
    finally:
        for player in players:
            await player.close()
        await serve.stop()
