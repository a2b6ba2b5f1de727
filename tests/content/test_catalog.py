"""The shipped content loads, meets the counts docs/tuning.md promises, and broken content
fails with a ContentError that names the file, the entry and the field."""
from __future__ import annotations

from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest

from engine.core.content import Catalog, OrderKind, Rank, layout_slots, load_catalog
from tests.content.broken import content_copy, corrupt, failure
from tools.content_stats import (
    blocked_cells,
    board_cell_tile,
    components,
    cover_cells,
    crossing_problems,
    level_of,
    preset_cost,
)

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(p.stem for p in (REPO / "campaigns" / "scenarios").glob("*.yaml"))
ACTIONS = ("look", "hide", "move", "shoot")


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog(REPO)


def side(cat: Catalog, nat: str):
    return [s for s in cat.soldiers.values() if s.nationality == nat]


# ---------------------------------------------------------------------------- soldiers


@pytest.mark.parametrize("nat, lo, hi", [("US", 101, 199), ("DE", 201, 299)])
def test_each_side_has_a_full_roster(cat, nat, lo, hi):
    men = side(cat, nat)
    assert len(men) >= 12
    assert all(lo <= s.serial <= hi for s in men)
    assert len({s.name.lower() for s in men}) == len(men)
    leaders = [s for s in men if s.is_leader]
    assert len(leaders) >= 3
    assert sum(any(p.healthy.hit_plus for p in s.ranks) for s in men) >= 2
    assert any(not s.is_leader and s.ranks[0].healthy.draw > 0 for s in men), "a scout or radio man draws"
    assert sum(s.grenades > 0 for s in men) >= 3
    assert any(s.grenades > 0 and s.ranks[0].healthy.toss > 0 for s in men)
    assert sum(bool(s.medal_cards) for s in men) >= 4


def test_leaders_carry_three_ranks_that_rise(cat):
    for s in cat.soldiers.values():
        if not s.is_leader:
            assert [p.rank for p in s.ranks] == [Rank.PRIVATE]
            continue
        assert [p.rank for p in s.ranks] == [Rank.PRIVATE, Rank.JUNIOR_NCO, Rank.SENIOR_NCO], s.name
        pvt, jun, sen = s.ranks
        assert pvt.vp < jun.vp < sen.vp, s.name
        assert pvt.healthy.sight <= jun.healthy.sight <= sen.healthy.sight
        assert jun.healthy.draw >= 1 and sen.healthy.draw >= jun.healthy.draw
        assert jun.healthy.rally >= 1 and sen.healthy.rally >= jun.healthy.rally
        assert sen.healthy.hold >= 1


def test_every_soldier_has_four_core_and_three_rank_cards(cat):
    for s in cat.soldiers.values():
        assert len(s.core_cards) == 4
        for p in s.ranks:
            assert len(p.cards) == 3
            assert all(cat.cards[c].role == "rank" and cat.cards[c].rank == p.rank for c in p.cards)
        assert all(cat.cards[c].owner == s.serial for c in s.core_cards)


def test_every_soldier_has_a_medal_card_for_each_medal_he_can_wear_at_one_rank(cat):
    """Issue 18: campaigns decorate every man (infantry, crewmen, specialists, officers,
    observers), at most three medals a rank, so each has three, replacing three different cards."""
    for s in cat.soldiers.values():
        assert len(s.medal_cards) == 3, s.name
        assert len({cat.cards[m].replaces for m in s.medal_cards}) == 3, s.name


def test_medal_cards_are_multi_action_and_better_than_what_they_replace(cat):
    order = {"Miss": 0, "Hit": 1, "Hit+": 2, "2 Hits": 3, "3 Hits": 4}
    medals = [c for c in cat.cards.values() if c.role == "medal"]
    assert medals
    for m in medals:
        core = cat.cards[m.replaces]
        assert m.multi and core.actions[0] in m.actions, m.id
        assert core.id in cat.soldiers[m.owner].core_cards
        gains = [order[getattr(m.hit, b)] - order[getattr(core.hit, b)] for b in ("long", "short", "close")]
        assert min(gains) >= 0, m.id
        bigger_team = sum(e.count for e in m.team) > sum(e.count for e in core.team)
        new_note = m.narrator is not None and core.narrator is None
        assert max(gains) > 0 or bigger_team or new_note, m.id
        assert not (m.narrator and m.narrator.color == "red"), m.id


@pytest.mark.parametrize("stat, lo, hi", [
    ("sight", 10, 18), ("draw", 0, 2), ("cover", -2, 6), ("rally", 0, 3), ("hold", 0, 2), ("walk", 5, 7),
    ("climb", 1, 2), ("fight", 1, 3), ("long", 7, 14), ("short", 3, 7), ("close", 6, 12),
])
def test_healthy_ratings_stay_in_the_documented_ranges(cat, stat, lo, hi):
    for s in cat.soldiers.values():
        for p in s.ranks:
            assert lo <= getattr(p.healthy, stat) <= hi, f"{s.name} {p.rank} {stat}"


def test_toss_is_zero_or_a_real_throw_and_the_wound_costs_something(cat):
    for s in cat.soldiers.values():
        for p in s.ranks:
            assert p.healthy.toss == 0 or 6 <= p.healthy.toss <= 9, s.name
            h, w = p.healthy, p.wounded
            worse = sum(getattr(w, k) < getattr(h, k) for k in ("sight", "walk", "long", "short", "close"))
            assert worse >= 3 and w.cover >= h.cover - 1, s.name


def test_vp_bands(cat):
    for s in cat.soldiers.values():
        for p in s.ranks:
            if p.rank == Rank.JUNIOR_NCO:
                assert 6 <= p.vp <= 8, s.name
            elif p.rank == Rank.SENIOR_NCO:
                assert 8 <= p.vp <= 11, s.name
            elif p.healthy.hit_plus:
                assert 5 <= p.vp <= 7, s.name
            else:
                assert 2 <= p.vp <= 5, s.name


def test_card_mix_per_side(cat):
    for nat in ("US", "DE"):
        # the dealt cards: a medal card is built from the core card it replaces, better by design
        cards = [c for c in cat.cards.values() if c.owner in cat.soldiers and cat.soldiers[c.owner].nationality == nat
                 and c.role != "medal"]
        n = len(cards)
        acts = Counter(a.value for c in cards for a in c.actions)
        assert all(0.2 <= acts[a] / sum(acts.values()) <= 0.3 for a in ACTIONS), acts
        for band, lo, hi in (("long", .65, .75), ("short", .45, .55), ("close", .25, .35), ("blast", .30, .40)):
            miss = sum(getattr(c.hit, band) == "Miss" for c in cards) / n
            assert lo <= miss <= hi, (nat, band, miss)
        dmg = Counter(c.damage.value for c in cards)
        for d, share in (("Zip", .35), ("Pin", .33), ("Wound", .20), ("Kill", .12)):
            assert abs(dmg[d] / n - share) < 0.05, (nat, d, dmg[d] / n)
        assert sum(bool(c.team) for c in cards) / n >= 0.6
        assert all(1 <= e.count <= 3 for c in cards for e in c.team)
        notes = Counter(c.narrator.color for c in cards if c.narrator)
        assert 0.25 <= sum(notes.values()) / n <= 0.42 and notes["red"] >= 3


def test_every_card_has_a_title_and_titles_do_not_repeat_within_a_side(cat):
    for nat in ("US", "DE"):
        titles = [c.title for c in cat.cards.values() if c.owner in cat.soldiers and cat.soldiers[c.owner].nationality == nat]
        assert all(titles)
        assert len(set(titles)) == len(titles)


# ---------------------------------------------------------------------------- story, orders, equipment


def test_story_deck(cat):
    general = [p for p in cat.story.values() if not p.landmark]
    assert len(general) >= 30
    pairs = Counter((p.top.value, p.bottom.value) for p in general)
    assert all(pairs[pair] >= 2 for pair in permutations(ACTIONS, 2)), pairs
    assert all(p.top != p.bottom for p in cat.story.values())
    assert len(Counter(p.effect.category for p in general)) == 6
    assert len(Counter(p.cause for p in general)) == 6
    colours = Counter(p.color for p in general)
    assert set(colours) == {"green", "tan", "grey", "red"} and max(colours.values()) - min(colours.values()) <= 3
    for p in general:
        where = getattr(p.effect.event, "where", None)
        assert where in (None, "random", "open"), f"{p.id} names a place that may not be on the map"
        assert getattr(p.effect.event, "to", None) != "holder", p.id


def test_every_landmark_piece_has_its_own_story_cards(cat):
    pieces = {t.piece for t in cat.tiles.values() if t.landmark}
    per_piece = Counter(p.landmark for p in cat.story.values() if p.landmark)
    assert set(per_piece) == pieces
    assert all(2 <= n <= 4 for n in per_piece.values())
    for p in cat.story.values():
        if p.landmark:
            ev = p.effect.event
            assert getattr(ev, "where", "landmark") == "landmark" or getattr(ev, "to", None) == "holder", p.id


def test_orders_cover_every_kind(cat):
    kinds = Counter(o.kind for o in cat.orders.values())
    assert set(kinds) == set(OrderKind)
    pieces = {t.piece for t in cat.tiles.values() if t.landmark}
    for kind in (OrderKind.HOLD, OrderKind.SEARCH, OrderKind.CAPTURE, OrderKind.RECON):
        assert {o.landmark for o in cat.orders.values() if o.kind == kind} == pieces, kind
    assert any(o.nationality for o in cat.orders.values())
    computed = {OrderKind.AMBUSH, OrderKind.SCREEN, OrderKind.REAR_GUARD}  # bonus worked out from play
    for o in cat.orders.values():
        assert (o.vp == 0) if o.kind in computed else (2 <= o.vp <= 8), o.id
        assert not o.landmark or o.landmark in pieces
        assert o.entry in (None, "A", "B", "X", "Y") and o.exit in (None, "A", "B", "X", "Y")
        if o.entry:
            assert o.nationality == ("US" if o.entry in "AB" else "DE"), o.id


def test_equipment_the_orders_need(cat):
    assert {"grenade", "radio", "explosives"} <= set(cat.equipment)
    assert cat.equipment["grenade"].vp == 1


# ---------------------------------------------------------------------------- tiles


def test_tile_counts_and_kinds(cat):
    squares = [t for t in cat.tiles.values() if not t.landmark]
    landmarks = [t for t in cat.tiles.values() if t.landmark]
    assert len(squares) >= 24 and len(landmarks) >= 4
    assert all(t.piece + side in cat.tiles for t in squares for side in "AB"), "every piece has two sides"
    assert any(t.mods.look is None for t in cat.tiles.values())
    assert any(t.mods.move is None and t.mods.hide is not None for t in cat.tiles.values())
    assert sum(bool(t.areas) for t in cat.tiles.values()) >= 2
    kinds = Counter(f.kind for t in cat.tiles.values() for f in t.features)
    assert kinds["cover"] and kinds["nomove"] and kinds["road"] and kinds["building"]


def test_open_ground_is_open_and_cover_ground_gives_cover(cat):
    for t in cat.tiles.values():
        if t.terrain == "open":
            assert not t.features and (t.mods.hide or 0) == 0, t.id
        if (t.mods.hide or 0) <= -2:
            assert len(cover_cells(t)) >= 0.2 * t.size ** 2, t.id


def test_every_tile_can_be_crossed(cat):
    assert {t.id: crossing_problems(t) for t in cat.tiles.values() if crossing_problems(t)} == {}


# ---------------------------------------------------------------------------- scenarios


def test_scenarios(cat):
    assert len(cat.scenarios) >= 3
    assert any(s.deploy for sc in cat.scenarios.values() for s in sc.sides)
    assert any(s.entry for sc in cat.scenarios.values() for s in sc.sides)
    assert any(s.reinforcements for sc in cat.scenarios.values() for s in sc.sides)
    assert any(cat.tiles[t].landmark for sc in cat.scenarios.values() for t in layout_slots(sc.map))


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_scenario_is_playable(cat, scenario_id):
    sc = cat.scenario(scenario_id)  # the file is named for the scenario's id
    assert 5 <= sc.turns <= 8 and sc.base_draw == 3
    assert 6 <= len(sc.map[0]) <= 8 and 4 <= len(sc.map) <= 6
    slots = layout_slots(sc.map)
    pieces = {cat.tiles[t].piece for t in slots if cat.tiles[t].landmark}
    assert {s.id for s in sc.sides} == {"US", "DE"}
    for s in sc.sides:
        assert 6 <= len(s.preset) <= 10
        assert preset_cost(cat, sc, s) <= s.force_vp[2]
        assert any(fe.rank != Rank.PRIVATE for fe in s.preset)
        serials = [fe.serial for fe in (*s.preset, *s.reinforcements)]
        assert len(set(serials)) == len(serials)
        for oid in s.orders:
            o = cat.orders[oid]
            assert not o.landmark or o.landmark in pieces, (oid, "landmark not on the map")
            if o.entry:
                assert o.entry in s.entry, (oid, "entry area not open to this side")
            if o.exit:
                assert o.exit in sc.exit_areas, (oid, "no such exit area")
            if o.kind == OrderKind.ATTACK:
                assert pieces, (oid, "no landmarks to attack")
            if o.kind == OrderKind.REGISTERED_FIRE:
                assert any("radio" in fe.equipment for fe in s.preset), (oid, "nobody carries the radio")
            if o.kind == OrderKind.DEMOLITION:
                assert any("explosives" in fe.equipment for fe in s.preset), (oid, "nobody carries the charge")
    us, de = sc.side("US"), sc.side("DE")
    assert not set(us.entry) & set(de.entry)


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_the_whole_board_is_one_walkable_piece(cat, scenario_id):
    sc = cat.scenario(scenario_id)
    cells = set()
    for tid, slots in layout_slots(sc.map).items():
        t = cat.tiles[tid]
        ox, oy = min(c for c, _ in slots) * 5, min(r for _, r in slots) * 5
        blocked, levels = blocked_cells(t), level_of(t)
        cells |= {(ox + x, oy + y) for x in range(t.size) for y in range(t.size)
                  if (x, y) not in blocked and levels.get((x, y), 1) <= 1}
    assert len(components(cells)) == 1


def test_deployed_soldiers_start_on_their_own_tiles(cat):
    sc = cat.scenario("bells-of-sainte-gisele")
    taken = set()
    for s in sc.sides:
        for fe in s.preset:
            assert fe.at is not None
            tid, local = board_cell_tile(sc, cat, fe.at)
            assert tid in s.deploy, (fe.serial, tid)
            t = cat.tiles[tid]
            assert local not in blocked_cells(t), fe.serial
            assert level_of(t).get(local, 1) <= cat.soldiers[fe.serial].profile(fe.rank).healthy.climb
            assert fe.at not in taken
            taken.add(fe.at)


def test_starting_lines_are_close_enough_for_contact(cat):
    """Entry edges or deployment tiles three to five squares apart (docs/tuning.md)."""
    for sc in cat.scenarios.values():
        slots = layout_slots(sc.map)
        us, de = sc.side("US"), sc.side("DE")
        if us.entry:
            edges = {sc.entry_areas[a].edge for a in us.entry} | {sc.entry_areas[a].edge for a in de.entry}
            span = len(sc.map) if edges <= {"n", "s"} else len(sc.map[0])
            assert 3 <= span <= 5, sc.id
        else:
            us_cols = [c for t in us.deploy for c, _ in slots[t]]
            de_cols = [c for t in de.deploy for c, _ in slots[t]]
            gap = min(abs(a - b) for a in us_cols for b in de_cols)
            assert 3 <= gap <= 5, sc.id


# ---------------------------------------------------------------------------- broken content


def test_the_copied_tree_loads(tmp_path):
    assert len(load_catalog(content_copy(tmp_path)).soldiers) >= 24


def test_a_bad_soldier_rating_names_file_soldier_and_field(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/soldiers/us.yaml", lambda d: d["soldiers"][3]["ranks"][0]["healthy"].update(walk="fast"))
    msg = failure(root)
    assert "us.yaml" in msg and "soldiers[3]" in msg and "serial 104" in msg and "healthy.walk" in msg


def test_a_bad_card_names_the_card(tmp_path):
    root = content_copy(tmp_path)

    def change(d):
        d["soldiers"][0]["core"][1]["damage"] = "Maim"
    corrupt(root, "assets/soldiers/de.yaml", change)
    msg = failure(root)
    assert "de.yaml" in msg and "soldiers[0].core[1]" in msg and "201-C2" in msg and "field damage" in msg


def test_a_bad_hit_box_names_the_card(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/soldiers/us.yaml", lambda d: d["soldiers"][5]["ranks"][0]["cards"][2].update(hit="Miss/Hit"))
    msg = failure(root)
    assert "us.yaml" in msg and "soldiers[5].ranks[0].cards[2]" in msg and "field hit" in msg


def test_a_medal_replacing_no_core_card_names_file_and_field(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/soldiers/us.yaml", lambda d: d["soldiers"][0]["medals"][0].update(replaces=7))
    msg = failure(root)
    assert "us.yaml" in msg and "soldiers[0].medals[0]" in msg and "field replaces" in msg


def test_a_twice_used_dog_tag(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/soldiers/de.yaml", lambda d: d["soldiers"][2].update(serial=201))
    msg = failure(root)
    assert "de.yaml" in msg and "soldiers[2]" in msg and "field serial" in msg


def test_a_bad_story_card_names_the_card(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/story/core.yaml", lambda d: d["cards"][4]["effect"].update(category="Aliens"))
    msg = failure(root)
    assert "core.yaml" in msg and "cards[4]" in msg and "S05" in msg and "effect.category" in msg


def test_a_bad_tile_modifier_names_the_tile(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/tiles/squares.yaml", lambda d: d["tiles"][6]["mods"].update(look="steep"))
    msg = failure(root)
    assert "squares.yaml" in msg and "tiles[6]" in msg and "'4A'" in msg and "mods.look" in msg


def test_a_bad_order_names_the_order(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "assets/orders.yaml", lambda d: d["orders"][0].update(vp=-3))
    msg = failure(root)
    assert "orders.yaml" in msg and "orders[0]" in msg and "hold-l1" in msg and "field vp" in msg


def test_a_scenario_with_an_unknown_tile_names_the_map(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "campaigns/scenarios/hedgerow-dawn.yaml", lambda d: d["map"][1].__setitem__(2, "99A"))
    msg = failure(root)
    assert "hedgerow-dawn.yaml" in msg and "hedgerow-dawn" in msg and "field map" in msg and "99A" in msg


def test_a_scenario_preset_with_a_stranger_names_the_entry(tmp_path):
    root = content_copy(tmp_path)
    corrupt(root, "campaigns/scenarios/sevrette-crossing.yaml",
            lambda d: d["sides"][0]["preset"][2].update(serial=205))
    msg = failure(root)
    assert "sevrette-crossing.yaml" in msg and "sides[0].preset[2]" in msg and "not US" in msg


def test_a_scenario_vehicle_with_a_plate_not_of_its_type_names_the_field(tmp_path):
    """A plate per vehicle (docs/vehicles.md): a named plate is its type's, + 1000 for each further one."""
    root = content_copy(tmp_path)
    corrupt(root, "campaigns/scenarios/vautrin-pair.yaml",
            lambda d: d["sides"][0]["vehicles"][1].update(plate=1602))
    msg = failure(root)
    assert "vautrin-pair.yaml" in msg and "sides[0].vehicles[1].plate" in msg and "plate is 601, 1601, 2601" in msg


def test_a_team_card_refuses_a_narrator_box_nobody_could_take(tmp_path):
    root = content_copy(tmp_path)

    def change(d):
        d["panels"][0]["cards"][0]["note"] = {"color": "white", "kind": "cover", "text": "go to ground"}
    corrupt(root, "assets/teams/us.yaml", change)
    msg = failure(root)
    assert "us.yaml" in msg and "panels[0]" in msg and "-T1" in msg and "narrator box" in msg
