"""Bytes and devices: the serial transport, the framed link, and a typed client per board.

- `serial_transport` — the one adapter over pyserial-asyncio (device paths, /dev/serial/by-id,
  pty paths, socket://host:port); `stream` — the ByteStream interface and an in-memory pair.
- `cobs`, `frame` — COBS framing, the header length and CRC-32 of frame format 2, the
  resynchronising decoder; `frame_v1` — format 1, only to name a version-1 peer at the handshake.
- `messages`, `motor_protocol`, `rfid_protocol` — typed messages (frozen dataclasses) and catalogs.
- `link` (host side: its parts `link_commands`, `link_events`, `link_session`) and `board_link`
  (the boards' reference behaviour) — sequence numbers, ACK/NAK and retransmission, event
  resend, handshake, heartbeat, resuming a session after a lost link; `reconnect` — reconnecting
  with back-off, reopening a port that vanished.
- `client`, `motor`, `rfid` — `MotorBoard`, `RfidBoard`; `nextion`, `display_layout`,
  `display` — the display codec, its pages, and `Display`.
- `errors` — every typed error.

The protocol is written down in docs/protocol.md.  Nothing here knows the rules of mahjong, and
nothing here imports rulesets, simulator or firmware.
"""
