"""A table left running for a month: one session of thousands of hands (a restart resumes the
session).  A hand's page and a page of hands read a bounded number of ledger rows, the history page
can ask for the newest hands, and the CSV export holds every hand asked for."""

import csv
import io
import sqlite3

import pytest

from firmware.records.history import History
from firmware.records.ledger import Ledger

MONTH = 3000        # hands of one session (a month at a real table is 4,000-6,000: the reads must not care)


def month_ledger(path):
    """A ledger holding one session of MONTH settled hands, written straight into its tables (one
    transaction: playing them would take minutes).  Seat 0 wins 3 from each other seat every hand."""
    Ledger(path, clock=lambda: 1_790_000_000.0).close()
    db = sqlite3.connect(path)
    with db:
        db.execute("INSERT INTO sessions (id, started, ruleset, options) VALUES (1, 1790000000, 'changchun', '{}')")
        db.executemany("INSERT INTO hands (id, session, number, dealer, result, winners, wall_hash, finished, started, items) "
                       "VALUES (?, 1, ?, 0, 'win', '[0]', ?, ?, ?, '[]')",
                       [(n, n, f"{n:064x}", 1_790_000_000.0 + 400 * n, 1_790_000_000.0 + 400 * n - 300)
                        for n in range(1, MONTH + 1)])
        db.executemany("INSERT INTO payments (hand, side, amount) VALUES (?, ?, ?)",
                       [(n, side, 9 if side == 0 else -3) for n in range(1, MONTH + 1) for side in range(4)])
    db.close()
    return History(path, clock=lambda: 1_790_000_000.0 + 400 * (MONTH + 1))


class CountingHistory:
    """Counts the rows the history reads back from the ledger (what grows with history, if anything)."""

    def __init__(self, history, monkeypatch):
        self.rows = 0
        query = history._query

        def counted(sql, args=()):
            found = query(sql, args)
            self.rows += len(found)
            return found
        monkeypatch.setattr(history, "_query", counted)


@pytest.fixture
def month(tmp_path):
    return month_ledger(tmp_path / "table.db")


def test_a_hands_page_reads_a_few_rows_however_long_its_session_ran(month, monkeypatch):
    counter = CountingHistory(month, monkeypatch)
    last = month.hand(MONTH)
    assert last.totals == (9 * MONTH, -3 * MONTH, -3 * MONTH, -3 * MONTH)      # the session's totals after it
    assert month.hand(1234).totals == (9 * 1234, -3 * 1234, -3 * 1234, -3 * 1234)
    assert counter.rows < 40, f"two hands' pages read {counter.rows} ledger rows"

    counter.rows = 0
    page = month.hands(after=MONTH - 10)
    assert [h.number for h in page] == list(range(MONTH - 9, MONTH + 1))
    assert page[0].totals == (9 * (MONTH - 9), -3 * (MONTH - 9), -3 * (MONTH - 9), -3 * (MONTH - 9))
    assert counter.rows < 100, f"a page of 10 hands read {counter.rows} ledger rows"


def test_the_csv_export_holds_every_hand_and_the_history_page_shows_the_newest(month):
    """The owner exports the month for the bills: every hand is in it (it was cut at the first 500,
    without a word).  The history page asks for the newest hands (it showed the session's first
    500, a month old); `newest` gives the last ones, still in the order settled."""
    from aiohttp.test_utils import TestClient, TestServer

    from firmware.web.live import LiveTable
    from firmware.web.server import WebSettings, build_app
    from tests.asyncio_support import run

    async def go():
        async with TestClient(TestServer(build_app(LiveTable(), month, WebSettings()))) as client:
            exported = await client.get("/api/hands.csv?session=1")
            rows = list(csv.reader(io.StringIO(await exported.text())))
            assert len(rows) == 1 + MONTH and rows[-1][rows[0].index("number")] == str(MONTH)
            assert rows[-1][rows[0].index("total0")] == str(9 * MONTH)
            limited = await client.get("/api/hands.csv?limit=20")
            assert len(list(csv.reader(io.StringIO(await limited.text())))) == 21      # a limit given is kept
            page = (await (await client.get("/api/hands")).json())["result"]
            assert len(page) == 500 and page[0]["number"] == 1                        # the API's default is as it was
            newest = (await (await client.get("/api/hands?newest=1&limit=3")).json())["result"]
            assert [h["number"] for h in newest] == [MONTH - 2, MONTH - 1, MONTH]
            assert newest[-1]["totals"] == [9 * MONTH, -3 * MONTH, -3 * MONTH, -3 * MONTH]
            wrong = await client.get("/api/hands?newest=yes")
            assert wrong.status == 400 and "newest=1" in (await wrong.json())["error"]["message"]
    run(go(), timeout=60)


def test_the_csv_export_of_every_hand_reads_the_ledger_a_page_at_a_time(month, monkeypatch):
    """A year's hands read at once held hundreds of MB on a Pi of 1 GB (6,000 hands: 35 MB more)."""
    from firmware.web import api
    from firmware.web.api import Context, hands_export
    from firmware.web.live import LiveTable
    from tests.asyncio_support import run

    asked = []
    hands = month.hands

    def paged(**filters):
        found = hands(**filters)
        asked.append(len(found))
        return found
    monkeypatch.setattr(month, "hands", paged)
    monkeypatch.setattr(api, "CSV_PAGE", 700)
    text = run(hands_export(Context(LiveTable(), month, "test", 0.0), {}), timeout=60)
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == 1 + MONTH and rows[0][0] == "session" and [r[2] for r in rows[1:]] == [str(n) for n in range(1, MONTH + 1)]
    assert max(asked) <= 700 and sum(asked) == MONTH
