"""Colours a reader can tell apart, including the one man in twelve who sees
colours differently.

Colour vision deficiency is simulated with the matrices of Machado, Oliveira and
Fernandes (2009, "A physiologically-based model for simulation of color vision
deficiency", severity 1.0) applied to linear sRGB; the difference two readers
see between two colours is CIEDE2000 (CIE 142-2001) in CIELAB under D65.
A difference under about 2 is hard to see at all; maps want 10 or more between
solid colours. Pure functions of ``#rrggbb`` strings.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

import msgspec

# Machado et al. 2009, severity 1.0: linear RGB -> linear RGB as seen.
VISION: Mapping[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}

RGB = tuple[float, float, float]
Lab = tuple[float, float, float]


def rgb(colour: str) -> RGB:
    """``#c0392b`` -> (192, 57, 43)."""
    text = colour.strip()
    if len(text) != 7 or text[0] != "#":
        raise ValueError(f"expected a colour like '#c0392b', found {colour!r}")
    return float(int(text[1:3], 16)), float(int(text[3:5], 16)), float(int(text[5:7], 16))


def mix(colour: str, other: str, share: float) -> str:
    """``share`` of ``colour`` and the rest of ``other``, as ``#rrggbb``."""
    a, b = rgb(colour), rgb(other)
    return "#" + "".join(f"{round(share * x + (1 - share) * y):02x}" for x, y in zip(a, b, strict=True))


def _linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 255.0 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def seen(colour: str, vision: str) -> RGB:
    """The colour as a reader with ``vision`` (a key of ``VISION``) sees it."""
    m = VISION[vision]
    lin = [_linear(c) for c in rgb(colour)]
    r, g, b = (_gamma(sum(m[i][j] * lin[j] for j in range(3))) for i in range(3))
    return r, g, b


def lab(colour: RGB) -> Lab:
    """sRGB (0-255) -> CIELAB (D65)."""
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(one: Lab, two: Lab) -> float:
    """CIEDE2000 colour difference."""
    l1, a1, b1 = one
    l2, a2, b2 = two
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dlp, dcp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    else:
        dhp = h2p - h1p
        if dhp > 180:
            dhp -= 360
        elif dhp < -180:
            dhp += 360
    dhp_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbp, cbp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    else:
        hbp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbp - 30))
        + 0.24 * math.cos(math.radians(2 * hbp))
        + 0.32 * math.cos(math.radians(3 * hbp + 6))
        - 0.20 * math.cos(math.radians(4 * hbp - 63))
    )
    d_theta = 30 * math.exp(-(((hbp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbp**7 / (cbp**7 + 25**7))
    sl = 1 + 0.015 * (lbp - 50) ** 2 / math.sqrt(20 + (lbp - 50) ** 2)
    sc = 1 + 0.045 * cbp
    sh = 1 + 0.015 * cbp * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp_big / sh) ** 2 + rt * (dcp / sc) * (dhp_big / sh))


def difference(one: str, two: str, vision: str = "normal") -> float:
    """How different two colours look to a reader with ``vision`` (CIEDE2000)."""
    return delta_e(lab(seen(one, vision)), lab(seen(two, vision)))


class ClosestPair(msgspec.Struct, frozen=True):
    vision: str
    first: str  # names, as given
    second: str
    difference: float


def closest_pairs(colours: Mapping[str, str], visions: Sequence[str]) -> list[ClosestPair]:
    """For each vision, the two named colours that look most alike to it."""
    out: list[ClosestPair] = []
    for vision in visions:
        pairs = (
            ClosestPair(vision, a, b, difference(colours[a], colours[b], vision))
            for a, b in itertools.combinations(sorted(colours), 2)
        )
        out.append(min(pairs, key=lambda p: p.difference))
    return out
