"""The calling model of issue 34: a bot reads a grab from its own view and this
table's record of the grabber (`foolsgold.bots`, module docstring)."""

import random

import pytest

from foolsgold import Discard, Draw, Grab, Round, standard_deck
from foolsgold.bots import Bot
from foolsgold.calling import PRIOR_RATE, SeatRecord, call_threshold


def natural_grab(bot: Bot, players: int = 4) -> None:
    """A grab that looks like a set to every per-grab signal: right after the
    grabber's tenth draw, holding six."""
    bot._observe(Round(players, 0, standard_deck(players)).view(bot.seat), 0.0)
    bot.last_hand = []
    bot.grab_evidence = {"grabber": 0, "at": 30.0, "draws": 10, "last_draw": 29.4,
                         "hand_size": 6, "age": 30.0}
    bot._bluff_p = None


@pytest.mark.parametrize("players", [2, 4, 8])
def test_the_call_chance_rises_with_the_grabbers_caught_bluffs(players):
    chances = []
    for caught in range(5):
        bot = Bot(1, "normal", random.Random(1))
        natural_grab(bot, players)
        bot.table[0] = SeatRecord(rounds=6, firsts=2 + caught, caught=caught, shown=2)
        chances.append(bot.bluff_chance())
    assert chances == sorted(chances) and chances[0] < chances[-1]
    assert chances[0] < call_threshold(players) < chances[-1]


def test_a_grabber_who_got_away_often_is_judged_by_it():
    # first in 6 of 8 rounds at four seats, never called: far beyond an honest share
    bot = Bot(1, "normal", random.Random(1))
    natural_grab(bot)
    clean = bot.bluff_chance()
    bot.table[0] = SeatRecord(rounds=8, firsts=6, uncalled=6, uncalled_bluff=0.6)
    bot._bluff_p = None
    assert bot.bluff_rate(0) > 0.3 and bot.bluff_chance() > clean
    # an honest share of first grabs, shown to be sets, lowers it below the prior
    bot.table[0] = SeatRecord(rounds=8, firsts=2, shown=2)
    assert bot.bluff_rate(0) < PRIOR_RATE


def test_easy_judges_every_grabber_by_the_prior():
    bot = Bot(1, "easy", random.Random(1))
    natural_grab(bot)
    bot.table[0] = SeatRecord(rounds=6, firsts=5, caught=5)
    assert bot.bluff_rate(0) == PRIOR_RATE


def test_the_cards_the_grabber_passed_count_against_its_set():
    # Seat 1 is not the start player, so every card it draws was passed by seat 0.
    deck = standard_deck(2)
    random.Random(3).shuffle(deck)
    r = Round(2, 0, deck)
    bot = Bot(1, "normal", random.Random(2))
    t = 0.0
    bot.plan(r.view(1), t)
    for _ in range(4):
        t += 1.0
        r.apply(Draw(0), t)
        bot.plan(r.view(1), t)
        t += 1.0
        r.apply(Discard(0, r.hands[0][0]), t)
        t += 1.0
        r.apply(Draw(1), t)
        bot.plan(r.view(1), t)
        t += 1.0
        r.apply(Discard(1, r.hands[1][-1]), t)
        bot.plan(r.view(1), t)
    passed_on = set(bot.drawn) - set(bot.last_hand)
    assert passed_on, "it drew what seat 0 passed, and passed some of it on"
    assert bot.seen_out_of_reach(0, t, use_passed=False) == set(bot.last_hand) | passed_on
    # as the start player its draws would have come from the pile, not from seat 0
    bot._start = 1
    assert bot.seen_out_of_reach(0, t, use_passed=False) == set(bot.last_hand)


def test_a_bot_reads_only_its_own_view():
    # Two deals that differ only in cards the watcher never sees (the other seats'
    # hands) give the watcher the same view, and so the same plans and call chance.
    players = 4
    deck = standard_deck(players)
    random.Random(5).shuffle(deck)
    other = deck[5:10] + deck[0:5] + deck[10:]  # seats 0 and 1 swap hands
    chances, plans = [], []
    for cards in (deck, other):
        r = Round(players, 0, cards)
        bot = Bot(3, "hard", random.Random(7))
        bot.plan(r.view(3), 0.0)
        r.apply(Grab(0), 0.5)
        plans.append(bot.plan(r.view(3), 0.5))
        chances.append(bot.bluff_chance())
    assert r.view(3)["hand"] == Round(players, 0, deck).view(3)["hand"]
    assert chances[0] == chances[1] and plans[0] == plans[1]


@pytest.mark.slow
def test_the_record_is_kept_across_rounds_and_seeded():
    from foolsgold.matches import simulate_matches

    a = simulate_matches(2, ["natural@normal", "normal"], 3, seed=4)
    b = simulate_matches(2, ["natural@normal", "normal"], 3, seed=4)
    assert [(m.winner, m.rounds, m.scores) for m in a] == [
        (m.winner, m.rounds, m.scores) for m in b
    ]


def test_the_modelled_person_reacts_lognormally_around_its_median():
    from statistics import median

    from foolsgold.levels import person

    bot = Bot(0, person(0.9), random.Random(2))
    times = [bot._timer(("t", i), 0.0) for i in range(2000)]
    assert median(times) == pytest.approx(0.9, rel=0.05)
    assert bot.difficulty.bluff_rate == 0  # honest


def test_the_fast_strategy_grabs_only_a_set_quickly():
    # Without a set its plan is a draw, not the far-off give-up grab made quick.
    from foolsgold.exploits import Strategy

    r = Round(4, 0, standard_deck(4))
    bot = Strategy(0, "fast", "normal", random.Random(1))
    action, at = bot.plan(r.view(0), 0.0)
    assert bot.holds_set or not isinstance(action, Grab)


def test_a_bot_races_a_much_quicker_racer_but_not_a_person():
    bot = Bot(1, "normal", random.Random(1))
    pace = bot.difficulty.race
    bot.race_times = {0: [0.9, 1.0, 1.1]}  # a person's pace: no quicker than its own
    assert bot.race() == pace
    bot.race_times = {0: [0.5, 0.5, 0.6]}  # a machine-quick racer
    assert bot.race() < 0.5
    easy = Bot(1, "easy", random.Random(1))
    easy.race_times = {0: [0.5, 0.5, 0.6]}
    assert easy.race() == easy.difficulty.race  # easy keeps its own pace


# -- the call floor (issue 44) ---------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_at_the_floor_a_bluff_pays_no_more_than_playing_on(players):
    from foolsgold.calling import seat_floor, table_floor

    c = table_floor(players)
    if players > 2:
        # an uncalled bluff is worth n/(n-1) against the others' average, a called one
        # -1, playing on honestly 0 (the module docstring)
        assert (1 - c) * players / (players - 1) - c == pytest.approx(0.0, abs=1e-12)
        q = seat_floor(players, [0] * players, 0)
        assert 1 - (1 - q) ** (players - 1) == pytest.approx(c)
    else:
        # F12 at two: an uncalled bluff +1 against the other, a called one -2
        # (-1 to it, +1 to the caller), playing on honestly 0
        assert (1 - c) * 1 - c * 2 == pytest.approx(0.0, abs=1e-12)
        assert c == pytest.approx(1 / 3) and seat_floor(2, [0, 0], 0) == c


def test_the_floor_is_free_at_match_point_and_off_on_a_sunk_table():
    from foolsgold.calling import seat_floor

    assert seat_floor(4, [2, 0, -1, 0], 0) == 1.0  # an uncalled grab wins the match
    assert seat_floor(2, [2, -1], 0) == 1.0
    assert 0 < seat_floor(4, [1, -1, 0, 0], 0) < 1
    assert seat_floor(4, [1, -1, -1, 0], 0) == 0.0  # the sum sank below 0: a long match
    # at two under F12 the sum never sinks (a call moves it by 0): the floor holds
    assert seat_floor(2, [1, 0], 0) == seat_floor(2, [-1, 1], 0) == pytest.approx(1 / 3)
    # against a grabber caught bluffing here it holds on a sunk table too
    assert seat_floor(4, [1, -1, -1, 0], 0, caught=True) == seat_floor(4, [0] * 4, 0)
    assert seat_floor(8, [1, -1, -1, -1, 0, 0, 0, 0], 0, caught=True) \
        == seat_floor(8, [0] * 8, 0) > 0


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_at_a_sunk_table_a_caught_bluffer_still_meets_the_floor(level):
    """Eight seats, the sum sunk below 0: a set-like grab by a seat never caught is
    called by the evidence alone (the floor is off: the sunk table's length), but by a
    seat caught bluffing here at least at the floor's share (issue 57: a bluffer that
    bluffs every round at a set's moment won twice its fair share at eight seats)."""
    from foolsgold.calling import seat_floor

    scores = [0, -1, 0, 0, 0, 0, 0, 0]
    view = {"players": 8, "scores": scores}

    def share(record):
        calls = 0
        for i in range(400):
            bot = Bot(1, level, random.Random(i))
            natural_grab(bot)
            bot.table[0] = record
            calls += bot.wants_call(view, 0)
        return calls / 400

    q = seat_floor(8, [0] * 8, 0)  # 0.10 a seat at eight
    # a grabber mostly shown holding sets: its record does not reach the threshold;
    # with one bluff caught among them it is called at the floor's share (give or take
    # the seeds' luck: 400 bots, three deviations of q), without one not at all
    assert share(SeatRecord(rounds=40, firsts=6, shown=5, uncalled=1)) == 0.0
    caught = share(SeatRecord(rounds=40, firsts=6, caught=1, shown=4, uncalled=1))
    assert q - 0.045 < caught < q + 0.045, (caught, q)


def test_at_two_a_call_weighs_the_race_to_three():
    """The two-seat threshold (F12): a right call is worth more the nearer the grabber
    is to 3, and a caller with a lead to lose is surer before it calls."""
    from foolsgold.calling import call_threshold, two_seat_race, two_seat_threshold

    assert two_seat_race(3, 3) == (0.5, pytest.approx(two_seat_race(3, 3)[1]))
    assert two_seat_race(1, 2) == (0.75, 1.5)
    level = two_seat_threshold(0, 0)
    assert 0.15 < level < call_threshold(2) + 0.05  # near the points' own 1/4
    assert two_seat_threshold(0, 1) < level < two_seat_threshold(1, 0)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_set_like_grab_is_called_at_least_at_the_floor_and_evidence_only_adds(level):
    from foolsgold.calling import seat_floor

    view = {"players": 4, "scores": [0, 0, 0, 0]}

    def share(record):
        calls = 0
        for i in range(300):
            bot = Bot(1, level, random.Random(i))
            natural_grab(bot)
            if record is not None:
                bot.table[0] = record
            calls += bot.wants_call(view, 0)
        return calls / 300

    q = seat_floor(4, view["scores"], 0)
    clean = share(None)
    # 300 seeded bots: the floor's q = 0.25 give or take three standard deviations
    assert q - 0.075 < clean < q + 0.075
    caught = share(SeatRecord(rounds=6, firsts=4, caught=3, shown=1))
    assert caught > clean


def test_easy_has_no_floor():
    view = {"players": 4, "scores": [0, 0, 0, 0]}
    for i in range(50):
        bot = Bot(1, "easy", random.Random(i))
        natural_grab(bot)
        assert bot.bluff_chance() < call_threshold(4) and not bot.wants_call(view, 0)


def test_the_searched_bluffers_are_data():
    from foolsgold.exploits import Strategy, is_strategy, parse_bluff

    assert parse_bluff("bluff-30-n-r-any") == (0.3, None, None, "any")
    assert parse_bluff("bluff-100-12-2.5-sunk") == (1.0, 12, 2.5, "sunk")
    for bad in ("bluff-0-n-r-any", "bluff-30-n-r-often", "bluff-30-n-r", "natural-30-n-r-any"):
        assert not is_strategy(bad)
        with pytest.raises(ValueError):
            parse_bluff(bad)
    assert is_strategy("natural") and is_strategy("bluff-5-4-r-far")
    with pytest.raises(ValueError):
        Strategy(0, "bluff-30-n-r-often", "normal", random.Random(1))


def test_a_searched_bluffer_grabs_without_a_set_after_its_draw_count():
    # bluff-100-2-0.5-any: in every round, half a second after its second draw
    from foolsgold.exploits import Strategy

    def drive(seed):
        deck = standard_deck(4)
        random.Random(seed).shuffle(deck)
        r = Round(4, 0, deck)
        bot = Strategy(0, "bluff-100-2-0.5-any", "normal", random.Random(1))
        t = 0.0
        plan = bot.plan(r.view(0), t)
        for k in range(2):
            assert plan is None or not isinstance(plan[0], Grab)  # no bluff before
            t += 1.0
            r.apply(Draw(0), t)
            plan = bot.plan(r.view(0), t)
            if k == 0:
                t += 1.0
                r.apply(Discard(0, bot.choose_discard(bot.last_hand)), t)
                plan = bot.plan(r.view(0), t)
        return bot, plan, t

    bot, plan, t = next(
        found for found in (drive(seed) for seed in range(20)) if not found[0].holds_set
    )
    action, at = plan
    assert bot.draws[0] == 2 and isinstance(action, Grab) and at == pytest.approx(t + 0.5)


def test_a_sunk_table_calls_only_when_surer_but_still_calls_a_caught_bluffer():
    # every call lowers the table's sum: once it is below 0, calls need more certainty
    bot = Bot(1, "normal", random.Random(1))
    natural_grab(bot)
    level = bot._threshold({"players": 4, "scores": [0, 0, 0, 0]}, 0)
    sunk = bot._threshold({"players": 4, "scores": [0, -2, -1, -1]}, 0)
    deeper = bot._threshold({"players": 4, "scores": [-2, -3, -2, -1]}, 0)
    assert level < sunk < deeper < 1
    bot.table[0] = SeatRecord(rounds=4, firsts=2, caught=1)
    shown_once = bot._threshold({"players": 4, "scores": [0, 0, 0, 0]}, 0)
    assert bot._threshold({"players": 4, "scores": [0, -2, -1, -1]}, 0) == shown_once
