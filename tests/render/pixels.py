"""Reading a drawn picture's pixels in tests: which colours a part holds, and how many of each."""
from __future__ import annotations

from PIL import Image


def colours(img: Image.Image) -> list[tuple[int, tuple[int, ...]]]:
    """Each colour of `img` with its pixel count. No image has more colours than pixels, so that
    bound is Pillow's `maxcolors`; 1 << 24 made it clear a 16-million-entry table, 0.2 s a call."""
    return img.getcolors(max(1, img.width * img.height)) or []


def count(img: Image.Image, box, colour) -> int:
    """The pixels of exactly `colour` inside `box` (left, top, right, bottom)."""
    return sum(n for n, c in colours(img.crop(tuple(round(v) for v in box))) if c == colour)
