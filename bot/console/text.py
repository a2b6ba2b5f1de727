"""The game as terminal text, built from engine views: a one-character-per-inch map, the
soldiers, the vehicles and guns with their panels, the phase cards, and (for the player being
prompted) his hand per deck and his orders."""
from __future__ import annotations

from bot.app import battlefield_words
from engine.core.views import CardView, VehicleView, View

US_MARKS = "abcdefghijklmnopqrstuvwxyz"
DE_MARKS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def men(v: View) -> list:
    """The soldiers to show: the public ones, and in a seat's view his side's hidden men too."""
    return [*v.soldiers, *(v.mine.own_hidden if v.mine is not None else [])]


def hidden_markers(v: View) -> list:
    """Hidden-deployment markers to show: in a seat's view, only the other side's."""
    mine = {s.side for s in v.seats if v.mine is not None and s.index == v.mine.seat}
    return [m for m in v.hidden if m.side not in mine]


def marks(v: View) -> dict[int, str]:
    """A letter per soldier on the board: lower case US, upper case German."""
    out: dict[int, str] = {}
    us = iter(US_MARKS)
    de = iter(DE_MARKS)
    for s in men(v):
        out[s.serial] = next(us if s.side == "US" else de, "?")
    return out


def map_text(v: View) -> str:
    """One character per inch: '.' open, ':' cover, '#' NO MOVE, '=' road, '~' water;
    tile edges every 5"; soldiers as letters (see the soldier list); vehicles by their plate
    across their tile ("X01" for a wreck of 701)."""
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
    for vv in v.vehicles:  # the plate across the middle of its tile, under any soldier there
        if vv.status in ("board", "destroyed", "abandoned") and vv.tile in origin:
            ox, oy = origin[vv.tile]
            size = v.tiles[vv.tile].size
            label = str(vv.plate) if vv.status == "board" else "X" + str(vv.plate)[-2:]
            x0, y = ox + (size - len(label)) // 2, oy + size // 2
            for i, ch in enumerate(label):
                grid[y][x0 + i] = ch
    m = marks(v)
    for s in men(v):
        if s.status == "board" and s.at:
            grid[s.at[1]][s.at[0]] = m[s.serial]
    for hm in hidden_markers(v):  # '?' in the middle of the tile (beside it if a side has two)
        if hm.tile in origin:
            ox, oy = origin[hm.tile]
            size = v.tiles[hm.tile].size
            x = ox + size // 2 + (1 if hm.side == "DE" and any(
                o.tile == hm.tile and o.side != hm.side for o in hidden_markers(v)) else 0)
            grid[oy + size // 2][x] = "?"
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
    unseen = {s.serial for s in v.mine.own_hidden} if v.mine is not None else set()
    for s in men(v):
        if s.status == "aboard":
            continue  # listed with his vehicle
        where = {"board": "", "waiting": "waiting to enter", "exited": "left the board", "dead": "killed",
                 "reserve": "in reserve", "removed": "out of the game"}.get(s.status, s.status)
        tile = ""
        if s.status == "board" and s.at:
            tile = f"{_tile_at(v, s.at)} ({s.at[0]},{s.at[1]}) facing {s.facing.upper()}"
        flags = [f for f, on in (("spotted", s.spotted), ("pinned", s.pinned), ("wounded", s.wounded),
                                 ("in contact", s.in_contact), (f"prisoner of {s.captor}", s.captor is not None),
                                 (f"{s.grenades} grenades", s.grenades > 0), (f"holds {s.held}", s.held > 0),
                                 ("hidden from the enemy", s.serial in unseen)) if on]
        r = s.ratings
        rate = (f"sight {r.sight} cover {r.cover} walk {r.walk} fight {r.fight} "
                f"L{r.long}/S{r.short}/C{r.close}\"" + (" Hit+" if r.hit_plus else ""))
        out.append(f" {m.get(s.serial, ' ')} {s.serial:>3} {s.title} {s.name} [{s.side}] {tile or where}"
                   + (f" — {', '.join(flags)}" if flags else "") + f"  ({rate})")
    for hm in hidden_markers(v):
        out.append(f" ?     hidden [{hm.side}] {hm.tile}: {hm.count} soldier{'s' if hm.count != 1 else ''} not spotted")
    return out


def vehicle_name(v: View, plate: int) -> str:
    """"M4A1 Sherman 601": the panel's name without its bracketed detail, and the plate."""
    vv = next((x for x in v.vehicles if x.plate == plate), None)
    if vv is None:
        return str(plate)
    return f"{vv.name.split(' (')[0]} {plate}"


def vehicle_lines(v: View) -> list[str]:
    """Each vehicle and gun: plate, name, side, tile, hull facing, turret, the crew at their
    posts (open hatches marked), damage, ammunition, and its markers (pins, Move+, hull down,
    spotted)."""
    names = {s.serial: f"{s.title} {s.name}" for s in v.soldiers}
    out = []
    for vv in v.vehicles:
        out += _vehicle(v, vv, names)
    return out


def _vehicle(v: View, vv: VehicleView, names) -> list[str]:
    panel = v.vehicle_defs.get(vv.vehicle)
    where = {"waiting": "waiting to enter", "exited": "left the board", "destroyed": "destroyed",
             "abandoned": "abandoned"}.get(vv.status, "")
    if vv.tile and vv.status in ("board", "destroyed", "abandoned"):
        where = (where + " in " if where else "") + f"{vv.tile} facing {vv.facing.upper()}" \
            + (f", turret {vv.turret.upper()}" if vv.turret else "")
    marks_ = [m for m, on in ((f"{vv.pins} pin{'s' if vv.pins != 1 else ''}", vv.pins),
                              (f"Move+ {vv.move_plus}", vv.move_plus), ("hull down", vv.hull_down),
                              ("spotted", vv.spotted),
                              ("marked by " + ", ".join(map(str, vv.spotted_by)), vv.spotted_by)) if on]
    lines = [f"  {vv.plate} {vv.name} [{vv.side}] {where}" + (f" — {', '.join(marks_)}" if marks_ else "")]

    def man(serial: int) -> str:
        return f"{names[serial]} {serial}" if serial in names else str(serial)

    def post(pid: str) -> str:
        if panel is not None:
            loc = next((x for x in panel.locations if x.id == pid), None)
            if loc is not None:
                return loc.name
        return pid.replace("_", " ")

    crew = [f"{post(p)} {man(n)}" + (" (hatch open)" if p in vv.unbuttoned else "") for p, n in vv.crew.items()]
    riders = [f"{man(n)} ({post(w) if w not in ('cabin', 'deck') else w})"
              for n, w in vv.aboard.items() if n not in vv.crew.values()]
    lines.append("      crew: " + ("; ".join(crew) or "none")
                 + (f"; aboard: {', '.join(riders)}" if riders else "")
                 + (f"; beside it: {', '.join(man(n) for n in vv.dismounted)}" if vv.dismounted else ""))
    if vv.damage or vv.cook_off:
        lines.append("      damage: " + ("; ".join(f"{post(loc)} {'+'.join(m)}" for loc, m in vv.damage.items())
                                         or "none")
                     + (f"; cooking off: {', '.join(vv.cook_off)}" if vv.cook_off else ""))
    if vv.ready or vv.in_hand or vv.in_breach:
        ready = " ".join(f"{k} {n}" for k, n in vv.ready.items()) or "none"
        lines.append(f"      ammo: ready {ready}; in hand {' '.join(vv.in_hand) or '-'}; "
                     f"in breach {' '.join(vv.in_breach) or '-'}")
    if vv.kills:
        lines.append(f"      kills: {vv.kills}")
    return lines


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
    decks = {vv.force: vehicle_name(v, vv.plate) for vv in v.vehicles}
    for f in v.forces:
        seat = v.seats[f.seat]
        slots = []
        for s in f.slots:
            if s.state == "revealed" and s.card:
                slots.append(f"{s.phase}:{s.card.id}" + (f"/{s.action.upper()}" if s.action else ""))
            elif s.state == "face down":
                slots.append(f"{s.phase}:face down")
        deck = f", {decks[f.id]}" if f.id in decks else ""
        lines.append(f"   {seat.name} ({f.side}{deck}): hand {f.hand}, deck {f.deck}"
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
    lines += ["   " + x for x in battlefield_words.public_lines(v, bold=False)]  # issue 9: face down
    return "\n".join(lines)


def private_text(v: View) -> str:
    """The prompted player's own secrets: orders, hand, placed and held cards."""
    mine = v.mine
    lines = []
    if mine.order:
        o = mine.order
        lines.append(f"Your orders: {o['title']} — {o['text']} ({o['vp']} VP)" + (" [done]" if o["done"] else ""))
    decks = mine.forces if len(mine.forces) > 1 else []
    if decks:
        for f in decks:
            name = "squad" if f.kind == "squad" else vehicle_name(v, f.plate)
            lines.append(f"Your hand, {name} ({f.id}):" if f.hand else f"Your hand, {name} ({f.id}), is empty.")
            lines += ["  " + card_line(c) for c in f.hand]
            placed = [f"phase {i + 1}: {c.id}" for i, c in enumerate(f.placed) if c]
            if placed:
                lines.append(f"Placed, {name}: " + ", ".join(placed))
    elif mine.hand:
        lines.append("Your hand:")
        lines += ["  " + card_line(c) for c in mine.hand]
    else:
        lines.append("Your hand is empty.")
    placed = [f"phase {i + 1}: {c.id}" for i, c in enumerate(mine.placed) if c]
    if placed and not decks:
        lines.append("Placed: " + ", ".join(placed))
    for serial, cards in mine.held.items():
        lines.append(f"Held under {serial}: " + ", ".join(c.id for c in cards))
    if mine.fight_cards:
        lines.append("Your fight cards:")
        lines += ["  " + card_line(c) for c in mine.fight_cards]
    lines += battlefield_words.private_lines(mine, bold=False, who=battlefield_words.view_names(v))  # issue 9
    return "\n".join(lines)


def full_text(v: View) -> str:
    vehicles = ["Vehicles and guns:", *vehicle_lines(v)] if v.vehicles else []
    return "\n".join([header(v), map_text(v), "Soldiers:", *soldier_lines(v), *vehicles])
