"""Views built by hand with distinctive battlefield secrets (issue 9), for the leak tests of
every front end: artillery letters, faces, a barrage plan and mine kinds that no public text or
picture may show. Public fields (markers and tokens face down) are set to match."""
from __future__ import annotations

from engine.core.views import (
    ArtilleryCallView,
    ArtilleryMarkerView,
    BarrageView,
    CloseCombatView,
    Mine,
    MinefieldView,
    MyMinefieldView,
    RoadblockView,
    View,
)

# what must never reach a public text or picture before its reveal
SECRET_WORDS = ("QQ", "XJ", "ZV", "howitzer", "zeta", "rockets", "omega", "Fake", "FAKE", "fake", "On Target",
                "ON TARGET", "to go", "booby", "BOOBY", "mixed", "MIXED", "anti-tank", "general purpose", "AT+",
                "+GP", "turn 7", "planned", "barrage")


def secret_calls(tile_a: str = "31A", tile_b: str = "L9A") -> list[ArtilleryCallView]:
    return [ArtilleryCallView(letter="QQ", kind="howitzer-zeta", tile=tile_a, rows_left=2, fake=False, caller=1),
            ArtilleryCallView(letter="XJ", kind="howitzer-zeta", tile=tile_b, rows_left=0, fake=False, caller=1),
            ArtilleryCallView(letter="ZV", kind="howitzer-zeta", tile=tile_b, rows_left=3, fake=True)]


def secret_mine(seat: int = 0, base: Mine | None = None, tile_a: str = "31A", tile_b: str = "L9A") -> Mine:
    """A seat's Mine with every battlefield secret filled (on `base`, or an empty desk)."""
    if base is None:
        base = Mine(seat=seat, hand=[], placed=[None, None, None], held={}, fight_cards=[], order=None,
                    soldier_vp={}, deck_top=5)
    return base.model_copy(update={
        "artillery": secret_calls(tile_a, tile_b),
        "barrages": [BarrageView(kind="rockets-omega", turn=7, tile=tile_b)],
        "minefields": [MyMinefieldView(tile=tile_a, tokens=["booby", "booby"], kind="booby"),
                       MyMinefieldView(tile=tile_b, tokens=["at", "gp", "at", "gp"], kind="mixed")],
        "radio": {"1": 1},
        "ordnance": ["howitzer-zeta", "howitzer-zeta", "rockets-omega"],
    })


def public_fields(side: str = "US", other: str = "DE", tile_a: str = "31A", tile_b: str = "L9A",
                  plate: int | None = None) -> dict:
    """The public face of `secret_mine`: three markers, two minefields face down, a roadblock
    and (with `plate`) a close combat."""
    out = {
        "artillery": [ArtilleryMarkerView(id=1, side=side, tile=tile_a), ArtilleryMarkerView(id=2, side=side, tile=tile_b),
                      ArtilleryMarkerView(id=3, side=side, tile=tile_b), ArtilleryMarkerView(id=4, side=other, tile=tile_a)],
        "minefields": [MinefieldView(tile=tile_a, side=side, tokens=2), MinefieldView(tile=tile_b, side=side, tokens=4)],
        "roadblocks": [RoadblockView(tile=tile_a, kind="roadblock")],
    }
    if plate is not None:
        out["close_combats"] = [CloseCombatView(plate=plate, part="turret", attackers=[1, 2], crew=[60])]
    return out


def with_secrets(v: View, seat: int | None = 0, **kw) -> View:
    """`v` with the public battlefield fields and (for a seat) his secret Mine."""
    update = public_fields(**kw)
    if seat is not None:
        update["mine"] = secret_mine(seat, v.mine)
    return v.model_copy(update=update)


def leaks(text: str) -> list[str]:
    return [w for w in SECRET_WORDS if w in text]


def artillery_lane(cat, *, fake: bool = True, call: bool = True, kind: str = "medium-mortars"):
    """The artillery tests' lane (tests/engine/test_artillery.py) after both have placed and Ann
    has called medium mortars onto Dorn's tile 24A (a fake, by default; `call=False`: not yet,
    her radio contact made): a real engine state."""
    from engine.position import load_position
    from tests.engine.test_artillery import LOOKS, PLANS, run
    st, _ = load_position(cat, {
        "scenario": "range", "seed": 1, "players": [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}],
        "soldiers": [{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e", "equipment": ["radio"]},
                     {"serial": 2, "seat": 0, "at": [2, 4], "facing": "e"},
                     {"serial": 4, "seat": 1, "at": [17, 2], "facing": "w", "spotted": True},
                     {"serial": 5, "seat": 1, "at": [37, 2], "facing": "w"}],
        "phase_cards": LOOKS, "hands": {0: ["1-C3", "2-C3", "1-C2"], 1: ["4-C1", "4-C2", "4-P1"]},
        "decks": {0: ["1-C1", "1-P2"], 1: []}})
    st.artillery.ordnance[0] = [kind]
    st.artillery.bought[0] = [kind]
    st, _ = run(st, [*PLANS, *([f"@Ann call 1 {kind} 24A" + (" fake" if fake else "")] if call else [])])
    return st
