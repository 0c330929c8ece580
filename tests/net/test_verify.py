"""A client checks a finished game's randomness against the revealed seed from the
messages it kept (``net.verify.verify_messages``), through the game's own module."""


import nuggets
from net import protocol as p
from net.games.nuggets import views as nuggets_views
from net.table import Settings, Table, Tables
from net.verify import verify_messages


def _watched_game(game: str, seats: int, seed: str | None) -> list:
    """A game of bots, to its end, as a spectator's messages."""
    tables = Tables()
    table = tables.add(Table("Den", game, Settings(seats=seats, seed=seed)))
    for _ in range(seats):
        table.add_bot("normal")
    seen: list = []
    tables.hello(p.Hello(protocol=3, name="Eve", spectate=True), seen.append, print, 0.0)
    table.start(0.0)
    while table.phase == "playing":
        table.tick(table.next_wakeup())
    assert any(isinstance(m, p.Over) for m in seen)
    client = p.Connection(p.CLIENT)  # as a client decodes them, off the wire
    client.receive_data(b"".join(p.encode(m) for m in seen))
    return [client.next_message() for _ in seen]


def test_a_spectator_verifies_every_roll_of_a_gold_nuggets_game():
    seen = _watched_game("nuggets", 3, None)  # unseeded: the host drew its own seed
    assert verify_messages(seen) == []
    rolled = next(e for m in seen if isinstance(m, p.State) for e in m.events
                  if isinstance(e, nuggets_views.Rolled))  # fmt: skip
    rolled.faces[0] = next(f.value for f in nuggets.Face if f.value != rolled.faces[0])
    problems = verify_messages(seen)
    assert problems and "is not the seed's" in problems[0]


def test_a_forged_seed_and_an_unknown_game_are_told():
    seen = _watched_game("foolsgold", 3, "told")
    assert verify_messages(seen) == []  # a spectator checks the seed and the start player
    over = next(m for m in seen if isinstance(m, p.Over))
    over.seed = "not the seed"
    assert "does not hash" in verify_messages(seen)[0]
    assert verify_messages([over]) == ["no welcome or table update: which game this was "
                                       "is unknown"]  # fmt: skip
