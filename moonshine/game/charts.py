"""The charts of a Moonshine game so far: the victory points per gang and the
price of a crate at each turn (attached to the bulletin, shown on the site's
index). Read from values the caller gives: the reports and the site read the
results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from moonshine.picture import charts
from moonshine.text.catalogue import Catalogue, keyed
from moonshine.variants.moonshine.calendar import Turn

if TYPE_CHECKING:
    from moonshine.game.directory import Game

# The charts' own words (their titles, the VP target's label, the price's series).
WORDS: Catalogue = {
    "charts.axis.spring": "S",  # a turn on a chart's axis: S24, A24
    "charts.axis.autumn": "A",
    "charts.vp": "Victory points",
    "charts.vp_goal": "{vp} VP win",
    "charts.price": "Price of a crate of alcohol",
    "charts.price_series": "Price",
}


def words_of(language: str) -> dict[str, str]:
    """The charts' words in ``language``, by key."""
    return {key.removeprefix("charts."): keyed(language, WORDS, key) for key in WORDS if ".axis." not in key}


def game_charts(
    game: Game, turns: Sequence[str], vp: Sequence[Mapping[str, int]], prices: Sequence[float], language: str
) -> tuple[charts.Chart, charts.Chart]:
    """The charts of the game so far: victory points per gang, and the price of a
    crate, at each of ``turns`` (``vp`` and ``prices`` one per turn)."""
    words = words_of(language)
    labels = [_short(t, language) for t in turns]
    gangs = {k: (g.name, g.colour) for k, g in game.map.gangs.items()}
    vp_chart = charts.vp_chart(
        words["vp"],
        labels,
        vp,
        gangs,
        target=game.config.house.victory_vp,
        target_label=words["vp_goal"].format(vp=game.config.house.victory_vp),
    )
    return vp_chart, charts.price_chart(words["price"], labels, prices, words["price_series"])


def _short(turn: str, language: str) -> str:
    """``S24`` / ``A24`` (``P24`` / ``A24`` in French) for a chart's axis."""
    t = Turn.parse(turn)
    first = keyed(language, WORDS, f"charts.axis.{t.season}")
    return f"{first}{t.year % 100:02d}"
