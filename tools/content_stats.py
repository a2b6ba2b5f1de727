"""Print the numbers behind the content: ratings, VPs, card mixes, story deck, tiles, scenarios.

    .venv/bin/python tools/content_stats.py          # everything, as docs/tuning.md shows it

It reads only what load_catalog() returns, so what it prints is what the engine will play.
The helpers at the top (preset cost, tile passability) are shared with tests/content.
"""
from __future__ import annotations

import sys
from collections import Counter
from itertools import permutations
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core.content import (
    Catalog,
    Rank,
    ScenarioDef,
    SideDef,
    TileDef,
    layout_slots,
    load_catalog,
)
from engine.turn.setup import force_cost

ACTIONS = ("look", "hide", "move", "shoot")
BANDS = ("long", "short", "close", "blast")
RESULTS = ("Miss", "Hit", "Hit+", "2 Hits", "3 Hits")
DAMAGES = ("Zip", "Pin", "Wound", "Kill")
STATS = ("sight", "draw", "cover", "rally", "hold", "walk", "climb", "fight", "long", "short", "close", "toss")


# ---------------------------------------------------------------------------- shared helpers


def preset_cost(cat: Catalog, sc: ScenarioDef, side: SideDef) -> int:
    """What the side's preset squad costs by the engine's own force rules."""
    return force_cost(cat, sc, side.id, list(side.preset))


def blocked_cells(tile: TileDef) -> set[tuple[int, int]]:
    """NO MOVE and water cells of a tile, in its own frame."""
    return {c for f in tile.features if f.kind in ("nomove", "water") for r in f.rects for c in r.cells()}


def cover_cells(tile: TileDef) -> set[tuple[int, int]]:
    """Cells where a soldier is In Cover: on cover or a building, or leaning on NO MOVE terrain."""
    n = tile.size
    blocked = blocked_cells(tile)
    on = {c for f in tile.features if f.kind in ("cover", "building") for r in f.rects for c in r.cells()}
    lean = {(x, y) for x in range(n) for y in range(n) if (x, y) not in blocked
            and any((x + dx, y + dy) in blocked for dx in (-1, 0, 1) for dy in (-1, 0, 1))}
    return (on | lean) - blocked


def level_of(tile: TileDef) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for f in tile.features:
        if f.level > 1:
            for r in f.rects:
                for c in r.cells():
                    out[c] = max(out.get(c, 1), f.level)
    return out


def open_cells(tile: TileDef, climb: int) -> set[tuple[int, int]]:
    n = tile.size
    blocked = blocked_cells(tile)
    levels = level_of(tile)
    return {(x, y) for x in range(n) for y in range(n)
            if (x, y) not in blocked and levels.get((x, y), 1) <= climb}


def components(cells: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    """Groups of cells joined edge to edge (stricter than the engine's diagonal steps)."""
    left, out = set(cells), []
    while left:
        stack = [left.pop()]
        group = set(stack)
        while stack:
            x, y = stack.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    stack.append(n)
        out.append(group)
    return out


def crossing_problems(tile: TileDef) -> list[str]:
    """Why a soldier could not cross this tile, if he could not: its walkable cells must form
    one group that reaches all four edges, for Climb 1 and for Climb 2."""
    problems = []
    last = tile.size - 1
    for climb in (1, 2):
        groups = components(open_cells(tile, climb))
        if len(groups) != 1:
            problems.append(f"climb {climb}: walkable cells split into {len(groups)} groups")
            continue
        g = groups[0]
        edges = {"n": any(y == 0 for _, y in g), "s": any(y == last for _, y in g),
                 "w": any(x == 0 for x, _ in g), "e": any(x == last for x, _ in g)}
        missing = [e for e, ok in edges.items() if not ok]
        if missing:
            problems.append(f"climb {climb}: no way in from edge(s) {', '.join(missing)}")
    return problems


def board_cell_tile(sc: ScenarioDef, cat: Catalog, cell: tuple[int, int]) -> tuple[str, tuple[int, int]] | None:
    """The tile under a board cell (inches from the map's north-west corner) and the cell in
    that tile's own frame."""
    x, y = cell
    rows, cols = len(sc.map), len(sc.map[0])
    if not (0 <= x < cols * 5 and 0 <= y < rows * 5):
        return None
    tid = sc.map[y // 5][x // 5]
    c0 = min(c for c, _ in layout_slots(sc.map)[tid])
    r0 = min(r for _, r in layout_slots(sc.map)[tid])
    return tid, (x - c0 * 5, y - r0 * 5)


# ---------------------------------------------------------------------------- report


def pct(n: int, total: int) -> str:
    return f"{100 * n / total:.0f}%" if total else "-"


def dist(counter: Counter, keys, total: int) -> str:
    return "  ".join(f"{k} {counter.get(k, 0)} ({pct(counter.get(k, 0), total)})" for k in keys)


def report(cat: Catalog) -> list[str]:
    out: list[str] = []
    sold = list(cat.soldiers.values())
    cards = list(cat.cards.values())

    out.append("### Counts")
    for nat in ("US", "DE"):
        side = [s for s in sold if s.nationality == nat]
        leaders = [s for s in side if s.is_leader]
        autos = [s for s in side if any(p.healthy.hit_plus for p in s.ranks)]
        looks = [s for s in side if not s.is_leader and s.ranks[0].healthy.draw > 0]
        medals = [s for s in side if s.medal_cards]
        grenadiers = [s for s in side if s.grenades]
        out.append(f"- {nat}: {len(side)} soldiers (serials {min(s.serial for s in side)}-{max(s.serial for s in side)}), "
                   f"{len(leaders)} leaders, {len(autos)} automatic weapons, {len(looks)} non-leaders with a LOOK draw, "
                   f"{len(medals)} with medal cards, {len(grenadiers)} carrying grenades")
    out.append(f"- action cards {len(cards)} (core {sum(c.role == 'core' for c in cards)}, "
               f"rank {sum(c.role == 'rank' for c in cards)}, medal {sum(c.role == 'medal' for c in cards)}); "
               f"story {len(cat.story)} (landmark {sum(bool(p.landmark) for p in cat.story.values())}); "
               f"orders {len(cat.orders)}; tiles {len(cat.tiles)} (landmarks {sum(t.landmark for t in cat.tiles.values())}); "
               f"equipment {len(cat.equipment)}; scenarios {len(cat.scenarios)}")

    out.append("")
    out.append("### Ratings (healthy side; min / mean / max)")
    for rank in Rank:
        profs = [p for s in sold for p in s.ranks if p.rank == rank]
        if not profs:
            continue
        cells = []
        for st in STATS:
            vals = [getattr(p.healthy, st) for p in profs]
            cells.append(f"{st} {min(vals)}/{sum(vals) / len(vals):.1f}/{max(vals)}")
        out.append(f"- {rank.value} ({len(profs)} profiles): " + ", ".join(cells))
    worse = Counter()
    better = Counter()
    for s in sold:
        for p in s.ranks:
            for st in STATS:
                h, w = getattr(p.healthy, st), getattr(p.wounded, st)
                good = (w < h) if st == "cover" else (w > h)
                bad = (w > h) if st == "cover" else (w < h)
                worse[st] += bad
                better[st] += good
    out.append("- wounded side worse than healthy (profiles): " + ", ".join(f"{k} {worse[k]}" for k in STATS))
    out.append("- wounded side better (flavour): " + ", ".join(f"{k} {better[k]}" for k in STATS if better[k]))
    covers = Counter(p.healthy.cover for s in sold for p in s.ranks)
    out.append("- cover values: " + ", ".join(f"{k}: {covers[k]}" for k in sorted(covers)))

    out.append("")
    out.append("### VP")
    groups = {"privates (plain)": [], "privates with Use Hit+": [], "leaders as private": [],
              "junior NCO": [], "senior NCO": []}
    for s in sold:
        for p in s.ranks:
            if p.rank == Rank.JUNIOR_NCO:
                groups["junior NCO"].append(p.vp)
            elif p.rank == Rank.SENIOR_NCO:
                groups["senior NCO"].append(p.vp)
            elif s.is_leader:
                groups["leaders as private"].append(p.vp)
            elif p.healthy.hit_plus:
                groups["privates with Use Hit+"].append(p.vp)
            else:
                groups["privates (plain)"].append(p.vp)
    for name, vals in groups.items():
        c = Counter(vals)
        out.append(f"- {name}: " + ", ".join(f"{k} VP x{c[k]}" for k in sorted(c)))

    out.append("")
    out.append("### Action cards")
    for nat in ("US", "DE", "all"):
        cs = [c for c in cards if c.owner in cat.soldiers and (nat == "all" or cat.soldiers[c.owner].nationality == nat)]
        n = len(cs)
        acts = Counter(a.value for c in cs for a in c.actions)
        slots = sum(acts.values())
        out.append(f"#### {nat}: {n} cards")
        out.append(f"- actions (multi-action cards count each action): {dist(acts, ACTIONS, slots)}")
        out.append(f"- multi-action: {sum(c.multi for c in cs)}")
        for band in BANDS:
            out.append(f"- hit {band}: " + dist(Counter(getattr(c.hit, band) for c in cs), RESULTS, n))
        out.append("- damage: " + dist(Counter(c.damage.value for c in cs), DAMAGES, n))
        teams = [c for c in cs if c.team]
        out.append(f"- team bubble: {len(teams)} ({pct(len(teams), n)}); two entries: "
                   f"{sum(len(c.team) > 1 for c in cs)}; first-entry counts: "
                   + ", ".join(f"{k}: {v}" for k, v in sorted(Counter(c.team[0].count for c in teams).items())))
        notes = Counter(c.narrator.color for c in cs if c.narrator)
        out.append(f"- narrator box: {sum(notes.values())} ({pct(sum(notes.values()), n)}); "
                   + ", ".join(f"{k} {notes[k]}" for k in ("white", "blue", "red")))
    medals_ok = 0
    medals = [c for c in cards if c.role == "medal"]
    for m in medals:
        core = cat.cards[m.replaces]
        medals_ok += core.actions[0] in m.actions and m.multi
    out.append(f"- medal cards: {len(medals)}, each multi-action and keeping its core card's action: {medals_ok}")

    out.append("")
    out.append("### Story deck")
    core = [p for p in cat.story.values() if not p.landmark]
    pairs = Counter((p.top.value, p.bottom.value) for p in core)
    out.append(f"- general cards: {len(core)}; ordered action pairs: "
               + ", ".join(f"{a}>{b} {pairs[(a, b)]}" for a, b in permutations(ACTIONS, 2)))
    out.append("- effect categories: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(p.effect.category.value for p in core).items())))
    out.append("- cause categories: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(p.cause.value for p in core).items())))
    out.append("- colours: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(p.color for p in core).items())))
    out.append("- events: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(p.effect.event.kind for p in core).items())))
    out.append(f"- chance a cause matches the next card's effect (general deck): {match_chance(core):.3f} (1/6 = 0.167)")
    by_lm = Counter(p.landmark for p in cat.story.values() if p.landmark)
    out.append("- landmark cards: " + ", ".join(f"{k} {v}" for k, v in sorted(by_lm.items())))
    for sc in cat.scenarios.values():
        deck = scenario_deck(cat, sc)
        out.append(f"- {sc.id}: deck {len(deck)} cards for {sc.turns} turns ({3 * sc.turns} needed), "
                   f"match chance {match_chance(deck):.3f}")

    out.append("")
    out.append("### Tiles")
    sq = [t for t in cat.tiles.values() if not t.landmark]
    lm = [t for t in cat.tiles.values() if t.landmark]
    out.append(f"- {len(sq)} map squares on {len({t.piece for t in sq})} pieces, {len(lm)} landmark sides on "
               f"{len({t.piece for t in lm})} pieces")
    out.append("- terrain: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(t.terrain for t in cat.tiles.values()).items())))
    for act in ACTIONS:
        vals = Counter(getattr(t.mods, act) for t in cat.tiles.values())
        out.append(f"- {act} modifier: " + ", ".join(f"{'none' if k is None else k}: {v}"
                                                   for k, v in sorted(vals.items(), key=lambda kv: (kv[0] is not None, kv[0] or 0))))
    out.append("- cover share (cells In Cover / all cells), by terrain:")
    by_terrain: dict[str, list[float]] = {}
    for t in cat.tiles.values():
        by_terrain.setdefault(t.terrain, []).append(len(cover_cells(t)) / t.size ** 2)
    out.append("  " + ", ".join(f"{k} {sum(v) / len(v):.0%}" for k, v in sorted(by_terrain.items())))
    out.append(f"- with NO MOVE or water: {sum(bool(blocked_cells(t)) for t in cat.tiles.values())}; with roads: "
               f"{sum(any(f.kind == 'road' for f in t.features) for t in cat.tiles.values())}; with area modifiers: "
               f"{sum(bool(t.areas) for t in cat.tiles.values())}; with level 2: "
               f"{sum(bool(level_of(t)) for t in cat.tiles.values())}")
    bad = {t.id: crossing_problems(t) for t in cat.tiles.values() if crossing_problems(t)}
    out.append(f"- tiles a soldier cannot cross: {bad or 'none'}")

    out.append("")
    out.append("### Scenarios")
    for sc in cat.scenarios.values():
        rows, cols = len(sc.map), len(sc.map[0])
        lms = sorted(t for t in layout_slots(sc.map) if cat.tiles[t].landmark)
        out.append(f"#### {sc.id}: {sc.name}")
        out.append(f"- {cols}x{rows} slots ({cols * 5}\" x {rows * 5}\"), {sc.turns} turns, landmarks "
                   f"{', '.join(lms) or 'none'}")
        for side in sc.sides:
            start = f"entry {', '.join(side.entry)}" if side.entry else f"deploy {', '.join(side.deploy)}"
            out.append(f"- {side.id} {side.name}: budget {side.force_vp}, preset {len(side.preset)} soldiers costing "
                       f"{preset_cost(cat, sc, side)} VP; {start}; orders {', '.join(side.orders)}; reinforcements "
                       f"{', '.join(str(f.serial) for f in side.reinforcements) or 'none'}")
    return out


def scenario_deck(cat: Catalog, sc: ScenarioDef) -> list:
    """General cards, plus the cards of landmarks on the map, plus adds, less removes."""
    pieces = {cat.tiles[t].piece for t in layout_slots(sc.map) if cat.tiles[t].landmark}
    ids = {p.id for p in cat.story.values() if not p.landmark or p.landmark in pieces}
    ids |= set(sc.story.add)
    ids -= set(sc.story.remove)
    return [cat.story[i] for i in sorted(ids)]


def match_chance(deck) -> float:
    """Chance that card N's cause equals card N+1's effect, for two cards drawn in order."""
    n = len(deck)
    hits = sum(1 for a in deck for b in deck if a is not b and a.cause == b.effect.category)
    return hits / (n * (n - 1)) if n > 1 else 0.0


def main() -> int:
    print("\n".join(report(load_catalog())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
