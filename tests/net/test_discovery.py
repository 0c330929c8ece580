"""LAN discovery: the wire formats, hostile input, and real sends and receives.

Three kinds of test:
- pure: TXT records and beacon datagrams built and parsed, garbage refused;
- in this process, without privileges: the beacon over unicast 127.0.0.1 on an
  ephemeral port (appear, change, withdraw, go stale, survive garbage and floods);
- in private network namespaces: mDNS and the multicast beacon on the namespace's own
  loopback (``unshare -n`` as root, ``unshare -rn`` otherwise), and between two
  namespaces joined by a veth pair (``ip netns``, root only). Nothing is ever sent
  outside loopback or those namespaces.
"""

from __future__ import annotations

import ipaddress
import json

import ifaddr
import pytest

from net import discovery
from net.discovery import (
    Announcement,
    beacon_datagram,
    bye_datagram,
    format_address,
    local_addresses,
    parse_datagram,
    parse_txt,
    txt_properties,
)
from net.text import TABLE_NAME_MAX
from tests.net.discovery import GARBAGE, GOOD, table

# -- pure: cleaning and validation -----------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Ann's table", "Ann's table"),
        ("\x1b[2J\x1b[Hwipe", "wipe"),
        ("a\x1b]0;pwned\x07b", "ab"),  # OSC: set the terminal title
        ("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),  # OSC 8 hyperlink
        ("\x9b31mC1", "C1"),
        ("tab\there\nnew\rline", "tab here new line"),
        ("bell\x07 nul\x00 del\x7f", "bell nul del"),
        ("evil\u202etxt.exe", "eviltxt.exe"),  # bidi override
        ("x" * 100, "x" * TABLE_NAME_MAX),
        ("x" * (TABLE_NAME_MAX - 1) + " y", "x" * (TABLE_NAME_MAX - 1)),
        ("Zoë 🎲 table", "Zoë 🎲 table"),
    ],
)
def test_announcement_cleans_and_caps_its_table_name(raw, clean):
    # The cleaning itself is net.text's (tested there); every path here goes through it.
    assert table(table=raw).table == clean


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "poker"}, "unknown game 'poker'"),
        ({"table": "\x1b[0m \x07"}, "empty once cleaned"),
        ({"table": 5}, "must be text"),
        ({"seats_total": 0}, "seats_total must be a whole number from 1 to 64"),
        ({"seats_free": 5}, "seats_free must be a whole number from 0 to 4, not 5"),
        ({"seats_free": -1}, "seats_free"),
        ({"seats_free": True}, "not True"),  # a bool is not a seat count
        ({"port": 0}, "port must be a whole number from 1 to 65535"),
        ({"port": 7777.0}, "port"),
        ({"protocol": "1"}, "protocol"),
        ({"host": "example.com"}, "not an IP address"),
    ],
)
def test_announcement_refuses_bad_values(changes, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        table(**changes)


def test_address_formatting():
    assert table(host="192.0.2.7").address == "192.0.2.7:7777"
    assert table(host="fd00::2").address == "[fd00::2]:7777"
    assert format_address("fe80::1%eth0", 80) == "[fe80::1%eth0]:80"


def test_local_addresses_are_the_non_loopback_ones():
    found = local_addresses()
    expected = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            if text.startswith("127.") or text == "::1" or text.lower().startswith("fe80"):
                continue
            expected.add(text)
    assert set(found) == expected
    assert len(found) == len(set(found))
    v4 = [":" not in a for a in found]
    assert v4 == sorted(v4, reverse=True)  # IPv4 first


def test_mdns_addresses_on_our_own_network_come_first():
    ours = [ipaddress.ip_network("192.168.1.0/24"), ipaddress.ip_network("fd00::/64")]
    given = [
        "172.17.0.1",
        "fd00::5",
        "224.0.0.251",
        "0.0.0.0",
        "192.168.1.5",
        "2001:db8::1",
        "192.168.1.5",
        "10.0.0.1",
    ]
    assert discovery.addresses._usable_addresses(given, ours) == [
        "192.168.1.5",
        "fd00::5",
        "172.17.0.1",
        "10.0.0.1",
        "2001:db8::1",
    ]
    assert discovery.addresses._usable_addresses(["not an ip", "::"], ours) == []


# -- pure: TXT records -----------------------------------------------------------------


def as_txt(props: dict) -> dict:
    """What zeroconf hands a browser: bytes keys and values."""
    return {k.encode(): None if v is None else v.encode() for k, v in props.items()}


def test_txt_round_trip():
    sent = table(game="foolsgold", seats_free=0, seats_total=8, protocol=3)
    props = txt_properties(sent)
    assert props == {
        "txtvers": "1",
        "protocol": "3",
        "game": "foolsgold",
        "table": "Ann's table",
        "free": "0",
        "seats": "8",
    }
    got = parse_txt(as_txt(props), "192.0.2.7", 7777)
    assert got == Announcement(
        game="foolsgold",
        table="Ann's table",
        seats_free=0,
        seats_total=8,
        port=7777,
        protocol=3,
        host="192.0.2.7",
    )


GOOD_TXT = txt_properties(table())


@pytest.mark.parametrize(
    "props",
    [
        {k: v for k, v in GOOD_TXT.items() if k != "table"},
        {k: v for k, v in GOOD_TXT.items() if k != "txtvers"},
        {**GOOD_TXT, "txtvers": "2"},
        {**GOOD_TXT, "free": "-1"},
        {**GOOD_TXT, "free": "３"},  # a fullwidth digit is not a digit here
        {**GOOD_TXT, "free": "9"},  # more free than seats
        {**GOOD_TXT, "seats": "999999"},
        {**GOOD_TXT, "free": None},  # a key without a value
        {**GOOD_TXT, "game": "chess"},
        {**GOOD_TXT, "table": "\x1b[0m"},
        {**GOOD_TXT, "table": "x" * 300},  # longer than a TXT string can be
    ],
)
def test_bad_txt_is_ignored(props):
    assert parse_txt(as_txt(props), "192.0.2.7", 7777) is None


def test_txt_table_name_is_cleaned_and_bad_utf8_replaced():
    props = as_txt({**GOOD_TXT, "table": "\x1b[5mblink"})
    assert parse_txt(props, "192.0.2.7", 7777).table == "blink"
    props[b"table"] = b"caf\xe9"
    assert parse_txt(props, "192.0.2.7", 7777).table == "caf\ufffd"
    assert parse_txt("not a dict", "192.0.2.7", 7777) is None


# -- pure: beacon datagrams ------------------------------------------------------------


def test_beacon_round_trip():
    sent = table(game="foolsgold", table="Zoë's", seats_free=5, seats_total=6)
    data = beacon_datagram(sent)
    assert json.loads(data) == {
        "motherlode": 1,
        "protocol": 1,
        "game": "foolsgold",
        "table": "Zoë's",
        "free": 5,
        "seats": 6,
        "port": 7777,
    }
    assert parse_datagram(data, "10.1.2.3") == Announcement(
        game="foolsgold",
        table="Zoë's",
        seats_free=5,
        seats_total=6,
        port=7777,
        protocol=1,
        host="10.1.2.3",
    )
    assert parse_datagram(bye_datagram("Zoë's", 7777), "10.1.2.3") == ("Zoë's", 7777)


@pytest.mark.parametrize("data", GARBAGE, ids=range(len(GARBAGE)))
def test_garbage_datagrams_are_ignored(data):
    assert parse_datagram(data, "10.1.2.3") is None


def test_hostile_beacon_text_is_cleaned():
    data = json.dumps({**GOOD, "table": "\x1b]0;owned\x07Free \x9b2Jbeer"}).encode()
    assert parse_datagram(data, "10.1.2.3").table == "Free beer"


def test_instance_name_fits_dns_sd():
    name = discovery.sockets._instance_name(table(table="é" * 40 + ".x", game="foolsgold"))
    assert len(name.encode()) <= 63 and "." not in name and name.startswith("éé")


# -- real sends and receives: the beacon over unicast loopback, no privileges ----------
