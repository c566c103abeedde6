"""The parlour (棋牌室) view: every table's status, faults, hours and hands on one page, read from
the MQTT broker the tables report to (`mahjong-table parlour`, docs/fleet.md).

Pieces: watcher.py (the subscriber: the tables' statuses, events and hands), store.py (its own
SQLite history), server.py (the page and its API, on firmware/web's server pieces), static/.
"""
