"""十七张 「庄家连庄四把之后，四位玩家重新排定位置」: the hand after the dealer's 4th 连庄 opens with the
players asked to reseat before the dice (the card said the panel asked; nothing did)."""

from drivers.table_ui import RESEAT
from tests.asyncio_support import run
from tests.e2e.at_the_table import play


def shown(hands: int) -> tuple[list[dict], list[str]]:
    said: list[str] = []

    async def watch(table):
        table.display.watchers.append(lambda page, component, text: said.append(text) if component == "t_msg" else None)

    log = run(play("seventeen_tile", 34, hands, watch), timeout=180)   # seed 34: hand 8 is dealt with 4 repeats
    return log, [text for text in said if RESEAT in text]


def test_the_hand_after_four_repeats_asks_the_players_to_reseat_before_the_dice():
    log, asked = shown(8)
    assert [s["repeats"] for s in log if s["event"] == "hand_start"] == [0, 0, 1, 0, 1, 2, 3, 4]
    assert asked and all(text.startswith("请掷骰子") for text in asked)
    _, before = shown(7)                                               # repeats 3 at most: nobody is asked
    assert before == []
