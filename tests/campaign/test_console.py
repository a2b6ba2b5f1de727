"""`fieldpost campaign` from a terminal: a scenario autoplayed, reviewed, confirmed, an award,
a record and a chart written, an export re-imported, and a recorded game refused twice."""
from __future__ import annotations

import json

from PIL import Image

from bot.cli import main


def campaign(db, *words: str) -> int:
    return main(["campaign", "--db", str(db), *words])


def test_an_organisers_evening_at_the_terminal(tmp_path, capsys):
    db = tmp_path / "c.db"
    assert campaign(db, "new", "road-to-sainte-gisele", "--as", "Olga") == 0
    assert campaign(db, "join", "1", "US", "--as", "Ann") == 0
    assert campaign(db, "join", "1", "DE", "--as", "Bo") == 0
    assert campaign(db, "pick", "1", "101 105 109:g6", "--as", "Ann") == 0
    capsys.readouterr()
    assert campaign(db, "play", "1", "--autoplay", "--seed", "3", "--record-out", str(tmp_path / "g.json"),
                    "--as", "Olga") == 0
    out = capsys.readouterr().out
    assert "Played with seed 3" in out and "Confirming it would do this:" in out
    assert campaign(db, "confirm", "1", "--as", "Olga") == 0
    confirmed = capsys.readouterr().out
    assert "Result #1 confirmed." in confirmed and "**" not in confirmed  # plain text in a terminal
    assert campaign(db, "award", "1", "Brannigan", "distinguished", "--citation", "led the stick out",
                    "--as", "Olga") == 0
    assert campaign(db, "roster", "1", "--as", "Ann") == 0
    roster = capsys.readouterr().out
    assert "101 Cpl. Brannigan · fit · 1 medal" in roster and "8 VP" in roster and "`" not in roster
    assert campaign(db, "soldier", "1", "101", "--png", str(tmp_path / "r.png"), "--as", "Ann") == 0
    assert campaign(db, "standings", "1", "--png", str(tmp_path / "s.png")) == 0
    assert Image.open(tmp_path / "r.png").size == (1500, 1100)
    assert max(Image.open(tmp_path / "s.png").size) == 1500
    assert campaign(db, "export", "1", "--json", str(tmp_path / "e.json"), "--csv", str(tmp_path / "e.csv")) == 0
    assert json.loads((tmp_path / "e.json").read_text())["state"]["history"][0]["scenario"] == "hedgerow-dawn"
    assert campaign(db, "import", str(tmp_path / "e.json")) == 0
    capsys.readouterr()
    assert campaign(db, "list") == 0
    assert "#2 The Road to Sainte-Gisèle (road-to-sainte-gisele, running)" in capsys.readouterr().out
    # the same game again, from its record: refused
    assert campaign(db, "play", "1", "--record", str(tmp_path / "g.json")) == 1
    assert "not hedgerow-dawn" in capsys.readouterr().err


def test_a_recorded_game_is_applied_and_a_refusal_exits_non_zero(tmp_path, capsys):
    db = tmp_path / "c.db"
    for words in (("new", "road-to-sainte-gisele"), ("join", "1", "US", "--as", "Ann"),
                  ("join", "1", "DE", "--as", "Bo")):
        assert campaign(db, *words) == 0
    assert campaign(db, "play", "1", "--autoplay", "--seed", "4", "--record-out", str(tmp_path / "g.json")) == 0
    assert campaign(db, "reject", "1") == 0
    capsys.readouterr()
    assert campaign(db, "play", "1", "--record", str(tmp_path / "g.json")) == 1
    assert "recorded already" in capsys.readouterr().err
    assert campaign(db, "promote", "1", "105") == 1
    assert "only leaders are promoted" in capsys.readouterr().err


def test_a_recorded_game_applies_like_the_game_it_records(tmp_path, capsys):
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    for db in (first, second):
        for words in (("new", "road-to-sainte-gisele"), ("join", "1", "US", "--as", "Ann"),
                      ("join", "1", "DE", "--as", "Bo")):
            assert campaign(db, *words) == 0
    record = tmp_path / "g.json"
    assert campaign(first, "play", "1", "--autoplay", "--seed", "6", "--record-out", str(record), "--confirm") == 0
    assert campaign(second, "play", "1", "--record", str(record), "--confirm") == 0
    capsys.readouterr()
    states = []
    for db in (first, second):
        assert campaign(db, "export", "1") == 0
        states.append(json.loads(capsys.readouterr().out)["state"])
    assert states[0] == states[1]
