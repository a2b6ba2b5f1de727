"""Phase pictures written to a folder, for the console's `--images DIR`."""
from __future__ import annotations

from pathlib import Path

from bot.render.encode import image_ext
from bot.render.service import render_board_png, render_panel_png, render_private_png


def save_phase_images(view, directory: str | Path, stem: str, seat_view=None,
                      plates: list[int] | None = None) -> list[Path]:
    """Write the public board as `<stem>.png`, the panel of each vehicle that acted or was hit
    in the phase just finished (`plates`, by default the view's `last_panels`) as
    `<stem>-panel<PLATE>.png` and, given a seat's view, his private board as
    `<stem>-seat<N>.png`; returns the paths written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def save(name: str, data: bytes) -> None:
        path = out / f"{name}.{image_ext(data)}"
        path.write_bytes(data)
        written.append(path)

    save(stem, render_board_png(view))
    known = {v.plate for v in view.vehicles}
    for plate in (view.last_panels if plates is None else plates):
        if plate in known:
            save(f"{stem}-panel{plate}", render_panel_png(view, plate))
    if seat_view is not None:
        save(f"{stem}-seat{seat_view.mine.seat}", render_private_png(seat_view))
    return written
