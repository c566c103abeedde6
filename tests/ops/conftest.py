import pytest


@pytest.fixture
def plain_user(tmp_path, monkeypatch):
    """A user with no configuration, a state folder under tmp_path, outside systemd (a module asks
    for it with `pytestmark = pytest.mark.usefixtures("plain_user")`)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    for name in ("MAHJONG_TABLE_CONFIG", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM",
                 "INVOCATION_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
