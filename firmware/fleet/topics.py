"""The topics a table publishes and the parlour reads (docs/fleet.md lists them with their payloads)."""

from __future__ import annotations

from dataclasses import dataclass

ROOT = "mahjong"
KINDS = ("status", "events", "hands")
# What the parlour subscribes to, with the QoS it asks for: only hands at QoS 1, so a broker keeping
# the parlour's session while it is away queues the hands and nothing else (its queue is bounded:
# Mosquitto's max_queued_messages, 1000 by default); the retained statuses come with each subscribe.
PARLOUR_SUBSCRIPTIONS = ((f"{ROOT}/+/hands", 1), (f"{ROOT}/+/status", 0), (f"{ROOT}/+/events", 0))


@dataclass(frozen=True)
class Topics:
    table: str
    discovery_prefix: str = "homeassistant"

    @property
    def status(self) -> str:
        """Retained: online (with everything the table shows at a glance) or offline; the last will."""
        return f"{ROOT}/{self.table}/status"

    @property
    def events(self) -> str:
        """Every public event of the flight recorder, numbered."""
        return f"{ROOT}/{self.table}/events"

    @property
    def hands(self) -> str:
        """Each settled hand, QoS 1, from the on-disk outbox."""
        return f"{ROOT}/{self.table}/hands"

    @property
    def device_id(self) -> str:
        return f"mjt_{self.table}"

    @property
    def discovery(self) -> str:
        """Home Assistant's device-based discovery config (retained)."""
        return f"{self.discovery_prefix}/device/{self.device_id}/config"

    @property
    def home_assistant_status(self) -> str:
        """Home Assistant's birth and will: on "online" the discovery is sent again."""
        return f"{self.discovery_prefix}/status"


def split_topic(topic: str) -> tuple[str, str] | None:
    """"mahjong/t03/hands" → ("t03", "hands"); None for anything else."""
    parts = topic.split("/")
    if len(parts) == 3 and parts[0] == ROOT and parts[1] and parts[2] in KINDS:
        return parts[1], parts[2]
    return None


__all__ = ["KINDS", "PARLOUR_SUBSCRIPTIONS", "ROOT", "Topics", "split_topic"]
