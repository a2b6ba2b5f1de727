"""Phase pictures written to a folder, for the console's `--images DIR`."""
from __future__ import annotations

from pathlib import Path

from bot.render.encode import image_ext
from bot.render.service import render_board_png, render_private_png


def save_phase_images(view, directory: str | Path, stem: str, seat_view=None) -> list[Path]:
    """Write the public board as `<stem>.png` and, given a seat's view, his private board as
    `<stem>-seat<N>.png`; returns the paths written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    data = render_board_png(view)
    path = out / f"{stem}.{image_ext(data)}"
    path.write_bytes(data)
    written.append(path)
    if seat_view is not None:
        data = render_private_png(seat_view)
        path = out / f"{stem}-seat{seat_view.mine.seat}.{image_ext(data)}"
        path.write_bytes(data)
        written.append(path)
    return written
