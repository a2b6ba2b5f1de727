"""Colours, fonts and sizes shared by every picture.

Sides use the Okabe–Ito blue/orange pair, told apart by deuteranopes, protanopes and
tritanopes alike, and a shape as well (US round bases, German square ones), so nobody needs
the colour at all. The four action colours follow the cards (LOOK green, SHOOT pink-red,
HIDE blue, MOVE yellow) and every action badge carries its letter too.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

from engine.core.content import shipped_root

RGB = tuple[int, int, int]

# --------------------------------------------------------------------------- sides
SIDE_FILL: dict[str, RGB] = {"US": (0, 114, 178), "DE": (230, 159, 0)}
SIDE_TEXT: dict[str, RGB] = {"US": (255, 255, 255), "DE": (0, 0, 0)}
SIDE_SHAPE: dict[str, str] = {"US": "round", "DE": "square"}
SIDE_NAME: dict[str, str] = {"US": "American", "DE": "German"}
PRISONER_FILL: RGB = (150, 150, 150)

# --------------------------------------------------------------------------- actions
ACTION_ORDER = ("look", "shoot", "hide", "move")
ACTION_FILL: dict[str, RGB] = {
    "look": (0, 158, 115),    # bluish green
    "shoot": (204, 61, 110),  # pink-red, between the cards' pink and Okabe–Ito reddish purple
    "hide": (86, 180, 233),   # sky blue, lighter than the US side so the two never meet
    "move": (240, 228, 66),   # yellow
}
ACTION_TEXT: dict[str, RGB] = {"look": (255, 255, 255), "shoot": (255, 255, 255),
                               "hide": (0, 0, 0), "move": (0, 0, 0)}
ACTION_LETTER = {"look": "L", "shoot": "S", "hide": "H", "move": "M"}

# story card colours (the phase card's own colour, shown as its stripe)
STORY_COLOUR: dict[str, RGB] = {"green": (74, 124, 67), "tan": (196, 164, 112), "grey": (128, 128, 128),
                                "red": (170, 50, 40)}

# --------------------------------------------------------------------------- terrain
# Light, low-contrast ground so that figures, markers and arrows stand out above it.
GROUND: dict[str, RGB] = {
    "open": (205, 222, 160), "field": (228, 214, 150), "orchard": (190, 214, 150),
    "woods": (160, 190, 130), "trees": (170, 198, 136), "hedgerow": (184, 206, 146),
    "village": (214, 206, 190), "farm": (218, 208, 172), "road": (212, 204, 176),
    "marsh": (176, 204, 180), "stream": (192, 214, 170), "pond": (196, 216, 176),
    "church": (210, 206, 196), "cemetery": (200, 206, 180), "mill": (206, 210, 182),
    "bridge": (200, 212, 170), "garden": (196, 222, 160), "embankment": (206, 200, 160),
}
GROUND_DEFAULT: RGB = (205, 218, 165)
COVER_FILL: RGB = (104, 140, 74)
COVER_HATCH: RGB = (66, 96, 46)
BUILDING_FILL: RGB = (150, 110, 92)
BUILDING_EDGE: RGB = (70, 48, 40)
NOMOVE_FILL: RGB = (70, 66, 62)
NOMOVE_HATCH: RGB = (20, 20, 20)
ROAD_FILL: RGB = (236, 226, 200)
ROAD_EDGE: RGB = (180, 166, 130)
WATER_FILL: RGB = (110, 170, 215)
WATER_WAVE: RGB = (60, 120, 175)
AREA_EDGE: RGB = (120, 80, 40)

TILE_EDGE: RGB = (60, 60, 52)
LANDMARK_EDGE: RGB = (110, 70, 20)
GRID: RGB = (0, 0, 0)
GRID_ALPHA = 22  # of 255: an inch grid you can count on but that does not clutter
DEPLOY_EDGE: RGB = (70, 70, 70)

SMOKE_FILL: RGB = (235, 235, 235)
FIRE_FILL: RGB = (213, 94, 0)
FIRE_CORE: RGB = (255, 200, 40)

# --------------------------------------------------------------------------- markers and trail
SPOTTED_FILL: RGB = (255, 255, 255)
SPOTTED_MARK: RGB = (0, 0, 0)
PINNED_FILL: RGB = (20, 20, 20)
PINNED_TEXT: RGB = (255, 255, 255)
WOUNDED_FILL: RGB = (255, 255, 255)
WOUNDED_MARK: RGB = (200, 30, 30)
CONTACT_FILL: RGB = (120, 20, 20)
ESCORT_FILL: RGB = (90, 90, 90)
SHOT_LINE: RGB = ACTION_FILL["shoot"]
BLAST_FILL: RGB = (213, 94, 0)
KIA_MARK: RGB = (40, 40, 40)

PAPER: RGB = (246, 242, 230)
INK: RGB = (28, 28, 28)
MUTED: RGB = (110, 110, 110)
HIGHLIGHT: RGB = (204, 0, 153)  # a seat's own order landmark in his private picture


FONT_DIR = shipped_root() / "assets" / "fonts"  # the package's own fonts, wherever it is installed
FONT_FILES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Condensed, shipped in assets/fonts: narrow enough for tile labels and with
    the accents of French place names (Pillow's own default font has none)."""
    try:
        return ImageFont.truetype(str(FONT_DIR / FONT_FILES[bold]), size)
    except OSError:  # a checkout without the fonts still draws, in Pillow's own font
        return ImageFont.load_default(size=size)  # type: ignore[return-value]
