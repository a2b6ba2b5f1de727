"""The game's clocks in the organiser's hands (issue 16): stop and start them (`stop_clocks`,
`start_clocks`: each decision keeps the time it had left, to the microsecond), change the
deadline of future decisions (`set_deadline`), give one seat's current decision more time
(`extend`), remind the awaited players now (`nudge`, at most once an hour per game), apply the
current defaults now (`advance`, through the same path as a deadline's expiry); a player's
absence (`away`, `back`) and the game's rules for it and for its channel (`configure`).

A paused game plays nothing: commands, presses and undos are refused, no deadline is claimed.
Each change is one commit with an envelope whose `line` is the log's public line.
"""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.app import eventlog
from bot.app.deadlines import (
    OPEN,
    DeadlineKey,
    extended,
    plan,
    resumed,
    stopped,
    unchanged,
)
from bot.app.errors import AlreadyDone, NotYours, Refused
from bot.app.replies import Caller, Replies, Where
from bot.app.tokens import span, when
from bot.store import GameStatus, Pause, VersionConflict
from engine import awaiting

if TYPE_CHECKING:
    from bot.app.service import GameService, _Loaded

NUDGE_EVERY = timedelta(hours=1)  # per game: a nudge pings people, so not more often
LONGEST_AWAY = timedelta(days=90)
HOURS = (0.05, 720.0)  # a deadline or an extension: three minutes to thirty days
RECLOCK_TRIES = 5

_SPAN = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(d|day|days|h|hour|hours|m|min|minutes?)\s*$", re.IGNORECASE)
_DATE = re.compile(r"^\s*([0-9]{4}-[0-9]{2}-[0-9]{2})(?:[ T]([0-9]{1,2}):([0-9]{2}))?\s*$")
_DISCORD = re.compile(r"^\s*<t:([0-9]{1,12})(?::[tTdDfFR])?>\s*$")


def until(text: str, now: datetime) -> datetime:
    """When an absence typed as `text` ends: a span from now ("3d", "36h", "90m", "2.5 days"),
    a UTC date or date and time ("2026-06-10", "2026-06-10 18:00"), or a Discord timestamp
    pasted as it is ("<t:1781000000:F>", exact in every time zone)."""
    if m := _SPAN.match(text):
        unit = {"d": "days", "h": "hours", "m": "minutes"}[m[2][0].lower()]
        return now + timedelta(**{unit: float(m[1])})
    if m := _DISCORD.match(text):
        return datetime.fromtimestamp(int(m[1]), UTC)
    if m := _DATE.match(text):
        try:
            day = datetime.fromisoformat(m[1]).replace(tzinfo=UTC)
            return day.replace(hour=int(m[2] or 0), minute=int(m[3] or 0))
        except ValueError:
            pass
    raise Refused("Say how long you are away (`3d`, `36h`), until when in UTC (`2026-06-10`, "
                  "`2026-06-10 18:00`), or paste a Discord timestamp (`<t:1781000000:F>`).")


class Clocks:
    """The clock use-cases of `GameService` (a mixin)."""

    async def stop_clocks(self: GameService, caller: Caller, where: Where) -> Replies:
        """Organiser: pause the game; every decision keeps the time it had left."""
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._ordered(caller, gid, "pause the game")
            if loaded.game.paused_at is not None:
                raise AlreadyDone(f"Game #{gid} is already paused, since {when(loaded.game.paused_at)}.")
            now = self.clock()
            rows = await self.store.deadlines(gid)
            line = f"{caller.name} paused the game."
            await self._order(loaded, "paused", line, by=caller, awaited=stopped(rows, now), pause=Pause(now))
        return self._told(loaded, f"**{caller.name} pauses game #{gid}.** The clocks stop: each decision keeps "
                                  "the time it has left, and nothing is played until `/game resume`.",
                          f"Game #{gid} is paused.")

    async def start_clocks(self: GameService, caller: Caller, where: Where) -> Replies:
        """Organiser: the clocks run again; each decision has the time it had left."""
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._ordered(caller, gid, "resume the game")
            paused = loaded.game.paused_at
            if paused is None:
                raise AlreadyDone(f"Game #{gid} is not paused; its clocks run.")
            now = self.clock()
            awaited = resumed(await self.store.deadlines(gid), now)
            line = f"{caller.name} resumed the game after {span(now - paused)}."
            await self._order(loaded, "resumed", line, by=caller, awaited=awaited, pause=Pause(None),
                              paused_for=(now - paused).total_seconds())
        from bot.app.service import _waiting
        r = self._told(loaded, f"**{caller.name} resumes game #{gid}** after {span(now - paused)}: each decision "
                               "has the time it had left.", f"Game #{gid} runs again.")
        users = loaded.users()
        r.waiting = [_waiting(loaded.state, a, users.get(a.seat, OPEN), awaited) for a in awaiting(loaded.state)]
        return r

    async def set_deadline(self: GameService, caller: Caller, where: Where, hours: float,
                           window_hours: float | None = None) -> Replies:
        """Organiser: decisions asked from now on get `hours` (react and preempt chances
        `window_hours`, if given); decisions already asked keep their time."""
        for value in (hours, window_hours):
            if value is not None and not HOURS[0] <= value <= HOURS[1]:
                raise Refused("A deadline is between 3 minutes and 30 days (in hours, e.g. 24).")
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._load(gid)
            await self._need_organiser(caller, loaded.game, "change the deadline")
            if loaded.game.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
                raise Refused(self._not_active(loaded))
            scope = f"game:{gid}"
            was = await self.store.settings(scope)
            if float(was.get("deadline_hours", 24.0)) == hours and window_hours in (None, was.get("window_hours")):
                raise AlreadyDone(f"Game #{gid}'s deadline is {hours:g} h already; nothing was changed.")
            await self.store.set_setting(scope, "deadline_hours", hours)
            if window_hours is not None:
                await self.store.set_setting(scope, "window_hours", window_hours)
            window = f", react and preempt chances {window_hours:g} h" if window_hours is not None else ""
            line = f"{caller.name} set the deadline of new decisions to {hours:g} h{window}."
            await self._order(loaded, "deadline", line, by=caller, hours=hours, window_hours=window_hours)
        return self._told(loaded, f"{line} Decisions already asked keep their time.",
                          f"Game #{gid}: new decisions get {hours:g} h.")

    async def extend(self: GameService, caller: Caller, where: Where, seat: int, hours: float) -> Replies:
        """Organiser: seat `seat`'s current decision (his first awaited) gets `hours` more."""
        if not HOURS[0] <= hours <= HOURS[1]:
            raise Refused("An extension is between 3 minutes and 30 days (in hours, e.g. 12).")
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._ordered(caller, gid, "extend a deadline")
            st = loaded.state
            if not 0 <= seat < len(st.seats):
                raise Refused(f"Game #{gid} has seats 1 to {len(st.seats)}, not {seat + 1}.")
            a = next((a for a in awaiting(st) if a.seat == seat), None)
            if a is None:
                raise Refused(f"The game is not waiting for {st.seats[seat].name} now: nothing to extend.")
            await self._once(gid, caller, f"extend {seat} {hours:g}")
            awaited = extended(await self.store.deadlines(gid), seat, a.key, timedelta(hours=hours))
            due = next((x.due for x in awaited if x.key == str(DeadlineKey.of("expire", a))), None)
            line = f"{caller.name} gave {st.seats[seat].name} {hours:g} h more to {a.detail}."
            await self._order(loaded, "extend", line, by=caller, awaited=awaited, seat=seat, decision=a.key,
                              hours=hours)
        paused = loaded.game.paused_at is not None
        return self._told(loaded, line + ("" if paused or due is None else f" The default now applies {when(due)}."),
                          f"Extended by {hours:g} h.")

    async def nudge(self: GameService, caller: Caller, where: Where) -> Replies:
        """A player or the organiser reminds everyone the game waits for, now (their prompts
        again); at most once per NUDGE_EVERY per game."""
        gid = await self.resolve(caller, where)
        loaded = await self._load(gid)
        if loaded.game.status != GameStatus.ACTIVE or loaded.state is None:
            raise Refused(self._not_active(loaded))
        if loaded.seat_of(caller.user_id) is None and not await self._organiser(caller, loaded.game):
            raise NotYours(f"Only game #{gid}'s players and organiser can nudge it.")
        if loaded.game.paused_at is not None:
            from bot.app.service import _paused
            raise Refused(_paused(loaded.game))
        now = self.clock()
        last = await self.store.get_setting(f"game:{gid}", "nudged_at")
        if last is not None and now - datetime.fromisoformat(last) < NUDGE_EVERY:
            raise Refused(f"Game #{gid} was nudged {when(datetime.fromisoformat(last))}; the next nudge can "
                          f"come {when(datetime.fromisoformat(last) + NUDGE_EVERY)}.")
        await self.store.set_setting(f"game:{gid}", "nudged_at", now.isoformat())
        waiting, asks = self._asks(gid, loaded.game.version, loaded.state, loaded.users(), loaded.deadlines,
                                   loaded.decisions, everyone=True)
        await self._record_asked(loaded, asks)
        r = Replies(game_id=gid, version=loaded.game.version,
                    channel_id=loaded.game.thread_id or loaded.game.channel_id, waiting=waiting)
        r.public.append(f"{caller.name} nudges the table of game #{gid}.")
        r.prompts = await self._digests(gid, asks, loaded.seen, now, loaded.away.digest)
        for p in asks:
            await self._saw(gid, p.user_id)
        r.ephemeral.append("Nudged: everyone the game waits for has their question again.")
        return r

    async def advance(self: GameService, caller: Caller, where: Where) -> Replies:
        """Organiser: apply the default of every decision awaited now, as if its time were up
        (the same path as a deadline's expiry); each at most once."""
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._ordered(caller, gid, "advance the game")
            await self._once(gid, caller, "advance")
        users = loaded.users()
        keys = list(dict.fromkeys((str(DeadlineKey.of("expire", a)), users.get(a.seat, OPEN))
                                  for a in awaiting(loaded.state)))
        done: list[Replies] = []
        for key, user in keys:
            r = await self._default(gid, DeadlineKey.parse(key), user)
            if r is not None:
                r.public[0] = f"{caller.name} advances the game: the default applies for {r.public[0]}."
                done.append(r)
        if not done:
            raise AlreadyDone("Nothing was waiting for a default; nothing was changed.")
        r = await self._merged(gid, done)
        r.ephemeral.append(f"Advanced: {len(done)} default{'s' if len(done) != 1 else ''} applied.")
        return r

    async def away(self: GameService, caller: Caller, text: str) -> Replies:
        """The caller is away until the moment `text` says (`until`): in each of his running
        games his clock waits for his return, or his defaults apply, as the game says."""
        now = self.clock()
        back = until(text, now)
        if back <= now:
            raise Refused(f"That is already past ({when(back)}): say when you are back.")
        if back - now > LONGEST_AWAY:
            raise Refused("An absence is at most 90 days; the organiser can replace a player gone longer.")
        await self.store.set_setting(f"user:{caller.user_id}", "away_until", back.isoformat())
        changed = await self._reclock_games(caller.user_id)
        r = Replies()
        r.ephemeral.append(f"You are away until {when(back)}. "
                           + (f"Your deadlines changed in game{'s' if len(changed) > 1 else ''} "
                              + ", ".join(f"#{g}" for g in changed) + ". " if changed else "")
                           + "Where a game stretches clocks (the default) your time starts again on your return; "
                             "where it applies defaults, they apply at once. `/me back` ends it.")
        return r

    async def back(self: GameService, caller: Caller) -> Replies:
        """The caller's absence ends now."""
        if await self.store.get_setting(f"user:{caller.user_id}", "away_until") is None:
            raise AlreadyDone("You were not away; nothing was changed.")
        await self.store.delete_setting(f"user:{caller.user_id}", "away_until")
        await self._reclock_games(caller.user_id)
        r = Replies()
        r.ephemeral.append("Welcome back: your deadlines run as usual from here on.")
        return r

    async def configure(self: GameService, caller: Caller, where: Where, *, quiet: bool | None = None,
                        away: str | None = None) -> Replies:
        """Organiser: the game's settings. `quiet`: its updates go only to its players and
        watchers by direct message, not to the channel. `away`: "stretch" (an away player's
        clock waits for his return) or "defaults" (his defaults apply at once)."""
        if away is not None and away not in ("stretch", "defaults"):
            raise Refused("`away` is `stretch` (the clock waits for the player's return) or `defaults`.")
        gid = await self.resolve(caller, where)
        loaded = await self._load(gid)
        await self._need_organiser(caller, loaded.game, "change its settings")
        scope = f"game:{gid}"
        was = await self.store.settings(scope)
        wanted = {k: v for k, v in (("quiet", quiet), ("away", away)) if v is not None}
        now = {k: was.get(k, {"quiet": False, "away": "stretch"}[k]) for k in wanted}
        if wanted == now:
            raise AlreadyDone("Those are the game's settings already; nothing was changed.")
        for key, value in wanted.items():
            await self.store.set_setting(scope, key, value)
        if "away" in wanted and loaded.state is not None:
            await self._reclock(gid)
        said = [("quiet: updates go to players and watchers by direct message" if quiet else
                 "not quiet: updates go to the channel") if quiet is not None else "",
                f"away players: {'their clock waits for their return' if away == 'stretch' else 'their defaults apply'}"
                if away is not None else ""]
        r = Replies(game_id=gid, version=loaded.game.version,
                    channel_id=loaded.game.thread_id or loaded.game.channel_id)
        r.public.append(f"{caller.name} changed game #{gid}'s settings: " + "; ".join(x for x in said if x) + ".")
        r.ephemeral.append("Settings changed.")
        return r

    # ------------------------------------------------------------------ shared

    async def _ordered(self: GameService, caller: Caller, gid: int, what: str) -> _Loaded:
        """The running game, fresh from the store, once the caller is found its organiser."""
        loaded = await self._load(gid)
        await self._need_organiser(caller, loaded.game, what)
        if loaded.game.status != GameStatus.ACTIVE or loaded.state is None:
            raise Refused(self._not_active(loaded))
        return loaded

    async def _order(self: GameService, loaded: _Loaded, kind: str, line: str, *, by: Caller,
                     awaited=None, pause: Pause | None = None, **fields) -> None:
        """Commit an organiser's change to the clocks: the game as it is, an envelope, the new
        deadlines and clocks."""
        body = eventlog.envelope(kind, by=by.user_id, line=line, **fields)
        try:
            await self.store.commit(loaded.id, loaded.game.version, loaded.game.state, [body],
                                    awaited=awaited, pause=pause)
        except VersionConflict:
            self.counters.conflict()
            raise Refused("Someone acted at the same moment; nothing was changed. Try again.") from None
        finally:
            self._forget(loaded.id)

    @staticmethod
    def _told(loaded: _Loaded, public: str, ephemeral: str) -> Replies:
        r = Replies(game_id=loaded.id, version=loaded.game.version + 1,
                    channel_id=loaded.game.thread_id or loaded.game.channel_id)
        r.public.append(public)
        r.ephemeral.append(ephemeral)
        return r

    async def _once(self: GameService, gid: int, caller: Caller, what: str) -> None:
        """An organiser's order typed twice within REPEAT (the interaction's own time) is one
        order: the second is already done."""
        from bot.app.service import REPEAT
        if caller.sent_at is None:
            return
        last = await self.store.get_setting(f"game:{gid}", "last_order")
        if (last is not None and last.get("what") == what and last.get("user") == caller.user_id
                and abs(caller.sent_at - datetime.fromisoformat(last["at"])) <= REPEAT):
            raise AlreadyDone("Already done: the same order came twice within a few seconds, and was "
                              "carried out once. Nothing was changed this time.")
        await self.store.set_setting(f"game:{gid}", "last_order",
                                     {"what": what, "user": caller.user_id, "at": caller.sent_at.isoformat()})

    async def _reclock_games(self: GameService, user_id: int) -> list[int]:
        """The user's running games whose deadlines changed with his absence."""
        return [g.id for g in await self.store.games_of_user(user_id)
                if g.status == GameStatus.ACTIVE and await self._reclock(g.id)]

    async def _reclock(self: GameService, gid: int) -> bool:
        """Work the game's deadlines out again (an absence or a rule changed) and commit them if
        they changed; whether they did."""
        for _ in range(RECLOCK_TRIES):
            async with self.locks.for_game(gid):
                self._forget(gid)
                loaded = await self._load(gid)
                if loaded.state is None or loaded.game.status != GameStatus.ACTIVE:
                    return False
                awaited = plan(awaiting(loaded.state), loaded.users(), loaded.deadlines, now=self.clock(),
                               hours=loaded.hours, away=loaded.away.until, stretch=loaded.away.stretch,
                               paused_at=loaded.game.paused_at)
                if unchanged(loaded.deadlines, awaited):
                    return False
                try:
                    await self.store.commit(gid, loaded.game.version, loaded.game.state, [], awaited=awaited)
                except VersionConflict:
                    self.counters.conflict()
                    self.counters.retry()
                    continue
                finally:
                    self._forget(gid)
                return True
        return False
