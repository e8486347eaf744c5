"""A game directory: ``game.yaml`` (map, language, gangs' players), ``orders/TURN/``
and ``turns/TURN/state.yaml``; kept in git when git is available."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from moonshine import variants, yamlio
from moonshine.engine.rulebook import Rulebook
from moonshine.errors import GameError, StateError
from moonshine.game.git import IGNORED as IGNORED
from moonshine.game.git import JOURNAL_DIR as JOURNAL_DIR
from moonshine.game.git import SECRET_FILE as SECRET_FILE
from moonshine.game.git import git_available as git_available
from moonshine.game.git import git_commit as git_commit
from moonshine.game.git import is_git_repo as is_git_repo
from moonshine.game.seeds import EarlierSeed, earlier_seeds
from moonshine.game.seeds import seed_hash as seed_hash
from moonshine.text.catalogue import languages
from moonshine.variants.moonshine import houserules
from moonshine.variants.moonshine import state as state_mod
from moonshine.variants.moonshine.houserules import HouseRules
from moonshine.variants.moonshine.map import GameMap, load_map
from moonshine.variants.moonshine.state import GameState

if TYPE_CHECKING:
    from moonshine.variants.classic.board import ClassicMap
    from moonshine.variants.layout import Layout

GAME_FILE = "game.yaml"
DEFAULT_VARIANT = "moonshine"  # a game.yaml without variant: plays Moonshine


class Player(msgspec.Struct):
    name: str = ""
    email: list[str] = msgspec.field(default_factory=list)
    password: str | None = None  # salted hash, never the password itself
    timezone: str | None = None  # the player's time zone (IANA name): deadlines in their mail are shown in it
    language: str | None = None  # the player's own language (en, fr) when not the game's: replies and report


class GameConfig(msgspec.Struct):
    title: str
    map: str
    language: str = "en"
    seed_sha256: str = ""
    players: dict[str, Player] = msgspec.field(default_factory=dict)
    # other sections (smtp, deadlines, ...) kept as they are
    extra: dict[str, Any] = msgspec.field(default_factory=dict)
    variant: str = DEFAULT_VARIANT
    lines: dict[str, int] = msgspec.field(default_factory=dict)  # where keys were read (players.GANG)
    house: HouseRules = msgspec.field(default_factory=HouseRules)  # rules: (kept in extra as written)
    rulebook: Rulebook | None = None  # the rule choices rules: makes (None: the family's own book)

    @property
    def anonymous(self) -> bool:
        """Whether the game hides who plays which side from the other players
        (``anonymous: yes``; ``moonshine.game.identities``)."""
        return self.extra.get("anonymous") is True


def player_language(cfg: GameConfig, side: str | None) -> str:
    """The language of what a side's player reads: their own (``players.SIDE.language``),
    else the game's."""
    player = cfg.players.get(side) if side is not None else None
    return player.language if player is not None and player.language else cfg.language


def write_secret(path: Path, seed: str) -> None:
    """A secret seed in its file, readable by its owner only (0600), written whole or
    not at all; the file is kept out of the game's git history (``moonshine.game.git``)."""
    atomic_write_text(path, seed + "\n", mode=0o600)


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """Write a text file (UTF-8, ``\n`` line ends) as ``atomic_write_bytes`` does."""
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode)


def atomic_write_bytes(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write a file so that a reader sees the old or the new content, never half.
    Within a job (``moonshine.game.journal``) the file's old content is saved first, and
    its durability may be left to the one sync before the job's commit point. ``mode``:
    the file's permissions from the start (0o600 for a secret), else the umask's."""
    import tempfile

    from moonshine.game import journal

    journal.before_write(path)
    sync = not journal.deferred_sync(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if sync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


TURN_DIR_NAME = re.compile(r"[a-z]+-[0-9]{4}(?:-[a-z]+)?")  # a turn's directory: spring-1924, fall-1901-retreats


class Game:
    """A game directory on disk. Loads lazily; every path it hands out is inside it."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self._config: GameConfig | None = None
        self._map: GameMap | None = None

    # -- layout ----------------------------------------------------------------
    @property
    def config_path(self) -> Path:
        return self.root / GAME_FILE

    def turn_dir(self, turn: str) -> Path:
        return self.root / "turns" / self.turn_name(turn)

    def state_path(self, turn: str) -> Path:
        return self.turn_dir(turn) / "state.yaml"

    def orders_dir(self, turn: str) -> Path:
        return self.root / "orders" / self.turn_name(turn)

    def turn_name(self, turn: str) -> str:
        """A turn as its directories are named: ``printemps-1924`` (French) is
        ``spring-1924``; a classic game's phases as written. A GameError for a name that
        is not a turn (or phase) of this game's variant, before any path is built from
        it: a name from the command line or a mail never leads outside the game."""
        self.turn_key(turn)
        name = self.layout.turn_name(turn)
        if not TURN_DIR_NAME.fullmatch(name):
            raise GameError(f"not a turn name: {turn!r}")
        return name

    def turns(self) -> list[str]:
        """Turns (a classic game's phases) with a state file, in order."""
        return self.layout.turns(self.root)

    def current_turn(self) -> str:
        ts = self.turns()
        if not ts:
            raise GameError(f"{self.root}: no turn yet (no turns/*/state.yaml)")
        return ts[-1]

    def turn_key(self, turn: str) -> tuple[int, ...]:
        """A key that orders the game's turns (or a classic game's phases); a
        GameError for a name that is neither."""
        try:
            return self.variant.turn_key(turn)
        except ValueError as exc:
            raise GameError(str(exc)) from None

    def require_turn(self, turn: str) -> None:
        """An error naming the turns there are unless ``turn`` has a state."""
        if not self.state_path(turn).is_file():
            known = ", ".join(self.turns()) or "none"
            raise GameError(f"{self.state_path(turn)}: no state for {turn} (turns in this game: {known})")

    # -- who plays ------------------------------------------------------------------
    def sides(self, language: str = "en") -> dict[str, str]:
        """Who plays, by key: the gangs (Moonshine) or the powers (classic family),
        with their names (a board's names in ``language``, where it has them)."""
        return self.layout.sides(self, language)

    def side_by_name(self, name: str) -> str | None:
        """The key of the gang or power called ``name`` (its key or its name, any case)."""
        return self.layout.side_by_name(self, name)

    @property
    def side_word(self) -> str:
        """What the players lead: gangs (Moonshine) or powers (classic family)."""
        return self.variant.side

    # -- contents ----------------------------------------------------------------
    @property
    def config(self) -> GameConfig:
        if self._config is None:
            self._config = load_config(self.config_path)
        return self._config

    def forget_config(self) -> None:
        """Read game.yaml again at the next use of ``config`` (a job wrote it)."""
        self._config = None

    @property
    def variant(self) -> variants.Variant:
        """The game's variant (``variant:`` in game.yaml, Moonshine by default)."""
        return variants.get(self.config.variant)

    @property
    def layout(self) -> Layout:
        """The variant's turns, sides and states (``moonshine.variants.layout``)."""
        return self.variant.layout

    def board(self) -> ClassicMap:
        """The board of a classic-family game."""
        return self.layout.load_board(self, self.config.map)

    @property
    def map(self) -> GameMap:
        if self._map is None:
            refusal = self.layout.map_refusal(self, self.variant.name, self.variant.title)
            if refusal is not None:
                raise GameError(refusal)
            ref = self.config.map
            candidate = self.root / ref
            self._map = load_map(candidate if candidate.suffix in (".yaml", ".yml") and candidate.exists() else ref)
            check_players(self.config, self._map.gangs, str(self.config_path))
        return self._map

    def load_state(self, turn: str) -> GameState:
        gmap = self.map  # first: a directory without game.yaml is not a game
        turn = self.turn_name(turn)
        path = self.state_path(turn)
        if not path.is_file():
            known = ", ".join(self.turns()) or "none"
            raise GameError(f"{path}: no state for {turn} (turns in this game: {known})")
        st = state_mod.load(path, gmap)
        if st.turn != turn:
            raise StateError(str(path), "turn", f"says {st.turn}, but the file is the state of {turn} (turns/{turn}/)")
        return st

    def load_any_state(self, turn: str) -> Any:
        """The state at the start of ``turn``: a ``GameState``, or for a classic game
        the phase's ``ClassicState``."""
        return self.layout.load_state(self, turn)

    def save_state(self, st: GameState) -> Path:
        st.normalise(self.map)
        path = self.state_path(st.turn)
        atomic_write_text(path, state_mod.dumps(st))
        return path

    def secret(self) -> str:
        """The game's secret seed, as it is now (its hash is game.yaml's ``seed_sha256``)."""
        path = self.root / SECRET_FILE
        if not path.is_file():
            raise GameError(f"{path}: the game's secret seed is missing; the raid draws need it (R21)")
        seed = yamlio.read_text(path, limit=4096, what="secret seed file").strip()
        if self.config.seed_sha256 and seed_hash(seed) != self.config.seed_sha256:
            raise GameError(f"{path}: the seed does not match seed_sha256 in {GAME_FILE}")
        return seed

    def earlier_seeds(self) -> list[EarlierSeed]:
        """The seeds replaced during the game, oldest first (game.yaml's ``earlier_seeds``)."""
        return earlier_seeds(self.config.extra, str(self.config_path))

    def _earlier_seed_of(self, turn: str) -> EarlierSeed | None:
        key = self.turn_key(turn)
        return next((e for e in self.earlier_seeds() if key <= self.turn_key(e.last_turn)), None)

    def secret_for(self, turn: str) -> str:
        """The seed of ``turn``: the one that draws its raid and salts its receipts. A
        seed replaced during the game (``earlier_seeds``) is the seed of every turn up
        to its ``last_turn``; the game's secret is the seed of the turns after."""
        earlier = self._earlier_seed_of(turn)
        return earlier.seed if earlier is not None else self.secret()

    def seed_sha256_for(self, turn: str) -> str:
        """The published SHA-256 of ``turn``'s seed (``secret_for``), known without
        the secret: a replaced seed's, else game.yaml's ``seed_sha256``."""
        earlier = self._earlier_seed_of(turn)
        return earlier.sha256 if earlier is not None else self.config.seed_sha256

    def side_languages(self) -> dict[str, str]:
        """Each side's reading language: its player's own, else the game's."""
        return {key: player_language(self.config, key) for key in self.sides()}

    def receipt_seed(self, turn: str) -> str | None:
        """The seed ``turn``'s receipts are salted with (``moonshine.render.receipts``):
        the turn's seed (``secret_for``), or None when this copy of the game has no
        secret (no receipt then)."""
        try:
            return self.secret_for(turn)
        except GameError:
            return None


def load_config(path: Path) -> GameConfig:
    """``game.yaml``, checked strictly (``moonshine.schema.GAME``): a typo, a key
    given twice, an impossible date are errors naming the file, line and key."""
    if not path.exists():
        raise GameError(f"{path}: not a game directory (no {GAME_FILE}); create one with 'moonshine new DIR'")
    return load_config_text(yamlio.read_text(path, what="game file"), str(path))


def load_config_text(text: str, src: str) -> GameConfig:
    """The text of a ``game.yaml`` (``src`` names it in errors), checked strictly."""
    from moonshine import schema

    raw = yamlio.loads(text, src)
    if not isinstance(raw, dict):
        raise StateError(src, "", "expected a mapping (title, map, players, ...)")
    if "map" not in raw:
        raise StateError(src, "map", "missing: the map's name (e.g. chicago-1920s) or path")
    schema.check(raw, schema.GAME, src)

    def at(key: str) -> str:
        return yamlio.where(src, yamlio.line_of(raw, key))

    title = raw.get("title", "Moonshine")
    map_ref = raw.get("map")
    if not isinstance(map_ref, str) or not map_ref:
        raise StateError(at("map"), "map", "missing: the map's name (e.g. chicago-1920s) or path")
    language = raw.get("language", "en")
    if language not in languages():
        raise StateError(at("language"), "language", f"expected one of {', '.join(languages())}, found {language!r}")
    variant = raw.get("variant", "moonshine")
    if not variants.is_known(variant):
        raise StateError(at("variant"), "variant", f"expected one of {', '.join(variants.names())}, found {variant!r}")
    _check_deadlines(raw.get("deadlines"), src, variant)
    layout = variants.get(variant).layout
    rules_line = yamlio.line_of(raw, "rules")
    rulebook = layout.rulebook(raw.get("rules"), src, rules_line)  # the family's options, checked
    house = houserules.from_config(raw.get("rules"), src, rules_line) if layout.house_rules else HouseRules()
    if raw.get("schedule") is not None:
        from moonshine.game.schedule import parse_schedule

        parse_schedule(raw["schedule"], source=at("schedule"))
    players: dict[str, Player] = {}
    raw_players = raw.get("players") or {}
    if not isinstance(raw_players, dict):
        raise StateError(src, "players", "expected a mapping from gang key to player")
    for gang, p in raw_players.items():
        if p is None:
            p = {}
        if not isinstance(p, dict):
            raise StateError(src, f"players.{gang}", "expected a mapping with name, email, password")
        email = p.get("email") or []
        if isinstance(email, str):
            email = [email]
        if not isinstance(email, list) or not all(isinstance(e, str) for e in email):
            raise StateError(src, f"players.{gang}.email", "expected an address or a list of addresses")
        zone = p.get("timezone")
        if zone is not None:
            from moonshine.game.schedule import zone_named

            zone_named(zone, f"players.{gang}.timezone", source=src)
        own = p.get("language")
        if own is not None and own not in languages():
            raise StateError(
                src, f"players.{gang}.language", f"expected one of {', '.join(languages())}, found {own!r}"
            )
        players[str(gang)] = Player(
            name=str(p.get("name") or ""), email=list(email), password=p.get("password"), timezone=zone, language=own
        )
    known = {"title", "map", "language", "seed_sha256", "players", "variant"}
    return GameConfig(
        title=str(title),
        map=map_ref,
        language=language,
        seed_sha256=str(raw.get("seed_sha256") or ""),
        players=players,
        extra={k: v for k, v in raw.items() if k not in known},
        variant=variant,
        lines={f"players.{g}": yamlio.line_of(raw_players, g) for g in raw_players},
        house=house,
        rulebook=rulebook,
    )


def _check_deadlines(raw: Any, src: str, variant: str = variants.MOONSHINE) -> None:
    """Every deadline a turn (or a classic game's phase) and a real date and time
    with its time zone."""
    if not raw:
        return
    for turn, value in raw.items():
        line = yamlio.where(src, yamlio.line_of(raw, turn))
        key = f"deadlines.{turn}"
        try:
            variants.get(variant).turn_key(str(turn))
        except ValueError as exc:
            raise StateError(line, key, str(exc)) from None
        parse_deadline(value, key, where=line)


def check_players(cfg: GameConfig, gangs: Iterable[str], source: str) -> None:
    """Every key under ``players`` is one of the map's gangs (a typo is named)."""
    known = list(gangs)
    for gang in cfg.players:
        if gang not in known:
            import difflib

            near = difflib.get_close_matches(gang, known, n=1)
            hint = f"did you mean '{near[0]}'? " if near else ""
            raise StateError(
                yamlio.where(source, cfg.lines.get(f"players.{gang}", 0)),
                f"players.{gang}",
                f"unknown gang ({hint}the gangs: {', '.join(known)})",
            )


def config_to_yaml(cfg: GameConfig) -> str:
    data: dict[str, Any] = {"variant": cfg.variant} if cfg.variant != DEFAULT_VARIANT else {}  # the default unsaid
    data |= {
        "title": cfg.title,
        "map": cfg.map,
        "language": cfg.language,
        "seed_sha256": cfg.seed_sha256,
        "players": {
            g: {"name": p.name, "email": list(p.email), "password": p.password}
            | ({"timezone": p.timezone} if p.timezone else {})
            | ({"language": p.language} if p.language else {})
            for g, p in cfg.players.items()
        },
    }
    data.update(cfg.extra)
    return "# Moonshine game: edit players' names and addresses here.\n" + yamlio.dump(data)


def same_settings(a: GameConfig, b: GameConfig) -> bool:
    """Whether two readings of game.yaml say the same: every setting equal, wherever
    in the file each was written (``lines``)."""
    return msgspec.structs.replace(a, lines={}) == msgspec.structs.replace(b, lines={})


def save_config(game: Game, cfg: GameConfig) -> None:
    atomic_write_text(game.config_path, config_to_yaml(cfg))
    game._config = cfg


# -- sections of game.yaml read by several commands (light: no mail machinery) ---------


def config_section(cfg: GameConfig, name: str) -> dict[str, Any]:
    """A section of game.yaml (smtp, deadlines, inbox, ...): a mapping, empty when absent."""
    raw = cfg.extra.get(name)
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise StateError(GAME_FILE, name, f"expected a mapping, found {raw!r}")
    return raw


def parse_deadline(value: Any, key: str, *, where: str = GAME_FILE) -> datetime:
    """A deadline from game.yaml (``where``: the file, or its line): an ISO 8601 time
    with its time zone, in UTC."""
    if isinstance(value, datetime):
        when = value
    elif isinstance(value, str):
        try:
            when = datetime.fromisoformat(value.strip())
        except ValueError:
            raise StateError(
                where, key, f"not a real date and time: {value!r} (expected e.g. 2024-03-01T18:00:00+00:00)"
            ) from None
    else:
        raise StateError(where, key, f"expected a date and time like 2024-03-01T18:00:00+00:00, found {value!r}")
    if when.tzinfo is None:
        raise StateError(where, key, f"{value!r} has no time zone: add one, e.g. +00:00 for UTC")
    return when.astimezone(UTC)


def deadline(cfg: GameConfig, turn: str) -> datetime | None:
    """The turn's deadline (UTC) from ``deadlines:`` in game.yaml, or None."""
    raw = config_section(cfg, "deadlines")
    if turn not in raw:
        return None
    return parse_deadline(raw[turn], f"deadlines.{turn}")
