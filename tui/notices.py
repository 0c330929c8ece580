"""What the host tells a table, in words: notices (``notice_text``), the rematch offer
(``again_news``, ``again_status``) and reactions (``reaction_text``). Names are the
host's, already cleaned; each screen shows these as literal text."""

from __future__ import annotations

import datetime

from net import protocol as p
from net.text import same_name
from tui.phases import pace_words


def _names(table: p.TableInfo | None) -> dict[int, str]:
    return {s.seat: s.name for s in table.seats} if table is not None else {}


def _listed(seats: list[int], names: dict[int, str]) -> str:
    return ", ".join(names.get(s, f"seat {s + 1}") for s in seats)


def again_news(before: p.AgainState | None, after: p.AgainState,
               table: p.TableInfo | None) -> list[str]:
    """The log's lines for a change of the rematch offer: who offered, who said yes or
    no, that it ended or started."""
    names = _names(table)
    if after.by is None:
        if after.started:
            return ["The rematch starts."]
        return ["The rematch offer ended: nobody who said yes is left."] \
            if before is not None and before.by is not None else []
    said = []
    old_yes = set(before.yes) if before is not None and before.by is not None else set()
    old_no = set(before.no) if before is not None and before.by is not None else set()
    if before is None or before.by is None:
        said.append(f"{names.get(after.by, 'Someone')} offers a rematch: the same game "
                    "with the same seats.")
        old_yes.add(after.by)
    said += [f"{names.get(s, f'seat {s + 1}')} says yes to the rematch."
             for s in after.yes if s not in old_yes]
    said += [f"{names.get(s, f'seat {s + 1}')} declines the rematch (the seat is freed)."
             for s in after.no if s not in old_no]
    return said


def again_status(state: p.AgainState | None, table: p.TableInfo | None,
                 mine: list[int]) -> str:
    """The offer in one line, for a status line: who said what, and what this person
    can do ("" when no offer stands)."""
    if state is None or state.by is None:
        return ""
    names = _names(table)
    parts = [f"Rematch offered by {names.get(state.by, 'someone')}"]
    if state.yes:
        parts.append(f"yes: {_listed(state.yes, names)}")
    if state.no:
        parts.append(f"no: {_listed(state.no, names)}")
    if state.waiting:
        parts.append(f"waiting for {_listed(state.waiting, names)}")
    line = "; ".join(parts) + "."
    if any(s in state.waiting for s in mine):
        line += " p: yes, N: no."
    return line


def reaction_text(reaction: p.Reaction) -> str:
    """"Ann reacts: Nice!" """
    return f"{reaction.name} reacts: {p.REACTIONS.get(reaction.reaction, reaction.reaction)}"


def notice_text(notice: p.Notice, table: p.TableInfo | None = None) -> str:
    """A notice in words; with the table, a drop says what happens next and when."""
    if notice.event == "away" and table is not None:
        return _dropped(notice.name, table)
    if notice.event == "renamed" and table is not None and notice.seat is None:
        held = _seat_named_like(notice.name, table)
        if held is not None:
            return _watching_own_seat(notice.name, held)
    if notice.event == "left" and table is not None and table.phase == "playing":
        return f"{notice.name} left the game: a bot plays their seat to the end"
    if notice.event == "pace" and isinstance(notice.detail, str):
        return _pace_changed(notice.detail)
    if notice.event == "terms":
        changed = notice.detail if isinstance(notice.detail, str) else "the settings"
        return f"{notice.name} changed the table ({changed}): everyone says ready again"
    what = {
        "joined": "joined",
        "left": "left",
        "kicked": "was asked to leave by the owner (their seat is free)",
        "away": "is away (a bot stands in after the grace period)",
        "stepped_away": "stepped away (a bot plays until they are back)",
        "back": "is back and has the seat again",
        "standin": "is played by a stand-in bot",
        "owner": "now owns the table",
        "bot": "sits down",
        "bot_left": "leaves the table (the owner removed it)",
        "renamed": "is your name here (yours was taken)",
        "spectating": "is watching",
    }.get(notice.event, notice.event)
    if notice.event in ("bot", "bot_left") and isinstance(notice.detail, str):
        what += f": {notice.detail}"  # the readiness it cleared
    return f"{notice.name} {what}"


def _pace_changed(detail: str) -> str:
    """"The rest of the game is at normal pace (it was relaxed for the guided round)."
    from the host's "relaxed -> normal"."""
    was, _, now = detail.partition(" -> ")
    if not now:
        return f"The table's pace changed: {detail}."
    return f"The rest of the game is at {pace_words(now)} (it was {was} for the guided round)."


def _seat_named_like(name: str, table: p.TableInfo) -> p.SeatInfo | None:
    """The person's seat of a game in play whose name the host's "ann 2" was made from
    (``net.table`` adds " 2", " 3"... to a name taken): someone back without the seat's
    token, now watching."""
    if table.phase != "playing":
        return None
    base, _, number = name.rpartition(" ")
    if not base or not number.isdigit():
        return None
    return next((s for s in table.seats if s.kind == "human" and same_name(s.name, base)),
                None)


def _watching_own_seat(name: str, seat: p.SeatInfo) -> str:
    """What is true for a person watching a game in which their name holds a seat."""
    who = seat.name
    if seat.standin:
        now = f"a stand-in bot plays {who}'s seat"
    elif not seat.connected:
        now = f"{who}'s seat is away (a bot stands in after the grace period)"
    else:
        now = f"{who}'s seat is played from another app"
    return (f"You are watching {who}'s game as a spectator ({name} here): {now}. The seat "
            "comes back only to the app that holds its seat token.")


def _dropped(name: str, table: p.TableInfo) -> str:
    """"Ann's connection dropped: a bot plays for Ann in 30 s (21:40:15); ..." """
    grace = table.settings.grace
    at = (datetime.datetime.now() + datetime.timedelta(seconds=grace)).strftime("%H:%M:%S")
    if table.phase == "playing":
        soon = f"a bot plays for {name} in {grace:g} s ({at})" if grace > 0 else \
            f"a bot plays for {name}"
        return (f"{name}'s connection dropped: {soon}; {name} can take the seat back any "
                "time this game.")
    return f"{name}'s connection dropped: the seat is kept for {name} until {at}."
