"""大包 「诈胡等同于输给其他三家」 (house option zha_hu, default pays): a laid hand the rules refuse pays
each other side a plain hand's chip, the dealer's part doubled; the hand goes on.  Before, a 诈胡 paid
nothing anywhere.  The audit checks what it paid."""

from drivers.table_ui import NOT_A_WIN, Key
from firmware.hand.win_check import WinCheck
from firmware.records.audit_extras import audit_extras
from rulesets.regions import get_region
from rulesets.tiles import parse_tiles
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand
from tests.firmware.test_liang_and_la_zhuang import take_head


def false_win(options: dict, seat: int) -> tuple:
    ruleset = get_region("dabao").resolve(options)
    hand = built_hand(ruleset, {})                       # the dealer is side 0
    take_head(hand, hand.deal_size)
    ports = FakePorts(ruleset, [(seat, Key.CONFIRM)] * 4,
                      zones={seat: [[], list(parse_tiles("123m456m789m1p4p7p2s5s"))]})      # no win: and no 听
    run(WinCheck(ports)._judge(hand, seat, None), timeout=5)
    return hand, ports


def test_a_false_win_pays_each_other_side_and_the_hand_goes_on():
    hand, ports = false_win({}, 2)
    (event,) = ports.recorder.all("false_win")
    assert event["payments"] == [2, 1, -4, 1] and hand.payments() == (2, 1, -4, 1)   # the dealer's chip doubled
    assert hand.wins == [] and not hand.over
    assert ports.screens.last(2) == f"{NOT_A_WIN} -4"
    dealer, ports = false_win({}, 0)
    assert ports.recorder.all("false_win")[0]["payments"] == [-6, 2, 2, 2]


def test_with_zha_hu_nothing_a_false_win_pays_nothing():
    hand, ports = false_win({"zha_hu": "nothing"}, 2)
    (event,) = ports.recorder.all("false_win")
    assert "payments" not in event and hand.payments() == (0, 0, 0, 0)
    assert ports.screens.last(2) == NOT_A_WIN


def test_the_audit_checks_what_a_false_win_paid():
    from types import SimpleNamespace
    ruleset = get_region("dabao").resolve()
    hand, ports = false_win({}, 2)
    (event,) = ports.recorder.all("false_win")
    log = SimpleNamespace(all=lambda name: [event] if name == "false_win" else [], events=[event], format=3)
    start, end = {"dealer": 0}, {"ring": [], "indicators": []}
    assert audit_extras(ruleset, log, start, end, [], []).payments == (2, 1, -4, 1)
    tampered = {**event, "payments": [0, -1, 1, 0]}
    log = SimpleNamespace(all=lambda name: [tampered] if name == "false_win" else [], events=[tampered], format=3)
    assert any("诈胡 pays" in p for p in audit_extras(ruleset, log, start, end, [], []).problems)


def test_a_false_win_shows_no_horse_and_a_win_does():
    """A probe at the table (广东鸡胡, 长沙, 贵州): a 诈胡 turned up the wall's 马 (鸟, 鸡) on the public
    display and recorded them, and play went on with those tiles known to everyone, one of them later
    drawn as a replacement.  They are read for the judgement and shown only for a win."""
    ruleset = get_region("guangdong_jihu").resolve()
    hand = built_hand(ruleset, {})
    take_head(hand, hand.deal_size)
    ports = FakePorts(ruleset, [(2, Key.CONFIRM)] * 4, zones={2: [[], list(parse_tiles("123m456m789m1p4p7p2s5s"))]})
    run(WinCheck(ports)._judge(hand, 2, None), timeout=5)
    assert ports.recorder.all("false_win") and not ports.recorder.all("indicator")
    assert not ports.screens.indicators and not [r for r in hand.reveals if r.rule.timing.name == "AFTER_WIN"]
