"""A third game plugs in: Pig Dice (``tests/toygame``), defined in the tests only, is
registered through the public registration API (``net.catalogue.register``), with no
edit to any product file. Then, as for the two games that ship:

- the menu lists it, and the served menu offers a new table of it;
- a hosted table plays it to the end over TCP, with a bot and a raw protocol client
  that writes and reads JSON lines by hand (``docs/PROTOCOL.md``);
- its screen renders headless (Textual's Pilot), with the footer following its phases;
- its game is saved: ``motherlode games`` lists it and ``replay`` steps through it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from net import catalogue, views
from net import protocol as p
from net.clock import FakeClock
from net.host import Host
from net.saves import Store
from net.saves.cli import run as run_saves_command
from tests.hardening.harness import drive
from tests.toygame import SPEC
from tests.toygame.app import PigReplayScreen, PigScreen
from tests.toygame.rules import TARGET
from tests.toygame.views import PigView
from tui.cli import _app_start, build_parser
from tui.screens.common import PickScreen
from tui.screens.menu import MenuScreen, menu

from .tui.harness import make_app, until
from .tui.helpers import footer_text, screen_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def pig():
    """Pig Dice, registered for one test (and taken away after it)."""
    catalogue.register(SPEC)
    try:
        yield SPEC
    finally:
        catalogue.unregister(SPEC.key)


def test_it_edits_no_product_file():
    """Everything the third game is lives under tests/: the product names it nowhere."""
    tracked = subprocess.run(["git", "grep", "-l", "-i", "pig dice\\|toygame", "--", "net",
                              "tui", "serve", "foolsgold", "nuggets", "pyproject.toml"],
                             cwd=ROOT, capture_output=True, text=True)  # fmt: skip
    assert tracked.returncode == 1 and tracked.stdout == "", tracked.stdout


def test_registered_it_is_one_of_the_games_and_then_it_is_gone(pig):
    assert catalogue.keys()[-1] == pig.key and catalogue.spec(pig.key) is pig
    assert views.view_type(pig.key) is PigView
    assert pig.title in [label for _, label, _ in menu() if "against bots" in label][-1]
    with pytest.raises(ValueError, match="already registered"):
        catalogue.register(dataclasses.replace(pig, key="pig2"))  # same title
    catalogue.unregister(pig.key)
    assert not catalogue.known(pig.key)
    with pytest.raises(catalogue.UnknownGame):
        views.view_type(pig.key)
    catalogue.register(pig)


async def _raw_player(port: int, name: str, target: int = TARGET) -> tuple[list[dict], dict]:
    """A client written from docs/PROTOCOL.md alone: JSON lines out, JSON lines in. It
    sets the game's own ``target`` (it owns the table), readies, then rolls until its
    turn holds 5 and banks, until the game is over."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    def send(message: dict) -> None:
        writer.write(json.dumps(message).encode() + b"\n")

    send({"type": "hello", "protocol": 3, "name": name})
    seen: list[dict] = []
    seat = None
    doubled = 0
    while True:
        line = await reader.readline()
        assert line, "the host closed before the game was over"
        message = json.loads(line)
        seen.append(message)
        kind = message["type"]
        if kind == "welcome":
            seat = message["seat"]
            send({"type": "configure", "game": {"target": target}})
            send({"type": "ready", "ready": True})
        elif kind == "state" and message["seat"] == seat:
            view = message["view"]
            if not view["over"] and view["current"] == seat:
                bank = view["total"] >= 5 or view["scores"][seat] + view["total"] >= target
                # its own move, at its first chance: double or nothing
                double = not bank and not doubled and view["total"] >= 2
                move = "bank" if bank else "double" if double else "roll"
                doubled += move == "double"
                send({"type": "move", "move": move})
        elif kind == "error":
            raise AssertionError(f"the host refused a move: {message}")
        elif kind == "over":
            writer.close()
            assert doubled, "the game's own move was never played"
            return seen, message


@pytest.mark.timeout(60)
async def test_a_hosted_table_plays_it_to_the_end_with_a_bot_and_a_raw_client(pig, capsys,
                                                                              tmp_path):
    store = Store.default("tables")
    host = Host(store=store)
    await host.start("127.0.0.1", 0)
    try:
        table = host.create_table("Sty", pig.key, seats=2, seed="oink", bots=1, bot_pace=0.0)
        seen, over = await asyncio.wait_for(_raw_player(host.port, "Ann", target=20), 30)
    finally:
        await host.close()
    # the raw client read every view as the game's own: the same keys as PigView's
    states = [m for m in seen if m["type"] == "state"]
    assert states and all(set(m["view"]) == {"game", *PigView.__struct_fields__}
                          for m in states)  # fmt: skip
    final = states[-1]["view"]
    assert final["over"] and over["winners"] == [final["winner"]]
    # its own setting, set by the owner in the lobby: the game went to 20, not 12
    assert final["target"] == 20 and table.settings.game == {"target": 20}
    assert max(over["scores"]) >= 20 and over["scores"] == final["scores"]
    # its own statistics, counted and kept with no change to the saves' schema
    rows = {r.name: r for r in store.stats(bots=True)}
    assert set(rows["Ann"].counts) == {"doubles", "banked"}
    assert rows["Ann"].doubles == sum(e["type"] == "pig_doubled" and e["seat"] == final["seat"]
                                      for m in states for e in m["events"])
    assert rows["Ann"].banked == final["scores"][final["seat"]]
    assert over["seed"] == "oink"
    rolled = [e for m in states for e in m["events"] if e["type"] == "pig_rolled"]
    assert {e["seat"] for e in rolled} == {0, 1}  # the bot played its turns too
    assert table.phase == "over"

    # kept: `motherlode games` lists it by its title, `replay` opens it by its id
    (kept,) = store.kept()
    parser = build_parser()
    capsys.readouterr()
    assert run_saves_command(parser.parse_args(["games"])) == 0
    listed = capsys.readouterr().out
    assert f"{pig.title}: Hattie (bot), Ann; won by" in listed and kept.id in listed
    command, saved, seat = _app_start(parser, parser.parse_args(["replay", kept.id[:8]]))
    assert (command, saved.id, saved.game) == ("replay", kept.id, pig.key)
    app = make_app(tmp_path, start=("replay", kept.id, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, PigReplayScreen), "the replay")
        screen = app.screen
        await pilot.press("end")
        assert screen.view.over and screen.view.scores == over["scores"]
        assert "Game over:" in screen_text(app) and "banked" in screen_text(app)
        await pilot.press("home", "right")
        assert screen.index == 1 and not screen.view.over


def test_its_moves_are_its_own_and_other_games_moves_are_refused(pig):
    """The host's codec is derived from the declarations: Pig's own ``double`` plays at
    a Pig table, another game's move or an unknown argument is refused by name, and no
    other game takes ``double``."""
    from net.games import BadArgs, WrongGame, make_codec
    from net.games.nuggets.moves import KEEP
    from tests.toygame.moves import DOUBLE, MOVES

    assert pig.moves is MOVES and "double" in MOVES and MOVES.find("double") is DOUBLE
    assert make_codec(pig.key, 2).to_rules(DOUBLE(), 0) == "double"
    with pytest.raises(WrongGame, match=r"Pig Dice: roll, bank or double, not 'keep'"):
        make_codec(pig.key, 2).to_rules(KEEP(faces=["2"]), 0)
    with pytest.raises(BadArgs, match="double"):
        make_codec(pig.key, 2).to_rules(p.Move(move="double", args={"bet": 2}), 0)
    for other in catalogue.games():
        if other.key != pig.key:
            assert "double" not in other.moves
            with pytest.raises(WrongGame, match="not 'double'"):
                make_codec(other.key, other.low).to_rules(DOUBLE(), 0)


@pytest.mark.timeout(60)
async def test_the_menu_lists_it_and_its_screen_plays_it_by_keys(pig, tmp_path):
    """Against a bot from the menu: the footer shows Roll, then Roll and Bank, only on
    this player's turn; the game ends, and is kept among the solo games."""
    app = make_app(tmp_path, table_options={"seed": "pig-menu", "bot_pace": 0.0})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        assert f"i  {pig.title} against bots" in screen_text(app)
        await pilot.press(pig.letter)
        await until(pilot, lambda: isinstance(app.screen, PickScreen), "how many bots")
        assert f"{pig.title}: how many bots?" in screen_text(app)
        await pilot.press("enter")  # one bot
        await until(pilot, lambda: isinstance(app.screen, PigScreen), "the table")
        screen: PigScreen = app.screen
        phases = set()
        for _ in range(400):
            await until(pilot, lambda: screen.view is not None, "a view")
            if screen.view.over:
                break
            now = screen.now()
            footer = await footer_text(pilot)
            if now.phase == "watch":
                assert "Roll" not in footer and "Bank" not in footer, footer
                phases.add("watch")
                await until(pilot, lambda: screen.now().phase != "watch" or screen.view.over,
                            "the bot's turn ends", step=0.01)
                continue
            assert ("Roll" in footer) and (("Bank" in footer) == (now.phase == "rolling")), footer
            phases.add(now.phase)
            before = screen.view
            await pilot.press("b" if screen.view.total >= 5 else "r")
            await until(pilot, lambda b=before: screen.view is not b, "the host's answer")
        assert screen.view.over and screen.finished
        assert {"turn", "rolling"} <= phases
        assert "Game over:" in screen_text(app)
        assert "Roll" not in await footer_text(pilot)
    assert [g.game for g in Store.default("solo").kept()] == [pig.key]


def test_the_command_line_offers_it(pig, capsys):
    parser = build_parser()
    assert _app_start(parser, parser.parse_args(["solo", "--game", pig.key])) == (
        "solo", pig.key, pig.solo_bots)
    capsys.readouterr()
    with pytest.raises(SystemExit):
        parser.parse_args(["solo", "--help"])
    assert f"{pig.solo_bots} for {pig.title}" in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit):
        parser.parse_args(["hotseat", "--help"])
    assert pig.title not in capsys.readouterr().out  # not a hot-seat game


def test_a_fresh_process_finds_only_the_games_that_ship():
    """Registration is in-process: an installed app lists exactly its entry points."""
    out = subprocess.run(
        [sys.executable, "-c", "from net import catalogue; print(catalogue.keys())"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert out.strip() == "('nuggets', 'foolsgold')"


async def test_a_saved_game_replays_in_the_replay_engine(pig):
    """The saves replay it from its seed like any game (``net.saves.replay``)."""
    clock = FakeClock()
    store = Store.default("solo")
    host = Host(clock=clock, store=store)
    table = host.create_table("Sty", pig.key, seats=3, bots=3, seed="sty", bot_pace=0.1)
    host.start_game(table)
    await drive(clock, lambda: table.phase == "over")
    await host.close()
    (kept,) = store.kept()
    saved = store.load(kept.id)
    steps = saved.steps()
    assert steps[-1][1][-1]["over"] and saved.status == "finished"


def test_each_games_keys_and_touch_labels_are_its_declared_moves():
    """The app's bindings read the moves' declarations: each declared key plays its move,
    labelled with its declared touch label (the footer's and the touch bar's word)."""
    from tui.games.foolsgold.screen import FoolsGoldScreen
    from tui.games.nuggets import keys as nuggets_keys

    screens = {"foolsgold": FoolsGoldScreen.BINDINGS, "nuggets": nuggets_keys.BINDINGS,
               SPEC.key: PigScreen.BINDINGS}
    actions = {"stop": "take", "keep": None, "discard": "discard(0)"}
    for key, bindings in screens.items():
        game = catalogue.spec(key) if key != SPEC.key else SPEC
        for move in game.moves:
            action = actions.get(move.name, move.name) if key != SPEC.key else move.name
            if action is None:  # keep: chosen die by die (1-7), then played by enter
                continue
            bound = [b for b in bindings if b.action == action]
            assert bound, (key, move.name)
            assert bound[0].description == move.touch, (key, move.name, bound[0].description)
            assert move.key in (bound[0].key, bound[0].key_display), (key, move.name)
