"""A choice pressed twice — one press after the other, or both at once as a double click sends
them — is carried out once: the second press answers "already done", and the store holds one
more version and one more command, never two. For every kind of choice a prompt offers."""
from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.app import AlreadyDone, GameService, Prompt, Refused, Replies, Where
from bot.app.replies import Choice
from engine import awaiting
from engine.legal import default_command
from tests.app.table import ANN, BO, HERE, open_table
from tests.app.tables import CALLERS, commits, drive_to
from tests.app.test_advanced_cards import react_window
from tests.app.test_play import hit_plus_table


async def _act(service: GameService, gid: int, *, open_part: bool) -> Prompt:
    """Both place their first offered cards; defaults until someone carries a card out; with
    `open_part`, he first takes one action through a part that then stays open."""
    where = Where(game_id=gid)
    for caller in (ANN, BO):
        await service.command(caller, where, (await service.options(caller, where))[0])
    for _ in range(30):
        st = await service.load_state(gid)
        a = awaiting(st)[0]
        if a.kind == "act":
            caller = CALLERS[a.seat]
            if not open_part:
                return (await service.prompts_for(caller, where)).prompts[0]
            for line in await service.options(caller, where):
                if line.startswith("team "):
                    await service.command(caller, where, line)
                    after = await service.load_state(gid)
                    if after.active is not None and any(s.state == "open" for s in after.active.sources):
                        return (await service.prompts_for(caller, where)).prompts[0]
                    break
        await service.command(CALLERS[a.seat], where, str(default_command(st, a.seat)))
    raise AssertionError("no card came into play with a part to open")


async def asked(kind: str, word: str | None, service: GameService, store, cat, clock
                ) -> tuple[GameService, int, Prompt, Choice]:
    """A table where a seat is prompted for `kind`; the choice whose command starts with `word`."""
    if kind == "place":
        start = await open_table(service)
        prompt = next(p for p in start.prompts if p.seat == 0)
        gid = start.game_id
    elif kind == "act":
        gid = (await open_table(service)).game_id
        prompt = await _act(service, gid, open_part=word == "done")
    elif kind == "hitplus":
        gid = await hit_plus_table(service, store, cat)
        r = await service.command(ANN, HERE, "tag shoot brooks dorn")
        prompt = next(p for p in r.prompts if p.kind == "hitplus")
    elif kind == "react":
        gid, r = await react_window(service, store, cat)
        (prompt,) = r.prompts
    else:
        service, gid, prompt = await drive_to(store, cat, clock, kind)
    assert prompt.kind == kind and prompt.choices
    choice = next(c for c in prompt.choices if word is None or c.command.split()[0] == word)
    return service, gid, prompt, choice


PRESSES = [("place", None), ("act", "done"), ("act", "pass"), ("hitplus", None), ("fight", None),
           ("capture", None), ("declare", None), ("unhold", "keep"), ("unhold", "unhold"),
           ("react", "react"), ("react", "skip")]


def _who(prompt: Prompt):
    return {ANN.user_id: ANN, BO.user_id: BO}[prompt.user_id]


@pytest.mark.parametrize(("kind", "word"), PRESSES)
async def test_a_choice_pressed_twice_in_a_row_is_carried_out_once(service, store, cat, clock, kind, word):
    service, gid, prompt, choice = await asked(kind, word, service, store, cat, clock)
    before = await commits(store, gid)
    await service.choose(_who(prompt), gid, prompt.seat, prompt.version, choice.stamp)
    once = await commits(store, gid)
    assert once == (before[0] + 1, before[1] + 1)
    with pytest.raises(AlreadyDone):
        await service.choose(_who(prompt), gid, prompt.seat, prompt.version, choice.stamp)
    assert await commits(store, gid) == once


@pytest.mark.parametrize(("kind", "word"), PRESSES)
async def test_a_choice_pressed_twice_at_once_is_carried_out_once(service, store, cat, clock, kind, word):
    service, gid, prompt, choice = await asked(kind, word, service, store, cat, clock)
    before = await commits(store, gid)
    press = service.choose(_who(prompt), gid, prompt.seat, prompt.version, choice.stamp)
    again = service.choose(_who(prompt), gid, prompt.seat, prompt.version, choice.stamp)
    outcomes = await asyncio.gather(press, again, return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["AlreadyDone", "Replies"], outcomes
    assert await commits(store, gid) == (before[0] + 1, before[1] + 1)


async def test_a_placement_pressed_fifty_times_is_one_commit(service, store):
    start = await open_table(service)
    prompt = next(p for p in start.prompts if p.seat == 0)
    before = await commits(store, start.game_id)
    outcomes = await asyncio.gather(*(service.choose(ANN, start.game_id, 0, prompt.version, prompt.choices[0].stamp)
                                      for _ in range(50)), return_exceptions=True)
    assert sum(isinstance(o, Replies) for o in outcomes) == 1
    assert all(isinstance(o, (Replies, AlreadyDone)) for o in outcomes)
    assert await commits(store, start.game_id) == (before[0] + 1, before[1] + 1)


async def test_the_same_plan_typed_again_is_already_done_and_commits_nothing(service, store):
    gid = (await open_table(service)).game_id
    line = (await service.options(ANN, HERE))[0]
    await service.command(ANN, HERE, line)
    once = await commits(store, gid)
    with pytest.raises(AlreadyDone):
        await service.command(ANN, HERE, line)
    with pytest.raises(AlreadyDone):
        await service.command(ANN, HERE, "alwayspass off")  # the setting it already has
    assert await commits(store, gid) == once


async def test_the_same_command_sent_twice_within_seconds_is_carried_out_once(service, store, cat, clock):
    service, gid, prompt, _ = await asked("act", "done", service, store, cat, clock)
    caller, where = _who(prompt), Where(game_id=gid)
    sent = clock.now
    await service.command(caller, where, "done", sent_at=sent)
    once = await commits(store, gid)
    with pytest.raises(AlreadyDone, match="twice"):  # a double submit: the second was sent a second later
        await service.command(caller, where, "done", sent_at=sent + timedelta(seconds=1))
    assert await commits(store, gid) == once
    for later in (sent + timedelta(seconds=30), None):  # sent after he saw the first one's answer; or a script
        try:
            await service.command(caller, where, "done", sent_at=later)
        except AlreadyDone:
            pytest.fail("a command sent on purpose was taken for a repeat")
        except Refused:
            pass  # the engine's own reason (nothing left to finish)


async def test_a_typed_answer_given_again_once_its_decision_has_gone_is_already_done(service, store, cat):
    gid, _ = await react_window(service, store, cat)
    await service.command(ANN, HERE, "skip")
    once = await commits(store, gid)
    with pytest.raises(AlreadyDone):
        await service.command(ANN, HERE, "skip")
    with pytest.raises(Refused) as refused:  # not her last answer: the engine's own reason
        await service.command(ANN, HERE, "keep")
    assert not isinstance(refused.value, AlreadyDone)
    assert await commits(store, gid) == once
