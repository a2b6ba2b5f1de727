"""Who plays a seat, as the game's texts name him. Over a play-by-post game of weeks a seat can
change hands (a replacement, a player leaving, a late joiner); the seat's forces, cards, orders
and decisions stay the seat's, and only the name its lines use changes. A rename is a command
(`SeatName`), so a game record carries it and a replay gives the same state."""
from __future__ import annotations

from engine.core import commands as C
from engine.core import rulebook
from engine.core.log import Ctx
from engine.core.state import GameState


def rename(st: GameState, seat: int, name: str) -> None:
    """From now on the texts name `name` for `seat` (nothing else about the seat changes; the
    front end that gave the command says so to the table)."""
    st.seats[seat].name = name


@rulebook.answers(C.SeatName)
def seat_name_answer(ctx: Ctx, cmd: C.SeatName, force: None) -> None:
    rename(ctx.st, cmd.seat, cmd.name)
