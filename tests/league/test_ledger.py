"""The league's tables (net.league.ledger, net.league.standings): recording games in
play order, guests and games with no person, seasons, rebuild, head-to-head."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.league import ledger
from net.league.ledger import LeagueError, Seat
from net.league.standings import head_to_head, season_id, standings

pytestmark = pytest.mark.timeout(60)


def fresh() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.executescript(ledger.SCHEMA)
    return conn


def person(seat, name, place, won=False, share=1.0):
    return Seat(seat, name.casefold(), name, True, place, share, won)


def bot(seat, level, place, won=False):
    return Seat(seat, f"bot:{level}", f"{level.capitalize()} bot", False, place, 1.0, won)


def test_a_game_is_recorded_once_and_rates_its_seats():
    conn = fresh()
    changes = ledger.record(conn, "g1", "nuggets", 1.0,
                            [person(0, "Ann", 1, True), bot(1, "hard", 2)])
    assert [(c.seat, c.name, c.games, c.provisional) for c in changes] == [
        (0, "Ann", 1, True), (1, "Hard bot", 1, True)]
    assert changes[0].before is None and changes[0].after is None  # provisional: hidden
    assert ledger.record(conn, "g1", "nuggets", 1.0, [person(0, "Ann", 1, True),
                                                      bot(1, "hard", 2)]) == []
    assert [s.games for s in standings(conn, "nuggets")] == [1, 1]


def test_the_tenth_game_shows_a_rating_and_the_change():
    conn = fresh()
    for i in range(10):
        changes = ledger.record(conn, f"g{i}", "nuggets", float(i),
                                [person(0, "Ann", 1, True), bot(1, "easy", 2)])
    ann = changes[0]
    assert ann.games == 10 and not ann.provisional
    assert ann.before is None and ann.after is not None and ann.after > 1500
    changes = ledger.record(conn, "g10", "nuggets", 11.0,
                            [person(0, "Ann", 2), bot(1, "easy", 1, True)])
    assert changes[0].before == ann.after > changes[0].after  # a loss lowers it
    top = standings(conn, "nuggets")[0]
    assert (top.name, top.rating, top.games, top.wins) == ("Ann", changes[0].after, 11, 10)


def test_guests_rate_nobody_and_a_game_of_bots_is_not_rated():
    conn = fresh()
    guest = Seat(0, "", "Ann", True, 1, 1.0, True)
    assert ledger.record(conn, "g1", "nuggets", 1.0, [guest, bot(1, "hard", 2)]) == []
    assert ledger.record(conn, "g2", "nuggets", 2.0,
                         [bot(0, "easy", 1, True), bot(1, "hard", 2)]) == []
    assert standings(conn) == []
    # a guest at a table of two people: the two are rated between themselves
    changes = ledger.record(conn, "g3", "nuggets", 3.0,
                            [guest, person(1, "Bob", 2), person(2, "Cid", 3)])
    assert [c.name for c in changes] == ["Bob", "Cid"]
    assert conn.execute("SELECT rated FROM league_games ORDER BY n").fetchall() == [
        (0,), (0,), (1,)]


def test_a_tied_game_moves_two_equal_ratings_equally():
    conn = fresh()
    ledger.record(conn, "g1", "nuggets", 1.0, [person(0, "Ann", 1), person(1, "Bob", 1)])
    ann, bob = sorted(standings(conn, "nuggets"), key=lambda s: s.name)
    assert ann.skill == bob.skill and ann.skill.sigma < 25 / 3


def test_seasons_keep_ratings_widen_them_and_count_their_own_games():
    conn = fresh()
    for i in range(3):
        ledger.record(conn, f"a{i}", "nuggets", float(i), [person(0, "Ann", 1, True),
                                                           bot(1, "easy", 2)])
    before = {s.who: s.skill for s in standings(conn)}
    ledger.start_season(conn, "Winter  2026", 10.0)
    with pytest.raises(LeagueError, match="already"):
        ledger.start_season(conn, "winter 2026", 11.0)
    after = {s.who: s.skill for s in standings(conn)}
    assert all(after[w].mu == before[w].mu and after[w].sigma > before[w].sigma for w in after)
    assert standings(conn, season="Winter 2026") == []
    ledger.record(conn, "b0", "nuggets", 12.0, [person(0, "Ann", 2), bot(1, "easy", 1, True)])
    season = standings(conn, season="winter 2026")
    assert sorted((s.name, s.games, s.wins) for s in season) == [("Ann", 1, 0),
                                                                 ("Easy bot", 1, 1)]
    assert {s.name: s.games for s in standings(conn)} == {"Ann": 4, "Easy bot": 4}
    assert season_id(conn, "current") == 1
    with pytest.raises(LeagueError, match="no season called 'Spring'.*Winter 2026"):
        standings(conn, season="Spring")


def _snapshot(conn):
    return (conn.execute("SELECT * FROM ratings ORDER BY who, game, season").fetchall(),
            conn.execute("SELECT * FROM league_seats ORDER BY n, seat").fetchall())


NAMES = ["Ann", "Bob", "Cid", "Dee"]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.one_of(
    st.just("season"),
    st.lists(st.tuples(st.sampled_from(NAMES + ["bot:easy", "bot:hard", ""]),
                       st.integers(0, 9), st.floats(0, 1)), min_size=1, max_size=6),
), max_size=25))
def test_rebuild_gives_the_same_figures_to_the_last_bit(script):
    conn = fresh()
    for i, step in enumerate(script):
        if step == "season":
            ledger.start_season(conn, f"S{i}", float(i))
            continue
        seen, seats = set(), []
        for who, score, share in step:
            if who and who in seen:
                continue
            seen.add(who)
            seats.append((who, score, share))
        scores = [score for _, score, _ in seats]
        places = [1 + sum(o > s for o in scores) for s in scores]
        ledger.record(conn, f"g{i}", "nuggets", float(i), [
            Seat(j, who.casefold(), who, not who.startswith("bot:"), places[j], share,
                 places[j] == 1) for j, (who, _, share) in enumerate(seats)])
    before = _snapshot(conn)
    ledger.rebuild(conn)
    assert _snapshot(conn) == before


def test_head_to_head_counts_who_finished_ahead():
    conn = fresh()
    ledger.record(conn, "g1", "nuggets", 1.0, [person(0, "Ann", 1), person(1, "Bob", 2)])
    ledger.record(conn, "g2", "nuggets", 2.0, [person(0, "Bob", 1), person(1, "Ann", 2),
                                               bot(2, "hard", 3)])
    ledger.record(conn, "g3", "foolsgold", 3.0, [person(0, "ANN", 1), person(1, "bob", 1)])
    ledger.record(conn, "g4", "nuggets", 4.0, [person(0, "Ann", 1), bot(1, "hard", 2)])
    record = head_to_head(conn, "ann", "BOB")
    assert (record.games, record.a_ahead, record.b_ahead, record.ties) == (3, 1, 1, 1)
    assert record.by_game == {"foolsgold": (0, 0, 1), "nuggets": (1, 1, 0)}
    assert head_to_head(conn, "Ann", "hard bot").a_ahead == 2
    with pytest.raises(LeagueError, match="'Zed' has played no game"):
        head_to_head(conn, "Ann", "Zed")
