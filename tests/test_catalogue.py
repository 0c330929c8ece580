"""A game is an entry in the registry (``net.catalogue``), and what it says agrees with
the rules packages and the game modules. (That nothing outside a game's own folders
names it, key or title included: ``tests/test_game_boundary.py``.)"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Annotated

import msgspec
import pytest

import foolsgold
import nuggets
from net import catalogue
from net import protocol as p
from net.catalogue import UnknownGame, games, keys, spec
from net.games import host_of, make_codec, make_driver
from net.games.foolsgold import SPEC as FOOLSGOLD
from net.games.foolsgold import moves as fm
from net.games.nuggets import SPEC as NUGGETS
from net.games.nuggets import moves as nm
from net.table import Settings, Table
from tests.docstrings import TITLE
from tests.docstrings import docstrings as _docstrings

ROOT = Path(__file__).resolve().parent.parent


# Words that happen to be a game's key: Fool's Gold's race ends when the "nuggets" run out.
NOT_A_KEY = ("(not the game's key)",)


def game_literals(source: str) -> list[tuple[int, str]]:
    """(line, what) for every game title and every game key written as a literal."""
    tree = ast.parse(source)
    lines = source.splitlines()
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if id(node) in docs:
            continue
        if node.value in keys() and not any(n in lines[node.lineno - 1] for n in NOT_A_KEY):
            found.append((node.lineno, f"the game key {node.value!r}"))
        elif TITLE.search(node.value):
            found.append((node.lineno, f"a game title in {node.value!r}"))
    return sorted(found)


def test_the_scan_finds_what_it_forbids():
    source = '''
"""Docstrings may say Gold Nuggets."""
GAMES = ("nuggets", "foolsgold")
label = "Fool's Gold against bots"
shout = "Fool's Gold!"
ok = f"{NUGGETS.title} table"
'''
    assert game_literals(source) == [
        (3, "the game key 'foolsgold'"),
        (3, "the game key 'nuggets'"),
        (4, "a game title in \"Fool's Gold against bots\""),
    ]


def test_every_game_has_a_host_side_object_with_driver_brain_and_codec():
    from net.games.base import HostGame

    assert keys() == (NUGGETS.key, FOOLSGOLD.key)  # the entry points, in menu order
    for key in keys():
        side = host_of(key)
        assert isinstance(side, HostGame) and side is spec(key).game
        assert type(side).__module__ == f"net.games.{key}.host"
        for name in ("make_driver", "make_brain", "make_codec"):
            assert getattr(type(side), name) is not getattr(HostGame, name), name


def test_the_catalogue_agrees_with_the_rules():
    assert NUGGETS.defaults["supply"] == nuggets.STARTING_SUPPLY == NUGGETS.setting("supply").high
    rng = random.Random(1)
    for game in games():
        names = [f"P{i}" for i in range(game.high)]
        make_driver(game.key, names[: game.low], None, rng)
        make_driver(game.key, names, None, rng)
        for bad in (game.low - 1, game.high + 1):
            with pytest.raises(ValueError):
                make_driver(game.key, [f"P{i}" for i in range(bad)], 0, rng)
    # the wire's game names are the catalogue's keys: every one of them fits the
    # wire's shape of a key, and a client refuses a game it does not know by name
    schema = msgspec.json.schema(p.TableInfo)["$defs"]["TableInfo"]["properties"]["game"]
    assert all(re.fullmatch(schema["pattern"], key) for key in keys())
    table = Table("T", NUGGETS.key).info()
    for key, known in [*((k, True) for k in keys()), ("chess", False)]:
        line = p.encode(p.TableUpdate(table=msgspec.structs.replace(table, game=key)))
        client = p.Connection(p.CLIENT)
        client.receive_data(line)
        if known:
            assert client.next_message().table.game == key
        else:
            with pytest.raises(p.RemoteProtocolError, match="does not know: 'chess'") as caught:
                client.next_message()
            assert caught.value.code == p.Code.BAD_FIELD
    assert Settings.default(NUGGETS.key).game["supply"] == nuggets.STARTING_SUPPLY


def test_unknown_games_are_refused_by_name():
    with pytest.raises(UnknownGame, match="unknown game 'chess': choose one of nuggets, foolsgold"):
        spec("chess")
    with pytest.raises(ValueError, match="unknown game"):
        Table("T", "chess")
    assert catalogue.title("chess") == "chess"
    assert not catalogue.known(None)


def test_defaults_come_from_the_catalogue():
    for game in games():
        table = Table("T", game.key)
        assert table.settings.seats == game.high
        assert table.settings.grace == game.grace
        for key, value in game.defaults.items():
            assert table.settings.game[key] == value


# -- the codecs: every action of each game, there and back --------------------------

NUGGETS_WIRE = [
    nm.ROLL(seat=0),
    nm.KEEP(faces=["nugget", "lasso", "2", "3", "4", "5"], seat=0),
    nm.KEEP(faces=[], seat=0),
    nm.STOP(seat=0),
    nm.STOP(steal_from=2, seat=0),
]
NUGGETS_RULES = [
    nuggets.Roll(),
    nuggets.Keep(tuple(nuggets.Face)),
    nuggets.Stop(),
    nuggets.Stop(3),
]


def _fools_gold_wire(players: int) -> list:
    cards = {(c.name, c.variant, c.kind) for c in foolsgold.standard_deck(players)}
    actions: list = [fm.DRAW(seat=1), fm.GRAB(seat=1), fm.CALL(seat=1)]
    actions += [
        fm.DISCARD(card=fm.CardRef(name=n, variant=v, kind=k), seat=1) for n, v, k in sorted(cards)
    ]
    return actions


@pytest.mark.parametrize("message", NUGGETS_WIRE, ids=repr)
def test_nuggets_wire_to_rules_and_back(message):
    codec = make_codec(NUGGETS.key, 2)
    assert codec.to_wire(codec.to_rules(message, 0), 0) == message


@pytest.mark.parametrize("action", NUGGETS_RULES, ids=repr)
def test_nuggets_rules_to_wire_and_back(action):
    codec = make_codec(NUGGETS.key, 2)
    assert codec.to_rules(codec.to_wire(action, 0), 0) == action


@pytest.mark.parametrize("players", range(FOOLSGOLD.low, FOOLSGOLD.high + 1))
def test_fools_gold_every_action_and_card_both_ways(players):
    codec = make_codec(FOOLSGOLD.key, players)
    for message in _fools_gold_wire(players):
        action = codec.to_rules(message, 1)
        assert action.seat == 1
        assert codec.to_wire(action) == message
        assert codec.to_rules(codec.to_wire(action), 1) == action


def test_codecs_refuse_the_other_game_and_unknown_cards():
    from net.games import Refused, WrongGame

    with pytest.raises(WrongGame, match=NUGGETS.title):
        make_codec(NUGGETS.key, 2).to_rules(fm.DRAW(), 0)
    with pytest.raises(WrongGame, match=FOOLSGOLD.title):
        make_codec(FOOLSGOLD.key, 3).to_rules(nm.ROLL(), 0)
    with pytest.raises(Refused, match="no card called"):
        nobody = fm.CardRef(name="Nobody", variant="a")
        make_codec(FOOLSGOLD.key, 3).to_rules(fm.DISCARD(card=nobody), 0)
    with pytest.raises(TypeError):
        make_codec(NUGGETS.key, 2).to_wire(foolsgold.Grab(0))


def test_every_game_has_an_app_side_the_registry_finds():
    """``tui.plugin.game_of(key)``: each game's app side, one ``AppGame`` object, with
    its table and replay screens; a key not in the catalogue is refused by name, never
    taken for another game."""
    from tui.plugin import AppGame, TableContext, game_of
    from tui.screens.table import TableScreen

    for game in games():
        side = game_of(game.key)
        assert isinstance(side, AppGame)
        assert type(side).__module__ == f"tui.games.{game.key}"
        table = side.table_screen(TableContext([0], ["Ann", "Bob"]))
        assert isinstance(table, TableScreen)
        assert callable(side.replay_screen)
    with pytest.raises(UnknownGame, match="'chess'"):
        game_of("chess")


def test_the_menus_list_every_game_from_the_catalogue_with_keys_of_their_own():
    from tui.screens.menu import MenuScreen, menu
    from tui.screens.served import ServedMenuScreen, fixed

    async def no_tables() -> list:
        return []

    from tui.saves import Saves

    for items, screen in ((menu(), MenuScreen(Saves())),
                          (fixed(), ServedMenuScreen(no_tables, "Ann"))):
        letters = [letter for _, _, letter in items]
        assert len(letters) == len(set(letters)), letters
        keys = [key for key, bound in screen._bindings.key_to_bindings.items()
                if any(b.action.startswith("choose") for b in bound)]
        assert len(keys) == len(set(keys)), keys
        for game in games():
            assert game.letter in letters and game.letter in keys
            assert any(game.title in label for _, label, _ in items)


def test_each_game_describes_its_own_settings_for_the_lobby():
    from net.table.settings import PACES
    from tui.phases import PACE_TIMES
    from tui.plugin import game_of
    from tui.screens.lobby import with_house_rules

    cards = Settings.default(FOOLSGOLD.key)
    line = game_of(FOOLSGOLD.key).settings_line(cards.info())
    assert line == (", grab time-out 10 s, call window 5 s, no round cap, races fair to "
                    "150 ms of lag")  # fmt: skip
    probes = msgspec.structs.replace(cards.info(), lag_bound="probes")
    assert game_of(FOOLSGOLD.key).settings_line(probes).endswith(
        "150 ms of lag as players' apps report it")
    # the windows as the table plays them: a steady table's are twice the game's own
    # (issue 58, finding 8: "grab time-out 10 s" beside "steady pace (x2)")
    cards.pace = "steady"
    assert game_of(FOOLSGOLD.key).settings_line(cards.info()).startswith(
        ", grab time-out 20 s, call window 10 s, ")
    cards.pace = "relaxed"
    assert game_of(FOOLSGOLD.key).settings_line(cards.info()).startswith(
        ", grab time-out 40 s, call window 20 s, ")
    assert PACE_TIMES == PACES  # the app's words and the host's windows agree
    cards.pace = "normal"
    cards.game["round_cap"] = 20
    assert "house rule: round cap 20" in game_of(FOOLSGOLD.key).settings_line(cards.info())
    cards.lag_cap = 0.0
    assert game_of(FOOLSGOLD.key).settings_line(cards.info()).endswith(
        ", races judged by arrival")
    assert game_of(NUGGETS.key).settings_line(Settings.default(NUGGETS.key)) == ""
    assert with_house_rules() == FOOLSGOLD.title  # the one game with a house rule (a round cap)


def test_the_entry_points_read_at_start_are_importlib_metadatas():
    """The catalogue reads its group's entry points without importing
    importlib.metadata (issue 48: it was the app's largest own import before the
    menu's first frame); here both agree, for this installation's sys.path."""
    from importlib.metadata import entry_points

    from net.catalogue import GROUP, _entry_points

    expected = [(p.name, p.value) for p in entry_points(group=GROUP)]
    assert sorted(_entry_points(GROUP)) == sorted(expected)
    assert ("nuggets", "net.games.nuggets:SPEC") in expected


def test_the_entry_point_reader_on_folders_it_makes(tmp_path):
    """The first distribution of a name on the path wins, other groups and comments
    are skipped, and a zip on the path sends the reading to importlib.metadata."""
    from net.catalogue import _NotPlain, _read_entry_points

    first, second = tmp_path / "a", tmp_path / "b"
    for folder, value in ((first, "pkg.one:SPEC"), (second, "pkg.two:SPEC")):
        meta = folder / "Some.Game-1.0.dist-info"
        meta.mkdir(parents=True)
        (meta / "entry_points.txt").write_text(
            "# made by a test\n[console_scripts]\nsome = pkg:main\n\n"
            f"[motherlode.games]\nsome = {value}\n", encoding="utf-8")
    other = second / "other-2.dist-info"
    other.mkdir()
    (other / "entry_points.txt").write_text("[motherlode.games]\n other =  x.y:Z \n")
    found = list(_read_entry_points("motherlode.games", [str(first), str(second)]))
    assert found == [("some", "pkg.one:SPEC"), ("other", "x.y:Z")]
    (tmp_path / "eggs.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    with pytest.raises(_NotPlain):
        list(_read_entry_points("motherlode.games", [str(tmp_path / "eggs.zip")]))


def test_a_games_settings_are_declared_once_in_its_struct():
    """Each setting the lobby, the wire and the saves read comes from the game's settings
    Struct (``GameSpec.options``): its name and default from the field, whole or off from
    its type, the rest from its ``Limits``; the driver is made with one of it."""
    cap = FOOLSGOLD.setting("round_cap")
    assert cap is not None and (cap.default, cap.whole, cap.optional) == (None, True, True)
    grab = FOOLSGOLD.setting("grab_timeout")
    assert grab is not None and (grab.default, grab.whole, grab.paced) == (10.0, False, True)
    assert [s.name for s in NUGGETS.settings] == ["supply"] and NUGGETS.defaults == {"supply": 77}
    driver = make_driver(NUGGETS.key, ["Ann", "Bob"], 0, random.Random(1), {"supply": 9})
    assert driver.view(0)["supply"] == 9
    assert make_driver(NUGGETS.key, ["Ann", "Bob"], 0, random.Random(1)).view(0)["supply"] == 77
    assert FOOLSGOLD.options_of({"round_cap": 10, "not_ours": 1}) == \
        FOOLSGOLD.options(round_cap=10)  # fmt: skip


def test_a_setting_without_its_limits_or_default_or_of_a_wrong_type_is_refused():
    class NoLimits(msgspec.Struct, frozen=True):
        supply: int = 3

    class NoDefault(msgspec.Struct, frozen=True):
        supply: Annotated[int, catalogue.Limits(1, 9)]

    class Words(msgspec.Struct, frozen=True):
        name: Annotated[str, catalogue.Limits(1, 9)] = "x"

    for kind, said in ((NoLimits, "NoLimits.supply needs a default and Limits"),
                       (NoDefault, "NoDefault.supply needs a default and Limits"),
                       (Words, "Words.name must be an int or a float")):  # fmt: skip
        with pytest.raises(TypeError, match=said):
            catalogue.declared(kind)
