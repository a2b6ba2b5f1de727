"""The game as terminal text, built from engine views: a one-character-per-inch map with its
legend and the entry and exit areas on its edges, the soldiers, the vehicles and guns with
their panels, the phase cards, and (for the player being prompted) his hand per deck and his
orders. Every distance says its unit: inches (") or squares (sq)."""
from __future__ import annotations

import re

from bot.app import battlefield_words, prompts
from engine.core.views import CardView, VehicleView, View
from engine.core.wording import plural

# slash commands in the service's words -> the console's own lines (docs/console.md)
SLASH = (("/game undo", "undo"), ("/act ", ""),
         (f"/vehicle {prompts.VEHICLE_ACTIONS}", prompts.SCRIPT_VEHICLE_ACTIONS), ("/vehicle ", ""),
         ("/field ", ""), ("/plan deck:", "plan for "), ("/plan extra:", "plan CARD CARD CARD +"), ("/plan", "plan"),
         ("/hand", "hand"), ("/board", "board"), ("/log", "log"), ("/game always-pass", "alwayspass"),
         ("/game status", "board"), ("/game ", ""))


CAMPAIGN_COMMAND = re.compile(r"`/?campaign ([a-z]+)`|(?<![\w/])/campaign ([a-z]+)")


def plain(line: str, *, campaign: int | None = None) -> str:
    """The service's words for a terminal: no Markdown, console lines for slash commands, and a
    campaign's commands as the terminal's (`/campaign review` -> `fieldpost campaign review 3`)."""
    line = CAMPAIGN_COMMAND.sub(lambda m: f"fieldpost campaign {m.group(1) or m.group(2)}"
                                + (f" {campaign}" if campaign else ""), line)
    line = line.replace("**", "").replace("`", "")
    for slash, word in SLASH:
        line = line.replace(slash, word)
    return line

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
    """One character per inch: '.' open, ':' cover, '%' building, '#' NO MOVE, '=' road, '~'
    water; tile edges every 5"; soldiers as letters (see the soldier list); vehicles by their
    plate across their tile ("X01" for a wreck of 701); entry and exit areas by their letter
    outside the board's edge, beside their tile (`legend` says it all under the map)."""
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
    edges = _area_marks(v, origin)

    def col(x: int) -> int:  # where cell column x is printed in a map line
        return 5 + x + x // 5

    def edge_line(side: str) -> str | None:
        line = [" "] * col(w)
        for (edge, at), letters in edges.items():
            if edge == side:
                for i, ch in enumerate(letters):
                    if col(at) + i < len(line):
                        line[col(at) + i] = ch
        text_ = "".join(line).rstrip()
        return text_ or None

    border = "    +" + "+".join("-" * 5 for _ in range(w // 5)) + "+"
    lines = [("     " + "".join(f"{x:<6}" for x in range(0, w, 5))).rstrip()]
    north = edge_line("n")
    if north:
        lines.append(north)
    for y in range(h):
        if y % 5 == 0:
            lines.append(border)
        cells = "|".join("".join(grid[y][x:x + 5]) for x in range(0, w, 5))
        west, east = edges.get(("w", y), ""), edges.get(("e", y), "")
        label = ""
        if y % 5 == 2:
            label = "  " + " ".join(f"{rows[y // 5][c]:>5}" for c in range(len(rows[0])))
        lines.append(f"{y:>2} {west:>1}|{cells}|{east:<1}{label}".rstrip())
    lines.append(border)
    south = edge_line("s")
    if south:
        lines.append(south)
    return "\n".join(lines)


def _area_marks(v: View, origin: dict[str, tuple[int, int]]) -> dict[tuple[str, int], str]:
    """(edge, cell column or row at the middle of the area's tile) -> the area letters there."""
    out: dict[tuple[str, int], str] = {}
    for areas in (v.entry_areas, v.exit_areas):
        for name, a in sorted(areas.items()):
            if a.tile not in origin:
                continue
            ox, oy = origin[a.tile]
            mid = v.tiles[a.tile].size // 2
            key = (a.edge, ox + mid) if a.edge in ("n", "s") else (a.edge, oy + mid)
            if name not in out.get(key, ""):
                out[key] = out.get(key, "") + name
    return out


def legend(v: View) -> str:
    """What the map's characters mean, and the units every distance is given in."""
    lines = [
        "Legend: one character is one inch; the numbers along the top (x) and down the left (y) are inches,",
        "  so a cell is written x,y (14,7). Tiles are 5\" squares named under their row (12B); a landmark is",
        "  10\" and counts as 2 squares.",
        "  .  open ground    :  cover    %  building (cover; men may go in)    =  road",
        "  #  NO MOVE (nobody crosses it; a man beside it is In Cover)    ~  water (NO MOVE)",
        "  a-z  US soldiers, A-Z German soldiers (the letter is in the soldier list)",
    ]
    if v.hidden:
        lines.append("  ?  a hidden marker: unspotted men somewhere in that tile")
    if v.vehicles:
        lines.append("  601  a vehicle or gun by its license plate across its tile; X01 a wreck or an abandoned one")
    if v.entry_areas or v.exit_areas:
        lines.append("  A B X Y outside the edge: entry and exit areas beside their tile:")
        lines.append("     " + areas_text(v))
    lines.append("Distances: walk, moves and close range in inches (\"); sight distance and long and short range in")
    lines.append("  squares (sq): the tiles a straight line crosses, not counting the shooter's own.")
    return "\n".join(lines)


EDGES = {"n": "north", "s": "south", "e": "east", "w": "west"}


def areas_text(v: View) -> str:
    """"A 18A south (US enters; exit), X 11A north (DE enters)": each area letter, its tile and
    edge, who comes on there and whether it is also an exit."""
    out = []
    for name in sorted({*v.entry_areas, *v.exit_areas}):
        a = v.entry_areas.get(name) or v.exit_areas[name]
        uses = []
        if name in v.entry_areas:
            sides = "/".join(v.entry_sides.get(name, []))
            uses.append(f"{sides} enters" if sides else "entry")
        if name in v.exit_areas:
            uses.append("exit")
        out.append(f"{name} {a.tile} {EDGES.get(a.edge, a.edge)} ({'; '.join(uses)})")
    return ", ".join(out)


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
            tile = f"{_tile_at(v, s.at)} ({s.at[0]},{s.at[1]}) facing {s.facing.upper()}" \
                + (", in cover" if s.in_cover else "")
        flags = [f for f, on in (("spotted", s.spotted), ("pinned", s.pinned), ("wounded", s.wounded),
                                 ("in contact", s.in_contact), (f"prisoner of {s.captor}", s.captor is not None),
                                 (plural(s.grenades, "grenade"), s.grenades > 0),
                                 (f"holds {plural(s.held, 'card')}", s.held > 0),
                                 ("hidden from the enemy", s.serial in unseen)) if on]
        r = s.ratings
        rate = (f"sight {r.sight}, cover {r.cover}, walk {r.walk}\", fight {r.fight}; "
                f"range long {r.long} sq, short {r.short} sq, close {r.close}\"" + ("; Hit+" if r.hit_plus else ""))
        out.append(f" {m.get(s.serial, ' ')} {s.serial:>3} {s.title} {s.name} [{s.side}] {tile or where}"
                   + (f" — {', '.join(flags)}" if flags else "") + f"  ({rate})")
    for hm in hidden_markers(v):
        out.append(f" ?     hidden [{hm.side}] {hm.tile}: {plural(hm.count, 'soldier')} not spotted")
    return out


def vehicle_name(v: View, plate: int) -> str:
    """"M4A1 Sherman 601": the panel's name without its bracketed detail, and the plate."""
    vv = next((x for x in v.vehicles if x.plate == plate), None)
    if vv is None:
        return str(plate)
    return f"{vv.name.split(' (')[0]} {plate}"


def vehicle_lines(v: View) -> list[str]:
    """Each vehicle and gun: plate, name, side, tile, hull facing, turret, the crew at their
    posts (open hatches marked), enemies up on its deck or turret, damage, ammunition, and its
    markers (pins, Move+, hull down, spotted)."""
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
    marks_ = [m for m, on in ((plural(vv.pins, "pin"), vv.pins),
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
    climbers = [f"{man(s.serial)} ({'turret' if s.on_turret else 'deck'})" for s in v.soldiers if s.on_deck == vv.plate]
    if climbers:  # enemies up on it to fight at its hatches (SMG close combat)
        lines.append("      enemies on it: " + ", ".join(climbers))
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


NOTE_MEANS = {"white": "may", "blue": "must", "red": "costs cards"}


def visible_cards(v: View) -> dict[str, CardView]:
    """The card faces a player may look at: his own (hand, placed, held, fight cards, every deck
    of his) and those revealed on the table; by id in upper case."""
    faces: list[CardView | None] = [v.active.card if v.active else None]
    faces += [slot.card for f in v.forces for slot in f.slots]
    if v.mine is not None:
        m = v.mine
        faces += [*m.hand, *m.placed, *m.fight_cards, *(c for held in m.held.values() for c in held)]
        faces += [c for f in m.forces for c in (*f.hand, *f.placed)]
    return {c.id.upper(): c for c in faces if c is not None}


def card_text(c: CardView) -> str:
    """`card ID`: every part of one card, in words."""
    team = ", then ".join(f"{plural(t.count, 'soldier')} {t.do}" for t in c.team)
    lines = [f"{c.id}" + (f" \"{c.title}\"" if c.title else "") + f" — {c.owner_name}'s card",
             f"  action:      {' or '.join(a.upper() for a in c.actions)} (placed in a phase that names it)",
             f"  dog tag:     {c.owner_name} takes the action himself",
             f"  team bubble: {team} (other men of his side, or he, each once)" if team else
             "  team bubble: none"]
    if c.narrator:
        lines.append(f"  note ({c.narrator_color}: {NOTE_MEANS.get(c.narrator_color or '', 'see the text')}): "
                     f"{c.narrator}")
    lines.append("  drawn for a hit check: " + ", ".join(f"{band} {c.hit[band]}" for band in c.hit))
    lines.append(f"  drawn for a damage check: {c.damage}")
    return "\n".join(lines)


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
    return "\n".join([header(v), map_text(v), legend(v), "Soldiers:", *soldier_lines(v), *vehicles])
