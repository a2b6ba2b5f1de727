"""view(state, viewer): what one player — or the public — may see.

This is the only place hidden information is stripped. Hands, placed cards before their
reveal, held cards, fight cards not yet played, orders (until completed), deck order and
discards, and every living soldier's VP are private. The public view has no field that could
hold them; a player's view adds his own under `mine`.

Hidden deployment (engine/advanced/hidden_deployment.py): a hidden soldier is left out of `soldiers`,
the trail, the fight and every card face, and shows only in `hidden` (a marker per tile and
side, with the count); his own side gets him under `mine.own_hidden`."""
from __future__ import annotations

from engine.advanced import hidden_deployment as hd
from engine.battlefield import (
    artillery as artillery_rules,  # artillery markers and calls (engine/battlefield/artillery.py)
)
from engine.battlefield import mines  # minefields (engine/battlefield/mines.py)
from engine.battlefield.close_combat import deck_of, views
from engine.core.crew import is_open
from engine.core.state import GameState, TrailMark
from engine.core.views import (
    ActiveView,
    Await,
    CardView,
    CloseCombatView,
    DroppedView,
    FightView,
    ForceView,
    HiddenMarker,
    Mine,
    MinefieldView,
    MyForce,
    MyMinefieldView,
    PhaseCardView,
    RatingsView,
    RoadblockView,
    SeatView,
    SlotView,
    SoldierView,
    TeamView,
    VehicleView,
    View,
    VpView,
)
from engine.infantry.contact import in_contact
from engine.legal import awaiting
from engine.turn import fight as fights
from engine.vehicles.roadblocks import view_rows


def card_view(st: GameState, cid: str) -> CardView:
    c = st.card(cid)
    owner = st.name(c.owner) if c.owner in st.soldiers or c.owner in st.vehicles else \
        st.setup.soldiers[c.owner].name if c.owner in st.setup.soldiers else str(c.owner)
    return CardView(
        id=c.id, owner=c.owner, owner_name=owner, actions=[a.value for a in c.actions], title=c.title,
        team=[TeamView(count=e.count, do=e.do.value) for e in c.team],
        narrator=(c.narrator.text or c.narrator.kind) if c.narrator else None,
        narrator_color=c.narrator.color if c.narrator else None,
        hit=c.hit.model_dump(), damage=c.damage.value, damage_color=c.damage_color)


HIDDEN_CARD_ID = "hidden"


def _public_card(st: GameState, cid: str, secret: set[int]) -> CardView:
    """A revealed card as the table sees it: a hidden soldier's card shows what it does, not
    whose it is (id, owner, name, title and narrator blanked)."""
    c = card_view(st, cid)
    if c.owner not in secret:
        return c
    return c.model_copy(update={"id": HIDDEN_CARD_ID, "owner": 0, "owner_name": hd.HIDDEN_NAME,
                                "title": hd.HIDDEN_CARD, "narrator": None, "narrator_color": None})


def _soldier_view(st: GameState, serial: int, secret: set[int] = frozenset()) -> SoldierView:
    s = st.soldiers[serial]
    d = st.setup.soldiers[serial]
    stats = st.stats(serial)
    up = deck_of(st, serial)
    return SoldierView(
        serial=serial, name=d.name, title=d.profile(s.rank).title, side=s.side, force=s.force,
        controller=s.controller, status=s.status, at=s.at, facing=s.facing, spotted=s.spotted,
        pinned=s.pinned, wounded=s.wounded, grenades=s.grenades, held=len(s.held),
        captor=None if s.captor in secret else s.captor,
        in_contact=bool(in_contact(st, serial)) if s.free else False,
        ratings=RatingsView(**stats.model_dump()), weapon=d.weapon, medals=s.medals,
        spotted_by=list(s.spotted_by), vehicle=s.vehicle, post=s.post, dismounted=s.dismounted,
        on_deck=s.on_deck if up else None, on_turret=up == "turret",
        in_cover=s.status == "board" and s.at is not None and st.board.in_cover(s.at))


def vehicle_view(st: GameState, plate: int) -> VehicleView:
    v = st.vehicles[plate]
    d = st.vehicle_def(plate)
    aboard = {s.serial: s.post or "" for s in st.soldiers.values() if s.status == "aboard" and s.vehicle == plate}
    dismounted = sorted(s.serial for s in st.soldiers.values()
                        if s.dismounted and s.vehicle == plate and s.status == "board")
    return VehicleView(
        plate=plate, vehicle=v.vehicle, name=d.name, kind=d.kind, side=v.side, force=v.force,
        controller=v.controller, status=v.status, tile=v.tile, facing=v.facing, turret=v.turret,
        crew=dict(v.crew), aboard=dict(sorted(aboard.items())), dismounted=dismounted,
        unbuttoned=sorted(set(v.unbuttoned) | {loc.id for loc in d.crew_positions if is_open(st, plate, loc.id)}),
        damage={k: list(x) for k, x in v.damage.items() if x},
        cook_off=list(v.cook_off), ready=dict(v.ready), in_hand=list(v.in_hand), in_breach=list(v.in_breach),
        pins=v.pins, move_plus=v.move_plus, hull_down=v.hull_down, spotted=v.spotted,
        spotted_by=list(v.spotted_by), shots=v.shots, kills=v.kills, looks=v.looks)


def _slots(st: GameState, f, secret: set[int] = frozenset()) -> list[SlotView]:
    out = []
    for i in range(3):
        c = f.placed[i]
        if c is not None and (f.revealed[i] or f.face_up[i]):
            act = f.declared.get(c)
            out.append(SlotView(phase=i + 1, state="revealed", card=_public_card(st, c, secret),
                                action=act.value if act and f.revealed[i] else None))
        elif c is not None:
            out.append(SlotView(phase=i + 1, state="face down"))
        elif f.shown[i] is not None:
            out.append(SlotView(phase=i + 1, state="played", card=_public_card(st, f.shown[i], secret)))
        else:
            out.append(SlotView(phase=i + 1, state="empty"))
    return out


def view(st: GameState, viewer: int | None = None) -> View:
    """The public view (viewer None) or one seat's view."""
    board = st.board
    secret = hd.hidden(st)  # hidden deployment: the men the public sees only as markers
    words = hd.words_of(st, secret) if secret else None
    seats = [SeatView(index=s.index, name=s.name, side=s.side, vp=st.seat_vp(s.index), order_done=s.order_done,
                      order_title=st.setup.orders[s.order].title if s.order_done and s.order else None)
             for s in st.seats]
    forces = [ForceView(id=f.id, seat=f.seat, side=f.side, hand=len(f.hand), deck=len(f.deck),
                        discard=len(f.discard), fight_cards=len(f.fight_pool), slots=_slots(st, f, secret),
                        entry_area=f.entry_area)
              for f in st.forces.values()]
    active = None
    if st.active is not None:
        a = st.active
        active = ActiveView(force=a.force, card=_public_card(st, a.card, secret), action=a.action.value,
                            parts={s.kind: s.state for s in a.sources})
    fight_view = None
    if st.fight is not None and st.fight.members:
        fight_view = FightView(members=[m for m in st.fight.members if m not in secret], order=list(st.fight.order),
                               to_play=fights.whose_turn(st))
    sides = sorted({s.side for s in st.seats})
    v = View(
        scenario=st.setup.scenario.id, scenario_name=st.setup.scenario.name, turn=st.turn,
        turns=st.setup.scenario.turns, phase=st.phase, step=st.step, story_left=len(st.story_deck),
        phase_cards=[_phase_card(st, c) for c in st.phase_cards],
        board={"width": board.width, "height": board.height, "rows": [list(r) for r in st.setup.scenario.map]},
        tiles=dict(st.setup.tiles), map_key=st.setup.map_key or st.setup.digest(),
        entry_areas=dict(st.setup.scenario.entry_areas),
        entry_sides={a: [s.id.value for s in st.setup.scenario.sides if a in s.entry]
                     for a in st.setup.scenario.entry_areas},
        exit_areas=dict(st.setup.scenario.exit_areas),
        deploy={s.id.value: list(s.deploy) for s in st.setup.scenario.sides if s.deploy},
        seats=seats, forces=forces,
        soldiers=[_soldier_view(st, n, secret) for n in sorted(st.soldiers)
                  if st.soldiers[n].status != "reserve" and n not in secret],
        hidden=[HiddenMarker(tile=t, side=side, count=k) for t, side, k in hd.markers(st, secret)],
        vehicles=[_public_vehicle(st, p, secret) for p in sorted(st.vehicles)],
        vehicle_defs=dict(st.setup.vehicles),
        roadblocks=_roadblocks(st, secret),  # roadblocks, barricades, wrecks on roads (engine/vehicles/roadblocks.py)
        options={k: v for k, v in st.setup.scenario.options.model_dump().items()  # the optional rules, on or
                 if isinstance(v, bool)},  # off (issue 9; numbers such as other_ammo_vp left out)
        close_combats=_close_combats(st, secret),  # close combat against vehicles (engine/battlefield/close_combat.py)
        vp={side: st.side_vp(side) for side in sides},
        vp_log=[VpView(side=e.side, seat=e.seat, amount=e.amount, kind=e.kind,
                       reason=words.scrub(e.reason) if words else e.reason) for e in st.vp],
        mines=list(st.mines),  # known minefields (engine/battlefield/mines.py)
        minefields=[MinefieldView(tile=t, side=side, tokens=n, kind=k)  # mines bought, face down (engine/battlefield/mines.py)
                    for t, side, n, k in mines.public_fields(st)] if st.minefields else [],
        dropped=[DroppedView(item=d.item, name=st.setup.equipment[d.item].name, tile=d.tile)  # issue 9
                 for d in st.dropped if d.turn == st.turn],
        artillery=artillery_rules.public_markers(st),  # face down: no letter, kind or face
        fires=list(st.fires), sighted={k: list(v) for k, v in st.sighted.items()}, smoke=st.smoke_map(),
        weather={"look": st.weather.look + st.lasting_weather.look, "shoot": st.weather.shoot + st.lasting_weather.shoot},
        landmark_holders={k: int(v) for k, v in st.landmark_holders.items()},
        active=active, fight=fight_view, awaiting=_awaiting(st, words), trail=_trail(st.trail, secret),
        last_trail=_trail(st.last_trail, secret), last_trail_phase=st.last_trail_phase,
        panels=list(st.panels), last_panels=list(st.last_panels),
        result=st.result.model_dump() if st.result else None,
    )
    if viewer is None:
        return v
    return v.model_copy(update={"mine": private_view(st, viewer)})


def _close_combats(st: GameState, secret: set[int]) -> list[CloseCombatView]:
    """Close combats against vehicles under way or due (engine/battlefield/close_combat.py); hidden men left out."""
    if not st.vehicles:
        return []
    return [CloseCombatView(**{**d, "attackers": [m for m in d["attackers"] if m not in secret]}) for d in views(st)]


def _roadblocks(st: GameState, secret: set[int]) -> list[RoadblockView]:
    """Roadblocks in play and the man in each fighting position (a hidden man is left out)."""
    if not st.setup.scenario.roadblocks and not st.vehicles:
        return []
    return [RoadblockView(**{**d, "defender": None if d["defender"] in secret else d["defender"]})
            for d in view_rows(st)]


def _trail(marks: list[TrailMark], secret: set[int]) -> list[TrailMark]:
    return [m for m in marks if m.serial not in secret and m.target not in secret] if secret else list(marks)


def _awaiting(st: GameState, words) -> list[Await]:
    waits = awaiting(st)
    if words is None:
        return waits
    return [a.model_copy(update={"detail": words.scrub(a.detail)}) for a in waits]


def _public_vehicle(st: GameState, plate: int, secret: set[int]) -> VehicleView:
    v = vehicle_view(st, plate)
    if secret and set(v.dismounted) & secret:
        v = v.model_copy(update={"dismounted": [n for n in v.dismounted if n not in secret]})
    return v


def _phase_card(st: GameState, cid: str) -> PhaseCardView:
    c = st.setup.story[cid]
    return PhaseCardView(id=c.id, title=c.title, top=c.top.value, bottom=c.bottom.value,
                         effect_category=c.effect.category.value, effect_text=c.effect.text,
                         cause=c.cause.value, color=c.color)


def private_view(st: GameState, seat: int) -> Mine:
    """Only one seat's secrets (hand, placed and held cards, fight cards, orders, his soldiers'
    VP): what a private message needs, without building the whole public view."""
    forces = [f for f in st.forces.values() if f.seat == seat]
    views: dict[str, CardView] = {}

    def card(cid: str) -> CardView:  # each card's view built once (the hand appears twice)
        v = views.get(cid)
        if v is None:
            v = views[cid] = card_view(st, cid)
        return v

    hand = [card(c) for f in forces for c in f.hand]
    placed: list[CardView | None] = []
    for f in forces[:1]:
        placed = [card(c) if c else None for c in f.placed]
    ids = {f.id for f in forces}
    held = {s.serial: [card(c) for c in s.held] for s in st.soldiers.values() if s.force in ids and s.held}
    pool = [card(c) for f in forces for c in f.fight_pool]
    o = st.seats[seat].order
    order = None
    if o:
        od = st.setup.orders[o]
        order = {"id": od.id, "title": od.title, "text": od.text, "vp": od.vp, "kind": od.kind.value,
                 "landmark": od.landmark, "done": st.seats[seat].order_done}
    vps = {s.serial: st.vp_value(s.serial) for s in st.soldiers.values() if s.force in ids}
    mine = [MyForce(id=f.id, kind=f.kind, plate=f.plate, hand=[card(c) for c in f.hand],
                    placed=[card(c) if c else None for c in f.placed], planned=f.planned)
            for f in forces]
    side = st.seats[seat].side
    own_hidden = [_soldier_view(st, n) for n in sorted(hd.hidden(st)) if st.soldiers[n].side == side]
    return Mine(seat=seat, hand=hand, placed=placed, held=held, fight_cards=pool, order=order, soldier_vp=vps,
                deck_top=sum(len(f.deck) for f in forces), forces=mine, own_hidden=own_hidden,
                **private_battlefield(st, seat))


def private_battlefield(st: GameState, seat: int) -> dict:
    """The battlefield part of one seat's `Mine` (its fields by name): his artillery calls,
    planned barrages, radio contact and ordnance, his side's minefields face up and the mines
    left in his side's vehicles' loads. Apart so a private message that needs only these (the
    desk, bot/app/prompts.py) reads the same secrets without building the whole `Mine`."""
    side = st.seats[seat].side
    mined = [MyMinefieldView(tile=t, tokens=tokens, kind=k or "none")  # his side's mines, face up (engine/battlefield/mines.py)
             for t, tokens, k in mines.side_fields(st, side)] if st.minefields else []
    loads = {p: [list(f) for f in v.mine_load] for p, v in sorted(st.vehicles.items())  # mines to lay in play
             if v.mine_load and st.forces[v.controller].side == side}
    return {**artillery_rules.private(st, seat), "minefields": mined, "mine_loads": loads}
