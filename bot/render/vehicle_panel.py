"""One vehicle's or gun's panel (Hell on Wheels, The Vehicle/Gun Panel), from the public view.

The panels lie open on the table, so the public view holds everything drawn here: the static
panel (`view.vehicle_defs`) and the vehicle's state (`view.vehicles`), its crew's names and
markers (`view.soldiers`). A seat's `mine` is never read.

Static layer (cached by vehicle id and a digest of its panel): the header band, the
compartments with their crew fighting positions and machinery locations, the ammunition
table and the charts. Dynamic layer: plate, where it stands, its markers, who sits where,
hatches, damage markers, rounds in Ready / In Hand / In Breach, and a stamp when it is
destroyed or abandoned.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.render import style as S
from bot.render.board import BoardPanel
from bot.render.draw import blend_rect, fit, star, text, text_width
from bot.render.panel import Panel

Box = tuple[int, int, int, int]

W = 1500
PAD = 22
HEADER_H = 124
STRIP_H = 72
BODY_Y0 = HEADER_H + STRIP_H + 14
LEFT_W = 880
RIGHT_X0 = PAD + LEFT_W + 20
RIGHT_W = W - RIGHT_X0 - PAD
TITLE_H = 38
CREW_H = 120
MACH_H = 68
BAND_H = 24  # the bottom band of a location: its tags, or its damage markers
GAP = 10
ROW_H = 40  # a row of men's chips (cabin, deck, beside it)
ROW_LABEL_W = 156  # the row's label before the chips
AMMO_ROW_H = 50
CHART_H = 62

COMPARTMENT_ORDER = ("turret", "cabin", "hull")
ROLE_NAME = {"driver": "driver", "gunner": "gunner", "loader": "loader", "commander": "commander",
             "radio": "radio operator", "spotter": "spotter"}
KIND_NAME = {"tank": "Tank", "halftrack": "Half-track", "armored_car": "Armoured car", "truck": "Truck",
             "gun": "Gun"}

# Crew fighting positions are red and machinery locations yellow on the book's panels; here a
# dark red band and an ochre strip, each with its word or icon, so the colour is never needed.
CREW_STRIP: S.RGB = (150, 40, 34)
MACH_STRIP: S.RGB = (196, 150, 20)
CELL_FILL: S.RGB = (255, 255, 255)
BOX_FILL: S.RGB = (238, 232, 216)
WRECK_FILL: S.RGB = (60, 60, 60)
CRITICAL_FILL: S.RGB = (120, 20, 90)  # reddish purple, well apart from fire's orange
HATCH_OPEN: S.RGB = (0, 158, 115)  # LOOK's bluish green: an open hatch looks out
STAMP: S.RGB = (150, 20, 20)
HULL_DOWN_FILL: S.RGB = (120, 84, 40)
DAMAGE_WORD = {"fire": "FIRE", "critical": "CRITICAL", "wreck": "WRECK", "cook-off": "COOK-OFF"}
DAMAGE_FILL = {"fire": S.FIRE_FILL, "critical": CRITICAL_FILL, "wreck": WRECK_FILL, "cook-off": STAMP}


def panel_key(vdef) -> str:
    """A digest of the static panel: the same vehicle id always draws the same layer, and a
    test catalogue that reuses an id with other numbers cannot pick up a stale one."""
    return hashlib.sha1(vdef.model_dump_json().encode()).hexdigest()[:16]


def vehicle_of(view, plate: int):
    """The vehicle with this plate in the view; KeyError names the plates there are."""
    v = next((x for x in view.vehicles if x.plate == plate), None)
    if v is None:
        plates = ", ".join(str(x.plate) for x in view.vehicles) or "none"
        raise KeyError(f"no vehicle or gun with plate {plate} in this game (plates: {plates})")
    return v


def move_markers(squares: int) -> list[str]:
    """Saved movement as the markers that hold it (Move+ is 2 squares, Move++ 3)."""
    if squares <= 1:
        return [f"{squares} sq"] if squares else []
    big, rest = divmod(squares, 3)
    if rest == 1:  # 4 = 2 + 2, 7 = 3 + 2 + 2
        big, rest = big - 1, 4
    return ["Move++"] * big + ["Move+"] * (rest // 2)


# =========================================================================== layout


@dataclass
class Compartment:
    id: str
    box: Box
    crew: dict[str, Box] = field(default_factory=dict)
    machinery: dict[str, Box] = field(default_factory=dict)
    passengers: Box | None = None  # the cabin's row of passengers' chips


@dataclass
class Layout:
    """Where everything goes for one panel; a function of the static panel only."""

    height: int
    compartments: list[Compartment]
    deck: Box
    riders: Box | None  # the row of riders' chips
    beside: Box  # the row of dismounted crewmen's chips
    ammo: Box | None = None
    in_breach: Box | None = None
    in_hand: Box | None = None
    ammo_rows: dict[str, Box] = field(default_factory=dict)
    gun: Box | None = None
    mgs: Box | None = None
    charts: Box = (0, 0, 0, 0)
    special: Box | None = None


def _grid(x0: int, y0: int, width: int, n: int, cols: int, h: int) -> tuple[list[Box], int]:
    """n cells in rows of `cols`; the boxes and the y below them."""
    if n == 0:
        return [], y0
    cw = (width - (cols - 1) * GAP) // cols
    boxes = [(x0 + (i % cols) * (cw + GAP), y0 + (i // cols) * (h + GAP),
              x0 + (i % cols) * (cw + GAP) + cw, y0 + (i // cols) * (h + GAP) + h) for i in range(n)]
    return boxes, y0 + math.ceil(n / cols) * (h + GAP) - GAP


def layout(vdef) -> Layout:
    """Left: the compartments top to bottom (turret, cabin, hull) and the deck. Right: the
    ammunition, main gun and machine guns. The charts and special rules go under whichever
    column is shorter, so the picture stays about 1,500 x 1,100."""
    x0, w = PAD, LEFT_W
    y = BODY_Y0
    comps: list[Compartment] = []
    present = [c for c in COMPARTMENT_ORDER if c in {str(k) for k in vdef.armour}]
    for cid in present:
        locs = [loc for loc in vdef.locations if str(loc.compartment) == cid]
        crew = [loc for loc in locs if loc.kind == "crew"]
        mach = [loc for loc in locs if loc.kind == "machinery"]
        top = y
        y += TITLE_H + GAP
        c = Compartment(cid, (0, 0, 0, 0))
        boxes, y = _grid(x0 + GAP, y, w - 2 * GAP, len(crew), 3 if len(crew) <= 3 else 4, CREW_H)
        c.crew = {loc.id: b for loc, b in zip(crew, boxes)}
        if crew and mach:
            y += GAP
        boxes, y = _grid(x0 + GAP, y, w - 2 * GAP, len(mach), 3, MACH_H)
        c.machinery = {loc.id: b for loc, b in zip(mach, boxes)}
        if cid == "cabin" and vdef.passengers:
            y += GAP
            c.passengers = (x0 + GAP, y, x0 + w - GAP, y + ROW_H)
            y += ROW_H
        c.box = (x0, top, x0 + w, y + GAP)
        comps.append(c)
        y = c.box[3] + 12
    top = y
    y += TITLE_H + GAP
    riders = None
    if vdef.rider_limit:
        riders = (x0 + GAP, y, x0 + w - GAP, y + ROW_H)
        y += ROW_H + 6
    beside = (x0 + GAP, y, x0 + w - GAP, y + ROW_H)
    deck = (x0, top, x0 + w, beside[3] + GAP)
    left_y = deck[3] + 12

    L = Layout(0, comps, deck, riders, beside)
    x0, w = RIGHT_X0, RIGHT_W
    y = BODY_Y0
    g = vdef.main_gun
    if g is not None:
        top = y
        y += TITLE_H + GAP + 22
        half = (w - 2 * GAP - GAP) // 2
        L.in_breach = (x0 + GAP, y, x0 + GAP + half, y + 58)
        L.in_hand = (x0 + 2 * GAP + half, y, x0 + w - GAP, y + 58)
        y = L.in_breach[3] + 12 + 22  # the table's column heads
        for a in g.ammo:
            L.ammo_rows[a.id] = (x0 + GAP, y, x0 + w - GAP, y + AMMO_ROW_H)
            y += AMMO_ROW_H + 4
        L.ammo = (x0, top, x0 + w, y + 6)
        y = L.ammo[3] + 12
        L.gun = (x0, y, x0 + w, y + TITLE_H + GAP + CHART_H + GAP)
        y = L.gun[3] + 12
    if vdef.mgs:
        L.mgs = (x0, y, x0 + w, y + TITLE_H + GAP + len(vdef.mgs) * 46 + 4)
        y = L.mgs[3] + 12
    right_y = y

    def place(height_of) -> Box:
        nonlocal left_y, right_y
        if left_y <= right_y:
            box = (PAD, left_y, PAD + LEFT_W, left_y + height_of(LEFT_W))
            left_y = box[3] + 12
        else:
            box = (RIGHT_X0, right_y, RIGHT_X0 + RIGHT_W, right_y + height_of(RIGHT_W))
            right_y = box[3] + 12
        return box

    L.charts = place(lambda _w: TITLE_H + GAP + 2 * CHART_H + GAP + GAP)
    if vdef.special:
        L.special = place(lambda width: TITLE_H + GAP + 21 * sum(len(_wrap(s, 16, width - 40)) for s in vdef.special)
                          + GAP)
    L.height = max(left_y, right_y) - 12 + PAD
    return L


def _wrap(s: str, size: int, width: float, bold: bool = False) -> list[str]:
    lines, cur = [], ""
    for word in s.split():
        cand = f"{cur} {word}" if cur else word
        if cur and text_width(cand, size, bold) > width:
            lines.append(cur)
            cur = word
        else:
            cur = cand
    if cur:
        lines.append(cur)
    return lines or [""]


def _shrink(s: str, size: int, width: float, bold: bool = True, least: int = 12) -> int:
    """The largest size up to `size` at which s fits width (a token's label never loses letters)."""
    while size > least and text_width(s, size, bold) > width:
        size -= 1
    return size


# =========================================================================== the panel


class VehiclePanel(Panel):
    """One vehicle's or gun's panel; `plate` names it (its license plate)."""

    def __init__(self, plate: int) -> None:
        self.plate = plate

    def _def(self, view):
        return view.vehicle_defs[vehicle_of(view, self.plate).vehicle]

    def static_key(self, view):
        vdef = self._def(view)
        return ("vehicle_panel", vdef.id, panel_key(vdef))

    # ------------------------------------------------------------------ static layer

    def draw_static(self, view) -> Image.Image:
        vdef = self._def(view)
        L = layout(vdef)
        img = Image.new("RGB", (W, L.height), S.PAPER)
        d = ImageDraw.Draw(img)
        side = str(vdef.nationality)
        ink = S.SIDE_TEXT.get(side, S.INK)
        d.rectangle((0, 0, W, HEADER_H), fill=S.SIDE_FILL.get(side, S.MUTED))
        text(d, (160, 14), fit(vdef.name, 44, W - 160 - 540, bold=True), 44, ink, bold=True)
        facts = [KIND_NAME.get(vdef.kind, vdef.kind), S.SIDE_NAME.get(side, side),
                 "tracked" if vdef.tracked else "wheeled", f"{vdef.vp} VP"]
        facts += [w for w, on in (("Command", vdef.command), ("Schürzen", vdef.schurzen)) if on]
        text(d, (162, 74), fit(" · ".join(facts), 24, W - 162 - 540), 24, ink)
        d.rectangle((0, HEADER_H, W, HEADER_H + STRIP_H), fill=(250, 248, 240))
        d.line((0, HEADER_H + STRIP_H, W, HEADER_H + STRIP_H), fill=S.MUTED, width=1)
        weapons = _weapon_names(vdef)
        for c in L.compartments:
            self._compartment(d, vdef, c, weapons)
        _frame(d, L.deck, "AT THE GUN" if vdef.kind == "gun" else "ON THE DECK AND BESIDE IT",
               f"riders: up to {vdef.rider_limit}" if vdef.rider_limit else "")
        if L.riders:
            text(d, (L.riders[0] + 4, L.riders[1] + ROW_H / 2), "Riders", 19, S.INK, anchor="lm", bold=True)
        text(d, (L.beside[0] + 4, L.beside[1] + ROW_H / 2), "Dismounted", 19, S.INK, anchor="lm", bold=True)
        if vdef.main_gun is not None:
            self._ammo(d, vdef, L)
            self._gun(d, vdef, L)
        if vdef.mgs:
            self._mgs(d, vdef, L)
        self._charts(d, vdef, L.charts)
        if L.special:
            self._special(d, vdef, L.special)
        d.rectangle((0, 0, W - 1, L.height - 1), outline=S.INK, width=3)
        return img

    def _compartment(self, d, vdef, c: Compartment, weapons: dict[str, str]) -> None:
        a = vdef.armour[c.id]
        _frame(d, c.box, c.id.upper(), f"armour  front {a.front} · side {a.side} · rear {a.rear}")
        for lid, box in c.crew.items():
            loc = vdef.location(lid)
            x0, y0, x1, y1 = box
            d.rectangle(box, fill=CELL_FILL, outline=S.INK, width=2)
            d.rectangle((x0, y0, x1, y0 + 32), fill=CREW_STRIP)
            room = x1 - x0 - 20 - (86 if loc.hatch else 0)
            text(d, (x0 + 10, y0 + 16), fit(loc.name, 20, room, bold=True), 20, (255, 255, 255), anchor="lm", bold=True)
            bits = [ROLE_NAME.get(str(loc.role), str(loc.role))]
            if loc.optics:
                bits.append(f"optics 0-{loc.optics}")
            text(d, (x0 + 10, y0 + 45), fit(" · ".join(bits), 17, x1 - x0 - 20), 17, S.INK, anchor="lm")
            if loc.weapons:
                served = "serves " + ", ".join(weapons.get(w, w) for w in loc.weapons)
                text(d, (x0 + 10, y1 - BAND_H / 2 - 3), fit(served, 15, x1 - x0 - 20), 15, S.MUTED, anchor="lm")
        for lid, box in c.machinery.items():
            loc = vdef.location(lid)
            x0, y0, x1, y1 = box
            d.rectangle(box, fill=CELL_FILL, outline=S.INK, width=2)
            d.rectangle((x0, y0, x0 + 10, y1), fill=MACH_STRIP)
            _gear(d, x0 + 28, y0 + 20, 10)
            room = x1 - x0 - 56
            if text_width(loc.name, 18) <= room:
                text(d, (x0 + 46, y0 + 20), loc.name, 18, S.INK, anchor="lm")
            else:
                lines = _wrap(loc.name, 16, room)[:2]
                for i, line in enumerate(lines):
                    text(d, (x0 + 46, y0 + 20 - 9.5 * (len(lines) - 1) + 19 * i), fit(line, 16, room), 16, S.INK,
                         anchor="lm")
            tags = _tags(loc)
            if tags:
                text(d, (x0 + 18, y1 - BAND_H / 2 - 3), fit(tags, 15, x1 - x0 - 26), 15, S.MUTED, anchor="lm")
        if c.passengers:
            x0, y0, _, _ = c.passengers
            text(d, (x0 + 4, y0 + ROW_H / 2), f"Passengers ({vdef.passengers})", 19, S.INK, anchor="lm", bold=True)

    def _ammo(self, d, vdef, L: Layout) -> None:
        _frame(d, L.ammo, "AMMUNITION", "pen and blast: long · short · close")
        for label, box in (("In breach", L.in_breach), ("In hand", L.in_hand)):
            text(d, (box[0] + 2, box[1] - 4), label.upper(), 17, S.INK, anchor="lb", bold=True)
            d.rounded_rectangle(box, radius=8, fill=(255, 255, 255), outline=S.INK, width=2)
        first = next(iter(L.ammo_rows.values()))
        cols = _ammo_cols(first)
        for key, label in (("ready", "READY"), ("pen", "PEN"), ("blast", "BLAST")):
            text(d, (cols[key], first[1] - 5), label, 15, S.MUTED, anchor="mb", bold=True)
        for a in vdef.main_gun.ammo:
            x0, y0, x1, y1 = L.ammo_rows[a.id]
            d.rounded_rectangle((x0, y0, x1, y1), radius=6, fill=(255, 255, 255), outline=S.MUTED, width=1)
            _round_token(d, (x0 + 6, y0 + 7, x0 + 82, y1 - 7), a.id, 20)
            room = cols["ready"] - 42 - (x0 + 90)
            flags = [f for f, on in (("HEAT", a.heat), ("fire", a.fire), ("smoke", a.smoke),
                                     ("2-part", a.parts > 1)) if on]
            size = _shrink(a.name, 16, room, bold=False, least=15)
            text(d, (x0 + 90, y0 + 15), fit(a.name, size, room), size, S.INK, anchor="lm")
            text(d, (x0 + 90, y1 - 13), fit(" · ".join([f"{a.vp} VP a round", *flags]), 15, room), 15, S.MUTED,
                 anchor="lm")
            text(d, (cols["ready"] + 6, y0 + AMMO_ROW_H / 2 + 1), f"/{a.max_rounds}", 16, S.MUTED, anchor="lm")
            text(d, (cols["pen"], y0 + AMMO_ROW_H / 2 + 1), f"{a.pen.long}·{a.pen.short}·{a.pen.close}", 20, S.INK,
                 anchor="mm", bold=True)
            blast = f"{a.blast.long}·{a.blast.short}·{a.blast.close}" if (a.blast.long, a.blast.short,
                                                                          a.blast.close) != (0, 0, 0) else "–"
            text(d, (cols["blast"], y0 + AMMO_ROW_H / 2 + 1), blast, 20, S.INK, anchor="mm", bold=True)

    def _gun(self, d, vdef, L: Layout) -> None:
        g = vdef.main_gun
        extras = [w for w, on in ((f"{g.mount} mount", g.mount != "turret"), ("Hit+", g.hit_plus),
                                  ("blast line", g.blast_line)) if on]
        _frame(d, L.gun, "MAIN GUN", " · ".join([g.name, *extras]))
        x0, y0, x1, _ = L.gun
        cells = [("", "Rate of fire", str(g.rof)), ("", "Long", f"{g.long} sq"), ("", "Short", f"{g.short} sq"),
                 ("", "Close", f'{g.close}"'), ("", "Damage", f"×{g.damage_x}")]
        boxes, _ = _grid(x0 + GAP, y0 + TITLE_H + GAP, x1 - x0 - 2 * GAP, len(cells), len(cells), CHART_H)
        for (action, label, value), b in zip(cells, boxes):
            _cell(d, b, label, value, action)

    def _mgs(self, d, vdef, L: Layout) -> None:
        x0, y0, x1, _ = L.mgs
        _frame(d, L.mgs, "MACHINE GUNS", "range long · short · close")
        y = y0 + TITLE_H + GAP
        names = _weapon_names(vdef)
        for m in vdef.mgs:
            box = (x0 + GAP, y, x1 - GAP, y + 42)
            d.rounded_rectangle(box, radius=6, fill=(255, 255, 255), outline=S.MUTED, width=1)
            mount = {"hull": "hull", "coax": "coaxial", "aa": "AA, fired from the deck", "cabin": "cabin"}[m.mount]
            extras = [mount, *(w for w, on in (("Hit+", m.hit_plus), (f"damage ×{m.damage_x}", m.damage_x > 1),
                                               ("tracers", m.tracers)) if on)]
            if (m.pen.long, m.pen.short, m.pen.close) != (0, 0, 0):
                extras.append(f"pen {m.pen.long}·{m.pen.short}·{m.pen.close}")
            room = box[2] - box[0] - 160
            text(d, (box[0] + 10, y + 12), fit(names.get(m.id, m.name), 18, room, bold=True), 18, S.INK,
                 anchor="lm", bold=True)
            text(d, (box[0] + 10, y + 31), fit(" · ".join(extras), 15, room), 15, S.MUTED, anchor="lm")
            text(d, (box[2] - 12, y + 21), f'{m.long} · {m.short} · {m.close}"', 21, S.INK, anchor="rm", bold=True)
            y += 46

    @staticmethod
    def _charts(d, vdef, box: Box) -> None:
        _frame(d, box, "CHARTS")
        x0, y0, x1, _ = box
        cells = [("move", "Open move", f"{vdef.open_move} sq"), ("move", "Road move", f"{vdef.road_move} sq"),
                 ("move", "Climb", str(vdef.climb)), ("move", "Bog pins", str(vdef.bog_pins)),
                 ("look", "Sight", _signed(vdef.sight)), ("look", "Visibility", f"×{vdef.visibility}"),
                 ("look", "Radio", f"{vdef.radio} LOOK" if vdef.radio else "none"),
                 ("hide", "Hide", str(vdef.hide))]
        boxes, _ = _grid(x0 + GAP, y0 + TITLE_H + GAP, x1 - x0 - 2 * GAP, len(cells), 4, CHART_H)
        for (action, label, value), b in zip(cells, boxes):
            _cell(d, b, label, value, action)

    @staticmethod
    def _special(d, vdef, box: Box) -> None:
        _frame(d, box, "SPECIAL RULES")
        y = box[1] + TITLE_H + GAP
        for s in vdef.special:
            for i, line in enumerate(_wrap(s, 16, box[2] - box[0] - 40)):
                text(d, (box[0] + 14 + (0 if i == 0 else 14), y), ("• " if i == 0 else "") + line, 16, S.INK)
                y += 21

    # ------------------------------------------------------------------ dynamic layer

    def draw_dynamic(self, view, img: Image.Image) -> None:
        v = vehicle_of(view, self.plate)
        vdef = view.vehicle_defs[v.vehicle]
        L = layout(vdef)
        d = ImageDraw.Draw(img)
        men = {s.serial: s for s in view.soldiers}
        BoardPanel._base(d, (80, HEADER_H // 2), 52, v.side, (255, 255, 255), S.INK, str(v.plate), size=34)
        self._where(d, view, v)
        self._markers(d, v, vdef)
        for c in L.compartments:
            self._occupants(img, d, v, vdef, c, men)
        if L.riders:
            _chips(d, L.riders, [n for n, post in v.aboard.items() if post == "deck"], men, "nobody")
        _chips(d, L.beside, list(v.dismounted), men, "nobody")
        if vdef.main_gun is not None:
            self._rounds(d, v, vdef, L)
        if v.status in ("destroyed", "abandoned"):
            self._stamp(img, v.status, L)

    def _where(self, d, view, v) -> None:
        ink = S.SIDE_TEXT.get(v.side, S.INK)
        if v.status == "board" and v.tile:
            line = f"on {v.tile} · hull {v.facing.upper()}" + (f" · turret {v.turret.upper()}" if v.turret else "")
        elif v.status in ("destroyed", "abandoned"):
            line = v.status.upper() + (f" on {v.tile}" if v.tile else "")
        else:
            line = {"waiting": "waiting to enter", "exited": "left the board"}.get(v.status, v.status)
        text(d, (W - PAD, 18), fit(line, 30, 520, bold=True), 30, ink, anchor="ra", bold=True)
        force = next((f for f in view.forces if f.id == v.force), None)
        seat = next((s for s in view.seats if force is not None and s.index == force.seat), None)
        if seat is not None:
            text(d, (W - PAD, 76), fit(f"played by {seat.name}", 24, 520), 24, ink, anchor="ra")

    def _markers(self, d, v, vdef) -> None:
        """The marker strip: pins, Move+, hull down, spotted, main-gun shots, cook-off warnings,
        in one row (smaller type when many are on)."""
        chips: list[tuple[str, S.RGB, S.RGB, object]] = []
        if v.pins:
            chips.append((f"{v.pins} PIN{'S' if v.pins > 1 else ''}", S.PINNED_FILL, S.PINNED_TEXT,
                          lambda cx, c, r: BoardPanel._badge(d, (cx, c), r, "pinned")))
        for m in move_markers(v.move_plus):
            chips.append((m.upper(), S.ACTION_FILL["move"], S.ACTION_TEXT["move"], None))
        if v.hull_down:
            chips.append(("HULL DOWN", HULL_DOWN_FILL, (255, 255, 255), lambda cx, c, r: _mound(d, cx, c, r)))
        if v.spotted:
            chips.append(("SPOTTED", S.SPOTTED_FILL, S.INK,
                          lambda cx, c, r: BoardPanel._badge(d, (cx, c), r, "spotted")))
        if v.spotted_by:
            chips.append(("SPOTTED BY " + ", ".join(str(p) for p in v.spotted_by), S.SPOTTED_FILL, S.INK,
                          lambda cx, c, r: _plate_sight(d, cx, c, r)))
        if vdef.main_gun is not None and v.shots:
            chips.append((f"FIRED {v.shots} OF {vdef.main_gun.rof}", (255, 255, 255), S.INK, None))
        if v.kills:
            chips.append((f"{v.kills} KILL{'S' if v.kills > 1 else ''}", (255, 255, 255), S.INK, None))
        for lid in v.cook_off:
            name = next((loc.name for loc in vdef.locations if loc.id == lid), lid)
            chips.append((f"COOK-OFF: {name}", STAMP, (255, 255, 255), lambda cx, c, r: _flame(d, cx, c, r)))
        y0, y1 = HEADER_H + 10, HEADER_H + STRIP_H - 10
        cy = (y0 + y1) / 2
        if not chips:
            text(d, (PAD, cy), "No markers: not pinned, not spotted, no saved movement.", 20, S.MUTED, anchor="lm")
            return
        h = y1 - y0

        def widths(size: int) -> list[int]:
            return [round(text_width(label, size, bold=True) + 26 + (h - 6 if icon else 0))
                    for label, _, _, icon in chips]

        size = 22
        while size > 14 and sum(widths(size)) + 10 * (len(chips) - 1) > W - 2 * PAD:
            size -= 1
        x = PAD
        for (label, fill, ink, icon), w in zip(chips, widths(size)):
            w = min(w, W - PAD - x)
            d.rounded_rectangle((x, y0, x + w, y1), radius=h // 2, fill=fill, outline=S.INK, width=2)
            tx = x + 13
            if icon:
                icon(x + h / 2 + 2, cy, h / 2 - 8)
                tx += h - 6
            text(d, (tx, cy + 1), fit(label, size, x + w - tx - 10, bold=True), size, ink, anchor="lm", bold=True)
            x += w + 10

    def _occupants(self, img, d, v, vdef, c: Compartment, men) -> None:
        for lid, box in c.crew.items():
            loc = vdef.location(lid)
            x0, y0, x1, _ = box
            _damage(img, d, box, v.damage.get(lid, []), lid in v.cook_off, 32,
                    text_width(_served(vdef, loc), 15) if loc.weapons else 0)
            if loc.hatch:
                _hatch(d, x1 - 84, y0 + 3, lid in v.unbuttoned)
            s = men.get(v.crew.get(lid, -1))
            my = y0 + 76
            if s is None:
                text(d, (x0 + 12, my), "empty", 20, S.MUTED, anchor="lm")
                continue
            _man(d, (x0 + 30, my), 19, s)
            marks = [k for k, on in (("pinned", s.pinned), ("wounded", s.wounded)) if on]
            room = x1 - x0 - 64 - 26 * len(marks)
            text(d, (x0 + 56, my), fit(s.name, 22, room, bold=True), 22, S.INK, anchor="lm", bold=True)
            nx = x0 + 60 + min(room, text_width(s.name, 22, bold=True))
            for i, k in enumerate(marks):
                BoardPanel._badge(d, (nx + 12 + 26 * i, my), 11, k)
        for lid, box in c.machinery.items():
            loc = vdef.location(lid)
            _damage(img, d, box, v.damage.get(lid, []), lid in v.cook_off, 0, text_width(_tags(loc), 15))
        for serial, post in v.aboard.items():  # a crewman gone to a machinery location: his standee on it
            s = men.get(serial)
            if s is not None and post in c.machinery:
                x0, y0, _, _ = c.machinery[post]
                _man(d, (x0 + 28, y0 + 22), 17, s)
        if c.passengers:
            row = c.passengers
            _chips(d, row, [n for n, post in v.aboard.items() if post == "cabin"], men, "nobody")
        loose = [n for n, post in v.aboard.items() if post == c.id and post != "cabin" and n in men]
        if loose:  # aboard in this compartment, at no position
            x0, y0, x1, _ = c.box
            names = ", ".join(f"{men[n].name} ({n})" for n in loose)
            text(d, (x1 - 14, y0 + TITLE_H / 2), fit("also here: " + names, 18, 360), 18, S.PAPER, anchor="rm")

    def _rounds(self, d, v, vdef, L: Layout) -> None:
        g = vdef.main_gun
        for entries, box in ((v.in_breach, L.in_breach), (v.in_hand, L.in_hand)):
            x0, y0, x1, y1 = box
            if not entries:
                text(d, ((x0 + x1) / 2, (y0 + y1) / 2), "empty", 20, S.MUTED, anchor="mm")
                continue
            n = len(entries)
            tw = (x1 - x0 - 12 - (n - 1) * 8) // n
            for i, e in enumerate(entries):
                kind, _, part = e.partition("/")
                a = g.ammo_type(kind)
                two_part = a is not None and a.parts > 1
                tb = (x0 + 6 + i * (tw + 8), y0 + 6, x0 + 6 + i * (tw + 8) + tw, y1 - 6)
                _round_token(d, tb, e, 24)
                if two_part:  # which part of a two-part round this is
                    text(d, (tb[2] - 6, tb[1] - 6), "charge" if part else "round", 15, S.MUTED, anchor="rb")
        for a in g.ammo:
            box = L.ammo_rows[a.id]
            n = v.ready.get(a.id, 0)
            text(d, (_ammo_cols(box)["ready"] + 2, box[1] + AMMO_ROW_H / 2 + 1), str(n), 30,
                 S.INK if n else S.MUTED, anchor="rm", bold=True)

    def _stamp(self, img, status: str, L: Layout) -> None:
        """Destroyed or abandoned: the body washed out and a big stamp across it."""
        blend_rect(img, (3, HEADER_H + STRIP_H + 1, W - 3, L.height - 3), S.PAPER, 110)
        label = status.upper()
        size = 150
        pad = 40
        stamp = Image.new("RGBA", (round(text_width(label, size, bold=True) + 2 * pad), size + 2 * pad), (0, 0, 0, 0))
        sd = ImageDraw.Draw(stamp)
        colour = STAMP if status == "destroyed" else S.INK
        sd.rounded_rectangle((6, 6, stamp.width - 6, stamp.height - 6), radius=24, outline=colour + (255,), width=14,
                             fill=(255, 255, 255, 185))
        sd.text((stamp.width / 2, stamp.height / 2), label, font=S.font(size, True), fill=colour + (255,), anchor="mm")
        stamp = stamp.rotate(10, expand=True, resample=Image.Resampling.BICUBIC)
        cx, cy = W // 2, (HEADER_H + STRIP_H + L.height) // 2
        img.paste(stamp, (cx - stamp.width // 2, cy - stamp.height // 2), stamp)


# =========================================================================== small pieces


def _weapon_names(vdef) -> dict[str, str]:
    names = {m.id: m.name for m in vdef.mgs}
    for loc in vdef.locations:  # the panel's own short names ("Bow .30") read better
        if loc.kind == "machinery" and loc.id in names:
            names[loc.id] = loc.name
    if vdef.main_gun is not None:
        names["main"] = vdef.main_gun.name
    return names


def _served(vdef, loc) -> str:
    names = _weapon_names(vdef)
    return "serves " + ", ".join(names.get(w, w) for w in loc.weapons)


def _tags(loc) -> str:
    tags = []
    if loc.ammo:
        tags.append("ready ammo" if loc.ammo == "ready" else f"spare ammo, {loc.spare_rounds} rounds")
    if loc.drive:
        tags.append("drive")
    if loc.outside:
        tags.append("outside")
    if loc.radio:
        tags.append("radio")
    return " · ".join(tags)


def _ammo_cols(row: Box) -> dict[str, int]:
    """x of the Ready count's right edge and of the centres of the pen and blast columns."""
    x1 = row[2]
    return {"ready": x1 - 218, "pen": x1 - 132, "blast": x1 - 46}


def _frame(d, box: Box, title: str, note: str = "") -> None:
    """A section: a rounded box with a black title bar."""
    x0, y0, x1, _ = box
    d.rounded_rectangle(box, radius=10, fill=BOX_FILL, outline=S.INK, width=2)
    d.rounded_rectangle((x0, y0, x1, y0 + TITLE_H), radius=10, fill=S.INK)
    d.rectangle((x0, y0 + TITLE_H - 10, x1, y0 + TITLE_H), fill=S.INK)
    text(d, (x0 + 14, y0 + TITLE_H / 2), title, 22, S.PAPER, anchor="lm", bold=True)
    if note:
        tw = text_width(title, 22, bold=True)
        text(d, (x0 + 28 + tw, y0 + TITLE_H / 2 + 1), fit(note, 19, x1 - x0 - tw - 44), 19, (225, 225, 215),
             anchor="lm")


def _damage(img, d, box: Box, marks: list[str], cook_off: bool, top: int, tags_w: float) -> None:
    """Damage markers on a location: the cell tinted for the worst, and one chip per kind with
    its word (and a count when a fire has doubled) in the cell's bottom band."""
    if not marks and not cook_off:
        return
    x0, y0, x1, y1 = box
    counts = {m: marks.count(m) for m in ("fire", "critical", "wreck") if m in marks}
    chips = ([("cook-off", 1)] if cook_off else []) + list(counts.items())
    widths = [text_width(DAMAGE_WORD[m] + (f" ×{n}" if n > 1 else ""), 16, bold=True) + 14
              + (18 if m in ("fire", "cook-off") else 0) for m, n in chips]
    band = (x0 + 2, y1 - BAND_H - 6, x1 - 2, y1 - 2)
    if tags_w and 18 + tags_w + 8 + sum(widths) + 6 * len(widths) > x1 - x0:
        d.rectangle(band, fill=CELL_FILL)  # the tags would be half covered: the markers matter more
    worst = next(m for m in ("fire", "critical", "wreck", "cook-off") if m in counts or m == "cook-off")
    blend_rect(img, (x0 + 2, y0 + top + 2, x1 - 1, y1 - 1), DAMAGE_FILL[worst], 60 if worst != "critical" else 45)
    x = x1 - 6
    for (m, n), w in zip(chips, widths):
        label = DAMAGE_WORD[m] + (f" ×{n}" if n > 1 else "")
        cb = (round(x - w), y1 - BAND_H - 4, round(x), y1 - 4)
        d.rounded_rectangle(cb, radius=5, fill=DAMAGE_FILL[m], outline=S.INK, width=2)
        tx = cb[0] + 7
        if m in ("fire", "cook-off"):
            _flame(d, cb[0] + 13, (cb[1] + cb[3]) / 2, 8)
            tx += 18
        text(d, (tx, (cb[1] + cb[3]) / 2 + 1), label, 16, S.INK if m == "fire" else (255, 255, 255), anchor="lm",
             bold=True)
        x = cb[0] - 6


def _man(d, c: tuple[float, float], r: float, s) -> None:
    """A man's base as on the board: his side's colour and shape, his dog tag."""
    size = max(15, round(r * (0.8 if s.serial >= 100 else 0.95)))
    BoardPanel._base(d, c, r, s.side, S.SIDE_FILL.get(s.side, S.MUTED), S.SIDE_TEXT.get(s.side, S.INK),
                     str(s.serial), size=size)


def _chips(d, row: Box, serials: list[int], men, empty: str) -> None:
    """Men in a row after its label (cabin, deck, beside it): base, name and markers, as wide as
    the row allows (a full deck gets narrower chips)."""
    x0, y0, x1, y1 = row
    x0 += ROW_LABEL_W
    people = [men[n] for n in serials if n in men]
    if not people:
        text(d, (x0, (y0 + y1) / 2), empty, 18, S.MUTED, anchor="lm")
        return
    w = min(200, (x1 - x0 - GAP * (len(people) - 1)) // len(people))
    for i, s in enumerate(people):
        bx = x0 + i * (w + GAP)
        d.rounded_rectangle((bx, y0, bx + w, y1), radius=6, fill=(255, 255, 255), outline=S.INK)
        _man(d, (bx + 21, (y0 + y1) / 2), 17, s)
        marks = [k for k, on in (("pinned", s.pinned), ("wounded", s.wounded)) if on]
        room = w - 50 - 26 * len(marks)
        if room > 24:
            text(d, (bx + 44, (y0 + y1) / 2), fit(s.name, 18, room, bold=True), 18, S.INK, anchor="lm", bold=True)
        for j, k in enumerate(marks):
            BoardPanel._badge(d, (bx + w - 16 - 26 * j, (y0 + y1) / 2), 11, k)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n).replace("-", "−")


def _cell(d, box: Box, label: str, value: str, action: str = "") -> None:
    """A chart entry: its label small at the top, its value large at the bottom right; the
    action it belongs to as a coloured edge with its letter, as on the cards."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=6, fill=(255, 255, 255), outline=S.MUTED, width=1)
    lx = x0 + 10
    if action:
        d.rectangle((x0 + 1, y0 + 1, x0 + 22, y1 - 1), fill=S.ACTION_FILL[action])
        text(d, (x0 + 12, (y0 + y1) / 2), S.ACTION_LETTER[action], 16, S.ACTION_TEXT[action], anchor="mm", bold=True)
        lx = x0 + 30
    text(d, (lx, y0 + 5), fit(label, 16, x1 - lx - 6), 16, S.MUTED)
    text(d, (x1 - 10, y1 - 5), value, _shrink(value, 26, x1 - lx - 8), S.INK, anchor="rb", bold=True)


def _round_token(d, box: Box, label: str, size: int) -> None:
    """An ammunition counter: a dark token with a brass edge and the round's type."""
    d.rounded_rectangle(box, radius=8, fill=(60, 56, 50), outline=(196, 150, 20), width=3)
    text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), label,
         _shrink(label, size, box[2] - box[0] - 12), (255, 255, 255), anchor="mm", bold=True)


def _gear(d, cx: float, cy: float, r: float) -> None:
    """Machinery: a gear, as the book's damage icons draw it."""
    d.polygon(star(cx, cy, r, r * 0.72, 8), fill=S.INK)
    d.ellipse((cx - r * 0.35, cy - r * 0.35, cx + r * 0.35, cy + r * 0.35), fill=(255, 255, 255))


def _flame(d, cx: float, cy: float, r: float) -> None:
    d.polygon(star(cx, cy, r, r * 0.45, 7), fill=S.FIRE_FILL, outline=S.INK)
    d.polygon(star(cx, cy + r * 0.1, r * 0.5, r * 0.22, 6), fill=S.FIRE_CORE)


def _mound(d, cx: float, cy: float, r: float) -> None:
    """Hull down: the hull behind a bank of earth."""
    d.rectangle((cx - r * 0.7, cy - r * 0.6, cx + r * 0.7, cy), fill=(255, 255, 255))
    d.chord((cx - r * 1.2, cy - r * 0.5, cx + r * 1.2, cy + r * 1.3), 180, 360, fill=(200, 160, 100), outline=S.INK)


def _plate_sight(d, cx: float, cy: float, r: float) -> None:
    """A vehicle's own Spotted marker: the sight in a square frame (it carries a plate)."""
    d.rectangle((cx - r, cy - r, cx + r, cy + r), fill=S.SPOTTED_FILL, outline=S.SPOTTED_MARK, width=2)
    d.line((cx - r, cy, cx + r, cy), fill=S.SPOTTED_MARK, width=2)
    d.line((cx, cy - r, cx, cy + r), fill=S.SPOTTED_MARK, width=2)
    k = r * 0.5
    d.ellipse((cx - k, cy - k, cx + k, cy + k), outline=S.SPOTTED_MARK, width=2)


def _hatch(d, x: float, y: float, open_: bool) -> None:
    """The Unbutton icon: an open hatch (lid up, green, OPEN) or a shut one (grey disc, shut)."""
    w, h = 80, 26
    if open_:
        d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=HATCH_OPEN, outline=(255, 255, 255), width=2)
        d.ellipse((x + 6, y + 12, x + 24, y + 21), outline=(255, 255, 255), width=2)
        d.line((x + 7, y + 16, x + 13, y + 3), fill=(255, 255, 255), width=3)  # the lid swung up
        text(d, (x + 52, y + h / 2 + 1), "OPEN", 16, (255, 255, 255), anchor="mm", bold=True)
    else:
        d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=(225, 225, 225), outline=S.INK, width=1)
        d.ellipse((x + 6, y + 5, x + 22, y + 21), fill=(90, 90, 90), outline=S.INK)
        d.line((x + 8, y + 13, x + 20, y + 13), fill=(225, 225, 225), width=2)
        text(d, (x + 52, y + h / 2 + 1), "shut", 16, S.INK, anchor="mm")
