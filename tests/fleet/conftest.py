"""The broker fixture: a Mosquitto of its own for each test that asks for one (tests/fleet/broker.py)."""

import pytest

from tests.fleet.broker import Broker


@pytest.fixture
def broker(tmp_path):
    server = Broker(tmp_path / "broker")
    server.start()
    try:
        yield server
    finally:
        server.close()
