"""Settings of the whole suite beyond pyproject.toml's."""

from __future__ import annotations

import pytest

# A soak or sweep (`-m soak`) runs for minutes to hours: pyproject's 120 s is the bound of one test of
# the default run, and cut the leak watch's 200 episodes short (about 3 minutes here), as it would the
# full campaign (tens of minutes).  One that names its own bound keeps it.
SOAK_TIMEOUT_S = 4 * 3600


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("soak") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(SOAK_TIMEOUT_S))


@pytest.fixture
def network_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Internet sockets refused their address family, as the shipped systemd unit refuses them
    (RestrictAddressFamilies=AF_UNIX): a unix socket (asyncio's own, a pty's) still opens."""
    import errno
    import socket

    class UnixOnly(socket.socket):
        def __init__(self, family: int = socket.AF_INET, *args, **kwargs) -> None:
            if family in (socket.AF_INET, socket.AF_INET6):
                raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
            super().__init__(family, *args, **kwargs)

    monkeypatch.setattr(socket, "socket", UnixOnly)
