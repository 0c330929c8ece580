"""Addresses as people type them: `HOST[:PORT]`, for the command line and the join screen."""

from __future__ import annotations

DEFAULT_PORT = 7777


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """"host", "host:port" or "[v6]:port" -> (host, port); ValueError says what is wrong."""
    text = text.strip()
    if not text:
        raise ValueError("type an address such as 192.168.1.20:7777")
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]")
        if not sep:
            raise ValueError(f"{text!r}: a [ without its ]")
        if rest and not rest.startswith(":"):
            raise ValueError(f"{text!r}: expected [IPv6]:PORT")
        port_text = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, ""
    if not host:
        raise ValueError(f"{text!r} has no host")
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"{port_text!r} is not a port (1-65535)")
    return host, int(port_text)
