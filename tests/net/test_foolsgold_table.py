"""Fool's Gold at a table, sans-I/O: time-outs off the deadline, bots on their reaction
clock, and hidden information across many seeded games."""

import random

import pytest

from net import protocol as p
from net.games.foolsgold import views as fg_views
from net.table import Settings, Table, Tables
from net.verify import verify_messages
from tests.net.helpers import ROUND_CAP, play_match


@pytest.mark.parametrize(("seed", "players"), [(f"hidden-{n}", 2 + n % 6) for n in range(12)])
@pytest.mark.slow
def test_hidden_information_over_whole_matches(seed, players):
    table, seated, problems = play_match(seed, players)
    assert problems == []
    over = [m for m in seated[0][1].messages if isinstance(m, p.Over)]
    assert len(over) == 1 and over[0].seed == seed
    scores = over[0].scores
    rounds = sum(e["type"] == "round_started" for entry in table.log for e in entry["events"])
    assert max(scores) >= 3 or rounds >= ROUND_CAP
    assert over[0].winners == [scores.index(max(scores))] and scores.count(max(scores)) == 1
    # every seat's states carried only its own seat's view
    for i, (_, box) in enumerate(seated):
        states = [m for m in box.messages if isinstance(m, p.State)]
        assert states and all(m.seat == i and m.view.seat == i for m in states)


@pytest.mark.slow
def test_time_outs_run_off_the_deadline():
    table, seated, problems = play_match("timeouts", 3)
    events = [e for entry in table.log for e in entry["events"]]
    kinds = {e["type"] for e in events}
    assert {"round_started", "grabbed", "settled", "scores", "match_over"} <= kinds
    # the host applied time-outs on its own (a Tick at the deadline), logged as "host"
    host_entries = [entry for entry in table.log if entry["by"] == "host"]
    assert host_entries
    for entry in host_entries:
        for event in entry["events"]:
            if event["type"] in ("call_window_closed", "race_over"):
                assert event["at"] <= entry["at"]


def test_a_table_of_bots_plays_a_match_on_its_own():
    tables = Tables()
    table = tables.add(
        Table("Bots", "foolsgold", Settings(seats=4, seed="bots", game={"round_cap": ROUND_CAP}))
    )
    for _ in range(4):
        table.add_bot("hard")
    watcher = []
    tables.hello(p.Hello(protocol=3, name="Eve", spectate=True), watcher.append, print, 0.0)
    table.start(0.0)
    now = 0.0
    while table.phase == "playing":
        now = table.next_wakeup()
        assert now is not None
        table.tick(now)
    assert any(isinstance(m, p.Over) for m in watcher)
    assert {e["by"] for e in table.log} == {"bot", "host"}


def test_every_seat_can_verify_its_deals_after_an_unseeded_match():
    table, seated, problems = play_match(None, 4)
    assert problems == []
    for seat, (_, box) in enumerate(seated):
        assert verify_messages(box.messages, seat) == []
    # a deal the seed did not make is caught
    _, box = seated[1]
    state = next(
        m
        for m in box.messages
        if isinstance(m, p.State) and any(isinstance(e, fg_views.RoundStarted) for e in m.events)
    )
    state.view.hand[0] = fg_views.Card(name="Nobody", kind="animal", variant="z")
    assert verify_messages(box.messages, 1)


def test_the_leak_checker_itself_catches_a_leak():
    table, seated, problems = play_match("leak", 2)
    assert problems == []
    _, box = seated[0]
    table.phase = "playing"  # as if mid-game
    other = table.driver.match.round.hands[1][0]
    box.deliver(p.State(seat=0, view={"hand": [other.to_dict()]}, events=[], at=0.0))
    assert problems and problems[0][0] == "cards of another seat"


def test_a_seated_bot_sees_the_settled_round_and_learns_the_grabbers_record():
    import foolsgold
    from foolsgold.bots import Bot
    from net.games.foolsgold.host import FoolsGoldBrain, FoolsGoldCodec

    match = foolsgold.Match(3, start=0)
    match.new_round(foolsgold.standard_deck(3))
    match.apply(foolsgold.Grab(1), 1.0)
    match.apply(foolsgold.Call(2), 1.5)
    match.apply(foolsgold.Tick(), 20.0)
    view = match.view(0)
    assert view["settled"] and view["revealed"] is not None
    brain = FoolsGoldBrain(Bot(0, "hard", random.Random(1)), FoolsGoldCodec())
    assert brain.plan(view, 20.0) is None
    verdict = "set" if view["revealed_set"] else "bluff"
    assert brain.bot.record[(1, verdict)] == 1
