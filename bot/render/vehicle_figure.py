"""A vehicle or gun on the board: it fills the middle of its tile (the cells it covers: the
middle 3x3 inches of a square, 4x4 of a landmark), its hull pointing to one of the tile's
eight compass points, its turret and gun to theirs.

Side as for the figures: colour (US blue, German orange) and shape (US hulls and turrets
rounded, German ones square-cornered). A black nose marks the hull's front, as on a soldier's
base. Markers sit on the corners of the vehicle's footprint: Spotted top right, Pinned (with
the count) bottom right, Hull down bottom left, Move+ top left, the vehicles' own Spotted
markers (with their plates) along the top. A destroyed vehicle is a charcoal wreck, crossed
out, still edged in its side's colour; an abandoned one is washed out. (The board draws the
markers, with the figures' own badges.)
"""
from __future__ import annotations

import math

from PIL import ImageDraw

from bot.render import style as S
from bot.render.draw import blend_shape, text, text_width
from engine.core.board import DIR_VEC

Point = tuple[float, float]
Box = tuple[float, float, float, float]

WRECK_FILL: S.RGB = (72, 72, 72)
TRACK_FILL: S.RGB = (45, 45, 45)
HULL_DOWN_FILL: S.RGB = (120, 84, 40)


def footprint_box(origin: tuple[int, int], size: int) -> tuple[int, int, int, int]:
    """The inches a vehicle covers in its tile: x0, y0, x1, y1 (the engine's footprint)."""
    k = 3 if size == 5 else 4
    start = (size - k) // 2
    ox, oy = origin
    return ox + start, oy + start, ox + start + k, oy + start + k


def _unit(direction: str) -> Point:
    dx, dy = DIR_VEC[direction]
    n = math.hypot(dx, dy)
    return dx / n, dy / n


def _to_screen(c: Point, u: Point, pts: list[Point]) -> list[Point]:
    """Local points (a along the facing, b to its right) to pixels around centre c."""
    ux, uy = u
    vx, vy = -uy, ux
    return [(c[0] + a * ux + b * vx, c[1] + a * uy + b * vy) for a, b in pts]


def _rounded_rect(length: float, width: float, r: float, nose: float = 0.0) -> list[Point]:
    """A rectangle centred on 0 (length along a, width along b) with rounded corners of radius r."""
    hl, hw = length / 2, width / 2
    r = max(0.0, min(r, hw, hl))
    pts: list[Point] = []
    corners = ((hl - r, hw - r, 0), (-hl + r, hw - r, 90), (-hl + r, -hw + r, 180), (hl - r, -hw + r, 270))
    steps = 5 if r > 1 else 0
    for ca, cb, start in corners:
        if steps == 0:
            pts.append((ca + (r if start in (0, 270) else -r), cb + (r if start in (0, 90) else -r)))
            continue
        for i in range(steps + 1):
            t = math.radians(start + 90 * i / steps)
            pts.append((ca + r * math.cos(t), cb + r * math.sin(t)))
    return pts


def _mix(a: S.RGB, b: S.RGB, t: float) -> S.RGB:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def draw_vehicle(img, d: ImageDraw.ImageDraw, box: Box, v, vdef, ppi: int) -> None:
    """Draw vehicle view `v` (its static panel `vdef`, or None) into the pixel box it covers."""
    x0, y0, x1, y1 = box
    c = ((x0 + x1) / 2, (y0 + y1) / 2)
    span = min(x1 - x0, y1 - y0)
    diagonal = len(v.facing) == 2
    length, width = span * (0.94 if not diagonal else 0.84), span * (0.64 if not diagonal else 0.50)
    rounded = S.SIDE_SHAPE.get(v.side) == "round"
    wreck = v.status == "destroyed"
    side_fill = S.SIDE_FILL.get(v.side, S.MUTED)
    fill = WRECK_FILL if wreck else _mix(side_fill, (255, 255, 255), 0.55) if v.status == "abandoned" else side_fill
    ink = (255, 255, 255) if wreck else S.SIDE_TEXT.get(v.side, S.INK)
    edge = side_fill if wreck else S.INK
    u = _unit(v.facing)
    gun = vdef is not None and vdef.kind == "gun"
    if gun:
        _gun(d, c, u, length, width, fill, edge, ppi)
    else:
        _hull(d, c, u, length, width, fill, edge, rounded, vdef is None or vdef.tracked, ppi)
    turret_c = c
    if v.turret and not gun:
        turret_c = _turret(d, c, u, _unit(v.turret), length, width, fill, edge, rounded, ppi)
    label_c = turret_c if v.turret and not gun else (c[0] - u[0] * length * 0.18, c[1] - u[1] * length * 0.18)
    size = max(12, round(ppi * 0.42))
    if wreck:  # crossed out, the plate still readable on a white label above the cross
        _cross(d, box, span)
        w = text_width(str(v.plate), size, bold=True) + 10
        d.rounded_rectangle((c[0] - w / 2, c[1] - size / 2 - 5, c[0] + w / 2, c[1] + size / 2 + 5), radius=4,
                            fill=(255, 255, 255), outline=side_fill, width=3)
        text(d, (c[0], c[1] + 1), str(v.plate), size, S.INK, anchor="mm", bold=True)
        return
    text(d, (label_c[0], label_c[1] + 1), str(v.plate), size, ink, anchor="mm", bold=True)
    if v.status == "abandoned":
        _tag(d, (c[0], y1 - 2), "ABANDONED", max(10, ppi // 4))


def _hull(d, c: Point, u: Point, length: float, width: float, fill, edge, rounded: bool, tracked: bool,
          ppi: int) -> None:
    r = width * (0.28 if rounded else 0.06)
    body = _to_screen(c, u, _rounded_rect(length, width, r))
    d.polygon(body, fill=fill, outline=edge, width=3)
    inset = width * 0.17
    if tracked:  # the tracks along both sides
        for sign in (-1, 1):
            band = [(-length / 2 + r * 0.6, sign * (width / 2 - 2)), (length / 2 - r * 0.6, sign * (width / 2 - 2)),
                    (length / 2 - r * 0.6, sign * (width / 2 - inset)), (-length / 2 + r * 0.6, sign * (width / 2 - inset))]
            d.polygon(_to_screen(c, u, band), fill=TRACK_FILL)
    else:  # wheels
        for a in (-length * 0.3, length * 0.3):
            for sign in (-1, 1):
                wheel = [(a - length * 0.09, sign * (width / 2 - 2)), (a + length * 0.09, sign * (width / 2 - 2)),
                         (a + length * 0.09, sign * (width / 2 - inset)), (a - length * 0.09, sign * (width / 2 - inset))]
                d.polygon(_to_screen(c, u, wheel), fill=TRACK_FILL)
    # the front: a black nose beyond the glacis, as on a soldier's base
    nose = [(length / 2 + max(8.0, ppi * 0.3), 0), (length / 2 - 2, -width * 0.22), (length / 2 - 2, width * 0.22)]
    d.polygon(_to_screen(c, u, nose), fill=S.INK)


def _turret(d, c: Point, hull_u: Point, u: Point, length: float, width: float, fill, edge, rounded: bool,
            ppi: int) -> Point:
    tc = (c[0] - hull_u[0] * length * 0.06, c[1] - hull_u[1] * length * 0.06)
    r = width * 0.34
    barrel_w = max(5, round(ppi * 0.14))
    tip = (tc[0] + u[0] * length * 0.66, tc[1] + u[1] * length * 0.66)
    d.line((tc, tip), fill=S.INK, width=barrel_w + 4)
    d.line((tc, tip), fill=fill, width=max(2, barrel_w - 2))
    d.ellipse((tip[0] - barrel_w * 0.6, tip[1] - barrel_w * 0.6, tip[0] + barrel_w * 0.6, tip[1] + barrel_w * 0.6),
              fill=S.INK)
    if rounded:
        d.ellipse((tc[0] - r, tc[1] - r, tc[0] + r, tc[1] + r), fill=fill, outline=edge, width=3)
    else:
        d.polygon(_to_screen(tc, u, _rounded_rect(2 * r, 2 * r, r * 0.12)), fill=fill, outline=edge, width=3)
    return tc


def _gun(d, c: Point, u: Point, length: float, width: float, fill, edge, ppi: int) -> None:
    """A towed gun: the split trail behind, wheels, the shield across the front and the barrel."""
    w = max(4, round(ppi * 0.12))
    pivot = (0.0, 0.0)
    for sign in (-1, 1):  # the split trail
        d.line(_to_screen(c, u, [pivot, (-length * 0.48, sign * width * 0.45)]), fill=S.INK, width=w + 3)
        d.line(_to_screen(c, u, [pivot, (-length * 0.48, sign * width * 0.45)]), fill=fill, width=max(2, w - 2))
    for sign in (-1, 1):
        wheel = [(-length * 0.1, sign * width * 0.42), (length * 0.1, sign * width * 0.42),
                 (length * 0.1, sign * width * 0.62), (-length * 0.1, sign * width * 0.62)]
        d.polygon(_to_screen(c, u, wheel), fill=TRACK_FILL)
    d.line(_to_screen(c, u, [(0, 0), (length * 0.58, 0)]), fill=S.INK, width=w + 4)
    d.line(_to_screen(c, u, [(0, 0), (length * 0.58, 0)]), fill=fill, width=max(2, w - 2))
    shield = [(length * 0.05, -width * 0.5), (length * 0.16, -width * 0.5), (length * 0.16, width * 0.5),
              (length * 0.05, width * 0.5)]
    d.polygon(_to_screen(c, u, shield), fill=fill, outline=edge, width=3)
    hub = _to_screen(c, u, [(-length * 0.18, 0)])[0]
    r = width * 0.3
    d.ellipse((hub[0] - r, hub[1] - r, hub[0] + r, hub[1] + r), fill=fill, outline=edge, width=3)


def _cross(d, box: Box, span: float) -> None:
    x0, y0, x1, y1 = box
    k = span * 0.08
    w = max(5, round(span / 16))
    for a, b in (((x0 + k, y0 + k), (x1 - k, y1 - k)), ((x0 + k, y1 - k), (x1 - k, y0 + k))):
        d.line((a, b), fill=(255, 255, 255), width=w + 4)
        d.line((a, b), fill=S.KIA_MARK, width=w)


def _tag(d, bottom_centre: Point, label: str, size: int) -> None:
    w = text_width(label, size, bold=True) + 10
    x, y = bottom_centre
    d.rectangle((x - w / 2, y - size - 6, x + w / 2, y), fill=(255, 255, 255), outline=S.INK)
    text(d, (x, y - 3), label, size, S.INK, anchor="mb", bold=True)


def count_badge(d, c: Point, r: float, label: str) -> None:
    cx, cy = c
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=S.INK, width=1)
    text(d, (cx, cy + 1), label, max(8, round(r * 1.5)), S.INK, anchor="mm", bold=True)


def badge(d, c: Point, r: float, kind: str, label: str = "") -> None:
    """The vehicles' own markers: Hull down (brown, HD), Move+ (MOVE yellow, M+ / M++), and a
    vehicle's Spotted marker (the sight in a square frame: it carries a plate)."""
    cx, cy = c
    box = (cx - r, cy - r, cx + r, cy + r)
    if kind == "hulldown":
        d.ellipse(box, fill=HULL_DOWN_FILL, outline=(255, 255, 255), width=1)
        text(d, (cx, cy + 1), "HD", max(8, round(r * 1.05)), (255, 255, 255), anchor="mm", bold=True)
    elif kind == "moveplus":
        w = max(r, text_width(label, max(8, round(r * 1.05)), bold=True) / 2 + 4)
        d.rounded_rectangle((cx - w, cy - r, cx + w, cy + r), radius=r, fill=S.ACTION_FILL["move"], outline=S.INK)
        text(d, (cx, cy + 1), label, max(8, round(r * 1.05)), S.ACTION_TEXT["move"], anchor="mm", bold=True)
    elif kind == "plate_sight":
        d.rectangle(box, fill=S.SPOTTED_FILL, outline=S.SPOTTED_MARK, width=2)
        d.line((cx - r, cy, cx + r, cy), fill=S.SPOTTED_MARK, width=2)
        d.line((cx, cy - r, cx, cy + r), fill=S.SPOTTED_MARK, width=2)
        k = r * 0.5
        d.ellipse((cx - k, cy - k, cx + k, cy + k), outline=S.SPOTTED_MARK, width=1)


def shadow(img, box: Box) -> None:
    """A soft ground shadow under the vehicle, so it reads as a thing standing on the map."""
    x0, y0, x1, y1 = box
    pad = 3
    blend_shape(img, (x0 - pad, y0 - pad, x1 + pad, y1 + pad), (0, 0, 0),
                lambda md, off: md.rounded_rectangle((x0 - off[0], y0 - off[1], x1 - off[0], y1 - off[1]),
                                                     radius=8, fill=40))
