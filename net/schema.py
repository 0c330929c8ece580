"""The JSON Schema of the protocol, generated from the code: every message in both
directions (``net.protocol``), every view and every event of every registered game
(``net.views``, through the catalogue).

    python -m net.schema           # writes docs/protocol.schema.json
    python -m net.schema --check   # exits 1 if that file is stale

The written file is the source of truth ``docs/PROTOCOL.md`` points to; the tables
there are a readable summary, checked against these same Structs by
``tests/net/test_protocol_doc.py``. ``tests/net/test_schema.py`` fails when the file
no longer matches the code.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Union

import msgspec

from net import protocol as p
from net import views

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "protocol.schema.json"
COMMAND = "python -m net.schema"



def roots() -> dict[str, Any]:
    """The named roots, each a union tagged by its "type" (messages, events) or "game"
    (views): the views and events of the games registered now."""
    kinds = views.kinds()
    return {
        "ClientMessage": p.ClientMessage,
        "HostMessage": p.HostMessage,
        "View": Union[tuple(kinds.views.values())],  # noqa: UP007 (built at run time)
        "Event": Union[tuple(e for each in kinds.events.values() for e in each)],  # noqa: UP007
    }


def schema() -> dict[str, Any]:
    """The whole schema: a line is a ``ClientMessage`` or a ``HostMessage``."""
    named = roots()
    found, components = msgspec.json.schema_components(
        named.values(), ref_template="#/$defs/{name}"
    )
    defs = dict(components)
    for name, root in zip(named, found, strict=True):
        defs[name] = root
    # a state's view and events are decoded by each game's own types (``net.views``)
    state = defs["State"]["properties"]
    state["view"] = {"$ref": "#/$defs/View"}
    state["events"] = {"type": "array", "items": {"$ref": "#/$defs/Event"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"The Motherlode protocol, version {p.PROTOCOL_VERSION}",
        "description": (
            "One JSON object per line (docs/PROTOCOL.md). A client sends ClientMessage "
            "lines, a host HostMessage lines; a state message carries a View (tagged by "
            "its game) and Events (tagged by their type). Generated from net/protocol/ "
            f"and net/views.py by `{COMMAND}`: do not edit by hand."
        ),
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/HostMessage"}],
        "$defs": defs,
    }


def render() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    parser.add_argument("--path", type=Path, default=SCHEMA_PATH)
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.path.read_text(encoding="utf-8") if args.path.exists() else ""
        if current != text:
            print(f"{args.path} is stale: run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    args.path.write_text(text, encoding="utf-8")
    print(f"wrote {args.path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
