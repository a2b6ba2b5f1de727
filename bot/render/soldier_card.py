"""A soldier's card (`/soldier`): name, rank, nationality, the side of his card in use, his
ratings, his markers and, for campaigns, medals and badges.

His VP is printed only when the view is his owner's (`view.mine.soldier_vp` has him): an
enemy's card, or any card from the public view, is exactly the public card.
"""
from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render import style as S
from bot.render.board import BoardPanel, tile_origins
from bot.render.draw import fit, star, text, text_width
from bot.render.panel import Panel

CARD_W, CARD_H = 960, 560
RATINGS = (("sight", "Sight"), ("draw", "Draw"), ("cover", "Cover"), ("rally", "Rally"), ("hold", "Hold"),
           ("walk", "Walk"), ("climb", "Climb"), ("fight", "Fight"), ("long", "Long"), ("short", "Short"),
           ("close", "Close"), ("toss", "Toss"))


@dataclass(frozen=True)
class CardFacts:
    """Everything the card shows, taken from the view; the drawing only lays it out."""

    serial: int
    name: str
    title: str
    side: str
    nationality: str
    wounded: bool
    where: str
    ratings: dict[str, int]
    hit_plus: bool
    weapon: str
    grenades: int
    held: int
    markers: list[str]
    medals: int
    vp: int | None


def card_facts(view, serial: int) -> CardFacts:
    own_hidden = view.mine.own_hidden if view.mine is not None else []  # hidden deployment: his side's unseen men
    s = next((x for x in [*view.soldiers, *own_hidden] if x.serial == serial), None)
    if s is None:
        raise KeyError(f"no soldier {serial} in this game")
    vp = view.mine.soldier_vp.get(serial) if view.mine is not None else None
    markers = [m for m, on in (("Spotted", s.spotted), ("Pinned", s.pinned), ("Wounded", s.wounded),
                               ("In combat", s.in_contact), ("Prisoner", s.captor is not None)) if on]
    return CardFacts(
        serial=s.serial, name=s.name, title=s.title, side=s.side, nationality=S.SIDE_NAME.get(s.side, s.side),
        wounded=s.wounded, where=_where(view, s),
        ratings={k: getattr(s.ratings, k) for k, _ in RATINGS}, hit_plus=s.ratings.hit_plus,
        weapon=s.weapon, grenades=s.grenades, held=s.held, markers=markers, medals=s.medals, vp=vp)


def _where(view, s) -> str:
    if s.status == "dead":
        return "killed in action"
    if s.status == "exited":
        return "left the board"
    if s.status == "removed":
        return "out of the game"
    if s.status == "waiting" or s.at is None:
        return "waiting to enter"
    x, y = s.at
    tile = ""
    for tid, (ox, oy) in tile_origins(view).items():
        n = view.tiles[tid].size
        if ox <= x < ox + n and oy <= y < oy + n:
            tile = tid
    where = f"on {tile} at ({x},{y}), facing {s.facing.upper()}"
    if s.captor is not None:
        where += f", prisoner of {s.captor}"
    return where


class SoldierCard(Panel):
    """Drawn whole every time: a card is small and asked for rarely."""

    def __init__(self, serial: int) -> None:
        self.serial = serial

    def draw_static(self, view) -> Image.Image:
        return Image.new("RGB", (CARD_W, CARD_H), S.PAPER)

    def draw_dynamic(self, view, img: Image.Image) -> None:
        f = card_facts(view, self.serial)
        d = ImageDraw.Draw(img)
        fill, ink = S.SIDE_FILL.get(f.side, S.MUTED), S.SIDE_TEXT.get(f.side, S.INK)
        d.rectangle((0, 0, CARD_W, 150), fill=fill)
        d.rectangle((0, 0, CARD_W - 1, CARD_H - 1), outline=S.INK, width=3)
        BoardPanel._base(d, (90, 75), 56, f.side, (255, 255, 255), S.INK, str(f.serial), size=40)
        text(d, (170, 22), fit(f"{f.title} {f.name}", 46, CARD_W - 190, bold=True), 46, ink, bold=True)
        text(d, (172, 86), f"{f.nationality} · {f.weapon}", 24, ink)
        text(d, (172, 118), fit(f.where, 19, CARD_W - 190), 19, ink)
        # the side of the card in use
        side_label = "WOUNDED SIDE" if f.wounded else "HEALTHY SIDE"
        side_fill = S.WOUNDED_MARK if f.wounded else (60, 120, 60)
        w = text_width(side_label, 20, bold=True) + 24
        d.rounded_rectangle((30, 170, 30 + w, 206), radius=6, fill=side_fill)
        text(d, (30 + w / 2, 189), side_label, 20, (255, 255, 255), anchor="mm", bold=True)
        if "Pinned" in f.markers:
            text(d, (50 + w, 189), "ratings halved while pinned", 18, S.MUTED, anchor="lm")
        # ratings: four rows of three, plus Hit+
        cw, ch = 140, 70
        for i, (key, label) in enumerate(RATINGS):
            x = 30 + (i % 6) * (cw + 10)
            y = 226 + (i // 6) * (ch + 10)
            d.rounded_rectangle((x, y, x + cw, y + ch), radius=8, fill=(255, 255, 255), outline=S.INK, width=2)
            text(d, (x + 12, y + 10), label, 18, S.MUTED)
            text(d, (x + cw - 12, y + ch - 8), str(f.ratings[key]), 34, S.INK, anchor="rb", bold=True)
        y = 226 + 2 * (ch + 10) + 8
        text(d, (30, y), f"Hit+: {'yes' if f.hit_plus else 'no'} · grenades {f.grenades} · "
                         f"held cards {f.held}", 20, S.INK)
        # markers, as on the board
        y += 40
        text(d, (30, y), "Markers:", 20, S.INK, bold=True)
        x = 130
        kinds = {"Spotted": "spotted", "Pinned": "pinned", "Wounded": "wounded", "In combat": "contact"}
        for m in f.markers or ["none"]:
            if m in kinds:
                BoardPanel._badge(d, (x + 12, y + 12), 12, kinds[m])
                x += 30
            text(d, (x, y), m, 20, S.INK)
            x += text_width(m, 20) + 24
        # campaign honours: medals now, badges when campaigns bring them
        y += 40
        text(d, (30, y), "Medals:", 20, S.INK, bold=True)
        for i in range(3):
            cx = 150 + i * 34
            d.polygon(star(cx, y + 13, 15, 6.5, 5), fill=(214, 170, 40) if i < f.medals else None, outline=S.INK)
        text(d, (270, y), "Badges: none yet", 20, S.MUTED)
        if f.vp is not None:  # only the owner's view carries his soldiers' VP
            label = f"{f.vp} VP (only you see this)"
            w = text_width(label, 20, bold=True) + 24
            d.rounded_rectangle((CARD_W - 30 - w, y - 4, CARD_W - 30, y + 30), radius=6, fill=S.HIGHLIGHT)
            text(d, (CARD_W - 30 - w / 2, y + 13), label, 20, (255, 255, 255), anchor="mm", bold=True)
