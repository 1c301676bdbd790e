"""Drawing for ``render_mode="rgb_array"``, numpy only: filled blocks, frames and text.

Images are ``uint8`` arrays of shape ``(height, width, 3)``. Text uses a 5x8 bitmap font
(:data:`GLYPHS`, printable ASCII, columns as bytes with bit 0 at the top), one cell
:data:`CELL_W` x :data:`CELL_H` pixels per character, scaled by an integer. Each game's
``render.py`` lays out its board with these helpers at a fixed frame size, so every frame of an
env has the same shape (video recorders need that).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np

Color = tuple[int, int, int]
CELL_W, CELL_H = 6, 10  # a 5x8 glyph plus spacing

# Printable ASCII 0x20..0x7E, five column bytes each (bit 0 = top row).
_FONT_HEX = (
    "0000000000 00005f0000 0007000700 147f147f14 242a7f2a12 2313086462 3649562050 0008070300"
    " 001c224100 0041221c00 2a1c7f1c2a 08083e0808 0080703000 0808080808 0000606000 2010080402"
    " 3e5149453e 00427f4000 7249494946 2141494d33 1814127f10 2745454539 3c4a494931 4121110907"
    " 3649494936 464949291e 0000140000 0040340000 0008142241 1414141414 0041221408 0201590906"
    " 3e415d594e 7c1211127c 7f49494936 3e41414122 7f4141413e 7f49494941 7f09090901 3e41415173"
    " 7f0808087f 00417f4100 2040413f01 7f08142241 7f40404040 7f021c027f 7f0408107f 3e4141413e"
    " 7f09090906 3e4151215e 7f09192946 2649494932 03017f0103 3f4040403f 1f2040201f 3f4038403f"
    " 6314081463 0304780403 6159494d43 007f414141 0204081020 004141417f 0402010204 4040404040"
    " 0003070800 2054547840 7f28444438 3844444428 384444287f 3854545418 00087e0902 18a4a49c78"
    " 7f08040478 00447d4000 2040403d00 7f10284400 00417f4000 7c04780478 7c08040478 3844444438"
    " fc18242418 18242418fc 7c08040408 4854545424 04043f4424 3c4040207c 1c2040201c 3c4030403c"
    " 4428102844 4c9090907c 4464544c44 0008364100 0000770000 0041360800 0201020402"
)


def _glyphs() -> dict[str, np.ndarray]:
    out = {}
    for i, word in enumerate(_FONT_HEX.split()):
        cols = bytes.fromhex(word)
        g = np.zeros((8, 5), dtype=bool)
        for x, byte in enumerate(cols):
            for y in range(8):
                g[y, x] = bool(byte >> y & 1)
        out[chr(0x20 + i)] = g
    return out


GLYPHS: dict[str, np.ndarray] = _glyphs()
assert len(GLYPHS) == 95

# A palette the games share, so the three boards read alike.
BG: Color = (24, 26, 33)
PANEL: Color = (40, 44, 56)
TITLE: Color = (70, 78, 104)
TEXT: Color = (225, 228, 235)
DIM: Color = (150, 156, 170)
HIGHLIGHT: Color = (250, 204, 80)
GOOD: Color = (86, 178, 108)
BAD: Color = (200, 72, 72)


def canvas(width: int, height: int, color: Color = BG) -> np.ndarray:
    """A new ``(height, width, 3)`` uint8 image filled with ``color``."""
    img = np.empty((height, width, 3), dtype=np.uint8)
    img[:] = color
    return img


def fill(img: np.ndarray, x: int, y: int, w: int, h: int, color: Color) -> None:
    """A filled rectangle, clipped to the image."""
    H, W = img.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x1 > x0 and y1 > y0:
        img[y0:y1, x0:x1] = color


def frame(img: np.ndarray, x: int, y: int, w: int, h: int, color: Color, thickness: int = 1) -> None:
    """A rectangle's outline."""
    t = thickness
    fill(img, x, y, w, t, color)
    fill(img, x, y + h - t, w, t, color)
    fill(img, x, y, t, h, color)
    fill(img, x + w - t, y, t, h, color)


def text(img: np.ndarray, x: int, y: int, s: str, color: Color = TEXT, scale: int = 1, max_chars: int | None = None) -> int:
    """Draw ``s`` (one line) with its top-left at ``(x, y)``; returns the x after it. Characters
    outside printable ASCII show as ``?``; the text is cut at ``max_chars`` and at the image's edge."""
    H, W = img.shape[:2]
    if max_chars is not None:
        s = s[:max_chars]
    for ch in s:
        g = GLYPHS.get(ch, GLYPHS["?"])
        if scale > 1:
            g = np.repeat(np.repeat(g, scale, axis=0), scale, axis=1)
        gh, gw = g.shape
        x0, y0 = x + scale // 2, y + scale
        x1, y1 = min(x0 + gw, W), min(y0 + gh, H)
        if x0 >= W:
            break
        if x1 > x0 and y1 > y0 and x0 >= 0 and y0 >= 0:
            region = img[y0:y1, x0:x1]
            region[g[: y1 - y0, : x1 - x0]] = color
        x += CELL_W * scale
    return x


def panel(img: np.ndarray, x: int, y: int, w: int, h: int, title: str, lines: Sequence[str] | Sequence[tuple[str, Color]],
          bg: Color = PANEL, title_bg: Color = TITLE) -> None:
    """A titled panel of text lines (each a string, or ``(string, colour)``), cut to fit."""
    fill(img, x, y, w, h, bg)
    fill(img, x, y, w, CELL_H + 4, title_bg)
    text(img, x + 4, y + 2, title, HIGHLIGHT, max_chars=max(0, (w - 8) // CELL_W))
    cols = max(1, (w - 8) // CELL_W)
    rows = max(0, (h - CELL_H - 8) // CELL_H)
    wrapped: list[tuple[str, Color]] = []
    for line in lines:
        s, color = (line, TEXT) if isinstance(line, str) else line
        wrapped += [(part, color) for part in wrap(s, cols)]
    for i, (s, color) in enumerate(wrapped[:rows]):
        text(img, x + 4, y + CELL_H + 6 + i * CELL_H, s, color, max_chars=cols)


def wrap(s: str, cols: int) -> list[str]:
    """``s`` cut into lines of at most ``cols`` characters, at spaces where it can (a table row,
    wider than ``cols``, is cut instead: its columns would no longer line up)."""
    if len(s) <= cols or "  " in s.strip():
        return [s[:cols]]
    return textwrap.wrap(s, cols) or [""]


def bar(img: np.ndarray, x: int, y: int, w: int, h: int, fraction: float, color: Color, back: Color = BG) -> None:
    """A horizontal gauge: ``fraction`` (clipped to 0..1) of its width filled."""
    fill(img, x, y, w, h, back)
    fill(img, x, y, int(round(w * min(max(fraction, 0.0), 1.0))), h, color)


def sections(ansi: str) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """Split a game's ansi rendering into its header lines and its ``== title ==`` sections."""
    header: list[str] = []
    out: list[tuple[str, list[str]]] = []
    for line in ansi.split("\n"):
        if line.startswith("== ") and line.endswith(" =="):
            out.append((line[3:-3], []))
        elif out:
            out[-1][1].append(line)
        else:
            header.append(line)
    return header, out


def text_panels(img: np.ndarray, x: int, y: int, w: int, h: int, blocks: Sequence[tuple[str, Sequence[str]]], gap: int = 4) -> None:
    """Stack titled text panels in the box ``(x, y, w, h)``, each as tall as its lines (cut to fit;
    the last panel takes what is left)."""
    top = y
    for i, (title, lines) in enumerate(blocks):
        lines = [line for line in lines if line.strip()] or ["-"]
        left = y + h - top
        if left < 2 * CELL_H + 8:
            break
        cols = max(1, (w - 8) // CELL_W)
        want = CELL_H * (sum(len(wrap(line, cols)) for line in lines) + 1) + 10
        ph = left if i == len(blocks) - 1 else min(want, left)
        panel(img, x, top, w, ph, title, lines)
        top += ph + gap


def text_image(ansi: str, width: int = 960, height: int = 640) -> np.ndarray:
    """A game's ansi rendering as text on coloured panels, at a fixed size (for games without a board layout)."""
    img = canvas(width, height)
    header, blocks = sections(ansi)
    for i, line in enumerate(header[:3]):
        text(img, 6, 4 + i * CELL_H, line, HIGHLIGHT if i == 0 else TEXT)
    top = 8 + CELL_H * min(len(header), 3)
    text_panels(img, 4, top, width - 8, height - top - 4, blocks)
    return img
