"""`mahjong-table hand …` as a user runs it."""

import json

import pytest

from firmware.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_full_hand_complete_legal_and_scored(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "111m234p789s46s99p5s", "--self-drawn", "--json")
    data = json.loads(out)
    assert code == 0 and data["complete"] and data["legal"]
    assert data["win_tile"] == "5s"
    assert {i["key"] for i in data["items"]} == {"menqing", "jiahu", "zimo"}
    assert sum(data["payments"]) == 0 and data["payments"][0] == 32


def test_no_scoring_without_context_flags(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "111m234p789s46s99p5s", "--json")
    data = json.loads(out)
    assert data["legal"] and "payments" not in data


def test_illegal_hand_names_the_failed_requirement(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "111m234m789s46s99s5s", "--json")
    data = json.loads(out)
    assert data["complete"] and not data["legal"]
    assert any("三色全" in f for f in data["failures"])


def test_waits_for_a_hand_one_short(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "111m234p789s46s99p", "--json")
    assert json.loads(out)["waits"] == ["5s"]


def test_waits_name_the_legal_wins_among_them(capsys):
    """A hand holding a 碰 under 八枝 claims=pong waits on five shapes but may win on none: the hand
    must hold no claimed meld.  Before, the waits were listed as if each were a win."""
    code, out, _ = run(capsys, "hand", "bazhi", "1112223334m", "--meld", "pung:555p", "--option", "claims=pong", "--json")
    data = json.loads(out)
    assert data["waits"] == ["1m", "2m", "3m", "4m", "5m"] and data["legal_waits"] == []
    assert data["not_legal"].startswith("1m 一万: ") and "碰" in data["not_legal"]
    code, out, _ = run(capsys, "hand", "bazhi", "1112223334m", "--meld", "pung:555p", "--option", "claims=pong")
    assert "legal wins (self-drawn, 听 declared) on: none — not on 1m 一万" in out


def test_waits_that_all_win_say_nothing_more(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "111m234p789s46s99p", "--json")
    data = json.loads(out)
    assert data["legal_waits"] == data["waits"] == ["5s"] and "not_legal" not in data
    code, out, _ = run(capsys, "hand", "changchun", "111m234p789s46s99p")
    assert "legal wins" not in out


def test_wild_assignment(capsys):
    code, out, _ = run(capsys, "hand", "luoshan", "123m456p789s555s7z2m", "--wild", "2m", "--json")
    data = json.loads(out)
    assert ["2m", "7z"] in data["assignment"]


def test_text_output(capsys):
    code, out, _ = run(capsys, "hand", "changchun", "234p789s46s99p5s", "--meld", "111m", "--win-tile", "5s")
    assert code == 0 and "legal: yes" in out and "夹胡 (jiahu) ×2" in out and "payments:" in out


@pytest.mark.parametrize("argv, names", [
    (("hand", "changchun", "12x"), "not a tile"),
    (("hand", "changchun", "11111m234p789s11z"), "5 × 1m"),
    (("hand", "changchun", "234p789s46s99p5s", "--meld", "124m"), "not a meld"),
    (("hand", "changchun", "234p789s46s99p5s", "--meld", "pung:123m"), "not a pung"),
    (("hand", "changchun", "111m2p"), "needs 14 to win or 13 to wait"),
    (("hand", "changsha", "111z234p789s46s99p5s"), "not in the changsha tile set"),
    (("hand", "nowhere", "1m"), "unknown ruleset"),
    (("hand", "changchun", "111m234p789s45s99p6s", "--win-tile", "1z"), "--win-tile 1z: not among the concealed tiles"),
    (("hand", "changchun", "111m234p789s45s99p6s", "--win-tile", ""), "--win-tile '': expected one tile"),
    (("hand", "changchun", "111m234p789s45s99p6s", "--wild", ""), "--wild '': expected one tile, got 0"),
    (("hand", "changchun", "111m234p789s45s99p6s", "--wild", "1m2m"), "--wild '1m2m': expected one tile, got 2"),
    (("hand", "changchun", "111m234p789s45s99p6s", "--self-drawn", "--flip", "1f"), "--flip 1f (春) is not in the changchun"),
    # five melds said "needs -1 to win or -2 to wait" (a probe)
    (("hand", "changchun", "6s", "--meld", "111m", "--meld", "222m", "--meld", "333m", "--meld", "444m",
      "--meld", "555m"), "5 declared melds: a 13-tile hand has at most 4"),
])
def test_user_mistakes_are_one_line_exit_2(capsys, argv, names):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and names in err


def test_a_discarded_bao_is_not_a_joker(capsys):
    """Issue 11 item 1: 「听牌者摸到宝牌或者所听之牌为宝牌即赢」 — a discarded 4z (the 宝) is not read as 2m."""
    code, out, _ = run(capsys, "hand", "changchun", "111m13m456p789s99s4z", "--wild", "4z", "--ready",
                       "--win-tile", "4z", "--json")
    data = json.loads(out)
    assert code == 0 and not data["complete"] and not data["legal"] and data["assignment"] == []
    drawn = json.loads(run(capsys, "hand", "changchun", "111m13m456p789s99s4z", "--wild", "4z", "--ready",
                           "--win-tile", "4z", "--self-drawn", "--json")[1])
    assert drawn["legal"] and drawn["assignment"] == [["4z", "2m"]]
    assert {"zimo", "bao"} <= {i["key"] for i in drawn["items"]}


def test_a_bao_win_needs_ready(capsys):
    """Issue 11 item 2: 「听牌时可看宝，未听牌者不许看」 — --bao without --ready is no 宝 win."""
    argv = ("hand", "changchun", "111m123s99s56m7z", "--meld", "456p", "--wild", "7z", "--win-tile", "7z",
            "--self-drawn", "--bao")
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "legal: no" in out and "a 宝 win needs 报听" in out and "宝 (bao)" not in out
    code, out, _ = run(capsys, *argv, "--ready")
    assert "legal: yes" in out and "宝 (bao) ×2" in out


# -- the facts the table asks for, as options (issue 16) ----------------------------------------

def test_the_dealers_repeats_raise_what_he_wins(capsys):
    """十六张 「每连庄一次便加上一番」: after two 连庄 the dealer's self-draw is paid 4 by each side."""
    _, plain, _ = run(capsys, "hand", "sixteen_tile", "111m234m567m789p234s55s", "--self-drawn", "--dealer", "--json")
    _, twice, _ = run(capsys, "hand", "sixteen_tile", "111m234m567m789p234s55s", "--self-drawn", "--dealer",
                      "--repeats", "2", "--json")
    assert json.loads(plain)["payments"] == [3, -1, -1, -1]
    assert json.loads(twice)["payments"] == [12, -4, -4, -4]


def test_kong_money_from_the_giver(capsys):
    """云南 「明杠…打出一张牌的闲家给玩家2分」: the 明杠 side 0 made from side 2's discard is paid by side 2."""
    code, out, _ = run(capsys, "hand", "yunnan", "345m456p789s55s", "--meld", "2222m", "--self-drawn",
                       "--kong", "0:ming:2", "--json")
    data = json.loads(out)
    assert code == 0 and [i["name"] for i in data["items"]] == ["平和", "明杠 (side 0)"]
    assert data["payments"] == [5, -1, -3, -1]


def test_flipped_tiles_make_ji(capsys):
    """贵州 「如翻开的是2万，即3万是鸡牌」: a flipped 2条 makes 3条 a 鸡, beside 1条 (英雄鸡)."""
    code, out, _ = run(capsys, "hand", "guizhou", "123s345m678m999m11s", "--self-drawn", "--flip", "2s", "--json")
    assert "鸡 ×4 (side 0)" in [i["name"] for i in json.loads(out)["items"]]


def test_an_opening_small_win_of_a_dealt_hand(capsys):
    code, out, _ = run(capsys, "hand", "changsha", "5555m123p456p789s", "--opening", "--json")
    data = json.loads(out)
    assert code == 0 and data["opening"] and [i["name"] for i in data["items"]] == ["四喜"]
    assert data["payments"] == [3, -1, -1, -1]
    _, out, _ = run(capsys, "hand", "changsha", "1234m1234p1234s9s", "--opening")
    assert "no opening small win" in out


@pytest.mark.parametrize("argv, says", [
    (("yunnan", "345m456p789s55s", "--kong", "0:ming"), "KIND is ming (with FROM"),
    (("yunnan", "345m456p789s55s", "--kong", "9:an"), "not a playing side"),
    (("sixteen_tile", "111m234m567m789p234s55s", "--repeats", "-1"), "from 0 to 99"),
    # a count that doubles a payment a million times ended in a traceback, a larger one never ended
    (("sixteen_tile", "111m234m567m789p234s55s", "--self-drawn", "--dealer", "--repeats", "1000000"), "from 0 to 99"),
    (("yunnan", "345m456p789s55s", "--meld", "2222m", "--self-drawn", *("--kong", "0:an") * 5),
     "a hand of 13 holds 4 melds, so a side makes at most 4 kongs"),
    # facts the region's table never asks for were taken and changed nothing
    (("changchun", "111m234p789s45s99p6s", "--flip", "2s"), "changchun has no 鸡, 马 or 鸟 flipped after a win"),
    (("changchun", "111m234p789s45s99p6s", "--la-zhuang", "1"), "changchun has no 拉庄; try sixteen_tile"),
    # 拉庄 is a payer's, asked once (a probe: the winner's own side, given twice, was taken without a word)
    (("sixteen_tile", "111m234m567m789p234s55s", "--self-drawn", "--la-zhuang", "0"),
     "--la-zhuang: side 0 is the winner; only a payer asks for 拉庄"),
    (("sixteen_tile", "111m234m567m789p234s55s", "--self-drawn", "--la-zhuang", "1", "--la-zhuang", "1"),
     "--la-zhuang: side 1 is given twice"),
    (("guangdong", "234p789s45s99p6s", "--meld", "111m", "--bao"), "guangdong has no 宝; try changchun or jilin"),
    (("changchun", "5555m123p456p789s", "--opening"), "no opening small wins"),
    (("changsha", "5555m123p", "--opening"), "a dealt hand holds 13 tiles"),
])
def test_a_wrong_fact_is_one_clear_line(capsys, argv, says):
    code, out, err = run(capsys, "hand", *argv)
    assert code != 0 and says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_kind_wild_in_every_hand_of_the_region_is_wild_without_being_named(capsys):
    """杭州's 白板 is 财神 in every hand (the table counts it so): `hand` judged 白板 as a plain tile
    unless --wild 5z was given, and called this self-drawn win "not a winning shape"."""
    code, out, _ = run(capsys, "hand", "hangzhou", "123m456p789s111s5z2s", "--self-drawn", "--json")
    data = json.loads(out)
    assert code == 0 and data["wilds"] == ["5z"] and data["complete"] and data["legal"]
    assert data["assignment"] and data["assignment"][0][0] == "5z"
    code, out, _ = run(capsys, "hand", "hangzhou", "123m456p789s111s5z2s", "--self-drawn", "--wild", "5z", "--json")
    assert json.loads(out)["wilds"] == ["5z"]                # named as well: once


def test_kong_money_is_paid_as_at_the_table_from_the_winner_s_kongs_or_the_kongs_named(capsys):
    """广水 pays 暗杠 money at the table; `hand` left it out (only 云南 read --kong), and --kong was
    accepted for 广水 and changed nothing."""
    code, out, _ = run(capsys, "hand", "guangshui", "111p444p777s55s", "--meld", "concealed:3333s", "--self-drawn",
                       "--json")
    data = json.loads(out)
    assert code == 0 and any(i["key"].startswith("kong") or i["name"].startswith("杠") for i in data["items"])
    alone = data["payments"]
    code, out, _ = run(capsys, "hand", "guangshui", "111p444p777s55s", "--meld", "concealed:3333s", "--self-drawn",
                       "--kong", "0:an", "--kong", "1:ming:2", "--json")
    both = json.loads(out)["payments"]
    assert both != alone and both[1] > alone[1]          # side 1's own 明杠 is paid to him


def test_the_reading_shown_is_the_one_the_settlement_priced(capsys):
    """武汉 priced 硬胡 (no 赖子 standing in) while showing a reading where the 赖子 stood for 6p; 广东
    showed chows and priced 碰碰胡."""
    code, out, _ = run(capsys, "hand", "wuhan", "456m78p9p234s55s", "--meld", "123m", "--wild", "9p", "--win-tile", "5s",
                       "--json")
    data = json.loads(out)
    assert "yinghu" in {i["key"] for i in data["items"]} and data["assignment"] == [["9p", "9p"]]
    code, out, _ = run(capsys, "hand", "guangdong", "11122233344455m", "--self-drawn", "--json")
    data = json.loads(out)
    assert "pengpeng" in " ".join(i["key"] for i in data["items"]) and "111m" in data["reading"]


@pytest.mark.parametrize("argv, named", [
    (("hand", "changchun", "111m234p789s46s99p5s", "--win-tile", "5s", "--win-tile", "9p"), "--win-tile"),
    (("hand", "changchun", "111m234p789s46s99p5s", "--repeats=1", "--rep", "2"), "--repeats"),
    (("rules", "show", "changchun", "--json"), None),                               # (a flag: not counted)
])
def test_an_option_that_takes_one_value_given_twice_is_refused_in_one_line(capsys, argv, named):
    """argparse kept the last without a word (a probe of every command): which was meant is the user's
    to say.  Repeatable options (`--option`, `--meld`, `--fault`) and flags are not refused."""
    try:
        code, _, err = run(capsys, *argv)
    except SystemExit as stop:
        code, err = stop.code, capsys.readouterr().err
    if named is None:
        assert code == 0
        return
    assert code == 2 and f"{named} given twice: give it once" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("region, rule", [("sichuan", "no indicator"), ("yichang", "no indicator"),
                                          ("changsha", "its indicators: 鸟 (niao, seat_pick)")])
def test_a_wild_where_the_region_has_none_is_refused_naming_its_rule(capsys, region, rule):
    """四川, 宜昌 and 长沙 have no wilds: `hand … --wild 5m --self-drawn` read 5m as a wild and paid the hand."""
    code, out, err = run(capsys, "hand", region, "111m234p789p45p99p5m", "--wild", "5m", "--self-drawn")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"mahjong-table: error: --wild 5m: {region} has no wilds ({rule})")


def test_more_wild_kinds_than_the_region_s_rule_gives_and_a_repeated_one_are_refused(capsys):
    """螺山's 财神 is one kind, 南昌's 精 the flipped kind and the next: two kinds, or a pair no flip makes,
    were judged as given; a repeated --wild passed without a word."""
    code, _, err = run(capsys, "hand", "luoshan", "123m456p789s555s7z2m", "--wild", "2m", "--wild", "3m")
    assert code == 2 and "--wild 2m --wild 3m: luoshan has 1 wild kind(s) in a hand (财神 (caishen)" in err
    code, _, err = run(capsys, "hand", "luoshan", "123m456p789s555s7z2m", "--wild", "2m", "--wild", "2m")
    assert code == 2 and err == "mahjong-table: error: --wild 2m given 2 times: give each wild kind once\n"
    code, _, err = run(capsys, "hand", "nanchang", "123m456p789s555s7z2m", "--wild", "1m", "--wild", "9p")
    assert code == 2 and "no hand of nanchang has these wild(s) (精 (jing): the flipped kind and the next" in err
    code, _, err = run(capsys, "hand", "hangzhou", "123m456p789s111s5z2s", "--wild", "1m")
    assert code == 2 and "hangzhou's only wild is 5z" in err
    code, out, _ = run(capsys, "hand", "nanchang", "123m456p789s555s7z2m", "--wild", "1m", "--wild", "2m", "--json")
    assert code == 0 and json.loads(out)["wilds"] == ["1m", "2m"]           # 正精 and 副精: one flip makes both


def test_ready_where_the_rules_have_no_bao_ting_is_refused(capsys):
    """四川 has no 报听: `hand sichuan … --ready` was taken without a word, as if 听 could be declared."""
    code, out, err = run(capsys, "hand", "sichuan", "111m234p789p45p99p5m", "--ready", "--self-drawn")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("mahjong-table: error: --ready: sichuan has no 报听") and "changchun" in err
    code, out, _ = run(capsys, "hand", "changchun", "111m234p789s46s99p5s", "--ready", "--self-drawn", "--json")
    assert code == 0 and json.loads(out)["legal"]



@pytest.mark.parametrize("argv, item", [
    (("guangdong_jihu", "234p789s45s99p6s", "--meld", "1111m", "--self-drawn", "--kong-draw"), "3番满（杠上开花）"),
    (("wuhan", "234p789s45s99p6s", "--meld", "1111m", "--self-drawn", "--kong-draw"), "杠开"),
    (("hebei", "234p789s456s99p", "--meld", "1111m", "--self-drawn", "--kong-draw"), "杠开"),
    (("changsha", "234p789s456s55p", "--meld", "1111m", "--self-drawn", "--kong-draw"), "大和（杠上花）"),
    (("changsha", "234p789s456s55p", "--meld", "111m", "--self-drawn", "--last-tile"), "大和（海底捞月）"),
    (("changsha", "234p789s456s55p", "--meld", "111m", "--robbed-kong"), "大和（抢杠和）"),
])
def test_the_moment_of_a_win_the_texts_price_can_be_given(capsys, argv, item):
    """杠上开花, 海底捞月 and 抢杠 could not be said to `hand` (a probe): such hands were scored as ordinary
    ones, though the texts price them higher (广东鸡胡 §7.7, 长沙 §12.6, 武汉 §20, 河北 §17)."""
    code, out, _ = run(capsys, "hand", *argv)
    assert code == 0 and item in out
    code, plain, _ = run(capsys, "hand", *[a for a in argv if a not in ("--kong-draw", "--last-tile", "--robbed-kong")]
                         + (["--self-drawn"] if "--robbed-kong" in argv else []))
    assert item not in plain


@pytest.mark.parametrize("argv, names", [
    (("wuhan", "234p789s45s99p6s", "--meld", "1111m", "--kong-draw"), "add --self-drawn"),
    (("wuhan", "234p789s45s99p6s", "--meld", "111m", "--self-drawn", "--kong-draw"), "the winner made no kong"),
    (("wuhan", "234p789s45s99p6s", "--meld", "111m", "--self-drawn", "--robbed-kong"), "drop --self-drawn"),
])
def test_a_moment_the_hand_cannot_have_is_one_line(capsys, argv, names):
    code, out, err = run(capsys, "hand", *argv)
    assert code == 2 and names in err and len(err.strip().splitlines()) == 1


def flips(*tiles: str) -> tuple[str, ...]:
    return tuple(word for tile in tiles for word in ("--flip", tile))


@pytest.mark.parametrize("argv, says", [
    # a probe: six 一万 flipped as 长沙's two birds (the hand holding three of the four) paid 中鸟 6 points
    (("changsha", "111m234p789s456s55s", "--self-drawn", *flips(*["1m"] * 6)),
     "--flip given 6 times: changsha turns up at most 2 tile(s) for this win (2 鸟 after the win; birds=2); "
     "give at most 2 --flip"),
    (("changsha", "111m234p789s456s55s", "--self-drawn", *flips("1m", "1m")),
     "--flip 1m given 2 times: a set has 4 一万 and the hand holds 3, so at most 1 can be flipped"),
    (("changsha", "111m234p789s456s55s", "--self-drawn", "--option", "birds=6", *flips(*["1m"] * 6)),
     "--flip 1m given 6 times: a set has 4 一万 and the hand holds 3, so at most 1 can be flipped"),
    (("guizhou", "123s345m678m999m11s", "--self-drawn", *flips(*["2s"] * 5)),
     "--flip given 5 times: guizhou turns up at most 1 tile(s) for this win (1 鸡 after the win; "),
    (("guizhou", "123s345m678m999m11s", "--option", "ji_trigger=self_draw", *flips("2s")),
     "turns up at most 0 tile(s) for this win (no 鸡 on a discard; "),
    (("guizhou", "123s345m678m999m11s", "--self-drawn", "--option", "ming_ji=on", "--kong", "1:an", *flips("2s", "3s", "4s", "5s")),
     "--flip given 4 times: guizhou turns up at most 3 tile(s) for this win (1 鸡 after the win, 2 鸡 turned up before "
     "it (1 + 1 kong(s))"),
    (("guangdong_jihu", "111m234p789s45s99p6s", "--self-drawn", *flips(*["1m"] * 10)),
     "--flip given 10 times: guangdong_jihu turns up at most 4 tile(s) for this win (4 马 after the win; horses=4)"),
    (("changsha", "11m123m234p789s55s1m", "--self-drawn", *flips("1m")),
     "--flip 1m given once: a set has 4 一万 and the hand holds 4, so at most 0 can be flipped"),
])
def test_flips_no_table_turns_up_are_refused_in_one_line(capsys, argv, says):
    code, out, err = run(capsys, "hand", *argv)
    assert code == 2 and out == "" and says in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("argv", [
    ("changsha", "111m234p789s456s55s", "--self-drawn", *flips("1m", "5m")),
    ("guangdong_jihu", "111m234p789s45s99p6s", "--self-drawn", *flips("1m", "9p", "2s", "3z")),
    # 明鸡 (ming_ji=on) beside the after-win 鸡, and one more for each kong (ming_ji_kong=add)
    ("guizhou", "123s345m678m999m11s", "--self-drawn", "--option", "ming_ji=on", "--kong", "1:an", *flips("2s", "3s", "4s")),
    ("guizhou", "123s345m678m999m11s", "--option", "ji_trigger=self_draw", "--option", "ming_ji=on", *flips("2s")),
    # on the wall's last tile with none left, the bird is that last tile: the hand's own winning 一万
    ("changsha", "11m123m234p789s55s1m", "--self-drawn", "--last-tile", *flips("1m")),
])
def test_flips_a_table_can_turn_up_are_paid(capsys, argv):
    code, out, err = run(capsys, "hand", *argv)
    assert code == 0 and "total:" in out, err
