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
