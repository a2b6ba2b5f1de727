"""`fieldpost render`: a gallery from seeded games, without playing."""
from __future__ import annotations

from pathlib import Path

from bot.cli import main

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "rules"


def test_the_gallery_has_the_start_a_shooting_phase_smoke_and_fire_and_cards(tmp_path, capsys):
    out = tmp_path / "gallery"
    assert main(["render", "--scenario", "yard", "--content", str(FIXTURE), "--seed", "1", "--out", str(out)]) == 0
    names = {p.stem for p in out.glob("*.png")}
    assert {"start", "shooting", "smoke-fire", "private-seat0"} <= names
    assert any(n.endswith("-own") for n in names) and any(n.endswith("-enemy") for n in names)
    assert "start" in capsys.readouterr().out


def test_an_unknown_scenario_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["render", "--scenario", "nowhere", "--content", str(FIXTURE), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fieldpost render: there is no scenario 'nowhere'") and err.count("\n") == 1
    assert "yard" in err, "the scenarios there are, named"


def vehicle_script(path: Path, seed: int) -> list[int]:
    """The commands of a seeded Vautrin game up to the first phase in which vehicles acted, as
    the console's two players (US and Germany) give them; returns those vehicles' plates."""
    import asyncio

    from bot.app import Caller, GameService, Where
    from bot.store import SqliteStore
    from engine import load_catalog

    async def record() -> list[int]:
        async with SqliteStore(path.with_suffix(".db")) as store:
            service = GameService(store, load_catalog(), seed=lambda: seed)
            us, de = Caller(1, "US"), Caller(2, "Germany")
            gid = (await service.new_game(us, Where(channel_id=1), "vautrin-crossroads", side="US")).game_id
            where = Where(game_id=gid)
            await service.join(de, where, "DE")
            await service.start(us, where)
            lines = []
            for _ in range(60):
                seat = (await service.waiting(us, where))[0].seat
                caller = (us, de)[seat]
                line = next(o for o in await service.options(caller, where) if o not in ("pass", "done"))
                lines += [f"@{caller.name}", line]
                r = await service.command(caller, where, line)
                plates = [i.plate for i in r.images if i.kind == "panel"]
                if plates:
                    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
                    return plates
        raise AssertionError("no vehicle acted in 60 commands")
    return asyncio.run(record())


def test_console_images_hold_the_panels_beside_the_boards(tmp_path):
    script = tmp_path / "armour.txt"
    plates = vehicle_script(script, seed=7)
    out = tmp_path / "img"
    assert main(["play", "--scenario", "vautrin-crossroads", "--seed", "7", "--script", str(script),
                 "--images", str(out)]) == 0
    panels = sorted(p.name for p in out.glob("*-panel*.png"))
    last_board = max(p.stem for p in out.glob("*.png") if "-panel" not in p.name)
    assert panels == sorted(f"{last_board}-panel{p}.png" for p in plates)
