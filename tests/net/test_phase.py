"""The table's life is one state machine (issue 59): ``Table.transition`` is the only
way its phase changes, by the table of ``net.table.phase``; a move the table has no
transition for is the host's bug and raises, changing nothing; and no module but the
state machine's own assigns a phase."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from net.table import Table
from net.table.phase import TRANSITIONS, Phase, PhaseError

ROOT = Path(__file__).resolve().parents[2]


def test_every_transition_and_nothing_else():
    for (start, event), end in TRANSITIONS.items():
        table = Table("Camp", "nuggets")
        table.phase = start  # the test sets the start (the one assignment a test makes)
        assert table.transition(event) is end and table.phase is end
    table = Table("Camp", "nuggets")
    assert table.phase is Phase.LOBBY
    with pytest.raises(PhaseError, match="no 'finish' from 'lobby'"):
        table.transition("finish")
    assert table.phase is Phase.LOBBY  # unchanged
    table.transition("start")
    with pytest.raises(PhaseError, match="no 'start' from 'playing'"):
        table.transition("start")
    assert table.phase is Phase.PLAYING
    with pytest.raises(PhaseError):
        table.transition("a typo")


def test_only_the_tables_core_assigns_a_phase():
    assigned = set()
    for package in ("net", "tui", "serve"):
        for path in (ROOT / package).rglob("*.py"):
            if re.search(r"\bphase = ", path.read_text(encoding="utf-8")):
                assigned.add(str(path.relative_to(ROOT)))
    assert assigned == {"net/table/phase.py"}, assigned


def test_the_wire_says_the_phase_as_its_word():
    table = Table("Camp", "nuggets")
    info = table.info()
    assert info.phase == "lobby" and type(info.phase) is str
