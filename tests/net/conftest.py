"""Hosts on 127.0.0.1 with ephemeral ports, closed after each test."""

import pytest

from net.host import Host, HostConfig


@pytest.fixture
async def make_host():
    hosts = []

    async def make(clock=None, listen=True, **config):
        host = Host(clock=clock, config=HostConfig(**config))
        if listen:
            await host.start("127.0.0.1", 0)
        hosts.append(host)
        return host

    yield make
    for host in hosts:
        await host.close()
