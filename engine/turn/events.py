"""Random events (core manual, Random Events; ruling 1): when card N's cause box has the same
category as card N+1's effect box (N = 1, 2), card N+1's effect happens before placement. A card
that names a character, or a specialist's own story card, does nothing while its man is missing
(absent_cast)."""
from __future__ import annotations

from engine.core import initiative
from engine.core.content import PhaseCard, soldier_cards
from engine.core.log import Ctx
from engine.core.state import SmokeMarker, VpEntry
from engine.infantry.blast import blast_tile


def triggered(cards: list[PhaseCard]) -> list[PhaseCard]:
    return [cards[n + 1] for n in range(len(cards) - 1) if cards[n].cause == cards[n + 1].effect.category]


def resolve(ctx: Ctx) -> None:
    st = ctx.st
    cards = [st.setup.story[c] for c in st.phase_cards]
    for card in triggered(cards):
        missing = absent_cast(st, card)
        if missing:
            ctx.say("event_dismissed", f"Random event — {card.title}: nothing happens, {missing}.", card=card.id,
                    category=card.effect.category.value)
            continue
        ctx.say("event", f"Random event — {card.title}: {card.effect.text}", card=card.id,
                category=card.effect.category.value)
        _do(ctx, card)


def absent_cast(st, card: PhaseCard) -> str | None:
    """Why a card's event cannot happen for want of its people, or None (Characters; Specialists).

    A card naming a character happens only while he is in play (alive, free, on the board, aboard
    or still to enter). A specialist's own story card happens only while he is alive, free and on
    the board (on foot or aboard)."""
    if card.character is not None:
        s = st.soldiers.get(card.character)
        if s is None or not s.in_play:
            who = st.name(card.character) if s is not None else f"dog tag {card.character}"
            return f"{who} is not in play"
    owners = sorted(n for n, d in st.setup.soldiers.items() if card.id in d.story and n in st.soldiers)
    if owners and not any(st.soldiers[n].status in ("board", "aboard") and st.soldiers[n].captor is None
                          for n in owners):
        return " and ".join(st.name(n) for n in owners) + " is not on the board"
    return None


def _tile(ctx: Ctx, where: str, card: PhaseCard) -> str | None:
    st = ctx.st
    board = st.board
    if where == "landmark":
        return board.piece_tile(card.landmark) if card.landmark else None
    if where == "random":
        occupied = sorted({board.tile_at(s.at) for s in st.soldiers.values() if s.free and s.at})
        pool = occupied or sorted(board.origin)
        return ctx.rng.choice(pool)
    return where if where in board.origin else None


def _side_behind(st) -> str:
    a, b = st.seats[0].side, next(s.side for s in st.seats if s.side != st.seats[0].side)
    va, vb = st.side_vp(a), st.side_vp(b)
    if va == vb:
        lead = st.forces[initiative.leader(st)].side
        return b if lead == a else a
    return a if va < vb else b


def _do(ctx: Ctx, card: PhaseCard) -> None:
    st = ctx.st
    ev = card.effect.event
    kind = ev.kind
    if kind == "blast":
        tile = _tile(ctx, ev.where, card)
        if tile:
            blast_tile(ctx, tile, checks=ev.checks, by_force=None, cause="event", what=card.title)
    elif kind == "weather":
        target = st.lasting_weather if ev.lasting else st.weather
        target.look += ev.look
        target.shoot += ev.shoot
        how = "for the rest of the game" if ev.lasting else "this turn"
        ctx.say("weather", f"LOOK {ev.look:+d}, SHOOT {ev.shoot:+d} on every line of sight and fire {how}.")
    elif kind == "fire":
        tile = _tile(ctx, ev.where, card)
        if tile and tile not in st.fires:
            st.fires.append(tile)
            ctx.say("fire", f"Fire breaks out in {tile}; it will burn for the rest of the game.", tile=tile)
    elif kind == "smoke":
        tile = _tile(ctx, ev.where, card)
        if tile:
            st.smoke = [m for m in st.smoke if m.tile != tile]
            st.smoke.append(SmokeMarker(tile=tile, density=ev.density, turn=st.turn))
            ctx.say("smoke", f"{ev.density}x smoke drifts over {tile}.", tile=tile)
    elif kind == "reinforce":
        side = {"trailing": _side_behind(st), "leading": None}.get(ev.side, ev.side)
        if side is None:
            behind = _side_behind(st)
            side = next(s.side for s in st.seats if s.side != behind)
        arrivals = [s for s in st.soldiers.values() if s.status == "reserve" and s.side == side]
        if not arrivals:
            ctx.say("reinforce", f"No reinforcements are left for {side}.")
        for s in arrivals:
            s = st.changing(s.serial)
            s.status = "waiting"
            f = st.changing_force(s.force)
            cards = _cards_of(st, s.serial, s.rank, s.medals)
            f.deck.extend(cards)
            ctx.rng.shuffle(f.deck)
            ctx.say("reinforce", f"{st.name(s.serial)} arrives as a reinforcement and may enter the board.",
                    serial=s.serial)
    elif kind == "vp":
        side = None
        if ev.to == "holder":
            tile = _tile(ctx, "landmark", card)
            if tile:
                sides = {s.side for s in st.soldiers.values() if s.free and s.at and st.board.tile_at(s.at) == tile}
                side = sides.pop() if len(sides) == 1 else None
        elif ev.to == "initiative":
            side = st.forces[initiative.leader(st)].side
        else:
            side = _side_behind(st)
        if side:
            st.vp.append(VpEntry(seat=None, side=side, amount=ev.amount, reason=card.title, kind="event"))
            ctx.say("vp_event", f"{side} scores {ev.amount} VP.", side=side, amount=ev.amount)
        else:
            ctx.say("vp_event", "Nobody qualifies for the VP.")
    elif kind == "pin":
        for s in _victims(ctx, ev.where, card, lambda x: not x.pinned):
            st.changing(s).pinned = True
            ctx.say("pinned", f"{st.name(s)} is pinned.", serial=s)
    elif kind == "spot":
        if ev.where == "open":
            chosen = [s.serial for s in st.soldiers.values()
                      if s.free and not s.spotted and not st.board.in_cover(s.at)]
        else:
            chosen = _victims(ctx, ev.where, card, lambda x: not x.spotted)
        for s in sorted(chosen):
            st.changing(s).spotted = True
            ctx.say("spotted", f"{st.name(s)} is spotted.", serial=s)
    elif kind == "rally":
        sides = {s.side for s in st.seats} if ev.side == "all" else {_side_behind(st)}
        for n in sorted(st.soldiers):
            s = st.soldiers[n]
            if s.free and s.pinned and s.side in sides:
                st.changing(n).pinned = False
                ctx.say("rally", f"{st.name(n)} is no longer pinned.", serial=n)


def _victims(ctx: Ctx, where: str, card: PhaseCard, want) -> list[int]:
    """'random': one eligible soldier of each side; otherwise everyone eligible in the tile."""
    st = ctx.st
    if where == "random":
        out = []
        for side in sorted({s.side for s in st.seats}):
            pool = sorted(s.serial for s in st.soldiers.values() if s.free and s.side == side and want(s))
            if pool:
                out.append(ctx.rng.choice(pool))
        return out
    tile = _tile(ctx, where, card)
    return sorted(s.serial for s in st.soldiers.values()
                  if tile and s.free and s.at and st.board.tile_at(s.at) == tile and want(s))


def _cards_of(st, serial: int, rank, medals: int) -> list[str]:
    return soldier_cards(st.setup.soldiers[serial], rank, medals, st.setup.cards)
