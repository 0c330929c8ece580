"""Issue 47's Done-when in a real terminal: the app's own process in tmux at 80x24 and
60x20, played by the keys its hints name, the screen read as tmux shows it. Every hint
line whole, the hints agreeing with the table, the steal dialog's highlight on the
advisor's pick, three bots for a 3, Settings' Save and Back whole. The same checks as
tests/tui/test_hints_fit.py and test_solo_setup.py make through Pilot, where the
screen is laid out in-process: here it is what the app's own bytes drew in a terminal,
so a layout a frame late, or a row cut, is what the test reads too."""

from __future__ import annotations

import re

import pytest

from tests.hardening.ptyapp import app_env, motherlode
from tests.hardening.tmux import REQUIRED, TMUX, Tmux
from tests.tui.helpers import SIZES, flat

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(TMUX is None and not REQUIRED,
                       reason="no tmux here (.ci/run installs it and requires it)"),
]

sizes = pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])

# How every hint of a seat at play ends, the advisor on: the key that plays it named
# last. A hint cut at the widget's last row loses that end.
HINT_ENDS = ("enter rolls all seven dice.", "(space, space).", "(space).", "(space or t).",
             "(space or s).", "space plays it.")
ADVISED_STEAL = re.compile(r"steal (\d+) from (.+?)(?::| \(space)")


def test_ci_has_tmux():
    assert TMUX is not None or not REQUIRED, "CI needs Debian's tmux (.ci/run)"


def in_tmux(tmp_path, size, *args: str) -> Tmux:
    return Tmux(motherlode(*args), app_env(tmp_path), size)


# -- reading a Gold Nuggets table off the screen ------------------------------------------


def rows(shown: str) -> list[str]:
    return shown.splitlines()


def tray(shown: str) -> int:
    """The row of the set-aside tray (the hint's rows follow it)."""
    return next(i for i, row in enumerate(rows(shown)) if row.startswith(" Set aside:"))


def hint(shown: str) -> str:
    """The hint under the dice, its wrapped rows joined: from the tray to the advisor
    panel (or the log's rule)."""
    lines = []
    for row in rows(shown)[tray(shown) + 1:]:
        if row.startswith((" Advisor", "─")):
            break
        lines.append(row)
    return flat(" ".join(lines))


def dice_keys(shown: str) -> tuple[int, int]:
    """The dice on the table and how many are selected, from the row of their keys
    (``1  ▲2▲  3``: a selected die's key is marked)."""
    for row in reversed(rows(shown)[:tray(shown)]):
        keys = re.findall(r"▲?\d▲?", row)
        if keys and re.fullmatch(r"(\s*▲?\d▲?)+\s*", row):
            return len(keys), sum(key.startswith("▲") for key in keys)
    return 0, 0


def playing(shown: str) -> bool:
    """A seat of this keyboard's to act, or the game over: a screen that waits for it
    (not one whose set-aside's roll on or take is on its way: "Set aside; rolling on…")."""
    said = hint(shown)
    return bool(said) and not said.endswith(("is playing.", "…"))


#: a game's end, as the hint says it (p where this seat can play again)
OVER_WORDS = ("q leaves the table.", "p plays again; q leaves the table.")


def but_banner(shown: str) -> str:
    """The screen without its banner row (a moment's banner clears itself on a timer)."""
    return "\n".join(rows(shown)[1:])


def check_table(shown: str) -> str:
    """The hint whole and in agreement with the table; returns it."""
    said = hint(shown)
    if said in OVER_WORDS or said.endswith("is playing."):
        return said
    assert said.endswith(HINT_ENDS), f"a hint cut short: {said!r}\n{shown}"
    assert said.count("(") == said.count(")"), f"a hint cut short: {said!r}\n{shown}"
    assert "enter again:" not in flat(shown), shown
    total, selected = dice_keys(shown)
    if selected:
        assert "nothing yet worth 0" not in flat(rows(shown)[tray(shown)]), shown
    if total and selected == total:  # every die chosen: nothing is left to roll on
        assert "enter rolls on" not in said, shown
    return said


CHOICE = re.compile(r"take (\d+) from ([^:]+): \d+ -> \d+( \(advised\))?")


def open_steal(term: Tmux, said: str) -> int:
    """The steal dialog from a hint that advises a steal: its highlighted choice is the
    advisor's (first, and said to be advised); enter on it steals from that seat. Returns
    how many choices it offered."""
    amount, victim = ADVISED_STEAL.search(said).groups()
    term.keys("s")
    shown = term.settled(lambda s: "from whom?" in s, "the steal dialog")
    styled = rows(term.screen(styles=True))
    choices = [(i, CHOICE.search(row)) for i, row in enumerate(rows(shown))
               if CHOICE.search(row)]
    assert [m.group(3) is not None for _, m in choices].count(True) == 1, shown
    advised = next(i for i, m in choices if m.group(3))
    assert choices[0][1].groups()[:2] == (amount, victim), (said, shown)
    # the highlight (bold, on its own colour): the advised row's alone
    paint = {i: re.findall(r"\x1b\[[0-9;:]*m", styled[i].split("▊")[-1].split("▎")[0])
             for i, _ in choices}
    assert [i for i, _ in choices if "\x1b[1m" in paint[i]] == [advised], paint
    term.keys("Enter")  # enter picks the highlighted choice
    term.wait_for(lambda s: f"Ann stole {amount}" in s and f"from {victim}" in s,
                  f"Ann steals from {victim}")
    return len(choices)


@sizes
@pytest.mark.timeout(240)
def test_gold_nuggets_hints_whole_and_agreeing(tmp_path, size):
    seen: set[str] = set()
    all_chosen = turns = 0
    dialogs: list[int] = []  # how many choices each steal dialog offered
    with in_tmux(tmp_path, size, "solo", "--game", "nuggets", "--bots", "2", "--seed", "t7",
                 "--bot-pace", "0", "--name", "Ann") as term:
        shown = term.settled(lambda s: "Set aside:" in s and playing(s), "the table")
        while turns < 6 and hint(shown) not in OVER_WORDS:
            said = check_table(shown)
            seen.add(said)
            total, selected = dice_keys(shown)
            all_chosen += bool(total and selected == total)
            if said.startswith("enter rolls all seven dice."):
                turns += 1
                term.keys("Enter")  # the turn's first roll, as the hint says
            elif ADVISED_STEAL.search(said) and "s steals" in said:
                dialogs.append(open_steal(term, said))
            else:
                term.keys("Space")  # the advisor's set-aside, then its roll on or stop
            before = but_banner(shown)
            shown = term.settled(lambda s, b=before: but_banner(s) != b and playing(s),
                                 "the table after the key")
    assert turns >= 3, seen
    # the seed's game: a steal advised from the second of two seats that hold nuggets
    assert max(dialogs, default=0) >= 2, (dialogs, seen)
    assert any(s.startswith("Set aside ") for s in seen), seen


# -- Fool's Gold ---------------------------------------------------------------------------


def cards_held(shown: str) -> list[str]:
    """The keys of the hand's cards: a box per card (``╭─1──``, its name under it) at 80
    columns, a line per card (``1 Owl  2/5``, an empty slot ``1 --------``) when narrow."""
    lines = rows(shown)
    for i, row in enumerate(lines[:-1]):
        slots = re.findall(r"╭─(\d)─", row)
        if slots:
            names = re.findall(r"│([^│]*)│", lines[i + 1])
            return [key for key, name in zip(slots, names, strict=False) if name.strip()]
    return [key for row in lines for key in re.findall(r"(\d) [A-Za-z][^/]*?\s\d+/\d+", row)]


def fools_hint(shown: str) -> str:
    """The hint: the rows above the log's rule, up to the hand."""
    lines = rows(shown)
    rule = next(i for i, row in enumerate(lines) if row.startswith("─"))
    said = []
    for row in reversed(lines[:rule]):
        if not row.startswith(" ") or not row.strip() or re.search(r"\d+/\d+", row):
            break
        said.insert(0, row)
    return flat(" ".join(said))


def check_fools(shown: str, width: int) -> str:
    """The hint whole, and the footer's keys whole with the key the hint names."""
    said = fools_hint(shown)
    assert said.endswith("."), f"a hint cut short: {said!r}\n{shown}"
    assert said.count("(") == said.count(")"), f"a hint cut short: {said!r}\n{shown}"
    footer = flat(" ".join(rows(shown)[-2:]))
    assert "q Leave" in footer and footer.endswith("? Keys"), f"a footer cut:\n{shown}"
    assert all(len(row) <= width for row in rows(shown)), shown
    for key, label in (("d draws", "d Draw"), ("g grabs", "g Grab!")):
        if said.startswith(key) or f"({key}" in said:
            assert label in footer, f"{label!r} not shown:\n{shown}"
    return said


@sizes
@pytest.mark.timeout(240)
def test_fools_gold_hint_and_footer_whole(tmp_path, size):
    seen: set[str] = set()
    with in_tmux(tmp_path, size, "solo", "--game", "foolsgold", "--bots", "3", "--seed",
                 "hints-fit", "--bot-pace", "0.3", "--name", "Ann") as term:
        shown = term.settled(lambda s: "Round 1" in s and cards_held(s), "the deal")
        before = ""
        while "Points of this round" not in fools_hint(shown):
            said = check_fools(shown, size[0])
            seen.add(said)
            if said.startswith("d draws"):
                term.keys("d")
            elif said.startswith("Pass a card"):
                term.keys(cards_held(shown)[0])  # one key a card: the first held
            before = shown
            shown = term.settled(lambda s, b=before: s != b and "─" in s, "the next screen",
                                 deadline=60)
        seen.add(check_fools(shown, size[0]))
    assert any(s.startswith("d draws") for s in seen), seen
    assert any(s.startswith("Pass a card") for s in seen), seen
    assert len(seen) >= 4, seen


# -- the solo set-up and Settings ----------------------------------------------------------


@sizes
@pytest.mark.timeout(90)
def test_three_in_how_many_bots_seats_three(tmp_path, size):
    with in_tmux(tmp_path, size) as term:
        term.settled(lambda s: "Settings" in s, "the menu")
        term.keys("f")  # Fool's Gold against bots
        term.settled(lambda s: "how many bots?" in s, "how many bots")
        term.keys("3")
        # a first game of Fool's Gold: the guided first round is offered; 2 just plays
        term.settled(lambda s: "Your first game of Fool's Gold" in s, "the guide offered")
        term.keys("2")
        shown = term.settled(lambda s: "Round 1" in s, "the table")
        seats = [row for row in rows(shown) if re.match(r"\s*●?\s*\S.*\(bot\)\s+\d", row)]
        assert len(seats) == 3, shown


@sizes
@pytest.mark.timeout(60)
def test_settings_show_save_and_back_whole(tmp_path, size):
    with in_tmux(tmp_path, size) as term:
        term.settled(lambda s: "Settings" in s, "the menu")
        term.keys("s")
        shown = term.settled(lambda s: "ASCII mode" in s, "settings")
    lines = rows(shown)
    label = next((i for i, row in enumerate(lines) if re.search(r"\bSave\s+Back\b", row)),
                 len(lines))
    assert label < len(lines) - 2, shown  # above the footer, with the buttons' bottoms
    for word in ("Save", "Back"):  # each button's top and bottom edges around its word
        at = lines[label].index(word)
        assert lines[label - 1][at:at + 4] == "▔" * 4, shown
        assert lines[label + 1][at:at + 4] == "▁" * 4, shown
    ascii_row = next(row for row in lines if "ASCII mode" in row)
    assert ascii_row.endswith(": off") and "X" not in ascii_row, shown
    # every on/off box says which, whole (a long label once lost its ": on" at 60x20)
    boxes = [row for row in lines if re.match(r"\s*▐.▌ ", row)]
    assert len(boxes) >= 2 and all(re.search(r": (on|off)$", row) for row in boxes), shown
