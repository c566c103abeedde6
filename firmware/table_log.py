"""What the table tells the log: a line per phase, fault, set check, link episode and hand.

`log_table(hub)` attaches a `TableLog` to a controller through three public hooks, so nothing in
the hand or the builder logs by itself:

- the flight recorder's listener: every event the recorder writes, turned into a line at its level
  (a fault with its code, its Chinese name and what to do in both languages; a set check; a hand
  started, resumed, voided, won and settled).  The recorder's stream is already public-safe, and
  the lines are made field by field from it: a tile is named only where the table shows it to
  everyone (a public indicator), never the wall, a hand's tiles or a private 宝 (a private
  indicator is logged as "chosen", without its tile), and `hand_end`'s wall and salt never;
- the presenter's phase listener: a progress line when the display's message line moves to
  another phase (请掷骰子, 配牌, 请出牌 …);
- the hub's watcher: faults acknowledged (the latch went clear), and link episodes — a stretch of
  retransmissions, CRC errors, gaps or missed heartbeats on a board's link, said once when it
  begins and once when the link has been clean for `QUIET_S` (or when the recorder ends).

Levels: debug for each take and the bookkeeping events, info for phases and the course of a hand,
warning for what needs watching (an interlock, a link episode, a hand resumed or voided, a tile
taken out of order), error for a latched fault and a rejected set.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol

from drivers.link import LinkStatistics
from drivers.table_ui import Key, Panel, Phase
from rulesets.definition import options_text

from .faults import SET_CODES, FaultLatch, LatchedFault, hint_for, parse_label
from .presenter import Presenter
from .records.recorder import FlightRecorder

log = logging.getLogger("firmware.table")
link_log = logging.getLogger("firmware.link")

PHASE_EN: Mapping[Phase, str] = {
    Phase.IDLE: "idle", Phase.BUILDING: "shuffling and building", Phase.PUSH_IN: "push the tiles in, then 确认",
    Phase.DICE: "roll the dice", Phase.DEAL: "dealing", Phase.EXCHANGE: "exchanging three tiles",
    Phase.PLAY: "playing", Phase.LAST_TILE: "last tile: 胡, or 确认 for a draw", Phase.WIN_CHECK: "checking a win",
    Phase.HAND_OVER: "hand over", Phase.FAULT: "fault",
}

# The counters of a link that mean trouble (drivers.link.LinkStatistics), as a person reads them.
TROUBLE = {"retransmits": "retransmission(s)", "timeouts": "timeout(s)", "naks": "NAK(s)",
           "crc_errors": "CRC error(s)", "framing_errors": "framing error(s)", "resyncs": "resync(s)",
           "event_gaps": "event gap(s)", "undecodable_events": "undecodable event(s)",
           "heartbeat_misses": "missed heartbeat(s)"}
CHECK_EVERY_S = 1.0         # link counters are compared at most this often (table clock)
QUIET_S = 10.0              # a link episode ends after this long without new trouble

Line = tuple[int, str]      # (level, text)


def fault_line(event: Mapping[str, Any]) -> Line:
    """A fault event: the code, its Chinese name, the English particulars, what to do (both languages)."""
    code = parse_label(event["code"])
    source = str(event.get("source", ""))
    hint = hint_for(code if code is not None else -1, source)
    # an error when a person must act (the fault's own judgement, which sounds the alarm); a warning
    # when it mends itself: the hatch's interlock, the boards' note that the controller was away (E13,
    # every restart) or a link down (E23).  (The event names no unit: -1 is no stop the controller asked.)
    person = LatchedFault(code if code is not None else -1, -1, "", source).calls_a_person
    level = logging.ERROR if person else logging.WARNING
    return level, (f"{event['code']} {hint.name_zh}: {event['message']} — {hint.todo_zh} / {hint.todo_en} "
                   f"({event.get('source', '?')})")


def _seat_list(seats: Any) -> str:
    return ", ".join(map(str, seats)) if seats else "none"


def _signed(values: Any) -> str:
    return " ".join(f"{v:+d}" for v in values)


def _hand(event: Mapping[str, Any]) -> str:
    return f"hand {event['hand']}"


def _session_start(e: Mapping[str, Any]) -> Line:
    options = options_text(e["options"]) or "defaults"
    return logging.INFO, f"session {e['session']}: {e['ruleset']} ({options})"


def _session_resumed(e: Mapping[str, Any]) -> Line:
    return logging.INFO, (f"session {e['session']} resumed: {e['ruleset']}, totals {_signed(e['totals'])}, "
                          f"dealer seat {e['dealer']}")


def _hand_start(e: Mapping[str, Any]) -> Line:
    dice = " then ".join("+".join(map(str, roll)) for roll in e["dice"])
    return logging.INFO, (f"{_hand(e)}: dealer seat {e['dealer']}, dice {dice}, break at wall {e['break']['wall']} "
                          f"after {e['break']['skip']} stack(s)")


def _resumed(e: Mapping[str, Any]) -> Line:
    return logging.WARNING, f"{_hand(e)} resumed after a {e['cause']}, in phase {e['phase']}"


def _hand_void(e: Mapping[str, Any]) -> Line:
    return logging.WARNING, f"{_hand(e)} is void (no payments, the same dealer): {e['reason']}"


def _hand_end(e: Mapping[str, Any]) -> Line:
    if e["result"] == "void":
        result = "void"
    elif e["result"] == "draw":
        result = "荒庄 (draw)"
    else:
        result = f"胡 by seat {', '.join(map(str, e['winners']))}"
    withheld = "".join(f"; seat {f['seat']}'s 诈胡: {'; '.join(f['failures']) or 'not a winning shape'}"
                       for f in e.get("false_wins", ()))
    return logging.INFO, (f"{_hand(e)}: {result}; payments {_signed(e['payments'])}; totals {_signed(e['totals'])}; "
                          f"next dealer seat {e['next_dealer']}{withheld}")


def _false_win_reasons(e: Mapping[str, Any]) -> str:
    if e.get("withheld"):
        return "its reasons would tell the private 宝: they are said at the hand's end"
    return '; '.join(e.get('failures', ())) or 'not a winning shape'


def _take(e: Mapping[str, Any]) -> Line:
    if not e.get("in_order", True):
        return logging.WARNING, (f"{_hand(e)}: a tile was taken out of order ({e['end']} ring {e['ring']} "
                                 f"{e['layer']}); the display asks for the right one")
    return logging.DEBUG, (f"{_hand(e)}: take ({e['reason']}) from the {e['end']}, ring {e['ring']} {e['layer']}; "
                           f"live {e['live']}, reserve {e['reserve']}")


def _indicator(e: Mapping[str, Any]) -> Line:
    if e.get("public") is True and e.get("tile"):
        made = "wilds" if e.get("effect", "wild") == "wild" else "makes"       # (贵州's 明鸡 makes 鸡, not wilds)
        wilds = f" → {made} {' '.join(e['wilds'])}" if e.get("wilds") else ""
        return logging.INFO, f"{_hand(e)}: {e['name']} shown: {' '.join(e['tile'])}{wilds}"
    if e.get("public") is True and e.get("wilds"):      # a fixed wild, no tile turned up (杭州's 白板 财神)
        return logging.INFO, f"{_hand(e)}: {e['name']}: wilds {' '.join(e['wilds'])}"
    return logging.INFO, f"{_hand(e)}: {e['name']} chosen, shown only to seat(s) {_seat_list(e.get('seat'))}"


def _item(item: Mapping[str, Any]) -> str:
    """One scoring item: "清一色 ×2", "杠 1 point", "七对 2 fan"."""
    value, unit = item["value"], item["unit"]
    if unit == "times":
        return f"{item['name']} ×{value}"
    return f"{item['name']} {value} {unit.removesuffix('s') if value == 1 else unit}"


def _win(e: Mapping[str, Any]) -> Line:
    how = "by self-draw" if e.get("from") is None else f"on seat {e['from']}'s discard"
    items = ", ".join(_item(i) for i in e.get("items", ())) or "no items"
    return logging.INFO, f"{_hand(e)}: seat {e['seat']} wins {how} ({items}); pays {_signed(e['payments'])}"


def _opening_win(e: Mapping[str, Any]) -> Line:
    """长沙's 起手小和: what it pays is in the hand's payments, and was said nowhere (a probe)."""
    if not e["accepted"]:
        return logging.INFO, f"{_hand(e)}: seat {e['seat']}'s opening small win (起手小和) is refused: {e.get('reason')}"
    items = ", ".join(_item(i) for i in e.get("items", ())) or "no items"
    return logging.INFO, f"{_hand(e)}: seat {e['seat']}'s opening small win (起手小和: {items}); pays {_signed(e['payments'])}"


def _first_yaoji(e: dict) -> tuple[int, str]:
    said = f"{_hand(e)}: seat {e['seat']} says "
    if e.get("timed_out"):
        return logging.INFO, f"{_hand(e)}: seat {e['seat']} did not answer 首张幺鸡 in time (no 冲锋鸡, no 责任鸡)"
    if e["discarder"] is None:
        return logging.INFO, said + "no one discarded a 1条 (no 冲锋鸡, no 责任鸡)"
    if e["won_on"]:
        return logging.INFO, said + f"seat {e['discarder']}'s first 1条 was won on (no 冲锋鸡, no 责任鸡)"
    if e["claimer"] is None:
        return logging.INFO, said + f"seat {e['discarder']}'s first 1条 went unclaimed (冲锋鸡)"
    return logging.INFO, said + f"seat {e['claimer']} 碰/杠'd seat {e['discarder']}'s first 1条 (责任鸡)"


def _settlement(e: Mapping[str, Any]) -> Line:
    """The settlement round after the hand (贵州's 鸡, 南昌's 精, 查叫): paid beside the wins, said here."""
    items = ", ".join(_item(i) for i in e.get("items", ())) or "no items"
    level = logging.INFO if any(e["payments"]) else logging.DEBUG
    return level, f"{_hand(e)}: the settlement round ({items}); pays {_signed(e['payments'])}"


def _set_check(e: Mapping[str, Any]) -> Line:
    stray = f"; stray tags beside the tiles: {len(e['stray_tags'])}" if e.get("stray_tags") else ""
    if e["ok"]:
        return logging.INFO, f"set check of build {e['build']} (set {e['tile_set']}): the set is whole{stray}"
    return logging.ERROR, (f"set check of build {e['build']} (set {e['tile_set']}): rejected, it will not be played: "
                           f"{'; '.join(e['problems'])}{stray}")


DROPPED_WHY = {"before_play": "pressed before play began (nothing to claim yet)",
               "restart": "pressed before the restart (the restart note asks for them again)",
               "before_hand": "pressed between hands (the hand had not begun)",
               "board_restart": "not yet answered when the motor board restarted (the restart note asks for them again)",
               "before_prompt": "pressed before the enrolment prompt was up (they answered an earlier one)",
               "repeated": "pressed again and again while nothing asked for them (the newest 8 are kept)",
               "in_play": "pressed in play where they do nothing (骰子 with no 宝 that seat may change; the front "
                          "panel's 确认, 升降 or ◀ ▶ outside a menu or a fault)",
               "before_last_tile": "pressed in play before 最后一张 showed (确认 ends the hand only after the last "
                                   "live tile is drawn)",
               "events_dropped": "queued when the motor board's event queue overflowed (the restart note asks for them again)",
               "before_question": "pressed before the question or request they would answer was up (they answered an earlier one)",
               "win_check": "pressed before the win check that answers them was asked, or during it (one 胡, one check)",
               "before_push_in": "pressed before the push-in was asked (nothing was pushed in yet)",
               "centre_closed": "pressed before the centre opened for the push-in (no tile could go in yet)",
               "nothing_to_withdraw": "a long 胡 with no 胡 of that seat to take back (only a check whose hand is "
                                      "not laid yet can be)",
               "kong_pending": "pressed again while that seat's 杠 waited for its replacement (one 杠, one replacement)",
               "no_kong_at_wall_end": "杠 pressed when no live tile would remain after its replacement (no kong is "
                                      "made then: the screen said ！余牌不足不能杠)",
               "no_ready_declaration": "听 pressed where the rules have no 报听 (nothing is declared: the screen "
                                       "said ！本规则不报听)",
               "fault_shown": "pressed on the front panel's menu keys while a fault was shown (确认 answers the "
                              "fault first; the menu waits behind it)"}


def _keys_dropped(e: Mapping[str, Any]) -> Line:
    """Keys that answered nothing: each as its panel and its label (胡, 确认 …)."""
    keys = ", ".join(f"{'front panel' if p['panel'] == Panel.FRONT else 'seat ' + str(p['panel'])} "
                     f"{Key[p['key']].zh}" for p in e["presses"])
    when = _hand(e) if e.get("hand") else "between hands"     # (the recorder's hand 0: none open)
    return logging.INFO, f"{when}: keys {DROPPED_WHY.get(e['why'], e['why'])} do not count: {keys}"


def _set_aside(e: Mapping[str, Any]) -> Line:
    return logging.WARNING, ("the rejected set's walls are up on the table: mend the set as the fault page says "
                             f"({'; '.join(e['problems'])}), then press 确认 on the front panel")


FORMATS: Mapping[str, Callable[[Mapping[str, Any]], Line]] = {
    "session_start": _session_start,
    "session_resumed": _session_resumed,
    "hand_start": _hand_start,
    "resumed": _resumed,
    "hand_void": _hand_void,
    "hand_end": _hand_end,
    "take": _take,
    "put_back": lambda e: (logging.INFO, f"{_hand(e)}: the tile taken at ring {e['ring']} {e['layer']} was put back: "
                                         f"its take is undone; live {e['live']}" + "".join(
                                             f"; seat {seat}'s 杠 stands again" for seat, _ in e.get("kongs_restored", ()))),
    "indicator": _indicator,
    "win": _win,
    "opening_win": _opening_win,
    "chengbao": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['seat']} says " + (
        f"seat {e['side']} 承包s its win (3 claims or more between them)" if e["side"] is not None else "no side 承包s its win")),
    "cai_piao": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['seat']} says it made {e['count']} 财飘"),
    "san_chi": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['seat']} says " + (
        f"seat {e['side']} fed it three claims (三吃承包)" if e["side"] is not None else "no side fed it three claims")),
    "first_yaoji": _first_yaoji,
    "settlement": _settlement,
    "follow_dealer": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['seat']} " + (
        f"followed the dealer (跟庄, round {e['round']}); pays {_signed(e['payments'])}" if e["followed"]
        else f"did not follow the dealer (round {e['round']})")),
    "set_check": _set_check,
    "set_aside": _set_aside,
    "set_rebuild": lambda e: (logging.INFO, "the rejected set was acknowledged: building the other set now; the "
                                            "rejected one goes into the mixer at the next hand over and is built again"),
    "fault": fault_line,
    "dealt": lambda e: (logging.INFO, f"{_hand(e)}: dealt"),
    "first_dealer": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['roller']} rolled {'+'.join(map(str, e['dice']))} "
                                             f"for the first dealer: seat {e['dealer']} deals"),
    "ready": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['seat']} declares ready (听)"),
    "keys_dropped": _keys_dropped,
    "kong_declared": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['seat']} declares a "
                                              f"{'concealed ' if e.get('concealed') else ''}kong"),
    "kong_lapsed": lambda e: (logging.WARNING, f"{_hand(e)}: seat {e['seat']}'s 杠 lapsed: " + (
        f"seat {e['by']} pressed 杠 before its replacement was taken (one replacement at a time: the later press "
        "counts)" if e.get("by") is not None else "a tile was drawn from the head before its replacement "
                                                  "(pressed by mistake, or to 补花?)")),
    "kong_credited": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['seat']}'s 杠 has its replacement: the tail tile "
                                              f"at {e['ring']}/{e['layer']}, taken before the 杠, put back and taken again"),
    "win_withdrawn": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['seat']} took its 胡 back (a long 胡) before "
                                              "laying the hand"),
    "win_cut_off": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['seat']}'s 胡 on seat {e['discarder']}'s discard gives "
                                            f"way to seat {e['by']}'s, nearer the discarder (截胡)"),
    "false_win": lambda e: (logging.WARNING, f"{_hand(e)}: seat {e['seat']} called 胡 on a hand that is not a "
                                             f"win (诈胡): {_false_win_reasons(e)}"),
    "zone_fallback": lambda e: (logging.WARNING, f"{_hand(e)}: seat {e['seat']}'s read zone did not serve "
                                                 f"({e['reason']}); the hand is entered on the seat panel"),
    "exhausted": lambda e: (logging.INFO, f"{_hand(e)}: the live wall is exhausted (荒庄), "
                                          f"{e['remaining']} tile(s) left"),
    "bao_dead": lambda e: (logging.INFO, f"{_hand(e)}: the 宝's tile left the wall; seat {e['seat']} rolls again"),
    "change_bao": lambda e: (logging.INFO, f"{_hand(e)}: seat {e['seat']} asks for 换宝"),
    "exchange": lambda e: (logging.INFO, f"{_hand(e)}: exchange three tiles ({e['direction']})"),
    "reread": lambda e: (logging.INFO, f"re-reading {e['slots']} slot(s) the stacking heads did not read"),
    "faults_forgotten": lambda e: (logging.WARNING, f"the {e['board']} board no longer holds {', '.join(e['codes'])} "
                                                    "(a restart or a lost event cleared it there): cleared here too"),
    "host_lost_cleared": lambda e: (logging.INFO, f"the {', '.join(e['boards'])} board(s) had stopped while this "
                                                  "controller was away: cleared"),
    "warning": lambda e: (logging.WARNING, e["message"]),
    "storage_room": lambda e: (logging.INFO, f"the storage card has room again: {e['free_mb']} MB free of "
                                             f"{e['total_mb']} MB"),
    "ruleset_chosen": lambda e: (logging.INFO, f"the front panel chose {e['ruleset']} "
                                               f"({options_text(e['options']) or 'defaults'})"
                                               "; it starts at the next hand if the tiles allow"),
}


def describe(event: Mapping[str, Any]) -> Line:
    """The log line of one recorder event; events without a line of their own are named at debug
    (their name only: their fields are not looked at)."""
    form = FORMATS.get(event["event"])
    if form is None:
        return logging.DEBUG, f"{event['event']} (hand {event.get('hand', 0)})"
    try:
        return form(event)
    except (KeyError, TypeError, ValueError) as error:       # an event of another shape: say so, never raise
        return logging.WARNING, f"{event['event']} event without the expected fields ({error!r})"


@dataclass
class _Episode:
    """A stretch of trouble on one board's link."""

    began: float
    last: float
    at_start: LinkStatistics


class LinkCounters(Protocol):
    """A board's link as the watch reads it (drivers' `BoardClient`)."""

    def statistics(self) -> LinkStatistics: ...

    def trouble(self) -> int:
        """The sum of its TROUBLE counters: it grows exactly when one of them does."""


def _delta(now: LinkStatistics, before: LinkStatistics) -> str:
    parts = [f"{getattr(now, n) - getattr(before, n)} {what}" for n, what in TROUBLE.items()
             if getattr(now, n) != getattr(before, n)]
    return ", ".join(parts) or "no errors"


class LinkWatch:
    """Link episodes from the links' counters, compared on the hub's changes (never a timer)."""

    def __init__(self, links: Callable[[], Mapping[str, LinkCounters]], clock: Callable[[], float]) -> None:
        self._links = links
        self._clock = clock
        self._checked = float("-inf")
        self._last: dict[str, tuple[LinkStatistics, int]] = {}     # each board's counters, and their trouble
        self._open: dict[str, _Episode] = {}

    def check(self) -> None:
        now = self._clock()
        if now - self._checked < CHECK_EVERY_S:
            return
        self._checked = now
        for board, link in self._links().items():
            # the counters are read only when their sum moved (or to end an episode): an unchanged sum is
            # every trouble counter unchanged, and the counters last read stand for them
            trouble = link.trouble()
            last = self._last.get(board)
            episode = self._open.get(board)
            if last is None or trouble != last[1]:
                stats = link.statistics()
                self._last[board] = stats, trouble
                if last is None or trouble < last[1]:       # (a new link's counters begin again)
                    continue
                if episode is None:
                    self._open[board] = _Episode(now, now, last[0])
                    link_log.warning("%s link: trouble began (%s); the link retransmits and recovers by itself",
                                     board, _delta(stats, last[0]))
                else:
                    episode.last = now
            elif episode is not None and now - episode.last >= QUIET_S:
                self._close(board, episode, link.statistics(), now, "clean again")

    def close_all(self) -> None:
        """The recorder ends: say what the open episodes amounted to."""
        now = self._clock()
        for board, episode in list(self._open.items()):
            self._close(board, episode, self._links()[board].statistics(), now, "still troubled at the end")

    def _close(self, board: str, episode: _Episode, stats: LinkStatistics, now: float, how: str) -> None:
        del self._open[board]
        link_log.info("%s link: %s after %.0f s of trouble (%s in all; smoothed round trip %s ms)", board, how,
                      now - episode.began, _delta(stats, episode.at_start),
                      "?" if stats.srtt_ms is None else f"{stats.srtt_ms:.1f}")


SET_LABELS = frozenset(code.label for code in SET_CODES)


def _set_fault(event: Mapping[str, Any]) -> bool:
    return event["event"] == "fault" and event.get("source") == "controller" and event.get("code") in SET_LABELS


class TableLog:
    """Turns the table's events, phases and changes into log lines (see the module's docstring)."""

    def __init__(self, open_hand: Callable[[], int], faults: Callable[[], tuple[LatchedFault, ...]],
                 links: LinkWatch) -> None:
        self._open_hand = open_hand
        self._faults = faults
        self._links = links
        self._latched: tuple[str, ...] = ()
        self._set_problems: tuple[str, ...] = ()            # the last rejected set's, named by its check's line
        self._cause_said = False                              # …and its cause's fault line said once
        self._set_burst: list[str] = []                       # set faults in a row no check named (a restart's)

    def on_event(self, event: Mapping[str, Any]) -> None:
        if event["event"] == "recorder_end" and not event.get("continued"):     # (a new day's file: play goes on)
            self._links.close_all()
        if event["event"] == "take" and event.get("in_order", True) and not log.isEnabledFor(logging.DEBUG):
            return                                  # the commonest event, a debug line: not even formatted
        level, text = describe(event)
        if event["event"] == "set_check":
            self._set_problems = () if event["ok"] else tuple(event["problems"])
            self._cause_said = False
        if event["event"] == "fault" and any(f.stop_asked and f.label == event["code"] for f in self._faults()):
            level, text = logging.INFO, f"the motors were stopped, as asked ({event['code']} from the controller)"
        elif event["event"] == "fault" and event.get("source") == "controller" and event["message"] in self._set_problems:
            # the cause's line says what to do, as its page does; the check's line names every problem
            # (a mixed set logged a hundred error lines, one per tile)
            if event["message"] != self._set_problems[0] or self._cause_said:
                level = logging.DEBUG                       # (the cause once: one message per copy of a tile)
            self._cause_said = self._cause_said or event["message"] == self._set_problems[0]
        elif _set_fault(event):
            # a rejected set's faults latched again at a restart, no check's line before them: the first said,
            # the rest as debug, then one line naming the cause, latched last (a restart logged 341 error
            # lines, one per problem: a probe)
            if self._set_burst:
                level = logging.DEBUG
            self._set_burst.append(event["message"])
        if self._set_burst and event["event"] != "fault":
            self._burst_said()
        if log.isEnabledFor(level):
            log.log(level, "%s", text)

    def _burst_said(self) -> None:
        burst, self._set_burst = self._set_burst, []
        if len(burst) > 1:
            log.error("the set rejected before the restart still waits for a person: %s (and %d more problem(s): the "
                      "fault page lists them)", burst[-1], len(burst) - 1)

    def on_phase(self, phase: Phase, detail: str) -> None:
        if not log.isEnabledFor(logging.INFO) or phase == Phase.HAND_OVER:     # the settled line says it
            return
        hand = self._open_hand()
        where = f"hand {hand} · " if hand else ""
        log.info("%s%s (%s)", where, phase.value, PHASE_EN.get(phase, phase.name.lower()))

    def on_change(self) -> None:
        latched = tuple(sorted({f.label for f in self._faults()}))
        if self._latched and not latched:
            log.info("faults cleared (%s): the table goes on", ", ".join(self._latched))
        self._latched = latched
        self._links.check()


class _Board(Protocol):
    def statistics(self) -> LinkStatistics: ...


class _Devices(Protocol):
    @property
    def motor(self) -> _Board: ...

    @property
    def rfid(self) -> _Board: ...


class Hub(Protocol):
    """What the log reads of the controller (firmware.controller.TableController)."""

    devices: _Devices
    recorder: FlightRecorder
    presenter: Presenter
    faults: FaultLatch
    clock: Callable[[], float]

    def watch(self, watcher: Callable[[], None]) -> None: ...


def log_table(hub: Hub) -> TableLog:
    """Attach a TableLog to a controller's recorder, presenter and changes."""
    devices = hub.devices
    links = LinkWatch(lambda: {"motor": devices.motor, "rfid": devices.rfid}, hub.clock)
    table_log = TableLog(lambda: hub.recorder.hand, hub.faults.latched, links)
    hub.recorder.listen(table_log.on_event)
    hub.presenter.on_phase(table_log.on_phase)
    hub.watch(table_log.on_change)
    return table_log


__all__ = ["LinkWatch", "TableLog", "describe", "fault_line", "log_table"]
