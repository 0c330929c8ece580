"""Touch bars with fixed slots (issue 47): a button keeps its place while it exists; a
new one takes an empty slot that no other action held in the last two seconds, else the
end; a tap on a slot that just changed hands does nothing. And one key a card: with a
card waiting, a card's number draws it and passes that card."""

from __future__ import annotations

from tui.widgets.touchbar import SLOT_MEMORY, place


def test_a_button_keeps_its_slot_while_it_exists():
    freed: dict = {}
    slots = place([], freed, ["draw", "discard(5)", "leave"], 0.0)
    assert slots == ["draw", "discard(5)", "leave"]
    # draw goes (a card arrived): the others stay where they were
    slots = place(slots, freed, ["discard(5)", "leave"], 1.0)
    assert slots == [None, "discard(5)", "leave"]
    # the last one goes: its empty slot stays a while (the bar keeps its rows), then goes
    slots = place(slots, freed, ["discard(5)"], 1.5)
    assert slots == [None, "discard(5)", None]
    assert place(slots, freed, ["discard(5)"], 1.5 + SLOT_MEMORY) == [None, "discard(5)"]


def test_a_new_button_never_takes_a_slot_another_action_had_just_now():
    freed: dict = {}
    slots = place([], freed, ["discard(5)", "leave"], 0.0)
    # the tap on Discard 6 passes the card; a moment later Grab! comes: not under the
    # finger that just tapped Discard 6, but at the end
    slots = place(slots, freed, ["leave", "grab"], 0.1)
    assert slots == [None, "leave", "grab"]
    # two seconds on, the slot is free for anything
    slots = place(slots, freed, ["leave", "grab", "call"], 0.1 + SLOT_MEMORY)
    assert slots == ["call", "leave", "grab"]
    # an action coming back to its own slot may have it at once
    slots = place(["draw", "leave"], {}, ["leave"], 5.0)
    freed = {0: ("draw", 5.0)}
    assert place(slots, freed, ["draw", "leave"], 5.1) == ["draw", "leave"]


def test_the_bar_never_moves_a_button_when_another_comes_or_goes():
    """Every state of a round in turn: each button's slot, once given, is the same in
    every later state it is in (within the memory), whatever comes and goes."""
    states = [["draw", "grab", "leave"], ["discard(0)", "discard(1)", "grab", "leave"],
              ["draw", "grab", "leave"], ["call", "leave"], ["leave"],
              ["draw", "grab", "leave"]]
    freed: dict = {}
    slots: list = []
    seen: dict[str, int] = {}
    for t, wanted in enumerate(states):
        slots = place(slots, freed, wanted, t * 0.5)
        for i, action in enumerate(slots):
            if action is None:
                continue
            if action in seen and seen[action] != i:
                raise AssertionError(f"{action} moved from {seen[action]} to {i} at {t}")
            seen.setdefault(action, i)
        # no slot took a different action within the memory
        for i, (gone, when) in freed.items():
            if i < len(slots) and slots[i] not in (None, gone):
                assert t * 0.5 - when >= SLOT_MEMORY
