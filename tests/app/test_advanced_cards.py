"""The advanced cards through the use-cases: a react window asked of the one player holding a
live react, answered by a button, skipped by its short deadline, never asked with always-pass on
(a setting that survives a restart); a preempt answered; an officer's extra card placed with
/plan. Positions as in tests/engine/test_advanced_cards.py (soldiers 20-27 of
tests/fixtures/rules/assets/soldiers/advanced.yaml), set on a table of Ann (US) and Bo (DE)."""
from __future__ import annotations

from bot.app import GameService
from bot.app.deadlines import window_hours
from engine import awaiting
from engine.legal import default_command
from engine.position import load_position
from tests.app.table import ANN, BO, HERE, open_table

PLAYERS = [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}]
CALLERS = {0: ANN, 1: BO}


async def table(service: GameService, store, cat, give: dict[int, list[str]], **position) -> int:
    """A position (scenario `range`) set on a table of Ann and Bo at card placement, with the
    specialists' cards in `give` added to each seat's hand."""
    gid = (await open_table(service, scenario="range", **position.pop("new", {}))).game_id
    st, _ = load_position(cat, {"scenario": "range", "players": PLAYERS, "seed": 1, **position})
    for seat, cards in give.items():
        next(f for f in st.forces.values() if f.seat == seat).hand.extend(cards)
    g = await store.load_game(gid)
    await service._keep_setup(st)  # set the table by hand
    await store.commit(gid, g.version, service._codec.dumps(st), [])
    service._forget(gid)
    return gid


async def until_active(service: GameService, gid: int, card: str) -> None:
    """Everybody gives the game's default answer until `card` is in play."""
    for _ in range(20):
        st = await service.load_state(gid)
        if st.active is not None and st.active.card == card:
            return
        w = awaiting(st)[0]
        await service.command(CALLERS[w.seat], HERE, str(default_command(st, w.seat)))
    raise AssertionError(f"{card} never came into play")


REACT = dict(
    soldiers=[{"serial": 21, "seat": 0, "at": [2, 2], "facing": "e"},
              {"serial": 1, "seat": 0, "at": [3, 4], "facing": "e"},
              {"serial": 22, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True},
              {"serial": 23, "seat": 1, "at": [33, 4], "facing": "w", "spotted": True}],
    phase_cards=["S07", "S01", "S05"],
    hands={0: ["1-C3", "1-C4", "1-C1"], 1: ["23-C1", "23-C4", "23-P1"]})


async def react_window(service, store, cat, *, always_pass: bool = False):
    """Bo moves Lind with his MOVE card on phase 1; Ann holds Quill's react 21-X1. The Replies
    of Lind's move."""
    gid = await table(service, store, cat, {0: ["21-X1"], 1: ["22-X2"]}, **REACT)
    if always_pass:
        r = await service.command(ANN, HERE, "alwayspass on")
        assert "alwayspass on" in " ".join(r.ephemeral)
    await service.plan(ANN, HERE, ["1-C3", "1-C4", "1-C1"])
    await service.plan(BO, HERE, ["23-C1", "23-C4", "23-P1"])
    await until_active(service, gid, "23-C1")
    return gid, await service.command(BO, HERE, "team move 23 26A")


async def test_a_react_window_asks_only_the_player_with_a_live_react_and_a_button_plays_it(service, store, cat):
    gid, r = await react_window(service, store, cat)
    (ask,) = r.prompts
    assert ask.seat == 0 and ask.kind == "react"
    assert "21-X1" in ask.text and "/act react" in ask.text and "/game always-pass on" in ask.text
    assert [c.command for c in ask.choices] == ["react 21-X1", "skip"]
    assert ask.choices[0].label.startswith("React with 21-X1")
    # the hand stays secret: nothing public names the card before it is played
    assert "21-X1" not in r.public_text() and all("21-X1" not in w.detail for w in r.waiting)
    assert [w.seat for w in r.waiting] == [0]
    played = await service.choose(ANN, ask.game_id, ask.seat, ask.version, ask.choices[0].stamp)
    assert "plays a react card: 21-X1" in played.public_text()
    st = await service.load_state(gid)
    assert st.active.card == "21-X1" and st.active.react


async def test_a_react_window_has_a_short_clock_and_skips_when_it_runs_out(service, store, cat, clock):
    gid, r = await react_window(service, store, cat)
    (ask,) = r.prompts
    window = window_hours(24.0)
    assert window == 2.0  # a tenth of the day-long default deadline, at most two hours
    assert ask.due == clock.now + __import__("datetime").timedelta(hours=window)
    clock.advance(window + 0.01)
    outs = await service.tick()
    assert any("skip" in " ".join(x.public) + " ".join(x.ephemeral) or x.prompts for x in outs)
    st = await service.load_state(gid)
    assert st.pending is None or st.pending.kind != "react"
    assert "21-X1" in st.forces["US-1"].hand  # skipped: the card stays in Ann's hand


async def test_always_pass_means_never_asked_and_survives_a_restart(service, store, cat, clock):
    gid, r = await react_window(service, store, cat, always_pass=True)
    assert not [p for p in r.prompts if p.kind == "react"]
    st = await service.load_state(gid)
    assert st.pending is None and st.seats[0].always_pass
    again = GameService(store, cat, clock=clock, seed=lambda: 7)  # a restarted bot reads the store
    assert (await again.load_state(gid)).seats[0].always_pass
    r = await again.command(ANN, HERE, "alwayspass off")
    assert not (await again.load_state(gid)).seats[0].always_pass


async def test_a_preempt_window_is_answered_and_its_follow_up_asked(service, store, cat):
    gid = await table(service, store, cat, {1: ["22-X1"]},
                      soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e", "spotted": True},
                                {"serial": 2, "seat": 0, "at": [3, 4], "facing": "e", "spotted": True},
                                {"serial": 27, "seat": 0, "at": [1, 0], "facing": "e", "spotted": True},
                                {"serial": 22, "seat": 1, "at": [32, 2], "facing": "w"},
                                {"serial": 23, "seat": 1, "at": [33, 4], "facing": "w"}],
                      phase_cards=["S07", "S01", "S05"],
                      hands={0: ["1-C1", "1-C3", "1-C4"], 1: ["23-C3", "23-C4", "23-C1"]})
    await service.plan(ANN, HERE, ["1-C1", "1-C3", "1-C4"])
    r = await service.plan(BO, HERE, ["23-C3", "23-C4", "23-C1"])
    (ask,) = [p for p in r.prompts if p.kind == "preempt"]
    assert ask.seat == 1 and "22-X1" in ask.text and "/act preempt" in ask.text
    assert 1 < len(ask.choices) <= 9 and ask.choices[-1].command == "skip"
    assert "22-X1" not in r.public_text()
    assert await service.suggest(BO, HERE, "preempt") == [("22-X1 Ambush the movers", "22-X1")]
    assert [v for _, v in await service.suggest(BO, HERE, "preempt-target", card="22-X1")] == ["1-C1"]
    men = [v for _, v in await service.suggest(BO, HERE, "preempt-men", card="22-X1", target="1-C1")]
    assert "1 2" in men
    done = await service.command(BO, HERE, "preempt 22-X1 1-C1 1 2")
    assert "preempts 1-C1 with 22-X1" in done.public_text()
    await until_active(service, gid, "1-C1")
    await service.command(ANN, HERE, "team move 1 22A")
    r = await service.command(ANN, HERE, "team move 2 22A")
    (then,) = [p for p in r.prompts if p.kind == "then"]
    assert then.seat == 1 and "/act then" in then.text and then.choices[-1].command == "skip"
    assert [v for _, v in await service.suggest(BO, HERE, "target", verb="then", soldier="22")] == ["1", "2"]


OFFICER = dict(
    soldiers=[{"serial": 20, "seat": 0, "at": [2, 2], "facing": "e"},
              {"serial": 1, "seat": 0, "at": [3, 4], "facing": "e"},
              {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True}],
    phase_cards=["S12", "S01", "S05"],
    hands={0: ["1-C2", "1-C3", "1-C4", "20-C2", "20-C1", "20-C3"], 1: ["4-C1", "4-C4", "4-P1"]})


async def test_an_officers_extra_card_is_placed_with_plan_and_revealed_with_his_phase_card(service, store, cat):
    gid = await table(service, store, cat, {}, **OFFICER)
    asks = {p.seat: p for p in (await service.prompts_for(ANN, HERE)).prompts + (await service.prompts_for(BO, HERE)).prompts}
    assert "/plan extra:" in asks[0].text
    assert "/plan extra:" not in asks[1].text  # Bo has no officer
    assert any("+P1" in c.label for c in asks[0].choices)  # placements with an extra card say so
    r = await service.plan(ANN, HERE, ["1-C2", "1-C3", "1-C4"], extra="1=20-C2")
    assert "1 extra" in r.public_text() and "20-C2" not in r.public_text()
    assert "+1=20-C2" in " ".join(r.ephemeral)
    r = await service.plan(BO, HERE, ["4-C1", "4-C4", "4-P1"])
    assert "20-C2" in r.public_text()  # revealed beside Avery's card
    st = await service.load_state(gid)
    assert st.active.card == "1-C2"
