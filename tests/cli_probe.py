"""Which modules a `fieldpost` command imports, for tests that run it in a child interpreter
(the repository's own, or an installed wheel's): `python -c PROBE ARGS...` runs `fieldpost ARGS...`
and prints every module then imported as the last line of its standard error."""
from __future__ import annotations

PROBE = ("import sys\nfrom bot.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
         "print(' '.join(sorted(sys.modules)), file=sys.stderr)")


def loaded(stderr: str) -> set[str]:
    """The modules PROBE printed, from its child's standard error."""
    return set(stderr.split("\n")[-2].split())
