"""What a table accepts now and what is true now, derived from the view a screen holds.

One function per table (`lobby_now`, `nuggets_now`, `foolsgold_now`), pure and
headless (no Textual): each takes what the screen holds and returns a `Now`, the name
of the phase, the play actions that would be accepted, and the status line. A screen's
``check_action`` (so its footer) and its status line both read that one answer, so
they cannot drift apart: a key is in the footer only while pressing it does something,
and the status never says what stopped being true.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from foolsgold import call_window_open as window_open
from foolsgold import draw_source, legal_actions, race_open
from net import protocol as p
from net.catalogue import FOOLSGOLD, spec
from net.text import clean_text
from net.views import FoolsGoldView, NuggetsView, to_plain
from nuggets import IllegalAction, check_keep, legal_keeps, score

LOBBY_ACTIONS = frozenset({"ready", "start", "add_bot", "remove_bot", "kick", "seats",
                           "difficulty", "round_cap"})
NUGGETS_ACTIONS = frozenset({"roll", "take", "steal", "advised", "toggle", "select_face",
                             "clear"})
FOOLSGOLD_ACTIONS = frozenset({"draw", "discard", "grab", "call"})
CALL = "f calls \"Fool's Gold!\""


@dataclass(frozen=True)
class Now:
    """The state of play as one screen sees it."""

    phase: str  # a name for it ("keep", "race", "round-over"...): for tests and logs
    keys: frozenset[str]  # the screen's play actions that would be accepted now
    status: str  # one line: what is true now, and what the keys do


def _namer(names: Sequence[str]) -> Callable[[int | None], str]:
    def name(seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(names):
            return names[seat]
        return "?"

    return name


# -- the lobby -----------------------------------------------------------------------


def lobby_now(info: p.TableInfo | None, mine: Iterable[int], owner: bool) -> Now:
    """The lobby of a LAN table: who may start, who is awaited, what the owner may do."""
    if info is None:
        return Now("joining", frozenset(), "")
    mine = set(mine)
    name = _namer([clean_text(s.name) for s in info.seats])
    owner_name = name(info.owner) if info.owner is not None else "the owner"
    settings = info.settings
    if info.phase == "playing":
        return Now("playing", frozenset(), "The game is running.")
    keys: set[str] = set()
    if mine:  # the owner too: a full table whose people are all ready starts itself
        keys.add("ready")
    if owner:
        keys |= {"seats", "difficulty"}
        if info.game == FOOLSGOLD.key:
            keys.add("round_cap")  # the house rule (h)
        if len(info.seats) < settings.seats:
            keys.add("add_bot")
        if any(s.kind == "bot" for s in info.seats):
            keys.add("remove_bot")
        if any(s.kind == "human" and s.seat not in mine and not (s.ready and s.connected)
               for s in info.seats):
            keys.add("kick")  # a seat held by someone not ready (or away) can be freed
    waiting = [clean_text(s.name) for s in info.seats
               if s.kind == "human" and s.seat not in mine and not (s.ready and s.connected)]
    low = spec(info.game).low
    again = "The game is over. " if info.phase == "over" else ""
    if owner:
        if len(info.seats) < low:
            status = (f"{spec(info.game).title} needs at least {low} players: b adds a bot, "
                      "or wait for someone to join.")
        elif waiting:
            status = f"Waiting for {', '.join(waiting)} to get ready (r)."
        else:
            keys.add("start")
            others = any(s.kind == "human" and s.seat not in mine for s in info.seats)
            status = ("Everyone else is ready: press s to start." if others
                      else "Press s to start.")
        return Now("lobby-owner", frozenset(keys), again + status)
    if not mine:
        return Now("lobby-watching", frozenset(keys),
                   again + f"You are watching: the game starts when {owner_name} starts it.")
    if any(s.ready for s in info.seats if s.seat in mine):
        status = f"You are ready: waiting for {owner_name} to start (r: not ready)."
    else:
        status = f"Press r when you are ready; {owner_name} starts the game."
    return Now("lobby-player", frozenset(keys), again + status)


# -- Gold Nuggets --------------------------------------------------------------------


def _count(faces: Iterable[str]) -> str:
    counts = Counter(faces)
    return " + ".join(f"{n}x {face}" for face, n in counts.items())


def _steal(view: NuggetsView, kept: Sequence[str]) -> tuple[bool, str]:
    """Whether a steal would go through with ``kept`` set aside: three lassos, worth
    something, someone to take it from; else why not (empty below three lassos)."""
    if list(kept).count("lasso") < 3:
        return False, ""
    if not score(kept):
        return False, " (worth nothing to steal)"
    if not any(held for seat, held in enumerate(view.holdings) if seat != view.current):
        return False, " (nobody to steal from)"
    return True, ""


def _then(steal: bool, why: str) -> str:
    return (", s steals." if steal else why + ".")


def nuggets_now(view: NuggetsView | None, my_seats: Iterable[int],
                chosen: Sequence[str] = ()) -> Now:
    """A Gold Nuggets table, for the seats this keyboard plays (``chosen``: the faces
    of the dice selected on the table)."""
    if view is None:
        return Now("joining", frozenset(), "")
    mine = set(my_seats)
    name = _namer(view.players)
    if view.over:
        return Now("over", frozenset(), "q leaves the table.")
    if not mine:
        return Now("watching", frozenset(), f"You are watching: {name(view.current)} plays.")
    if view.current not in mine:
        return Now("waiting", frozenset(), f"{name(view.current)} is playing.")
    phase = view.phase
    if phase == "roll":
        return Now("roll", frozenset({"roll"}), "enter rolls all seven dice.")
    if phase == "keep":
        keys = {"toggle", "select_face", "clear", "advised", "roll"}
        if not chosen:
            last = len(view.rolled or []) or 7
            return Now("keep", frozenset(keys),
                       f"Pick dice (1-{last}, n, l, F2-F5; space: advised), then enter rolls "
                       "on, t takes.")
        try:
            check_keep(view.rolled or [], view.kept, chosen)
        except IllegalAction as error:
            keys.discard("roll")
            options = legal_keeps(view.rolled or [], view.kept)
            sample = "; ".join(" ".join(f.value for f in keep) for keep in options[:3])
            more = f" (and {len(options) - 3} more)" if len(options) > 3 else ""
            return Now("keep", frozenset(keys), f"Not allowed: {error}. Legal: {sample}{more}.")
        keys.add("take")
        steal, why = _steal(view, [*view.kept, *chosen])
        if steal:
            keys.add("steal")
        return Now("keep", frozenset(keys),
                   f"Set aside {_count(chosen)}: enter rolls on, t takes" + _then(steal, why))
    steal, why = _steal(view, view.kept)
    # space plays the advisor's choice: roll on, take, or the steal it names
    keys = {"take", "steal", "advised"} if steal else {"take", "advised"}
    if phase == "choose":
        return Now("choose", frozenset(keys | {"roll"}),
                   f"enter rolls the {view.dice_left} dice left, t takes {view.kept_value}"
                   + _then(steal, why))
    return Now("take", frozenset(keys),
               f"All seven dice set aside: t takes {view.kept_value}" + _then(steal, why)
               + " Then you play a bonus turn.")


# -- Fool's Gold ---------------------------------------------------------------------
#
# What is legal is the rules' answer (``foolsgold.legal_actions``, the checks that
# ``Round.apply`` makes), read from the view in the rules' own form (``to_plain``);
# here only the words for it.

PILES = {"draw": "the draw pile", "trash": "the trash pile", "incoming": "your incoming pile"}


def call_window_open(view: FoolsGoldView, left: float | None = None) -> bool:
    """Whether a call would be accepted from anyone but the first grabber: the rules'
    call window (``foolsgold.call_window_open``), and, when ``left`` (the seconds the
    host's clock leaves in it) is known, not yet run out."""
    return window_open(to_plain(view)) and (left is None or left > 0)


def foolsgold_now(view: FoolsGoldView | None, seat: int | None, names: Sequence[str] = (),
                  *, left: float | None = None, race_over: bool = False) -> Now:
    """A Fool's Gold table for ``seat`` (None: a spectator). ``left``: the seconds left
    in the call window, when the host's clock is known; ``race_over``: the race ended by
    its time-out (the view shows only nuggets running out)."""
    if view is None:
        return Now("joining", frozenset(), "")
    name = _namer(names)
    if view.winner is not None:
        return Now("match-over", frozenset(), "q leaves the table.")
    if view.settled:
        more = "" if view.scores and max(view.scores) >= 3 else " The next round starts shortly."
        return Now("round-over", frozenset(),
                   "Points of this round in ( ), match points under pts." + more)
    window = f" (call window: {left:.1f} s)" if left is not None and left > 0 else ""
    plain = to_plain(view)
    if seat is not None and not 0 <= seat < view.players:
        seat = None  # not a seat of this table: it can only watch
    if view.grabbed:
        return _race(view, plain, seat, name, window, race_over)
    if seat is None:
        return Now("watching", frozenset(), "You are watching.")
    if not view.hand:
        return Now("dealing", frozenset(), "The cards are being dealt.")
    keys = legal_actions(plain, seat)  # no grab yet: ``race_over`` is of no race here
    if "discard" in keys:
        return Now("discard", keys, "Discard a card: 1-6 (g grabs a nugget).")
    if "draw" in keys:
        return Now("draw", keys, f"d draws from {PILES[draw_source(plain, seat)]}.")
    if seat == view.start:
        return Now("wait-card", keys,
                   "The draw and trash piles are empty: waiting for a discard.")
    return Now("wait-card", keys, "Waiting for a card from your right neighbour.")


def _race(view: FoolsGoldView, plain: dict[str, Any], seat: int | None,
          name: Callable[[int | None], str], window: str, race_over: bool) -> Now:
    """After the first grab: hands are frozen, the race and the call window run."""
    first = view.grabbed[0][0]
    racing = race_open(plain, race_over)
    calling = window_open(plain)
    keys = legal_actions(plain, seat, race_over=race_over)
    parts = []
    if "grab" in keys:
        parts.append("g grabs a nugget")
    if "call" in keys:
        parts.append(CALL)
    said = f"{name(view.caller)} called Fool's Gold! " if view.caller is not None else ""
    gone = "No nuggets left" if view.nuggets_left == 0 else "The race is over"
    if parts:
        lead = said if racing else f"{gone}: "
        status = lead + ", ".join(parts) + (window if "call" in keys else "") + "."
        return Now("race" if racing else "race-over", keys, status)
    if racing:
        return Now("race", frozenset(), said + "Waiting for the race to end.")
    if calling:
        who = "the others" if seat == first else "the players"
        return Now("race-over", frozenset(),
                   f"{gone}: {who} may call \"Fool's Gold!\" until the window closes{window}.")
    return Now("race-over", frozenset(), f"{gone}: the round is being settled.")
