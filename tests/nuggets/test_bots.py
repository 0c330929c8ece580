"""Bots play only legal actions, purely; the simulator is reproducible."""

import copy
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nuggets import (
    Game,
    IllegalAction,
    Keep,
    Roll,
    Stop,
    best_keep,
    expected_roll,
    roll_dice,
)
from nuggets.bots import DIFFICULTIES, POLICIES, cautious, optimal, shrewd, thief
from nuggets.sim import main, play_game, simulate, wilson

from .helpers import faces, legal_action


def test_the_policies_are_registered():
    assert POLICIES == {"cautious": cautious, "optimal": optimal, "thief": thief, "shrewd": shrewd}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_bot_plays_only_legal_actions_and_leaves_the_view_alone(players):
    rng = random.Random(players)
    names = list(POLICIES)
    for game_no in range(4):
        seats = [names[(s + game_no) % len(names)] for s in range(players)]
        game = Game(seats, supply=40)
        while not game.over:
            view = game.view(game.current)
            before = copy.deepcopy(view)
            action = POLICIES[seats[game.current]](view, rng)
            assert view == before
            phase = game.phase
            if phase == "keep":
                assert isinstance(action, Keep)
                assert action.faces in game.legal_keeps()
            elif phase in ("roll",):
                assert action == Roll()
            elif phase == "take":
                assert isinstance(action, Stop)
            if isinstance(action, Roll):
                action = Roll(roll_dice(rng, game.dice_left))
            game.apply(action)  # raises IllegalAction if a bot broke a rule


def test_bots_refuse_to_act_when_the_game_is_over():
    g = Game(["A", "B"], supply=1)
    g.apply(Roll(faces("N 2 3 4 5 5 2")))
    g.apply(Keep(faces("N")))
    g.apply(Stop())
    for policy in POLICIES.values():
        with pytest.raises(IllegalAction, match="over"):
            policy(g.view(0), random.Random(0))


def test_optimal_follows_the_advisor():
    g = Game(["A", "B"])
    g.apply(Roll(faces("3 3 3 3 3 3 2")))
    assert optimal(g.view(0), random.Random(0)) == Keep(faces("3 3 3"))
    g.apply(Keep(faces("3 3 3")))
    # 3 set aside, 4 dice left: rolling is worth more than 3.
    assert expected_roll(g.kept) > 3
    assert optimal(g.view(0), random.Random(0)) == Roll()
    g.apply(Roll(faces("N N N 2")))
    g.apply(Keep(faces("N N N")))
    # Worth 6 with one die left: half the faces bust it, so stop.
    assert expected_roll(g.kept) < 6
    assert optimal(g.view(0), random.Random(0)) == Stop()


def test_cautious_keeps_everything_that_scores_and_stops_at_six():
    g = Game(["A", "B"])
    g.apply(Roll(faces("N 3 3 3 3 L 2")))
    assert cautious(g.view(0), random.Random(0)) == Keep(faces("N 3 3 3 3"))
    g.apply(Keep(faces("N 3 3 3 3")))
    assert cautious(g.view(0), random.Random(0)) == Stop()  # only 2 dice left
    g = Game(["A", "B"])
    g.apply(Roll(faces("L 3 2 4 5 5 2")))
    assert cautious(g.view(0), random.Random(0)) == Keep(faces("L"))
    g.apply(Keep(faces("L")))
    g.apply(Roll(faces("5 5 5 N N 4")))
    assert cautious(g.view(0), random.Random(0)) == Keep(faces("N N 5 5 5"))
    g.apply(Keep(faces("N N 5 5 5")))
    assert g.kept_value == 7 and cautious(g.view(0), random.Random(0)) == Stop()


def test_cautious_falls_back_on_a_die_of_a_number_already_kept():
    g = Game(["A", "B"])
    g.apply(Roll(faces("4 4 4 2 3 5 2")))
    g.apply(Keep(faces("4 4 4")))
    g.apply(Roll(faces("4 2 3 5")))
    assert cautious(g.view(0), random.Random(0)) == Keep(faces("4"))


def stealing_game(holdings, supply=50, current=0):
    g = Game([f"p{i}" for i in range(len(holdings))], supply=supply, start=current)
    g.holdings[:] = holdings
    g.supply = supply
    g.apply(Roll(faces("L L L 5 5 5 2")))
    g.apply(Keep(faces("L L L 5 5 5")))  # worth 5, one die left
    return g


def test_thief_steals_from_the_leader():
    g = stealing_game([0, 10, 3])
    assert thief(g.view(0), random.Random(0)) in (Stop(1), Roll())
    g.apply(Roll(faces("N")))
    g.apply(Keep(faces("N")))  # all seven: must take, worth 6
    assert thief(g.view(0), random.Random(0)) == Stop(1)
    assert optimal(g.view(0), random.Random(0)) == Stop()


def test_thief_takes_from_the_supply_when_it_leads_or_can_win_outright():
    # Far ahead: the supply gives more lead than stealing 2 from the runner-up.
    g = stealing_game([20, 2])
    g.apply(Roll(faces("N")))
    g.apply(Keep(faces("N")))
    assert thief(g.view(0), random.Random(0)) == Stop()
    # The last nuggets of the supply end the game with the thief on top.
    g = stealing_game([10, 12], supply=3)
    g.apply(Roll(faces("N")))
    g.apply(Keep(faces("N")))
    assert thief(g.view(0), random.Random(0)) == Stop()
    # ...but when ending it would lose, it steals instead and plays on.
    g = stealing_game([5, 12], supply=3)
    g.apply(Roll(faces("N")))
    g.apply(Keep(faces("N")))
    assert thief(g.view(0), random.Random(0)) == Stop(1)


def lasso_game(richer: int) -> Game:
    g = Game(["A", "B"])
    g.holdings[1] = richer
    g.apply(Roll(faces("L L 2 3 4 5 5")))
    g.apply(Keep(faces("L L")))
    g.apply(Roll(faces("L N 2 3 4")))
    return g


def test_thief_reaches_for_three_lassos_when_cheap():
    g = lasso_game(richer=10)
    assert best_keep(g.rolled, g.kept) == faces("N")
    assert thief(g.view(0), random.Random(0)) == Keep(faces("L"))  # the third lasso
    # Nobody richer: no reason to steal, it plays like optimal.
    h = lasso_game(richer=0)
    assert thief(h.view(0), random.Random(0)) == optimal(h.view(0), random.Random(0))
    # Three lassos at too high a price: it keeps the nugget.
    g = Game(["A", "B"])
    g.holdings[1] = 10
    g.apply(Roll(faces("L L L N 2 3 4")))
    assert thief(g.view(0), random.Random(0)) == Keep(faces("N"))


def test_a_seeded_simulation_is_reproducible():
    a = simulate(["optimal", "cautious", "thief"], 12, seed=3)
    b = simulate(["optimal", "cautious", "thief"], 12, seed=3)
    c = simulate(["optimal", "cautious", "thief"], 12, seed=4)
    assert a.final == b.final and a.final != c.final
    assert [(x.wins, x.turns, x.busts, x.gained) for x in a.bots] == [
        (x.wins, x.turns, x.busts, x.gained) for x in b.bots
    ]
    assert all(sum(f) == 77 for f in a.final)  # steals move nuggets, never make them
    assert sum(x.wins for x in a.bots) == pytest.approx(12)


def test_seats_rotate_so_every_bot_starts_equally():
    starts = []

    def spy(name):
        def policy(view, rng):
            if view["phase"] == "roll" and not starts_seen[0]:
                starts.append(name)
                starts_seen[0] = True
            return POLICIES["cautious"](view, rng)

        return policy

    starts_seen = [False]
    rng = random.Random(1)
    for g in range(4):
        starts_seen[0] = False
        k = 2
        bot_at = [(seat - g) % k for seat in range(k)]
        play_game([spy(["a", "b"][b]) for b in bot_at], rng)
    assert starts == ["a", "b", "a", "b"]


def test_optimal_beats_cautious_over_seeded_games():
    r = simulate(["optimal", "cautious"], 150, seed=1)
    low, _ = wilson(r.bots[0].wins, r.games)
    assert low > 0.5
    # A turn of the optimal bot is worth more than a cautious one (bonus turns included).
    assert r.bots[0].nuggets_per_turn > r.bots[1].nuggets_per_turn


@pytest.mark.slow
def test_the_ladder_holds_on_small_seeded_runs():
    # easy < normal < hard head to head; the full intervals are in
    # bench/nuggets_ladder.py and docs/BENCHMARKS.md.
    assert DIFFICULTIES == {"easy": "cautious", "normal": "thief", "hard": "shrewd"}
    for weaker, stronger in (("easy", "normal"), ("normal", "hard")):
        r = simulate([weaker, stronger], 200, seed=7)
        assert r.bots[1].wins > r.bots[0].wins, (weaker, stronger)
    r = simulate(["easy", "normal", "hard", "normal"], 120, seed=7)
    wins = {b.name: b.wins for b in r.bots}
    assert wins["hard"] > wins["normal"] > wins["easy"]
    assert sum(r.seat_wins) == pytest.approx(120)


def test_shrewd_plays_the_closer_and_steals_to_stay_alive():
    g = Game(["A", "B"], supply=2)
    g.holdings = [37, 38]
    g.apply(Roll(faces("N N L L 2 3 4")))
    assert shrewd(g.view(0), random.Random(0)) == Keep(faces("N N L L"))
    g.apply(Keep(faces("N N L L")))
    assert shrewd(g.view(0), random.Random(0)) == Stop()
    g = Game(["A", "B"], supply=3)
    g.holdings = [30, 44]
    g.apply(Roll(faces("L L L 5 5 5 N")))
    g.apply(Keep(faces("L L L 5 5 5 N")))
    assert shrewd(g.view(0), random.Random(0)) == Stop(1)


def test_shrewd_falls_back_on_thief_beyond_the_solved_games():
    g = Game(["A", "B"], supply=200)
    g.apply(Roll(faces("N N L L 2 3 4")))
    view = g.view(0)
    assert shrewd(view, random.Random(0)) == thief(view, random.Random(0))


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_sim_command_prints_the_figures(capsys):
    assert main(["--bots", "optimal,cautious", "--games", "10", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    for words in (
        "win rate",
        "95% interval",
        "nuggets/turn",
        "bust rate",
        "games/s",
        "1. optimal",
        "2. cautious",
        "steals/game",
        "seat-order edge",
        "1st",
    ):
        assert words in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "optimal,greedy"], "unknown bot 'greedy'"),
        (["--bots", "optimal"], "needs 2 to 5 bots"),
        (["--games", "0"], "--games must be positive"),
    ],
)
def test_sim_command_explains_bad_arguments(args, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), steps=st.integers(0, 120))
def test_every_bot_answers_any_reachable_position_legally(seed, players, steps):
    """Random legal play (stealing included) to some position, then each bot acts
    on a copy: its action must be accepted."""
    rng = random.Random(seed)
    game = Game([f"p{i}" for i in range(players)], supply=60)
    game.holdings[:] = [rng.randrange(10) for _ in range(players)]
    for _ in range(steps):
        if game.over:
            return
        game.apply(legal_action(game, rng))
    if game.over:
        return
    for name, policy in POLICIES.items():
        action = policy(game.view(game.current), random.Random(seed))
        if isinstance(action, Roll):
            assert action == Roll() and game.phase in ("roll", "choose"), name
            action = Roll(roll_dice(rng, game.dice_left))
        game.copy().apply(action)


def test_sim_progress_bar_runs_on_a_terminal(capsys, monkeypatch):
    import nuggets.sim as sim

    monkeypatch.setattr(sim._Progress, "DELAY", 0.0)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    shown = []
    real_update = sim._Progress.update

    def update(self, done):
        real_update(self, done)
        shown.append(self.bar is not None)

    monkeypatch.setattr(sim._Progress, "update", update)
    assert main(["--bots", "cautious,cautious", "--games", "50", "--seed", "2"]) == 0
    assert any(shown)
    assert "win rate" in capsys.readouterr().out
