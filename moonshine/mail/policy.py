"""What a game's settings say about keeping it moving (``docs/game-master.md``, "Games
that keep moving"): when a turn may run before its deadline (``early:``), what
becomes of a side that sends no orders (``nmr:``, the missed-turn policy), and how
long the players' and the masters' pauses may last (``max_pause:``,
``master_pause_max:``). Pure: game.yaml's values in, a ``Policy`` out; a wrong value
is a StateError naming its key.

::

    early: when all ready   # no | when all ready (the default) | always
    nmr:                    # or one line: "smart", "off", "keep 2 3"
      player: smart         # the civil-disorder player (R26): keep (Moonshine); hold, smart (classic)
      disorder: 2           # turns without orders before civil disorder (0: never)
      remove: 3             # turns without orders before the player is removed (0: never)
      turns: movement       # the turns counted: movement (a classic game's movement phases) or all
    max_pause: 7d           # the longest pause the players may vote
    master_pause_max: 14d   # the longest pause, and extension, a master may make (default: no limit)

The defaults are njudge's and Diplicity's: a side goes into civil disorder after two
movement turns without orders, and its player is removed after three."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import msgspec

from moonshine.errors import StateError
from moonshine.game.directory import Game
from moonshine.text.folding import fold

SOURCE = "game.yaml"

# early:
EARLY_NO, EARLY_READY, EARLY_ALWAYS = "no", "ready", "always"
_EARLY_WORDS = {
    "no": EARLY_NO,
    "non": EARLY_NO,
    "never": EARLY_NO,
    "jamais": EARLY_NO,
    "off": EARLY_NO,
    "false": EARLY_NO,
    "when all ready": EARLY_READY,
    "ready": EARLY_READY,
    "quand tous prets": EARLY_READY,
    "prets": EARLY_READY,
    "always": EARLY_ALWAYS,
    "toujours": EARLY_ALWAYS,
    "yes": EARLY_ALWAYS,
    "oui": EARLY_ALWAYS,
    "true": EARLY_ALWAYS,
}
# nmr.turns:
MOVEMENT, ALL = "movement", "all"
NMR_KEYS = ("player", "disorder", "remove", "turns")
SMART = "smart"  # a Moonshine game reads it as its own player, keep (RULES.md, R26)
OFF = ("off", "non", "no", "none", "never", "jamais")

DEFAULT_DISORDER = 2
DEFAULT_REMOVE = 3
DEFAULT_MAX_PAUSE = timedelta(days=7)
LONGEST_PAUSE = timedelta(days=60)
KEYS = ("early", "nmr", "max_pause", "master_pause_max")  # game.yaml's keys (moonshine.schema.GAME)


class Policy(msgspec.Struct, frozen=True):
    """A game's settings on early turns, missed turns and pauses."""

    early: str = EARLY_READY  # EARLY_NO, EARLY_READY (every side's explicit ready) or EARLY_ALWAYS
    player: str = ""  # the civil-disorder player (one of the family's); "" for the family's first
    disorder: int = DEFAULT_DISORDER  # missed turns before civil disorder; 0: never
    remove: int = DEFAULT_REMOVE  # missed turns before the player is removed; 0: never
    turns: str = MOVEMENT  # the turns that count: MOVEMENT or ALL
    max_pause: timedelta = DEFAULT_MAX_PAUSE
    master_pause_max: timedelta | None = None  # None: a master's pause has no limit

    def player_of(self, players: Sequence[str]) -> str:
        """The civil-disorder player, among the family's ``players`` (the first by default;
        ``smart`` in a family without one is its first: Moonshine's ``keep`` defends)."""
        if not self.player or (self.player == SMART and SMART not in players):
            return players[0]
        return self.player


def _int(value: Any, key: str, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).strip().isdigit():
        raise StateError(source, key, f"expected a number of turns (0: never), found {value!r}")
    n = int(value)
    if n > 50:
        raise StateError(source, key, f"at most 50 turns, found {n}")
    return n


def read_nmr(raw: Any, players: Sequence[str], *, source: str = SOURCE) -> dict[str, Any]:
    """``nmr:`` as a mapping of ``NMR_KEYS`` (the one-line form read: a player's name,
    ``off``, one or two numbers, ``all`` or ``movement``), checked against the
    family's civil-disorder ``players``."""
    if raw is None:
        return {}
    if isinstance(raw, str | int) and not isinstance(raw, bool):
        out: dict[str, Any] = {}
        numbers: list[int] = []
        for word in str(raw).replace(",", " ").replace("/", " ").lower().split():
            if word in OFF:
                out["disorder"], out["remove"] = 0, 0
            elif word.isdigit():
                numbers.append(_int(word, "nmr", source))
            elif word in (MOVEMENT, ALL):
                out["turns"] = word
            else:
                out["player"] = word
        if len(numbers) > 2:
            raise StateError(source, "nmr", f"at most two numbers (civil disorder, removal), found {raw!r}")
        for key, n in zip(("disorder", "remove"), numbers, strict=False):
            out[key] = n
        raw = out
    if not isinstance(raw, dict):
        raise StateError(source, "nmr", f"expected a mapping ({', '.join(NMR_KEYS)}) or a line such as 'smart 2 3'")
    for key in raw:
        if key not in NMR_KEYS:
            raise StateError(source, f"nmr.{key}", f"unknown key (expected one of {', '.join(NMR_KEYS)})")
    checked: dict[str, Any] = {}
    if "player" in raw:
        player = str(raw["player"]).strip().lower()
        if player not in players and player != SMART:
            known = ", ".join(players)
            why = f"no civil-disorder player {player!r} in this game (expected {known})"
            raise StateError(source, "nmr.player", why)
        checked["player"] = player
    for key in ("disorder", "remove"):
        if key in raw:
            checked[key] = _int(raw[key], f"nmr.{key}", source)
    if "turns" in raw:
        turns = str(raw["turns"]).strip().lower()
        if turns not in (MOVEMENT, ALL):
            raise StateError(source, "nmr.turns", f"expected movement or all, found {raw['turns']!r}")
        checked["turns"] = turns
    return checked


def read_early(raw: Any, *, source: str = SOURCE) -> str:
    """``early:`` as one of EARLY_NO, EARLY_READY, EARLY_ALWAYS (YAML's yes and no read too)."""
    if raw is None:
        return EARLY_READY
    if isinstance(raw, bool):
        return EARLY_ALWAYS if raw else EARLY_NO
    found = _EARLY_WORDS.get(" ".join(fold(str(raw)).replace("_", " ").split()))
    if found is None:
        raise StateError(source, "early", f"expected no, when all ready or always, found {raw!r}")
    return found


def _pause(raw: Any, key: str, source: str) -> timedelta:
    from moonshine.game.schedule import parse_duration

    span = parse_duration(raw, key, source=source)
    if not timedelta(hours=1) <= span <= LONGEST_PAUSE:
        raise StateError(source, key, f"expected from 1h to {LONGEST_PAUSE.days}d, found {raw!r}")
    return span


def read_policy(extra: dict[str, Any], players: Sequence[str], *, source: str = SOURCE) -> Policy:
    """The policy of a game.yaml whose other keys are ``extra``; ``players``: its
    family's civil-disorder players (``Layout.civil_disorder_players``)."""
    nmr = read_nmr(extra.get("nmr"), players, source=source)
    master = extra.get("master_pause_max")
    pause = extra.get("max_pause")
    return Policy(
        early=read_early(extra.get("early"), source=source),
        player=nmr.get("player", ""),
        disorder=nmr.get("disorder", DEFAULT_DISORDER),
        remove=nmr.get("remove", DEFAULT_REMOVE),
        turns=nmr.get("turns", MOVEMENT),
        max_pause=_pause(pause, "max_pause", source) if pause is not None else DEFAULT_MAX_PAUSE,
        master_pause_max=_pause(master, "master_pause_max", source) if master is not None else None,
    )


def policy_of(game: Game) -> Policy:
    """The policy of ``game``."""
    return read_policy(game.config.extra, game.layout.civil_disorder_players, source=str(game.config_path))
