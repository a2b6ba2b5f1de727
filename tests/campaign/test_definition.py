"""Campaign definitions: the shipped campaign loads and plays its scenarios in order, and a
broken definition fails with a ContentError naming the file, the entry and the field."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.campaign import Branch, load_campaigns
from engine.campaign.records import route
from engine.core.errors import ContentError
from engine.turn.setup import budget

REPO = Path(__file__).resolve().parents[2]


def test_the_shipped_campaign_has_three_to_five_scenarios_on_every_road(cdef, cat):
    def roads(step_id):
        step = cdef.step(step_id)
        if not step.targets():
            return [[step.scenario]]
        return [[step.scenario, *rest] for t in dict.fromkeys(step.targets()) for rest in roads(t)]

    paths = roads(cdef.start)
    assert {len(p) for p in paths} == {4}
    assert all(len(set(p)) == len(p) for p in paths), "no scenario twice on one road"
    used = {s.scenario for s in cdef.steps}
    assert {"hedgerow-dawn", "mill-at-tardieu", "sevrette-crossing", "bells-of-sainte-gisele",
            "ashes-of-vautrin"} == used
    assert route(cdef) == ("Regroup at First Light → The Miller's Loft → A Bridge Before Nightfall or "
                           "Smoke over Vautrin → The Tower")


def test_the_winner_of_the_mill_chooses_the_road(cdef):
    nxt = cdef.step("mill").next
    assert isinstance(nxt, Branch)
    assert nxt.choose == ["crossing", "farm"] and nxt.draw == "crossing"


def test_step_budgets_never_exceed_the_scenarios_own(cdef, cat):
    for step in cdef.steps:
        sc = cat.scenario(step.scenario)
        if step.budget:
            assert budget(sc, "US", 2) >= step.budget[2]


def test_the_depot_and_company_keep_out_the_scenarios_reinforcements(cdef, cat):
    kept = {e.serial for s in cdef.steps for side in cat.scenario(s.scenario).sides for e in side.reinforcements}
    for side, company in cdef.sides.items():
        men = {e.serial for e in company.company}
        assert not men & kept and not set(company.depot) & kept
        assert not men & set(company.depot)
        assert all(cat.soldiers[s].nationality == side for s in men | set(company.depot))


# ---------------------------------------------------------------------------- broken definitions


def write(tmp_path: Path, change) -> Path:
    data = yaml.safe_load((REPO / "campaigns" / "road-to-sainte-gisele" / "campaign.yaml").read_text())
    change(data)
    folder = tmp_path / "campaigns" / data.get("id", "road-to-sainte-gisele")
    folder.mkdir(parents=True)
    (folder / "campaign.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))
    return folder / "campaign.yaml"


@pytest.mark.parametrize("change, field, words", [
    (lambda d: d["steps"][0].update(scenario="nowhere"), "steps[0].scenario", "no scenario 'nowhere'"),
    (lambda d: d["steps"][1].update(budget={2: 80}), "steps[1].budget", "above the scenario's own"),
    (lambda d: d["steps"][1].update(next="nowhere"), "steps[1].next", "no step 'nowhere'"),
    (lambda d: d["steps"][4].update(next="regroup"), "steps", "loop back"),
    (lambda d: d["steps"][1].update(next="bells"), "steps", "no result leads to crossing, farm"),
    (lambda d: d["sides"]["US"]["company"].append({"serial": 110}), "sides.US.company[8]", "reinforcement"),
    (lambda d: d["sides"]["US"]["company"].append({"serial": 201}), "sides.US.company[8]", "is DE, not US"),
    (lambda d: d["sides"]["DE"]["depot"].append(201), "sides.DE.depot[5]", "already in the company"),
    (lambda d: d["sides"]["US"]["company"].append({"serial": 105, "rank": "senior_nco"}),
     "sides.US.company[8]", "listed twice"),
    (lambda d: d["sides"]["US"]["company"].append({"serial": 112, "rank": "senior_nco"}),
     "sides.US.company[8]", "has no senior_nco card"),
    (lambda d: d["steps"][1].update(next={"choose": ["crossing"], "draw": "crossing"}), "steps.1.next",
     "at least two steps"),
])
def test_a_broken_definition_names_file_entry_and_field(tmp_path, cat, change, field, words):
    path = write(tmp_path, change)
    with pytest.raises(ContentError) as err:
        load_campaigns(cat, tmp_path)
    message = str(err.value)
    assert str(path) in message and "campaign (id 'road-to-sainte-gisele')" in message
    assert f"field {field}" in message and words in message


def test_a_vehicle_without_its_type_is_refused(tmp_path, cat):
    write(tmp_path, lambda d: d["sides"]["US"]["company"].append({"serial": 3101, "kind": "vehicle"}))
    with pytest.raises(ContentError, match="needs a name and a vehicle type"):
        load_campaigns(cat, tmp_path)
