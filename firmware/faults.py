"""Faults in one place: what latched, why a set may not play, and what a person should do.

A fault *latches*: it stays shown with its code until a person acknowledges it (DESIGN.md §7).
The latch here is pure state — which faults are latched and the clear/latched machine — so the
controller can show and record each change, and tests can drive it without a table.

Every code has a hint in two languages: Chinese for the public display (the people at the
table read Chinese), English for logs and the recorder (the technician's tools).
"""

from __future__ import annotations

from dataclasses import dataclass

from drivers.errors import BoardIncompatible, LinkError
from drivers.messages import FaultCode
from drivers.motor_protocol import stops_the_dice
from drivers.rfid import RfidBoard

from .machines import build_machine
from .records.store import DAMAGED, LOCKED, READ_ONLY, TROUBLE_WORDS


@dataclass(frozen=True)
class Hint:
    """A fault's name and what to do about it, for the display (zh) and for logs (en)."""

    name_zh: str
    name_en: str
    todo_zh: str
    todo_en: str


HINTS: dict[int, Hint] = {
    FaultCode.PUSH_JAM: Hint("推牌卡住", "push jam", "清除卡住的推牌头后按确认",
                             "clear the jammed stacking head, then acknowledge"),
    FaultCode.HOME_SENSOR: Hint("链条原点未找到", "home sensor", "检查推牌链条的原点传感器后按确认",
                                "check the lane's home sensor, then acknowledge"),
    FaultCode.SIDE_LIFT_LIMIT: Hint("升降台不到位", "side lift limit", "检查该边升降台有无卡牌后按确认",
                                    "look for a tile caught under that side's plate, then acknowledge"),
    FaultCode.CENTRE_LIFT_LIMIT: Hint("中间升降不到位", "centre lift limit", "检查中间升降盘有无卡牌后按确认",
                                      "look for a tile caught at the centre lift, then acknowledge"),
    FaultCode.DICE_MOTOR: Hint("骰子电机卡住", "dice motor", "检查骰子罩后按确认",
                               "free the dice cup, then acknowledge"),
    FaultCode.LANE_SHORT: Hint("缺牌", "lane short", "检查桌面有无遗留的牌后按确认",
                               "a lane ran out of tiles: look for tiles left on the table, then acknowledge"),
    FaultCode.SET_MISMATCH: Hint("牌不齐", "set mismatch", "按提示补齐或取出牌后按确认",
                                 "fix the set as the message says, then acknowledge and rebuild"),
    FaultCode.DUPLICATE_UID: Hint("标签重复", "duplicate tag", "取出标签重复的牌后按确认",
                                  "take out the tile with the duplicated tag, then acknowledge"),
    FaultCode.UNKNOWN_TAG: Hint("未登记的牌", "unknown tag", "取出外来牌或登记后按确认",
                                "take out the foreign tile or enrol it, then acknowledge"),
    FaultCode.WRONG_SET: Hint("混入另一副牌", "wrong set", "取出另一副牌的牌后按确认",
                              "take out the tile of the other set, then acknowledge"),
    FaultCode.OVER_TEMPERATURE: Hint("电机过热", "over temperature", "等电机冷却后按确认",
                                     "let the motor cool down, then acknowledge"),
    FaultCode.HATCH_OPEN: Hint("检修盖打开", "hatch open", "关好检修盖",
                               "close the service hatch; the table goes on by itself"),
    FaultCode.HOST_LOST: Hint("主控连接中断", "host lost", "通常自动清除，否则按确认",
                              "the board stopped its motors when it stopped hearing the controller; the controller "
                              "clears it once it hears the board again (with another fault latched, at that one's 确认)"),
    FaultCode.CONFIG_MISMATCH: Hint("规则与牌桌不符", "config mismatch", "请选择其他规则",
                                    "this ruleset needs more stacks than the table builds: choose another"),
    FaultCode.OVER_CURRENT: Hint("电机过流", "over current", "排除卡住的电机后按确认",
                                 "free the stalled motor, then acknowledge"),
    FaultCode.EMERGENCY_STOP: Hint("紧急停止", "emergency stop", "确认安全后按确认",
                                   "make the table safe, then acknowledge"),
    FaultCode.COUNT_SENSOR: Hint("计数传感器异常", "count sensor", "检查推牌计数传感器后按确认",
                                 "check the lane's count sensor, then acknowledge"),
    FaultCode.ANTENNA: Hint("读卡天线故障", "antenna", "检查天线连接后按确认",
                            "check the antenna's cable, then acknowledge"),
    FaultCode.READER: Hint("读卡器无响应", "reader", "检查读卡板后按确认",
                           "check the RFID reader board, then acknowledge"),
    FaultCode.LINK_LOST: Hint("连接中断 重连中", "link lost", "稍候，连接恢复后继续",
                              "wait: the controller reconnects by itself and the table goes on"),
    FaultCode.DISPLAY: Hint("显示屏无响应", "display silent", "检查显示屏的线和电源",
                            "check the display's cable and power; the table goes on and repaints it when it answers"),
    FaultCode.STORAGE: Hint("存储写入失败", "storage", "请清理存储卡空间或更换存储卡",
                            "free space on the storage card or replace it; the table retries the write and goes on "
                            "by itself once it lands"),
    FaultCode.CANNOT_START: Hint("无法启动", "cannot start", "请技术人员查看运行日志",
                                 "fix what the log's last line names; the service starts the table again by itself"),
    FaultCode.BOARD_INCOMPATIBLE: Hint("主板通信不兼容", "board incompatible", "请技术人员检查接线与主板固件",
                                       "check which board is on which port and that its firmware matches this "
                                       "controller (the log's last line names it); the service starts the table "
                                       "again by itself"),
}
UNKNOWN_HINT = Hint("故障", "fault", "排除原因后按确认", "acknowledge when the cause is gone")
# A code a board sent that no board raises (an unknown one, or one only the controller raises: a board
# saying E23 "link lost, wait" would have the people wait for a mend that never comes): the board's
# firmware is wrong.  Shown as what it is, and a person's to acknowledge, as any fault of a board.
BOARD_CODES = frozenset({FaultCode.PUSH_JAM, FaultCode.HOME_SENSOR, FaultCode.SIDE_LIFT_LIMIT,
                         FaultCode.CENTRE_LIFT_LIMIT, FaultCode.DICE_MOTOR, FaultCode.LANE_SHORT,
                         FaultCode.OVER_TEMPERATURE, FaultCode.HATCH_OPEN, FaultCode.HOST_LOST,
                         FaultCode.OVER_CURRENT, FaultCode.EMERGENCY_STOP, FaultCode.COUNT_SENSOR,
                         FaultCode.ANTENNA, FaultCode.READER})
NOT_A_BOARD_CODE = Hint("主板报未知故障", "unknown board fault", "请技术人员检查主板固件后按确认",
                        "the board sent a code no board raises: check its firmware, then acknowledge")
# E12 as the motor board latches it: the hatch opened while motors ran, and the board stopped them.
# Unlike the interlock (same code, shown while the hatch is open, clearing itself once it is shut),
# it stays until a person's 确认 (protocol.md §5): the hatch shut, the page must say to press 确认.
HATCH_OPENED_RUNNING = Hint("运转中打开检修盖", "hatch opened while running", "关好检修盖后按确认",
                            "close the service hatch, then acknowledge: the board stopped the motors it caught running")

# Faults that clear by themselves when their cause goes: the hatch interlock stops motion while it is
# open (motion waits for it, never spins) and nobody has to acknowledge a hatch simply shut again; a
# silent display is shown and logged, and clears when the display answers; a failed disk write is
# retried, and clears when one lands (meanwhile the boards' events wait unacknowledged: play waits).
INTERLOCKS = frozenset({FaultCode.HATCH_OPEN, FaultCode.DISPLAY, FaultCode.LINK_LOST, FaultCode.STORAGE})
BOARDS = ("motor", "rfid")
BOARDS_ZH = {"motor": "电机板", "rfid": "读卡板"}     # the boards as the display names them
# Faults of the next set's build under the table (its lanes, the mixer, the stacking heads and their
# antennas, the set's check): the hand played on the raised walls goes on meanwhile, and its page
# waits for the hand's end (docs/controller.md).  Motor units 0–4 are the mixer and the lanes.
BUILD_CODES = frozenset({FaultCode.PUSH_JAM, FaultCode.HOME_SENSOR, FaultCode.LANE_SHORT, FaultCode.COUNT_SENSOR,
                         FaultCode.SET_MISMATCH, FaultCode.DUPLICATE_UID, FaultCode.UNKNOWN_TAG,
                         FaultCode.WRONG_SET, FaultCode.CONFIG_MISMATCH})
BUILD_MOTORS = range(0, 5)
HEAD_ANTENNAS = range(0, 4)


# E24 by what refused the write (`firmware.records.store.disk_trouble`, the fault's source): a damaged
# ledger or a read-only card never lands however long it is retried, and freeing space does nothing
def storage_source(kind: str) -> str:
    """The source E24 is latched with for what refused the write: its hint says what to do."""
    return f"storage-{kind}" if kind in TROUBLE_WORDS else "storage"


STORAGE_DAMAGED_SOURCE = storage_source(DAMAGED)
STORAGE_HINTS = {
    STORAGE_DAMAGED_SOURCE: Hint("账本文件损坏", "ledger damaged", "请停机，保留账本文件，联系技术人员",
                                 TROUBLE_WORDS[DAMAGED]),
    storage_source(READ_ONLY): Hint("存储卡变为只读", "card read-only", "请重启主机，如再出现请更换存储卡",
                                    TROUBLE_WORDS[READ_ONLY]),
    storage_source(LOCKED): Hint("账本文件被占用", "ledger held", "请关闭占用账本的程序", TROUBLE_WORDS[LOCKED]),
}


def hint_for(code: int, source: str = "") -> Hint:
    """What a fault is and what to do, for a fault of `code` raised by `source` ("motor", "rfid",
    "interlock", …; the hatch's two faults share a code)."""
    if source in BOARDS and code not in BOARD_CODES:
        return NOT_A_BOARD_CODE
    if code == FaultCode.HATCH_OPEN and source in BOARDS:      # a board's latch, not the interlock
        return HATCH_OPENED_RUNNING
    if code == FaultCode.STORAGE and source in STORAGE_HINTS:
        return STORAGE_HINTS[source]
    return HINTS.get(code, UNKNOWN_HINT)


# Where a board's fault is, by its `unit` (protocol.md §5), in Chinese for the display.  Sides are
# numbered 0–3 as in the English messages, so the technician matches the two.
LANE_CODES = frozenset({FaultCode.PUSH_JAM, FaultCode.HOME_SENSOR, FaultCode.LANE_SHORT, FaultCode.COUNT_SENSOR})
MOTOR_CODES = frozenset({FaultCode.OVER_TEMPERATURE, FaultCode.OVER_CURRENT})


def motor_name_zh(unit: int) -> str:
    """The motor a unit number names (protocol.md §4.2: 0 mixer, 1–4 lanes, 5–8 side lifts, 9, 10)."""
    if unit == 0:
        return "洗牌盘电机"
    if 1 <= unit <= 4:
        return f"边{unit - 1}推牌道电机"
    if 5 <= unit <= 8:
        return f"边{unit - 5}升降台电机"
    return {9: "中间升降电机", 10: "骰子电机"}.get(unit, f"电机{unit}")


def where_zh(code: int, unit: int) -> str:
    """Where a board's fault is, for the display ("" when the code names one place only)."""
    if code in LANE_CODES:
        return f"边{unit}推牌道"
    if code == FaultCode.SIDE_LIFT_LIMIT:
        return f"边{unit}升降台"
    if code in MOTOR_CODES:
        return motor_name_zh(unit)
    if code == FaultCode.EMERGENCY_STOP:
        return "停止键" if unit == 1 else "主控停机"
    if code == FaultCode.ANTENNA:
        return f"边{unit}读牌头天线" if unit < 4 else f"边{unit - 4}读牌区天线"
    if code == FaultCode.BOARD_INCOMPATIBLE:
        return BOARDS_ZH["motor" if unit == 0 else "rfid"]
    return ""


@dataclass(frozen=True)
class LatchedFault:
    code: int
    unit: int
    message: str         # English, with the particulars (which tile, which slot, which lane)
    source: str          # "motor", "rfid", "controller" or "interlock"
    zh: str = ""         # the display's line in Chinese, when the controller has more to say than the code

    @property
    def text_zh(self) -> str:
        """What happened, in Chinese, for the display's fault page (the English stays in `message`)."""
        if self.zh:
            return self.zh
        named = self.source in BOARDS or self.code == FaultCode.BOARD_INCOMPATIBLE
        where = where_zh(self.code, self.unit) if named else ""
        return f"{self.hint.name_zh}（{where}）" if where else self.hint.name_zh

    @property
    def label(self) -> str:
        return f"E{self.code:02d}"

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.code, self.unit, self.source)

    @property
    def hint(self) -> Hint:
        return hint_for(self.code, self.source)

    @property
    def interlock(self) -> bool:
        return self.code in INTERLOCKS and not self.not_a_board_code

    @property
    def not_a_board_code(self) -> bool:
        """A board sent a code no board raises (its firmware is wrong): a person's, whatever the code."""
        return self.source in BOARDS and self.code not in BOARD_CODES

    @property
    def calls_a_person(self) -> bool:
        """A person must act (the alarm sounds): not the hatch's interlock (a person opened it), a link
        episode or the board's note of the controller's own silence (the controller mends both), nor
        the stop the controller asked.  A silent display and a full card clear by themselves once
        mended, but only a person mends them (and a silent display cannot say so itself)."""
        if self.not_a_board_code:
            return True
        if self.stop_asked or self.code in (FaultCode.LINK_LOST, FaultCode.HOST_LOST):
            return False
        return not (self.code == FaultCode.HATCH_OPEN and self.source == "interlock")

    @property
    def under_the_table(self) -> bool:
        """A fault of the next set's build only: the hand on the raised walls goes on without it."""
        if self.not_a_board_code or self.source == "interlock":
            return False
        if self.code in BUILD_CODES:
            return True
        if self.code in MOTOR_CODES:
            return self.unit in BUILD_MOTORS
        return self.code == FaultCode.ANTENNA and self.unit in HEAD_ANTENNAS

    @property
    def stop_asked(self) -> bool:
        """The emergency stop the controller itself sent when asked to stop (not a fault of the table)."""
        return self.code == FaultCode.EMERGENCY_STOP and self.unit == 0 and self.source == "motor"


def board_fault_message(code: int, unit: int, detail: int) -> str:
    """The English line for a fault the motor or RFID board raised."""
    return f"{hint_for(code, 'motor').name_en} (unit {unit}, detail {detail})"


def board_incompatible(error: BoardIncompatible) -> LatchedFault:
    """E26 for a board this controller cannot work with (unit 0 the motor board, 1 the RFID board)."""
    unit = 1 if error.device.startswith(RfidBoard.NAME) else 0
    return LatchedFault(FaultCode.BOARD_INCOMPATIBLE, unit, str(error), "controller")


class ControllerFailure(LinkError):
    """The controller itself failed while handling an event (a bug): the table stops."""


class SetRejected(Exception):
    """A built set may not reach play (its faults are latched and recorded); `problems` says why,
    in English, one line each.  The session sets such a set aside and builds again once a person
    acknowledged (`faults`: what it latched); only a table that cannot build the ruleset at all (E14)
    stops on it."""

    def __init__(self, message: str, faults: tuple[LatchedFault, ...] = ()) -> None:
        super().__init__(message)
        self.faults = faults

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(f.message for f in self.faults) or (str(self),)


# The faults a rejected set latches (the controller's, from the set check): a person mends the set
SET_CODES = frozenset({FaultCode.SET_MISMATCH, FaultCode.DUPLICATE_UID, FaultCode.UNKNOWN_TAG, FaultCode.WRONG_SET})


class FaultLatch:
    """Which faults are latched; the clear ⇄ latched machine follows every change."""

    def __init__(self) -> None:
        self._faults: dict[tuple[int, int, str], LatchedFault] = {}
        self._roll: dict[str, set[tuple[int, int]]] = {}       # board → the faults its snapshot listed so far
        self.machine = build_machine("fault")

    def latch(self, fault: LatchedFault) -> None:
        self._faults.pop(fault.key, None)          # latched again: the latest, shown when others clear
        self._faults[fault.key] = fault
        if fault.source in self._roll:
            self._roll[fault.source].add((fault.code, fault.unit))
        self.machine.latch()

    def roll_call(self, source: str) -> None:
        """The board is asked for its snapshot, which lists every fault it holds (protocol.md §4.1).
        Asked again before the last one ended (both boards' resyncs after a brown-out ask both), the
        roll goes on: begun anew, the first snapshot's end would drop what only its start listed."""
        self._roll.setdefault(source, set())

    def new_session(self, source: str) -> None:
        """The board lost its RAM: what it listed before is no roll of what it holds now."""
        self._roll.pop(source, None)

    def roll_called(self, source: str) -> tuple[LatchedFault, ...]:
        """The board's snapshot ended: its faults it did not list are gone from it (a reboot forgot
        them, or its FaultCleared was lost with its RAM) and go from here too; returned.  Kept, one
        would wait for a FaultCleared that never comes: a person's 确认 could not clear it (campaign
        690012: E13 stayed latched after a brown-out and the table never built again)."""
        listed = self._roll.pop(source, None)
        if listed is None:
            return ()
        gone = tuple(f for f in self._faults.values() if f.source == source and (f.code, f.unit) not in listed)
        for fault in gone:
            del self._faults[fault.key]
        self._settle()
        return gone

    def clear(self, code: int, unit: int, source: str) -> bool:
        """A board cleared one of its faults; True when nothing is latched any more."""
        self._faults.pop((code, unit, source), None)
        return self._settle()

    def acknowledge_controller_faults(self) -> bool:
        """A person acknowledged: the controller's own faults go; True when nothing is latched."""
        for key in [k for k, f in self._faults.items() if f.source == "controller"]:
            del self._faults[key]
        return self._settle()

    def _settle(self) -> bool:
        if not self._faults and self.machine.state == "latched":
            self.machine.acknowledge()
        return not self._faults

    @property
    def active(self) -> bool:
        return bool(self._faults)

    @property
    def blocking(self) -> bool:
        """A fault that needs a person (an interlock clears when it is closed)."""
        return any(not f.interlock for f in self._faults.values())

    @property
    def stops_the_dice(self) -> bool:
        """A board fault latched that the motor board refuses RollDice for (protocol.md §4.1)."""
        return any(stops_the_dice(f.code, f.unit) for f in self._faults.values()
                   if not f.interlock and f.source == "motor")

    def has(self, code: int) -> bool:
        return any(f.code == code for f in self._faults.values())

    def latched(self) -> tuple[LatchedFault, ...]:
        return tuple(self._faults.values())


def parse_label(label: str) -> int | None:
    """The code of a label such as "E07" (as the recorder writes it); None if it is not one."""
    digits = label[1:] if label[:1] == "E" else ""
    return int(digits) if digits.isdigit() else None


__all__ = ["ControllerFailure", "FaultLatch", "board_incompatible", "HINTS", "Hint", "INTERLOCKS", "LatchedFault", "SET_CODES", "SetRejected",
           "board_fault_message", "hint_for", "motor_name_zh", "parse_label", "where_zh"]
