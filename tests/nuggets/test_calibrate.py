"""The calibration of the 3-5 player chance to win (nuggets.calibrate) and its table."""

from __future__ import annotations

import json
import random

import pytest

from nuggets import Game, Keep, Roll, Stop, calibrate, chances, multi, turns

from .helpers import faces

SHIPPED = json.loads(calibrate.TABLE_PATH.read_text())


def test_the_table_is_small_and_covers_every_size():
    assert calibrate.TABLE_PATH.stat().st_size < 64 * 1024  # the budget is 2 MB
    assert SHIPPED["format"] == calibrate.FORMAT and SHIPPED["knots"] == list(calibrate.KNOTS)
    for kind in ("start", "turn"):
        assert sorted(SHIPPED["maps"][kind]) == ["3", "4", "5"]
    for kind in SHIPPED["maps"]:  # the strong tables' maps ship only where they help
        assert set(SHIPPED["maps"][kind]) <= {"3", "4", "5"}
        for ys in SHIPPED["maps"][kind].values():
            assert ys[0] == 0.0 and ys[-1] == 1.0
            assert all(a < b for a, b in zip(ys, ys[1:], strict=False))  # keeps every order
    assert min(SHIPPED["games"].values()) >= 1000


def test_the_shipped_table_replays_from_its_seed():
    """The first games of each size, played again from the table's seed, are the
    games the table was fitted to (bots, every turn start, winners)."""
    seed = SHIPPED["seed"]
    for k in calibrate.SIZES:
        games = [calibrate.play(k, seed, i) for i in range(calibrate.DIGEST_GAMES)]
        assert calibrate.digest(games) == SHIPPED["digest"][str(k)], f"{k} players"


def test_games_mix_the_bots_and_follow_their_seed():
    a, b = calibrate.play(4, 7, 0), calibrate.play(4, 7, 0)
    assert a == b and a["starts"][0] == ((0, 0, 0, 0), 77, a["starts"][0][2])
    assert calibrate.play(4, 7, 1) != a
    bots = {bot for i in range(12) for bot in calibrate.play(3, 7, i)["bots"]}
    assert bots == set(calibrate.BOTS)


def test_the_fit_recovers_a_known_curve():
    """Outcomes drawn from a known calibration curve: the fitted map follows it."""
    rng = random.Random(5)
    truth = lambda p: p**1.6  # noqa: E731 - overconfident at the top, as the estimate was
    points = []
    for game in range(40_000):
        p = rng.random()
        points.append((p, 1.0 if rng.random() < truth(p) else 0.0, game))
    ys = calibrate.fit(points)
    assert max(abs(y - truth(x)) for x, y in zip(calibrate.KNOTS, ys, strict=True)) < 0.04
    flat = calibrate.fit([(p, float(rng.random() < p), i) for i, (p, _, _) in enumerate(points)])
    assert max(abs(y - x) for x, y in zip(calibrate.KNOTS, flat, strict=True)) < 0.04


def test_the_map_is_increasing_and_keeps_0_and_1():
    table = calibrate.load()
    for kind in ("start", "turn"):
        for k in calibrate.SIZES:
            grid = [table.apply(kind, k, i / 1000) for i in range(1001)]
            assert grid[0] == 0.0 and grid[-1] == 1.0
            assert all(a < b for a, b in zip(grid, grid[1:], strict=False))
    assert table.apply("turn", 2, 0.3) == 0.3  # two players: exact, not mapped


@pytest.mark.slow
def test_a_small_sample_is_roughly_calibrated():
    """A loose smoke check on 40 fresh games of 4 players (the bench measures it
    properly): the shipped chances beat 1/n on the Brier score, and on average they
    are within 6 points of how often the player to move won."""
    games = [calibrate.play(4, 1_000_003, i) for i in range(40)]
    table = calibrate.load()
    points = calibrate.samples(games, "turn")
    shown = [(table.apply("turn", 4, p), won) for p, won, _ in points]
    n = len(shown)
    brier = sum((p - won) ** 2 for p, won in shown) / n
    assert brier < sum((0.25 - won) ** 2 for _, won in shown) / n
    assert abs(sum(p for p, _ in shown) / n - sum(w for _, w in shown) / n) < 0.06


def test_a_stop_that_wins_is_still_advised_and_shown_as_certain():
    g = Game(["A", "B", "C", "D"], supply=3)
    g.holdings = [20, 21, 18, 15]
    g.apply(Roll(faces("N N N L L 2 3")))
    g.apply(Keep(faces("N N N")))
    c = chances.chances(g.view(0))
    assert c.stop == 1.0 and c.roll <= c.stop
    assert chances.best_action(g.view(0)) == Stop()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_shown_chances_keep_the_order_of_the_raw_ones(players):
    g = Game([f"p{i}" for i in range(players)], supply=30)
    g.holdings = [5 + 2 * i for i in range(players)]
    g.apply(Roll(faces("N N 5 5 5 L 2")))
    g.apply(Keep(faces("5 5 5")))
    view = g.view(0)
    shown = chances.chances(view)
    raw = chances._raw_chances(chances._Judge(view), turns.turn_state(view["kept"]))
    assert (shown.roll > shown.stop) == (raw.roll > raw.stop)
    assert shown.roll == calibrate.load().apply("turn", players, raw.roll)


def test_a_table_knows_its_kind_and_its_maps_are_named_for_it():
    from nuggets.calibration import map_key, table_kind

    assert table_kind(["hard", "hard", "hard"]) == "strong"
    assert table_kind(["shrewd", "hard"]) == "strong"
    assert table_kind(["hard", "normal"]) == "mixed"
    assert table_kind([]) == "mixed"  # people only: nothing known
    assert map_key("start") == "start" and map_key("turn", "strong") == "turn:strong"
    with pytest.raises(ValueError):
        map_key("start", "fierce")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_estimate_and_the_advisor_use_the_kind_of_table(players):
    from nuggets.calibration import load

    holdings, supply = tuple([7] + [3] * (players - 1)), 40
    raw = multi._shares(holdings, supply, 0)[0]
    for kind, key in (("mixed", "start"), ("strong", "start:strong")):
        assert multi.estimate(holdings, supply, 0, 0, kind=kind) == load().apply(key, players, raw)
    game = Game([f"p{i}" for i in range(players)], start=0)
    view = game.view(0)
    mixed, strong = chances.chances(view), chances.chances(view, kind="strong")
    raw_roll = chances._raw_chances(chances._Judge(view), turns.turn_state(())).roll
    assert mixed.roll == load().apply("turn", players, raw_roll)
    assert strong.roll == load().apply("turn:strong", players, raw_roll)
