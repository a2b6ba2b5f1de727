"""The vehicle book's battlefield on the board (issue 9): roadblocks, mine tokens, artillery
markers and close combats on the public board; a seat's own artillery letters and his side's
mine kinds on his private board.

The public drawings read only public fields of the view (`artillery`, `minefields`,
`roadblocks`, `close_combats`): a marker is cross-hairs in its side's colour and shape, never a
letter or a face; a mine token is face down with the number of tokens, never a kind. The
private labels read only `view.mine` (`artillery`, `minefields`) and are drawn in the private
board's HIGHLIGHT colour, like the seat's order.

Colour-blind safe as the rest (docs/render.md): sides by colour *and* shape (US round, German
square), the roadblock in black and white stripes, every mark with a word or a number.
"""
from __future__ import annotations

from bot.render import style as S
from bot.render.draw import text, text_width
from bot.render.vehicle_figure import footprint_box

STRIPE_A = (20, 20, 20)
STRIPE_B = (255, 255, 255)
MINE_FILL = (45, 45, 45)
WORDS = {"at": "AT", "gp": "GP", "mixed": "MIXED", "booby": "BOOBY", "fake": "FAKE"}


def _side_shape(d, c, r: float, side: str, fill, outline, width: int = 2) -> None:
    cx, cy = c
    if S.SIDE_SHAPE.get(side) == "square":
        q = r * 0.9
        d.rounded_rectangle((cx - q, cy - q, cx + q, cy + q), radius=max(2, r * 0.2), fill=fill, outline=outline,
                            width=width)
    else:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)


# ---------------------------------------------------------------------------- single marks (legend too)

def roadblock_bar(d, box, label: str = "", size: int = 12) -> None:
    """A barrier across `box`: black and white diagonal stripes, a black edge, its word."""
    x0, y0, x1, y1 = (round(v) for v in box)
    d.rectangle((x0, y0, x1, y1), fill=STRIPE_B)
    h = y1 - y0
    step = max(6, h)
    for k in range(x0 - h, x1, step * 2):
        pts = [(k, y1), (k + step, y1), (k + step + h, y0), (k + h, y0)]
        pts = [(min(max(x, x0), x1), y) for x, y in pts]
        d.polygon(pts, fill=STRIPE_A)
    d.rectangle((x0, y0, x1, y1), outline=S.INK, width=2)
    if label:  # its word in a black box over the bar's west end
        w = text_width(label, size, bold=True) + 8
        d.rectangle((x0, y0, x0 + w, y1), fill=S.INK)
        text(d, (x0 + 4, (y0 + y1) / 2 + 1), label, size, STRIPE_B, anchor="lm", bold=True)


def mine_token(d, c, r: float, side: str, count: int) -> None:
    """Mine tokens face down: a dark token in its side's shape, edged in the side's colour, an M
    and the number of tokens."""
    _side_shape(d, c, r, side, MINE_FILL, S.SIDE_FILL.get(side, S.MUTED), width=max(2, round(r / 4)))
    cx, cy = c
    text(d, (cx, cy + 1), "M", max(9, round(r * 1.0)), (255, 255, 255), anchor="mm", bold=True)
    if count:
        br = max(7, r * 0.45)
        bx, by = cx + r * 0.8, cy - r * 0.8
        d.ellipse((bx - br, by - br, bx + br, by + br), fill=(255, 255, 255), outline=S.INK, width=1)
        text(d, (bx, by + 1), str(count), max(8, round(br * 1.4)), S.INK, anchor="mm", bold=True)


def artillery_marker(d, c, r: float, side: str) -> None:
    """An artillery marker face down: cross-hairs on a disc (US) or square (German) of the
    side's colour. No letter: that is its owner's secret."""
    cx, cy = c
    _side_shape(d, c, r, side, S.SIDE_FILL.get(side, S.MUTED), S.INK, width=2)
    k = r * 0.55
    d.ellipse((cx - k, cy - k, cx + k, cy + k), outline=S.INK, width=2)
    d.ellipse((cx - k + 2, cy - k + 2, cx + k - 2, cy + k - 2), outline=(255, 255, 255), width=1)
    ext = r * 1.3
    for a, b in (((cx - ext, cy), (cx + ext, cy)), ((cx, cy - ext), (cx, cy + ext))):
        d.line((a, b), fill=(255, 255, 255), width=4)
        d.line((a, b), fill=S.INK, width=2)


def close_combat_mark(d, c, r: float, label: str = "") -> None:
    """A close combat on a vehicle's compartment: crossed blades on the dark red of "in combat",
    with the compartment's word beside it."""
    cx, cy = c
    d.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=max(2, r * 0.3), fill=S.CONTACT_FILL,
                        outline=S.INK, width=2)
    k = r * 0.6
    d.line((cx - k, cy - k, cx + k, cy + k), fill=(255, 255, 255), width=3)
    d.line((cx - k, cy + k, cx + k, cy - k), fill=(255, 255, 255), width=3)
    if label:
        size = max(10, round(r * 1.1))
        w = text_width(label, size, bold=True) + 8
        d.rectangle((cx + r, cy - size / 2 - 3, cx + r + w, cy + size / 2 + 3), fill=S.CONTACT_FILL, outline=S.INK)
        text(d, (cx + r + 4, cy + 1), label, size, (255, 255, 255), anchor="lm", bold=True)


def _tag(d, xy, label: str, size: int) -> None:
    """A public word beside a mark: black on white."""
    x, y = xy
    w = text_width(label, size, bold=True) + 8
    d.rectangle((x, y - size / 2 - 3, x + w, y + size / 2 + 3), fill=(255, 255, 255), outline=S.INK)
    text(d, (x + 4, y + 1), label, size, S.INK, anchor="lm", bold=True)


def private_label(d, xy, label: str, size: int, anchor: str = "lm") -> None:
    """One of the seat's own secrets on his board: white on the HIGHLIGHT colour."""
    x, y = xy
    w = text_width(label, size, bold=True) + 8
    x0 = x if anchor[0] == "l" else x - w
    d.rounded_rectangle((x0, y - size / 2 - 3, x0 + w, y + size / 2 + 3), radius=3, fill=S.HIGHLIGHT)
    text(d, (x0 + 4, y + 1), label, size, (255, 255, 255), anchor="lm", bold=True)


# ---------------------------------------------------------------------------- where they go in a tile

def _tile(view, origins, tid):
    if tid not in origins or tid not in view.tiles:
        return None
    return origins[tid], view.tiles[tid].size


def mine_spot(L, origin, n: int, i: int) -> tuple[float, float]:
    """Mine tokens sit near the tile's south-west corner (above a roadblock's bar), one side's
    beside the other's."""
    ox, oy = origin
    return L.px(ox + 0.9 + i * 1.2, oy + n - 1.4)


def marker_spot(L, origin, n: int, i: int) -> tuple[float, float]:
    """Artillery markers sit along the tile's east edge, from its middle downwards."""
    ox, oy = origin
    return L.px(ox + n - 0.8, oy + n / 2 + i * 1.1 - 0.4)


# ---------------------------------------------------------------------------- the public board

def draw_ground(img, d, L, view, origins) -> None:
    """Under vehicles and figures: roadblocks across their road tiles and mine tokens."""
    size = max(10, L.ppi // 3)
    for rb in view.roadblocks:
        t = _tile(view, origins, rb.tile)
        if t is None:
            continue
        (ox, oy), n = t
        x0, y0 = L.px(ox + 0.3, oy + n - 0.7)  # a bar along the tile's south edge
        x1, y1 = L.px(ox + n - 0.3, oy + n - 0.2)
        word = rb.kind.upper() + (f" · {rb.defender}" if rb.defender is not None else "")
        roadblock_bar(d, (x0, y0, x1, y1), word, size)
    by_tile: dict[str, list] = {}
    for m in sorted(view.minefields, key=lambda m: (m.tile, m.side)):
        by_tile.setdefault(m.tile, []).append(m)
    for tid in getattr(view, "mines", []):  # the scenario's known minefields: public, nobody's
        by_tile.setdefault(tid, []).append(None)
    for tid, ms in by_tile.items():
        t = _tile(view, origins, tid)
        if t is None:
            continue
        for i, m in enumerate(ms):
            x, y = mine_spot(L, t[0], t[1], i)
            if m is None:
                mine_token(d, (x, y), L.ppi * 0.42, "", 0)
                _tag(d, (x + L.ppi * 0.5, y), "KNOWN MINES", size)
                continue
            mine_token(d, (x, y), L.ppi * 0.42, m.side, m.tokens)
            if getattr(m, "kind", None):  # gone off: its kind is public now
                _tag(d, (x + L.ppi * 0.5, y), WORDS.get(m.kind, m.kind.upper()), size)


def draw_above(img, d, L, view, origins) -> None:
    """Above the figures: artillery markers face down and the close combats' marks."""
    by_tile: dict[str, list] = {}
    for m in sorted(view.artillery, key=lambda m: (m.tile, m.side, m.id)):
        by_tile.setdefault(m.tile, []).append(m)
    for tid, ms in by_tile.items():
        t = _tile(view, origins, tid)
        if t is None:
            continue
        for i, m in enumerate(ms):
            artillery_marker(d, marker_spot(L, t[0], t[1], i), L.ppi * 0.42, m.side)
    vehicles = {v.plate: v for v in view.vehicles}
    seen: dict[int, int] = {}
    for cc in view.close_combats:
        v = vehicles.get(cc.plate)
        if v is None or v.tile not in origins:
            continue
        x0, y0, x1, _ = footprint_box(origins[v.tile], view.tiles[v.tile].size)
        k = seen.get(cc.plate, 0)
        seen[cc.plate] = k + 1
        cx, cy = L.px(x0 + 0.2, y0 - 0.45 - k * 0.75)
        close_combat_mark(d, (cx, cy), max(8.0, L.ppi * 0.3), f"CC {cc.part.upper()}")


# ---------------------------------------------------------------------------- a seat's own board

def call_label(c) -> str:
    if c.fake:
        return f"{c.letter} FAKE"
    if c.rows_left <= 0:
        return f"{c.letter} ON TARGET"
    return f"{c.letter} {c.rows_left} to go"


def draw_private(img, d, L, view, origins) -> None:
    """His own artillery letters (with On Target, rows to go, or Fake) beside the markers of
    his calls, and his side's mine kinds under their tokens. Reads only `view.mine`."""
    m = view.mine
    size = max(10, L.ppi // 3)
    sides = {s.side for s in view.seats if s.index == m.seat}
    per_tile: dict[str, int] = {}
    for c in m.artillery:
        t = _tile(view, origins, c.tile)
        if t is None:
            continue
        k = per_tile.get(c.tile, 0)
        per_tile[c.tile] = k + 1
        # the spots draw_above gives this tile's markers: the call's own marker (by its public
        # number), else his side's markers there taken in order
        here = sorted((x for x in view.artillery if x.tile == c.tile), key=lambda x: (x.side, x.id))
        own = [i for i, x in enumerate(here) if c.marker is not None and x.id == c.marker]
        his = [i for i, x in enumerate(here) if x.side in sides]
        x, y = marker_spot(L, t[0], t[1], own[0] if own else his[k] if k < len(his) else len(here) + k)
        # under its cross-hairs, against the tile's east edge (clear of the men in the middle)
        private_label(d, (L.px(t[0][0] + t[1], 0)[0] - 3, y + L.ppi * 0.42 + size / 2 + 3), call_label(c), size,
                      anchor="rm")
    for mf in m.minefields:
        t = _tile(view, origins, mf.tile)
        if t is None:
            continue
        here = sorted({x.side for x in view.minefields if x.tile == mf.tile})
        i = next((k for k, s in enumerate(here) if s in sides), 0)
        x, y = mine_spot(L, t[0], t[1], i)
        private_label(d, (x + L.ppi * 0.5, y), WORDS.get(mf.kind, mf.kind.upper()), size)
