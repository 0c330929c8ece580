"""Every score explained (issue 47): a settled round's line and banner say what made
each seat's points."""

from __future__ import annotations


def _two_seat_view(**values):
    import msgspec

    from net.games.foolsgold.views import FoolsGoldView

    base = {"seat": 1, "players": 2, "start": 0, "hand": None, "hand_sizes": [6, 5],
            "incoming_sizes": [0, 0], "draw_pile": 10, "trash_pile": 0, "nuggets_left": 0,
            "frozen": True, "deadline": None, "call_closes": None, "settled": True,
            "scores": [0, 0], "winner": None, "round_no": 1, "revealed": [],
            "grabbed": [[0, 1.0]]}
    return msgspec.convert({**base, **values}, FoolsGoldView)


def test_every_settled_round_says_what_made_each_seats_points():
    """The log's line and the banner name each part of a seat's points (issues 47, 57):
    at two seats (F12) a right call reads "+1 for a right call; at two there is no
    nugget to lose"."""
    from net.games.foolsgold.views import Settled
    from tui.games.foolsgold.events import describe, score_parts

    called = _two_seat_view(caller=1, revealed_set=False, deltas=[-1, 1])
    assert score_parts(called, 1) == ["+1 for a right call; at two there is no nugget to lose"]
    assert score_parts(called, 0) == ["-1 for a bluff called"]
    line = describe(Settled(deltas=[-1, 1], scorer=1), ["Dee", "Ann"], called)
    assert line == ("Round settled: Dee -1 (-1 for a bluff called); "
                    "Ann +1 (+1 for a right call; at two there is no nugget to lose)")
    wrong = _two_seat_view(caller=1, revealed_set=True, deltas=[1, -1])
    assert score_parts(wrong, 1) == ["-1 for a wrong call; at two there is no nugget to lose"]
    assert score_parts(wrong, 0) == ["+1 for a set, called wrongly"]
    quiet = _two_seat_view(caller=None, revealed_set=None, revealed=None, deltas=[1, 0])
    assert describe(Settled(deltas=[1, 0], scorer=0), ["Dee", "Ann"], quiet) == (
        "Round settled: Dee +1 (+1 for the first grab, not called); "
        "Ann +0 (at two there is no nugget to lose)")


def test_a_round_played_before_f12_reads_as_its_points_were_counted():
    """A match saved under the rules before F12 (F8 at two too) replays with the words
    of its own points: a right call at two netted 0."""
    from net.games.foolsgold.views import Settled
    from tui.games.foolsgold.events import describe, score_parts

    called = _two_seat_view(caller=1, revealed_set=False, deltas=[-1, 0])
    assert score_parts(called, 1) == ["+1 for a right call", "-1 for no nugget"]
    assert describe(Settled(deltas=[-1, 0], scorer=1), ["Dee", "Ann"], called) == (
        "Round settled: Dee -1 (-1 for a bluff called); "
        "Ann +0 (+1 for a right call, -1 for no nugget)")
    wrong = _two_seat_view(caller=1, revealed_set=True, deltas=[1, -2])
    assert score_parts(wrong, 1) == ["-1 for a wrong call", "-1 for no nugget"]
    quiet = _two_seat_view(caller=None, revealed_set=None, revealed=None, deltas=[1, -1])
    assert score_parts(quiet, 1) == ["-1 for no nugget"]


def test_at_three_seats_no_nugget_still_costs_one():
    from tui.games.foolsgold.events import score_parts

    view = _two_seat_view(players=3, hand_sizes=[6, 5, 5], incoming_sizes=[0, 0, 0],
                          scores=[0, 0, 0], grabbed=[[0, 1.0], [2, 1.5]], caller=1,
                          revealed_set=False, deltas=[-1, 0, 0])
    assert score_parts(view, 1) == ["+1 for a right call", "-1 for no nugget"]
    assert score_parts(view, 2) == []


def test_the_steal_dialog_puts_the_advisors_pick_first():
    """The dialog's highlight (its first line) is the advisor's pick (issue 47)."""
    from tui.games.nuggets.words import advised_first

    choices = [(1, "take 3 from Bob: 5 -> 2"), (2, "take 3 from Cy: 9 -> 6")]
    assert advised_first(choices, 2) == [(2, "take 3 from Cy: 9 -> 6 (advised)"),
                                         (1, "take 3 from Bob: 5 -> 2")]
    assert advised_first(choices, None) == choices


def test_every_die_chosen_offers_no_roll_on():
    """Hints that agree (issue 47): with every die chosen there is nothing to roll on."""
    import msgspec

    from net.games.nuggets.views import NuggetsView
    from tui.games.nuggets.phases import nuggets_now

    view = msgspec.convert({
        "seat": 0, "players": ["Ann", "Bob"], "current": 0, "phase": "keep", "supply": 30,
        "holdings": [0, 0], "kept": ["nugget"] * 4, "kept_value": 4,
        "rolled": ["nugget", "nugget", "nugget"], "dice_left": 3, "can_steal": False,
        "over": False, "winners": []}, NuggetsView)
    now = nuggets_now(view, [0], ["nugget", "nugget", "nugget"])
    assert "take" in now.keys
    assert "enter rolls on" not in now.status
    assert "all seven set aside, enter or t takes" in now.status
    some = nuggets_now(view, [0], ["nugget"])
    assert "roll" in some.keys and "enter rolls on" in some.status


async def test_the_tray_counts_only_a_set_aside_the_rules_take(tmp_path):
    """The set-aside tray shows the dice chosen to join it (issue 47): worth what the
    set-aside would be once the rules take it; one die of a new number, which they
    refuse, reads "chosen, not allowed" and adds nothing, beside the hint saying why.
    The real app against a bot, seeded."""
    from nuggets import score
    from tests.tui.harness import make_app, until
    from tui.games.nuggets.dice import KeptTray
    from tui.games.nuggets.screen import NuggetsScreen

    app = make_app(tmp_path, start=("solo", "nuggets", 1),
                   table_options={"seed": "tray-worth", "bot_pace": 0.0})
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsScreen), "the table")
        screen: NuggetsScreen = app.screen
        await until(pilot, lambda: screen.view is not None and screen.acting_seat is not None
                    and screen.view.phase == "roll", "my turn")
        await pilot.press("enter")
        await until(pilot, lambda: screen.view.phase == "keep", "a roll")
        rolled = list(screen.view.rolled)
        tray = screen.query_one(KeptTray)
        # one die of a number, nothing set aside yet: a new number needs three or more
        lone = next((i for i, face in enumerate(rolled) if face not in ("nugget", "lasso")),
                    None)
        assert lone is not None, rolled  # the seed's first roll has a number
        await pilot.press(str(lone + 1))
        await pilot.pause()
        shown = str(tray.render())
        assert "chosen, not allowed" in shown and shown.endswith("worth 0"), shown
        assert "Not allowed" in screen.query_one("Hint").text
        await pilot.press(str(lone + 1))  # unchosen again
        await pilot.press("space")  # the advisor's set-aside, which the rules take
        await pilot.pause()
        chosen = [rolled[i] for i in sorted(screen.selected)]
        shown = str(tray.render())
        assert "not allowed" not in shown and f"worth {score(chosen)}" in shown, shown
