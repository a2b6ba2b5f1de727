"""The vehicle and gun content (Hell on Wheels): the panels load with everything the book's
panel shows, their numbers stay in the book's scale, their crews are complete and trained on
them, their cards are mixed as docs/vehicles-content.md says, the scenarios with vehicles fit
their budgets, and broken vehicle YAML fails with a ContentError naming file, entry and field."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.core.content import GEAR, Catalog, Damage, Rank, layout_slots, load_catalog
from engine.core.vehicle_content import BANDS, DAMAGE_COLOURS, Aspect, Compartment, Role
from tests.content.broken import content_copy, corrupt, failure

REPO = Path(__file__).resolve().parents[2]
REQUIRED = {  # the vehicles the issue asks for, by id
    "m4a1-sherman": ("US", "tank"),
    "pzkw-iv-h": ("DE", "tank"),
    "sdkfz-250-1": ("DE", "halftrack"),
    "m8-greyhound": ("US", "armored_car"),
    "57mm-m1": ("US", "gun"),
    "pak-40": ("DE", "gun"),
}
VEHICLES = sorted(REQUIRED)
CREW_SERIALS = {"US": range(150, 200), "DE": range(250, 300)}


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog(REPO)


def crew_of(cat: Catalog, vid: str):
    return [s for s in cat.soldiers.values() if s.crew is not None and s.crew.vehicle == vid]


def cards_of(cat: Catalog, vid: str, role: str):
    v = cat.vehicles[vid]
    return [cat.cards[c] for c in v.cards if cat.cards[c].role == role]


# ---------------------------------------------------------------------------- the panels


def test_the_catalogue_loads_with_every_required_vehicle(cat):
    assert set(REQUIRED) <= set(cat.vehicles)
    for vid, (nat, kind) in REQUIRED.items():
        v = cat.vehicles[vid]
        assert (v.nationality.value, v.kind) == (nat, kind), vid
    plates = [v.plate for v in cat.vehicles.values()]
    assert len(set(plates)) == len(plates) and all(p >= 500 and p not in cat.soldiers for p in plates)


def test_the_required_features(cat):
    sherman, panzer = cat.vehicles["m4a1-sherman"], cat.vehicles["pzkw-iv-h"]
    halftrack, m8 = cat.vehicles["sdkfz-250-1"], cat.vehicles["m8-greyhound"]
    assert panzer.schurzen and not sherman.schurzen
    assert "Schürzen" in " ".join(panzer.special)
    assert any(a.heat for a in panzer.main_gun.ammo), "Schürzen matter against HEAT: someone fires it"
    # the half-track: a cabin with passenger slots and its own armour, crew in the cabin
    assert halftrack.passengers == 4 and Compartment.CABIN in halftrack.armour
    assert any(loc.compartment == Compartment.CABIN and loc.kind == "crew" for loc in halftrack.locations)
    assert halftrack.rider_limit == 4
    # the M8: a radio operator position and radio machinery, and the best radio value
    assert any(loc.role == Role.RADIO for loc in m8.crew_positions)
    assert any(loc.radio for loc in m8.locations) and m8.radio == 1
    # the Sherman: a .50 on the roof that pulls two damage results and bites light armour
    aa = next(m for m in sherman.mgs if m.mount == "aa")
    assert aa.damage_x == 2 and aa.pen.close > 0
    assert any(m.tracers for m in sherman.mgs)
    # one gun per side
    guns = {v.nationality.value for v in cat.vehicles.values() if v.kind == "gun"}
    assert guns == {"US", "DE"}


@pytest.mark.parametrize("vid", VEHICLES)
def test_every_panel_is_complete(cat, vid):
    v = cat.vehicles[vid]
    roles = Counter(loc.role for loc in v.crew_positions)
    machinery = {loc.id for loc in v.locations if loc.kind == "machinery"}
    assert any(loc.ammo == "spare" and loc.spare_rounds > 0 for loc in v.locations)
    assert any(loc.drive for loc in v.locations), "something whose Critical immobilises"
    assert any(loc.outside for loc in v.locations), "a track, wheel or engine outside the hull"
    assert all(loc.compartment in v.armour for loc in v.locations)
    if v.main_gun:
        ids = {a.id for a in v.main_gun.ammo}
        assert {"AP", "HE"} <= ids, vid
        assert any(loc.ammo == "ready" for loc in v.locations)
        assert any("main" in loc.weapons and loc.role == Role.GUNNER for loc in v.crew_positions)
        assert "main_gun" in machinery
    if v.kind == "gun":
        assert set(v.armour) == {Compartment.HULL}
        assert v.open_move <= 1 and v.road_move == 0 and not v.tracked
        assert v.armour[Compartment.HULL].front > v.armour[Compartment.HULL].side, "a shield in front only"
        assert set(roles) == {Role.GUNNER, Role.LOADER, Role.COMMANDER}
        assert v.sight == 0 and not any(loc.hatch for loc in v.crew_positions)
        assert "shield" in machinery
    else:
        assert v.open_move >= 1 and v.road_move > v.open_move
        assert Role.DRIVER in roles and Role.COMMANDER in roles
        assert any(loc.hatch for loc in v.crew_positions)
        assert any(loc.radio for loc in v.locations) and v.radio is not None
        assert v.climb == (3 if v.has_turret else 2)
        assert "engine" in machinery
    if v.kind == "tank":
        assert len(v.crew_positions) == 5
        assert {"turret_ring", "ready_ammo", "spare_ammo", "coax", "hull_mg", "gun_sight", "track"} <= machinery
        assert {m.mount for m in v.mgs} >= {"hull", "coax"}
    assert v.special, "special rules in words"


@pytest.mark.parametrize("vid", VEHICLES)
def test_numbers_follow_the_books_scale(cat, vid):
    v = cat.vehicles[vid]
    for comp, arm in v.armour.items():
        for aspect in Aspect:
            a = arm.of(aspect)
            assert 0 <= a <= 8, (vid, comp, aspect)
            if v.kind != "gun":
                assert a >= 2, (vid, comp, aspect)
        assert arm.front >= arm.side >= 0 and arm.front >= arm.rear
    assert -6 <= v.sight <= 0 and 1 <= v.visibility <= 10 and 1 <= v.bog_pins <= 3
    assert v.open_move <= 1 and v.road_move <= 5
    for loc in v.crew_positions:
        if loc.role == Role.GUNNER:
            assert 2 <= loc.optics <= 3, (vid, loc.id)
        assert loc.optics <= 3
    if v.main_gun:
        g = v.main_gun
        assert 1 <= g.rof <= 3 and g.long > g.short > 0 and g.close >= 5
        ap = g.ammo_type("AP")
        assert 3 <= ap.pen.long <= ap.pen.short <= ap.pen.close <= 12, vid
        he = g.ammo_type("HE")
        assert he.pen.close < ap.pen.close and he.blast.close >= ap.blast.close and he.blast.close >= 1
        for a in g.ammo:
            assert a.max_rounds >= 1 and 1 <= a.vp <= 2
    # VP in the scale of soldiers worth 2-11: a tank is worth a squad, a gun a few men
    lo, hi = {"tank": (30, 40), "armored_car": (15, 25), "halftrack": (12, 20), "gun": (8, 14)}[v.kind]
    assert lo <= v.vp <= hi, vid
    for m in v.mgs:
        assert m.long > m.short > 0 and 1 <= m.damage_x <= 2


def test_a_sherman_is_out_gunned_and_the_panzer_is_thin_in_the_flank(cat):
    """The relations that make the two tanks play differently."""
    sherman, panzer = cat.vehicles["m4a1-sherman"], cat.vehicles["pzkw-iv-h"]
    s_ap, p_ap = sherman.main_gun.ammo_type("AP"), panzer.main_gun.ammo_type("AP")
    assert p_ap.pen.short > s_ap.pen.short
    assert panzer.armour["hull"].side < sherman.armour["hull"].side
    assert panzer.armour["hull"].front >= sherman.armour["hull"].front - 1
    assert sherman.road_move > panzer.road_move and panzer.bog_pins > sherman.bog_pins


# ---------------------------------------------------------------------------- damage, fire, colours


@pytest.mark.parametrize("vid", VEHICLES)
def test_damage_tables_name_real_locations_of_their_compartment(cat, vid):
    v = cat.vehicles[vid]
    by_id = {loc.id: loc for loc in v.locations}
    compartments = {loc.compartment for loc in v.locations}
    assert set(v.damage) == compartments
    for comp, table in v.damage.items():
        named = set()
        for band in BANDS:
            rows = getattr(table, band)
            assert 4 <= len(rows) <= 6, (vid, comp, band)
            assert rows[0].hits == 0, (vid, comp, band)
            assert [r.hits for r in rows] == sorted({r.hits for r in rows}), (vid, comp, band, "ascending")
            for r in rows:
                if r.location != "crew":
                    assert r.location in by_id, (vid, comp, band, r.location)
                    assert by_id[r.location].kind == "machinery", (vid, r.location)
                    assert by_id[r.location].compartment == comp, (vid, comp, r.location)
                named.add(r.location)
        has_crew = any(loc.compartment == comp and loc.kind == "crew" for loc in v.locations)
        if has_crew:
            assert "crew" in named, (vid, comp)
        mine = {loc.id for loc in v.locations if loc.compartment == comp and loc.kind == "machinery"}
        assert mine <= named, (vid, comp, "never hit", mine - named)


@pytest.mark.parametrize("vid", VEHICLES)
def test_fire_paths_join_every_location(cat, vid):
    v = cat.vehicles[vid]
    ids = {loc.id for loc in v.locations}
    links: dict[str, set[str]] = {i: set() for i in ids}
    seen = set()
    for p in v.fire_paths:
        assert p.a in ids and p.b in ids and p.a != p.b, (vid, p)
        assert 1 <= p.icons <= 3, (vid, p)
        pair = frozenset((p.a, p.b))
        assert pair not in seen, (vid, "path given twice", p)
        seen.add(pair)
        links[p.a].add(p.b)
        links[p.b].add(p.a)
    start = next(iter(ids))
    reached, todo = {start}, [start]
    while todo:
        for n in links[todo.pop()]:
            if n not in reached:
                reached.add(n)
                todo.append(n)
    assert reached == ids, (vid, "cut off from the fire paths", ids - reached)


@pytest.mark.parametrize("vid", VEHICLES)
def test_colours_cover_every_aspect(cat, vid):
    v = cat.vehicles[vid]
    hit = set()
    for aspect in Aspect:
        assert set(v.colours[aspect]) == set(DAMAGE_COLOURS), (vid, aspect)
        hit |= set(v.colours[aspect].values())
    assert hit == set(v.armour), (vid, "a compartment no colour ever hits")


# ---------------------------------------------------------------------------- crews


@pytest.mark.parametrize("vid", VEHICLES)
def test_every_vehicle_has_a_complete_crew_trained_on_it(cat, vid):
    """One whole crew or more (a second Sherman's crew for two in one game, issue 18), each led."""
    v = cat.vehicles[vid]
    men = crew_of(cat, vid)
    assert all(s.nationality == v.nationality for s in men)
    need = Counter(loc.role for loc in v.crew_positions)
    have = Counter(s.crew.role for s in men)
    crews = len(men) // sum(need.values())
    assert crews >= 1 and have == Counter({r: n * crews for r, n in need.items()}), (vid, need, have)
    assert sum(s.is_leader and s.crew.role == Role.COMMANDER for s in men) == crews, (vid, "a commander who leads")


def test_crewmen_are_soldiers_on_foot_too(cat):
    men = [s for s in cat.soldiers.values() if s.crew is not None]
    assert len(men) >= 20
    for s in men:
        assert s.serial in CREW_SERIALS[s.nationality.value], s.serial
        assert len(s.core_cards) == 4 and all(len(p.cards) == 3 for p in s.ranks)
        for p in s.ranks:
            assert p.healthy.walk == 5, s.name  # crew used as soldiers walk 5 (Crew as Soldiers)
            assert 1 <= p.healthy.fight <= 2 and p.healthy.long <= 14, s.name
        for cid in [*s.core_cards, *(c for p in s.ranks for c in p.cards)]:
            card = cat.cards[cid]
            assert card.owner == s.serial and card.damage not in GEAR, cid
    leaders = Counter(s.nationality.value for s in men if s.is_leader)
    assert leaders["US"] >= 1 and leaders["DE"] >= 1
    crew_entries = [e for s in men for cid in s.core_cards for e in cat.cards[cid].team if e.who != "soldier"]
    assert len(crew_entries) >= 15, "crewmen's bubbles name crew and vehicle sub-actions"


# ---------------------------------------------------------------------------- cards


@pytest.mark.parametrize("vid", VEHICLES)
def test_every_vehicle_has_its_action_and_team_cards(cat, vid):
    v = cat.vehicles[vid]
    vehicle, team = cards_of(cat, vid, "vehicle"), cards_of(cat, vid, "team")
    assert 8 <= len(vehicle) <= 10 and 4 <= len(team) <= 6, vid
    assert all(c.owner == v.plate for c in vehicle + team)
    assert [c.id for c in vehicle] == [f"{v.plate}-V{i + 1}" for i in range(len(vehicle))]
    assert [c.id for c in team] == [f"{v.plate}-T{i + 1}" for i in range(len(team))]
    assert {a.value for c in vehicle for a in c.actions} == {"look", "hide", "move", "shoot"}
    entries = [e for c in vehicle + team for e in c.team]
    assert any(e.who == "vehicle" and e.do.value == "shoot" for e in entries) or not v.main_gun
    assert any(e.who == "crew" and e.do.value == "load" for e in entries) or not v.main_gun
    assert any(e.who == "vehicle" and e.do.value in ("move", "face") for e in entries)
    assert all(1 <= e.count <= 3 for e in entries)
    kinds = {c.narrator.kind for c in vehicle + team if c.narrator}
    assert {"repair", "extinguish"} <= kinds, vid
    dmg = Counter(c.damage for c in vehicle + team)
    assert {Damage.WRECK, Damage.FIRE, Damage.CRITICAL, Damage.PICK} <= set(dmg), vid
    if v.kind != "gun":
        assert any(e.who == "vehicle" and e.do.value == "move" for c in vehicle for e in c.team
                   if sum(x.do.value == "move" and x.who == "vehicle" for x in c.team) == 2), "move and move again"


def test_vehicle_cards_mix_gear_and_blast_results(cat):
    cards = [c for c in cat.cards.values() if c.role in ("vehicle", "team")]
    n = len(cards)
    dmg = Counter(c.damage for c in cards)
    gear = sum(dmg[d] for d in GEAR) / n
    assert 0.5 <= gear <= 0.6, gear
    for d, share in ((Damage.WRECK, .22), (Damage.FIRE, .13), (Damage.CRITICAL, .10), (Damage.PICK, .10)):
        assert abs(dmg[d] / n - share) < 0.04, (d, dmg[d] / n)
    for band, lo, hi in (("long", .6, .8), ("short", .4, .56), ("close", .2, .36), ("blast", .26, .42)):
        miss = sum(getattr(c.hit, band) == "Miss" for c in cards) / n
        assert lo <= miss <= hi, (band, miss)
    notes = Counter(c.narrator.color for c in cards if c.narrator)
    assert notes["white"] and notes["blue"] and notes["red"]


def test_titles_do_not_repeat_within_a_side(cat):
    plates = {v.plate: v.nationality.value for v in cat.vehicles.values()}
    for nat in ("US", "DE"):
        titles = [c.title for c in cat.cards.values()
                  if c.owner  # team-panel cards (owner 0) are checked in test_advanced_content.py
                  and (cat.soldiers[c.owner].nationality.value if c.owner in cat.soldiers else plates[c.owner]) == nat]
        assert all(titles)
        dup = [t for t, k in Counter(titles).items() if k > 1]
        assert not dup, (nat, dup)


# ---------------------------------------------------------------------------- scenarios


def entry_cost(cat: Catalog, ve) -> int:
    """A vehicle entry: the vehicle's VP, its crew's (private profile) and the rounds bought."""
    v = cat.vehicles[ve.vehicle]
    crew = sum(cat.soldiers[s].ranks[0].vp for s in ve.crew.values())
    return v.vp + crew + sum(n * v.main_gun.ammo_type(a).vp for a, n in ve.ammo.items())


def side_cost(cat: Catalog, sc, side) -> int:
    """The preset's whole price: soldiers and kit, vehicles with crews and rounds, and the
    artillery and minefields it buys (the vehicle book puts them all on the force's VP)."""
    from engine.battlefield.artillery import purchase_cost
    from engine.battlefield.mines import check_fields
    from engine.turn.setup import force_cost
    return (force_cost(cat, sc, side.id, list(side.preset)) + sum(entry_cost(cat, ve) for ve in side.vehicles)
            + purchase_cost(cat, sc, side.ordnance, side.barrages) + check_fields(cat, sc, side.id, list(side.minefields)))


def vehicle_scenarios(cat: Catalog):
    return [sc for sc in cat.scenarios.values() if any(s.vehicles for s in sc.sides)]


def test_scenarios_with_vehicles(cat):
    both = [sc for sc in vehicle_scenarios(cat) if all(s.vehicles and s.preset for s in sc.sides)]
    assert both, "a scenario with vehicles and infantry on both sides"
    with_gun = [sc for sc in vehicle_scenarios(cat)
                if any(cat.vehicles[ve.vehicle].kind == "gun" for s in sc.sides for ve in s.vehicles)]
    assert with_gun, "a scenario with a gun"
    for sc in with_gun:
        gun_side = next(s for s in sc.sides if any(cat.vehicles[ve.vehicle].kind == "gun" for ve in s.vehicles))
        other = next(s for s in sc.sides if s is not gun_side)
        assert any(cat.vehicles[ve.vehicle].kind != "gun" for ve in other.vehicles), "the gun faces a vehicle"


@pytest.mark.parametrize("scenario_id", sorted(p.stem for p in (REPO / "campaigns" / "scenarios").glob("*.yaml")))
def test_vehicle_scenarios_fit_their_budgets_and_crews(cat, scenario_id):
    sc = cat.scenario(scenario_id)
    if not any(s.vehicles for s in sc.sides):
        pytest.skip("no vehicles")
    slots = layout_slots(sc.map)
    assert 7 <= len(sc.map[0]) <= 8 and 4 <= len(sc.map) <= 5, "room for the guns"
    assert any(f.kind == "road" for t in slots for f in cat.tiles[t].features), "roads on the map"
    for side in sc.sides:
        assert side_cost(cat, sc, side) <= side.force_vp[2], (side.id, side_cost(cat, sc, side))
        assert side_cost(cat, sc, side) >= 0.8 * side.force_vp[2], "a budget that is spent"
        for ve in side.vehicles:
            v = cat.vehicles[ve.vehicle]
            filled = {pos for pos in ve.crew}
            assert filled == {loc.id for loc in v.crew_positions}, (ve.vehicle, "every post manned")
            for pos, serial in ve.crew.items():
                s = cat.soldiers[serial]
                assert s.crew is not None and s.crew.vehicle == v.id, (ve.vehicle, serial, "trained on it")
                role = v.location(pos).role
                assert s.crew.role in (role, Role.COMMANDER), (ve.vehicle, pos, s.name)
            if v.main_gun:
                assert ve.in_breach in ve.ammo and sum(ve.ammo.values()) >= 6
            if ve.tile is not None:
                assert ve.tile in slots
            else:
                assert side.entry, (ve.vehicle, "enters from an entry area")
            assert ve.facing in ("n", "ne", "e", "se", "s", "sw", "w", "nw")
        for fe in side.preset:
            assert cat.soldiers[fe.serial].crew is None, "crewmen ride in their vehicle, not on foot"
    assert any(fe.rank != Rank.PRIVATE for s in sc.sides for fe in s.preset)


# ---------------------------------------------------------------------------- broken content


def test_the_copied_tree_loads_with_its_vehicles(tmp_path):
    assert set(REQUIRED) <= set(load_catalog(content_copy(tmp_path)).vehicles)


def test_bad_armour_names_file_vehicle_and_field(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/vehicles/us.yaml", lambda d: d["vehicles"][0]["armour"]["hull"].update(front="thick"))
    msg = failure(root)
    assert "us.yaml" in msg and "vehicles[0]" in msg and "m4a1-sherman" in msg and "armour.hull.front" in msg


def test_a_damage_table_naming_no_location_is_refused(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/vehicles/de.yaml",
            lambda d: d["vehicles"][1]["damage"]["cabin"]["short"][1].update(location="bazooka_rack"))
    msg = failure(root)
    assert "de.yaml" in msg and "vehicles[1]" in msg and "sdkfz-250-1" in msg
    assert "damage table cabin.short" in msg and "bazooka_rack" in msg


def test_a_fire_path_to_nowhere_is_refused(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/vehicles/us.yaml", lambda d: d["vehicles"][1]["fire_paths"][0].update(b="boiler"))
    msg = failure(root)
    assert "us.yaml" in msg and "vehicles[1]" in msg and "m8-greyhound" in msg and "fire path" in msg


def test_a_bad_vehicle_card_names_the_card(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/vehicles/de.yaml", lambda d: d["vehicles"][0]["team_cards"][2].update(damage="Melt"))
    msg = failure(root)
    assert "de.yaml" in msg and "vehicles[0].team_cards[2]" in msg and "701-T3" in msg and "field damage" in msg


def test_a_missing_colour_aspect_is_refused(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/vehicles/de.yaml", lambda d: d["vehicles"][2]["colours"].pop("rear"))
    msg = failure(root)
    assert "de.yaml" in msg and "vehicles[2]" in msg and "pak-40" in msg and "rear" in msg


def test_a_plate_that_is_a_dog_tag_is_refused(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/vehicles/us.yaml", lambda d: d["vehicles"][2].update(plate=702))
    msg = failure(root)
    assert "field plate" in msg and "702" in msg


def test_a_crewman_trained_on_no_vehicle_is_refused(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/soldiers/us_crew.yaml", lambda d: d["soldiers"][2]["crew"].update(vehicle="m26-pershing"))
    msg = failure(root)
    assert "153" in msg and "crew.vehicle" in msg and "m26-pershing" in msg


def test_a_bad_crew_role_names_file_soldier_and_field(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/soldiers/de_crew.yaml", lambda d: d["soldiers"][0]["crew"].update(role="cook"))
    msg = failure(root)
    assert "de_crew.yaml" in msg and "soldiers[0]" in msg and "serial 251" in msg and "crew.role" in msg


def test_a_scenario_crewing_a_tank_with_a_missing_post_names_the_entry(tmp_path):
    root = content_copy(tmp_path)

    def change(d):
        d["sides"][1]["vehicles"][0]["crew"]["hull_gunner"] = d["sides"][1]["vehicles"][0]["crew"].pop("radio_operator")
    corrupt(root, "campaigns/scenarios/vautrin-crossroads.yaml", change)
    msg = failure(root)
    assert "vautrin-crossroads.yaml" in msg and "sides[1].vehicles[0].crew" in msg and "hull_gunner" in msg


def test_too_many_rounds_names_the_entry(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "campaigns/scenarios/chapel-gun.yaml", lambda d: d["sides"][1]["vehicles"][0]["ammo"].update(HEAT=9))
    msg = failure(root)
    assert "chapel-gun.yaml" in msg and "sides[1].vehicles[0].ammo" in msg and "HEAT" in msg


def test_the_crew_files_match_a_redraw():
    """tools/make_crews.py --check: the committed crew files are what the generator draws."""
    from tools.make_crews import SEED, render
    for path, text in render(SEED).items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} differs from a redraw"
