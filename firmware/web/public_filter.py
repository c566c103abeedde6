"""The web's public filter: everything the server sends passes here first.

It is the recorder's own check (`firmware.records.recorder.check_public`) applied to every event and
every state object, plus one rule the recorder does not need: no seat line holding private
information (a 宝, written `宝:<tile>` by `Presenter.private`) may leave the table.  A message that
fails is not sent (`SecretLeak`); the caller counts it, so a test can assert nothing was refused.
"""

from __future__ import annotations

from typing import Any

from drivers.table_ui import BAO

from ..records.recorder import SecretLeak, check_public

PRIVATE_MARK = f"{BAO}:"       # the start of a private 宝 line on a seat display


def check_event(event: dict[str, Any]) -> None:
    """A recorder event, as the recorder checks it, and no private seat line inside it."""
    check_public(event)
    _no_private_text(event)


def check_status(status: dict[str, Any]) -> None:
    """State objects {name: {attribute: value}}: each as a public 'status' event would be checked."""
    for name, attributes in status.items():
        if isinstance(attributes, dict):
            check_public({"event": "status", "object": name, **attributes})
    _no_private_text(status)


def _no_private_text(value: Any) -> None:
    if isinstance(value, str):
        if PRIVATE_MARK in value:
            raise SecretLeak("a private seat line (宝) would have left the table")
    elif isinstance(value, dict):
        for item in value.values():
            _no_private_text(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _no_private_text(item)


__all__ = ["PRIVATE_MARK", "SecretLeak", "check_event", "check_status"]
