"""Play, from `请出牌` to the end of the hand: draws, flowers, kongs, claims, 听, wins, 荒庄.

The controller sees only what leaves the wall and the keys, so the players run the turn order
among themselves as people do; they turn to the screens to wait for prompts (胡, 宝) and for the
end of the wall (`最后一张`).  Every physical act is preceded by `Crew.pause`, which gives the
controller its turn and stops the hand when the screens say it is over.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

from drivers.motor_protocol import Key
from drivers.table_ui import ADDED_KONG, ROLL_BAO, Phase, relative_name
from rulesets.hand import MeldKind
from rulesets.tiles import Tile

from .brain import Claim, Discard, SelfKong, think
from .crew import OVER, Crew
from .knowledge import TableView
from .mistakes import Mistakes
from .player import Player
from .prompts import WinClaim, answer_win
from .rules import WinFacts
from .screen import Screen
from .wall import LiveWall

TING = "听"          # the end of a ready seat's status line ("闲 +3 听")
QUESTION_ANSWERED_WITHIN_S = 10.0    # real seconds: a question on his line at 最后一张 is answered first
# real seconds: a 换宝's new 宝 shows within a roll of the dice (1.2 s at speed 1) and a link's round
# trip; a wall where none can be found must not stall the hand
NEW_BAO_SHOWN_WITHIN_S = 30.0


@dataclass(frozen=True)
class Next:
    """Who acts next, and how."""

    seat: int = 0
    drawn: bytes | None = None       # a tile just drawn (None: must discard without drawing)
    kong_draw: bool = False          # the drawn tile replaced a kong (杠上开花)
    need_draw: bool = True
    over: bool = False               # the hand ended (a win, or the screens say so)
    exhausted: bool = False          # the last live tile went by: 荒庄 unless someone won


class HandPlay:
    def __init__(self, crew: Crew, wall: LiveWall, view: TableView, mistakes: Mistakes | None = None) -> None:
        self.crew = crew
        self.mistakes = mistakes
        self.wall = wall
        self.view = view
        self.players = crew.players
        self.brain = crew.brain
        self.rules = crew.rules
        self.play = crew.ruleset.play
        self.won = False
        self.drawn = False                 # 荒庄 confirmed
        self._bao_asked: set[Tile] = set()
        self.asks_kong_giver = crew.ruleset.has_phase("kong_giver")
        self.shows_liang = crew.ruleset.has_phase("liang_pai")

    # -- what the players know ------------------------------------------------------------------

    def wilds_for(self, player: Player) -> tuple[Tile, ...]:
        return self.brain.wilds(player, self.view)

    def facts(self) -> WinFacts:
        view = self.view
        return WinFacts(view.dealer, view.ready_sides(), view.kongs_by_side(), view.exposed_by_side())

    def flower_kinds(self) -> frozenset[Tile]:
        return self.rules.flowers(self.view.wilds)

    def can_kong(self) -> bool:
        """A kong leaves a live tile and has a replacement to take: 云南's shown 尾牌 go to a 杠上开花
        (「不能杠上开花的从最后面未翻开的取牌」) and, with every unshown tail tile gone, to any kong only
        where the table's option says so (weipai_wall_end=drawn_last); otherwise a person makes none."""
        return self.wall.live > 0 and self.wall.live_after_kong() >= 1 and self.wall.replacement() is not None

    # -- the hand ---------------------------------------------------------------------------------

    async def run(self) -> None:
        await self.opening_flowers()
        self.brain.live_at_start = self.wall.live
        step = Next(self.view.dealer, self.players[self.view.dealer].last_drawn, need_draw=False)
        last = self.view.dealer
        while True:
            seat = step.seat
            drawn, kong_draw = step.drawn, step.kong_draw
            if step.need_draw:
                if self.wall.live <= 0:
                    await self.exhausted(last)
                    return
                await self.crew.pause()
                drawn = await self.draw(seat)
                kong_draw = False
                if drawn is None:            # a flower with nothing left to replace it
                    await self.exhausted(seat)
                    return
            step = await self.turn(seat, drawn, kong_draw)
            if step.over:
                return
            last = seat                      # who acted last: he confirms a 荒庄
            if step.exhausted:
                await self.exhausted(seat)
                return

    async def turn(self, seat: int, drawn: bytes | None, kong_draw: bool) -> Next:
        player = self.players[seat]
        while True:
            await self.crew.pause()
            self.refresh()
            asked = self.change_dead_bao()
            if asked is not None:
                await self.new_bao_shown(*asked)
                self.refresh()
            if drawn is not None and drawn in player.hand and self.self_win(player, drawn, kong_draw):
                claim = self.claim_for(player, None, player.hand[drawn], None)
                accepted, over = await self.declare_wins([claim])
                if over:
                    return Next(over=True)
                if accepted:
                    return self.after_self_win(player, drawn)
            if drawn is None:
                break
            if self.shows_liang:                     # 沈阳 亮牌 right after one's draw (answers.py)
                shown, replacement = await self.crew.answers.show_liang(seat, self.can_kong())
                if shown:
                    drawn, kong_draw = (replacement, True) if replacement is not None else (drawn, kong_draw)
                    continue
            kong = self.brain.self_kong(player, self.view, self.can_kong())
            if kong is None:
                break
            drawn = await self.self_kong(player, kong)
            kong_draw = True
            if drawn is None:
                break
        discard = await think(self.brain.discard_thoughts(player, self.view, self.wall.live, self.facts))
        if discard.declare:
            await self.declare_ready(player)
        await self.crew.pause()
        player.give(discard.uid)
        self.view.seats[seat].discards.append(discard.kind)
        self.view.discard_log.append((seat, discard.kind))
        self.crew.log(seat, "discard", str(discard.kind))
        return await self.after_discard(seat, discard)

    # -- draws ----------------------------------------------------------------------------------

    async def draw(self, seat: int, *, tail: bool = False, kong: bool = False) -> bytes | None:
        """A head draw (or a tail draw for a kong); flowers are set aside and replaced."""
        player = self.players[seat]
        if not tail and self.mistakes is not None:      # (None: players who make none, for tests)
            await self.mistakes.before_draw(seat, self.wall)
        uid = self.wall.take_tail(kong, self.winning_shown_tile(player) if kong else None) if tail else self.wall.take_head()
        kind = player.receive(uid)
        self.crew.log(seat, "tail" if tail else "draw", "kong" if kong else "")
        while kind in self.flower_kinds():
            self.set_flower_aside(player, uid, kind)
            if self.wall.remaining <= 0:
                return None
            await self.crew.pause()
            uid = self.wall.take_tail(False)
            kind = player.receive(uid)
            self.crew.log(seat, "tail", "flower")
        player.last_drawn = uid
        return uid

    def winning_shown_tile(self, player: Player):
        """云南 尾牌: a shown tail tile that would make this kong's replacement a 杠上开花 (else None:
        the replacement is the last tile not shown)."""
        for slot, kind in self.wall.shown_on_top():
            if self.legal_win(player, player.kinds() + [kind], kind, None,
                              kong_replacement=True, last_tile=self.wall.live_after_kong() <= 0):
                self.crew.log(player.seat, "weipai", str(kind))
                return slot
        return None

    def set_flower_aside(self, player: Player, uid: bytes, kind: Tile) -> None:
        player.give(uid)
        player.flowers.append(uid)
        self.view.seats[player.seat].flowers.append(kind)
        self.crew.stats.flowers += 1
        self.crew.log(player.seat, "flower", str(kind))

    async def opening_flowers(self) -> None:
        """补花 after the deal: dealer first, each replaces every flower from the tail."""
        if not self.flower_kinds():
            return
        seat = self.view.dealer
        for _ in self.view.sides:
            player = self.players[seat]
            while True:
                found = next(((u, k) for u, k in player.hand.items() if k in self.flower_kinds()), None)
                if found is None or self.wall.remaining <= 0:
                    break
                await self.crew.pause()
                self.set_flower_aside(player, *found)
                uid = self.wall.take_tail(False)
                player.receive(uid)
                player.last_drawn = uid
                self.crew.log(seat, "tail", "flower")
            seat = self.view.next_seat(seat)

    # -- kongs ----------------------------------------------------------------------------------

    async def self_kong(self, player: Player, kong: SelfKong) -> bytes | None:
        """A concealed kong (long press 杠) or an added kong (press 杠), then the tail draw."""
        await self.crew.pause()
        self.crew.press(player.seat, Key.KONG, long=kong.concealed)
        if not kong.concealed and self.asks_kong_giver:
            self.crew.answers.expect_kong(player.seat, ADDED_KONG)
        if kong.concealed:
            meld = player.add_meld(MeldKind.CONCEALED_KONG, list(kong.uids))
            self.view.seats[player.seat].melds.append(meld)
        else:
            meld = player.add_to_pung(kong.uids[0])
            melds = self.view.seats[player.seat].melds
            index = next(i for i, m in enumerate(melds) if m.kind is MeldKind.PUNG and m.kind_tile == kong.kind)
            melds[index] = meld
        self.crew.stats.kongs += 1
        # (a concealed kong's kind is face down: the journal the control channel serves does not name it)
        self.crew.log(player.seat, "kong", "concealed" if kong.concealed else f"added {kong.kind}")
        await self.crew.pause()
        return await self.draw(player.seat, tail=True, kong=True)

    # -- after a discard ------------------------------------------------------------------------

    async def after_discard(self, seat: int, discard: Discard) -> Next:
        last = self.wall.live <= 0
        others = self.view.after(seat)      # (no seat leaves the hand unless a win here is accepted)
        winners = []
        if self.play.discard_win:
            for other in others:
                if self.win_on(self.players[other], discard.kind, seat, last):
                    winners.append(other)
                    if not self.play.multiple_winners:
                        break
        if winners:
            claims = [self.claim_for(self.players[w], seat, discard.kind, discard.uid) for w in winners]
            accepted, over = await self.declare_wins(claims)
            if over:
                return Next(over=True)
            if accepted:
                self.view.seats[seat].discards.pop()
                self.view.won_at.append(len(self.view.discard_log) - 1)
                if self.play.after_win == "xueliu":
                    self.view.aside.append(discard.kind)     # the won tile is set aside; play on
                return Next(self.view.next_seat(accepted[-1]))
        if last:
            return Next(seat, exhausted=True)
        can_kong = self.can_kong()    # the same for every seat weighing this discard
        claims = [c for o in others
                  if (c := self.brain.claim(self.players[o], self.view, discard.kind, seat, can_kong, self.wall.live))]
        claim = next((c for c in claims if c.what in ("kong", "pung")), None) or next(iter(claims), None)
        if claim is None:
            return Next(self.view.next_seat(seat))
        return await self.take_claim(claim, seat, discard)

    async def take_claim(self, claim: Claim, discarder: int, discard: Discard) -> Next:
        player = self.players[claim.seat]
        await self.crew.pause()
        self.view.seats[discarder].discards.pop()
        self.view.claimed(claim.seat, discarder, claim.what)
        if claim.what == "kong":
            self.crew.press(claim.seat, Key.KONG)
            if self.asks_kong_giver:
                self.crew.answers.expect_kong(claim.seat, relative_name(claim.seat, discarder, self.crew.sides))
        kind = {"kong": MeldKind.KONG, "pung": MeldKind.PUNG, "chow": MeldKind.CHOW}[claim.what]
        meld = player.add_meld(kind, list(claim.uids), claimed=discard.uid, claimed_kind=discard.kind)
        self.view.seats[claim.seat].melds.append(meld)
        self.crew.log(claim.seat, claim.what, str(discard.kind))
        if claim.what == "kong":
            self.crew.stats.kongs += 1
            await self.crew.pause()
            drawn = await self.draw(claim.seat, tail=True, kong=True)
            return Next(claim.seat, drawn, kong_draw=True, need_draw=False, exhausted=drawn is None)
        if claim.what == "pung":
            self.crew.stats.pungs += 1
        else:
            self.crew.stats.chows += 1
        return Next(claim.seat, None, need_draw=False)

    # -- 听 and the 宝 --------------------------------------------------------------------------

    async def declare_ready(self, player: Player) -> None:
        """Press 听; where a private 宝 is shown to ready seats, wait until it is on my display."""
        screen = await self.crew.pause()
        self.crew.press(player.seat, Key.TING)
        player.ready = True
        player.standing.clear()        # 立四: the other standing tiles join the hand
        self.view.seats[player.seat].ready = True
        self.crew.stats.ready += 1
        self.crew.log(player.seat, "ting")
        if self.rules.bao_rule is not None:
            seat = player.seat
            recheck = False         # after a restart my line may still be the old one: look again
            while True:
                restarts, seen = self.crew.restarts, screen.version
                screen = await self.crew.until(lambda s: s.bao(seat) is not None or s.phase in OVER
                                               or self.crew.restarts > restarts or recheck and s.version != seen)
                if screen.bao(seat) is not None or screen.phase in OVER:
                    break
                recheck = screen.status(seat).endswith(TING)
                if not recheck:
                    self.crew.press(seat, Key.TING)      # the table restarted without my 听: again
            player.bao = screen.bao(seat)

    def refresh(self) -> None:
        """Ready seats read their 宝 (it changes on 换宝)."""
        if self.rules.bao_rule is None:
            return
        screen = self.crew.eyes.look()
        for player in self.players.values():
            if player.ready:
                player.bao = screen.bao(player.seat) or player.bao

    def change_dead_bao(self) -> tuple[int, Tile] | None:
        """换宝: a ready seat presses 骰子 once when three copies of the 宝 are in sight; returns that
        seat and the dead 宝 when he pressed."""
        if self.rules.bao_rule is None or not self.rules.bao_rule.redraw_when_dead:
            return None
        discards_only = dict(self.crew.ruleset.options).get("bao_redraw") == "three_discarded"
        for seat in sorted(self.players):
            player = self.players[seat]
            bao = player.bao
            if not player.ready or bao is None or bao in self._bao_asked:
                continue
            seen = self.view.discarded()[bao] if discards_only else self.view.visible_in_play(bao)
            if seen >= 3:
                self._bao_asked.add(bao)
                self.crew.press(seat, Key.DICE)
                self.crew.log(seat, "change_bao")        # (not which: the 宝 is the ready seats' secret)
                return seat, bao
            return None
        return None

    async def new_bao_shown(self, asker: int, dead: Tile) -> None:
        """After 换宝, until every ready seat whose line showed the dead 宝 shows the new one, as a person
        waits to see his new 宝 before he plays on: the table rolls, then paints the ready seats' lines one
        by one, and a seat that read his line meanwhile played on with the dead 宝 (under load, a hand
        played differently from the same seed).  The new 宝 is never of the dead kind: three of its
        copies are in sight and the fourth lies where the old 宝 lies (never moved), so the die finds
        another tile, and a line that changed is the sign.  A restart that lost the 骰子 has it pressed
        again; a 宝 that died meanwhile (its tile taken: the roller is asked to roll anew) or the hand
        ending ends the wait."""
        screen = self.crew.eyes.look()
        seats = tuple(s for s in sorted(self.players) if self.players[s].ready and screen.bao(s) == dead)
        try:
            async with asyncio.timeout(NEW_BAO_SHOWN_WITHIN_S):
                await self._until_new_bao(asker, dead, seats)
        except TimeoutError:
            self.crew.log(asker, "bao_unseen")      # (not which: the 宝 is the ready seats' secret)

    async def _until_new_bao(self, asker: int, dead: Tile, seats: tuple[int, ...]) -> None:
        def shown(s: Screen) -> bool:
            return all(s.bao(seat) not in (None, dead) for seat in seats)

        def ended(s: Screen) -> bool:
            return shown(s) or s.phase in OVER or self._bao_died(s)
        while True:
            restarts = self.crew.restarts
            screen = await self.crew.until(lambda s: ended(s)
                                           or self.crew.restarts > restarts and self._line_back(s, asker))
            if ended(screen) or screen.bao(asker) != dead:
                return
            self.crew.press(asker, Key.DICE)      # the restart lost it: the dead 宝 is drawn again
            self.crew.log(asker, "change_bao")

    def _bao_died(self, screen: Screen) -> bool:
        """The 宝's tile left the wall (a kong's replacement): the roller is asked for a new one."""
        return any(screen.prompt(seat).startswith(ROLL_BAO) for seat in self.players)

    @staticmethod
    def _line_back(screen: Screen, seat: int) -> bool:
        """A restarted table has drawn this ready seat's lines again (before it says it restarted; a motor
        board's reboot blanks them until they are sent again): a 宝, or a status without 听 (lost)."""
        status = screen.status(seat)
        return screen.bao(seat) is not None or bool(status) and not status.endswith(TING)

    # -- wins -----------------------------------------------------------------------------------

    def self_win(self, player: Player, drawn: bytes, kong_draw: bool) -> bool:
        return self.legal_win(player, player.kinds(), player.hand[drawn], None,
                              kong_replacement=kong_draw, last_tile=self.wall.live <= 0)

    def win_on(self, player: Player, kind: Tile, discarder: int, last: bool) -> bool:
        return self.legal_win(player, player.kinds() + [kind], kind, discarder, last_tile=last)

    def legal_win(self, player: Player, concealed: list[Tile], tile: Tile, discarder: int | None, *,
                  kong_replacement: bool = False, last_tile: bool = False) -> bool:
        """Whether the table would accept this win; what the table knows (`facts`) is gathered only
        for a complete hand (three players ask after every discard, and few hands are complete)."""
        wilds = self.wilds_for(player)
        if not self.rules.complete_beside(concealed, len(player.melds), wilds):
            return False
        melds = player.meld_tuple()
        return self.rules.legal_win(player.seat, concealed, melds, player.flower_tiles(), tile, discarder, wilds,
                                    player.ready, self.facts(), kong_replacement=kong_replacement,
                                    last_tile=last_tile, bao=player.bao)

    def claim_for(self, player: Player, discarder: int | None, kind: Tile, won: bytes | None) -> WinClaim:
        shown = tuple(player.shown_uids())
        everything = tuple(player.all_uids()) + ((won,) if won is not None else ())
        meld_tiles = tuple(t for h in player.melds for t in h.meld.tiles)
        concealed = tuple(player.kinds()) + ((kind,) if won is not None else ())
        return WinClaim(player.seat, discarder, kind, shown, everything, meld_tiles + concealed)

    async def declare_wins(self, claims: list[WinClaim]) -> tuple[list[int], bool]:
        """Press 胡 (every winner of one discard), answer the prompts; returns the accepted
        winners and whether the hand is over."""
        await self.crew.pause()
        for claim in claims:
            self.crew.press(claim.seat, Key.HU)
            self.crew.log(claim.seat, "hu", "自摸" if claim.discarder is None else f"from {claim.discarder}")
        results = await answer_win(self.crew, claims)
        ended = any(results.get(c.seat) is None for c in claims)
        # a hand that ends while our 胡 is being checked ended on it: count it as won
        accepted = [c.seat for c in claims if results.get(c.seat) or (ended and results.get(c.seat) is None)]
        stats = self.crew.stats
        for claim in claims:
            if claim.seat not in accepted:
                stats.false_wins += 1
                continue
            self.won = True
            stats.wins += 1
            if claim.discarder is None:
                stats.self_drawn += 1
            else:
                stats.discard_wins += 1
            self.view.seats[claim.seat].wins += 1
            if self.play.after_win == "xuezhan":
                self.view.seats[claim.seat].out = True
        if not accepted:
            return [], False
        if ended:
            return accepted, True
        if self.play.after_win == "end":
            await self.crew.until(lambda s: s.phase in OVER)
            return accepted, True
        screen = await self.crew.until(lambda s: s.phase in (Phase.PLAY, Phase.LAST_TILE) or s.phase in OVER)
        if screen.phase in OVER or len(self.view.in_play()) <= 1:
            return accepted, True
        return accepted, False

    def after_self_win(self, player: Player, drawn: bytes) -> Next:
        if self.play.after_win == "xueliu":
            self.view.aside.append(player.give(drawn))      # the won tile is set aside; play on
        return Next(self.view.next_seat(player.seat))

    # -- the end of the wall ---------------------------------------------------------------------

    async def exhausted(self, seat: int) -> None:
        """Nobody won on the last live tile: wait for 最后一张, then 确认 for 荒庄 — once this seat has
        answered who gave its kongs (a 确认 pressed while the question is due would answer it)."""
        answers = self.crew.answers

        def free(s: Screen) -> bool:      # and no question on his line that a 确认 would answer
            return s.phase is not Phase.LAST_TILE or s.question(seat) is None
        screen = await self.crew.until(lambda s: s.phase is Phase.LAST_TILE and not answers.owes(seat, s)
                                       or s.phase in OVER)
        if not self.won:
            self.crew.stats.draws += 1
            self.drawn = True
        while screen.phase is Phase.LAST_TILE:
            await self.crew.table.clock.sleep(self.crew.style.think)
            # a question asked again meanwhile (a restart: a kong the table knows, made before it) is
            # answered first: his 确认 would take its first choice, naming a wrong giver.  One nobody
            # here answers (none is known) gets the 确认 after a while, as before
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(QUESTION_ANSWERED_WITHIN_S):
                    screen = await self.crew.until(free)
            if screen.phase is not Phase.LAST_TILE:
                break
            self.crew.press(seat, Key.CONFIRM)
            self.crew.log(seat, "confirm", "荒庄")
            restarts = self.crew.restarts        # a restart may lose the 确认: then it is pressed again
            screen = await self.crew.until(lambda s: s.phase is not Phase.LAST_TILE or self.crew.restarts > restarts
                                           or s.question(seat) is not None)
            # a question on his line (asked again after a restart: its answer was lost) took that 确认:
            # once it is answered (`answers`) and 最后一张 still shows, he presses 确认 again
            screen = await self.crew.until(lambda s: s.phase is not Phase.LAST_TILE or s.question(seat) is None)
            # …and so does a check or a fault that 最后一张 gave way to and comes back from (a stray 胡
            # checked as he pressed, its screen not yet painted; a motor fault his 确认 acknowledged):
            # the 确认 was not the draw's, and the table waited for one for ever (a campaign, 上海)
            if screen.phase in (Phase.WIN_CHECK, Phase.FAULT):
                screen = await self.crew.until(lambda s: s.phase not in (Phase.WIN_CHECK, Phase.FAULT))
