"""Draft the soldier files assets/soldiers/us.yaml and de.yaml from a roster and card pools.

The YAML this writes is the content; this script is how the first draft was made and how a
re-tune can be redrawn the same way. Same seed, same roster, same pools: byte-identical files.

    .venv/bin/python tools/make_cards.py            # rewrite both files
    .venv/bin/python tools/make_cards.py --check    # exit 1 if the files differ from a redraw
    .venv/bin/python tools/make_cards.py --seed 7   # a different draw (then re-run content_stats)

Distribution targets (docs/tuning.md): hit boxes and damage are dealt per side from exact
shares, so both armies' decks carry the same mix; medal cards are built from the core card
they replace and are always better than it. Every soldier has three of them, one for each medal
he can wear at one rank (core manual, Medals and Badges); the cards past the first draw's come
from a stream of their own per soldier, so the cards dealt before them stay as they were.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 1944

ACTIONS = ("look", "hide", "move", "shoot")

# Share of Miss per band, and how the hits split (Hit+ / 2 Hits) among the cards that hit.
MISS = {"long": 0.70, "short": 0.48, "close": 0.28, "blast": 0.34}
UPGRADES = {  # band: (share of hits that are "2 Hits", share that are "Hit+")
    "long": (0.02, 0.08),
    "short": (0.10, 0.22),
    "close": (0.16, 0.26),
    "blast": (0.22, 0.0),
}
DAMAGE_SHARE = (("Zip", 0.31), ("Pin", 0.33), ("Wound", 0.22), ("Kill", 0.14))
NOTE_SHARE = 0.33          # cards with a narrator box
TEAM_SHARE = 0.82          # cards with a team bubble (leaders' rank cards always have one)
TWO_ENTRY_SHARE = 0.12     # team bubbles with two entries

WEAPONS = {  # long squares, short squares, close inches, Use Hit+
    "M1 Garand": (12, 5, 8, False),
    "M1 Carbine": (9, 4, 10, False),
    "M1903 Springfield": (14, 5, 7, False),
    "Thompson M1A1": (7, 4, 12, True),
    "BAR M1918A2": (13, 6, 9, True),
    "Kar98k": (13, 5, 8, False),
    "Kar98k with scope": (14, 6, 7, False),
    "Gewehr 43": (12, 5, 9, False),
    "MP40": (7, 4, 11, True),
    "MG42": (14, 7, 9, True),
}

TITLES = {
    "US": {"private": "Pvt.", "junior_nco": "Cpl.", "senior_nco": "Sgt."},
    "DE": {"private": "Schtz.", "junior_nco": "Uffz.", "senior_nco": "Fw."},
}


@dataclass
class Recruit:
    serial: int
    name: str
    weapon: str
    role: str                      # leader, auto, scout, radio, rifle, sniper
    traits: tuple[str, ...] = ()   # sharp, sneaky, clumsy, quick, slow, brawler, steady, jumpy, tough
    grenades: int = 0
    medals: int = 0
    bio: str = ""


ROSTER = {
    "US": [
        Recruit(101, "Brannigan", "M1 Garand", "leader", ("steady", "tough"), 2, 3,
                "Boston longshoreman; the platoon calls him the Deacon because he never swears."),
        Recruit(102, "Kowalczyk", "Thompson M1A1", "leader", ("quick", "brawler"), 2, 2,
                "Pittsburgh steelworker who jumped with the Tommy gun strapped across his chest."),
        Recruit(103, "Mendoza", "M1 Carbine", "leader", ("sharp",), 0, 0,
                "Quiet surveyor from El Paso who can read a hedgerow like a map."),
        Recruit(104, "Whitcomb", "M1 Garand", "leader", ("jumpy",), 0, 0,
                "Yale man, newly striped, trying hard to be older than he is."),
        Recruit(105, "Dunaway", "BAR M1918A2", "auto", ("tough", "slow"), 0, 2,
                "Oklahoma farm boy who carries the BAR as if it weighed nothing."),
        Recruit(106, "Ruggiero", "Thompson M1A1", "auto", ("quick",), 2, 0,
                "Brooklyn card sharp; first through any door."),
        Recruit(107, "Lindqvist", "M1 Carbine", "radio", ("steady",), 0, 0,
                "Minnesota radio ham who kept the set dry through the drop and the flooded fields."),
        Recruit(108, "Tolliver", "M1 Garand", "scout", ("sneaky", "quick"), 0, 2,
                "Kentucky squirrel hunter; moves through brush without a sound."),
        Recruit(109, "Haskell", "M1 Garand", "rifle", ("steady",), 3, 0,
                "Maine lobsterman, slow to speak and slower to panic."),
        Recruit(110, "Pruitt", "M1 Garand", "rifle", ("jumpy", "quick"), 0, 0,
                "Youngest in the stick; lied about his age to get into the paratroops."),
        Recruit(111, "Santangelo", "M1 Carbine", "rifle", ("brawler",), 2, 0,
                "Former Golden Gloves welterweight from Providence."),
        Recruit(112, "Hollis", "M1903 Springfield", "sniper", ("sharp", "sneaky"), 0, 0,
                "Montana elk hunter with a bolt rifle and infinite patience."),
        Recruit(113, "Yancey", "M1 Garand", "rifle", ("clumsy", "tough"), 2, 0,
                "Big Georgia lineman; hard to hide, harder to stop."),
        Recruit(114, "Fairbanks", "M1 Garand", "rifle", ("slow",), 0, 0,
                "Bookkeeper from Ohio who counts everything, including rounds left."),
        Recruit(115, "Petrakis", "M1 Garand", "rifle", ("sharp",), 2, 0,
                "Greek-American fisherman's son with eyes like a gull."),
    ],
    "DE": [
        Recruit(201, "Brenner", "MP40", "leader", ("steady", "tough"), 2, 3,
                "Eastern Front veteran with frostbitten fingers and a calm voice."),
        Recruit(202, "Kessler", "Kar98k", "leader", ("sharp",), 2, 2,
                "Forester from the Black Forest who plans every move twice."),
        Recruit(203, "Hartung", "MP40", "leader", ("quick", "brawler"), 2, 0,
                "Former Hamburg dock foreman, loud and fearless."),
        Recruit(204, "Voss", "Gewehr 43", "leader", ("jumpy",), 0, 0,
                "Schoolteacher promoted after the last NCO fell; still unsure of his voice."),
        Recruit(205, "Pohl", "MG42", "auto", ("steady", "slow"), 0, 2,
                "Machine gunner who talks to his weapon and keeps the spare barrel close."),
        Recruit(206, "Kranz", "MP40", "auto", ("quick",), 2, 0,
                "Berlin tram conductor's son, always in a hurry."),
        Recruit(207, "Ebner", "Gewehr 43", "rifle", ("sharp",), 2, 0,
                "Tyrolean mountaineer proud of his semi-automatic rifle."),
        Recruit(208, "Falk", "Kar98k", "radio", ("steady",), 0, 0,
                "Signals man who can strip and rebuild the field radio blindfolded."),
        Recruit(209, "Dietz", "Kar98k", "rifle", ("brawler", "tough"), 3, 2,
                "Bavarian butcher's apprentice with a bag of stick grenades."),
        Recruit(210, "Mertens", "Kar98k", "rifle", ("jumpy",), 0, 0,
                "Seventeen, fresh from training, still writes to his mother daily."),
        Recruit(211, "Wendt", "Kar98k", "rifle", ("sneaky",), 2, 0,
                "Poacher's son from Pomerania who hides in plain sight."),
        Recruit(212, "Scholz", "Kar98k with scope", "sniper", ("sharp", "sneaky"), 0, 0,
                "Marksman who ties leaves to his helmet and waits for hours."),
        Recruit(213, "Lorenz", "Kar98k", "scout", ("quick", "sharp"), 0, 0,
                "Bicycle messenger turned scout; knows every lane for ten kilometres."),
        Recruit(214, "Grieser", "Kar98k", "rifle", ("clumsy", "slow"), 0, 0,
                "Baker from Kassel, heavy on his feet and short of breath."),
        Recruit(215, "Thalberg", "Kar98k", "rifle", ("steady",), 2, 0,
                "Quiet Saxon farmhand who never seems to hurry and never seems to miss."),
    ],
}

# ---------------------------------------------------------------------------- title pools

CARD_TITLES = {
    "look": [
        "Eyes on the Treeline", "Glint in the Hedge", "Counting Helmets", "Over the Wall",
        "Scan the Ridge", "Field Glasses Up", "Who Goes There", "Smoke on the Left",
        "Reading the Ground", "Pointing Finger", "Movement by the Barn", "Listen for Boots",
        "Map and Compass", "A Second Look", "Peek Round the Corner", "Star Shell",
        "A Shape in the Mist", "Muzzle Flash Spotted", "Watch the Road", "Careful Survey",
        "Tracks in the Mud", "Fresh Earth", "Sunlight on Steel", "Birds Take Flight",
        "Shadow at the Window", "Check Your Flank", "Whisper Down the Line", "Heads Up",
        "Bearing Two-Seven-Zero", "Dust on the Lane", "Moving Branches", "Lookout Post",
        "Hand Signals", "Cigarette Glow", "Picket Duty", "Find the Gunner", "Range Card",
        "Keen Ears", "Through the Keyhole", "Cows Don't Lie", "Telltale Footprints",
        "The Lane Is Quiet", "Flicker of Grey", "Spot the Spotter",
    ],
    "hide": [
        "Hug the Dirt", "Into the Ditch", "Keep Your Head Down", "Behind the Stones",
        "Stay Put", "Regroup", "On Me", "Catch Your Breath", "Steady Them", "Quiet as Mice",
        "Blend In", "Under the Hedge", "Dig In", "Hold Fast", "Shell Scrape", "Play Dead",
        "Pressed to the Wall", "Hunker Down", "Rally Point", "Shake It Off",
        "Still as Stone", "Gather Round", "Among the Roots", "In the Shadows",
        "Not a Sound", "Take a Knee", "Low and Slow", "Behind the Cart",
        "Brush and Bramble", "Hold the Line", "Second Wind", "Calm Voice",
        "Save It for Later", "Keep One Back", "The Waiting Game", "Crouch by the Well",
        "Mud on the Face", "Drop Flat", "Cellar Door", "Wait for It", "Pass the Canteen",
        "Nerves of Iron", "Leaves in the Helmet", "Count to Ten",
    ],
    "move": [
        "Go Go Go", "Dash to the Wall", "Leapfrog", "Crawl Forward", "Double Time",
        "Over the Top", "Flank Left", "Flank Right", "Cut Through the Orchard",
        "Run the Gauntlet", "Close the Distance", "Fix Bayonets", "Keep Moving",
        "Follow Me", "Bound Forward", "Break Cover", "Slip Away", "Shift Position",
        "Along the Ditch", "Sprint", "Through the Gap", "Charge", "Fall Back",
        "About Face", "Edge Along", "Cross the Lane", "Pick Up the Pace",
        "Weave Through", "Tumble Over the Wall", "Boots in the Mud", "Make for the Barn",
        "Rush the Door", "Roll Left", "Duck and Run", "Get There First", "On the Double",
        "Single File", "Spread Out", "Scramble", "Push On", "Follow the Hedge",
        "Hop the Fence", "Into the Fray", "Last Dash",
    ],
    "shoot": [
        "Open Fire", "Squeeze the Trigger", "Covering Fire", "Snap Shot", "Aimed Shot",
        "Rapid Fire", "Pour It On", "Suppress Them", "Lay Down Lead", "Pick Him Off",
        "Short Burst", "Long Burst", "Empty the Clip", "Steady Aim", "Lead the Target",
        "Fire at Will", "Volley", "Two Rounds Quick", "Reload and Fire", "From the Hip",
        "Short and Sharp", "Pin Them Down", "Hose the Hedge", "Crack of the Rifle",
        "Mad Minute", "Target Left", "Sweep the Field", "Knock Him Down", "Enfilade",
        "Brass Everywhere", "Windage", "Down the Sights", "Centre Mass", "Wild Shot",
        "Cross Fire", "Ricochet", "Barrel Smoking", "Last Clip", "Lucky Shot",
        "Chest High", "Fire and Shift", "Hold, Then Fire", "One Breath Out",
        "Through the Leaves",
    ],
}

# A few titles in German for the German decks (each replaces a pool entry on that side).
DE_TITLES = {
    "look": ["Achtung, links", "Fernglas", "Horchposten", "Beobachten"],
    "hide": ["Volle Deckung", "Eingraben", "Sammeln", "Ruhe bewahren"],
    "move": ["Marsch, marsch", "Sprung auf", "Stellungswechsel", "Vorwärts"],
    "shoot": ["Feuer frei", "Dauerfeuer", "Zielen, schießen", "Feuerschutz"],
}

MEDAL_TITLES = [
    "Cool Under Fire", "Veteran's Instinct", "Second Nature", "Seen It Before", "Old Hand",
    "No Time to Think", "Rising to It", "Quick Wits", "Battle Sense", "Iron Nerve",
    "Knows the Drill", "Mentioned in Dispatches", "The Hard Way", "Shrugs It Off",
    "Guts and Luck", "Where It Counts", "Cooler Head", "Front of the Line",
]

MEDAL_CARDS = 3  # the limit of medals at one rank (core manual): every medal he can wear has its card

# The medal cards added to every soldier after the first draw (issue 18) are called "<name>'s <phrase>":
# a soldier's name is his own on his side, so no title repeats there.
MEDAL_PHRASES = [
    "Iron Nerve", "Steady Hand", "Cool Head", "Sixth Sense", "Lucky Break", "Finest Hour", "Hard Lesson",
    "Old Trick", "Good Eye", "Second Look", "Stubborn Streak", "Close Call", "Hunch", "Example", "Long Day",
    "Last Word", "Quiet Word", "Hard-Won Knack", "Hot Hour", "Standing Order",
]

# ---------------------------------------------------------------------------- narrator texts

NOTE_TEXTS = {
    ("white", "draw"): ["{n} may draw a card before anyone moves.", "{n} may pull one more card from the deck."],
    ("white", "sight"): ["{n} may try to spot the nearest enemy.", "{n} may scan for the closest hidden man.",
                         "{n} may call out a target he sees."],
    ("white", "cover"): ["{n} may dive for cover.", "{n} may try to vanish from sight.",
                         "{n} may slip back into cover."],
    ("white", "rally"): ["{n} may steady one pinned soldier.", "{n} may bark a pinned man back to work."],
    ("white", "hold"): ["{n} may tuck a card away for later.", "{n} may keep one card in reserve."],
    ("white", "move"): ["{n} may make a short dash first.", "{n} may shift position before the rest.",
                        "{n} may sprint ahead of the team."],
    ("white", "shoot"): ["{n} may snap off a shot.", "{n} may fire at a spotted enemy.",
                         "{n} may fire while the others work."],
    ("white", "toss"): ["{n} may throw a grenade.", "{n} may lob a grenade over the hedge."],
    ("blue", "sight"): ["{n} must look for the nearest enemy.", "{n} must stick his head up and look."],
    ("blue", "cover"): ["{n} must go to ground.", "{n} must take cover if he can."],
    ("blue", "move"): ["{n} must move; he cannot sit still.", "{n} must move toward the nearest enemy.",
                       "{n} must reposition at once."],
    ("blue", "shoot"): ["{n} must fire at the nearest spotted enemy.", "{n} cannot hold his fire: he must shoot."],
    ("blue", "rally"): ["{n} must see to the pinned men first.", "{n} must stop and rally whoever is pinned."],
    ("blue", "spotted"): ["{n} stands up to see better and is spotted.", "{n} shouts an order and gives himself away.",
                          "The sun flashes on {n}'s helmet: he is spotted."],
    ("blue", "draw_cards"): ["{n} keeps his head: draw {cards}.", "{n} has a plan: draw {cards}."],
    ("red", "discard"): ["Discard {cards} or this card is lost.", "Costs {cards} from the hand."],
    ("red", "unpinned"): ["Only if {n} is not pinned.", "Works only while {n} keeps his nerve (not pinned)."],
    ("red", "unspotted"): ["Only while {n} is unspotted.", "Only if the enemy has not seen {n}."],
    ("red", "in_cover"): ["Only if {n} is in cover.", "Needs {n} braced in cover."],
    ("red", "healthy"): ["Only if {n} is not wounded.", "Needs {n} fit and unhurt."],
}

# ---------------------------------------------------------------------------- generation


@dataclass
class Card:
    owner: Recruit
    actions: list[str]
    group: str                     # core, private, junior_nco, senior_nco, medal
    title: str = ""
    team: list[tuple[int, str]] = field(default_factory=list)
    note: dict | None = None
    hit: dict = field(default_factory=dict)
    damage: str = ""
    replaces: int | None = None
    quality: float = 0.0


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def jitter(rng: random.Random) -> dict[str, int]:
    """One soldier's own quirks, drawn once so that his rank profiles differ only by rank."""
    small = (-1, 0, 0, 1)
    return {"sight": rng.choice(small), "cover": rng.choice((0, 0, 1)), "walk": rng.choice((0, 0, 0, -1, 1)),
            "long": rng.choice(small), "short": rng.choice((0, 0, -1)), "close": rng.choice(small),
            "toss": rng.choice((0, 1)), "w_sight": rng.choice((1, 2, 2)), "w_walk": rng.choice((1, 1, 2)),
            "w_close": rng.choice((1, 2))}


def ratings(r: Recruit, rank: str, jit: dict[str, int]) -> tuple[dict, dict]:
    t = set(r.traits)
    long_, short, close, hit_plus = WEAPONS[r.weapon]
    sight = 14 + 2 * ("sharp" in t) - 2 * ("clumsy" in t) + 3 * (r.role == "scout") + (r.role == "sniper") \
        + jit["sight"]
    cover = 3 + 2 * ("clumsy" in t) + ("slow" in t) - 2 * ("sneaky" in t) - 2 * (r.role == "scout") \
        - ("steady" in t) + jit["cover"]
    walk = 6 + ("quick" in t) - ("slow" in t) - (r.weapon in ("MG42", "BAR M1918A2")) + jit["walk"]
    climb = 2 if ("quick" in t or r.role == "scout") else 1
    fight = 2 + ("brawler" in t) - ("clumsy" in t or r.role in ("radio", "sniper")) + ("tough" in t and "brawler" not in t)
    long_ += ("sharp" in t) + jit["long"]
    short += ("steady" in t) + jit["short"]
    close += ("brawler" in t) + jit["close"]
    toss = 0 if r.role in ("radio", "sniper") or r.weapon == "MG42" else \
        clamp(6 + ("tough" in t) + ("brawler" in t) + (r.grenades >= 2) + jit["toss"], 6, 9)
    draw = rally = hold = 0
    if r.role in ("scout", "radio"):
        draw = 1
        hold = 1 if r.role == "radio" else 0
    if rank == "junior_nco":
        sight += 1
        cover -= 1
        draw, rally, hold = 1, 1 + ("steady" in t), 1
    elif rank == "senior_nco":
        sight += 2
        cover -= 1
        short += 1
        draw, rally, hold = 1 + ("steady" in t or "sharp" in t), 2 + ("steady" in t), 1 + ("sharp" in t or "tough" in t)
        fight += "brawler" not in t and fight < 3
    healthy = {"sight": clamp(sight, 10, 18), "draw": draw, "cover": clamp(cover, -1, 6), "rally": clamp(rally, 0, 3),
               "hold": clamp(hold, 0, 2), "walk": clamp(walk, 5, 7), "climb": climb, "fight": clamp(fight, 1, 3),
               "long": clamp(long_, 7, 14), "short": clamp(short, 3, 7), "close": clamp(close, 6, 12), "toss": toss}
    if hit_plus:
        healthy["hit_plus"] = True
    w = dict(healthy)
    w["sight"] -= jit["w_sight"]
    w["cover"] += 1
    w["walk"] -= jit["w_walk"]
    w["fight"] = max(1, w["fight"] - 1)
    w["long"] -= 2
    w["short"] -= 1
    w["close"] -= jit["w_close"]
    if w["toss"]:
        w["toss"] -= 2
    w["draw"] = max(0, w["draw"] - (rank == "senior_nco" and w["draw"] > 1))
    w["rally"] = max(0, w["rally"] - 1)
    w["hold"] = max(0, w["hold"] - (w["hold"] > 1))
    # flavour: one rating the wound makes better
    if "tough" in t:
        w["fight"] = healthy["fight"]
    elif "jumpy" in t:
        w["cover"] = healthy["cover"] - 1   # a hurt man keeps his head down
    elif "steady" in t and rank == "senior_nco":
        w["rally"] = healthy["rally"]       # he still has the voice for it
    return healthy, w


def vp_for(r: Recruit, rank: str, h: dict) -> int:
    score = 3.0 + (h["sight"] - 14) / 3 + (3 - h["cover"]) / 3 + (h["fight"] - 2) / 2 + (h["long"] - 12) / 4 \
        + (h["walk"] - 6) / 2 + 0.5 * (r.grenades > 0) + 1.2 * h["draw"] + 0.6 * h["rally"] + 0.5 * h["hold"]
    if rank == "junior_nco":
        return clamp(round(score + 0.3), 6, 8)
    if rank == "senior_nco":
        return clamp(round(score + 1.5), 8, 11)
    if h.get("hit_plus"):
        return clamp(round(score + 3), 5, 7)
    return clamp(round(score), 2, 5)


ROLE_WEIGHTS = {  # rank-card action weights by role
    "rifle": {"look": 2, "hide": 2, "move": 3, "shoot": 3},
    "auto": {"look": 1, "hide": 2, "move": 2, "shoot": 5},
    "sniper": {"look": 3, "hide": 3, "move": 1, "shoot": 4},
    "scout": {"look": 4, "hide": 3, "move": 3, "shoot": 1},
    "radio": {"look": 4, "hide": 3, "move": 2, "shoot": 1},
    "leader": {"look": 2, "hide": 2, "move": 3, "shoot": 3},
}


def pick_distinct(rng: random.Random, weights: dict[str, int], k: int) -> list[str]:
    pool = dict(weights)
    out = []
    for _ in range(k):
        keys = list(pool)
        choice = rng.choices(keys, weights=[pool[x] for x in keys])[0]
        out.append(choice)
        pool.pop(choice)
    return out


TEAM_DO = {
    "look": [("sight", 1)],
    "hide": [("cover", 7), ("rally", 3)],
    "move": [("move", 9), ("face", 1)],
    "shoot": [("shoot", 8), ("toss", 2)],
}
SECOND_ENTRY = {"look": "shoot", "hide": "rally", "move": "sight", "shoot": "sight"}
SECOND_ENTRY_ALT = {"look": "move", "hide": "move", "move": "cover", "shoot": "cover"}


def weighted(rng: random.Random, options: list[tuple[str, int]]) -> str:
    return rng.choices([o for o, _ in options], weights=[w for _, w in options])[0]


def make_team(card: Card, rng: random.Random) -> None:
    leader_card = card.group in ("junior_nco", "senior_nco")
    if not leader_card and rng.random() > TEAM_SHARE:
        return
    action = card.actions[0]
    do = weighted(rng, TEAM_DO[action])
    if do == "rally" and not leader_card and rng.random() < 0.6:
        do = "cover"
    if card.group == "senior_nco":
        count = rng.choice((2, 3, 3))
    elif card.group == "junior_nco":
        count = rng.choice((2, 2, 3))
    else:
        count = rng.choices((1, 2, 3), weights=(25, 45, 30))[0]
    if do in ("rally", "toss", "face"):
        count = min(count, 2)
    card.team = [(count, do)]
    if rng.random() < TWO_ENTRY_SHARE + 0.15 * leader_card:
        second = SECOND_ENTRY[action] if rng.random() < 0.6 else SECOND_ENTRY_ALT[action]
        if second != do:
            card.team.append((1 if count >= 2 else rng.choice((1, 2)), second))


WHITE_KINDS = {
    "look": [("sight", 5), ("draw", 3), ("move", 1)],
    "hide": [("cover", 4), ("rally", 3), ("hold", 2)],
    "move": [("move", 4), ("sight", 2), ("cover", 2), ("shoot", 1)],
    "shoot": [("shoot", 4), ("toss", 2), ("sight", 2)],
}
BLUE_KINDS = {
    "look": [("sight", 2), ("spotted", 2), ("draw_cards", 2)],
    "hide": [("cover", 2), ("rally", 2), ("draw_cards", 1)],
    "move": [("move", 4), ("spotted", 2)],
    "shoot": [("shoot", 4), ("spotted", 1), ("move", 1)],
}
RED_KINDS = [("discard", 3), ("unpinned", 2), ("unspotted", 2), ("in_cover", 2), ("healthy", 2)]


def say(template: str, name: str, count: int) -> str:
    return template.format(n=name, c=count, cards=f"{count} card" + ("s" if count > 1 else ""))


def make_note(card: Card, rng: random.Random, color: str) -> None:
    r = card.owner
    action = card.actions[0]
    if color == "white":
        options = [(k, w) for k, w in WHITE_KINDS[action]
                   if not (k == "toss" and r.grenades == 0) and not (k == "rally" and r.role != "leader" and rng.random() < 0.5)]
        kind = weighted(rng, options)
    elif color == "blue":
        kind = weighted(rng, BLUE_KINDS[action])
    else:
        kind = weighted(rng, RED_KINDS)
    count = 1
    if kind in ("draw_cards", "discard"):
        count = rng.choice((1, 1, 2))
    elif kind in ("move", "rally") and color == "white" and r.role == "leader":
        count = rng.choice((1, 2))
    text = say(rng.choice(NOTE_TEXTS[(color, kind)]), r.name, count)
    card.note = {"color": color, "kind": kind, "count": count, "text": text}
    # the price of a red condition or a blue gaffe is paid back in accuracy
    card.quality += {"red": 0.12, "blue": 0.06 if kind == "spotted" else -0.02, "white": -0.04}[color]


HIT_ORDER = {"Miss": 0, "Hit": 1, "Hit+": 2, "2 Hits": 3, "3 Hits": 4}


def nest(hit: dict) -> None:
    """As range shortens accuracy never drops: close >= short >= long on every card."""
    hit["short"] = max(hit["short"], hit["long"], key=HIT_ORDER.get)
    hit["close"] = max(hit["close"], hit["short"], key=HIT_ORDER.get)


def deal_hits(cards: list[Card], rng: random.Random) -> None:
    """Exact Miss shares per band; one accuracy score per card, so a card that hits at long
    range hits at short and close range too."""
    n = len(cards)
    scores = sorted((rng.random() + cards[i].quality, i) for i in range(n))
    for band in ("long", "short", "close"):
        misses = round(MISS[band] * n)
        hits = [i for _, i in scores[misses:]]
        two, plus = UPGRADES[band]
        n_two, n_plus = round(two * len(hits)), round(plus * len(hits))
        rng.shuffle(hits)
        for _, i in scores[:misses]:
            cards[i].hit[band] = "Miss"
        for k, i in enumerate(hits):
            cards[i].hit[band] = "2 Hits" if k < n_two else "Hit+" if k < n_two + n_plus else "Hit"
    for c in cards:
        nest(c.hit)
    order = list(range(n))
    rng.shuffle(order)
    misses = round(MISS["blast"] * n)
    two = round(UPGRADES["blast"][0] * (n - misses))
    three = max(1, n // 40)
    for k, i in enumerate(order):
        cards[i].hit["blast"] = ("Miss" if k < misses else "3 Hits" if k < misses + three
                                 else "2 Hits" if k < misses + three + two else "Hit")


def deal_damage(cards: list[Card], rng: random.Random) -> None:
    n = len(cards)
    bag: list[str] = []
    for name, share in DAMAGE_SHARE[:-1]:
        bag += [name] * round(share * n)
    bag += [DAMAGE_SHARE[-1][0]] * (n - len(bag))
    rng.shuffle(bag)
    for c, d in zip(cards, bag):
        c.damage = d


STEP_UP = {"Miss": "Hit", "Hit": "Hit+", "Hit+": "2 Hits", "2 Hits": "2 Hits", "3 Hits": "3 Hits"}
MEDAL_SECOND = {"look": ["move", "hide", "shoot"], "hide": ["look", "move"], "move": ["shoot", "hide", "look"],
                "shoot": ["move", "look"]}


def make_medal(core: Card, index: int, r, rng: random.Random, notes: dict = NOTE_TEXTS,
               white_kinds: dict = WHITE_KINDS, bump=lambda count, do: min(3, count + 1)) -> Card:
    """A medal card from the core card it replaces. `notes` and `white_kinds` are the narrator
    texts and kinds of the man's kind of soldier; `bump` says how many his first bubble entry
    grows to (a crew or vehicle entry that counts no men stays as it is)."""
    first = core.actions[0]
    second = rng.choice(MEDAL_SECOND[first])
    m = Card(owner=r, actions=[first, second], group="medal", replaces=index)
    m.hit = dict(core.hit)
    # one band a step better: the shortest band that still misses, else the best band improves
    for band in ("close", "short", "long"):
        if m.hit[band] == "Miss":
            m.hit[band] = "Hit"
            break
    else:
        m.hit["close"] = STEP_UP[m.hit["close"]]
    if m.hit["short"] == "Hit" and rng.random() < 0.5:
        m.hit["short"] = "Hit+"
    nest(m.hit)
    m.damage = core.damage
    if core.team:
        (c0, d0), *rest = core.team
        m.team = [(bump(c0, d0), d0), *rest]
        if not rest and rng.random() < 0.4:
            extra = SECOND_ENTRY[second] if SECOND_ENTRY[second] != d0 else SECOND_ENTRY_ALT[second]
            m.team.append((1, extra if extra != d0 else "move"))
    else:
        m.team = [(2, TEAM_DO[first][0][0])]
    if core.note and core.note["color"] != "red" and core.note["kind"] != "spotted":
        # a medal turns a "must" into a "may", and says it in other words
        color = "white" if core.note["kind"] in NOTE_WHITE_OK else core.note["color"]
        texts = [say(t, r.name, core.note["count"]) for t in notes[(color, core.note["kind"])]]
        fresh = [t for t in texts if t != core.note["text"]] or texts
        m.note = {**core.note, "color": color, "text": rng.choice(fresh)}
    elif rng.random() < 0.5:
        kind = weighted(rng, white_kinds[second])
        if kind == "toss" and r.grenades == 0:
            kind = "sight"
        m.note = {"color": "white", "kind": kind, "count": 1,
                  "text": say(rng.choice(notes[("white", kind)]), r.name, 1)}
    return m


def better(m: Card, core: Card) -> bool:
    """No band worse and something gained: a band, a man more in the bubble, or a narrator box."""
    gains = [HIT_ORDER[m.hit[b]] - HIT_ORDER[core.hit[b]] for b in ("long", "short", "close")]
    bigger = sum(n for n, _ in m.team) > sum(n for n, _ in core.team)
    return min(gains) >= 0 and (max(gains) > 0 or bigger or (m.note is not None and core.note is None))


def more_medals(core: list[Card], have: list[Card], r, seed: int, **style) -> list[Card]:
    """His medal cards past the ones he has, up to MEDAL_CARDS, each replacing a core card none
    replaces yet; drawn from his own stream so the cards already dealt stay as they were."""
    rng = random.Random(f"{seed}-{r.serial}-medals")
    taken = {m.replaces for m in have}
    free = [i for i in range(len(core)) if i + 1 not in taken]
    picks = sorted(rng.sample(free, MEDAL_CARDS - len(have)))
    phrases = rng.sample(MEDAL_PHRASES, len(picks))
    out = []
    for i, phrase in zip(picks, phrases):
        m = make_medal(core[i], i + 1, r, rng, **style)
        for band in ("long", "short", "close"):  # a card already at its best bubble still shoots better
            if better(m, core[i]):
                break
            m.hit[band] = STEP_UP[m.hit[band]]
            nest(m.hit)
        if not better(m, core[i]):
            raise SystemExit(f"no medal card for {r.name} betters his core card {i + 1}")
        m.title = f"{r.name}'s {phrase}"
        out.append(m)
    return out


NOTE_WHITE_OK = {"sight", "cover", "move", "shoot", "rally"}


def build_side(nat: str, rng: random.Random, seed: int = SEED) -> tuple[list[Recruit], dict[int, dict]]:
    roster = ROSTER[nat]
    cards: list[Card] = []
    per_soldier: dict[int, dict] = {}
    for r in roster:
        entry = {"recruit": r, "core": [], "ranks": [], "medals": []}
        core_actions = list(ACTIONS)
        rng.shuffle(core_actions)
        for a in core_actions:
            c = Card(owner=r, actions=[a], group="core")
            entry["core"].append(c)
        ranks = ["private", "junior_nco", "senior_nco"] if r.role == "leader" else ["private"]
        jit = jitter(rng)
        for rank in ranks:
            if rank == "private":
                acts = pick_distinct(rng, ROLE_WEIGHTS[r.role], 3)
            elif rank == "junior_nco":
                acts = ["hide", "look", rng.choice(("move", "shoot"))]
            else:
                acts = ["hide", rng.choice(("look", "move")), rng.choice(("move", "shoot"))]
            rank_cards = [Card(owner=r, actions=[a], group=rank,
                               quality={"private": 0.0, "junior_nco": 0.05, "senior_nco": 0.1}[rank])
                          for a in acts]
            h, w = ratings(r, rank, jit)
            vp = vp_for(r, rank, h)
            if entry["ranks"]:  # a promotion always costs more
                vp = max(vp, entry["ranks"][-1]["vp"] + 1 + (rank == "senior_nco"))
            entry["ranks"].append({"rank": rank, "title": TITLES[nat][rank], "vp": vp,
                                   "healthy": h, "wounded": w, "cards": rank_cards})
        for c in entry["core"] + [c for p in entry["ranks"] for c in p["cards"]]:
            make_team(c, rng)
            u = rng.random()
            if u < NOTE_SHARE:
                color = "white" if u < NOTE_SHARE * 0.5 else "blue" if u < NOTE_SHARE * 0.8 else "red"
                make_note(c, rng, color)
            cards.append(c)
        per_soldier[r.serial] = entry
    deal_hits(cards, rng)
    deal_damage(cards, rng)
    for r in roster:
        entry = per_soldier[r.serial]
        indices = rng.sample(range(4), r.medals)
        entry["medals"] = [make_medal(entry["core"][i], i + 1, r, rng) for i in sorted(indices)]
    # titles: every card of a side gets its own title
    pools = {a: list(CARD_TITLES[a]) for a in ACTIONS}
    if nat == "DE":
        for a in ACTIONS:
            pools[a] = pools[a][: len(pools[a]) - len(DE_TITLES[a])] + DE_TITLES[a]
    for a in ACTIONS:
        rng.shuffle(pools[a])
    medal_pool = list(MEDAL_TITLES)
    rng.shuffle(medal_pool)
    for r in roster:
        entry = per_soldier[r.serial]
        for c in entry["core"] + [c for p in entry["ranks"] for c in p["cards"]]:
            c.title = pools[c.actions[0]].pop()
        for m in entry["medals"]:
            m.title = medal_pool.pop()
    for r in roster:
        entry = per_soldier[r.serial]
        entry["medals"] += more_medals(entry["core"], entry["medals"], r, seed)
    return roster, per_soldier


# ---------------------------------------------------------------------------- YAML out


def q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def card_yaml(c: Card) -> str:
    parts = []
    if len(c.actions) == 1:
        parts.append(f"action: {c.actions[0]}")
    else:
        parts.append(f"actions: {'/'.join(c.actions)}")
    if c.replaces is not None:
        parts.append(f"replaces: {c.replaces}")
    parts.append(f"title: {q(c.title)}")
    if c.team:
        parts.append(f"team: {q(', '.join(f'{n} {d}' for n, d in c.team))}")
    if c.note:
        n = c.note
        count = f", count: {n['count']}" if n["count"] != 1 else ""
        parts.append(f"note: {{color: {n['color']}, kind: {n['kind']}{count}, text: {q(n['text'])}}}")
    parts.append(f"hit: {q('/'.join(c.hit[b] for b in ('long', 'short', 'close', 'blast')))}")
    parts.append(f"damage: {c.damage}")
    return "{" + ", ".join(parts) + "}"


STAT_ORDER = ("sight", "draw", "cover", "rally", "hold", "walk", "climb", "fight", "long", "short", "close", "toss",
              "hit_plus")


def stats_yaml(s: dict) -> str:
    return "{" + ", ".join(f"{k}: {str(s[k]).lower() if isinstance(s[k], bool) else s[k]}"
                           for k in STAT_ORDER if k in s) + "}"


def side_yaml(nat: str, roster: list[Recruit], per: dict[int, dict], seed: int) -> str:
    army = {"US": "US airborne", "DE": "German infantry"}[nat]
    out = [f"# {army}: dog tags {roster[0].serial}-{roster[-1].serial}.",
           f"# First drawn by tools/make_cards.py (seed {seed}); see docs/content.md for the card form",
           "# and docs/tuning.md for the target numbers. Edit here or redraw with the generator.",
           "soldiers:"]
    for r in roster:
        e = per[r.serial]
        out.append(f"  # {r.bio}")
        out.append(f"  - serial: {r.serial}")
        out.append(f"    name: {r.name}")
        out.append(f"    nationality: {nat}")
        out.append(f"    weapon: {r.weapon}")
        out.append(f"    grenades: {r.grenades}")
        out.append("    core:")
        out += [f"      - {card_yaml(c)}" for c in e["core"]]
        if e["medals"]:
            out.append("    medals:")
            out += [f"      - {card_yaml(c)}" for c in e["medals"]]
        out.append("    ranks:")
        for p in e["ranks"]:
            out.append(f"      - rank: {p['rank']}")
            out.append(f"        title: {p['title']}")
            out.append(f"        vp: {p['vp']}")
            out.append(f"        healthy: {stats_yaml(p['healthy'])}")
            out.append(f"        wounded: {stats_yaml(p['wounded'])}")
            out.append("        cards:")
            out += [f"          - {card_yaml(c)}" for c in p["cards"]]
    return "\n".join(out) + "\n"


def render(seed: int) -> dict[Path, str]:
    files = {}
    for nat, name in (("US", "us"), ("DE", "de")):
        rng = random.Random(f"{seed}-{nat}")
        roster, per = build_side(nat, rng, seed)
        files[ROOT / "assets" / "soldiers" / f"{name}.yaml"] = side_yaml(nat, roster, per, seed)
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--check", action="store_true", help="only compare with the files on disk")
    args = ap.parse_args(argv)
    files = render(args.seed)
    if args.check:
        stale = [p for p, text in files.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
        for p in stale:
            print(f"{p.relative_to(ROOT)} differs from a redraw with seed {args.seed}")
        return 1 if stale else 0
    for p, text in files.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
