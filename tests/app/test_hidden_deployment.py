"""Hidden deployment through the use-cases: a whole night game played by scripted players, every
outgoing message kept. No public line, waiting line, public picture's view or caption, and no
private line or prompt to the other side may name a man hidden at that moment, give one of
his card ids or his cell; his own player's board and /soldier show him exactly."""
from __future__ import annotations

import random
import re

from bot.app import Replies, Where
from engine import GameState
from tests.app.players import play_randomly
from tests.app.table import ANN, BO, HERE, open_table


def hidden_words(st: GameState) -> dict[str, set[str]]:
    """Side -> the words that would give away that side's hidden men now."""
    out: dict[str, set[str]] = {}
    for n, s in st.soldiers.items():
        if s.status == "board" and not s.spotted and s.captor is None:
            d = st.setup.soldiers[n]
            words = {d.name, st.name(n), f"({s.at[0]},{s.at[1]})"}
            words |= {c for c, card in st.setup.cards.items() if card.owner == n}
            out.setdefault(s.side, set()).update(words)
    return out


def found(word: str, text: str) -> bool:
    # `in` first: most words are in no text, and it costs a tenth of the search
    return word in text and re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


class Watch:
    def __init__(self, service, gid: int) -> None:
        self.service, self.gid = service, gid
        self.leaks: list[str] = []
        self.messages = 0

    async def __call__(self, r: Replies) -> None:
        st = await self.service.load_state(self.gid)
        words = hidden_words(st)
        every = set().union(*words.values()) if words else set()
        public = [r.public_text(), *(w.detail for w in r.waiting)]
        public += [i.view.model_dump_json(exclude={"vehicle_defs"}) + i.caption for i in r.images]
        for text in public:
            self.messages += 1
            self._check("public", text, every)
        for p in r.private:
            side = st.seats[p.seat].side
            self._check(f"private to seat {p.seat}", p.text, every - words.get(side, set()))
        for p in r.prompts:
            side = st.seats[p.seat].side
            text = p.text + " ".join(c.label + c.command for c in p.choices)
            self._check(f"prompt to seat {p.seat}", text, every - words.get(side, set()))

    def _check(self, where: str, text: str, secrets: set[str]) -> None:
        for word in secrets:
            if found(word, text):
                self.leaks.append(f"{where}: {word!r} in {text[:300]!r}")


async def test_a_whole_night_game_never_gives_away_a_hidden_man(service, store):
    start = await open_table(service, scenario="hidden-yard")
    watch = Watch(service, start.game_id)
    await watch(start)
    where = Where(channel_id=HERE.channel_id, game_id=start.game_id)
    n = await play_randomly(service, {0: ANN, 1: BO}, where, random.Random(3), seen=watch, limit=150)
    assert n >= 10 and watch.messages > n
    assert watch.leaks == []
    st = await service.load_state(start.game_id)
    words = hidden_words(st)
    log = (await service.history(BO, where, last=500)).ephemeral[0]
    # Bo's log never names Ann's men hidden now (older lines may name them while they were seen)
    assert not [w for w in words.get("US", set()) if w.startswith("(") and found(w, log)]


async def test_his_own_player_sees_his_hidden_man_and_the_other_does_not(service, store):
    start = await open_table(service, scenario="hidden-yard")
    where = Where(channel_id=HERE.channel_id, game_id=start.game_id)
    st = await service.load_state(start.game_id)
    mine = (await service.soldier(ANN, where, "1")).ephemeral[0]
    assert "Avery" in mine and f"at {st.soldiers[1].at[0]},{st.soldiers[1].at[1]}" in mine
    refused = None
    try:
        await service.soldier(BO, where, "1")
    except Exception as exc:  # Refused
        refused = str(exc)
    assert refused and "not where you can see him" in refused
    # the board Ann asks for (not posted) is drawn from her seat's view: her men are in it
    r = await service.board(ANN, where)
    views = [i.view for i in r.ephemeral_images if i.seat is not None]
    assert views and [s.serial for s in views[0].mine.own_hidden] == [1, 2, 3] and views[0].soldiers == []
    # posted, it is the public board: markers only
    r = await service.board(ANN, where, post=True)
    assert [(m.side, m.count) for m in r.images[0].view.hidden if m.side == "US"] and r.images[0].view.soldiers == []
    assert r.images[0].view.mine is None
