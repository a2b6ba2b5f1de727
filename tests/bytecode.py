"""Loaded first by pytest (`-p tests.bytecode` in pyproject's addopts): the test run keeps the
bytecode it compiles, even where the environment says not to (PYTHONDONTWRITEBYTECODE, set on
some machines and images). Otherwise every xdist worker rewrites and compiles every test module
again (collection 10.6 s a process, 4.3 s with the bytecode kept) and every process a test starts
(the bot, the console, the scale and crash children) compiles the engine and the bot again. The
files go to `__pycache__/` beside the sources, which git ignores."""
from __future__ import annotations

import os
import sys

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # for the workers and the processes tests start
