"""A kill can cut the last takes' lines from the recorder file while the journal already held them;
a seat then wins self-drawn after the restart on the journal's last take.  The restarted controller's
`resumed` line says that take (never its tile) and whose kong replacement it was, and the audit judges
the win's tile by it (the fault campaign, 十七张: "seat 3's win is self-drawn on 6p; the last take
(37/top) was 9p" — the file's last line; the journal's last take was four stacks on)."""

from firmware.records.audit_wins import LogFacts
from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart


def _take(ring: int, layer: str, reason: str = "draw", in_order: bool = True) -> dict:
    return {"event": "take", "hand": 8, "end": "head", "ring": ring, "layer": layer, "live": 60, "reserve": 0,
            "kongs": 0, "reason": reason, "in_order": in_order}


def _taken(*slots: tuple[int, str]) -> list[list]:
    return [[ring, layer, "head", "draw"] for ring, layer in slots]


def test_the_last_take_a_resume_names_is_the_last_take():
    facts = LogFacts()
    facts.see(_take(37, "top"))
    last = {"end": "tail", "ring": 60, "layer": "bottom", "live": 50, "reserve": 0, "kongs": 1, "reason": "kong",
            "in_order": True}
    facts.see({"event": "resumed", "hand": 8, "taken": _taken((37, "top"), (41, "bottom")), "last_take": last,
               "replaced_for": 2})
    assert facts.last_take == last and facts.replaced_for == 2


def test_an_older_resume_gives_the_slot_of_its_last_journaled_take():
    facts = LogFacts()
    facts.see(_take(37, "top"))
    facts.see({"event": "resumed", "hand": 8, "taken": _taken((37, "top"), (41, "bottom"))})
    assert (facts.last_take["ring"], facts.last_take["layer"]) == (41, "bottom") and facts.replaced_for is None


def test_an_older_resume_whose_last_take_the_lines_showed_keeps_their_line():
    facts = LogFacts()
    astray = _take(41, "bottom", in_order=False)
    facts.see(astray)
    facts.see({"event": "resumed", "hand": 8, "taken": _taken((37, "top"), (41, "bottom"))})
    assert facts.last_take is astray                 # (its order known from its line)


def test_a_restarted_controller_names_the_journals_last_take_without_its_tile(tmp_path):
    def drawn(event: dict) -> bool:
        return event["hand"] >= 2 and event["event"] == "take" and event["reason"] == "draw"

    result, before, after = run(crash_and_restart("sichuan", 4, str(tmp_path / "table.db"), drawn), timeout=90)
    resumed = next(e for e in after if e["event"] == "resumed")
    last = resumed["last_take"]
    assert [last["ring"], last["layer"], last["end"], last["reason"]] == resumed["taken"][-1]
    assert last["in_order"] is True and "tile" not in last
    assert resumed["replaced_for"] is None
    assert result.hands == 2


def test_a_misshapen_last_take_is_read_as_an_older_resume():
    for misshapen in ("41/bottom", {"ring": 41}, {**_take(41, "bottom"), "live": "none"}):
        facts = LogFacts()
        facts.see(_take(37, "top"))
        facts.see({"event": "resumed", "hand": 8, "taken": _taken((37, "top"), (41, "bottom")),
                   "last_take": misshapen, "replaced_for": "x"})
        assert facts.last_take == {"ring": 41, "layer": "bottom", "end": "head", "reason": "draw"}
        assert facts.replaced_for is None
