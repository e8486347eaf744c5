"""The state of a classic game at the start of a phase, saved as YAML.

A phase is named ``spring-1901`` (movement), ``spring-1901-retreats``,
``fall-1901``, ``fall-1901-retreats`` or ``winter-1901`` (adjustments)::

    phase: spring-1901-retreats
    units:
      AUS: [A BUD, A VIE, F TRI]
    owners:
      AUS: [BUD, TRI, VIE]
    dislodged:
    - {power: TUR, unit: A SER, attacker_from: BUD, by_convoy: false}
    contested: [GAL]
"""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path
from typing import Any

import msgspec
import yaml

from moonshine.errors import StateError
from moonshine.text.catalogue import Catalogue, keyed, languages
from moonshine.variants.classic.board import ClassicMap, Kind, province_of, region_code


class Season(StrEnum):
    SPRING = "spring"
    FALL = "fall"
    WINTER = "winter"


class Step(StrEnum):
    MOVEMENT = "movement"
    RETREATS = "retreats"
    ADJUSTMENTS = "adjustments"


_PHASE = re.compile(r"^(spring|fall|autumn|winter|printemps|automne|hiver)-(\d{4})(-retreats|-retraites)?$")
_SEASON_WORDS = {"printemps": "spring", "automne": "fall", "autumn": "fall", "hiver": "winter"}
# How a phase is written for a reader: ``phase.form`` says whether a sentence names it as
# the commands take it (``name``: ``fall-1901-retreats``) or in words (any other value:
# ``Autumn 1901 retreats``, ``automne 1901 (retraites)`` in French).
PHASES: Catalogue = {
    "phase.form": "words",
    "phase.spring": "Spring {year}",
    "phase.fall": "Autumn {year}",
    "phase.winter": "Winter {year}",
    "phase.retreats": "{phase} retreats",
    # inside a sentence ("Orders for Spring 1901 are due"; French "pour le printemps 1901")
    "phase.the.spring": "Spring {year}",
    "phase.the.fall": "Autumn {year}",
    "phase.the.winter": "Winter {year}",
    "phase.the.retreats": "{phase} retreats",
}


class Phase(msgspec.Struct, frozen=True, order=True):
    year: int
    season: Season
    step: Step

    @classmethod
    def parse(cls, text: str) -> Phase:
        m = _PHASE.match(text.strip().lower())
        if not m or (_SEASON_WORDS.get(m.group(1), m.group(1)) == "winter" and m.group(3)):
            raise ValueError(
                f"{text!r} is not a phase name (spring-1901, spring-1901-retreats, fall-1901, "
                "fall-1901-retreats, winter-1901)"
            )
        season = Season(_SEASON_WORDS.get(m.group(1), m.group(1)))  # printemps-1901 in a French game
        step = Step.ADJUSTMENTS if season is Season.WINTER else Step.RETREATS if m.group(3) else Step.MOVEMENT
        return cls(int(m.group(2)), season, step)

    @property
    def name(self) -> str:
        if self.step is Step.RETREATS:
            return f"{self.season.value}-{self.year}-retreats"
        return f"{self.season.value}-{self.year}"

    def label(self, language: str = "en") -> str:
        """The phase as a reader sees it: ``Autumn 1901 retreats`` in English;
        ``printemps 1901``, ``automne 1901 (retraites)``, ``hiver 1901`` in French."""
        lang = language if language in languages() else "en"
        return self.name if keyed(lang, PHASES, "phase.form") == "name" else self.words(lang)

    def text(self, language: str = "en") -> str:
        """The phase in a sentence of the catalogue (``moonshine.text.catalogue.Localized``): its label."""
        return self.label(language)

    def in_sentence(self, language: str = "en") -> str:
        """The phase inside a sentence: ``Spring 1901`` in English; ``le printemps
        1901``, ``l'automne 1901 (retraites)``, ``l'hiver 1901`` in French."""
        lang = language if language in languages() else "en"
        if keyed(lang, PHASES, "phase.form") == "name":
            return self.name
        text = keyed(lang, PHASES, f"phase.the.{self.season.value}").format(year=self.year)
        return keyed(lang, PHASES, "phase.the.retreats").format(phase=text) if self.step is Step.RETREATS else text

    def words(self, language: str = "en") -> str:
        """The phase in words: ``Autumn 1901 retreats``, ``automne 1901 (retraites)``."""
        text = keyed(language, PHASES, f"phase.{self.season.value}").format(year=self.year)
        return keyed(language, PHASES, "phase.retreats").format(phase=text) if self.step is Step.RETREATS else text

    def sort_key(self) -> tuple[int, int, int]:
        order = {Season.SPRING: 0, Season.FALL: 1, Season.WINTER: 2}
        return (self.year, order[self.season], 1 if self.step is Step.RETREATS else 0)


class Unit(msgspec.Struct, frozen=True, order=True):
    power: str
    kind: Kind
    region: str

    @property
    def province(self) -> str:
        return province_of(self.region)

    def label(self) -> str:
        return self.kind + " " + self.region  # a Kind is its letter


class Dislodged(msgspec.Struct, frozen=True, order=True):
    """A unit dislodged in the movement phase, waiting for its retreat."""

    power: str
    kind: Kind
    region: str
    attacker_from: str  # the province the dislodging unit came from
    by_convoy: bool = False  # it came by convoy: the unit may retreat there (DATC 4.A.5)

    @property
    def unit(self) -> Unit:
        return Unit(self.power, self.kind, self.region)

    def label(self) -> str:
        return f"{self.kind.value} {self.region}"


class ClassicState(msgspec.Struct):
    phase: Phase
    units: list[Unit] = msgspec.field(default_factory=list)
    owners: dict[str, str] = msgspec.field(default_factory=dict)  # supply centre -> power
    dislodged: list[Dislodged] = msgspec.field(default_factory=list)
    contested: list[str] = msgspec.field(default_factory=list)  # provinces left empty by a standoff
    winner: str | None = None

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units if u.power == power]

    def centres_of(self, power: str) -> list[str]:
        return sorted(p for p, o in self.owners.items() if o == power)

    def unit_in(self, province: str) -> Unit | None:
        for u in self.units:
            if u.province == province:
                return u
        return None

    def normalise(self) -> None:
        self.units.sort(key=lambda u: (u.power, u.province, u.region))
        self.dislodged.sort()
        self.contested = sorted(set(self.contested))
        self.owners = dict(sorted(self.owners.items()))


def initial_state(gmap: ClassicMap) -> ClassicState:
    """The board's opening position (spring 1901 on the standard board), each power
    owning its home centres."""
    units = [Unit(p, Kind(t[0]), region_code(t[2:])) for p, ts in gmap.info.start.items() for t in ts]
    owners = {c: p for p in gmap.powers for c in gmap.home_centres(p)}
    st = ClassicState(Phase(gmap.info.start_year, Season.SPRING, Step.MOVEMENT), units, owners)
    st.normalise()
    return st


# -- YAML ---------------------------------------------------------------------------


def to_data(st: ClassicState) -> dict[str, Any]:
    st.normalise()
    units: dict[str, list[str]] = {}
    for u in st.units:
        units.setdefault(u.power, []).append(u.label())
    owners: dict[str, list[str]] = {}
    for c, p in st.owners.items():
        owners.setdefault(p, []).append(c)
    data: dict[str, Any] = {
        "phase": st.phase.name,
        "units": {p: units[p] for p in sorted(units)},
        "owners": {p: sorted(owners[p]) for p in sorted(owners)},
    }
    if st.dislodged:
        data["dislodged"] = [
            {"power": d.power, "unit": d.label(), "attacker_from": d.attacker_from, "by_convoy": d.by_convoy}
            for d in st.dislodged
        ]
    if st.contested:
        data["contested"] = list(st.contested)
    if st.winner:
        data["winner"] = st.winner
    return data


def dumps(st: ClassicState) -> str:
    return yaml.safe_dump(to_data(st), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def _unit_text(text: Any, src: str, key: str, gmap: ClassicMap) -> tuple[Kind, str]:
    if not isinstance(text, str) or not re.match(r"^[AF] \S+$", text.strip()):
        raise StateError(src, key, f"expected a unit like 'A PAR' or 'F STP/SC', found {text!r}")
    kind, region = Kind(text.strip()[0]), region_code(text.strip()[2:])
    if not gmap.can_stand(kind, region):
        raise StateError(src, key, f"{text!r}: a {'fleet' if kind is Kind.FLEET else 'army'} cannot stand in {region}")
    return kind, region


def from_data(data: Any, gmap: ClassicMap, src: str = "state") -> ClassicState:
    if not isinstance(data, dict):
        raise StateError(src, "", "expected a mapping with phase, units, owners")
    try:
        phase = Phase.parse(str(data.get("phase", "")))
    except ValueError as exc:
        raise StateError(src, "phase", str(exc)) from None
    st = ClassicState(phase)
    seen: dict[str, str] = {}
    for power, texts in (data.get("units") or {}).items():
        if power not in gmap.powers:
            raise StateError(src, f"units.{power}", f"unknown power (expected one of {', '.join(gmap.powers)})")
        if not isinstance(texts, list):
            raise StateError(src, f"units.{power}", "expected a list of units")
        for t in texts:
            kind, region = _unit_text(t, src, f"units.{power}", gmap)
            prov = province_of(region)
            if prov in seen:
                raise StateError(src, f"units.{power}", f"two units in {prov} ({seen[prov]} and {t})")
            seen[prov] = t
            st.units.append(Unit(power, kind, region))
    for power, centres in (data.get("owners") or {}).items():
        if power not in gmap.powers:
            raise StateError(src, f"owners.{power}", "unknown power")
        for c in centres or []:
            code = str(c).upper()
            if code not in gmap.provinces or not gmap.provinces[code].supply:
                raise StateError(src, f"owners.{power}", f"{c!r} is not a supply centre")
            if code in st.owners:
                raise StateError(src, f"owners.{power}", f"{code} is owned twice")
            st.owners[code] = power
    for i, d in enumerate(data.get("dislodged") or []):
        key = f"dislodged[{i}]"
        if not isinstance(d, dict) or d.get("power") not in gmap.powers:
            raise StateError(src, key, "expected power, unit, attacker_from, by_convoy")
        kind, region = _unit_text(d.get("unit"), src, key, gmap)
        origin = str(d.get("attacker_from", "")).upper()
        if origin not in gmap.provinces:
            raise StateError(src, key, f"attacker_from {origin!r} is not a province")
        st.dislodged.append(Dislodged(d["power"], kind, region, origin, bool(d.get("by_convoy", False))))
    for c in data.get("contested") or []:
        if str(c).upper() not in gmap.provinces:
            raise StateError(src, "contested", f"{c!r} is not a province")
        st.contested.append(str(c).upper())
    winner = data.get("winner")
    st.winner = str(winner) if winner else None
    st.normalise()
    return st


def load(path: Path, gmap: ClassicMap) -> ClassicState:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise StateError(str(path), "", f"cannot read ({exc.strerror or exc})") from None
    except yaml.YAMLError as exc:
        raise StateError(str(path), "", f"not valid YAML: {exc}") from None
    return from_data(raw, gmap, str(path))
