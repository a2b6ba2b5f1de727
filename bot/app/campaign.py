"""`CampaignService`: the campaign use-cases, each one store transaction (docs/campaigns.md).

    campaigns = CampaignService(store, load_catalog())
    r = await campaigns.new(Caller(1, "Ann"), Where(channel_id=10), "road-to-sainte-gisele")
    await campaigns.join(Caller(1, "Ann"), r.campaign_id, "US")
    await campaigns.join(Caller(2, "Bo"), r.campaign_id, "DE")
    prepared = await campaigns.prepare(organiser, r.campaign_id)   # SeatSpecs from the rosters
    ... play prepared.seats as a game ...
    await campaigns.submit_game(organiser, r.campaign_id, final_state, prepared.users)
    await campaigns.confirm(organiser, r.campaign_id)               # the rosters change here

A change loads the campaign under its lock, asks the campaign rules (engine.campaign) and
commits the new document with its log and the version check; a writer that lost the race
reloads and tries again. Nothing here knows Discord: users are ints, and a campaign is named
by its number or found in the channel.
"""
from __future__ import annotations

import csv
import io
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from bot.app.errors import NotYours, Refused
from bot.app.replies import Caller, Where
from bot.app.tokens import when
from bot.store import (
    CampaignNotFound,
    CampaignStatus,
    CampaignStore,
    CampaignSummary,
    CampaignVersionConflict,
    DuplicateResult,
    GameLocks,
    NewResult,
    ResultChange,
    ResultConflict,
    ResultNotFound,
    ResultStatus,
    StoredCampaign,
    StoredResult,
)
from engine import Catalog, GameState, SeatSpec
from engine.campaign import (
    AWARDS,
    CampaignDef,
    CampaignError,
    CampaignState,
    ScenarioResult,
    apply_result,
    award,
    begin,
    check_result,
    choose_branch,
    enlist,
    fill_open_places,
    join,
    load_campaigns,
    mark,
    new_campaign,
    pick,
    promote,
    result_from_game,
    roster_view,
    seat_specs,
    service_record,
    set_short_crews,
    standings,
)
from engine.campaign.forces import (
    SHORT_CREW_WORDS,
    eligible,
    next_step,
    plate_entry,
    player_budget,
    st_rule,
    step_scenario,
    vehicle_eligible,
)
from engine.campaign.records import (
    PrivateRosterLine,
    RosterView,
    ServiceRecord,
    Standings,
    next_words,
    route,
)
from engine.campaign.roster import STATUS_WORDS, Kind
from engine.core.commands import NUMBER
from engine.core.content import VehicleEntry
from engine.core.wording import plural

log = logging.getLogger(__name__)

RETRIES = 3
EXPORT_FORMAT = "fieldpost-campaign"
EXPORT_VERSION = 1
CSV_COLUMNS = ("player", "side", "serial", "name", "kind", "rank", "status", "medals", "badges", "kills",
               "captures", "scenarios", "wounds", "vp", "vp_earned", "joined_after", "training", "crew",
               "knocked_out", "damage")


class NoCampaign(Refused):
    """No campaign answers to what the command named."""


@dataclass(frozen=True, slots=True)
class CampaignImage:
    """A picture to draw: `bot.render.service_record` or `bot.render.standings` from `view`."""

    kind: Literal["service_record", "standings"]
    view: ServiceRecord | Standings
    caption: str = ""


@dataclass(frozen=True, slots=True)
class Attachment:
    filename: str
    data: bytes


@dataclass(slots=True)
class CampaignReplies:
    """What a front end shows: `public` lines and `images` to the channel, the rest to the
    caller alone (`ephemeral`, `ephemeral_images`, `files`)."""

    campaign_id: int | None = None
    version: int | None = None
    channel_id: int | None = None
    public: list[str] = field(default_factory=list)
    images: list[CampaignImage] = field(default_factory=list)
    ephemeral: list[str] = field(default_factory=list)
    ephemeral_images: list[CampaignImage] = field(default_factory=list)
    files: list[Attachment] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Prepared:
    """The next scenario set up from the rosters: start a game of `scenario` with `seats`,
    seat i played by `users[i]`; its finished state goes back through `submit_game`."""

    campaign_id: int
    step: str
    scenario: str
    users: tuple[int, ...]
    seats: tuple[SeatSpec, ...]


@dataclass(slots=True)
class _Loaded:
    stored: StoredCampaign
    state: CampaignState
    cdef: CampaignDef

    @property
    def id(self) -> int:
        return self.stored.id


class _Export(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["fieldpost-campaign"]
    version: int
    definition: str
    name: str
    guild_id: int = 0
    channel_id: int = 0
    organiser_id: int
    state: CampaignState
    results: list[dict[str, Any]]
    log: list[dict[str, Any]]


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _entry(kind: str, by: int | None, text: str, **data: Any) -> str:
    """A campaign log entry: what happened, who did it, in a sentence."""
    return json.dumps({"type": kind, "by": by, "text": text, **data}, ensure_ascii=False)


class CampaignService:
    def __init__(self, store: CampaignStore, catalog: Catalog, *,
                 definitions: dict[str, CampaignDef] | None = None,
                 clock: Callable[[], datetime] = _utc_now, locks: GameLocks | None = None) -> None:
        self.store = store
        self.catalog = catalog
        self.definitions = definitions if definitions is not None else load_campaigns(catalog)
        self.clock = clock
        self.locks = locks or GameLocks()

    def _date(self) -> str:
        return self.clock().date().isoformat()

    # ================================================================== finding a campaign

    async def resolve(self, ref: int | Where | None, *, finished_ok: bool = True) -> int:
        """A campaign number, or the channel's only campaign (the latest, finished ones too, for
        reading)."""
        if isinstance(ref, int):
            return ref
        if ref is not None and ref.game_id is not None:
            return ref.game_id
        spot = None if ref is None else (ref.thread_id or ref.channel_id)
        if spot is None:
            raise NoCampaign("Name the campaign by its number.")
        here = await self.store.campaigns_in_channel(spot)
        if len(here) == 1:
            return here[0].id
        if not here and finished_ok:
            ended = await self.store.campaigns_in_channel(spot, include_finished=True)
            if ended:
                return ended[-1].id
        if not here:
            raise NoCampaign("There is no campaign here. Start one with /campaign new.")
        listed = ", ".join(f"#{c.id} ({c.name})" for c in here[:10])
        raise NoCampaign(f"Several campaigns run here: {listed}. Name one with the campaign option.")

    async def campaigns_here(self, where: Where) -> list[CampaignSummary]:
        spot = where.thread_id or where.channel_id
        return [] if spot is None else await self.store.campaigns_in_channel(spot, include_finished=True)

    async def _load(self, cid: int) -> _Loaded:
        try:
            stored = await self.store.load_campaign(cid)
        except CampaignNotFound:
            raise NoCampaign(f"There is no campaign #{cid}.") from None
        state = CampaignState.model_validate_json(stored.state)
        cdef = self.definitions.get(state.definition)
        if cdef is None:
            raise Refused(f"Campaign #{cid} follows the definition {state.definition!r}, which this "
                          "Fieldpost does not have.")
        return _Loaded(stored, state, cdef)

    async def load_state(self, ref: int | Where | None) -> CampaignState:
        """The campaign's document as stored: for tools and tests, never for output."""
        return (await self._load(await self.resolve(ref))).state

    def _organiser(self, caller: Caller, loaded: _Loaded) -> bool:
        return caller.organiser or caller.user_id == loaded.stored.organiser_id

    def _need_organiser(self, caller: Caller, loaded: _Loaded, what: str) -> None:
        if not self._organiser(caller, loaded):
            raise NotYours(f"Only the campaign's organiser (its creator, or someone who may manage this "
                           f"channel) can {what}.")

    def _serial(self, loaded: _Loaded, soldier: str | int) -> int:
        """A dog tag from a number or a roster soldier's name."""
        word = str(soldier).strip()
        if NUMBER.fullmatch(word):  # ASCII digits only, as at the command edge
            return int(word)
        low = word.lower()
        for p in loaded.state.players:
            for e in p.roster:
                if e.name.lower() == low:
                    return e.serial
        raise Refused(f"No roster in this campaign has a soldier called {word!r}.")

    def _player_id(self, loaded: _Loaded, who: str | int) -> int:
        word = str(who).strip()
        for p in loaded.state.players:
            if str(p.user_id) == word or p.name.lower() == word.lower():
                return p.user_id
        raise Refused(f"No player {word!r} in this campaign; its players are "
                      + (", ".join(p.name for p in loaded.state.players) or "nobody yet") + ".")

    # ================================================================== changing a campaign

    async def _change(self, ref: int | Where | None, change: Callable[[_Loaded], tuple], *,
                      finished_ok: bool = False) -> CampaignReplies:
        """Run `change(loaded)` under the campaign's lock and commit what it returns:
        (new state, log entries, replies[, commit options]). Retries when another process won."""
        cid = await self.resolve(ref, finished_ok=finished_ok)
        for _ in range(RETRIES):
            async with self.locks.for_game(-cid):  # negative: never the lock of a game with that id
                loaded = await self._load(cid)
                try:
                    new_state, entries, r, *rest = change(loaded)
                except CampaignError as exc:
                    raise Refused(str(exc)) from None
                options = rest[0] if rest else {}
                try:
                    done = await self.store.commit_campaign(
                        cid, loaded.stored.version, new_state.model_dump_json(), entries,
                        status=CampaignStatus(new_state.status), **options)
                except CampaignVersionConflict:
                    continue
                except DuplicateResult as exc:
                    raise Refused(f"That result is recorded already, as result #{exc.number} of campaign "
                                  f"#{cid}; the same result is never applied twice.") from None
                except ResultConflict as exc:
                    raise Refused(f"Result #{exc.number} is {exc.current}, not {exc.expected}; nothing was "
                                  "changed.") from None
                except ResultNotFound as exc:
                    raise Refused(f"Campaign #{cid} has no result #{exc.number}.") from None
                r.campaign_id, r.version = cid, done.version
                r.channel_id = loaded.stored.channel_id
                if done.result_number is not None:
                    r.public = [line.replace("{number}", str(done.result_number)) for line in r.public]
                    r.ephemeral = [line.replace("{number}", str(done.result_number)) for line in r.ephemeral]
                return r
        raise Refused("Someone changed the campaign at the same moment several times; try again.")

    async def new(self, caller: Caller, where: Where, definition: str, *, name: str | None = None
                  ) -> CampaignReplies:
        """Open a campaign of a definition in the channel; the caller organises it."""
        if where.channel_id is None:
            raise Refused("A campaign lives in a channel: start it there, not in a direct message.")
        cdef = self.definitions.get(definition)
        if cdef is None:
            raise Refused(f"There is no campaign {definition!r}. Campaigns: "
                          + ", ".join(sorted(self.definitions)) + ".")
        st = new_campaign(cdef, name, caller.user_id, self._date())
        stored = await self.store.create_campaign(
            guild_id=where.guild_id, channel_id=where.thread_id or where.channel_id, definition_id=cdef.id,
            name=st.name, organiser_id=caller.user_id, state=st.model_dump_json(),
            log=[_entry("created", caller.user_id, f"{caller.name} opened the campaign {st.name}.",
                        definition=cdef.id)])
        steps = route(cdef)
        r = CampaignReplies(campaign_id=stored.id, version=stored.version, channel_id=stored.channel_id)
        r.public.append(f"**New campaign #{stored.id}: {st.name}**, organised by {caller.name}. "
                        f"{cdef.briefing}\nScenarios: {steps}. Join a side with `/campaign join`; "
                        "two to four players, both sides.")
        r.ephemeral.append(f"Campaign #{stored.id} is open. When both sides have players, the first "
                           "scenario begins it; results come back to you for review.")
        return r

    async def join(self, caller: Caller, ref: int | Where | None, side: str) -> CampaignReplies:
        def change(loaded: _Loaded):
            st = join(loaded.state, loaded.cdef, self.catalog, caller.user_id, caller.name, side, self._date())
            me = st.player(caller.user_id)
            r = CampaignReplies()
            mates = st.side_players(me.side)
            r.public.append(f"{caller.name} joins {me.side.value} in campaign #{loaded.id}"
                            + (f"; the company is shared among {', '.join(p.name for p in mates)}." if
                               len(mates) > 1 else "."))
            r.ephemeral.append(f"You have {len(me.roster)} men: "
                               + ", ".join(f"{e.name} ({e.serial})" for e in me.roster)
                               + ". `/campaign roster` shows them with their VP.")
            return st, [_entry("joined", caller.user_id, f"{caller.name} joined {me.side.value}.",
                               side=me.side.value)], r
        return await self._change(ref, change)

    async def pick(self, caller: Caller, ref: int | Where | None, force: str | None) -> CampaignReplies:
        """Choose your force for the next scenario from your roster (None/"auto": chosen for you)."""
        def change(loaded: _Loaded):
            st, entries, vehicles, cost = pick(loaded.state, loaded.cdef, self.catalog, caller.user_id, force)
            me = st.player(caller.user_id)
            limit = player_budget(st, loaded.cdef, self.catalog, me)
            names = "; ".join([", ".join(f"{self.catalog.soldiers[e.serial].name} ({e.serial})" for e in entries)]
                              * bool(entries) + [self._vehicle_words(me, ve) for ve in vehicles])
            r = CampaignReplies()
            how = "chosen for you (leaders first, then the dearest men who fit)" if me.pick is None else "yours"
            r.ephemeral.append(f"Your force for the next scenario, {how}: {names} — {cost} of {limit} VP.")
            r.public.append(f"{caller.name} has chosen a force for the next scenario.")
            return st, [_entry("pick", caller.user_id, f"{caller.name} chose a force.")], r
        return await self._change(ref, change)

    async def enlist(self, caller: Caller, ref: int | Where | None, soldier: str | int | None = None, *,
                     player: str | int | None = None) -> CampaignReplies:
        """A recruit from the depot joins a roster: a player fills his own open places, the
        organiser may send men to anyone."""
        def change(loaded: _Loaded):
            organiser = self._organiser(caller, loaded)
            if player is not None and not organiser:
                raise NotYours("Only the organiser enlists men for another player.")
            uid = self._player_id(loaded, player) if player is not None else caller.user_id
            serial = None if soldier in (None, "") else self._serial_or_depot(soldier)
            st, line = enlist(loaded.state, self.catalog, uid, serial, self._date(), organiser=organiser)
            r = CampaignReplies()
            r.public.append(line)
            return st, [_entry("enlisted", caller.user_id, line, player=uid)], r
        return await self._change(ref, change)

    def _vehicle_words(self, p, ve: VehicleEntry) -> str:
        """`Cobra King (601): commander Calloway (151), gunner ...; AP 6, HE 4`."""
        e = plate_entry(p, self.catalog, ve)
        crew = ", ".join(f"{post.replace('_', ' ')} {self.catalog.soldiers[n].name} ({n})"
                         for post, n in ve.crew.items())
        rounds = ", ".join(f"{a} {n}" for a, n in ve.ammo.items())
        return f"{e.name} ({e.serial}): {crew}" + (f"; {rounds}" if rounds else "")

    async def crews(self, caller: Caller, ref: int | Where | None, rule: str) -> CampaignReplies:
        """The organiser's short-crews rule: who fills a vehicle's empty driver's or gunner's
        seat (stay_home, cross_trained, untrained)."""
        def change(loaded: _Loaded):
            self._need_organiser(caller, loaded, "set the short-crews rule")
            st, line = set_short_crews(loaded.state, loaded.cdef, rule)
            r = CampaignReplies()
            r.public.append(line)
            return st, [_entry("crews", caller.user_id, line, rule=st_rule(st, loaded.cdef))], r
        return await self._change(ref, change)

    def _serial_or_depot(self, soldier: str | int) -> int:
        word = str(soldier).strip()
        if NUMBER.fullmatch(word):  # ASCII digits only, as at the command edge
            return int(word)
        serial = self.catalog.soldiers_by_name.get(word.lower())
        if serial is None:
            raise Refused(f"There is no soldier called {word!r}.")
        return serial

    async def choose(self, caller: Caller, ref: int | Where | None, option: str) -> CampaignReplies:
        """The winners pick the branch the campaign takes."""
        def change(loaded: _Loaded):
            st, line = choose_branch(loaded.state, loaded.cdef, caller.user_id, option.strip(),
                                     organiser=self._organiser(caller, loaded))
            r = CampaignReplies()
            r.public.append(f"{caller.name} chooses: {line}")
            return st, [_entry("chose", caller.user_id, line, step=option.strip())], r
        return await self._change(ref, change)

    async def award(self, caller: Caller, ref: int | Where | None, soldier: str | int, award_id: str,
                    citation: str) -> CampaignReplies:
        """The organiser pins a medal or badge on a soldier, with a citation; the limits hold."""
        if not citation or not citation.strip():
            raise Refused("An award needs a citation: what did he do?")

        def change(loaded: _Loaded):
            self._need_organiser(caller, loaded, "award medals and badges")
            st = loaded.state.model_copy(deep=True)
            e = st.entry(self._serial(loaded, soldier))
            line = award(e, award_id, date=self._date(), citation=citation.strip(), by="organiser")
            r = CampaignReplies()
            r.public.append(line)
            return st, [_entry("award", caller.user_id, line, serial=e.serial, award=award_id)], r
        return await self._change(ref, change, finished_ok=True)

    async def promote(self, caller: Caller, ref: int | Where | None, soldier: str | int, citation: str
                      ) -> CampaignReplies:
        """The organiser promotes a leader one rank (new rank cards, new VP cost)."""
        def change(loaded: _Loaded):
            self._need_organiser(caller, loaded, "promote soldiers")
            st = loaded.state.model_copy(deep=True)
            e = st.entry(self._serial(loaded, soldier))
            line = promote(e, self.catalog, date=self._date(), why=citation.strip() or "by the organiser")
            owner = st.owner_of(e.serial)
            owner.pick = None  # his cost changed: the player picks again
            r = CampaignReplies()
            r.public.append(line)
            return st, [_entry("promote", caller.user_id, line, serial=e.serial)], r
        return await self._change(ref, change)

    async def mark(self, caller: Caller, ref: int | Where | None, soldier: str | int, status: str,
                   note: str) -> CampaignReplies:
        """The organiser corrects a man's status (treated, exchanged, missing, found)."""
        def change(loaded: _Loaded):
            self._need_organiser(caller, loaded, "change a soldier's status")
            st, line = mark(loaded.state, self._serial(loaded, soldier), status, note.strip() or "by the organiser",
                            self._date())
            r = CampaignReplies()
            r.public.append(line)
            return st, [_entry("mark", caller.user_id, line, status=status)], r
        return await self._change(ref, change)

    # ================================================================== scenarios and results

    async def prepare(self, caller: Caller, ref: int | Where | None) -> tuple[CampaignReplies, Prepared]:
        """The organiser sets the next scenario up: enlisting closes, the depot fills open
        places, and each player's force comes from his roster (his pick, or one chosen for him)."""
        prepared: list[Prepared] = []

        def change(loaded: _Loaded):
            self._need_organiser(caller, loaded, "start the next scenario")
            st = begin(loaded.state)
            st, lines = fill_open_places(st, self.catalog, self._date())
            seats = seat_specs(st, loaded.cdef, self.catalog)
            step = next_step(st, loaded.cdef)
            prepared.append(Prepared(campaign_id=loaded.id, step=step.id, scenario=step.scenario,
                                     users=tuple(u for u, _ in seats), seats=tuple(s for _, s in seats)))
            sc = self.catalog.scenario(step.scenario)
            r = CampaignReplies()
            r.public += lines
            r.public.append(f"**Scenario {st.number + 1} of campaign #{loaded.id}: {step.title or sc.name}** "
                            f"({sc.name}). " + "; ".join(
                                f"{s.name} ({s.side.value}, {plural(len(s.force), 'man', 'men')}"
                                + "".join(f", {plate_entry(st.player(u), self.catalog, ve).name}"
                                          for ve in s.vehicles) + ")" for u, s in seats) + ".")
            entries = [_entry("enlisted", caller.user_id, line) for line in lines]
            entries.append(_entry("prepared", caller.user_id, f"Scenario {st.number + 1} set up: {sc.name}.",
                                  step=step.id))
            return st, entries, r
        r = await self._change(ref, change)
        return r, prepared[-1]

    async def submit_game(self, caller: Caller, ref: int | Where | None, state: GameState, users: list[int], *,
                          game_id: int | None = None) -> CampaignReplies:
        """Record a finished game of the next step as a result waiting for the organiser's
        review; `users[i]` plays seat i. The same game is never recorded twice."""
        cid = await self.resolve(ref)
        loaded = await self._load(cid)
        try:  # the key is the final state's digest: the same game has it however it comes back
            result = result_from_game(loaded.state, loaded.cdef, state, users)
        except CampaignError as exc:
            raise Refused(str(exc)) from None
        return await self.submit_result(caller, cid, result, game_id=game_id)

    async def submit_result(self, caller: Caller, ref: int | Where | None, result: ScenarioResult, *,
                            game_id: int | None = None) -> CampaignReplies:
        cid = await self.resolve(ref)
        waiting = [r for r in await self.store.campaign_results(cid) if r.status == ResultStatus.PENDING]
        if waiting and waiting[-1].key != result.key:
            raise Refused(f"Result #{waiting[-1].number} waits for the organiser's review; confirm or reject it "
                          "before recording another.")

        def change(loaded: _Loaded):
            if not (loaded.state.has_player(caller.user_id) or self._organiser(caller, loaded)):
                raise NotYours("Only the campaign's players and organiser record its results.")
            check_result(loaded.state, result)
            sc = self.catalog.scenario(result.scenario)
            r = CampaignReplies()
            winner = result.winner.value if result.winner else None
            r.public.append(f"Result #{{number}} of campaign #{loaded.id}: {sc.name} — "
                            + (f"{winner} wins" if winner else "a draw") + f" ({result.reason}). "
                            "The organiser reviews it (`/campaign review`) and confirms it.")
            new = NewResult(key=result.key, step=result.step, scenario_id=result.scenario,
                            body=result.model_dump_json(), game_id=game_id, submitted_by=caller.user_id)
            entry = _entry("result", caller.user_id, f"A result of {sc.name} was recorded.", key=result.key)
            return loaded.state, [entry], r, {"new_result": new}
        return await self._change(cid, change)

    async def _result(self, cid: int, number: int | None, status: ResultStatus) -> StoredResult:
        if number is not None:
            try:
                return await self.store.load_result(cid, number)
            except ResultNotFound:
                raise Refused(f"Campaign #{cid} has no result #{number}.") from None
        found = [r for r in await self.store.campaign_results(cid) if r.status == status]
        if not found:
            raise Refused(f"Campaign #{cid} has no {status.value} result.")
        return found[-1]

    async def review(self, caller: Caller, ref: int | Where | None, number: int | None = None
                     ) -> CampaignReplies:
        """What confirming a pending result would do to the rosters, line by line."""
        cid = await self.resolve(ref)
        loaded = await self._load(cid)
        stored = await self._result(cid, number, ResultStatus.PENDING)
        result = ScenarioResult.model_validate_json(stored.body)
        r = CampaignReplies(campaign_id=cid, version=loaded.stored.version, channel_id=loaded.stored.channel_id)
        head = f"Result #{stored.number} ({stored.status.value}): {self.catalog.scenario(result.scenario).name}."
        if stored.status != ResultStatus.PENDING:
            applied = next((h for h in loaded.state.history if h.key == stored.key), None)
            r.ephemeral.append("\n".join([head, *(applied.lines if applied else [])]))
            return r
        try:
            _, lines = apply_result(loaded.state, loaded.cdef, self.catalog, result, self._date())
        except CampaignError as exc:
            r.ephemeral.append(f"{head} It cannot be applied: {exc} Reject it (`/campaign reject`).")
            return r
        r.ephemeral.append("\n".join([head, "Confirming it would do this:", *(f"- {x}" for x in lines),
                                      "`/campaign confirm` applies it; `/campaign reject` throws it out."]))
        return r

    async def confirm(self, caller: Caller, ref: int | Where | None, number: int | None = None
                      ) -> CampaignReplies:
        """The organiser applies a pending result to the rosters, in one transaction."""
        cid = await self.resolve(ref)
        stored = await self._result(cid, number, ResultStatus.PENDING)
        result = ScenarioResult.model_validate_json(stored.body)

        def change(loaded: _Loaded):
            self._need_organiser(caller, loaded, "confirm results")
            st, lines = apply_result(loaded.state, loaded.cdef, self.catalog, result, self._date())
            r = CampaignReplies()
            r.public.append(f"**Result #{stored.number} confirmed.**\n" + "\n".join(lines))
            change = ResultChange(number=stored.number, expected=ResultStatus.PENDING,
                                  status=ResultStatus.CONFIRMED, before=loaded.stored.state,
                                  decided_by=caller.user_id)
            entry = _entry("confirmed", caller.user_id, f"Result #{stored.number} confirmed.",
                           number=stored.number, applied=st.number)
            return st, [entry], r, {"change": change}
        return await self._change(cid, change)

    async def revert(self, caller: Caller, ref: int | Where | None, number: int | None = None
                     ) -> CampaignReplies:
        """The organiser takes back the last confirmed result: the campaign returns exactly to
        what it was before it (undoing whatever was done since), and the result waits again."""
        cid = await self.resolve(ref)
        stored = await self._result(cid, number, ResultStatus.CONFIRMED)

        def change(loaded: _Loaded):
            self._need_organiser(caller, loaded, "revert results")
            if stored.status != ResultStatus.CONFIRMED:
                raise Refused(f"Result #{stored.number} is {stored.status.value}; only a confirmed result "
                              "is reverted.")
            history = loaded.state.history
            if not history or history[-1].key != stored.key:
                later = next((h.number for h in history if h.key == stored.key), None)
                raise Refused(f"Result #{stored.number} is not the last one applied; revert the later results "
                              "first." if later else f"Result #{stored.number} is not applied.")
            before = CampaignState.model_validate_json(stored.before)
            r = CampaignReplies()
            r.public.append(f"**Result #{stored.number} reverted**: the campaign is as it was before it, and "
                            "the result waits for review again.")
            change = ResultChange(number=stored.number, expected=ResultStatus.CONFIRMED,
                                  status=ResultStatus.PENDING, decided_by=caller.user_id)
            entry = _entry("reverted", caller.user_id, f"Result #{stored.number} reverted.", number=stored.number)
            return before, [entry], r, {"change": change}
        r = await self._change(cid, change, finished_ok=True)
        undone = await self._since_confirmed(cid, stored.number)
        if undone:
            r.public.append("Undone with it: " + "; ".join(undone) + ".")
        return r

    async def _since_confirmed(self, cid: int, number: int) -> list[str]:
        """The log's changes between the result's confirmation and its revert."""
        entries = [json.loads(e.body) for e in await self.store.campaign_log(cid)]
        start = max((i for i, e in enumerate(entries) if e["type"] == "confirmed" and e.get("number") == number),
                    default=None)
        if start is None:
            return []
        return [e["text"] for e in entries[start + 1:-1] if e["type"] in ("award", "promote", "enlisted", "mark",
                                                                          "pick", "chose", "prepared", "crews")]

    async def reject(self, caller: Caller, ref: int | Where | None, number: int | None = None
                     ) -> CampaignReplies:
        """The organiser throws a pending result out; the same result cannot come back."""
        cid = await self.resolve(ref)
        stored = await self._result(cid, number, ResultStatus.PENDING)

        def change(loaded: _Loaded):
            self._need_organiser(caller, loaded, "reject results")
            r = CampaignReplies()
            r.public.append(f"Result #{stored.number} is rejected; the rosters are unchanged.")
            change = ResultChange(number=stored.number, expected=ResultStatus.PENDING,
                                  status=ResultStatus.REJECTED, decided_by=caller.user_id)
            return loaded.state, [_entry("rejected", caller.user_id, f"Result #{stored.number} rejected.",
                                         number=stored.number)], r, {"change": change}
        return await self._change(cid, change, finished_ok=True)

    # ================================================================== reading

    async def roster(self, caller: Caller, ref: int | Where | None, player: str | int | None = None, *,
                     public: bool = False) -> CampaignReplies:
        """A player's roster: his own privately with VP; anyone's (or his own `public`) without."""
        cid = await self.resolve(ref)
        loaded = await self._load(cid)
        uid = self._player_id(loaded, player) if player is not None else caller.user_id
        if not loaded.state.has_player(uid):
            raise Refused("You have not joined this campaign; name a player to see his roster.")
        private = uid == caller.user_id and not public
        view = roster_view(loaded.state, self.catalog, uid, private=private)
        text = roster_text(view)
        r = CampaignReplies(campaign_id=cid, version=loaded.stored.version, channel_id=loaded.stored.channel_id)
        (r.public if public else r.ephemeral).append(text)
        return r

    async def soldier(self, caller: Caller, ref: int | Where | None, soldier: str | int, *,
                      public: bool = False) -> CampaignReplies:
        """A soldier's service record, as text and a card; his VP only for his own player."""
        cid = await self.resolve(ref)
        loaded = await self._load(cid)
        serial = self._serial(loaded, soldier)
        owner = loaded.state.owner_of(serial)
        if owner is None:
            raise Refused(f"No roster in this campaign has dog tag {serial}.")
        private = owner.user_id == caller.user_id and not public
        rec = service_record(loaded.state, self.catalog, serial, private=private)
        r = CampaignReplies(campaign_id=cid, version=loaded.stored.version, channel_id=loaded.stored.channel_id)
        image = CampaignImage("service_record", rec, caption=f"{rec.rank_title} {rec.name} ({rec.serial})")
        if public:
            r.public.append(record_text(rec))
            r.images.append(image)
        else:
            r.ephemeral.append(record_text(rec))
            r.ephemeral_images.append(image)
        return r

    async def status(self, caller: Caller, ref: int | Where | None) -> CampaignReplies:
        """Where the campaign stands: the next scenario, its budget, who has picked, what waits."""
        cid = await self.resolve(ref)
        loaded = await self._load(cid)
        st, cdef = loaded.state, loaded.cdef
        lines = [f"**Campaign #{cid}: {st.name}** — {next_words(st, cdef, self.catalog)}"]
        if st.step is not None and st.status != "finished":
            step = cdef.step(st.step)
            rules = []
            if step.eligible.max_soldiers:
                rules.append(f"at most {step.eligible.max_soldiers} men a player")
            if step.eligible.min_served:
                rules.append(f"men who have fought {step.eligible.min_served}+ scenarios")
            if len(step.eligible.ranks) < 3:
                rules.append("ranks " + ", ".join(r.value for r in step.eligible.ranks))
            sc = step_scenario(self.catalog, step)
            for p in st.players:
                fit = sum(1 for e in p.roster if e.kind != Kind.VEHICLE and eligible(e, step) is None)
                going = [e.name for e in p.roster if e.kind == Kind.VEHICLE
                         and vehicle_eligible(e, step, sc, self.catalog) is None]
                limit = player_budget(st, cdef, self.catalog, p) if len(st.players) >= 2 else None
                lines.append(f"- {p.name} ({p.side.value}): {fit} men fit to fight"
                             + (f", vehicles that may go: {', '.join(going)}" if going else "")
                             + (f", {limit} VP a player" if limit else "")
                             + (", force chosen" if p.pick is not None else ", force not chosen yet")
                             + (f", {plural(p.open_places, 'open place')}" if p.open_places else "") + ".")
            if rules:
                lines.append("This step takes " + "; ".join(rules) + ".")
            if any(e.kind == Kind.VEHICLE for p in st.players for e in p.roster):
                required = [side for side in ("US", "DE") if step.vehicle_rule(side) == "required"]
                lines.append(f"Short crews: {SHORT_CREW_WORDS[st_rule(st, cdef)]}."
                             + (f" This step requires the {' and '.join(required)} vehicles." if required else ""))
        pending = [r for r in await self.store.campaign_results(cid) if r.status == ResultStatus.PENDING]
        for res in pending:
            lines.append(f"Result #{res.number} ({self.catalog.scenario(res.scenario_id).name}) waits for the "
                         "organiser's review.")
        r = CampaignReplies(campaign_id=cid, version=loaded.stored.version, channel_id=loaded.stored.channel_id)
        r.public.append("\n".join(lines))
        return r

    async def standings(self, caller: Caller, ref: int | Where | None) -> CampaignReplies:
        cid = await self.resolve(ref)
        loaded = await self._load(cid)
        view = standings(loaded.state, self.catalog)
        r = CampaignReplies(campaign_id=cid, version=loaded.stored.version, channel_id=loaded.stored.channel_id)
        r.public.append(standings_text(view))
        if view.scenarios:
            r.images.append(CampaignImage("standings", view, caption=f"Standings: {view.campaign}"))
        return r

    async def history(self, caller: Caller, ref: int | Where | None) -> CampaignReplies:
        """Every result (confirmed, waiting, rejected) and the organiser's acts, in order."""
        cid = await self.resolve(ref)
        loaded = await self._load(cid)
        lines = [f"**History of campaign #{cid}: {loaded.state.name}**"]
        for e in await self.store.campaign_log(cid):
            body = json.loads(e.body)
            lines.append(f"{when(e.created_at)} · {body['text']}")
        for rec in loaded.state.history:
            lines.append(f"Scenario {rec.number}: {rec.lines[0]} "
                         + ", ".join(f"{p.name} {rec.vp.get(p.user_id, 0)} VP" for p in loaded.state.players))
        r = CampaignReplies(campaign_id=cid, version=loaded.stored.version, channel_id=loaded.stored.channel_id)
        r.public.append("\n".join(lines))
        return r

    # ================================================================== export and import

    async def export(self, caller: Caller, ref: int | Where | None) -> CampaignReplies:
        """The organiser gets the whole campaign as JSON (it re-imports) and the rosters as CSV;
        a player gets his own roster as CSV."""
        cid = await self.resolve(ref)
        loaded = await self._load(cid)
        r = CampaignReplies(campaign_id=cid, version=loaded.stored.version, channel_id=loaded.stored.channel_id)
        slug = f"campaign-{cid}"
        if self._organiser(caller, loaded):
            text = await self.export_json(cid)
            r.files.append(Attachment(f"{slug}.json", text.encode()))
            r.files.append(Attachment(f"{slug}.csv", roster_csv(loaded.state, self.catalog).encode()))
            r.ephemeral.append(f"Campaign #{cid} exported: the JSON re-imports with `/campaign import`.")
            return r
        me = loaded.state.player(caller.user_id) if loaded.state.has_player(caller.user_id) else None
        if me is None:
            raise NotYours("Only the organiser exports a campaign; a player exports his own roster.")
        r.files.append(Attachment(f"{slug}-{me.name.lower()}.csv",
                                  roster_csv(loaded.state, self.catalog, only=me.user_id).encode()))
        r.ephemeral.append("Your roster, as CSV.")
        return r

    async def export_json(self, cid: int) -> str:
        loaded = await self._load(cid)
        results = [{"number": x.number, "key": x.key, "step": x.step, "scenario_id": x.scenario_id,
                    "game_id": x.game_id, "status": x.status.value, "body": json.loads(x.body),
                    "before": json.loads(x.before) if x.before else None, "submitted_by": x.submitted_by,
                    "decided_by": x.decided_by, "created_at": x.created_at.isoformat(),
                    "decided_at": x.decided_at.isoformat() if x.decided_at else None}
                   for x in await self.store.campaign_results(cid)]
        doc = _Export(format=EXPORT_FORMAT, version=EXPORT_VERSION, definition=loaded.state.definition,
                      name=loaded.stored.name, guild_id=loaded.stored.guild_id,
                      channel_id=loaded.stored.channel_id, organiser_id=loaded.stored.organiser_id,
                      state=loaded.state, results=results,
                      log=[json.loads(e.body) for e in await self.store.campaign_log(cid)])
        return doc.model_dump_json(indent=1)

    async def import_json(self, caller: Caller, where: Where, text: str) -> CampaignReplies:
        """A new campaign from an export: the same rosters, results and log, organised by the caller."""
        try:
            doc = _Export.model_validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            where_ = ".".join(str(p) for p in first["loc"]) or "(document)"
            raise Refused(f"That is not a Fieldpost campaign export: {where_}: {first['msg']}.") from None
        if doc.version != EXPORT_VERSION:
            raise Refused(f"That export is version {doc.version}; this Fieldpost reads version {EXPORT_VERSION}.")
        if doc.definition not in self.definitions:
            raise Refused(f"That campaign follows {doc.definition!r}, which this Fieldpost does not have.")
        try:
            results = [StoredResult(
                campaign_id=0, number=x["number"], key=x["key"], step=x["step"], scenario_id=x["scenario_id"],
                game_id=x.get("game_id"), status=ResultStatus(x["status"]),
                body=ScenarioResult.model_validate(x["body"]).model_dump_json(),
                before=CampaignState.model_validate(x["before"]).model_dump_json() if x.get("before") else None,
                submitted_by=x.get("submitted_by"), decided_by=x.get("decided_by"),
                created_at=datetime.fromisoformat(x["created_at"]),
                decided_at=datetime.fromisoformat(x["decided_at"]) if x.get("decided_at") else None)
                for x in doc.results]
        except (KeyError, ValueError, ValidationError) as exc:
            raise Refused(f"That export's results do not read: {exc}") from None
        channel = where.thread_id or where.channel_id
        stored = await self.store.create_campaign(
            guild_id=where.guild_id or doc.guild_id, channel_id=channel if channel is not None else doc.channel_id,
            definition_id=doc.definition, name=doc.name, organiser_id=doc.organiser_id,
            state=doc.state.model_dump_json(), status=CampaignStatus(doc.state.status),
            log=[json.dumps(e, ensure_ascii=False) for e in doc.log], results=results)
        r = CampaignReplies(campaign_id=stored.id, version=stored.version, channel_id=stored.channel_id)
        r.public.append(f"Campaign {doc.name} imported as #{stored.id} by {caller.name}: "
                        f"{len(doc.state.players)} players, {plural(doc.state.number, 'scenario')} played.")
        return r


# ====================================================================== text


def roster_text(view: RosterView) -> str:
    head = f"**{view.player}'s roster** ({view.side}, {view.campaign}): strength {view.strength}"
    if view.open_places:
        head += f", {view.open_places} open place{'s' if view.open_places > 1 else ''}"
    if view.player_vp is not None:
        head += f"; {view.player_vp} VP so far"
    lines = [head + "."]
    for x in view.lines:
        bits = [f"`{x.serial}` {x.rank_title} {x.name}", x.status]
        if x.training:
            bits.append(x.training + (f" ({x.vehicle})" if x.vehicle else ""))
        if x.crew:
            bits.append(f"crew: {x.crew}")
        if x.damage:
            bits.append(f"repairing {x.damage}")
        honours = []
        if x.medals:
            honours.append(plural(x.medals, "medal"))
        if x.badges:
            honours.append("badge")
        if x.honours > x.medals + x.badges:
            honours.append(f"{x.honours - x.medals - x.badges} at an earlier rank")
        if honours:
            bits.append(", ".join(honours))
        scores = [plural(x.kills, "kill")] + ([] if x.kind == "vehicle" else [plural(x.captures, "prisoner")])
        if x.knocked_out:
            scores.append(plural(x.knocked_out, "vehicle") + " knocked out")
        bits.append(", ".join([*scores, plural(x.scenarios, "scenario")]))
        if isinstance(x, PrivateRosterLine):
            bits.append(f"{x.vp} VP" if x.vp is not None else "")
            if x.vp_earned:
                bits.append(f"earned {x.vp_earned} VP")
        lines.append(" · ".join(b for b in bits if b))
    return "\n".join(lines)


def record_text(rec: ServiceRecord) -> str:
    lines = [f"**{rec.rank_title} {rec.name}** ({rec.serial}, {rec.side}), {rec.player}'s roster — {rec.status}.",
             f"{rec.weapon}" + (f"; {rec.training}" if rec.training else "")
             + f". {plural(rec.kills, 'kill')}, "
             + (f"{plural(rec.knocked_out, 'vehicle')} knocked out, " if rec.knocked_out else "")
             + ("" if rec.kind == "vehicle" else f"{plural(rec.captures, 'prisoner')}, {plural(rec.wounds, 'wound')}, ")
             + f"{plural(len(rec.scenarios), 'scenario')}"
             + (f" ({', '.join(rec.scenarios)})" if rec.scenarios else "") + "."]
    if rec.crew:
        lines.append(("Crew: " if rec.kind == "vehicle" else "") + "; ".join(rec.crew) + ".")
    if rec.vp is not None:
        lines.append(f"{rec.vp} VP at his rank; earned {rec.vp_earned} VP (only you see this).")
    for h in rec.honours:
        lines.append(f"- {h.name} ({h.category}, as {h.rank_title}): {h.citation}"
                     + (f" — {h.scenario}" if h.scenario else ""))
    if rec.medals_in_play:
        lines.append(f"{plural(rec.medals_in_play, 'medal card')} in his deck.")
    lines += rec.notable[-8:]
    return "\n".join(lines)


def standings_text(view: Standings) -> str:
    if not view.scenarios:
        return f"**{view.campaign}**: no scenario has been played yet."
    lines = [f"**Standings: {view.campaign}**" + (" (final)" if view.finished else "")]
    for p in sorted(view.players, key=lambda p: -p.total):
        per = "; ".join(f"{label}: {v}" for label, v in zip(view.scenarios, p.vp, strict=False))
        lines.append(f"{p.name} ({p.side}): {p.total} VP" + (f" ({per})" if len(view.scenarios) > 1 else "") + ".")
    lines.append("Sides: " + ", ".join(f"{s} {sum(v)} VP" for s, v in view.sides.items()))
    return "\n".join(lines)


def roster_csv(st: CampaignState, cat: Catalog, only: int | None = None) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for p in st.players:
        if only is not None and p.user_id != only:
            continue
        for e in p.roster:
            vehicle = e.kind == Kind.VEHICLE
            d = None if vehicle else cat.soldiers.get(e.serial)
            rank = d.profile(e.rank).title if d and e.rank else (e.vehicle or "")
            w.writerow([p.name, p.side.value, e.serial, e.name, e.kind.value, rank, STATUS_WORDS[e.status],
                        "; ".join(h.name for h in e.honours if h.category == "medal"),
                        "; ".join(h.name for h in e.honours if h.category == "badge"),
                        e.kills, e.captures, len(e.served), e.wounds,
                        d.profile(e.rank).vp if d and e.rank else (cat.vehicles[e.vehicle].vp if vehicle else ""),
                        e.vp_earned, e.joined,
                        f"{e.training.role.value} on {e.training.vehicle}" if e.training else "",
                        " ".join(str(n) for n in e.crew), e.knocked_out,
                        "; ".join(f"{loc}: {' '.join(m)}" for loc, m in e.damage.items())])
    return out.getvalue()


__all__ = ["AWARDS", "Attachment", "CampaignImage", "CampaignReplies", "CampaignService", "NoCampaign",
           "Prepared", "record_text", "roster_csv", "roster_text", "standings_text"]
