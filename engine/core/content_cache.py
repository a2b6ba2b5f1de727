"""The parsed YAML of the shipped content, kept on disk between runs (a quick start).

Parsing the content's YAML is most of the time a catalogue takes to load, and the shipped
files change only when the package does. A run keeps what PyYAML made of each file, keyed by
a hash of that file's bytes, in one file under the user's cache directory
(`$FIELDPOST_CACHE`, else `$XDG_CACHE_HOME/fieldpost`, else `~/.cache/fieldpost`), and the
next run parses only the files whose bytes changed. The cache holds plain data in `marshal`
form (no code, no pickled objects), so every load still validates the content with the
current code: a change of the models can never meet a stale catalogue. A cache that is
missing, unreadable, corrupt, from another Python, PyYAML or format, or unwritable is
ignored and the YAML read as without it; never an error. A warm run does not import PyYAML at
all (its import is 5% of a `fieldpost play` start). docs/content.md says more.
"""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

FORMAT = 2  # bump when the layout of the cache file changes
MAGIC = b"fieldpost-content-cache\n"


def cache_dir() -> Path | None:
    """Where the cache file lives: FIELDPOST_CACHE, else the XDG cache directory's fieldpost/;
    None when there is no home to put it in (then nothing is cached)."""
    own = os.environ.get("FIELDPOST_CACHE")
    if own:
        return Path(own)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "fieldpost"
    try:
        return Path.home() / ".cache" / "fieldpost"
    except RuntimeError:  # no HOME and no password entry (a bare container user)
        return None


def _key() -> bytes:
    """What else decides the parsed data: the format, the Python (marshal's dialect) and the YAML reader."""
    return repr((FORMAT, sys.implementation.cache_tag, marshal.version, _yaml_reader())).encode()


def _yaml_reader() -> str:
    """The PyYAML installed, told without importing it: a digest of its `__init__.py` (which holds
    its version) and of its files' names (whether its libyaml extension is there, so which
    loader reads; not its `__pycache__`, which its first import makes)."""
    spec = importlib.util.find_spec("yaml")
    if spec is None or spec.origin is None:
        return "no PyYAML"
    init = Path(spec.origin)
    try:
        names = sorted(p.name for p in init.parent.iterdir() if p.name != "__pycache__")
        text = init.read_bytes()
    except OSError:
        return "PyYAML unreadable"
    return hashlib.sha256(text + "\0".join(names).encode()).hexdigest()


class ParsedTree:
    """The parsed YAML files under one root, as the cache file last held them plus what this
    run parsed; `read` hands out a fresh copy each time (loaders may change what they get)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.key = _key()
        # one file per content root and Python, so two installs do not overwrite each other's
        tag = hashlib.sha256(os.fsencode(root)).hexdigest()[:16]
        folder = cache_dir()
        self.file = None if folder is None else folder / f"content-{tag}-{sys.implementation.cache_tag}.marshal"
        self.entries: dict[str, tuple[bytes, bytes]] = self._read_file()
        self.changed = False

    def _read_file(self) -> dict[str, tuple[bytes, bytes]]:
        if self.file is None:
            return {}
        try:
            blob = self.file.read_bytes()
        except OSError:  # none yet, or not readable: the YAML is read as without a cache
            return {}
        head = MAGIC + self.key + b"\n"
        digest_at = len(head)
        payload = blob[digest_at + 32:]
        if not blob.startswith(head) or hashlib.sha256(payload).digest() != blob[digest_at:digest_at + 32]:
            return {}  # another version's file, or a torn or damaged one
        try:
            entries = marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            return {}
        if not isinstance(entries, dict) or not all(
                isinstance(v, tuple) and len(v) == 2 and all(isinstance(b, bytes) for b in v)
                for v in entries.values()):
            return {}
        return entries

    def read(self, path: Path, raw: bytes, parse: Callable[[bytes], object]) -> object:
        """What `parse` makes of the file's bytes `raw`: from the cache when the bytes are those it
        saw, else parsed now (and kept, if the result is plain data marshal can hold)."""
        name = path.relative_to(self.root).as_posix()
        digest = hashlib.sha256(raw).digest()
        hit = self.entries.get(name)
        if hit is not None and hit[0] == digest:
            try:
                return marshal.loads(hit[1])
            except (EOFError, ValueError, TypeError):
                pass
        data = parse(raw)
        try:
            self.entries[name] = (digest, marshal.dumps(data))
            self.changed = True
        except ValueError:  # a value marshal cannot hold (a YAML date): this file is parsed every run
            self.entries.pop(name, None)
        return data

    def save(self) -> None:
        """Write the cache if this run parsed anything or a file is gone from the root (dropped).
        Written beside and renamed into place, so a reader never sees half a file."""
        kept = {name: e for name, e in self.entries.items() if (self.root / name).is_file()}
        if self.file is None or (not self.changed and len(kept) == len(self.entries)):
            return
        self.entries, self.changed = kept, False
        payload = marshal.dumps(self.entries)
        blob = MAGIC + self.key + b"\n" + hashlib.sha256(payload).digest() + payload
        part = self.file.with_name(f"{self.file.name}.{os.getpid()}.part")
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            part.write_bytes(blob)
            os.replace(part, self.file)
        except OSError:  # a read-only home, a full disk: the next run parses the YAML again
            with suppress(OSError):
                part.unlink(missing_ok=True)
