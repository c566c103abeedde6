"""The pages in a real browser (Debian's chromium through Playwright): they show the table and follow it."""

import pytest

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.web.browser import browser_page, idle_table, need_browser, push_in, serving

need_browser()
pytestmark = pytest.mark.timeout(180)


async def text_of(page, selector):
    return (await page.locator(selector).first.text_content()) or ""


async def overlapping(page):
    """The screen's components drawn over one another (each must have a place of its own: a page of
    the stylesheet that names no area for a component piles it onto the others)."""
    return await page.evaluate("""() => {
        const boxes = [...document.querySelectorAll('#screen .c')].map((n) => [n.dataset.component, n.getBoundingClientRect()]);
        const over = [];
        boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, q]) => {
            if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1) over.push(a + '/' + b);
        }));
        return over;
    }""")


def test_the_table_page_draws_the_screen_and_follows_a_key_press(tmp_path):
    async def go():
        async with idle_table("changchun", str(tmp_path / "t.db")) as (live, table), serving(live, None) as base, \
                browser_page() as page:
            await page.goto(base + "/")
            await page.locator("#screen .t_ruleset", has_text="长春麻将").wait_for()
            await page.locator("#screen .t_msg", has_text="请推牌入池后按确认").wait_for()
            assert await page.locator("#link.up").count() == 1
            await push_in(table)
            table.press(0, "confirm")                                   # a person at seat 0 pushed the tiles in
            await page.locator("#screen .t_msg", has_text="请掷骰子").wait_for()
            await page.locator("#seats [data-seat='0']", has_text="庄 +0").wait_for()
            await page.locator("#scores tr[data-seat='3']").wait_for()
            table.open_hatch(force=True)                               # a fault: its code and Chinese hint
            await page.locator("#faults .fault[data-code='E12']", has_text="检修盖打开").first.wait_for()
            await page.locator("#screen.fault .t_code", has_text="E12").wait_for()
            assert await overlapping(page) == []
            table.close_hatch()
            table.press("front", "confirm")
            await page.locator("#faults", has_text="无故障").wait_for()
            assert page.errors == []
    run(go(), timeout=120)


def test_the_simulator_page_draws_the_walls_and_its_keys_play_the_table(tmp_path):
    async def go():
        async with idle_table("changchun", str(tmp_path / "t.db"), options={"first_dealer": "east"}) as (live, table), serving(live, None) as base, \
                browser_page() as page:
            await page.goto(base + "/sim")
            await page.locator("#screen .t_msg", has_text="请推牌入池后按确认").wait_for()
            await push_in(table)
            await page.click("[data-panel='0'] button[data-key='confirm']")
            await page.locator("#screen .t_msg", has_text="请掷骰子").wait_for()
            await page.locator("[data-panel='0'] .lamp", has_text="庄").wait_for()    # the dealer's lamp is lit
            assert await page.locator("[data-panel='1'] .lamp").count() == 0
            stacks = page.locator("svg.tabletop .stack[data-count='2']")
            await stacks.nth(4 * 17 - 1).wait_for()                   # four walls of 17 full stacks, face down
            assert await stacks.count() == 4 * 17 and await page.locator(".faceup").count() == 0
            while "请掷骰子" in await text_of(page, "#screen .t_msg"):   # 长春 asks for two rolls
                before = await text_of(page, "#screen .t_dice")
                await page.click("[data-panel='front'] button[data-key='dice']")   # the front panel rolls for any seat
                await page.wait_for_function(                          # the roll was taken: one more on the screen, or the deal
                    "before => document.querySelector('#screen .t_dice').textContent !== before"
                    " || !document.querySelector('#screen .t_msg').textContent.includes('请掷骰子')", arg=before)
            await page.locator("#screen .t_msg", has_text="请配牌").wait_for()
            assert (await text_of(page, "#dice")).replace(" · ", "").isdigit()
            await page.click("[data-panel='front'] button[data-key='menu']")
            await page.locator("#screen.menu").wait_for()              # the front panel's 菜单 opened the menu page
            await page.click("[data-panel='front'] button[data-key='back']")
            await page.locator("#screen.main").wait_for()
            assert await overlapping(page) == []
            await page.click("#screen button.b_menu")                 # the screen's own 菜单 button
            await page.locator("#screen.menu").wait_for()
            assert await overlapping(page) == []
            await page.click("#screen button.b_next")                 # ▶: the next ruleset
            await page.locator("#screen .t_ruleset", has_text="吉林").wait_for()
            await page.locator("#touched", has_text="b_next").wait_for()
            await page.click("#screen button.b_back")
            await page.locator("#screen.main").wait_for()
            assert page.errors == []
    run(go(), timeout=120)


async def wider_than_the_window(page):
    """How far the page reaches past the window's right edge (px): a line that cannot wrap (a
    recorder line's fields) pushed columns off the screen."""
    return await page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def test_history_hand_and_hours_pages_show_the_ledger(tmp_path):
    db, events = tmp_path / "t.db", tmp_path / "e.jsonl"

    async def go():
        with open(events, "w", encoding="utf-8") as sink:
            await run_simulated(get_region("wuhan").resolve(), hands=2, seed=4, events=sink, ledger_path=str(db),
                                events_path=str(events))
        from firmware.web.live import LiveTable
        async with serving(LiveTable(), str(db)) as base, browser_page() as page:
            await page.goto(base + "/history")
            rows = page.locator("#hands tr[data-hand]")
            await rows.nth(1).wait_for()
            assert await rows.count() == 2
            await page.locator("#sessions tr[data-session] td", has_text="wuhan").first.wait_for()
            assert "第2局" in (await rows.first.text_content() or "")       # the newest first
            await rows.last.locator("a").click()
            await page.locator("#sound").wait_for()                     # the audit found the hand sound
            assert await page.locator("#events tr").count() > 10
            assert "第1局" in await text_of(page, "#title")
            assert await wider_than_the_window(page) <= 0
            await page.goto(base + "/hours")
            await page.locator("#days tr[data-key]").first.wait_for()
            assert (await text_of(page, "#days tr[data-key] td:last-child")).strip() == "2"
            assert page.errors == []
    run(go(), timeout=150)


def test_the_table_page_shows_a_card_nearly_full_under_the_faults():
    from firmware.web.live import LiveTable
    from tests.web.test_live import FakeFeed

    async def go():
        feed, live = FakeFeed(), LiveTable()
        live.attach(feed)
        feed.on_event({"event": "warning", "hand": 0, "storage": "low", "free_mb": 380, "total_mb": 29500,
                       "message": "the storage card is nearly full"})
        async with serving(live, None) as base, browser_page() as page:
            await page.goto(base + "/")
            note = page.locator("#faults .storage", has_text="存储卡将满")
            await note.wait_for()
            text = await note.text_content()
            assert page.errors == []
        return text

    text = run(go(), timeout=120)
    assert "380 MB free of 29500 MB" in text and "records move" in text


def test_the_table_page_s_log_tells_a_false_win_and_its_reasons_at_the_hand_s_end(tmp_path):
    """The live log drew `#3 false_win` and nothing more, and a hand_end's withheld 诈胡 reasons nowhere
    (a verifying probe): the seat and 诈胡, its reasons or that they come at the hand's end, and then
    with hand_end."""
    async def go():
        async with idle_table("changchun", str(tmp_path / "t.db")) as (live, table), serving(live, None) as base, \
                browser_page() as page:
            await page.goto(base + "/")
            await page.locator("#screen .t_ruleset", has_text="长春麻将").wait_for()
            withheld = await page.evaluate("() => eventLine({event: 'false_win', hand: 3, seat: 1, withheld: true})")
            said = await page.evaluate("() => eventLine({event: 'false_win', hand: 3, seat: 1, failures: ['not a winning shape']})")
            ended = await page.evaluate("() => eventLine({event: 'hand_end', hand: 3, result: 'draw', payments: [0, 0, 0, 0], "
                                        "false_wins: [{seat: 1, failures: ['bao_held']}]})")
            assert "诈胡" in withheld and "hand's end" in withheld and "not a winning shape" in said
            assert "诈胡: bao_held" in ended
            assert page.errors == []
    run(go(), timeout=120)
