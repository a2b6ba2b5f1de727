"""The game as terminal text, built from engine views: a one-character-per-inch map, the
soldiers, the phase cards, and (for the player being prompted) his hand and orders."""
from __future__ import annotations

from engine.view import CardView, View

US_MARKS = "abcdefghijklmnopqrstuvwxyz"
DE_MARKS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def marks(v: View) -> dict[int, str]:
    """A letter per soldier on the board: lower case US, upper case German."""
    out: dict[int, str] = {}
    us = iter(US_MARKS)
    de = iter(DE_MARKS)
    for s in v.soldiers:
        out[s.serial] = next(us if s.side == "US" else de, "?")
    return out


def map_text(v: View) -> str:
    """One character per inch: '.' open, ':' cover, '#' NO MOVE, '=' road, '~' water;
    tile edges every 5"; soldiers as letters (see the soldier list)."""
    w, h = v.board["width"], v.board["height"]
    rows = v.board["rows"]
    grid = [["." for _ in range(w)] for _ in range(h)]
    origin: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(rows):
        for c, tid in enumerate(row):
            origin.setdefault(tid, (c * 5, r * 5))
    for tid, (ox, oy) in origin.items():
        t = v.tiles[tid]
        for f in t.features:
            ch = {"cover": ":", "building": "%", "nomove": "#", "road": "=", "water": "~"}[f.kind]
            for rect in f.rects:
                for x in range(rect.x0, rect.x1 + 1):
                    for y in range(rect.y0, rect.y1 + 1):
                        grid[oy + y][ox + x] = ch
    m = marks(v)
    for s in v.soldiers:
        if s.status == "board" and s.at:
            grid[s.at[1]][s.at[0]] = m[s.serial]
    lines = []
    header = "    " + "".join(f"{x:<5}" for x in range(0, w, 5))
    lines.append(header.rstrip())
    for y in range(h):
        if y % 5 == 0:
            lines.append("   +" + "+".join("-" * 5 for _ in range(w // 5)) + "+")
        cells = "|".join("".join(grid[y][x:x + 5]) for x in range(0, w, 5))
        label = ""
        if y % 5 == 2:
            label = "  " + " ".join(f"{rows[y // 5][c]:>5}" for c in range(len(rows[0])))
        lines.append(f"{y:>2} |{cells}|{label}")
    lines.append("   +" + "+".join("-" * 5 for _ in range(w // 5)) + "+")
    return "\n".join(lines)


def soldier_lines(v: View) -> list[str]:
    m = marks(v)
    out = []
    for s in v.soldiers:
        where = {"board": "", "waiting": "waiting to enter", "exited": "left the board", "dead": "killed"}[s.status]
        tile = ""
        if s.status == "board" and s.at:
            tile = f"{_tile_at(v, s.at)} ({s.at[0]},{s.at[1]}) facing {s.facing.upper()}"
        flags = [f for f, on in (("spotted", s.spotted), ("pinned", s.pinned), ("wounded", s.wounded),
                                 ("in contact", s.in_contact), (f"prisoner of {s.captor}", s.captor is not None),
                                 (f"{s.grenades} grenades", s.grenades > 0), (f"holds {s.held}", s.held > 0)) if on]
        r = s.ratings
        rate = (f"sight {r.sight} cover {r.cover} walk {r.walk} fight {r.fight} "
                f"L{r.long}/S{r.short}/C{r.close}\"" + (" Hit+" if r.hit_plus else ""))
        out.append(f" {m.get(s.serial, ' ')} {s.serial:>3} {s.title} {s.name} [{s.side}] {tile or where}"
                   + (f" — {', '.join(flags)}" if flags else "") + f"  ({rate})")
    return out


def _tile_at(v: View, at) -> str:
    return v.board["rows"][at[1] // 5][at[0] // 5]


def card_line(c: CardView) -> str:
    acts = "/".join(a.upper() for a in c.actions)
    team = ", then ".join(f"{t.count} {t.do}" for t in c.team)
    note = f"; note ({ {'white': 'may', 'blue': 'must', 'red': 'cost'}[c.narrator_color] }): {c.narrator}" \
        if c.narrator else ""
    hit = "/".join(c.hit[k] for k in ("long", "short", "close", "blast"))
    return (f"{c.id:<8} {acts:<10} {c.owner_name:<22} team: {team or '—'}{note}  "
            f"[hit L/S/C/B {hit}; damage {c.damage}]")


def header(v: View) -> str:
    lines = [f"{v.scenario_name} — turn {v.turn} of {v.turns}"
             + (f", phase {v.phase}" if v.phase else "")
             + "   VP: " + ", ".join(f"{k} {n}" for k, n in v.vp.items())]
    for i, p in enumerate(v.phase_cards):
        mark = ">" if v.phase == i + 1 else " "
        lines.append(f" {mark} phase {i + 1}: {p.top.upper()} and then {p.bottom.upper()}  ({p.title})")
    for f in v.forces:
        seat = v.seats[f.seat]
        slots = []
        for s in f.slots:
            if s.state == "revealed" and s.card:
                slots.append(f"{s.phase}:{s.card.id}" + (f"/{s.action.upper()}" if s.action else ""))
            elif s.state == "face down":
                slots.append(f"{s.phase}:face down")
        lines.append(f"   {seat.name} ({f.side}): hand {f.hand}, deck {f.deck}"
                     + (f", cards {' '.join(slots)}" if slots else ""))
    extras = []
    if v.fires:
        extras.append("fire in " + ", ".join(v.fires))
    if v.smoke:
        extras.append("smoke in " + ", ".join(f"{t} ({d}x)" for t, d in v.smoke.items()))
    if v.weather["look"] or v.weather["shoot"]:
        extras.append(f"weather LOOK {v.weather['look']:+d} SHOOT {v.weather['shoot']:+d}")
    if extras:
        lines.append("   " + "; ".join(extras))
    return "\n".join(lines)


def private_text(v: View) -> str:
    """The prompted player's own secrets: orders, hand, placed and held cards."""
    mine = v.mine
    lines = []
    if mine.order:
        o = mine.order
        lines.append(f"Your orders: {o['title']} — {o['text']} ({o['vp']} VP)" + (" [done]" if o["done"] else ""))
    if mine.hand:
        lines.append("Your hand:")
        lines += ["  " + card_line(c) for c in mine.hand]
    else:
        lines.append("Your hand is empty.")
    placed = [f"phase {i + 1}: {c.id}" for i, c in enumerate(mine.placed) if c]
    if placed:
        lines.append("Placed: " + ", ".join(placed))
    for serial, cards in mine.held.items():
        lines.append(f"Held under {serial}: " + ", ".join(c.id for c in cards))
    if mine.fight_cards:
        lines.append("Your fight cards:")
        lines += ["  " + card_line(c) for c in mine.fight_cards]
    return "\n".join(lines)


def full_text(v: View) -> str:
    return "\n".join([header(v), map_text(v), "Soldiers:", *soldier_lines(v)])
