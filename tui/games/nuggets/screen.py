"""The Gold Nuggets table: seven big dice, the set-aside tray, holdings, log, advisor."""

from __future__ import annotations

from pathlib import Path

import msgspec
from textual import on
from textual.app import ComposeResult
from textual.reactive import var

from net import protocol as p
from net.games.nuggets import views as v
from net.games.nuggets.moves import KEEP, ROLL, STOP
from net.text import clean_text
from nuggets import IllegalAction, check_keep, score
from tui.games.nuggets import keys, words
from tui.games.nuggets.advisor import AdvisorPanel, advised_next
from tui.games.nuggets.beats import Beats
from tui.games.nuggets.dice import DiceTray, DieClicked, KeptTray
from tui.games.nuggets.holdings import Holdings
from tui.games.nuggets.phases import NUGGETS_ACTIONS, nuggets_now
from tui.messages import SendAction
from tui.phases import Now
from tui.screens.common import PickScreen, reconnecting
from tui.screens.table import TableScreen
from tui.widgets.board import TABLES_CSS, Hint, TurnBanner, names_line
from tui.widgets.log import EventLog

LAYOUT_CSS = str(Path(__file__).resolve().parent / "layout.tcss")
TURN_PAUSE = 0.7  # hot-seat: keys wait this long after the turn changes hands


class NuggetsScreen(Beats, TableScreen):
    """Renders the view of a Gold Nuggets table and turns keys into actions."""

    TABLE_ID = "nuggets-table"

    CSS_PATH = [TABLES_CSS, LAYOUT_CSS]  # the tables' rules, and this table's narrow and short
    BINDINGS = keys.BINDINGS  # the table's keys and their help: tui.games.nuggets.keys
    HELP = keys.HELP

    # vars, not reactives: the widgets they feed repaint themselves, and a reactive on
    # the screen would repaint the whole screen for every view and every selection
    view: var[v.NuggetsView | None] = var(None, always_update=True)
    selected: var[frozenset[int]] = var(frozenset())
    advisor_on: var[bool] = var(True)
    _guide_room = False  # the guide's box has the advisor panel's rows (``guide_shown``)

    def __init__(self, seats: list[int], *, ascii_mode: bool = False, advisor: bool = True,
                 hotseat: bool = False, turn_pause: float = TURN_PAUSE) -> None:
        super().__init__()
        self.turn_pause = turn_pause
        self._keys_shown: tuple | None = None
        self._held = False  # hot-seat: keys wait a moment after the turn changed hands
        self._hold_timer = None
        self._armed: tuple | None = None  # enter with nothing selected: (view, selection)
        # seats whose player confirmed the advisor's choice once: from then on, enter with
        # nothing selected plays it at once
        self._trusted: set[int] = set()
        self._bust: tuple[str, ...] | None = None  # the busting roll, shown for a beat
        self._bust_timer = None
        self.my_seats = list(seats)
        self.ascii_mode = ascii_mode
        self.hotseat = hotseat
        self.set_reactive(NuggetsScreen.advisor_on, advisor)
        self._follow: p.Move | None = None
        # the roll on or take sent from the view shown, after its set-aside: until the
        # next view, that view's keys are not offered (a space then would roll twice)
        self._sent_on: p.Move | None = None
        self._moment: str = ""
        self._moment_cls: str = ""
        self._moment_timer = None

    def compose_play(self) -> ComposeResult:
        yield Holdings(id="holdings")
        yield DiceTray(id="dice")
        yield KeptTray(id="tray")

    def compose_aside(self) -> ComposeResult:
        yield AdvisorPanel(id="advisor")

    def set_up_widgets(self) -> None:
        self.query_one(DiceTray).ascii_mode = self.ascii_mode
        self.query_one(Holdings).ascii_mode = self.ascii_mode
        self.query_one(AdvisorPanel).display = self.advisor_on

    # -- state flows down --------------------------------------------------------

    @property
    def acting_seat(self) -> int | None:
        """The seat this keyboard acts for now, or None when it is someone else's turn."""
        view = self.view
        if view is None or view.over:
            return None
        return view.current if view.current in self.my_seats else None

    @property
    def finished(self) -> bool:
        """The game is over: leaving needs no confirmation."""
        return isinstance(self.view, v.NuggetsView) and self.view.over

    def set_seats(self, seats: list[int]) -> None:
        self.my_seats = list(seats)
        if self.is_attached:
            self._refresh_keys()

    def show_away(self, away: frozenset[int]) -> None:
        self.query_one(Holdings).away = away

    def show_reactions(self, marks: dict[int, str]) -> None:
        self.query_one(Holdings).reactions = marks

    def _refresh_keys(self) -> None:
        """Redo the footer only when what ``check_action`` answers changes."""
        # the game's end too: its footer's Play again is the core's, not in ``keys``
        keys = (self.now().keys, self.finished)
        if keys != self._keys_shown:
            self._keys_shown = keys
            self.refresh_bindings()

    def now(self) -> Now:
        """The state of play for this keyboard's seats: the keys accepted and the status
        line (``tui.games.nuggets.phases.nuggets_now``)."""
        return nuggets_now(self.view, self.my_seats, self._chosen())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Footers true to the moment: a play key only while it would be accepted."""
        if action == "retry_now":
            return reconnecting(self.app)
        if action not in NUGGETS_ACTIONS:
            return True
        return not reconnecting(self.app) and action in self.now().keys

    def show_state(self, view: v.NuggetsView, events: list[v.GameEvent]) -> None:
        """A new view from the host, with the events that led to it."""
        if not self._ready:
            self._pending.append(("state", view, events))
            return
        if not self.is_attached:  # torn down (the app is closing): nothing to draw on
            return
        # Peer text: the host cleans names, and we clean them again before display.
        view = msgspec.structs.replace(view, players=[clean_text(n) for n in view.players])
        log = self.query_one(EventLog)
        log.add_events(events, view.players)
        for event in events:
            self._moment_for(event, view.players)
        self._hold_bust(events)
        old = self.view
        if self.hotseat and old is not None and not view.over and view.current != old.current:
            self._hold_keys()

        if old is None or old.rolled != view.rolled:
            self.selected = frozenset()
        self._sent_on = self._follow_up(view)
        self.view = view
        if self._sent_on is not None:
            self._send(self._sent_on)

    def watch_view(self, view: v.NuggetsView | None) -> None:
        if view is None or not self._ready:
            return
        dice = self.query_one(DiceTray)
        if self._bust is not None:
            dice.faces = self._bust  # the busting roll, for a beat
        else:
            dice.faces = tuple(view.rolled) if view.rolled is not None else None
        dice.dice_left = view.dice_left
        dice.selected = self.selected
        self._update_tray()
        holdings = self.query_one(Holdings)
        holdings.players = tuple(view.players)
        holdings.holdings = tuple(view.holdings)
        holdings.supply = view.supply
        holdings.current = None if view.over else view.current
        holdings.mine = frozenset(self.my_seats)
        holdings.winners = tuple(view.winners)
        self._update_banner()
        self._update_hint()
        self.query_one(AdvisorPanel).view = view
        self._refresh_keys()

    def watch_selected(self, selected: frozenset[int]) -> None:
        if self._ready:
            self.query_one(DiceTray).selected = selected
            self.query_one(AdvisorPanel).chosen = tuple(self._chosen())
            self._update_tray()
            self._update_hint()
            self._refresh_keys()
            self.update_guide()  # the guide's step follows the dice chosen

    #: below this many rows the guide's box takes the advisor panel's rows while it
    #: shows (the guide's steps name the hint's keys, never the panel)
    GUIDE_ROOM = 24

    def guide_shown(self, shown: bool) -> None:
        self._guide_room = shown and self.app.size.height < self.GUIDE_ROOM
        if self._ready:
            self.query_one(AdvisorPanel).display = self.advisor_on and not self._guide_room

    def show_advisor(self, on: bool) -> None:
        self.advisor_on = on

    def watch_advisor_on(self, on: bool) -> None:
        if self._ready:
            self.query_one(AdvisorPanel).display = on and not self._guide_room

    def _update_tray(self) -> None:
        """The set-aside tray: the dice set aside this turn, and those chosen to join
        them, worth what they would be together."""
        view = self.view
        if view is None:
            return
        tray = self.query_one(KeptTray)
        chosen = tuple(self._chosen()) if view.phase == "keep" else ()
        try:  # a choice the rules refuse is worth nothing more (the hint says why)
            allowed = not chosen or bool(check_keep(view.rolled or [], view.kept, chosen))
        except IllegalAction:
            allowed = False
        tray.kept = tuple(view.kept)
        tray.chosen = chosen
        tray.allowed = allowed
        tray.value = score([*view.kept, *chosen]) if chosen and allowed else view.kept_value
        # said to the seat that may steal, while it may: not to a watcher, not at the end
        tray.can_steal = view.can_steal and self.acting_seat is not None

    def _update_banner(self) -> None:
        view = self.view
        banner = self.query_one(TurnBanner)
        if banner.has_class("-hotseat") != self.hotseat:
            banner.set_class(self.hotseat, "-hotseat")
        if self._moment or view is None:
            return
        names = view.players
        if view.over:
            banner.show("Game over: " + names_line(names, view.winners) + " won!", "-over")
            return
        current = view.current
        name = names[current] if 0 <= current < len(names) else "?"
        if self.acting_seat is None:
            banner.show(f"{name}'s turn")
        elif self.hotseat:
            banner.show(f">>> {name}'s turn <<<", "-mine")
        else:
            banner.show(f"{name}, your turn", "-mine")

    def _update_hint(self) -> None:
        if self._armed is not None and self._armed == (id(self.view), self.selected):
            return  # the advisor's confirmation stays until answered
        sent = self._sent_on
        if sent is not None:  # the footer stays put (a phone's buttons never jump)
            going = ("rolling on" if sent.move == ROLL.name else "stealing"
                     if STOP.parse(sent).steal_from is not None else "taking")
            self.query_one(Hint).text = f"Set aside; {going}…"
            return
        now = self.now()
        self.query_one(Hint).text = self.status_words(now.status) + self._advice_words(now)

    def _advice_words(self, now: Now) -> str:
        """The advisor's choice in words, with the key that plays it (issue 19: a steal
        is named as a steal)."""
        view = self.view
        if view is None or "advised" not in now.keys or not self.advisor_on:
            return ""
        if view.phase in ("choose", "take"):
            return words.tip(view)
        advised = self._advised()
        if advised is None:
            return ""
        if not self._chosen():
            follow = words.follow_words(view, advised[1], self._chosen(), advised[0])
            return f" Advised: {follow} (space, space)."
        if self.selected == frozenset(advised[0]):
            # the line already names the selection: only what follows it is new
            return (f" Advised: this, then "
                    f"{words.follow_words(view, advised[1], self._chosen())}: space plays it.")
        return ""

    # -- what the link tells -----------------------------------------------------------


    # -- intent flows up ----------------------------------------------------------

    def _chosen(self) -> list[str]:
        rolled = (self.view.rolled if self.view is not None else None) or []
        return [rolled[i] for i in sorted(self.selected) if i < len(rolled)]

    def _send(self, action) -> None:
        self.post_message(SendAction(action))

    def _follow_up(self, view: v.NuggetsView) -> p.Move | None:
        """The move to send on from ``view``, a set-aside's roll on or take, if any."""
        follow, self._follow = self._follow, None
        if follow is None or self.acting_seat != follow.seat:
            return None
        if view.phase == "choose" or (view.phase == "take" and follow.move == STOP.name):
            return follow
        return None

    def _can_act(self) -> bool:
        if self.acting_seat is None:
            self.query_one(Hint).text = "It is not your turn."
            return False
        if self._held:
            return False  # the hand-over pause: this key was meant for the last turn
        # the roll on or take is on its way: this key would send it again
        return self._sent_on is None

    def _advised(self) -> tuple[list[int], p.Move] | None:
        """The advisor's set-aside (as dice on the table) and what it would do next."""
        return words.advised(self.view, self.acting_seat)

    def _keep_then(self, follow: p.Move) -> None:
        view = self.view
        if view is None:
            return
        chosen = self._chosen()
        try:
            faces = check_keep(view.rolled or [], view.kept, chosen)
        except IllegalAction as error:
            self._explain(str(error))
            return
        self._follow = follow
        self._send(KEEP(faces=[f.value for f in faces], seat=self.acting_seat))

    def _explain(self, message: str) -> None:
        """A refused set-aside, with the rules' own words and what would be legal."""
        self.query_one(Hint).text = words.not_allowed(self.view, message)

    def show_error(self, message: str) -> None:
        """The host refused an action: say so in place and forget any follow-up."""
        self._follow = None
        self._sent_on = None
        self.query_one(Hint).text = f"Refused: {message}"

    def action_toggle(self, index: int) -> None:
        rolled = self.view.rolled if self.view is not None else None
        if self.acting_seat is None or not rolled or index >= len(rolled):
            return
        self.selected = self.selected ^ {index}

    @on(DieClicked)
    def _die_clicked(self, event: DieClicked) -> None:
        self.action_toggle(event.index)

    def action_select_face(self, face: str) -> None:
        rolled = self.view.rolled if self.view is not None else None
        if self.acting_seat is None or not rolled:
            return
        indices = {i for i, f in enumerate(rolled) if f == face}
        if not indices:
            self.query_one(Hint).text = f"No {face} on the table."
            return
        if indices <= self.selected:
            self.selected = self.selected - indices
        else:
            self.selected = self.selected | indices

    def action_clear(self) -> None:
        self.selected = frozenset()
        self._armed = None

    def action_advised(self) -> None:
        """The one-key advice. Choosing dice: the first press selects the advisor's
        set-aside, the second plays it with the advised roll on, take or steal. After a
        set-aside: plays the advised roll on, take or steal."""
        if not self._can_act():
            return
        view = self.view
        seat = self.acting_seat
        if view.phase in ("choose", "take"):
            action, victim = advised_next(view)
            if action == "roll" and view.phase == "choose":
                self._send(ROLL(seat=seat))
            else:
                self._send(STOP(steal_from=victim, seat=seat))
            return
        advised = self._advised()
        if advised is None:
            self.query_one(Hint).text = "The advisor has no set-aside to offer now."
            return
        picks, follow = advised
        if self.selected == frozenset(picks):
            self._keep_then(follow)
            return
        self.selected = frozenset(picks)

    def action_roll(self) -> None:
        if not self._can_act():
            return
        step = self.view.phase
        seat = self.acting_seat
        if step in ("roll", "choose"):
            self._send(ROLL(seat=seat))
        elif step == "keep" and not self.selected:
            self._enter_with_nothing_selected()
        elif step == "keep" and self._armed == (id(self.view), self.selected):
            follow = self._advised()
            self._armed = None
            if follow is not None:
                self._trusted.add(seat)
                self._keep_then(follow[1])
        elif step == "keep":
            self._keep_then(ROLL(seat=seat))
        elif step == "take":
            self.query_one(Hint).text = "All seven dice are set aside: t takes them."

    def _enter_with_nothing_selected(self) -> None:
        """The obvious thing, once confirmed: the advisor's set-aside is selected, and a
        second enter sets it aside and rolls on or takes, as the advisor would. Once a
        player has confirmed that, a single enter does it for them."""
        advised = self._advised()
        if advised is None:
            self.query_one(Hint).text = "Pick dice to set aside first: 1-7, n, l, F2-F5."
            return
        picks, follow = advised
        self.selected = frozenset(picks)
        if self.acting_seat in self._trusted:
            self._keep_then(follow)
            return
        self._armed = (id(self.view), self.selected)
        self.query_one(Hint).text = (
            f"enter again: set aside {words.count(self._chosen())} and "
            f"{words.follow_words(self.view, follow, self._chosen())}, "
            "as the advisor would (from then on one enter does it). esc cancels."
        )

    def action_take(self) -> None:
        if not self._can_act():
            return
        step = self.view.phase
        seat = self.acting_seat
        if step in ("choose", "take"):
            self._send(STOP(seat=seat))
        elif step == "keep":
            self._keep_then(STOP(seat=seat))
        else:
            self.query_one(Hint).text = "Roll first: enter rolls the dice."

    def action_steal(self) -> None:
        if not self._can_act():
            return
        view = self.view
        step = view.phase
        lassos = view.kept.count("lasso")
        if step == "keep":
            lassos += self._chosen().count("lasso")
        if step == "roll" or lassos < 3:
            self.query_one(Hint).text = (
                f"Stealing needs three lassos set aside this turn; you have {lassos}."
            )
            return
        seat = self.acting_seat
        kept = list(view.kept)
        if step == "keep":
            kept += self._chosen()
        worth = score(kept)
        choices = words.advised_first(words.steal_choices(view, seat, worth),
                                      self._advised_victim())
        if not worth:
            self.query_one(Hint).text = (
                "Your set-aside is worth nothing to steal: set aside nuggets or numbers too.")
            return
        if not choices:
            self.query_one(Hint).text = (
                "Nobody has a nugget to steal: t takes from the supply instead.")
            return
        def chosen(victim: int | None) -> None:
            if victim is None:
                return
            stop = STOP(steal_from=victim, seat=seat)
            if self.view.phase == "keep":
                self._keep_then(stop)
            else:
                self._send(stop)

        self.app.push_screen(PickScreen(f"Steal {worth} from whom?", choices), chosen)

    def _advised_victim(self) -> int | None:
        """Whom the advisor would steal from now, if it would steal at all."""
        view = self.view
        try:
            if view.phase in ("choose", "take"):
                action, victim = advised_next(view)
                return victim if action == "stop" else None
            advised = self._advised()
        except Exception:  # the advice is a help: never a reason the dialog fails
            return None
        if advised is not None and advised[1].move == STOP.name:
            return STOP.parse(advised[1]).steal_from
        return None

    def action_advisor(self) -> None:
        self.advisor_on = not self.advisor_on
