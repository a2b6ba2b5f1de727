"""Hot-seat privacy: a whole game at one keyboard, played on the console's own numbered lists,
with the output cut at every screen clear. Each piece of screen belongs to one sitting: the
pass page holds nothing private, a player's screen holds only his own private fields (cards in
his hand and placed, his orders, his soldiers' VP), and the end screen nothing private at all.
Also: numbered choices pick from the latest list, and the end screen's VP add up to the game's."""
from __future__ import annotations

import argparse
import builtins
import random
import re
import sys
from pathlib import Path

from bot.app import GameService
from bot.console.hotseat import CLEAR, HotSeat
from bot.console.play import _open
from bot.store import SqliteStore
from engine import load_catalog

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rules"
CARD = re.compile(r"\b(\d{1,3})-[A-Z]+\d+\b")
PRIVATE = ("(for you)", "Your hand", "You placed", "Placed:", "Your orders", "Orders (secret)", "Orders (done)",
           "Your soldiers are worth", "Held under", "Your fight cards", "You draw")
MAX_LINES = 3000


def args(tmp_path: Path) -> argparse.Namespace:
    return argparse.Namespace(scenario="yard", players="Ann:US,Bo:DE", seed=5, script=None, db=None, images=None,
                              private=False, campaign=None)


async def play_whole_game(tmp_path, monkeypatch, seed: int) -> tuple[str, object, object]:
    """Play the yard scenario to its end through HotSeat: at a pass, Enter; otherwise `options`
    and then one of its numbers, at random. Returns everything printed, the final state, the table."""
    cat = load_catalog(FIXTURE)
    pick = random.Random(seed)
    out: list[str] = []
    real_write = sys.stdout.write
    monkeypatch.setattr(sys.stdout, "write", lambda s: (out.append(s), len(s))[1])
    async with SqliteStore(tmp_path / "console.db") as store:
        service = GameService(store, cat, seed=lambda: seed)
        table = await _open(service, cat, args(tmp_path))
        table.db, table.temporary = tmp_path / "console.db", True
        asked = {"options": False, "count": 0}

        def answer(prompt: str = "") -> str:
            out.append(prompt + "\n")
            asked["count"] += 1
            assert asked["count"] < MAX_LINES, "the game did not end"
            if "Pass to" in prompt or "file name" in prompt:
                return ""
            if not asked["options"]:
                asked["options"] = True
                return "options"
            asked["options"] = False
            listed = re.findall(r"^  (\d+)\) ", "".join(out[-200:]), flags=re.MULTILINE)
            return str(pick.randint(1, int(listed[-1]))) if listed else "pass"

        monkeypatch.setattr(builtins, "input", answer)
        try:
            assert await HotSeat(table).loop() == 0
        finally:
            monkeypatch.setattr(sys.stdout, "write", real_write)
        return "".join(out), await table.state(), table


def owner_side(cat, serial: int) -> str:
    return cat.soldiers[serial].nationality.value


async def test_nothing_private_of_one_player_is_on_screen_when_the_other_sits(tmp_path, monkeypatch):
    text, st, _ = await play_whole_game(tmp_path, monkeypatch, seed=3)
    assert st.step == "over"
    cat = load_catalog(FIXTURE)
    sides = {s.name: s.side for s in st.seats}
    orders = {s.name: cat.orders[s.order].title for s in st.seats if s.order}
    screens = text.split(CLEAR)
    assert len(screens) > 6, "the screen is cleared at every pass"
    seated = None
    passes = 0
    for screen in screens:
        sitting = re.search(r"=== (\w+) \((US|DE)\) at the keyboard ===", screen)
        passing = "--- Pass to " in screen
        ending = "GAME OVER" in screen
        private = [line for line in screen.splitlines() if any(mark in line for mark in PRIVATE)]
        if passing or ending:
            passes += passing
            assert private == [], f"private lines on a {'pass page' if passing else 'end screen'}: {private}"
            continue
        if sitting:
            seated = sitting.group(1)
        assert seated is not None or not private, private
        for line in private:
            for serial in map(int, CARD.findall(line)):
                assert owner_side(cat, serial) == sides[seated], f"{seated} sees another's card: {line}"
            if "worth" in line:
                for serial in map(int, re.findall(r"(\d+): \d+ VP", line)):
                    assert owner_side(cat, serial) == sides[seated], f"{seated} sees another's VP: {line}"
            for name, title in orders.items():
                if name != seated:
                    assert title not in line or orders[seated] == title, f"{seated} sees {name}'s orders: {line}"
    assert passes >= 4


async def test_the_end_screen_adds_up_to_the_games_vp(tmp_path, monkeypatch):
    text, st, _ = await play_whole_game(tmp_path, monkeypatch, seed=8)
    end = text.split(CLEAR)[-1]
    assert "GAME OVER" in end
    lines = end.splitlines()
    totals: dict[str, int] = {}
    sources: dict[str, list[int]] = {}
    side = None
    for line in lines[lines.index("Victory points by source:") + 1:]:
        head = re.fullmatch(r"  (US|DE): (-?\d+) VP", line)
        part = re.match(r"    .+?: (-?\d+) \(", line)
        if head:
            side = head.group(1)
            totals[side], sources[side] = int(head.group(2)), []
        elif part and side:
            sources[side].append(int(part.group(1)))
        elif not line.startswith("    "):
            break
    assert totals == st.result.vp == {s: st.side_vp(s) for s in ("DE", "US")}
    assert {s: sum(v) for s, v in sources.items()} == totals
    dead = sum(1 for s in st.soldiers.values() if s.status == "dead")
    assert sum(int(n) for n in re.findall(r"killed (\d+)", end)) == dead
