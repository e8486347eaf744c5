"""The charts of a Moonshine game so far: the victory points per gang and the
price of a crate at each turn (attached to the bulletin, shown on the site's
index). Read from values the caller gives: the reports and the site read the
results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from moonshine import charts
from moonshine.turns import Turn

if TYPE_CHECKING:
    from moonshine.gamedir import Game

# The charts' own words (their titles, the VP target's label, the price's series).
WORDS = {
    "en": {
        "vp": "Victory points",
        "vp_goal": "{vp} VP win",
        "price": "Price of a crate of alcohol",
        "price_series": "Price",
    },
    "fr": {
        "vp": "Points de victoire",
        "vp_goal": "{vp} PV gagnent",
        "price": "Prix d'une caisse d'alcool",
        "price_series": "Prix",
    },
}


def game_charts(
    game: Game, turns: Sequence[str], vp: Sequence[Mapping[str, int]], prices: Sequence[float], language: str
) -> tuple[charts.Chart, charts.Chart]:
    """The charts of the game so far: victory points per gang, and the price of a
    crate, at each of ``turns`` (``vp`` and ``prices`` one per turn)."""
    words = WORDS[language]
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
    first = {"en": {"spring": "S", "autumn": "A"}, "fr": {"spring": "P", "autumn": "A"}}[language][t.season]
    return f"{first}{t.year % 100:02d}"
