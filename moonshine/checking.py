"""What ``moonshine check`` does, without the command line: read an orders file and
give the acknowledgement a player would get. Shared by the ``check`` command
(``moonshine.commands.check``) and the console script's fast path for it
(``moonshine.start``), which never loads click; imports stay inside the function
so that a check loads only what it uses."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from moonshine.gamedir import Game


def acknowledge(
    file: Path, game_dir: Path, turn: str | None, gang: str | None, language: str | None
) -> tuple[str, bool]:
    """The acknowledgement of FILE's orders against the game's position (``turn``,
    default the latest), and whether every line is accepted. Raises a
    ``MoonshineError`` for what is not an orders file or not a game."""
    from moonshine import orderfile
    from moonshine.ack import acknowledgement
    from moonshine.errors import GameError
    from moonshine.gamedir import Game
    from moonshine.parser import join, quote
    from moonshine.turns import Turn
    from moonshine.validate import read_orders

    text = orderfile.read(file)
    game = Game(game_dir)
    if game.is_classic:
        return _acknowledge_classic(game, file, text, turn, gang, language)
    gmap = game.map
    if turn is not None:
        try:
            turn = Turn.parse(turn).name
        except ValueError as exc:
            raise GameError(str(exc)) from None
    st = game.load_state(turn or game.current_turn())
    if gang is not None and gmap.gang_by_name(gang) is None:
        raise GameError(f"no gang {quote(gang)} (gangs: {join(gmap.gangs)})")
    # orders/spring-1924/valley.txt, valley-2.txt, valley_orders.txt: the name says the gang
    stem = file.stem if gmap.gang_by_name(file.stem) else re.split(r"[-_. ]", file.stem)[0]
    orders = read_orders(text, gmap, st, gang, source=str(file), fallback_gang=stem, house=game.config.house)
    ack = acknowledgement(orders, gmap, st, language=language or game.config.language, seed=game.receipt_seed())
    return ack, orders.ok


def _acknowledge_classic(
    game: Game, file: Path, text: str, phase: str | None, power: str | None, language: str | None
) -> tuple[str, bool]:
    """A classic-family orders file: the power is --gang, else the file's
    ``power:`` line, else its name (FRA.txt, france.txt)."""
    from moonshine.classic import game as classic
    from moonshine.classic.ack import check_orders, render
    from moonshine.classic.state import Phase
    from moonshine.errors import GameError

    gmap = game.board()
    known = classic.phases(game.root)
    if phase is not None:
        try:
            phase = Phase.parse(phase).name
        except ValueError as exc:
            raise GameError(str(exc)) from None
    elif not known:
        raise GameError(f"{game.root}: no phase yet (no turns/*/state.yaml)")
    st = classic.load_state(game.root, phase or known[-1], gmap)
    header = re.search(r"^\s*(?:power|puissance|gang)\s*:\s*(\S+)", text, re.IGNORECASE | re.MULTILINE)
    named = power or (header.group(1) if header else None)
    code = classic.power_of_file(Path(f"{named}.txt") if named else file, gmap)
    ack = check_orders(gmap, st, code, text)
    return render(ack, gmap, language=language or game.config.language, source=str(file)), ack.ok
