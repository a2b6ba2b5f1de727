"""One console game over the use-cases: its players, the service, and where what the service
hands back goes — public lines to the table, private ones kept for their player until he sits
at the keyboard (bot/console/hotseat.py) or, in a script, printed only with --private."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.app import Caller, GameService, Replies, Where
from bot.console.text import plain

LIST_NOTE = "(a number picks from this list; it stands until another list is shown)"


@dataclass
class News:
    """Something private waiting for one player: its text, and the numbered choices it offers."""

    text: str
    choices: list[str] | None = None


class Table:
    """The players, the service, and what to print."""

    def __init__(self, service: GameService, callers: list[Caller], gid: int, args, *,
                 db: Path | str | None = None, temporary: bool = False, campaign: int | None = None) -> None:
        self.service, self.callers, self.gid, self.args = service, callers, gid, args
        self.db, self.temporary, self.campaign = db, temporary, campaign
        self.where = Where(game_id=gid)
        self.by_user = {c.user_id: c for c in callers}
        self.waiting_news: dict[int, list[News]] = {c.user_id: [] for c in callers}
        self.choices: dict[int, list[str]] = {}  # the latest numbered list each player was shown
        self.seated: int | None = None  # the player at the keyboard (hot-seat), if any
        self.unseen: dict[int, list[str]] = {c.user_id: [] for c in callers}  # public lines he missed
        self.picture = 0

    def plain(self, line: str) -> str:
        return plain(line, campaign=self.campaign)

    def public(self, line: str) -> None:
        """A line for the whole table: printed, and kept for whoever is away from the keyboard."""
        print(line)
        for user, missed in self.unseen.items():
            if self.seated is not None and user != self.seated:
                missed.append(line)

    def show(self, r: Replies, *, private_to: int | None = None) -> None:
        """Public lines for everyone; private lines kept for their player (or printed now, if
        he is the one at the keyboard); ephemeral lines are the caller's own."""
        for line in r.public:
            self.public(self.plain(line))
        for line in r.ephemeral:
            print(self.plain(line))
        for item in r.private:
            self._keep(item.user_id, News(self.plain(item.text)))
        for p in r.prompts:
            body = self.plain(p.text)
            picks = None
            if p.choices:
                picks = [c.command for c in p.choices]
                body += "\n" + "\n".join(f"  {i + 1}) {self.plain(c.label)}" for i, c in enumerate(p.choices)) \
                    + "\n" + LIST_NOTE
            self._keep(p.user_id, News(body, picks))
        if private_to is not None:
            self.flush(private_to)
        self._pictures(r.images)

    def _keep(self, user_id: int, news: News) -> None:
        if self.args.private and self.args.script:
            print(f"  [to {self.by_user[user_id].name}] " + news.text.replace("\n", "\n    "))
        else:
            self.waiting_news[user_id].append(news)

    def flush(self, user_id: int) -> bool:
        """Print what waited for this player (he is at the keyboard); True if his hand was
        among it. A list of choices printed becomes his latest list; a prompt without one
        leaves no list standing."""
        news, self.waiting_news[user_id] = self.waiting_news[user_id], []
        for item in news:
            print("  (for you) " + item.text.replace("\n", "\n  "))
            if item.choices is not None:
                self.choices[user_id] = item.choices
        return any("Your hand" in item.text for item in news)  # "Your hand:", or "Your hand, squad" per deck

    def _pictures(self, images) -> None:
        """The public boards the game posts (one after every phase) and the panels posted with
        them (vehicles that acted or were hit), as Discord would show them."""
        if not self.args.images:
            return
        from bot.render.files import save_phase_images
        plates = [req.plate for req in images if req.kind == "panel"]
        for req in images:
            if req.kind == "board" and req.public:
                self.picture += 1
                v = req.view
                save_phase_images(v, self.args.images, f"{self.picture:03d}-t{v.turn}p{v.phase}", plates=plates)

    async def waiting(self):
        return await self.service.waiting(self.callers[0], self.where)

    async def state(self):
        return await self.service.load_state(self.gid)
