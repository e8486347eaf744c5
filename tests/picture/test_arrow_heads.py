"""Arrows that can be read (issue 38): on busy turns of both variants, every move,
assault, retreat and transport arrow ends short of the codes, units and symbols drawn
over it, so that its head is in sight; a support still ends in a dot, not a head.
Each head is measured against everything the picture draws after the arrows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from handplayed import classic_game, moonshine_game

from moonshine.game.directory import Game
from moonshine.game.reports import load_turn, map_scene
from moonshine.game.simulate import play_into
from moonshine.picture.shapes import Box, Circle, Group, Item, Label, Line, Poly, Pt, Scene, paint_reach
from moonshine.variants.classic.board import standard_map
from moonshine.variants.classic.layout import load_state
from moonshine.variants.classic.phases import adjudicate_phase
from moonshine.variants.classic.scene import build_scene as classic_scene


def _label_box(label: Label) -> Box:
    """The box a label's ink covers: capitals of a bold font at most 0.8 of its size
    across, 0.85 high, and its halo."""
    half_w = 0.4 * label.size * len(label.text) + label.halo
    half_h = 0.425 * label.size + label.halo
    x, y = label.at
    if label.anchor == "start":
        return (x - label.halo, y - half_h, x + 2 * half_w - label.halo, y + half_h)
    return (x - half_w, y - half_h, x + half_w, y + half_h)


def _shape_box(item: Item) -> Box | None:
    """The box of a unit's or a symbol's shapes (its letter is inside them)."""
    if isinstance(item, Group):
        boxes = [b for i in item.items if (b := _shape_box(i)) is not None]
        if not boxes:
            return None
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    if isinstance(item, Circle):
        r = item.r + paint_reach(item.paint)
        return (item.centre[0] - r, item.centre[1] - r, item.centre[0] + r, item.centre[1] + r)
    if isinstance(item, Poly):
        pts = [p for ring in item.rings for p in ring]
        w = paint_reach(item.paint)
        return (
            min(p[0] for p in pts) - w,
            min(p[1] for p in pts) - w,
            max(p[0] for p in pts) + w,
            max(p[1] for p in pts) + w,
        )
    return None


def _inside(p: Pt, b: Box) -> bool:
    return b[0] < p[0] < b[2] and b[1] < p[1] < b[3]


def _head_points(points: Sequence[Pt]) -> list[Pt]:
    """A head's corners and the middles of its sides: what must be in sight."""
    out = list(points)
    for a, b in zip(points, [*points[1:], points[0]], strict=True):
        out.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    return out


class Head:
    def __init__(self, what: str, points: list[Pt], spared: Pt | None = None) -> None:
        self.what, self.points, self.spared = what, points, spared


def _attrs(item: Group) -> dict[str, str]:
    return dict(item.attrs)


def _walk(items: Sequence[Item]) -> Iterator[Item]:
    for item in items:
        yield item
        if isinstance(item, Group):
            yield from _walk(item.items)


def _moonshine_heads(scene: Scene) -> tuple[list[Head], list[Box], int]:
    """The heads of a Chicago map's arrows, the boxes of what is drawn over them, and
    the number of supports (each ends in a dot)."""
    heads: list[Head] = []
    over: list[Box] = []
    supports = 0
    after = False
    for top in scene.items:
        name = _attrs(top).get("id") if isinstance(top, Group) else None
        if name == "arrows" and isinstance(top, Group):
            after = True
            for g in top.items:
                assert isinstance(g, Group)
                a = _attrs(g)
                kind = a["class"].split()[1]
                what = f"{kind} {a['data-from']}->{a['data-to']}"
                if kind in ("move", "assault"):
                    polys = [i for i in g.items if isinstance(i, Poly) and len(i.rings[0]) == 3]
                    if polys:
                        heads.append(Head(what, _head_points(polys[0].rings[0])))
                elif kind == "retreat":
                    chevron = [i for i in g.items if isinstance(i, Line) and len(i.points) == 3][-1]
                    heads.append(Head(what, _head_points(chevron.points)))
                elif kind == "transport":
                    line = next(i for i in g.items if isinstance(i, Line))
                    heads.append(Head(what, [line.points[-1]]))
                elif kind == "support":
                    supports += 1
                    assert any(isinstance(i, Circle) for i in g.items), what  # a dot or a ring, never a head
                    assert not any(isinstance(i, Poly) for i in g.items), what
            continue
        if not after or name in ("legend", "title", "credits", "failure-marks", "raid-badge"):
            continue
        if name == "labels" and isinstance(top, Group):
            over += [_label_box(i) for i in top.items if isinstance(i, Label)]
        elif name in ("symbols", "units") and isinstance(top, Group):
            over += [b for i in top.items if (b := _shape_box(i)) is not None]
    return heads, over, supports


def _hidden(heads: list[Head], over: list[Box], stations: list[Box] | None = None) -> list[str]:
    out = []
    for h in heads:
        for b in over:
            if stations and b in stations and h.what.startswith("assault"):
                continue  # an assault points at its station, ringed by its burst
            if any(_inside(p, b) for p in h.points):
                out.append(f"{h.what} under {tuple(round(v) for v in b)}")
                break
    return out


@pytest.fixture(scope="module")
def chicago_turns(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Scene]]:
    """The two hand-played turns of issue 38 and three turns of computer players."""
    root = moonshine_game(tmp_path_factory.mktemp("heads") / "moon")
    game = Game(root)
    scenes = []
    for turn in ("spring-1924", "autumn-1924"):
        res, nxt = load_turn(game, turn)
        scenes.append((turn, map_scene(game.map, res, nxt, "en")))
    played = tmp_path_factory.mktemp("heads") / "bots"
    done = [r.turn for r in play_into(played, "chicago-1920s", "busy", 3)]
    bots = Game(played)
    for turn in done:
        res, nxt = load_turn(bots, turn)
        scenes.append((f"bots {turn}", map_scene(bots.map, res, nxt, "en")))
    return scenes


def test_every_head_of_a_busy_chicago_turn_is_in_sight(chicago_turns: list[tuple[str, Scene]]) -> None:
    counted = 0
    hidden = []
    for name, scene in chicago_turns:
        heads, over, _supports = _moonshine_heads(scene)
        counted += len(heads)
        stations = [b for b in over if b[2] - b[0] < 22 and b[3] - b[1] < 22]  # the symbols' small boxes
        hidden += [f"{name}: {h}" for h in _hidden(heads, over, stations)]
    assert counted > 100  # busy turns: many arrows measured
    assert hidden == [], "\n".join(hidden)


def test_the_retreat_por_to_cra_shows_its_chevron(chicago_turns: list[tuple[str, Scene]]) -> None:
    heads, over, _ = _moonshine_heads(dict(chicago_turns)["autumn-1924"])
    [retreat] = [h for h in heads if h.what == "retreat POR->CRA"]
    assert _hidden([retreat], over) == []


def _classic_heads(scene: Scene) -> tuple[list[Head], list[Box]]:
    heads: list[Head] = []
    over: list[Box] = []
    after = False
    for top in scene.items:
        if not isinstance(top, Group):
            continue
        a = _attrs(top)
        cls = a.get("class", "")
        if cls == "order":
            after = True
            what = a.get("data-order", "")
            polys = [i for i in top.items if isinstance(i, Poly) and len(i.rings[0]) == 3]
            chevrons = [i for i in top.items if isinstance(i, Line) and len(i.points) == 3]
            if polys:
                heads.append(Head(what, _head_points(polys[0].rings[0])))
            elif chevrons:
                heads.append(Head(what, _head_points(chevrons[-1].points)))
        elif after and cls == "label":
            over += [_label_box(i) for i in top.items if isinstance(i, Label)]
        elif after and cls.startswith("unit"):
            box = _shape_box(top)
            if box is not None:
                over.append(box)
    return heads, over


def _classic_scenes(root: Path) -> Iterator[tuple[str, Scene]]:
    from moonshine.game.families.classic import read_orders
    from moonshine.variants.classic.layout import orders_dir

    gmap = standard_map()
    for phase in ("spring-1901", "fall-1901", "fall-1901-retreats", "winter-1901"):
        st = load_state(root, phase, gmap)
        orders, _ = read_orders(orders_dir(root, phase), gmap, st)
        yield phase, classic_scene(gmap, st, adjudicate_phase(gmap, st, orders))


def test_every_head_of_the_classic_phases_is_in_sight(tmp_path: Path) -> None:
    root = classic_game(tmp_path / "classic")
    counted = 0
    hidden = []
    for phase, scene in _classic_scenes(root):
        heads, over = _classic_heads(scene)
        counted += len(heads)
        hidden += [f"{phase}: {h}" for h in _hidden(heads, over)]
    assert counted >= 15
    assert hidden == [], "\n".join(hidden)
