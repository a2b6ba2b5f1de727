"""What a console table reads before the first card: the scenario, who comes on where, how a
turn runs and what wins — public, so the whole table reads it together — and, for each player
when he first sits down, what his own secret orders mean on this map."""
from __future__ import annotations

import re

from bot.console.text import EDGES, areas_text
from engine.core.content import ScenarioDef
from engine.core.views import View
from engine.core.wording import plural


def public_briefing(v: View, sc: ScenarioDef) -> str:
    """The table's briefing: nothing in it belongs to one player."""
    lines = [f"=== {v.scenario_name}: {plural(v.turns, 'turn')} ===", sc.briefing.strip(), ""]
    for side in sc.sides:
        players = [s.name for s in v.seats if s.side == side.id.value]
        men = sum(1 for s in v.soldiers if s.side == side.id.value) \
            + sum(1 for x in v.hidden if x.side == side.id.value)
        way_in = (f"comes on through entry area {' or '.join(side.entry)}" if side.entry
                  else f"starts on the map in {', '.join(side.deploy)}")
        lines.append(f"{side.id.value}, {side.name} ({', '.join(players)}): {plural(men, 'soldier')}, {way_in}.")
    if v.entry_areas or v.exit_areas:
        lines.append("Areas on the board's edge: " + areas_text(v) + ".")
    lines += [f"Special: {s}" for s in sc.special]
    lines += [
        "",
        "How a turn runs: three phase cards are turned up, each naming two actions (MOVE and then SHOOT …).",
        "Each player places one action card from his hand on each phase, face down; then phase by phase the",
        "cards are revealed and carried out, the phase's first action before its second.",
        "Orders: each player has secret orders, shown to him alone when he sits down; carried out, they earn",
        "their VP. The other side's orders stay hidden until they are carried out.",
        "What wins: VP, for each enemy killed (his worth), each enemy held prisoner at the end (double) and",
        f"orders carried out. The game ends after turn {v.turns}, or at once when a side has nobody left;",
        "the side with more VP wins.",
        "",
        "At one keyboard: the game says whose turn it is (\"Pass to …\"); only that player looks. The screen",
        "is cleared before and after every player's turn, so nobody sees the other's cards or orders.",
        "Type help for the commands, options for what you may do now (numbered), board for the map.",
    ]
    return "\n".join(lines)


AREA = re.compile(r"\b(?:(entry|exit) )?area ([A-Z])\b", re.IGNORECASE)


def orders_explained(v: View, order: dict) -> str:
    """Where the areas a player's own orders name are on this map: "Your orders on this map:
    area A is 18A on the south edge; exit area X is 11A on the north edge." """
    places = []
    for kind, name in AREA.findall(order["text"]):
        kinds = [kind.lower()] if kind else ["entry", "exit"]
        for k in kinds:
            a = (v.entry_areas if k == "entry" else v.exit_areas).get(name.upper())
            if a is not None:
                where = f"{k} area {name.upper()} is {a.tile} on the {EDGES.get(a.edge, a.edge)} edge"
                if where not in places:
                    places.append(where)
                break
    said = ("Where your orders point on this map: " + "; ".join(places) + ". ") if places else ""
    return said + "Your orders (below) are yours alone: the other side learns them only when they are carried out."
