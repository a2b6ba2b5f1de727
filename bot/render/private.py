"""A seat's own board: the public board plus what only that seat may see.

Drawn from `view(state, viewer=seat)`: the board part uses only the public fields (so it is
the public picture), and the extras come only from `view.mine`, which holds this seat's
secrets and nobody else's: his order (its landmark outlined), his own soldiers' VP, the
cards he placed face down, his hand, held cards, fight cards and deck size.

Hidden deployment: his side's men that the other side sees only as markers come from
`view.mine.own_hidden`; they are drawn as figures with a dashed ring ("they cannot see him"),
and his own side's markers are left out.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import battlefield
from bot.render import style as S
from bot.render.board import BoardLayout, BoardPanel, tile_origins
from bot.render.draw import dashed_rect, fit, text, text_width

CHIP_W, CHIP_H = 270, 34
HAND_ROWS = 2


BATTLEFIELD_ROW = 26  # issue 9: one footer line per battlefield subject (artillery, barrages, radio, mines)


class PrivateBoardPanel(BoardPanel):
    footer_h = 236

    def layout(self, view) -> BoardLayout:
        return BoardLayout.for_view(view, self.footer_h + BATTLEFIELD_ROW * len(_battlefield_lines(view)))

    def draw_dynamic(self, view, img: Image.Image) -> None:
        if view.mine is None:
            raise ValueError("the private board needs a seat's view (view(state, viewer=seat))")
        super().draw_dynamic(view, img)
        L = self.layout(view)
        d = ImageDraw.Draw(img)
        battlefield.draw_private(img, d, L, view, tile_origins(view))  # issue 9: his letters, his mine kinds
        self._unseen_rings(d, L, view)
        self._order_landmark(d, L, view)
        self._soldier_vp(d, L, view)
        self._footer(d, L, view)

    def men(self, view) -> list:
        return [*view.soldiers, *view.mine.own_hidden]

    def markers(self, view) -> list:
        mine = {s.side for s in view.seats if s.index == view.mine.seat}
        return [m for m in view.hidden if m.side not in mine]

    def _unseen_rings(self, d, L: BoardLayout, view) -> None:
        for s in view.mine.own_hidden:
            if s.at is None:
                continue
            cx, cy = L.centre(s.at)
            r = L.base_r + max(4, L.ppi * 0.16)
            dashed_ring(d, (cx, cy), r, S.HIGHLIGHT)

    def _order_landmark(self, d, L: BoardLayout, view) -> None:
        order = view.mine.order
        piece = (order or {}).get("landmark")
        if not piece:
            return
        for tid, (ox, oy) in tile_origins(view).items():
            if tid[:-1] != piece:
                continue
            n = view.tiles[tid].size
            x0, y0 = L.px(ox, oy)
            x1, y1 = L.px(ox + n, oy + n)
            dashed_rect(d, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), S.HIGHLIGHT, width=6, dash=18, gap=8)
            label = "YOUR ORDER: " + order.get("title", "")
            size = max(12, L.ppi // 3 + 2)
            w = text_width(label, size, bold=True)
            d.rectangle((x0 + 8, y1 - size - 16, x0 + 18 + w, y1 - 8), fill=S.HIGHLIGHT)
            text(d, (x0 + 13, y1 - 12), label, size, (255, 255, 255), anchor="lb", bold=True)

    def _soldier_vp(self, d, L: BoardLayout, view) -> None:
        vps = view.mine.soldier_vp
        size = max(10, L.ppi // 3)
        for s in self.men(view):
            if s.serial not in vps or s.at is None or s.status != "board":
                continue
            cx, cy = L.centre(s.at)
            label = f"{vps[s.serial]} VP"
            w = text_width(label, size, bold=True) + 6
            top = cy + L.base_r - 2
            d.rounded_rectangle((cx - w / 2, top, cx + w / 2, top + size + 4), radius=3, fill=S.HIGHLIGHT)
            text(d, (cx, top + size / 2 + 2), label, size, (255, 255, 255), anchor="mm", bold=True)

    def _footer(self, d, L: BoardLayout, view) -> None:
        m = view.mine
        y = L.footer_y0
        W = L.size[0]
        x0 = L.margin
        d.rectangle((0, y, W, y + L.footer_h), fill=(240, 232, 240))
        d.line((0, y, W, y), fill=S.HIGHLIGHT, width=3)
        seat = next((s for s in view.seats if s.index == m.seat), None)
        who = f"{seat.name} ({seat.side})" if seat else f"seat {m.seat}"
        text(d, (x0, y + 10), f"Only for {who}", 20, S.HIGHLIGHT, bold=True)
        if m.order:
            o = m.order
            state = "done" if o.get("done") else "to do"
            head = f"Order: {o.get('title')} · {o.get('vp')} VP · {state}"
        else:
            head = "Order: none"
        hx = x0 + text_width(f"Only for {who}", 20, bold=True) + 24
        text(d, (hx, y + 12), fit(head, 17, W - hx - x0, bold=True), 17, S.INK, bold=True)
        if m.order and m.order.get("text"):
            text(d, (x0, y + 40), fit(m.order["text"], 15, W - 2 * x0), 15, S.MUTED)
        # placed cards, one per phase
        row = y + 66
        text(d, (x0, row + CHIP_H / 2), "Placed", 16, S.INK, anchor="lm", bold=True)
        x = x0 + 70
        force = next((f for f in view.forces if f.seat == m.seat), None)
        for i in range(3):
            card = m.placed[i] if i < len(m.placed) else None
            slot = force.slots[i] if force and i < len(force.slots) else None
            played = card is None and slot is not None and slot.card is not None
            text(d, (x, row + CHIP_H / 2), f"{i + 1}", 16, S.INK, anchor="lm", bold=True)
            self._chip(d, (x + 14, row), slot.card if played else card, "played" if played else "")
            x += CHIP_W + 30
        extras = [f"deck {m.deck_top}", f"fight cards {len(m.fight_cards)}"]
        text(d, (x + 10, row + CHIP_H / 2), " · ".join(extras), 16, S.INK, anchor="lm")
        # the hand, as many chips as fit in two rows
        row += CHIP_H + 10
        text(d, (x0, row + CHIP_H / 2), f"Hand {len(m.hand)}", 16, S.INK, anchor="lm", bold=True)
        per_row = max(1, (W - x0 - 84) // (CHIP_W + 8))
        shown = m.hand[: per_row * HAND_ROWS]
        for i, card in enumerate(shown):
            cx = x0 + 84 + (i % per_row) * (CHIP_W + 8)
            cy = row + (i // per_row) * (CHIP_H + 6)
            self._chip(d, (cx, cy), card)
        if len(m.hand) > len(shown):
            text(d, (W - x0, row + 2 * CHIP_H + 12), f"+{len(m.hand) - len(shown)} more", 15, S.INK, anchor="ra")
        row += HAND_ROWS * (CHIP_H + 6) + 4
        held = []
        names = {s.serial: s.name for s in self.men(view)}
        for serial, cards in sorted(m.held.items()):
            held.append(f"{serial} {names.get(serial, '')}: " + ", ".join(c.id for c in cards))
        text(d, (x0, row + 10), fit("Held: " + ("; ".join(held) if held else "none"), 16, W - 2 * x0), 16,
             S.INK, anchor="lm")
        for i, words in enumerate(_battlefield_lines(view)):  # issue 9: his artillery, barrages, radio, mines
            text(d, (x0, row + 10 + BATTLEFIELD_ROW * (i + 1)), fit(words, 16, W - 2 * x0), 16, S.HIGHLIGHT,
                 anchor="lm")

    @staticmethod
    def _chip(d, xy, card, note: str = "") -> None:
        x, y = xy
        box = (x, y, x + CHIP_W, y + CHIP_H)
        if card is None:
            d.rounded_rectangle(box, radius=6, outline=S.MUTED, width=1)
            text(d, (x + 10, y + CHIP_H / 2), "—", 15, S.MUTED, anchor="lm")
            return
        d.rounded_rectangle(box, radius=6, fill=(255, 255, 255), outline=S.INK, width=1)
        ax = x + 4
        for action in card.actions:
            fill = S.ACTION_FILL.get(action, S.MUTED)
            d.rounded_rectangle((ax, y + 4, ax + 24, y + CHIP_H - 4), radius=4, fill=fill, outline=S.INK)
            text(d, (ax + 12, y + CHIP_H / 2 + 1), S.ACTION_LETTER.get(action, "?"), 15,
                 S.ACTION_TEXT.get(action, S.INK), anchor="mm", bold=True)
            ax += 28
        label = f"{card.id} {card.title}" + (f" ({note})" if note else "")
        text(d, (ax + 4, y + CHIP_H / 2), fit(label, 15, x + CHIP_W - ax - 10), 15, S.INK, anchor="lm")


def _battlefield_lines(view) -> list[str]:
    """The seat's battlefield secrets as footer lines (bot/app/battlefield_words.py)."""
    if view.mine is None:
        return []
    from bot.app.battlefield_words import private_lines, view_names
    return private_lines(view.mine, bold=False, who=view_names(view))


def dashed_ring(d, c, r: float, fill, width: int = 3, dashes: int = 12) -> None:
    """A circle drawn as `dashes` arcs: the mark of a man the other side cannot see."""
    cx, cy = c
    step = 360 / dashes
    for k in range(dashes):
        d.arc((cx - r, cy - r, cx + r, cy + r), k * step, k * step + step * 0.6, fill=fill, width=width)
