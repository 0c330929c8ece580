"""Footers and status lines follow the state of play (issue 18): every phase of both
games, from the seat that acts and from the seats that watch.

The derivation (`tui.phases`) is checked on views the rules engines produce; then the
real app on a real host shows the same in its footer and status line, phase by phase.
"""

from __future__ import annotations

import random

from foolsgold import Call, Discard, Draw, Grab, Round, Tick, legal_actions, standard_deck
from net import protocol as p
from net.views import to_view
from nuggets import Game, Keep, Roll, Stop
from tui.games.foolsgold.phases import foolsgold_now
from tui.games.nuggets.phases import nuggets_now
from tui.phases import lobby_now

# -- the derivation, on the rules engines' own views -----------------------------------


def _nuggets(*moves, players=("Ann", "Bob"), seat=0):
    game = Game(list(players))
    for move in moves:
        game.apply(move)
    return to_view(game.view(seat))


def test_gold_nuggets_each_phase_for_the_mover_and_the_others():
    start = _nuggets()
    assert nuggets_now(start, [0]) .keys == {"roll"}
    assert nuggets_now(start, [0]).status == "enter rolls all seven dice."
    waiting = nuggets_now(start, [1])
    assert waiting.keys == set() and waiting.status == "Ann is playing."
    watching = nuggets_now(start, [])
    assert watching.keys == set() and watching.status == "You are watching: Ann plays."
    # hot-seat: both seats on this keyboard, so the mover's keys, whoever moves
    assert nuggets_now(start, [0, 1]).keys == {"roll"}

    rolled = _nuggets(Roll(["nugget", "lasso", "3", "3", "3", "5", "2"]))
    keep = nuggets_now(rolled, [0])
    assert keep.phase == "keep" and "take" not in keep.keys and "steal" not in keep.keys
    assert {"roll", "advised", "toggle"} <= keep.keys
    assert keep.status.startswith("Pick dice (1-7, n, l, F2-F5; space: advised)")
    chosen = nuggets_now(rolled, [0], ["3", "3", "3"])
    assert {"roll", "take"} <= chosen.keys and "steal" not in chosen.keys
    assert chosen.status == "Set aside 3x 3: enter rolls on, t takes."
    wrong = nuggets_now(rolled, [0], ["5"])  # a new number needs three dice
    assert "roll" not in wrong.keys and "take" not in wrong.keys
    assert wrong.status.startswith("Not allowed: a new number needs three or more dice")
    assert "Legal:" in wrong.status
    assert nuggets_now(rolled, [1]).keys == set()

    chose = _nuggets(Roll(["nugget", "lasso", "3", "3", "3", "5", "2"]), Keep(["3", "3", "3"]))
    choose = nuggets_now(chose, [0])
    assert choose.keys == {"roll", "take", "advised"}  # space plays the advice
    assert choose.status == "enter rolls the 4 dice left, t takes 3."


def test_a_steal_is_offered_only_when_it_would_take_something():
    lassos = Roll(["lasso", "lasso", "lasso", "nugget", "2", "4", "4"])
    # Bob holds nothing: three lassos steal nothing from him
    nobody = nuggets_now(_nuggets(lassos), [0], ["lasso"] * 3 + ["nugget"])
    assert "steal" not in nobody.keys and "(nobody to steal from)" in nobody.status
    worthless = nuggets_now(_nuggets(lassos), [0], ["lasso"] * 3)
    assert "steal" not in worthless.keys and "(worth nothing to steal)" in worthless.status
    # Bob took 7 earlier: now the same set-aside steals
    bob_has = [Roll(["nugget"] * 7), Keep(["nugget"] * 7), Stop(),  # Ann: 7, a bonus turn
               Roll(["2", "2", "3", "3", "4", "4", "5"])]  # a bust: Bob's turn
    bob_has += [Roll(["nugget"] * 7), Keep(["nugget"] * 7), Stop(),
                Roll(["2", "2", "3", "3", "4", "4", "5"])]  # Bob: 7, busts: Ann
    view = _nuggets(*bob_has, lassos)
    assert view.current == 0 and view.holdings == [7, 7]
    steal = nuggets_now(view, [0], ["lasso"] * 3 + ["nugget"])
    assert "steal" in steal.keys and steal.status.endswith(", s steals.")
    kept = _nuggets(*bob_has, lassos, Keep(["lasso"] * 3 + ["nugget"]))
    assert nuggets_now(kept, [0]).keys == {"roll", "take", "steal", "advised"}


def test_gold_nuggets_all_seven_set_aside_and_game_over():
    seven = _nuggets(Roll(["nugget"] * 7), Keep(["nugget"] * 7))
    take = nuggets_now(seven, [0])
    assert take.keys == {"take", "advised"}
    assert take.status == "All seven dice set aside: t takes 7. Then you play a bonus turn."
    game = Game(["Ann", "Bob"], supply=3)
    game.apply(Roll(["nugget"] * 7))
    game.apply(Keep(["nugget"] * 7))
    game.apply(Stop())
    over = to_view(game.view(0))
    for seats in ([0], [1], []):
        assert nuggets_now(over, seats).keys == set()
        assert nuggets_now(over, seats).status == "q leaves the table."


def _round(players=3, start=0, seed=7):
    deck = standard_deck(players)
    random.Random(seed).shuffle(deck)
    return Round(players, start, deck)


def _fg(rnd, seat, **match):
    view = rnd.view(seat)
    view.update({"scores": [0] * rnd.players, "winner": None, "round_no": 1}, **match)
    return to_view(view)


def test_fools_gold_passing_phases_for_each_seat():
    rnd = _round()
    names = ["Ann", "Bob", "Cy"]
    start = foolsgold_now(_fg(rnd, 0), 0, names)
    assert start.keys == {"draw", "grab"} and start.status == "d draws from the draw pile."
    wait = foolsgold_now(_fg(rnd, 1), 1, names)
    assert wait.keys == {"grab"}
    assert wait.status == "Waiting for a card from your right neighbour."
    rnd.apply(Draw(0), 1.0)
    six = foolsgold_now(_fg(rnd, 0), 0, names)
    assert six.keys == {"discard", "grab"} and six.status.startswith("Pass a card: 1-6")
    rnd.apply(Discard(0, rnd.hands[0][0]), 2.0)
    bob = foolsgold_now(_fg(rnd, 1), 1, names)
    assert bob.keys == {"draw", "grab"} and bob.status == "d draws from your incoming pile."
    watching = foolsgold_now(_fg(rnd, None), None, names)
    assert watching.keys == set() and watching.status == "You are watching."


def test_fools_gold_race_call_window_and_settling():
    rnd = _round(players=4)  # three nuggets
    names = ["Ann", "Bob", "Cy", "Dee"]
    rnd.apply(Grab(1), 10.0)  # Bob grabs first: hands freeze
    ann = foolsgold_now(_fg(rnd, 0), 0, names, left=5.0)
    assert ann.keys == {"grab", "call"}
    assert ann.status == "g grabs a nugget, f calls \"Fool's Gold!\" (call window: 5.0 s)."
    bob = foolsgold_now(_fg(rnd, 1), 1, names)
    assert bob.keys == set() and bob.status == "Waiting for the race to end."
    rnd.apply(Grab(0), 11.0)  # Ann has one now: she may still call
    assert foolsgold_now(_fg(rnd, 0), 0, names).keys == {"call"}
    spectator = foolsgold_now(_fg(rnd, None), None, names)
    assert spectator.keys == set() and spectator.status == "Waiting for the race to end."
    # the last nugget goes: the race is over, the call window still open
    rnd.apply(Grab(2), 12.0)
    assert rnd.nuggets_left == 0 and not rnd.settled
    bob = foolsgold_now(_fg(rnd, 1), 1, names, left=3.0)
    assert bob.keys == set() and bob.phase == "race-over"
    assert bob.status == ("No nuggets left: the others may call \"Fool's Gold!\" until the "
                          "window closes (call window: 3.0 s).")
    assert "Waiting for the race to end" not in bob.status
    assert foolsgold_now(_fg(rnd, 0), 0, names).keys == {"call"}
    dee = foolsgold_now(_fg(rnd, 3), 3, names, left=3.0)  # Dee, without a nugget
    assert dee.keys == {"call"}
    assert dee.status == "No nuggets left: f calls \"Fool's Gold!\" (call window: 3.0 s)."
    # the window closes: the round settles
    rnd.apply(Tick(), 15.0)
    assert rnd.settled
    for seat in (0, 1, 3, None):
        over = foolsgold_now(_fg(rnd, seat), seat, names)
        assert over.keys == set() and over.phase == "round-over"
        assert over.status.startswith("Points of this round in ( )")


def test_fools_gold_window_closed_mid_race_and_a_call_made():
    rnd = _round()
    names = ["Ann", "Bob", "Cy"]
    rnd.apply(Grab(1), 10.0)
    rnd.apply(Tick(), 15.0)  # the call window closed; the race runs to 20 s
    ann = foolsgold_now(_fg(rnd, 0), 0, names)
    assert ann.keys == {"grab"} and ann.status == "g grabs a nugget."
    other = _round()
    other.apply(Grab(1), 10.0)
    other.apply(Call(2), 11.0)
    ann = foolsgold_now(_fg(other, 0), 0, names)
    assert ann.keys == {"grab"}
    assert ann.status == "Cy called Fool's Gold! g grabs a nugget."
    cy = foolsgold_now(_fg(other, 2), 2, names)
    assert cy.status == "Cy called Fool's Gold! g grabs a nugget." and cy.keys == {"grab"}


def test_fools_gold_keys_are_the_rules_legal_actions():
    """The footer offers what the rules would accept (``foolsgold.legal_actions``), in
    every phase of a round and from every seat; a race out of time is told by its event."""
    names = ["Ann", "Bob", "Cy", "Dee"]
    deck = standard_deck(4)
    random.Random(7).shuffle(deck)
    rnd = Round(4, 1, deck, grab_timeout=2.0, call_window=5.0)  # the race ends first
    steps = [(lambda: Draw(1), 1.0), (lambda: Discard(1, rnd.hands[1][0]), 2.0),
             (lambda: Draw(2), 3.0), (lambda: Grab(3), 4.0), (lambda: Grab(2), 5.0),
             (lambda: Tick(), 6.5), (lambda: Call(0), 7.0)]
    phases = []
    for action, now in steps:
        rnd.apply(action(), now)
        for seat in range(4):
            shown = foolsgold_now(_fg(rnd, seat), seat, names, race_over=rnd.race_over)
            assert shown.keys == legal_actions(rnd.view(seat), seat, race_over=rnd.race_over)
            phases.append(shown.phase)
    assert {"discard", "draw", "wait-card", "race", "race-over", "round-over"} <= set(phases)


def test_fools_gold_match_over():
    rnd = _round()
    for seat in (0, 1, None):
        over = foolsgold_now(_fg(rnd, seat, winner=1, scores=[1, 3, 0]), seat, ["A", "B", "C"])
        assert over.keys == set() and over.status == "q leaves the table."


def _info(seats, owner=0, phase="lobby", total=4):
    return p.TableInfo(
        name="Den", game="nuggets", phase=phase, owner=owner,
        seats=[p.SeatInfo(seat=i, name=n, kind=k, ready=r, connected=True)
               for i, (n, k, r) in enumerate(seats)],
        settings=p.TableSettings(seats=total, difficulty="normal", first_player=None,
                                 seeded=False, grace=30,
                                 game={"grab_timeout": 10, "call_window": 5},
                                 bot_pace=0.9, hotseat=False), spectators=0)


def test_the_lobby_says_who_it_waits_for_and_offers_start_only_then():
    alone = lobby_now(_info([("Ann", "human", False)]), [0], True)
    assert "start" not in alone.keys and "add_bot" in alone.keys
    assert alone.status.startswith("Gold Nuggets needs at least 2 players: b adds a bot")
    waiting = lobby_now(_info([("Ann", "human", False), ("Bob", "human", False),
                               ("Cy", "human", True)]), [0], True)
    assert "start" not in waiting.keys and waiting.status == "Waiting for Bob to get ready."
    ready = lobby_now(_info([("Ann", "human", False), ("Bob", "human", True)]), [0], True)
    assert "start" in ready.keys and ready.status == "Everyone else is ready: press s to start."
    bob = lobby_now(_info([("Ann", "human", False), ("Bob", "human", False)]), [1], False)
    assert bob.keys == {"ready"}
    assert bob.status == "Press r when you are ready; Ann starts the game."
    watcher = lobby_now(_info([("Ann", "human", False), ("Bob", "human", False)]), [], False)
    assert watcher.keys == set()
    full = lobby_now(_info([("Ann", "human", False), ("Rusty", "bot", False)], total=2),
                     [0], True)
    assert "add_bot" not in full.keys and "remove_bot" in full.keys


# -- the real app on a real host ------------------------------------------------------------
