"""A whole game played through the Discord adapter (commands and buttons on mocked
interactions): every message the bot posted in the channel, and every message to one player,
checked against the other players' secrets held before and after it (see
tests/app/test_secrets.py for how the secrets are taken from the states)."""
from __future__ import annotations

import random

from bot.app import Caller, Where
from bot.discord.components import ChoiceButton, ChoiceSelect
from tests.app.test_secrets import found, secrets_of, shown_cards
from tests.discord.conftest import CHANNEL, command


def sent(mock) -> list[str]:
    return [c.args[0] if c.args else c.kwargs.get("content", "") for c in mock.await_args_list]


async def test_a_game_on_discord_leaks_nothing(world, tree, adapter):
    service = adapter.service
    players = {0: world.add_user(11, "Ann"), 1: world.add_user(22, "Bo", dms=False)}
    await command(tree, "game new").callback(world.interaction(players[0]), scenario="range", side="US")
    await command(tree, "game join").callback(world.interaction(players[1]), side="DE")
    await command(tree, "game start").callback(world.interaction(players[0]))
    home = world.channels[CHANNEL]
    rnd = random.Random(11)
    shown: set[str] = set()
    before = await service.load_state(1)
    public_seen = len(sent(home.send))
    private_seen: dict[int, int] = {}
    leaks, steps = [], 0
    while steps < 300:
        waiting = await service.waiting(Caller(11, "Ann"), Where(game_id=1))
        if not waiting:
            break
        seat = rnd.choice(waiting).seat
        who = players[seat]
        last_view = next((c.kwargs["view"] for c in reversed(who.send.await_args_list) if "view" in c.kwargs), None)
        it = world.interaction(who)
        if last_view is not None and rnd.random() < 0.4:
            item = rnd.choice(last_view.children)
            if isinstance(item, ChoiceSelect):
                item.item._values = [rnd.choice(item.item.options).value]
            assert isinstance(item, (ChoiceButton, ChoiceSelect))
            await item.callback(it)
        else:
            line = rnd.choice(await service.options(Caller(who.id, who.display_name), Where(game_id=1)))
            await adapter.run(it, lambda c, w, line=line: service.command(c, w, line), game=1)
        steps += 1
        after = await service.load_state(1)
        shown |= shown_cards(before) | shown_cards(after)
        pre, post = secrets_of(before), secrets_of(after)
        kept = {s: (pre[s] & post[s]) - shown for s in post}
        public = sent(home.send)[public_seen:]
        public_seen += len(public)
        for seat_, secrets in kept.items():
            for text in public:
                if not any(f"{n} shuffles the discards" in text for n in ("Ann", "Bo")):
                    leaks += [(secret, text) for secret in secrets if found(secret, text)]
            other = players[1 - seat_]  # the other player's DMs and private thread
            mine = sent(other.send)
            thread = (await service.store.private_channels(1)).get(other.id)
            mine += sent(world.channels[thread].send) if thread else []
            fresh = mine[private_seen.get(other.id, 0):]
            private_seen[other.id] = len(mine)
            theirs = secrets - post[1 - seat_] - pre[1 - seat_]  # a string both hold is no leak
            leaks += [(secret, text) for text in fresh for secret in theirs if found(secret, text)]
        before = after
    assert steps > 10 and not await service.waiting(Caller(11, "Ann"), Where(game_id=1))
    assert leaks == []
    assert home.threads, "Bo's closed DMs went to a private thread"
