"""The first game of docs/learn.md, played from its script (docs/learn/first-game.txt) with the
engine, writing the pictures the page shows: `fieldpost render --learn docs/learn/`.

The script is an ordinary script (`fieldpost play --script` runs it too); lines starting `#!`
are read only here:

    #! game SCENARIO SEED NAME:SIDE NAME:SIDE   the game it plays (first)
    #! board NAME                              the public board at this point
    #! desk NAME PLAYER                        that player's own board (his orders' landmark …)
    #! soldier NAME PLAYER SERIAL              a soldier's card as that player sees it

Pictures are scaled to LEARN_WIDTH and reduced to a palette, so the page stays light.
"""
from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.render.service import draw
from engine import load_catalog, new_game, view
from engine.core.content import shipped_root
from engine.core.errors import ContentError
from engine.script import run_script, seat_for
from engine.turn.setup import SeatSpec

LEARN_WIDTH = 900  # px: the pictures of docs/learn.md (tile ids and badges stay legible)
COLOURS = 64  # a palette this size keeps the badges' colours and a board near 70 kB


def script_path() -> Path:
    return shipped_root() / "docs" / "learn" / "first-game.txt"


def write_pictures(out: Path, script: Path | None = None) -> list[Path]:
    """Play the learn script and write its pictures into `out`; the paths written."""
    script = script or script_path()
    text = script.read_text(encoding="utf-8")
    cat = load_catalog()
    st = None
    seat = 0  # who gives the next line: scripts start as seat 0, and `@NAME` lines carry over a picture
    chunk: list[str] = []
    written: list[Path] = []
    out.mkdir(parents=True, exist_ok=True)
    for no, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("#!"):
            chunk.append(line)
            continue
        words = line[2:].split()
        if words[:1] == ["game"]:
            scenario, seed, *seats = words[1:]
            st, _ = new_game(cat, scenario, [SeatSpec(name=n, side=s) for n, s in (x.split(":") for x in seats)],
                             int(seed))
            continue
        if st is None:
            raise ContentError(f"{script}: line {no}: the first #! line names the game (#! game SCENARIO SEED …)")
        st, _ = run_script(st, "\n".join(chunk), seat=seat)
        switches = [x.split("#", 1)[0].strip() for x in chunk if x.strip().startswith("@")]
        seat = seat_for(st, switches[-1]) if switches else seat
        chunk = []
        kind, name, *rest = words
        if kind == "board":
            picture = draw(view(st), "board")
        elif kind == "desk":
            picture = draw(view(st, seat_for(st, rest[0])), "board_private")
        elif kind == "soldier":
            picture = draw(view(st, seat_for(st, rest[0])), "soldier", serial=int(rest[1]))
        else:
            raise ContentError(f"{script}: line {no}: unknown picture kind {kind!r} (board, desk, soldier)")
        path = out / f"{name}.png"
        path.write_bytes(_light(picture))
        written.append(path)
    if st is not None and any(line.strip() and not line.startswith("#") for line in chunk):
        run_script(st, "\n".join(chunk), seat=seat)  # the rest of the script must still play
    return written


def _light(picture: Image.Image) -> bytes:
    """A picture for a web page: LEARN_WIDTH wide, a small palette, compressed hard."""
    if picture.width > LEARN_WIDTH:
        picture = picture.resize((LEARN_WIDTH, round(picture.height * LEARN_WIDTH / picture.width)),
                                 Image.Resampling.LANCZOS)
    small = picture.convert("RGB").quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT)
    buf = io.BytesIO()
    small.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
