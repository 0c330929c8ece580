"""The protocol's messages: msgspec Structs in two tagged unions, one per direction
(``ClientMessage``: client to host, ``HostMessage``: host to client), and the field
types they share. ``docs/PROTOCOL.md`` documents every one.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from msgspec import UNSET, Meta, Raw, Struct, UnsetType

from net.text import clean_text

PROTOCOL_VERSION = 4
#: every version a host admits. Protocol 3 carries every game's moves in one ``move``
#: message (``net.moves``); a client of protocol 1 or 2 named each move by its own
#: message type and is refused with what to update.
PROTOCOLS = (3, 4)


# ---------------------------------------------------------------------------
# Field types

Seat = Annotated[int, Meta(ge=0, le=63)]
# Lengths on the wire are generous bounds against abuse; the host cleans peer text
# and applies the real limits (names 1-20, chat 1-200) with clear errors.
Text = Annotated[str, Meta(max_length=1000)]
Token = Annotated[str, Meta(max_length=200)]
# a game's key (``net.catalogue``); a client refuses a key it does not know
GameKeyText = Annotated[str, Meta(pattern="^[a-z][a-z0-9_]{0,31}$")]
#: a move's name (``net.moves``): the game declares which there are
MoveName = Annotated[str, Meta(pattern="^[a-z][a-z0-9_]{0,31}$")]
ArgName = Annotated[str, Meta(max_length=32)]


class _Msg(Struct, tag_field="type", kw_only=True, omit_defaults=False):
    #: the protocol version that brought this message in. A connection speaks the
    #: version its hello named (``Connection.version``): it never sends a message of a
    #: later version and refuses one it receives, so a new message needs no gate of
    #: its own, only its ``since``.
    since: ClassVar[int] = 1


# ---------------------------------------------------------------------------
# Client to host


class Hello(_Msg, tag="hello"):
    """First message of every connection."""

    protocol: int
    name: Text
    token: Token | None = None
    table: Text | None = None
    spectate: bool = False
    #: protocol 4: the client's Ed25519 public key, raw 32 bytes, base64 (RFC 4648,
    #: padded); the host answers with a ``challenge`` (docs/PROTOCOL.md, "Identity")
    key: Text | None = None


class Ready(_Msg, tag="ready"):
    ready: bool = True


class Configure(_Msg, tag="configure"):
    """The owner changes table settings in the lobby; absent fields stay as they are.
    ``game`` changes the table's game's own settings, by name (``TableSettings.game``)."""

    seats: int | UnsetType = UNSET
    difficulty: Text | UnsetType = UNSET
    first_player: Seat | None | UnsetType = UNSET
    seed: Text | None | UnsetType = UNSET
    grace: float | UnsetType = UNSET
    bot_pace: float | UnsetType = UNSET
    hotseat: bool | UnsetType = UNSET
    # lag-fair races (protocol 2): the most a race action is corrected, seconds
    lag_cap: float | UnsetType = UNSET
    # the table's pace: its time windows and bots, for slower hands
    pace: Literal["normal", "steady", "relaxed"] | UnsetType = UNSET
    game: dict[ArgName, Any] | UnsetType = UNSET


class AddBot(_Msg, tag="add_bot"):
    difficulty: Text | None = None


class RemoveBot(_Msg, tag="remove_bot"):
    seat: Seat


class Kick(_Msg, tag="kick"):
    """Owner, outside a game: free the seat of a person who is not ready."""

    seat: Seat


class AddLocal(_Msg, tag="add_local"):
    """Hot-seat: seat another player controlled by this same connection."""

    name: Text


class Start(_Msg, tag="start"):
    pass


class Chat(_Msg, tag="chat"):
    text: Text


class Leave(_Msg, tag="leave"):
    """Leave the table. ``keep_seat`` during a game: step away, a stand-in plays the
    seat at once, and the resume token takes it back later."""

    keep_seat: bool = False


class Ping(_Msg, tag="ping"):
    id: int | Text | None = None


class Move(_Msg, tag="move"):
    """A game's move (protocol 3): its name and its arguments, as the table's game
    declares them (``net.moves``; the host checks ``args`` against the declaration).
    ``seat`` is needed only by a client controlling several seats."""

    since: ClassVar[int] = 3
    move: MoveName
    args: dict[ArgName, Any] = {}
    seat: Seat | None = None


# --- lag-fair races (protocol 2) -------------------------------------------------------


class ProbeReply(_Msg, tag="probe_reply"):
    """The answer to the host's ``probe``, sent as soon as it is read: the host times
    the round trip to estimate this connection's one-way delay."""

    since: ClassVar[int] = 2
    id: Annotated[int, Meta(ge=0, le=2**53)]


# --- end lag-fair races ---------------------------------------------------------------


# --- issue 61: rematch and reactions (protocol 4) ------------------------------------

#: the canned reactions, and the words every seat shows for each (no free text: there
#: is nothing to moderate)
REACTIONS = {"nice": "Nice!", "ouch": "Ouch", "bluff": "Bluff?", "gg": "Good game",
             "hurry": "Hurry", "thanks": "Thanks"}  # fmt: skip
ReactionName = Literal["nice", "ouch", "bluff", "gg", "hurry", "thanks"]


class Again(_Msg, tag="again"):
    """At a game's end: ``yes`` offers the same game again (same seats, same settings)
    or accepts the offer made; ``no`` declines it, and frees the seat."""

    since: ClassVar[int] = 4
    answer: Literal["yes", "no"]


class React(_Msg, tag="react"):
    """One of the canned reactions (``REACTIONS``), shown to everyone at the table."""

    since: ClassVar[int] = 4
    reaction: ReactionName


# --- end issue 61 ---------------------------------------------------------------------
# --- issue 60: identity and ratings (protocol 4) ----------------------------------------


class Prove(_Msg, tag="prove"):
    """The answer to the host's ``challenge``: an Ed25519 signature (base64) of
    ``b"motherlode-hello-4\\0" + nonce + name`` (the nonce's 32 bytes, the hello's name
    as UTF-8) by the key the hello named."""

    since: ClassVar[int] = 4
    signature: Annotated[str, Meta(max_length=200)]


class AskStandings(_Msg, tag="standings"):
    """Ask the host for its league's standings (docs/PROTOCOL.md, "Standings"): of
    ``game`` (None: every game), in ``season`` (a season's name, any case; None: all
    time; ``current``: the latest). The host answers ``standings``, or an ``error``
    with ``ref`` ``standings``. A member of a table may ask, a player or a watcher."""

    since: ClassVar[int] = 4
    game: GameKeyText | None = None
    season: Annotated[str, Meta(max_length=60)] | None = None


# --- end identity and ratings ----------------------------------------------------------


ClientMessage = (
    Hello
    | Ready
    | Configure
    | AddBot
    | RemoveBot
    | Kick
    | AddLocal
    | Start
    | Chat
    | Leave
    | Ping
    | Move  # protocol 3
    | ProbeReply  # protocol 2
    | Again  # protocol 4
    | React  # protocol 4
    | Prove  # protocol 4
    | AskStandings  # protocol 4
)


# ---------------------------------------------------------------------------
# Host to client


class SeatInfo(Struct, kw_only=True):
    seat: int
    name: str
    kind: Literal["human", "bot", "local"]
    ready: bool
    connected: bool
    standin: bool = False
    #: protocol 4: a person without an identity on this host (no key, or not the key
    #: the name is pinned to): plays, and is saved, but rates nobody
    guest: bool = False


class TableSettings(Struct, kw_only=True):
    seats: int
    difficulty: str
    first_player: int | None
    seeded: bool
    grace: float
    bot_pace: float
    hotseat: bool
    lag_cap: float = 0.15  # protocol 2: lag-fair races
    # what bounds a seat's lag: "kernel", its link's least round trip as the host's
    # kernel measures it (TCP_INFO), or "probes", the probe replies alone (a host on
    # a system without TCP_INFO, or one that sent nothing)
    lag_bound: Literal["kernel", "probes"] = "probes"
    #: the table's pace: "normal", "steady" (time windows twice the game's own, bots
    #: half as quick) or "relaxed" (four times)
    pace: str = "normal"
    #: the table's game's own settings, by name, as the game declares them
    #: (``net.catalogue.Setting``)
    game: dict[str, Any] = {}


class TableInfo(Struct, kw_only=True):
    name: str
    game: GameKeyText
    phase: Literal["lobby", "playing", "over"]
    owner: int | None
    seats: list[SeatInfo]
    settings: TableSettings
    spectators: int
    seed_hash: str | None = None
    # a restored game waiting for its people: their seats, and the seconds left (at
    # the time this was sent) before it goes on without them
    waiting: list[int] = []
    wait_left: float | None = None


class Welcome(_Msg, tag="welcome"):
    protocol: int
    name: str
    seat: int | None
    seats: list[int]
    token: str | None
    resumed: bool
    table: TableInfo


class TableUpdate(_Msg, tag="table"):
    table: TableInfo


class Notice(_Msg, tag="notice"):
    """Something happened to a person: joined, left, away, back, standin, owner, bot,
    bot_left (the owner removed a bot); or the owner changed the terms (``terms``:
    ``detail`` says what, and every person must say ready again); or, in a game, the
    table's pace changed (``pace``: a guided game's opening is over, ``detail``
    "relaxed -> normal", ``net.table.guided``). A bot's coming or going that cleared
    someone's "ready" says so in ``detail``."""

    event: str
    name: str
    seat: int | None = None
    # for ``terms``: what changed, in words; for ``bot`` and ``bot_left``: that
    # everyone says ready again (UNSET, left out, otherwise)
    detail: Text | UnsetType = UNSET


class Started(_Msg, tag="started"):
    seed_hash: str
    players: list[str]
    first: int


class State(_Msg, tag="state"):
    """A seat's view after a change, with the events that explain it (``net.views``).

    The host builds it with the game's view and event Structs. On the wire they are
    decoded in a second step, by the game's own types (the framing calls
    ``net.views.decode_view`` and ``decode_events``): a ``State`` a client receives holds
    the Structs too, never the raw bytes."""

    seat: int | None
    view: Raw
    events: Raw
    at: float


class ChatLine(_Msg, tag="chat"):
    name: str
    seat: int | None
    text: str
    at: float


class Over(_Msg, tag="over"):
    winners: list[int]
    scores: list[int]
    seed: str
    seed_hash: str


class Error(_Msg, tag="error"):
    """A refusal. Its ``message`` is cleaned on construction (``net.text.clean_text``),
    so no error ever echoes a peer's escape sequences, controls or invisible text,
    whoever built it from whatever a peer sent."""

    code: str
    message: str
    ref: str | None = None

    def __post_init__(self) -> None:
        self.message = clean_text(self.message)


# ``bye`` reasons a client acts on (others are shown as they are)
SUSPENDED = "suspended"  # the host stopped and keeps the game: it comes back (--resume)


class Bye(_Msg, tag="bye"):
    """The host closes the connection: ``left``, ``shutdown``, ``replaced`` or
    ``suspended`` (a client with a seat keeps trying until the host is back)."""

    reason: str


class Pong(_Msg, tag="pong"):
    id: int | str | None = None
    at: float | None = None


# --- lag-fair races (protocol 2) -------------------------------------------------------


class Probe(_Msg, tag="probe"):
    """The host times this connection: answer with ``probe_reply`` and the same
    ``id`` at once. Sent only to clients of protocol 2 or later, a few times a second
    during a game and every few seconds otherwise."""

    since: ClassVar[int] = 2
    id: int


# --- end lag-fair races ---------------------------------------------------------------


# --- issue 61: rematch and reactions (protocol 4) ------------------------------------


class AgainState(_Msg, tag="again"):
    """The rematch offer's state, to every seat and watcher whenever it changes:
    ``by`` offered it (None once the offer ended), ``yes`` accepted, ``no`` declined
    (their places are freed when the game starts), ``waiting`` are the people yet to
    answer; ``started``: the new game began. Seats are the table's (``TableInfo``)."""

    since: ClassVar[int] = 4
    by: int | None
    yes: list[int]
    no: list[int]
    waiting: list[int]
    started: bool = False


class Reaction(_Msg, tag="react"):
    """A person's reaction (one of ``REACTIONS``): ``seat`` is theirs (None for a
    watcher), ``name`` their name, ``at`` the table's clock."""

    since: ClassVar[int] = 4
    seat: int | None
    name: str
    reaction: str
    at: float


# --- end issue 61 ---------------------------------------------------------------------
# --- issue 60: identity and ratings (protocol 4) ----------------------------------------


class Challenge(_Msg, tag="challenge"):
    """Sent after a hello that names a key: sign this nonce (32 random bytes, base64)
    with it, in a ``prove``."""

    since: ClassVar[int] = 4
    nonce: str


class RatedChange(Struct, kw_only=True):
    """One rated seat's change: display ratings, None while provisional."""

    seat: int
    name: str
    before: int | None
    after: int | None
    games: int
    provisional: bool


class Rated(_Msg, tag="rated"):
    """After a rated game ends: each rated seat's rating change (a guest's seat and a
    game with no person at it are not rated)."""

    since: ClassVar[int] = 4
    game: str
    changes: list[RatedChange]


class StandingLine(Struct, kw_only=True):
    """One player's line in the standings: ``rating`` is the display rating, None
    while provisional (fewer than 10 rated games: ``rated_games`` says how many);
    ``games`` and ``wins`` count the season asked for; ``last_played`` is wall-clock
    seconds (Unix time)."""

    rank: int
    name: str
    game: str
    rating: int | None
    games: int
    wins: int
    provisional: bool
    rated_games: int
    last_played: float


class Standings(_Msg, tag="standings"):
    """The answer to ``standings``: the host's league, ranked per game (the best
    ``LINES_PER_GAME`` of each; ``more`` players were left out), for the ``game`` and
    ``season`` asked (the season's own name; None: all time), and every season's
    name, oldest first."""

    since: ClassVar[int] = 4
    game: str | None
    season: str | None
    seasons: list[str]
    lines: list[StandingLine]
    more: int = 0


# --- end identity and ratings ----------------------------------------------------------


HostMessage = (
    Welcome | TableUpdate | Notice | Started | State | ChatLine | Over | Error | Bye | Pong
    | Probe  # protocol 2
    | AgainState | Reaction  # protocol 4
    | Challenge | Rated | Standings  # protocol 4
)


def message_type(message: Struct) -> str:
    """The wire ``type`` of a message."""
    return type(message).__struct_config__.tag


def refers(message: Struct) -> str:
    """What an ``error``'s ``ref`` names for a refused message: its ``type``, or for a
    ``move``, the move's name (``grab``, ``keep``)."""
    return message.move if isinstance(message, Move) else message_type(message)


__all__ = [
    "PROTOCOL_VERSION", "PROTOCOLS", "Probe", "ProbeReply", "Prove", "Challenge", "Rated",
    "RatedChange", "SUSPENDED", "Seat", "Text", "Token", "Hello", "Ready", "Configure", "AddBot",
    "RemoveBot", "Kick", "AddLocal", "Start", "Chat", "Leave", "Ping", "Move", "MoveName", "Again",
    "React", "REACTIONS", "AgainState", "Reaction", "ClientMessage", "SeatInfo", "TableSettings",
    "TableInfo", "Welcome", "TableUpdate", "Notice", "Started", "State", "ChatLine", "Over",
    "Error", "Bye", "Pong", "HostMessage", "message_type", "refers", "AskStandings", "Standings",
    "StandingLine",
]
