"""A scene (``moonshine.picture.shapes``) drawn as PNG with Pillow: at twice the size
and scaled down to smooth the edges, the labels drawn once per map and kept in the
cache (``moonshine.cache``), the file written from the pixels (Pillow's public
``tobytes``) by zlib. Deterministic: same scene, same bytes."""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TypeAlias

import msgspec
from PIL import Image, ImageDraw, ImageFont

from moonshine.picture.shapes import (
    BACKGROUND,
    HALO,
    Circle,
    Group,
    Item,
    Label,
    Line,
    Paint,
    PictureError,
    Poly,
    Pt,
    Scene,
    cut_path,
    extent,
    path_length,
)

SUPERSAMPLE = 2


MIN_WIDTH, MAX_WIDTH = 300, 6000


@functools.lru_cache(maxsize=64)
def _font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _dashes(points: Sequence[Pt], on: float, off: float) -> list[tuple[Pt, ...]]:
    """Split a polyline into its dashes."""
    total = path_length(points)
    out: list[tuple[Pt, ...]] = []
    s = 0.0
    while s < total:
        out.append(
            cut_path(points, s, max(0.0, total - min(total, s + on))) if s + on < total else cut_path(points, s, 0.0)
        )
        s += on + off
    return out


def _blend(image: Image.Image, layer: Image.Image, at: tuple[int, int]) -> None:
    """Lay a translucent RGBA layer over ``image`` at ``at``: on the opaque canvas, its
    alpha as the mask; on another layer, alpha compositing."""
    if image.mode == "RGBA":
        image.alpha_composite(layer, at)
    else:
        image.paste(layer, at, layer)


class _Painter:
    """Draws a scene's items on an image whose top-left corner stands at ``origin`` (in
    pixels of the whole canvas); a translucent group is drawn on a layer just the size
    of what it holds, then blended in."""

    def __init__(self, scene: Scene, k: float, size: tuple[int, int] | None = None) -> None:
        self.k = k
        self.labels = scene.labels
        size = size or (max(1, round(scene.width * k)), max(1, round(scene.height * k)))
        self.image = Image.new("RGB", size, BACKGROUND)  # opaque: no alpha to carry or drop
        self.origin = (0, 0)

    def xy(self, p: Pt) -> tuple[float, float]:
        return p[0] * self.k - self.origin[0], p[1] * self.k - self.origin[1]

    def _layer_box(self, items: Sequence[Item], image: Image.Image) -> tuple[int, int, int, int] | None:
        """The pixel box (on ``image``) of a translucent group's layer; None if empty."""
        w, h = image.size
        bounds = extent(items)
        if bounds is None:
            return None
        pad = 3  # round caps, curved joints and anti-aliasing slack, in pixels
        x0 = max(0, math.floor(bounds[0] * self.k - self.origin[0]) - pad)
        y0 = max(0, math.floor(bounds[1] * self.k - self.origin[1]) - pad)
        x1 = min(w, math.ceil(bounds[2] * self.k - self.origin[0]) + pad)
        y1 = min(h, math.ceil(bounds[3] * self.k - self.origin[1]) + pad)
        if x0 >= x1 or y0 >= y1:
            return None
        return x0, y0, x1, y1

    def draw(self, items: Iterable[Item], image: Image.Image) -> None:
        self._draw(items, image, ImageDraw.Draw(image))

    def _draw(self, items: Iterable[Item], image: Image.Image, d: ImageDraw.ImageDraw) -> None:
        """``draw`` with the image's drawing context made once (a translucent group's
        layer has its own)."""
        for item in items:
            if isinstance(item, Group):
                if item.opacity < 1:
                    layer_box = self._layer_box(item.items, image)
                    if layer_box is not None:
                        x0, y0, x1, y1 = layer_box
                        layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
                        outer = self.origin
                        self.origin = (outer[0] + x0, outer[1] + y0)
                        try:
                            self.draw(item.items, layer)
                        finally:
                            self.origin = outer
                        table = [round(a * item.opacity) for a in range(256)]
                        layer.putalpha(layer.getchannel("A").point(table))
                        _blend(image, layer, (x0, y0))
                else:
                    self._draw(item.items, image, d)
            elif isinstance(item, Poly):
                self.poly(d, image, item)
            elif isinstance(item, Line):
                self.line(d, item.points, item.paint)
            elif isinstance(item, Circle):
                c, r = self.xy(item.centre), item.r * self.k
                box = (c[0] - r, c[1] - r, c[0] + r, c[1] + r)
                w = round(item.paint.width * self.k) if item.paint.stroke else 0
                d.ellipse(box, fill=item.paint.fill, outline=item.paint.stroke if w else None, width=w)
            else:
                self.text(d, image, item)

    def poly(self, d: ImageDraw.ImageDraw, image: Image.Image, item: Poly) -> None:
        k, (ox, oy) = self.k, self.origin
        rings = [[(x * k - ox, y * k - oy) for x, y in ring] for ring in item.rings]  # self.xy, inlined
        if item.paint.fill:
            if len(rings) == 1:
                d.polygon(rings[0], fill=item.paint.fill)
            else:
                xs = [p[0] for p in rings[0]]
                ys = [p[1] for p in rings[0]]
                x0, y0 = math.floor(min(xs)), math.floor(min(ys))
                x1, y1 = math.ceil(max(xs)) + 1, math.ceil(max(ys)) + 1
                mask = Image.new("L", (x1 - x0, y1 - y0), 0)
                md = ImageDraw.Draw(mask)
                for i, ring in enumerate(rings):
                    md.polygon([(x - x0, y - y0) for x, y in ring], fill=255 if i == 0 else 0)
                image.paste(item.paint.fill, (x0, y0, x1, y1), mask)
        if item.paint.stroke:
            for outline in item.rings:
                self.line(d, (*outline, outline[0]), Paint(stroke=item.paint.stroke, width=item.paint.width))

    def line(self, d: ImageDraw.ImageDraw, points: Sequence[Pt], paint: Paint) -> None:
        if not paint.stroke or len(points) < 2:
            return
        pieces = [tuple(points)] if paint.dash is None else _dashes(points, *paint.dash)
        w = paint.width * self.k
        k, (ox, oy) = self.k, self.origin
        for piece in pieces:
            pts = [(x * k - ox, y * k - oy) for x, y in piece]  # self.xy, inlined
            d.line(pts, fill=paint.stroke, width=max(1, round(w)), joint="curve")
            if w >= 2.5:
                r = w / 2
                for x, y in (pts[0], pts[-1]):
                    d.ellipse((x - r, y - r, x + r, y + r), fill=paint.stroke)

    def text(self, d: ImageDraw.ImageDraw, image: Image.Image, item: Label) -> None:
        size = round(item.size * self.k, 1)
        font = _font(size)
        anchor = {"start": "lm", "middle": "mm", "end": "rm"}[item.anchor]
        at = self.xy(item.at)
        base, marks = _shape_text(item.text)
        placed = _place_marks(font, base, marks, at, item.anchor, size) if marks else []
        bold = max(0, round(size * 0.035)) if item.bold else 0
        mark_w = size * (0.11 if item.bold else 0.085)
        if item.halo:
            halo = max(1, round(item.halo * self.k))
            _draw_text(d, image, at, base, size, anchor, halo, HALO, self.labels)
            for points, dot in placed:
                _draw_mark(d, points, dot, mark_w + 2 * halo, HALO)
        _draw_text(d, image, at, base, size, anchor, bold, item.colour, self.labels)
        for points, dot in placed:
            _draw_mark(d, points, dot, mark_w, item.colour)


SpriteKey: TypeAlias = tuple[str, float, int, str, float, float]  # text, size, stroke, anchor, x and y fractions


Sprite: TypeAlias = tuple[int, int, int, int, bytes]  # offset from the label's pixel, width, height, mask


MAX_SPRITES = 5000  # kept in the cache for one map: beyond, only those of the last process


_sprites: dict[str, dict[SpriteKey, Sprite]] = {}  # label cache name (Scene.labels) -> its sprites


_sprites_used: dict[str, set[SpriteKey]] = {}


_sprites_new: set[str] = set()  # the label caches this process drew new sprites into


_sprites_made = 0


def _sprite_cache_key() -> bytes:
    import sys

    from PIL import __version__ as pillow

    freetype = getattr(ImageFont.core, "freetype2_version", "")
    return f"labels 2 {pillow} {freetype} python {sys.version_info[:2]} {SUPERSAMPLE}".encode()


def _sprite_store(name: str) -> dict[SpriteKey, Sprite]:
    """The sprites of the label cache ``name``, read from the cache directory at first use."""
    store = _sprites.get(name)
    if store is None:
        from moonshine import cache

        found = cache.load_value("labels", _sprite_cache_key() + b" " + name.encode())
        store = _sprites[name] = found if isinstance(found, dict) else {}
    return store


def save_sprites() -> None:
    """Keep the labels drawn by this process (and what it learnt of the font's
    characters) in the cache directory, when it drew new ones."""
    global _sprites_made, _glyphs_made
    from moonshine import cache

    if _glyphs_made and _glyphs is not None:
        cache.store_value("glyphs", _sprite_cache_key(), _glyphs)
        _glyphs_made = 0
    for name in sorted(_sprites_new & set(_sprites)):
        store, used = _sprites[name], _sprites_used.get(name, set())
        kept = store if len(store) <= MAX_SPRITES else {k: store[k] for k in used}
        cache.store_value("labels", _sprite_cache_key() + b" " + name.encode(), kept)
    _sprites_new.clear()
    _sprites_made = 0


def _render_sprite(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, key: SpriteKey) -> Sprite | None:
    """The label's mask and its offset from the label's pixel; None for a label too
    large for any canvas (then it is drawn directly). A label the picture's edge cuts
    has its whole mask too: pasting clips it."""
    text, size, stroke, anchor, fx, fy = key
    span = int(size * (len(text) + 2)) + 4 * stroke + 8
    rise = int(2 * size) + 2 * stroke + 8
    while span < 100_000:
        w, h = 2 * span, 2 * rise
        canvas = Image.new("L", (w, h), 0)
        # at (span + fx, rise + fy): the label's fractions of a pixel, as on the picture
        draw = ImageDraw.Draw(canvas)
        draw.text(
            (span + fx, rise + fy), text, fill=255, font=font, anchor=anchor, stroke_width=stroke, stroke_fill=255
        )
        box = canvas.getbbox()
        if box is None:
            return 0, 0, 0, 0, b""
        if box[0] > 0 and box[1] > 0 and box[2] < w and box[3] < h:
            mask = canvas.crop(box)
            return box[0] - span, box[1] - rise, mask.width, mask.height, mask.tobytes()
        span, rise = 2 * span, 2 * rise  # the canvas was too small
    return None


def _draw_text(
    d: ImageDraw.ImageDraw,
    image: Image.Image,
    at: tuple[float, float],
    text: str,
    size: float,
    anchor: str,
    stroke: int,
    colour: str,
    labels: str,
) -> None:
    """``d.text`` with ``stroke_fill`` the same as ``fill``, by way of the label's sprite
    (kept in the label cache ``labels``, ``Scene.labels``)."""
    global _sprites_made
    font = _font(size)
    x, y = at
    # the pixel the label stands in, and where in it (floor: a label left of or above
    # the picture, cut by its edge, has its fractions in [0, 1) as every other)
    px, py = math.floor(x), math.floor(y)
    key: SpriteKey = (text, size, stroke, anchor, x - px, y - py)
    store = _sprite_store(labels)
    sprite = store.get(key)
    if sprite is None:
        sprite = _render_sprite(font, key)
        if sprite is None:
            d.text(at, text, fill=colour, font=font, anchor=anchor, stroke_width=stroke, stroke_fill=colour)
            return
        store[key] = sprite
        _sprites_made += 1
        _sprites_new.add(labels)
    _sprites_used.setdefault(labels, set()).add(key)
    dx, dy, w, h, mask = sprite
    if w and h:
        image.paste(colour, (px + dx, py + dy), Image.frombytes("L", (w, h), mask))


# The font Pillow always has (a subset of Aileron) covers ASCII only: accented
# letters are drawn as their base letter plus the accent, dashes as a line.
_COMBINING = {"\u0301": "acute", "\u0300": "grave", "\u0302": "circumflex", "\u0308": "diaeresis", "\u0327": "cedilla"}


_SUBSTITUTES: dict[str, tuple[str, str | None]] = {
    "\u2014": ("   ", "dash"),
    "\u2013": ("  ", "dash"),
    "\u2212": ("  ", "dash"),
    "\u2010": ("-", None),
    "\u2011": ("-", None),
    "\u00d7": ("x", None),
    "\u00a0": (" ", None),
    "\u202f": (" ", None),
    "\u0153": ("oe", None),
    "\u0152": ("OE", None),
    "\u00e6": ("ae", None),
    "\u00c6": ("AE", None),
    "\u00df": ("ss", None),
}


Mark: TypeAlias = tuple[int, int, str]  # first and last index in the base text, kind


def _ink(ch: str) -> bytes:
    image = Image.new("L", (32, 32), 0)
    ImageDraw.Draw(image).text((4, 4), ch, font=_font(20.0), fill=255)
    return image.tobytes()


@functools.cache
def _no_glyph() -> bytes:
    """What the font draws for a character it does not have (a box)."""
    return _ink("\uffff")


_glyphs: dict[str, bool] | None = None  # character -> whether the font draws it, kept with the sprites


_glyphs_made = 0


def _has_glyph(ch: str) -> bool:
    """Whether the default font really draws this character (the others come out as boxes)."""
    global _glyphs, _glyphs_made
    if _glyphs is None:
        from moonshine import cache

        found = cache.load_value("glyphs", _sprite_cache_key())
        _glyphs = found if isinstance(found, dict) else {}
    known = _glyphs.get(ch)
    if known is None:
        known = _glyphs[ch] = ch == " " or _ink(ch) != _no_glyph()
        _glyphs_made += 1
    return known


@functools.lru_cache(maxsize=1024)
def _shape_text(text: str) -> tuple[str, tuple[Mark, ...]]:
    """The text as the default font can draw it, and the marks to add by hand."""
    base: list[str] = []
    marks: list[Mark] = []
    for ch in text:
        if _has_glyph(ch):
            base.append(ch)
            continue
        if ch in _SUBSTITUTES:
            rep, mark = _SUBSTITUTES[ch]
            i = len(base)
            base.extend(rep)
            if mark:
                marks.append((i, len(base) - 1, mark))
            continue
        decomposed = unicodedata.normalize("NFD", ch)
        first, rest = decomposed[0], decomposed[1:]
        if _has_glyph(first) and rest and all(c in _COMBINING for c in rest):
            marks.extend((len(base), len(base), _COMBINING[c]) for c in rest)
            base.append(first)
        else:
            base.append("?")
    return "".join(base), tuple(marks)


def _place_marks(
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    base: str,
    marks: Sequence[Mark],
    at: Pt,
    anchor: str,
    s: float,
) -> list[tuple[tuple[Pt, ...], bool]]:
    """Accents and dashes in pixels: polylines, or dots (``True``) given as their centre."""
    if not isinstance(font, ImageFont.FreeTypeFont):
        return []
    width = font.getlength(base)
    left = at[0] - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    ascent, descent = font.getmetrics()
    baseline = at[1] + (ascent - descent) / 2
    out: list[tuple[tuple[Pt, ...], bool]] = []
    for first, last, kind in marks:
        xa = left + font.getlength(base[:first])
        xb = left + font.getlength(base[: last + 1])
        cx = (xa + xb) / 2
        top = baseline + font.getbbox(base[first], anchor="ls")[1]
        if kind == "acute":
            out.append((((cx - 0.06 * s, top - 0.07 * s), (cx + 0.09 * s, top - 0.25 * s)), False))
        elif kind == "grave":
            out.append((((cx + 0.06 * s, top - 0.07 * s), (cx - 0.09 * s, top - 0.25 * s)), False))
        elif kind == "circumflex":
            out.append(
                (((cx - 0.13 * s, top - 0.07 * s), (cx, top - 0.22 * s), (cx + 0.13 * s, top - 0.07 * s)), False)
            )
        elif kind == "diaeresis":
            out.append((((cx - 0.11 * s, top - 0.14 * s),), True))
            out.append((((cx + 0.11 * s, top - 0.14 * s),), True))
        elif kind == "cedilla":
            hook = ((cx, baseline), (cx, baseline + 0.09 * s), (cx + 0.08 * s, baseline + 0.15 * s))
            out.append(((*hook, (cx - 0.07 * s, baseline + 0.25 * s)), False))
        elif kind == "dash":
            y = baseline - 0.3 * s
            out.append((((xa + 0.06 * s, y), (xb - 0.06 * s, y)), False))
    return out


def _draw_mark(d: ImageDraw.ImageDraw, points: tuple[Pt, ...], dot: bool, width: float, colour: str) -> None:
    if dot:
        (x, y), r = points[0], width * 0.65
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        return
    d.line(list(points), fill=colour, width=max(1, round(width)), joint="curve")
    r = width / 2
    for x, y in (points[0], points[-1]):
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour)


PNG_COMPRESS_LEVEL = 3


PNG_ROWS = 65536  # bytes of rows compressed at a time


def png_bytes(image: Image.Image, level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """An RGB image as a PNG file, written here rather than by Pillow's PNG plugin:
    every row unfiltered (filter type 0), then zlib at ``level``. A map is mostly
    flat colour, which deflate packs well as it is: the file is smaller than with
    Pillow's adaptive filters (which try five filters on every row, two thirds of its
    encoding time), it is written in a third of the time, and saving loads none of
    Pillow's file-format plugins. The pixels are Pillow's public ``tobytes()``; the
    rows go to zlib some 64 KB at a time (the same stream as all at once).
    Deterministic: same pixels, same bytes."""
    import struct
    import zlib

    if image.mode != "RGB":
        raise PictureError(f"a PNG is written from an RGB image, not {image.mode}")
    width, height = image.size
    stride = width * 3
    packer = zlib.compressobj(level)
    packed: list[bytes] = []
    pixels = memoryview(image.tobytes())
    step = max(1, PNG_ROWS // stride) if stride else height
    for first in range(0, height, step):
        rows = range(first, min(first + step, height))
        packed.append(packer.compress(b"".join([b"\x00" + pixels[y * stride : (y + 1) * stride] for y in rows])))
    packed.append(packer.flush())

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB, deflate, no interlace
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(packed)) + chunk(b"IEND", b"")


def scene_png(scene: Scene, width: int = 1000, *, supersample: int = SUPERSAMPLE) -> bytes:
    """The scene as a PNG ``width`` pixels wide, drawn at ``supersample`` times the size
    and scaled down to smooth the edges (1: drawn at its size, for a picture that is
    itself twice what a phone shows, whose device pixels are as fine)."""
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise PictureError(f"picture width {width} is out of range ({MIN_WIDTH} to {MAX_WIDTH} pixels)")
    k = width / scene.width
    height = max(1, round(scene.height * k))
    # the canvas exactly ``supersample`` times the picture, so that one reduce() scales it down
    painter = _Painter(scene, k * supersample, (width * supersample, height * supersample))
    painter.draw(scene.items, painter.image)
    save_sprites()
    image = painter.image.reduce(supersample) if supersample > 1 else painter.image  # the mean of each block
    # zlib's level 3: levels 4 and up use the slower lazy matching, which buys little on a map
    return png_bytes(image)


def label_width(label: Label) -> float:
    """How wide the painter draws a label's text, in scene units, at most (its accents
    drawn by hand stand over their letters; a bold label's stroke on both sides): its
    advance measured at a large size, where the font's hinting does not move it, and
    a twentieth more, which hinting at a small one adds at most."""
    base, _ = _shape_text(label.text)
    advance = float(_font(100.0).getlength(base)) * label.size / 100
    return 1.05 * advance + (2 * label.size * 0.035 if label.bold else 0.0)


LEGEND_WORDS = 11.0  # CSS px: a legend picture's smallest words as a page shows it


class PagePicture(msgspec.Struct, frozen=True):
    """A picture for a page: its PNG, drawn at twice the size the page shows it at
    (as fine as a phone's device pixels), and that size in CSS px."""

    png: bytes
    width: int
    height: int


def _label_sizes(items: Iterable[Item]) -> Iterable[float]:
    for item in items:
        if isinstance(item, Group):
            yield from _label_sizes(item.items)
        elif isinstance(item, Label):
            yield item.size


def legend_picture(legend: Scene, words: float = LEGEND_WORDS) -> PagePicture:
    """A map's legend (a scene of its own: ``legend`` in the variant's scene module) as
    a page shows it: as wide as makes its smallest words ``words`` CSS px, its PNG
    drawn at twice that width, at its size (no supersampling: its pixels are as fine
    as the phone's). The PNG is kept in the cache (``moonshine.cache``), keyed by the
    scene itself: a map's legend in one language is the same every turn."""
    from moonshine import cache

    smallest = min(_label_sizes(legend.items), default=words)
    width = max(MIN_WIDTH // 2, math.ceil(legend.width * words / smallest))
    height = max(1, round(legend.height * width / legend.width))
    # the painter's own versions in the key, as the labels' (a new Pillow draws afresh)
    key = _sprite_cache_key() + f" legend 1 {2 * width} ".encode() + msgspec.msgpack.encode(legend)
    png = cache.load_value("legend", key)
    if not isinstance(png, bytes):
        png = scene_png(legend, 2 * width, supersample=1)
        cache.store_value("legend", key, png)
    return PagePicture(png, width, height)
