"""The pictures beside a page, for both families: the names of their files (the map
in the reader's language, a gang's close-up, the map's legend) and what a page's
template shows of the legend (its file, the size it is shown at, its heading and
alternative text)."""

from __future__ import annotations

from typing import Any

import msgspec

MAP_FILE = "map.png"


MAP_CID = "cid:map.png"


MAP_WIDTH = 1000


def map_file(language: str, game_language: str, ext: str = "png") -> str:
    """The name of the turn's map picture in ``language``: ``map.png`` in the game's
    language, ``map.fr.png`` in another one a player reads."""
    return f"map.{ext}" if language == game_language else f"map.{language}.{ext}"


def legend_file(language: str, game_language: str) -> str:
    """The name of the picture of the map's legend in ``language``: ``legend.png`` in
    the game's language, ``legend.fr.png`` in another one a player reads."""
    return "legend.png" if language == game_language else f"legend.{language}.png"


class Legend(msgspec.Struct, frozen=True):
    """The picture of the map's legend beside a page: its file and the size the page
    shows it at, in CSS px (``moonshine.picture.png.legend_picture``'s)."""

    file: str
    width: int
    height: int


def legend_figure(legend: Legend | None, heading: str, alt: str, *, for_email: bool = False) -> dict[str, Any] | None:
    """What a page's template shows of the legend (``_macros.html.j2``'s ``legend``):
    its heading, the picture at its size and its alternative text; None without one."""
    if legend is None:
        return None
    src = ("cid:" if for_email else "") + legend.file
    return {"heading": heading, "src": src, "width": legend.width, "height": legend.height, "alt": alt}


def closeup_file(gang: str, ext: str = "png") -> str:
    """The name of a gang's close-up map: ``closeup-outfit.png``."""
    return f"closeup-{gang.lower()}.{ext}"


__all__ = ["MAP_CID", "MAP_FILE", "MAP_WIDTH", "Legend", "closeup_file", "legend_figure", "legend_file", "map_file"]
