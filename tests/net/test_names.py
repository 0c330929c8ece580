"""Names that read the same are the same name (issue 35). With Bob and Iris seated, a
newcomer cannot pass for either: a look-alike written in one script gets a suffix, as
a clash does; one that mixes scripts (UTS #39's mixed-script confusables) is refused
with whose name it reads like; blank-looking characters are stripped; and a person's
name may not read as a bot's. The others see only the newcomer they can tell apart."""

import pytest

from net import protocol as p
from net.protocol import Code
from net.text import clean_name, name_problem, same_name
from tests.net.helpers import join, nuggets_table


def _table_with_bob_and_iris():
    tables, table = nuggets_table(seats=5)
    bob, bob_inbox = join(tables, "Bob")
    iris, _ = join(tables, "Iris")
    return tables, table, bob_inbox


@pytest.mark.parametrize(("typed", "like"), [
    ("\u0392ob", "Bob"),  # a Greek capital beta
    ("\u0412ob", "Bob"),  # a Cyrillic capital ve
    ("\u0406ris", "Iris"),  # a Cyrillic capital I
])  # fmt: skip
def test_a_mixed_script_look_alike_is_refused_saying_whose_name_it_reads_like(typed, like):
    tables, table, bob_inbox = _table_with_bob_and_iris()
    seen = len(bob_inbox)
    with pytest.raises(p.ProtocolError) as refused:
        join(tables, typed)
    assert refused.value.code == Code.BAD_NAME
    assert f"reads like {like!r}, who is here" in refused.value.message
    assert "one script" in refused.value.message
    assert [s.name for s in table.seats] == ["Bob", "Iris"]
    assert len(bob_inbox) == seen  # Bob is told nothing: nobody joined


@pytest.mark.parametrize(("typed", "seated_as"), [
    ("lris", "lris 2"),  # a lower-case L for the capital I: one script, so a suffix
    ("Bob\u2800", "Bob 2"),  # padded with the Braille blank: it is Bob
    ("\u3164Bob", "Bob 2"),  # a Hangul filler in front
    ("BOB", "BOB 2"),  # case never told two names apart
])  # fmt: skip
def test_a_one_script_look_alike_or_blank_padding_gets_a_suffix(typed, seated_as):
    tables, table, bob_inbox = _table_with_bob_and_iris()
    newcomer, inbox = join(tables, typed)
    assert newcomer.name == seated_as
    assert inbox.of(p.Welcome)[0].name == seated_as
    joined = [n.name for n in bob_inbox.of(p.Notice) if n.event == "joined"]
    assert joined[-1] == seated_as  # what Bob reads can be told apart from his own name


@pytest.mark.parametrize("typed", ["Dusty (bot)", "Ann (BOT)", "Ann (b\u043et)", "Nell(bot)"])
def test_a_person_may_not_take_a_bots_name(typed):
    tables, table, _ = _table_with_bob_and_iris()
    with pytest.raises(p.ProtocolError) as refused:
        join(tables, typed)
    assert refused.value.code == Code.BAD_NAME and "bot's name" in refused.value.message


def test_local_players_are_held_to_the_same_names():
    tables, table = nuggets_table(seats=4, hotseat=True)
    ann, inbox = join(tables, "Ann")
    table.handle(ann, p.AddLocal(name="\u0410nn"), 1.0)  # a Cyrillic capital A
    assert inbox.of(p.Error)[-1].code == Code.BAD_NAME
    table.handle(ann, p.AddLocal(name="Robo (bot)"), 1.0)
    assert "bot's name" in inbox.of(p.Error)[-1].message
    table.handle(ann, p.AddLocal(name="Bea\u2800"), 1.0)
    assert [s.name for s in table.seats] == ["Ann", "Bea"]


def test_the_comparison_itself():
    assert same_name("Bob", "\u0392ob") and same_name("Iris", "lris")
    assert same_name("Bob", "bob") and same_name("Ann", "\u0430nn")
    assert not same_name("Bob", "Rob") and not same_name("Ann", "Anna")
    assert clean_name("Bob\u2800\u2800") == "Bob" and clean_name("\u2800") == ""
    for name in ("Bob", "Zo\u00eb", "\u03a7\u03c1\u03ae\u03c3\u03c4\u03bf\u03c2", "\u30df\u30af",
                 "Bobby McGee", "Robot", "B\u0300", "Zoe\u0308",  # combining marks
                 "\u0399\u0301\u03c9"):  # fmt: skip
        assert name_problem(name) is None, name  # one script, any script, is a name


def test_no_bot_shares_a_word_with_a_card():
    """Bots' names that no card has (issue 47): a bot called Nell beside the card Nugget
    Nell made "Nell (bot) called Fool's Gold!" read like a card's doing."""
    from foolsgold.cards import ANIMAL_NAMES, PROSPECTOR_NAMES
    from net.table.people import BOT_NAMES

    card_words = {w.casefold() for n in (*ANIMAL_NAMES, *PROSPECTOR_NAMES) for w in n.split()}
    assert not [n for n in BOT_NAMES if n.casefold() in card_words]
