"""Rules of the Basic Game beyond the book's worked examples, one behaviour per test."""
from __future__ import annotations

import pytest

from engine.core import initiative
from engine.core.board import adjacent, direction_to, in_arc, in_rear, inches
from engine.core.content import Action
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.script import ScriptError
from engine.turn.events import triggered

PLANS_S01 = "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 4-C4 4-P1 4-C1\n"


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


# ----------------------------------------------------------------------------- geometry


def test_distance_counts_tiles_crossed_not_the_own_one_and_landmarks_as_two(cat, position):
    st = position(scenario="yard", soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]},
                                             {"serial": 4, "seat": 1, "at": [27, 2]}],
                  hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    b = st.board
    assert b.squares((2, 2), (3, 3)) == 0  # same tile
    assert b.squares((2, 2), (7, 2)) == 1  # next square
    # 31A -> 32A 33A 34A L9A: three squares and a landmark counted as two
    assert b.squares((2, 2), (27, 2)) == 5


def test_a_line_exactly_through_a_corner_takes_the_touched_tile_with_the_smaller_modifier(position):
    st = position(scenario="yard", soldiers=[{"serial": 1, "seat": 0, "at": [3, 3]},
                                             {"serial": 4, "seat": 1, "at": [6, 6]}],
                  hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    b = st.board
    # From 31A (3,3) to 36A (6,6) the line passes the corner shared with 32A and 35A. 35A has
    # no LOOK modifier and 32A has -1: 35A counts, so the LOOK sum is 0 and two tiles are counted.
    line = b.line((3, 3), (6, 6), Action.LOOK)
    assert [lt.tile for lt in line] == ["35A", "36A"]
    assert b.mod_sum((3, 3), (6, 6), Action.LOOK) == 0


def test_arcs_rear_and_contact_cells():
    assert in_arc("n", (5, 5), (5, 0)) and in_arc("n", (5, 5), (4, 4)) and in_arc("n", (5, 5), (6, 4))
    assert not in_arc("n", (5, 5), (6, 5)) and not in_arc("n", (5, 5), (5, 6))
    assert in_rear("n", (5, 5), (5, 6)) and in_rear("n", (5, 5), (4, 6)) and not in_rear("n", (5, 5), (6, 5))
    assert adjacent((5, 5), (6, 6)) and not adjacent((5, 5), (7, 5))
    assert direction_to((0, 0), (3, -3)) == "ne" and direction_to((0, 0), (-4, 0)) == "w"
    assert inches((0, 0), (3, 4)) == 5 and inches((0, 0), (1, 1)) == 1 and inches((0, 0), (2, 1)) == 2


def test_area_modifiers_count_only_when_the_line_crosses_them(position):
    st = position(scenario="yard", soldiers=[{"serial": 1, "seat": 0, "at": [16, 0]},
                                             {"serial": 4, "seat": 1, "at": [16, 4]}],
                  hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    b = st.board
    # 34A's hedge line runs along y=2 of the tile: a line across it pays LOOK -2, one beside it nothing
    assert b.mod_sum((15, 0), (16, 4), Action.LOOK, include_own=True) == -2
    assert b.mod_sum((15, 0), (19, 0), Action.LOOK, include_own=True) == 0


# ----------------------------------------------------------------------------- initiative


def test_initiative_most_cards_then_highest_vp_soldier_then_lowest_serial(position):
    st = position(scenario="yard",
                  soldiers=[{"serial": 2, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [27, 2]}],
                  hands={0: ["2-C1", "2-C2"], 1: ["4-C1", "4-C2", "4-C3"]}, phase_cards=["S01", "S02", "S03"])
    assert initiative.order(st) == ["DE-2", "US-1"]  # three cards against two
    st.forces["DE-2"].hand.pop()
    assert initiative.order(st) == ["US-1", "DE-2"]  # tied: Brooks (6 VP) outranks Dorn (3 VP)


def test_initiative_tie_on_vp_goes_to_the_lowest_dog_tag(position):
    st = position(scenario="yard",
                  soldiers=[{"serial": 7, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [27, 2]}],
                  hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    assert initiative.order(st) == ["DE-2", "US-1"]  # both 3 VP; Dorn's 4 is lower than Grant's 7


# ----------------------------------------------------------------------------- story deck


def test_events_fire_when_a_cause_matches_the_next_effect_card_two_before_card_three(cat):
    s = cat.story
    assert triggered([s["TR-ORD"], s["EV-BLAST"], s["S01"]]) == [s["EV-BLAST"]]
    assert triggered([s["S01"], s["TR-WX"], s["EV-WX"]]) == [s["EV-WX"]]
    assert triggered([s["S01"], s["S02"], s["S03"]]) == []
    assert triggered([s["TR-ORD"], s["EV-BLAST"], s["TR-WX"]]) == [s["EV-BLAST"]]


def test_a_weather_event_modifies_every_sight_this_turn(position, play):
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w"}],
                  story_top=["TR-WX", "EV-WX", "S07"], turn=0)
    assert st.weather.look == -2 and st.weather.shoot == -1
    from engine.infantry.look import sight_options
    must, table = sight_options(st, 1)
    assert table == [(4, 6, 5, False)] and must == []  # sight 15, terrain -8, fog -2: 5 squares


def test_the_game_ends_when_fewer_than_three_phase_cards_remain(position):
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [32, 2]}],
                  turn=3)
    assert st.step == "over" and "fewer than three" in st.result.reason


# ----------------------------------------------------------------------------- placement


def test_placement_must_match_a_phase_action_and_fill_as_many_phases_as_possible(position, play):
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [32, 2]}],
                  phase_cards=["S01", "S05", "S09"],
                  hands={0: ["1-C3", "1-C4", "1-C1"], 1: ["4-C4", "4-P1", "4-C1"]})
    with pytest.raises(ScriptError, match="is a MOVE card; phase 1 is LOOK and then HIDE"):
        play(st, "@Ann\nplan 1-C1 1-C4 1-C3")
    with pytest.raises(ScriptError, match="can fill 3 phases"):
        play(st, "@Ann\nplan 1-C3 1-C4 -")
    with pytest.raises(ScriptError, match="not in your hand"):
        play(st, "@Ann\nplan 4-C4 1-C4 1-C1")


def test_a_placement_may_change_until_the_last_player_has_placed(position, play):
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [32, 2]}],
                  phase_cards=["S01", "S05", "S08"],
                  hands={0: ["1-C3", "1-C4", "1-C1", "1-P1"], 1: ["4-C4", "4-P1", "4-C1"]})
    st, _ = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\nplan 1-C3 1-P1 1-C4")
    assert st.forces["US-1"].placed == ["1-C3", "1-P1", "1-C4"] and st.forces["US-1"].hand == ["1-C1"]


def test_shortfall_shows_the_hand_discards_it_and_turns_up_cards_until_one_fits(position, play):
    # Bo's hand holds only HIDE cards: phase 1 (LOOK/HIDE) takes one, phases 2 and 3 (MOVE/SHOOT)
    # nothing. His deck is stacked: a LOOK card that fits neither, then two MOVE cards.
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [32, 2]}],
                  phase_cards=["S01", "S09", "S09"],
                  hands={0: ["1-C3", "1-C1", "1-P1"], 1: ["4-C4", "4-C3"]},
                  decks={1: ["4-P3", "4-C1", "4-P1"]})
    st, ev = play(st, "@Ann\nplan 1-C3 1-C1 1-P1\n@Bo\nplan 4-C4 - -")
    f = st.forces["DE-2"]
    assert kinds(ev, "shortfall")[0].data["hand"] == ["4-C3"]
    assert [e.data["card"] for e in kinds(ev, "shortfall_discard")] == ["4-P3"]
    assert [e.data["card"] for e in kinds(ev, "shortfall_card")] == ["4-C1", "4-P1"]
    assert f.placed[1:] == ["4-C1", "4-P1"] and f.face_up[1:] == [True, True]
    assert {"4-C3", "4-P3"} <= set(f.discard)


def test_a_player_short_of_cards_plays_the_cards_he_has_face_up(position, play):
    # Play Sequence, step 5: unable to fill every phase, Bo plays what he can face up and declares
    # the shortfall; Ann, who filled all three, keeps hers face down until the reveal.
    from engine.view import view
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [32, 2]}],
                  phase_cards=["S01", "S09", "S09"],
                  hands={0: ["1-C3", "1-C1", "1-P1"], 1: ["4-C4", "4-C3"]},
                  decks={1: ["4-P3", "4-C1", "4-P1"]})
    st, ev = play(st, "@Ann\nplan 1-C3 1-C1 1-P1\n@Bo\nplan 4-C4 - -")
    assert st.forces["DE-2"].face_up == [True, True, True] and st.forces["US-1"].face_up == [False, False, False]
    assert kinds(ev, "shortfall_played")[0].data["cards"] == ["4-C4"]
    public = {f.id: f for f in view(st).forces}
    assert public["DE-2"].slots[0].card.id == "4-C4"
    assert [s.state for s in public["US-1"].slots] == ["revealed", "face down", "face down"]  # phase 1 began


PARTS = dict(
    scenario="yard",
    soldiers=[{"serial": 1, "seat": 0, "at": [2, 7], "facing": "e"}, {"serial": 2, "seat": 0, "at": [2, 9], "facing": "e"},
              {"serial": 3, "seat": 0, "at": [6, 7], "facing": "e", "rank": "senior_nco"},
              {"serial": 5, "seat": 1, "at": [27, 7], "facing": "w"}],
    phase_cards=["S07", "S08", "S09"],
    hands={0: ["3-S3", "1-C4", "1-C1"], 1: ["5-C1", "5-C4", "5-P1"]},
)
PARTS_PLANS = "@Ann\nplan 3-S3 1-C4 1-C1\n@Bo\nplan 5-C1 5-C4 5-P1\n"


def test_a_part_under_way_is_finished_before_an_unnamed_action_starts_another(position, play):
    # Action Cards: the parts go in any order, but a part once started is completed before the
    # next. 3-S3 (Cole's MOVE; team: 2 soldiers move, then 1 soldier sight). With the team's moves
    # spent and its sight still to come, a plain `move 3` could only be the dog tag's: it is
    # refused, naming both ways on, and spends nothing; after the sight it is the dog tag's move.
    st = position(**PARTS)
    st, _ = play(st, PARTS_PLANS + "@Ann\nteam move 1 32A\nteam move 2 31A")
    with pytest.raises(ScriptError, match=r"team part of 3-S3 is under way.*`team sight 3`.*`tag move 3 33A`"):
        play(st, "@Ann\nmove 3 33A")
    tag, team = st.active.sources[0], st.active.sources[1]
    assert (tag.kind, tag.state, team.kind, team.state) == ("tag", "ready", "team", "open")
    st, ev = play(st, "@Ann\nteam sight 3\nmove 3 33A")
    assert kinds(ev, "spotted") and st.soldiers[3].at == (10, 3)


def test_naming_the_dog_tag_leaves_the_rest_of_the_team_bubble(position, play):
    # Named, the dog tag starts while the team bubble is under way: the bubble is over (a part is
    # completed before another starts), so its sight is gone, the log says so, and with nothing
    # left on it the card ends and Bo's turn comes.
    st = position(**PARTS)
    st, _ = play(st, PARTS_PLANS + "@Ann\nteam move 1 32A\nteam move 2 31A")
    st, ev = play(st, "@Ann\ntag move 3 33A")
    assert kinds(ev, "part_left")[0].data["part"] == "team" and not kinds(ev, "spotted")
    assert st.active.card == "5-C1"


def test_a_multi_action_card_fitting_both_actions_is_declared_at_the_reveal(position, play):
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "medals": 1}, {"serial": 4, "seat": 1, "at": [32, 2]}],
                  phase_cards=["S08", "S05", "S01"],  # MOVE/HIDE, HIDE/MOVE, LOOK/HIDE
                  hands={0: ["1-M1", "1-C4", "1-C3"], 1: ["4-C4", "4-P1", "4-C3"]})
    st, _ = play(st, "@Ann\nplan 1-M1 1-C4 1-C3\n@Bo\nplan 4-P1 4-C4 4-C3")
    assert st.pending.kind == "declare" and st.pending.card == "1-M1"
    with pytest.raises(ScriptError, match="move or hide"):
        play(st, "@Ann\ndeclare 1-M1 shoot")
    st, _ = play(st, "@Ann\ndeclare 1-M1 hide")
    assert st.forces["US-1"].declared["1-M1"] == Action.HIDE


# ----------------------------------------------------------------------------- MOVE


def walk_position(position, **kw):
    base = dict(scenario="yard", phase_cards=["S07", "S08", "S09"],
                hands={0: ["1-C1", "1-P1", "1-C4"], 1: ["4-C1", "4-P1", "4-C4"]})
    base.update(kw)
    return position(**base)


def test_walk_is_the_rating_plus_the_start_tiles_move_modifier(position, play):
    # Avery walks 6"; from the pond square (MOVE -1) only 5".
    st = walk_position(position, soldiers=[{"serial": 1, "seat": 0, "at": [10, 0], "facing": "e"},
                                           {"serial": 4, "seat": 1, "at": [27, 7], "facing": "w"}])
    st, _ = play(st, "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1")
    with pytest.raises(ScriptError, match=r'is 6.0" away .* modified Walk is 5"'):
        play(st, "@Ann\ntag move 1 16,0")
    st, ev = play(st, "@Ann\ntag move 1 15,0 face e")
    assert st.soldiers[1].at == (15, 0) and st.soldiers[1].facing == "e"


def test_no_move_terrain_cannot_be_entered_and_diagonals_do_not_cut_its_corners(position, play):
    st = walk_position(position, soldiers=[{"serial": 1, "seat": 0, "at": [10, 0], "facing": "e"},
                                           {"serial": 4, "seat": 1, "at": [27, 7], "facing": "w"}])
    st, _ = play(st, "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1")
    with pytest.raises(ScriptError, match="cannot get to 12,2"):
        play(st, "@Ann\ntag move 1 12,2")  # the pond


def test_a_move_may_not_end_in_contact_charging_is_a_straight_line(position, play):
    st = walk_position(position, soldiers=[{"serial": 1, "seat": 0, "at": [21, 7], "facing": "e"},
                                           {"serial": 4, "seat": 1, "at": [26, 7], "facing": "w"}])
    st, _ = play(st, "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1")
    with pytest.raises(ScriptError, match="charge in a straight line"):
        play(st, "@Ann\ntag move 1 25,7")
    st, ev = play(st, "@Ann\ntag charge 1 4")
    assert st.soldiers[1].at == (25, 7) and st.soldiers[1].facing == "e"
    assert st.soldiers[1].spotted and st.soldiers[4].spotted, "contact spots both"
    from engine.infantry.contact import in_contact
    assert in_contact(st, 1) == [4]
    with pytest.raises(ScriptError, match="combat contact"):
        play(st, "team move 1 31A")


def test_entering_the_board_walks_on_from_the_entry_area(position, play):
    st = walk_position(position, soldiers=[{"serial": 1, "seat": 0}, {"serial": 4, "seat": 1, "at": [27, 7]}])
    assert st.soldiers[1].status == "waiting"
    # Bo leads: tied hands, and Ann has nobody on the board yet to break the tie
    st, _ = play(st, "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1\npass")
    with pytest.raises(ScriptError, match="first action is a MOVE"):
        play(st, "@Ann\nshoot 1 4")
    st, ev = play(st, "@Ann\ntag move 1 31A")
    assert st.soldiers[1].status == "board" and st.board.tile_at(st.soldiers[1].at) == "31A"
    assert st.forces["US-1"].entry_area == "A"


def test_leaving_through_an_exit_area(position, play):
    st = walk_position(position, soldiers=[{"serial": 1, "seat": 0, "at": [17, 1]},
                                           {"serial": 4, "seat": 1, "at": [27, 7]}])
    st, _ = play(st, "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1")
    st, ev = play(st, "@Ann\ntag move 1 exit B")
    assert st.soldiers[1].status == "exited" and kinds(ev, "exit")


# ----------------------------------------------------------------------------- grenades and friendly fire


def test_a_grenade_catches_everyone_under_the_blast_and_can_be_shifted_one_cell(position, play):
    # Dorn is spotted 6" away; Engel stands two cells behind him. Centred on Dorn the blast misses
    # Engel; moved one cell toward him it catches both. The thrower is not spotted by tossing.
    st = position(scenario="yard",
                  soldiers=[{"serial": 1, "seat": 0, "at": [2, 7], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [8, 7], "facing": "w", "spotted": True},
                            {"serial": 5, "seat": 1, "at": [10, 7], "facing": "w"}],
                  phase_cards=["S10", "S01", "S05"],
                  hands={0: ["1-P2", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
                  decks={0: ["1-C4", "1-C3"], 1: ["4-P1", "4-P2"]})
    st, _ = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    with pytest.raises(ScriptError, match="at most one cell"):
        play(st, "@Ann\ntag toss 1 4 at 10,7")
    st, ev = play(st, "@Ann\ntag toss 1 4 at 9,7")
    assert kinds(ev, "toss")[0].data["victims"] == [4, 5]
    # 1-C4's blast box reads Hit, 1-C3's Miss: one damage check for Dorn (4-P1, Zip), none for Engel
    assert [e.data["serial"] for e in kinds(ev, "blast_check")] == [4, 5]
    assert [e.data["hits"] for e in kinds(ev, "blast_check")] == [1, 0]
    assert st.soldiers[1].grenades == 1 and not st.soldiers[1].spotted


def test_firing_into_a_fight_at_close_range_alternates_enemy_and_friend(position, play):
    # Dorn fights Brooks; Avery fires into the fight at Close range: the first hit goes to Dorn,
    # the second to Brooks, the third to Dorn.
    st = position(scenario="yard",
                  soldiers=[{"serial": 1, "seat": 0, "at": [2, 7], "facing": "e"},
                            {"serial": 2, "seat": 0, "at": [7, 7], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [8, 7], "facing": "w", "spotted": True}],
                  phase_cards=["S10", "S01", "S05"],
                  hands={0: ["1-P2", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
                  decks={0: ["1-C2"], 1: ["4-P1", "4-P2"]})
    st, _ = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    st, ev = play(st, "@Ann\ntag shoot 1 4")
    # 1-C2 reads Long Hit, Short Hit+, Close Hit: three hits (Avery has no Use Hit+)
    assert [e.data["serial"] for e in kinds(ev, "damage_check")] == [4, 2, 4]


def test_firing_into_a_fight_needs_close_range(position):
    from engine.infantry.shoot import shoot_targets, target_problem
    st = position(scenario="range",
                  soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                            {"serial": 2, "seat": 0, "at": [26, 2], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [27, 2], "facing": "w", "spotted": True}],
                  phase_cards=["S10", "S01", "S05"], hands={0: [], 1: []})
    assert "only at Close range" in target_problem(st, 1, 4)
    assert shoot_targets(st, 1) == []


# ----------------------------------------------------------------------------- prisoners


PRISONER = dict(
    scenario="yard",
    soldiers=[{"serial": 3, "seat": 0, "at": [6, 7], "facing": "e"},
              {"serial": 4, "seat": 1, "at": [7, 7], "facing": "w", "captor": 3, "pinned": True},
              {"serial": 5, "seat": 1, "at": [27, 7], "facing": "w"},
              {"serial": 1, "seat": 0, "at": [2, 9], "facing": "e"}],
    phase_cards=["S07", "S08", "S09"],
    hands={0: ["3-C1", "1-C4", "1-C1"], 1: ["5-C1", "5-C4", "5-P1"]},
)


def test_an_escort_takes_his_prisoner_along_and_cannot_shoot(position, play):
    st = position(**PRISONER)
    assert st.soldiers[4].controller == "US-1"
    st, _ = play(st, "@Ann\nplan 3-C1 1-C4 1-C1\n@Bo\nplan 5-C1 5-C4 5-P1")
    st, ev = play(st, "@Ann\ntag move 3 36A")
    esc, pris = st.soldiers[3], st.soldiers[4]
    assert adjacent(esc.at, pris.at)
    with pytest.raises(ScriptError, match="one move per action card"):
        play(st, "team move 3 35A")
    from engine.infantry.shoot import check_can_shoot
    with pytest.raises(RuleError, match="escorting"):
        check_can_shoot(st, 3)


def test_a_friend_in_contact_takes_over_the_prisoner(position, play):
    st = position(**PRISONER)
    st, _ = play(st, "@Ann\nplan 3-C1 1-C4 1-C1\n@Bo\nplan 5-C1 5-C4 5-P1")
    st, ev = play(st, "@Ann\nteam move 1 6,8 face n take 4")
    assert st.soldiers[4].captor == 1 and kinds(ev, "swap")


def test_walking_away_releases_the_prisoner_who_moves_free_unspotted_and_pinned(position, play):
    st = position(**PRISONER)
    st, _ = play(st, "@Ann\nplan 3-C1 1-C4 1-C1\n@Bo\nplan 5-C1 5-C4 5-P1")
    st, ev = play(st, "@Ann\ntag move 3 31A release")
    assert st.pending.kind == "release" and st.pending.prisoner == 4
    st, ev = play(st, "@Bo\nstay")
    p = st.soldiers[4]
    assert p.captor is None and p.controller == "DE-2" and p.pinned and not p.spotted


def test_a_prisoner_is_freed_when_his_own_side_contacts_the_escort(position, play):
    # Engel charges the escort: at the end of the phase the prisoner is freed, pinned, turns on
    # his captor and fights.
    st = position(scenario="yard",
                  soldiers=[{"serial": 3, "seat": 0, "at": [6, 7], "facing": "w"},
                            {"serial": 4, "seat": 1, "at": [7, 7], "facing": "w", "captor": 3},
                            {"serial": 5, "seat": 1, "at": [6, 9], "facing": "n"}],
                  phase_cards=["S07", "S08", "S09"],
                  hands={0: ["3-C4", "3-P3", "3-C3"], 1: ["5-C1", "5-C4", "5-P1"]})
    st, ev = play(st, "@Ann\nplan 3-C3 3-C4 - \n@Bo\nplan 5-C1 5-C4 5-P1")
    while st.active and st.active.force == "US-1":
        st, _ = play(st, "@Ann\npass")
    st, ev = play(st, "@Bo\ntag charge 5 3\npass")
    assert kinds(ev, "liberated") and st.soldiers[4].captor is None and st.soldiers[4].pinned
    assert 4 in (st.fight.members if st.fight else [])


# ----------------------------------------------------------------------------- damage, victory, orders


def test_a_second_wound_kills_and_the_killers_player_scores_the_vp(position):
    from engine.core.content import Damage
    from engine.infantry.damage import apply_damage
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [32, 2], "wounded": True},
                            {"serial": 5, "seat": 1, "at": [33, 2]}],
                  hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    ctx = Ctx(st.clone())
    assert apply_damage(ctx, 4, Damage.WOUND, by_force="US-1", cause="shot", by_soldier=1) == "killed"
    assert [(e.seat, e.amount) for e in ctx.st.vp] == [(0, 3)] and ctx.st.soldiers[1].kills == 1


def test_firing_into_a_fight_odd_hits_go_to_the_enemy_even_hits_to_the_friends(position):
    from engine.infantry.shoot import _apply_hits, share_list
    # Friendly Fire: Ann's 1 fires at Close range into the fight where her 2 and 3 hold the German 4.
    # Four hits: the first and third strike the enemy, the second and fourth her own men in turn.
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [6, 2], "facing": "e"}, {"serial": 2, "seat": 0, "at": [9, 1]},
                            {"serial": 3, "seat": 0, "at": [9, 3]}, {"serial": 4, "seat": 1, "at": [10, 2]}],
                  hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"],
                  decks={0: ["1-C4", "1-P1"], 1: ["4-C4", "4-P1"]})  # all Zips: nobody falls
    ctx = Ctx(st)
    assert share_list(st, 1, 4) == [2, 3]
    _apply_hits(ctx, 1, 4, 4, share_list(st, 1, 4), 0)
    assert [e.data["serial"] for e in kinds(ctx.events, "damage_check")] == [4, 2, 4, 3]


@pytest.mark.parametrize("capturable", [False, True], ids=["shot", "fight"])
def test_a_vehicle_cards_gear_result_against_a_soldier_is_a_zip(position, capturable):
    # Machinery Damage Types: Wreck, Fire, Critical and Pick work only on machinery; against a man
    # they count as a Zip, in a fight (where a Kill would put him down for capture) as anywhere.
    from engine.core.content import GEAR
    from engine.infantry.damage import apply_damage
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [9, 2], "facing": "e"}, {"serial": 4, "seat": 1, "at": [10, 2]}],
                  hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    for result in sorted(GEAR):
        ctx = Ctx(st.clone())
        assert apply_damage(ctx, 4, result, by_force="US-1", cause="fight", by_soldier=1,
                            capturable=capturable) == "zip"
        s = ctx.st.soldiers[4]
        assert s.status == "board" and not (s.pinned or s.wounded) and ctx.st.vp == []


def test_friendly_fire_scores_for_the_enemy_and_events_score_for_nobody(position):
    from engine.infantry.damage import kill
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 2, "seat": 0, "at": [3, 2]},
                            {"serial": 4, "seat": 1, "at": [32, 2]}, {"serial": 5, "seat": 1, "at": [33, 2]}],
                  hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    ctx = Ctx(st.clone())
    kill(ctx, 2, by_force="US-1", cause="shot")
    kill(ctx, 5, by_force=None, cause="event")
    assert [(e.side, e.seat, e.amount, e.kind) for e in ctx.st.vp] == [("DE", None, 6, "friendly_fire")]


def test_friendly_fire_between_teammates_costs_the_killer(cat):
    from engine.infantry.damage import kill
    from engine.position import load_position
    st, _ = load_position(cat, {"scenario": "yard", "players": [{"name": "A", "side": "US"}, {"name": "B", "side": "DE"},
                                                                {"name": "C", "side": "US"}],
                                "soldiers": [{"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 2, "seat": 2, "at": [3, 2]},
                                             {"serial": 4, "seat": 1, "at": [27, 2]}],
                                "hands": {0: [], 1: [], 2: []}, "phase_cards": ["S01", "S02", "S03"]})
    ctx = Ctx(st.clone())
    kill(ctx, 2, by_force="US-1", cause="shot")
    assert sorted((e.side, e.seat, e.amount) for e in ctx.st.vp) == [("DE", None, 6), ("US", 0, -6)]


def test_instant_victory_when_a_side_has_nobody_left(position, play):
    st = position(scenario="yard", soldiers=[{"serial": 1, "seat": 0, "at": [2, 7], "facing": "e"},
                                             {"serial": 4, "seat": 1, "at": [8, 7], "facing": "w", "spotted": True}],
                  phase_cards=["S10", "S01", "S05"],
                  hands={0: ["1-P2", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
                  decks={0: ["1-C2"], 1: ["4-C1"]})
    st, ev = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4\n@Ann\ntag shoot 1 4")
    assert st.step == "over" and st.result.winner == "US" and "instant" in st.result.reason


def test_the_instant_victory_check_reads_on_when_the_man_it_found_has_fallen(position):
    from engine.turn.victory import check_instant
    st = position(scenario="yard", soldiers=[{"serial": 1, "seat": 0, "at": [2, 7]},
                                             {"serial": 4, "seat": 1, "at": [8, 7]},
                                             {"serial": 5, "seat": 1, "at": [10, 7]}],
                  phase_cards=["S10", "S01", "S05"], hands={0: [], 1: []})
    ctx = Ctx(st.clone())
    fighting: dict[str, int] = {}
    assert not check_instant(ctx, fighting) and set(fighting) == {"US", "DE"}
    fallen = fighting["DE"]
    ctx.st.changing(fallen).status = "dead"  # the DE man it found falls; the other still fights
    assert not check_instant(ctx, fighting) and fighting["DE"] == ({4, 5} - {fallen}).pop()
    ctx.st.changing(fighting["DE"]).captor = 1  # the last DE man is taken: nobody of DE is left
    assert check_instant(ctx, fighting)
    assert ctx.st.step == "over" and ctx.st.result.winner == "US" and "instant" in ctx.st.result.reason


def test_search_orders_are_met_by_a_man_in_cover_in_the_landmark(position, play):
    st = position(scenario="yard", players=[{"name": "Ann", "side": "US", "order": "T-SEARCH"},
                                             {"name": "Bo", "side": "DE"}],
                  soldiers=[{"serial": 1, "seat": 0, "at": [19, 7], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [2, 9], "facing": "w"}],
                  phase_cards=["S07", "S08", "S09"],
                  hands={0: ["1-C1", "1-P1", "1-C4"], 1: ["4-C1", "4-P1", "4-C4"]})
    st, _ = play(st, "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1")
    st, ev = play(st, "@Ann\ntag move 1 L9A:cover")
    assert st.seats[0].order_done and kinds(ev, "orders")
    assert st.seat_vp(0) == 3


def test_absent_soldiers_are_left_out_of_the_reinforcements(cat):
    from engine.turn.setup import SeatSpec, new_game
    seats = [SeatSpec(name="A", side="US"), SeatSpec(name="B", side="DE")]
    st, _ = new_game(cat, "yard", seats, 1)
    assert st.soldiers[7].status == "reserve"
    st, _ = new_game(cat, "yard", seats, 1, absent={7})
    assert 7 not in st.soldiers


def test_a_fight_kill_is_credited_to_the_striker_and_named_in_the_vp(position, play):
    from tests.engine.test_worked_examples import FIGHT_POSITION
    st = position(**FIGHT_POSITION)
    st, _ = play(st, "@Ann\nplan 2-C4 2-C1 2-C3\n@Bo\nplan 5-C4 5-C1 5-C3\nfight 4-C1 1\n@Ann\nfight 1-C1 5\n"
                     "@Bo\nfight 4-C3 2\n@Ann\nfight 1-C2 4\n@Bo\nfight 4-C4 3\n@Ann\nfight 1-C3 4\n@Bo\nkill 1\n@Ann\nkill 5")
    # Dorn (4) dealt the Kill on Avery (1), whoever else was in the fight
    entry = next(e for e in st.vp if e.serial == 1)
    assert entry.by == 4 and entry.seat == 1 and st.soldiers[4].kills == 1
    assert next(e for e in st.vp if e.serial == 5).by in (2, 3)
