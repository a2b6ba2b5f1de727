"""Campaigns: rosters that live from one scenario to the next (docs/campaigns.md).

    cdefs = load_campaigns(cat)
    st = new_campaign(cdefs["road-to-sainte-gisele"], None, organiser=1, date="1944-06-07")
    st = join(st, cdef, cat, 1, "Ann", "US", date)          # the company is shared out
    st = begin(join(st, cdef, cat, 2, "Bo", "DE", date))
    seats = seat_specs(st, cdef, cat)                      # [(user id, SeatSpec)] for new_game
    result = result_from_game(st, cdef, finished_state, [uid for uid, _ in seats])
    st, lines = apply_result(st, cdef, cat, result, date)  # wounds, kills, medals, promotions, vehicles

Pure rules, like the rest of the engine: no clock (dates are passed in), no store, no I/O
but reading the definition files.
"""
from engine.campaign.definition import (
    Branch,
    CampaignDef,
    CompanyEntry,
    Eligibility,
    StepDef,
    load_campaigns,
)
from engine.campaign.enlist import begin, enlist, fill_open_places, join, new_campaign
from engine.campaign.forces import (
    auto_force,
    check_pick,
    crewed,
    eligible,
    next_step,
    parse_pick,
    pick,
    seat_crew,
    seat_specs,
    set_short_crews,
    vehicle_eligible,
)
from engine.campaign.honours import AWARDS, LIMIT, award, medals_in_play, promote
from engine.campaign.records import roster_view, service_record, standings
from engine.campaign.result import (
    PlayerOutcome,
    ScenarioResult,
    SoldierOutcome,
    VehicleOutcome,
    apply_result,
    check_result,
    choose_branch,
    result_from_game,
)
from engine.campaign.roster import (
    CampaignError,
    CampaignState,
    Honour,
    Kind,
    Player,
    RosterEntry,
    ShortCrews,
    Status,
    Training,
    mark,
)

__all__ = [
    "AWARDS", "LIMIT", "Branch", "CampaignDef", "CampaignError", "CampaignState", "CompanyEntry", "Eligibility",
    "Honour", "Kind", "Player", "PlayerOutcome", "RosterEntry", "ScenarioResult", "ShortCrews", "SoldierOutcome",
    "Status", "StepDef", "Training", "VehicleOutcome", "apply_result", "auto_force", "award", "begin",
    "check_pick", "check_result", "choose_branch", "crewed", "eligible", "enlist", "fill_open_places", "join",
    "load_campaigns", "mark", "medals_in_play", "new_campaign", "next_step", "parse_pick", "pick", "promote",
    "result_from_game", "roster_view", "seat_crew", "seat_specs", "service_record", "set_short_crews",
    "standings", "vehicle_eligible",
]
