"""Seats over time (issue 16): a running game's seat changes hands — the organiser replaces a
player (`replace_player`), a player leaves (`leave`, the seat then plays its defaults), a late
joiner takes an open seat (`join`) — and the organiser hands the game to someone else
(`hand_over`).

A change is one commit: the store's seats table names the new holder, the log gets a `seat`
envelope (seat, old user, new user, by, reason) and the engine's `SeatName` command (so the
texts and a replayed record name the new player), the seat's decision record starts afresh and
its deadlines are the new holder's, with a whole clock. The new holder gets the seat's desk
(hand, orders, every secret of the seat) and its prompt; the old one's buttons refuse at once
(a press is judged on the seat's holder now). Nobody else learns anything of the seat.

An open seat has user OPEN (0) and the name `Seat N (open, SIDE)`; its decisions fall due at
once and the deadline check applies their defaults. A campaign game's seats belong to the
campaign's players and do not change hands.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bot.app import eventlog, prompts
from bot.app.deadlines import OPEN
from bot.app.errors import AlreadyDone, NotYours, Refused
from bot.app.replies import Caller, Private, Replies, Where
from bot.app.tokens import who
from bot.store import GameStatus, Seat, SeatDecision, VersionConflict
from engine import GameState, RuleError, apply
from engine.core.commands import SeatName

if TYPE_CHECKING:
    from bot.app.service import GameService, _Loaded


def open_name(seat: int, side: str) -> str:
    """How the texts name a seat nobody holds."""
    return f"Seat {seat + 1} (open, {side})"


class Seating:
    """The seat-changing use-cases of `GameService` (a mixin: it uses the service's loading,
    locking and committing)."""

    async def replace_player(self: GameService, caller: Caller, where: Where, seat: int, user_id: int,
                             name: str, reason: str | None = None) -> Replies:
        """Organiser: `user_id` (called `name`) takes over seat `seat` (the engine's index, from
        0) of a running game, open or held; `reason` is kept in the log."""
        from bot.app.service import _reason
        reason = _reason(reason)
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._running(gid)
            await self._need_organiser(caller, loaded.game, "replace a player")
            await self._seats_change(loaded)
            if not 0 <= seat < len(loaded.state.seats):
                raise Refused(f"Game #{gid} has seats 1 to {len(loaded.state.seats)}, not {seat + 1}.")
            holder = loaded.users().get(seat)
            if holder == user_id:
                raise AlreadyDone(f"{name} already holds seat {seat + 1} of game #{gid}; nothing was changed.")
            if loaded.seat_of(user_id) is not None:
                raise Refused(f"{name} already plays seat {loaded.seat_of(user_id) + 1} of game #{gid}: "
                              "one seat per player.")
            r = await self._change_seat(loaded, seat, user_id, name, by=caller, reason=reason)
        old = loaded.state.seats[seat].name
        side = loaded.state.seats[seat].side.value
        r.public.insert(0, f"**{name} takes over seat {seat + 1} ({side}) from {old}** in game #{gid}, "
                           f"by {caller.name}'s decision" + (f": {reason}" if reason else "."))
        if holder not in (OPEN, None):
            r.private.append(Private(holder, None, f"You no longer hold seat {seat + 1} of game #{gid}: "
                                                   f"{name} plays it from now on. Thank you for playing."))
        r.ephemeral.append(f"{name} holds seat {seat + 1} of game #{gid} now; the seat's cards went to them.")
        return r

    async def leave(self: GameService, caller: Caller, where: Where) -> Replies:
        """Give up one's seat: in the lobby the seat goes; in a running game it stays open and
        plays its defaults until someone takes it (`join`)."""
        gid = await self.resolve(caller, where)
        if (await self._load(gid)).lobby is not None:
            return await self._leave_lobby(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._running(gid)
            seat = loaded.seat_of(caller.user_id)
            if seat is None:
                raise NotYours(f"You have no seat in game #{gid}.")
            await self._seats_change(loaded)
            side = loaded.state.seats[seat].side.value
            r = await self._change_seat(loaded, seat, OPEN, open_name(seat, side), by=caller, reason=None)
        r.public.insert(0, f"**{caller.name} leaves game #{gid}.** Their seat ({side}) plays its defaults "
                           f"until someone takes it with `/game join side:{side}`.")
        r.ephemeral.append(f"You left game #{gid}; your seat plays its defaults now.")
        return r

    async def join(self: GameService, caller: Caller, where: Where, side: str) -> Replies:
        """Take a seat on `side`: in the lobby a new seat (or a move to that side); in a running
        game an open seat of that side."""
        gid = await self.resolve(caller, where)
        if (await self._load(gid)).lobby is not None:
            return await self._join_lobby(caller, where, side)
        async with self.locks.for_game(gid):
            loaded = await self._running(gid)
            await self._seats_change(loaded)
            wanted = side.strip().upper()
            if (mine := loaded.seat_of(caller.user_id)) is not None:
                raise AlreadyDone(f"You already play seat {mine + 1} of game #{gid}.")
            users = loaded.users()
            free = [i for i, s in enumerate(loaded.state.seats) if users.get(i) == OPEN]
            fits = [i for i in free if loaded.state.seats[i].side.value == wanted]
            if not fits:
                sides = ", ".join(f"{loaded.state.seats[i].side.value} (seat {i + 1})" for i in free)
                raise Refused(f"Game #{gid} has already started and has no open {wanted} seat"
                              + (f"; open: {sides}." if sides else "; every seat is taken."))
            seat = fits[0]
            r = await self._change_seat(loaded, seat, caller.user_id, caller.name, by=caller, reason=None)
        r.public.insert(0, f"**{caller.name} takes the open {wanted} seat** (seat {seat + 1}) of game #{gid}.")
        r.ephemeral.append(f"You play seat {seat + 1} ({wanted}) of game #{gid}; your cards come by direct message.")
        return r

    async def hand_over(self: GameService, caller: Caller, where: Where, user_id: int, name: str) -> Replies:
        """Organiser: the game's organiser role goes to `user_id` (who need not play)."""
        gid = await self.resolve(caller, where)
        async with self.locks.for_game(gid):
            loaded = await self._load(gid)
            await self._need_organiser(caller, loaded.game, "hand the game over")
            if loaded.game.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
                raise Refused(self._not_active(loaded))
            if loaded.game.organiser_id == user_id:
                raise AlreadyDone(f"{name} already organises game #{gid}; nothing was changed.")
            body = eventlog.envelope("organiser", old=loaded.game.organiser_id, new=user_id, by=caller.user_id,
                                     line=f"{caller.name} hands the organiser's role to {name}.")
            try:
                done = await self.store.commit(gid, loaded.game.version, loaded.game.state, [body],
                                               organiser_id=user_id)
            except VersionConflict:
                self.counters.conflict()
                raise Refused("Someone acted first; try again.") from None
            self._forget(gid)
        r = Replies(game_id=gid, version=done.version, channel_id=loaded.game.thread_id or loaded.game.channel_id)
        r.public.append(f"{caller.name} hands the organiser's role of game #{gid} to {name}.")
        r.private.append(Private(user_id, None, f"You organise game #{gid} now ({who(caller.user_id)} "
                                                "handed it to you): `/help topic:organisers` says what you can do."))
        r.ephemeral.append(f"{name} organises game #{gid} now.")
        return r

    # ------------------------------------------------------------------ the one way a seat changes

    async def _running(self: GameService, gid: int) -> _Loaded:
        loaded = await self._load(gid)
        if loaded.game.status != GameStatus.ACTIVE or loaded.state is None:
            raise Refused(self._not_active(loaded))
        return loaded

    async def _seats_change(self: GameService, loaded: _Loaded) -> None:
        if await self.store.get_setting(f"game:{loaded.id}", "campaign") is not None:
            raise Refused(f"Game #{loaded.id} is a campaign's scenario: its seats belong to the campaign's "
                          "players and do not change hands (`/me away` stretches a player's clock).")

    async def _change_seat(self: GameService, loaded: _Loaded, seat: int, user_id: int, name: str, *,
                           by: Caller, reason: str | None) -> Replies:
        """Commit seat `seat` going to `user_id` (OPEN: nobody) named `name`; Replies with the new
        holder's desk and prompt, the public lines left to the caller."""
        st = loaded.state
        old = loaded.users().get(seat, OPEN)
        cmd = SeatName(seat=seat, name=name)
        try:
            after, events = apply(st, cmd)
        except RuleError as exc:
            raise Refused(str(exc)) from None
        seats = [Seat(s.seat_index, s.side, user_id, name) if s.seat_index == seat else s for s in loaded.game.seats]
        moved = replace(loaded, game=replace(loaded.game, seats=tuple(seats)),
                        decisions={**loaded.decisions, seat: SeatDecision(seat)})
        bodies = [eventlog.envelope("seat", seat=seat, old=old, new=user_id, by=by.user_id, reason=reason,
                                    line=_line(st, seat, name, user_id)),
                  eventlog.command_envelope(cmd, seat=seat, user=user_id, by="seat", undoable=False),
                  *eventlog.engine_events(events)]
        try:
            r = await self._write(moved, st, after, events, bodies, snapshot=False,
                                  seats=seats, baseline=loaded.decisions)
        except VersionConflict:
            self.counters.conflict()
            self._forget(loaded.id)
            raise Refused("Someone acted at the same moment; nothing was changed. Try again.") from None
        if user_id != OPEN:
            await self.store.set_watching(loaded.id, user_id, False)  # a player is no spectator
            r.private.insert(0, Private(user_id, seat, f"You hold seat {seat + 1} ({st.seats[seat].side.value}) "
                                                       f"of game #{loaded.id} now. Your cards:\n"
                                                       + prompts.private_desk(after, seat)))
        return r

    def _renamed(self: GameService, loaded: _Loaded, earlier: GameState) -> tuple[GameState, list[str]]:
        """An earlier state (a snapshot to roll back to) with its seats named for their holders
        now, and the log bodies of the renames."""
        bodies: list[str] = []
        users = loaded.users()
        for seat, now in enumerate(loaded.state.seats):
            if earlier.seats[seat].name != now.name:
                cmd = SeatName(seat=seat, name=now.name)
                earlier, _ = apply(earlier, cmd)
                bodies.append(eventlog.command_envelope(cmd, seat=seat, user=users.get(seat, OPEN), by="seat",
                                                        undoable=False))
        return earlier, bodies


def _line(st: GameState, seat: int, name: str, user_id: int) -> str:
    """The log's public line for a seat changing hands."""
    old, side = st.seats[seat].name, st.seats[seat].side.value
    if user_id == OPEN:
        return f"{old} left; seat {seat + 1} ({side}) plays its defaults."
    return f"{name} takes over seat {seat + 1} ({side}) from {old}."
