"""The board picture after every phase, from the public view (and a seat's variant of it).

Static layer (cached per map): terrain, cover, buildings, NO MOVE areas, roads, water, area
modifiers, the inch grid, tile IDs with their LOOK/SHOOT/HIDE/MOVE boxes, entry, exit and
deployment areas, the legend and the empty header band. Dynamic layer (every phase): smoke
and fire, shooting arcs, the phase's trail, figures with their markers, and the header text.
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render import battlefield
from bot.render import style as S
from bot.render.draw import (
    arrow_head,
    blend_rect,
    blend_shape,
    dashed_line,
    dashed_rect,
    fit,
    shorten,
    star,
    text,
    text_width,
)
from bot.render.panel import Panel
from bot.render.vehicle_figure import badge as vehicle_badge
from bot.render.vehicle_figure import count_badge, draw_vehicle, footprint_box, shadow
from engine.core.board import DIR_VEC, SQUARE
from engine.core.content import layout_slots

Cell = tuple[int, int]
LONG_SIDE = 1440  # board pixels on the long side; with margins the picture is about 1,500 px


@dataclass(frozen=True)
class BoardLayout:
    """Where everything goes, in pixels, for one map size."""

    width_in: int
    height_in: int
    ppi: int
    footer_h: int = 0  # the private variant's strip under the legend

    margin = 30
    header_h = 124

    @classmethod
    def for_view(cls, view, footer_h: int = 0) -> BoardLayout:
        w, h = view.board["width"], view.board["height"]
        ppi = max(20, min(48, LONG_SIDE // w, 880 // h))
        return cls(w, h, ppi, footer_h)

    @property
    def board_x0(self) -> int:
        return self.margin

    @property
    def board_y0(self) -> int:
        return self.header_h + self.margin

    @property
    def board_w(self) -> int:
        return self.width_in * self.ppi

    @property
    def board_h(self) -> int:
        return self.height_in * self.ppi

    @property
    def size(self) -> tuple[int, int]:
        return (self.board_w + 2 * self.margin,
                self.board_y0 + self.board_h + self.margin + self.legend_h + self.footer_h)

    @property
    def legend_h(self) -> int:
        rows = 1 + max(y for (_, y), _ in legend_places(self.board_w + 2 * self.margin, self.margin, 0)) // LEGEND_ROW
        return rows * LEGEND_ROW + 12

    @property
    def legend_y0(self) -> int:
        return self.board_y0 + self.board_h + self.margin

    @property
    def footer_y0(self) -> int:
        return self.legend_y0 + self.legend_h

    def px(self, x: float, y: float) -> tuple[int, int]:
        """Board inches (cell corners) to pixels."""
        return round(self.board_x0 + x * self.ppi), round(self.board_y0 + y * self.ppi)

    def cell_box(self, c: Cell) -> tuple[int, int, int, int]:
        x0, y0 = self.px(c[0], c[1])
        return x0, y0, x0 + self.ppi, y0 + self.ppi

    def centre(self, c: Cell) -> tuple[float, float]:
        return self.board_x0 + (c[0] + 0.5) * self.ppi, self.board_y0 + (c[1] + 0.5) * self.ppi

    @property
    def base_r(self) -> float:
        return self.ppi * 0.47

    @property
    def badge_r(self) -> float:
        return max(7.0, self.ppi * 0.28)

    def marker_centre(self, c: Cell, which: str) -> tuple[float, float]:
        """Marker badges sit on the rim of the base: Spotted top right, Pinned bottom right,
        Wounded bottom left, locked in combat top left, escort left, held cards right."""
        cx, cy = self.centre(c)
        k = self.base_r * 0.78
        dx, dy = {"spotted": (1, -1), "pinned": (1, 1), "wounded": (-1, 1), "contact": (-1, -1),
                  "escort": (-1.25, 0), "held": (1.25, 0)}[which]
        return cx + dx * k, cy + dy * k

    def marker_box(self, c: Cell, which: str) -> tuple[int, int, int, int]:
        mx, my = self.marker_centre(c, which)
        r = self.badge_r
        return round(mx - r), round(my - r), round(mx + r), round(my + r)

    @property
    def header_box(self) -> tuple[int, int, int, int]:
        return 0, 0, self.size[0], self.header_h


LEGEND_FONT = 15
LEGEND_ROW = 34
# (icon width, icon, its argument, label), in reading order
LEGEND = [
    (24, "side", "US", "American"), (24, "side", "DE", "German"), (24, "prisoner", "", "Prisoner"),
    (18, "badge", "spotted", "Spotted"), (18, "badge", "pinned", "Pinned"), (18, "badge", "wounded", "Wounded"),
    (18, "badge", "contact", "In combat"), (18, "badge", "escort", "Escort"), (18, "badge", "held", "Held cards"),
    (30, "arc", "", "Shooting arc"), (36, "vehicle", "US", "Vehicle or gun, plate"),
    (36, "wreck", "", "Destroyed"), (18, "vbadge", "hulldown", "Hull down"), (26, "vbadge", "moveplus", "Move+"),
    (18, "vbadge", "plate_sight", "Spotted by vehicle"),
    (22, "action", "look", "LOOK"), (22, "action", "shoot", "SHOOT"), (22, "action", "hide", "HIDE"),
    (22, "action", "move", "MOVE"),
    (26, "feature", "cover", "Cover"), (26, "feature", "building", "Building"), (26, "feature", "nomove", "No move"),
    (26, "feature", "road", "Road"), (26, "feature", "water", "Water"), (26, "smoke", "", "Smoke"),
    (24, "fire", "", "Fire"), (40, "move", "", "Move"), (44, "shot", "", "Shot"), (28, "blast", "", "Blast"),
    (20, "kia", "", "Killed"),
    # the battlefield (issue 9, battlefield.py): face down, as the table sees them
    (24, "artillery", "US", "Artillery marker"), (24, "mines", "DE", "Mine tokens"),
    (44, "roadblock", "", "Roadblock"), (20, "ccombat", "", "Close combat on a vehicle"),
]


def legend_places(width: int, margin: int, y0: int) -> list[tuple[tuple[int, int], tuple[int, str, str, str]]]:
    """Where each legend entry goes: left to right, on to the next row when the picture ends."""
    out = []
    x, y = margin, y0 + 16
    for item in LEGEND:
        w = item[0] + 6 + round(text_width(item[3], LEGEND_FONT)) + 18
        if x + w - 18 > width - margin:
            x, y = margin, y + LEGEND_ROW
        out.append(((x, y), item))
        x += w
    return out


def map_digest(view) -> str:
    """A digest of the map (rows and tile definitions): the static layer's cache key.

    The engine keeps its own map key in the game setup; the view does not carry it, so the
    picture hashes what it draws."""
    data = {"rows": view.board["rows"], "tiles": {k: t.model_dump(mode="json") for k, t in sorted(view.tiles.items())},
            "entry": {k: a.model_dump(mode="json") for k, a in sorted(view.entry_areas.items())},
            "exit": {k: a.model_dump(mode="json") for k, a in sorted(view.exit_areas.items())},
            "deploy": view.deploy}
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()


def tile_origins(view) -> dict[str, Cell]:
    return {tid: (min(c for c, _ in slots) * SQUARE, min(r for _, r in slots) * SQUARE)
            for tid, slots in layout_slots(view.board["rows"]).items()}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


# =========================================================================== the public board


class BoardPanel(Panel):
    """The public board. `footer_h` leaves room for the private variant's strip."""

    footer_h = 0

    def layout(self, view) -> BoardLayout:
        return BoardLayout.for_view(view, self.footer_h)

    def static_key(self, view):
        return ("board", view.scenario, map_digest(view), self.layout(view))

    # ------------------------------------------------------------------ static layer

    def draw_static(self, view) -> Image.Image:
        L = self.layout(view)
        img = Image.new("RGB", L.size, S.PAPER)
        d = ImageDraw.Draw(img)
        origins = tile_origins(view)
        for tid, (ox, oy) in origins.items():
            self._terrain(img, d, L, view.tiles[tid], ox, oy)
        self._grid(img, L)
        for tid, (ox, oy) in origins.items():
            t = view.tiles[tid]
            x0, y0 = L.px(ox, oy)
            x1, y1 = L.px(ox + t.size, oy + t.size)
            if t.landmark:
                d.rectangle((x0, y0, x1, y1), outline=S.LANDMARK_EDGE, width=4)
            else:
                d.rectangle((x0, y0, x1, y1), outline=S.TILE_EDGE, width=2)
        d.rectangle((L.board_x0 - 2, L.board_y0 - 2, L.board_x0 + L.board_w + 2, L.board_y0 + L.board_h + 2),
                    outline=S.INK, width=3)
        for side, tids in view.deploy.items():
            for tid in tids:
                self._deploy(d, L, view.tiles[tid], origins[tid], side)
        self._areas(d, L, view, origins)
        for tid, (ox, oy) in origins.items():
            self._tile_label(img, d, L, view.tiles[tid], ox, oy)
        self._ticks(d, L)
        d.rectangle(L.header_box, fill=(236, 230, 214))
        d.line((0, L.header_h - 1, L.size[0], L.header_h - 1), fill=S.MUTED, width=1)
        self._legend(img, d, L)
        return img

    def _terrain(self, img, d, L: BoardLayout, t, ox: int, oy: int) -> None:
        x0, y0 = L.px(ox, oy)
        x1, y1 = L.px(ox + t.size, oy + t.size)
        d.rectangle((x0, y0, x1, y1), fill=S.GROUND.get(t.terrain, S.GROUND_DEFAULT))
        order = {"water": 0, "road": 1, "cover": 2, "building": 3, "nomove": 4}
        for f in sorted(t.features, key=lambda f: order[f.kind]):
            for r in f.rects:
                bx0, by0 = L.px(ox + r.x0, oy + r.y0)
                bx1, by1 = L.px(ox + r.x1 + 1, oy + r.y1 + 1)
                self._feature(d, f.kind, (bx0, by0, bx1 - 1, by1 - 1), L.ppi)
                if f.level > 1:
                    text(d, (bx1 - 3, by0 + 2), f"▲{f.level}", max(10, L.ppi // 3), S.INK, anchor="ra")

    @staticmethod
    def _feature(d, kind: str, box, ppi: int) -> None:
        x0, y0, x1, y1 = box
        step = max(6, ppi // 4)
        if kind == "water":
            d.rectangle(box, fill=S.WATER_FILL)
            for y in range(y0 + step // 2, y1, step):
                for x in range(x0 + 2, x1 - step // 2, step):
                    d.arc((x, y - 3, x + step // 2, y + 3), 200, 340, fill=S.WATER_WAVE, width=1)
        elif kind == "road":
            d.rectangle(box, fill=S.ROAD_FILL)
            d.rectangle(box, outline=S.ROAD_EDGE, width=1)
        elif kind == "cover":
            d.rectangle(box, fill=S.COVER_FILL)
            for k in range(-(y1 - y0), x1 - x0, step):  # diagonal hatching, clipped to the box
                a = (x0 + max(k, 0), y0 + max(-k, 0))
                n = min(x1 - a[0], y1 - a[1])
                d.line((a, (a[0] + n, a[1] + n)), fill=S.COVER_HATCH, width=1)
        elif kind == "building":
            d.rectangle(box, fill=S.BUILDING_FILL, outline=S.BUILDING_EDGE, width=2)
            d.line((x0, y0, x1, y1), fill=S.BUILDING_EDGE, width=1)
            d.line((x0, y1, x1, y0), fill=S.BUILDING_EDGE, width=1)
        elif kind == "nomove":
            d.rectangle(box, fill=S.NOMOVE_FILL)
            for k in range(-(y1 - y0), x1 - x0, step):
                a = (x0 + max(k, 0), y0 + max(-k, 0))
                n = min(x1 - a[0], y1 - a[1])
                d.line((a, (a[0] + n, a[1] + n)), fill=S.NOMOVE_HATCH, width=2)
                b = (x1 - max(k, 0), y0 + max(-k, 0))
                d.line((b, (b[0] - n, b[1] + n)), fill=S.NOMOVE_HATCH, width=2)

    def _grid(self, img, L: BoardLayout) -> None:
        def lines(md, off):
            ox, oy = off
            for x in range(1, L.width_in):
                px = L.board_x0 + x * L.ppi - ox
                md.line((px, 0, px, L.board_h), fill=S.GRID_ALPHA)
            for y in range(1, L.height_in):
                py = L.board_y0 + y * L.ppi - oy
                md.line((0, py, L.board_w, py), fill=S.GRID_ALPHA)
        blend_shape(img, (L.board_x0, L.board_y0, L.board_x0 + L.board_w, L.board_y0 + L.board_h), S.GRID, lines)

    def _deploy(self, d, L: BoardLayout, t, origin: Cell, side: str) -> None:
        ox, oy = origin
        x0, y0 = L.px(ox, oy)
        x1, y1 = L.px(ox + t.size, oy + t.size)
        colour = S.SIDE_FILL.get(side, S.DEPLOY_EDGE)
        dashed_rect(d, (x0 + 5, y0 + 5, x1 - 5, y1 - 5), colour, width=4, dash=14, gap=8)
        label = f"{side} deploy"
        size = max(11, L.ppi // 3)
        w = text_width(label, size, bold=True)
        d.rectangle((x1 - w - 14, y1 - size - 14, x1 - 6, y1 - 6), fill=colour)
        text(d, (x1 - 10, y1 - 10), label, size, S.SIDE_TEXT.get(side, S.PAPER), anchor="rb", bold=True)

    def _areas(self, d, L: BoardLayout, view, origins) -> None:
        """Entry and exit areas as bands in the margin along the tile's edge, with their letter."""
        marks: dict[tuple[str, str], list[str]] = {}
        for name, a in view.entry_areas.items():
            marks.setdefault((a.tile, a.edge), []).append(f"{name} in")
        for name, a in view.exit_areas.items():
            key = (a.tile, a.edge)
            here = marks.setdefault(key, [])
            if f"{name} in" in here:
                here[here.index(f"{name} in")] = f"{name} in/out"
            else:
                here.append(f"{name} out")
        size = max(11, L.ppi // 3)
        for (tid, edge), labels in marks.items():
            if tid not in origins:
                continue
            ox, oy = origins[tid]
            n = view.tiles[tid].size
            x0, y0 = L.px(ox, oy)
            x1, y1 = L.px(ox + n, oy + n)
            m = L.margin - 8
            band = {"n": (x0 + 8, y0 - m - 3, x1 - 8, y0 - 4), "s": (x0 + 8, y1 + 4, x1 - 8, y1 + m + 3),
                    "w": (x0 - m - 3, y0 + 8, x0 - 4, y1 - 8), "e": (x1 + 4, y0 + 8, x1 + m + 3, y1 - 8)}[edge]
            d.rectangle(band, fill=S.INK)
            label = "  ".join(labels)
            cx, cy = (band[0] + band[2]) / 2, (band[1] + band[3]) / 2
            if edge in "ns":
                text(d, (cx, cy), label.upper(), size, S.PAPER, anchor="mm", bold=True)
            else:
                for i, word in enumerate(label.upper().split()):
                    text(d, (cx, cy + (i - 0.5) * (size + 2)), word, size - 1, S.PAPER, anchor="mm")

    def _tile_label(self, img, d, L: BoardLayout, t, ox: int, oy: int) -> None:
        x0, y0 = L.px(ox, oy)
        size = max(11, round(L.ppi * 0.40))
        label = t.id + (f"  {t.name}" if t.landmark else "")
        w = text_width(label, size, bold=True)
        box = (x0 + 4, y0 + 4, x0 + 12 + round(w), y0 + 8 + size)
        d.rounded_rectangle(box, radius=4, fill=(255, 255, 255), outline=S.INK)
        text(d, (x0 + 8, y0 + 6), label, size, S.INK, bold=True)
        # the action boxes, in the card's order, each with its letter
        x = box[2] + 4
        bsize = max(10, round(L.ppi * 0.36))
        for action in S.ACTION_ORDER:
            v = getattr(t.mods, action)
            if v is None:
                continue
            s = S.ACTION_LETTER[action] + signed(v)
            bw = round(text_width(s, bsize, bold=True)) + 8
            bbox = (x, box[1], x + bw, box[3])
            d.rounded_rectangle(bbox, radius=4, fill=S.ACTION_FILL[action], outline=S.INK)
            text(d, ((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2 + 1), s, bsize, S.ACTION_TEXT[action],
                 anchor="mm", bold=True)
            x = bbox[2] + 3
        for a in t.areas:  # area modifiers: a dashed outline and its modifiers, drawn once
            for i, r in enumerate(a.rects):
                bx0, by0 = L.px(ox + r.x0, oy + r.y0)
                bx1, by1 = L.px(ox + r.x1 + 1, oy + r.y1 + 1)
                dashed_rect(d, (bx0 + 1, by0 + 1, bx1 - 2, by1 - 2), S.AREA_EDGE, width=2, dash=6, gap=4)
                if i == 0:
                    mods = " ".join(S.ACTION_LETTER[k] + signed(getattr(a.mods, k)) for k in S.ACTION_ORDER
                                    if getattr(a.mods, k))
                    sz = max(9, L.ppi // 4)
                    tw = text_width(mods, sz) + 6
                    d.rectangle((bx0 + 3, by1 - sz - 7, bx0 + 3 + tw, by1 - 3), fill=(255, 248, 225), outline=S.AREA_EDGE)
                    text(d, (bx0 + 6, by1 - 5), mods, sz, S.AREA_EDGE, anchor="lb")

    def _ticks(self, d, L: BoardLayout) -> None:
        """Inch numbers every 5" on the north and west edges: moves may name a cell (x,y)."""
        size = max(10, L.ppi // 3)
        for x in range(0, L.width_in + 1, SQUARE):
            px, py = L.px(x, 0)
            text(d, (px, py - 5), str(x), size, S.MUTED, anchor="mb")
        for y in range(SQUARE, L.height_in + 1, SQUARE):
            px, py = L.px(0, y)
            text(d, (px - 5, py - 2), str(y), size, S.MUTED, anchor="rb")

    # ------------------------------------------------------------------ legend

    def _legend(self, img, d, L: BoardLayout) -> None:
        d.rectangle((0, L.legend_y0 - 6, L.size[0], L.legend_y0 + L.legend_h), fill=S.PAPER)
        for (x, y), (icon_w, kind, arg, label) in legend_places(L.size[0], L.margin, L.legend_y0):
            self._legend_icon(img, d, kind, arg, x, y)
            text(d, (x + icon_w + 6, y), label, LEGEND_FONT, S.INK, anchor="lm")

    def _legend_icon(self, img, d, kind: str, arg: str, x: int, y: int) -> None:
        if kind == "side":
            self._base(d, (x + 12, y), 12, arg, S.SIDE_FILL[arg], S.SIDE_TEXT[arg], "")
        elif kind == "prisoner":
            self._base(d, (x + 12, y), 12, "US", S.PRISONER_FILL, S.INK, "")
        elif kind == "badge":
            self._badge(d, (x + 9, y), 9, arg, 2)
        elif kind == "arc":
            blend_shape(img, (x - 14, y - 26, x + 40, y + 26), S.SIDE_FILL["US"],
                        lambda md, off: md.pieslice((x - off[0] - 14, y - 26 - off[1], x - off[0] + 38, y + 26 - off[1]),
                                                    -45, 45, fill=80))
        elif kind == "action":
            d.rounded_rectangle((x, y - 10, x + 22, y + 10), radius=4, fill=S.ACTION_FILL[arg], outline=S.INK)
            text(d, (x + 11, y + 1), S.ACTION_LETTER[arg], 14, S.ACTION_TEXT[arg], anchor="mm", bold=True)
        elif kind == "feature":
            self._feature(d, arg, (x, y - 10, x + 26, y + 10), 36)
        elif kind == "smoke":
            d.rectangle((x, y - 10, x + 26, y + 10), fill=(200, 200, 200), outline=S.MUTED)
        elif kind == "fire":
            d.polygon(star(x + 12, y, 12, 6), fill=S.FIRE_FILL)
        elif kind == "move":
            d.line((x, y, x + 30, y), fill=S.INK, width=7)
            d.line((x, y, x + 30, y), fill=S.SIDE_FILL["US"], width=4)
            arrow_head(d, (x + 40, y), (x, y), 14, S.SIDE_FILL["US"], S.INK)
        elif kind == "shot":
            d.line((x, y, x + 32, y), fill=S.SHOT_LINE, width=4)
            d.polygon(star(x + 36, y, 8, 3, 6), fill=S.SHOT_LINE)
        elif kind == "blast":
            self._burst(img, d, (x + 13, y), 14)
        elif kind == "kia":
            self._kia(d, (x + 10, y), 10)
        elif kind in ("vehicle", "wreck"):
            fake = _LegendVehicle(arg or "US", "destroyed" if kind == "wreck" else "board")
            draw_vehicle(img, d, (x, y - 15, x + 28, y + 13), fake, None, 22)
        elif kind == "vbadge":
            vehicle_badge(d, (x + 9 + (4 if arg == "moveplus" else 0), y), 9, arg, "M+")
        elif kind == "artillery":  # issue 9: the battlefield's marks (battlefield.py)
            battlefield.artillery_marker(d, (x + 12, y), 10, arg)
        elif kind == "mines":
            battlefield.mine_token(d, (x + 12, y), 10, arg, 2)
        elif kind == "roadblock":
            battlefield.roadblock_bar(d, (x, y - 6, x + 44, y + 6))
        elif kind == "ccombat":
            battlefield.close_combat_mark(d, (x + 10, y), 9)

    # ------------------------------------------------------------------ dynamic layer

    def draw_dynamic(self, view, img: Image.Image) -> None:
        L = self.layout(view)
        d = ImageDraw.Draw(img)
        origins = tile_origins(view)
        self._effects(img, d, L, view, origins)
        battlefield.draw_ground(img, d, L, view, origins)  # issue 9: roadblocks, mine tokens face down
        men = self.men(view)
        here = [s for s in men if s.at is not None and s.status == "board"]
        for s in here:
            if s.captor is None:
                self._arc(img, L, s)
        standing = [v for v in view.vehicles if v.tile in origins and v.status in ("board", "destroyed", "abandoned")]
        for v in standing:
            self._vehicle(img, d, L, view, v, origins)
        for s in men:
            if s.status == "dead" and s.at is not None:
                self._kia(d, L.centre(s.at), L.base_r * 0.6)
        self._trail(img, d, L, view)
        by_serial = {s.serial: s for s in men}
        for s in here:
            if s.captor is not None and s.captor in by_serial and by_serial[s.captor].at:
                dashed_line(d, L.centre(s.at), L.centre(by_serial[s.captor].at), S.INK, width=3, dash=5, gap=4)
        escorts = {s.captor for s in here if s.captor is not None}
        for s in here:
            self._figure(d, L, s, escort=s.serial in escorts)
        self._hidden_markers(img, d, L, view, origins)
        for v in standing:
            self._vehicle_markers(d, L, view, v, origins)
        battlefield.draw_above(img, d, L, view, origins)  # issue 9: artillery markers face down, close combats
        self._entries(d, L, view, origins)
        self._header(img, d, L, view)

    # ------------------------------------------------------------------ hidden deployment

    def men(self, view) -> list:
        """The soldiers drawn as figures: on the public board only the view's public ones."""
        return list(view.soldiers)

    def markers(self, view) -> list:
        """Hidden-deployment markers to draw (the private board leaves out its own side's)."""
        return list(view.hidden)

    def _hidden_markers(self, img, d, L: BoardLayout, view, origins) -> None:
        """Each side's hidden men in a tile as one marker in the tile's middle: a hatched,
        dashed-edged diamond in the side's colour with a "?" and the count — no cell, no
        facing, no dog tag, so it cannot be taken for a figure."""
        by_tile: dict[str, list] = {}
        for m in self.markers(view):
            if m.tile in origins:
                by_tile.setdefault(m.tile, []).append(m)
        r = L.ppi * 0.95
        figures = [(s.at[0] + 0.5, s.at[1] + 0.5) for s in self.men(view) if s.at is not None and s.status == "board"]
        for tile, ms in sorted(by_tile.items()):
            ox, oy = origins[tile]
            n = view.tiles[tile].size
            # the middle of the tile, or the quarter of it farthest from the figures drawn there
            spots = [(ox + n / 2, oy + n / 2)] + [(ox + n * fx, oy + n * fy) for fy in (0.3, 0.7) for fx in (0.3, 0.7)]

            def room(p):
                return min((math.dist(p, f) for f in figures), default=99.0)
            best = spots[0] if room(spots[0]) > 2.2 else max(spots, key=room)
            cx, cy = L.px(*best)
            for i, m in enumerate(sorted(ms, key=lambda m: m.side)):
                self._hidden_marker(img, d, (cx + (i - (len(ms) - 1) / 2) * r * 2.3, cy), r, m.side, m.count)

    @staticmethod
    def _hidden_marker(img, d, c, r: float, side: str, count: int) -> None:
        cx, cy = c
        fill = S.SIDE_FILL.get(side, S.MUTED)
        diamond = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]

        def shape(md, off):
            md.polygon([(x - off[0], y - off[1]) for x, y in diamond], fill=255)
        blend_shape(img, (int(cx - r), int(cy - r), int(cx + r) + 1, int(cy + r) + 1), fill, shape)
        step = max(5, round(r / 3))  # dark hatching across the diamond, none outside it

        def hatch(md, off):
            x0, y0 = cx - r - off[0], cy - r - off[1]
            for k in range(0, int(4 * r) + step, step):
                md.line((x0 + k - 2 * r, y0 + 2 * r, x0 + k, y0), fill=150, width=2)
            w = 2 * r
            for corner in (((x0, y0), (x0 + r, y0), (x0, y0 + r)), ((x0 + w, y0), (x0 + r, y0), (x0 + w, y0 + r)),
                           ((x0, y0 + w), (x0 + r, y0 + w), (x0, y0 + r)),
                           ((x0 + w, y0 + w), (x0 + r, y0 + w), (x0 + w, y0 + r))):
                md.polygon(corner, fill=0)
        blend_shape(img, (int(cx - r), int(cy - r), int(cx + r) + 1, int(cy + r) + 1), S.INK, hatch)
        for a, b in zip(diamond, diamond[1:] + diamond[:1]):
            dashed_line(d, a, b, S.INK, width=3, dash=max(5, r / 4), gap=max(3, r / 7))
        q = r * 0.5
        d.ellipse((cx - q, cy - q, cx + q, cy + q), fill=(255, 255, 255), outline=S.INK, width=2)
        text(d, (cx, cy + 1), "?", max(12, round(r * 0.7)), S.INK, anchor="mm", bold=True)
        if count > 1:
            br = max(8, r * 0.32)
            bx, by = cx + r * 0.62, cy - r * 0.62
            d.ellipse((bx - br, by - br, bx + br, by + br), fill=S.INK, outline=(255, 255, 255), width=1)
            text(d, (bx, by + 1), str(count), max(10, round(br * 1.3)), (255, 255, 255), anchor="mm", bold=True)

    def _vehicle_box(self, L: BoardLayout, view, v, origins) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = footprint_box(origins[v.tile], view.tiles[v.tile].size)
        return (*L.px(x0, y0), *L.px(x1, y1))

    def _vehicle(self, img, d, L: BoardLayout, view, v, origins) -> None:
        """A vehicle or gun fills the cells it covers in its tile (vehicle_figure.py)."""
        box = self._vehicle_box(L, view, v, origins)
        shadow(img, box)
        draw_vehicle(img, d, box, v, view.vehicle_defs.get(v.vehicle), L.ppi)

    def _vehicle_markers(self, d, L: BoardLayout, view, v, origins) -> None:
        """On the corners of its footprint, above the figures: Spotted top right, Pinned (with
        the count) bottom right, Hull down bottom left, Move+ top left; the vehicles' own Spotted
        markers, with their plates, on a label under it."""
        x0, y0, x1, y1 = self._vehicle_box(L, view, v, origins)
        r = max(9.0, L.ppi * 0.3)
        if v.spotted:
            self._badge(d, (x1, y0), r, "spotted")
        if v.pins:
            self._badge(d, (x1, y1), r, "pinned")
            if v.pins > 1:
                count_badge(d, (x1 + r * 0.95, y1 + r * 0.75), r * 0.62, str(v.pins))
        if v.hull_down:
            vehicle_badge(d, (x0, y1), r, "hulldown")
        if v.move_plus:
            vehicle_badge(d, (x0, y0), r, "moveplus", "M" + "+" * min(v.move_plus - 1, 2) if v.move_plus > 1
                          else f"M{v.move_plus}")
        if v.spotted_by:
            label = " ".join(str(p) for p in v.spotted_by)
            size = max(10, round(L.ppi * 0.3))
            w = text_width(label, size, bold=True) + 2 * r + 12
            cx, cy = (x0 + x1) / 2, y1 + r * 2 + 2
            d.rounded_rectangle((cx - w / 2, cy - r, cx + w / 2, cy + r), radius=4, fill=(255, 255, 255), outline=S.INK)
            vehicle_badge(d, (cx - w / 2 + r + 1, cy), r * 0.8, "plate_sight")
            text(d, (cx - w / 2 + 2 * r + 6, cy + 1), label, size, S.INK, anchor="lm", bold=True)

    def _effects(self, img, d, L: BoardLayout, view, origins) -> None:
        for tid, density in view.smoke.items():
            if tid not in origins:
                continue
            ox, oy = origins[tid]
            n = view.tiles[tid].size
            x0, y0 = L.px(ox, oy)
            x1, y1 = L.px(ox + n, oy + n)
            blend_rect(img, (x0, y0, x1, y1), S.SMOKE_FILL, 120 if density >= 3 else 95)
            pr = L.ppi * 0.7

            def puffs(md, off, x0=x0, y0=y0, x1=x1, y1=y1, pr=pr):
                for i, (fx, fy) in enumerate(((0.3, 0.35), (0.65, 0.3), (0.5, 0.62), (0.25, 0.75), (0.78, 0.7))):
                    cx, cy = x0 + (x1 - x0) * fx - off[0], y0 + (y1 - y0) * fy - off[1]
                    md.ellipse((cx - pr, cy - pr * 0.7, cx + pr, cy + pr * 0.7), fill=110 + 10 * (i % 2))
            blend_shape(img, (x0, y0, x1, y1), S.SMOKE_FILL, puffs)
            size = max(12, L.ppi // 2)
            text(d, ((x0 + x1) / 2, y1 - 8), f"SMOKE {density}", size, S.INK, anchor="mb", bold=True)
        for tid in view.fires:
            if tid not in origins:
                continue
            ox, oy = origins[tid]
            n = view.tiles[tid].size
            x0, y0 = L.px(ox, oy)
            x1, y1 = L.px(ox + n, oy + n)
            blend_rect(img, (x0, y0, x1, y1), S.FIRE_FILL, 70)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            fr = L.ppi * 1.1
            d.polygon(star(cx, cy, fr, fr * 0.45, 9), fill=S.FIRE_FILL, outline=S.INK)
            d.polygon(star(cx, cy + fr * 0.1, fr * 0.55, fr * 0.25, 7), fill=S.FIRE_CORE)
            size = max(12, L.ppi // 2)
            text(d, (cx, cy + fr + 4), "FIRE", size, S.INK, anchor="mt", bold=True)

    def _arc(self, img, L: BoardLayout, s) -> None:
        """The shooting arc: a translucent 90° wedge around the facing."""
        cx, cy = L.centre(s.at)
        R = L.ppi * 2.4
        fx, fy = DIR_VEC[s.facing]
        ang = math.degrees(math.atan2(fy, fx))

        def wedge(md, off):
            md.pieslice((cx - R - off[0], cy - R - off[1], cx + R - off[0], cy + R - off[1]), ang - 45, ang + 45,
                        fill=60)
        blend_shape(img, (int(cx - R), int(cy - R), int(cx + R) + 1, int(cy + R) + 1), S.SIDE_FILL[s.side], wedge)

    def _trail(self, img, d, L: BoardLayout, view) -> None:
        side = {s.serial: s.side for s in view.soldiers} | {v.plate: v.side for v in view.vehicles}
        # a vehicle's marks start and end at the edge of its footprint, not on its plate
        half = {v.plate: L.ppi * (3 if view.tiles[v.tile].size == 5 else 4) / 2 for v in view.vehicles
                if v.tile in view.tiles}
        # the phase under way if anything has happened in it yet, else the phase just finished
        for m in view.trail or view.last_trail:
            pts = [L.centre(c) for c in m.path]
            colour = S.SIDE_FILL.get(side.get(m.serial, ""), S.INK)
            r = half.get(m.serial, L.base_r)  # the mover's or shooter's
            rt = half.get(m.target, L.base_r) if m.target is not None else L.base_r  # the target's
            if m.kind in ("move", "charge") and len(pts) >= 2:
                pts = [p for i, p in enumerate(pts) if i == 0 or p != pts[i - 1]]
                if len(pts) < 2:
                    continue
                end = shorten(pts[-2], pts[-1], r + 2)  # a vehicle's arrow stops at its footprint
                line = [*pts[:-1], end]
                w = max(4, L.ppi // 7) + (2 if m.kind == "charge" else 0)
                d.line(line, fill=S.INK, width=w + 4, joint="curve")
                d.line(line, fill=colour, width=w, joint="curve")
                tip = shorten(line[-2], end, -L.ppi * 0.25)
                arrow_head(d, tip, line[-2], L.ppi * 0.55, colour, S.INK)
                if m.kind == "charge":
                    mid = ((line[-2][0] + end[0]) / 2, (line[-2][1] + end[1]) / 2)
                    arrow_head(d, mid, line[-2], L.ppi * 0.45, colour, S.INK)
                d.ellipse((pts[0][0] - 4, pts[0][1] - 4, pts[0][0] + 4, pts[0][1] + 4), fill=colour, outline=S.INK)
            elif m.kind in ("shot", "toss") and len(pts) >= 2:
                a = shorten(pts[1], pts[0], r)
                b = shorten(pts[0], pts[1], rt * (0.2 if m.kind == "toss" else 0.9))
                if m.kind == "shot":
                    d.line((a, b), fill=(255, 255, 255), width=7)
                    d.line((a, b), fill=S.SHOT_LINE, width=4)
                    d.polygon(star(b[0], b[1], L.ppi * 0.38, L.ppi * 0.14, 6), fill=S.SHOT_LINE, outline=S.INK)
                else:
                    dashed_line(d, a, b, S.INK, width=3, dash=4, gap=5)
                    self._burst(img, d, pts[1], L.ppi * 1.1)
            elif m.kind == "blast" and pts:  # a whole tile struck: the burst at its centre
                self._burst(img, d, pts[0], L.ppi * 1.4)
            elif m.kind == "kill" and pts:
                self._kia(d, pts[0], r * 0.9)

    @staticmethod
    def _burst(img, d, c: tuple[float, float], r: float) -> None:
        """A blast: a see-through burst, so the figures and fire under it still show."""
        pts = star(c[0], c[1], r, r * 0.5, 10)
        blend_shape(img, (int(c[0] - r), int(c[1] - r), int(c[0] + r) + 2, int(c[1] + r) + 2), S.BLAST_FILL,
                    lambda md, off: md.polygon([(x - off[0], y - off[1]) for x, y in pts], fill=110))
        d.polygon(pts, outline=S.BLAST_FILL, width=3)

    @staticmethod
    def _kia(d, c: tuple[float, float], r: float) -> None:
        cx, cy = c
        w = max(3, round(r / 3))
        d.line((cx - r, cy - r, cx + r, cy + r), fill=S.KIA_MARK, width=w)
        d.line((cx - r, cy + r, cx + r, cy - r), fill=S.KIA_MARK, width=w)

    def _figure(self, d, L: BoardLayout, s, escort: bool) -> None:
        c = L.centre(s.at)
        r = L.base_r
        fill = S.PRISONER_FILL if s.captor is not None else S.SIDE_FILL[s.side]
        ink = S.INK if s.captor is not None else S.SIDE_TEXT[s.side]
        # facing: a black nose on the rim, pointing the way he looks
        fx, fy = DIR_VEC[s.facing]
        n = math.hypot(fx, fy)
        ux, uy = fx / n, fy / n
        tip = (c[0] + ux * (r + L.ppi * 0.32), c[1] + uy * (r + L.ppi * 0.32))
        side1 = (c[0] - uy * r * 0.6 + ux * r * 0.7, c[1] + ux * r * 0.6 + uy * r * 0.7)
        side2 = (c[0] + uy * r * 0.6 + ux * r * 0.7, c[1] - ux * r * 0.6 + uy * r * 0.7)
        d.polygon([tip, side1, side2], fill=S.INK)
        self._base(d, c, r, s.side, fill, ink, str(s.serial), size=max(11, round(L.ppi * 0.42)))
        for kind, on in (("spotted", s.spotted), ("pinned", s.pinned), ("wounded", s.wounded),
                         ("contact", s.in_contact), ("escort", escort), ("held", s.held > 0)):
            if on:
                self._badge(d, L.marker_centre(s.at, kind), L.badge_r, kind, s.held)

    @staticmethod
    def _base(d, c, r: float, side: str, fill, ink, label: str, size: int = 14) -> None:
        cx, cy = c
        box = (cx - r, cy - r, cx + r, cy + r)
        if S.SIDE_SHAPE.get(side) == "square":
            q = r * 0.9
            d.rounded_rectangle((cx - q, cy - q, cx + q, cy + q), radius=max(2, r * 0.18), fill=fill, outline=S.INK,
                                width=2)
        else:
            d.ellipse(box, fill=fill, outline=S.INK, width=2)
        if label:
            text(d, (cx, cy + 1), label, size, ink, anchor="mm", bold=True)

    @staticmethod
    def _badge(d, c, r: float, kind: str, held: int = 0) -> None:
        cx, cy = c
        box = (cx - r, cy - r, cx + r, cy + r)
        size = max(9, round(r * 1.4))
        if kind == "spotted":  # a white sight with cross-hairs
            d.ellipse(box, fill=S.SPOTTED_FILL, outline=S.SPOTTED_MARK, width=2)
            k = r * 0.5
            d.ellipse((cx - k, cy - k, cx + k, cy + k), outline=S.SPOTTED_MARK, width=1)
            d.line((cx - r, cy, cx + r, cy), fill=S.SPOTTED_MARK, width=2)
            d.line((cx, cy - r, cx, cy + r), fill=S.SPOTTED_MARK, width=2)
        elif kind == "pinned":
            d.ellipse(box, fill=S.PINNED_FILL, outline=(255, 255, 255), width=1)
            text(d, (cx, cy + 1), "P", size, S.PINNED_TEXT, anchor="mm", bold=True)
        elif kind == "wounded":  # a red cross on white
            d.ellipse(box, fill=S.WOUNDED_FILL, outline=S.INK, width=1)
            k, w = r * 0.62, max(2, round(r * 0.42))
            d.line((cx - k, cy, cx + k, cy), fill=S.WOUNDED_MARK, width=w)
            d.line((cx, cy - k, cx, cy + k), fill=S.WOUNDED_MARK, width=w)
        elif kind == "contact":  # crossed blades
            d.ellipse(box, fill=S.CONTACT_FILL, outline=S.INK, width=1)
            k = r * 0.55
            d.line((cx - k, cy - k, cx + k, cy + k), fill=(255, 255, 255), width=2)
            d.line((cx - k, cy + k, cx + k, cy - k), fill=(255, 255, 255), width=2)
        elif kind == "escort":
            d.ellipse(box, fill=S.ESCORT_FILL, outline=S.INK, width=1)
            text(d, (cx, cy + 1), "E", size, (255, 255, 255), anchor="mm", bold=True)
        elif kind == "held":  # a small card with the count
            d.rectangle((cx - r * 0.7, cy - r, cx + r * 0.7, cy + r), fill=(255, 255, 255), outline=S.INK, width=1)
            text(d, (cx, cy + 1), str(held), size, S.INK, anchor="mm", bold=True)

    def _entries(self, d, L: BoardLayout, view, origins) -> None:
        """A side chip on each entry area a force has chosen."""
        for f in view.forces:
            a = view.entry_areas.get(f.entry_area or "")
            if a is None or a.tile not in origins:
                continue
            ox, oy = origins[a.tile]
            n = view.tiles[a.tile].size
            x0, y0 = L.px(ox, oy)
            x1, y1 = L.px(ox + n, oy + n)
            m = L.margin - 8
            r = m / 2
            c = {"n": (x0 + 8 + r, y0 - 4 - r), "s": (x0 + 8 + r, y1 + 4 + r),
                 "w": (x0 - 4 - r, y0 + 8 + r), "e": (x1 + 4 + r, y0 + 8 + r)}[a.edge]
            self._base(d, c, r - 1, f.side, S.SIDE_FILL[f.side], S.SIDE_TEXT[f.side], "")

    # ------------------------------------------------------------------ header

    def _header(self, img, d, L: BoardLayout, view) -> None:
        W = L.size[0]
        x = L.margin
        cards_x0 = W - L.margin - 3 * 176
        room = cards_x0 - x - 16
        text(d, (x, 8), fit(view.scenario_name, 26, room, bold=True), 26, S.INK, bold=True)
        if view.result:
            state = f"Turn {view.turn} of {view.turns} · game over: " + _result_text(view)
        elif view.step in ("place", "turn_start") or view.phase == 0:
            state = f"Turn {view.turn} of {view.turns} · placing cards"
        else:
            state = f"Turn {view.turn} of {view.turns} · Phase {view.phase} of 3"
        text(d, (x, 42), fit(state, 20, room, bold=True), 20, S.INK, bold=True)
        parts = [str(view.result.get("reason", "")) if view.result else _awaiting_text(view)]
        weather = ", ".join(f"{k.upper()} {signed(v)}" for k, v in view.weather.items() if v)
        if weather:
            parts.append("weather " + weather)
        text(d, (x, 70), fit(" · ".join(p for p in parts if p), 16, room), 16, S.MUTED)
        # one column per side: its players, VP and where its men are
        sides = list(dict.fromkeys(s.side for s in view.seats))
        col = room // max(1, len(sides))
        for i, side in enumerate(sides):
            cx = x + i * col
            names = ", ".join(s.name for s in view.seats if s.side == side)
            men = [s for s in self.men(view) if s.side == side]
            hidden = sum(m.count for m in self.markers(view) if m.side == side)
            counts = [(sum(1 for s in men if s.status == "board" and s.captor is None), "on board"),
                      (hidden, "hidden"),
                      (sum(1 for s in men if s.status == "waiting"), "to enter"),
                      (sum(1 for s in men if s.status == "exited"), "off"),
                      (sum(1 for s in men if s.captor is not None), "captured"),
                      (sum(1 for s in men if s.status == "dead"), "KIA")]
            self._base(d, (cx + 9, 106), 9, side, S.SIDE_FILL[side], S.SIDE_TEXT[side], "")
            head = f"{names} {view.vp.get(side, 0)} VP"
            text(d, (cx + 24, 106), head, 17, S.INK, anchor="lm", bold=True)
            rest = " · " + " · ".join(f"{n} {w}" for n, w in counts if n)
            hx = cx + 24 + text_width(head, 17, bold=True)
            text(d, (hx, 106), fit(rest, 16, col - (hx - cx) - 8), 16, S.INK, anchor="lm")
        self._phase_cards(img, d, L, view, cards_x0)

    def _phase_cards(self, img, d, L: BoardLayout, view, x0: int) -> None:
        w, h, gap = 168, L.header_h - 16, 8
        for i in range(3):
            bx = x0 + i * (w + gap)
            box = (bx, 8, bx + w, 8 + h)
            if i >= len(view.phase_cards):
                d.rounded_rectangle(box, radius=8, outline=S.MUTED, width=2)
                text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), f"Phase {i + 1}", 16, S.MUTED, anchor="mm")
                continue
            c = view.phase_cards[i]
            current = view.phase == i + 1 and not view.result
            d.rounded_rectangle(box, radius=8, fill=(255, 255, 255), outline=S.INK, width=4 if current else 1)
            d.rectangle((bx + 6, 12, bx + 14, 8 + h - 4), fill=S.STORY_COLOUR.get(c.color, S.MUTED))
            text(d, (bx + 22, 14), f"{i + 1}", 20, S.INK, bold=True)
            text(d, (bx + 40, 17), fit(c.title, 14, w - (84 if current else 46)), 14, S.INK)
            for j, action in enumerate((c.top, c.bottom)):
                by = 42 + j * 34
                fill = S.ACTION_FILL.get(action, S.MUTED)
                d.rounded_rectangle((bx + 22, by, bx + w - 8, by + 28), radius=5, fill=fill, outline=S.INK)
                text(d, ((bx + 22 + bx + w - 8) / 2, by + 15), action.upper(), 17,
                     S.ACTION_TEXT.get(action, S.INK), anchor="mm", bold=True)
            if view.phase > i + 1 or view.result:  # phases already played are greyed
                blend_rect(img, (box[0], box[1], box[2] + 1, box[3] + 1), S.PAPER, 130)
            if current:
                text(d, (bx + w - 8, 16), "NOW", 13, S.HIGHLIGHT, anchor="ra", bold=True)


def _awaiting_text(view) -> str:
    if not view.awaiting:
        return ""
    names = {s.index: s.name for s in view.seats}
    what = {"place": "to place cards", "declare": "to declare an action", "unhold": "held cards",
            "act": "to act", "hitplus": "a Hit+ target", "pay": "to pay a cost", "fight": "a fight card",
            "capture": "capture or kill", "release": "a released prisoner"}
    parts = []
    for a in view.awaiting:
        p = f"{names.get(a.seat, a.seat)} {what.get(a.kind, a.kind)}"
        if p not in parts:
            parts.append(p)
    return "Waiting for " + ", ".join(parts)


def _result_text(view) -> str:
    winner = (view.result or {}).get("winner")
    return f"{winner} wins" if winner else "a draw"


@dataclass(frozen=True)
class _LegendVehicle:
    """Just enough of a vehicle view to draw the legend's icons."""

    side: str
    status: str
    plate: str = ""
    facing: str = "e"
    turret: str | None = "e"
