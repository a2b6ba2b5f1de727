"""Markers on the map that hurt whoever is there (core manual, Markers and Equipment): land mines
and fire markers.

Land mines: a soldier who starts a move (a walk, an exit or a charge; never a turn to face) in
a mined tile takes one blast hit check there, off his own deck, before he goes. If the mine
kills or pins him (or a medic has to pull him back from death), he stays where he was and the
MOVE is spent; a wound alone does not stop him. Entering a mined tile costs nothing.

Fire markers: scenario fires burn from setup, story-card fires from their event; a fire never
goes out. At the start of every phase, before any action, each soldier in a burning tile takes
one blast hit check (engine/sequence.py, step phase_fire, through blast.blast_tile). A tile is
the whole fire area: a building in it burns whole, every floor.
Rulings: docs/advanced.md, "Medics, fire, mines, characters".
"""
from __future__ import annotations

from engine.blast import blast_victim
from engine.log import Ctx


def lay(st) -> None:
    """Setup: the scenario's mines are sown and its fires lit (before anyone moves)."""
    sc = st.setup.scenario
    st.mines = sorted(set(st.mines) | set(sc.mines))
    for tile in sc.fires:
        if tile not in st.fires:
            st.fires.append(tile)


def mined(st, cell) -> str | None:
    """The mined tile this cell lies in, or None."""
    if cell is None or not st.mines:
        return None
    tile = st.board.tile_at(cell)
    return tile if tile in st.mines else None


def mine_check(ctx: Ctx, serial: int) -> bool:
    """Called as a soldier starts a move (engine/move.py). True when the mine stops him there."""
    st = ctx.st
    s = st.soldiers[serial]
    if s.status != "board":
        return False
    tile = mined(st, s.at)
    if tile is None:
        return False
    name = st.name(serial)
    ctx.say("mine", f"{name} starts to move in the minefield of {tile}: a blast hit check for the mines.",
            serial=serial, tile=tile)
    outcomes = blast_victim(ctx, serial, checks=1, check_force=None, by_force=None, cause="mine")
    if s.status != "board":
        return True
    if "pinned" in outcomes or "killed" in outcomes:
        ctx.say("mine_stops", f"{name} is brought down by the mine and does not move.", serial=serial, tile=tile)
        return True
    return False
