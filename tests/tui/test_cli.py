"""The command line: shortcuts parse to the right start, bad input is a usage error,
and the headless parts never import Textual."""

from __future__ import annotations

import subprocess
import sys

import pytest

from net.address import parse_address
from tui.cli import _app_start, build_parser


def start_of(*argv):
    parser = build_parser()
    return _app_start(parser, parser.parse_args(list(argv)))


def test_shortcuts():
    assert start_of() == ("menu",)
    assert start_of("join", "10.0.0.5") == ("join", "10.0.0.5", 7777, False)
    assert start_of("join", "[fd00::2]:9000", "--name", "Zed", "--watch") == (
        "join", "fd00::2", 9000, True)
    assert start_of("hotseat", "Ann", "Bob", "--bots", "1") == (
        "hotseat", [("Ann", False), ("Bob", False), ("Bot 1", True)])
    assert start_of("solo", "--game", "foolsgold") == ("solo", "foolsgold", 3)
    assert start_of("solo", "--bots", "2") == ("solo", "nuggets", 2)
    assert start_of("solo", "--guided") == ("solo", "nuggets", 1, True)  # the guided round


@pytest.mark.parametrize("argv", [
    ["hotseat", "Ann"],
    ["hotseat", "A", "B", "C", "D", "E", "F"],
    ["hotseat", "Ann", "\x1b[2J"],
    ["solo", "--game", "nuggets", "--bots", "5"],
    ["join", "host:99999"],
])
def test_bad_shortcuts_are_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        start_of(*argv)
    assert exit_info.value.code == 2
    assert "motherlode: error:" in capsys.readouterr().err


def test_addresses():
    assert parse_address("host") == ("host", 7777)
    assert parse_address(" 192.168.1.20:8000 ") == ("192.168.1.20", 8000)
    for bad in ("", ":80", "[::1", "h:port"):
        with pytest.raises(ValueError):
            parse_address(bad)


def test_the_command_line_does_not_import_textual():
    probe = ("import sys; from tui.cli import build_parser, _app_start; p = build_parser(); "
             "_app_start(p, p.parse_args(['join', 'h:1'])); print('textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=60).stdout.strip()
    assert out == "False"
