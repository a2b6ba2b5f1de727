"""Use-cases: the one place front ends call to change or read a game (see docs/app.md).

    service = GameService(store, load_catalog())
    replies = await service.command(Caller(user_id, "Ann"), Where(channel_id=c), "move 101 12A")
"""
from bot.app.errors import AlreadyDone, NoGame, NotYours, OutOfDate, Refused
from bot.app.replies import (
    Attachment,
    Caller,
    Choice,
    ImageRequest,
    Private,
    Prompt,
    Replies,
    Waiting,
    Where,
)
from bot.app.service import Counters, GameService

__all__ = [
    "AlreadyDone",
    "Attachment",
    "Caller",
    "Choice",
    "Counters",
    "GameService",
    "ImageRequest",
    "NoGame",
    "NotYours",
    "OutOfDate",
    "Private",
    "Prompt",
    "Refused",
    "Replies",
    "Waiting",
    "Where",
]
