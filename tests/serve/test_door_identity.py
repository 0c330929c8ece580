"""The doors' identity end to end (issue 60): a real ``motherlode serve`` with its SSH
and web doors; each served app keeps its key in its player's own folder, and the host's
league rates it under its name; a scratch folder (a keyless SSH login, a browser
without the door's cookie) plays as a guest and moves no rating.

Each game is one short Gold Nuggets game against a bot at pace 0 (a supply of one
nugget: the first take ends it), played from the player's own screen by the enter key
(the advisor's choice, as ``tui.games.nuggets`` offers it). The league is read from the
serve folder's database, as ``motherlode league`` there would."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time

import aiohttp
import asyncssh
import pytest

from net.league.standings import standings
from net.saves.db import FILE
from serve.pins import slug
from tests.serve.helpers import Player, ServeProcess
from tests.serve.web import Tab
from tests.waiting import until

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

GAME = ("--game", "nuggets", "--seats", "2", "--bots", "1", "--bot-pace", "0",
        "--set", "supply=1", "--seed", "door-identity-0")  # the person starts
MENU = "Tables at this host"
OVER = r"Game over: .* won"


def league(data) -> dict[str, tuple]:
    """The serve host's standings of Gold Nuggets: name -> (games, wins, mu, sigma)."""
    conn = sqlite3.connect(data / FILE)
    try:
        return {s.name: (s.games, s.wins, s.skill.mu, s.skill.sigma)
                for s in standings(conn, "nuggets")}
    finally:
        conn.close()


def games(data) -> list[int]:
    """Each finished game the league recorded, in order: 1 rated, 0 not."""
    conn = sqlite3.connect(data / FILE)
    try:
        return [r for (r,) in conn.execute("SELECT rated FROM league_games ORDER BY n")]
    finally:
        conn.close()


async def play_to_the_end(screen, name: str) -> None:
    """Play the game on ``screen`` (an SSH player or a tab) by the enter key, on the
    player's turn only, until its end: at turn start it rolls, then plays the
    advisor's choice (a second enter)."""
    typed: list[asyncio.Future] = []

    def over() -> bool:
        if re.search(OVER, screen.text):
            return True
        if f"{name}, your turn" in screen.text:
            typed.append(asyncio.ensure_future(_type(screen, "\r")))
        return False

    try:
        await until(over, lambda: f"the game's end on {name}'s screen:\n{screen.text}", 60,
                    step=0.25)
    finally:
        await asyncio.gather(*typed, return_exceptions=True)


async def seated_and_ready(screen, name: str, guest: bool) -> None:
    """From the served menu into the table's lobby (its one table), where the seat
    says whether it is a guest's, then ready: with the bot, the table is full and
    ready, and the game starts."""
    await screen.wait_for(MENU, 30)
    await _type(screen, "\r")
    await screen.wait_for(rf"\d\. {name} .*\(you\)")
    if guest:
        await screen.wait_for(rf"\d\. {name} .*\(you\)  \(guest\)")
    else:
        assert "(guest)" not in screen.text
    await _type(screen, "r")


async def _type(screen, text: str) -> None:
    if isinstance(screen, Player):
        screen.send(text.encode())
    else:
        await screen.type(text)


def pinned(data) -> list[str]:
    """The names the host's league has pinned a key to."""
    conn = sqlite3.connect(data / FILE)
    try:
        return [who for (who,) in conn.execute("SELECT who FROM identities ORDER BY who")]
    finally:
        conn.close()


async def keyless_game(serve, data, games_before: int) -> None:
    """ann over SSH without a key: a guest at the table, whose game is saved and rates
    nobody; she leaves at its end."""
    ann = await Player.connect(serve.ssh_port, "ann", None, size=(100, 30))
    try:
        await seated_and_ready(ann, "ann", guest=True)  # the table says so
        await play_to_the_end(ann, "ann")
        await until(lambda: len(games(data)) == games_before + 1, "the game in the league",
                    20, step=0.05)
        assert games(data)[-1] == 0  # saved, not rated: a guest and a bot
        assert "Rated:" not in ann.text
    finally:
        await ann.close()


async def test_an_ssh_players_key_is_rated_and_a_keyless_login_is_a_guest(tmp_path):
    data = tmp_path / "data"
    serve = await ServeProcess.start(data, *GAME)
    try:
        # first, ann without a key: a guest, and her scratch folder pins the name to
        # no throwaway key
        await keyless_game(serve, data, 0)
        assert pinned(data) == [] and league(data) == {}
        # then ann with her SSH key: the door pins it, her app's key (in her login's
        # own folder) proves itself to the host, and the game is rated under her name
        ann = await Player.connect(serve.ssh_port, "ann", asyncssh.generate_private_key(
            "ssh-ed25519"), size=(100, 30))
        try:
            await seated_and_ready(ann, "ann", guest=False)
            await play_to_the_end(ann, "ann")
            assert "ann rolled" in ann.text  # she played
            await ann.wait_for(r"Rated: .*ann new, 1 of 10 games")
        finally:
            await ann.close()
        rated = league(data)
        assert rated["ann"][0] == 1 and games(data) == [0, 1] and pinned(data) == ["ann"]
        own = data / "serve" / "players" / slug("ann") / "data" / "identity.key"
        assert own.stat().st_mode & 0o777 == 0o600
    finally:
        await serve.stop()

    # half a year on, the door has let the SSH pin go (unused for 180 days): a keyless
    # ann gets in again; the host's league still holds the name's key
    pins = json.loads((data / "serve" / "pins.json").read_text())
    for entry in pins.values():
        entry["used"] = time.time() - 200 * 24 * 3600
    (data / "serve" / "pins.json").write_text(json.dumps(pins))
    serve = await ServeProcess.start(data, *GAME)
    try:
        await keyless_game(serve, data, 2)
        assert games(data) == [0, 1, 0]
        assert league(data) == rated  # nothing moved: not ann's, nor the bot's
    finally:
        await serve.stop()
    assert "Traceback" not in serve.output


async def test_a_browser_with_its_cookie_is_rated_again_after_a_reload_and_without_is_a_guest(
        tmp_path):
    data = tmp_path / "data"
    serve = await ServeProcess.start(data, *GAME, "--web", "0")
    base = f"http://127.0.0.1:{serve.web_port}"
    try:
        # a browser without the door's cookie (a script that skipped the page) plays
        # from a scratch folder: a guest, and the name is pinned to no throwaway key
        async with aiohttp.ClientSession() as script, \
                script.ws_connect(base + "/ws?width=100&height=30") as ws:
            tab = Tab(ws)
            await tab.wait_for("Your name at the table")
            await tab.type("cat\r")
            await tab.wait_for(MENU)
            await tab.type("n")  # a table of its own (the first is for the next browser)
            await tab.wait_for(r"1\. cat .*\(you\)  \(guest\)")  # the table says so
            await tab.type("b")
            await tab.wait_for(r"2\. .*\(bot\) +bot")
            await tab.type("r")
            await tab.wait_for(r"1\. cat +ready +\(you\)")
            await tab.type("s")
            await play_to_the_end(tab, "cat")
        await until(lambda: len(games(data)) == 1, "the guest's game in the league", 20,
                    step=0.05)
        assert games(data) == [0] and pinned(data) == [] and league(data) == {}
        # a browser with its cookie: its folder keeps its key; rated, and again after
        # a reload, which finds the seat and the key it left
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
            for visit in (1, 2):
                async with browser.get(base + "/") as page:  # the page sets the cookie
                    assert page.status == 200
                async with browser.ws_connect(base + "/ws?width=100&height=30") as ws:
                    tab = Tab(ws)
                    if visit == 1:
                        await tab.wait_for("Your name at the table")
                        await tab.type("cat\r")
                        await tab.wait_for("You play as cat")
                        await seated_and_ready(tab, "cat", guest=False)
                    else:  # the reload: straight back to the seat the cookie kept
                        await tab.wait_for("cat is back and has the seat again")
                        assert "(guest)" not in tab.text
                        await tab.type("r")
                    await play_to_the_end(tab, "cat")
                    assert "cat rolled" in tab.text
                    await tab.wait_for(rf"Rated: .*cat new, {visit} of 10 games")
                assert league(data)["cat"][0] == visit
        assert games(data) == [0, 1, 1] and pinned(data) == ["cat"]
    finally:
        await serve.stop()
    assert "Traceback" not in serve.output
