"""Typed messages: every class round-trips; junk payloads raise only MessageError."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.errors import MessageError, UnknownMessage
from drivers.messages import BoardIdentity, Catalog, Message
from drivers.motor_protocol import (MOTOR_COMMANDS, MOTOR_EVENTS, Build, BuildDone, BuildStopped,
                                    DiceRolled, KeyPressed, SeatText, WallSnapshot)
from drivers.rfid_protocol import (RFID_COMMANDS, RFID_EVENTS, UID_BYTES, HeadRead, SlotRead,
                                   StartBuild, ZoneInventory, push_slot, slot_push)

pytestmark = pytest.mark.timeout(60)

CATALOGS = (MOTOR_COMMANDS, MOTOR_EVENTS, RFID_COMMANDS, RFID_EVENTS)
ALL = sorted({cls for catalog in CATALOGS for cls in catalog.by_id.values()}, key=lambda c: c.__name__)

u8, u16 = st.integers(0, 255), st.integers(0, 0xFFFF)
four = st.tuples(u8, u8, u8, u8)
uid = st.binary(min_size=UID_BYTES, max_size=UID_BYTES)
SPECIAL = {
    Build: st.builds(Build, four, st.booleans()),
    BuildDone: st.builds(BuildDone, four),
    BuildStopped: st.builds(BuildStopped, four, u8),
    WallSnapshot: st.builds(WallSnapshot, u8, st.lists(st.integers(0, 2), max_size=20).map(tuple)),
    DiceRolled: st.builds(DiceRolled, st.lists(st.integers(1, 6), min_size=1, max_size=4).map(tuple)),
    SeatText: st.builds(SeatText, u8, u8, st.text(max_size=20)),
    StartBuild: st.builds(StartBuild, four),
    HeadRead: st.builds(HeadRead, u8, u8, st.lists(uid, max_size=3).map(tuple)),
    SlotRead: st.builds(SlotRead, u8, u8, st.lists(uid, max_size=3).map(tuple)),
    ZoneInventory: st.builds(ZoneInventory, u8, st.lists(uid, max_size=28).map(tuple)),
}


def strategy_for(cls: type[Message]) -> st.SearchStrategy[Message]:
    if cls in SPECIAL:
        return SPECIAL[cls]
    codes = cls.LAYOUT
    values = {"B": u8, "H": u16, "I": st.integers(0, 2**32 - 1), "?": st.booleans()}
    names = [f.name for f in dataclasses.fields(cls)]
    assert len(codes) == len(names), cls
    return st.builds(cls, *[values[c] for c in codes])


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
@given(data=st.data())
def test_message_round_trip(cls, data):
    message = data.draw(strategy_for(cls))
    catalog = next(c for c in CATALOGS if cls in c.by_id.values())
    assert catalog.decode(cls.ID, message.encode_payload()) == message


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda c: c.name)
@given(msg=u8, payload=st.binary(max_size=64))
def test_junk_payloads_raise_only_message_errors(catalog, msg, payload):
    try:
        catalog.decode(msg, payload)
    except MessageError:
        pass


def test_unknown_id_is_named():
    with pytest.raises(UnknownMessage, match="0x7e"):
        MOTOR_COMMANDS.decode(0x7E, b"")


def test_catalog_refuses_duplicate_ids():
    with pytest.raises(ValueError, match="used by"):
        Catalog("twice", (Build, Build))


def test_decoded_keys_are_enums():
    event = MOTOR_EVENTS.decode(KeyPressed.ID, bytes((4, 10, 1)))
    assert event.key.name == "STOP" and event.panel.name == "FRONT"


def test_push_slot_mapping_is_exact():
    assert [tuple(vars(push_slot(2, p)).values()) for p in range(5)] == [
        (2, 0, "top"), (2, 0, "bottom"), (2, 1, "top"), (2, 1, "bottom"), (2, 2, "top")]
    with pytest.raises(ValueError):
        push_slot(4, 0)
    assert all(slot_push(push_slot(lane, p)) == (lane, p) for lane in range(4) for p in range(40))


@given(version=u8, kind=u8, boot=st.integers(0, 2**32 - 1), session=u16, flags=u8,
       build=st.text(alphabet="abcdefgh0123456789 .-", max_size=40),
       constants=st.dictionaries(u8, u16, max_size=12))
def test_identity_round_trip(version, kind, boot, session, flags, build, constants):
    identity = BoardIdentity(version, kind, boot, session, flags, build, constants)
    decoded = BoardIdentity.decode(identity.encode())
    assert (decoded.version, decoded.kind, decoded.boot_counter, decoded.session, decoded.flags,
            decoded.build, dict(decoded.constants)) == (version, kind, boot, session, flags, build, constants)
    assert BoardIdentity.peek_version(identity.encode()) == version


@given(st.binary(max_size=80))
def test_identity_junk_raises_only_message_error(data):
    try:
        BoardIdentity.decode(data)
    except MessageError:
        pass
