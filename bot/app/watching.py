"""Spectators (issue 16): a member without a seat watches a game (`watch`, `unwatch`) and gets
its public view by direct message — the table's lines, whom it waits for, the public boards —
never anything of a seat. A player cannot watch his own game (he has his seat's view), and a
watcher who takes a seat stops watching. A game set `quiet` (`/game settings quiet:`) posts
nothing in its channel: its updates go to its players and watchers by direct message.
`audience` tells a front end whom a game's public updates go to.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.app.deadlines import OPEN
from bot.app.errors import AlreadyDone, NotYours, Refused
from bot.app.replies import Caller, ImageRequest, Private, Replies, Where
from bot.store import GameNotFound, GameStatus

if TYPE_CHECKING:
    from bot.app.service import GameService


@dataclass(frozen=True, slots=True)
class Audience:
    """Whom a game's public updates go to besides its channel: `watchers` (never a player of
    it) and, when the game is `quiet` (nothing in the channel), its `players`."""

    watchers: tuple[int, ...] = ()
    players: tuple[int, ...] = ()
    quiet: bool = False


class Watching:
    """The spectators' use-cases of `GameService` (a mixin)."""

    async def watch(self: GameService, caller: Caller, where: Where) -> Replies:
        """Watch a game without a seat: its public view comes by direct message."""
        gid = await self.resolve(caller, where)
        loaded = await self._load(gid)
        if loaded.game.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
            raise Refused(self._not_active(loaded))
        if any(s.user_id == caller.user_id for s in loaded.game.seats):
            raise NotYours(f"You play in game #{gid}: a player sees his own seat's view, and cannot watch "
                           "the game as a spectator.")
        if not await self.store.set_watching(gid, caller.user_id, True):
            raise AlreadyDone(f"You already watch game #{gid}.")
        r = Replies(game_id=gid, version=loaded.game.version)
        r.ephemeral.append(f"You watch game #{gid}: its public updates come to you by direct message. "
                           "`/game unwatch` stops them.")
        glance = (await self.status(caller, Where(game_id=gid))).ephemeral[0]
        pictures = () if loaded.state is None else (
            ImageRequest("board", loaded.state, caption=self._board_caption(gid, loaded.state)),)
        r.private.append(Private(caller.user_id, None, glance, pictures))
        return r

    async def unwatch(self: GameService, caller: Caller, where: Where) -> Replies:
        gid = await self.resolve(caller, where, finished_ok=True)
        if not await self.store.set_watching(gid, caller.user_id, False):
            raise AlreadyDone(f"You do not watch game #{gid}.")
        r = Replies(game_id=gid)
        r.ephemeral.append(f"You no longer watch game #{gid}.")
        return r

    async def audience(self: GameService, game_id: int) -> Audience:
        """Whom game `game_id`'s public updates go to by direct message."""
        try:
            game = await self.store.load_game(game_id)
        except GameNotFound:
            return Audience()
        players = tuple(s.user_id for s in game.seats if s.user_id != OPEN)
        watchers = tuple(u for u in await self.store.watchers(game_id) if u not in players)
        quiet = bool(await self.store.get_setting(f"game:{game_id}", "quiet", False))
        return Audience(watchers, players if quiet else (), quiet)
