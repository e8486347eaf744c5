"""How big the map pictures' words are on a 390 px phone, as the pages show them: the
picture's width in CSS px is read from the stylesheet (``img.map``'s width and border,
the card's padding on a narrow screen), the words' sizes from the scenes. A close-up's
district codes must be 11 CSS px at least; the whole map's legend 9 CSS px (the
smallest a phone reader reads without zooming).

The whole maps carry their legend inside the picture, drawn for the 1000 px picture
(13 and 15 px): on the phone it is about 5 CSS px, for the SVG and a desktop's
reader. The pages show it again under the map as a picture of its own
(``legend.png``), at the width their ``<img>`` gives it (``img.legend``: at most the
card's width): its smallest words are measured there."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from samplegame import copy_sample

from moonshine import data_folder
from moonshine.game.directory import Game
from moonshine.game.jobs import adjudicate_game
from moonshine.game.reports import load_turn
from moonshine.picture.shapes import Group, Item, Label, Scene
from moonshine.variants.classic import scene as classic_scene
from moonshine.variants.classic.board import board
from moonshine.variants.classic.state import initial_state
from moonshine.variants.moonshine import scene as chicago_scene
from moonshine.variants.moonshine.scene.closeup import PHONE_WIDTH, area_of, closeup
from moonshine.variants.moonshine.scene.legend import legend as chicago_scene_legend

PHONE = 390.0  # CSS px: a phone's viewport
CLOSE_UP_FLOOR = 11.0  # CSS px: a close-up's district codes
LEGEND_FLOOR = 9.0  # CSS px: the whole map's legend


def _rule(css: str, selector: str, media: str | None = None) -> str:
    """The declarations of ``selector``'s rule (inside the ``@media (media)`` block if given)."""
    if media is not None:
        start = css.index(f"@media ({media})")
        css = css[css.index("{", start) + 1 :]
    found = re.search(rf"(?m)^\s*{re.escape(selector)}\s*\{{([^}}]*)\}}", css)
    assert found, selector
    return found.group(1)


def _px(declarations: str, name: str) -> list[float]:
    found = re.search(rf"(?:^|;)\s*{name}\s*:\s*([^;!]*)", declarations)
    assert found, name
    return [float(v) for v in re.findall(r"([\d.]+)px", found.group(1))]


def _css() -> str:
    return (Path(data_folder("templates")) / "style.css").read_text(encoding="utf-8")


def card_width() -> float:
    """The CSS width of the card's content on the phone: the viewport less the card's
    padding (and the page's around it)."""
    css = _css()
    padding = _px(_rule(css, "td.card", "max-width: 480px"), "padding")
    outer = _px(_rule(css, "td.outer", "max-width: 480px"), "padding")
    side = padding[1] if len(padding) > 1 else padding[0]
    return PHONE - 2 * side - 2 * (outer[-1] if outer else 0.0)


def picture_width() -> float:
    """The CSS width a map picture is shown at on the phone: the card's width there
    capped by ``img.map``'s max-width, less the image's border."""
    img = _rule(_css(), "img.map")
    border = _px(img, "border")[0]
    return min(card_width(), _px(img, "max-width")[0]) - 2 * border


def legend_width(page: str, src: str) -> float:
    """The CSS width the legend picture ``src`` is shown at on the phone: its ``<img>``'s
    width, capped by ``img.legend``'s max-width (a share of the card's width), less its
    border."""
    found = re.search(rf'<img\b[^>]*\bsrc="{re.escape(src)}"[^>]*>', page)
    assert found, src
    tag = found.group(0)
    assert 'class="legend"' in tag, tag
    width = re.search(r'\bwidth="(\d+)"', tag)
    assert width and re.search(r'\bheight="(\d+)"', tag), tag
    img = _rule(_css(), "img.legend")
    cap = re.search(r"max-width\s*:\s*([\d.]+)%", img)
    assert cap, img
    border = _px(img, "border")[0] if re.search(r"border\s*:\s*[\d.]+px", img) else 0.0
    return min(float(width.group(1)), card_width() * float(cap.group(1)) / 100) - 2 * border


def _labels(items: Iterable[Item]) -> list[Label]:
    out: list[Label] = []
    for item in items:
        if isinstance(item, Group):
            out.extend(_labels(item.items))
        elif isinstance(item, Label):
            out.append(item)
    return out


def _legend(scene: Scene) -> list[Label]:
    group = next(
        i
        for i in scene.items
        if isinstance(i, Group) and "legend" in (dict(i.attrs).get("id"), dict(i.attrs).get("class"))
    )
    assert isinstance(group, Group)
    return _labels(group.items)


def shown(size: float, scene: Scene, width: float | None = None) -> float:
    """A size in the scene's units as the phone shows it, in CSS px (the scene shown
    ``width`` CSS px wide: a map picture's width by default)."""
    return size * (picture_width() if width is None else width) / scene.width


@pytest.fixture(scope="module")
def chicago(tmp_path_factory: pytest.TempPathFactory) -> tuple[Game, Scene]:
    game = Game(copy_sample(tmp_path_factory.mktemp("legend") / "game"))
    adjudicate_game(game, "spring-1924", force=True, commit=False)
    _, nxt = load_turn(game, "spring-1924")
    return game, chicago_scene.build_scene(game.map, nxt)


@pytest.fixture(scope="module")
def classic_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A classic game's first phase adjudicated, with its reports."""
    from click.testing import CliRunner

    from moonshine.cli import main

    root = tmp_path_factory.mktemp("legend-classic") / "game"
    runner = CliRunner()
    made = runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git", "--seed", "legend"])
    assert made.exit_code == 0, made.output
    (root / "orders" / "spring-1901" / "FRA.txt").write_text("A PAR - BUR\nA MAR S A PAR - BUR\n", encoding="utf-8")
    (root / "orders" / "spring-1901" / "GER.txt").write_text("A MUN - BUR\n", encoding="utf-8")
    done = runner.invoke(main, ["adjudicate", "spring-1901", "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    return root


def test_the_phone_width_is_the_one_the_close_ups_are_drawn_for() -> None:
    assert picture_width() == pytest.approx(PHONE_WIDTH)


def test_close_up_codes_are_at_least_11_css_px_on_the_phone(chicago: tuple[Game, Scene]) -> None:
    game, whole = chicago
    _, nxt = load_turn(game, "spring-1924")
    for gang in game.map.gangs:
        near = closeup(game.map, whole, area_of(game.map, nxt, gang))
        codes = [label for label in _labels(near.items) if label.text in game.map.districts]
        assert codes, gang
        assert min(shown(label.size, near) for label in codes) >= CLOSE_UP_FLOOR, gang


def _whole_maps(chicago: tuple[Game, Scene]) -> dict[str, Scene]:
    gmap = board("classic")
    return {"chicago": chicago[1], "classic": classic_scene.build_scene(gmap, initial_state(gmap))}


def test_the_whole_maps_legend_sizes_are_measured(chicago: tuple[Game, Scene]) -> None:
    """The legend inside the map picture, measured: its smallest words are too small to
    read on the phone (hence the legend's own picture under the map)."""
    for name, scene in _whole_maps(chicago).items():
        sizes = [shown(label.size, scene) for label in _legend(scene)]
        assert sizes, name
        assert 3.0 < min(sizes) < LEGEND_FLOOR, name


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _legend_pictures(chicago: tuple[Game, Scene], classic_game: Path) -> dict[str, tuple[str, Path, Scene]]:
    """Per variant: the private report's page, the legend picture beside it and the
    legend's scene (the one its picture is drawn from)."""
    from moonshine.game.families.classic import orders_dir, read_orders
    from moonshine.game.reports import map_scene
    from moonshine.variants.classic import scene as classic_mod
    from moonshine.variants.classic.layout import load_state
    from moonshine.variants.classic.phases import adjudicate_phase
    from moonshine.variants.classic.scene.legend import legend as classic_scene_legend

    game, _ = chicago
    chicago_base = game.turn_dir("spring-1924") / "reports"
    res, nxt = load_turn(game, "spring-1924")
    chicago_legend = chicago_scene_legend(map_scene(game.map, res, nxt, "en"))
    gmap = board("classic")
    st = load_state(classic_game, "spring-1901", gmap)
    orders, _ = read_orders(orders_dir(classic_game, "spring-1901"), gmap, st)
    classic_legend = classic_scene_legend(classic_mod.build_scene(gmap, st, adjudicate_phase(gmap, st, orders)))
    classic_base = classic_game / "turns" / "spring-1901" / "reports"
    return {
        "chicago": (
            (chicago_base / "outfit.html").read_text(encoding="utf-8"),
            chicago_base / "legend.png",
            chicago_legend,
        ),
        "classic": (
            (classic_base / "FRA.html").read_text(encoding="utf-8"),
            classic_base / "legend.png",
            classic_legend,
        ),
    }


def test_the_legend_picture_is_at_least_9_css_px_on_the_phone(chicago: tuple[Game, Scene], classic_game: Path) -> None:
    """The legend's own picture under the map: its smallest words at the width the page
    shows it at on the phone (its ``<img>``'s, within the card), 11 CSS px, above the
    floor; its PNG drawn at twice that width, as fine as the phone's pixels."""
    for name, (page, picture, legend) in _legend_pictures(chicago, classic_game).items():
        width = legend_width(page, picture.name)
        smallest = min(label.size for label in _labels(legend.items))
        assert shown(smallest, legend, width) >= LEGEND_FLOOR, name
        assert shown(smallest, legend, width) >= CLOSE_UP_FLOOR - 0.01, name  # 11 CSS px: as the close-ups' codes
        assert width <= card_width(), name  # shown whole, not shrunk by the card
        assert _png_size(picture.read_bytes())[0] == 2 * round(width), name
