"""Several recorders audited as one stream: a controller restarted mid-hand, files out of order,
a cut-off file judged with and without the ledger."""

from __future__ import annotations

from firmware.records.audit import audit_recorders
from firmware.records.audit_ledger import LedgerView
from firmware.records.stream import recorder_from_events
from tests.records.tampering import killed_after_settling, restarted


def files(*logs: list[dict]):
    return [recorder_from_events(f"run{i}.jsonl", log) for i, log in enumerate(logs, start=1)]


def cut_inside_hand(events: list[dict], number: int) -> int:
    """An index just after the deal of hand `number`: the controller dies there."""
    return next(i for i, e in enumerate(events) if e["event"] == "dealt" and e["hand"] == number) + 1


def test_a_hand_resumed_in_the_next_file_is_audited_whole(recorders):
    events, ledger = recorders["guangshui"]
    first, second = restarted(events, cut_inside_hand(events, 2))
    assert first == events[:len(first)]              # the replay writes the very lines of the run
    assert second[1]["event"] == "resumed" and second[1]["hand"] == 2
    alone = audit_recorders(files(first, second))
    assert [p.text for p in alone.problems] == ["no recorder_end after this line: the file was cut off or the controller died"]
    assert alone.problems[0].where.startswith("run1.jsonl:")
    with_ledger = audit_recorders(files(first, second), LedgerView.open(ledger))
    assert with_ledger.sound and with_ledger.hands == 4
    assert any("the ledger holds exactly this file's hands" in n.text for n in with_ledger.notes)


def test_takes_the_journal_held_but_the_cut_file_lost_are_takes_of_the_resumed_hand(recorders):
    """SIGKILL after the journal's commit, before the lines behind it: the first file stops two takes
    short of what the restarted controller knew; its `resumed` names them, and the hand audits whole
    (found by the fault campaign: 'a head take at 34/bottom is out of draw order')."""
    events, ledger = recorders["guangshui"]
    cut = cut_inside_hand(events, 2) + 6
    first, second = restarted(events, cut, journal_ahead=2)
    assert len([e for e in first if e["event"] == "take"]) == len([e for e in events[:cut] if e["event"] == "take"]) - 2
    report = audit_recorders(files(first, second), LedgerView.open(ledger))
    assert report.sound and report.hands == 4, report.problems


def test_a_clean_stop_mid_hand_then_a_resume_is_sound_without_the_ledger(recorders):
    events, _ = recorders["changchun"]
    first, second = restarted(events, cut_inside_hand(events, 3), clean=True)
    assert first[-1]["event"] == "recorder_end" and first[-1]["open_hand"] == 3
    report = audit_recorders(files(first, second))
    assert report.sound and report.hands == 4, report.problems


def test_a_restart_that_writes_its_session_again_goes_on_with_its_totals(recorders):
    events, _ = recorders["sichuan"]
    first, second = restarted(events, cut_inside_hand(events, 2), clean=True, session_again=True)
    assert [e["event"] for e in second[:3]] == ["recorder_start", "session_start", "resumed"]
    report = audit_recorders(files(first, second))
    assert report.sound and report.hands == 4, report.problems


def test_a_resumed_hand_without_its_first_file_is_noted_and_its_rest_audited(recorders):
    events, _ = recorders["guangshui"]
    _, second = restarted(events, cut_inside_hand(events, 2))
    report = audit_recorders(files(second))
    assert report.sound and report.hands == 3
    assert any("hand 2 began in a recorder that was not given" in n.text for n in report.notes)


def test_files_given_out_of_order_are_audited_as_their_chain_links_them(recorders):
    """A restart that came up with the clock set back (no clock battery, NTP not yet heard) names its
    file with an earlier time, so a shell's `*.jsonl` gives it first (a probe): the audit said a
    recorder was missing or its hands changed.  The chain says which file goes on from which."""
    events, ledger = recorders["guangshui"]
    first, second = restarted(events, cut_inside_hand(events, 2))
    report = audit_recorders(files(second, first), LedgerView.open(ledger))
    assert report.sound and report.hands == 4, report.problems
    assert any("named out of the order they were written" in n.text and "run2.jsonl, run1.jsonl" in n.text
               for n in report.notes)
    in_order = audit_recorders(files(first, second), LedgerView.open(ledger))
    assert not any("out of the order" in n.text for n in in_order.notes)


def test_a_file_missing_between_two_still_breaks_the_chain(recorders):
    events, _ = recorders["guangshui"]
    first, second = restarted(events, cut_inside_hand(events, 2), clean=True)
    _, third = restarted(second, cut_inside_hand(second, 4), clean=True)
    a, c = recorder_from_events("a.jsonl", first), recorder_from_events("c.jsonl", third)
    report = audit_recorders([c, a])
    assert any("the chain does not go on from a.jsonl" in p.text for p in report.problems)
    # …and the rest reads as in the order written (given backwards, the hands after the missing file
    # read as out of order and their totals as wrong: a probe)
    written = audit_recorders([a, c])
    assert [(p.where, p.text) for p in report.problems] == [(p.where, p.text) for p in written.problems]


def test_a_second_run_that_does_not_continue_the_chain_is_caught(recorders):
    a, _ = recorders["guangshui"]
    b, _ = recorders["hangzhou"]                  # a run of another table: its chain starts afresh
    report = audit_recorders(files(a, b))
    assert [p.where for p in report.problems] == ["run2.jsonl:1"]


def test_an_unfinished_hand_the_ledger_never_settled_is_a_note(recorders, tmp_path):
    events, ledger = recorders["guangshui"]
    cut = cut_inside_hand(events, 4)
    report = audit_recorders(files(events[:cut]), LedgerView.open(ledger))
    # hand 4 was settled in this ledger, so its missing hand_end is a problem …
    assert any("the ledger settled it" in p.text for p in report.problems)
    # … but a ledger that never settled hand 4 (the controller died first) makes both a note
    import sqlite3
    trimmed = tmp_path / "trimmed.db"
    with sqlite3.connect(ledger) as src, sqlite3.connect(trimmed) as dst:
        src.backup(dst)
    with sqlite3.connect(trimmed) as db:
        db.execute("DELETE FROM payments WHERE hand = (SELECT MAX(id) FROM hands)")
        db.execute("DELETE FROM hands WHERE id = (SELECT MAX(id) FROM hands)")
    report = audit_recorders(files(events[:cut]), LedgerView.open(str(trimmed)))
    assert report.sound and len(report.notes) == 2, report


def test_indicators_the_journal_held_but_the_cut_file_lost_are_read_from_resumed(recorders):
    """SIGKILL after the journal's commit, before the lines behind it: the 财神 indicator never
    reached the first file; `resumed` names it (as it names the takes), and the hand audits whole
    (found by the fault campaign, wuhan: 'the win says wilds ['6m'], the log shows []')."""
    events, ledger = recorders["hangzhou"]
    cut = cut_inside_hand(events, 2) + 3
    first, second = restarted(events, cut, lost_indicators=True)
    assert not any(e["event"] == "indicator" and e["hand"] == 2 for e in first)
    resumed = next(e for e in second if e["event"] == "resumed")
    assert [i["kind"] for i in resumed["indicators"]] == ["caishen"]
    report = audit_recorders(files(first, second), LedgerView.open(ledger))
    assert report.sound and report.hands == 4, report.problems
    resumed["indicators"] = []                       # as before: the audit then misses the wild
    unaware = audit_recorders(files(first, [e for e in second]), LedgerView.open(ledger))
    assert not unaware.sound


def test_a_hand_end_the_ledger_kept_but_the_cut_file_lost_counts_in_the_totals(recorders):
    """Killed between the ledger's commit of a hand and its hand_end line: the next file's
    session_resumed says what the ledger kept, and the totals of the hands after it add up (found by
    the fault campaign, hangzhou: 'totals … are not the totals before it plus its payments')."""
    events, ledger = recorders["sichuan"]
    first, second = killed_after_settling(events, 2)
    assert not any(e["event"] == "hand_end" and e["hand"] == 2 for e in first)
    report = audit_recorders(files(first, second), LedgerView.open(ledger))
    assert report.sound and report.hands == 3, report.problems      # hand 2 ended in the ledger only
    first, second = killed_after_settling(events, 2, last_hand=False)
    before = audit_recorders(files(first, second), LedgerView.open(ledger))
    assert any("are not the totals before it plus its payments" in p.text for p in before.problems)


def test_a_run_stopped_before_its_first_hand_is_a_note_among_others_and_a_problem_alone(recorders):
    """The table switched on and off again between hands (found by the fault campaign: a controller
    started again and stopped at the campaign's end): among the day's recorders it proves that
    nothing was lost between them; given alone it proves nothing."""
    events, _ = recorders["changchun"]
    whole, idle = restarted(events, len(events), clean=True)
    assert [e["event"] for e in idle] == ["recorder_start", "recorder_end"]
    together = audit_recorders(files(whole, idle))
    assert together.sound and together.hands == 4, together.problems
    assert any("the controller was stopped before one began" in n.text for n in together.notes)
    alone = audit_recorders(files(idle))
    assert [p.text for p in alone.problems] == ["no hand begins in this recorder: it proves nothing"]


def test_a_run_killed_before_its_first_hand_is_a_note_among_others_when_the_ledger_agrees(recorders):
    """A controller started again and SIGKILLed before a hand began (found by the fault campaign, 钻牌):
    its file has no hand and no clean end.  Among the others, with the ledger showing nothing was
    lost, it is a note, as a clean stop is; without the ledger its cut-off end is still a problem."""
    events, ledger = recorders["changchun"]
    whole, idle = restarted(events, len(events), clean=True)
    killed = idle[:-1]                                  # recorder_start, then nothing: no recorder_end
    together = audit_recorders(files(whole, killed), LedgerView.open(ledger))
    assert together.sound and together.hands == 4, together.problems
    assert any("the controller was stopped before one began" in n.text for n in together.notes)
    unchecked = audit_recorders(files(whole, killed))
    assert [p.text for p in unchecked.problems if "no hand begins" in p.text] == []
    assert any("no recorder_end" in p.text for p in unchecked.problems)


def test_a_win_check_cut_after_its_flips_is_begun_again_and_its_flips_count_once(recorders):
    """贵州 鸡: the controller is killed in a win check after the 鸡 was flipped (the journal kept the
    flip, not yet the win); the restarted one checks the win again and flips again, the same tiles.
    The win's flips are that check's, counted once (found by the fault campaign, 长沙 鸟: 'the win
    says flipped = [6m, 8s], the log shows [6m, 8s, 6m, 8s]')."""
    events, ledger = recorders["guizhou"]
    flip = next(i for i, e in enumerate(events) if e["event"] == "indicator" and e["timing"] == "after_win")
    again = events[:flip + 1] + [events[flip]] + events[flip + 1:]      # the second check's flip
    first, second = restarted(again, flip + 1)
    resumed = next(e for e in second if e["event"] == "resumed")
    assert any(i["timing"] == "after_win" for i in resumed["indicators"])       # the journal knew the flip
    report = audit_recorders(files(first, second), LedgerView.open(ledger))
    assert report.sound and report.hands == 4, report.problems


def test_a_win_the_journal_kept_but_the_cut_file_lost_is_read_from_resumed(recorders):
    """SIGKILL after a win's journal commit, before its line reached the file: the restarted
    controller's `resumed` names the wins the journal held; the audit scores such a win again and
    counts it (found by the fault campaign, 长沙: 'hand_end names the winners [0]; the wins were by
    []').  A win the file does hold is not counted twice."""
    for region in ("sichuan", "guangshui"):            # 血战: wins go on after the first; one win
        events, ledger = recorders[region]
        win = next(i for i, e in enumerate(events) if e["event"] == "win" and e["hand"] >= 2)
        for lost in (True, False):
            first, second = restarted(events, win + 1, lost_wins=lost)
            assert any(e["event"] == "win" for e in first[-3:]) is not lost
            resumed = next(e for e in second if e["event"] == "resumed")
            assert [w["seat"] for w in resumed["wins"]] == [events[win]["seat"]]
            report = audit_recorders(files(first, second), LedgerView.open(ledger))
            assert report.sound and report.hands == 4, (region, lost, report.problems)
