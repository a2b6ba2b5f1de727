"""The edge of the engine (issue 14): whatever a player types or a program builds, the engine
either carries it out or refuses it with its own RuleError naming the bad part, and a refusal
changes nothing. The fuzz half throws hostile lines and command models (tests/hostile_input.py)
at positions along seeded random games of every shipped scenario; the other half pins the
failures the issue's fuzzing found, each to the rule or check that now refuses it.
tests/benchmarks/fuzz_commands.py runs the same throws by the hundred thousand."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import new_game
from engine.agent import RandomAgent
from engine.apply import apply
from engine.core import commands as C
from engine.core.errors import RuleError, UsageError
from engine.core.log import Ctx
from engine.core.references import check_references
from engine.core.state import GameState
from engine.infantry.hide import unhold
from engine.legal import awaiting, legal_commands
from engine.script import ScriptError, parse_line, run_script, seat_for
from engine.turn.setup import SeatSpec
from engine.vehicles import damage as VD
from engine.view import view
from tests.engine.test_vehicles import SHERMAN, SHERMAN_CREW, motor, sherman
from tests.hostile_input import hostile_line, hostile_model
from tests.state_json import SetupsKept, play_json

STEPS, EVERY = 84, 7  # positions along each game: placement, acting, fights, pending decisions


@pytest.fixture(scope="session")
def positions(shipped) -> list[tuple[str, GameState]]:
    """Every EVERY-th state of one seeded random game of each shipped scenario."""
    out = []
    for sc in sorted(shipped.scenarios):
        sides = [s.id.value for s in shipped.scenario(sc).sides]
        game, _ = new_game(shipped, sc, [SeatSpec(name=f"P{i}", side=sides[i % 2]) for i in range(2)], 5)
        agent = RandomAgent(5)
        for n in range(STEPS):
            if game.step == "over":
                break
            if n % EVERY == 0:
                out.append((sc, game))
            game, _ = apply(game, agent.choose(game, agent.seat_to_act(game)))
    return out


@pytest.fixture
def setups(positions) -> Iterator[SetupsKept]:
    """The positions' setups, checked once after all of a test's examples rather than in each
    (tests/state_json.py): no command, refused or carried out, may change one in place."""
    kept = SetupsKept()
    for _, game in positions:
        kept.see(game)
    yield kept
    kept.check()


_legal_cache: dict[tuple[int, int], list[C.Cmd]] = {}


def _legal(game: GameState, seat: int) -> list[C.Cmd]:
    key = (id(game), seat)
    if key not in _legal_cache:
        _legal_cache[key] = legal_commands(game, seat)
    return _legal_cache[key]


def refused_or_sound(game: GameState, make) -> str:
    """Build and apply a command: a RuleError must leave the state as it was; anything the engine
    accepts must leave a state that serialises, shows and lists what comes next. (The setup
    the state shares with its game is checked once a test, by the `setups` fixture.)"""
    before = play_json(game)
    try:
        after, _ = apply(game, make())
    except RuleError:
        assert play_json(game) == before
        return "refused"
    GameState.model_validate_json(after.model_dump_json())
    for a in awaiting(after):
        legal_commands(after, a.seat)
        view(after, a.seat)
    return "accepted"


def _seat(data, game: GameState) -> int:
    waits = sorted({a.seat for a in awaiting(game)})
    return data.draw(st.sampled_from(waits or [0]) if data.draw(st.booleans()) else
                     st.integers(0, len(game.seats) - 1))


# `setups` spans all of a test's examples on purpose: hence function_scoped_fixture
@settings(max_examples=700, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_lines_are_carried_out_or_refused_and_a_refusal_changes_nothing(positions, setups, data):
    _, game = data.draw(st.sampled_from(positions))
    seat = _seat(data, game)
    line = hostile_line(data.draw(st.randoms(use_true_random=False)), game, [str(c) for c in _legal(game, seat)])
    refused_or_sound(game, lambda: parse_line(game, line, seat))


@settings(max_examples=500, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_command_models_are_carried_out_or_refused_built_checked_or_not(positions, setups, data):
    _, game = data.draw(st.sampled_from(positions))
    seat = _seat(data, game)
    legal = _legal(game, seat)
    if not legal:
        return
    unchecked, fields = hostile_model(data.draw(st.randoms(use_true_random=False)), game, legal)
    if data.draw(st.booleans()):
        refused_or_sound(game, lambda: type(unchecked).model_validate(fields))
    else:  # built without validation (model_copy): apply checks it all again
        refused_or_sound(game, lambda: unchecked)


def test_every_legal_command_passes_the_edge_unchanged_and_reads_back_from_its_text(positions):
    seen = 0
    for _, game in positions:
        for seat in range(len(game.seats)):
            for cmd in _legal(game, seat):
                assert check_references(game, cmd) == cmd
                assert parse_line(game, str(cmd), seat) == cmd
                seen += 1
    assert seen > 1000


# ------------------------------------------------------------------ what the fuzzing found


@pytest.fixture(scope="session")
def armour(shipped) -> GameState:
    """A shipped scenario with vehicles on both sides (chapel-gun: the Sherman 601, a gun 703)."""
    sides = [s.id.value for s in shipped.scenario("chapel-gun").sides]
    game, _ = new_game(shipped, "chapel-gun", [SeatSpec(name="Ann", side=sides[0]),
                                                SeatSpec(name="Bo", side=sides[1])], 5)
    return game


def _man(game: GameState) -> int:
    return min(game.soldiers)


def _plate(game: GameState) -> int:
    return min(game.vehicles)


@pytest.mark.parametrize("line, named", [
    ("move ² 12A", "'²'"),  # int() of a Unicode digit
    ("move １０１ 12A", "'１０１'"),
    ("reslot {man} ²", "'²'"),
    ("plan for ² a b c", "no card 'A'"),
    ("barrage heavy-artillery ١٢ L1A", "'١٢'"),
    ("move {man} " + "9" * 5000 + ",1", "at most 400 characters; this one has 5011"),
    ("move {man} 99999999,1", "'99999999,1'"),
    ("move {man} ١,٢", "'١,٢'"),
    ("shoot 1234567 {man}", "at most 6 digits"),
    ("plan :x - -", "':x'"),  # KeyError '' in state.card
    ("plan 101-C1:", "'101-C1:'"),
    ("rally {man} 999", "no soldier 999"),  # KeyError in engine/infantry/hide.py
    ("dismount {plate}", "{plate} is the plate of the"),  # KeyError in engine/vehicles/move.py
    ("mount {plate} {plate}", "names a soldier as who acts, and {plate} is the plate"),
    ("mount {man} {man}", "names a vehicle's plate as the vehicle, and {man} is the dog tag"),
    ("assail {man} 999 hull", "no vehicle or gun with plate 999"),
    ("move {man} 12A face up", "not 'up'"),
    ("face {man} north", "not 'north'"),
    ("vturn {plate} ｎｅ", "not 'ｎｅ'"),
    ("move {man} 99Z", "no tile '99Z'"),
    ("fight 999-X9 {man}", "no card '999-X9'"),
    ("move {man} 12A\ud800", "'\\ud800'"),  # a lone surrogate: it could never be stored
    ("move {man} 12A\x00", "'\\x00'"),
    ("move {man} \u202e12A", "'\\u202e'"),
    ('move {man} ""', "empty word"),
    ('shoot {man} "', "cannot read"),
    ("pay " + " ".join(["101-C1"] * 41), "at most 40 words"),
    ("move {man} " + "A" * 49, "too long"),
])
def test_the_fuzzers_finds_are_refused_naming_the_bad_part(armour, line, named):
    man, plate = _man(armour), _plate(armour)
    line, named = line.format(man=man, plate=plate), named.format(man=man, plate=plate)
    before = armour.model_dump_json()
    with pytest.raises(UsageError) as refused:
        apply(armour, parse_line(armour, line, 0))
    assert named in str(refused.value) and len(str(refused.value)) < 500
    assert armour.model_dump_json() == before


@pytest.mark.parametrize("model, fields", [
    (C.MoveCmd, {"tile": "12A", "facing": "up"}),
    (C.Face, {"facing": "N"}),
    (C.VTurn, {"facing": "north"}),
    (C.Turret, {"facing": ""}),
])
def test_every_facing_outside_the_eight_points_is_refused_by_the_model_and_by_apply(armour, model, fields):
    fields = {"seat": 0, "serial": _man(armour), **fields}
    with pytest.raises(UsageError, match="a facing is one of n ne e se s sw w nw"):
        model(**fields)
    before = armour.model_dump_json()
    with pytest.raises(UsageError, match="a facing is one of"):  # built without validation: apply checks
        apply(armour, model.model_construct(**fields))
    assert armour.model_dump_json() == before
    assert all(legal_commands(armour, s) is not None for s in range(2))  # the game is not stuck


@pytest.mark.parametrize("model, fields, named", [
    (C.ShootCmd, {"serial": "x", "target": 1}, "serial cannot be 'x'"),
    (C.ShootCmd, {"serial": 2**63, "target": 1}, "9223372036854775808"),
    (C.TossCmd, {"serial": 1, "target": 2, "at": (-1, 5)}, "-1 is off any board"),
    (C.Plan, {"cards": ["A"], "extra": {4: "B"}}, "a phase is 1, 2 or 3"),
    (C.Pay, {"cards": ["A"] * 41}, "41 items"),
    (C.Fire, {"serial": 1, "weapon": "main"}, "one of them"),
    (C.AssailCmd, {"serial": 1, "plate": 601, "part": "roof"}, "part cannot be 'roof'"),
    (C.Declare, {"card": "A", "action": "\ud800"}, "\\ud800"),
    (C.MoveCmd, {"serial": 1, "tile": "12A", "colour": "red"}, "colour"),
])
def test_a_malformed_model_is_the_engines_refusal_not_a_validation_error(model, fields, named):
    with pytest.raises(UsageError) as refused:
        model(seat=0, **fields)
    assert named in str(refused.value)


def test_a_location_not_on_the_panel_is_refused_by_the_rule_naming_it(cat):
    # `repair 206 track--` raised KeyError in engine/core/vehicle_content.py
    game = motor(cat, us=[sherman("41A")])
    loader = SHERMAN_CREW["loader"]
    for rule in (VD.repair, VD.repair_free, VD.fight_fire, VD.extinguish_free):
        with pytest.raises(RuleError, match="has no place 'track--' on its panel"):
            rule(Ctx(game), SHERMAN, loader, "track--")


def test_a_card_named_twice_to_take_back_is_refused_not_a_crash(armour):
    game = armour.clone()
    force = game.changing_force(game.force_of_seat(0)[0].id)
    holder = next(s for s in game.soldiers.values() if s.force == force.id)
    card = force.hand[0]
    force.hand.remove(card)
    game.changing(holder.serial).held.append(card)
    with pytest.raises(RuleError, match="name each card once"):
        unhold(Ctx(game), force.id, [card, card])


def test_scripts_read_ascii_digits_only_and_quote_bad_lines_escaped(armour):
    with pytest.raises(UsageError, match="no player '²'"):
        seat_for(armour, "²")
    with pytest.raises(ScriptError) as refused:
        run_script(armour, "@Ann\nmove ١٢ 12A\ud800")
    assert "line 2" in str(refused.value) and "\\ud800" in str(refused.value)
    str(refused.value).encode("utf-8")  # printable as it is: nothing unencodable inside


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 \t\r\n\"'\\\u00a0\u2003\x0b#-+=:")), max_size=40))
def test_a_command_line_splits_into_the_words_shlex_reads(line):
    """read_words splits a plain line with str.split and anything else with shlex: the words
    (or the refusal) are the same as shlex's for every line, quotes, backslashes and odd spaces."""
    import shlex
    try:
        expected = shlex.split(line.strip())
    except ValueError:
        expected = None
    try:
        got = C.read_words(line)
    except UsageError:
        got = None
    if expected is not None and got is None:  # refused for a cap or an empty word, not for the split
        assert not all(expected) or len(expected) > C.MAX_WORDS or C.text_problem(line)
    else:
        assert got == expected
