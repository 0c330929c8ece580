"""docs/PROTOCOL.md against whole games: every view key and event seen is documented,
every field, the recipes that redo a game, the answers, the settings' ranges."""

import asyncio
import json
import random
import re

import msgspec
import pytest

from net import protocol as p
from net.catalogue import spec
from net.clock import FakeClock
from net.games.foolsgold.views import Drew, RoundStarted
from net.games.nuggets.views import Rolled
from tests.net.protocol_doc import (
    DOC,
    conforms,
    doc_rows,
    documented_events,
    documented_views,
    watched_bot_game,
)


def record_games() -> dict[str, list[p.State]]:
    """Seeded games of both games, played to the end through the table by bots and by
    scripted players, with every ``state`` each seat and a spectator received."""
    from net.table import Settings
    from tests.net.helpers import play_match

    states: dict[str, list[p.State]] = {"nuggets": [], "foolsgold": []}
    for n in range(6):
        settings = Settings(seats=4, seed=f"doc-{n}", bot_pace=0.5)
        inbox = watched_bot_game(settings, ("easy", "normal", "hard", "normal"))
        assert any(isinstance(m, p.Over) for m in inbox)
        states["nuggets"] += [m for m in inbox if isinstance(m, p.State)]
    for n in range(4):
        _, seated, _ = play_match(f"doc-{n}", 2 + n)
        for _, box in seated:
            states["foolsgold"] += [m for m in box.messages if isinstance(m, p.State)]
    return states


def omitted_when_default(struct) -> set[str]:
    """The fields a Struct leaves off the wire at their default: every defaulted field
    under ``omit_defaults``, and a field whose default is ``UNSET`` always."""
    fields = struct.__struct_fields__
    defaults = dict(zip(fields[len(fields) - len(struct.__struct_defaults__):],
                        struct.__struct_defaults__, strict=True))
    if struct.__struct_config__.omit_defaults:
        return set(defaults)
    return {name for name, default in defaults.items() if default is msgspec.UNSET}


@pytest.mark.slow
def test_every_view_key_and_event_seen_in_whole_games_is_documented():
    from net import views as typed

    seen_events: dict[str, set[str]] = {"nuggets": set(), "foolsgold": set()}
    for game, states in record_games().items():
        views, events = documented_views(game), documented_events(game)
        optional = omitted_when_default(typed.kinds().views[game])
        optional_fields = {e.__struct_config__.tag: omitted_when_default(e)
                           for e in typed.kinds().events[game]}  # fmt: skip
        assert states
        for state in states:
            wire = json.loads(p.encode(state))  # as it goes on the wire
            view = wire["view"]
            missing = set(views) - set(view)
            assert set(view) <= set(views) and missing <= optional, (game, set(view) ^ set(views))
            for key, value in view.items():
                assert conforms(value, views[key]), (game, key, value, views[key])
            for event in wire["events"]:
                kind = event["type"]
                assert kind in events, (game, kind)
                fields = {k: v for k, v in event.items() if k != "type"}
                missing = set(events[kind]) - set(fields)
                assert set(fields) <= set(events[kind]), (game, event)
                assert missing <= optional_fields.get(kind, set()), (game, event)
                for key, value in fields.items():
                    assert conforms(value, events[kind][key]), (game, event, key)
                seen_events[game].add(kind)
    # the games reached the events that matter, so the check above had teeth
    assert {"turn", "rolled", "kept", "took", "bust", "game_over"} <= seen_events["nuggets"]
    assert {
        "round_started", "drew", "discarded", "grabbed", "settled", "scores",
        "match_over", "next_round",
    } <= seen_events["foolsgold"]  # fmt: skip


def test_every_field_of_every_message_and_of_tableinfo_is_documented():
    for union, heading in (
        (p.ClientMessage, "## Client to host"),
        (p.HostMessage, "## Host to client"),
    ):
        section = DOC[DOC.index(heading) :]
        section = section[: section.index("\n## ", 3)]
        for kind in union.__args__:
            row = next(
                line for line in section.splitlines()
                if line.startswith(f"| `{kind.__struct_config__.tag}` |")
            )  # fmt: skip
            for field in kind.__struct_fields__:
                assert f"`{field}`" in row, (kind.__name__, field)
    info = DOC[DOC.index("**TableInfo**") :]
    info = info[: info.index("\n\n")]
    for struct in (p.TableInfo, p.SeatInfo, p.TableSettings):
        for field in struct.__struct_fields__:
            assert field in info, (struct.__name__, field)


# -- the randomness recipe, run as written ----------------------------------------------


def recipe() -> dict:
    """The document's stdlib-only recipe, executed; its names."""
    import ast

    block = DOC[DOC.index("<!-- recipe") :]
    block = block[block.index("```python\n") + 10 :]
    code = block[: block.index("```")]
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            assert set(names) <= {"hashlib", "random"}, names  # the standard library only
    namespace: dict = {}
    exec(compile(code, "PROTOCOL.md", "exec"), namespace)  # noqa: S102 - our own document
    return namespace


def test_the_documented_recipe_rerolls_a_real_gold_nuggets_game():
    from net.table import Settings

    r = recipe()
    inbox = watched_bot_game(Settings(seats=3, bot_pace=0.5), ("easy", "normal", "hard"))
    started = next(m for m in inbox if isinstance(m, p.Started))
    over = next(m for m in inbox if isinstance(m, p.Over))
    assert r["seed_matches"](over.seed, started.seed_hash)
    assert not r["seed_matches"](over.seed + "x", started.seed_hash)
    rng = random.Random(over.seed)
    assert r["first_player"](rng, 3) == started.first  # first_player was null: drawn
    rolls = [
        e.faces for m in inbox if isinstance(m, p.State) for e in m.events
        if isinstance(e, Rolled)
    ]  # fmt: skip
    assert len(rolls) > 10
    assert [r["roll"](rng, len(faces)) for faces in rolls] == rolls


def test_the_documented_recipe_redeals_a_real_fools_gold_match():
    from tests.net.helpers import play_match

    r = recipe()
    players = 4
    table, seated, _ = play_match(None, players)  # a fresh secret seed, first drawn
    messages = seated[0][1].messages
    started = next(m for m in messages if isinstance(m, p.Started))
    over = next(m for m in messages if isinstance(m, p.Over))
    assert r["seed_matches"](over.seed, started.seed_hash)
    rng = random.Random(over.seed)
    assert r["first_player"](rng, players) == started.first
    deals = 0
    tops_checked = 0
    by_seat = [
        [m for m in box.messages if isinstance(m, p.State) and m.seat == seat]
        for seat, (_, box) in enumerate(seated)
    ]
    for state in by_seat[0]:
        for event in state.events:
            if not isinstance(event, RoundStarted):
                continue
            deals += 1
            hands, draw_pile = r["deal"](rng, players, event.start)
            for seat in range(players):
                view = next(
                    m.view for m in by_seat[seat]
                    if m.view.round_no == event.round_no
                )  # fmt: skip
                hand = [(c.name, c.kind, c.variant) for c in view.hand]
                assert hand == hands[seat], (event, seat)  # the same cards, in deal order
            # the top of the draw pile: the start player's first draw from it
            start = event.start
            for later in by_seat[start]:
                if later.view.round_no != event.round_no:
                    continue
                drew = [e for e in later.events if isinstance(e, Drew) and e.seat == start]
                if drew:
                    if drew[0].pile == "draw":
                        card = later.view.hand[-1]
                        assert (card.name, card.kind, card.variant) == draw_pile[0]
                        tops_checked += 1
                    break
    assert deals >= 3 and deals == over_rounds(messages)
    assert tops_checked >= 1


def over_rounds(messages) -> int:
    return max(m.view.round_no for m in messages if isinstance(m, p.State))


# -- which code answers what, and the settings' ranges ----------------------------------


async def test_each_documented_answer_is_the_hosts(make_host):
    host = await make_host(clock=FakeClock())
    rows = doc_rows("answers")
    assert len(rows) >= 20
    for where, cell, answer in rows:
        line = cell.strip("`").encode()
        code = re.match(r"`(\w+)`", answer)
        ref = re.search(r"ref `(\w+)`", answer)
        expected = (code.group(1), ref.group(1) if ref else None) if code else None
        if where == "decoder":
            conn = p.Connection(p.HOST)
            conn.receive_data(line + b"\n")
            try:
                message = conn.next_message()
            except p.RemoteProtocolError as error:
                got = (error.code.value, error.to_message().ref)
            else:
                assert answer.startswith("accepted"), (line, message)
                continue
            assert got == expected, (line, got)
            continue
        # lobby and game rows go to a real host over TCP, raw, each at a fresh table
        name = f"T{rows.index([where, cell, answer])}"
        host.create_table(name, "nuggets", seats=2, seed="answers", first_player=0, bot_pace=0)
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        writer.write(b'{"type":"hello","protocol": 3,"name":"Ann","table":"%s"}\n' % name.encode())
        if where == "game":
            writer.write(b'{"type":"add_bot"}\n{"type":"start"}\n')
        writer.write(line + b"\n" + b'{"type":"ping","id":"end"}\n')
        await writer.drain()
        seen = []
        while True:
            got = json.loads(await asyncio.wait_for(reader.readline(), 10))
            if got["type"] == "pong":
                break
            seen.append(got)
        writer.write(b'{"type":"leave"}\n')
        await writer.drain()
        writer.close()
        errors = [(m["code"], m["ref"]) for m in seen if m["type"] == "error"]
        if expected is None:
            assert errors == [], (line, errors)
        else:
            assert errors == [expected], (line, errors)


def _ranges(cell: str) -> list[tuple[float, float]]:
    return [
        (float(a), float(b)) for a, b in re.findall(r"(\d+(?:\.\d+)?) to (\d+(?:\.\d+)?)", cell)
    ]


def test_the_documented_setting_ranges_are_the_tables():
    from net.table import Settings, Table, Tables

    rows = {row[0].strip("`"): row for row in doc_rows("settings")}
    # seeded and lag_bound are facts about the table, not settings; game holds the
    # game's own (the next table)
    assert set(rows) == set(p.TableSettings.__struct_fields__) - {"seeded", "lag_bound", "game"}
    for game, index in (("nuggets", 0), ("foolsgold", 1)):
        for key, (_, kind, cell, _) in rows.items():
            ranges = _ranges(cell)
            if not ranges:
                continue
            low, high = ranges[index] if key == "seats" else ranges[0]
            step = 1 if kind == "int" else 0.5
            cast = int if kind == "int" else float
            for value, ok in ((low, True), (high, True), (low - step, False), (high + step, False)):
                tables = Tables()
                table = tables.add(Table("T", game, Settings(seats=2)))
                inbox: list = []
                owner = tables.hello(p.Hello(protocol=3, name="Ann"), inbox.append, print, 0.0)
                table.handle(owner, p.Configure(**{key: cast(value)}), 0.0)
                errors = [m.code for m in inbox if isinstance(m, p.Error)]
                if ok:
                    assert errors == [] and getattr(table.settings, key) == cast(value), (
                        game, key, value, errors)  # fmt: skip
                else:
                    assert errors == ["bad_setting"], (game, key, value, errors)


def test_the_documented_game_settings_are_the_games_declarations():
    from net.catalogue import games
    from net.table import Settings, Table, Tables

    rows = {(row[0].strip("`"), row[1].strip("`")): row for row in doc_rows("game settings")}
    declared = {(game.key, s.name) for game in games() for s in game.settings if s.configurable}
    assert set(rows) == declared
    for (game, key), (_, _, kind, cell, _) in rows.items():
        setting = next(s for s in spec(game).settings if s.name == key)
        ((low, high),) = _ranges(cell)
        assert (setting.low, setting.high) == (low, high)
        assert ("int" in kind) == setting.whole and ("null" in kind) == setting.optional
        step = 1 if setting.whole else 0.5
        cast = int if setting.whole else float
        for value, ok in ((low, True), (high, True), (low - step, False), (high + step, False)):
            tables = Tables()
            table = tables.add(Table("T", game, Settings(seats=2, game=dict(spec(game).defaults))))
            inbox: list = []
            owner = tables.hello(p.Hello(protocol=3, name="Ann"), inbox.append, print, 0.0)
            table.handle(owner, p.Configure(game={key: cast(value)}), 0.0)
            errors = [m.code for m in inbox if isinstance(m, p.Error)]
            if ok:
                assert errors == [] and table.settings.game[key] == cast(value), (
                    game, key, value, errors)  # fmt: skip
            else:
                assert errors == ["bad_setting"], (game, key, value, errors)
    # a setting of another game, or none, is refused by name, changing nothing
    tables = Tables()
    table = tables.add(Table("T", "nuggets", Settings.default("nuggets")))
    inbox = []
    owner = tables.hello(p.Hello(protocol=3, name="Ann"), inbox.append, print, 0.0)
    table.handle(owner, p.Configure(game={"round_cap": 10}, grace=5.0), 0.0)
    (error,) = [m for m in inbox if isinstance(m, p.Error)]
    assert error.code == "bad_setting" and "no setting 'round_cap'" in error.message
    assert "supply" in error.message and table.settings.grace == 30.0


def test_readiness_resets_when_a_game_starts_as_documented():
    from net.table import Settings, Table, Tables

    from .helpers import greedy_nuggets

    tables = Tables()
    table = tables.add(Table("T", "nuggets", Settings(seats=3, seed="ready", game={"supply": 3})))
    boxes: list[list] = [[], []]
    ann = tables.hello(p.Hello(protocol=3, name="Ann"), boxes[0].append, print, 0.0)
    bob = tables.hello(p.Hello(protocol=3, name="Bob"), boxes[1].append, print, 0.0)
    table.handle(ann, p.AddBot(), 0.0)
    table.handle(bob, p.Ready(), 0.0)
    table.handle(ann, p.Start(), 0.0)
    assert table.phase == "playing"
    now = 0.0
    while table.phase == "playing":
        for member, box in ((ann, boxes[0]), (bob, boxes[1])):
            state = [m for m in box if isinstance(m, p.State)][-1]
            if not state.view.over and state.view.current == state.seat:
                table.handle(member, greedy_nuggets(state.view), now)
        wake = table.next_wakeup()
        now = max(now + 0.1, wake or 0.0)
        table.tick(now)
    info = [m for m in boxes[0] if isinstance(m, p.TableUpdate)][-1].table
    assert info.phase == "over"
    assert [(s.kind, s.ready) for s in info.seats] == [
        ("human", False), ("human", False), ("bot", True)]  # fmt: skip
    table.handle(ann, p.Start(), now)
    assert [m.code for m in boxes[0] if isinstance(m, p.Error)][-1] == "not_ready"
    table.handle(bob, p.Ready(), now)
    table.handle(ann, p.Start(), now)
    assert table.phase == "playing"
