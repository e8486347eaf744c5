"""A judge for many games: its directory and its settings.

``moonshine judge init DIR`` writes::

    DIR/judge.yaml          the judge's address, mailbox, SMTP, time zone, masters
    DIR/.moonshine-secret   the judge's secret seed (the draws of sides), never published
    DIR/registry.sqlite     the players and the games (moonshine.host.registry)
    DIR/games/NAME/         each game: a game directory as ``moonshine new`` makes one
    DIR/outbox/DAY/         the lobby's mail (registrations, lists, joins...), sent once
    DIR/run.log             one line per action of ``moonshine run DIR``

A game directory has a ``judge.yaml`` of its own (what the unattended judge did
for that game): a judge's directory is told from a game's by having no
``game.yaml``.

The settings read the way a game's do: ``inbox`` and ``smtp`` are the sections a
game.yaml has (``moonshine.mail.settings``), so the judge's own mail goes through the
same outbox (``moonshine.host.outbox``) and the same IMAP client."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path
from typing import Any

import msgspec

from moonshine.errors import GameError, StateError
from moonshine.game.directory import SECRET_FILE, GameConfig, atomic_write_text, write_secret
from moonshine.game.seeds import new_secret, seed_hash
from moonshine.mail.settings import check_logins

JUDGE_FILE = "judge.yaml"
GAMES = "games"
LOG = "run.log"
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
KEYS = ("title", "language", "timezone", "masters", "seed_sha256", "inbox", "smtp", "limits")


class Limits(msgspec.Struct, frozen=True):
    """What one stranger's mail may cost."""

    commands: int = 20  # commands done per message
    registrations: int = 3  # register commands per address per day
    requests: int = 30  # lobby messages answered per address per day
    messages: int = 1000  # messages read per pass (the rest wait for the next)
    passwords: int = 50  # new passwords mailed per pass


class HostSettings(msgspec.Struct, frozen=True):
    root: Path
    config: GameConfig  # title, language, seed hash, and the inbox, smtp and referee sections
    timezone: str
    masters: tuple[str, ...]  # who may create games
    limits: Limits

    @property
    def games_dir(self) -> Path:
        return self.root / GAMES

    def game_dir(self, name: str) -> Path:
        return self.games_dir / name


def is_judge_dir(root: Path) -> bool:
    return (root / JUDGE_FILE).is_file() and not (root / "game.yaml").exists()


def _section(raw: dict[str, Any], key: str) -> dict[str, Any]:
    value = raw.get(key) or {}
    if not isinstance(value, dict):
        raise StateError(JUDGE_FILE, key, "expected a mapping")
    return value


def load(root: Path) -> HostSettings:
    """``judge.yaml``, checked: a wrong key or value is an error naming it."""
    from zoneinfo import ZoneInfo

    from moonshine import yamlio

    path = root / JUDGE_FILE
    raw = yamlio.load(path, what="judge's settings")
    if not isinstance(raw, dict):
        raise StateError(str(path), "", "expected a mapping (title, timezone, masters, inbox, smtp)")
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise StateError(str(path), unknown[0], f"unknown key (expected {', '.join(KEYS)})")
    zone = str(raw.get("timezone") or "UTC")
    try:
        ZoneInfo(zone)
    except (ValueError, KeyError, OSError):
        raise StateError(str(path), "timezone", f"unknown time zone {zone!r}") from None
    masters = raw.get("masters") or []
    if isinstance(masters, str):
        masters = [masters]
    if not isinstance(masters, list) or not all(isinstance(a, str) and "@" in a for a in masters):
        raise StateError(str(path), "masters", "expected a list of addresses")
    limits_raw = _section(raw, "limits")
    try:
        limits = msgspec.convert(limits_raw, Limits)
    except msgspec.ValidationError as exc:
        raise StateError(str(path), "limits", str(exc)) from None
    language = str(raw.get("language") or "en")
    cfg = GameConfig(
        title=str(raw.get("title") or "Moonshine judge"),
        map="",
        language=language,
        seed_sha256=str(raw.get("seed_sha256") or ""),
        extra={
            "inbox": _section(raw, "inbox"),
            "smtp": _section(raw, "smtp"),
            "referee": {"email": [str(a) for a in masters]},
        },
    )
    check_logins(cfg, file=str(path))  # smtp's and inbox.imap's: named in judge.yaml, not at the first pass
    return HostSettings(root.resolve(), cfg, zone, tuple(a.strip().lower() for a in masters), limits)


TEMPLATE = """\
# The judge for many games (moonshine run {root}): one address, one mailbox for
# every game under games/. See docs/game-master.md, "Running a judge for many games".
title: {title}
language: {language}        # of the lobby's mail to someone not registered yet (en, fr)
timezone: {timezone}
masters: [{masters}]        # registered players who may create games
seed_sha256: {seed_hash}   # the hash of the secret seed of the draws of sides
inbox:
  source: {source}
  imap:
    password_env: MOONSHINE_IMAP_PASSWORD
    # auth: xoauth2                  # Outlook, Microsoft 365: an OAuth2 access token, no password,
    # token_command: oauth2-helper --account {address}   # printed by this command
    done_folder: Judged
  max_message_bytes: 524288
smtp:
  host: {smtp_host}
  port: 587
  security: starttls
  password_env: MOONSHINE_SMTP_PASSWORD
  # auth: xoauth2                    # as for the mailbox (with user:, and no password_env)
  # token_command: oauth2-helper --account {address}
  from: "{title} <{address}>"
limits:
  commands: 20          # commands done per message
  registrations: 3      # registrations per address per day
  requests: 30          # messages answered per address per day
  messages: 1000        # messages read per pass
"""


def init(
    root: Path,
    *,
    address: str,
    title: str = "Moonshine judge",
    timezone: str = "UTC",
    language: str = "en",
    masters: list[str] | None = None,
    source: str | None = None,
    smtp_host: str | None = None,
) -> str:
    """A new judge's directory; returns the hash of its secret seed (publish it)."""
    from moonshine.host.registry import FILE, Registry

    if (root / JUDGE_FILE).exists():
        raise GameError(f"{root}: a judge's directory already ({JUDGE_FILE} exists)")
    if (root / "game.yaml").exists():
        raise GameError(f"{root}: a game's directory: a judge's lives apart from its games")
    if not re.fullmatch(r"[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+", address):
        raise GameError(f"{address!r} is not an email address (expected e.g. judge@example.org)")
    root.mkdir(parents=True, exist_ok=True)
    (root / GAMES).mkdir(exist_ok=True)
    seed = new_secret()
    write_secret(root / SECRET_FILE, seed)
    user, _, host = address.partition("@")
    text = TEMPLATE.format(
        root=root,
        title=title,
        language=language,
        timezone=timezone,
        masters=", ".join(masters or []),
        seed_hash=seed_hash(seed),
        source=source or f"imaps://{user}@mail.{host}/INBOX",
        smtp_host=smtp_host or f"mail.{host}",
        address=address,
    )
    atomic_write_text(root / JUDGE_FILE, text)
    load(root)  # what it wrote reads back
    Registry(root / FILE).close()
    return seed_hash(seed)


def secret(root: Path) -> str:
    path = root / SECRET_FILE
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        raise GameError(f"{path}: the judge's secret seed is missing (it draws the sides)") from None


def player_token(root: Path, game: str, player: int) -> str:
    """A player's token in an anonymous game's draw of sides: 10 hexadecimal digits of
    an HMAC-SHA-256 of the judge's secret seed and the game and the player's number,
    so that the start mail can list the players by token without naming them; each
    player is told their own, and nobody can make another's."""
    message = f"player|{game}|{player}".encode()
    return hmac.new(secret(root).encode("utf-8"), message, hashlib.sha256).hexdigest()[:10]


def draw_seed(root: Path, game: str) -> str:
    """The seed of the draw of ``game``'s sides: the judge's secret seed and the game's
    name, through HMAC-SHA-256. Its SHA-256 is published when the game is created;
    the seed itself in the start mail, with which anyone can redo the draw."""
    return hmac.new(secret(root).encode("utf-8"), f"sides|{game}".encode(), hashlib.sha256).hexdigest()
