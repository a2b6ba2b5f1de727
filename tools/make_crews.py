"""Draft the crewmen files assets/soldiers/us_crew.yaml and de_crew.yaml (Hell on Wheels).

Crewmen are soldiers with a `crew:` training (role and vehicle). Their four core cards and
three cards per rank go into their vehicle's action deck when they crew it, and into a squad's
deck when they fight on foot, so they are dealt from the same shares as the infantry
(tools/make_cards.py: hit boxes, damage, narrator and team shares) and only blast results
(Zip, Pin, Wound, Kill): the gear results live on the vehicle and team cards in
assets/vehicles/. What differs is in the bubbles and the boxes: about half of a crewman's
bubbles name crew or vehicle sub-actions of his role (a loader loads, a driver drives, a
gunner acquires), and the narrator may let him repair, put out a fire or load. Each crewman has
three medal cards, made by make_cards' rule (`more_medals`) from a stream of their own.

    .venv/bin/python tools/make_crews.py            # rewrite both files
    .venv/bin/python tools/make_crews.py --check    # exit 1 if the files differ from a redraw

Same seed, same roster: byte-identical files. The YAML is the content and this script its
source: change the roster, pools or shares here and redraw; tests/content/test_vehicles.py
checks that the files on disk still match a redraw, so a hand edit belongs here too.
"""
from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.make_cards import (  # noqa: E402
    ACTIONS,
    CARD_TITLES,
    DE_TITLES,
    MEDAL_TITLES,
    NOTE_SHARE,
    TEAM_SHARE,
    TITLES,
    Card,
    card_yaml,
    clamp,
    deal_damage,
    deal_hits,
    more_medals,
    pick_distinct,
    q,
    stats_yaml,
    weighted,
)

ROOT = Path(__file__).resolve().parent.parent
SEED = 1944

# long squares, short squares, close inches, Use Hit+: the small arms crews carry
WEAPONS = {
    "M1911 pistol": (7, 3, 7, False),
    "M1 Carbine": (9, 4, 10, False),
    "M3 submachine gun": (7, 4, 11, True),
    "P38 pistol": (7, 3, 7, False),
    "MP40": (7, 4, 11, True),
    "Kar98k": (13, 5, 8, False),
}


@dataclass
class Crewman:
    serial: int
    name: str
    weapon: str
    role: str                      # driver, gunner, loader, commander, radio, spotter
    vehicle: str                   # the vehicle id he is trained on
    traits: tuple[str, ...] = ()   # sharp, sneaky, clumsy, quick, slow, brawler, steady, jumpy, tough
    grenades: int = 0
    bio: str = ""
    post: str = ""                 # the panel position he usually fills, for the comment only

    @property
    def leader(self) -> bool:
        return self.role == "commander"


ROSTER = {
    "US": [
        # M4A1 Sherman "m4a1-sherman"
        Crewman(151, "Calloway", "M3 submachine gun", "commander", "m4a1-sherman", ("steady", "sharp"), 2,
                "Texas roughneck who has had two tanks shot out from under him and still rides with his head out.",
                "commander"),
        Crewman(152, "Reinholt", "M1911 pistol", "gunner", "m4a1-sherman", ("sharp",), 0,
                "Wisconsin deer hunter who leads a moving target by feel.", "gunner"),
        Crewman(153, "Boudreaux", "M1911 pistol", "loader", "m4a1-sherman", ("quick", "tough"), 0,
                "Cajun shrimper who can juggle a 75 mm round in a turret rolling over a ditch.", "loader"),
        Crewman(154, "Garrity", "M1911 pistol", "driver", "m4a1-sherman", ("steady",), 0,
                "Drove a milk truck through Chicago winters; nothing bogs him for long.", "driver"),
        Crewman(155, "Whitfield", "M1 Carbine", "driver", "m4a1-sherman", ("jumpy",), 1,
                "Nineteen, from Tulsa; talks to the bow gun as if it could hear him.", "bow_gunner"),
        # M8 armoured car "m8-greyhound"
        Crewman(156, "Delacroix", "M1 Carbine", "commander", "m8-greyhound", ("sharp", "sneaky"), 2,
                "New Orleans draughtsman who sketches every crossroads he drives through.", "commander"),
        Crewman(157, "Harlan", "M1911 pistol", "gunner", "m8-greyhound", ("steady",), 0,
                "West Virginia miner with steady hands and very few words.", "gunner"),
        Crewman(158, "Pike", "M1911 pistol", "driver", "m8-greyhound", ("quick",), 0,
                "Ran liquor down Carolina back roads until the Army found him a faster car.", "driver"),
        Crewman(159, "Amundsen", "M1 Carbine", "radio", "m8-greyhound", ("steady", "sharp"), 0,
                "Duluth radio amateur who can pick a voice out of a thunderstorm.", "radio_operator"),
        # 57 mm M1 anti-tank gun "57mm-m1"
        Crewman(160, "Vance", "M1 Carbine", "commander", "57mm-m1", ("steady", "tough"), 2,
                "Regular Army section chief; the gun pit is dug before anyone asks for coffee.", "commander"),
        Crewman(161, "Lucero", "M1 Carbine", "gunner", "57mm-m1", ("sharp",), 0,
                "Surveyor's helper from Socorro who calls a range by eye and is seldom out.", "gunner"),
        Crewman(162, "Kimball", "M1 Carbine", "loader", "57mm-m1", ("tough", "slow"), 1,
                "Vermont quarryman who carries the shells like loaves from the oven.", "loader"),
    ],
    "DE": [
        # PzKw IV H "pzkw-iv-h"
        Crewman(251, "Rademacher", "MP40", "commander", "pzkw-iv-h", ("steady", "sharp"), 2,
                "Came back from Kursk with a scarred cheek and an ear for engine trouble.", "commander"),
        Crewman(252, "Auer", "P38 pistol", "gunner", "pzkw-iv-h", ("sharp",), 0,
                "Clockmaker's son from Passau: patient at the sight, quick on the pedal.", "gunner"),
        Crewman(253, "Brandl", "P38 pistol", "loader", "pzkw-iv-h", ("quick", "tough"), 0,
                "Brewery drayman who throws the long rounds about like crates of bottles.", "loader"),
        Crewman(254, "Jansen", "P38 pistol", "driver", "pzkw-iv-h", ("steady",), 0,
                "Frisian tractor mechanic who nurses the engine like a sick calf.", "driver"),
        Crewman(255, "Seidel", "P38 pistol", "radio", "pzkw-iv-h", ("jumpy",), 0,
                "Former post office telegraphist; jumpy in the dark hull, never off the net.", "radio_operator"),
        # Sd.Kfz. 250/1 "sdkfz-250-1"
        Crewman(256, "Hofmeister", "MP40", "commander", "sdkfz-250-1", ("quick", "brawler"), 2,
                "Dispatch rider turned half-track commander; drives his driver as hard as his men.", "commander"),
        Crewman(257, "Kuhn", "P38 pistol", "driver", "sdkfz-250-1", ("quick",), 0,
                "Berlin taxi driver who finds a shortcut in any hedge maze.", "driver"),
        # 7.5 cm PaK 40 "pak-40"
        Crewman(258, "Ziegler", "Kar98k", "commander", "pak-40", ("steady", "tough"), 2,
                "Silesian gun chief who paces out his fields of fire before he digs.", "commander"),
        Crewman(259, "Ackermann", "Kar98k", "gunner", "pak-40", ("sharp",), 0,
                "Farm boy from the Altmark who learned his trade on the little 3.7.", "gunner"),
        Crewman(260, "Thiel", "Kar98k", "loader", "pak-40", ("tough", "slow"), 1,
                "Bremen stevedore, as broad as the gun shield and twice as hard to move.", "loader"),
    ],
}

ARMY = {"US": "US armour, reconnaissance and anti-tank crews", "DE": "German panzer, half-track and anti-tank crews"}

# A second crew for a type a scenario fields twice (issue 18: two Shermans in one game), drawn
# apart with its own seed and its own titles so the first crews' cards stay as they were.
SECOND_ROSTER = {
    "US": [
        # the second M4A1 Sherman "m4a1-sherman"
        Crewman(163, "Okafor", "M3 submachine gun", "commander", "m4a1-sherman", ("sharp", "tough"), 2,
                "Pittsburgh steel roller who reads a tank's engine note like a foreman reads a mill.", "commander"),
        Crewman(164, "Halvorsen", "M1911 pistol", "gunner", "m4a1-sherman", ("steady",), 0,
                "Minnesota ice fisherman who can sit behind a sight all day without a twitch.", "gunner"),
        Crewman(165, "Esposito", "M1911 pistol", "loader", "m4a1-sherman", ("quick",), 0,
                "Brooklyn fruit porter who stacks rounds as neatly as crates of lemons.", "loader"),
        Crewman(166, "McAllister", "M1911 pistol", "driver", "m4a1-sherman", ("steady", "tough"), 0,
                "Montana ranch hand who drove a combine before he could drive a car.", "driver"),
        Crewman(167, "Tanaka", "M1 Carbine", "driver", "m4a1-sherman", ("sharp",), 1,
                "Hawaii-born mechanic from Fresno; keeps the bow gun oiled and the driver honest.", "bow_gunner"),
    ],
}
SECOND_ARMY = {"US": "US armour: the second Sherman's crew"}

# The second crews' titles: a pool of their own (none of CREW_TITLES), so the first draw keeps its shuffle.
SECOND_TITLES = {
    "look": {
        "any": ["Hedge Gap at Noon", "Count the Chimneys", "Steeple on the Skyline", "Who's in the Barn?",
                "Far Side of the Brook", "Poplars by the Road", "Haze over the Fields", "White Flag or Shirt?",
                "Tracks in the Dew", "Crows Took Off", "Left of the Wayside Cross", "Something in the Copse"],
        "sight": ["T:Periscope Sweep", "T:Prism Fogged", "Glance Astern"],
        "acquire": ["Lead Him Two", "Gun Laid", "On Target"],
    },
    "hide": {
        "any": ["Wait It Out", "Still as a Stone", "Hedge Shadow", "Let the Dust Settle", "Ears Open",
                "Under the Chestnuts", "Quiet on the Set", "Breathe Easy", "Hunker Down", "Lee of the Farmhouse"],
        "button": ["T:Lids Down", "T:Dog the Hatches"],
        "cover": ["T:Tarp over the Turret", "T:Hay on the Hull", "T:Backed into the Byre"],
    },
    "move": {
        "any": ["Along the Ditch", "Round the Well", "Short Hop", "Past the Calvary", "Across the Meadow",
                "Through the Gateway", "Up the Sunken Lane", "Beyond the Pond", "Skirt the Village", "Keep Rolling"],
        "move": ["T:Low Gear", "T:Gun It", "T:Into the Orchard", "T:Around the Crater"],
        "shift": ["Trade Places", "Slide Over"],
        "repair": ["Tighten the Track", "Patch the Line"],
    },
    "shoot": {
        "any": ["Short Burst", "Sweep the Wall", "Put One Through the Window", "At the Muzzle Flash",
                "Squeeze, Don't Pull", "Knock on the Door", "Rattle the Shutters", "Hose the Ditch",
                "Across the Yard", "Ping the Plate"],
        "load": ["Round Up", "Charge the Gun", "Hand Me AP", "Another HE"],
        "vehicle shoot": ["Fire!", "Hull Shot", "Turret Ring"],
        "crew shoot": ["T:Bow Gun Chatter", "T:Coax on the Hedge"],
    },
}

# ---------------------------------------------------------------------------- titles

# Fresh titles, none of them in the infantry pools of tools/make_cards.py, sorted by what the
# card's first bubble entry does ("any": a soldier entry or no bubble). "T:" marks a title that
# only fits a vehicle crew, "G:" one that only fits a gun crew.
CREW_TITLES = {
    "look": {
        "any": ["Glasses on the Rise", "Scan the Hedgeline", "Dust Cloud on the Road", "Flash at Two O'Clock",
                "Glint of a Lens", "Counting Barrels", "Trees Don't Move", "Is That a Gun?", "Read the Smoke",
                "Wait for the Flash", "Call the Distance", "Shape in the Gap", "One Eye on the Flank",
                "Sun at Our Backs", "Where's the Infantry?", "Engine Noise Ahead", "Exhaust Smoke",
                "Fresh Tracks in the Verge", "Glass the Orchard", "Check Behind Us", "Sweep the Crossroads",
                "Slow Pan Left", "Movement in the Wheat", "Smoke Over the Roofs"],
        "sight": ["T:Through the Periscope", "T:Vision Block", "T:Look Through the Slit", "T:Turret Roof Lookout",
                  "G:Peer Over the Shield", "G:Head Above the Parapet", "Eyes on the Road"],
        "unbutton": ["T:Hatch Cracked", "T:Stand Up in the Hatch", "T:Open Her Up", "T:Fresh Air"],
        "acquire": ["T:Bearing from the Cupola", "Sight Picture", "Mark the Target", "T:Gunner, Tank!",
                    "G:Trail Left, On!", "Lay On", "Crosshairs", "Range Eight Hundred"],
        "draw": ["Radio Chatter", "Listen on the Net", "Tune the Set", "Orders from Company"],
    },
    "hide": {
        "any": ["Sit Tight", "Hold Your Breath", "Not Yet", "Steady, Crew", "Keep Your Nerve", "Ride It Out",
                "Brace for It", "Let Them Pass", "Wait for Dusk", "Radio Silence", "Behind the Haystack",
                "Under the Apple Trees", "Shadow of the Church", "Wait in the Lee", "Lights Out",
                "Stay Off the Net", "Eyes Down", "Heads Below the Rim", "Low Profile", "Netting and Straw"],
        "button": ["T:Hatches Down", "T:Stay Buttoned", "T:Crouch in the Turret", "T:Close It Up", "T:Clang Shut"],
        "hulldown": ["T:Nose in the Hedge", "T:Back Into the Trees", "G:Dig the Spades In", "G:Deeper Pit",
                     "T:Hull Down in the Lane", "G:Sandbag the Pit"],
        "cover": ["Camouflage Nets", "T:Branches on the Hull", "T:Engine Off", "T:Keep Her Idling",
                  "G:Behind the Shield", "T:Mud on the Plates", "Pull the Tarp Over", "T:Into the Barn",
                  "G:Hide the Muzzle", "T:Quiet Tracks", "G:Down Behind the Wheel", "Cool the Barrel",
                  "T:Sandbags on the Glacis", "T:Spare Track Links"],
    },
    "move": {
        "any": ["Move Up", "Edge Left", "Relocate", "Across the Stubble", "Over the Ditch", "Push Through",
                "Down the Lane", "Shoulder Through the Hedge", "Find Firm Ground", "Keep Low, Keep Moving",
                "Run for the Wall", "Back the Way We Came", "Through the Orchard Gate", "Hug the Verge"],
        "move": ["T:Throttle Open", "T:Second Gear", "T:Reverse!", "T:Full Speed", "T:Drive On", "T:Ram the Gap",
                 "T:Ford the Stream", "T:Bypass the Village", "T:Keep to the Road", "T:Take the Corner Wide",
                 "T:Clutch and Brake", "T:Steady on the Levers", "T:Back Her Out", "T:Neutral Steer"],
        "turret": ["T:Slew the Turret", "T:Traverse Left", "T:Traverse Right", "T:Hand Crank"],
        "face": ["G:Push the Trail Round", "G:Manhandle the Gun", "G:Spread the Trail", "G:Heave on the Spades"],
        "shift": ["Change Seats", "Swap Positions", "T:Over the Breech", "Take His Place"],
        "repair": ["Out and Fix It", "T:Knock In a Track Pin", "Wrench and Hammer", "Splice the Wires"],
        "extinguish": ["Grab the Extinguisher", "Beat Out the Flames", "Smother It"],
        "unpin": ["T:Rock Her Loose", "T:Out of the Mud", "T:Hook the Tow Cable"],
        "dismount": ["T:Bail Out", "T:Hop Down", "T:Over the Side"],
        "mount": ["T:Climb Aboard", "T:Up on the Deck"],
    },
    "shoot": {
        "any": ["Hit Him Again", "Let Him Have It", "Aim Low", "One More", "Fire When Ready", "Point Blank",
                "Into the Hedge With It", "Carbine Crack", "Two Quick Ones", "Empty the Magazine",
                "Keep Their Heads Down", "Make It Count", "Hammer the Hedge"],
        "load": ["Load AP", "Load HE", "Up!", "Round Chambered", "Feed the Breech", "Next Round", "Stack the Rounds",
                 "Open the Breech", "Clear the Breech", "Keep Them Coming", "Case Ejected", "Spent Casing",
                 "Hot Barrel"],
        "vehicle shoot": ["On the Way", "Shot!", "Punch Through", "Knock Out the Gun", "Target Stop",
                          "Splash on the Plate", "Ranging Shot", "Adjust Fire", "Right Two Mils", "Down Fifty",
                          "Shot Out", "T:Fire on the Move"],
        "crew shoot": ["T:Burst from the Bow", "T:Coax Rattle", "T:Pistol from the Hatch", "Walk the Tracers",
                       "Traversing Fire", "Tracer Check"],
        "toss": ["Sling a Grenade", "Over the Rim", "Pin Out, Throw"],
    },
}

# German titles for the German crews, put first in their pools.
DE_CREW_TITLES = {
    ("look", "sight"): ["Rundblick"], ("look", "acquire"): ["Ziel erkannt", "Entfernung achthundert"],
    ("look", "draw"): ["Funkspruch"], ("hide", "button"): ["Luken dicht"], ("hide", "cover"): ["Tarnen", "T:Motor aus"],
    ("hide", "any"): ["Stellung halten"], ("move", "move"): ["T:Panzer marsch", "T:Rückwärts fahren"],
    ("move", "turret"): ["T:Turm links"], ("move", "mount"): ["T:Aufsitzen"],
    ("shoot", "load"): ["Panzergranate", "Sprenggranate", "Geladen"], ("shoot", "vehicle shoot"): ["Schuss!"],
}


def title_key(card: Card) -> str:
    if not card.team or " " not in card.team[0][1]:
        return "any"
    who, do = card.team[0][1].split()
    return f"{who} {do}" if do == "shoot" else do


def assign_titles(cards: list[Card], nat: str, rng: random.Random, taken: set[str],
                  source: dict[str, dict[str, list[str]]] = CREW_TITLES) -> None:
    """Every card gets a title that fits its bubble and its crew's weapon; none repeats on a side."""
    pools: dict[tuple[str, str], list[str]] = {}
    for action, keyed in source.items():
        for key, titles in keyed.items():
            pool = list(titles)
            rng.shuffle(pool)
            if nat == "DE":
                pool = DE_CREW_TITLES.get((action, key), []) + pool
            pools[(action, key)] = pool
    used = set(taken)

    def take(action: str, key: str, gun: bool) -> str | None:
        for i, raw in enumerate(pools.get((action, key), [])):
            mark, _, bare = raw.partition(":") if raw[:2] in ("T:", "G:") else ("", "", raw)
            if (mark == "T" and gun) or (mark == "G" and not gun) or bare in used:
                continue
            pools[(action, key)].pop(i)
            used.add(bare)
            return bare
        return None

    for c in cards:
        action, gun = c.actions[0], is_gun(c.owner)
        title = take(action, title_key(c), gun) or take(action, "any", gun)
        for key in list(source[action]):
            title = title or take(action, key, gun)
        if title is None:
            raise SystemExit(f"out of {action} titles for the {nat} crews")
        c.title = title


# ---------------------------------------------------------------------------- bubbles and boxes

# Crew and vehicle entries by action, with the roles that fit them (None: any role).
CREW_DO = {
    "look": [("crew", "sight", None, 4), ("crew", "unbutton", None, 3), ("crew", "acquire", ("gunner", "commander"), 3),
             ("crew", "draw", ("radio", "commander"), 2)],
    "hide": [("crew", "button", None, 4), ("vehicle", "hulldown", ("driver", "commander"), 2),
             ("vehicle", "cover", ("driver", "commander"), 2), ("crew", "cover", None, 2)],
    "move": [("vehicle", "move", ("driver", "commander"), 5), ("vehicle", "turret", ("gunner", "commander"), 3),
             ("crew", "shift", None, 2), ("crew", "repair", None, 2), ("crew", "extinguish", None, 1),
             ("vehicle", "unpin", ("driver",), 1), ("crew", "dismount", None, 1), ("crew", "mount", None, 1)],
    "shoot": [("crew", "load", ("loader", "commander"), 5), ("vehicle", "shoot", ("gunner", "commander"), 4),
              ("crew", "shoot", None, 3), ("crew", "toss", None, 1)],
}
# A gun has no hull to drive, no turret and no hatches: its crew's bubbles turn the gun, dig in and serve it.
GUN_DO = {
    "look": [("crew", "sight", None, 4), ("crew", "acquire", ("gunner", "commander"), 3),
             ("crew", "draw", ("commander",), 1)],
    "hide": [("crew", "cover", None, 4), ("vehicle", "hulldown", ("commander",), 2), ("vehicle", "cover", None, 2)],
    "move": [("vehicle", "face", ("gunner", "commander"), 4), ("crew", "shift", None, 3), ("crew", "repair", None, 2),
             ("crew", "extinguish", None, 1)],
    "shoot": [("crew", "load", ("loader", "commander"), 5), ("vehicle", "shoot", ("gunner", "commander"), 4),
              ("crew", "shoot", None, 3)],
}
SOLDIER_DO = {"look": [("sight", 1)], "hide": [("cover", 7), ("rally", 3)], "move": [("move", 9), ("face", 1)],
              "shoot": [("shoot", 8), ("toss", 2)]}
CREW_ENTRY_SHARE = 0.55
MULTI_COUNT = {"sight", "unbutton", "button", "cover", "shoot", "move", "shift", "mount", "dismount"}

WHITE_KINDS = {
    "look": [("sight", 5), ("draw", 3)],
    "hide": [("cover", 4), ("hold", 2), ("rally", 1)],
    "move": [("repair", 4), ("extinguish", 2), ("move", 2), ("sight", 1)],
    "shoot": [("load", 4), ("shoot", 3), ("sight", 1)],
}
BLUE_KINDS = {
    "look": [("sight", 2), ("spotted", 2), ("draw_cards", 2)],
    "hide": [("cover", 2), ("draw_cards", 1)],
    "move": [("move", 3), ("repair", 2), ("spotted", 1)],
    "shoot": [("shoot", 3), ("load", 2), ("spotted", 1)],
}
RED_KINDS = [("discard", 3), ("unpinned", 2), ("unspotted", 2), ("in_cover", 1), ("healthy", 2)]

NOTES = {
    ("white", "draw"): ["{n} may take one more card.", "{n} may pull an extra card."],
    ("white", "sight"): ["{n} may look for a target.", "{n} may sweep the ground ahead."],
    ("white", "cover"): ["{n} may duck out of sight.", "{n} may get behind something solid."],
    ("white", "rally"): ["{n} may talk a pinned man round."],
    ("white", "hold"): ["{n} may save a card for later."],
    ("white", "move"): ["{n} may shift first.", "{n} may change places before the others."],
    ("white", "shoot"): ["{n} may let off a burst.", "{n} may fire his own weapon."],
    ("white", "repair"): ["{n} may work on one wrecked part.", "{n} may patch up a wrecked location."],
    ("white", "extinguish"): ["{n} may beat out one fire.", "{n} may turn the extinguisher on a fire."],
    ("white", "load"): ["{n} may move a round one step toward the breech.", "{n} may ram a round home."],
    ("blue", "sight"): ["{n} must stop and look around.", "{n} must put his eye to the glass."],
    ("blue", "cover"): ["{n} must get his head down.", "{n} must drop below the rim."],
    ("blue", "move"): ["{n} must move at once.", "{n} must change places now."],
    ("blue", "shoot"): ["{n} must fire at the nearest spotted target.", "{n} cannot wait: he fires."],
    ("blue", "repair"): ["{n} must see to the damage first.", "{n} must climb out to the broken part."],
    ("blue", "load"): ["{n} must load before anything else.", "{n} must pass a round up."],
    ("blue", "spotted"): ["{n} stands up in the open and is seen.", "{n} waves an arm and gives himself away."],
    ("blue", "draw_cards"): ["{n} thinks ahead: draw {cards}.", "{n} reads the fight: draw {cards}."],
    ("red", "discard"): ["Pay {cards} from the hand or lose this card.", "Costs {cards} from the hand first."],
    ("red", "unpinned"): ["Only if {n} is not pinned.", "Only while {n} keeps his head (not pinned)."],
    ("red", "unspotted"): ["Only if {n} has not been seen.", "Only while the enemy has not marked {n}."],
    ("red", "in_cover"): ["Only if {n} is in cover."],
    ("red", "healthy"): ["Only if {n} is unhurt.", "Needs {n} without a wound."],
}

# Rank-card actions by crew role (private rank) — what each man does most in his post.
ROLE_WEIGHTS = {
    "driver": {"look": 2, "hide": 2, "move": 5, "shoot": 1},
    "gunner": {"look": 3, "hide": 1, "move": 2, "shoot": 5},
    "loader": {"look": 1, "hide": 2, "move": 2, "shoot": 5},
    "radio": {"look": 5, "hide": 2, "move": 1, "shoot": 2},
    "spotter": {"look": 5, "hide": 3, "move": 1, "shoot": 1},
    "commander": {"look": 3, "hide": 2, "move": 2, "shoot": 2},
}


def is_gun(c: Crewman) -> bool:
    return c.vehicle in ("57mm-m1", "pak-40")


def make_team(card: Card, man: Crewman, rng: random.Random) -> None:
    leader_card = card.group in ("junior_nco", "senior_nco")
    if not leader_card and rng.random() > TEAM_SHARE:
        return
    action = card.actions[0]
    if card.group == "senior_nco":
        count = rng.choice((2, 3, 3))
    elif card.group == "junior_nco":
        count = rng.choice((2, 2, 3))
    else:
        count = rng.choices((1, 2, 3), weights=(30, 45, 25))[0]
    table = GUN_DO if is_gun(man) else CREW_DO
    if rng.random() < CREW_ENTRY_SHARE:
        options = [(f"{who} {do}", w) for who, do, roles, w in table[action] if roles is None or man.role in roles]
        who, do = weighted(rng, options).split()
        n = count if (do in MULTI_COUNT and who == "crew") else 1
        card.team = [(n, f"{who} {do}")]
        # a loader who loads may hand the shot on; a driver who drives may look about
        if rng.random() < 0.25:
            follow = {"load": "crew shoot", "move": "crew sight", "acquire": "vehicle shoot", "turret": "vehicle shoot",
                      "unbutton": "crew sight", "repair": "crew shift"}.get(do)
            if follow:
                card.team.append((1, follow))
        return
    do = weighted(rng, SOLDIER_DO[action])
    if do in ("rally", "toss", "face"):
        count = min(count, 2)
    if do == "rally" and not leader_card:
        do = "cover"
    if do == "toss" and man.grenades == 0:
        do = "shoot"
    card.team = [(count, do)]


def make_note(card: Card, man: Crewman, rng: random.Random, color: str) -> None:
    action = card.actions[0]
    if color == "white":
        options = [(k, w) for k, w in WHITE_KINDS[action] if not (k == "rally" and not man.leader)]
        kind = weighted(rng, options)
    elif color == "blue":
        kind = weighted(rng, BLUE_KINDS[action])
    else:
        kind = weighted(rng, RED_KINDS)
    count = rng.choice((1, 1, 2)) if kind in ("draw_cards", "discard") else 1
    text = rng.choice(NOTES[(color, kind)]).format(n=man.name, cards=f"{count} card" + ("s" if count > 1 else ""))
    card.note = {"color": color, "kind": kind, "count": count, "text": text}
    card.quality += {"red": 0.12, "blue": 0.06 if kind == "spotted" else -0.02, "white": -0.04}[color]


def jitter(rng: random.Random) -> dict[str, int]:
    return {"sight": rng.choice((-1, 0, 0, 1)), "cover": rng.choice((-1, 0, 0, 1)), "long": rng.choice((0, 0, 1)),
            "close": rng.choice((0, 0, 1)), "w_sight": rng.choice((1, 2)), "w_close": rng.choice((1, 2))}


def ratings(man: Crewman, rank: str, jit: dict[str, int]) -> tuple[dict, dict]:
    """A crewman on foot: walks 5 (Crew as Soldiers), fights 1-2, short-ranged small arms."""
    t = set(man.traits)
    long_, short, close, hit_plus = WEAPONS[man.weapon]
    sight = 13 + 2 * ("sharp" in t) + (man.role in ("gunner", "commander", "spotter")) + jit["sight"]
    cover = 3 + ("clumsy" in t) + ("slow" in t) - 2 * ("sneaky" in t) - ("steady" in t) + jit["cover"]
    climb = 2 if "quick" in t else 1
    fight = 1 + ("brawler" in t or "tough" in t)
    long_ += ("sharp" in t) + jit["long"]
    short += ("steady" in t and short < 5)
    close += ("brawler" in t) + jit["close"]
    toss = clamp(6 + ("tough" in t) + ("brawler" in t), 6, 8) if man.grenades else 0
    draw = rally = hold = 0
    if man.role == "radio":
        draw, hold = 1, 1
    if rank == "junior_nco":
        sight += 1
        cover -= 1
        draw, rally, hold = 1, 1 + ("steady" in t), 1
    elif rank == "senior_nco":
        sight += 2
        cover -= 1
        short += 1
        draw, rally, hold = 1 + ("sharp" in t), 2 + ("steady" in t), 1 + ("tough" in t or "sharp" in t)
        fight = 2
    healthy = {"sight": clamp(sight, 10, 18), "draw": draw, "cover": clamp(cover, -1, 6), "rally": clamp(rally, 0, 3),
               "hold": clamp(hold, 0, 2), "walk": 5, "climb": climb, "fight": clamp(fight, 1, 2),
               "long": clamp(long_, 7, 14), "short": clamp(short, 3, 7), "close": clamp(close, 6, 12), "toss": toss}
    if hit_plus:
        healthy["hit_plus"] = True
    w = dict(healthy)
    w["sight"] -= jit["w_sight"]
    w["cover"] += 1
    w["walk"] = 4
    w["fight"] = max(1, w["fight"] - 1)
    w["long"] -= 2
    w["short"] = max(2, w["short"] - 1)
    w["close"] -= jit["w_close"]
    if w["toss"]:
        w["toss"] -= 2
    w["draw"] = max(0, w["draw"] - (rank == "senior_nco" and w["draw"] > 1))
    w["rally"] = max(0, w["rally"] - 1)
    w["hold"] = max(0, w["hold"] - (w["hold"] > 1))
    if "tough" in t:
        w["fight"] = healthy["fight"]
    elif "jumpy" in t:
        w["cover"] = healthy["cover"] - 1
    return healthy, w


def vp_for(man: Crewman, rank: str, h: dict) -> int:
    """On foot a crewman is worth a little less than a rifleman of the same eyes: he walks 5 and
    fights 1-2. His worth to the vehicle is in the vehicle's own VP."""
    score = 2.5 + (h["sight"] - 13) / 3 + (3 - h["cover"]) / 3 + (h["fight"] - 1) / 2 + (h["long"] - 9) / 4 \
        + 0.5 * (man.grenades > 0) + 1.2 * h["draw"] + 0.6 * h["rally"] + 0.5 * h["hold"]
    if rank == "junior_nco":
        return clamp(round(score - 0.5), 6, 8)
    if rank == "senior_nco":
        return clamp(round(score + 0.5), 8, 11)
    if h.get("hit_plus"):
        return clamp(round(score + 2), 5, 7)
    return clamp(round(score), 2, 5)


def build_side(nat: str, rng: random.Random, taken_titles: set[str], roster: list[Crewman] | None = None,
               titles: dict[str, dict[str, list[str]]] = CREW_TITLES,
               seed: int = SEED) -> tuple[list[Crewman], dict[int, dict]]:
    roster = ROSTER[nat] if roster is None else roster
    cards: list[Card] = []
    per: dict[int, dict] = {}
    for man in roster:
        entry = {"man": man, "core": [], "ranks": []}
        core_actions = list(ACTIONS)
        rng.shuffle(core_actions)
        entry["core"] = [Card(owner=man, actions=[a], group="core") for a in core_actions]
        ranks = ["private", "junior_nco", "senior_nco"] if man.leader else ["private"]
        jit = jitter(rng)
        for rank in ranks:
            if rank == "private":
                acts = pick_distinct(rng, ROLE_WEIGHTS[man.role], 3)
            elif rank == "junior_nco":
                acts = ["hide", "look", rng.choice(("move", "shoot"))]
            else:
                acts = ["hide", rng.choice(("look", "move")), rng.choice(("move", "shoot"))]
            rank_cards = [Card(owner=man, actions=[a], group=rank,
                               quality={"private": 0.0, "junior_nco": 0.05, "senior_nco": 0.1}[rank]) for a in acts]
            h, w = ratings(man, rank, jit)
            vp = vp_for(man, rank, h)
            if entry["ranks"]:
                vp = max(vp, entry["ranks"][-1]["vp"] + 1 + (rank == "senior_nco"))
            entry["ranks"].append({"rank": rank, "title": TITLES[nat][rank], "vp": vp, "healthy": h, "wounded": w,
                                   "cards": rank_cards})
        for c in entry["core"] + [c for p in entry["ranks"] for c in p["cards"]]:
            make_team(c, man, rng)
            u = rng.random()
            if u < NOTE_SHARE:
                color = "white" if u < NOTE_SHARE * 0.5 else "blue" if u < NOTE_SHARE * 0.8 else "red"
                make_note(c, man, rng, color)
            cards.append(c)
        per[man.serial] = entry
    deal_hits(cards, rng)
    deal_damage(cards, rng)
    assign_titles(cards, nat, rng, taken_titles, titles)
    for man in roster:
        per[man.serial]["medals"] = more_medals(per[man.serial]["core"], [], man, seed, notes=NOTES,
                                                white_kinds=WHITE_KINDS, bump=crew_bump)
    return roster, per


def crew_bump(count: int, do: str) -> int:
    """A medal adds a man to a bubble entry that counts men; a vehicle's entry stays one."""
    who, _, what = do.rpartition(" ")
    return min(3, count + 1) if who in ("", "crew") and (not who or what in MULTI_COUNT) else count


def side_yaml(nat: str, roster: list[Crewman], per: dict[int, dict], seed: int, army: str | None = None) -> str:
    out = [f"# {army or ARMY[nat]}: dog tags {roster[0].serial}-{roster[-1].serial}.",
           f"# First drawn by tools/make_crews.py (seed {seed}); see docs/vehicles-content.md. Each crewman is",
           "# trained on one vehicle or gun (crew.vehicle, an id in assets/vehicles/) for one role.",
           "soldiers:"]
    for man in roster:
        e = per[man.serial]
        out.append(f"  # {man.bio} ({man.vehicle}, {man.post})")
        out.append(f"  - serial: {man.serial}")
        out.append(f"    name: {man.name}")
        out.append(f"    nationality: {nat}")
        out.append(f"    crew: {{role: {man.role}, vehicle: {man.vehicle}}}")
        out.append(f"    weapon: {man.weapon}")
        out.append(f"    grenades: {man.grenades}")
        out.append("    core:")
        out += [f"      - {card_yaml(c)}" for c in e["core"]]
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
    infantry = {t for pool in CARD_TITLES.values() for t in pool} | {t for pool in DE_TITLES.values() for t in pool} \
        | set(MEDAL_TITLES)
    files = {}
    for nat, name in (("US", "us_crew"), ("DE", "de_crew")):
        rng = random.Random(f"{seed}-{nat}-crew")
        roster, per = build_side(nat, rng, infantry, seed=seed)
        files[ROOT / "assets" / "soldiers" / f"{name}.yaml"] = side_yaml(nat, roster, per, seed)
        if nat in SECOND_ROSTER:
            first = {c.title for e in per.values() for c in e["core"] + [c for p in e["ranks"] for c in p["cards"]]}
            rng = random.Random(f"{seed}-{nat}-crew-2")
            roster, per = build_side(nat, rng, infantry | first, SECOND_ROSTER[nat], SECOND_TITLES, seed)
            files[ROOT / "assets" / "soldiers" / f"{name}_2.yaml"] = side_yaml(nat, roster, per, seed,
                                                                              SECOND_ARMY[nat])
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
