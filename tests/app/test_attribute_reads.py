"""bot.startup.plain_attribute_reads: pydantic's BaseModel.__getattr__ taken off for the process
(every field read a plain attribute read), put back on each model class that needs it.

It is safe only because no model of ours keeps private attributes or extra fields, the two things
that hook serves: the first test holds every model class of engine/ and bot/ to that. The others
run in a fresh process, since the change is for the whole process."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from pydantic import BaseModel

import bot.app
import bot.config
import bot.console.play  # noqa: F401
import engine  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]


def _model_classes() -> list[type[BaseModel]]:
    out, stack = [], [BaseModel]
    while stack:
        for sub in type.__subclasses__(stack.pop()):
            out.append(sub)
            stack.append(sub)
    return out


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, check=False,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_no_model_of_ours_keeps_private_attributes_or_extra_fields():
    ours = [c for c in _model_classes() if c.__module__.split(".")[0] in ("engine", "bot")]
    assert len(ours) > 100  # the engine's and the service's models are all loaded
    needing = [c.__qualname__ for c in ours
               if c.__private_attributes__ or c.model_config.get("extra") == "allow"]
    assert needing == []


def test_models_that_need_the_hook_keep_it_made_before_or_after():
    out = _run("""
        from pydantic import BaseModel, ConfigDict, PrivateAttr
        from bot.startup import plain_attribute_reads

        class Before(BaseModel):
            x: int = 1
            _secret: int = PrivateAttr(default=5)

        class ExtraBefore(BaseModel):
            model_config = ConfigDict(extra="allow")

        plain_attribute_reads()
        plain_attribute_reads()  # a second call changes nothing

        class After(BaseModel):
            _secret: int = PrivateAttr(default=7)

        class Below(Before):
            y: int = 2

        class ExtraAfter(BaseModel):
            model_config = ConfigDict(extra="allow")

        class Plain(BaseModel):
            a: int = 1

        print(Before()._secret, After()._secret, Below()._secret, Below().x,
              ExtraBefore(z=3).z, ExtraAfter(w=4).w)
        print("__getattr__" in BaseModel.__dict__, "__getattr__" in Plain.__dict__)
        try:
            Plain().missing
        except AttributeError as exc:
            print(exc)
        """)
    assert out.splitlines() == ["5 7 5 1 3 4", "False False", "'Plain' object has no attribute 'missing'"]


def test_a_missing_attribute_is_told_as_pydantic_told_it():
    class Plain(BaseModel):
        a: int = 1

    with pytest.raises(AttributeError) as hooked:
        Plain().missing  # noqa: B018
    out = _run("""
        from pydantic import BaseModel
        from bot.startup import plain_attribute_reads
        plain_attribute_reads()

        class Plain(BaseModel):
            a: int = 1

        try:
            Plain().missing
        except AttributeError as exc:
            print(exc)
        """)
    assert out.strip() == str(hooked.value)


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "vautrin-crossroads", "advanced-skirmish"])
def test_games_play_alike_with_plain_reads(scenario):
    """The autoplay fingerprint (tools/autoplay_hashes.json) of a scenario, played in a settled
    process as the bot plays: the same commands, events and final states."""
    done = subprocess.run([sys.executable, "tools/autoplay_hashes.py", "--settled", "--scenario", scenario],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    want = json.loads((ROOT / "tools" / "autoplay_hashes.json").read_text())
    assert got and all(key.endswith("/" + scenario) for key in got)
    assert got == {key: want[key] for key in got}
