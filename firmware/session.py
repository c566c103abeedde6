"""A session at the table: the first build, then hand after hand with the two sets alternating.

While a hand is played on one set, the other is shuffled and built under the table; at the hand
over the players push the old set in, the plates go down for the new walls and rise.

The session composes the parts: the hub (firmware.controller), the set builder and the hand flow
(each on its ports), the ledger.  It owns the `SessionState`, and one publish step applies a
settled hand to it and then writes ledger → recorder → display, in that order: the ledger first,
so a crash between them never shows a score that was not kept.

Everything the table would need after a restart is journaled in the ledger's database, off the
loop (firmware.records.store): the session's state, the hand in play (after every event of it),
the set checked under the table and the set raised for the next hand.  A restarted session picks
all of it up (`_pick_up`): the session and its totals go on, the hand resumes where it stood (the
takes made meanwhile are read off the wall sensors) or is voided when the walls no longer match.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any, Callable, Sequence

from drivers.table_ui import CHANGE_TILES, CONTROLLER_FAULT_VOID, HAND_VOID, LAST_HAND, RESTARTED, Phase
from rulesets.definition import OptionError, Ruleset, options_text
from rulesets.regions import UnknownRegion, get_region
from rulesets.regions.common import rolls_for_first_dealer

from .between_hands import RAISED_SET_KEY, SetsBetweenHands
from .build.set_builder import SetBuilder
from .build.wall_map import WallMap
from .controller import TableController
from .crash_count import CRASHES_BEFORE_VOID, CrashCount
from .faults import LatchedFault
from .hand.flow import HandFlow
from .hand.ports import HandVoided, record_dropped
from .hand.state import HandState
from .hand.wins import HandOutcome
from .journal import HandJournal
from .plates import Plates
from .presenter import DisplayMirror
from .records.ledger import HAND_KEY, RECORDER_KEY, SESSION_KEY, HandRecord, Ledger
from .records.recorder import RecorderFiles
from .records.store import WRITE_ERRORS, Store
from .journal_at_start import CHAIN_KEY, JournalAtStart, JournalUnreadable
from .session_upkeep import FaultHours, Upkeep
from .state import SessionState
from .table_log import log_table

log = logging.getLogger("firmware.session")


async def _through_a_stop(committed: "asyncio.Future[Any]") -> bool:
    """Wait for the ledger's commit of a hand even when the session is stopped meanwhile (SIGTERM
    cancels it): the ledger then holds the hand, and its `hand_end` must follow it into the recorder,
    or the recorder left behind is one the ledger contradicts.  True when a stop came: the caller
    writes the end, then stops."""
    stopped = False
    while True:
        try:
            await asyncio.shield(committed)
            return stopped
        except asyncio.CancelledError:
            if committed.cancelled():
                raise
            stopped = True


def _scored_items(hand: HandState | None) -> tuple[dict, ...]:
    """What each win (or a draw's settlement) was made of, for the ledger's history."""
    if hand is None:
        return ()
    scored = [(w.seat, w.payout.items) for w in hand.wins]
    if hand.draw is not None and hand.draw.items:
        scored.append((None, hand.draw.items))
    scored += [(extra.seat, extra.items) for extra in hand.facts.extras if extra.items]   # 起手小和, 跟庄, the round
    return tuple({"seat": seat, "items": [{"name": i.zh, "pinyin": i.pinyin, "value": i.value, "unit": i.unit}
                                          for i in items]} for seat, items in scored)


class SessionFeed:
    """What anyone may see of the table, read-only (firmware.web.live.TableFeed): the presenter's
    public mirror, the session state, the lifecycle, the latched faults, the recorder's events."""

    def __init__(self, session: "TableSession") -> None:
        self._session = session

    def mirror(self) -> DisplayMirror:
        return self._session.hub.presenter.public_mirror()

    def session_state(self) -> SessionState | None:
        return self._session.state

    def ruleset(self) -> Ruleset:
        return self._session.hub.ruleset

    def lifecycle(self) -> str:
        return str(self._session.hub.table.state)

    def faults(self) -> tuple[LatchedFault, ...]:
        return self._session.hub.faults.latched()

    def listen(self, on_event: Callable[[dict[str, Any]], None], on_change: Callable[[], None]) -> None:
        hub = self._session.hub
        hub.recorder.listen(on_event)
        hub.presenter.listen(on_change)
        hub.watch(on_change)


class TableSession:
    def __init__(self, controller: TableController, ledger: Ledger, hands: int | None = None, *,
                 store: Store | None = None, resume: bool = True, recorder_files: RecorderFiles | None = None) -> None:
        """`recorder_files`: where the recorder's file is the events folder's, a new one each day."""
        self.hub = controller
        self.ledger = ledger
        self.hands = hands
        self.played = 0
        self.store = store if store is not None else Store()
        self._own_store = store is None
        self.builder = SetBuilder(controller.build_ports())
        self.flow = HandFlow(controller.hand_ports())
        self.plates = Plates(controller, self.flow.take_note)
        controller.attach(hand=self.flow, build=self.builder)
        self.journal = HandJournal(controller, ledger, self.store, lambda: self.flow.hand, (RAISED_SET_KEY,))
        controller.on_link_session = lambda source, session: self.journal.changed()
        controller.on_applied = self.journal.changed
        controller.journal_now = self.journal.now
        controller.panel.write_with(self.store)     # the panel's saved choice goes to disk with the table's writes
        log_table(controller)                       # a line per phase, fault, set check, link episode, hand
        controller.recorder.listen(self.journal.on_event)
        self.state: SessionState | None = None
        self.sets = SetsBetweenHands(controller, self.builder, self.plates, self.journal, ledger, self.store,
                                     self._state, self._rules_chosen_meanwhile)
        self._deferred: Ruleset | None = None       # this run's rules, waiting for the resumed hand to end
        self.crashes = CrashCount(self.store, ledger)     # stops by a fault of its own, per hand (journaled)
        self._resume = resume       # False: the boards are new (a fresh simulator): the journal is not theirs
        self._hand_started: float | None = None
        self.upkeep = Upkeep(controller, ledger, self.store, self.journal, recorder_files, self._session_id)
        self.fault_hours = FaultHours(controller, ledger, self.store, self._session_id)

    async def run(self) -> int:
        """Play `hands` hands (or until cancelled); return how many were played."""
        hub = self.hub
        hub.recorder.hold_lines()                   # a hand's lines reach the file behind its journal
        self.store.watch(hub.storage_failed)        # a disk that refuses writes: E24 until one lands again
        at_start = JournalAtStart(self.store, self.ledger)
        saved = at_start.readable(await self.store.run(self.ledger.journal))
        if not self._resume:            # new boards: only the ledger's own (its session, the hand, the chain)
            saved = {key: saved[key] for key in (SESSION_KEY, HAND_KEY, CHAIN_KEY, RECORDER_KEY) if key in saved}
        self.crashes.load(saved)
        await at_start.ledger_not_behind(saved)
        head = await at_start.chain_head(saved)
        if head is not None:
            hub.recorder.continue_chain(head)       # this recorder goes on from the last one
        for line in at_start.warnings:              # (once the chain is known: the first line starts it)
            hub.recorder.emit("warning", hand=0, message=line)
        # named before this file seals a hand, and waited for through a card that refuses it: a start
        # on a full card that lost it left the next run going on from the file before (campaign 270043)
        if self.ledger.events is not None:
            await self.journal.written(self.ledger.journal_put, RECORDER_KEY, {"path": self.upkeep.recorder_file(),
                                                                               "chain": head})
        else:                                       # no file this run (stdout): the journal's head is the one
            await self.journal.written(self.ledger.journal_drop, RECORDER_KEY)
        # the journal runs before the hub: the boards' first events (the snapshot) wait for it to be acknowledged
        self.journal.start(saved)
        try:
            await hub.start()
            self.journal.changed()                  # the sessions the boards opened (or resumed)
            self.upkeep.start()
            if HAND_KEY not in saved:
                hub.presenter.phase(Phase.IDLE)         # a hand being resumed keeps its screens
            below, standing = await self._pick_up(saved)
            if self._enough():
                return await self._finish()
            chosen = self._chosen_ruleset()             # (rules deferred while a resumed hand was finished)
            if chosen is not None:
                await self._open_session(chosen)
            if below is None and standing is None and self.sets.rejected is None:
                if hub.table.state == "settling":       # a resumed hand was played: its next set is under way
                    below = await self.sets.built_or_build()
                else:
                    below = await self.sets.first_build()
            while True:
                if below is None and standing is None:  # the set built for this hand was rejected
                    below = await self.sets.first_build()
                if hub.table.state == "settling":
                    await hub.advance("next_hand")
                elif hub.table.state == "idle":
                    await hub.advance("restore_set")
                if standing is None:
                    if not await self.sets.hand_over(below):
                        below = None                    # not there when it rose: built anew
                        continue
                    standing, below = below, None
                await self.upkeep.new_day_new_file()
                if below is None:
                    self.sets.build_beside()
                # rules saved at the push-in or while the walls rose are this hand's: 新规则下局生效 said so,
                # and the hand after played them (a probe: hand 5 paid 杠 at the old value)
                chosen = self._chosen_ruleset()
                if chosen is not None:
                    await self._open_session(chosen)
                state = self._state()
                roll_for_dealer = await self._first_dealer_by_dice(state)
                self._hand_started = self.ledger.clock()
                await self._settle(self.flow.play(standing, number=state.hand_number + 1, dealer=state.dealer,
                                                  totals=state.totals, repeats=state.dealer_repeats,
                                                  started=self._hand_started, recorder=self.upkeep.recorder_file(),
                                                  roll_for_dealer=roll_for_dealer))
                standing = None
                if self.sets.under_way:
                    below = await self.sets.next_built()
                if self._enough():
                    return await self._finish()
                chosen = self._chosen_ruleset()
                if chosen is not None:
                    await self._open_session(chosen)
        except asyncio.CancelledError:
            await hub.halt()                            # asked to stop: motion first; the journal keeps the hand
            raise
        except Exception as error:
            if self.flow.hand is not None and self.state is not None:
                await self.crashes.count(error, self.state.session_id, self.flow.hand.number)
            raise
        finally:
            await self._stop_tasks()
            await hub.stop_events()                     # the hand stands still while it is journaled
            try:
                await self.journal.at_stop(self.state.session_id if self.state is not None else None)
                hub.recorder.release_lines(keep_holding=False)
                if self.state is not None:
                    self.upkeep.look_at_clock()         # a step since the last look (queued before the end)
                    await self.store.run(self.ledger.end_session, self.state.session_id)
            except WRITE_ERRORS as error:               # logged by the store; the stop goes on
                log.error("stopping with the disk refusing writes (%s): the next start reads the boards for what "
                          "the journal does not hold", error)
            await hub.stop()
            if self._own_store:
                self.store.close()

    def _enough(self) -> bool:
        return self.hands is not None and self.played >= self.hands

    async def _finish(self) -> int:
        if self.hub.table.state == "settling":
            await self.hub.advance("finish")
        return self.played

    async def _stop_tasks(self) -> None:
        tasks = self.sets.tasks() + self.upkeep.tasks()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, self.journal.stop(), return_exceptions=True)

    def public_feed(self) -> SessionFeed:
        """The read-only public view of this table, for the web server (firmware/web)."""
        return SessionFeed(self)

    async def _first_dealer_by_dice(self, state: SessionState) -> bool:
        """Whether this hand begins with the roll for the first dealer: the rules choose it by dice
        (house option first_dealer) and the session has no hand in the ledger yet (a void one counts:
        its dealer deals again)."""
        if not rolls_for_first_dealer(dict(self.hub.ruleset.options)):
            return False
        return await self.store.run(self.ledger.hands, state.session_id) == 0

    def _session_id(self) -> int | None:
        return self.state.session_id if self.state is not None else None

    def _state(self) -> SessionState:
        assert self.state is not None, "a session is open before any hand"
        return self.state

    # -- the publish step ----------------------------------------------------------------------

    async def _settle(self, hand_played) -> None:
        """A hand to its end: published, or voided if a board's restart left walls that contradict it."""
        try:
            outcome = await hand_played
        except HandVoided as voided:
            hand = self.flow.hand
            assert hand is not None
            self.hub.hand_void = None
            await self.hub.advance("void")
            self._drop_unanswered()
            await self._void(hand, voided.reason, voided.note)
            self.flow.close()
            if voided.__cause__ is not None:        # (the scoring's fault: its words, now that the hand is over)
                log.error("hand %d could not be scored: %r; it is void, to be settled by hand", hand.number,
                          voided.__cause__)
            return
        await self.publish(outcome)

    async def publish(self, outcome: HandOutcome) -> SessionState:
        """Apply a settled hand: the session state, then ledger → recorder → display."""
        self.upkeep.look_at_clock()             # a step in the hand: kept before its finish
        hub = self.hub
        before = self._state()
        after = before.after(outcome, hub.ruleset)
        with self.journal.settling():
            record = HandRecord(outcome.number, outcome.dealer, outcome.result, outcome.winners, outcome.payments,
                                outcome.wall_hash, self._hand_started, _scored_items(self.flow.hand),
                                tuple(self.flow.hand.recorders) if self.flow.hand else ())
            stopped = await self._ledger_commit(lambda: self.store.queue(self.ledger.record_hand, after.session_id,
                                                                         record, after.to_json()))
            self.state = after
            self._drop_unanswered()
            hub.recorder.emit("hand_end", result=outcome.result, winners=list(outcome.winners),
                              payments=list(outcome.payments), totals=list(after.totals), next_dealer=after.dealer,
                              loop_lag_ms=hub.loop_watch.take_worst(), **outcome.end_fields)
            hub.recorder.close_hand()
            self.journal.put(CHAIN_KEY, {"head": hub.recorder.chain_head()})
            self.flow.close()
        if stopped:
            raise asyncio.CancelledError()
        self.played += 1
        self._show_settled(outcome, after)
        self.upkeep.look_at_space()
        return after

    def _drop_unanswered(self) -> None:
        """Keys pressed in the hand that answered nothing (the front panel's 确认, 升降, ◀ ▶ in play …)
        are recorded with the hand as it ends.  Before, they waited in the queue: a one-hand run never
        recorded them, and a longer one only at the next hand over, as pressed between hands."""
        record_dropped(self.hub.recorder, self.hub.keys.take_all(), "in_play")

    async def _void(self, hand: HandState, reason: str, note: str = HAND_VOID) -> None:
        """A hand that can no longer be trusted, or scored: no payments, the same dealer, said on the
        display (`note`)."""
        self.upkeep.look_at_clock()             # a step in the hand: kept before its finish
        hub = self.hub
        before = self._state()
        after = replace(before, dealer=hand.dealer, hand_number=max(before.hand_number, hand.number))
        with self.journal.settling():
            record = HandRecord(hand.number, hand.dealer, "void", (), (0, 0, 0, 0), hand.wall_hash(), hand.started,
                                recorders=tuple(hand.recorders))
            stopped = await self._ledger_commit(lambda: self.store.queue(self.ledger.record_hand, after.session_id,
                                                                         record, after.to_json()))
            self.state = after
            hub.recorder.open_hand(hand.number)
            hub.recorder.emit("hand_void", reason=reason)
            hub.recorder.emit("hand_end", result="void", winners=[], payments=[0, 0, 0, 0], totals=list(after.totals),
                              next_dealer=after.dealer, **hand.hand_end_fields())
            hub.recorder.close_hand()
            self.journal.put(CHAIN_KEY, {"head": hub.recorder.chain_head()})
        if stopped:
            raise asyncio.CancelledError()
        for seat in hand.ruleset.players:                  # a question it was asking is void with it
            hub.presenter.prompt(seat, "")
        hub.presenter.phase(Phase.HAND_OVER, note)          # the reason, in English, is in the log
        hub.presenter.carry(note.replace("本局", LAST_HAND, 1))  # …and with the push-in next: 上局作废 …

    async def _ledger_commit(self, queue_write: Callable[[], "asyncio.Future[Any]"]) -> bool:
        """A hand's ledger row, committed through a stop (`_through_a_stop`, whose answer this is) and
        through a disk that refuses it for a while (E24 shown meanwhile: tried again until it lands).
        The hand's last recorder lines are queued right behind the first try."""
        first = [queue_write()]                  # the first try, queued before the recorder's lines
        self.hub.recorder.release_lines()
        return await self.journal.until_landed(lambda: _through_a_stop(first.pop() if first else queue_write()))

    def _show_settled(self, outcome: HandOutcome, state: SessionState) -> None:
        presenter = self.hub.presenter
        presenter.scores(state.totals)
        presenter.dealer(state.dealer, state.dealer_repeats)
        result = self._result_words(outcome.result, outcome.winners)
        presenter.phase(Phase.HAND_OVER, result)
        presenter.carry(LAST_HAND + result)             # …and with the push-in asked next, which replaces it at once
        for side in self.hub.ruleset.players:
            presenter.seat_status(side, side == state.dealer, state.totals[side])
            if side not in outcome.winners:
                presenter.prompt(side, "")              # a winner keeps "胡 +N" until the next hand

    def _result_words(self, result: str, winners: Sequence[int]) -> str:
        """A hand's result as the public line says it: 胡 and the winners by the winds the page shows
        now (the deal may have passed: named by the hand's own dealer, the line sent players to the
        wrong seat), 荒庄, or 作废."""
        if result == "void":
            return "作废"
        return "荒庄" if not winners else "胡 " + " ".join(self.hub.presenter.seat_name(w) for w in winners)

    # -- sessions and the front panel's choice ---------------------------------------------------

    async def _open_session(self, ruleset: Ruleset) -> None:
        """A new ledger session (at the start, or when the panel chose rules playable with these tiles):
        scores from zero, the first side deals; hand numbers go on, so a recorder never repeats one."""
        hub = self.hub
        hub.ruleset = ruleset
        if self.state is not None:
            self.store.submit(self.ledger.end_session, self.state.session_id)
            self.fault_hours.session_changed()
        session_id = await self.journal.written(self.ledger.start_session, ruleset.id, dict(ruleset.options))
        self.state = SessionState.new(session_id, ruleset, self.state.hand_number if self.state else 0)
        # waited for as its ledger row is: a session the journal lacks is opened anew by a restart,
        # and the hand begun on it would be lost
        await self.journal.written(self.ledger.journal_put, SESSION_KEY, self.state.to_json())
        hub.recorder.emit("session_start", hand=0, ruleset=ruleset.id, options=dict(ruleset.options),
                          session=session_id)
        self._show_session()

    def _show_session(self, dealer: int | None = None) -> None:
        """The session on the screens, the seats' own displays too: a restarted controller has
        written none of their lines yet, and a motor board that rebooted while it was down shows
        them blank (the players find the dealer there: 庄).  `dealer`: the hand in play's, if not
        the session's."""
        state = self._state()
        dealer = state.dealer if dealer is None else dealer
        presenter = self.hub.presenter
        presenter.ruleset(self.hub.ruleset.region.name, self.hub.ruleset.players)
        presenter.scores(state.totals)
        presenter.dealer(dealer, state.dealer_repeats)
        for side in self.hub.ruleset.players:
            presenter.seat_status(side, side == dealer, state.totals[side])

    def _chosen_ruleset(self, other_tiles_too: bool = False) -> Ruleset | None:
        """The ruleset chosen on the panel (or this run's, deferred while a hand of the rules before it
        was finished), if it can be played with the tiles on the table now (`other_tiles_too`: no set
        stands on the table, the next build is checked against it) and is not the one in play (a menu
        saved unchanged starts no new session: a probe saw the scores go to zero and the first dealer
        rolled again)."""
        choice = self.hub.panel.take_choice()
        deferred, self._deferred = self._deferred, None
        if choice is None and deferred is None:
            return None
        chosen = get_region(choice[0]).resolve(choice[1]) if choice is not None else deferred
        assert chosen is not None
        current = self.hub.ruleset
        if chosen.same_rules_as(current):
            return None
        if not (other_tiles_too or chosen.plays_on_tiles_of(current)):     # said with the next phase: the push-in's wrote over it at once
            self.hub.presenter.carry_also(f"{chosen.region.name}: {CHANGE_TILES}")
            self.hub.recorder.emit("warning", hand=0, message=f"{chosen.id} needs another tile set ({chosen.tiles.name}): "
                                                              "change the tiles and restart the table")
            return None
        return chosen

    async def _rules_chosen_meanwhile(self) -> None:
        """Rules chosen on the panel while a rejected set waited for a person are the next build's,
        other tiles too: no hand stands on the table, and the build is checked against them.  A table
        stuck on rules its tiles cannot play (四川 chosen on a 136-tile table, E07 at every build) never
        took the 长春 chosen again, until a restart (a probe)."""
        chosen = self._chosen_ruleset(other_tiles_too=True)
        if chosen is not None:
            await self._open_session(chosen)

    # -- after a restart ---------------------------------------------------------------------------

    async def _new_table(self, session: SessionState | None, saved: dict[str, dict]) -> None:
        """New boards on this ledger (the built-in simulator is a new table each run): a hand the run
        before left in play is voided — its tiles went with that table — as a restart voids a hand
        whose walls no longer match; a new session opens, its hands numbered on and its recorder
        going on from the last.  (A new chain, and the old hand left open, read as a recorder missing
        and a session begun inside a hand to `audit` of the ledger's files: a probe.)"""
        if session is not None:
            self.state = session
            if HAND_KEY in saved:
                try:
                    await self._void(self._journaled_hand(saved), "a new table: the run before left it in play")
                except JournalUnreadable as error:      # another version's: the new table goes on without it
                    self.hub.recorder.emit("warning", hand=0, message=f"{error}; not voided: this is a new table")
        self.sets.drop()
        await self._open_session(self.hub.ruleset)

    async def _pick_up(self, saved: dict[str, dict]) -> tuple[WallMap | None, WallMap | None]:
        """Go on from the journal: the session, the hand in play, the sets.  Returns the checked set
        waiting below and the checked set standing on the table (each None when there is none)."""
        hub = self.hub
        session = SessionState.from_json(saved[SESSION_KEY]) if SESSION_KEY in saved else None
        if not self._resume:
            await self._new_table(session, saved)
            return None, None
        # the same rules read with this version's defaults: an upgrade that added a house option (its
        # default the rules played before) opened a new session, the scores back to zero (a probe)
        same_rules = session is not None and session.ruleset_id == hub.ruleset.id and \
            hub.ruleset.region.same_options(dict(session.options), dict(hub.ruleset.options))
        if not same_rules and session is not None and HAND_KEY in saved:
            same_rules = self._defer_rules(session)
        if not same_rules:
            self.state = session            # (its hand numbers go on in the new session: not 1 again)
            if session is not None and HAND_KEY in saved:
                await self._void(self._journaled_hand(saved), "the rules were changed")
            self.sets.drop()
            await self._open_session(hub.ruleset)
            return None, None
        self.state = self._read_by_this_version(session)
        in_play = self._journaled_hand(saved) if HAND_KEY in saved else None
        # its dealer is the one at the table: the session's is not yet, in a first hand whose dealer
        # the dice chose (a probe: 庄 on seat 0's line and in the log while seat 1 dealt)
        dealer = in_play.dealer if in_play is not None else session.dealer
        self.flow.note = RESTARTED          # the next phase shown says so: a key pressed as it stopped is pressed again
        if HAND_KEY not in saved:           # … so one from before does not count (a resumed hand sorts its own)
            record_dropped(hub.recorder, hub.keys.take_all(), "restart")
        self.store.submit(self.ledger.resume_session, session.session_id)
        last = await self.store.run(self.ledger.last_hand, session.session_id)     # its hand_end may be cut off
        hub.recorder.emit("session_resumed", hand=0, session=session.session_id, ruleset=session.ruleset_id,
                          options=dict(session.options), totals=list(session.totals), dealer=dealer,
                          **({"last_hand": last} if last is not None else {}))
        self._show_session(dealer)
        if last is not None and HAND_KEY not in saved:      # between hands: the push-in says it, as it did
            self.hub.presenter.carry(LAST_HAND + self._result_words(last["result"], last["winners"]))
        below, standing = await self.sets.pick_up(saved)
        if in_play is not None:
            await self._resume_hand(in_play)
        return below, standing

    def _journaled_hand(self, saved: dict[str, dict]) -> HandState:
        """The hand in play, as the journal holds it.  Options written by another version and unknown to
        this one are said (it is finished without them); a hand this version cannot read at all (a newer
        one's state) stops the start with one line saying what to do, not a traceback at every start (a
        probe: a downgrade in mid-hand left a table that could never start)."""
        data = saved[HAND_KEY]
        try:
            region = get_region(data["ruleset"])
            unknown = region.known_options(dict(data["options"]))[1]
            hand = HandState.from_json(data)
        except (KeyError, TypeError, ValueError, AttributeError) as error:     # (UnknownRegion is a KeyError)
            number = data.get("number", "?") if isinstance(data, dict) else "?"
            raise JournalUnreadable(f"the hand in play (hand {number}) was journaled by another version of the "
                                    f"controller and this one cannot read it ({error}): start the version that "
                                    "wrote it to finish the hand, then change versions between hands") from None
        if unknown:
            self.hub.recorder.emit("warning", hand=0, message=f"hand {hand.number} was begun with options this version "
                                   f"does not know ({options_text(unknown, ', ')}): it is "
                                   "finished without them")
        return hand

    def _read_by_this_version(self, session: SessionState) -> SessionState:
        """The session's rules as this version writes them (its defaults filled in); options it does not
        know (written by another version: a downgrade) are said, and played without."""
        _, unknown = self.hub.ruleset.region.known_options(dict(session.options))
        if unknown:
            self.hub.recorder.emit("warning", hand=0, message=f"session {session.session_id} was opened with options "
                                   f"this version does not know ({options_text(unknown, ', ')}): "
                                   "it goes on without them")
        return replace(session, options=tuple(self.hub.ruleset.options))

    def _defer_rules(self, session: SessionState) -> bool:
        """A hand of other rules is journaled (rules chosen on the panel while it was played, then a
        restart, which starts with the choice): it is finished under its own rules, and this run's
        apply from the next hand, as the choice would have without the restart.  Returns whether so.
        Rules needing other tiles too: the hand's tiles are on the table, and it was voided, its money
        gone, by a choice nobody can play before the tiles are changed (a probe: 四川 chosen on a 长春
        table, then a power cut); after it, they are asked for (`_chosen_ruleset`)."""
        try:
            journaled = get_region(session.ruleset_id).resolve(dict(session.options))
        except (UnknownRegion, OptionError):            # (rules this version no longer has)
            return False
        self._deferred, self.hub.ruleset = self.hub.ruleset, journaled
        self.hub.recorder.emit("warning", hand=0, message=f"the hand in play was begun under {journaled.id} "
                                                          f"{dict(journaled.options)}: it is finished under them, and "
                                                          f"{self._deferred.id} {dict(self._deferred.options)} starts "
                                                          "at the next hand")
        return True

    async def _resume_hand(self, hand: HandState) -> None:
        self._hand_started = hand.started          # when it began, in the run before (None: journaled by an older one)
        here = self.upkeep.recorder_file()
        # journaled with it before this run writes a line of it; a hand whose list is empty was begun
        # by an older controller (or with no file): its page goes on finding its files by their names
        if here is not None and hand.recorders and hand.recorders[-1] != here:
            hand.recorders.append(here)
        crashes = self.crashes.in_hand(self._state().session_id, hand.number)
        if crashes >= CRASHES_BEFORE_VOID:
            await self._void(hand, f"the controller stopped {crashes} times in this hand by a fault of its own (the "
                                   "log says which): it is not resumed again", CONTROLLER_FAULT_VOID)
            return
        unseen, problem = hand.blind_changes(self.hub.wall_sensors)
        if problem is not None:
            await self._void(hand, problem)
            return
        hand.recount_standing(self.hub.wall_sensors)
        await self._settle(self.flow.resume(hand, totals=self._state().totals, cause="restart", blind=unseen))
