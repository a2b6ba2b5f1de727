"""Statistics per server (issue 16): a player's games played and won, his soldiers lost and the
enemies his men killed, and the medals his men hold in the server's campaigns (`stats`); the
most active players of a server (`server_stats`).

The commit that finishes a game keeps each seat's part (`PlayerResult`, written by
`results_of`), credited to whoever held the seat at the end; the store adds them up in one
query. Abandoned games count for nothing. Medals are read from the server's campaigns' rosters.
"""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from bot.app.deadlines import OPEN
from bot.app.errors import Refused
from bot.app.replies import Caller, Replies, Where
from bot.app.tokens import who
from bot.store import PlayerResult, PlayerTotals, StoredGame
from engine import GameState

if TYPE_CHECKING:
    from bot.app.service import GameService

TOP = 10  # players in /stats server


def results_of(game: StoredGame, st: GameState, now: datetime) -> list[PlayerResult]:
    """Each held seat's part in the finished game `st`: won, lost or drawn; soldiers lost (dead
    or a prisoner at the end); enemies killed by his men and vehicles."""
    winner = st.result.winner if st.result is not None else None
    out = []
    for seat in game.seats:
        if seat.user_id == OPEN:
            continue
        i = seat.seat_index
        side = st.seats[i].side
        mine = [s for s in st.soldiers.values() if st.forces[s.force].seat == i]
        vehicles = [v for v in st.vehicles.values() if v.force in st.forces and st.forces[v.force].seat == i]
        outcome = "draw" if winner is None else "won" if winner == side else "lost"
        lost = sum(1 for s in mine if s.status == "dead" or s.captor is not None)
        killed = sum(s.kills for s in mine) + sum(v.kills for v in vehicles)
        out.append(PlayerResult(game.id, i, seat.user_id, game.guild_id, side.value, outcome, lost, killed, now))
    return out


class Statistics:
    """The statistics use-cases of `GameService` (a mixin)."""

    async def stats(self: GameService, caller: Caller, where: Where, user_id: int | None = None) -> Replies:
        """One player's totals in this server (the caller's if `user_id` is None)."""
        guild = _guild(where)
        user = caller.user_id if user_id is None else user_id
        totals = await self.store.player_totals(guild, user)
        medals = (await self._medals(guild)).get(user, 0)
        r = Replies()
        if not totals and not medals:
            r.ephemeral.append(f"{who(user)} has no finished game in this server yet.")
            return r
        t = totals[0] if totals else PlayerTotals(user, 0, 0, 0, 0)
        r.ephemeral.append(f"**{who(user)} in this server:** {t.games} game{'s' if t.games != 1 else ''} played, "
                           f"{t.won} won; soldiers lost {t.lost}, enemies killed {t.killed}; "
                           f"medals held by their men in campaigns: {medals}.")
        return r

    async def server_stats(self: GameService, caller: Caller, where: Where) -> Replies:
        """The most active players of this server: games, wins, losses, kills, medals."""
        guild = _guild(where)
        totals = await self.store.player_totals(guild, limit=TOP)
        medals = await self._medals(guild)
        r = Replies()
        if not totals:
            r.ephemeral.append("No game has finished in this server yet.")
            return r
        rows = [f"{n}. {who(t.user_id)} — {t.games} played, {t.won} won, {t.lost} lost, {t.killed} killed, "
                f"{medals.get(t.user_id, 0)} medals" for n, t in enumerate(totals, 1)]
        r.ephemeral.append("**The most active players here** (finished games):\n" + "\n".join(rows))
        return r

    async def _medals(self: GameService, guild: int) -> dict[int, int]:
        """Medals on each player's roster, over the server's campaigns."""
        # the campaign rules load only when asked: a quick start
        from engine.campaign.roster import CampaignState

        out: dict[int, int] = {}
        for summary in await self.store.campaigns_in_guild(guild):
            state = CampaignState.model_validate_json((await self.store.load_campaign(summary.id)).state)
            for p in state.players:
                out[p.user_id] = out.get(p.user_id, 0) + sum(
                    1 for e in p.roster for h in e.honours if h.category == "medal")
        return out


def _guild(where: Where) -> int:
    if not where.guild_id:
        raise Refused("Statistics are per server: ask in a server's channel.")
    return where.guild_id


