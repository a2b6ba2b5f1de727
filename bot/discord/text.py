"""Discord's size limits for what the bot sends (LESSONS: check them, never hit them)."""
from __future__ import annotations

MESSAGE = 2000  # characters in a message
BUTTON_LABEL = 80
SELECT_LABEL = 100
EMBED_TOTAL = 6000
FILES_PER_MESSAGE = 10


def trim(text: str, limit: int = MESSAGE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


FENCE = "```"


def chunks(text: str, limit: int = MESSAGE) -> list[str]:
    """Split `text` into messages of at most `limit` characters, at line ends where possible; a
    code block cut between two messages is closed at the end of one and opened again in the next."""
    if FENCE not in text:
        return _lines(text, limit)
    out: list[str] = []
    open_block = False
    for part in _lines(text, limit - 2 * (len(FENCE) + 1)):
        part = f"{FENCE}\n{part}" if open_block else part
        open_block = part.count(FENCE) % 2 == 1
        out.append(f"{part}\n{FENCE}" if open_block else part)
    return out


def _lines(text: str, limit: int) -> list[str]:
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # one line longer than a message: cut it
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current.strip():
        out.append(current)
    return out
