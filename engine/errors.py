"""The two ways the engine says no: a rule refuses a command, or content data is broken."""
from __future__ import annotations


class RuleError(Exception):
    """A command the rules do not allow. The message is for the player: what was wrong and
    what is allowed. Raising it never leaves a half-changed state behind (apply works on a copy)."""


class ContentError(Exception):
    """Asset or scenario data that does not validate. The message names file, entry and field."""
