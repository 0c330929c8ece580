"""How well a Fool's Gold bot (`foolsgold.bots`) plays: its `Difficulty`.

Difficulty (`DIFFICULTIES`) sets the reaction time, the bluff rate, how many bluffs
pass for a set, which evidence the bot weighs, how willing it is to call, and (easy)
how often it calls on a hunch. `PLAYERS` adds `HUMAN`, a scripted person acting in
1.2-1.8 s, for the simulator.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Difficulty:
    """How a bot plays: speed, bluffing, and the evidence it weighs before calling."""

    name: str
    #: mean seconds from seeing a situation to acting on it (drawing, passing, calling)
    reaction: float
    #: reaction times vary uniformly by this fraction either way
    jitter: float
    #: mean seconds from someone's grab to its own grab in the race for a nugget
    race: float
    #: chance to plan a bluff in a round
    bluff_rate: float
    #: a bluff waits at least this long after the round starts, then up to `bluff_span` more
    bluff_after: float
    bluff_span: float
    #: the evidence it weighs beyond the core (the grabber's draws since the deal, the
    #: exact chance of a dealt set, a hand of five after drawing): "cards" (its own
    #: hand, and what the grabber passed it), "passed" (cards it passed that cannot
    #: have reached the grabber yet), "timing" (how long after its last draw the
    #: grabber grabbed), "record" (the grabber's record at this table, `SeatRecord`)
    evidence: frozenset[str]
    #: bluffs only right after a draw, holding six, as a true set would show
    mimics_sets: bool
    #: picks the name to chase using what it passed and what is left of each name
    counts_cards: bool
    #: grabs with no set after this long without one (so no round runs for ever)
    give_up_after: float
    #: of its planned bluffs, the share that mimic a set (with `mimics_sets`)
    mimic_rate: float = 1.0
    #: when above 0, reaction times are lognormal with median `reaction` and this
    #: sigma (a person), instead of uniform within `jitter`
    sigma: float = 0.0
    #: calls at least at the call floor (`seat_floor`), whatever the evidence says
    floor: bool = False
    #: at two seats every reaction is this share of its time elsewhere: there one
    #: player's pace sets the other's supply of cards, so speed weighs more
    two_seat_pace: float = 1.0
    #: when above 0, meets a much quicker racer seen at this table (`RACE_FAST`) by
    #: racing quicker than it, down to this many seconds
    race_floor: float = 0.0


# Speeds are set so a person has a fair fight with normal (bench/foolsgold_farming.py:
# a modelled person, median reaction 0.9 s, sigma 0.4, wins about a fair share against
# normal at two and four seats, well above it against easy, clearly below against
# hard): easy is slower than a person; normal a little slower at four seats (1.15 s)
# and as quick at two (x0.78, 0.9 s), where one player's pace feeds the other's
# draws; hard quicker, with more bluffs that look like sets and more evidence. The
# calling rule is the same for every difficulty (`Bot.bluff_chance`, `call_threshold`,
# the floor of normal and hard); difficulty only adds evidence on top of the core.
DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty(
        name="easy",
        reaction=2.0,
        jitter=0.3,
        race=2.2,
        bluff_rate=0.05,
        bluff_after=25.0,
        bluff_span=40.0,
        evidence=frozenset(),
        mimics_sets=False,
        counts_cards=False,
        give_up_after=150.0,
    ),
    "normal": Difficulty(
        name="normal",
        reaction=1.15,
        jitter=0.25,
        race=1.15,
        bluff_rate=0.08,
        bluff_after=30.0,
        bluff_span=40.0,
        evidence=frozenset({"cards", "timing", "record"}),
        mimics_sets=True,
        counts_cards=True,
        give_up_after=150.0,
        mimic_rate=0.5,
        race_floor=0.45,
        floor=True,
        two_seat_pace=0.78,
    ),
    "hard": Difficulty(
        name="hard",
        reaction=1.0,
        jitter=0.25,
        race=0.95,
        bluff_rate=0.08,
        bluff_after=15.0,
        bluff_span=40.0,
        evidence=frozenset({"cards", "timing", "record", "passed"}),
        mimics_sets=True,
        counts_cards=True,
        give_up_after=150.0,
        mimic_rate=0.8,
        race_floor=0.35,
        floor=True,
        two_seat_pace=0.78,
    ),
}

#: A scripted stand-in for a person, for the simulator only (tables seat the three
#: difficulties): 1.2-1.8 s per action, card sense and the plain evidence of a
#: watchful player, honest (it never bluffs).
HUMAN = Difficulty(
    name="human",
    reaction=1.5,
    jitter=0.2,
    race=1.5,
    bluff_rate=0.0,
    bluff_after=15.0,
    bluff_span=40.0,
    evidence=frozenset({"cards", "timing"}),
    mimics_sets=False,
    counts_cards=True,
    give_up_after=150.0,
)

#: Everyone the simulator can seat: the difficulties and the scripted person.
PLAYERS: dict[str, Difficulty] = {**DIFFICULTIES, "human": HUMAN}


def person(median: float, sigma: float = 0.4) -> Difficulty:
    """A modelled person for the simulator: honest, with the card sense of `HUMAN`,
    and reaction times lognormal with this median and sigma (seat it as
    ``person0.9`` in `foolsgold.sim`)."""
    return HUMAN.__class__(**{
        **HUMAN.__dict__, "name": f"person{median:g}", "reaction": median, "race": median,
        "sigma": sigma,
    })


#: A bot with `race_floor` meets a racer quicker than this share of its own `race`
#: by racing `RACE_EDGE` quicker than it (so a machine-quick seat farms no table).
RACE_FAST = 0.7
RACE_EDGE = 0.1
#: A bot that gave up but cannot draw grabs plainly this many seconds later.
GIVE_UP_GRACE = 30.0
