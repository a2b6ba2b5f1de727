"""Since you last looked (issue 16): the store keeps, per player and game, how far he has read
the log and when he last looked (`seen`). A look is any command he gives, `/log`, `/board`,
`/game status`, `/hand`, and every prompt he is sent. `/log` shows what came since; the first
prompt after a long gap (the game's `digest_hours`, 12 by default) starts with a digest: how
many new lines and the last few of them.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.app import eventlog
from bot.app.deadlines import OPEN
from bot.app.replies import Caller, Prompt, Replies, Where
from bot.app.tokens import when
from bot.store import SeenMark

if TYPE_CHECKING:
    from bot.app.service import GameService

LOG_LINES = 60  # /log shows at most this many lines since the last look
DIGEST_LINES = 3


class Looking:
    """The reading use-cases of `GameService` that know what a player has seen (a mixin)."""

    async def history(self: GameService, caller: Caller, where: Where, *, last: int | None = None) -> Replies:
        """The log as the caller may read it: since he last looked (else since his last command,
        else since the start), or (`last`) the last `last` lines; he has then seen it all."""
        gid = await self.resolve(caller, where, finished_ok=True)
        loaded = await self._load(gid)
        seat = loaded.seat_of(caller.user_id) if loaded.state is not None else None
        logged = eventlog.read(await self.store.events_since(gid))
        r = Replies(game_id=gid, version=loaded.game.version)
        if last is None:
            mark = next((m for m in await self.store.seen(gid) if m.user_id == caller.user_id), None)
            acted = eventlog.last_command_seq(logged, seat) if seat is not None else 0
            if mark is not None:
                since, head = mark.seq, f"**Since you last looked** ({when(mark.at)}):"
            elif acted:
                since, head = acted, "**Since you last acted:**"
            else:
                since, head = 0, "**Since the start:**"
            lines = eventlog.visible_lines(logged, seat, since)
            r.ephemeral.append(head + "\n" + ("\n".join(lines[-LOG_LINES:]) if lines else "nothing new."))
        else:
            lines = eventlog.visible_lines(logged, seat)[-last:]
            r.ephemeral.append("**The last moves:**\n" + ("\n".join(lines) or "nothing yet."))
        if logged:
            await self._mark(gid, caller.user_id, logged[-1][0])
        return r

    async def _saw(self: GameService, gid: int, user_id: int) -> None:
        """The player has looked at the game now (a read, a prompt): his mark moves to its last
        event."""
        if user_id == OPEN:
            return
        hit = self._cache.get(gid)
        known = hit.seen.get(user_id) if hit is not None else None
        events = await self.store.events_since(gid, known.seq if known else 0)
        await self._mark(gid, user_id, events[-1].seq if events else known.seq if known else 0)

    async def _mark(self: GameService, gid: int, user_id: int, seq: int) -> None:
        now = self.clock()
        await self.store.mark_seen(gid, user_id, seq, now)
        hit = self._cache.get(gid)
        if hit is not None:  # so this process's next prompt does not digest what he has read
            was = hit.seen.get(user_id)
            hit.seen = {**hit.seen, user_id: SeenMark(user_id, max(seq, was.seq if was else 0), now)}

    async def _digests(self: GameService, gid: int, asks: list[Prompt], before: dict[int, SeenMark],
                       now: datetime, gap: timedelta) -> list[Prompt]:
        """`asks`, each prompt to a player who last looked `gap` ago or more starting with what
        happened since: how many lines, and the last few."""
        late = {p.user_id: before[p.user_id] for p in asks
                if p.user_id in before and now - before[p.user_id].at >= gap}
        if not late:
            return asks
        logged = eventlog.read(await self.store.events_since(gid, min(m.seq for m in late.values())))
        out = []
        for p in asks:
            mark = late.get(p.user_id)
            if mark is None:
                out.append(p)
                continue
            lines = eventlog.visible_lines([x for x in logged if x[0] > mark.seq], p.seat)
            head = (f"**While you were away** (you last looked {when(mark.at)}): {len(lines)} new "
                    f"line{'s' if len(lines) != 1 else ''} in the log"
                    + (". The latest:\n" + "\n".join(f"> {line}" for line in lines[-DIGEST_LINES:])
                       if lines else ".") + "\n`/log` shows them all.\n\n")
            out.append(replace(p, text=head + p.text))
        return out
