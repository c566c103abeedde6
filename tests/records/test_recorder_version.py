"""Each recorder file says which version of the controller wrote it (`recorder_start`'s `version`):
an audit by a later version that reads a region's rules otherwise sends its reader to the version
that played the hand, which the file must name (every landing said 0.1.0 before, and no file said it)."""

from firmware.records.audit import audit_events
from firmware.version import package_version
from tests.records.tampering import play


def test_the_recorder_names_the_version_that_wrote_it_and_audits_sound():
    events = play("hainan", 1, seed=2)
    start = events[0]
    assert start["event"] == "recorder_start"
    assert start["version"] == package_version() and start["version"] not in ("", "0.1.0")
    assert audit_events(events) == []
