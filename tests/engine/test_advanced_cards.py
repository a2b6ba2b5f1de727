"""Advanced card machinery (core manual, Advanced Rules): ANY command cards, preempt and react
cards, dead cards and officers' extra cards, each shown with a small position.

Fixture soldiers (tests/fixtures/rules/assets/soldiers/advanced.yaml): Harlan (20, US officer,
Command 2, an ANY card 20-X1 and a react 20-X2), Quill (21, US scout, react 21-X1 costing 1 VP,
preempt 21-X2), Kessler (22, DE scout, preempt 22-X1 "3 enemy moves, then shoot", react 22-X2),
Lind (23), Marsh (24, a second US officer), Brandt (25, DE officer, Command 1), Ruhl (26),
Tobin (27). A position deals only soldiers' core and rank cards, so the tests hand the
specialists' cards over with `give`.
"""
from __future__ import annotations

import pytest

from engine.core.content import (
    ActionCardDef,
    ForceEntry,
    PanelSlot,
    TeamEntry,
    TeamPanelDef,
)
from engine.core.errors import RuleError
from engine.legal import awaiting, default_command, legal_commands
from engine.script import ScriptError
from engine.turn.setup import check_force


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def give(st, seat: int, *cards: str) -> None:
    """Put specialists' cards into a seat's hand (a position deals only core and rank cards)."""
    st.forces[next(f for f in st.forces if st.forces[f].seat == seat)].hand.extend(cards)


def until_active(st, play, card: str, limit: int = 20):
    """Pass every other card until `card` is in play."""
    for _ in range(limit):
        if st.active is not None and st.active.card == card:
            return st
        w = awaiting(st)[0]
        st, _ = play(st, str(default_command(st, w.seat)), seat=w.seat)
    raise AssertionError(f"{card} never came into play")


# ----------------------------------------------------------------------------- command cards (ANY)


def test_any_card_example_declared_shoot_team_shoots_and_dog_tag_holds_a_card(position, play):
    # The book's ANY card on a SHOOT-then-MOVE phase: declared at the reveal as SHOOT (one of the
    # phase's two actions), its team bubble used in the SHOOT slot, and its dog tag used for
    # any of the four actions: here a HIDE to hold a card.
    st = position(
        soldiers=[{"serial": 20, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 1, "seat": 0, "at": [3, 4], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True}],
        phase_cards=["S12", "S01", "S05"],
        hands={0: ["1-C3", "1-C4", "1-C2"], 1: ["4-C1", "4-C4", "4-P1"]})
    give(st, 0, "20-X1")
    st, ev = play(st, "@Ann\nplan 20-X1 1-C3 1-C4\n@Bo\nplan 4-C1 4-C4 4-P1")
    assert "ANY" in kinds(ev, "reveal")[0].text
    assert st.pending.kind == "declare" and st.pending.card == "20-X1"
    with pytest.raises(ScriptError):
        play(st, "@Ann\ndeclare 20-X1 look")  # LOOK is not on this phase card
    st, ev = play(st, "@Ann\ndeclare 20-X1 shoot")
    assert st.active.card == "20-X1" and st.active.action.value == "shoot"
    st, ev = play(st, "@Ann\nteam shoot 1 4")
    assert kinds(ev, "shoot")
    while st.pending is not None:  # a Hit+ or the like: keep the defaults
        st, _ = play(st, str(default_command(st, awaiting(st)[0].seat)), seat=awaiting(st)[0].seat)
    st, ev = play(st, "@Ann\ntag hold 20 1-C2")
    assert st.soldiers[20].held == ["1-C2"]


def test_any_card_dog_tag_offers_all_four_actions(position, play):
    st = position(
        soldiers=[{"serial": 20, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True}],
        phase_cards=["S12", "S01", "S05"],
        hands={0: ["20-C3", "20-C4", "20-P2"], 1: ["4-C1", "4-C4", "4-P1"]})
    give(st, 0, "20-X1")
    st, _ = play(st, "@Ann\nplan 20-X1:move 20-C3 20-C4\n@Bo\nplan 4-C1 4-C4 4-P1")
    st = until_active(st, play, "20-X1")
    assert st.active.action.value == "move"
    tags = {c.type for c in legal_commands(st, 0) if getattr(c, "via", None) == "tag"}
    assert {"move", "shoot", "draw", "hold"} <= tags  # MOVE, SHOOT, LOOK and HIDE from one dog tag


# ----------------------------------------------------------------------------- preempt cards


def _preempt_position(position):
    # Avery (1) and Brooks (2) and Tobin (27) for Ann; Kessler (22) and Lind (23) for Bo.
    # Phase 1 is MOVE then LOOK; Ann's Dash (1-C1) lets two soldiers move.
    st = position(
        soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e", "spotted": True},
                  {"serial": 2, "seat": 0, "at": [3, 4], "facing": "e", "spotted": True},
                  {"serial": 27, "seat": 0, "at": [1, 0], "facing": "e", "spotted": True},
                  {"serial": 22, "seat": 1, "at": [32, 2], "facing": "w"},
                  {"serial": 23, "seat": 1, "at": [33, 4], "facing": "w"}],
        phase_cards=["S07", "S01", "S05"],
        hands={0: ["1-C1", "1-C3", "1-C4"], 1: ["23-C3", "23-C4", "23-C1"]})
    give(st, 1, "22-X1")
    return st


def test_preempt_example_more_preempts_than_moves_only_two_move_then_a_shot(position, play):
    # The book: a card lets 2 soldiers move; "preempt 3 enemy moves, then shoot them" makes only
    # 2 move (the lower number), then the preempting player shoots at one who moved.
    st = _preempt_position(position)
    st, ev = play(st, "@Ann\nplan 1-C1 1-C3 1-C4\n@Bo\nplan 23-C3 23-C4 23-C1")
    assert st.pending.kind == "preempt" and st.forces[st.pending.force].seat == 1
    assert any(a.kind == "preempt" and a.seat == 1 for a in awaiting(st))
    with pytest.raises(ScriptError, match="at most 2"):
        play(st, "@Bo\npreempt 22-X1 1-C1 1 2 27")
    st, ev = play(st, "@Bo\npreempt 22-X1 1-C1 1 2")
    assert kinds(ev, "preempt") and "22-X1" in st.forces["DE-2"].discard
    st = until_active(st, play, "1-C1")
    # the named men move first, with the team bubble; nobody else, not even the dog tag
    with pytest.raises(ScriptError, match="preempted"):
        play(st, "@Ann\ntag move 1 22A")
    with pytest.raises(ScriptError, match="preempted"):
        play(st, "@Ann\nteam move 27 22A")
    assert {c.serial for c in legal_commands(st, 0) if hasattr(c, "serial")} <= {1, 2}
    assert not any(c.type in ("pass", "done") for c in legal_commands(st, 0))
    st, ev = play(st, "@Ann\nteam move 1 22A")
    assert st.pending is None or st.pending.kind != "then"
    st, ev = play(st, "@Ann\nteam move 2 22A")
    # then Bo's follow-up: Kessler shoots at one of the two who moved
    assert st.pending.kind == "then" and st.pending.targets == [1, 2]
    st, ev = play(st, "@Bo\nthen 22 1")
    assert kinds(ev, "preempt_then") and kinds(ev, "shoot")[0].data.get("target", 1) == 1
    while st.pending is not None:
        st, _ = play(st, str(default_command(st, awaiting(st)[0].seat)), seat=awaiting(st)[0].seat)
    # the rest of the card is Ann's again: the dog tag may now move
    assert st.active.card == "1-C1"
    st, ev = play(st, "@Ann\ntag move 1 23A")
    assert kinds(ev, "move")


def test_preempt_needs_the_action_on_the_card_not_on_command_or_preempt_cards(position, play):
    st = position(
        soldiers=[{"serial": 20, "seat": 0, "at": [2, 2], "facing": "e", "spotted": True},
                  {"serial": 1, "seat": 0, "at": [3, 4], "facing": "e", "spotted": True},
                  {"serial": 22, "seat": 1, "at": [32, 2], "facing": "w"},
                  {"serial": 23, "seat": 1, "at": [33, 4], "facing": "w"}],
        phase_cards=["S07", "S01", "S05"],
        hands={0: ["1-C1", "1-C3", "1-C4"], 1: ["23-C3", "23-C4", "23-C1"]})
    give(st, 0, "20-X1", "20-X2")
    give(st, 1, "22-X1")
    # Harlan puts his ANY card beside Avery's Dash on phase 1 (his officer's extra card)
    st, _ = play(st, "@Ann\nplan 1-C1 1-C3 1-C4 +1=20-X1:move\n@Bo\nplan 23-C3 23-C4 23-C1")
    assert st.pending.kind == "preempt"
    with pytest.raises(ScriptError, match="command card"):
        play(st, "@Bo\npreempt 22-X1 20-X1 20")
    with pytest.raises(ScriptError, match="react card"):
        play(st, "@Bo\npreempt 22-X1 20-X2 20")
    with pytest.raises(ScriptError, match="fits 1-C1"):
        play(st, "@Bo\npreempt 22-X1 1-C3 1")  # a LOOK card has no MOVE to preempt


def test_no_preempt_window_when_nothing_fits_or_the_player_always_passes(position, play):
    st = _preempt_position(position)
    st, _ = play(st, "@Bo\nalwayspass on")
    assert st.seats[1].always_pass
    st, _ = play(st, "@Ann\nplan 1-C1 1-C3 1-C4\n@Bo\nplan 23-C3 23-C4 23-C1")
    assert st.pending is None or st.pending.kind != "preempt"
    st = _preempt_position(position)
    st, _ = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 23-C3 23-C4 23-C1")  # phase 1: a LOOK card
    assert st.pending is None or st.pending.kind != "preempt"


# ----------------------------------------------------------------------------- react cards


def _react_position(position):
    # Bo moves Lind with his MOVE card on phase 1; Ann holds Quill's react (1 VP, 1 shoot).
    st = position(
        soldiers=[{"serial": 21, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 1, "seat": 0, "at": [3, 4], "facing": "e"},
                  {"serial": 22, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True},
                  {"serial": 23, "seat": 1, "at": [33, 4], "facing": "w", "spotted": True}],
        phase_cards=["S07", "S01", "S05"],
        hands={0: ["1-C3", "1-C4", "1-C1"], 1: ["23-C1", "23-C4", "23-P1"]})
    give(st, 0, "21-X1")
    give(st, 1, "22-X2")
    return st


def test_react_after_an_enemy_action_costs_its_vp_and_no_one_reacts_to_it(position, play):
    st = _react_position(position)
    st, _ = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 23-C1 23-C4 23-P1")
    st = until_active(st, play, "23-C1")
    assert st.pending is None
    st, ev = play(st, "@Bo\nteam move 23 26A")
    # Lind's move is done: Ann (holding a live react) is asked, Bo is not
    assert st.pending.kind == "react" and awaiting(st)[0].seat == 0
    assert {c.type for c in legal_commands(st, 0)} == {"react", "skip"}
    assert not [e for e in ev if e.public and "21-X1" in e.text]  # the hand stays secret
    before = st.seat_vp(0)
    st, ev = play(st, "@Ann\nreact 21-X1")
    assert kinds(ev, "react") and st.active.card == "21-X1" and st.active.react
    with pytest.raises(ScriptError):
        play(st, "@Ann\ntag shoot 21 23")  # a react card has no dog tag action
    st, ev = play(st, "@Ann\nteam shoot 21 23")
    while st.pending is not None and st.pending.kind not in ("react",):
        st, _ = play(st, str(default_command(st, awaiting(st)[0].seat)), seat=awaiting(st)[0].seat)
    # Bo holds a react too, but nobody reacts to a react; the VP are gone for good
    assert st.pending is None or st.pending.kind != "react"
    assert st.seat_vp(0) == before - 1 and st.side_vp("US") == before - 1
    assert st.forces["US-1"].vp_pile == ["21-X1"] and "21-X1" not in st.forces["US-1"].hand
    assert st.active is None or st.active.card == "23-C1"  # Bo's card carries on


def test_react_window_skipped_keeps_the_card_and_always_pass_is_never_asked(position, play):
    st = _react_position(position)
    st, _ = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 23-C1 23-C4 23-P1")
    st = until_active(st, play, "23-C1")
    st, _ = play(st, "@Bo\nteam move 23 26A")
    assert default_command(st, 0).type == "skip"
    st, _ = play(st, "@Ann\nskip")
    assert "21-X1" in st.forces["US-1"].hand and st.seat_vp(0) == 0
    st = _react_position(position)
    st, _ = play(st, "@Ann\nalwayspass on\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 23-C1 23-C4 23-P1")
    st = until_active(st, play, "23-C1")
    st, _ = play(st, "@Bo\nteam move 23 26A")
    assert st.pending is None


def test_nobody_is_asked_when_nobody_holds_a_react(position, play):
    st = _react_position(position)
    st.forces["US-1"].hand.remove("21-X1")
    st, _ = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 23-C1 23-C4 23-P1")
    st = until_active(st, play, "23-C1")
    st, _ = play(st, "@Bo\nteam move 23 26A")
    assert st.pending is None and st.active.card == "23-C1"


# ----------------------------------------------------------------------------- dead cards


def test_dead_cards_cannot_be_placed_or_played_and_are_discarded_at_turn_end(position, play):
    st = position(
        soldiers=[{"serial": 20, "seat": 0, "status": "dead"},
                  {"serial": 21, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 1, "seat": 0, "at": [3, 4], "facing": "e"},
                  {"serial": 23, "seat": 1, "at": [33, 4], "facing": "w", "spotted": True}],
        phase_cards=["S07", "S01", "S05"],
        hands={0: ["1-C3", "1-C4", "1-C1"], 1: ["23-C1", "23-C4", "23-P1"]})
    give(st, 0, "20-X1", "20-X2")
    with pytest.raises(ScriptError, match="dead card"):
        play(st, "@Ann\nplan 20-X1 1-C4 1-C1")
    st, _ = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 23-C1 23-C4 23-P1")
    assert "20-X1" in st.forces["US-1"].hand  # dead, it waits in the hand
    st = until_active(st, play, "23-C1")
    st, _ = play(st, "@Bo\nteam move 23 26A")
    assert st.pending is None  # Harlan's react is dead: Ann is not asked
    for _ in range(200):
        if st.turn > 1 or st.step == "over":
            break
        w = awaiting(st)[0]
        st, _ = play(st, str(default_command(st, w.seat)), seat=w.seat)
    assert "20-X1" in st.forces["US-1"].discard and "20-X2" in st.forces["US-1"].discard


def test_a_placed_command_card_whose_owner_falls_gives_no_actions(position, play):
    st = position(
        soldiers=[{"serial": 20, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 1, "seat": 0, "at": [3, 4], "facing": "e"},
                  {"serial": 23, "seat": 1, "at": [33, 4], "facing": "w", "spotted": True}],
        phase_cards=["S07", "S12", "S05"],
        hands={0: ["1-C3", "1-C4", "1-C1"], 1: ["23-C1", "23-C2", "23-P1"]})
    give(st, 0, "20-X1")
    st, _ = play(st, "@Ann\nplan 1-C1 20-X1:shoot 1-C4\n@Bo\nplan 23-C1 23-C2 23-P1")
    st.changing(20).status = "dead"  # Harlan falls in phase 1
    for _ in range(50):
        w = awaiting(st)[0]
        st, ev = play(st, str(default_command(st, w.seat)), seat=w.seat)
        if kinds(ev, "dead_card"):
            break
    assert kinds(ev, "dead_card")[0].data["card"] == "20-X1"
    assert st.active is None or st.active.card != "20-X1"


def test_team_card_requirement_example_dead_after_the_slot_one_man_falls(position, play):
    # A team card needing slot I of its panel, placed on phase 3; the last man in slot I is
    # killed in phase 2: the card gives no actions when phase 3 comes.
    st = position(
        soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 2, "seat": 0, "at": [3, 4], "facing": "e"},
                  {"serial": 23, "seat": 1, "at": [33, 4], "facing": "w"}],
        phase_cards=["S07", "S01", "S05"],
        hands={0: ["1-C1", "1-C3", "2-C2"], 1: ["23-C1", "23-C4", "23-P1"]})
    hit = st.setup.cards["1-C4"].hit
    card = ActionCardDef(id="TP-T1", owner=0, actions=["hide"], role="panel", panel="tp", needs_slot="I",
                         title="Team to ground", team=[TeamEntry(count=2, do="cover")], hit=hit, damage="Zip")
    panel = TeamPanelDef(id="tp", name="Test team", module="test", nationality="US",
                         slots=[PanelSlot(label="I"), PanelSlot()], cards=["TP-T1"])
    st.setup = st.setup.model_copy(update={"cards": {**st.setup.cards, "TP-T1": card}, "panels": {"tp": panel}})
    st.changing(1).panel, st.changing(1).slot = "tp", 0
    st.changing(2).panel, st.changing(2).slot = "tp", 1
    give(st, 0, "TP-T1")
    st, _ = play(st, "@Ann\nplan 1-C1 1-C3 TP-T1\n@Bo\nplan 23-C1 23-C4 23-P1")
    while st.phase < 2:
        w = awaiting(st)[0]
        st, _ = play(st, str(default_command(st, w.seat)), seat=w.seat)
    st.changing(1).status = "dead"  # killed in phase 2
    seen = []
    while st.phase <= 3 and st.turn == 1 and st.step != "over":
        w = awaiting(st)[0]
        st, ev = play(st, str(default_command(st, w.seat)), seat=w.seat)
        seen += ev
    dead = kinds(seen, "dead_card")
    assert dead and dead[0].data["card"] == "TP-T1" and "slot I" in dead[0].text


# ----------------------------------------------------------------------------- officers


def _officer_position(position, **kw):
    return position(
        soldiers=[{"serial": 20, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 1, "seat": 0, "at": [3, 4], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True}],
        phase_cards=["S12", "S01", "S05"],
        hands={0: ["1-C2", "1-C3", "1-C4", "20-C2", "20-C1", "20-C3"], 1: ["4-C1", "4-C4", "4-P1"]}, **kw)


def test_officer_extra_card_same_action_played_back_to_back(position, play):
    st = _officer_position(position)
    assert "extra" in awaiting(st)[0].detail
    assert any(c.type == "plan" and c.extra for c in legal_commands(st, 0))
    st, ev = play(st, "@Ann\nplan 1-C2 1-C3 1-C4 +1=20-C2\n@Bo\nplan 4-C1 4-C4 4-P1")
    assert "extra" in kinds(ev, "placed")[0].text
    assert [e.data["card"] for e in kinds(ev, "reveal") if "card" in e.data][:2] == ["1-C2", "20-C2"]
    assert st.active.card == "1-C2"
    st, _ = play(st, "@Ann\npass")
    assert st.active.card == "20-C2"  # both SHOOT cards, one after the other


def test_officer_extra_card_for_the_other_action_waits_for_its_slot(position, play):
    st = _officer_position(position)
    st, _ = play(st, "@Ann\nplan 1-C2 1-C3 1-C4 +1=20-C1\n@Bo\nplan 4-C1 4-C4 4-P1")
    assert st.active.card == "1-C2"
    st, _ = play(st, "@Ann\npass")
    assert st.active.card in ("4-C1", "20-C1") and st.slot == 1  # the MOVE slot, in initiative order


def test_officer_caps_one_extra_a_phase_command_a_turn_and_matching_actions(position, play):
    st = _officer_position(position)
    with pytest.raises(ScriptError, match="at most 2"):
        play(st, "@Ann\nplan 1-C2 1-C3 1-C4 +1=20-C2 +2=20-C3 +3=20-C1")
    with pytest.raises(ScriptError, match="must match"):
        play(st, "@Ann\nplan 1-C2 1-C3 1-C4 +1=20-C3")  # a LOOK card on SHOOT-then-MOVE
    with pytest.raises(ScriptError, match="not in your hand"):
        play(st, "@Ann\nplan 1-C2 1-C3 1-C4 +1=1-C2")
    st, _ = play(st, "@Ann\nplan 1-C2 1-C3 1-C4 +1=20-C2 +2=20-C3")  # two phases: Command 2
    assert st.forces["US-1"].planned
    # one extra a phase: a plan maps each phase to one extra card only
    from engine.core.commands import parse_command
    assert parse_command("plan 1-C2 1-C3 1-C4 +1=20-C2 +1=20-C1").extra == {1: "20-C1"}


def test_no_extra_cards_without_a_live_officer(position, play):
    st = _officer_position(position)
    st.changing(20).status = "dead"
    with pytest.raises(ScriptError, match="no officer"):
        play(st, "@Ann\nplan 1-C2 1-C3 1-C4 +1=20-C2")
    assert not any(c.type == "plan" and c.extra for c in legal_commands(st, 0))


def test_one_officer_per_player(cat):
    sc = cat.scenario("advanced-skirmish")
    with pytest.raises(RuleError, match="only one officer"):
        check_force(cat, sc, "US", [ForceEntry(serial=20), ForceEntry(serial=24)], 2, preset=True)
    assert check_force(cat, sc, "US", [ForceEntry(serial=20), ForceEntry(serial=21)], 2, preset=True) > 0


def test_plan_words_round_trip_with_extras():
    from engine.core.commands import parse_command
    cmd = parse_command("plan 1-C2 1-C3 - +1=20-X1:shoot")
    assert cmd.extra == {1: "20-X1"} and cmd.declare == {"20-X1": "shoot"}
    assert parse_command(str(cmd)) == cmd


# ----------------------------------------------------------------------------- with the basic examples


def test_multi_action_card_example_with_an_enemy_react_in_hand(position, play):
    # The book's multi-action example (Avery's MOVE/HIDE medal card on SHOOT-then-MOVE: narrator
    # sight, the team bubble, the dog tag as a HIDE rally), while Bo holds a live react card: he
    # is asked after each of Avery's actions, declines, and the example plays out as in the book.
    st = position(
        scenario="yard",
        soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e", "medals": 1, "spotted": True},
                  {"serial": 2, "seat": 0, "at": [3, 6], "facing": "e", "pinned": True},
                  {"serial": 3, "seat": 0, "at": [1, 8], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [22, 2], "facing": "w"},
                  {"serial": 22, "seat": 1, "at": [26, 8], "facing": "w"}],
        phase_cards=["S12", "S01", "S05"],
        hands={0: ["1-M1", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]})
    give(st, 1, "22-X2")
    st, _ = play(st, "@Ann\nplan 1-M1 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    st = until_active(st, play, "1-M1")
    assert st.active.action.value == "move"
    st, _ = play(st, "@Ann\nnote sight 1")
    assert st.pending.kind == "react" and awaiting(st)[0].seat == 1
    st, _ = play(st, "@Bo\nskip\n@Ann\nteam move 3 31A\n@Bo\nskip\n@Ann\ntag rally 1 2")
    assert not st.soldiers[2].pinned and "22-X2" in st.forces["DE-2"].hand


def test_a_preempt_follow_up_may_be_skipped(position, play):
    st = _preempt_position(position)
    st, _ = play(st, "@Ann\nplan 1-C1 1-C3 1-C4\n@Bo\nplan 23-C3 23-C4 23-C1\n@Bo\npreempt 22-X1 1-C1 2")
    st = until_active(st, play, "1-C1")
    st, _ = play(st, "@Ann\nteam move 2 22A")
    assert st.pending.kind == "then" and default_command(st, 1).type == "skip"
    st, _ = play(st, "@Bo\nskip")
    assert st.pending is None and st.active.card == "1-C1"
    st, ev = play(st, "@Ann\nteam move 27 22A")  # the rest of the bubble is Ann's to use
    assert kinds(ev, "move")


def test_hands_stay_secret_until_a_react_is_played(position, play):
    from engine.view import view
    st = _react_position(position)
    st, _ = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 23-C1 23-C4 23-P1")
    st = until_active(st, play, "23-C1")
    st, ev = play(st, "@Bo\nteam move 23 26A")
    assert "21-X1" not in view(st).model_dump_json()
    assert not [e for e in ev if e.public and "21-X1" in e.text]


def test_several_reacts_are_asked_in_initiative_order_each_after_the_last_resolves(position, play):
    # Ann and Cy (both US) hold reacts when Bo's Lind moves. Ann holds more cards, so she has the
    # initiative and is asked first; Cy is asked only after Ann's react has been carried out.
    st = position(
        players=[{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}, {"name": "Cy", "side": "US"}],
        soldiers=[{"serial": 21, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 20, "seat": 2, "at": [3, 4], "facing": "e"},
                  {"serial": 23, "seat": 1, "at": [33, 4], "facing": "w", "spotted": True}],
        phase_cards=["S07", "S01", "S05"],
        hands={0: ["21-C3", "21-C4", "21-C1", "21-C2"], 1: ["23-C1", "23-C4", "23-P1"],
               2: ["20-C3", "20-C4", "20-C1"]})
    give(st, 0, "21-X1")
    give(st, 2, "20-X2")
    st, _ = play(st, "@Ann\nplan 21-C3 21-C4 21-C1\n@Bo\nplan 23-C1 23-C4 23-P1\n@Cy\nplan 20-C3 20-C4 20-C1")
    st = until_active(st, play, "23-C1")
    st, _ = play(st, "@Bo\nteam move 23 26A")
    assert st.pending.kind == "react" and awaiting(st)[0].seat == 0
    st, _ = play(st, "@Ann\nreact 21-X1\nteam shoot 21 23")
    while st.pending is not None and st.pending.kind != "react":
        w = awaiting(st)[0]
        st, _ = play(st, str(default_command(st, w.seat)), seat=w.seat)
    if st.soldiers[23].free:  # Lind still stands: now Cy decides
        assert st.pending.kind == "react" and awaiting(st)[0].seat == 2
        st, _ = play(st, "@Cy\nskip")
    assert st.pending is None and st.active.card == "23-C1"


def test_a_pinned_officer_commands_at_half_his_command(position, play):
    # Harlan's Command 2 is halved to 1 while he is pinned: one extra card this turn.
    st = _officer_position(position)
    st.changing(20).pinned = True
    with pytest.raises(ScriptError, match="at most 1"):
        play(st, "@Ann\nplan 1-C2 1-C3 1-C4 +1=20-C2 +2=20-C3")
    st, _ = play(st, "@Ann\nplan 1-C2 1-C3 1-C4 +2=20-C3")
    assert st.forces["US-1"].extra == [None, "20-C3", None]


def test_a_dead_specialists_preempt_opens_no_window(position, play):
    st = _preempt_position(position)
    st.changing(22).status = "dead"
    st, _ = play(st, "@Ann\nplan 1-C1 1-C3 1-C4\n@Bo\nplan 23-C3 23-C4 23-C1")
    assert st.pending is None or st.pending.kind != "preempt"
