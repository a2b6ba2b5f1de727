"""Steel Wheels WWII v2.4 game charts, transcribed as data (numbers from the charts, labels ours).

Cells that are effects are written as short codes joined by "+" and rendered by
`steel_wheels.describe`: a number N means N killed, `dead` the whole crew killed, `ct` a
courage test, `brief`/`slow` limited to brief/slow moves, `immobile`, `out` (knocked out),
`boom` (blown up), `saved` (crew unhurt) and so on; see `steel_wheels.WORDS`.
Where our copy of the charts is damaged, the cell chosen is named in docs/rolls.md.
"""
from __future__ import annotations

# Combat skill (CS) and commander rank (CR) values.
COMBAT_SKILL = {"recruit": 0, "skilled": 1, "veteran": 2, "elite": 3}
COMMANDER_RANK = {"corporal": 0, "sergeant": 1, "lieutenant": 2, "captain": 3}

# Tests chart: the die to beat (None = an opposed D6), whether CR counts, and whether a tie wins.
TESTS = {
    "RT": {"against": None, "cr": True, "tie_wins": False, "what": "readiness: who acts first"},
    "DFR": {"against": 10, "cr": True, "tie_wins": True, "what": "direct fire request"},
    "IFR": {"against": 12, "cr": True, "tie_wins": True, "what": "indirect fire request"},
    "CF": {"against": 10, "cr": True, "tie_wins": True, "what": "can't fire: keep the fire turn after a hit"},
    "CT": {"against": 8, "cr": True, "tie_wins": True, "what": "courage"},
    "PT": {"against": 10, "cr": False, "tie_wins": True, "what": "precision: hand bombs, open tops"},
    "DT": {"against": 10, "cr": False, "tie_wins": True, "what": "dodge: rams, mines, wire"},
    "MC": {"against": None, "cr": False, "tie_wins": False, "what": "melee combat"},
}

# Minefield effects, D6 1-6 per unit column.
MINEFIELD = {
    "tank": ("-", "track", "track", "track", "immobile", "out+saved"),
    # row 6 is blank in our copy: the cell above carries down (docs/rolls.md)
    "armored-car": ("immobile", "immobile", "immobile", "out+saved", "out+dead", "out+dead"),
    "truck": ("out+2", "out+3", "out+4", "out+dead", "boom", "boom"),
    "infantry": ("1", "1", "2", "2", "3", "3"),
}

# Terrain effects: shelter, then the move allowed for tanks, half-tracks, armoured cars,
# trucks/tractors, jeeps/cars, bikes, artillery, infantry/mortars.
TERRAIN_UNITS = ("tank", "half-track", "armored-car", "truck", "jeep", "bike", "artillery", "infantry")
TERRAIN = {
    "flat-clear": ("none", "T T T T T T T T"),
    "flat-crops": ("none", "T T B B B B B T"),
    "flat-trees": ("soft", "B B B S B S S T"),
    "flat-rough": ("medium", "B S S S S S X B"),
    "slope-clear": ("soft", "B B B B B B S B"),
    "slope-trees": ("soft", "S S X X X X X B"),
    "slope-rocks": ("medium", "X X X X X X X B"),
    "cliffs": ("medium", "X X X X X X X S+dt"),
    "hilltop-clear": ("none", "T T T T T T T T"),
    "hilltop-trees": ("soft", "B B B S B S S T"),
    "ford": ("none", "B B S S S S S B"),
    "swamp": ("soft", "X X X X X X X S"),
    "stream": ("none", "X X X X X X X X"),
    "brick-house": ("medium", "X X X X X X X T"),
    "wooden-house": ("soft", "B+ruins X X X X X X T"),
    "wall": ("medium", "B+remove S+remove X X X X X B"),
    "hedges": ("none", "T+remove T+remove T+remove T+remove S X S B"),
    "bunker": ("hard", "X X X X X X X T"),
    "trenches": ("medium", "S X X X X X X T"),
    "sandbags": ("medium", "B+remove S+remove X X X X X T"),
    "anti-tank-obstacles": ("soft", "X X X X X S X T"),
    "barbed-wire": ("none", "B+remove B+remove S X X X X S+dt"),
    "minefield": ("none", "S+dt S+dt S+dt S+dt S+dt S+dt S+dt S+dt"),
    "barricades": ("soft", "B+shift B+shift B+shift X X X X S"),
    "roads": ("none", "R2 R2 R3 R3 R3 R3 T T"),
}

# Spotting distances in cm, per target class, terrain group and target status, as
# (normal from outside the area, normal from inside, reduced outside, reduced inside).
# Infantry moving in houses or trenches uses SPOTTING_MOVING_BUILT_UP instead.
SPOTTING = {
    "big": {
        "open": {"stationary": (150, 150, 100, 100), "moving": (400, 400, 320, 320), "firing": (600, 600, 480, 480)},
        "cover": {"stationary": (60, 24, 40, 12), "moving": (180, 40, 120, 20), "firing": (240, 50, 180, 30)},
        "other": {"stationary": (100, 50, 80, 40), "moving": (300, 150, 240, 120), "firing": (500, 250, 400, 200)},
    },
    "small": {
        "open": {"stationary": (100, 100, 60, 60), "moving": (240, 240, 180, 180), "firing": (400, 400, 280, 280)},
        "cover": {"stationary": (40, 21, 20, 9), "moving": (120, 30, 80, 15), "firing": (180, 40, 160, 20)},
        "other": {"stationary": (80, 30, 40, 20), "moving": (160, 80, 120, 60), "firing": (300, 150, 200, 100)},
    },
    "infantry": {
        "open": {"stationary": (80, 80, 40, 40), "moving": (120, 120, 70, 70), "firing": (160, 160, 120, 120)},
        "cover": {"stationary": (20, 12, 10, 6), "moving": (40, 18, 20, 12), "firing": (80, 24, 40, 18)},
        "other": {"stationary": (40, 18, 20, 12), "moving": (80, 24, 40, 18), "firing": (140, 70, 80, 50)},
    },
}
SPOTTING_MOVING_BUILT_UP = (20, 12, 10, 6)  # infantry moving in houses or trenches
# Which terrain group each terrain falls in, per target class.
SPOTTING_GROUPS = {
    "big": {"clear": "open", "crops": "open", "roads": "open", "trees": "cover", "ruins": "cover",
            "houses": "cover", "trenches": "cover", "rocks": "other", "urban": "other", "rough": "other",
            "other": "other"},
    "infantry": {"clear": "open", "roads": "open", "trees": "cover", "rocks": "cover", "ruins": "cover",
                 "houses": "cover", "trenches": "cover", "rough": "other", "crops": "other", "urban": "other",
                 "other": "other"},
}
SPOTTING_GROUPS["small"] = SPOTTING_GROUPS["big"]

# Heavy weapons fire, one column per target: the cell for each row of D + CS against a
# stationary target (3 or less, 4, 5 ... 10, 11 or more); a moving target reads 3 rows lower.
FIRE = {
    "big-tank": "- body body turret track turret body choice choice",
    "tank": "- - body turret track turret body choice choice",
    "small-tank": "- - - body wheel|track turret body turret choice",
    "half-track": "- - - body track body body body choice",
    "truck": "- - wheel body body body body body body",
    "jeep": "- - - wheel body body body body body",
    "soldier": "- - - dead-s dead-m dead-m dead-h dead-h dead",
    "artillery": "- - - - shield shield shield gun gun",
    "building-1": "- hit hit hit hit hit hit hit hit",
    "building-2": "- - - hit hit hit hit hit hit",
    "building-3": "- - - - - hit hit hit hit",
    "building-4": "- - - - - - hit hit hit",
    "building-5": "- - - - - - - - hit",
}
FIRE_TARGETS = tuple(FIRE)

# Armour penetration rows by calibre band: the AP and HE/AA columns name each row's bands.
PEN_AP_BANDS = (None, None, (13, 20), (21, 30), (31, 40), (41, 50), (51, 60), (61, 70), (71, 80),
                (81, 90), (91, 106), (107, 122), (123, None))
PEN_HE_BANDS = ((11, 19), (20, 30), (31, 40), (41, 50), (51, 60), (61, 70), (71, 80), (81, 90),
                (91, 106), (107, 122), (123, 155), (156, 210), (211, None))
# Named guns and devices printed beside a row: (ammo column, row).
PEN_NAMED = {
    "2p": ("ap", 4), "50l": ("ap", 6), "6p-ap": ("ap", 7), "17-25p-ap": ("ap", 9), "75l": ("ap", 10),
    "88l": ("ap", 11), "hand-bomb": ("he", 2), "fragments": ("he", 3), "6p-he": ("he", 5),
    "explosive": ("he", 6), "17-25p-he": ("he", 7), "magnetic-mine": ("he", 8),
}
# Minimum die to penetrate, one entry per armour thickness column (cm; "17+" = 17 and up),
# listing the 13 calibre rows from the lightest down; "-" never penetrates.
PENETRATION = {
    "a": {
        "1": "9 7 6 5 4 4 3 3 2 2 1 1 1",
        "2": "- 11 9 8 7 6 5 4 3 3 2 1 1",
        "3": "- - 12 10 8 7 6 5 5 4 3 2 1",
        "4": "- - - 12 9 8 7 7 6 5 4 3 2",
        "5": "- - - - 12 10 9 8 7 6 5 4 3",
        "6": "- - - - - 11 10 9 8 7 6 5 4",
        "7": "- - - - - - 11 10 9 8 7 6 5",
        "8": "- - - - - - - 11 10 9 8 7 6",
        "9-10": "- - - - - - - - 12 10 9 8 7",
        "11-12": "- - - - - - - - - 11 10 9 8",
        "13-14": "- - - - - - - - - - 11 10 9",
        "15-16": "- - - - - - - - - - - 11 10",
        "17+": "- - - - - - - - - - - - 12",
    },
    "b": {
        "1": "7 6 4 3 1 1 1 1 1 1 1 1 1",
        "2": "12 9 6 5 3 1 1 1 1 1 1 1 1",
        "3": "- 12 8 7 5 2 1 1 1 1 1 1 1",
        "4": "- - 11 9 7 4 2 1 1 1 1 1 1",
        "5": "- - - 11 9 7 4 3 1 1 1 1 1",
        "6": "- - - - 10 9 6 5 3 1 1 1 1",
        "7": "- - - - 11 10 8 7 5 2 1 1 1",
        "8": "- - - - - 11 9 8 6 4 2 1 1",
        "9-10": "- - - - - - 11 10 8 6 4 3 2",
        "11-12": "- - - - - - - 12 11 8 6 5 3",
        "13-14": "- - - - - - - - 12 10 8 7 5",
        "15-16": "- - - - - - - - - 11 10 9 7",
        "17-18": "- - - - - - - - - - 12 11 9",
        "19+": "- - - - - - - - - - - 12 11",
    },
}

# Heavy weapons effects (D10), one column per part of the target hit, down the rows for a full
# shot of 1, 2-3, 4-5, 6, 7, 8, 9, 10; fragments read 1-3, 4-6, 7-9, 10 as the first four rows.
EFFECTS = {
    "open-top": "brief+dead main+dead out+dead out+dead out+dead boom boom boom",
    "tank-body": "brief+ct mg+1+ct slow+ct immobile+1+ct out+2+ct out+3+ct out+dead boom",
    "truck-body": "mg+2+ct immobile+3+ct out+4+ct out+5+ct out+6+ct out+dead boom boom",
    "turret": "mg+1+ct turret-jam+1+ct gun-lost+2+ct out+3+ct out+3+ct out+dead boom boom",
    "casemate": "gun-jam+1+ct gun-lost+2+ct gun-lost+3+ct out+3+ct out+dead out+dead boom boom",
    "track": "brief+ct slow+ct broken+ct broken+ct broken+1+ct broken+1+ct broken+1+ct broken+1+ct",
    "jeep-body": "immobile+1+ct immobile+2+ct out+dead out+dead out+dead boom boom boom",
    "wheel": "out+ct out+ct out+ct out+1+ct out+1+ct out+2+ct out+2+ct out+2+ct",
    "artillery": "gun-jam+1+ct carriage-jam+2+ct out+3+ct out+3+ct out+4+ct out+4+ct out+5+ct boom",
}
EFFECT_PARTS = tuple(EFFECTS)
EFFECT_FULL_ROW = (0, 1, 1, 2, 2, 3, 4, 5, 6, 7)  # D10 1..10 -> row
EFFECT_FRAGMENT_ROW = (0, 0, 0, 1, 1, 1, 2, 2, 2, 3)

# Light weapon fire against unarmoured vehicles. Columns by shots fired; rows by D + CS.
# Codes: N = N killed; bN/sN = brief/slow moves only + N killed + courage test;
# iN = immobilised + N killed + courage test; dN = knocked out + N killed + courage test;
# x = blown up, everyone aboard killed.
LW_SHOT_TOPS = (3, 7, 12, 18, 25, 33, 42, 52, 63, 75, None)  # most shots in each column; None = no limit
LW_VEHICLE = (
    "- - - - 1 1 2 2 b3 s3 i4",
    "- - - 1 1 2 2 b3 s3 i4 i4",  # last cell blank in our copy: the cell above carries down
    "- - - 1 1 2 b3 s3 i4 i4 d5",
    "- - 1 1 2 b3 s3 i4 i4 d5 d5",
    "- - 1 2 b2 s3 i4 i4 d5 d5 d6",
    "- 1 1 b2 s3 i4 i4 d5 d5 d6 d6",
    "- 1 2 b2 s3 i4 d5 d5 d6 d6 d7",
    "1 1 2 s3 i4 d5 d5 d6 d6 x x",
    "1 2 b3 i3 i5 d5 d6 x x x x",
    "1 2 s3 i4 d5 x x x x x x",  # the last cell spans the rest of the row
)
# Row index by D + CS: stationary 1-2, 3, 4 ... 10, 11+; moving 1-2, 3-4, 5-6, 7 ... 12, 13+.
LW_VEHICLE_STATIONARY = {1: 0, 2: 0, 3: 1, 4: 2, 5: 3, 6: 4, 7: 5, 8: 6, 9: 7, 10: 8}
LW_VEHICLE_MOVING = {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2, 7: 3, 8: 4, 9: 5, 10: 6, 11: 7, 12: 8}

# Light weapon fire against infantry/artillery: casualties as (no shelter, soft, medium/hard).
LW_INFANTRY_SHOT_TOPS = (3, 7, 12, 17, 23, 30, 39, 50, 62, 75, None)
LW_INFANTRY = (
    # three cells of this row are damaged in our copy; see docs/rolls.md
    "000 000 000 100 110 210 210 320 321 431 432",
    "000 000 000 110 210 210 320 321 431 432 542",
    "000 000 100 210 210 220 321 421 431 542 542",
    "000 000 110 210 310 321 421 431 532 542 643",
    "000 100 110 210 321 321 421 532 542 643 753",
    "000 110 210 321 321 421 531 532 642 753 853",
    "100 110 211 321 421 431 532 642 743 753 964",
    "110 211 221 321 421 532 632 643 753 864 10.6.4",
    "110 211 321 421 432 532 642 743 853 964 11.7.4",
    "111 221 321 432 532 642 743 853 964 10.7.4 12.8.5",
)
LW_INFANTRY_STATIONARY = {1: 0, 2: 0, 3: 1, 4: 2, 5: 3, 6: 4, 7: 5, 8: 6, 9: 7, 10: 8}
LW_INFANTRY_MOVING = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2, 7: 3, 8: 4, 9: 5, 10: 6, 11: 7, 12: 8}

# Incendiary weapons (D10 1-2, 3-4, 5, 6, 7, 8, 9, 10) by target.
INCENDIARY_TARGETS = ("tank", "truck", "jeep", "soldier")
INCENDIARY = {
    "tank": ("-", "quenched+sf", "quenched+sf", "1+ct", "immobile", "fire+saved+ct", "fire+dead", "boom"),
    "truck": ("quenched+sf", "2+ct", "4+ct", "fire+saved+ct", "fire+dead", "boom", "boom", "boom"),
    "jeep": ("quenched+sf", "2+ct", "fire+saved+ct", "fire+dead", "fire+dead", "boom", "boom", "boom"),
    "soldier": ("quenched+sf", "killed-mp", "killed-p", "killed", "killed", "killed", "killed", "killed"),
}
INCENDIARY_ROW = (0, 0, 1, 1, 2, 3, 4, 5, 6, 7)

# Effects against buildings (D10) by calibre column and building type.
BUILDING_TYPES = ("wooden", "brick", "palace", "bunker")
BUILDING = (
    ("blast", "blast", "blast", "blast"),
    ("blast", "blast", "blast", "floor"),
    ("floor", "blast", "blast", "floor"),
    ("fire", "floor", "floor", "floor"),
    ("collapse", "fire", "floor", "floor"),
    ("collapse", "collapse", "fire", "fire"),
    ("collapse", "collapse", "collapse", "collapse"),
)
# D10 1..10 -> row, for guns over 120 mm, over 70 mm and over 30 mm.
BUILDING_ROW = {
    120: (0, 0, 0, 0, 1, 2, 3, 4, 5, 6),
    70: (0, 0, 0, 0, 0, 1, 1, 2, 3, 4),
    30: (0, 0, 0, 0, 0, 0, 1, 1, 1, 2),  # the chart skips a 9 here; it joins 7-8 (docs/rolls.md)
}

# Communications: maximum distance (cm) with a clear and an interrupted sight line.
COMMS = {"crew": (16, 8), "platoon": (32, 16), "radio": (128, 64)}
COMMS_ALWAYS_CM = 8
COMMS_ENTRENCHED_CM = 128

# Heavy weapons scatter / inaccuracy: distance dice and direction die per situation.
SCATTER = {
    "missed-indirect": {"dice": (8,), "cr": False, "direction": 8, "from": "the model's edge"},
    "missed-hand": {"dice": (8,), "cr": False, "direction": 8, "from": "the model's edge"},
    "mortar-direct": {"dice": (10, 6), "cr": False, "direction": 10, "from": "the model's centre"},
    "on-board": {"dice": (12, 10), "cr": True, "direction": 10, "from": "the marked point"},
    "off-board": {"dice": (12, 12, 10), "cr": True, "direction": 10, "from": "the marked point"},
}
