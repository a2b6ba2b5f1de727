"""A game record made by the bot (issue 16: `/game record`, the `record` use-case) read by the
console: a game played through the use-cases — commands taken back, a seat changing hands — and
exported once it has ended; `fieldpost replay` and `fieldpost play --position` rebuild from the
file exactly the state the bot stored, and `play --position` plays on from an abandoned game's."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.app import Caller, GameService, Refused, Where
from bot.cli import main
from bot.store import GameStatus, open_store
from engine import GameState, apply, load_catalog
from engine.record import Record
from engine.script import parse_line
from tests.app.players import play_randomly
from tests.app.table import ANN, BO, HERE, Clock, open_table

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rules"
CY = Caller(33, "Cy")


@pytest.fixture
def fixture_content(monkeypatch):
    monkeypatch.setenv("FIELDPOST_HOME", str(FIXTURE))  # the console's catalogue is the service's


async def exported(service: GameService, caller: Caller, where: Where, tmp_path: Path) -> Path:
    """The record file the `record` use-case hands `caller`, written where a player would save it."""
    r = await service.record(caller, where)
    files = {a.name: a.data for a in r.attachments}
    name = next(n for n in files if n.endswith(".record.json"))
    path = tmp_path / name
    path.write_bytes(files[name])
    return path


def state_in(path: Path) -> dict:
    return GameState.model_validate_json(path.read_text(encoding="utf-8")).model_dump()


@pytest.mark.parametrize("seed", [3, 4])
async def test_a_finished_games_record_replays_in_the_console_to_the_stored_state(
        tmp_path, capsys, fixture_content, seed):
    cat = load_catalog(FIXTURE)
    async with open_store(str(tmp_path / "bot.db")) as store:
        service = GameService(store, cat, clock=Clock(), seed=lambda: seed)
        gid = (await open_table(service)).game_id
        where = Where(channel_id=HERE.channel_id, game_id=gid)
        rnd = random.Random(seed)
        await play_randomly(service, {0: ANN, 1: BO}, where, rnd, limit=15, undo=0.3)
        await service.replace_player(ANN, where, 1, CY.user_id, CY.name, reason="Bo moved abroad")
        await play_randomly(service, {0: ANN, 1: CY}, where, rnd, undo=0.2, rollback=0.05)
        assert (await store.load_game(gid)).status == GameStatus.FINISHED
        stored = (await service.load_state(gid)).model_dump()
        path = await exported(service, CY, where, tmp_path)

    out = tmp_path / "replayed.json"
    assert main(["replay", str(path), "--state-out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "> Cy: " in text, "the seat's new holder is named from the change on"
    assert state_in(out) == stored

    at = tmp_path / "position.json"
    assert main(["play", "--position", str(path), "--state-out", str(at)]) == 0
    assert "Game over" in capsys.readouterr().out
    assert state_in(at) == stored


async def test_play_position_plays_on_from_an_abandoned_games_record(tmp_path, capsys, fixture_content):
    cat = load_catalog(FIXTURE)
    async with open_store(str(tmp_path / "bot.db")) as store:
        service = GameService(store, cat, clock=Clock(), seed=lambda: 5)
        gid = (await open_table(service)).game_id
        where = Where(channel_id=HERE.channel_id, game_id=gid)
        await play_randomly(service, {0: ANN, 1: BO}, where, random.Random(5), limit=20)
        with pytest.raises(Refused, match="Only"):
            await service.record(BO, where)  # a player may not have a running game's record
        awaited = (await service.waiting(ANN, where))[0]
        player = {0: ANN, 1: BO}[awaited.seat]
        line = (await service.options(player, where))[0]
        await service.abandon(ANN, where, reason="summer")
        stopped = await service.load_state(gid)
        path = await exported(service, BO, where, tmp_path)

    assert Record.model_validate(json.loads(path.read_text())).final(cat).model_dump() == stopped.model_dump()
    script = tmp_path / "next.txt"
    script.write_text(f"@{player.name}\n{line}\n", encoding="utf-8")
    out = tmp_path / "next.json"
    assert main(["play", "--position", str(path), "--script", str(script), "--state-out", str(out)]) == 0
    expected, _ = apply(stopped, parse_line(stopped, line, awaited.seat))
    assert state_in(out) == expected.model_dump()
