"""Joined to a LAN host, the League is that host's (protocol 4's ``standings``), not
this machine's: a real host over TCP whose saves hold a league (main's database before
the league, backfilled, and a season) while this machine's own league holds another
player (Lou). The app's League screen (``l`` in the lobby) at 80x24 and 60x20 and the
plain seat's ``league`` show the host's and say whose it is; a host of protocol 3 gives
a sentence; a connection asking a thousand times costs one read of the database."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from net import protocol as p
from net.client import Client
from net.clock import FakeClock
from net.host import Host
from net.league import ledger
from net.league.asked import NotAnswered, host_standings
from net.saves import Store
from net.saves.db import FILE
from tests.league.helpers import DocClient, nc_game
from tests.plain.helpers import finish, process
from tests.plain.helpers import seat as _seat
from tests.tui.harness import make_app, until
from tests.tui.helpers import screen_text
from tui.screens.league import LeagueScreen
from tui.screens.lobby import LobbyScreen
from tui.settings import Settings

pytestmark = pytest.mark.timeout(120)

DB3 = Path(__file__).parent.parent / "saves" / "legacy" / "db3" / FILE
HOSTS = {"Ann", "Bob", "Easy bot", "Normal bot", "Hard bot"}  # the host's league


@pytest.fixture
def own_league():
    """This machine's own league: Lou, who never played at the host."""
    store = Store.default("tables")
    store.league_change(lambda c: ledger.record(c, "lou-1", "nuggets", 1.0, [
        ledger.Seat(0, "lou", "Lou", True, 1, won=True),
        ledger.Seat(1, "bot:easy", "Easy bot", False, 2)]))
    store.close()


@pytest.fixture
async def lan_host(tmp_path, own_league):
    (tmp_path / "host").mkdir()
    shutil.copy(DB3, tmp_path / "host" / FILE)
    store = Store(tmp_path / "host", "tables")
    store.league_change(lambda c: ledger.start_season(c, "Winter 2026", 1.0))
    host = Host(store=store, clock=FakeClock(10.0))
    await host.start("127.0.0.1", 0)
    host.create_table("Saloon", "nuggets", seats=3)
    try:
        yield host
    finally:
        await host.close()
        store.close()


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_league_screen_at_a_lan_hosts_table_is_that_hosts(tmp_path, lan_host, size):
    app = make_app(tmp_path, settings=Settings(name="Zed"),
                   start=("join", "127.0.0.1", lan_host.port))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeagueScreen), "the league")
        await until(pilot, lambda: "5 rated players" in screen_text(app), "the standings")
        text = screen_text(app)
        assert f"League at 127.0.0.1:{lan_host.port}" in text
        assert "Every game, all time: 5 rated players" in text
        for name in HOSTS:
            assert name in text, name
        assert "Lou" not in text  # this machine's own player: not at that host
        assert "new (4 of 10)" in text
        assert all(len(line.rstrip()) <= size[0] for line in text.splitlines())
        assert ("last played" in text) == (size[0] >= 80)
        await pilot.press("s")  # the host's season, not this machine's (it has none)
        await until(pilot, lambda: "Every game, Winter 2026: no rated games" in
                    screen_text(app), "the host's season")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby")


@pytest.mark.slow
async def test_the_command_palette_at_the_table_opens_the_hosts_league(tmp_path, lan_host):
    """ctrl+p, League, at the table: the host's league too."""
    app = make_app(tmp_path, settings=Settings(name="Zed"),
                   start=("join", "127.0.0.1", lan_host.port))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("ctrl+p")
        await pilot.press(*"League")
        await until(pilot, lambda: "ratings per game" in screen_text(app), "the command")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LeagueScreen), "the league")
        await until(pilot, lambda: "5 rated players" in screen_text(app), "the standings")
        assert f"League at 127.0.0.1:{lan_host.port}" in screen_text(app)


@pytest.mark.slow
async def test_the_plain_seat_at_a_lan_hosts_table_says_that_hosts_league(lan_host):
    proc = await process("join", "--plain", f"127.0.0.1:{lan_host.port}", "--name", "Zed")
    seat = _seat(proc)

    def also(line: str) -> str | None:
        if line.startswith("Table ") and "league" not in seat.typed:
            seat.send("league")  # the answers come in the order asked
            seat.send("league Winter 2026")
            return "league Spring"
        return "leave" if "no season called" in line else None

    await asyncio.wait_for(seat.play(timeout=30, also=also), 60)
    await finish(proc, seat)
    header = f"League at 127.0.0.1:{lan_host.port}:"
    assert seat.lines.count(header) == 3
    at = seat.lines.index(header)
    assert seat.lines[at + 1] == "Gold Nuggets, all time"
    assert seat.lines[at + 2].split() == ["#", "player", "rating", "games", "wins", "last",
                                          "played"]
    rows = seat.lines[at + 3:at + 8]
    assert {row[7:28].strip() for row in rows} == HOSTS, rows
    assert "new (4 of 10)" in "\n".join(rows)
    text = "\n".join(seat.lines)
    assert "Lou" not in text  # this machine's own player
    at = seat.lines.index(header, at + 1)
    assert seat.lines[at + 1] == ("No rated games yet: a finished game with a person at it "
                                  "is rated.")  # Winter 2026 at the host: none yet
    at = seat.lines.index(header, at + 1)
    assert seat.lines[at + 1] == "no season called 'Spring' (seasons: 'Winter 2026')"


async def test_a_host_of_protocol_3_gives_a_sentence(lan_host):
    client = await Client.connect("127.0.0.1", lan_host.port, "Old", protocol=3)
    try:
        with pytest.raises(NotAnswered) as said:
            await host_standings(client, None, None)
        assert str(said.value) == (f"The host at 127.0.0.1:{lan_host.port} runs protocol 3, "
                                   "without a league to share: update it there to see its "
                                   "standings here.")
    finally:
        await client.close()


async def test_a_flood_of_questions_costs_one_read_and_a_new_rating_reads_again(lan_host):
    """A thousand ``standings`` in one write: the connection's rate and one question at
    a time bound what the host handles, and the database is read once (the answer is
    kept); the other people's pings are answered meanwhile. A rated game, and a season
    started from another connection (the ``motherlode league season`` of another
    process), change the database: the next answer is read anew."""
    board = lan_host.league.board
    flood = DocClient(*await asyncio.open_connection("127.0.0.1", lan_host.port))
    await flood.hello("Flo", None, "Saloon")
    other = DocClient(*await asyncio.open_connection("127.0.0.1", lan_host.port))
    await other.hello("Oli", None, "Saloon")
    flood.writer.write(b'{"type":"standings","game":"nuggets"}\n' * 1000)
    await flood.writer.drain()
    got: list[dict] = []
    while not any(m["type"] == "error" and m["ref"] is None for m in got) or \
            not any(m["type"] == "standings" for m in got):
        got.append(json.loads(await asyncio.wait_for(flood.reader.readline(), 10)))
    await other.send({"type": "ping", "id": 7})
    assert (await other.next("pong"))["id"] == 7  # the table goes on for the others
    answers = [m for m in got if m["type"] == "standings"]
    refused = [m for m in got if m["type"] == "error" and m["ref"] == "standings"]
    assert answers and {m["code"] for m in refused} <= {"rate_limited"}
    assert len(answers) + len(refused) <= 39  # the burst, after the hello
    assert [m["code"] for m in got if m.get("ref", "") is None] == ["rate_limited"]
    assert {line["name"] for line in answers[0]["lines"]} == HOSTS
    assert board.reads == 1
    await other.send({"type": "standings", "game": "nuggets"})
    await other.next("standings")
    assert board.reads == 1  # kept: the league has not changed

    # a rated game at this host: the next answer is read again, and shows it
    await nc_game(lan_host, "Inn", "Kim", Ed25519PrivateKey.generate())
    await other.send({"type": "standings", "game": "nuggets"})
    after = await other.next("standings")
    assert board.reads == 2 and "Kim" in {line["name"] for line in after["lines"]}
    # a season started on another connection to the same database
    elsewhere = Store(lan_host.store.root, "tables")
    elsewhere.league_change(lambda c: ledger.start_season(c, "Spring 2027", 2.0))
    elsewhere.close()
    await other.send({"type": "standings", "season": "spring 2027"})
    spring = await other.next("standings")
    assert (spring["season"], spring["seasons"]) == ("Spring 2027", ["Winter 2026",
                                                                      "Spring 2027"])
    assert board.reads == 3


async def test_an_unknown_season_and_a_question_before_hello_are_refused(lan_host):
    client = DocClient(*await asyncio.open_connection("127.0.0.1", lan_host.port))
    await client.send({"type": "standings"})
    line = json.loads(await asyncio.wait_for(client.reader.readline(), 10))
    assert (line["code"], line["ref"]) == ("hello_first", "standings")
    await client.hello("Ula", None, "Saloon")
    await client.send({"type": "standings", "season": "Spring"})
    while (line := json.loads(await asyncio.wait_for(client.reader.readline(), 10)))[
            "type"] != "error":
        pass
    assert (line["code"], line["ref"]) == ("no_such_season", "standings")
    assert line["message"] == "no season called 'Spring' (seasons: 'Winter 2026')"
    # the app's own client: the same, as one sentence
    app_client = await Client.connect("127.0.0.1", lan_host.port, "Vic")
    try:
        with pytest.raises(NotAnswered, match="no season called 'Spring'"):
            await host_standings(app_client, None, "Spring")
        lines, seasons, more = await host_standings(app_client, "nuggets", None)
        assert {x.name for x in lines} == HOSTS and seasons == ["Winter 2026"] and more == 0
    finally:
        await app_client.close()
    assert p.AskStandings.since == p.Standings.since == 4


class _Unknown(p.AskStandings, tag="standings_v0"):
    """A question this host does not know, as ``standings`` is to a protocol 4 host
    from before it."""


async def test_a_host_that_does_not_know_the_question_gives_a_sentence(lan_host, monkeypatch):
    """Such a host answers ``unknown_type`` with no ``ref``: while the question waits,
    that answers it, and the League says the host has no league to share."""
    import net.league.asked

    monkeypatch.setattr(net.league.asked.p, "AskStandings", _Unknown)
    client = await Client.connect("127.0.0.1", lan_host.port, "Old")
    try:
        with pytest.raises(NotAnswered) as said:
            await host_standings(client, None, None, timeout=10)
        assert str(said.value) == (f"The host at 127.0.0.1:{lan_host.port} runs an older "
                                   "Motherlode, without a league to share: update it there "
                                   "to see its standings here.")
    finally:
        await client.close()
