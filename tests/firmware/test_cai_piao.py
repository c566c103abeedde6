"""杭州 财飘 was never paid at the table (a probe): RULES.md §9 names 「爆头、财飘、杠开」, the scorer counts
+1番 a 飘, but a 飘 is a 财神 discarded while waiting on 爆头 and the table sees no discards.  The winner
of a 爆头 is asked `财飘:<无|一飘|二飘|三飘>` now, as the maker of a kong is asked who gave it; the
answer is recorded, given to the scorer and checked by the audit."""

from __future__ import annotations

from dataclasses import replace

from drivers.table_ui import CAI_PIAO, Key, Phase, choice_text
from firmware.hand.questions import ask_cai_piao, cai_piao_due
from firmware.hand.win_check import judge_laid
from firmware.records.audit_declared import CAI_PIAO as QUESTION, _asked_at_win
from rulesets.regions import get_region
from rulesets.settlement import Item
from rulesets.tiles import Tile, parse_tiles
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand

BAO_TOU = "123m456m789m123p6p5z"     # the winning 6p drawn to 白板 (杭州's fixed 财神): the pair holds it, 爆头


def hangzhou_win(hand, tiles: str = BAO_TOU):
    return hand.laid_hand(0, None, (), tuple(parse_tiles(tiles)), (), Tile.parse("6p"), ())


def test_the_winner_of_a_bao_tou_is_asked_and_two_piao_are_paid():
    hand = built_hand(get_region("hangzhou").resolve(), {})
    laid, context = hangzhou_win(hand)
    plain = judge_laid(hand.ruleset, laid, context)
    assert plain.verdict.legal and cai_piao_due(hand, plain.settlement.items)
    ports = FakePorts(hand.ruleset, [(0, Key.RIGHT), (0, Key.RIGHT), (0, Key.CONFIRM)])
    count = run(ask_cai_piao(ports, hand, context, plain.settlement.items), timeout=5)
    assert count == 2
    assert ports.screens.lines[0][0] == choice_text(CAI_PIAO, "无")
    assert ports.screens.phases[-1] == f"{Phase.WIN_CHECK.value} {CAI_PIAO}:二飘"
    (event,) = ports.recorder.all("cai_piao")
    assert (event["seat"], event["count"]) == (0, 2)
    piao = judge_laid(hand.ruleset, laid, replace(context, extra=context.extra + (("cai_piao", 2),)))
    assert [i.zh for i in piao.settlement.items][:2] == ["爆头", "财飘"]
    assert piao.settlement.payments[0] == 4 * plain.settlement.payments[0]       # 爆头 ×2 → 二飘 ×8


def test_a_win_without_bao_tou_or_where_the_rules_have_no_cai_piao_asks_nothing():
    hand = built_hand(get_region("hangzhou").resolve(), {})
    laid, context = hangzhou_win(hand, "123m456m789m123p66p")      # the pair natural: no 爆头
    result = judge_laid(hand.ruleset, laid, context)
    assert result.verdict.legal and not cai_piao_due(hand, result.settlement.items)
    bao_tou = (Item("baotou", "爆头", "bao tou", 1),)
    assert cai_piao_due(hand, bao_tou) and not cai_piao_due(built_hand(get_region("wenzhou").resolve(), {}), bao_tou)


def test_the_audit_finds_cai_piao_unasked_or_not_given_as_answered():
    ruleset = get_region("hangzhou").resolve()
    win = {"event": "win", "seat": 0, "from": None, "items": [{"name": "爆头", "pinyin": "bao tou", "value": 1}],
           "context": {"extra": {"finished": [], "cai_piao": 2}}}
    asked = {"event": "cai_piao", "seat": 0, "count": 2}
    assert _asked_at_win(ruleset, [asked, win], QUESTION) == []
    assert "not preceded" in _asked_at_win(ruleset, [win], QUESTION)[0]
    assert "the answers give 1" in _asked_at_win(ruleset, [{**asked, "count": 1}, win], QUESTION)[0]
    assert "does not have it" in _asked_at_win(get_region("wenzhou").resolve(), [asked, win], QUESTION)[0]
