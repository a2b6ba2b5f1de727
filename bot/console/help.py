"""The console's help: the quick reference (docs/quick-reference.md, shipped with the package),
one command's grammar (`help move`), the help topics and rules summaries the Discord bot shows
(`help your turn`, `help hull down`: bot/app/help.py, one source), and "did you mean" for a word
the console does not know.

The command grammar is the engine's (`engine.core.commands.GRAMMAR` and its advanced and
battlefield parts): `help WORD` shows the entries of those texts whose usage starts with WORD,
so a command added there is in the help at once.
"""
from __future__ import annotations

import difflib
import re
from functools import cache

from bot.app.help import Text, load_texts, rules_text, topic_text
from bot.app.quick_reference import for_terminal
from engine.core.commands import ADVANCED_GRAMMAR, BATTLEFIELD_GRAMMAR, GRAMMAR

# the console's own lines, beside the game's commands: word -> (usage, what it does)
CONSOLE: dict[str, tuple[str, str]] = {
    "help": ("help [COMMAND|TOPIC]", "the quick reference, a command's grammar (help move), or a topic (help rolls)"),
    "board": ("board", "the map with its legend, the soldiers and the vehicles"),
    "soldiers": ("soldiers", "the soldier list: where each man is, his state and ratings"),
    "vehicles": ("vehicles", "every vehicle and gun with its crew, damage and ammunition"),
    "hand": ("hand", "your cards, orders and what your soldiers are worth (yours alone)"),
    "options": ("options", "every command you may give now, numbered: a number picks one"),
    "log": ("log", "what happened since you last acted"),
    "undo": ("undo", "take your last command back, if nothing was drawn or revealed since"),
    "legend": ("legend", "what the map's characters mean, and the units of every distance"),
    "card": ("card ID", "one card's parts in words (your own cards and those revealed on the table)"),
    "briefing": ("briefing", "the scenario, its entry and exit areas, and your orders again"),
    "quit": ("quit", "stop playing (a temporary game may be saved to a file first)"),
}
ALIASES = {"exit": "quit", "?": "help", "map": "board"}
VIA = {
    "tag": "the card's dog tag: its owner's own action",
    "team": "the card's team bubble: other men (and the owner) act, as many as it says",
    "note": "the card's narrator box (white: may, blue: must, red: costs cards)",
    "identity": "a command card's identity box: a man whose card was drawn acts",
}
VIA_HELP = ("Before an action, {word} says which part of the card it uses: {what}. Without tag, team "
            "or note the game picks: the part in use if it can take the action, else the team bubble, "
            "else a blue note, else the dog tag.")


@cache
def grammar() -> dict[str, list[str]]:
    """Command verb -> its entry in the engine's grammar (usage line, continuation lines, and
    the note of the section it stands in, e.g. what ACTOR means for the vehicle lines)."""
    out: dict[str, list[str]] = {}
    for text in (GRAMMAR, ADVANCED_GRAMMAR, BATTLEFIELD_GRAMMAR):
        section: str | None = None
        entry: list[str] = []
        for line in text.splitlines() + [""]:
            if line.startswith(" ") and entry:
                entry.append(line)
                continue
            if entry:
                for verb in _verbs(entry[0]):
                    out.setdefault(verb, []).extend(([section] if section else []) + entry)
                entry = []
            if line.rstrip().endswith(":") and not line.startswith(" "):
                section = line.rstrip()
            elif line.strip():
                entry = [line]
    return out


def _verbs(usage: str) -> list[str]:
    """The command words an entry's usage line starts with: "[via] mount S PLATE | dismount S"
    -> mount, dismount."""
    head = re.split(r"\s{2,}", re.sub(r"\s+\|\s+", " | ", usage.strip()))[0]
    head = re.sub(r"^\[(?:tag\|team\|note|via)\]\s*", "", head)
    words = []
    for alt in head.split(" | "):
        alt = re.sub(r"^\[(?:tag\|team\|note|via)\]\s*", "", alt.strip())
        first = alt.split(" ")[0].lower() if alt else ""
        if re.fullmatch(r"[a-z]+", first) and first not in words:
            words.append(first)
    return words


def words() -> list[str]:
    """Every word a console line may start with."""
    return sorted({*grammar(), *CONSOLE, *ALIASES, *VIA})


def suggest(word: str) -> list[str]:
    """The known words closest to a mistyped one (at most three)."""
    return difflib.get_close_matches(word.lower(), words(), n=3, cutoff=0.6)


def unknown(word: str) -> str:
    """What the console says to a line starting with a word it does not know."""
    shown = word if len(word) <= 24 else word[:24] + "…"
    near = suggest(word)
    hint = f" Did you mean {' or '.join(near)}?" if near else ""
    example = f"help {near[0]}" if near else "help move"
    return f"Unknown command {shown!r}.{hint} `help` lists the commands, `{example}` explains one."


def command_help(word: str) -> str:
    """One command's grammar, a console line's use, or a "did you mean" for neither."""
    w = ALIASES.get(word.lower(), word.lower())
    if w in CONSOLE:
        usage, what = CONSOLE[w]
        return f"{usage:<32} {what}"
    if w in VIA:
        return VIA_HELP.format(word=w, what=VIA[w])
    entry = grammar().get(w)
    if entry:
        seen: list[str] = []
        for line in entry:
            if line not in seen:
                seen.append(line)
        return "\n".join(seen) + "\nS, T, V, E: soldiers (dog tag or name); CARD: a card id; TILE: a tile id (12B)."
    near = suggest(w)
    return f"No command {word!r}." + (f" Did you mean {' or '.join(near)}?" if near else "") + \
        " `help` lists them all."


def help_for(words: list[str]) -> str:
    """`help WORDS`: a command's grammar (with a pointer to a help text of the same name), else
    the help topic, else the rules summary the words name; `help topic X` and `help rules X`
    ask for one kind when a word is both a command and a text."""
    kind, rest = (words[0].lower(), words[1:]) if words[0].lower() in ("topic", "rules") and len(words) > 1 \
        else (None, words)
    phrase = " ".join(rest)
    if kind is None and _is_command(rest[0]):
        also = [f"help {k} {rest[0].lower()}" for k, found in (("topic", topic_text), ("rules", rules_text))
                if found(phrase)]
        return command_help(rest[0]) + (f"\nAlso explained in words: {' and '.join(also)}." if also else "")
    text = (topic_text(phrase) if kind != "rules" else None) or (rules_text(phrase) if kind != "topic" else None)
    if text is not None:
        return for_terminal_text(text)
    if kind is None:
        return command_help(rest[0])
    topics, rules = load_texts()
    keys = topics if kind == "topic" else rules
    return f"No {'help topic' if kind == 'topic' else 'rules summary'} {phrase!r}. There are: {', '.join(keys)}."


def _is_command(word: str) -> bool:
    w = ALIASES.get(word.lower(), word.lower())
    return w in CONSOLE or w in VIA or w in grammar()


def for_terminal_text(text: Text) -> str:
    """A help text as the terminal shows it: the title in capitals, no Markdown marks, and a
    word on its slash commands, which are Discord's."""
    body = text.body.replace("**", "").replace("`", "")
    return (f"{text.title.upper()}\n{body}\n(Shared with the Discord bot, whose game commands are slash "
            "commands: here type them without the slash and without act, e.g. move 104 12B; help alone lists "
            "the terminal's words.)")


def quick_reference() -> str:
    """docs/quick-reference.md as terminal text (bot/app/quick_reference.py: the one source),
    then the help topics and rules terms `help` also explains."""
    topics, rules = load_texts()
    return (for_terminal() + "\n\nHELP TOPICS (help TOPIC): " + ", ".join(topics)
            + "\nRULES TERMS (help TERM, or help rules TERM): " + ", ".join(rules))
