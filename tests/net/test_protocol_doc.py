"""docs/PROTOCOL.md stays true: every error code and message type is documented, and
the `nc` transcript replays against a real host line for line."""

import asyncio
import functools
import hashlib
import json
import random
import re
from pathlib import Path

import msgspec
import pytest

import nuggets
from net import protocol as p
from net.catalogue import spec
from net.clock import FakeClock
from net.games.foolsgold.views import Drew, RoundStarted
from net.games.nuggets.views import Rolled

from .helpers import settle

DOC = (Path(__file__).parents[2] / "docs" / "PROTOCOL.md").read_text()



def watched_bot_game(settings, difficulties) -> list:
    """A Gold Nuggets game of bots at the table core, played to its end; returns every
    message a spectator was sent."""
    from net.table import Table, Tables

    tables = Tables()
    table = tables.add(Table("Camp", "nuggets", settings))
    for difficulty in difficulties:
        table.add_bot(difficulty)
    inbox: list = []
    tables.hello(p.Hello(protocol=3, name="Eve", spectate=True), inbox.append, print, 0.0)
    table.start(0.0)
    while table.phase == "playing":
        table.tick(table.next_wakeup())
    return inbox

def test_every_error_code_is_documented():
    table = DOC[DOC.index("## Error codes") :]
    table = table[: table.index("\n## ", 3)]  # this section only
    documented = set(re.findall(r"^\| `([a-z0-9_]+)` \|", table, re.M))
    assert documented == {code.value for code in p.Code}


def test_every_message_type_is_documented():
    for union in (p.ClientMessage, p.HostMessage):
        for kind in union.__args__:
            assert f"| `{kind.__struct_config__.tag}` |" in DOC, kind


def transcript():
    block = DOC[DOC.index("<!-- transcript") :]
    block = block[block.index("```\n") + 4 :]
    return block[: block.index("```")].splitlines()


def normal(line):
    data = json.loads(line)
    if data.get("type") == "welcome":
        data["token"] = "<token>"
    return data


async def test_the_nc_transcript_replays_line_for_line(make_host):
    host = await make_host(clock=FakeClock())
    host.create_table(
        "Saloon", "nuggets", seats=2, seed="nc-0", supply=5, first_player=0, bot_pace=0.0
    )
    reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
    lines = transcript()
    assert lines[0].startswith("> ") and lines[-1].startswith("< ")
    i = 0
    while i < len(lines):
        assert lines[i].startswith("> ")
        writer.write(lines[i][2:].encode() + b"\n")
        await writer.drain()
        i += 1
        while i < len(lines) and lines[i].startswith("< "):
            got = await asyncio.wait_for(reader.readline(), 10)
            while json.loads(got)["type"] == "probe":  # the transcript leaves them out
                got = await asyncio.wait_for(reader.readline(), 10)
            assert normal(got) == normal(lines[i][2:])
            i += 1
    await settle()
    writer.close()


def test_the_transcripts_seed_checks_out():
    assert hashlib.sha256(b"nc-0").hexdigest() in DOC
    faces = [f.value for f in nuggets.roll_dice(random.Random("nc-0"), 7)]
    assert faces == ["4", "nugget", "lasso", "nugget", "nugget", "nugget", "nugget"]


# -- views and events (issue 10, point 11) ---------------------------------------------

FACES = {"nugget", "lasso", "2", "3", "4", "5"}


def doc_rows(marker: str) -> list[list[str]]:
    """The body rows of the table right after ``<!-- marker``, as lists of cells."""
    block = DOC[DOC.index(f"<!-- {marker}") :].splitlines()[1:]
    rows = []
    for line in block:
        if not line.startswith("|"):
            if rows:
                break
            continue
        rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows[2:]  # the header and its rule


def documented_views(game: str) -> dict[str, str]:
    return {row[0].strip("`"): row[1] for row in doc_rows(f"view: {game}")}


def documented_events(game: str) -> dict[str, dict[str, str]]:
    events = {}
    for row in doc_rows(f"events: {game}"):
        fields = re.findall(r"`(\w+)` ([^`]+?)(?:, (?=`)|$)", row[1])
        events[row[0].strip("`")] = dict(fields)
    return events


@functools.cache
def _alternatives(kind: str) -> tuple[str, ...]:
    """``kind`` split at its top-level ``or``s (not inside parentheses), each without
    the parentheses around it: ``array of (int or null) or null`` is two."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(kind):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and kind.startswith(" or ", i):
            out.append(kind[start:i])
            start = i + len(" or ")
    out.append(kind[start:])
    parts = [one.strip() for one in out]
    return tuple(one[1:-1] if one.startswith("(") and one.endswith(")") else one
                 for one in parts)  # fmt: skip


def conforms(value, kind: str) -> bool:
    """Whether a JSON value has the documented type (``int or null``, ``array of
    face``, ``array of [int, number]``, ``card``, ``array of (int or null)`` ...)."""
    for one in _alternatives(kind):
        if one != kind and " or " in one:  # it was in parentheses
            if conforms(value, one):
                return True
        elif one.startswith("array of "):
            inner = one[len("array of ") :]
            if isinstance(value, list) and all(conforms(v, inner) for v in value):
                return True
        elif one.startswith("["):
            parts = [p.strip() for p in one.strip("[]").split(",")]
            if isinstance(value, list) and len(value) == len(parts):
                if all(conforms(v, k) for v, k in zip(value, parts, strict=True)):
                    return True
        elif one == "card":
            if (
                isinstance(value, dict)
                and set(value) == {"name", "kind", "variant"}
                and value["kind"] in ("animal", "prospector")
                and all(isinstance(v, str) for v in value.values())
            ):
                return True
        elif one == "face":
            if value in FACES:
                return True
        else:
            checks = {
                "int": lambda v: type(v) is int,
                "number": lambda v: type(v) in (int, float),
                "string": lambda v: isinstance(v, str),
                "bool": lambda v: isinstance(v, bool),
                "null": lambda v: v is None,
            }
            assert one in checks, f"the document uses an unknown type {one!r}"
            if checks[one](value):
                return True
    return False


def rules_events(*modules) -> dict[str, set[str]]:
    """The event types and fields each rules module lists in its docstring."""
    events = {}
    for module in modules:
        for kind, rest in re.findall(r'\{"type": "(\w+)"([^}]*)\}', module.__doc__):
            events[kind] = set(re.findall(r'"(\w+)":', rest))
    return events


def test_the_event_tables_match_the_rules_docstrings():
    import foolsgold.match
    import foolsgold.round
    import nuggets.rules

    def fields(game):
        return {kind: set(f) for kind, f in documented_events(game).items()}

    assert fields("nuggets") == rules_events(nuggets.rules)
    host_events = {"next_round": {"at"}}  # the host's own (net/games.py)
    assert fields("foolsgold") == rules_events(foolsgold.round, foolsgold.match) | host_events


def test_the_view_and_event_tables_are_the_typed_structs():
    """The tables are a readable summary of net.views (the schema is generated from it)."""
    from net import views

    for game, struct in views.kinds().views.items():
        assert list(documented_views(game)) == ["game", *struct.__struct_fields__], game
        documented = documented_events(game)
        typed = {e.__struct_config__.tag: list(e.__struct_fields__)
                 for e in views.kinds().events[game]}  # fmt: skip
        assert {kind: list(fields) for kind, fields in documented.items()} == typed, game


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
