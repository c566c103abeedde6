"""One hand at the table: its state as data, its flow, the win check, the 宝, the region phases.

Everything here sees the table through `ports` and imports nothing else of the controller (the
import rules test holds it): `ports`, `rulesets` and `drivers.table_ui` only.
"""
