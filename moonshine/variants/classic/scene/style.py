"""The look of a board's picture and its words: the colours of land, sea, borders and
marks, the measures shared by its parts (margins, font sizes, a unit's radius), a
label's width as estimated, and the words it writes (titles, legend, tooltips: the
catalogue's ``classic.picture.*`` entries)."""

from __future__ import annotations

from moonshine.text.catalogue import Catalogue

WORDS: Catalogue = {
    "classic.picture.spring": "Spring",
    "classic.picture.fall": "Autumn",
    "classic.picture.winter": "Winter",
    "classic.picture.retreats": "retreats",
    "classic.picture.movement_title": "{season} {year}: orders and results",
    "classic.picture.retreats_title": "{season} {year}, retreats: orders and results",
    "classic.picture.adjustments_title": "{season} {year}: builds and disbands",
    "classic.picture.position_title": "{season} {year}: position",
    "classic.picture.powers": "Powers",
    "classic.picture.centres": ("{n} centre", "{n} centres"),
    "classic.picture.board": "Board",
    "classic.picture.land": "land",
    "classic.picture.impassable": "impassable",
    "classic.picture.sea": "sea",
    "classic.picture.centre_mark": "supply centre (owner's colour)",
    "classic.picture.coast": "coast of a province with two",
    "classic.picture.coast_tags": "nc, sc, ec: ",
    "classic.picture.army_border": "border for armies only",
    "classic.picture.fleet_border": "border for fleets only",
    "classic.picture.both_border": "border for armies and fleets",
    "classic.picture.no_border": "no border",
    "classic.picture.link": "border where the shapes do not touch",
    "classic.picture.orders": "Units and orders",
    "classic.picture.army": "army (A)",
    "classic.picture.fleet": "fleet (F)",
    "classic.picture.move": "move",
    "classic.picture.support": "support to a move",
    "classic.picture.support_hold": "support to a unit that holds",
    "classic.picture.convoy": "convoy (ring round the fleet)",
    "classic.picture.retreat": "retreat",
    "classic.picture.failed": "failed (dashed, crossed)",
    "classic.picture.dislodged": "dislodged",
    "classic.picture.built": "built",
    "classic.picture.disbanded": "disbanded",
    "classic.picture.unbuilt": "build that failed",
    "classic.picture.neutral": "neutral",
}

LAND = "#f3eee2"
SEA = "#cfe2f0"
SEA_TEXT = "#2f5f8a"
OFFBOARD = "#ececec"
OFFBOARD_LINE = "#b5b5b5"
TEXT = "#1e1e1e"
HALO = "#ffffff"
ARMY_LINE = "#8a7a66"  # a border armies cross
FLEET_LINE = "#5b8fc0"  # a border fleets cross
WALL = "#303030"
CROSS = "#111111"
DISLODGED = "#c8102e"
TINT = 0.6  # share of the owner's colour in an owned supply centre's fill

MARGIN = 14.0
TITLE_H = 46.0
TITLE_SIZE = 24.0
CODE_SIZE = 16.0
NAME_SIZE = 15.0
COAST_SIZE = 12.0
UNIT_R = 11.5  # an army's radius; a fleet is as wide
KIND_SIZE = 14.0
CENTRE_R = 5.5


def text_width(text: str, size: float, advance: float = 0.62) -> float:
    """A generous estimate of a label's width (``advance``: the mean advance of a
    character in ems; 0.62 fits bold capitals)."""
    return advance * size * len(text)
