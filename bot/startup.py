"""What a long-running process does once its start-up is over (the bot, the console table)."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def loading_modules(freeze: bool) -> Iterator[None]:
    """The cyclic collector off while the modules load: importing makes classes, schemas and
    functions that live as long as the process, and the collections it would run meanwhile
    find next to nothing to free. With `freeze` (a process of its own: the `fieldpost` program)
    what was made is then frozen, so the collections of the run ahead do not walk it again
    either, and the collector runs as rarely as in a settled process (THRESHOLDS) from the
    start: the catalogue and the first command made some 30 collections with CPython's defaults.
    settle() collects what the loading left once more. Together about 7% of a `fieldpost play`
    start (instructions counted: 2.109 G before, 1.979 G after; the thresholds 24 M more)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
            gc.set_threshold(*THRESHOLDS)
        if was:
            gc.enable()


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
    gc.unfreeze()  # what loading_modules froze uncollected: its garbage is found now
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
