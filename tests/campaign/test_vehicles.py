"""Crews and vehicles in a campaign (docs/campaigns.md, Crews and vehicles), on the shipped
Iron on the Mill Road: the company's vehicles and crewmen, forces with vehicles seated by
training, the short-crews rule, what a finished game does to crews and vehicles (destroyed,
abandoned, the workshop), and what the roster, service records and exports show."""
from __future__ import annotations

import csv
import functools
import io
import json
from pathlib import Path

import pytest
import yaml

from bot.app.campaign import CampaignService
from bot.app.errors import Refused
from engine import new_game
from engine.campaign import (
    CampaignError,
    PlayerOutcome,
    ScenarioResult,
    SoldierOutcome,
    Status,
    VehicleOutcome,
    apply_result,
    auto_force,
    award,
    begin,
    join,
    load_campaigns,
    mark,
    new_campaign,
    pick,
    result_from_game,
    roster_view,
    seat_crew,
    seat_specs,
    service_record,
    set_short_crews,
)
from engine.core.errors import ContentError
from engine.core.state import VpEntry
from tests.campaign.conftest import ANN, BO, DATE, HERE, OLGA, autoplay

IRON = "iron-on-the-mill-road"
REPO = Path(__file__).resolve().parents[2]
CAROL = type(ANN)(33, "Carol")
DAN = type(ANN)(44, "Dan")


@functools.cache
def iron_def():
    from tests.campaign.conftest import shipped
    cat = shipped()[0]
    return load_campaigns(cat)[IRON]


@pytest.fixture(scope="module")
def idef():
    return iron_def()


def begun(cat, idef, players=((ANN, "US"), (BO, "DE"))):
    st = new_campaign(idef, None, OLGA.user_id, DATE)
    for who, side in players:
        st = join(st, idef, cat, who.user_id, who.name, side, DATE)
    return begin(st)


def result(st, idef, *, winner=None, soldiers=(), vehicles=(), key="hand") -> ScenarioResult:
    """A result of the next step made by hand: these soldier and vehicle outcomes (each a dict of
    fields; user ids filled in from the rosters)."""
    def owned(d):
        return {"user_id": st.owner_of(d.get("serial", d.get("plate"))).user_id, **d}
    players = [PlayerOutcome(user_id=p.user_id, seat=i, side=p.side, own_vp=0, shared_vp=0)
               for i, p in enumerate(st.players)]
    step = idef.step(st.step)
    return ScenarioResult(key=f"{key}:{st.number}", step=step.id, scenario=step.scenario, winner=winner,
                          reason="made by hand", side_vp={"US": 0, "DE": 0}, players=players,
                          soldiers=[SoldierOutcome(**owned(d)) for d in soldiers],
                          vehicles=[VehicleOutcome(**owned(d)) for d in vehicles])


# ---------------------------------------------------------------------------- the definition


def test_the_company_lists_vehicles_by_plate_with_their_crews_trained_as_their_cards_say(cat, idef):
    us = {e.serial: e for e in idef.sides["US"].company}
    assert us[601].vehicle == "m4a1-sherman" and us[601].crew == [151, 152, 153, 154, 155]
    assert us[602].crew == [156, 157, 158, 159] and us[603].crew == [160, 161, 162]
    assert us[151].training.role == "commander" and us[151].training.vehicle == "m4a1-sherman"
    de = {e.serial: e for e in idef.sides["DE"].company}
    assert de[702].crew == [256, 257] and de[703].name == "Lange Anna"
    assert idef.step("chapel").vehicle_rule("DE") == "required"
    assert idef.step("chapel").vehicle_rule("US") == "allowed"


def write_iron(tmp_path: Path, change) -> Path:
    data = yaml.safe_load((REPO / "campaigns" / IRON / "campaign.yaml").read_text())
    change(data)
    folder = tmp_path / "campaigns" / IRON
    folder.mkdir(parents=True)
    (folder / "campaign.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))
    return folder / "campaign.yaml"


def us_company(d):
    return d["sides"]["US"]["company"]


@pytest.mark.parametrize("change, field, words", [
    (lambda d: us_company(d)[8].update(training={"role": "driver", "vehicle": "m4a1-sherman"}),
     "sides.US.company[8].training", "card says gunner on m4a1-sherman"),
    (lambda d: us_company(d)[1].update(kind="crewman"), "sides.US.company[1].kind", "names no crew training"),
    (lambda d: us_company(d)[7].update(kind="soldier"), "sides.US.company[7].kind", "list him with kind: crewman"),
    (lambda d: us_company(d)[19].update(vehicle="tiger"), "sides.US.company[19].vehicle", "no vehicle 'tiger'"),
    (lambda d: us_company(d)[19].update(vehicle="pzkw-iv-h"), "sides.US.company[19].vehicle", "is DE, not US"),
    (lambda d: us_company(d)[21].update(serial=604), "sides.US.company[21].serial", "license plate is 603"),
    (lambda d: us_company(d)[20].update(crew=[101]), "sides.US.company[20].crew", "no crewman of the company"),
    (lambda d: us_company(d)[19].update(crew=[156]), "sides.US.company[20].crew", "already crews plate 601"),
    (lambda d: d["steps"][0].update(scenario="hedgerow-dawn", vehicles={"US": "required"}),
     "steps[0].vehicles.US", "fields no US vehicles to require"),
])
def test_a_broken_vehicle_or_crewman_names_file_entry_and_field(tmp_path, cat, change, field, words):
    path = write_iron(tmp_path, change)
    with pytest.raises(ContentError) as err:
        load_campaigns(cat, tmp_path)
    assert str(path) in str(err.value) and f"field {field}" in str(err.value) and words in str(err.value)


# ---------------------------------------------------------------------------- sharing the company


def test_a_vehicle_is_dealt_with_its_crew_and_the_vehicles_spread_over_a_sides_players(cat, idef):
    st = begun(cat, idef, ((ANN, "US"), (BO, "DE"), (CAROL, "US"), (DAN, "DE")))
    for who in (ANN, CAROL, BO, DAN):
        p = st.player(who.user_id)
        mine = {e.serial for e in p.roster}
        for v in (e for e in p.roster if e.kind == "vehicle"):
            assert set(v.crew) <= mine, f"{v.name}'s crew went to another player"
        assert any(e.kind == "vehicle" for e in p.roster), f"{p.name} got no vehicle"
        assert p.strength == sum(1 for e in p.roster if e.kind != "vehicle")


# ---------------------------------------------------------------------------- forces


def test_the_first_step_fields_the_vehicles_its_scenario_places_with_trained_crews(cat, idef):
    st = begun(cat, idef)
    specs = dict(seat_specs(st, idef, cat))
    us, de = specs[ANN.user_id], specs[BO.user_id]
    m8, gun = us.vehicles
    assert (m8.vehicle, gun.vehicle) == ("m8-greyhound", "57mm-m1")
    assert m8.crew == {"commander": 156, "gunner": 157, "driver": 158, "radio_operator": 159}
    assert (m8.tile, m8.facing, m8.ammo, m8.in_breach) == ("12A", "e", {"AP": 5, "HE": 4, "CAN": 2}, "AP")
    assert gun.crew == {"gunner": 161, "loader": 162, "commander": 160} and gun.tile == "5A"
    on_foot = {fe.serial for fe in us.force}
    assert not on_foot & set(range(151, 163)), "the Sherman's crew waits with the Sherman; no crewman walks"
    assert [ve.vehicle for ve in de.vehicles] == ["pzkw-iv-h", "sdkfz-250-1"]
    game, _ = new_game(cat, "mill-road-gun", [us, de], seed=1)
    assert set(game.vehicles) == {602, 603, 701, 702}
    assert game.vehicles[602].crew == m8.crew and game.vehicles[602].status == "board"


def test_a_decorated_crewman_brings_his_medal_card_into_his_vehicles_deck(cat, idef):
    """Crewmen win medals as infantry do; since issue 18 each has medal cards, so the M8's gunner's
    Silver Star swaps his first medal card for the core card it names in the vehicle's deck."""
    st = begun(cat, idef)
    award(st.entry(157), "silver", date=DATE, citation="knocked out the half-track and its gun")
    us = dict(seat_specs(st, idef, cat))[ANN.user_id]
    m8 = next(ve for ve in us.vehicles if ve.vehicle == "m8-greyhound")
    assert m8.crew["gunner"] == 157 and m8.medals == {157: 1}
    game, _ = new_game(cat, "mill-road-gun", [us, dict(seat_specs(st, idef, cat))[BO.user_id]], seed=1)
    deck = {c for f in game.forces.values() for c in (*f.deck, *f.hand)}
    medal = cat.soldiers[157].medal_cards[0]
    assert medal in deck and cat.cards[medal].replaces not in deck
    assert cat.soldiers[157].medal_cards[1] not in deck


def test_a_scenario_that_fields_no_such_vehicle_leaves_it_home_and_a_step_can_forbid_them(cat, idef):
    st = begun(cat, idef)
    with pytest.raises(CampaignError, match="fields no M4A1 Sherman"):
        pick(st, idef, cat, ANN.user_id, "101 601")
    none = idef.model_copy(update={"steps": [idef.steps[0].model_copy(update={"vehicles": {"US": "none"}}),
                                             *idef.steps[1:]]})
    men, vehicles = auto_force(st, none, cat, st.player(ANN.user_id))
    assert vehicles == [] and men
    with pytest.raises(CampaignError, match="without US vehicles"):
        pick(st, none, cat, ANN.user_id, "602")


def test_a_pick_names_rounds_and_seats_and_pays_for_them(cat, idef):
    st = begun(cat, idef)
    st, men, vehicles, cost = pick(st, idef, cat, ANN.user_id, "101 105 602:AP3:HE2")
    (m8,) = vehicles
    assert [fe.serial for fe in men] == [101, 105]
    assert m8.ammo == {"AP": 3, "HE": 2} and m8.in_breach == "AP"
    assert cost == 8 + 6 + (20 + 5 + 3 + 2 + 5) + 5, "the M8, its crew at their first rank, and five rounds"
    assert st.player(ANN.user_id).pick_vehicles == vehicles
    # the radio operator, trained on the M8 in another role, may take the gunner's seat ...
    st, _, (m8,), _ = pick(st, idef, cat, ANN.user_id, "602:gunner=159")
    assert m8.crew["gunner"] == 159 and 157 not in m8.crew.values()
    # ... a rifleman may not, unless the organiser lets untrained men crew
    with pytest.raises(CampaignError, match="Dunaway is untrained as Lost Sheep's gunner"):
        pick(st, idef, cat, ANN.user_id, "602:gunner=105")
    loose, _ = set_short_crews(st, idef, "untrained")
    _, _, (m8,), _ = pick(loose, idef, cat, ANN.user_id, "602:gunner=105")
    assert m8.crew["gunner"] == 105
    with pytest.raises(CampaignError, match="picked twice"):
        pick(st, idef, cat, ANN.user_id, "105 602:gunner=105")
    with pytest.raises(CampaignError, match="carries at most 6 CAN rounds"):
        pick(st, idef, cat, ANN.user_id, "602:CAN9")
    with pytest.raises(CampaignError, match="fires no WP rounds"):
        pick(st, idef, cat, ANN.user_id, "602:WP1")


def test_the_sherman_seats_its_men_by_training_and_a_commander_anywhere(cat):
    sherman = cat.vehicles["m4a1-sherman"]
    seats, missing = seat_crew(cat, sherman, [151, 152, 153, 155], [], "stay_home")
    assert seats == {"commander": 151, "gunner": 152, "loader": 153, "driver": 155} and missing == [], \
        "the assistant driver is a trained driver: he takes the driver's seat"
    seats, missing = seat_crew(cat, sherman, [151, 153, 154], [], "stay_home")
    assert seats == {"gunner": 151, "loader": 153, "driver": 154} and missing == [], \
        "without a gunner the Commander moves over: he may serve in any role"
    seats, missing = seat_crew(cat, sherman, [153, 154], [], "stay_home")
    assert missing == ["gunner"], "without a trained gunner it stays home"
    seats, missing = seat_crew(cat, sherman, [153, 154], [105], "cross_trained")
    assert seats == {"gunner": 153, "driver": 154} and missing == [], "the loader, cross-trained, lays the gun"
    seats, missing = seat_crew(cat, sherman, [154], [109, 105], "untrained")
    assert seats == {"gunner": 109, "driver": 154}, "a rifleman, untrained, is the last resort"


def test_a_vehicle_short_of_men_stays_home_or_goes_as_the_organiser_decides(cat, idef):
    st = begun(cat, idef)
    for serial in (160, 161):  # the 57's section chief and gunner are gone
        st.entry(serial).status = Status.KILLED
    p = st.player(ANN.user_id)
    _, vehicles = auto_force(st, idef, cat, p)
    assert {ve.vehicle: ve.crew for ve in vehicles}["57mm-m1"] == {"gunner": 162}, "the loader lays it"
    home, _ = set_short_crews(st, idef, "stay_home")
    _, vehicles = auto_force(home, idef, cat, home.player(ANN.user_id))
    assert [ve.vehicle for ve in vehicles] == ["m8-greyhound"], "no trained gunner: the 57 stays home"
    with pytest.raises(CampaignError, match="nobody for its gunner seat"):
        pick(home, idef, cat, ANN.user_id, "603")


def test_a_step_that_requires_a_sides_vehicles_refuses_a_pick_without_them(cat, idef):
    st = begun(cat, idef).model_copy(update={"step": "chapel"})
    with pytest.raises(CampaignError, match="requires the DE vehicles: Lange Anna"):
        pick(st, idef, cat, BO.user_id, "201 206 207")
    st, _, vehicles, _ = pick(st, idef, cat, BO.user_id, "201 703")
    assert vehicles[0].crew == {"gunner": 259, "loader": 260, "commander": 258} and vehicles[0].tile == "11B"
    _, vehicles = auto_force(st, idef, cat, st.player(BO.user_id))
    assert [ve.vehicle for ve in vehicles] == ["pak-40"]


# ---------------------------------------------------------------------------- results


def test_a_finished_game_credits_kills_and_knocked_out_vehicles_to_crews_and_their_vehicle(cat, idef):
    st = begun(cat, idef)
    st.entry(156).rank = "junior_nco"  # a promoted commander crews at his new rank
    specs = seat_specs(st, idef, cat)
    game = autoplay(cat, "mill-road-gun", [s for _, s in specs], seed=2)
    # the 57's gunner knocks out the Panzer IV: the VP log names the plate and the shooter
    game.changing_vehicle(701).status = "destroyed"
    game.vp.append(VpEntry(seat=0, side="US", amount=36, reason="destroyed PzKw IV", serial=701, by=161))
    r = result_from_game(st, idef, game, [u for u, _ in specs])
    out = {o.plate: o for o in r.vehicles}
    assert set(out) == {602, 603, 701, 702}
    assert out[701].fate == "destroyed" and out[603].knocked_out == 1 and out[603].crew == [160, 161, 162]
    men = {o.serial: o for o in r.soldiers}
    assert men[161].knocked_out == 1 and men[161].vehicle == 603 and men[161].vp >= 36
    assert out[603].kills == sum(game.soldiers[n].kills for n in (160, 161, 162))
    st2, lines = apply_result(st, idef, cat, r, DATE)
    assert st2.entry(701).status == Status.DESTROYED and "Katharina (701) of Bo was destroyed." in lines
    assert st2.entry(603).knocked_out == 1 and st2.entry(161).knocked_out == 1
    assert any("Fought at The 57 on the Mill Road in Betsy's crew" in x.text for x in st2.entry(161).log)


def test_destroyed_lost_recovered_mended_or_in_the_workshop(cat, idef):
    st = begun(cat, idef)
    r = result(st, idef, winner="US", soldiers=[{"serial": 157, "fate": "killed"}], vehicles=[
        {"plate": 602, "fate": "fit", "damage": {"wheels": ["critical"], "engine": ["wreck"]}, "kills": 2},
        {"plate": 603, "fate": "abandoned", "damage": {"shield": ["wreck"]}},  # US held the field
        {"plate": 701, "fate": "abandoned"},  # DE did not
        {"plate": 702, "fate": "fit", "damage": {"engine": ["wreck"]}, "knocked_out": 1}])
    st, lines = apply_result(st, idef, cat, r, DATE)
    assert st.entry(602).status == Status.WORKSHOP and st.entry(602).damage["wheels"] == ["critical"]
    assert any(line.startswith("Lost Sheep (602) goes to the workshop") for line in lines)
    assert st.entry(602).kills == 2 and 157 not in st.entry(602).crew, "the dead gunner is struck off its crew"
    assert st.entry(603).status == Status.FIT and st.entry(603).damage == {}
    assert any("recovered" in x.text for x in st.entry(603).log)
    assert st.entry(701).status == Status.LOST
    assert st.entry(702).status == Status.FIT and st.entry(702).knocked_out == 1
    assert any("mended the wrecked" in x.text for x in st.entry(702).log)
    # the workshop keeps the M8 out of the next scenario and sends it back after it
    specs = dict(seat_specs(st, idef, cat))
    assert [ve.vehicle for ve in specs[ANN.user_id].vehicles] == ["m4a1-sherman"]
    with pytest.raises(CampaignError, match="Lost Sheep is in the workshop"):
        pick(st, idef, cat, ANN.user_id, "602")
    st, lines = apply_result(st, idef, cat, result(st, idef), DATE)
    assert st.entry(602).status == Status.FIT and st.entry(602).damage == {}
    assert "Lost Sheep (602) is back from the workshop." in lines
    assert st.entry(701).status == Status.LOST, "a lost vehicle does not come back by itself"


def test_a_vehicle_that_cannot_have_fought_is_refused_in_a_result(cat, idef):
    st = begun(cat, idef)
    st = apply_result(st, idef, cat, result(st, idef, vehicles=[{"plate": 602, "fate": "destroyed"}]), DATE)[0]
    with pytest.raises(CampaignError, match="Lost Sheep .* is destroyed"):
        apply_result(st, idef, cat, result(st, idef, vehicles=[{"plate": 602, "fate": "fit"}], key="x"), DATE)


def test_the_organiser_marks_a_vehicle_repaired_or_recovered_but_never_raises_a_wreck(cat, idef):
    st = begun(cat, idef)
    st = apply_result(st, idef, cat, result(st, idef, winner="DE", vehicles=[
        {"plate": 602, "fate": "fit", "damage": {"wheels": ["critical"]}},
        {"plate": 603, "fate": "abandoned"}, {"plate": 701, "fate": "destroyed"}]), DATE)[0]
    st, line = mark(st, 602, "fit", "the fitters worked all night", DATE)
    assert st.entry(602).status == Status.FIT and st.entry(602).damage == {} and "fit" in line
    st, _ = mark(st, 603, "fit", "towed back under fire", DATE)
    with pytest.raises(CampaignError, match="destroyed vehicle is gone for good"):
        mark(st, 701, "fit", "a miracle", DATE)
    with pytest.raises(CampaignError, match="cannot make it wounded"):
        mark(st, 603, "wounded", "?", DATE)


def test_a_replacement_crewman_joins_the_crew_of_the_vehicle_he_trained_on(cat, idef, tmp_path):
    data = yaml.safe_load((REPO / "campaigns" / IRON / "campaign.yaml").read_text())
    data["sides"]["US"]["company"] = [e for e in data["sides"]["US"]["company"] if e.get("serial") != 152]
    data["sides"]["US"]["depot"] = [152, 104]
    folder = tmp_path / "campaigns" / IRON
    folder.mkdir(parents=True)
    (folder / "campaign.yaml").write_text(yaml.safe_dump(data))
    cdef = load_campaigns(cat, tmp_path)[IRON]
    st = begun(cat, cdef)
    st = apply_result(st, cdef, cat, result(st, cdef, soldiers=[{"serial": 101, "fate": "killed"}]), DATE)[0]
    from engine.campaign import enlist
    st, line = enlist(st, cat, ANN.user_id, 152, DATE)
    assert "joins Ann's roster as a private and the crew of Cobra King (601)" in line
    assert st.entry(601).crew == [151, 153, 154, 155, 152] and st.entry(152).kind == "crewman"


# ---------------------------------------------------------------------------- what the rosters show


def test_rosters_and_records_show_training_crews_and_the_vehicles_state(cat, idef):
    st = begun(cat, idef)
    st = apply_result(st, idef, cat, result(st, idef, vehicles=[
        {"plate": 602, "fate": "fit", "damage": {"wheels": ["critical"]}, "kills": 1, "knocked_out": 1}]), DATE)[0]
    view = roster_view(st, cat, ANN.user_id, private=False)
    lines = {x.serial: x for x in view.lines}
    assert lines[152].training == "gunner on M4A1 Sherman (75 mm)" and lines[152].vehicle == "Cobra King"
    assert lines[602].status == "in the workshop" and lines[602].damage == "Wheels and axles (Critical)"
    assert lines[602].crew.startswith("commander Delacroix (156), gunner Harlan (157)")
    assert lines[602].knocked_out == 1 and lines[602].rank_title == "M8 Greyhound armoured car"
    rec = service_record(st, cat, 602, private=True)
    assert rec.kind == "vehicle" and rec.weapon == "M8 Greyhound armoured car" and rec.knocked_out == 1
    assert rec.crew[0] == "commander Delacroix (156)" and rec.vp is None
    assert service_record(st, cat, 157, private=False).crew == ["crew of Lost Sheep (602)"]


# ---------------------------------------------------------------------------- through the use-cases


async def test_the_roster_export_and_import_keep_crews_and_vehicles(store, cat, clock, idef):
    service = CampaignService(store, cat, clock=clock)
    cid = (await service.new(OLGA, HERE, IRON)).campaign_id
    await service.join(ANN, cid, "US")
    await service.join(BO, cid, "DE")
    r = await service.pick(ANN, cid, "101 602:AP3")
    assert "Lost Sheep (602): commander Delacroix (156), gunner Harlan (157), driver Pike (158), radio operator " \
           "Amundsen (159); AP 3" in r.ephemeral[0]
    with pytest.raises(Refused, match="Only the campaign's organiser"):
        await service.crews(ANN, cid, "untrained")
    r = await service.crews(OLGA, cid, "stay_home")
    assert r.public[0].startswith("Short crews: a vehicle without a trained driver and gunner")
    assert (await service.load_state(cid)).player(ANN.user_id).pick is None, "a pick with vehicles is cleared"
    _, prepared = await service.prepare(OLGA, cid)
    assert [ve.vehicle for ve in prepared.seats[0].vehicles] == ["m8-greyhound", "57mm-m1"]
    roster = (await service.roster(ANN, cid)).ephemeral[0]
    assert "`158` Pvt. Pike · fit · driver on M8 Greyhound armoured car (Lost Sheep)" in roster
    assert "`603` 57 mm M1 anti-tank gun Betsy · fit · crew: commander Vance (160), gunner Lucero (161), " \
           "loader Kimball (162) · 0 kills, 0 scenarios" in roster
    status = (await service.status(OLGA, cid)).public[0]
    assert "vehicles that may go: Lost Sheep, Betsy" in status
    files = {a.filename: a.data.decode() for a in (await service.export(OLGA, cid)).files}
    rows = {row["serial"]: row for row in csv.DictReader(io.StringIO(files[f"campaign-{cid}.csv"]))}
    assert rows["602"]["crew"] == "156 157 158 159" and rows["602"]["vp"] == "20"
    assert rows["157"]["training"] == "gunner on m8-greyhound"
    text = await service.export_json(cid)
    copy = await service.import_json(OLGA, HERE, text)
    assert json.loads(await service.export_json(copy.campaign_id))["state"] == json.loads(text)["state"]
    record = (await service.soldier(ANN, cid, "Lost Sheep")).ephemeral[0]
    assert "Crew: commander Delacroix (156)" in record


async def test_a_promoted_crewman_fights_his_vehicle_at_his_new_rank(store, cat, clock, idef):
    service = CampaignService(store, cat, clock=clock)
    cid = (await service.new(OLGA, HERE, IRON)).campaign_id
    await service.join(ANN, cid, "US")
    await service.join(BO, cid, "DE")
    await service.promote(OLGA, cid, "Delacroix", "kept the M8 alive")
    _, prepared = await service.prepare(OLGA, cid)
    game = autoplay(cat, prepared.scenario, prepared.seats, seed=2)
    assert game.soldiers[156].rank == "junior_nco"  # his junior NCO cards are in the M8's deck
    await service.submit_game(OLGA, cid, game, list(prepared.users))
    await service.confirm(OLGA, cid)
    assert (await service.load_state(cid)).entry(156).rank == "junior_nco"



# ---------------------------------------------------------------------------- two of a type


def with_a_second_sherman(d):
    """Iron on the Mill Road with a second Sherman and its crew, opening at A Pair of Shermans."""
    company = us_company(d)
    company += [{"serial": n, "kind": "crewman"} for n in range(163, 168)]
    company.append({"kind": "vehicle", "vehicle": "m4a1-sherman", "name": "Cobra Queen"})
    d["steps"][0]["scenario"] = "vautrin-pair"


def test_a_second_sherman_gets_the_next_plate_and_the_next_crew(tmp_path, cat):
    write_iron(tmp_path, with_a_second_sherman)
    us = {e.serial: e for e in load_campaigns(cat, tmp_path)[IRON].sides["US"].company}
    assert (us[601].name, us[601].crew) == ("Cobra King", [151, 152, 153, 154, 155])
    assert (us[1601].name, us[1601].vehicle, us[1601].crew) == ("Cobra Queen", "m4a1-sherman", [163, 164, 165, 166, 167])


def test_two_shermans_fight_under_their_own_plates_and_their_crews_stay_apart(tmp_path, cat):
    write_iron(tmp_path, with_a_second_sherman)
    idef = load_campaigns(cat, tmp_path)[IRON]
    st = begun(cat, idef)
    specs = seat_specs(st, idef, cat)
    us = dict(specs)[ANN.user_id]
    assert [(ve.plate, sorted(ve.crew.values())) for ve in us.vehicles] == \
        [(None, [151, 152, 153, 154, 155]), (1601, [163, 164, 165, 166, 167])]
    game = autoplay(cat, "vautrin-pair", [s for _, s in specs], seed=5)
    assert {game.soldiers[n].force for n in range(151, 156)} == {"US-1-601"}  # each man's deck is his own tank's
    assert {game.soldiers[n].force for n in range(163, 168)} == {"US-1-1601"}
    r = result_from_game(st, idef, game, [u for u, _ in specs])
    out = {o.plate: o for o in r.vehicles}
    assert set(out[601].crew) <= {151, 152, 153, 154, 155} and set(out[1601].crew) <= {163, 164, 165, 166, 167}
    men = {o.serial: o for o in r.soldiers}
    assert {men[n].vehicle for n in range(151, 156)} == {601} and {men[n].vehicle for n in range(163, 168)} == {1601}
    st2, _ = apply_result(st, idef, cat, r, DATE)
    king, queen = st2.entry(601), st2.entry(1601)
    assert king.crew and queen.crew, "both crews came back with men in them"
    assert set(king.crew) <= {151, 152, 153, 154, 155} and set(queen.crew) <= {163, 164, 165, 166, 167}
    for n in range(151, 156):
        if st2.entry(n).status == Status.FIT:
            assert n in king.crew and any("in Cobra King's crew" in x.text for x in st2.entry(n).log)
    for n in range(163, 168):
        if st2.entry(n).status == Status.FIT:
            assert n in queen.crew and any("in Cobra Queen's crew" in x.text for x in st2.entry(n).log)
    assert king.kills == out[601].kills and queen.kills == out[1601].kills


def test_a_replacement_crewman_joins_the_sherman_short_of_men(cat, tmp_path):
    """Of two Shermans, a recruit trained on the type joins the one with the fewer crewmen."""
    def change(d):
        with_a_second_sherman(d)
        company = us_company(d)
        d["sides"]["US"]["company"] = [e for e in company if e.get("serial") != 165]
        d["sides"]["US"]["depot"] = [165, 104]
    write_iron(tmp_path, change)
    cdef = load_campaigns(cat, tmp_path)[IRON]
    assert {e.serial: e for e in cdef.sides["US"].company}[1601].crew == [163, 164, 166, 167]
    st = begun(cat, cdef)
    st = apply_result(st, cdef, cat, result(st, cdef, soldiers=[{"serial": 101, "fate": "killed"}]), DATE)[0]
    from engine.campaign import enlist
    st, line = enlist(st, cat, ANN.user_id, 165, DATE)
    assert "and the crew of Cobra Queen (1601)" in line
    assert st.entry(1601).crew == [163, 164, 166, 167, 165] and st.entry(601).crew == [151, 152, 153, 154, 155]
