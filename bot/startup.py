"""What a long-running process does once its start-up is over (the bot, the console table)."""
from __future__ import annotations

import gc

# The cycle collector's thresholds once settled (CPython's defaults: 700, 10, 10). A command
# makes some ten thousand objects (the state's working copy, events, replies) and the engine
# makes no reference cycles (tests/engine/test_reference_cycles.py), so reference counting frees
# them; the collector only walks what is alive. With the defaults it ran a young pass every few
# hundred objects and a full pass over every game state kept in memory about every 150 commands:
# with 300 tardieu games live, 1.6 ms of each command's 4-7 ms. These run it about every 50,000
# objects, almost never over the old ones (docs/app.md, Performance).
THRESHOLDS = (50_000, 20, 20)


def settle() -> None:
    """Move everything made so far (modules, pydantic classes, the content catalogue) out of the
    collector's sight: those objects live as long as the process, and every full collection
    would walk them again for nothing while games are played. Then collect rarely (THRESHOLDS)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
