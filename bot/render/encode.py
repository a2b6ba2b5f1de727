"""Pictures to bytes: PNG, or JPEG when a PNG would not fit Discord's upload limit.

PNG at compress_level 1: on our pictures (large flat areas) nearly all of the encoder's time
goes to choosing row filters, which every level pays; level 1 keeps the zlib part cheapest
(about 200 KiB for the largest board), level 6 costs half as much time again for 18% fewer
bytes, and level 9 several times as much. Size is no concern under a 10 MiB limit.
"""
from __future__ import annotations

import io

from PIL import Image

PNG_LEVEL = 1
DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024  # Discord's default per-file limit


def png_bytes(img: Image.Image, level: int = PNG_LEVEL) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=level)
    return out.getvalue()


def jpeg_bytes(img: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    img.convert("RGB").save(out, "JPEG", quality=quality, optimize=True)
    return out.getvalue()


def for_upload(img: Image.Image, limit: int = DEFAULT_UPLOAD_LIMIT) -> bytes:
    """PNG if it fits the limit, else the best JPEG that does (halving the size as a last resort)."""
    data = png_bytes(img)
    if len(data) <= limit:
        return data
    while True:
        for quality in (90, 80, 65, 50):
            data = jpeg_bytes(img, quality)
            if len(data) <= limit:
                return data
        if min(img.size) < 64:
            return data
        img = img.resize((img.width // 2, img.height // 2), Image.Resampling.LANCZOS)


def image_ext(data: bytes) -> str:
    """The file extension for encoded bytes ("png" or "jpg"), for the upload's file name."""
    return "png" if data[:8] == b"\x89PNG\r\n\x1a\n" else "jpg"
