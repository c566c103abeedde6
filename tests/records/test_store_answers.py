"""A write the table waits for (Store.run / Store.queue): its answer comes from the writer thread
straight to the loop; a refusal is counted (E24 told) before the waiter hears it, and a write
whose waiter gave up before its turn is not made."""

import asyncio
import sqlite3
import threading

from firmware.records.store import Store


def test_a_refused_write_is_counted_before_its_waiter_hears_it():
    async def main() -> None:
        store = Store()
        store.watch(lambda error: None)

        def refuse() -> None:
            raise sqlite3.OperationalError("database or disk is full")
        try:
            await store.run(refuse)
        except sqlite3.OperationalError:
            assert store.failures == 1 and store.told       # the journal's retry sees E24 as told
        else:
            raise AssertionError("a refused write answered as landed")
        assert await store.run(lambda: 7) == 7
        store.close()
    asyncio.run(main())


def test_a_write_whose_waiter_gave_up_before_its_turn_is_not_made():
    async def main() -> None:
        store = Store()
        busy, made = threading.Event(), []
        store.submit(busy.wait)                             # the writer thread is busy meanwhile
        waiting = asyncio.ensure_future(store.run(made.append, "late"))
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        busy.set()
        await store.run(made.append, "next")
        assert made == ["next"]
        store.close()
    asyncio.run(main())
