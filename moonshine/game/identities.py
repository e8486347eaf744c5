"""Who plays which side, and who may be told (issue 41).

A game names its players to one another (the judge's start mail, ``list GAME``)
unless it is *anonymous* (``anonymous: yes`` in game.yaml): then nothing a player or
an observer gets (mail, lists, reports, the bulletin, the site) says who plays which
side; the side's name stands for its player. The game's masters (its referee) know.
When the game is over the identities are revealed (``reveal_identities: at-end``, the
default: a mail to each player, and the site names them) or never (``never``);
``identities_revealed`` records when they were. A *gunboat* game is an anonymous game
with no press (``press: {kind: none}``).

Pure reading of the game's settings, and the one write of the reveal's date."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from moonshine.game.directory import Game, GameConfig

ANONYMOUS = "anonymous"
REVEAL = "reveal_identities"
REVEALED = "identities_revealed"
AT_END, NEVER = "at-end", "never"
REVEALS = (AT_END, NEVER)


class Identities(msgspec.Struct, frozen=True):
    """A game's setting: whether it hides its players, whether it reveals them at the
    end, and when it did (an ISO time, or None)."""

    anonymous: bool = False
    reveal: str = AT_END
    revealed: str | None = None

    @property
    def hidden(self) -> bool:
        """Whether the players' names are kept from one another now."""
        return self.anonymous and self.revealed is None

    @property
    def to_reveal(self) -> bool:
        """Whether the game is to reveal them at its end, and has not yet."""
        return self.anonymous and self.reveal == AT_END and self.revealed is None


def of(cfg: GameConfig) -> Identities:
    """The game's setting (game.yaml, checked by ``moonshine.schema``)."""
    revealed = cfg.extra.get(REVEALED)
    return Identities(
        anonymous=cfg.anonymous,
        reveal=str(cfg.extra.get(REVEAL) or AT_END),
        revealed=revealed.isoformat() if isinstance(revealed, datetime) else (str(revealed) if revealed else None),
    )


def players(cfg: GameConfig) -> dict[str, str | None]:
    """Each side's player's name as game.yaml gives it, by side: "" for a player who
    gave none, None for a side with no player (no name and no address)."""
    return {side: p.name if p.name or p.email else None for side, p in cfg.players.items()}


def mark_revealed(game: Game, now: datetime) -> None:
    """game.yaml records that the identities are revealed (``identities_revealed``),
    within the caller's transaction."""
    from moonshine.game.directory import atomic_write_text, config_to_yaml

    cfg = game.config
    extra = {**cfg.extra, REVEALED: now.astimezone(UTC).replace(microsecond=0).isoformat()}
    atomic_write_text(game.config_path, config_to_yaml(msgspec.structs.replace(cfg, extra=extra)))
    game.forget_config()
