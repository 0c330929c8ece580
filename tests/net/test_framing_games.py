"""The framing knows no game (issue 59): ``net.protocol.framing`` imports neither the
catalogue nor the views; the games' side of the wire is handed to it by
``net.protocol`` (``framing.games``), and a framing without it leaves a state's view as
the raw bytes it came in as."""

from __future__ import annotations

import ast
from pathlib import Path

from net import protocol as p
from net import views
from net.protocol import framing

ROOT = Path(__file__).resolve().parents[2]


def test_the_framing_imports_no_registry_of_games():
    tree = ast.parse((ROOT / "net" / "protocol" / "framing.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for a in node.names}
    assert not imported & {"net.views", "net.catalogue", "net"}, imported
    assert framing.games is views.WIRE  # handed over by net.protocol


def test_without_the_games_a_state_stays_raw(monkeypatch):
    line = (b'{"type":"state","seat":0,"view":{"game":"nuggets","anything":1},'
            b'"events":[],"at":1.0}\n')
    monkeypatch.setattr(framing, "games", None)
    conn = p.Connection(p.CLIENT)
    conn.receive_data(line)
    state = conn.next_message()
    assert isinstance(state, p.State) and bytes(state.view) == b'{"game":"nuggets","anything":1}'
    monkeypatch.setattr(framing, "games", views.WIRE)
    conn = p.Connection(p.CLIENT)
    conn.receive_data(line)
    try:
        conn.next_message()
    except p.RemoteProtocolError as error:  # the games' own types refuse it
        assert error.code in (p.Code.BAD_FIELD, p.Code.MISSING_FIELD)
    else:
        raise AssertionError("an impossible view passed the games' own types")
