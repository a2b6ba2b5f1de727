"""What a long-running process does once its start-up is over (the bot, the console table)."""
from __future__ import annotations

import gc


def settle() -> None:
    """Move everything made so far (modules, pydantic classes, the content catalogue) out of the
    collector's sight: those objects live as long as the process, and every full collection
    would walk them again for nothing while games are played."""
    gc.collect()
    gc.freeze()
