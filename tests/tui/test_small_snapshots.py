"""Snapshots of the narrow and short layouts (issue 37): the menu, the lobby and both
tables at 60x20 (the size a new user saw slips at), 42x30 (a phone upright) and 90x18
(a phone on its side). Update with `--snapshot-update` and look at the SVGs."""

from __future__ import annotations

import pytest

from tests.tui.harness import foolsgold_table, nuggets_table, snapshot_app

SIZES = [(60, 20), (42, 30), (90, 18)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_menu_small(snap_compare, tmp_path, size):
    assert snap_compare(snapshot_app(tmp_path), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_nuggets_table_small(snap_compare, tmp_path, size):
    assert snap_compare(snapshot_app(tmp_path), terminal_size=size, run_before=nuggets_table(True))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_foolsgold_table_small(snap_compare, tmp_path, size):
    assert snap_compare(snapshot_app(tmp_path), terminal_size=size, run_before=foolsgold_table())
