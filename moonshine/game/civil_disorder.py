"""A side in civil disorder, in a game directory (R26): the orders its rule
family's civil-disorder player writes for it, from the game's secret seed, into
``orders/TURN/SIDE.txt`` like a player's; and the same orders computed again, by
anyone, once the seed is revealed (``moonshine verify-cd``).

When a side is in civil disorder (how many missed turns, the game's ``nmr:``
player) is the judge's to decide (``moonshine.mail.disorder``); these functions are
what it calls. A game made before its family kept a secret seed (a classic game of
an earlier version) is given one the first time its civil-disorder player is needed
(``ensure_secret``): its hash is written to game.yaml and committed before anything
is drawn from it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec

from moonshine.errors import GameError
from moonshine.game.directory import SECRET_FILE, Game, atomic_write_text, seed_hash
from moonshine.variants.civil_disorder import Mark, civil_disorder_seed, read_mark


class Verification(msgspec.Struct, frozen=True):
    """A side's orders file for a turn against what the civil-disorder player
    writes from the seed: ``expected`` is that text, ``actual`` the file's (None
    when there is no file)."""

    turn: str
    side: str
    player: str
    seed: str  # the player's seed: civil_disorder_seed(the game's secret, turn, side)
    path: Path
    expected: str
    actual: str | None

    @property
    def matches(self) -> bool:
        return self.actual == self.expected


def ensure_secret(game: Game, *, notify: Callable[[str], None] | None = None) -> str | None:
    """Give ``game`` a secret seed if it has none (``moonshine.game.seeds.new_secret``):
    the seed in its secret file and its SHA-256 in game.yaml, committed in one
    transaction before the seed draws anything. Returns the new seed's hash, or None
    when the game has its seed already. A game.yaml that publishes a hash whose seed
    is missing is an error: a new seed would not be the one published."""
    from moonshine.game.directory import IGNORED, config_to_yaml, is_git_repo, write_secret
    from moonshine.game.journal import transaction
    from moonshine.game.seeds import new_secret

    if (game.root / SECRET_FILE).is_file():
        return None
    if game.config.seed_sha256:
        raise GameError(
            f"{game.root / SECRET_FILE}: the secret seed whose SHA-256 {game.config_path} publishes is missing"
        )
    with transaction(game.root, "a secret seed for the civil-disorder player", notify=notify) as txn:
        seed = new_secret()
        secret = game.root / SECRET_FILE
        ignore = game.root / ".gitignore"
        txn.protect(secret)
        txn.protect(game.config_path)
        write_secret(secret, seed)
        if not ignore.is_file():
            txn.protect(ignore)
            atomic_write_text(ignore, "".join(f"{pattern}\n" for pattern in IGNORED))
        cfg = msgspec.structs.replace(game.config, seed_sha256=seed_hash(seed))
        atomic_write_text(game.config_path, config_to_yaml(cfg))
        txn.commit(
            "A secret seed for the civil-disorder player (R26): its hash published in game.yaml",
            ["game.yaml", ".gitignore"],
            git=is_git_repo(game.root),
        )
    game.forget_config()
    return seed_hash(seed)


def marks(game: Game, turn: str) -> dict[str, Mark]:
    """The sides whose orders for ``turn`` the civil-disorder player wrote, with its
    mark (the player and the seed): the reports and the bulletin say so."""
    from moonshine.game.orderfile import read

    folder = game.orders_dir(turn)
    out: dict[str, Mark] = {}
    for side in game.sides():
        path = folder / f"{side}.txt"
        if path.is_file():
            try:
                found = read_mark(read(path))
            except GameError:  # a file that is no text: no mark (the adjudication says why)
                continue
            if found is not None:
                out[side] = found
    return out


def civil_disorder_path(game: Game, turn: str, side: str) -> Path:
    """Where ``side``'s orders for ``turn`` are: ``orders/TURN/SIDE.txt``."""
    return game.orders_dir(turn) / f"{side}.txt"


def civil_disorder_text(
    game: Game, turn: str, side: str, player: str | None = None, secret: str | None = None
) -> tuple[str, str]:
    """The orders file the civil-disorder ``player`` (default: the family's first,
    ``Layout.civil_disorder_players``) writes for ``side`` in ``turn``, and the
    seed it drew from, derived from ``secret`` (default: the game's own secret
    seed). A GameError for an unknown turn, side or player, or a secret that is not
    the one whose SHA-256 game.yaml publishes."""
    layout = game.layout
    if side not in game.sides():
        raise GameError(f"no {layout.side} {side!r} in this game (expected one of {', '.join(game.sides())})")
    game.require_turn(turn)
    name = game.turn_name(turn)
    chosen = player or layout.civil_disorder_players[0]
    if chosen not in layout.civil_disorder_players:
        known = ", ".join(layout.civil_disorder_players)
        raise GameError(f"no civil-disorder player {chosen!r} in a game of this variant (expected one of {known})")
    if secret is None:
        if not (game.root / SECRET_FILE).is_file():
            raise GameError(
                f"{game.root / SECRET_FILE}: no secret seed, which the civil-disorder player draws from (R26)"
            )
        secret = game.secret_for(name)  # a seed replaced during the game is the seed of its turns
    elif game.seed_sha256_for(name) and seed_hash(secret) != game.seed_sha256_for(name):
        raise GameError(f"this seed's SHA-256 is not the one {game.config_path} publishes for {name}")
    seed = civil_disorder_seed(secret, name, side)
    return layout.civil_disorder(game, name, side, chosen, seed, game.config.rulebook), seed


def write_civil_disorder(game: Game, turn: str, side: str, player: str | None = None) -> Path:
    """Write ``side``'s civil-disorder orders for ``turn`` into its orders file (in
    place of any file there), from the game's secret seed; returns the file's path."""
    text, _ = civil_disorder_text(game, turn, side, player)
    path = civil_disorder_path(game, turn, side)
    atomic_write_text(path, text)
    return path


def verify_civil_disorder(
    game: Game, turn: str, side: str, secret: str | None = None, player: str | None = None
) -> Verification:
    """``side``'s orders file for ``turn`` against the civil-disorder player's orders
    computed again from ``secret`` (the seed ``moonshine reveal`` shows; default: the
    game's own). The player is ``player``, else the one the file's mark names, else
    the family's default."""
    from moonshine.game.orderfile import read

    path = civil_disorder_path(game, turn, side)
    actual = read(path) if path.is_file() else None
    mark = read_mark(actual) if actual is not None else None
    chosen = player or (mark.player if mark is not None else None)
    expected, seed = civil_disorder_text(game, turn, side, chosen, secret)
    used = read_mark(expected)
    assert used is not None  # every civil-disorder file begins with its mark
    return Verification(game.turn_name(turn), side, used.player, seed, path, expected, actual)
