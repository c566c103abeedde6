"""The table controller: the device hub.

One `TableController` per table (no globals: two can run in one process).  It owns the device
clients and a pump task per device that turns every board event into state and wakes whoever
waits (`until`); one `KeyQueue` where every unclaimed key press waits; the fault latch; the
front panel.  The work is done by parts that never see the hub itself: the set builder and the
hand flow get small typed ports (`build_ports()`, `hand_ports()`), and the hub calls them back
through their listener protocols with what the boards report at once.  `firmware.session`
composes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from typing import Any, Awaitable, Callable, Coroutine, Sequence, TypeVar

from drivers.errors import BoardIncompatible, CommandRejected, LinkClosed, LinkError, LinkLost, NoResponse
from drivers.messages import EventsDropped, FaultCleared, FaultCode, FaultRaised, Message, SnapshotDone
from drivers.motor import MotorBoard
from drivers.link import EventMark, SessionRef
from drivers.motor_protocol import (BuildDone, BuildStopped, DiceRolled, HatchChanged, KeyAction, KeyPressed, Lift,
                                    LiftMoved, LiftPosition, SafeStop, ShuffleDone, WallChanged, WallSnapshot)
from drivers.reconnect import Reconnected
from drivers.rfid import RfidBoard
from drivers.rfid_protocol import HeadRead, SlotRead, ZoneInventory
from drivers.table_ui import (CHANGE_TILES, NEW_HOUSE_RULES, RESTARTED, RULES_KEPT, RULES_NEXT_HAND, RULES_NOT_SAVED,
                              Key)
from rulesets.definition import Ruleset
from rulesets.regions import get_region
from rulesets.walls import StackPos

from .build.enrollment import EnrollPorts
from .build.ports import BuildListener, BuildPorts
from .build.registry import TileRegistry
from .commands import Commands
from .devices import Devices
from .display_watch import DisplayWatch
from .fault_desk import FaultDesk
from .faults import (BOARDS, ControllerFailure, FaultLatch, LatchedFault, SetRejected, board_fault_message,
                     board_incompatible)
from .front import TableFront
from .guarded_tasks import GuardedTasks
from .hand.ports import HandListener, HandPorts, KeyQueue, Press, pressed, record_dropped
from .hub_ports import HubBuildPorts, HubEnrollPorts, HubHandPorts
from .implausible import implausible
from .lamps import ALARM, ALARM_MS, Lamps
from .links import LinkKeeper, is_episode
from .loopwatch import LoopWatch
from .machines import build_machine
from .panel import Choice, FrontPanel, Settings
from .presenter import Presenter
from .seat_lines import NOT_HEARD, SeatLines
from .records.recorder import FlightRecorder
from .service_page import ServiceFacts, ServicePage
from .version import package_version
from .worker import ProcessWorker

T = TypeVar("T")
log = logging.getLogger("firmware.controller")
ZONE_INVENTORIES = 2        # a read zone is inventoried this often per read, the tags joined
OUR_ABSENCE = frozenset({(FaultCode.HOST_LOST, 0), (FaultCode.EMERGENCY_STOP, 0)})  # a board stopped for us


class TableController:
    def __init__(self, devices: Devices, ruleset: Ruleset, registry: TileRegistry, recorder: FlightRecorder, *,
                 clock: Callable[[], float] | None = None, shuffle_ms: int = 2000,
                 settings: Settings | None = None) -> None:
        self.devices = devices
        self.ruleset = ruleset
        self.registry = registry
        self.recorder = recorder
        self.clock = clock or monotonic_clock()
        self.shuffle_ms = shuffle_ms
        self.table = build_machine("table")
        self.keys = KeyQueue()
        self.faults = FaultLatch()
        self.lifts: dict[int, int] = {}
        self.wall_sensors: dict[int, tuple[int, ...]] = {}     # tiles per stack, as the sensors last said
        self.link_error: LinkError | None = None               # a failure no reconnection mends
        self.links = LinkKeeper(self._link_down, self._link_up, self._link_session, self._link_reset)
        self.on_link_session: Callable[[str, SessionRef], None] | None = None     # the session journals them
        self.applied: dict[str, EventMark] = {}                 # each board's last event applied to the state
        self.on_applied: Callable[[], None] | None = None       # the session journals it, then releases it
        self.journal_now: Callable[[], Awaitable[None]] | None = None     # the session: the hand, committed now
        self.hand_void: str | None = None                       # why the hand in play can no longer be trusted
        self._halts = 0                                         # SafeStop events: the board stopped its motors
        self._dice: tuple[int, ...] | None = None
        self._zones: dict[int, ZoneInventory] = {}
        self._snapshots = {"motor": 0, "rfid": 0}               # SnapshotDone events per board
        self._resets = {"motor": 0, "rfid": 0}                  # new sessions per board: its queued events are gone
        self._absence_asked: set[str] = set()                   # boards told to clear our absence, not yet cleared
        self._changed = asyncio.Condition()
        self.seat_lines = SeatLines(self._write_seat_line, self._warn)
        self._tasks: list[asyncio.Task] = []
        self.guarded = GuardedTasks(self._task_failed)          # guarded tasks and background jobs
        self._pumps: list[asyncio.Task] = []
        self.worker = ProcessWorker(on_fault=self._worker_fault)     # scoring: off the loop and off its GIL
        self.loop_watch = LoopWatch()
        self._hand: HandListener | None = None
        self._walls_blind = False               # the motor board rebooted and its walls are not read yet
        self._build: BuildListener | None = None
        self._watchers: list[Callable[[], None]] = []
        self.lamps = Lamps(self._write_lamps, self._sound_alarm, self._warn)
        self.presenter = Presenter(devices.display, self.seat_lines.put, devices.motor.seat_text_bytes,
                                   seat_lamps=self.lamps.seat)
        self.panel = FrontPanel(self.presenter.menu, recorder, settings,
                                on_changed=self._rules_chosen,
                                on_not_saved=lambda choice: self.presenter.note(
                                    f"{self._rules_words(choice)} {RULES_NOT_SAVED}" if choice else RULES_NOT_SAVED))
        self.service = ServicePage(self._service_facts, self.presenter.service,
                                   lambda shown: self.presenter.show_page("service" if shown else "main"))
        self.front = TableFront(self.panel, self.service, recorder, faults_active=lambda: self.faults.active,
                                acknowledge=lambda: self._in_background(self.acknowledge_faults(), "acknowledge-faults"),
                                rules=lambda: (self.ruleset.id, dict(self.ruleset.options)))
        self.desk = FaultDesk(self.faults, recorder, self.presenter, page_behind=self.front.page_behind,
                              on_change=self._tell_watchers, alarm=self.lamps.alarm)
        self.presenter.on_phase(lambda phase, detail: self.desk.phase(phase))
        self.commands = Commands(until=self.until, links_up=self.links_up, episodes=lambda: self.links.episodes,
                                 desk=self.desk, blocking=lambda: self.faults.blocking,
                                 request_snapshot=lambda: self.devices.motor.request_snapshot(),
                                 halts=lambda: self._halts, resets=lambda source: self._resets[source])
        self.watch(self.front.faults_changed)
        self.watch(lambda: self.lamps.fault(self.faults.active, any(f.calls_a_person for f in self.faults.latched())))
        self._started_at = time.monotonic()
        self._version = package_version()
        self.card_room: Callable[[], tuple[int, int] | None] = lambda: None     # the session's last look (MB)

    # -- composing ------------------------------------------------------------------------------

    def attach(self, *, hand: HandListener | None = None, build: BuildListener | None = None) -> None:
        """Who hears the boards at once: the hand (takes, 听, 杠) and the set builder (reads, builds)."""
        self._hand = hand
        self._build = build

    def watch(self, watcher: Callable[[], None]) -> None:
        """`watcher()` runs after every change the hub sees (a board event, a latch, an
        acknowledgement): the ledger's fault hours and the web view read the table then.  It must
        not block (it runs in the pump)."""
        self._watchers.append(watcher)

    def hand_ports(self) -> HandPorts:
        return HubHandPorts(self)

    def build_ports(self) -> BuildPorts:
        return HubBuildPorts(self)

    def enroll_ports(self) -> EnrollPorts:
        return HubEnrollPorts(self)

    # -- running ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Pumps and the seat-text writer; the boards are already open and handshaken."""
        self.loop_watch.start()
        self.worker.start()                          # it maps or builds the win tables meanwhile
        gc.freeze()     # what start-up built lives as long as the table: no full collection scans it again
        self.table.connected()
        self._pumps = [asyncio.create_task(self._pump("motor", self.devices.motor), name="pump-motor"),
                       asyncio.create_task(self._pump("rfid", self.devices.rfid), name="pump-rfid")]
        self._tasks = [*self._pumps, self.guard(asyncio.create_task(self.seat_lines.run(), name="seat-writer")),
                       self.guard(asyncio.create_task(self.service.run(), name="service-page")),
                       self.guard(asyncio.create_task(self.front.run(), name="front-idle")),
                       self.guard(asyncio.create_task(self.lamps.run(), name="lamps"))]
        if self.devices.display is not None:
            watch = DisplayWatch(self.devices.display, self.presenter, on_touch=self.front.touch,
                                 on_silent=self.desk.display_silent, on_back=self.desk.display_back,
                                 on_warning=self._warn)
            self._tasks += [self.guard(asyncio.create_task(watch.events(), name="display-events")),
                            self.guard(asyncio.create_task(watch.pings(), name="display-pings"))]
        await self.self_test()
        self.table.tested()

    async def stop(self) -> None:
        self.loop_watch.stop()
        await self.links.close()
        stopping = [*self._tasks, *self.guarded.background()]
        for task in stopping:
            task.cancel()
        await asyncio.gather(*stopping, return_exceptions=True)
        self._tasks = []
        await self.worker.stop()

    @property
    def applies_events(self) -> bool:
        """Board events are being applied (from `start` until `stop_events` or `stop`)."""
        return any(not task.done() for task in self._pumps)

    async def stop_events(self) -> None:
        """Apply no more board events: a stopping session journals the hand as these left it, and
        what the boards send after stays unacknowledged, for the next start (as after a kill).
        Without this, the players' draws during the stop reached the recorder but not the journal,
        and the next start recorded them again."""
        for task in self._pumps:
            task.cancel()
        await asyncio.gather(*self._pumps, return_exceptions=True)
        self._pumps = []

    async def self_test(self) -> None:
        """The board's constants against the ruleset; the current lifts, hatch, walls and faults."""
        capacity = self.devices.motor.stack_capacity
        needed = max(self.ruleset.stacks_per_side)
        if capacity and needed > capacity:
            self.latch(LatchedFault(FaultCode.CONFIG_MISMATCH, 0,
                                    f"{self.ruleset.region.name} needs {needed} stacks a side; this table builds at most {capacity}",
                                    "controller"))
            raise SetRejected(f"E14: {self.ruleset.id} needs {needed} stacks a side; the motor board builds {capacity}")
        await self.snapshot()
        await self._clear_our_absence()

    async def snapshot(self) -> None:
        """Both boards' whole state (walls, lifts, hatch, latched faults), waited for (asked again
        of a board that rebooted before it was all told)."""
        for source, board in (("motor", self.devices.motor), ("rfid", self.devices.rfid)):
            done = self._snapshots[source]

            async def request(source: str = source, board: MotorBoard | RfidBoard = board) -> None:
                self.faults.roll_call(source)               # what it lists is what it holds
                await board.request_snapshot()
            await self.ask(source, request, lambda: self._snapshots[source] > done)

    async def halt(self) -> None:
        """Stop every motor now (a stop asked of the controller): the motor board's emergency stop.
        The board latches it (E16, unit 0: the host); the next start clears it as its own doing."""
        with contextlib.suppress(LinkError, CommandRejected, asyncio.TimeoutError):
            await asyncio.wait_for(self.devices.motor.emergency_stop(), 1.0)

    async def _clear_our_absence(self) -> None:
        """A board that stopped because this controller went quiet (E13) or was told to stop (E16 from
        the host) is cleared at once; any other latched fault still waits for a person (who clears
        these with it).  Once per latching: at a start the board's queued E13, its snapshot's listing
        of it and the self test each asked, before its FaultCleared came back, and the clearing was
        recorded two or three times."""
        board_faults = [f for f in self.faults.latched() if f.source in BOARDS]
        if board_faults and all((f.code, f.unit) in OUR_ABSENCE for f in board_faults):
            # a board whose link is down is cleared when it is back (its own episode ends here too):
            # waiting for it would hold the other board's events
            sources = sorted({f.source for f in board_faults} - self.links.down - self._absence_asked)
            self._absence_asked.update(sources)
            cleared = []
            for source in sources:
                board = self.devices.motor if source == "motor" else self.devices.rfid
                try:
                    await board.clear_faults()
                except LinkError as error:      # it dropped again: its own episode clears it once back
                    self._absence_asked.discard(source)
                    if not is_episode(error):
                        raise
                    continue
                cleared.append(source)
            if cleared:
                self.recorder.emit("host_lost_cleared", boards=cleared)

    def _absence_gone(self, source: str) -> None:
        """The board `source` holds none of our E13/E16 any more (its FaultCleared came, or its roll
        call no longer lists them): a later latching is cleared (and said) again.  Not before: listed
        once more meanwhile — its queued FaultRaised, its snapshot's roll call, the other one of ours
        — it is the latching the clear already asked for."""
        if not any(f.source == source and (f.code, f.unit) in OUR_ABSENCE for f in self.faults.latched()):
            self._absence_asked.discard(source)

    async def advance(self, trigger: str) -> None:
        """Step the table's lifecycle machine (firmware.machines)."""
        self.table.trigger(trigger)

    # -- waiting ---------------------------------------------------------------------------------

    async def until(self, predicate: Callable[[], Any], timeout: float | None = None) -> Any:
        """Wait until `predicate()` is true (checked after every event); a lost link raises."""
        result: list[Any] = []

        def ready() -> bool:
            if self.link_error is not None:
                return True
            value = predicate()
            if value:
                result.append(value)
            return bool(value)

        async with self._changed, asyncio.timeout(timeout):   # wait_for (3.11) may swallow a cancel
            await self._changed.wait_for(ready)
        if self.link_error is not None:
            raise self.link_error
        return result[0]

    async def next_key(self, panels: Sequence[int], keys: Sequence[Key]) -> Press:
        """The oldest unconsumed press of one of `keys` on one of `panels` (it is consumed)."""
        match = pressed(panels, keys)
        await self.until(lambda: self.keys.peek(match))
        press = self.keys.take(match)
        assert press is not None
        return press

    async def compute(self, fn: Callable[..., T], *args: Any) -> T:
        """CPU-heavy pure work (a hand judged and scored) in the controller's worker process: the loop
        keeps pumping the boards' frames meanwhile, and no other thread holds its GIL (a 河北 hand
        with both wilds takes tens of ms here, seconds on a Pi Zero)."""
        return await self.worker.run(fn, *args)

    def _rules_chosen(self, choice: Choice) -> None:
        """Rules saved on the panel: said on the public line, and shown beside the rules in play until
        they start (taken back: the rules in play alone)."""
        words = self._rules_words(choice)
        self.presenter.note(words)
        # (new house options of the rules in play: 长春麻将→长春麻将 said nothing of what changes)
        waiting = get_region(choice[0]).name if choice[0] != self.ruleset.id else NEW_HOUSE_RULES
        self.presenter.rules_waiting(None if words == RULES_KEPT else waiting)

    def _rules_words(self, choice: Choice) -> str:
        """What the public line says of rules saved on the panel: they start at the next hand, or,
        needing other tiles, once the tiles are changed and the table restarted (新规则下局生效 was
        said of those too: a probe)."""
        region_id, options = choice
        chosen = get_region(region_id).resolve(options)
        if chosen.same_rules_as(self.ruleset):
            return RULES_KEPT               # a choice waiting was taken back
        return RULES_NEXT_HAND if chosen.plays_on_tiles_of(self.ruleset) else f"{chosen.region.name}:{CHANGE_TILES}"

    def _warn(self, message: str) -> None:
        """A warning in the recorder, and so in the log (firmware.table_log)."""
        self.recorder.emit("warning", message=message)

    def _worker_fault(self, why: str) -> None:
        """The scoring worker died during a call: shown, and the call made again in a new one."""
        log.warning("%s", why)
        self.recorder.emit("warning", message=why)

    async def display_drawn(self) -> None:
        """Until the display has drawn what was sent to it before (it answers a ping after them); at
        once without a display, or if it does not answer: a silent display is a fault of its own."""
        if self.devices.display is None:
            return
        try:
            await self.devices.display.ping()
        except (NoResponse, LinkLost, LinkClosed):
            pass

    async def roll_dice(self, count: int) -> tuple[int, ...]:
        while True:
            self._dice = None
            # a fault elsewhere (a lane jammed in the next set's build) does not stop the dice: the hand
            # on the raised walls plays on (a probe: its 宝 waited for the jam to be cleared)
            await self.move(lambda: self.devices.motor.roll_dice(count), lambda: self._dice is not None,
                            blocked=lambda: self.faults.stops_the_dice)
            assert self._dice is not None
            if len(self._dice) == count:
                return self._dice
            self._warn(f"the motor board rolled {len(self._dice)} dice {list(self._dice)} when asked for {count} "
                       "(its firmware may not match this controller): rolled again")

    async def read_zone(self, seat: int) -> tuple[bytes, ...]:
        """The tags lying in the seat's read zone: `ZONE_INVENTORIES` inventories joined.  An inventory
        misses a tag now and then (protocol.md §6); the tags are unique, so joining adds none that is
        not there, and one missed tag no longer refuses a declaration (campaign 360000: a 长春 幺蛋
        refused, then two 诈胡 and a stall)."""
        seen: dict[bytes, None] = {}
        for _ in range(ZONE_INVENTORIES):
            seen.update(dict.fromkeys(await self._inventory(seat)))
        return tuple(seen)

    async def _inventory(self, seat: int) -> tuple[bytes, ...]:
        self._zones.pop(seat, None)
        await self.ask("rfid", lambda: self.devices.rfid.read_zone(seat), lambda: seat in self._zones)
        return tuple(self._zones[seat].uids)

    async def ask(self, source: str, command: Callable[[], Awaitable[None]], answered: Callable[[], bool]) -> None:
        """A command whose answer is an event, until `answered()` (firmware/commands.py)."""
        await self.commands.ask(source, command, answered)

    async def send(self, command: Callable[[], Awaitable[None]]) -> None:
        """A command, across link episodes (firmware/commands.py)."""
        await self.commands.send(command)

    async def motion(self, command: Callable[[], Awaitable[None]], blocked: Callable[[], bool] | None = None, *,
                     busy_is_under_way: bool = False) -> None:
        """A motion command, past faults and the interlock (firmware/commands.py)."""
        await self.commands.motion(command, blocked, busy_is_under_way=busy_is_under_way)

    async def move(self, command: Callable[[], Awaitable[None]], arrived: Callable[[], bool],
                   blocked: Callable[[], bool] | None = None) -> None:
        """A mechanism's move until it `arrived()` (firmware/commands.py)."""
        await self.commands.move(command, arrived, blocked)

    # -- events ----------------------------------------------------------------------------------

    async def _notify(self) -> None:
        self._tell_watchers()
        async with self._changed:
            self._changed.notify_all()

    async def _pump(self, source: str, client: MotorBoard | RfidBoard) -> None:
        """Every event of one board into state; a lost link is an episode (firmware.links), after
        which the events go on from where they stood."""
        while True:
            try:
                while True:
                    event: Message | None = await client.next_event()
                    try:
                        while event is not None:    # a read's events in a row; waiters are told once
                            self._handle(source, event)
                            self._applied(source, client)
                            event = client.received()
                    finally:
                        self._journal_applied()     # …and the journal once (nothing runs in between to look)
                    await self._notify()
            except LinkClosed:
                break
            except LinkError as error:
                await self._notify()                # what was handled before it
                if not is_episode(error):           # no reconnection mends it: shown, and the table stops
                    self.link_error = error
                    self.latch(board_incompatible(error) if isinstance(error, BoardIncompatible) else
                               LatchedFault(FaultCode.BOARD_INCOMPATIBLE, board_unit(source), str(error), "controller"))
                    break
                await self.links.episode(source, client, error)
            except Exception as error:              # a bug: stop the table loudly, never silently
                self._failed(f"{source} event handling failed: {error!r}", error)
                break
        await self._notify()

    def guard(self, task: asyncio.Task) -> asyncio.Task:
        """A task the table cannot do without (firmware.guarded_tasks): its error stops the table."""
        return self.guarded.guard(task)

    async def _lock_hatch(self) -> None:
        """The service hatch latched again once it is closed (a probe: forced open once, it stayed
        unlocked for the rest of the run).  A board that refuses says so in the log; play goes on."""
        try:
            await self.send(lambda: self.devices.motor.hatch_lock(True))
        except CommandRejected as error:
            self._warn(f"the motor board would not lock the service hatch again ({error}): it stays unlocked")

    def _in_background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        self.guarded.start(work, name)

    def _task_failed(self, why: str, error: BaseException) -> None:
        self._failed(why, error)
        asyncio.get_running_loop().create_task(self._notify())

    def _failed(self, why: str, error: BaseException) -> None:
        if isinstance(error, BoardIncompatible):
            # found by a command this task sent as the link came back (a board reflashed, two adapters'
            # names swapped by a replug): the board's, as the pump says it — E26, not a fault of our own
            # (it was a traceback, counted as one: two in a hand voided it)
            if self.link_error is None:
                self.link_error = error
                self.latch(board_incompatible(error))
            return
        if self.link_error is None:
            self.link_error = ControllerFailure(why)
            self.link_error.__cause__ = error
            log.error("%s: the table stops", why, exc_info=error)

    def _applied(self, source: str, client: MotorBoard | RfidBoard) -> None:
        """The event is in the state: the session journals that (`_journal_applied`), and only then
        is it acknowledged."""
        if client.last_mark is not None:
            self.applied[source] = client.last_mark

    def _journal_applied(self) -> None:
        """The events applied are told to the session, once a read's events are all applied: told at
        each event, it looked over both boards' marks each time, and nothing could look in between."""
        if self.on_applied is not None:
            self.on_applied()

    # -- link episodes (firmware.links) ------------------------------------------------------------

    def _link_down(self, source: str, error: LinkError) -> None:
        self.latch(LatchedFault(FaultCode.LINK_LOST, board_unit(source), str(error), "link"))

    async def _link_up(self, source: str, outcome: Reconnected) -> None:
        """A board is back (in a task of its own, beside the pump): caught up, or the table stops loudly
        (a failure here left the walls unread and E23 up, with nothing said)."""
        try:
            await self._caught_up(source, outcome)
        except LinkClosed:
            return                                  # the table is stopping
        except Exception as error:
            self._failed(f"{source} link back failed: {error!r}", error)
            await self._notify()

    async def _caught_up(self, source: str, outcome: Reconnected) -> None:
        if not outcome.resumed:
            await self._resync(source, outcome.rebooted)
        self.recorder.emit("link_back", board=source, resumed=outcome.resumed, rebooted=outcome.rebooted,
                           attempts=outcome.attempts)
        self.desk.clear(FaultCode.LINK_LOST, board_unit(source), "link")
        await self._clear_our_absence()
        await self._notify()

    def _link_session(self, source: str, session: SessionRef) -> None:
        if self.on_link_session is not None:
            self.on_link_session(source, session)

    async def _resync(self, source: str, rebooted: bool) -> None:
        """A board in a new session (or one whose events overflowed its queue): read its state again
        and reconcile the hand."""
        await self.snapshot()
        if source == "motor":
            self.presenter.repaint_seats()          # a rebooted board's seat displays are blank
            self.lamps.relight()                    # and its lamps dark
        if self._hand is not None:
            problem = self._hand.resync(self.wall_sensors)
            if problem is not None:
                self.hand_void = problem
        if source == "motor":
            self._walls_blind = False
            await self._say_keys_lost()

    async def _say_keys_lost(self) -> None:
        """The restart note (keys not answered: press them again), once every seat's line is drawn
        again: a key pressed for the note then answers the question its line shows, never one painted
        again after it (campaign 460050, 长沙: a 确认 pressed on the note, before its 起手小和 question
        was painted again, counted as pressed before the question — dropped, and the table waited)."""
        for side in self.presenter.seat_sides():
            await self.seat_lines.shown(side)
        self.presenter.note(RESTARTED)

    def _link_reset(self, source: str) -> None:
        """A board in a new session lost its state: the build under way is told before its events."""
        self._resets[source] += 1
        self.faults.new_session(source)
        if self._build is not None:
            self._build.board_restarted(source)
        if source == "motor":
            # Until the wall is read again, its changes are only noted: taken before the reads
            # they would be counted ahead of the takes made while the board was down.
            self._walls_blind = True
            # Keys it had not reported are gone with its RAM: as after a restart, the table says so
            # (`_say_keys_lost`, once the seats' lines are drawn again) and every key not yet answered
            # is pressed again (those queued too, or they would count twice).
            record_dropped(self.recorder, self.keys.take_all(), "board_restart")

    def links_up(self) -> bool:
        return not self.links.down

    def _service_facts(self) -> ServiceFacts:
        display = self.devices.display
        return ServiceFacts(self._version, self.ruleset.id, time.monotonic() - self._started_at,
                            {"motor": self.devices.motor.statistics(), "rfid": self.devices.rfid.statistics()},
                            tuple(sorted(self.links.down)), display.statistics() if display is not None else None,
                            tuple(f.label for f in self.faults.latched()), self.card_room())

    def storage_failed(self, error: BaseException) -> None:
        self.desk.storage_failed(error)

    def storage_back(self) -> None:
        self.desk.storage_back()

    async def _write_lamps(self, panel: int, mask: int) -> None:
        await self.send(lambda: self.devices.motor.leds(panel, mask))

    async def _sound_alarm(self) -> None:
        await self.send(lambda: self.devices.motor.buzzer(ALARM, ALARM_MS))

    async def _write_seat_line(self, side: int, line: int, text: str) -> int:
        """One seat line, across link episodes; the events heard before it was shown."""
        heard = NOT_HEARD

        async def write() -> None:
            nonlocal heard
            heard = await self.devices.motor.seat_text(side, line, text)
        await self.send(write)
        return heard

    def _handle(self, source: str, event: Any) -> None:
        reason = implausible(event)
        if reason is not None:              # a board firmware's mistake: said, never applied
            self._warn(f"the {source} board sent {type(event).__name__} with {reason} (dropped; its firmware "
                       "may not match this controller)")
            return
        match event:
            case WallChanged():
                self._wall_changed(StackPos(event.side, event.stack), event.tiles)
            case WallSnapshot():
                self.wall_sensors[event.side] = tuple(event.tiles)
            case KeyPressed():
                self._on_key(event)
            case DiceRolled():
                self._dice = tuple(event.values)
            case ZoneInventory():
                self._zones[event.seat] = event
            case HeadRead() | SlotRead() | BuildDone() | BuildStopped() | ShuffleDone():
                if self._build is not None:
                    self._build.on_build_event(event)
            case LiftMoved():
                self.lifts[event.lift] = event.position
            case HatchChanged():
                self.desk.interlock(bool(event.open))
                if not event.open and not event.locked:     # closed again after it was forced or unlocked
                    self._in_background(self._lock_hatch(), "hatch-lock")
            case FaultRaised():
                self.latch(LatchedFault(event.code, event.unit, board_fault_message(event.code, event.unit, event.detail),
                                        source))
                if event.code == FaultCode.HOST_LOST:           # our silence stopped it: ours to clear
                    self._in_background(self._clear_our_absence(), f"{source}-host-lost-cleared")
            case SnapshotDone():
                self._snapshots[source] += 1
                self.desk.forgotten(source, self.faults.roll_called(source))
                self._absence_gone(source)
            case SafeStop():
                self._halts += 1
                if self._build is not None:
                    self._build.board_halted()
            case FaultCleared():
                self.desk.board_cleared(event.code, event.unit, source)
                self._absence_gone(source)
            case EventsDropped():
                self._events_dropped(source, event.count)

    def _events_dropped(self, source: str, count: int) -> None:
        """The board's queue overflowed while this controller did not take its events (away a long
        while, or holding its acknowledgements through a long E24, while people played on): `count`
        events are gone and its state is read again (protocol.md §3.4).  The motor board's walls are
        read back from its sensors (the takes lost are takes, as after its reboot) and the keys lost
        are asked for again (the restart note; those still queued go, or they would count twice)."""
        message = f"the {source} board's event queue overflowed: {count} event(s) lost; reading its state again"
        log.warning(message)
        self.recorder.emit("warning", message=message)
        if self._build is not None:
            self._build.events_lost(source)
        if source == "motor":
            self._walls_blind = True
            record_dropped(self.recorder, self.keys.take_all(), "events_dropped")
        self._in_background(self._resync(source, rebooted=False), f"{source}-read-again")

    def _wall_changed(self, pos: StackPos, tiles: int) -> None:
        sensors = list(self.wall_sensors.get(pos.wall, ()))
        if pos.stack < len(sensors):
            sensors[pos.stack] = tiles
            self.wall_sensors[pos.wall] = tuple(sensors)
        if self._hand is not None and not self._walls_blind:
            self._hand.on_wall_change(pos, tiles)

    def _on_key(self, event: KeyPressed) -> None:
        try:
            press = Press(event.panel, Key(event.key), event.action == KeyAction.LONG_PRESS,
                          heard=self.devices.motor.last_heard,
                          centre_closed=self.lifts.get(Lift.CENTRE) == LiftPosition.UP)
        except ValueError:
            self.recorder.emit("warning", message=f"panel {event.panel} reported an unknown key {event.key}: ignored")
            return
        if press.front and press.key == Key.STOP:
            return      # the board stopped its motors itself and latched E16, which says so: nothing to answer
        if self.front.key(press):              # 确认 on a fault, the menus (firmware/front.py)
            return
        if self._hand is not None and self._hand.on_key(press):
            return
        pushed_out = self.keys.put(press)
        if pushed_out is not None:
            record_dropped(self.recorder, (pushed_out,), "repeated")

    # -- faults (firmware.fault_desk) --------------------------------------------------------------

    def latch(self, fault: LatchedFault) -> None:
        self.desk.latch(fault)

    def _tell_watchers(self) -> None:
        for watcher in self._watchers:
            watcher()

    async def acknowledge_faults(self) -> None:
        """A person acknowledged: clear the boards' faults whose cause is gone, and ours."""
        self.desk.acknowledged()
        await self.send(self.devices.motor.clear_faults)        # across a link episode: once it is back
        await self.send(self.devices.rfid.clear_faults)
        self.desk.show()
        await self._notify()


def board_unit(source: str) -> int:
    """The unit of a fault about a board's link (E23, E26): 0 the motor board, 1 the RFID board."""
    return 0 if source == "motor" else 1


def monotonic_clock() -> Callable[[], float]:
    """Seconds since this call: the table clock on real boards."""
    start = time.monotonic()
    return lambda: time.monotonic() - start


__all__ = ["TableController", "monotonic_clock"]
