"""Small drawing primitives on RGB images: translucent shapes, dashed lines, arrows, text."""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.render.style import RGB, font

Box = tuple[int, int, int, int]


def blend_rect(img: Image.Image, box: Box, colour: RGB, alpha: int) -> None:
    """Tint a rectangle: colour over what is there, alpha of 255."""
    x0, y0, x1, y1 = box
    if x1 <= x0 or y1 <= y0:
        return
    img.paste(colour, box, Image.new("L", (x1 - x0, y1 - y0), alpha))


def blend_shape(img: Image.Image, box: Box, colour: RGB, draw_mask) -> None:
    """Tint the pixels that `draw_mask(ImageDraw, offset)` paints (its fill value is the alpha)
    inside box; only that box is touched, so a small shape costs little on a big picture."""
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(img.width, math.ceil(box[2])), min(img.height, math.ceil(box[3]))
    if x1 <= x0 or y1 <= y0:
        return
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    draw_mask(ImageDraw.Draw(mask), (x0, y0))
    img.paste(colour, (x0, y0, x1, y1), mask)


def dashed_line(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: RGB,
                width: int = 2, dash: float = 8, gap: float = 6) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        e = min(length, t + dash)
        d.line([(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)], fill=fill, width=width)
        t = e + gap


def dashed_rect(d: ImageDraw.ImageDraw, box: Box, fill: RGB, width: int = 2, dash: float = 10, gap: float = 6) -> None:
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        dashed_line(d, a, b, fill, width, dash, gap)


def arrow_head(d: ImageDraw.ImageDraw, tip: tuple[float, float], frm: tuple[float, float], size: float,
               fill: RGB, outline: RGB | None = None) -> None:
    ang = math.atan2(tip[1] - frm[1], tip[0] - frm[0])
    left = (tip[0] - size * math.cos(ang - 0.45), tip[1] - size * math.sin(ang - 0.45))
    right = (tip[0] - size * math.cos(ang + 0.45), tip[1] - size * math.sin(ang + 0.45))
    d.polygon([tip, left, right], fill=fill, outline=outline)


def shorten(a: tuple[float, float], b: tuple[float, float], by: float) -> tuple[float, float]:
    """b moved towards a by `by` pixels (so an arrow stops at a base's rim, not its centre)."""
    length = math.dist(a, b)
    if length <= by:
        return b
    return b[0] - (b[0] - a[0]) * by / length, b[1] - (b[1] - a[1]) * by / length


def text(d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill: RGB, *,
         anchor: str = "la", bold: bool = False) -> None:
    d.text(xy, s, font=font(size, bold), fill=fill, anchor=anchor)


def text_width(s: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(s)


def fit(s: str, size: int, width: float, bold: bool = False) -> str:
    """s cut with an ellipsis to fit width pixels."""
    if text_width(s, size, bold) <= width:
        return s
    while s and text_width(s + "…", size, bold) > width:
        s = s[:-1]
    return s + "…"


def star(cx: float, cy: float, r_out: float, r_in: float, points: int = 8) -> list[tuple[float, float]]:
    pts = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_in
        a = math.pi * i / points - math.pi / 2
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts
