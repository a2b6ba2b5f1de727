"""Positions: a game situation written down (YAML or JSON), like chess's FEN.

A position names a scenario (its map, sides and areas), the players, every soldier in play with
his cell, facing and markers, and optionally the hands, the phase cards and the top cards of
each deck. It serves scenario designers, rules questions ("what happens if ...") and bug
reports. Format: docs/position.md.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.board import DIRS
from engine.content import Catalog, Nationality, Rank
from engine.errors import ContentError
from engine.log import Ctx
from engine.rng import Rng
from engine.setup import soldier_cards
from engine.state import ForceState, GameSetup, GameState, Seat, SmokeMarker, SoldierState, VpEntry


class P(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerPos(P):
    name: str
    side: Nationality
    order: str | None = None


class SoldierPos(P):
    serial: int
    seat: int = Field(description="index of the player who fields him")
    rank: Rank = Rank.PRIVATE
    at: tuple[int, int] | None = Field(None, description="inch cell; omit for a soldier still to enter")
    facing: str = "n"
    spotted: bool = False
    pinned: bool = False
    wounded: bool = False
    grenades: int | None = None
    medals: int = 0
    equipment: list[str] = Field(default_factory=list)
    held: list[str] = Field(default_factory=list)
    captor: int | None = None
    status: Literal["board", "aboard", "waiting", "dead", "exited", "reserve"] | None = None


class Position(P):
    scenario: str
    seed: int = 1
    turn: int = Field(0, ge=0, description="turns already played")
    players: list[PlayerPos] = Field(min_length=2, max_length=4)
    soldiers: list[SoldierPos] = Field(min_length=2)
    hands: dict[int, list[str]] | None = Field(None, description="seat -> cards; given, play starts at placement")
    phase_cards: list[str] | None = None
    decks: dict[int, list[str]] = Field(default_factory=dict, description="seat -> top cards of his deck, in order")
    story_top: list[str] = Field(default_factory=list, description="the next phase cards, in order")
    fires: list[str] = Field(default_factory=list)
    smoke: dict[str, Literal[2, 3]] = Field(default_factory=dict)
    vp: dict[Nationality, int] = Field(default_factory=dict)


def load_position(cat: Catalog, data: dict) -> tuple[GameState, list]:
    """Build a game from a position and play on to its first decision."""
    from engine.sequence import advance

    try:
        pos = Position.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ContentError(f"position: field {where}: {first['msg']}") from None
    sc = cat.scenario(pos.scenario)
    rng = Rng(pos.seed)
    in_play = {s.serial for s in pos.soldiers}
    for s in pos.soldiers:
        if s.serial not in cat.soldiers:
            raise ContentError(f"position: soldiers: no soldier with dog tag {s.serial}")
        if not 0 <= s.seat < len(pos.players):
            raise ContentError(f"position: soldier {s.serial}: seat {s.seat} does not exist")
        if s.facing not in DIRS:
            raise ContentError(f"position: soldier {s.serial}: facing must be one of {' '.join(DIRS)}")
        d = cat.soldiers[s.serial]
        if d.nationality != pos.players[s.seat].side:
            raise ContentError(f"position: soldier {s.serial} ({d.name}) is {d.nationality}, "
                               f"but seat {s.seat} plays {pos.players[s.seat].side}")
        if s.rank not in {p.rank for p in d.ranks}:
            raise ContentError(f"position: soldier {s.serial} ({d.name}) has no {s.rank} card")
    pieces = {cat.tiles[t].piece for row in sc.map for t in row if cat.tiles[t].landmark}
    setup = GameSetup(
        scenario=sc,
        soldiers={n: cat.soldiers[n] for n in sorted(in_play)},
        cards={cid: c for cid, c in cat.cards.items() if c.owner in in_play},
        story={cid: c for cid, c in cat.story.items() if not c.landmark or c.landmark in pieces},
        orders=dict(cat.orders), tiles={t: cat.tiles[t] for row in sc.map for t in row},
        equipment=dict(cat.equipment))
    setup = setup.model_copy(update={"map_key": setup.digest()})
    board = setup.board()
    seats = [Seat(index=i, name=p.name, side=p.side, order=p.order) for i, p in enumerate(pos.players)]
    for p in pos.players:
        if p.order and p.order not in cat.orders:
            raise ContentError(f"position: players: unknown order {p.order!r}")
    forces: dict[str, ForceState] = {}
    soldiers: dict[int, SoldierState] = {}
    fid_of = {i: f"{p.side}-{i + 1}" for i, p in enumerate(pos.players)}
    decks: dict[str, list[str]] = {fid: [] for fid in fid_of.values()}
    taken = set()
    for s in pos.soldiers:
        d = cat.soldiers[s.serial]
        fid = fid_of[s.seat]
        status = s.status or ("board" if s.at else "waiting")
        if s.at is not None:
            at = tuple(s.at)
            if not board.on_board(at):
                raise ContentError(f"position: soldier {s.serial}: cell {at} is off the {board.width}x{board.height} board")
            if at in taken:
                raise ContentError(f"position: soldier {s.serial}: cell {at} is taken")
            taken.add(at)
        if status != "reserve":
            decks[fid] += soldier_cards(d, s.rank, s.medals, cat.cards)
        soldiers[s.serial] = SoldierState(
            serial=s.serial, side=d.nationality, force=fid, controller=fid, rank=s.rank, status=status,
            at=tuple(s.at) if s.at else None, facing=s.facing, spotted=s.spotted, pinned=s.pinned,
            wounded=s.wounded, grenades=d.grenades if s.grenades is None else s.grenades, medals=s.medals,
            equipment=list(s.equipment), held=list(s.held))
    for s in pos.soldiers:
        if s.captor is not None:
            if s.captor not in soldiers:
                raise ContentError(f"position: soldier {s.serial}: captor {s.captor} is not in play")
            soldiers[s.serial].captor = s.captor
            soldiers[s.serial].controller = soldiers[s.captor].controller
    placed_cards = {c for s in pos.soldiers for c in s.held}
    hands = {fid_of[k]: [c.upper() for c in v] for k, v in (pos.hands or {}).items()}
    for fid, cards in hands.items():
        placed_cards |= set(cards)
    for seat, top in pos.decks.items():
        fid = fid_of[seat]
        for c in top:
            if c not in decks[fid]:
                raise ContentError(f"position: decks: {c} is not a card of seat {seat}'s soldiers")
    for fid, deck in decks.items():
        seat = next(i for i, f in fid_of.items() if f == fid)
        for c in placed_cards:
            if c in deck:
                deck.remove(c)
        top = [c.upper() for c in pos.decks.get(seat, [])]
        rest = [c for c in deck if c not in top]
        rng.shuffle(rest)
        forces[fid] = ForceState(id=fid, seat=seat, side=pos.players[seat].side, deck=top + rest,
                                 hand=hands.get(fid, []))
    for fid, cards in hands.items():
        for c in cards:
            if c not in setup.cards or setup.cards[c].owner not in {s.serial for s in pos.soldiers
                                                                     if fid_of[s.seat] == fid}:
                raise ContentError(f"position: hands: {c} is not a card of that player's soldiers")
    story = list(setup.story)
    fixed = list(pos.phase_cards or []) + list(pos.story_top)
    for c in fixed:
        if c not in setup.story:
            raise ContentError(f"position: unknown phase card {c!r}")
    rest = [c for c in story if c not in fixed]
    rng.shuffle(rest)
    left = max(0, 3 * (sc.turns - pos.turn) - len(fixed))
    story_deck = list(pos.story_top) + rest[:left]
    st = GameState(setup=setup, rng=rng.state, seats=seats, forces=forces, soldiers=soldiers,
                   story_deck=list(pos.phase_cards or []) + story_deck if pos.hands is None else story_deck,
                   turn=pos.turn, fires=list(pos.fires),
                   smoke=[SmokeMarker(tile=t, density=d, turn=pos.turn) for t, d in pos.smoke.items()],
                   vp=[VpEntry(side=side, amount=v, reason="position", kind="event") for side, v in pos.vp.items()])
    ctx = Ctx(st)
    if pos.hands is not None:
        st.turn = pos.turn + 1
        st.phase_cards = list(pos.phase_cards or [])
        if len(st.phase_cards) != 3:
            if len(st.story_deck) < 3:
                raise ContentError("position: give three phase_cards")
            st.phase_cards, st.story_deck = st.story_deck[:3], st.story_deck[3:]
        for f in st.forces.values():
            f.planned = not any(s.controller == f.id and s.in_play for s in soldiers.values())
        st.step = "place"
        ctx.say("position", f"Position loaded: turn {st.turn}, placing cards.")
    else:
        ctx.say("position", f"Position loaded: turn {pos.turn + 1} begins.")
    advance(ctx)
    ctx.close()
    return st, ctx.events


def dump_position(st: GameState) -> dict:
    """The position of a state at its current point (hands included), for bug reports."""
    out = {
        "scenario": st.setup.scenario.id,
        "seed": st.rng,
        "turn": max(0, st.turn - 1) if st.step != "turn_start" else st.turn,
        "players": [{"name": s.name, "side": s.side.value, **({"order": s.order} if s.order else {})}
                    for s in st.seats],
        "soldiers": [],
        "decks": {f.seat: list(f.deck) for f in st.forces.values()},
        "story_top": list(st.story_deck),
        "fires": list(st.fires),
        "smoke": st.smoke_map(),
    }
    for s in sorted(st.soldiers.values(), key=lambda x: x.serial):
        row = {"serial": s.serial, "seat": st.forces[s.force].seat, "rank": s.rank.value, "facing": s.facing,
               "status": s.status}
        if s.at:
            row["at"] = list(s.at)
        for k in ("spotted", "pinned", "wounded"):
            if getattr(s, k):
                row[k] = True
        row["grenades"] = s.grenades
        if s.held:
            row["held"] = list(s.held)
        if s.captor is not None:
            row["captor"] = s.captor
        if s.medals:
            row["medals"] = s.medals
        if s.equipment:
            row["equipment"] = list(s.equipment)
        out["soldiers"].append(row)
    if st.step == "place":
        out["hands"] = {f.seat: list(f.hand) + [c for c in f.placed if c] for f in st.forces.values()}
        out["phase_cards"] = list(st.phase_cards)
    return out

