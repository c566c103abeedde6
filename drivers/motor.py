"""The motor board client: shuffle, build, lifts, hatch, dice, seat displays, lamps (protocol.md §4)."""

from __future__ import annotations

from .client import BoardClient
from .messages import BoardKind, Constant
from .motor_protocol import (MOTOR_COMMANDS, MOTOR_EVENTS, Build, Buzz, Buzzer, EmergencyStop,
                             LiftPosition, MoveCentreLift, MoveSideLifts, RollDice, SeatText,
                             SetHatchLock, SetLeds, Shuffle)


class MotorBoard(BoardClient):
    KIND = BoardKind.MOTOR
    NAME = "motor board"
    COMMANDS = MOTOR_COMMANDS
    EVENTS = MOTOR_EVENTS

    @property
    def stack_capacity(self) -> int:
        """Most stacks one side holds (from the handshake)."""
        return self.identity.constant(Constant.STACK_CAPACITY)

    @property
    def seat_text_bytes(self) -> int:
        """The longest seat display line in UTF-8 bytes (from the handshake; 32 if not reported)."""
        return self.identity.constant(Constant.SEAT_TEXT_BYTES, 32)

    async def emergency_stop(self) -> None:
        await self.send(EmergencyStop())

    async def shuffle(self, duration_ms: int = 4000) -> None:
        await self.send(Shuffle(duration_ms))

    async def build(self, stacks: tuple[int, int, int, int], *, resume: bool = False) -> None:
        """Build the next set with stacks[i] stacks on side i (BuildDone or BuildStopped follows)."""
        await self.send(Build(tuple(stacks), resume))  # type: ignore[arg-type]

    async def centre_lift(self, position: LiftPosition) -> None:
        await self.send(MoveCentreLift(position))

    async def side_lifts(self, position: LiftPosition, sides: tuple[int, ...] = (0, 1, 2, 3)) -> None:
        mask = 0
        for side in sides:
            mask |= 1 << side
        await self.send(MoveSideLifts(mask, position))

    async def hatch_lock(self, locked: bool) -> None:
        await self.send(SetHatchLock(locked))

    async def roll_dice(self, count: int = 2) -> None:
        await self.send(RollDice(count))

    async def seat_text(self, seat: int, line: int, text: str) -> int:
        """Write a seat display's line; the events received before it was sent (`send_heard`): all
        were pressed before the line was shown."""
        return await self.send_heard(SeatText(seat, line, text))

    async def buzzer(self, pattern: Buzz = Buzz.BEEP, duration_ms: int = 200) -> None:
        await self.send(Buzzer(pattern, duration_ms))

    async def leds(self, panel: int, mask: int) -> None:
        await self.send(SetLeds(panel, mask))
