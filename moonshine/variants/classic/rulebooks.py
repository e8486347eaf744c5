"""The classic family's rule options, as values, and the presets that name the
combinations real sites play. A game chooses them in ``game.yaml``::

    rules: {preset: webdiplomacy}                              # a site's rules
    rules: {preset: 2023, civil_disorder: home-distance}       # a preset and an override

Each option is one of the DATC's open questions (chapter 4), each value a field of the
``Rulebook`` the adjudication reads (``moonshine.engine.rulebook``); the default of every
option is the 2023 rulebook's, which is the DATC v3.0's preference. docs/rules-presets.md
says what each preset changes and where it comes from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from moonshine.engine.rulebook import Rulebook
from moonshine.errors import StateError
from moonshine.variants.classic.rules import CLASSIC


class Option(msgspec.Struct, frozen=True):
    """One rule option: its DATC issue, what it decides, and each value's Rulebook fields
    (the first value is the default, the 2023 rulebook's)."""

    issue: str
    what: str
    values: Mapping[str, Mapping[str, Any]]

    @property
    def default(self) -> str:
        return next(iter(self.values))


OPTIONS: Mapping[str, Option] = {
    "civil_disorder": Option(
        "4.D.8",
        "which units a power that orders too few disbands loses",
        {
            # 2023: the farthest from the power's owned centres, armies and fleets over any border
            "owned-distance": {"civil_disorder": "owned-distance"},
            # before 2023, as DATC v2 found most judges read it: from its home centres, an
            # army over any border, a fleet as it moves (dipcc, for webDiplomacy)
            "home-distance": {"civil_disorder": "home-distance"},
            # from its home centres, armies and fleets over any border (Droidippy)
            "home-distance-any-border": {"civil_disorder": "home-distance-any-border"},
        },
    ),
    "convoy_intent": Option(
        "4.A.3",
        "when an army's move to a neighbouring province goes by convoy",
        {
            # 2000/2023: ordered "via convoy", or a fleet of its own power is ordered to convoy it
            "own-fleet": {"own_carrier_means_transport": True, "any_carrier_means_transport": False},
            # 1982: any fleet ordered to convoy it (the totality of the orders)
            "any-fleet": {"own_carrier_means_transport": True, "any_carrier_means_transport": True},
            # DPTG, webDiplomacy: only when the order says "via convoy"
            "via-convoy": {"own_carrier_means_transport": False, "any_carrier_means_transport": False},
        },
    ),
    "convoy_fallback": Option(
        "4.A.3",
        "what becomes of a move ordered via convoy to a neighbouring province that no fleet convoys",
        {
            "none": {"transport_falls_back_to_land": False},  # DATC v3: it fails
            "land": {"transport_falls_back_to_land": True},  # DATC v2: it goes over land
        },
    ),
    "convoyed_attacker_origin": Option(
        "4.A.5",
        "whether a unit dislodged by a convoyed army may retreat where the army came from",
        {
            "open": {"retreat_to_transported_attackers_origin": True},  # 2023 rulebook
            "closed": {"retreat_to_transported_attackers_origin": False},  # 1982 and 2000 rulebooks
        },
    ),
    "convoy_paradox": Option(
        "4.A.2",
        "how a convoy paradox is settled",
        {
            "szykman": {"paradox_rule": "szykman"},  # the convoying fleets hold
            "all-fail": {"paradox_rule": "all-fail"},  # every order of the cycle fails
        },
    ),
}


class Preset(msgspec.Struct, frozen=True):
    """A combination of options that a site plays, and where the choices come from."""

    title: str
    choices: Mapping[str, str]  # option -> value; the others keep the default
    source: str


PRESETS: Mapping[str, Preset] = {
    "2023": Preset("The 2023 rulebook, DATC v3.0's preferences", {}, "the rulebook and the DATC"),
    "webdiplomacy": Preset(
        "webDiplomacy",
        {
            "civil_disorder": "home-distance",
            "convoy_intent": "via-convoy",
            "convoy_fallback": "land",
            "convoyed_attacker_origin": "closed",
        },
        "webDiplomacy's orders carry an explicit via-convoy flag and its civil disorder counts from home "
        "centres; measured on 40 games replayed by the engine that published them (dipcc)",
    ),
    "droidippy": Preset(
        "Droidippy (godip, 2010-2013)",
        {"civil_disorder": "home-distance-any-border", "convoy_fallback": "land"},
        "measured on 5,741 games played on Droidippy",
    ),
}
DEFAULT_PRESET = "2023"
KEYS = ("preset", *OPTIONS)


def rulebook(preset: str = DEFAULT_PRESET, overrides: Mapping[str, str] | None = None) -> Rulebook:
    """The Rulebook of ``preset`` with ``overrides`` (option -> value); ValueError names
    an unknown preset, option or value and the allowed ones."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r} (expected one of {', '.join(PRESETS)})")
    chosen = {**PRESETS[preset].choices, **(overrides or {})}
    fields: dict[str, Any] = {}
    for name, value in chosen.items():
        option = OPTIONS.get(name)
        if option is None:
            raise ValueError(f"unknown rule option {name!r} (expected one of {', '.join(OPTIONS)})")
        if value not in option.values:
            raise ValueError(f"{name}: unknown value {value!r} (expected one of {', '.join(option.values)})")
        fields.update(option.values[value])
    return msgspec.structs.replace(CLASSIC, **fields) if fields else CLASSIC


def choices(book: Rulebook) -> dict[str, str]:
    """The value of every option that ``book`` takes (``None`` of none: a book made by
    hand may take none of an option's values)."""
    out: dict[str, str] = {}
    for name, option in OPTIONS.items():
        for value, fields in option.values.items():
            if all(getattr(book, f) == v for f, v in fields.items()):
                out[name] = value
                break
    return out


def preset_of(book: Rulebook) -> str | None:
    """The name of the preset ``book`` is exactly, or None."""
    return next((name for name in PRESETS if rulebook(name) == book), None)


def from_config(raw: Mapping[str, Any] | None, source: str, line: int = 0) -> Rulebook:
    """The ``rules:`` section of a classic game's ``game.yaml`` (at ``line`` of ``source``):
    a preset and options overriding it, each checked; an error names the file, the line,
    the key and the values allowed."""
    from moonshine import yamlio

    if not raw:
        return CLASSIC

    def at(key: str) -> str:
        return yamlio.where(source, yamlio.line_of(raw, key) or line)

    for key in raw:
        if key not in KEYS:
            import difflib

            near = difflib.get_close_matches(str(key), KEYS, n=1)
            hint = f"did you mean '{near[0]}'? " if near else ""
            what = "a house rule of Moonshine games" if key in ("victory_vp", "minimum_bribe") else "unknown key"
            raise StateError(at(str(key)), f"rules.{key}", f"{what} ({hint}a classic game's: {', '.join(KEYS)})")
    preset = raw.get("preset", DEFAULT_PRESET)
    preset = str(preset) if isinstance(preset, int) and not isinstance(preset, bool) else preset
    if preset not in PRESETS:
        raise StateError(at("preset"), "rules.preset", f"expected one of {', '.join(PRESETS)}, found {preset!r}")
    overrides: dict[str, str] = {}
    for name, option in OPTIONS.items():
        if name not in raw:
            continue
        value = raw[name]
        if value not in option.values:
            raise StateError(at(name), f"rules.{name}", f"expected one of {', '.join(option.values)}, found {value!r}")
        overrides[name] = value
    return rulebook(preset, overrides)
