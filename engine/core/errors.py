"""The two ways the engine says no: a rule refuses a command, or content data is broken."""
from __future__ import annotations


class RuleError(Exception):
    """A command the rules do not allow. The message is for the player: what was wrong and
    what is allowed. Raising it never leaves a half-changed state behind (apply works on a copy)."""


class ContentError(Exception):
    """Asset or scenario data that does not validate. The message names file, entry and field."""


class UsageError(RuleError):
    """A command the rules cannot mean at all, refused before any rule runs: a word that is not
    a facing, a number, or text; an id that names nothing in the game or the wrong kind of thing
    (a plate where a man is named). The message names the bad part."""
