"""Tactics modules (core manual, Advanced Rules, Tactics Modules): team panels, their slots and
team cards. Fixture: tests/fixtures/rules/assets/teams/infiltration.yaml (the storm team: slots
I, I for light-infantry badges or six grenades, slot II for an assault badge, an NCO or Sight
18; the scout pair: two open slots) and soldiers 80-87 (assets/soldiers/teams.yaml)."""
from __future__ import annotations

import pytest

from engine.advanced import teams
from engine.core.content import ForceEntry
from engine.core.errors import RuleError
from engine.turn.setup import SeatSpec, check_force, new_game

US = [ForceEntry(serial=1)]


def de_force(*rows):
    return [ForceEntry(**r) if isinstance(r, dict) else ForceEntry(serial=r) for r in rows]


def check(cat, entries, taken_panels=frozenset()):
    return check_force(cat, cat.scenario("teams-woods"), "DE", entries, 2, taken_panels=taken_panels)


# ----------------------------------------------------------------------------- force selection


def test_a_slot_takes_a_soldier_who_meets_one_of_its_needs(cat):
    # Adler has the Jager badge, Bauer carries six grenades: both fit the storm team's I slots;
    # Claus as an NCO, Dietz with Sight 18 and Fuchs with his assault badge each fit slot II.
    check(cat, de_force({"serial": 80, "panel": "storm", "slot": 0}, {"serial": 81, "panel": "storm", "slot": 1},
                        {"serial": 82, "rank": "junior_nco", "panel": "storm", "slot": 2}))
    for serial in (83, 85):
        check(cat, de_force({"serial": serial, "panel": "storm", "slot": 2}))
    check(cat, de_force({"serial": 87, "panel": "storm", "slot": 0}))  # Gebirgsjager badge


def test_a_soldier_who_does_not_qualify_is_refused_with_what_the_slot_needs(cat):
    with pytest.raises(RuleError, match=r"Ebert \(84\) cannot fill slot 0 \(I\).*jager badge.*6 grenades"):
        check(cat, de_force({"serial": 84, "panel": "storm", "slot": 0}))
    # Claus is an NCO only when played at NCO rank
    with pytest.raises(RuleError, match=r"Claus \(82\) cannot fill slot 2 \(II\).*NCO rank"):
        check(cat, de_force({"serial": 82, "panel": "storm", "slot": 2}))


def test_extra_grenades_bought_qualify_a_man_for_a_grenade_slot(cat):
    check(cat, de_force({"serial": 84, "panel": "storm", "slot": 0, "grenades": 6}))


def test_one_soldier_a_slot_and_the_slot_must_exist(cat):
    with pytest.raises(RuleError, match="both in slot 0"):
        check(cat, de_force({"serial": 80, "panel": "storm", "slot": 0}, {"serial": 81, "panel": "storm", "slot": 0}))
    with pytest.raises(RuleError, match="slot 0-2"):
        check(cat, de_force({"serial": 80, "panel": "storm", "slot": 3}))
    with pytest.raises(RuleError, match="slot 0-1"):
        check(cat, de_force({"serial": 80, "panel": "pair"}))
    with pytest.raises(RuleError, match="no team panel 'assault'"):
        check(cat, de_force({"serial": 80, "panel": "assault", "slot": 0}))
    with pytest.raises(RuleError, match="a slot but no team panel"):
        check(cat, de_force({"serial": 80, "slot": 0}))


def test_a_panel_need_not_be_full_and_unmarked_slots_take_anyone(cat):
    check(cat, de_force({"serial": 84, "panel": "pair", "slot": 1}, 86))


def test_a_panel_of_the_other_side_is_refused(cat):
    with pytest.raises(RuleError, match="DE panel, not US"):
        check_force(cat, cat.scenario("teams-woods"), "US", [ForceEntry(serial=1, panel="pair", slot=0)], 2)


def test_no_two_copies_of_a_panel_two_players_of_a_side_cannot_both_use_it(cat):
    with pytest.raises(RuleError, match="used already"):
        check(cat, de_force({"serial": 84, "panel": "pair", "slot": 0}), taken_panels={"pair"})
    seats = [SeatSpec(name="Ann", side="US", force=US),
             SeatSpec(name="Bo", side="DE", force=de_force({"serial": 84, "panel": "pair", "slot": 0})),
             SeatSpec(name="Cy", side="US", force=[ForceEntry(serial=2)]),
             SeatSpec(name="Di", side="DE", force=de_force({"serial": 86, "panel": "pair", "slot": 1}))]
    with pytest.raises(RuleError, match="used already"):
        new_game(cat, "teams-woods", seats, seed=3)


def test_a_panel_in_use_brings_all_its_team_cards_and_its_soldiers_keep_their_slots(cat):
    st, _ = new_game(cat, "teams-woods", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], seed=3)
    f = st.forces["DE-2"]
    cards = set(f.deck) | set(f.hand)
    assert {"STORM-T1", "STORM-T2", "STORM-T3", "STORM-T4", "STORM-T5", "PAIR-T1"} <= cards
    assert not any(c.startswith(("STORM", "PAIR")) for c in st.forces["US-1"].deck + st.forces["US-1"].hand)
    assert (st.soldiers[82].panel, st.soldiers[82].slot) == ("storm", 2)
    assert st.soldiers[83].panel is None
    assert set(st.setup.panels) == {"storm", "pair"}


# ----------------------------------------------------------------------------- in the game


def storm_position(position, **kw):
    soldiers = kw.pop("soldiers", None) or [
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0},
        {"serial": 81, "seat": 1, "at": [33, 1], "panel": "storm", "slot": 1},
        {"serial": 82, "seat": 1, "rank": "junior_nco", "at": [31, 3], "panel": "storm", "slot": 2},
        {"serial": 84, "seat": 1, "at": [36, 2], "panel": "pair", "slot": 0},
        {"serial": 86, "seat": 1, "at": [38, 2], "panel": "pair", "slot": 1},
        {"serial": 83, "seat": 1, "at": [26, 2]},
        {"serial": 1, "seat": 0, "at": [2, 2]},
    ]
    return position(scenario="teams-woods", soldiers=soldiers, **kw)


def test_a_position_places_soldiers_on_panels_and_their_decks_hold_the_team_cards(cat, position):
    from engine.position import dump_position, load_position
    st = storm_position(position, hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    assert st.soldiers[81].panel == "storm" and st.soldiers[81].slot == 1
    deck = st.forces["DE-2"].deck
    assert deck.count("STORM-T4") == 1 and "PAIR-T1" in deck
    row = next(r for r in dump_position(st)["soldiers"] if r["serial"] == 82)
    assert (row["panel"], row["slot"]) == ("storm", 2)
    again, _ = load_position(cat, dump_position(st))  # written and read back: same panels, cards once
    assert again.forces["DE-2"].deck == deck and (again.soldiers[82].panel, again.soldiers[82].slot) == ("storm", 2)


def test_a_slot_is_filled_while_its_soldier_is_in_play(position):
    st = storm_position(position, hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    assert teams.slot_filled(st, "DE-2", "storm", "II")
    assert teams.slot_filled(st, "DE-2", "storm", "I")
    st.changing(82).status = "dead"
    assert not teams.slot_filled(st, "DE-2", "storm", "II")
    st.changing(80).status = "dead"  # Bauer still fills the other slot I
    assert teams.slot_filled(st, "DE-2", "storm", "I")
    st.changing(81).captor = 1
    assert not teams.slot_filled(st, "DE-2", "storm", "I")
    assert teams.members(st, "DE-2", "storm") == []
    assert teams.members(st, "DE-2", "pair") == [84, 86]


# ----------------------------------------------------------------------------- team cards in play

ANN_HIDE = ["1-C3", "1-P3", "1-C1"]  # look, look, move: Ann never acts in phase 1's HIDE


def pass_until(st, play, done):
    """Whoever is to act passes his card until `done(st)`; returns the state and the events."""
    seen = []
    while not done(st):
        assert st.active is not None, "nobody is acting"
        st, ev = play(st, f"@{st.forces[st.active.force].seat}\npass")
        seen += ev
    return st, seen


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def test_team_may_rally_every_member_rallies_himself_a_member_or_a_man_in_reach(position, play):
    # STORM-T1 needs slot II filled (Claus, NCO, is there). Its bubble says "Team may rally":
    # Adler and Bauer, both pinned, rally themselves; Claus rallies Ebert of the scout pair, 5"
    # away, inside his rally reach. Dietz, on no panel, cannot use the Team bubble, and neither
    # can the scout pair's Ebert.
    st = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0, "pinned": True},
        {"serial": 81, "seat": 1, "at": [33, 1], "panel": "storm", "slot": 1, "pinned": True},
        {"serial": 82, "seat": 1, "rank": "junior_nco", "at": [31, 3], "panel": "storm", "slot": 2},
        {"serial": 84, "seat": 1, "at": [36, 2], "panel": "pair", "slot": 0, "pinned": True},
        {"serial": 83, "seat": 1, "at": [26, 2], "pinned": True},
        {"serial": 1, "seat": 0, "at": [2, 2]}],
        phase_cards=["S04", "S01", "S05"], hands={0: ANN_HIDE, 1: ["STORM-T1", "80-C3", "80-C1"]})
    st, _ = play(st, "@Ann\nplan 1-C3 1-P3 1-C1\n@Bo\nplan STORM-T1 80-C3 80-C1")
    assert st.active.card == "STORM-T1" and [s.kind for s in st.active.sources] == ["team"]  # no dog tag
    for line in ("team rally 83 83", "team rally 84 84", "tag rally 80 80"):
        with pytest.raises(RuleError):
            play(st, "@Bo\n" + line)
    st, _ = play(st, "@Bo\nteam rally 80 80")
    with pytest.raises(RuleError, match="acted for this team bubble"):
        play(st, "@Bo\nteam rally 80 81")  # one action a man
    st, _ = play(st, "@Bo\nteam rally 81 81\nteam rally 82 84")
    assert not st.soldiers[80].pinned and not st.soldiers[81].pinned and not st.soldiers[84].pinned
    assert st.soldiers[83].pinned


def test_a_team_card_needing_an_empty_slot_gives_no_actions(position, play):
    # Nobody fills slot II of the storm team: STORM-T1 is a dead card when its phase comes.
    st = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0, "pinned": True},
        {"serial": 81, "seat": 1, "at": [33, 1], "panel": "storm", "slot": 1},
        {"serial": 1, "seat": 0, "at": [2, 2]}],
        phase_cards=["S04", "S01", "S05"], hands={0: [], 1: []},
        decks={1: ["STORM-T1"]})
    assert teams.unplayable(st, "DE-2", "STORM-T1")
    assert not teams.slot_filled(st, "DE-2", "storm", "II")


def test_teamwork_card_lets_every_team_of_the_squad_hide(position, play):
    # STORM-T4 (slot I filled by Adler): each man on any team panel of the squad may take any
    # HIDE action. Adler (storm) takes cover in the wheat, Ebert (scout pair) rallies himself,
    # Claus (storm) holds a card. Dietz, on no panel, may not.
    st = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0, "spotted": True},
        {"serial": 82, "seat": 1, "rank": "junior_nco", "at": [31, 3], "panel": "storm", "slot": 2},
        {"serial": 84, "seat": 1, "at": [36, 2], "panel": "pair", "slot": 0, "pinned": True},
        {"serial": 83, "seat": 1, "at": [33, 3], "spotted": True},
        {"serial": 1, "seat": 0, "at": [2, 2]}],
        phase_cards=["S04", "S01", "S05"], hands={0: ANN_HIDE, 1: ["STORM-T4", "80-C3", "80-C1", "84-C2"]})
    st, _ = play(st, "@Ann\nplan 1-C3 1-P3 1-C1\n@Bo\nplan STORM-T4 80-C3 80-C1")
    with pytest.raises(RuleError):
        play(st, "@Bo\nteam cover 83")
    st, _ = play(st, "@Bo\nteam cover 80\nteam rally 84 84\nteam hold 82 84-C2")
    assert not st.soldiers[80].spotted and not st.soldiers[84].pinned and st.soldiers[82].held == ["84-C2"]


def test_book_example_slot_i_man_killed_in_phase_two_so_the_phase_three_teamwork_card_is_not_playable(
        position, play):
    # Adler is the storm team's only man in slot I. Bo places the teamwork card STORM-T4 on phase
    # 3. In phase 2 Avery shoots Adler from 2" away: the stacked hit check 1-C1 scores, the damage
    # check 80-C1 reads Kill. In phase 3 the card's requirement is unmet: no actions for Bo.
    st = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0, "spotted": True, "facing": "w"},
        {"serial": 82, "seat": 1, "rank": "junior_nco", "at": [31, 3], "panel": "storm", "slot": 2},
        {"serial": 84, "seat": 1, "at": [36, 2], "panel": "pair", "slot": 0, "spotted": True},
        {"serial": 1, "seat": 0, "at": [29, 1], "facing": "e"}],
        phase_cards=["S01", "S10", "S04"], hands={0: ["1-C3", "1-C2", "1-P3"], 1: ["82-C3", "82-J3", "STORM-T4"]},
        decks={0: ["1-C1"], 1: ["80-C1", "84-C1", "80-C4"]})
    st, ev = play(st, "@Ann\nplan 1-C3 1-C2 1-P3\n@Bo\nplan 82-C3 82-J3 STORM-T4")
    st, _ = pass_until(st, play, lambda s: s.phase == 2 and s.active and s.active.card == "1-C2")
    st, ev = play(st, "@Ann\ntag shoot 1 80")
    assert st.soldiers[80].status == "dead"
    st, ev = pass_until(st, play, lambda s: s.phase == 3 and s.active and s.active.card == "1-P3")
    texts = " ".join(e.text for e in ev)
    assert "STORM-T4" in texts and "no actions this phase" in texts
    assert st.active is None or st.active.card != "STORM-T4"
    with pytest.raises(RuleError):
        play(st, "@Bo\nteam cover 84")


ANN_MOVE = ["1-C3", "1-C2", "1-C1"]  # look, shoot, move: Ann never acts in phase 1's MOVE
BO_MOVE = ["STORM-T2", "80-C3", "80-C2", "80-C4"]  # 80-C4 (HIDE) fits no phase: it pays the cost


def test_one_square_restriction_is_read_when_the_card_starts_only(position, play):
    # STORM-T2: the whole storm team must stand in one map square as it starts; it costs a card.
    # Claus stands a square behind: the card is not playable.
    apart = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0},
        {"serial": 81, "seat": 1, "at": [33, 1], "panel": "storm", "slot": 1},
        {"serial": 82, "seat": 1, "rank": "junior_nco", "at": [27, 3], "panel": "storm", "slot": 2},
        {"serial": 1, "seat": 0, "at": [2, 2]}],
        phase_cards=["S07", "S10", "S12"], hands={0: ANN_MOVE, 1: BO_MOVE})
    st, ev = play(apart, "@Ann\nplan 1-C3 1-C2 1-C1\n@Bo\nplan STORM-T2 80-C3 80-C2")
    assert any("not playable" in e.text and "one map square" in e.text for e in ev)
    assert st.pending is None and (st.active is None or st.active.card != "STORM-T2")
    # All three in the wheat field (27A): the card plays; once started, the team may split up.
    together = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0},
        {"serial": 81, "seat": 1, "at": [33, 1], "panel": "storm", "slot": 1},
        {"serial": 82, "seat": 1, "rank": "junior_nco", "at": [31, 3], "panel": "storm", "slot": 2},
        {"serial": 1, "seat": 0, "at": [2, 2]}],
        phase_cards=["S07", "S10", "S12"], hands={0: ANN_MOVE, 1: BO_MOVE})
    st, ev = play(together, "@Ann\nplan 1-C3 1-C2 1-C1\n@Bo\nplan STORM-T2 80-C3 80-C2\npay 80-C4")
    st, ev = play(st, "@Bo\nteam move 80 28A\nteam move 81 26A")
    assert st.board.tile_at(st.soldiers[80].at) == "28A" and st.board.tile_at(st.soldiers[81].at) == "26A"


def test_identity_box_each_soldier_drawn_acts_once_for_each_of_his_cards(position, play):
    # STORM-T3's identity box draws three identity checks off Bo's deck: 80-C1, the team card
    # STORM-T1 (no dog tag: it counts for nothing) and 80-C3. Adler came up twice, so he may
    # SHOOT or MOVE twice; Claus came up not at all.
    st = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0},
        {"serial": 82, "seat": 1, "rank": "junior_nco", "at": [31, 3], "panel": "storm", "slot": 2},
        {"serial": 1, "seat": 0, "at": [2, 2]}],
        phase_cards=["S10", "S01", "S04"], hands={0: ["1-C3", "1-P3", "1-C4"], 1: ["STORM-T3", "82-C3", "82-C4"]},
        decks={1: ["80-C1", "STORM-T1", "80-C3"]})
    st, _ = play(st, "@Ann\nplan 1-C3 1-P3 1-C4\n@Bo\nplan STORM-T3 82-C3 82-C4")
    assert st.active.card == "STORM-T3"
    src = next(s for s in st.active.sources if s.kind == "identity")
    assert src.drawn == [80, 80]
    with pytest.raises(RuleError, match="identity checks"):
        play(st, "@Bo\nidentity move 82 28A")
    with pytest.raises(RuleError, match="SHOOT/MOVE"):
        play(st, "@Bo\nidentity cover 80")
    st, _ = play(st, "@Bo\nidentity move 80 28A\nidentity move 80 27A")
    assert st.board.tile_at(st.soldiers[80].at) == "27A"
    assert st.active.card != "STORM-T3"  # both of his actions taken: the card is done


# ----------------------------------------------------------------------------- changing slots


def test_a_soldier_changes_slot_on_his_own_panel_only_to_a_slot_he_qualifies_for(position, play):
    st = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0},
        {"serial": 82, "seat": 1, "rank": "junior_nco", "at": [31, 3], "panel": "storm", "slot": 2},
        {"serial": 84, "seat": 1, "at": [36, 2], "panel": "pair", "slot": 0},
        {"serial": 1, "seat": 0, "at": [2, 2]}],
        phase_cards=["S10", "S01", "S04"], hands={0: ["1-C3", "1-P3", "1-C4"], 1: ["82-C3", "82-J3", "82-C4"]})
    st, ev = play(st, "@Bo\nreslot 80 1")
    assert st.soldiers[80].slot == 1 and kinds(ev, "reslot")
    with pytest.raises(RuleError, match="needs a jager badge"):
        play(st, "@Bo\nreslot 82 0")  # slot I: a light-infantry badge or six grenades
    with pytest.raises(RuleError, match="Claus fills"):
        play(st, "@Bo\nreslot 80 2")
    with pytest.raises(RuleError, match="slots 0-1"):
        play(st, "@Bo\nreslot 84 2")  # the pair has two slots: no way onto the storm team
    with pytest.raises(RuleError, match="not one of your soldiers"):
        play(st, "@Ann\nreslot 80 0")
    st, ev = play(st, "@Bo\nplan 82-C3 82-J3 82-C4")
    with pytest.raises(RuleError, match="before you place"):
        play(st, "@Bo\nreslot 80 0")


def test_a_bubble_without_team_is_for_any_soldiers_and_a_mixed_one_keeps_its_count(position, play):
    # PAIR-T2: "Team move, 1 move". Both scout-pair men move as the Team; Dietz, on no panel,
    # takes the one numbered move; Adler of the storm team then finds nothing left for him.
    st = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0},
        {"serial": 84, "seat": 1, "at": [36, 2], "panel": "pair", "slot": 0},
        {"serial": 86, "seat": 1, "at": [38, 2], "panel": "pair", "slot": 1},
        {"serial": 83, "seat": 1, "at": [26, 2]},
        {"serial": 1, "seat": 0, "at": [2, 2]}],
        phase_cards=["S07", "S10", "S12"], hands={0: ANN_MOVE, 1: ["PAIR-T2", "80-C3", "80-C2"]})
    st, _ = play(st, "@Ann\nplan 1-C3 1-C2 1-C1\n@Bo\nplan PAIR-T2 80-C3 80-C2")
    st, _ = play(st, "@Bo\nteam move 84 27A\nteam move 83 25A\nteam move 86 27A")
    assert {st.board.tile_at(st.soldiers[n].at) for n in (84, 86)} == {"27A"}
    assert st.board.tile_at(st.soldiers[83].at) == "25A"
    if st.active is not None and st.active.card == "PAIR-T2":  # else it ended: nothing was left to do
        with pytest.raises(RuleError):
            play(st, "@Bo\nteam move 80 28A")


def test_team_cards_bear_no_dog_tag_an_identity_check_never_finds_them(position):
    from engine.core.action_cards import describe
    from engine.core.identity import identity_check, owner_of
    from engine.core.log import Ctx
    st = storm_position(position, hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"],
                        decks={1: ["STORM-T1", "80-C1"]})
    assert owner_of(st, "STORM-T1") is None and "team card" in describe(st, "STORM-T1")
    ctx = Ctx(st)
    assert not identity_check(ctx, "DE-2", 80)  # STORM-T1 comes up: nobody's card
    assert identity_check(ctx, "DE-2", 80)  # then 80-C1: his own


def test_a_team_react_card_lets_the_whole_team_take_its_actions(position, play):
    # Avery moves; Bo answers with the react card STORM-T6 "Team may move": Adler and Bauer both
    # move, Dietz (on no panel) may not. Then Avery's card carries on.
    st = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0},
        {"serial": 81, "seat": 1, "at": [33, 1], "panel": "storm", "slot": 1},
        {"serial": 83, "seat": 1, "at": [33, 3]},
        {"serial": 1, "seat": 0, "at": [2, 2]}],
        phase_cards=["S07", "S10", "S12"], hands={0: ["1-C1", "1-C3", "1-C2"], 1: ["STORM-T6", "81-C3", "80-C3", "80-C2"]})
    st, _ = play(st, "@Ann\nplan 1-C1 1-C3 1-C2\n@Bo\nplan 81-C3 80-C3 80-C2")  # the react card stays in hand
    st, _ = play(st, "@Ann\ntag move 1 22A")
    assert st.pending is not None and st.pending.kind == "react"
    st, _ = play(st, "@Bo\nreact STORM-T6")
    with pytest.raises(RuleError):
        play(st, "@Bo\nteam move 83 28A")
    st, _ = play(st, "@Bo\nteam move 80 28A\nteam move 81 28A")
    assert {st.board.tile_at(st.soldiers[n].at) for n in (80, 81)} == {"28A"}
    assert st.board.tile_at(st.soldiers[83].at) == "27A"


def test_a_team_react_card_whose_men_are_not_in_one_square_is_never_offered_nor_played(position, play):
    # STORM-T6 given the one-square restriction, with Adler and Bauer in two different squares:
    # the card is not playable, so the react window stays shut after Avery moves.
    st = storm_position(position, soldiers=[
        {"serial": 80, "seat": 1, "at": [31, 1], "panel": "storm", "slot": 0},
        {"serial": 81, "seat": 1, "at": [38, 1], "panel": "storm", "slot": 1},
        {"serial": 1, "seat": 0, "at": [2, 2]}],
        phase_cards=["S07", "S10", "S12"], hands={0: ["1-C1", "1-C3", "1-C2"], 1: ["STORM-T6", "81-C3", "80-C3", "80-C2"]})
    assert st.board.tile_at(st.soldiers[80].at) != st.board.tile_at(st.soldiers[81].at)
    card = st.setup.cards["STORM-T6"].model_copy(update={"restriction": "one_square"})
    st.setup = st.setup.model_copy(update={"cards": {**st.setup.cards, "STORM-T6": card}})
    from engine.advanced.react import playable
    assert playable(st, "DE-2") == []
    together = st.clone()
    together.changing(81).at = (33, 1)
    assert playable(together, "DE-2") == ["STORM-T6"]
    st, _ = play(st, "@Ann\nplan 1-C1 1-C3 1-C2\n@Bo\nplan 81-C3 80-C3 80-C2")
    st, _ = play(st, "@Ann\ntag move 1 22A")
    assert st.pending is None or st.pending.kind != "react"
