"""What ``moonshine check`` does, without the command line: read an orders file and
give the acknowledgement a player would get (the ``check`` command,
``moonshine.cli.check``); imports stay inside the function so that a check
loads only what it uses."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from moonshine.game.directory import Game


def acknowledge(
    file: Path, game_dir: Path, turn: str | None, gang: str | None, language: str | None
) -> tuple[str, bool]:
    """The acknowledgement of FILE's orders against the game's position (``turn``,
    default the latest), and whether every line is accepted. Raises a
    ``MoonshineError`` for what is not an orders file or not a game."""
    from moonshine.game import families, orderfile
    from moonshine.game.directory import Game

    raw = orderfile.read_bytes(file)
    game = Game(game_dir)
    text = orders_text(game, file, raw, language)
    return families.of(game).acknowledge(game, file, text, turn, gang, language)


def orders_text(game: Game, file: Path, raw: bytes, language: str | None) -> str:
    """The orders text of a file's bytes: orders as JSON (``docs/orders.schema.json``:
    a ``.json`` file, or one that opens with ``{``) made into the text they stand for
    (``moonshine.game.ordersjson``), any other file decoded as an orders file is. A
    GameError names the file and says what is wrong, in ``language``."""
    from moonshine.errors import GameError
    from moonshine.game import orderfile

    if file.suffix.lower() == ".json" or raw.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] == b"{":
        # orders as JSON (moonshine.game.ordersjson.looks_like_json): read only then
        from moonshine.game.ordersjson import OrdersJsonError, orders_text_from_json

        try:
            return orders_text_from_json(game, raw)
        except OrdersJsonError as exc:
            words = exc.text(language or game.config.language).replace("\n", "\n  ")
            raise GameError(
                f"{file}: not orders this game can read as JSON (docs/orders.schema.json):\n  {words}"
            ) from None
    try:
        return orderfile.decode(raw)
    except orderfile.NotText as exc:
        raise GameError(f"{file}: {exc}") from None
