"""The shipped Sherman's cards in play (Hell on Wheels: License Plate, Action Cards): what a
card's parts let the tank and its crew do, checked on the real content (chapel-gun's M4A1 601,
crew 151-155)."""
from __future__ import annotations

import pytest

from engine import apply, legal_commands, load_catalog
from engine.core.action_cards import describe
from engine.core.commands import parse_command
from engine.core.content import Action, Damage
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.infantry.shoot import read_hits
from engine.position import load_position
from engine.turn import cards
from engine.vehicles import shoot as VS

CREW = {"commander": 151, "gunner": 152, "loader": 153, "driver": 154, "bow_gunner": 155}


@pytest.fixture(scope="module")
def shipped():
    return load_catalog()


def sherman_in_play(cat, card: str, action: str, *, german: dict, crew: dict | None = None, more: tuple = ()):
    """The Sherman 601 in 22B facing and traversed north, `card` in play for its deck in phase 1."""
    st, _ = load_position(cat, {
        "scenario": "chapel-gun", "seed": 3,
        "players": [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}],
        "soldiers": [{"serial": 101, "seat": 0, "at": [2, 17], "facing": "n"}, {"serial": 201, "seat": 1, **german},
                     *more,
                     *({"serial": s, "seat": 0, "crew_of": 601} for s in CREW.values())],
        "vehicles": [{"plate": 601, "seat": 0, "tile": "22B", "facing": "n", "turret": "n", "crew": crew or CREW,
                      "ready": {"AP": 2, "HE": 2}, "in_breach": ["HE"]}],
        "phase_cards": ["S05", "S07", "S12"],
        "hands": {0: ["101-C1", "101-C2", "101-C3"], 1: [], 601: []}})
    f = st.forces["US-1-601"]
    for pile in (f.deck, f.hand, f.discard):
        if card in pile:
            pile.remove(card)
    f.placed, f.revealed = [card, None, None], [True, False, False]
    for other in st.forces.values():
        other.planned = True
    st.phase, st.step = 1, "slot"
    cards.start(Ctx(st), "US-1-601", 1, Action(action))
    return st


def lines(st) -> list[str]:
    return [str(c) for c in legal_commands(st, 0)]


# -------------------------------------------------- 601-V3 Turret Swings Round: 1 vehicle turret; blue: the
# gunner must fire at the nearest target the turret now covers


def test_a_must_fire_box_with_no_target_covered_lapses_and_the_card_may_end(shipped):
    st = sherman_in_play(shipped, "601-V3", "move", german={"at": [32, 2], "facing": "s"})  # far off, unmarked
    assert not any(" fire " in f" {x} " for x in lines(st))
    assert "pass" in lines(st)
    after, events = apply(st, parse_command("pass", 0))
    assert after.active is None or after.active.card != "601-V3"
    assert any(e.kind == "pass" for e in events)


def test_a_must_fire_box_with_a_target_covered_must_be_fired(shipped):
    st = sherman_in_play(shipped, "601-V3", "move", german={"at": [22, 12], "facing": "s", "spotted_by": [601]})
    assert "note fire 601 main 201" in lines(st) and "pass" not in lines(st)
    with pytest.raises(RuleError, match="must shoot first"):
        apply(st, parse_command("pass", 0))
    with pytest.raises(RuleError, match="must shoot first"):
        apply(st, parse_command("done", 0))


def test_the_turret_entry_reads_vehicle_and_the_gunner_or_the_plate_may_turn_it(shipped):
    # License Plate: the vehicle's own team entry is worked by the man at the post; a player who
    # reads "1 vehicle turret" may name the plate or the gunner, and is offered both.
    st = sherman_in_play(shipped, "601-V3", "move", german={"at": [32, 2], "facing": "s"})
    assert "team: 1 vehicle turret" in describe(st, "601-V3")
    assert "team turret 601 e" in lines(st) and "team turret 152 e" in lines(st)
    for who in (601, 152):
        after, _ = apply(st, parse_command(f"turret {who} ne", 0))
        assert after.vehicles[601].turret == "ne"
        team = next(s for s in after.active.sources if s.kind == "team")
        assert team.state == "closed"  # the one turret turn is spent, whoever named it
        with pytest.raises(RuleError):
            apply(after, parse_command("team turret 152 e", 0))


def test_a_crewman_works_a_vehicle_entry_only_for_the_vehicles_own_work(shipped):
    # 601-V1 Pedal to the Floor: 1 vehicle move, 1 vehicle move. The driver may work both for the
    # tank (here turning the hull); the bow gunner may not climb out on it, nor the loader drive.
    st = sherman_in_play(shipped, "601-V1", "move", german={"at": [32, 2], "facing": "s"})
    assert "team vturn 154 e" in lines(st)
    assert not any(x.startswith(("team dismount", "team shift")) for x in lines(st))
    with pytest.raises(RuleError):
        apply(st, parse_command("team dismount 155", 0))
    with pytest.raises(RuleError):
        apply(st, parse_command("team vturn 153 e", 0))
    after, _ = apply(st, parse_command("team vturn 154 e", 0))
    assert after.vehicles[601].facing == "e"
    assert "team vturn 154 s" in lines(after)  # the second entry is the tank's too, whoever drives


# -------------------------------------------------- Hell on Wheels, How to Move: a Move++ marker stores three squares
# for the price of two MOVEs (ruling V2: both of one part of the card)


def test_a_move_plus_plus_takes_both_moves_of_pedal_to_the_floor(shipped):
    # 601-V1 Pedal to the Floor: 1 vehicle move, 1 vehicle move. The driver spends both on a Move++.
    st = sherman_in_play(shipped, "601-V1", "move", german={"at": [32, 2], "facing": "s"})
    assert "team moveplusplus 154" in lines(st) and "team moveplus 154" in lines(st)
    after, ev = apply(st, parse_command("team moveplusplus 154", 0))
    assert after.vehicles[601].move_plus == 3
    assert any(e.kind == "moveplus" and e.data["marker"] == "Move++" for e in ev)
    team = next(s for s in after.active.sources if s.kind == "team") if after.active else None
    assert team is None or team.state == "closed"
    assert not any(x.startswith("team ") for x in lines(after))


def test_the_dog_tag_gives_one_move_so_no_move_plus_plus(shipped):
    st = sherman_in_play(shipped, "601-V1", "move", german={"at": [32, 2], "facing": "s"})
    assert "tag moveplus 601" in lines(st) and "tag moveplusplus 601" not in lines(st)
    before = st.model_dump_json()
    with pytest.raises(RuleError, match="a Move\\+\\+ costs two MOVE actions of one part of the card, and after "
                                        "one the tag part has no second"):
        apply(st, parse_command("tag moveplusplus 601", 0))
    assert st.model_dump_json() == before


def test_after_one_move_of_the_bubble_a_move_plus_plus_is_no_longer_offered_nor_taken(shipped):
    st = sherman_in_play(shipped, "601-V1", "move", german={"at": [32, 2], "facing": "s"})
    after, _ = apply(st, parse_command("team moveplus 154", 0))
    assert after.vehicles[601].move_plus == 2
    assert "team vmove 601 14A" in lines(after) and "team moveplusplus 154" not in lines(after)
    with pytest.raises(RuleError, match="no second for"):
        apply(after, parse_command("team moveplusplus 154", 0))


def test_a_move_plus_plus_is_read_and_written_as_a_script_line():
    cmd = parse_command("team moveplusplus 154", 0)
    assert cmd.double and str(cmd) == "team moveplusplus 154"
    assert not parse_command("moveplus 154", 0).double


def test_a_cross_trained_man_at_a_post_does_not_work_the_vehicles_entry(shipped):
    # Gunner and loader have swapped seats: the plate is never served by a cross-trained man, so
    # the loader at the gun cannot traverse the turret for the tank's own entry either.
    swapped = dict(CREW, gunner=153, loader=152)
    st = sherman_in_play(shipped, "601-V3", "move", german={"at": [32, 2], "facing": "s"}, crew=swapped)
    assert not any("turret" in x for x in lines(st))
    for who, why in ((601, "not trained as its gunner"), (153, "1 vehicle turret left")):
        with pytest.raises(RuleError, match=why):
            apply(st, parse_command(f"team turret {who} ne", 0))


# -------------------------------------------------- Hell on Wheels, SHOOT, Damage X: a Hit+ invokes the standard
# Hit+ rule, to shoot again or switch targets


def test_a_vehicle_weapons_hit_plus_may_shoot_again_or_switch_targets(shipped):
    # 601-V9 Fire, Fire, Fire: the tank's coaxial MG fires at Brenner (201); its check reads Hit+.
    # Kessler (202) stands 2" from him, also marked by the Sherman: the player nominates him, and
    # the next hit check is Kessler's.
    st = sherman_in_play(shipped, "601-V9", "shoot", german={"at": [17, 12], "facing": "s", "spotted_by": [601]},
                         more=({"serial": 202, "seat": 1, "at": [19, 12], "facing": "s", "spotted_by": [601]},))
    mg = next(m for m in st.vehicle_def(601).mgs if m.id == "coax")
    bands = VS.geometry(st, 601, 201, mg.long, mg.short, mg.close, 3)[3]
    f = st.forces["US-1-601"]
    pile = sorted(f.deck + f.hand + f.discard)
    burst = next(c for c in pile if read_hits(st.card(c), bands, mg.hit_plus)[1])
    stop = next(c for c in pile if not read_hits(st.card(c), bands, mg.hit_plus)[1]
                and read_hits(st.card(c), bands, mg.hit_plus)[0])
    _stack(st, "US-1-601", burst, stop)
    de = st.forces["DE-2"]
    harmless = sorted(c for c in de.deck + de.hand + de.discard if st.card(c).damage in (Damage.ZIP, Damage.PIN))
    _stack(st, "DE-2", *harmless)  # nobody falls: both stay targets
    st, events = apply(st, parse_command("tag fire 601 coax 201", 0))
    assert st.pending.kind == "hitplus" and st.pending.candidates == [201, 202]
    assert {"hitplus 201", "hitplus 202"} <= set(lines(st))
    st, more = apply(st, parse_command("hitplus 202", 0))
    events += more
    assert [e.data["card"] for e in events if e.kind == "hit_check"] == [burst, stop]
    assert [e.data["target"] for e in events if e.kind == "shift"] == [202]
    struck = [e.data["serial"] for e in events if e.kind == "damage_check"]
    hits = [read_hits(st.card(c), bands, mg.hit_plus)[0] for c in (burst, stop)]
    assert struck == [201] * hits[0] * mg.damage_x + [202] * hits[1] * mg.damage_x


def _stack(st, fid: str, *top: str) -> None:
    f = st.forces[fid]
    for c in top:
        for pile in (f.deck, f.hand, f.discard):
            if c in pile:
                pile.remove(c)
    f.deck[:0] = list(top)
