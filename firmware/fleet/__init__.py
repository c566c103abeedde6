"""A parlour of tables: each table reports to an MQTT broker (docs/fleet.md).

Pieces: settings.py (the broker's address, the table's name, TLS: checked when the configuration
is read; no MQTT import), topics.py, payloads.py (what each topic carries, and the public filter
every payload passes), report.py (what the table tells, gathered on the play path at the cost of
an append), outbox.py (settled hands on disk until the broker has them), connection.py (the
reconnect loop with back-off), publisher.py (the one task that talks to the broker).

Importing this package imports no MQTT client: `firmware.fleet.publisher` does, when a run asks
for it.
"""

from .settings import BrokerSettings, FleetError, FleetSettings, check_table_name, parse_broker_url

__all__ = ["BrokerSettings", "FleetError", "FleetSettings", "check_table_name", "parse_broker_url"]
