"""The advisor panel's lines: chance to win next to expected nuggets, and the closer."""

from net.views import to_view
from nuggets import Game, Keep, Roll
from tests.tui.harness import last_turn
from tui.games.nuggets.advisor import advice_lines


def closer_view(players=("Ann", "Bob"), holdings=(37, 38), supply=2):
    g = Game(list(players), supply=supply)
    g.holdings = list(holdings)
    g.apply(Roll(["nugget", "nugget", "lasso", "lasso", "2", "3", "4"]))
    g.apply(Keep(["nugget", "nugget", "lasso", "lasso"]))
    return to_view(g.view(0))


def test_the_panel_says_stop_when_stopping_wins():
    lines = advice_lines(closer_view())
    assert lines[0].startswith("To win: stop 100.0%, roll on 7")
    assert lines[0].endswith("-> stop: it wins the game")
    assert lines[1].startswith("Nuggets this turn: stop 2.00, roll on 2.30")
    assert lines[2].startswith("win %: exact, both play to win")


def test_the_panel_labels_an_estimate_and_an_unsolved_game():
    view = closer_view(("Ann", "Bob", "Cid"), (30, 38, 7), supply=2)
    lines = advice_lines(view)
    assert "stop: it wins the game" not in lines[0]  # Bob would still lead
    assert lines[-1].startswith("win %: estimated from duels")
    big = closer_view(holdings=(70, 70), supply=2)  # 142 nuggets: beyond the table
    lines = advice_lines(big)
    assert lines[0].startswith("To win: stop -, roll on -")
    assert lines[-1].startswith("win %: not solved for this game")


def test_the_panel_names_whom_to_steal_from():
    g = Game(["Ann", "Bob"], supply=3)
    g.holdings = [30, 44]
    g.apply(Roll(["lasso"] * 3 + ["5"] * 3 + ["nugget"]))
    g.apply(Keep(["lasso"] * 3 + ["5"] * 3 + ["nugget"]))
    (line, note) = advice_lines(to_view(g.view(0)))
    assert line.startswith("All seven set aside: stop and steal 6 from Bob: win ")
    assert "; take from the supply: 0.0%" in line
    assert note.startswith("win %: exact")


def test_a_steal_is_named_in_words_with_the_take_beside_it():
    best, then, _note = advice_lines(last_turn())
    assert best.startswith("Best to win: lasso 5 (22.1%, then stop and steal 5 from Bob)")
    # the take and the steal apart: taking the last 5 ends the game with Bob ahead
    assert then.startswith("Then: win steal from Bob 22.1% / take 0.0% / roll on -")
    line, _note = advice_lines(last_turn(keep_last=True))
    assert line.startswith(
        "All seven set aside: stop and steal 5 from Bob: win 22.1%; take from the supply: 0.0%"
    )


def test_a_stop_that_takes_from_the_supply_shows_one_figure():
    lines = advice_lines(closer_view())
    assert "steal " not in " ".join(lines[:2])
    g = Game(["Ann", "Bob"], supply=3)
    g.holdings = [30, 31]
    g.apply(Roll(["nugget"] * 4 + ["lasso", "lasso", "2"]))
    then = advice_lines(to_view(g.view(0)))[1]
    assert then.startswith("Then: win stop ") and "take" not in then


def test_the_keys_follow_the_panel():
    # space / enter pick what the panel recommends: the closer's set-aside, then stop.
    from tui.games.nuggets.advisor import advised_keep, advised_next

    g = Game(["Ann", "Bob"], supply=3)
    g.holdings = [30, 31]
    g.apply(Roll(["nugget"] * 4 + ["lasso", "lasso", "2"]))
    assert [f.value for f in advised_keep(to_view(g.view(0)))] == ["nugget"] * 4 + ["lasso"] * 2
    assert advised_next(closer_view()) == ("stop", None)
    g = Game(["Ann", "Bob"], supply=3)
    g.holdings = [30, 44]
    g.apply(Roll(["lasso"] * 3 + ["5"] * 3 + ["nugget"]))
    g.apply(Keep(["lasso"] * 3 + ["5"] * 3 + ["nugget"]))
    assert advised_next(to_view(g.view(0))) == ("stop", 1)
    big = closer_view(holdings=(70, 70), supply=2)  # beyond the table: expected nuggets
    assert advised_next(big) == ("stop", None)
