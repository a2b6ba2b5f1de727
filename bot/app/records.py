"""Game records (issue 16): a game's record file — the engine's `Record` (the new_game
parameters and every command still in force, renames of seats included), the format the
console's `--record` writes and `fieldpost replay` reads — and the public story of every phase.

What is safe to hand out: a record holds the seed and every command, so it tells every hand,
every card placed and every draw still to come. It is given only once the game has ended
(finished or abandoned), to anyone who asks. An organiser may export a running game: he gets
the public story by phase and the public board now, nothing more — no seed, no commands, since
he may be a player too.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.app import eventlog
from bot.app.errors import Refused
from bot.app.replies import Attachment, Caller, ImageRequest, Replies, Where
from bot.store import GameStatus, SnapshotInfo
from engine import SeatSpec

if TYPE_CHECKING:
    from bot.app.service import GameService
    from engine.record import Record


def record_of(logged: Sequence[eventlog.Logged]) -> Record:
    """The engine's game record out of the app's log: the start, then every command not taken
    back (a rename of a seat is a command too)."""
    # the record's module (and the positions under it) load when a record is asked for: a quick start
    from engine.record import Record, parse_command_json

    rec = Record()
    kept: list[tuple[int, object]] = []
    for seq, body in logged:
        if body["type"] == "started":
            rec = Record(scenario=body["scenario"], seed=body["seed"],
                         seats=[SeatSpec.model_validate(s) for s in body["seats"]])
        elif body["type"] == "command":
            kept.append((seq, parse_command_json(body["cmd"])))
        elif body["type"] in ("undo", "rollback"):
            kept = [(s, c) for s, c in kept if s <= body["to_seq"]]
    rec.commands = [c for _, c in kept]
    return rec


def story(title: str, logged: Sequence[eventlog.Logged], snapshots: Sequence[SnapshotInfo]) -> str:
    """The public lines of the game, under a heading per phase (the phases' snapshots say where
    each began), as Markdown."""
    starts = sorted((s.seq, s.label) for s in snapshots)
    out = [f"# {title}", ""]
    phase = None
    for seq, line in eventlog.visible(logged, None):
        here = next((label for at, label in reversed(starts) if at < seq), None)
        if here != phase:
            phase = here
            out += ["", f"## {eventlog.describe_label(here).capitalize() if here else 'Before the start'}", ""]
        out.append(line)
    return "\n".join(out).rstrip() + "\n"


class Records:
    """The record use-case of `GameService` (a mixin)."""

    async def record(self: GameService, caller: Caller, where: Where) -> Replies:
        """The game's record file and public story (an ended game), or, for the organiser, a
        running game's public story and board."""
        gid = await self.resolve(caller, where, finished_ok=True)
        loaded = await self._load(gid)
        if loaded.state is None:
            raise Refused(f"Game #{gid} has not started: there is nothing to record yet.")
        ended = loaded.game.status in (GameStatus.FINISHED, GameStatus.ABANDONED)
        if not ended:
            await self._need_organiser(caller, loaded.game, "export a running game")
        logged = eventlog.read(await self.store.events_since(gid))
        st = loaded.state
        title = f"Game #{gid}: {st.setup.scenario.name} ({st.setup.scenario.id}), the public record"
        r = Replies(game_id=gid, version=loaded.game.version)
        r.attachments.append(Attachment(f"game-{gid}-story.md",
                                        story(title, logged, await self.store.snapshots(gid)).encode()))
        r.ephemeral_images.append(ImageRequest("board", st, caption=self._board_caption(gid, st)))
        if ended:
            r.attachments.insert(0, Attachment(f"game-{gid}.record.json", record_of(logged).dumps().encode()))
            r.ephemeral.append(f"Game #{gid}'s record (`fieldpost replay game-{gid}.record.json` replays it) and "
                               "the public story of every phase.")
        else:
            r.ephemeral.append(f"Game #{gid} is still running: here is its public story and board. Its record "
                               "(seed and commands, which tell every hand) is given once the game has ended.")
        return r
