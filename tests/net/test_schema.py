"""docs/protocol.schema.json is generated from the code and kept current."""

from __future__ import annotations

import json

from net import protocol as p
from net import schema, views


def test_the_committed_schema_is_the_codes():
    committed = schema.SCHEMA_PATH.read_text(encoding="utf-8")
    assert committed == schema.render(), (
        f"docs/protocol.schema.json is stale: run `{schema.COMMAND}` and commit it"
    )


def test_the_check_command_tells_a_stale_file(tmp_path, capsys):
    path = tmp_path / "protocol.schema.json"
    assert schema.main(["--check", "--path", str(path)]) == 1  # missing
    path.write_text(schema.render().replace("Motherlode", "Lodemother"), encoding="utf-8")
    assert schema.main(["--check", "--path", str(path)]) == 1
    assert "python -m net.schema" in capsys.readouterr().err
    assert schema.main(["--path", str(path)]) == 0
    assert schema.main(["--check", "--path", str(path)]) == 0


def test_every_message_view_and_event_has_its_definition():
    defs = json.loads(schema.render())["$defs"]
    for union, tag_field in (
        (p.ClientMessage, "type"),
        (p.HostMessage, "type"),
        (tuple(views.kinds().views.values()), "game"),
        (views.kinds().event_games, "type"),
    ):
        for struct in getattr(union, "__args__", union):
            definition = defs[struct.__name__]
            tag = struct.__struct_config__.tag
            assert definition["properties"][tag_field] == {"enum": [tag]}, struct
            fields = set(definition["properties"]) - {tag_field}
            assert fields == set(struct.__struct_fields__), struct
    state = defs["State"]["properties"]
    # a state carries a view of some game, told apart by "game", and its events
    assert state["view"] == {"$ref": "#/$defs/View"}
    assert state["events"] == {"items": {"$ref": "#/$defs/Event"}, "type": "array"}
    assert {ref["$ref"] for ref in defs["View"]["anyOf"]} == {
        f"#/$defs/{view.__name__}" for view in views.kinds().views.values()}
    assert {ref["$ref"] for ref in defs["Event"]["anyOf"]} == {
        f"#/$defs/{event.__name__}" for event in views.kinds().event_games}
