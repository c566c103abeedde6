"""A win whose read zone could not be used (`zone_fallback`: the hand is entered on the seat panel)
kept none of the flowers the zone's reads saw: the panel enters no bonus tile, and the win lost its
花 money (a probe: 上海 seed 13, 花 4 points lost).  The flowers either read saw are the win's."""

from drivers.table_ui import Key
from firmware.hand.ports import Press
from firmware.hand.win_check import WinCheck
from rulesets.regions import get_region
from rulesets.tiles import Tile, parse_tiles
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand
from tests.firmware.test_liang_and_la_zhuang import take_head

SEAT, DISCARDER = 2, 1
HELD = list(parse_tiles("111m444m222p333s55s"))     # 碰碰胡 (上海 asks at least that); it wins on 5s


def entry_presses(ruleset, tiles: list[Tile]) -> list[Press]:
    """The seat panel's 录入 of `tiles` (◀ ▶ to the kind, 确认 adds it), ended by 胡."""
    kinds = [k for k in ruleset.tiles.kinds if not k.is_flower]
    presses, at = [], 0
    for tile in tiles:
        target = kinds.index(tile)
        presses += [Press(SEAT, Key.RIGHT)] * ((target - at) % len(kinds)) + [Press(SEAT, Key.CONFIRM)]
        at = target
    return presses + [Press(SEAT, Key.HU)]


class Panel(FakePorts):
    """A seat that presses each key of its script once the table waits for a key (one at a time: the
    key queue keeps no more than eight presses of one key)."""

    def __init__(self, ruleset, script: list[Press], **kwargs) -> None:
        super().__init__(ruleset, **kwargs)
        self.script = list(script)

    async def next_key(self, panels, keys) -> Press:
        if self.script:
            self.keys.put(self.script.pop(0))
        return await super().next_key(panels, keys)


def win_entered_on_the_panel(first_read: list[Tile], second_read: list[Tile]) -> dict:
    ruleset = get_region("shanghai").resolve()
    hand = built_hand(ruleset, {})
    take_head(hand, hand.deal_size)
    kinds = sorted(set(HELD))
    presses = ([Press(SEAT, Key.CONFIRM)] + entry_presses(ruleset, HELD)      # 摆手牌后确认, then 录入
               + [Press(SEAT, Key.RIGHT)] * kinds.index(Tile.S5) + [Press(SEAT, Key.CONFIRM)]    # 胡牌: 5s
               + [Press(SEAT, Key.CONFIRM)])                                                      # 承包: 无
    ports = Panel(ruleset, presses, zones={SEAT: [first_read, second_read]})
    run(WinCheck(ports)._judge(hand, SEAT, DISCARDER), timeout=10)
    assert ports.recorder.all("zone_fallback"), "the read zone served: nothing was entered on the panel"
    (win,) = ports.recorder.all("win")
    return win


def test_the_flowers_the_zone_saw_are_kept_when_the_hand_is_entered_on_the_panel():
    spring, summer = Tile.parse("1f"), Tile.parse("2f")
    # the second read missed a flower the first saw: the zone does not serve
    win = win_entered_on_the_panel([spring, summer], [spring] + HELD)
    assert win["flowers"] == ["1f", "2f"]
    assert any(item["name"] == "花" and item["value"] == 2 for item in win["items"]), win["items"]


def test_a_flower_seen_twice_is_one_flower():
    spring = Tile.parse("1f")
    # a lone 1m laid among the shown melds: no meld, the zone does not serve
    win = win_entered_on_the_panel([spring, Tile.M1], [spring] + HELD)
    assert win["flowers"] == ["1f"]
