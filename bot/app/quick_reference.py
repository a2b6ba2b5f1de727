"""The quick reference (docs/quick-reference.md, shipped in the package) for every front end:
one page, one source. The console prints it as plain text (`help`), Discord as Markdown with
its aligned blocks fenced (`/help`)."""
from __future__ import annotations

from engine.core.content import shipped_root

CHAT_NOTE = ("On Discord the game's commands below are slash commands with the same words as options: "
             "`/plan`, `/act move soldier:104 to:12B`, `/vehicle`, `/field`; `/hand`, `/board` and `/log` "
             "are the terminal's hand, board and log.")
MISSING = "The quick reference is missing from this installation; `help COMMAND` explains one command."


def page() -> str | None:
    """The page as written, or None if this installation lacks it."""
    try:
        return (shipped_root() / "docs" / "quick-reference.md").read_text(encoding="utf-8")
    except OSError:
        return None


def for_terminal() -> str:
    """Plain text: headings in capitals, no Markdown marks."""
    text = page()
    if text is None:
        return MISSING
    lines = []
    for line in text.splitlines():
        if line.startswith("```"):
            continue
        if line.startswith("#"):
            line = line.lstrip("#").strip().upper()
        lines.append(line.replace("`", ""))
    return "\n".join(lines).strip()


def for_chat() -> str:
    """Discord Markdown: headings in bold, the page's indented (aligned) blocks in code fences,
    which keep their columns in a chat's proportional font."""
    text = page()
    if text is None:
        return MISSING.replace("`help COMMAND`", "`/act`'s options")
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        block = line.startswith("    ")
        if block and not fenced:
            out.append("```")
        elif fenced and not block and line.strip():
            if out and out[-1] == "":
                out.pop()
            out += ["```", ""]
        fenced = block or (fenced and not line.strip())
        if line.startswith("#"):
            line = f"**{line.lstrip('#').strip()}**"
        out.append(line[4:].replace("`", "") if block else line)
    if fenced:
        out.append("```")
    return (CHAT_NOTE + "\n\n" + "\n".join(out)).strip()

