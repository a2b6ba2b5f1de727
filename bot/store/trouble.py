"""The admin log's account of a database that stops working: one line when it starts failing,
none while the same failure repeats, one when it works again. Used by both stores."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from bot.store.protocol import StoreUnavailable

log = logging.getLogger("bot.store")


class Trouble:
    """One connection's (or pool's) failures: ERROR when the database stops working (WARNING if
    it is only busy), nothing while the same failure repeats, INFO when it works again. Shared
    by the threads or tasks that use the connection. `describe(exc)` is the admin's reason,
    naming the database; `busy(exc)` tells a lock held elsewhere from a failure."""

    def __init__(self, where: object, doing: str, *, describe: Callable[[BaseException], str],
                 busy: Callable[[BaseException], bool]) -> None:
        self.where = where
        self.doing = doing
        self._describe = describe
        self._busy = busy
        self._reason: str | None = None
        self._lock = threading.Lock()

    def unavailable(self, exc: BaseException) -> StoreUnavailable:
        """The player-safe error for `exc`, logged once while it lasts."""
        reason = self._describe(exc)
        busy = self._busy(exc)
        with self._lock:
            new, self._reason = reason != self._reason, reason
        if new:
            log.log(logging.WARNING if busy else logging.ERROR, "cannot %s: %s", self.doing, reason)
        return StoreUnavailable(reason, busy=busy)

    def ok(self) -> None:
        if self._reason is None:  # the usual case, without the lock
            return
        with self._lock:
            was, self._reason = self._reason, None
        if was is not None:
            log.info("can %s again: %s", self.doing, self.where)
