"""A position keeps everything a game holds (issue 18): written at the start of a turn's card
placement (`dump_position`), through YAML, and read back (`load_position`), it is the same game:
the pieces and their markers, every deck, hand, discard and used react card in order, the phase
cards to come and played, artillery bought, called and planned, mines, fires, smoke and when it
clears, dropped equipment, Sight markers, captured landmarks, orders and their counts, weather,
every VP entry, and the random generator's state — so play goes on from it exactly as from the
game. Left out on purpose: the content (a position offers every order of the catalogue), the
last phase's trails and panels (pictures of what just happened) and the command counters."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as hs

from engine import load_catalog
from engine.agent import RandomAgent
from engine.apply import apply
from engine.core.errors import RuleError
from engine.position import dump_position, load_position
from engine.turn.setup import SeatSpec, new_game
from tests.yaml_round_trip import through_yaml

pytestmark = pytest.mark.slow  # dealt to the front of a worker's share: tests/conftest.py

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rules"
NOT_KEPT = {"setup", "trail", "last_trail", "last_trail_phase", "panels", "last_panels", "seq", "asked_at"}


@cache
def catalogs():
    from tests.engine.autoplay_kit import shipped_catalog
    return {"shipped": shipped_catalog(), "fixtures": load_catalog(FIXTURES)}


def every_scenario() -> list[tuple[str, str]]:
    return [(where, sc) for where, cat in catalogs().items() for sc in sorted(cat.scenarios)]


def at_placement(cat, scenario: str, players: int, seed: int, turn: int):
    """A random game of the scenario at the start of `turn`'s placement (or its last one); None
    when it cannot seat that many players or ends before any placement."""
    sides = [s.id.value for s in cat.scenario(scenario).sides]
    try:
        st, _ = new_game(cat, scenario, [SeatSpec(name=f"P{i + 1}", side=sides[i % 2]) for i in range(players)],
                         seed)
    except RuleError:  # a scenario too small for this many players
        return None
    agent = RandomAgent(seed)
    last = None
    for _ in range(5000):
        if st.step == "over":
            break
        if st.step == "place" and st.pending is None and (last is None or st.turn != last.turn):
            last = st
            if st.turn >= turn:
                break
        st, _ = apply(st, agent.choose(st, agent.seat_to_act(st)))
    return last


def the_game(st) -> dict:
    kept = st.model_dump(mode="json", exclude=NOT_KEPT)
    kept["setup"] = st.setup.model_dump(mode="json", exclude={"orders"})
    return kept


def same_game(a, b) -> None:
    mine, theirs = the_game(a), the_game(b)
    assert mine.keys() == theirs.keys()
    for key in mine:
        assert mine[key] == theirs[key], key


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=hs.sampled_from(every_scenario()), players=hs.sampled_from([2, 3, 4]),
       seed=hs.integers(0, 10_000), turn=hs.integers(2, 5))
@example(which=("shipped", "vautrin-pair"), players=3, seed=5, turn=4)  # an assault standing into placement
def test_a_game_written_at_placement_and_read_back_is_the_same_game(which, players, seed, turn):
    where, scenario = which
    cat = catalogs()[where]
    st = at_placement(cat, scenario, players, seed, turn)
    assume(st is not None)
    again, _ = load_position(cat, through_yaml(dump_position(st)))
    same_game(st, again)
    # and the game goes on from it as from the original: the same commands, the same events
    agent_a, agent_b = RandomAgent(seed + 1), RandomAgent(seed + 1)
    for _ in range(40):
        if st.step == "over":
            break
        cmd = agent_a.choose(st, agent_a.seat_to_act(st))
        assert agent_b.choose(again, agent_b.seat_to_act(again)) == cmd
        try:
            st, ev = apply(st, cmd)
        except RuleError as exc:  # refused in the game (a deck run dry, say): refused alike from the position
            with pytest.raises(RuleError, match=re.escape(str(exc))):
                apply(again, cmd)
            break
        again, ev_again = apply(again, cmd)
        assert [e.text for e in ev] == [e.text for e in ev_again]
    same_game(st, again)


def test_artillery_under_way_is_written_and_read_back(position, cat):
    # A call climbing the track, a fake, a smoke call and a barrage planned, with what is left to call.
    from tests.engine.test_artillery import PLANS, lane, run
    st = lane(position, ordnance=("light-artillery", "light-artillery"))
    st.artillery.ordnance[0].append("medium-mortars")
    st, _ = run(st, PLANS + ["@Ann call 1 light-artillery 24A smoke"])
    written = through_yaml(dump_position(st))
    assert written["artillery"]["calls"] == [{"id": 1, "seat": 0, "letter": "A", "kind": "light-artillery",
                                              "tile": "24A", "rows_left": 2, "caller": 1, "smoke": True}]
    assert written["artillery"]["ordnance"] == {0: ["light-artillery", "medium-mortars"]}
    again, _ = load_position(cat, written)
    # radio contact is counted within a turn, and a position starts one: it starts at none
    assert again.artillery.model_dump(exclude={"looks", "called"}) == st.artillery.model_dump(
        exclude={"looks", "called"})


@pytest.mark.parametrize("change, message", [
    (lambda d: d["artillery"]["calls"][0].update(kind="field-mortars"), "'field-mortars' is not artillery"),
    (lambda d: d["artillery"]["calls"][0].update(caller=99), "caller 99 is not in play"),
    (lambda d: d["artillery"]["calls"][0].update(tile="99Z"), "tile 99Z is not on the map"),
    (lambda d: d["artillery"]["ordnance"].update({5: ["light-artillery"]}), "seat 5 does not exist"),
    (lambda d: d["discards"].update({0: ["204-C1"]}), "discards: 204-C1 is not a card of deck US-1"),
    (lambda d: d.update(story_discard=["S99"]), "unknown phase card 'S99'"),
    (lambda d: d.update(dropped=[{"item": "laser", "tile": "24A", "turn": 1, "serial": 1, "side": "US"}]),
     "no equipment 'laser'"),
])
def test_a_wrong_entry_in_the_new_sections_is_refused_naming_it(position, cat, change, message):
    from engine.core.errors import ContentError
    from tests.engine.test_artillery import PLANS, lane, run
    st = lane(position, ordnance=("light-artillery",), deck=["1-C1"])
    st, _ = run(st, PLANS + ["@Ann call 1 light-artillery 24A"])
    written = through_yaml(dump_position(st))
    written.setdefault("discards", {})
    change(written)
    with pytest.raises(ContentError, match=message):
        load_position(cat, written)
