"""Fire markers (core manual, Markers and Equipment), a scenario's mines laid at setup, and story cards that name a
character or belong to a specialist (Characters; Specialists). Decks are stacked; the cards'
boxes are quoted."""
from __future__ import annotations

from engine.core.content import PhaseCard
from engine.core.log import Ctx
from engine.turn import events
from engine.turn.setup import SeatSpec, _orders_for, new_game
from engine.view import view

# Phase cards S07/S08/S09 are all MOVE on top: Ann moves first, Bo's LOOK waits for the bottom.
MOVES = dict(phase_cards=["S07", "S08", "S09"],
             hands={0: ["1-P1", "1-C4", "1-C2"], 1: ["4-C3", "4-C4", "4-C2"]})
PLANS = "@Ann\nplan 1-P1 1-C4 1-C2\n@Bo\nplan 4-C3 4-C4 4-C2\n"


def kinds(events_, kind):
    return [e for e in events_ if e.kind == kind]


# Land mines moved to tests/engine/test_mines.py with the one mine rule (engine/battlefield/mines.py): a
# scenario's mined tiles are known general-purpose minefields now (docs/battlefield.md, "Mines").


# ----------------------------------------------------------------------------- fire markers


def test_a_burning_building_burns_whole_and_strikes_each_man_there_before_anyone_acts(position, play):
    # The farmhouse landmark L9A burns. Dorn is inside the house, Engel in its yard on the same
    # landmark, Avery outside in 34A. Phase 1 opens with one blast hit check each for Dorn and
    # Engel off their own deck (4-C3 Miss for Dorn, 4-C1 Hit for Engel, whose damage check 4-P3
    # reads Pin), and none for Avery; only then does anybody act.
    st = position(scenario="yard",
                  soldiers=[{"serial": 1, "seat": 0, "at": [15, 3], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [23, 3], "facing": "w"},
                            {"serial": 5, "seat": 1, "at": [28, 8], "facing": "w"}],
                  fires=["L9A"], phase_cards=["S07", "S08", "S09"],
                  hands={0: ["1-P1", "1-C4", "1-C2"], 1: ["4-P1", "5-C4", "5-C2"]},
                  decks={1: ["4-C3", "4-C1", "4-P3"]})
    assert st.board.building((23, 3)) and not st.board.building((28, 8))
    st, ev = play(st, "@Ann\nplan 1-P1 1-C4 1-C2\n@Bo\nplan 4-P1 5-C4 5-C2")
    checks = kinds(ev, "blast_check")
    assert [(c.data["serial"], c.data["hits"]) for c in checks] == [(4, 0), (5, 1)]
    assert st.soldiers[5].pinned and not st.soldiers[4].pinned and not st.soldiers[1].pinned
    assert kinds(ev, "blast")[0].data["victims"] == [4, 5]
    # phase 2: the fire strikes again, once per man, and it never goes out
    st, ev = play(st, "@Bo\npass\n@Ann\npass\n")
    by_phase: dict[int, list[int]] = {}
    for e in ev:
        if e.kind == "phase":
            by_phase[e.data["phase"]] = []
        elif e.kind == "blast_check":
            by_phase[max(by_phase)].append(e.data["serial"])
    assert by_phase and all(men == [4, 5] for men in by_phase.values()), by_phase
    assert st.fires == ["L9A"]


def test_a_scenarios_mines_and_fires_are_laid_at_setup(cat):
    st, _ = new_game(cat, "hazards-farm", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")],
                      seed=3)
    assert st.mines == ["36A", "37A"] and "L9A" in st.fires
    assert view(st).mines == ["36A", "37A"]


# ----------------------------------------------------------------------------- characters


def _story_card(**kw) -> PhaseCard:
    """A story card whose random event gives the trailing side 2 VP (it follows TR-ORD)."""
    return PhaseCard.model_validate({
        "id": "CH-1", "title": "Kowalski's luck", "top": "move", "bottom": "look", "color": "tan",
        "cause": "Terrain", "effect": {"category": "Ordnance", "text": "the trailing side scores 2 VP",
                                       "event": {"kind": "vp", "to": "trailing", "amount": 2}}, **kw})


def _reveal(st, card: PhaseCard, soldiers=None):
    """Reveal TR-ORD, the card and a plain card as the turn's phase cards; resolve the events."""
    update = {"story": {**st.setup.story, card.id: card}}
    if soldiers:
        update["soldiers"] = {**st.setup.soldiers, **soldiers}
    st.setup = st.setup.model_copy(update=update)
    st.phase_cards = ["TR-ORD", card.id, "S01"]
    ctx = Ctx(st)
    events.resolve(ctx)
    return ctx.events


def _kowalski(position, **k):
    return position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                              {"serial": 32, "seat": 0, "at": [3, 4], "facing": "e", **k},
                              {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}],
                    hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])


def test_a_story_card_naming_a_character_happens_while_he_is_in_play(position):
    st = _kowalski(position)
    ev = _reveal(st, _story_card(character=32))
    assert kinds(ev, "event") and st.side_vp("US") + st.side_vp("DE") == 2


def test_a_story_card_naming_a_dead_or_absent_character_does_nothing(position):
    st = _kowalski(position, status="dead")
    ev = _reveal(st, _story_card(character=32))
    assert kinds(ev, "event_dismissed") and not kinds(ev, "event") and st.vp == []
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [37, 2]}],
                  hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    ev = _reveal(st, _story_card(character=32))
    assert kinds(ev, "event_dismissed") and st.vp == []


def test_a_specialists_story_card_happens_only_while_he_is_on_the_board(position):
    # Hale's own story card: nothing while he waits off the board, the event once he is on it.
    card = _story_card(id="SP-HALE")
    for status, happens in (("waiting", False), ("board", True)):
        st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]},
                                {"serial": 30, "seat": 0, **({"at": [3, 3]} if status == "board" else {})},
                                {"serial": 4, "seat": 1, "at": [37, 2]}],
                      hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
        hale = st.setup.soldiers[30].model_copy(update={"story": ["SP-HALE"]})
        ev = _reveal(st, card, soldiers={30: hale})
        assert bool(kinds(ev, "event")) == happens, status
        assert bool(kinds(ev, "event_dismissed")) != happens, status


def test_landmark_orders_for_a_landmark_not_on_the_map_are_dismissed(cat):
    sc = cat.scenario("yard")  # its orders tie most of them to the farmhouse L9
    assert "T-HOLD" in _orders_for(cat, sc, "US", {"L9"})
    left = _orders_for(cat, sc, "US", set())
    assert "T-GENERAL" in left and "T-HOLD" not in left
    assert left == [o for o in sc.side("US").orders if not cat.orders[o].landmark]


# ----------------------------------------------------------------------------- random play


def test_random_games_on_the_burning_minefield_farm_end_and_every_saved_man_lives(cat):
    # Fire in the farmhouse, mines in 36A and 37A and a medic on each side: random agents play
    # the scenario through; whoever a medic saves is on the board, wounded, after the command.
    from engine.agent import RandomAgent
    from engine.apply import apply
    seen = set()
    for seed in range(6):
        for players in (2, 4):
            seats = [SeatSpec(name=f"P{i + 1}", side=("US", "DE")[i % 2]) for i in range(players)]
            st, _ = new_game(cat, "hazards-farm", seats, seed)
            agent = RandomAgent(seed)
            for _ in range(3000):
                if st.step == "over":
                    break
                st, ev = apply(st, agent.choose(st, agent.seat_to_act(st)))
                seen.update(e.kind for e in ev)
                for e in kinds(ev, "medic_save"):
                    saved = st.soldiers[e.data["victim"]]
                    assert saved.status == "board" and saved.wounded, (seed, players, e.text)
            assert st.step == "over", (seed, players)
    assert {"mine", "medic_save", "blast"} <= seen


def test_a_position_keeps_its_minefields_through_a_round_trip(cat, position):
    from engine.position import dump_position, load_position
    st = position(scenario="hazards-farm", soldiers=[{"serial": 1, "seat": 0, "at": [3, 2], "facing": "e"},
                                                      {"serial": 4, "seat": 1, "at": [27, 2], "facing": "w"}])
    assert sorted(st.mines) == sorted(cat.scenario("hazards-farm").mines)  # the scenario's, by default
    data = dump_position(st)
    data["mines"] = ["31A"]
    again, _ = load_position(cat, data)
    assert again.mines == ["31A"]
    assert load_position(cat, dump_position(again))[0].mines == ["31A"]
