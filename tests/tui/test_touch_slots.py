"""Touch bars with fixed slots (issue 47, item 1): a button keeps its place while it
exists; a new one takes an empty slot no other action held in the last two seconds
(its own old one first), else the end; the bar's rows are counted from the bottom and
never taken away, so no button moves when another comes or goes; a slot ignores a
second tap of anything else for a moment. The rule alone (``place``), then the real
bar in a Textual pilot on a fake clock (nothing sleeps)."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Button, Static

from net.clock import FakeClock
from tui.widgets.footer import Footer
from tui.widgets.touchbar import SLOT_MEMORY, TAP_GUARD, TouchBar, grid_order, place

from .harness import until

pytestmark = pytest.mark.timeout(60)


def test_a_button_keeps_its_slot_while_it_exists():
    freed: dict = {}
    slots = place([], freed, ["draw", "grab", "leave"], 0.0)
    assert slots == ["draw", "grab", "leave"]
    # draw goes (a card is passed): the others stay, its slot stays empty
    slots = place(slots, freed, ["grab", "leave"], 1.0)
    assert slots == [None, "grab", "leave"]
    # the last one goes too: the slots never get fewer (the rows stay)
    slots = place(slots, freed, ["grab"], 1.5)
    assert slots == [None, "grab", None]


def test_a_new_button_never_takes_a_slot_another_action_had_just_now():
    freed: dict = {}
    slots = place([], freed, ["discard(5)", "leave"], 0.0)
    # the tap on Pass passes the card; a moment later Grab! comes: not under the
    # finger that just tapped the pass, but at the end
    slots = place(slots, freed, ["leave", "grab"], 0.1)
    assert slots == [None, "leave", "grab"]
    # two seconds on, the slot is open to anything
    slots = place(slots, freed, ["leave", "grab", "call"], 0.1 + SLOT_MEMORY)
    assert slots == ["call", "leave", "grab"]


def test_a_button_coming_back_takes_its_own_slot_first():
    freed: dict = {}
    slots = place([], freed, ["draw", "grab", "leave"], 0.0)
    # (three columns: the two passes share the second row, in reading order)
    slots = place(slots, freed, ["discard(0)", "discard(1)", "grab", "leave"], 0.5,
                  columns=3)
    assert slots == [None, "grab", "leave", "discard(0)", "discard(1)"]
    slots = place(slots, freed, ["draw", "grab", "leave"], 1.0)
    assert slots == ["draw", "grab", "leave", None, None]
    # long after, the passes come back to theirs although slot 0 is long open
    slots = place(slots, freed, ["discard(0)", "discard(1)", "grab", "leave"], 9.0)
    assert slots == [None, "grab", "leave", "discard(0)", "discard(1)"]


def test_no_slot_changes_action_within_the_memory_whatever_comes_and_goes():
    """Random states in turn: a button's slot is the same in every state it is in,
    and a slot that held one action holds no other within the memory."""
    import random

    actions = ["draw", "grab", "call", "leave", *(f"discard({i})" for i in range(6))]
    rng = random.Random(47)
    freed: dict = {}
    slots: list = []
    held: dict[int, tuple[str, float]] = {}  # slot -> (action, last seen there)
    now = 0.0
    for _ in range(2000):
        now += rng.choice([0.05, 0.2, 0.7, 2.5])
        wanted = [a for a in actions if rng.random() < 0.5]
        before = {a: i for i, a in enumerate(slots) if a is not None}
        slots = place(slots, freed, wanted, now)
        assert sorted(a for a in slots if a is not None) == sorted(wanted)
        for action, i in before.items():
            if action in wanted:
                assert slots[i] == action, (action, i, slots)  # it stayed
        for i, action in enumerate(slots):
            if action is None:
                continue
            if i in held and held[i][0] != action:
                assert now - held[i][1] >= SLOT_MEMORY, (i, held[i], action, now)
            held[i] = (action, now)
        # the places a bar keeps stay few: an action, and one held back a while each
        assert len(slots) <= 2 * len(actions), slots


def test_the_grid_counts_slots_from_the_bottom():
    # 3 columns, 5 slots: two rows; slot 0 at the bottom left, 3 and 4 above
    assert grid_order(5, 3) == [3, 4, 5, 0, 1, 2]
    # a row more is added at the top: the bottom row's cells are the same slots
    assert grid_order(7, 3)[-6:] == grid_order(5, 3)


class Table(Screen):
    """A screen whose keys a test switches on and off."""

    BINDINGS = [Binding("d", "draw", "Draw"), Binding("1", "pass(0)", "Pass", key_display="1-3"),
                Binding("2", "pass(1)", "Pass 2", show=False),
                Binding("3", "pass(2)", "Pass 3", show=False),
                Binding("g", "grab", "Grab!"), Binding("q", "leave", "Leave")]

    def __init__(self, clock: FakeClock) -> None:
        super().__init__()
        self.clock = clock
        self.keys = {"draw", "grab", "leave"}
        self.done: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("the table", classes="table")  # takes the room, as a game's does
        yield TouchBar(clock=self.clock.now)
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action in self.keys

    def switch(self, keys: set[str]) -> None:
        self.keys = keys
        self.refresh_bindings()

    def action_draw(self) -> None:
        self.done.append("draw")

    def action_pass(self, i: int) -> None:
        self.done.append(f"pass({i})")

    def action_grab(self) -> None:
        self.done.append("grab")

    def action_leave(self) -> None:
        self.done.append("leave")


class Touch(App):
    CSS_PATH = "../../tui/motherlode.tcss"
    CSS = ".table { height: 1fr; }"

    def __init__(self, clock: FakeClock) -> None:
        super().__init__()
        self.clock = clock

    def on_mount(self) -> None:
        self.add_class("-touch")
        self.push_screen(Table(self.clock))


def _places(app) -> dict[str, tuple[int, int]]:
    """Each button's action -> where it is on the screen."""
    bar = app.screen.query_one(TouchBar)
    return {str(b.name): (b.region.x, b.region.y) for b in bar.query(Button)}


async def _settle(pilot, want: set[str]) -> dict[str, tuple[int, int]]:
    """The bar's places once it shows ``want``, laid out and still over a pass."""
    last: list = [None]

    def still():
        places = _places(pilot.app)
        if set(places) == want and all(p != (0, 0) for p in places.values()) \
                and places == last[0]:
            return places
        last[0] = places
        return None

    return await until(pilot, still, f"the bar shows {want}", step=None)


async def test_the_bar_keeps_its_buttons_where_they_are():
    clock = FakeClock()
    app = Touch(clock)
    async with app.run_test(size=(42, 30)) as pilot:
        screen = app.screen
        first = await _settle(pilot, {"draw", "grab", "leave"})
        # slot 0 at the bottom left, the bar's one row just above the footer
        assert first["draw"][1] == first["grab"][1] == first["leave"][1]
        assert first["draw"][0] < first["grab"][0] < first["leave"][0]
        # a card drawn: Draw goes, the passes come; they take a new row above, and
        # nothing that stays moves
        clock.advance(0.3)
        screen.switch({"pass", "grab", "leave"})
        second = await _settle(pilot, {"pass(0)", "pass(1)", "pass(2)", "grab", "leave"})
        assert second["grab"] == first["grab"] and second["leave"] == first["leave"]
        assert all(second[f"pass({i})"][1] < first["grab"][1] for i in range(3))
        assert first["draw"] not in second.values()  # Draw's place is nobody's yet
        # the pass taps: Draw comes back to its own place, the row above stays
        clock.advance(0.3)
        screen.switch({"draw", "grab", "leave"})
        third = await _settle(pilot, {"draw", "grab", "leave"})
        assert third == first
        bar = screen.query_one(TouchBar)
        assert bar.region.height == 6  # two rows of three cells: the passes' row kept
        clock.advance(5.0)
        screen.switch({"pass", "grab", "leave"})
        assert await _settle(pilot, {"pass(0)", "pass(1)", "pass(2)", "grab", "leave"}) \
            == second


async def _pressable(pilot, selector: str) -> None:
    """Wait until the button's press effect is over (Textual ignores a click then)."""
    await until(pilot, lambda: not pilot.app.screen.query_one(selector).has_class("-active"),
                f"{selector} no longer pressed", step=0.01)


async def test_a_double_tap_never_does_two_different_things():
    clock = FakeClock()
    app = Touch(clock)
    async with app.run_test(size=(42, 30)) as pilot:
        screen = app.screen
        await _settle(pilot, {"draw", "grab", "leave"})
        bar = screen.query_one(TouchBar)
        draw = screen.query_one("#touch-draw", Button)
        cell = draw.parent
        # the first tap draws; the bar changes; a second tap on the same cell a
        # moment later finds it blank (nothing another action could take yet)
        await pilot.click("#touch-draw")
        assert screen.done == ["draw"]
        screen.switch({"pass", "grab", "leave"})
        await _settle(pilot, {"pass(0)", "pass(1)", "pass(2)", "grab", "leave"})
        assert not cell.query(Button)
        await pilot.click(cell)
        assert screen.done == ["draw"]
        # the same action twice is two taps of it (a second bot, a second roll), once
        # Textual's own press effect (0.2 s of real time on the same button) is over
        await pilot.click("#touch-grab")
        await _pressable(pilot, "#touch-grab")
        await pilot.click("#touch-grab")
        assert screen.done == ["draw", "grab", "grab"]
        # a slot whose button changed under the finger (a new card's words on a pass)
        # ignores the second tap for a moment, then takes taps again
        await pilot.click("#touch-pass-0")
        button = screen.query_one("#touch-pass-0", Button)
        button.label = "Pass Fox"
        await _pressable(pilot, "#touch-pass-0")
        await pilot.click("#touch-pass-0")
        assert screen.done == ["draw", "grab", "grab", "pass(0)"]
        clock.advance(TAP_GUARD)
        await _pressable(pilot, "#touch-pass-0")
        await pilot.click("#touch-pass-0")
        assert screen.done == ["draw", "grab", "grab", "pass(0)", "pass(0)"]
        assert bar.slots.count(None) >= 1


async def test_fools_gold_pass_buttons_name_their_cards_and_a_card_tap_passes(tmp_path,
                                                                            monkeypatch):
    """Issue 47 item 2: a pass button a name of card in the hand ("Pass Owl"; three
    Owls, one button), which keeps its place while the card is held; a tap on a card
    in the hand with a card waiting draws it and passes that card, as its number
    key does."""
    from net.games.foolsgold import moves as fm
    from tui.games.foolsgold.cards import HandView
    from tui.games.foolsgold.screen import FoolsGoldScreen

    from .harness import make_app
    from .helpers import Recorder, foolsgold_view, replace, screen_text

    monkeypatch.setenv("MOTHERLODE_TOUCH", "1")
    recorder = Recorder()
    app = make_app(tmp_path)
    async with app.run_test(size=(90, 30), message_hook=recorder) as pilot:
        screen = FoolsGoldScreen(0, ["Ann", "Bob", "Cid", "Dee"])
        await app.push_screen(screen)
        six = foolsgold_view()  # Owl, Owl, Calamity Kate, Gila Monster, Mule, Owl
        screen.show_state(six, [])
        names = ["Owl", "Calamity Kate", "Gila Monster", "Mule"]
        want = {f"pass_card({n!r})" for n in names} | {"grab", "app.leave"}
        places = await _settle(pilot, want)
        labels = {str(b.name): str(b.label) for b in screen.query(TouchBar).first()
                  .query(Button)}
        assert labels["pass_card('Owl')"] == "Pass Owl"
        assert labels["pass_card('Calamity Kate')"] == "Pass Calamity Kate"  # 19 cells
        assert "Slot" not in screen_text(app)  # an empty cell is blank
        await pilot.click("#touch-pass-card-calamity-kate")
        assert recorder.actions == [fm.DISCARD(
            card=fm.CardRef(name="Calamity Kate", variant="f", kind="prospector"))]
        # the host's view: Kate passed, her slot empty; the other buttons stay put
        slots = [0, 1, None, 2, 3, 4]
        hand = [c for c in six.hand if c.name != "Calamity Kate"]
        five = replace(six, hand=hand, slots=slots, hand_sizes=[5, 5, 5, 5],
                       incoming_sizes=[1, 2, 1, 0])
        screen.show_state(five, [])
        after = await _settle(pilot, {"draw", "grab", "app.leave"})
        assert all(after[a] == places[a] for a in ("grab", "app.leave"))
        assert after["draw"] not in places.values()  # not where a pass just was
        # a tap on a card with a card waiting: the draw and the pass of that card
        del recorder.actions[:]
        hand_view = screen.query_one(HandView)
        await _laid_out(pilot, hand_view)
        index = 4  # the Mule, in slot 5
        assert hand_view.card_at(index).name == "Mule"
        columns = hand_view.columns()
        from tui.games.foolsgold import glyphs
        from tui.games.foolsgold.cards import LINE_CARD
        x = (index % columns) * LINE_CARD + 2 if columns else index * glyphs.CARD_WIDTH + 2
        y = index // columns if columns else 1
        await pilot.click(hand_view, offset=(x, y))
        assert recorder.actions == [fm.DRAW(), fm.DISCARD(
            card=fm.CardRef(name="Mule", variant="d", kind="animal"))]


async def _laid_out(pilot, widget) -> None:
    await until(pilot, lambda: widget.region.area, "laid out", step=None)


@pytest.mark.parametrize(("coming", "then"), [(0.0, 0.0), (0.8, 0.4)])
async def test_a_screen_that_comes_up_under_the_finger_ignores_the_second_tap(coming, then):
    """A tap that starts a game (or opens any screen) and its double's second half:
    the new screen's bar has its own slots, and a different button may lie where the
    finger is; it ignores that tap for a moment. The same on a busy machine (``coming``
    and ``then`` in ``TAP_GUARD``s): the new screen came up most of the guard after
    the first tap, and the second half reached the app after that guard had passed (a
    phone's taps 60 ms apart once reached a loaded server's app 530 ms apart: Leave,
    then Ready); the new button ignores it for ``TAP_GUARD`` from when it came."""
    clock = FakeClock()
    app = Touch(clock)
    async with app.run_test(size=(42, 30)) as pilot:
        first = app.screen
        places = await _settle(pilot, {"draw", "grab", "leave"})
        await pilot.click("#touch-draw")
        assert first.done == ["draw"]
        clock.advance(coming * TAP_GUARD)
        second = Table(clock)
        second.keys = {"grab", "leave"}
        await app.push_screen(second)
        now = await _settle(pilot, {"grab", "leave"})
        assert now["grab"] == places["draw"]  # Grab! lies where Draw was
        clock.advance(then * TAP_GUARD)  # past the first tap's guard, not the button's
        await pilot.click("#touch-grab")
        assert second.done == [] and first.done == ["draw"]
        clock.advance(TAP_GUARD)
        await _pressable(pilot, "#touch-grab")
        await pilot.click("#touch-grab")
        assert second.done == ["grab"]


async def test_a_screen_gone_back_to_under_the_finger_ignores_the_second_tap():
    """Leave at a game's end pops back to the lobby, whose bar was made long before: a
    double tap's second half that reaches it late lands on Ready. Its bar counts the
    guard from when its screen came back."""
    clock = FakeClock()
    app = Touch(clock)
    async with app.run_test(size=(42, 30)) as pilot:
        await _settle(pilot, {"draw", "grab", "leave"})
        lobby = Table(clock)
        lobby.keys = {"grab", "leave"}
        await app.push_screen(lobby)
        places = await _settle(pilot, {"grab", "leave"})
        clock.advance(60.0)  # a whole game on top of it
        game = Table(clock)
        game.keys = {"draw", "leave"}
        await app.push_screen(game)
        now = await _settle(pilot, {"draw", "leave"})
        assert now["draw"] == places["grab"]
        await pilot.click("#touch-draw")
        assert game.done == ["draw"]
        clock.advance(0.8 * TAP_GUARD)  # the lobby is slow to come back
        app.pop_screen()
        await _settle(pilot, {"grab", "leave"})
        clock.advance(0.4 * TAP_GUARD)
        await pilot.click("#touch-grab")
        assert lobby.done == []
        clock.advance(TAP_GUARD)
        await _pressable(pilot, "#touch-grab")
        await pilot.click("#touch-grab")
        assert lobby.done == ["grab"]
