"""The bot driven only through gateway payloads (tests/discord/gateway.py): its setup hook
registers the commands over HTTP, a slash command, a Join button, autocomplete, and a whole
game of the fixture's `yard` played to its end by payloads alone (/game new, the Join button,
/game start, placement menus and buttons from the DMs and the private thread, /act commands,
done and pass) with no player's secret reaching another player or the channel (the secrets
are taken from the states as in tests/app/test_secrets.py)."""
from __future__ import annotations

import random
import re

from bot.app import Caller, Where
from bot.store import GameStatus
from tests.app.test_secrets import found, secrets_of, shown_cards
from tests.discord.gateway import CHANNEL, Asked, Player, Sent, Table, invalid

ACT = re.compile(r"(?:(?P<via>tag|team|note) )?(?P<verb>move|face|cover|sight|shoot|draw) (?P<rest>.+)")


def act_options(line: str) -> tuple[str, dict[str, str]] | None:
    """The /act command and options that say script `line`, for the lines a player types most."""
    if line in ("pass", "done"):
        return f"act {line}", {}
    m = ACT.fullmatch(line)
    if m is None:
        return None
    words, verb = m["rest"].split(), m["verb"]
    options = {"soldier": words[0], **({"via": m["via"]} if m["via"] else {})}
    if verb == "move":
        if len(words) not in (2, 4) or (len(words) == 4 and words[2] != "face"):
            return None
        options["to"] = words[1]
        if len(words) == 4:
            options["face"] = words[3]
    elif verb == "face":
        options["direction"] = words[1]
    elif verb in ("sight", "shoot") and len(words) == 2:
        options["target"] = words[1]
    elif len(words) != 1:
        return None
    return f"act {verb}", options


async def open_yard(t: Table, *, bo_dms: bool = True) -> tuple[Player, Player]:
    ann, bo = t.player(11, "Ann"), t.player(22, "Bo", dms=bo_dms)
    await t.command(ann, "game new", scenario="yard", side="US")
    lobby = t.public()[-1]
    await t.press(bo, lobby, "fp:j:1:DE")
    await t.command(ann, "game start")
    return ann, bo


async def test_setup_registers_the_tree_over_http_and_a_command_answers_ephemerally(table):
    (sync,) = table.requests("PUT /applications/{application_id}/guilds/{guild_id}/commands")
    assert sync.params["guild_id"] == str(table.settings.fieldpost_dev_guild)
    assert {"game", "act", "plan", "hand", "roll"} <= {c["name"] for c in sync.json}
    ann = table.player(11, "Ann")
    asked = await table.command(ann, "game new", scenario="yard", side="US")
    assert asked.callbacks == [{"type": 5, "data": {"flags": 64}}]  # deferred, ephemeral, thinking
    assert asked.ephemeral and "Game #1 is open" in asked.text
    (lobby,) = table.public()
    assert "New game #1: Farmyard" in lobby.content and lobby.custom_ids == ["fp:j:1:US", "fp:j:1:DE"]
    assert not table.discord.unhandled


async def test_a_join_button_and_autocomplete_through_payloads(table):
    ann, bo = await open_yard(table, bo_dms=False)
    assert "Bo joins DE." in table.public()[1].content
    hand = set((await table.service.load_state(1)).forces["US-1"].hand)
    suggested = {c["value"] for c in await table.autocomplete(ann, "plan", "phase1", phase1="")}
    assert suggested and suggested <= hand | {"-"} | {v for v in suggested if ":" in v}
    theirs = {c["value"] for c in await table.autocomplete(bo, "plan", "phase1", phase1="")}
    assert not theirs & hand, "Bo is never offered Ann's cards"
    assert table.threads_of(bo) and not table.dms(bo), "Bo's closed DMs went to a private thread"


async def test_pictures_travel_as_files_and_a_private_board_only_to_its_player(tmp_path, cat):
    async with Table(tmp_path, cat, pictures=True) as t:
        ann, _ = await open_yard(t)
        (start,) = [m for m in t.public() if m.files]
        assert list(start.files) == ["board.png"] and start.files["board.png"][:8] == b"\x89PNG\r\n\x1a\n"
        assert start.payload["attachments"][0]["filename"] == "board.png"
        asked = await t.command(ann, "board")
        assert [list(m.files) for m in asked.messages] == [["board_private.png"]] and asked.ephemeral


async def test_a_command_in_a_dm_finds_the_players_game(table):
    ann, _ = await open_yard(table)
    asked = await table.command(ann, "hand", channel=None)
    assert asked.ephemeral and "Your hand" in asked.text
    assert asked.channel_id == table.discord.dm_of[ann.id]


class Watch:
    """After each interaction: the messages new since the last look, checked against the secrets
    the other seats held both before and after it (a watcher's: against every seat's)."""

    def __init__(self, t: Table, players: dict[int, Player], watchers: tuple[Player, ...] = ()) -> None:
        self.t, self.players, self.watchers = t, players, watchers
        self.seen: set[int] = set()
        self.shown: set[str] = set()
        self.leaks: list[tuple[str, str, str]] = []
        self.before = None

    async def look(self) -> None:
        after = await self.t.service.load_state(1)
        before = self.before or after
        self.shown |= shown_cards(before) | shown_cards(after)
        pre, post = secrets_of(before), secrets_of(after)
        kept = {seat: (pre[seat] & post[seat]) - self.shown for seat in post}
        fresh = {m.id: m for m in self.t.discord.messages.values() if m.id not in self.seen}
        for m in self.t.public(CHANNEL):
            if m.id in fresh and "shuffles the discards" not in m.content:
                self._check("the channel", m, set().union(*kept.values()))
        for seat, who in self.players.items():
            others = set().union(*(s for other, s in kept.items() if other != seat)) - pre[seat] - post[seat]
            for m in self.t.private(who):
                if m.id in fresh:
                    self._check(who.name, m, others)
        for who in self.watchers:  # a spectator: no seat's secret
            for m in self.t.private(who):
                if m.id in fresh:
                    self._check(who.name, m, set().union(*kept.values()))
        self.seen |= set(fresh)
        self.before = after

    def _check(self, where: str, m: Sent, secrets: set[str]) -> None:
        text = m.text()
        self.leaks += [(where, secret, text[:200]) for secret in secrets if found(secret, text)]


async def test_a_whole_game_played_by_payloads_ends_and_leaks_nothing(table):
    t = table
    ann, bo = await open_yard(t, bo_dms=False)
    players = {0: ann, 1: bo}
    watch = Watch(t, players)
    await watch.look()
    rnd = random.Random(5)
    kinds: dict[str, int] = {"press": 0, "act": 0, "hand": 0}
    answers: list[Asked] = []
    for _ in range(300):
        waiting = await t.service.waiting(Caller(ann.id, ann.name), Where(game_id=1))
        if not waiting:
            break
        who = players[rnd.choice(waiting).seat]
        lines = await t.service.options(Caller(who.id, who.name), Where(game_id=1))
        typed = [a for a in map(act_options, lines) if a is not None]
        prompt = t.prompt(who)
        if typed and (prompt is None or rnd.random() < 0.5):
            path, options = rnd.choice(typed)
            answers.append(await t.command(who, path, **options))
            kinds["act"] += 1
        elif prompt is not None:
            custom_id = rnd.choice(prompt.custom_ids)
            values = [rnd.choice(prompt.values(custom_id))] if custom_id.startswith("fp:s:") else None
            answers.append(asked := await t.press(who, prompt, custom_id, values))
            kinds["press"] += 1
            if "out of date" in asked.text:  # the newest buttons come with /hand
                answers.append(await t.command(who, "hand"))
                kinds["hand"] += 1
        else:
            answers.append(await t.command(who, "hand"))
            kinds["hand"] += 1
        await watch.look()
    game = await t.store.load_game(1)
    assert game.status == GameStatus.FINISHED, "the game was played to its end by payloads alone"
    assert kinds["press"] >= 5 and kinds["act"] >= 3, kinds
    assert all(len(a.callbacks) == 1 and a.ephemeral for a in answers), "each answered once, privately"
    assert not any("went wrong" in a.text for a in answers)
    assert watch.leaks == []
    assert not t.discord.unhandled
    assert "Game over" in t.public()[-1].content


def test_the_watch_catches_a_leak():
    """The check above can fail: a hand card in the channel is caught."""
    from engine import SeatSpec, load_catalog, new_game
    from tests.discord.conftest import FIXTURE
    st, _ = new_game(load_catalog(FIXTURE), "yard", [SeatSpec(name="A", side="US"), SeatSpec(name="B", side="DE")], 1)
    card = st.forces["US-1"].hand[0]
    watch = Watch(None, {})  # type: ignore[arg-type]
    watch._check("the channel", Sent(1, CHANNEL, {"content": f"Ann holds {card}"}), secrets_of(st)[0])
    assert watch.leaks


def test_the_offline_discord_refuses_what_discord_refuses():
    """Every harness test checks the bot's messages against Discord's limits (Table.__aexit__)."""
    row = {"type": 1, "components": [{"type": 2, "custom_id": "fp:c:1", "label": "Done"}]}
    assert invalid({"content": "x" * 2000, "components": [row] * 5}, {}) == []
    assert invalid({"content": "x" * 2001}, {}) == ["content over 2000 characters"]
    assert invalid({"components": [row] * 6}, {}) == ["more than 5 action rows"]
    menu = {"type": 3, "custom_id": "fp:s:1", "options": [{"label": "a", "value": "b"}] * 26}
    assert invalid({"components": [{"type": 1, "components": [menu]}]}, {}) == ["a menu of 26 options"]
    long_id = {"type": 2, "custom_id": "c" * 101, "label": "b"}
    assert invalid({"components": [{"type": 1, "components": [long_id]}]}, {}) == ["custom_id of 101 characters"]
    assert invalid({"choices": [{"name": "n", "value": "v"}] * 26}, {})
    assert invalid({}, {f"{n}.png": b"" for n in range(11)}) == ["more than 10 files"]
