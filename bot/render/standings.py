"""The campaign's standings chart (`/campaign standings`): each player's VP scenario by scenario
as bars, his running total as a line, and the totals in the legend.

Players take their side's colour (US blue, German orange, with the sky blue and vermilion of
the same Okabe–Ito set for a second player on a side) and, like figures on the board, their
side's shape as the line's markers (US round, German square), so colour is never needed.

    png = render_standings_png(standings(state, catalog))
"""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.render import style as S
from bot.render.draw import fit, text, text_width
from bot.render.encode import png_bytes

W, H = 1500, 900
PLOT = (130, 215, W - 60, H - 170)  # the chart's frame
PLAYER_FILL: dict[str, tuple[S.RGB, S.RGB]] = {
    "US": (S.SIDE_FILL["US"], (86, 180, 233)),
    "DE": (S.SIDE_FILL["DE"], (213, 94, 0)),
}


def player_colours(view) -> list[S.RGB]:
    """One colour per player, in the view's order: his side's first or second shade."""
    seen: dict[str, int] = {}
    out = []
    for p in view.players:
        k = seen.get(p.side, 0)
        seen[p.side] = k + 1
        shades = PLAYER_FILL.get(p.side, (S.MUTED, S.INK))
        out.append(shades[min(k, len(shades) - 1)])
    return out


def _scale(view) -> tuple[int, int, int]:
    """(low, high, step) of the VP axis, covering every bar and running total."""
    values = [0]
    for p in view.players:
        run = 0
        for v in p.vp:
            run += v
            values += [v, run]
    lo, hi = min(values), max(values)
    span = max(1, hi - lo)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500) if span / s <= 8)
    return math.floor(lo / step) * step, max(step, math.ceil(hi / step) * step), step


def render_standings(view) -> Image.Image:
    img = Image.new("RGB", (W, H), S.PAPER)
    d = ImageDraw.Draw(img)
    text(d, (40, 26), fit(f"Standings: {view.campaign}", 44, W - 80, bold=True), 44, S.INK, bold=True)
    status = "final" if view.finished else f"after {len(view.scenarios)} scenario{'s' if len(view.scenarios) != 1 else ''}"
    text(d, (42, 86), f"VP per player, {status}: bars for each scenario, lines for the running total", 24,
         S.MUTED)
    colours = player_colours(view)
    _legend(d, view, colours, 42, 126)
    x0, y0, x1, y1 = PLOT
    lo, hi, step = _scale(view)

    def y_of(v: float) -> float:
        return y1 - (v - lo) * (y1 - y0) / (hi - lo)

    for v in range(lo, hi + 1, step):
        y = y_of(v)
        d.line((x0, y, x1, y), fill=(205, 200, 185) if v else S.INK, width=1 if v else 2)
        text(d, (x0 - 14, y), str(v), 22, S.INK, anchor="rm")
    text(d, (x0 - 14, y0 - 14), "VP", 22, S.MUTED, anchor="rb")
    n = max(1, len(view.scenarios))
    col = (x1 - x0) / n
    players = len(view.players)
    bar = min(60, (col * 0.7) / max(1, players))
    labels = []  # drawn last, on paper, so a line or marker never hides a number
    for i, label in enumerate(view.scenarios):
        cx = x0 + col * (i + 0.5)
        for k, p in enumerate(view.players):
            bx = cx - bar * players / 2 + k * bar
            v = p.vp[i]
            top, bottom = sorted((y_of(v), y_of(0)))
            d.rectangle((bx + 2, top, bx + bar - 2, max(top + 2, bottom)), fill=colours[k], outline=S.INK)
            labels.append(((bx + bar / 2, top - 4 if v >= 0 else bottom + 4), str(v), "md" if v >= 0 else "ma"))
        for j, part in enumerate(_label_lines(label, col - 12)):
            text(d, (cx, y1 + 14 + j * 26), part, 22, S.INK, anchor="ma")
    for k, p in enumerate(view.players):
        run, pts = 0, []
        for i, v in enumerate(p.vp):
            run += v
            pts.append((x0 + col * (i + 0.5), y_of(run)))
        if len(pts) > 1:
            d.line(pts, fill=S.INK, width=9, joint="curve")
            d.line(pts, fill=colours[k], width=5, joint="curve")
        for x, y in pts:
            _marker(d, (x, y), p.side, colours[k])
    for xy, value, anchor in labels:
        box = d.textbbox(xy, value, font=S.font(20), anchor=anchor)
        d.rectangle((box[0] - 3, box[1] - 2, box[2] + 3, box[3] + 2), fill=S.PAPER)
        text(d, xy, value, 20, S.INK, anchor=anchor)
    d.rectangle((x0, y0, x1, y1), outline=S.INK, width=2)
    if not view.scenarios:
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2), "No scenario played yet", 30, S.MUTED, anchor="mm")
    return img


def render_standings_png(view) -> bytes:
    return png_bytes(render_standings(view))


def _marker(d: ImageDraw.ImageDraw, at: tuple[float, float], side: str, fill: S.RGB) -> None:
    x, y = at
    r = 11
    if S.SIDE_SHAPE.get(side) == "square":
        d.rectangle((x - r, y - r, x + r, y + r), fill=fill, outline=S.INK, width=3)
    else:
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=S.INK, width=3)


def _legend(d: ImageDraw.ImageDraw, view, colours: list[S.RGB], x: int, y: int) -> None:
    sides = "   ".join(f"{side} {sum(v)} VP" for side, v in view.sides.items())
    for k, p in enumerate(sorted(range(len(view.players)), key=lambda i: -view.players[i].total)):
        pl = view.players[p]
        d.rectangle((x, y + 4, x + 28, y + 28), fill=colours[p], outline=S.INK)
        _marker(d, (x + 14, y + 16), pl.side, colours[p])
        label = f"{pl.name} ({pl.side}) {pl.total} VP"
        text(d, (x + 38, y + 2), label, 24, S.INK, bold=k == 0)
        x += 38 + text_width(label, 24, bold=k == 0) + 36
    text(d, (42, H - 50), f"Sides: {sides}", 24, S.INK)


def _label_lines(label: str, width: float) -> list[str]:
    words, lines, line = label.split(), [], ""
    for w in words:
        trial = f"{line} {w}".strip()
        if text_width(trial, 22) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = w
    lines.append(line)
    return [fit(x, 22, width) for x in lines[:3]]
