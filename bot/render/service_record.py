"""A soldier's service record (`/campaign soldier`): name, rank, status, his medals and badges
as a ribbon rack grouped by the rank they are attached to, his kills, prisoners, wounds and
scenarios, and the notable lines of his service log.

Drawn only from `engine.campaign.records.ServiceRecord`; its VP fields are filled only for
the soldier's own player, so a public record cannot show them.

    png = render_service_record_png(service_record(state, catalog, 101, private=False))
"""
from __future__ import annotations

import textwrap

from PIL import Image, ImageDraw

from bot.render import style as S
from bot.render.draw import fit, star, text, text_width
from bot.render.encode import png_bytes

W, H = 1500, 1100
MARGIN = 40
HEADER = 180
LOG_TOP = 780  # the service log runs the full width below
RIBBON_W, RIBBON_H = 150, 42

# Ribbon stripes (colour, relative width), after the real ribbons where there is one
_BLUE, _RED, _WHITE = (0, 56, 147), (178, 34, 52), (245, 245, 240)
_BLACK, _GREEN, _GOLD = (20, 20, 20), (0, 110, 70), (212, 175, 55)
RIBBONS: dict[tuple[str, str], list[tuple[S.RGB, int]]] = {
    ("US", "silver"): [(_BLUE, 3), (_WHITE, 1), (_BLUE, 2), (_WHITE, 1), (_RED, 2), (_WHITE, 1), (_BLUE, 2),
                       (_WHITE, 1), (_BLUE, 3)],
    ("US", "bronze"): [(_RED, 6), (_WHITE, 1), (_BLUE, 2), (_WHITE, 1), (_RED, 6)],
    ("US", "merit"): [(_GREEN, 2), (_WHITE, 1), (_GREEN, 10), (_WHITE, 1), (_GREEN, 2)],
    ("US", "distinguished"): [(_RED, 1), (_WHITE, 1), (_BLUE, 12), (_WHITE, 1), (_RED, 1)],
    ("DE", "silver"): [(_BLACK, 2), (_WHITE, 1), (_RED, 8), (_WHITE, 1), (_BLACK, 2)],
    ("DE", "bronze"): [(_BLACK, 2), (_WHITE, 1), (_RED, 8), (_WHITE, 1), (_BLACK, 2)],
    ("DE", "merit"): [(_RED, 2), (_WHITE, 1), (_BLACK, 8), (_WHITE, 1), (_RED, 2)],
    ("DE", "distinguished"): [(_GOLD, 2), (_RED, 10), (_GOLD, 2)],
}
# Badges are metal, not cloth: a plaque of the metal with a device drawn on it
BADGE_METAL: dict[str, S.RGB] = {"combat": (192, 196, 204), "marksman": (192, 196, 204),
                                 "close_combat": (176, 120, 60)}
STATUS_CHIP: dict[str, tuple[S.RGB, S.RGB]] = {
    "fit": ((40, 120, 60), (255, 255, 255)),
    "wounded": (S.WOUNDED_MARK, (255, 255, 255)),
    "killed in action": ((30, 30, 30), (255, 255, 255)),
    "prisoner of war": (S.PRISONER_FILL, (0, 0, 0)),
    "missing": ((230, 230, 230), (0, 0, 0)),
}


def render_service_record(rec) -> Image.Image:
    img = Image.new("RGB", (W, H), S.PAPER)
    d = ImageDraw.Draw(img)
    _header(d, rec)
    _honours(img, d, rec, (MARGIN, HEADER + 30, 860, LOG_TOP - 30))
    _figures(d, rec, (900, HEADER + 30, W - MARGIN, LOG_TOP - 30))
    _log(d, rec, (MARGIN, LOG_TOP, W - MARGIN, H - MARGIN))
    d.rectangle((0, 0, W - 1, H - 1), outline=S.INK, width=3)
    return img


def render_service_record_png(rec) -> bytes:
    return png_bytes(render_service_record(rec))


def ribbon_stripes(side: str, award: str) -> list[tuple[S.RGB, int]]:
    return RIBBONS.get((side, award), [(S.MUTED, 1)])


# ------------------------------------------------------------------------------------- parts


def _header(d: ImageDraw.ImageDraw, rec) -> None:
    fill, ink = S.SIDE_FILL.get(rec.side, S.MUTED), S.SIDE_TEXT.get(rec.side, S.INK)
    d.rectangle((0, 0, W, HEADER), fill=fill)
    cx, cy, r = 100, HEADER // 2, 62
    if S.SIDE_SHAPE.get(rec.side) == "square":
        d.rectangle((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=S.INK, width=4)
    else:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=S.INK, width=4)
    text(d, (cx, cy), str(rec.serial), 44, S.INK, anchor="mm", bold=True)
    chip_w = _status_chip(d, rec.status, (W - MARGIN, 40))
    room = W - MARGIN - chip_w - 220
    text(d, (200, 26), fit(f"{rec.rank_title} {rec.name}", 58, room, bold=True), 58, ink, bold=True)
    nation = S.SIDE_NAME.get(rec.side, rec.side)
    line = f"{nation} · {rec.weapon}" + (f" · {rec.training}" if rec.training else "")
    text(d, (202, 100), fit(line, 28, W - 260), 28, ink)
    text(d, (202, 138), fit(f"Service record · {rec.campaign} · {rec.player}'s roster", 24, W - 260), 24, ink)


def _status_chip(d: ImageDraw.ImageDraw, status: str, right_top: tuple[int, int]) -> float:
    bg, fg = STATUS_CHIP.get(status, (S.MUTED, (255, 255, 255)))
    label = status.upper()
    w = text_width(label, 28, bold=True) + 40
    x1, y0 = right_top
    d.rounded_rectangle((x1 - w, y0, x1, y0 + 50), radius=10, fill=bg, outline=S.INK, width=2)
    text(d, (x1 - w / 2, y0 + 25), label, 28, fg, anchor="mm", bold=True)
    return w


def _ribbon(d: ImageDraw.ImageDraw, box, side: str, award: str) -> None:
    x0, y0, x1, y1 = box
    stripes = ribbon_stripes(side, award)
    total = sum(w for _, w in stripes)
    x = float(x0)
    for colour, w in stripes:
        nx = x + (x1 - x0) * w / total
        d.rectangle((round(x), y0, round(nx), y1), fill=colour)
        x = nx
    if award in ("silver", "distinguished"):  # a device marks the higher medals
        d.polygon(star((x0 + x1) / 2, (y0 + y1) / 2, 13, 5.5, 5), fill=_GOLD, outline=S.INK)
    d.rectangle(box, outline=S.INK, width=2)


def _badge(d: ImageDraw.ImageDraw, box, award: str, side: str) -> None:
    x0, y0, x1, y1 = box
    metal = BADGE_METAL.get(award, (192, 196, 204))
    d.rounded_rectangle(box, radius=12, fill=metal, outline=S.INK, width=2)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if award == "combat" and side == "DE":  # an oak wreath round a rifle
        d.ellipse((cx - 30, cy - 15, cx + 30, cy + 15), outline=S.INK, width=4)
        d.line((cx - 20, cy + 8, cx + 20, cy - 8), fill=S.INK, width=3)
    elif award == "combat":  # a rifle on a field of blue
        d.rectangle((x0 + 18, y0 + 9, x1 - 18, y1 - 9), fill=(86, 140, 200), outline=S.INK)
        d.line((x0 + 26, cy, x1 - 26, cy), fill=S.INK, width=4)
    elif award == "marksman":  # a target
        for r, c in ((14, (255, 255, 255)), (9, S.INK), (4, (255, 255, 255))):
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c)
    else:  # close combat: crossed blades
        d.line((cx - 22, cy - 12, cx + 22, cy + 12), fill=S.INK, width=4)
        d.line((cx - 22, cy + 12, cx + 22, cy - 12), fill=S.INK, width=4)


def _empty_slot(d: ImageDraw.ImageDraw, box) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, 14):
        d.line((x, y0, min(x + 7, x1), y0), fill=S.MUTED, width=2)
        d.line((x, y1, min(x + 7, x1), y1), fill=S.MUTED, width=2)
    d.line((x0, y0, x0, y1), fill=S.MUTED, width=2)
    d.line((x1, y0, x1, y1), fill=S.MUTED, width=2)


def _honours(img: Image.Image, d: ImageDraw.ImageDraw, rec, box) -> None:
    """One row per rank: up to three medal ribbons, then the badge; empty slots show the room
    left at his present rank (three medals and one badge per rank)."""
    x0, y0, x1, y1 = box
    text(d, (x0, y0), "Medals and badges", 30, S.INK, bold=True)
    text(d, (x1, y0 + 6), "3 medals + 1 badge per rank", 20, S.MUTED, anchor="ra")
    ranks: list[str] = []
    for h in rec.honours:
        if h.rank_title not in ranks:
            ranks.append(h.rank_title)
    if rec.rank_title not in ranks and rec.kind != "vehicle":
        ranks.append(rec.rank_title)
    y = y0 + 52
    row_h = (y1 - y - 10) // max(3, len(ranks))
    for rank in ranks:
        mine = [h for h in rec.honours if h.rank_title == rank]
        medals = [h for h in mine if h.category == "medal"]
        badges = [h for h in mine if h.category == "badge"]
        current = rank == rec.rank_title
        text(d, (x0, y + 10), f"as {rank}", 24, S.INK if current else S.MUTED, bold=current)
        x = x0 + 120
        slots = [("medal", h) for h in medals] + ([("medal", None)] * (3 - len(medals)) if current else [])
        slots += [("badge", h) for h in badges] + ([("badge", None)] if current and not badges else [])
        for kind, h in slots:
            rb = (x, y, x + RIBBON_W, y + RIBBON_H)
            if h is None:
                _empty_slot(d, rb)
            elif kind == "medal":
                _ribbon(d, rb, rec.side, h.award)
            else:
                _badge(d, rb, h.award, rec.side)
            if h is not None:
                for k, part in enumerate(textwrap.wrap(h.name, 17)[:2]):
                    text(d, (x + RIBBON_W / 2, y + RIBBON_H + 6 + k * 21), part, 18, S.INK, anchor="ma")
                if h.scenario:
                    text(d, (x + RIBBON_W / 2, y + RIBBON_H + 50), fit(h.scenario, 16, RIBBON_W + 16), 16,
                         S.MUTED, anchor="ma")
            x += RIBBON_W + 22
        y += row_h
    if not rec.honours:
        text(d, (x0 + 120, y0 + 52 + RIBBON_H + 14), "No medals or badges yet.", 22, S.MUTED)
    if rec.medals_in_play:
        text(d, (x0, y1 - 24), f"{rec.medals_in_play} medal card{'s' if rec.medals_in_play > 1 else ''} "
                               "in his deck: enhanced multi-action cards", 20, S.INK)


def _figures(d: ImageDraw.ImageDraw, rec, box) -> None:
    x0, y0, x1, _ = box
    text(d, (x0, y0), "In the field", 30, S.INK, bold=True)
    tiles = [("Kills", rec.kills), ("Prisoners", rec.captures), ("Wounds", rec.wounds),
             ("Scenarios", len(rec.scenarios))]
    if rec.vp is not None:
        tiles += [("VP at his rank", rec.vp), ("VP earned", rec.vp_earned)]
    tw, th = (x1 - x0 - 20) // 2, 80
    for i, (label, value) in enumerate(tiles):
        tx, ty = x0 + (i % 2) * (tw + 20), y0 + 50 + (i // 2) * (th + 12)
        private = label.startswith("VP")
        d.rounded_rectangle((tx, ty, tx + tw, ty + th), radius=10, fill=(255, 255, 255),
                            outline=S.HIGHLIGHT if private else S.INK, width=3 if private else 2)
        text(d, (tx + 14, ty + 10), label, 20, S.HIGHLIGHT if private else S.MUTED)
        text(d, (tx + tw - 14, ty + th - 6), str(value), 42, S.INK, anchor="rb", bold=True)
    y = y0 + 50 + ((len(tiles) + 1) // 2) * (th + 12) + 4
    if rec.vp is not None:
        text(d, (x0, y), "VP: only his player sees this", 18, S.HIGHLIGHT)
        y += 30
    text(d, (x0, y), "Scenarios fought", 22, S.INK, bold=True)
    y += 32
    for k, name in enumerate(rec.scenarios[-5:], start=max(1, len(rec.scenarios) - 4)):
        text(d, (x0, y), fit(f"{k}. {name}", 20, x1 - x0), 20, S.INK)
        y += 26
    if not rec.scenarios:
        text(d, (x0, y), "none yet", 20, S.MUTED)


def _log(d: ImageDraw.ImageDraw, rec, box) -> None:
    x0, y0, x1, y1 = box
    d.line((x0, y0 - 12, x1, y0 - 12), fill=S.MUTED, width=2)
    text(d, (x0, y0), "Service log", 30, S.INK, bold=True)
    y = y0 + 46
    lines: list[str] = []
    for entry in rec.notable:
        lines += textwrap.wrap(entry, 118, subsequent_indent="    ") or [""]
    room = (y1 - y) // 28
    if len(lines) > room:
        lines = ["…", *lines[-(room - 1):]]
    for line in lines:
        text(d, (x0, y), fit(line, 21, x1 - x0), 21, S.INK)
        y += 28
    if not rec.notable:
        text(d, (x0, y), "Nothing of note yet.", 21, S.MUTED)
