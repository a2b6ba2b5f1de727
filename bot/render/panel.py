"""What every picture has in common: a static layer worth caching and a dynamic layer over it.

The board is one panel; a soldier card is another; a vehicle panel (with the vehicles issue)
is one more subclass with its own static drawing (the compartments) and dynamic drawing
(crew, damage, ammunition), cached and encoded the same way.
"""
from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Hashable

from PIL import Image


class LayerCache:
    """Static layers by key (for the board: scenario + map digest + size), least recently used
    dropped first. Per process and never the source of truth: a miss only costs a redraw."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._layers: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], Image.Image]) -> Image.Image:
        with self._lock:
            layer = self._layers.get(key)
            if layer is not None:
                self._layers.move_to_end(key)
                self.hits += 1
                return layer
            self.misses += 1
        layer = make()
        with self._lock:
            self._layers[key] = layer
            self._layers.move_to_end(key)
            while len(self._layers) > self.size:
                self._layers.popitem(last=False)
        return layer

    def __len__(self) -> int:
        return len(self._layers)


class Panel(ABC):
    """One kind of picture drawn from an engine view."""

    def static_key(self, view) -> Hashable | None:
        """The cache key of the static layer, or None when the whole picture is dynamic."""
        return None

    @abstractmethod
    def draw_static(self, view) -> Image.Image:
        """The part that never changes during a game (for the board: the map and legend)."""

    @abstractmethod
    def draw_dynamic(self, view, img: Image.Image) -> None:
        """Draw this moment (figures, markers, header ...) onto a copy of the static layer."""

    def render(self, view, layers: LayerCache | None = None) -> Image.Image:
        key = self.static_key(view)
        if layers is not None and key is not None:
            base = layers.get(key, lambda: self.draw_static(view))
        else:
            base = self.draw_static(view)
        img = base.copy()
        self.draw_dynamic(view, img)
        return img
