"""What a game's stored `state` document is: a `Lobby` before the start, a `GameState` after.

`StateCodec` writes a GameState without its static setup (map, soldiers, cards: ~95% of the
text), which is stored once per game and named by its digest, so a command costs a dump and a
write of what changed rather than of the whole scenario.
"""
from __future__ import annotations

import hashlib
import re
from collections import OrderedDict

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import from_json

from bot.store.protocol import JsonText
from engine import GameState, RuleError
from engine.core.commands import (
    MAX_LINE,
    MAX_WORD,
    MAX_WORDS,
    number,
    shown,
    text_problem,
)
from engine.core.content import (
    BarragePlan,
    ForceEntry,
    MinefieldDef,
    Nationality,
    Rank,
    VehicleEntry,
)
from engine.core.state import GameSetup
from engine.core.words import new_list


class LobbySeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_id: int
    name: str
    side: Nationality
    force: list[ForceEntry] | None = None  # None: a share of the scenario's preset squad
    vehicles: list[VehicleEntry] | None = None  # None: a share of the preset's vehicles (a campaign names its own)
    # the battlefield bought with the force (private); None: the side's preset, for its first player
    ordnance: list[str] | None = None
    barrages: list[BarragePlan] | None = None
    minefields: list[MinefieldDef] | None = None


class Lobby(BaseModel):
    """A game gathering players. The seed is private: with it the decks could be predicted."""

    model_config = ConfigDict(extra="forbid")

    scenario: str
    seed: int
    seats: list[LobbySeat] = Field(default_factory=new_list)
    campaign: int | None = None  # a campaign's scenario: seats and forces come from its rosters

    def seat_of(self, user_id: int) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)


class LobbyDoc(BaseModel):
    model_config = ConfigDict(extra="forbid")

    lobby: Lobby


class StateCodec:
    """GameState <-> the stored document `{"setup_ref": "<digest>", ...everything else}`.

    A game's setup (map, tiles, soldiers, cards, orders: ~95% of a state) never changes after
    the start, so it is stored once, as the setting ("setup", digest), and each commit writes
    only what changes: a few KB instead of 35-110 KB. Parsed setups are kept by digest.
    `full_json` gives the plain `GameState.model_dump_json()` text when one is wanted.
    """

    def __init__(self, size: int = 512) -> None:
        self._by_object: OrderedDict[int, tuple[GameSetup, str]] = OrderedDict()  # id -> digest
        self._by_digest: OrderedDict[str, GameSetup] = OrderedDict()
        self._size = size

    def digest(self, setup: GameSetup) -> str:
        hit = self._by_object.get(id(setup))
        if hit is not None and hit[0] is setup:
            self._by_object.move_to_end(id(setup))
            return hit[1]
        text = setup.model_dump_json()
        ref = hashlib.sha256(text.encode()).hexdigest()[:32]
        self._keep(ref, self._by_digest.get(ref, setup))
        self._by_object[id(setup)] = (setup, ref)
        return ref

    def shared(self, state: GameState) -> GameState:
        """The state with the one setup object kept for its digest, so games of the same
        scenario and forces share a single parsed setup in memory."""
        ref = self.digest(state.setup)
        setup = self._by_digest[ref]
        return state if setup is state.setup else state.model_copy(update={"setup": setup})

    def _keep(self, ref: str, setup: GameSetup) -> None:
        self._by_object[id(setup)] = (setup, ref)
        self._by_digest[ref] = setup
        self._by_digest.move_to_end(ref)
        for table in (self._by_object, self._by_digest):
            while len(table) > self._size:
                table.popitem(last=False)

    def dumps(self, state: GameState) -> str:
        """The stored document: the setup's digest first, then the state without its setup,
        joined once after that head (`json_without_setup`), not copied again to prefix it. A
        `JsonText`: the state's serializer wrote every piece, so the store need not parse it
        again to know it is JSON (docs/store.md, "A state's JSON checked once")."""
        return JsonText(state.json_without_setup('{"setup_ref":"' + self.digest(state.setup) + '",'))

    def dumps_kept(self, state: GameState) -> str | None:
        """`dumps(state)` again, made from the pieces its writing kept on the state
        (`GameState.json_kept`); None if it has none (parsed, never written)."""
        text = state.json_kept('{"setup_ref":"' + self.digest(state.setup) + '",')
        return None if text is None else JsonText(text)

    def known(self, ref: str) -> GameSetup | None:
        return self._by_digest.get(ref)

    def learn(self, ref: str, setup_data: dict) -> GameSetup:
        setup = self._by_digest.get(ref) or GameSetup.model_validate(setup_data)
        self._keep(ref, setup)
        return setup

    @staticmethod
    def split(text: str) -> tuple[str, str | dict]:
        """A stored document -> (setup digest, the rest of the state). `dumps` writes the digest
        first, so it is read off the front and the rest stays JSON text for `join` to validate
        as it parses (pydantic's reader, without building the data in between: a stored game is
        parsed again on every command once more games are busy than the parsed cache holds);
        a document written another way is read whole, as data."""
        if text.startswith(_REF_HEAD):
            end = text.find('"', len(_REF_HEAD))
            if end > 0 and text[end + 1:end + 3] == ',"':
                return text[len(_REF_HEAD):end], "{" + text[end + 2:]
        data = from_json(text)
        return data.pop("setup_ref"), data

    @staticmethod
    def join(setup: GameSetup, rest: str | dict) -> GameState:
        if isinstance(rest, dict):
            return GameState.model_validate({**rest, "setup": setup}).share_field_names()
        stored = _Stored.model_validate_json(rest)
        fields = dict(stored.__dict__, setup=setup)  # every field, in the model's order, validated
        return GameState.model_construct(_fields_set=stored.model_fields_set | {"setup"}, **fields).share_field_names()


_REF_HEAD = '{"setup_ref":"'


class _Stored(GameState):
    """What a stored document holds of a state: all of it but the setup, kept once by digest.
    Its schema is built when a stored game is first read, not at import: a new game reads none."""

    model_config = ConfigDict(defer_build=True)

    setup: GameSetup | None = None


_RANKS = {
    "private": Rank.PRIVATE, "pvt": Rank.PRIVATE, "pte": Rank.PRIVATE,
    "junior": Rank.JUNIOR_NCO, "junior_nco": Rank.JUNIOR_NCO, "nco": Rank.JUNIOR_NCO,
    "cpl": Rank.JUNIOR_NCO, "corporal": Rank.JUNIOR_NCO,
    "senior": Rank.SENIOR_NCO, "senior_nco": Rank.SENIOR_NCO, "sgt": Rank.SENIOR_NCO,
    "sergeant": Rank.SENIOR_NCO,
}

FORCE_SYNTAX = ("soldiers by dog tag, e.g. `101 104:sgt 108:g3` "
                "(after a colon: a rank pvt/cpl/sgt, gN grenades, mN medals, or an equipment id)")


def parse_force(text: str) -> list[ForceEntry]:
    """`"101 104:sgt 108:g3:m1"` -> ForceEntry list; RuleError says what could not be read.
    The command edge's caps hold here too (engine.core.commands): one line of valid text, dog tags
    in the ASCII digits 0-9."""
    if len(text) > MAX_LINE:
        raise RuleError(f"a force is at most {MAX_LINE} characters; this one has {len(text)}.")
    problem = text_problem(text)
    if problem:
        raise RuleError(problem)
    entries = []
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        serial, *extras = word.split(":")
        try:
            kw: dict = {"serial": number(serial, "a dog tag"), "equipment": []}
        except RuleError as exc:
            raise RuleError(f"{shown(word)}: {exc} A force lists {FORCE_SYNTAX}.") from None
        for extra in extras:
            low = extra.lower()
            if low in _RANKS:
                kw["rank"] = _RANKS[low]
            elif re.fullmatch(r"g[0-9]{1,2}", low):
                kw["grenades"] = int(low[1:])
            elif re.fullmatch(r"m[0-3]", low):
                kw["medals"] = int(low[1:])
            elif len(extra) > MAX_WORD:
                raise RuleError(f"{shown(extra)} is too long for an equipment id (at most {MAX_WORD} characters).")
            elif low:
                kw["equipment"].append(extra)
        entries.append(ForceEntry(**kw))
    if not entries:
        raise RuleError(f"name at least one soldier: {FORCE_SYNTAX}.")
    if len(entries) > MAX_WORDS:
        raise RuleError(f"a force names at most {MAX_WORDS} soldiers; this one names {len(entries)}.")
    return entries


NONE_WORDS = ("none", "nothing", "-")
PURCHASE_SYNTAX = {
    "artillery": "chart ids (or names) of the fire missions, e.g. `light-artillery medium-mortars`",
    "barrages": "`KIND TURN TILE [smoke]` plans separated by `;`, e.g. `rockets 3 L9A`",
    "mines": "`TILE TOKEN...` fields separated by `;`, tokens at, gp, fake or booby, e.g. `24A gp gp; L2A at at at at`",
}


def _purchase_text(text: str, what: str) -> str | None:
    """The text of a purchase, checked at the command edge; None for "none" (buy nothing)."""
    if len(text) > MAX_LINE:
        raise RuleError(f"{what} is at most {MAX_LINE} characters; this one has {len(text)}.")
    problem = text_problem(text)
    if problem:
        raise RuleError(problem)
    text = text.strip()
    if not text:
        raise RuleError(f"name {PURCHASE_SYNTAX[what]}, or `none`.")
    return None if text.lower() in NONE_WORDS else text


def parse_ordnance(text: str, names: dict[str, str]) -> list[str]:
    """`"light-artillery medium mortars"` -> chart ids; `names` maps each artillery kind's name
    (lower case) to its id, so a player may write either."""
    body = _purchase_text(text, "artillery")
    if body is None:
        return []
    out, words = [], [w for w in re.split(r"[\s,;]+", body.lower()) if w]
    spelled = sorted(names.items(), key=lambda kv: -len(kv[0].split()))
    while words:
        for name, kid in spelled:
            parts = name.split()
            if words[:len(parts)] == parts:
                out.append(kid)
                del words[:len(parts)]
                break
        else:
            if words[0] in names.values():
                out.append(words.pop(0))
            else:
                raise RuleError(f"{shown(words[0])} is no artillery to buy; the chart has "
                                + ", ".join(sorted(names.values())) + ".")
    if len(out) > MAX_WORDS:
        raise RuleError(f"at most {MAX_WORDS} fire missions; this names {len(out)}.")
    return out


def parse_barrages(text: str) -> list[BarragePlan]:
    """`"rockets 3 L9A; heavy-artillery 4 L2A smoke"` -> the plans (checked by the engine)."""
    body = _purchase_text(text, "barrages")
    if body is None:
        return []
    out = []
    for part in (p.strip() for p in body.split(";")):
        words = part.split()
        if not 3 <= len(words) <= 4 or (len(words) == 4 and words[3].lower() != "smoke"):
            raise RuleError(f"{shown(part)}: a barrage is {PURCHASE_SYNTAX['barrages']}.")
        out.append(BarragePlan(kind=words[0].lower(), turn=number(words[1], "a barrage's turn"),
                               tile=words[2].upper(), smoke=len(words) == 4))
    return out


def parse_minefields(text: str) -> list[MinefieldDef]:
    """`"24A gp gp; L2A at at at at"` -> the fields (their tiles and sums checked by the engine)."""
    body = _purchase_text(text, "mines")
    if body is None:
        return []
    out = []
    for part in (p.strip() for p in body.split(";")):
        tile, *tokens = part.split()
        tokens = [t.lower() for t in tokens]
        bad = [t for t in tokens if t not in ("at", "gp", "fake", "booby")]
        if not tokens or len(tokens) > 4 or bad:
            raise RuleError(f"{shown(part)}: a minefield is {PURCHASE_SYNTAX['mines']}.")
        out.append(MinefieldDef(tile=tile.upper(), tokens=tokens))
    return out


def purchases_text(seat: LobbySeat) -> list[str]:
    """What a seat bought besides its men, for its player's eyes only."""
    out = []
    if seat.ordnance is not None:
        out.append("artillery: " + (" ".join(seat.ordnance) or "none"))
    if seat.barrages is not None:
        out.append("barrages: " + ("; ".join(f"{b.kind} {b.turn} {b.tile}" + (" smoke" if b.smoke else "")
                                             for b in seat.barrages) or "none"))
    if seat.minefields is not None:
        out.append("mines: " + ("; ".join(f"{m.tile} {' '.join(m.tokens)}" for m in seat.minefields) or "none"))
    return out


def force_text(entries: list[ForceEntry]) -> str:
    """The inverse of `parse_force`, for showing a player his own choice."""
    out = []
    for e in entries:
        word = str(e.serial)
        if e.rank != Rank.PRIVATE:
            word += ":" + {"junior_nco": "cpl", "senior_nco": "sgt"}[e.rank.value]
        if e.grenades is not None:
            word += f":g{e.grenades}"
        if e.medals:
            word += f":m{e.medals}"
        word += "".join(f":{q}" for q in e.equipment)
        out.append(word)
    return " ".join(out)
