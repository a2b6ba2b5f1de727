"""YAML as the tests write and read it: libyaml's dumper and loader when PyYAML has them (the
content's loader, engine.core.content.SAFE_LOADER), since the pure-Python pair took most of a
position round trip's time (0.17 s of 0.65 s a game) and 0.5 s a changed content file."""
from __future__ import annotations

import yaml

from engine.core.content import SAFE_LOADER

SAFE_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def through_yaml(data: dict) -> dict:
    """`data` written as YAML text and read back."""
    return yaml.load(yaml.dump(data, Dumper=SAFE_DUMPER, sort_keys=False), Loader=SAFE_LOADER)
