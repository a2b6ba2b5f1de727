"""Whoever the game waits for is asked, with a deadline of its own: the cases where a player
used to go unasked (his decision looked the same as the last one but was a new one) and where
a new decision inherited the old one's due time."""
from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest

from bot.app import GameService, Where, prompts
from engine import awaiting
from engine.view import card_view, private_view
from tests.app.table import ANN, BO, open_table
from tests.app.tables import CALLERS, play_seeded
from tests.app.test_presses import asked
from tests.engine.autoplay_kit import autoplayed


async def test_the_player_who_placed_last_is_asked_to_place_in_the_next_turn(store, cat, clock):
    # yard, seed 15: nothing in turn 1 needs a decision, so the last placement starts turn 2
    service = GameService(store, cat, clock=clock, seed=lambda: 15)
    gid = (await open_table(service)).game_id
    r = await play_seeded(service, gid, random.Random(15), 2)
    st = await service.load_state(gid)
    assert st.turn == 2 and {a.seat for a in awaiting(st) if a.kind == "place"} == {0, 1}
    assert sorted((p.seat, p.kind) for p in r.prompts) == [(0, "place"), (1, "place")]
    assert all("turn 2" in p.text for p in r.prompts)


async def test_done_on_one_part_brings_done_and_pass_for_the_next(service, store, cat, clock):
    service, gid, prompt, done = await asked("act", "done", service, store, cat, clock)
    r = await service.choose(CALLERS[prompt.seat], gid, prompt.seat, prompt.version, done.stamp)
    st = await service.load_state(gid)
    assert [a.seat for a in awaiting(st) if a.kind == "act"] == [prompt.seat]  # his card goes on
    (again,) = [p for p in r.prompts if p.seat == prompt.seat]
    assert again.kind == "act" and [c.command for c in again.choices] == ["done", "pass"]
    assert again.version == r.version


async def test_the_held_card_window_of_a_later_phase_comes_with_a_prompt(store, cat, clock):
    # yard, seed 9: Bo keeps his held card in turn 2, phase 2, and phase 3's window opens at once
    service = GameService(store, cat, clock=clock, seed=lambda: 9)
    gid = (await open_table(service)).game_id
    r = await play_seeded(service, gid, random.Random(9), 14)
    st = await service.load_state(gid)
    assert (st.turn, st.phase) == (2, 3) and [a.seat for a in awaiting(st) if a.kind == "unhold"] == [1]
    assert [(p.seat, p.kind) for p in r.prompts if p.seat == 1] == [(1, "unhold")]


async def test_the_next_turns_placement_gets_a_full_deadline(store, cat, clock):
    service = GameService(store, cat, clock=clock, seed=lambda: 15)
    gid = (await open_table(service, deadline_hours=10)).game_id
    await play_seeded(service, gid, random.Random(15), 2, clock=clock, hours=3)
    waiting = await service.waiting(ANN, Where(game_id=gid))
    assert {w.seat for w in waiting} == {0, 1}
    assert [w.due for w in waiting] == [clock.now + timedelta(hours=10)] * 2


async def test_a_decision_unchanged_by_another_players_move_keeps_its_due_time(service, store, clock):
    gid = (await open_table(service, deadline_hours=10)).game_id
    where = Where(game_id=gid)
    due = {w.seat: w.due for w in await service.waiting(ANN, where)}
    clock.advance(4)
    await service.command(ANN, where, (await service.options(ANN, where))[0])
    assert [(w.seat, w.due) for w in await service.waiting(BO, where)] == [(1, due[1])]


def test_the_desk_lists_what_living_soldiers_are_worth_and_not_the_dead():
    from pathlib import Path

    from bot.app.prompts import hand_text
    from engine import load_catalog, new_game, view
    from engine.turn.setup import SeatSpec

    cat = load_catalog(Path(__file__).resolve().parents[1] / "fixtures" / "rules")
    st, _ = new_game(cat, "yard", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], 1)
    mine = view(st, 0).mine
    assert len(mine.soldier_vp) >= 2
    dead, alive = sorted(mine.soldier_vp)[:2]
    st.changing(dead).status = "dead"
    desk = hand_text(mine, st)
    worth = next(line for line in desk.splitlines() if "worth" in line)
    assert f"{alive}: " in worth and f"{dead}: " not in worth


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "hedgerow-dawn", "night-orchard"])
def test_a_placement_prompt_offers_the_first_distinct_plans_of_a_wider_search(shipped, scenario):
    """The prompt asks the plan search for only as many plans as it shows (and a press for 400):
    what it offers is what a search four times as wide would have offered first."""
    from engine import new_game
    from engine.legal import plan_options
    from engine.turn.setup import SeatSpec

    sides = [s.id.value for s in shipped.scenario(scenario).sides]
    placements = 0
    for seed in range(4):
        st, _ = new_game(shipped, scenario, [SeatSpec(name="Ann", side=sides[0]), SeatSpec(name="Bo", side=sides[1])],
                         seed)
        for a in awaiting(st):
            if a.kind != "place":
                continue
            placements += 1
            for limit in (prompts.MAX_CHOICES, 400):
                wide = list(dict.fromkeys(str(p) for p in plan_options(st, a.force, limit=limit * 4)))[:limit]
                assert [c.command for c in prompts.choices(st, a, limit=limit)] == wide
    assert placements >= 8


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "hedgerow-dawn", "night-orchard"])
def test_a_hand_cards_line_is_the_line_of_its_whole_view(shipped, scenario):
    """`hand_card_line` reads the card and its owner's name without the card's view: the same line
    for every card of the game (soldiers' cards as their ranks change, vehicles', team cards),
    at every state of a game."""
    lines = 0
    for st in autoplayed(shipped, scenario, 11, 40):
        for cid in st.setup.cards:
            assert prompts.hand_card_line(st, cid) == prompts.card_line(card_view(st, cid), st)
            lines += 1
    assert lines


def test_the_desk_read_off_the_state_is_the_text_of_the_seats_private_view(shipped):
    """`private_desk` reads the seat's forces, soldiers, order and battlefield secrets without
    building his `Mine`: the very text `hand_text(private_view(...))` makes, for both seats at every
    state of a game, in scenarios that between them have every part of a desk (hands per deck,
    placed, held and fight cards, orders, soldiers' worth, artillery, barrages, radio, minefields,
    mine loads)."""
    parts = ("Held under", "Placed", "Orders", "worth", "Radio", "artillery calls", "barrages", "Artillery to call",
             "minefields", "Mines to lay", "Fight cards", "Your hand, ")
    seen = Counter()
    for scenario in ("tardieu-bombardment", "crossroads-roadblock", "mill-at-tardieu"):
        for st in autoplayed(shipped, scenario, 2, 120):
            for seat in range(len(st.seats)):
                desk = prompts.private_desk(st, seat)
                assert desk == prompts.hand_text(private_view(st, seat), st)
                seen.update(w for w in parts if w in desk)
    assert set(seen) == set(parts)


def test_an_act_decisions_remembered_answers_are_the_ones_made_afresh(shipped):
    """The done / pass answers of an `act` decision are made once per decision key: at every state
    of two games, every awaited decision's answers (shown and pressed lists) are those made from
    its commands there and then, whether they came from memory or not."""
    remembered = 0
    for scenario in ("tardieu-bombardment", "hedgerow-dawn"):
        for st in autoplayed(shipped, scenario, 5, 150):
            for a in awaiting(st):
                for limit in (prompts.MAX_CHOICES, 400):
                    held = (a.key, a.seat, limit) in prompts._finishes
                    got = prompts.choices(st, a, limit=limit)
                    assert got == prompts.answers(st, a.key, prompts.commands_for(st, a, limit), limit)
                    remembered += held
    assert remembered


def test_a_vehicles_short_name_remembered_is_the_one_made_afresh(shipped):
    """`vehicle_words.short` remembers its answer per name: the same as made afresh for every
    vehicle of the shipped catalogue (asked twice, so the second comes from memory) and for
    names with and without brackets."""
    from bot.app import vehicle_words
    names = [v.name for v in shipped.vehicles.values()] + ["M4A1 Sherman (75 mm)", "(only brackets)", "Plain", ""]
    for name in names * 2:
        assert vehicle_words.short(name) == vehicle_words.short.__wrapped__(name)
    assert vehicle_words.short("M4A1 Sherman (75 mm)") == "M4A1 Sherman"
    assert vehicle_words.short.cache_info().hits >= len(names)


def test_a_placement_lists_labels_are_each_plans_own(shipped):
    """`answers` keeps a placement list's card and deck words for the list's next plans: every
    label is the one `label` makes for that plan alone, for every placement asked in two games
    (a squad and vehicle decks, officers' extra cards where the scenario has them)."""
    plans = 0
    for scenario in ("tardieu-bombardment", "hedgerow-dawn"):
        for st in autoplayed(shipped, scenario, 4, 120):
            for a in awaiting(st):
                if a.kind != "place":
                    continue
                cmds = prompts.commands_for(st, a)
                got = prompts.answers(st, a.key, cmds)
                alone = {str(c): prompts._trim(prompts.label(st, c)) for c in reversed(cmds)}  # the first of a line
                assert [c.label for c in got] == [alone[c.command] for c in got]
                plans += len(got)
    assert plans > 100
