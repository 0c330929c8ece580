"""One address cannot fill the hall (issue 35): the serve host's directory lets the
people of one address have ``TABLES_PER_ADDRESS`` tables open at once, told why when
they ask for more; another address opens its own; a full hall says so. The address is
the one the door saw (SSH or web), carried by the app's link id."""

from __future__ import annotations

from net.host import Host
from net.served import TABLES_PER_ADDRESS, TableDirectory


def _directory(max_tables: int = 32) -> tuple[Host, TableDirectory]:
    host = Host()
    return host, TableDirectory(host, max_tables=max_tables)


def test_one_address_opens_its_share_and_is_told_why_not_more():
    host, directory = _directory()
    first, _ = directory.links.new("203.0.113.7")
    second, _ = directory.links.new("203.0.113.7")  # another session, same address
    other, _ = directory.links.new("198.51.100.2")
    opened = [directory.answer(f'{{"op": "new", "game": "nuggets", "name": "Eve", '
                               f'"link": "{first}"}}'.encode()) for _ in range(TABLES_PER_ADDRESS)]
    assert all("table" in answer for answer in opened), opened
    for link in (first, second):
        refused = directory.answer(f'{{"op": "new", "game": "foolsgold", "name": "Eve", '
                                   f'"link": "{link}"}}'.encode())  # fmt: skip
        assert refused == {"error": f"Your address (203.0.113.7) has {TABLES_PER_ADDRESS} "
                           "tables open here already, the most one address may; join one "
                           "of them, or try again when one has closed."}
    assert len(host.tables.tables) == TABLES_PER_ADDRESS
    # a player elsewhere is not held up by them
    assert "table" in directory.answer(
        f'{{"op": "new", "game": "nuggets", "name": "Bob", "link": "{other}"}}'.encode())
    # a table of theirs closes: their share has room again
    gone = host.tables.tables[opened[0]["table"]]
    assert host.remove_table(gone, "empty")
    directory.sweep(0.0)
    assert "table" in directory.answer(
        f'{{"op": "new", "game": "nuggets", "name": "Eve", "link": "{second}"}}'.encode())


def test_a_full_hall_tells_the_next_person_why():
    host, directory = _directory(max_tables=2)
    links = [directory.links.new(f"192.0.2.{i}")[0] for i in range(3)]
    for link in links[:2]:
        assert "table" in directory.answer(
            f'{{"op": "new", "game": "nuggets", "name": "A", "link": "{link}"}}'.encode())
    answer = directory.answer(
        f'{{"op": "new", "game": "nuggets", "name": "C", "link": "{links[2]}"}}'.encode())
    assert answer == {"error": "This host has 2 tables already, the most it holds; join "
                      "one of them, or try again when one has closed."}
