"""Invariants of the engine, checked with hypothesis over games played by the random agent
on the real content: determinism, card conservation, hidden information, refused commands."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from engine import RuleError, apply, load_catalog, new_game, view
from engine.agent import RandomAgent
from engine.core import commands as C
from engine.core.content import soldier_cards
from engine.legal import legal_commands
from engine.record import Record
from engine.turn.setup import SeatSpec
from tests.state_json import SetupsKept, game_json, play_json

pytestmark = pytest.mark.slow  # dealt to the front of a worker's share: tests/conftest.py

CAT = load_catalog()
SCENARIOS = sorted(CAT.scenarios)
PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seats_for(scenario: str, players: int = 2) -> list[SeatSpec]:
    sides = [s.id.value for s in CAT.scenario(scenario).sides]
    return [SeatSpec(name=f"P{i + 1}", side=sides[i % 2]) for i in range(players)]


def play(scenario: str, seed: int, steps: int, players: int = 2):
    """A game played `steps` commands in (or to its end): (states, commands)."""
    st, _ = new_game(CAT, scenario, seats_for(scenario, players), seed)
    agent = RandomAgent(seed)
    states, cmds = [st], []
    while st.step != "over" and len(cmds) < steps:
        cmd = agent.choose(st, agent.seat_to_act(st))
        st, _ = apply(st, cmd)
        states.append(st)
        cmds.append(cmd)
    return states, cmds


games = S.tuples(S.sampled_from(SCENARIOS), S.integers(0, 2**32 - 1), S.integers(0, 150), S.sampled_from([2, 2, 3, 4]))


@PROPS
@given(games)
def test_same_seed_and_commands_give_the_same_game_byte_for_byte(game):
    scenario, seed, steps, players = game
    states, cmds = play(scenario, seed, steps, players)
    rec = Record(scenario=scenario, seed=seed, seats=seats_for(scenario, players), commands=cmds)
    replayed = [st for _, st, _ in rec.replay(CAT)]
    assert game_json(replayed) == game_json(states)


def expected_cards(st, force_id: str) -> Counter:
    want = Counter()
    for s in st.soldiers.values():
        if s.force == force_id and s.status != "reserve":
            want.update(soldier_cards(st.setup.soldiers[s.serial], s.rank, s.medals, st.setup.cards))
            # advanced rules: a preset specialist brings all his optional cards (setup.special_cards)
            want.update(st.setup.soldiers[s.serial].special_cards)
    # ... and every team panel his soldiers stand on brings its team cards, once (setup.panel_cards)
    want.update(c for pid in {s.panel for s in st.soldiers.values()
                              if s.force == force_id and s.status != "reserve" and s.panel}
                for c in st.setup.panels[pid].cards)
    f = st.forces[force_id]
    if f.kind == "vehicle":  # its own vehicle cards, and its team cards when a trained crewman rides in it
        vid = st.vehicles[f.plate].vehicle
        trained = any(d.crew and d.crew.vehicle == vid for n, d in st.setup.soldiers.items()
                      if n in st.soldiers and st.soldiers[n].force == force_id)
        want.update(c.id for c in st.setup.cards.values()
                    if c.owner == f.plate and (c.role == "vehicle" or (c.role == "team" and trained)))
    return want


def card_places(st, force_id: str) -> Counter:
    f = st.forces[force_id]
    where = Counter(f.deck) + Counter(f.hand) + Counter(f.discard) + Counter(c for c in f.placed if c) \
        + Counter(f.fight_pool)
    # advanced rules: an officer's extra card on a phase, and react cards spent into the VP pile
    where += Counter(c for c in getattr(f, "extra", []) if c) + Counter(getattr(f, "vp_pile", []))
    for a in (getattr(st, "active", None), getattr(st, "interrupted", None)):  # a react card being played
        if a is not None and getattr(a, "react", False) and a.force == force_id:
            where[a.card] += 1
    for s in st.soldiers.values():
        if s.force == force_id:
            where.update(s.held)
    return where


@PROPS
@given(games)
def test_every_card_is_in_exactly_one_place(game):
    scenario, seed, steps, players = game
    states, _ = play(scenario, seed, steps, players)
    for st in states[:: max(1, len(states) // 12)] + [states[-1]]:
        for fid in st.forces:
            assert card_places(st, fid) == expected_cards(st, fid), f"{fid} at turn {st.turn} step {st.step}"


def _swap(lst_a: list, lst_b: list) -> bool:
    """Exchange the first card of a with the first card of b (keeps both counts)."""
    if lst_a and lst_b:
        lst_a[0], lst_b[0] = lst_b[0], lst_a[0]
        return True
    return False


def with_other_secrets(st):
    """The same position with different hidden things: other cards in the hands, under the
    soldiers, face down on the phases and in the fight pools, other deck orders, other orders."""
    other = st.clone()
    for fid in other.forces:
        f = other.changing_force(fid)
        f.deck.reverse()
        _swap(f.hand, f.deck)
        _swap(f.fight_pool, f.deck)
        for i, c in enumerate(f.placed):
            if c is not None and not f.revealed[i] and not f.face_up[i] and f.deck:
                f.placed[i], f.deck[-1] = f.deck[-1], c
                f.declared.pop(c, None)
        f.discard.reverse()
    for serial in list(other.soldiers):
        s = other.changing(serial)
        _swap(s.held, other.forces[s.force].deck)
    orders = sorted(other.setup.orders)
    for seat in other.seats:
        if seat.order and not seat.order_done:
            seat.order = orders[(orders.index(seat.order) + 1) % len(orders)]
    return other


@PROPS
@given(games)
def test_the_public_view_is_the_same_whatever_the_hidden_things_are(game):
    scenario, seed, steps, players = game
    states, _ = play(scenario, seed, steps, players)
    st = states[-1]
    public = view(st)
    assert public.mine is None
    assert view(with_other_secrets(st)).model_dump_json() == public.model_dump_json()


@PROPS
@given(games)
def test_the_public_view_shows_secrets_only_as_counts(game):
    """Hands and held cards appear as numbers, no soldier carries a VP value, an order's title
    shows only once it is completed, and nothing sits under `mine`."""
    scenario, seed, steps, players = game
    st = play(scenario, seed, steps, players)[0][-1]
    data = view(st).model_dump(mode="json")
    assert data["mine"] is None
    for f in data["forces"]:
        assert isinstance(f["hand"], int) and isinstance(f["deck"], int) and isinstance(f["fight_cards"], int)
        for slot in f["slots"]:
            assert slot["card"] is None or slot["state"] in ("revealed", "played")
    for s in data["soldiers"]:
        assert "vp" not in s and isinstance(s["held"], int)
    for seat in data["seats"]:
        assert seat["order_title"] is None or seat["order_done"]


@PROPS
@given(games)
def test_public_events_never_name_a_card_going_into_a_hand(game):
    scenario, seed, steps, players = game
    st, _ = new_game(CAT, scenario, seats_for(scenario, players), seed)
    agent = RandomAgent(seed)
    n = 0
    while st.step != "over" and n < steps:
        st, events = apply(st, agent.choose(st, agent.seat_to_act(st)))
        n += 1
        hidden = {c for f in st.forces.values() for c in f.hand + f.fight_pool} | {
            c for f in st.forces.values() for i, c in enumerate(f.placed) if c and not f.revealed[i] and not f.face_up[i]} | {
            c for s in st.soldiers.values() for c in s.held}
        for e in events:
            if e.to is None and e.kind in ("draw", "placed", "hold", "unhold", "fight_draw"):
                assert not any(c in e.text for c in hidden), e.text


def garbage_commands(st, seat_count: int):
    """Commands that are mostly wrong: other seats' legal commands, nonsense targets, bad cards."""
    out = []
    for seat in range(seat_count):
        out += legal_commands(st, seat)[:10]
    out += [C.Plan(seat=0, cards=["NOPE-1", None, None]), C.ShootCmd(seat=0, serial=999, target=1),
            C.MoveCmd(seat=1, serial=101, cell=(999, 999)), C.FightCmd(seat=0, card="X", target=1),
            C.HitPlus(seat=1, target=3), C.Capture(seat=0, victim=101), C.Declare(seat=0, card="X", action="move"),
            C.Done(seat=1), C.Pass(seat=0), C.Unhold(seat=0, cards=["X"]), C.Keep(seat=1), C.Stay(seat=0),
            C.Pay(seat=0, cards=[]), C.Decline(seat=1)]
    return out


@PROPS
@given(games, S.randoms(use_true_random=False))
def test_a_refused_command_never_changes_the_state(game, rnd):
    scenario, seed, steps, players = game
    states, _ = play(scenario, seed, steps, players)
    setups = SetupsKept()
    st = setups.see(states[-1])
    before = play_json(st)
    garbage = garbage_commands(st, players)
    for cmd in rnd.sample(garbage, k=min(12, len(garbage))):
        cmd = cmd.model_copy(update={"seat": rnd.randrange(players)}) if rnd.random() < 0.5 else cmd
        try:
            apply(st, cmd)
        except RuleError:
            assert play_json(st) == before, f"{cmd} changed the state it refused"
    setups.check()


@PROPS
@given(games)
def test_every_listed_legal_command_is_accepted(game):
    scenario, seed, steps, players = game
    states, _ = play(scenario, seed, steps, players)
    for st in states[::7] + [states[-1]]:
        for seat in range(players):
            for cmd in legal_commands(st, seat)[:40]:
                apply(st, cmd)  # raises if the list offered something the rules refuse


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_state_json_round_trip_is_lossless(scenario):
    states, _ = play(scenario, 7, 120)
    for st in states[::10]:
        js = st.model_dump_json()
        assert type(st).model_validate_json(js).model_dump_json() == js


_HASH_GAME = """
import hashlib
from engine import load_catalog, apply
from bot.console.autoplay import play_one
from engine.record import Record
from engine.turn.setup import SeatSpec
from engine.agent import RandomAgent
cat = load_catalog()
for sc in sorted(cat.scenarios):
    sides = [s.id.value for s in cat.scenario(sc).sides]
    rec = Record(scenario=sc, seed=11, seats=[SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1]),
                                           SeatSpec(name="C", side=sides[0])])
    st, _ = rec.start(cat)
    agent = RandomAgent(11)
    for _ in range(60):
        if st.step == "over":
            break
        st, _ = apply(st, agent.choose(st, agent.seat_to_act(st)))
    print(sc, hashlib.sha1(st.model_dump_json().encode()).hexdigest())
"""


def test_games_are_byte_identical_whatever_the_process_hash_seed():
    """str hashing differs per process (PYTHONHASHSEED); no engine order may depend on it."""
    import os
    import subprocess
    import sys
    outs = []
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.append(subprocess.run([sys.executable, "-c", _HASH_GAME], env=env, capture_output=True, text=True,
                                   check=True, timeout=300).stdout)
    assert outs[0] == outs[1] == outs[2] and outs[0].count("\n") == len(SCENARIOS)


VEHICLE_SCENARIOS = sorted(s for s, sc in CAT.scenarios.items() if any(side.vehicles for side in sc.sides))


@PROPS
@given(S.tuples(S.sampled_from(VEHICLE_SCENARIOS), S.integers(0, 2**32 - 1), S.integers(0, 250)))
def test_the_set_of_accepted_sub_actions_agrees_with_the_rule_one_by_one(game):
    """`sources.accepted` (used to list options fast) says yes exactly where `sources._accepts` does."""
    from engine.advanced.sources import _accepts, accepted
    from engine.core.content import Do
    scenario, seed, steps = game
    states, _ = play(scenario, seed, steps)
    for st in states[::5]:
        if st.active is None:
            continue
        actors = sorted(st.soldiers) + sorted(st.vehicles)
        for src in st.active.sources:
            for serial in actors:
                acc = accepted(st, st.active, src, serial)
                for do in Do:
                    assert (do in acc) == (_accepts(st, st.active, src, serial, do) is None), (src, serial, do)
