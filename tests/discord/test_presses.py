"""Double presses at the Discord level (issue 14): the same placement menu choice and the same
Done button pressed twice, one after the other (from a stale view of the message, as a client
shows it when the edit has not reached it) and at once (a double click: two interactions before
either is answered). Exactly one press is carried out: one commit, one "Done", the buttons
taken off once; the other is told so and changes nothing."""
from __future__ import annotations

import copy

import pytest

from bot.app import Caller, Where
from tests.discord.gateway import Asked, Player, Sent, Table
from tests.discord.test_gateway import act_options, open_yard

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
async def twice(t: Table, who: Player, prompt: Sent, custom_id: str, values: list[str] | None,
                mode: str) -> list[Asked]:
    seen = copy.deepcopy(prompt)  # the message as the presser's client shows it
    if mode == "sequential":
        return [await t.press(who, seen, custom_id, values), await t.press(who, seen, custom_id, values)]
    first = t.dispatch(t.press_payload(who, seen, custom_id, values))
    second = t.dispatch(t.press_payload(who, seen, custom_id, values))
    await t.settle()
    return [first, second]


async def version(t: Table) -> int:
    return (await t.store.load_game(1)).version


def carried_out_once(t: Table, prompt: Sent, answers: list[Asked]) -> None:
    assert sum(a.text.startswith("Done:") for a in answers) == 1, [a.text for a in answers]
    assert all(a.ephemeral and "went wrong" not in a.text for a in answers)
    assert len([r for r in t.requests(EDIT) if r.params["message_id"] == str(prompt.id)]) == 1


@pytest.mark.parametrize("mode", ["sequential", "concurrent"])
async def test_a_placement_pressed_twice_is_placed_once(table, mode):
    ann, _ = await open_yard(table)
    prompt = table.prompt(ann)
    select = prompt.custom_ids[0]
    before = await version(table)
    answers = await twice(table, ann, prompt, select, [prompt.values(select)[0]], mode)
    assert await version(table) == before + 1, "one commit"
    carried_out_once(table, prompt, answers)


async def one_part_used(t: Table, players: dict[int, Player]) -> tuple[Player, Sent]:
    """Play on (first placements, Pass on other cards) until a player's card in play has a dog
    tag part and a team part; he uses the dog tag part by an /act command. Returns him and his
    Done / Pass prompt, where Done now finishes the dog tag part and a second Done the team's."""
    for _ in range(60):
        (waiting, *_) = await t.service.waiting(Caller(11, "Ann"), Where(game_id=1))
        who = players[waiting.seat]
        prompt = t.prompt(who)
        labels = [c.get("label") or "" for c in prompt.components]
        if labels and labels[0].startswith("Done"):
            lines = await t.service.options(Caller(who.id, who.name), Where(game_id=1))
            tag = [a for a in map(act_options, lines) if a is not None and a[1].get("via") == "tag"]
            if tag and any(x.startswith("team ") for x in lines):
                path, options = tag[0]
                assert (await t.command(who, path, **options)).text.startswith("Done:")
                return who, t.prompt(who)
            await t.press(who, prompt, prompt.custom_ids[1])  # Pass
        else:
            custom_id = prompt.custom_ids[0]
            await t.press(who, prompt, custom_id,
                          [prompt.values(custom_id)[0]] if custom_id.startswith("fp:s:") else None)
    raise AssertionError("no card with a dog tag and a team part came up")


@pytest.mark.parametrize("mode", ["sequential", "concurrent"])
async def test_done_pressed_twice_finishes_one_part(table, mode):
    """Done after the dog tag part was used: the second press must not finish the team part."""
    ann, bo = await open_yard(table)
    who, prompt = await one_part_used(table, {0: ann, 1: bo})
    done = prompt.custom_ids[0]
    before = await version(table)
    answers = await twice(table, who, prompt, done, None, mode)
    assert await version(table) == before + 1, "one commit"
    carried_out_once(table, prompt, answers)
