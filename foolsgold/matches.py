"""Whole Fool's Gold matches between bots on a virtual clock (`foolsgold.sim` plays
each round): their winners and lengths, for the benches of docs/BENCHMARKS.md and the
bots' tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from foolsgold.cards import standard_deck
from foolsgold.match import Match
from foolsgold.round import Round
from foolsgold.sim import PAUSE, play_round, seat_bot

#: Matches still running after this many rounds are stopped and counted as not ended.
MATCH_LIMIT = 100


@dataclass
class MatchStats:
    """What one simulated match showed: `winner` is None for a match stopped unended."""

    winner: int | None
    rounds: int
    scores: list[int]


def play_match(
    players: int,
    who: Sequence[str],
    rng: random.Random,
    round_cap: int | None = None,
    limit: int = MATCH_LIMIT,
    on_round: Callable[[Round, float], None] | None = None,
) -> MatchStats:
    """One whole match on a virtual clock: fresh bots, rounds until a winner (or
    `limit` rounds, then the match counts as not ended)."""
    match = Match(players, rng.randrange(players), round_cap=round_cap)
    seated = [seat_bot(seat, who[seat], random.Random(rng.random())) for seat in range(players)]
    clock = 0.0
    while match.winner is None and match.round_no < limit:
        deck = standard_deck(players)
        rng.shuffle(deck)
        match.new_round(deck)
        start = clock
        clock = play_round(match, seated, rng, clock)
        if on_round is not None:
            assert match.round is not None
            on_round(match.round, clock - start)
        clock += PAUSE
    return MatchStats(match.winner, match.round_no, list(match.scores))


def simulate_matches(
    players: int,
    who: Sequence[str],
    matches: int,
    seed: int,
    round_cap: int | None = None,
    limit: int = MATCH_LIMIT,
) -> list[MatchStats]:
    """`matches` whole matches, seat `s` played by `who[s]` (one name: every seat)."""
    if len(who) == 1:
        who = list(who) * players
    if len(who) != players:
        raise ValueError(f"give one player, or one per seat ({players}), not {len(who)}")
    rng = random.Random(seed)
    return [play_match(players, who, rng, round_cap, limit) for _ in range(matches)]


def match_lengths(results: Sequence[MatchStats], within: int = 40) -> dict[str, float]:
    """Median and p95 of the rounds a match took (a match stopped unended counts as
    longer than any), and the share of matches not ended within `within` rounds."""
    lengths = sorted(
        r.rounds if r.winner is not None else float("inf") for r in results
    )
    n = len(lengths)
    return {
        "median": lengths[(n - 1) // 2] if n % 2 else (lengths[n // 2 - 1] + lengths[n // 2]) / 2,
        "p95": lengths[min(n - 1, int(0.95 * n))],
        "unended": sum(length > within for length in lengths) / n,
    }
