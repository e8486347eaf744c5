"""The map pictures' PNG writer (moonshine.picture.png.png_bytes): any RGB image comes back from
Pillow's reader pixel for pixel, a valid PNG (chunks, checksums), the same bytes
every time; saving loads none of Pillow's file-format plugins."""

from __future__ import annotations

import subprocess
import sys
from io import BytesIO
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from moonshine.picture.png import png_bytes
from moonshine.picture.shapes import PictureError


def _read(data: bytes) -> Image.Image:
    image = Image.open(BytesIO(data))
    image.verify()  # chunk checksums and structure
    image = Image.open(BytesIO(data))
    image.load()
    return image


@settings(max_examples=40, deadline=None)
@given(
    width=st.integers(1, 40),
    height=st.integers(1, 30),
    seed=st.binary(min_size=3, max_size=64),
    level=st.sampled_from([1, 3, 6, 9]),
)
def test_every_rgb_image_comes_back_pixel_for_pixel(width: int, height: int, seed: bytes, level: int) -> None:
    raw = (seed * (width * height * 3 // len(seed) + 1))[: width * height * 3]
    image = Image.frombytes("RGB", (width, height), raw)
    data = png_bytes(image, level)
    back = _read(data)
    assert back.format == "PNG" and back.mode == "RGB" and back.size == (width, height)
    assert back.tobytes() == image.tobytes()
    assert png_bytes(image, level) == data


def test_a_map_picture_is_the_drawn_image() -> None:
    """A whole map: the drawn picture, reduced, is what the file holds."""
    from moonshine.picture.png import SUPERSAMPLE, _Painter, scene_png
    from moonshine.variants.moonshine.map import load_map
    from moonshine.variants.moonshine.scene import build_scene
    from moonshine.variants.moonshine.state import initial_state

    gmap = load_map("chicago-1920s")
    scene = build_scene(gmap, initial_state(gmap), title="Spring 1924")
    painter = _Painter(scene, 800 / scene.width * SUPERSAMPLE)
    painter.draw(scene.items, painter.image)
    expected = painter.image.reduce(SUPERSAMPLE)
    back = _read(scene_png(scene, 800))
    assert ImageChops.difference(back.convert("RGB"), expected).getbbox() is None


def test_only_rgb() -> None:
    with pytest.raises(PictureError, match="RGBA"):
        png_bytes(Image.new("RGBA", (2, 2)))


def test_saving_loads_no_pillow_file_format_plugin() -> None:
    code = (
        "import sys; from PIL import Image; from moonshine.picture.png import png_bytes; "
        "png_bytes(Image.new('RGB', (4, 4), 'red')); "
        "print(sorted(m for m in sys.modules if m.startswith('PIL.') and m.endswith('ImagePlugin')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _drawn(scene: Any) -> Image.Image:
    from moonshine.picture.png import _Painter

    painter = _Painter(scene, 1.6)
    painter.draw(scene.items, painter.image)
    return painter.image


def _plain_text(
    d: Any,
    image: Image.Image,
    at: tuple[float, float],
    text: str,
    size: float,
    anchor: str,
    stroke: int,
    colour: str,
    labels: str,
) -> None:
    from moonshine.picture.png import _font

    d.text(at, text, fill=colour, font=_font(size), anchor=anchor, stroke_width=stroke, stroke_fill=colour)


def _scenes() -> list[Any]:
    from moonshine.picture.shapes import TEXT, Label, Scene
    from moonshine.variants.moonshine.map import load_map
    from moonshine.variants.moonshine.scene import build_scene
    from moonshine.variants.moonshine.state import initial_state

    gmap = load_map("chicago-1920s")
    st = initial_state(gmap)
    edge = Scene(
        300,
        200,
        "labels at the edges",
        (
            Label((0.3, 7.0), "Edge — élan", size=11.0, colour=TEXT, bold=True, halo=2.4),
            Label((150.25, 100.7), "Ça, œuvre ×2", size=12.5, colour="#5b88ad", anchor="middle"),
            Label((299.9, 199.5), "END", size=9.0, colour=TEXT, anchor="end", halo=1.0),
        ),
    )
    return [
        build_scene(gmap, st, title="Spring 1924"),
        build_scene(gmap, st, title="Printemps 1924 — été", language="fr"),
        edge,
    ]


def test_labels_drawn_once_give_the_pixels_pillow_draws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every label laid from its sprite (new, then from this process, then from the cache
    directory in a new process, then with the cache damaged) is exactly Pillow's drawing."""
    from moonshine.picture import png as png_writer

    monkeypatch.setenv("MOONSHINE_CACHE_DIR", str(tmp_path / "cache"))
    scenes = _scenes()
    with monkeypatch.context() as plain:
        plain.setattr(png_writer, "_draw_text", _plain_text)
        expected = [_drawn(scene).tobytes() for scene in scenes]
    monkeypatch.setattr(png_writer, "_sprites", {})
    monkeypatch.setattr(png_writer, "_glyphs", None)
    png_writer._shape_text.cache_clear()
    assert [_drawn(scene).tobytes() for scene in scenes] == expected  # drawn now
    assert png_writer._sprites_made > 0
    png_writer.save_sprites()
    assert png_writer._sprites_made == 0
    assert [_drawn(scene).tobytes() for scene in scenes] == expected  # this process's
    assert png_writer._sprites_made == 0
    entries = list((tmp_path / "cache").glob("*/labels-*.bin"))
    assert len(entries) == 2  # Chicago's labels, and those of the picture of no map
    (glyphs,) = (tmp_path / "cache").glob("*/glyphs-*.bin")
    for damage in (None, b"\x00garbage", b""):
        if damage is not None:
            for entry in entries:
                entry.write_bytes(damage)
            glyphs.write_bytes(damage)
        monkeypatch.setattr(png_writer, "_sprites", {})  # as a new process
        monkeypatch.setattr(png_writer, "_glyphs", None)
        png_writer._shape_text.cache_clear()
        assert [_drawn(scene).tobytes() for scene in scenes] == expected


def test_each_map_keeps_its_labels_in_a_cache_file_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The label cache is one file per map, named by the map's content: drawing one map
    neither reads nor rewrites another's labels (a huge map's labels once made every
    picture of Chicago read and rewrite them), and a new turn of the same map finds
    its labels where the last turn left them."""

    from moonshine.picture import png as png_writer
    from moonshine.variants.moonshine.map import load_map
    from moonshine.variants.moonshine.scene import build_scene
    from moonshine.variants.moonshine.state import initial_state

    monkeypatch.setenv("MOONSHINE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(png_writer, "_sprites", {})
    monkeypatch.setattr(png_writer, "_sprites_new", set())
    chicago = load_map("chicago-1920s")
    assert chicago.geometry is not None
    other_shapes = tmp_path / "other.geojson"
    other_shapes.write_bytes(chicago.geometry.read_bytes().replace(b'"type"', b'"type" ', 1))
    other = msgspec.structs.replace(chicago, geometry=other_shapes)  # the same codes, other shapes
    st = initial_state(chicago)
    first, later = build_scene(chicago, st, title="Spring 1924"), build_scene(chicago, st, title="Autumn 1924")
    assert first.labels == later.labels != build_scene(other, st).labels

    files = lambda: sorted((tmp_path / "cache").glob("*/labels-*.bin"))  # noqa: E731
    png_writer.scene_png(first, 400)
    (chicago_file,) = files()
    kept = chicago_file.read_bytes()
    monkeypatch.setattr(png_writer, "_sprites", {})  # as a new process
    png_writer.scene_png(build_scene(other, st), 400)
    assert len(files()) == 2 and chicago_file.read_bytes() == kept  # the other map's labels: a file of its own
    assert set(png_writer._sprites) == {build_scene(other, st).labels}  # Chicago's file not even read
    monkeypatch.setattr(png_writer, "_sprites", {})
    made = png_writer._sprites_made
    png_writer.scene_png(later, 400)
    assert png_writer._sprites_made == made  # the next turn's labels found in Chicago's file
