"""The collector during a start (bot/startup.py): off while the modules load, what they made
frozen for the program itself, and settle() still collecting the start's garbage."""
from __future__ import annotations

import gc
import weakref

import pytest

from bot.startup import loading_modules, settle


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


@pytest.fixture(autouse=True)
def collector_as_it_was():
    was, thresholds = gc.isenabled(), gc.get_threshold()
    gc.unfreeze()  # from a known start: another test in this process may have settled (the console table does)
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)  # settle() raises them for the rest of a process's life
    if was:
        gc.enable()


def test_the_collector_is_off_while_modules_load_and_back_after():
    gc.enable()
    with loading_modules(freeze=False):
        assert not gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
    gc.disable()
    with loading_modules(freeze=False):
        pass
    assert not gc.isenabled()  # a caller's own choice stays


def test_the_program_freezes_what_loading_made_and_settle_still_frees_its_garbage():
    gc.enable()
    with loading_modules(freeze=True):
        garbage = weakref.ref(Node())
    assert gc.get_freeze_count() > 0
    gc.collect()
    assert garbage() is not None  # frozen: the run's collections pass it by
    settle()
    assert garbage() is None
