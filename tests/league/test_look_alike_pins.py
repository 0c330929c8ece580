"""The host's pins hold a name against look-alikes (``net.identity.Pins``), as the SSH
door's do: the name pinned to one key, written in Cyrillic, fullwidth or another case,
plays as a guest with any other key (the table says so, and no rating moves), while the
owner's key keeps its name whatever the case. Through the real host, over TCP, with a
client written from docs/PROTOCOL.md (``tests.league.helpers``)."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from net.clock import FakeClock
from net.host import Host
from net.identity import Pins
from net.league.standings import standings
from net.saves import Store
from tests.league.helpers import nc_game

pytestmark = pytest.mark.timeout(90)

LOOK_ALIKES = [
    "Асе",  # Cyrillic а, с, е
    "АСЕ",  # Cyrillic capitals: another case of the look-alike
    "Ａｃｅ",  # fullwidth Latin
    "ａＣＥ",  # fullwidth, mixed case
    "aCE",  # only a case change of the pinned name
]


def rows(store):
    return store.league(lambda c: [(s.name, s.games, s.wins) for s in standings(c, "nuggets")])


async def test_a_look_alike_of_a_pinned_name_plays_as_a_guest_and_the_owner_keeps_it(tmp_path):
    store = Store(tmp_path, "tables")
    host = Host(clock=FakeClock(5.0), store=store)
    await host.start("127.0.0.1", 0)
    try:
        ace = Ed25519PrivateKey.generate()
        _, welcome = await nc_game(host, "T0", "Ace", ace)  # pins "Ace" to this key
        assert welcome["table"]["seats"][0]["guest"] is False
        before = rows(store)
        assert before == [("Ace", 1, 1), ("Normal bot", 1, 0)]
        for i, name in enumerate(LOOK_ALIKES, 1):
            stranger = Ed25519PrivateKey.generate()  # a key of its own, proved
            client, welcome = await nc_game(host, f"T{i}", name, stranger)
            seat = welcome["table"]["seats"][0]
            assert (seat["name"], seat["guest"]) == (name, True), name
            # the table each other seat and watcher sees says so too, to the game's end
            table = await client.next("table")
            assert table["table"]["seats"][0]["guest"] is True, name
            assert rows(store) == before, f"{name!r} moved a rating"
        # the owner's key keeps its name, in any case
        for i, name in enumerate(["ACE", "ace", "Ace"]):
            _, welcome = await nc_game(host, f"Own{i}", name, ace)
            assert welcome["table"]["seats"][0]["guest"] is False, name
        assert [r for r in rows(store) if r[0].casefold() == "ace"] == [("Ace", 4, 4)]
        assert {r[0] for r in rows(store)} == {"Ace", "Normal bot"}
    finally:
        await host.close()
        store.close()


def test_the_pins_read_back_from_the_database_hold_look_alikes_too(tmp_path):
    """A host started again over the same saves: its pins (and the names as played)
    come from the database, and still refuse a look-alike of a capital: "lris" (a
    lower-case L) reads as "Iris", not as "iris"."""
    store = Store(tmp_path, "tables")
    try:
        pins = Pins(store)
        assert pins.admit("Iris", "key-1", 1.0)
        store.league_change(lambda c: c.execute(  # Iris played a game: the league shows her name
            "INSERT INTO league_seats (n, seat, who, name, person, place, share, won) "
            "VALUES (1, 0, 'iris', 'Iris', 1, 1, 1.0, 1)"))
        again = Pins(store)
        assert not again.admit("lris", "key-2", 2.0)
        assert not again.admit("Ｉｒｉｓ", "key-2", 2.0)
        assert not again.admit("IRIS", "key-2", 2.0)
        assert again.admit("lris", "key-1", 2.0)  # the owner's key, its own look-alike
        assert again.admit("Bob", "key-2", 2.0)  # another name is free
    finally:
        store.close()
