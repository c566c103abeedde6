"""A kill can cut from the recorder file the lines of a 听 or a kong the journal already held; the
restarted controller's `resumed` line says them, and the audit scores the hand's wins with them (the
fault campaign: "seat 1's win says ready_declared = True, the log shows False", and a 四川 kong the
same way)."""

from firmware.records.audit_wins import LogFacts


def resumed(**declared) -> dict:
    return {"event": "resumed", "hand": 3, **declared}


def test_the_declarations_a_resume_names_are_the_hands_declarations():
    facts = LogFacts()
    facts.see({"event": "ready", "hand": 3, "seat": 2})
    facts.see(resumed(ready=[2, 1], kongs=[[3, [False]]], pending_kongs=[[0, True]], special_kongs=[[1, 2]],
                      kong_events=[[3, "ming", 0]]))
    assert facts.ready == [2, 1]
    assert facts.kongs_by_side() == [[1, 2, 0], [3, 1, 0]]
    assert facts.pending_kong == {0: True}
    assert facts.kong_events == [[3, "ming", 0]]


def test_a_resume_without_them_or_with_them_misshapen_keeps_what_the_lines_showed():
    for line in (resumed(), resumed(ready=[1], kongs="x", pending_kongs=[], special_kongs=[], kong_events=[])):
        facts = LogFacts()
        facts.see({"event": "ready", "hand": 3, "seat": 2})
        facts.see(line)
        assert facts.ready == [2]
