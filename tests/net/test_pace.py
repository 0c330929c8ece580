"""A table's pace, for slower hands: the owner chooses it in the lobby, every seat is
told, the game's paced time windows and the bots stretch with it, and the races stay
lag-fair at every pace."""

from __future__ import annotations

import random

import pytest

from net import protocol as p
from net.games import make_brain
from net.protocol import Code
from net.table import Settings, Table, Tables
from tests.net.race import Box, grabbed, race_table, run_until


def _lobby(game: str = "foolsgold"):
    tables = Tables()
    table = tables.add(Table("Camp", game, Settings.default(game)))
    owner_box, other_box = Box(), Box()
    owner = tables.hello(p.Hello(protocol=3, name="Ann"), owner_box.deliver, print, 0.0)
    tables.hello(p.Hello(protocol=3, name="Bob"), other_box.deliver, print, 0.0)
    return table, owner, owner_box, other_box


def test_the_owner_sets_the_pace_and_every_seat_is_told():
    table, owner, owner_box, other_box = _lobby()
    table.handle(owner, p.Configure(pace="relaxed"), 1.0)
    assert table.settings.pace == "relaxed"
    for box in (owner_box, other_box):
        assert box.of(p.TableUpdate)[-1].table.settings.pace == "relaxed"
        terms = [n for n in box.of(p.Notice) if n.event == "terms"]
        assert terms and terms[-1].detail == "pace normal -> relaxed"


def test_a_pace_that_is_not_one_is_refused_and_changes_nothing():
    table, owner, owner_box, _ = _lobby()
    bad = p.Configure(grace=20.0)
    bad.pace = "sleepy"  # what a hand-written client might send past the decoder
    table.handle(owner, bad, 2.0)
    (error,) = owner_box.of(p.Error)
    assert error.code == Code.BAD_SETTING and "normal, steady, relaxed" in error.message
    assert table.settings.pace == "normal" and table.settings.grace == 15.0


@pytest.mark.parametrize(("pace", "slow"), [("normal", 1), ("steady", 2), ("relaxed", 4)])
def test_the_pace_stretches_the_games_time_windows_and_its_bots(pace, slow):
    settings = Settings.build("foolsgold", seats=2, pace=pace)
    own = settings.own("foolsgold")
    assert (own["grab_timeout"], own["call_window"], own["intermission"]) == (
        10.0 * slow, 5.0 * slow, 4.0 * slow)
    assert settings.game["grab_timeout"] == 10.0  # the setting itself is the game's own
    # a bot's every plan is that many times as far off as the game's bot makes it
    view = {"over": False, "current": 0, "phase": "roll", "players": ["A", "B"], "seat": 0,
            "supply": 10, "holdings": [0, 0], "kept": [], "kept_value": 0, "rolled": None,
            "dice_left": 7, "can_steal": False, "winners": []}
    base = make_brain("nuggets", 0, "normal", random.Random(1), 0.9).plan(view, 100.0)
    paced = make_brain("nuggets", 0, "normal", random.Random(1), 0.9, slow).plan(view, 100.0)
    assert base is not None and paced is not None and base[0] == paced[0]
    assert paced[1] - 100.0 == pytest.approx((base[1] - 100.0) * slow)


def test_races_stay_lag_fair_at_a_relaxed_pace():
    """The far player grabs first (80 ms away, pressed at 10.000) and the near one
    30 ms later; at a relaxed pace the earlier press still wins, as at every pace."""
    table, (far, near, _), boxes = race_table(lags=(0.080, 0.0, 0.0), pace="relaxed")
    assert table.driver.match.round.grab_timeout == 40.0
    table.handle(near, p.Move(move="grab"), 10.030)
    table.handle(far, p.Move(move="grab"), 10.080)
    run_until(table, 10.2)
    assert [s for s, _ in grabbed(table)] == [0, 1]
