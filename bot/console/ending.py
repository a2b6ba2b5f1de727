"""The end of a console game, from the public view: who won and why, VP by side and by what
scored them, the casualties, the prisoners, the vehicles lost; and the final board picture."""
from __future__ import annotations

from pathlib import Path

from bot.console import text
from engine.core.views import View

# VpEntry.kind -> what the end screen calls it
SOURCES = {"kill": "enemy killed", "prisoner": "prisoners held", "orders": "orders carried out",
           "friendly_fire": "friendly fire", "event": "events", "card": "cards' costs"}


def end_screen(v: View) -> str:
    """Everything a table wants to read when the game is over; public only."""
    result = v.result or {}
    winner = result.get("winner")
    lines = [f"GAME OVER — {v.scenario_name}, after turn {v.turn} of {v.turns}",
             f"{result.get('reason', 'the game has ended')}.".capitalize(),
             (f"{winner} wins" if winner else "A draw") + ": " + ", ".join(
                 f"{side} {vp} VP" for side, vp in sorted(v.vp.items())) + ".", ""]
    lines.append("Victory points by source:")
    for side in sorted(v.vp):
        entries = [e for e in v.vp_log if e.side == side]
        lines.append(f"  {side}: {v.vp[side]} VP")
        by_kind: dict[str, list] = {}
        for e in entries:
            by_kind.setdefault(e.kind, []).append(e)
        for kind, group in by_kind.items():
            detail = "; ".join(f"{e.reason} {e.amount:+d}" for e in group)
            lines.append(f"    {SOURCES.get(kind, kind)}: {sum(e.amount for e in group)} ({detail})")
        if not entries:
            lines.append("    nothing scored")
    lines += ["", "Casualties:"]
    for side in sorted({s.side for s in v.soldiers}):
        ours = [s for s in v.soldiers if s.side == side]
        dead = [f"{s.title} {s.name}" for s in ours if s.status == "dead"]
        wounded = [f"{s.title} {s.name}" for s in ours if s.wounded and s.status != "dead"]
        gone = [f"{s.title} {s.name}" for s in ours if s.status == "exited"]
        parts = [f"killed {len(dead)}" + (f" ({', '.join(dead)})" if dead else ""),
                 f"wounded {len(wounded)}" + (f" ({', '.join(wounded)})" if wounded else "")]
        if gone:
            parts.append(f"left the board {len(gone)} ({', '.join(gone)})")
        lines.append(f"  {side}: " + "; ".join(parts))
    names = {s.serial: f"{s.title} {s.name}" for s in v.soldiers}
    held = [s for s in v.soldiers if s.captor is not None]
    lines.append("Prisoners: " + ("; ".join(f"{names[s.serial]} ({s.side}), held by {names.get(s.captor, s.captor)}"
                                            for s in held) if held else "none") + ".")
    lost = [x for x in v.vehicles if x.status in ("destroyed", "abandoned")]
    if v.vehicles:
        lines.append("Vehicles lost: " + ("; ".join(f"{text.vehicle_name(v, x.plate)} ({x.side}) {x.status}"
                                                    for x in lost) if lost else "none") + ".")
    return "\n".join(lines)


def final_picture(v: View, beside: Path | None, game_id: int) -> Path:
    """The final board's picture, written beside the game's database file (or into the
    working directory when the game lives elsewhere); its path."""
    from bot.render.service import render_board_png

    name = f"{beside.stem}-final.png" if beside is not None else f"fieldpost-game-{game_id}-final.png"
    path = (beside.parent if beside is not None else Path.cwd()) / name
    path.write_bytes(render_board_png(v))
    return path
