"""Help and learning (issue 16): the help topics, the short rules summaries and a card read
part by part. The texts are data, in our own words: `assets/help/topics/<topic>.md` and
`assets/help/rules/<term>.md`, each a `# Title` line and a body of at most MAX_TEXT characters
(one Discord message, with room to spare); `load_texts` reads and checks them, so a console
shows the same texts. A help text names slash commands as `` `/game join` ``; the tests check
every one against the command tree.

`card` shows a card only to who may see it: his own cards (hand, placed, held, fight cards),
and cards the table has seen face up (revealed now, or in a public line of the log).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from bot.app import eventlog, quick_reference
from bot.app.errors import NoGame, Refused
from bot.app.replies import Caller, Replies, Where
from engine import ContentError
from engine.core.content import default_root
from engine.view import CardView, card_view, private_view, view

if TYPE_CHECKING:
    from bot.app.service import GameService

TOPICS = ("getting-started", "your-turn", "cards-and-actions", "vehicles", "artillery-and-mines",
          "campaigns", "rolls", "organisers")
MAX_TEXT = 1800
KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SLASH = re.compile(r"`(/[^`]+)`")


@dataclass(frozen=True, slots=True)
class Text:
    """One help topic or rules term: its key (the file's name), title and body (Markdown)."""

    key: str
    title: str
    body: str
    aliases: tuple[str, ...] = ()

    def shown(self) -> str:
        return f"**{self.title}**\n{self.body}"


def _read(path: Path) -> Text:
    """A text file: `# Title`, optionally `Also: word, word` (other names of a rules term),
    then the body."""
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError(f"{path}: cannot be read ({exc})") from None
    lines = raw.strip().splitlines()
    if not lines or not lines[0].startswith("# ") or not lines[0][2:].strip():
        raise ContentError(f"{path}: the first line is the title, `# Title`")
    aliases: tuple[str, ...] = ()
    rest = lines[1:]
    if rest and rest[0].startswith("Also:"):
        aliases = tuple(a.strip().lower() for a in rest[0][5:].split(",") if a.strip())
        rest = rest[1:]
    body = "\n".join(rest).strip()
    if not body:
        raise ContentError(f"{path}: the text has a title and no body")
    text = Text(path.stem, lines[0][2:].strip(), body, aliases)
    if len(text.shown()) > MAX_TEXT:
        raise ContentError(f"{path}: {len(text.shown())} characters; a help text has at most {MAX_TEXT}")
    if not KEY.match(path.stem):
        raise ContentError(f"{path}: a help file is named in lower case words joined by -")
    return text


@cache
def load_texts(root: Path | None = None) -> tuple[dict[str, Text], dict[str, Text]]:
    """(help topics, rules terms) by key, read from `root` (default assets/help) and checked:
    every topic of TOPICS has its file and there is no other; every file has a title, a body
    within MAX_TEXT characters; no rules term or alias names two texts."""
    root = root or default_root() / "assets" / "help"
    topics = {p.stem: _read(p) for p in sorted((root / "topics").glob("*.md"))}
    if missing := [t for t in TOPICS if t not in topics]:
        raise ContentError(f"{root / 'topics'}: no help text for {', '.join(missing)}")
    if extra := sorted(set(topics) - set(TOPICS)):
        raise ContentError(f"{root / 'topics'}: {', '.join(extra)} is not a help topic (bot/app/help.py, TOPICS)")
    rules = {p.stem: _read(p) for p in sorted((root / "rules").glob("*.md"))}
    names: dict[str, str] = {}
    for key, text in rules.items():
        for name in (key, *text.aliases):
            if name in names:
                raise ContentError(f"{root / 'rules'}: {name!r} names both {names[name]} and {key}")
            names[name] = key
    return {t: topics[t] for t in TOPICS}, rules


def commands_named(text: str) -> list[list[str]]:
    """The slash commands a text names (`` `/game join side:US` `` -> ["game", "join"]): the
    words after the slash up to the first option or value."""
    out = []
    for quoted in SLASH.findall(text):
        words = []
        for word in quoted[1:].split():
            if not re.fullmatch(r"[a-z][a-z-]*", word):
                break
            words.append(word)
        out.append(words)
    return out


def _term(word: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", word.strip().lower().replace("+", " plus")).strip("-")


def topic_text(word: str) -> Text | None:
    """The help topic `word` names (its key, any case, spaces for hyphens)."""
    return load_texts()[0].get(_term(word))


def rules_text(word: str) -> Text | None:
    """The rules summary `word` names: its key or one of its other names ("take cover")."""
    rules = load_texts()[1]
    wanted = _term(word)
    return rules.get(wanted) or next((t for t in rules.values() if wanted in map(_term, t.aliases)), None)


PARTS = {
    "look": "LOOK", "hide": "HIDE", "move": "MOVE", "shoot": "SHOOT",
}


def card_text(c: CardView) -> str:
    """A card, part by part, with what each part does (cards-and-actions in the help)."""
    acts = " or ".join(PARTS.get(a, a.upper()) for a in c.actions)
    lines = [f"**{c.id} {c.title}** — {c.owner_name}'s card, played in a {acts} phase."]
    lines.append(f"• Dog tag: {c.owner_name} may take one {acts} action of his own (his soldier card's "
                 f"{acts} box says which and how far).")
    if c.team:
        team = "; ".join(f"up to {t.count} soldier{'s' if t.count != 1 else ''} each {t.do}" for t in c.team)
        lines.append(f"• Team bubble: {team} — any of your men, each once, the dog tag soldier too.")
    if c.narrator:
        kind = {"red": "a cost or condition: unmet or unpaid, the whole card is cancelled",
                "blue": "it must happen when the card is played",
                "white": "he may do it"}.get(c.narrator_color or "white", "he may do it")
        lines.append(f"• Narrator box ({c.narrator_color or 'white'}, {kind}): {c.narrator}")
    hits = ", ".join(f"{band} {result}" for band, result in c.hit.items())
    lines.append(f"• Hit check (read when this card is drawn for a shot or a blast): {hits}.")
    lines.append(f"• Damage result (read when this card is drawn for a hit on a soldier): {c.damage}.")
    lines.append("Parts are carried out one at a time, each finished before the next (`/act done`).")
    return "\n".join(lines)


class Learning:
    """The help use-cases of `GameService` (a mixin)."""

    async def help(self: GameService, topic: str | None = None) -> Replies:
        """A help topic; without one, the quick reference (the console's `help`, one source:
        bot/app/quick_reference.py) and the list of topics."""
        topics, _ = load_texts()
        r = Replies()
        if topic is None or not topic.strip():  # the console's `help` page, then the topics
            r.ephemeral.append(quick_reference.for_chat())
            r.ephemeral.append("**More help** — `/help topic:` one of: "
                               + ", ".join(f"{t.key} ({t.title})" for t in topics.values())
                               + ". `/rules topic:` explains a rules term, `/card id:` a card.")
            return r
        text = topic_text(topic)
        if text is None:
            raise Refused(f"There is no help topic {topic!r}; topics: {', '.join(topics)}.")
        r.ephemeral.append(text.shown())
        return r

    async def rules(self: GameService, term: str) -> Replies:
        """The short rules summary of a term (LOOK, Hit+, bog, hull down...)."""
        _, rules = load_texts()
        wanted = _term(term)
        text = rules_text(term)
        if text is None:
            close = [k for k in rules if wanted and (wanted in k or k in wanted)]
            raise Refused(f"No rules summary for {term!r}. Terms: {', '.join(close or sorted(rules))}.")
        r = Replies()
        r.ephemeral.append(text.shown())
        return r

    def rule_terms(self: GameService) -> list[tuple[str, str]]:
        """(title, key) of every rules summary, for suggestions."""
        return [(t.title, t.key) for t in load_texts()[1].values()]

    async def card(self: GameService, caller: Caller, where: Where, card_id: str) -> Replies:
        """A card the caller may see, part by part."""
        gid = await self.resolve(caller, where, finished_ok=True)
        loaded = await self._load(gid)
        if loaded.state is None:
            raise Refused(self._not_active(loaded))
        wanted = card_id.strip()
        visible = await self._visible_cards(gid, loaded.state, loaded.seat_of(caller.user_id))
        match = next((c for c in visible if c.lower() == wanted.lower()), None)
        if match is None:
            raise Refused(f"You cannot see a card {wanted!r} in game #{gid}: you see your own cards and cards "
                          "the table has seen face up.")
        r = Replies(game_id=gid, version=loaded.game.version)
        r.ephemeral.append(card_text(card_view(loaded.state, match)))
        return r

    async def visible_cards(self: GameService, caller: Caller, where: Where) -> list[str]:
        """The ids of the cards the caller may look at in the game (for suggestions)."""
        try:
            gid = await self.resolve(caller, where, finished_ok=True)
            loaded = await self._load(gid)
        except NoGame:
            return []
        if loaded.state is None:
            return []
        return sorted(await self._visible_cards(gid, loaded.state, loaded.seat_of(caller.user_id)))

    async def _visible_cards(self: GameService, gid: int, st, seat: int | None) -> set[str]:
        """His own cards (a seat's whole desk) and every card shown face up: in the public
        view now, or named as a card in a public event of the log."""
        out: set[str] = set()
        pub = view(st)
        out |= {slot.card.id for f in pub.forces for slot in f.slots if slot.card is not None}
        if pub.active is not None:
            out.add(pub.active.card.id)
        for _, body in eventlog.read(await self.store.events_since(gid)):
            if body["type"] == "engine" and body.get("to") is None:
                card = (body.get("data") or {}).get("card")
                if isinstance(card, str):
                    out.add(card)
        if seat is not None:
            mine = private_view(st, seat)
            for f in mine.forces:
                out |= {c.id for c in f.hand} | {c.id for c in f.placed if c is not None}
            out |= {c.id for c in mine.hand} | {c.id for c in mine.placed if c is not None}
            out |= {c.id for cards in mine.held.values() for c in cards} | {c.id for c in mine.fight_cards}
        return out & set(st.setup.cards)
