"""`GameService`: every use-case a front end may call, each one store transaction.

    service = GameService(store, load_catalog())
    r = await service.new_game(Caller(1, "Ann"), Where(channel_id=10), "hedgerow-dawn", side="US")
    await service.join(Caller(2, "Bo"), Where(channel_id=10), "DE")
    await service.start(Caller(1, "Ann"), Where(channel_id=10))
    await service.command(Caller(1, "Ann"), Where(channel_id=10), "plan 101-C1 104-C2 -")

A command loads the game under its per-game lock, asks the engine, and commits the new state
with its events and the version check; a writer that lost the race (another process) reloads
and tries again, and a press on an old button is refused as out of date. The engine is the
only thing that changes a game. Nothing here knows Discord: users are ints.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from operator import eq, itemgetter

from bot.app import battlefield_words, eventlog, prompts, suggest, vehicle_words
from bot.app.clocks import Clocks
from bot.app.deadlines import (
    DEFAULT_HOURS,
    OPEN,
    DeadlineKey,
    Hours,
    expiries,
    expiry_in,
    expiry_of,
    plan,
    unchanged,
    window_hours,
)
from bot.app.documents import (
    Lobby,
    LobbyDoc,
    LobbySeat,
    StateCodec,
    force_text,
    parse_barrages,
    parse_force,
    parse_minefields,
    parse_ordnance,
    purchases_text,
)
from bot.app.errors import AlreadyDone, NoGame, NotYours, OutOfDate, Refused
from bot.app.help import Learning
from bot.app.records import Records
from bot.app.replies import (
    Caller,
    ImageRequest,
    Private,
    Prompt,
    Replies,
    Waiting,
    Where,
    make_prompt,
    make_waiting,
    slot_maker,
)
from bot.app.seating import Seating
from bot.app.seen import Looking
from bot.app.stats import Statistics, results_of
from bot.app.tokens import span, when
from bot.app.watching import Watching
from bot.store import (
    Awaited,
    Deadline,
    GameLocks,
    GameNotFound,
    GameStatus,
    GameStore,
    GameSummary,
    Seat,
    SeatDecision,
    Seen,
    SeenMark,
    SnapshotNotFound,
    StoredGame,
    StoreUnavailable,
    VersionConflict,
)
from engine import (
    Catalog,
    GameState,
    RuleError,
    SeatSpec,
    View,
    apply,
    awaiting,
    legal_commands,
    new_game,
    view,
)
from engine.advanced.hidden_deployment import (
    public_text,  # waiting lines are public: no hidden man's name or card
)
from engine.battlefield.artillery import seat_purchases
from engine.battlefield.mines import seat_fields
from engine.core.commands import Cmd, Plan, SeatName, text_problem
from engine.core.views import Await
from engine.legal import answerable, default_for
from engine.script import parse_line
from engine.turn.setup import budget, check_force, preset_share
from engine.undo import undoable

log = logging.getLogger(__name__)

RETRIES = 3  # a lobby change against another process's commit
PLAY_RETRIES = 12  # a command against other processes' commits, with jittered back-off between
BACKOFF_S = 0.2  # the longest wait between two of those tries
MAX_SEATS = 4
LEASE = timedelta(minutes=5)  # a claimed deadline is left to its claimer this long (then retried)
REPEAT = timedelta(seconds=5)  # the same typed command sent twice within this is one command
# Memory (docs/app.md, "Memory"): the games used last keep their parsed state, every cached game
# its stored text; at most IN_FLIGHT commands hold a loaded and a new state at once. 64, not
# 32: with 32 the loop sat idle whenever all 32 waited for the writer's batch (12% of a busy
# process's time); 128, not 64, since stop 46: the loop readies a second batch while the writer
# commits one (+4.6% commands/s, the median of 18 interleaved pairs), for 5 MB of the RSS
# target's 150 (docs/app.md, "Memory").
PARSED_SIZE = 512
IN_FLIGHT = 128
# After a restart, prompts go out at this rate, all processes on the database together: Discord
# allows a bot 50 requests a second, and each game re-prompted also posts its waiting line.
RESUME_RATE = 20.0
RESUME_BATCH = 20  # games claimed at a time: a process that dies leaves at most these unasked
TICK_GAMES = 16  # games whose due deadlines one tick carries out at once (each game's in order)


@dataclass
class Counters:
    """What the front end counts of the service's work (bot/metrics.py in the bot), as plain
    callables so bot/app imports nothing of prometheus; by default nothing is counted."""

    deadline_fired: Callable[[str], None] = lambda kind: None  # "reminder" or "default"
    conflict: Callable[[], None] = lambda: None  # a commit lost its version check
    retry: Callable[[], None] = lambda: None  # a use-case runs again after a lost check


def _utc_now() -> datetime:
    return datetime.now(UTC)


DIGEST_HOURS = 12.0  # a prompt after a longer gap since the player last looked starts with a digest


@dataclass(frozen=True, slots=True)
class Away:
    """What a game's clocks and prompts need to know of its players: who is away until when
    (their `away_until` settings), whether an away player's clock waits (`stretch`) or his
    defaults apply (the game's `away` setting), and after how long without a look a prompt
    starts with a digest (the game's `digest_hours`)."""

    until: Mapping[int, datetime] = field(default_factory=dict)
    stretch: bool = True
    digest: timedelta = timedelta(hours=DIGEST_HOURS)


@dataclass(slots=True)
class _Cached:
    """A game at one version: its parsed state while it is one of the games used last
    (GameService `parsed_size`; docs/app.md), its stored text otherwise, and beside a parsed
    state that was never written (read from the store); a state this process wrote keeps the
    pieces of its text, which make it again when the state is dropped (`StateCodec.dumps_kept`).
    Never the source of truth (Avrae
    #1811): a command may start from it without reading the store, but its commit names this
    version, so if another process moved the game on the commit fails, the entry is dropped and
    the command reloads."""

    game: StoredGame  # without its state text
    text: str | None  # the stored state document; None while `state` holds its pieces
    state: GameState | None
    deadlines: list[Deadline | Awaited]
    hours: float
    decisions: dict[int, SeatDecision]
    away: Away
    seen: dict[int, SeenMark]
    awaited: list[Await] | None = None  # awaiting(state) of this very state object, if worked out
    cards: prompts.SeatCards | None = None  # prompts.cards_by_seat(state) likewise; read, never changed
    users: _Users | None = None  # `_Loaded.users()` of a game with these very seats; read, never changed


# `_Loaded.users()` with the seats tuple it was read from: a game's seats are a tuple of frozen
# Seats, which a commit hands on as the very same tuple (`moved_on`) until a seat changes hands
_Users = tuple[tuple[Seat, ...], dict[int, int]]


@dataclass(slots=True)
class _Loaded:
    game: StoredGame
    lobby: Lobby | None = None
    state: GameState | None = None
    deadlines: list[Deadline | Awaited] = field(default_factory=list)
    hours: float = DEFAULT_HOURS
    decisions: dict[int, SeatDecision] = field(default_factory=dict)  # by seat: last asked, last answered
    away: Away = field(default_factory=Away)
    seen: dict[int, SeenMark] = field(default_factory=dict)  # by user: how far he has read the log
    awaited: list[Await] | None = None  # awaiting(state), when the cache had it for this state object
    cards: prompts.SeatCards | None = None  # prompts.cards_by_seat(state) likewise
    known_users: _Users | None = None  # users() read before, with the seats it was read from

    @property
    def id(self) -> int:
        return self.game.id

    def seat_of(self, user_id: int) -> int | None:
        if user_id == OPEN:
            return None
        for s in self.game.seats:  # (a loop, not `next` of a generator: asked on every command)
            if s.user_id == user_id:
                return s.seat_index
        return None

    def users(self) -> dict[int, int]:
        """Seat -> its player (OPEN for an open seat); read, never changed. The answer of a
        command before when the game's seats are the very tuple it was read from (asked on every
        command: its seats are cold in memory)."""
        known, seats = self.known_users, self.game.seats
        if known is not None and known[0] is seats:
            return known[1]
        return {s.seat_index: s.user_id for s in seats}

    def players(self) -> dict[int, int]:
        """Seat -> its player, open seats left out: whom to tell and ask."""
        return {s.seat_index: s.user_id for s in self.game.seats if s.user_id != OPEN}


@dataclass(frozen=True, slots=True)
class _Answer:
    """A player's command as the seat's decision record keeps it: the decision it answered
    (None: it left his decisions open), its text, when it was sent (if the front end knows)."""

    seat: int
    decision: str | None
    command: str
    sent_at: datetime | None


_make_answer = slot_maker(_Answer)  # (seat, decision, command, sent_at)


@dataclass(slots=True)
class _Next:
    """What follows a change, worked out before it is committed: the deadlines, whom the game
    waits for, the prompts to send, each seat's decision record and the records that changed."""

    awaited: list[Awaited]
    waiting: list[Waiting]
    asks: list[Prompt]
    decisions: dict[int, SeatDecision]
    changed: list[SeatDecision]
    users: dict[int, int]  # seat -> its player (OPEN for an open seat), as `_Loaded.users` read it


class _InFlight(asyncio.Semaphore):
    """`asyncio.Semaphore` (3.11) entered without its `acquire` coroutine when a slot is free and
    nobody waits, and whose waking takes the woken waiter's future out of the queue at once.
    With many games live it is full (the throughput benchmark's 300 games hold it so), and
    Semaphore left each woken waiter's future queued until its task ran: every release walked
    past the futures of those woken before it, and `locked()` likewise. Here `_woken` counts
    those woken and not yet run instead. The same answers as Semaphore's, in the same order: a
    task arriving while a woken one has not run waits behind it, a waiter cancelled after being
    woken passes its slot on (tests/app/test_service_fast35.py compares them)."""

    _woken = 0

    def locked(self) -> bool:
        return self._value == 0 or bool(self._woken) or any(not w.cancelled() for w in (self._waiters or ()))

    async def __aenter__(self) -> None:
        if self._value > 0 and not self._waiters and not self._woken:
            self._value -= 1
            return
        await self.acquire()

    async def acquire(self) -> bool:
        if not self.locked():
            self._value -= 1
            return True
        if self._waiters is None:
            self._waiters = deque()
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.cancelled():  # cancelled while waiting: out of the queue, if a waking has not taken it
                if fut in self._waiters:
                    self._waiters.remove(fut)
            else:  # woken, then cancelled before it ran: the slot goes on
                self._woken -= 1
                self._value += 1
                self._wake_up_next()
            raise
        self._woken -= 1
        if self._value > 0:
            self._wake_up_next()
        return True

    def _wake_up_next(self) -> None:
        waiters = self._waiters
        while waiters:
            fut = waiters.popleft()
            if not fut.done():  # (a cancelled waiter's future is done: dropped)
                self._value -= 1
                self._woken += 1
                fut.set_result(True)
                return


class GameService(Seating, Clocks, Looking, Watching, Records, Statistics, Learning):
    """Every use-case; the organiser's seat changes, clocks, watchers, records, statistics and
    help texts are in the mixins beside this module (bot/app/seating.py, clocks.py, ...)."""

    def __init__(
        self,
        store: GameStore,
        catalog: Catalog,
        *,
        clock: Callable[[], datetime] = _utc_now,
        locks: GameLocks | None = None,
        seed: Callable[[], int] = lambda: secrets.randbits(32),
        cache_size: int = 2048,
        parsed_size: int = PARSED_SIZE,
        in_flight: int = IN_FLIGHT,
        counters: Counters | None = None,
    ) -> None:
        self.store = store
        self.counters = counters or Counters()
        self.catalog = catalog
        self.clock = clock
        self.locks = locks or GameLocks()
        self._seed = seed
        self._codec = StateCodec()
        self._cache: OrderedDict[int, _Cached] = OrderedDict()
        self._cache_size = cache_size
        self._parsed: OrderedDict[int, None] = OrderedDict()  # games whose entry holds a parsed state
        self._parsed_size = parsed_size
        self._in_flight = _InFlight(in_flight)  # commands between load and commit, all games
        # legal commands per (game, version, seat): autocomplete asks for them on every keystroke
        self._legal_cache: OrderedDict[tuple[int, int, int], list[Cmd]] = OrderedDict()
        self._jitter = random.Random()  # back-off between tries against other processes
        # set by the front end to record finished campaign games (bot.app.campaign.CampaignService)
        self.campaigns = None

    # ================================================================== finding a game

    async def resolve(self, caller: Caller, where: Where, *, finished_ok: bool = False) -> int:
        """The game a command is about: the one named, else the only unfinished game in the
        channel (or the private thread) it was given in, else — in a channel whose games have
        all ended — for reading (`finished_ok`) the latest of them, for playing a refusal that
        says it is over; else the caller's only unfinished game."""
        if where.game_id is not None:
            return where.game_id
        spot = where.thread_id or where.channel_id
        if spot is not None:
            here = await self.store.games_in_channel(spot)
            if len(here) == 1:
                return here[0].id
            if here:
                raise NoGame(self._several(here))
            owner = await self.store.get_setting(f"channel:{spot}", "game")  # a player's private thread
            if owner is not None:
                return int(owner)
            ended = await self.store.games_in_channel(spot, include_finished=True)
            if ended:
                if finished_ok:
                    return ended[-1].id
                raise NoGame(_over(ended[-1]) + " To play another game, name it with the game option.")
        mine = await self.my_games(caller)
        if len(mine) == 1:
            return mine[0].id
        if not mine:
            raise NoGame("There is no game here. Start one with /game new, or name one with the "
                         "game option.")
        raise NoGame(self._several(mine))

    @staticmethod
    def _several(games: list[GameSummary]) -> str:
        listed = ", ".join(f"#{g.id} ({g.scenario_id})" for g in games[:10])
        return f"Several games could be meant: {listed}. Name one with the game option."

    async def my_games(self, caller: Caller) -> list[GameSummary]:
        """Unfinished games the caller holds a seat in (lobbies included)."""
        return await self.store.games_of_user(caller.user_id)

    async def games_for(self, caller: Caller, where: Where) -> list[GameSummary]:
        """Games to offer in a `game` option: this channel's unfinished games, then the caller's."""
        seen: dict[int, GameSummary] = {}
        spot = where.thread_id or where.channel_id
        if spot is not None:
            for g in await self.store.games_in_channel(spot):
                seen[g.id] = g
        for g in await self.my_games(caller):
            seen.setdefault(g.id, g)
        return list(seen.values())

    # ================================================================== loading and caching

    async def _load(self, game_id: int, *, cached: bool = False) -> _Loaded:
        """The game as stored; with `cached`, the parsed game this process last committed, if
        any (the commit's version check catches a game changed elsewhere)."""
        if cached:
            ready = self._parsed_hit(game_id)
            if ready is not None:
                return ready
            hit = self._cache.get(game_id)
            if hit is not None:
                self._cache.move_to_end(game_id)
                return await self._from_cache(hit, hit.game)
        try:
            game = await self.store.load_game(game_id)
        except GameNotFound:
            raise NoGame(f"There is no game #{game_id}.") from None
        if game.state.startswith('{"lobby"'):
            return _Loaded(game, lobby=LobbyDoc.model_validate_json(game.state).lobby)
        # other tasks may have changed the cache while the store was read: look it up only now
        hit = self._cache.get(game_id)
        if hit is not None and hit.game.version == game.version:
            self._cache.move_to_end(game_id)
            return await self._from_cache(hit, game)
        state = await self._parse(game.state)
        deadlines: list[Deadline | Awaited] = list(await self.store.deadlines(game_id))
        decisions = {d.seat: d for d in await self.store.decisions(game_id)}
        game_settings = await self.store.settings(f"game:{game_id}")
        hours = Hours(float(game_settings.get("deadline_hours", DEFAULT_HOURS)),
                      game_settings.get("window_hours"))  # react/preempt clock
        away = await self._away(game, game_settings)
        seen = {m.user_id: m for m in await self.store.seen(game_id)}
        self._remember(game, state, game.state, deadlines, hours, decisions, away, seen)
        return _Loaded(game, state=state, deadlines=deadlines, hours=hours, decisions=decisions,
                       away=away, seen=seen)

    def _parsed_hit(self, game_id: int) -> _Loaded | None:
        """`_load(game_id, cached=True)`'s answer when the cache holds the game parsed (most
        commands), read without `_from_cache`'s coroutine; None otherwise."""
        hit = self._cache.get(game_id)
        if hit is None or hit.state is None:
            return None
        self._cache.move_to_end(game_id)
        self._used(game_id)
        state = hit.state
        return _Loaded(hit.game, state=state, deadlines=hit.deadlines, hours=hit.hours,
                       decisions=hit.decisions, away=hit.away, seen=hit.seen, awaited=hit.awaited, cards=hit.cards,
                       known_users=hit.users)

    async def _from_cache(self, hit: _Cached, game: StoredGame) -> _Loaded:
        """A cached game; kept as text only, it is parsed again and kept parsed while in use."""
        state = hit.state
        if state is None:
            state = await self._parse(hit.text)
            if self._cache.get(game.id) is not hit:  # replaced while the setup was read
                return _Loaded(game, state=state, deadlines=hit.deadlines, hours=hit.hours,
                               decisions=hit.decisions, away=hit.away, seen=hit.seen)
            hit.state = state
        self._used(game.id)
        return _Loaded(game, state=state, deadlines=hit.deadlines, hours=hit.hours,
                       decisions=hit.decisions, away=hit.away, seen=hit.seen,
                       awaited=hit.awaited if hit.state is state else None,
                       cards=hit.cards if hit.state is state else None)

    async def _away(self, game: StoredGame, game_settings: Mapping) -> Away:
        """Who of the game's players is away until when, and the game's rule for it."""
        until = {}
        for seat in game.seats:
            if seat.user_id == OPEN:
                continue
            text = await self.store.get_setting(f"user:{seat.user_id}", "away_until")
            if text:
                until[seat.user_id] = datetime.fromisoformat(text)
        return Away(until, game_settings.get("away", "stretch") != "defaults",
                    timedelta(hours=float(game_settings.get("digest_hours", DIGEST_HOURS))))

    async def _parse(self, text: str) -> GameState:
        ref, data = self._codec.split(text)
        setup = self._codec.known(ref)
        if setup is None:
            stored = await self.store.get_setting("setup", ref)
            if stored is None:
                raise Refused("This game's setup is missing from the database; it cannot be loaded.")
            setup = self._codec.learn(ref, stored)
        return self._codec.join(setup, data)

    async def _keep_setup(self, state: GameState) -> None:
        """Store a new game's setup once, before the first commit that names it."""
        ref = self._codec.digest(state.setup)
        if await self.store.get_setting("setup", ref) is None:
            await self.store.set_setting("setup", ref, json.loads(state.setup.model_dump_json()))

    async def load_state(self, game_id: int) -> GameState | None:
        """The game's current state (None in the lobby): for tools and tests, never for output."""
        loaded = await self._load(game_id)
        return loaded.state

    def _remember(self, game: StoredGame, state: GameState, text: str, deadlines: list, hours: float,
                  decisions: dict[int, SeatDecision], away: Away, seen: dict[int, SeenMark],
                  awaited: list[Await] | None = None, cards: prompts.SeatCards | None = None,
                  users: _Users | None = None) -> None:
        """Cache the game at its new version; `awaited`: `awaiting(state)`, `cards`:
        `prompts.cards_by_seat(state)`, if the caller has them (the next command needs them of
        the state it starts from); `users`: the game's seat -> player map with the seats tuple
        it was read from."""
        held = self._cache.get(game.id)
        if held is not None and held.game.version > game.version:
            return  # a read that started before this process's own later commit
        blank = game if game.state == "" else replace(game, state="")  # a commit's summary is blank already
        if state.text_kept():  # `text` is `dumps(state)` (or the stored text it was parsed from)
            text = None  # made again from the state's pieces if the state is dropped (`_used`)
        self._cache[game.id] = _Cached(blank, text, state, deadlines, hours, decisions, away, seen, awaited, cards,
                                       users)
        self._cache.move_to_end(game.id)
        self._used(game.id)
        while len(self._cache) > self._cache_size:
            gone, _ = self._cache.popitem(last=False)
            self._parsed.pop(gone, None)

    def _used(self, game_id: int) -> None:
        """The game's entry holds its parsed state as one of the last `parsed_size` games used;
        the entry of the game used longest ago keeps its text only."""
        self._parsed[game_id] = None
        self._parsed.move_to_end(game_id)
        while len(self._parsed) > self._parsed_size:
            stale, _ = self._parsed.popitem(last=False)
            entry = self._cache.get(stale)
            if entry is not None:
                if entry.text is None:
                    entry.text = self._codec.dumps_kept(entry.state)
                entry.state = entry.awaited = entry.cards = None  # what was worked out of the state goes with it

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)
        self._parsed.pop(game_id, None)

    async def _organiser(self, caller: Caller, game: GameSummary) -> bool:
        """The game's organiser (its creator, or whom it was handed to), someone who may manage
        the channel, or a member of the server's organiser role (`/settings organiser-role`)."""
        if caller.organiser or caller.user_id == game.organiser_id:
            return True
        if not caller.roles or not game.guild_id:
            return False
        role = await self.store.get_setting(f"guild:{game.guild_id}", "organiser_role")
        return role is not None and int(role) in caller.roles

    async def set_organiser_role(self, caller: Caller, where: Where, role_id: int | None) -> Replies:
        """A server's organiser role (None: none): its members organise every game of the
        server, beside each game's own organiser. For who may change the server's settings."""
        if not where.guild_id:
            raise Refused("The organiser role belongs to a server: set it in one of its channels.")
        if not caller.manages_server:
            raise NotYours("Only someone who may manage the server sets its organiser role.")
        scope = f"guild:{where.guild_id}"
        if await self.store.get_setting(scope, "organiser_role") == role_id:
            raise AlreadyDone("That is the server's organiser role already; nothing was changed.")
        if role_id is None:
            await self.store.delete_setting(scope, "organiser_role")
        else:
            await self.store.set_setting(scope, "organiser_role", role_id)
        r = Replies()
        r.ephemeral.append("This server has no organiser role now: each game's organiser and those who may "
                           "manage its channel run it." if role_id is None else
                           "Members of that role organise every game of this server now, beside each game's "
                           "own organiser and those who may manage its channel.")
        return r

    async def _need_organiser(self, caller: Caller, game: GameSummary, what: str) -> None:
        if not await self._organiser(caller, game):
            raise NotYours(f"Only the game's organiser (its creator, someone who may manage this channel, "
                           f"or the server's organiser role) can {what}.")

    # ================================================================== the lobby

    async def new_game(self, caller: Caller, where: Where, scenario: str, *, side: str | None = None,
                       deadline_hours: float | None = None, window_hours: float | None = None) -> Replies:
        """Open a game of `scenario` in the channel; the caller organises it (and joins `side`).
        `window_hours`: the clock of react / preempt windows (default: bot.app.deadlines)."""
        if where.channel_id is None:
            raise Refused("A game is played in a channel: start it there, not in a direct message.")
        sc = self.catalog.scenarios.get(scenario)
        if sc is None:
            raise Refused(f"There is no scenario {scenario!r}. Scenarios: "
                          + ", ".join(sorted(self.catalog.scenarios)) + ".")
        if deadline_hours is not None and not 0.05 <= deadline_hours <= 24 * 30:
            raise Refused("A deadline is between 3 minutes and 30 days (in hours, e.g. 24).")
        if window_hours is not None and not 0.05 <= window_hours <= 24 * 30:
            raise Refused("A react/preempt window is between 3 minutes and 30 days (in hours, e.g. 2).")
        sides = [s.id.value for s in sc.sides]
        lobby = Lobby(scenario=scenario, seed=self._seed())
        events = [eventlog.envelope("created", scenario=scenario, by=caller.user_id)]
        if side is not None:
            side = self._side(side, sides)
            lobby.seats.append(LobbySeat(user_id=caller.user_id, name=caller.name, side=side))
            events.append(eventlog.envelope("joined", user=caller.user_id, name=caller.name, side=side))
        game = await self.store.create_game(
            guild_id=where.guild_id, channel_id=where.channel_id, thread_id=where.thread_id,
            scenario_id=scenario, organiser_id=caller.user_id,
            state=LobbyDoc(lobby=lobby).model_dump_json(), seats=self._lobby_seats(lobby),
            events=events)
        if deadline_hours is not None:
            await self.store.set_setting(f"game:{game.id}", "deadline_hours", deadline_hours)
        if window_hours is not None:
            await self.store.set_setting(f"game:{game.id}", "window_hours", window_hours)
        log.info("game %d created (%s)", game.id, scenario)
        hours = deadline_hours or DEFAULT_HOURS
        r = Replies(game_id=game.id, version=game.version, channel_id=where.thread_id or where.channel_id)
        r.public.append(
            f"**New game #{game.id}: {sc.name}** ({sc.turns} turns, {' against '.join(sides)}), "
            f"organised by {caller.name}. Join a side with `/game join` or the buttons; "
            f"2–4 players, both sides. Each decision has {hours:g} h before its default applies"
            f" ({_window_words(hours, window_hours)}).")
        if side is not None:
            r.public.append(f"{caller.name} joins {side}.")
        r.join_sides = tuple(sides)
        r.ephemeral.append(f"Game #{game.id} is open. Start it with `/game start` once both sides "
                           "have players; `/game forces` lets each player pick soldiers.")
        return r

    @staticmethod
    def _side(word: str, sides: list[str]) -> str:
        side = word.strip().upper()
        if side not in sides:
            raise Refused(f"This scenario's sides are {' and '.join(sides)}, not {word!r}.")
        return side

    @staticmethod
    def _lobby_seats(lobby: Lobby) -> list[Seat]:
        return [Seat(i, s.side.value, s.user_id, s.name) for i, s in enumerate(lobby.seats)]

    async def _lobby_change(self, caller: Caller, where: Where,
                            change: Callable[[_Loaded, Lobby], tuple[list[str], list[str], Replies]]
                            ) -> Replies:
        """Run `change(loaded, lobby)` on a lobby under the lock and commit it; it mutates the
        lobby and returns (event bodies, public lines, replies)."""
        gid = await self.resolve(caller, where)
        for _ in range(RETRIES):
            async with self.locks.for_game(gid):
                loaded = await self._load(gid)
                if loaded.lobby is None:
                    raise Refused(f"Game #{gid} has already started; seats and forces are fixed.")
                if loaded.lobby.campaign is not None:
                    raise Refused(f"Game #{gid} is campaign #{loaded.lobby.campaign}'s scenario: its seats "
                                  "and forces come from the rosters (`/campaign pick`).")
                lobby = loaded.lobby
                events, public, r = change(loaded, lobby)
                try:
                    done = await self.store.commit(
                        gid, loaded.game.version, LobbyDoc(lobby=lobby).model_dump_json(), events,
                        seats=self._lobby_seats(lobby))
                except VersionConflict:
                    self.counters.conflict()
                    self.counters.retry()
                    continue
                r.game_id, r.version = gid, done.version
                r.channel_id = loaded.game.thread_id or loaded.game.channel_id
                r.public[:0] = public
                return r
        raise Refused("Someone changed the game at the same moment; try again.")

    async def _join_lobby(self, caller: Caller, where: Where, side: str) -> Replies:
        """Take a seat on `side` in the lobby (or move to it)."""
        def change(loaded: _Loaded, lobby: Lobby):
            sc = self.catalog.scenario(lobby.scenario)
            chosen = self._side(side, [s.id.value for s in sc.sides])
            i = lobby.seat_of(caller.user_id)
            if i is None:
                if len(lobby.seats) >= MAX_SEATS:
                    raise Refused(f"Game #{loaded.id} is full ({MAX_SEATS} players).")
                lobby.seats.append(LobbySeat(user_id=caller.user_id, name=caller.name, side=chosen))
                line = f"{caller.name} joins {chosen}."
            elif lobby.seats[i].side == chosen:
                raise Refused(f"You already play {chosen} in game #{loaded.id}.")
            else:
                lobby.seats[i] = LobbySeat(user_id=caller.user_id, name=caller.name, side=chosen)
                line = f"{caller.name} moves to {chosen}."
            body = eventlog.envelope("joined", user=caller.user_id, name=caller.name, side=chosen)
            return [body], [line, self._seats_line(lobby)], Replies()
        r = await self._lobby_change(caller, where, change)
        r.ephemeral.append(f"You play {side.upper()} in game #{r.game_id}. `/game forces` picks "
                           "your soldiers; otherwise you take a share of the scenario's squad.")
        return r

    async def _leave_lobby(self, caller: Caller, where: Where) -> Replies:
        def change(loaded: _Loaded, lobby: Lobby):
            i = lobby.seat_of(caller.user_id)
            if i is None:
                raise NotYours(f"You have no seat in game #{loaded.id}.")
            del lobby.seats[i]
            body = eventlog.envelope("left", user=caller.user_id)
            return [body], [f"{caller.name} leaves the game.", self._seats_line(lobby)], Replies()
        r = await self._lobby_change(caller, where, change)
        r.ephemeral.append(f"You left game #{r.game_id}.")
        return r

    async def choose_force(self, caller: Caller, where: Where, force: str | None, *,
                           artillery: str | None = None, barrages: str | None = None,
                           mines: str | None = None) -> Replies:
        """Pick soldiers within the side's VP budget (`"101 104:sgt"`), or None/"preset" for a
        share of the scenario's preset squad; and buy the battlefield with them: artillery (fire
        missions by chart id or name), barrages (`KIND TURN TILE [smoke]`, `;` between plans) and
        mines (`TILE TOKEN...`, `;` between fields), each "none" to buy nothing, "preset" for the
        side's own, or left out to keep what was chosen. Without soldiers but with a purchase,
        the soldiers chosen stay. All is priced together against the budget (Scenario Selection;
        Hell on Wheels, the Equipment/Ordnance chart). The choice and its cost are told to the
        caller only; the table hears how many soldiers, never what was bought."""
        def change(loaded: _Loaded, lobby: Lobby):
            i = lobby.seat_of(caller.user_id)
            if i is None:
                raise NotYours(f"Join game #{loaded.id} first (`/game join`).")
            seat = lobby.seats[i]
            sc = self.catalog.scenario(lobby.scenario)
            players = max(2, len(lobby.seats))
            buying = any(x is not None for x in (artillery, barrages, mines))
            try:
                update = self._purchases(artillery, barrages, mines)
                if force is None and buying:
                    entries = seat.force
                elif force is None or force.strip().lower() in ("", "preset"):
                    entries = None
                else:
                    entries = parse_force(force)
                chosen = seat.model_copy(update={"force": entries, **update})
                cost = self._check_seat(lobby, i, chosen, players) if entries is not None or buying else None
            except RuleError as exc:
                raise Refused(str(exc)) from None
            lobby.seats[i] = chosen
            r = Replies()
            costing = "" if cost is None else (
                f", costing {cost} of {budget(sc, seat.side, players)} VP for {players} players. The budget is "
                "checked again at the start, for the final number of players.")
            bought = purchases_text(chosen)
            if entries is None:
                r.ephemeral.append("You take your share of the scenario's preset squad" + (costing or "."))
                public = f"{caller.name} takes a share of the preset squad."
            else:
                names = ", ".join(f"{self.catalog.soldiers[e.serial].name} ({e.serial})" for e in entries)
                r.ephemeral.append(f"Your force: {names} — `{force_text(entries)}`" + (costing or "."))
                public = f"{caller.name} has chosen a force of {len(entries)} soldiers."
            if bought:
                r.ephemeral.append("Bought with it, in the cost (secret): " + "; ".join(bought) + ".")
            body = eventlog.envelope("force", user=caller.user_id)
            return [body], [public], r
        return await self._lobby_change(caller, where, change)

    def _purchases(self, artillery: str | None, barrages: str | None, mines: str | None) -> dict:
        """The purchases given, parsed ("preset": back to the side's own; left out: unchanged)."""
        names = {e.name.lower(): k for k, e in self.catalog.equipment.items() if e.kind == "artillery"}
        out: dict = {}
        for key, text, parse in (("ordnance", artillery, lambda t: parse_ordnance(t, names)),
                                   ("barrages", barrages, parse_barrages), ("minefields", mines, parse_minefields)):
            if text is not None:
                out[key] = None if text.strip().lower() == "preset" else parse(text)
        return out

    def _check_seat(self, lobby: Lobby, i: int, seat: LobbySeat, players: int) -> int:
        """A seat's soldiers (its preset share when it keeps the preset) and purchases priced
        against its budget; RuleError names what is wrong."""
        sc = self.catalog.scenario(lobby.scenario)
        mates = [j for j, o in enumerate(lobby.seats) if o.side == seat.side]
        first = mates.index(i) == 0
        entries = seat.force if seat.force is not None else preset_share(
            self.catalog, sc, seat.side, mates.index(i), len(mates))
        taken = {e.serial for j, s in enumerate(lobby.seats) if j != i and s.force for e in s.force}
        others = {m.tile for j, s in enumerate(lobby.seats) if j != i and s.minefields for m in s.minefields}
        ordnance, barrages = seat_purchases(sc, seat, first)
        return check_force(self.catalog, sc, seat.side, entries, players, taken, teammates=len(mates),
                           ordnance=ordnance, barrages=barrages, minefields=seat_fields(sc, seat, first),
                           mine_tiles=others)

    @staticmethod
    def _seats_line(lobby: Lobby) -> str:
        if not lobby.seats:
            return "No one is seated yet."
        return "Seats: " + ", ".join(f"{s.name} ({s.side.value})" for s in lobby.seats) + "."

    async def start(self, caller: Caller, where: Where) -> Replies:
        """Set the scenario up with the seated players and deal; the organiser's call."""
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._load(gid)
            await self._need_organiser(caller, loaded.game, "start it")
            if loaded.lobby is None:
                raise Refused(f"Game #{gid} has already started.")
            lobby = loaded.lobby
            specs = [SeatSpec(name=s.name, side=s.side, force=s.force, vehicles=s.vehicles, ordnance=s.ordnance,
                              barrages=s.barrages, minefields=s.minefields) for s in lobby.seats]
            try:
                state, events = new_game(self.catalog, lobby.scenario, specs, lobby.seed)
            except RuleError as exc:
                raise Refused(f"Game #{gid} cannot start yet: {exc}") from None
            state = self._codec.shared(state)
            seats = self._lobby_seats(lobby)
            game_settings = await self.store.settings(f"game:{gid}")
            hours = Hours(float(game_settings.get("deadline_hours", DEFAULT_HOURS)),
                          game_settings.get("window_hours"))  # react/preempt clock
            away = await self._away(replace(loaded.game, seats=tuple(seats)), game_settings)
            started = _Loaded(replace(loaded.game, seats=tuple(seats)), state=state, hours=hours, away=away)
            nxt = self._next(started, state, fresh=True)
            await self._keep_setup(state)
            bodies = [eventlog.envelope("started", scenario=lobby.scenario, seed=lobby.seed,
                                        seats=[s.model_dump(mode="json") for s in specs],
                                        users=[s.user_id for s in seats]),
                      *eventlog.engine_events(events)]
            # the organiser and everyone prompted have read the start: a later /log starts there
            now = self.clock()
            readers = tuple(dict.fromkeys([caller.user_id, *(p.user_id for p in nxt.asks)]))
            text = self._codec.dumps(state)
            try:
                done = await self.store.commit(
                    gid, loaded.game.version, text, bodies,
                    status=GameStatus.ACTIVE, snapshot=eventlog.phase_label(state), seats=seats,
                    awaited=nxt.awaited, decisions=nxt.changed, seen=Seen(readers, now))
            except VersionConflict:
                self.counters.conflict()
                raise Refused("Someone changed the game at the same moment; try again.") from None
            game = replace(loaded.game, version=done.version, status=GameStatus.ACTIVE,
                           seats=tuple(seats), state="")
            self._remember(game, state, text, list(nxt.awaited), hours, nxt.decisions, away,
                           {u: SeenMark(u, done.last_seq, now) for u in readers})
            log.info("game %d started with %d players", gid, len(seats))
            r = self._outcome(game, None, state, events, version=done.version, nxt=nxt, board=True)
            r.public.insert(0, f"**Game #{gid} begins.**")
            return r

    # ================================================================== playing

    async def command(self, caller: Caller, where: Where, command: str | Cmd, *,
                      version: int | None = None, sent_at: datetime | None = None) -> Replies:
        """Carry out one engine command for the caller's seat: a script line (`"move 101 12A"`,
        soldier names allowed) or a command model (its seat is replaced by the caller's).
        `sent_at`: when the player sent it, if the front end knows (a Discord interaction's
        creation time, else `caller.sent_at`); the same command sent twice within REPEAT is
        carried out once."""
        # a named game is its own answer: `resolve` only when the command names none
        gid = where.game_id if where.game_id is not None else await self.resolve(caller, where)
        sent_at = sent_at if sent_at is not None else caller.sent_at

        def make(loaded: _Loaded, seat: int) -> Cmd:
            state = loaded.state
            if isinstance(command, str):
                cmd = parse_line(state, command, seat)
            else:
                cmd = command.model_copy(update={"seat": seat})
            if isinstance(cmd, Plan) and cmd.force is not None and cmd.force not in state.forces:
                # `plan for 601 ...` / `for squad`: the deck by its plate or name, as players say it
                fid = vehicle_words.deck_for(state, seat, cmd.force)
                if fid is not None:
                    cmd = cmd.model_copy(update={"force": fid})
            last = loaded.decisions.get(seat)
            if (sent_at is not None and last is not None and last.sent_at is not None
                    and last.command == str(cmd) and abs(sent_at - last.sent_at) <= REPEAT):
                raise AlreadyDone("Already done: the same command came twice within a few seconds, and "
                                  "was carried out once. Nothing was changed this time.")
            return cmd

        return await self._play(caller, gid, make, version=version, sent_at=sent_at, typed=True)

    async def plan(self, caller: Caller, where: Where, cards: list[str | None], *,
                   deck: str | None = None, extra: str | None = None,
                   sent_at: datetime | None = None) -> Replies:
        """Place one card per phase (None: leave a phase empty); `"1-C3:move"` declares the
        action of a multi-action card; `deck` ("squad", a plate, a deck id) says which of the
        caller's decks when he has a squad and vehicles; `extra` an officer's extra cards as
        "PHASE=CARD" pairs ("2=101-C3 3=102-C1", the leading + optional). Changeable until
        everyone has placed; the placement already standing again is already done."""
        words = [c.strip() if c and c.strip() else "-" for c in cards]
        words += ["+" + w.lstrip("+") for w in (extra or "").replace(",", " ").split()]
        head = f"plan for {deck.strip()} " if deck and deck.strip() else "plan "
        return await self.command(caller, where, head + " ".join(words), sent_at=sent_at)

    async def choose(self, caller: Caller, game_id: int, seat: int, version: int,
                     stamp: str) -> Replies:
        """A pressed button or select option: the answer `stamp` offered to `seat` in a prompt
        drawn at `version`. Carried out while the decision it names is open (at any version);
        refused as already done once the seat has answered that decision, else as out of date."""
        tag = prompts.stamp_decision(stamp)

        def make(loaded: _Loaded, mine: int) -> Cmd:
            if mine != seat:
                raise NotYours("These choices are for another player.")
            st = loaded.state
            if tag is not None and version <= loaded.game.version:
                for a in answerable(st, seat):
                    if prompts.tag(a.key) == tag:
                        pick = next((c for c in prompts.choices(st, a, limit=400) if c.stamp == stamp), None)
                        if pick is None:
                            raise OutOfDate()
                        return parse_line(st, pick.command, seat)
                last = loaded.decisions.get(seat)
                if last is not None and last.answered is not None and prompts.tag(last.answered) == tag:
                    raise AlreadyDone()
            raise OutOfDate()

        return await self._play(caller, game_id, make, bound=True)

    async def _play(self, caller: Caller, gid: int, make: Callable[[_Loaded, int], Cmd], *,
                    version: int | None = None, bound: bool = False,
                    sent_at: datetime | None = None, typed: bool = False) -> Replies:
        """Carry a command out under the game's lock. A commit that loses to another process is
        tried again on the stored game, after a jittered pause, up to PLAY_RETRIES times: each
        try asks `make` and the engine afresh, so a command that no longer makes sense is
        refused for its own reason. A command bound to `version` is out of date instead."""
        trust_cache = not (bound or version is not None)  # a press is judged on the stored game
        conflicts = 0
        while conflicts < PLAY_RETRIES:
            async with self.locks.for_game(gid), self._in_flight:
                loaded = await self._load(gid, cached=trust_cache)
                try:
                    after, events, cmd, mine = self._try(caller, loaded, make, version, typed)
                except Refused:
                    if not trust_cache:
                        raise
                    # the cache may be behind another process: refuse only on the stored game
                    trust_cache = False
                    self._forget(gid)
                    continue
                line = str(cmd)
                try:
                    r = await self._commit(loaded, loaded.state, after, events, cmd=cmd, seat=mine,
                                           user=caller.user_id, by="player", sent_at=sent_at, line=line)
                except VersionConflict:
                    self.counters.conflict()
                    self._forget(gid)
                    trust_cache = False
                    if version is not None:
                        raise OutOfDate() from None
                    conflicts += 1
                    self.counters.retry()
                else:
                    r.ephemeral.append(f"Done: `{line}`" + prompts.in_words(loaded.state, cmd) + "." + (
                        " (`/game undo` takes it back.)" if r.undoable else ""))
                    return r
            await asyncio.sleep(self._jitter.uniform(0, min(BACKOFF_S, 0.005 * 2 ** conflicts)))
        log.warning("game %d: a command lost %d times running to other writers", gid, conflicts)
        raise Refused("The game is very busy right now and your command could not be saved; nothing "
                      "was changed. Try again in a moment.")

    def _try(self, caller: Caller, loaded: _Loaded, make: Callable[[_Loaded, int], Cmd],
             version: int | None, typed: bool = False) -> tuple[GameState, list, Cmd, int]:
        """Check who may act and ask the engine; raises Refused with the reason, AlreadyDone for
        a command that would leave the game as it is, or (`typed`) for an answer the game no
        longer takes that repeats the one the seat gave last."""
        state = loaded.state
        if loaded.game.status != GameStatus.ACTIVE or state is None:
            raise Refused(self._not_active(loaded))
        mine = loaded.seat_of(caller.user_id)
        if mine is None:
            raise NotYours(f"You have no seat in game #{loaded.id}; only its players act.")
        if loaded.game.paused_at is not None:
            raise Refused(_paused(loaded.game))
        if version is not None and version != loaded.game.version:
            raise OutOfDate()
        try:
            cmd = make(loaded, mine)
        except RuleError as exc:
            raise Refused(str(exc)) from None
        if isinstance(cmd, SeatName):
            raise NotYours("A seat changes hands through the organiser (`/game replace`), `/game leave` "
                           "and `/game join`, not by a command.")
        try:
            after, events = apply(state, cmd)
        except RuleError as exc:
            if typed and self._repeated(loaded, mine, cmd):
                raise AlreadyDone() from None
            raise Refused(str(exc)) from None
        if same_game(state, after):
            raise AlreadyDone()  # the same plan again, a setting it already has: no commit
        return after, events, cmd, mine

    @staticmethod
    def _repeated(loaded: _Loaded, seat: int, cmd: Cmd) -> bool:
        """Whether `cmd` is the seat's last command again, given after the decision it settled
        has gone with no other of its kind open for him (`keep`, `skip`, `hitplus 5` twice)."""
        last = loaded.decisions.get(seat)
        if last is None or last.command != str(cmd) or last.answered is None:
            return False
        kind = last.answered.split(":", 1)[0]
        return all(a.kind != kind for a in answerable(loaded.state, seat))

    async def _commit(self, loaded: _Loaded, before: GameState, after: GameState, events, *,
                      cmd: Cmd, seat: int, user: int, by: str, sent_at: datetime | None = None,
                      line: str | None = None) -> Replies:
        """`line`: `str(cmd)`, if the caller has it."""
        gid = loaded.id
        can_undo = by == "player" and undoable(before, after, events)
        bodies = [eventlog.command_envelope(cmd, seat=seat, user=user, by=by, undoable=can_undo),
                  *eventlog.engine_events(events)]
        answer = None
        now_awaited = awaiting(after)  # asked once here, for the answer, the deadlines and the prompts
        if by == "player":  # the decision he was awaited for that this command settled, if any
            still = {a.key for a in now_awaited if a.seat == seat}
            was = loaded.awaited if before is loaded.state and loaded.awaited is not None else awaiting(before)
            gone = next((a.key for a in was if a.seat == seat and a.key not in still), None)
            answer = _make_answer(seat, gone, str(cmd) if line is None else line, sent_at)
        r = await self._write(loaded, before, after, events, bodies, answer=answer,
                              reader=user if by == "player" else None, now_awaited=now_awaited)
        r.undoable = can_undo
        if r.ended:
            r.public += await self._settle_campaign(gid, after, Caller(user, ""))
        log.info("game %d v%d: seat %d %s %s (%d events)", gid, r.version, seat, by,
                 cmd.type, len(events))
        return r

    async def _settle_campaign(self, gid: int, after: GameState, caller: Caller) -> list[str]:
        """A finished campaign game goes to its campaign as a result for the organiser's review."""
        if self.campaigns is None:
            return []
        cid = await self.store.get_setting(f"game:{gid}", "campaign")
        if cid is None:
            return []
        game = await self.store.load_game(gid)
        users = [s.user_id for s in sorted(game.seats, key=lambda s: s.seat_index)]
        try:
            done = await self.campaigns.submit_game(caller, int(cid), after, users, game_id=gid)
        except Refused as exc:
            log.warning("game %d: campaign %s did not record it: %s", gid, cid, exc)
            return [f"Campaign #{cid} could not record this game: {exc}"]
        return list(done.public)

    async def new_campaign_game(self, caller: Caller, where: Where, prepared) -> Replies:
        """Open and start a campaign's next scenario with the seats and forces its rosters give
        (`CampaignService.prepare`); when the game ends its result goes back to the campaign."""
        if where.channel_id is None:
            raise Refused("A game is played in a channel: start it there, not in a direct message.")
        lobby = Lobby(scenario=prepared.scenario, seed=self._seed(), campaign=prepared.campaign_id,
                      seats=[LobbySeat(user_id=u, name=s.name, side=s.side, force=s.force, vehicles=s.vehicles)
                             for u, s in zip(prepared.users, prepared.seats, strict=True)])
        game = await self.store.create_game(
            guild_id=where.guild_id, channel_id=where.channel_id, thread_id=where.thread_id,
            scenario_id=prepared.scenario, organiser_id=caller.user_id,
            state=LobbyDoc(lobby=lobby).model_dump_json(), seats=self._lobby_seats(lobby),
            events=[eventlog.envelope("created", scenario=prepared.scenario, by=caller.user_id,
                                      campaign=prepared.campaign_id)])
        await self.store.set_setting(f"game:{game.id}", "campaign", prepared.campaign_id)
        r = await self.start(caller, Where(game_id=game.id))
        r.public.insert(0, f"Campaign #{prepared.campaign_id}, step {prepared.step}.")
        return r

    async def _write(self, loaded: _Loaded, before: GameState | None, after: GameState, events,
                     bodies: list[str], *, snapshot: bool | None = None,
                     answer: _Answer | None = None, reader: int | None = None,
                     seats: list[Seat] | None = None,
                     baseline: dict[int, SeatDecision] | None = None,
                     now_awaited: list[Await] | None = None) -> Replies:
        """Commit `after` with its log bodies, deadlines, snapshot, status, the seats'
        decision records, (`seats`) a seat changing hands, and who has now read the log (the
        player who gave the command, `reader`, and everyone prompted); a finished game's results
        for statistics. Build Replies, with a digest of what happened before a prompt to a
        player who has not looked for long. `now_awaited`: `awaiting(after)`, if the caller has it."""
        gid = loaded.id
        over = after.step == "over"
        phase_moved = before is None or (before.turn, before.phase) != (after.turn, after.phase)
        take = (phase_moved and not over) if snapshot is None else snapshot
        now_awaited = awaiting(after) if now_awaited is None else now_awaited
        now = self.clock()  # read once, for the deadlines and the seen marks
        nxt = self._next(loaded, after, answer=answer, baseline=baseline, now_awaited=now_awaited, now=now)
        if nxt.asks:
            readers = tuple(dict.fromkeys([*([reader] if reader else []), *(p.user_id for p in nxt.asks)]))
        else:  # nobody prompted: the same tuple without the dict, list and generator
            readers = (reader,) if reader else ()
        text = self._codec.dumps(after)
        done = await self.store.commit(
            gid, loaded.game.version, text, bodies,
            status=GameStatus.FINISHED if over else None,
            snapshot=eventlog.phase_label(after) if take else None,
            seats=seats,
            awaited=None if unchanged(loaded.deadlines, nxt.awaited) else nxt.awaited,
            decisions=nxt.changed,
            seen=Seen(readers, now) if readers else None,
            results=results_of(loaded.game, after, now) if over else ())
        game = moved_on(loaded.game, done.version, GameStatus.FINISHED if over else GameStatus.ACTIVE)
        seen = dict(loaded.seen)
        for user in readers:
            was = seen.get(user)
            seen[user] = _make_mark(user, max(done.last_seq, was.seq if was else 0), now)  # SeenMark
        was_cards = loaded.cards if before is loaded.state else None
        cards = None if over else prompts.cards_by_seat(after, before, was_cards)
        self._remember(game, after, text, list(nxt.awaited), loaded.hours, nxt.decisions, loaded.away, seen,
                       now_awaited, cards, (loaded.game.seats, nxt.users))
        r = self._outcome(game, before, after, events, version=done.version, nxt=nxt,
                          board=phase_moved or over, cards=(was_cards, cards), users=nxt.users)
        if r.prompts:  # (no prompt: no digest to put before one, and no coroutine for it)
            r.prompts = await self._digests(gid, r.prompts, loaded.seen, now, loaded.away.digest)
        return r

    async def _merged(self, gid: int, parts: list[Replies]) -> Replies:
        """Several changes' Replies told as one: every public line and private message, the last
        pictures and waiting line, and each prompt whose decision the game still awaits (the
        latest per seat: an earlier change's prompt is not sent again by a later one)."""
        last = parts[-1]
        r = Replies(game_id=gid, version=last.version, channel_id=last.channel_id, waiting=last.waiting,
                    ended=any(p.ended for p in parts), undoable=False)
        for p in parts:
            r.public += p.public
            r.private += p.private
            r.images = p.images or r.images
        st = await self.load_state(gid)
        still = {a.key for a in awaiting(st)} if st is not None else set()
        asked = {q.seat: q for p in parts for q in p.prompts if q.decision in still}
        r.prompts = list(asked.values())
        return r

    def _next(self, loaded: _Loaded, after: GameState, *, fresh: bool = False,
              answer: _Answer | None = None, baseline: dict[int, SeatDecision] | None = None,
              now_awaited: list[Await] | None = None, now: datetime | None = None) -> _Next:
        """What the change from `loaded` to `after` (committed as the next version) brings: the
        deadlines (a decision awaited before keeps its own, a new one gets the whole time), and
        a prompt for each awaited player whose last prompt was for another decision than the one
        he is awaited for now (all of them if `fresh`: a start, a rollback). `now`: the clock's
        time, if the caller has read it."""
        version = loaded.game.version + 1
        users = loaded.users()
        decisions = dict(loaded.decisions)
        if fresh:  # a start or a rollback: a prompt held from before belongs to a game that is gone,
            # and a decision of the same name reached again (its hand dealt anew) is asked again
            decisions = {seat: replace(d, asked=None, asked_version=None) for seat, d in decisions.items()}
        if answer is not None:
            was = decisions.get(answer.seat)
            if was is None:  # (a default made only when wanted: `get`'s default is made every time)
                was = SeatDecision(answer.seat)
            used = answer.decision is not None and was.asked == answer.decision
            # `replace(was, ...)` made directly (every field is named: a test holds the list to
            # SeatDecision's), a third of its time
            decisions[answer.seat] = _make_decision(
                was.seat,
                # his prompt for the decision he has just settled is used up: should that decision
                # come back (an undo), he is asked again
                None if used else was.asked, None if used else was.asked_version,  # asked, asked_version
                answer.decision or was.answered, answer.command, answer.sent_at)  # answered, command, sent_at
        now_awaited = awaiting(after) if now_awaited is None else now_awaited
        awaited = [] if after.step == "over" else plan(
            now_awaited, users, [] if fresh else loaded.deadlines, now=self.clock() if now is None else now, hours=loaded.hours,
            away=loaded.away.until, stretch=loaded.away.stretch, paused_at=loaded.game.paused_at)
        waiting, asks = self._asks(loaded.id, version, after, users, awaited, decisions, everyone=fresh,
                                   now_awaited=now_awaited)
        for p in asks:
            was = decisions.get(p.seat)
            if was is None:
                was = SeatDecision(p.seat)
            decisions[p.seat] = _make_decision(was.seat, p.decision, version,  # seat, asked, asked_version
                                               was.answered, was.command, was.sent_at)
        stored = loaded.decisions if baseline is None else baseline  # what the store holds now
        # a record still the very one the store holds is unchanged without its dataclass __eq__
        changed = [d for seat, d in sorted(decisions.items()) if (kept := stored.get(seat)) is not d and kept != d]
        return _Next(awaited, waiting, asks, decisions, changed, users)

    def _outcome(self, game: GameSummary, before: GameState | None, after: GameState, events, *,
                 version: int, nxt: _Next, board: bool,
                 cards: tuple[dict[int, set[str]] | None, dict[int, set[str]] | None] = (None, None),
                 users: Mapping[int, int] | None = None) -> Replies:
        """Replies after a change: the public story, each seat's private news, the prompts.
        `cards`: `prompts.cards_by_seat` of `before` and `after`, where the caller has them;
        `users`: seat -> player of `game`'s seats, if the caller has it (`_next` read it)."""
        if users is None:
            users = {s.seat_index: s.user_id for s in getattr(game, "seats", ())}
        r = Replies(game_id=game.id, version=version, channel_id=game.thread_id or game.channel_id)
        told: dict[int | None, list[str]] = {None: []}  # each event's text by whom it is for, in one pass
        for e in events:
            to = e.to
            lines = told.get(to)
            if lines is None:
                lines = told[to] = []
            lines.append(e.text)
        r.public = told[None]
        arrived = prompts.cards_arrived(before, after, was=cards[0], now=cards[1]) if after.step != "over" else set()
        for seat in range(len(after.seats)):
            lines = told.get(seat, [])
            if seat in arrived:
                lines.append(prompts.private_desk(after, seat))
            if lines and users.get(seat, OPEN) != OPEN:
                r.private.append(Private(users[seat], seat, "\n".join(lines)))
        if board:
            r.images.append(ImageRequest("board", after, caption=self._board_caption(game.id, after)))
            r.images.extend(self._panels(game.id, before, after))
        if after.step == "over":
            r.ended = True
            return r
        r.waiting, r.prompts = nxt.waiting, nxt.asks
        return r

    def _asks(self, gid: int, version: int, st: GameState, users: Mapping[int, int], deadlines,
              held: Mapping[int, SeatDecision], *, everyone: bool = False,
              only: int | None = None, now_awaited: list[Await] | None = None) -> tuple[list[Waiting], list[Prompt]]:
        """Whom the game waits for, and a prompt for each awaited seat (`only` that one) whose
        last prompt (`held`) asked another decision than his first awaited one now — for every
        awaited seat if `everyone`. `now_awaited`: `awaiting(st)`, if the caller has it."""
        now_awaited = awaiting(st) if now_awaited is None else now_awaited
        rows = expiries(deadlines)  # read once for every waiting line and prompt
        waiting = [_waiting(st, a, users.get(a.seat, OPEN), deadlines, rows) for a in now_awaited]
        asks: list[Prompt] = []
        asked: set[int] = set()
        for a in now_awaited:
            if a.seat in asked or users.get(a.seat, OPEN) == OPEN or only not in (None, a.seat):
                continue
            asked.add(a.seat)  # one prompt per seat: his first awaited decision
            last = held.get(a.seat)
            if not everyone and last is not None and last.asked == a.key:
                continue
            asks.append(self._prompt(gid, version, st, a, users[a.seat], deadlines, now_awaited, rows))
        return waiting, asks

    @staticmethod
    def _prompt(gid: int, version: int, st: GameState, a: Await, user: int, deadlines,
                awaited: list[Await] | None = None, rows: list | None = None) -> Prompt:
        """`awaited`: `awaiting(st)`, `rows`: `expiries(deadlines)`, if the caller has them."""
        row = expiry_of(deadlines, a) if rows is None else expiry_in(rows, a)
        text = prompts.prompt_text(st, a.seat, a.kind, a.detail, awaited)
        if row is not None and row.left is not None:
            text += f"\nThe game's clocks are stopped; your time left is {span(row.left)}."
        elif row is not None:
            text += f"\nYour time runs out {when(row.due)}; then the game's default applies."
        return make_prompt(gid, version, a.seat, user, a.kind, text, prompts.choices(st, a),  # Prompt(...)
                           None if row is None else row.due, a.key)

    @staticmethod
    def _panels(gid: int, before: GameState | None, after: GameState) -> list[ImageRequest]:
        """Beside the board, the panel of each vehicle that acted or was hit in the phase just
        finished (the engine's `last_panels`), once: only when that phase has just ended, so the
        board posted again at card placement does not repeat them."""
        if before is not None and before.last_trail_phase == after.last_trail_phase:
            return []
        turn, phase = after.last_trail_phase or (after.turn, after.phase)
        return [ImageRequest("panel", after, plate=plate,
                             caption=f"Game #{gid} — {after.vehicle_def(plate).name} ({plate}) after turn {turn}, "
                                     f"phase {phase}")
                for plate in dict.fromkeys(after.last_panels) if plate in after.vehicles]

    @staticmethod
    def _board_caption(gid: int, st: GameState) -> str:
        where = "card placement" if st.phase == 0 else f"phase {st.phase}"
        if st.step == "over":
            where = "the end"
        return f"Game #{gid} — {st.setup.scenario.name}, turn {st.turn}, {where}"

    @staticmethod
    def _not_active(loaded: _Loaded) -> str:
        status = loaded.game.status
        if status == GameStatus.LOBBY:
            return f"Game #{loaded.id} has not started yet; the organiser starts it with /game start."
        return _over(loaded.game)

    # ================================================================== taking back

    async def undo(self, caller: Caller, where: Where) -> Replies:
        """Take back the caller's own last command, if it revealed nothing and nobody has acted
        since (boardgame.io: undo stops at revealed information; #345: only your own)."""
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._load(gid)
            if loaded.game.status != GameStatus.ACTIVE or loaded.state is None:
                raise Refused(self._not_active(loaded))
            seat = loaded.seat_of(caller.user_id)
            if seat is None:
                raise NotYours(f"You have no seat in game #{gid}.")
            if loaded.game.paused_at is not None:
                raise Refused(_paused(loaded.game))
            logged = eventlog.read(await self.store.events_since(gid))
            commands = eventlog.timeline(logged)
            if not commands:
                raise Refused("There is nothing to take back.")
            seq, body = commands[-1]
            if body["seat"] != seat or body.get("by") != "player":
                raise Refused("Only the last command of the game can be taken back, by the player "
                              "who gave it, and the last one was not yours.")
            if not body.get("undoable"):
                raise Refused("Your last command revealed something (a card, a draw, a check) or "
                              "ended the phase, so it stands.")
            before = await self._state_at(gid, logged, seq - 1)
            text = str(eventlog.command_of(body))
            bodies = [eventlog.envelope("undo", to_seq=seq - 1, seat=seat, user=caller.user_id,
                                        name=loaded.state.seats[seat].name)]
            try:
                r = await self._write(loaded, loaded.state, before, [], bodies,
                                      snapshot=False)
            except VersionConflict:
                self.counters.conflict()
                raise Refused("Someone acted first; nothing was taken back.") from None
            r.public.insert(0, f"{loaded.state.seats[seat].name} takes back a command.")
            r.ephemeral.append(f"Taken back: `{text}`.")
            log.info("game %d v%d: seat %d undid a command", gid, r.version, seat)
            return r

    async def _state_at(self, gid: int, logged: list[eventlog.Logged], seq: int) -> GameState:
        """The state after event `seq`: from the latest snapshot at or before it, replayed."""
        infos = [s for s in await self.store.snapshots(gid) if s.seq <= seq]
        if not infos:
            state = eventlog.replay(self.catalog, [x for x in logged if x[0] <= seq])
        else:
            info = max(infos, key=lambda s: s.seq)
            snap = await self.store.load_snapshot(gid, info.label)
            start = await self._parse(snap.state)
            state = eventlog.replay(None, [x for x in logged if info.seq < x[0] <= seq],
                                    start=(info.seq, start))
        assert state is not None
        return state

    async def snapshot_labels(self, caller: Caller, where: Where) -> list[tuple[str, str]]:
        """(label, description) of the phases the organiser may roll back to, oldest first."""
        gid = await self.resolve(caller, where)
        return [(s.label, eventlog.describe_label(s.label)) for s in await self.store.snapshots(gid)]

    async def rollback(self, caller: Caller, where: Where, label: str) -> Replies:
        """Organiser: go back to the start of an earlier phase (DiplomacyGM keeps one snapshot per
        phase). The log keeps everything; the abandoned phases' snapshots are dropped."""
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._load(gid)
            await self._need_organiser(caller, loaded.game, "roll the game back")
            if loaded.state is None or loaded.game.status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
                raise Refused(self._not_active(loaded))
            label = label.strip().upper()
            try:
                after = await self._parse((await self.store.load_snapshot(gid, label)).state)
                # seats that changed hands since the snapshot keep their players' names
                after, renames = self._renamed(loaded, after)
                # the snapshot's decisions are all asked afresh, with whole deadlines, in the
                # rollback's own transaction (a kill cannot leave them without deadlines)
                nxt = self._next(loaded, after, fresh=True)
                done = await self.store.rollback(gid, loaded.game.version, label, by_user_id=caller.user_id,
                                                 status=GameStatus.ACTIVE, awaited=nxt.awaited,
                                                 decisions=nxt.changed,
                                                 state=self._codec.dumps(after) if renames else None,
                                                 events=renames)
            except SnapshotNotFound:
                labels = ", ".join(s.label for s in await self.store.snapshots(gid))
                raise Refused(f"There is no phase {label!r} to go back to; there are: {labels}.") from None
            except VersionConflict:
                self.counters.conflict()
                raise Refused("Someone acted first; nothing was rolled back.") from None
            game = replace(loaded.game, version=done.version, state="", status=GameStatus.ACTIVE)
            self._remember(game, after, self._codec.dumps(after), list(nxt.awaited), loaded.hours, nxt.decisions,
                           loaded.away, loaded.seen)
            r = self._outcome(game, None, after, [], version=done.version, nxt=nxt, board=True)
            r.public.insert(0, f"**{caller.name} rolled game #{gid} back to the start of "
                               f"{eventlog.describe_label(label)}.**")
            log.info("game %d rolled back to %s by the organiser", gid, label)
            return r

    async def abandon(self, caller: Caller, where: Where, reason: str | None = None) -> Replies:
        """Organiser: end the game without a result; `reason` is kept in the log and told."""
        reason = _reason(reason)
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._load(gid)
            await self._need_organiser(caller, loaded.game, "end it")
            if loaded.game.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
                raise Refused(self._not_active(loaded))
            try:
                done = await self.store.commit(
                    gid, loaded.game.version, loaded.game.state,
                    [eventlog.envelope("abandoned", by=caller.user_id, reason=reason)],
                    status=GameStatus.ABANDONED, awaited=[])
            except VersionConflict:
                self.counters.conflict()
                raise Refused("Someone acted first; try again.") from None
            self._forget(gid)
        log.info("game %d abandoned", gid)
        return Replies(game_id=gid, version=done.version,
                       channel_id=loaded.game.thread_id or loaded.game.channel_id,
                       public=[f"Game #{gid} was abandoned by {caller.name}" + (f": {reason}" if reason else ".")],
                       ended=True)

    # ================================================================== reading

    async def status(self, caller: Caller, where: Where) -> Replies:
        """The game at a glance, from the public view: for the caller."""
        gid = await self.resolve(caller, where, finished_ok=True)
        loaded = await self._load(gid)
        g = loaded.game
        r = Replies(game_id=gid, version=g.version, channel_id=g.thread_id or g.channel_id)
        if loaded.lobby is not None:
            sc = self.catalog.scenario(loaded.lobby.scenario)
            forces = ", ".join(f"{s.name} ({s.side.value}, "
                               f"{'own force' if s.force else 'preset share'})" for s in loaded.lobby.seats)
            r.ephemeral.append(f"**Game #{gid}: {sc.name}** — {g.status.value}, waiting to start.\n"
                               f"Seats: {forces or 'none yet'}.")
            return r
        st = loaded.state
        assert st is not None
        v = view(st)
        where = "over" if v.step == "over" else "card placement" if v.phase == 0 else f"phase {v.phase}"
        lines = [f"**Game #{gid}: {v.scenario_name}** — {g.status.value}, turn {v.turn} of {v.turns}, "
                 f"{where}.",
                 "VP: " + ", ".join(f"{side} {vp}" for side, vp in sorted(v.vp.items())) + ".",
                 "Seats: " + ", ".join(f"{s.name} ({s.side})" for s in v.seats) + "."]
        if v.active is not None:
            lines.append(f"Card in play: {v.active.card.id} {v.active.card.title} "
                         f"({v.active.action.upper()}).")
        users = loaded.users()
        for a in v.awaiting:
            w = _waiting(st, a, users.get(a.seat, OPEN), loaded.deadlines)
            lines.append(f"Waiting for {w.name} to {a.detail}{w.clock()}.")
        lines += battlefield_words.public_lines(v)  # issue 9: markers and mine tokens face down
        if v.result:
            lines.append(f"Result: {v.result.get('reason')}.")
        if g.paused_at is not None:
            lines.append(_paused(g))
        lines.append(f"Deadline per decision: {loaded.hours:g} h.")
        r.ephemeral.append("\n".join(lines))
        await self._saw(gid, caller.user_id)
        return r

    async def hand(self, caller: Caller, where: Where) -> Replies:
        """The caller's private desk, for him alone."""
        loaded, seat = await self._seated(caller, where)
        r = Replies(game_id=loaded.id, version=loaded.game.version)
        r.ephemeral.append(prompts.private_desk(loaded.state, seat))
        await self._saw(loaded.id, caller.user_id)
        return r

    async def _seated(self, caller: Caller, where: Where) -> tuple[_Loaded, int]:
        gid = await self.resolve(caller, where)
        loaded = await self._load(gid)
        if loaded.state is None:
            raise Refused(self._not_active(loaded))
        seat = loaded.seat_of(caller.user_id)
        if seat is None:
            raise NotYours(f"You have no seat in game #{gid}.")
        return loaded, seat

    async def board(self, caller: Caller, where: Where, *, post: bool = False) -> Replies:
        """The board: posted publicly (`post`), else for the caller — his own variant if seated."""
        gid = await self.resolve(caller, where, finished_ok=True)
        loaded = await self._load(gid)
        if loaded.state is None:
            raise Refused(self._not_active(loaded))
        st = loaded.state
        r = Replies(game_id=gid, version=loaded.game.version,
                    channel_id=loaded.game.thread_id or loaded.game.channel_id)
        caption = self._board_caption(gid, st)
        seat = loaded.seat_of(caller.user_id)
        if post:
            r.images.append(ImageRequest("board", st, caption=caption))
            r.ephemeral.append("Posted the board.")
        elif seat is not None:
            r.ephemeral_images.append(ImageRequest("board", st, seat=seat, caption=caption))
        else:
            r.ephemeral_images.append(ImageRequest("board", st, caption=caption))
        await self._saw(gid, caller.user_id)
        return r

    async def soldier(self, caller: Caller, where: Where, word: str) -> Replies:
        """One soldier's card: public ratings and state; his VP only to his own player."""
        gid = await self.resolve(caller, where, finished_ok=True)
        loaded = await self._load(gid)
        st = loaded.state
        if st is None:
            raise Refused(self._not_active(loaded))
        from engine.script import soldier_for
        try:
            serial = soldier_for(st, word.strip())
        except RuleError as exc:
            raise Refused(str(exc)) from None
        seat = loaded.seat_of(caller.user_id)
        mine = view(st, seat) if seat is not None else None
        pub = view(st)
        own_hidden = mine.mine.own_hidden if mine is not None and mine.mine is not None else []  # hidden deployment
        s = next((x for x in [*pub.soldiers, *own_hidden] if x.serial == serial), None)
        if s is None:
            raise Refused(f"Soldier {word!r} is not in play in game #{gid}, or not where you can see him.")
        rt = s.ratings
        marks = [m for m, on in (("spotted", s.spotted), ("pinned", s.pinned), ("wounded", s.wounded)) if on]
        lines = [f"**{s.title} {s.name}** ({s.serial}, {s.side}, {s.weapon or 'no weapon'}) — {s.status}"
                 + (f" at {s.at[0]},{s.at[1]} facing {s.facing.upper()}" if s.at else "")
                 + (f"; {', '.join(marks)}" if marks else "") + ".",
                 f"LOOK sight {rt.sight} draw {rt.draw} · HIDE cover {rt.cover} rally {rt.rally} hold "
                 f"{rt.hold} · MOVE walk {rt.walk} climb {rt.climb} fight {rt.fight} · SHOOT long "
                 f"{rt.long} short {rt.short} close {rt.close} toss {rt.toss}"
                 + (" Hit+" if rt.hit_plus else "") + f" · grenades {s.grenades}, medals {s.medals}."]
        own = mine is not None and mine.mine is not None and serial in mine.mine.soldier_vp
        if own:
            lines.append(f"He is worth {mine.mine.soldier_vp[serial]} VP (only you see this).")
        r = Replies(game_id=gid, version=loaded.game.version)
        r.ephemeral.append("\n".join(lines))
        r.ephemeral_images.append(ImageRequest("soldier", mine if own else pub,
                                               seat=seat if own else None, serial=serial))
        return r

    async def panel(self, caller: Caller, where: Where, plate: int) -> Replies:
        """One vehicle's or gun's panel, for anyone who asks: the panels lie open on the table,
        so it is the public picture whoever calls."""
        gid = await self.resolve(caller, where, finished_ok=True)
        loaded = await self._load(gid)
        st = loaded.state
        if st is None:
            raise Refused(self._not_active(loaded))
        if plate not in st.vehicles:
            here = ", ".join(f"{p} ({st.vehicle_def(p).name})" for p in sorted(st.vehicles))
            raise Refused(f"No vehicle or gun has plate {plate} in game #{gid}. "
                          + (f"Plates: {here}." if here else "This game has no vehicles or guns."))
        pub = view(st)
        v = next(x for x in pub.vehicles if x.plate == plate)
        r = Replies(game_id=gid, version=loaded.game.version)
        r.ephemeral.append(panel_text(pub, v))
        r.ephemeral_images.append(ImageRequest("panel", pub, plate=plate,
                                               caption=f"Game #{gid} — {v.name} ({plate})"))
        return r

    # ================================================================== time and restarts

    async def tick(self, now: datetime | None = None) -> list[Replies]:
        """Deadlines due by `now`: a public reminder at half time; at expiry the engine's
        default for that decision is carried out (docs/app.md lists them). Each deadline is
        claimed in the database first, so with several processes on one file each reminder
        and each default happens once; a claim whose process died is taken again after LEASE.
        Games are carried out side by side (TICK_GAMES at a time), each game's deadlines in
        order; one that fails is logged and left claimed, to be tried again after LEASE, and
        the other games' Replies still come back."""
        now = now or self.clock()
        by_game: dict[int, list[Deadline]] = {}
        for d in await self.store.claim_deadlines(now, LEASE):
            by_game.setdefault(d.game_id, []).append(d)
        gate = asyncio.Semaphore(TICK_GAMES)

        async def game(rows: list[Deadline]) -> list[Replies]:
            async with gate:
                out = []
                for d in rows:
                    try:
                        r = await self._carry_out(d)
                    except StoreUnavailable as exc:  # the store has logged why
                        log.warning("game %d: deadline %s not carried out (%s); tried again in %s",
                                    d.game_id, d.key, exc.reason, LEASE)
                        break
                    except Exception:  # noqa: BLE001 (logged; the claim runs out and another try comes)
                        log.exception("game %d: deadline %s failed; tried again in %s", d.game_id, d.key, LEASE)
                        break
                    if r is not None:
                        out.append(r)
                return out

        done = await asyncio.gather(*(game(rows) for rows in by_game.values()))
        return [r for replies in done for r in replies]

    async def _carry_out(self, d: Deadline) -> Replies | None:
        """One claimed deadline: its reminder or its default, then marked done."""
        key = DeadlineKey.parse(d.key)
        r = None
        if key is not None:
            try:
                r = await (self._remind(d, key) if key.stage == "remind" else self._expire(d, key))
            except Refused as exc:
                log.info("game %d: deadline %s skipped (%s)", d.game_id, d.key, type(exc).__name__)
            else:
                if r is not None:
                    self.counters.deadline_fired("reminder" if key.stage == "remind" else "default")
        await self.store.mark_reminded(d.game_id, d.key, d.user_id)
        return r

    @staticmethod
    def _deadline_for(loaded: _Loaded, key: DeadlineKey, user: int) -> Await | None:
        """The decision a deadline is for, if the game still awaits it from the same player (an
        open seat's: OPEN) and its clocks run."""
        if loaded.state is None or loaded.game.status != GameStatus.ACTIVE or loaded.game.paused_at is not None:
            return None
        if loaded.users().get(key.seat) != user:
            return None
        return next((a for a in awaiting(loaded.state) if key.names(a)), None)

    async def _remind(self, d: Deadline, key: DeadlineKey) -> Replies | None:
        loaded = await self._load(d.game_id)
        a = self._deadline_for(loaded, key, d.user_id)
        if a is None or d.user_id == OPEN:
            return None
        st = loaded.state
        r = Replies(game_id=loaded.id, version=loaded.game.version,
                    channel_id=loaded.game.thread_id or loaded.game.channel_id)
        r.public.append(f"Reminder: half the time for this decision has gone in game #{loaded.id}.")
        r.waiting = [_waiting(st, a, d.user_id, loaded.deadlines)]
        # the prompt again, for the same decision: its buttons and the first one's both work
        _, asks = self._asks(loaded.id, loaded.game.version, st, loaded.users(), loaded.deadlines,
                             loaded.decisions, everyone=True, only=a.seat)
        r.prompts = await self._digests(loaded.id, asks, loaded.seen, self.clock(), loaded.away.digest)
        await self._saw(loaded.id, d.user_id)
        return r

    async def _expire(self, d: Deadline, key: DeadlineKey) -> Replies | None:
        r = await self._default(d.game_id, key, d.user_id)
        if r is not None:
            name, kind = r.public[0], key.kind
            what = "places cards by the simple rule" if kind == "place" else "takes the default"
            r.public[0] = f"Time is up for {name}: the game {what} for them."
        return r

    async def _default(self, gid: int, key: DeadlineKey, user: int) -> Replies | None:
        """The default for the decision `key` names, if it is still awaited from `user`: tried
        again on the stored game when another process commits first (never on the next
        decision). The Replies' first public line is the seat's name, for the caller to word."""
        for conflicts in range(PLAY_RETRIES):
            if conflicts:
                await asyncio.sleep(self._jitter.uniform(0, min(BACKOFF_S, 0.005 * 2 ** conflicts)))
            async with self.locks.for_game(gid):
                loaded = await self._load(gid)
                a = self._deadline_for(loaded, key, user)
                cmd = None if a is None else default_for(loaded.state, a)
                if a is None or cmd is None:
                    return None
                try:
                    after, events = apply(loaded.state, cmd)
                except RuleError as exc:
                    log.warning("game %d: the deadline default for seat %d was refused: %s", gid, a.seat, exc)
                    return None
                try:
                    r = await self._commit(loaded, loaded.state, after, events, cmd=cmd, seat=a.seat,
                                           user=user, by="deadline")
                except VersionConflict:
                    self.counters.conflict()
                    self.counters.retry()
                    self._forget(gid)
                    continue
            r.public.insert(0, loaded.state.seats[a.seat].name)
            return r
        log.warning("game %d: the default for %s lost %d times running to other writers", gid, key, PLAY_RETRIES)
        return None

    async def resume(self, *, rate: float = RESUME_RATE) -> AsyncIterator[Replies]:
        """After a restart: every active game's awaited players, asked again — once per version
        of the game, whatever the number of processes starting: each game is claimed in the
        database at the version this process found it at (`store.claim_resumes`), so a game
        another process asks, or one that moved on since (its mover asked), is left alone. The
        prompts go out at `rate` a second, every process on the database together
        (`store.pace`); each game's Replies comes when its turn has come, so the front end
        delivers as they come and answers commands meanwhile. The prompts sent are recorded,
        so the next change does not ask again."""
        found = [(g.id, g.version) for g in await self.store.unfinished_games() if g.status == GameStatus.ACTIVE]
        for start in range(0, len(found), RESUME_BATCH):
            batch = dict(found[start:start + RESUME_BATCH])
            for gid in await self.store.claim_resumes(list(batch.items())):
                r = await self._resume(gid, batch[gid], rate)
                if r is not None:
                    yield r

    async def _resume(self, gid: int, version: int, rate: float) -> Replies | None:
        """One claimed game's awaited players, asked again if it is still at `version`."""
        try:
            loaded = await self._load(gid)
        except Refused:
            return None
        if loaded.state is None or loaded.game.version != version:
            return None
        waiting, asks = self._asks(gid, version, loaded.state, loaded.users(), loaded.deadlines,
                                   loaded.decisions, everyone=True)
        if asks:
            wait = await self.store.pace("resume", len(asks) / rate)
            if wait > 0:
                await asyncio.sleep(wait)
            if not await self._record_asked(loaded, asks):
                return None  # moved on while waiting its turn: its mover asked
        # a restart may come after a long gap: these are prompts like any other (digest, a look)
        told = await self._digests(gid, asks, loaded.seen, self.clock(), loaded.away.digest)
        for p in asks:
            await self._saw(gid, p.user_id)
        return Replies(game_id=gid, version=version, channel_id=loaded.game.thread_id or loaded.game.channel_id,
                       waiting=waiting, prompts=told)

    async def _record_asked(self, loaded: _Loaded, asks: list[Prompt]) -> bool:
        """Prompts sent again without a change to the game (a restart, a player asking): their
        seats now hold them, if the game has not moved on meanwhile (else False)."""
        news = [replace(loaded.decisions.get(p.seat, SeatDecision(p.seat)), asked=p.decision,
                        asked_version=p.version) for p in asks]
        fresh = [d for d in news if loaded.decisions.get(d.seat) != d]
        if not fresh:
            return True
        if not await self.store.record_decisions(loaded.id, loaded.game.version, fresh):
            return False
        self._forget(loaded.id)
        return True

    async def waiting(self, caller: Caller, where: Where) -> list[Waiting]:
        """Whom the game waits for now (public)."""
        gid = await self.resolve(caller, where, finished_ok=True)
        loaded = await self._load(gid)
        if loaded.state is None or loaded.game.status != GameStatus.ACTIVE:
            return []
        users = loaded.users()
        return [_waiting(loaded.state, a, users.get(a.seat, OPEN), loaded.deadlines) for a in awaiting(loaded.state)]

    async def options(self, caller: Caller, where: Where) -> list[str]:
        """The caller's legal commands now, as script lines: hints, autocomplete, scripted play."""
        loaded, seat = await self._seated(caller, where)
        return [str(c) for c in self._legal(loaded, seat)]

    def _legal(self, loaded: _Loaded, seat: int) -> list[Cmd]:
        key = (loaded.id, loaded.game.version, seat)
        hit = self._legal_cache.get(key)
        if hit is None:
            hit = legal_commands(loaded.state, seat) if loaded.game.status == GameStatus.ACTIVE else []
            self._legal_cache[key] = hit
            while len(self._legal_cache) > 64:
                self._legal_cache.popitem(last=False)
        return hit

    async def suggest(self, caller: Caller, where: Where, what: str, typed: str = "", *,
                      verb: str | None = None, soldier: str | None = None,
                      phase: int | None = None, deck: str | None = None,
                      plate: str | None = None, card: str | None = None,
                      target: str | None = None) -> list[tuple[str, str]]:
        """(label, value) suggestions for a half-typed option. `what`: game, scenario, label,
        force (soldiers to pick), soldier, target, dest, card, plate; for vehicles and crews
        drive (tiles), weapon, ammo, post (shift, mount, repair, extinguish: `verb`), board
        (vehicles to get on), deck (the caller's decks). `soldier` is the actor already chosen,
        `deck` the deck for cards, `plate` the vehicle for mount posts; react and preempt
        (cards to play), preempt-target (enemy cards, for `card`), preempt-men (for `card` and
        `target`). Never raises: no game,
        no seat or nothing legal gives an empty list."""
        try:
            if what == "game":
                return suggest.pick(((f"#{g.id} {g.scenario_id} ({g.status.value})", str(g.id))
                                     for g in await self.games_for(caller, where)), typed)
            if what == "scenario":
                return suggest.pick(((f"{sc.name} ({sc.id})", sc.id)
                                     for sc in self.catalog.scenarios.values()), typed)
            if what == "label":
                return suggest.pick(((f"{label} — {text}", label)
                                     for label, text in await self.snapshot_labels(caller, where)), typed)
            if what == "force":
                return await self._suggest_force(caller, where, typed)
            if what == "seat":  # a running game's seats, numbered from 1 as players read them
                loaded = await self._load(await self.resolve(caller, where))
                if loaded.state is None:
                    return []
                users = loaded.users()
                return suggest.pick(((f"Seat {i + 1}: {s.name} ({s.side.value})", str(i + 1))
                                     for i, s in enumerate(loaded.state.seats)
                                     if users.get(i) is not None), typed)
            if what == "rule":
                return suggest.pick(self.rule_terms(), typed)
            if what == "visible-card":  # cards the caller may look at with /card
                return suggest.pick(((c, c) for c in await self.visible_cards(caller, where)), typed)
            if what == "soldier" and verb == "any":  # any soldier in play: names are public
                loaded = await self._load(await self.resolve(caller, where, finished_ok=True))
                if loaded.state is None:
                    return []
                return suggest.pick(((f"{s.title} {s.name} ({s.serial}, {s.side})", str(s.serial))
                                     for s in view(loaded.state).soldiers), typed)
            if what == "plate":  # vehicles and guns in the game: their panels are public
                loaded = await self._load(await self.resolve(caller, where, finished_ok=True))
                if loaded.state is None:
                    return []
                st = loaded.state
                return suggest.pick(((f"{p} {st.vehicle_def(p).name} ({v.side}, {v.status})", str(p))
                                     for p, v in sorted(st.vehicles.items())), typed)
            loaded, seat = await self._seated(caller, where)
            st = loaded.state
            cmds = self._legal(loaded, seat)
            if what == "soldier":
                pairs = suggest.soldiers(st, seat, cmds, verb)
            elif what == "target":
                pairs = suggest.targets(st, cmds, verb or "", soldier)
            elif what == "dest":
                pairs = suggest.destinations(st, cmds, soldier)
            elif what == "card":
                pairs = suggest.cards(st, seat, phase, cmds, deck=deck)
            elif what == "drive":
                pairs = suggest.drives(st, cmds, soldier)
            elif what == "weapon":
                pairs = suggest.weapons(st, cmds, soldier)
            elif what == "item":  # equipment he may use now (/act toss item:)
                pairs = suggest.items(st, cmds, soldier)
            elif what == "ammo":
                pairs = suggest.ammunition(st, cmds, soldier)
            elif what == "post":
                pairs = suggest.posts(st, cmds, verb or "shift", soldier, plate)
            elif what == "board":
                pairs = suggest.plates(st, cmds, soldier)
            elif what == "deck":
                pairs = suggest.decks(st, seat)
            elif what in ("react", "preempt"):  # advanced cards: the live ones he may play now
                pairs = suggest.window_cards(st, cmds, what)
            elif what == "preempt-target":
                pairs = suggest.preempt_targets(st, cmds, card)
            elif what == "preempt-men":
                pairs = suggest.preempt_men(st, cmds, card, target)
            elif what.startswith("field:"):  # issue 9, /field: "field:VERB:FIELD" (e.g. field:call:kind)
                parts = what.split(":")
                if len(parts) != 3:  # a malformed `what` is nothing to suggest, never an error
                    return []
                _, fverb, fname = parts
                pairs = suggest.battlefield(st, seat, cmds, fverb, fname, soldier)
            else:
                return []
            return suggest.pick(pairs, typed)
        except Refused:
            return []

    async def _suggest_force(self, caller: Caller, where: Where, typed: str) -> list[tuple[str, str]]:
        """The soldiers of the caller's side, completing the last word of a force list."""
        gid = await self.resolve(caller, where)
        loaded = await self._load(gid)
        if loaded.lobby is None:
            return []
        i = loaded.lobby.seat_of(caller.user_id)
        if i is None:
            return []
        side = loaded.lobby.seats[i].side
        head, _, last = typed.rpartition(" ")
        prefix = head + " " if head else ""
        chosen = set(head.split())
        # the chooser alone sees this list: costs are what he needs to stay in his budget
        pairs = [(f"{prefix}{d.serial} {d.name} ({', '.join(f'{r.title} {r.vp} VP' for r in d.ranks)})",
                  f"{prefix}{d.serial}")
                 for d in sorted(self.catalog.soldiers.values(), key=lambda d: d.serial)
                 if d.nationality == side and str(d.serial) not in chosen]
        return suggest.pick(pairs, last)[: suggest.LIMIT]

    async def prompts_for(self, caller: Caller, where: Where) -> Replies:
        """Ask the caller again for whatever he is awaited for (a lost DM, a new device)."""
        loaded, seat = await self._seated(caller, where)
        version = loaded.game.version
        _, asks = self._asks(loaded.id, version, loaded.state, {seat: caller.user_id},
                             loaded.deadlines, loaded.decisions, everyone=True, only=seat)
        await self._record_asked(loaded, asks)
        told = await self._digests(loaded.id, asks, loaded.seen, self.clock(), loaded.away.digest)
        await self._saw(loaded.id, caller.user_id)
        r = Replies(game_id=loaded.id, version=version, prompts=told)
        if not asks:
            r.ephemeral.append("Nothing is waiting for you right now.")
        return r


# the GameState fields an equality test reads last, cheapest first: models and containers of
# models (pydantic compares them in Python), the forces, which most commands change, at the end
_DEEP_FIELDS = ("setup", "soldiers", "weather", "lasting_weather", "active", "seats", "artillery",
                "minefields", "vehicles", "forces")
_CLOCK_FIELDS = frozenset({"seq", "asked_at"})  # what every applied command moves on
_SAME_GAME_ORDER = (*(f for f in GameState.model_fields if f not in {*_DEEP_FIELDS, *_CLOCK_FIELDS}),
                    *_DEEP_FIELDS)
_SAME_GAME_PLAIN = _SAME_GAME_ORDER[:-len(_DEEP_FIELDS)]
_SAME_GAME_DEEP = itemgetter(*_DEEP_FIELDS)  # a state's __dict__ -> the deep fields' values, in C


# StoredGame, SeatDecision, SeenMark and _Answer made with their slots written directly
# (`replies.slot_maker`: every field positionally, in the fields' order; a test holds the lists)
_make_game = slot_maker(StoredGame)
_make_decision = slot_maker(SeatDecision)  # (seat, asked, asked_version, answered, command, sent_at)
_make_mark = slot_maker(SeenMark)  # (user_id, seq, at)


def moved_on(game: StoredGame, version: int, status: GameStatus) -> StoredGame:
    """`replace(game, version=version, state="", status=status)`, the game as a commit leaves it,
    made naming every field (a test holds the list to StoredGame's): `dataclasses.replace` reads
    the class's fields and each value by name on every command."""
    if type(game) is not StoredGame:
        return replace(game, version=version, state="", status=status)
    return _make_game(game.id, game.guild_id, game.channel_id, game.thread_id, game.scenario_id, status,
                      game.organiser_id, version, game.created_at, game.updated_at, game.paused_at, "", game.seats)


def same_game(before: GameState, after: GameState) -> bool:
    """Whether a command left the game as it was: `after == before` but for the command count and
    clock (`seq`, `asked_at`). Pydantic's equality field by field (a field shared by both states
    is equal at once), without copying `after`, the cheap fields first: a changed number or card
    list answers no before the models are walked."""
    a, b = after.__dict__, before.__dict__
    # `all(a[f] == b[f] for f in _SAME_GAME_ORDER)`, the loop in C: the same comparisons in the
    # same order, stopping at the first unequal field (map is lazy). The deep fields as one tuple
    # each: a tuple's equality compares its items in order, stopping likewise, and takes an item
    # that is the very same object as equal without calling its __eq__ (every field's value equals
    # itself: a model, list or dict equals itself). The setup and the models a command left alone
    # are shared by both states, and pydantic compared each of them in Python.
    return (type(after) is type(before)
            and all(map(eq, map(a.__getitem__, _SAME_GAME_PLAIN), map(b.__getitem__, _SAME_GAME_PLAIN)))
            and _SAME_GAME_DEEP(a) == _SAME_GAME_DEEP(b))


def _waiting(st: GameState, a: Await, user: int, deadlines, rows: list | None = None) -> Waiting:
    """One awaited decision for the table: whose (an open seat's user is OPEN), what, and when
    its default applies (or, with the clocks stopped, the time left). `rows`:
    `expiries(deadlines)`, if the caller has it."""
    row = expiry_of(deadlines, a) if rows is None else expiry_in(rows, a)
    return make_waiting(user, a.seat, st.seats[a.seat].name, public_text(st, a.detail),  # Waiting(...)
                        None if row is None else row.due, None if row is None else row.left)


def _paused(game: GameSummary) -> str:
    return (f"Game #{game.id} is paused since {when(game.paused_at)}: its clocks are stopped and nothing "
            "is played until the organiser starts them again (`/game resume`).")


REASON = 200  # characters of an organiser's reason kept in the log


def _reason(text: str | None) -> str | None:
    """An organiser's reason as the log keeps it: one line, at most REASON characters."""
    if text is None or not text.strip():
        return None
    line = " ".join(text.split())
    if problem := text_problem(line):
        raise Refused(problem)
    return line[:REASON]


def _over(game: GameSummary) -> str:
    """A game that has ended, and where to read how."""
    how = "was abandoned" if game.status == GameStatus.ABANDONED else "is over"
    return (f"Game #{game.id} {how} ({game.scenario_id}); nothing more can be played in it. "
            "`/game status`, `/log` and `/board` show how it ended; `/game new` starts another.")


def _window_words(hours: float, setting: float | None) -> str:
    """How long a react or preempt chance waits, as the new-game line says it."""
    w = window_hours(hours, setting)
    return f"a react or preempt chance {w * 60:g} min" if w < 1 else f"a react or preempt chance {w:g} h"


def panel_text(pub: View, v) -> str:
    """A vehicle's panel in a few lines, from the public view: the words beside its picture
    (and all a front end without pictures shows)."""
    if v.status == "board" and v.tile:
        where = f"on {v.tile} facing {v.facing.upper()}" + (f", turret {v.turret.upper()}" if v.turret else "")
    else:
        where = {"waiting": "waiting to enter", "exited": "off the board"}.get(v.status, v.status)
        if v.tile and v.status in ("destroyed", "abandoned"):
            where += f" on {v.tile}"
    marks = [m for m, on in ((f"{v.pins} pin{'s' if v.pins != 1 else ''}", v.pins),
                             (f"{v.move_plus} squares of Move+ saved", v.move_plus), ("hull down", v.hull_down),
                             ("spotted", v.spotted),
                             ("spotted by " + ", ".join(map(str, v.spotted_by)), v.spotted_by)) if on]
    names = {s.serial: s.name for s in pub.soldiers}
    crew = ", ".join(f"{pos.replace('_', ' ')} {names.get(n, n)} ({n})" for pos, n in v.crew.items())
    lines = [f"**{v.name}** ({v.plate}, {v.side}) — {where}" + (f"; {', '.join(marks)}" if marks else "") + ".",
             f"Crew: {crew or 'none'}."
             + (f" Open hatches: {', '.join(p.replace('_', ' ') for p in v.unbuttoned)}." if v.unbuttoned else "")]
    damage = "; ".join(f"{loc.replace('_', ' ')} {', '.join(m)}" for loc, m in v.damage.items())
    if damage or v.cook_off:
        lines.append("Damage: " + (damage or "none") + "."
                     + (f" Cook-off: {', '.join(v.cook_off)}." if v.cook_off else ""))
    if v.ready or v.in_breach or v.in_hand:
        ready = ", ".join(f"{k} {n}" for k, n in v.ready.items())
        lines.append(f"Ready: {ready or 'none'} · in hand: {', '.join(v.in_hand) or 'nothing'}"
                     f" · in breach: {', '.join(v.in_breach) or 'nothing'}.")
    return "\n".join(lines)
