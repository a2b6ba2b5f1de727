"""Why a use-case says no. Every message is for the player who asked, and carries no secret
of anyone else; front ends show it to the caller alone."""
from __future__ import annotations


class Refused(Exception):
    """The command was not carried out; the message says why and what to do instead."""


class NoGame(Refused):
    """No game answers to what the command named."""


class NotYours(Refused):
    """The caller may not do this: not seated, another player's choice, not an organiser."""


class OutOfDate(Refused):
    """A choice made on a state the game has moved past."""

    def __init__(self, message: str = "This choice is out of date: the game has moved on. "
                 "Nothing was changed; use the newest message or /game status.") -> None:
        super().__init__(message)


class AlreadyDone(Refused):
    """The same answer was already carried out (a double press, a repeated command): nothing
    was changed this time."""

    def __init__(self, message: str = "Already done: that answer was carried out already. "
                 "Nothing was changed this time.") -> None:
        super().__init__(message)
