"""Errors seen by someone (issue 14), through gateway payloads: a bug in a command, a button, the
tree's own dispatch or the deadline loop gives the player an apology with an error id, the log
the traceback under that id, and the error channel (FIELDPOST_ERROR_CHANNEL) a short report;
what the player typed or holds reaches neither. The store being unavailable is told to the
player in its own words and logged with its reason, not reported as a bug."""
from __future__ import annotations

import logging
import re

from bot.app import Replies
from bot.discord.error_report import frames
from bot.store import StoreUnavailable
from tests.discord.gateway import ERRORS, Table
from tests.discord.test_gateway import open_yard

ERROR_ID = re.compile(r"error `([0-9a-f]{8})`")


def reported(t: Table) -> str:
    """Everything the error channel got: texts and attached files."""
    return "\n".join(m.content + "".join(d.decode() for d in m.files.values()) for m in t.public(ERRORS))


def error_id(text: str) -> str:
    found = ERROR_ID.search(text)
    assert found, f"no error id in {text!r}"
    return found[1]


async def hand_card(t: Table, seat_force: str = "US-1") -> str:
    return (await t.service.load_state(1)).forces[seat_force].hand[0]


async def test_a_failing_command_apologises_with_an_id_logged_and_reported_without_secrets(table, caplog,
                                                                                          monkeypatch):
    ann, _ = await open_yard(table)
    secret = await hand_card(table)

    async def broken(*args, **kwargs):
        raise KeyError(secret)  # an exception quoting the card the player named

    monkeypatch.setattr(table.service, "plan", broken)
    version = (await table.store.load_game(1)).version
    caplog.set_level(logging.INFO)
    asked = await table.command(ann, "plan", phase1=secret, phase2="-", phase3="-")
    eid = error_id(asked.text)
    assert asked.ephemeral and asked.text.startswith("Sorry: something went wrong on our side")
    (record,) = [r for r in caplog.records if r.levelname == "ERROR"]
    logged = record.getMessage()
    assert f"error {eid}: /plan failed in game #1 with KeyError" in logged
    assert "Traceback (most recent call last)" in logged and "in _serve" in logged
    report = reported(table)
    assert f"Error `{eid}`" in report and "/plan" in report and "game #1" in report and "KeyError" in report
    assert "```py\nTraceback" in report
    assert secret not in caplog.text and secret not in report
    assert (await table.store.load_game(1)).version == version


async def test_a_failing_button_is_reported_and_keeps_its_buttons(table, caplog, monkeypatch):
    ann, _ = await open_yard(table)
    prompt = table.prompt(ann)

    select = prompt.custom_ids[0]
    choice = prompt.values(select)[0]
    said = f"no answer {choice}"  # a message quoting the pressed answer

    async def broken(*args, **kwargs):
        raise RuntimeError(said)

    monkeypatch.setattr(table.service, "choose", broken)
    asked = await table.press(ann, prompt, select, [choice])
    eid = error_id(asked.text)
    assert asked.ephemeral
    assert f"Error `{eid}`**: a choice button failed in game #1 with `RuntimeError`" in reported(table)
    assert choice not in reported(table) and choice not in caplog.text
    assert table.prompt(ann).id == prompt.id and prompt.custom_ids == [select], "the prompt keeps its menu"


async def test_the_store_unavailable_is_told_in_its_own_words_and_is_no_bug(table, caplog, monkeypatch):
    ann, _ = await open_yard(table)

    async def busy(*args, **kwargs):
        raise StoreUnavailable("database is locked (held by pid 4242)", busy=True)

    monkeypatch.setattr(table.service, "status", busy)
    caplog.set_level(logging.INFO)
    asked = await table.command(ann, "game status")
    assert asked.text == str(StoreUnavailable("", busy=True)) and asked.ephemeral
    assert not ERROR_ID.search(asked.text)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("/game status" in w and "database is locked (held by pid 4242)" in w for w in warnings)
    assert not [r for r in caplog.records if r.levelname == "ERROR"] and not table.public(ERRORS)


async def test_a_failing_suggestion_leaves_the_list_empty_and_is_reported(table, caplog, monkeypatch):
    ann, _ = await open_yard(table)
    typed = await hand_card(table)

    async def broken(*args, **kwargs):
        raise IndexError(typed)

    monkeypatch.setattr(table.service, "suggest", broken)
    assert await table.autocomplete(ann, "plan", "phase1", phase1=typed) == []
    report = reported(table)
    assert "autocomplete card failed" in report and "IndexError" in report
    assert typed not in report and typed not in caplog.text


async def test_a_bug_a_callback_lets_through_reaches_the_trees_on_error(table, monkeypatch):
    """/roll has no adapter around it: the tree's on_error apologises with an id."""
    ann = table.player(11, "Ann")

    said = "sight 913 is too much"

    def broken(*args, **kwargs):
        raise ZeroDivisionError(said)

    monkeypatch.setattr("bot.discord.roll_cog.rolls.roll", broken)
    asked = await table.command(ann, "roll sergeants sight", sight=913, distance=3)
    eid = error_id(asked.text)
    assert asked.ephemeral and asked.callbacks[0]["type"] == 4  # never deferred: the apology is the answer
    report = reported(table)
    assert f"Error `{eid}`**: /roll sergeants sight failed with `ZeroDivisionError`" in report
    assert "913" not in report


async def test_a_command_discord_shows_but_the_bot_no_longer_has_is_told_to_reload(table):
    ann = table.player(11, "Ann")
    asked = table.dispatch(table.payload(ann, 2, {"id": "77", "name": "retired", "type": 1}))
    await table.settle()
    assert "reload Discord" in asked.text and asked.ephemeral and not table.public(ERRORS)


async def test_a_delivery_failure_after_the_use_case_says_the_command_stands(table, monkeypatch):
    ann = table.player(11, "Ann")

    async def broken(*args, **kwargs):
        raise RuntimeError("channel gone")

    monkeypatch.setattr(table.bot.adapter.courier, "post_public", broken)
    asked = await table.command(ann, "game new", scenario="yard", side="US")
    eid = error_id(asked.text)
    assert asked.text.startswith("Game #1 is open") or "Done, but something went wrong" in asked.text
    assert "Done, but something went wrong while sending" in asked.text
    assert (await table.store.load_game(1)).scenario_id == "yard"
    assert f"Error `{eid}`**: /game new failed in game #1" in reported(table)


async def test_the_deadline_loop_reports_and_goes_on(table, caplog, monkeypatch):
    async def broken(*args, **kwargs):
        raise OSError("disk said no")

    monkeypatch.setattr(table.service, "tick", broken)
    await table.tick()
    eid = error_id(reported(table).replace("**Error `", "error `"))
    assert any(f"error {eid}: the deadline check failed with OSError" in r.getMessage() for r in caplog.records)

    delivered = []

    async def two(*args, **kwargs):
        return [Replies(game_id=1), Replies(game_id=2)]

    async def deliver(replies, interaction=None):
        if replies.game_id == 1:
            raise RuntimeError("first delivery broke")
        delivered.append(replies.game_id)

    monkeypatch.setattr(table.service, "tick", two)
    monkeypatch.setattr(table.bot.adapter.courier, "deliver", deliver)
    await table.tick()
    assert delivered == [2], "one game's failed delivery does not stop the others"
    assert "the deadline check failed in game #1 with `RuntimeError`" in reported(table)


async def test_an_unreachable_error_channel_costs_only_a_warning(tmp_path, cat, caplog, monkeypatch):
    async with Table(tmp_path, cat, error_channel=404) as t:
        ann = t.player(11, "Ann")

        async def broken(*args, **kwargs):
            raise RuntimeError("x")

        monkeypatch.setattr(t.service, "status", broken)
        asked = await t.command(ann, "game status")
        eid = error_id(asked.text)
        assert any(f"error {eid} could not be posted to channel 404" in r.getMessage() for r in caplog.records)


async def test_a_long_traceback_goes_to_the_error_channel_as_a_file(table, monkeypatch):
    ann = table.player(11, "Ann")

    async def broken(*args, **kwargs):
        raise LookupError(args)

    monkeypatch.setattr(table.service, "status", broken)
    monkeypatch.setattr("bot.discord.error_report.MESSAGE", 200)  # any real traceback is longer
    asked = await table.command(ann, "game status")
    eid = error_id(asked.text)
    (report,) = table.public(ERRORS)
    assert list(report.files) == [f"error-{eid}.txt"] and "```" not in report.content
    assert "in broken" in report.files[f"error-{eid}.txt"].decode()


def test_frames_keep_the_types_and_lines_of_a_chain_but_no_message():
    card, line = "101-C3", "plan 101-C3 2-C1"

    def inner():
        raise KeyError(card)

    try:
        try:
            inner()
        except KeyError as exc:
            raise ValueError(line) from exc
    except ValueError as exc:
        text = frames(exc)
    assert text.index("KeyError") < text.index("direct cause") < text.index("ValueError")
    assert "in inner" in text and card not in text
