"""Moonshine, as the game layer plays it: the gangs' orders read by the order
reader (``moonshine.variants.moonshine.checker``), a turn adjudicated by the runner
(``moonshine.game.jobs``), the reports and bulletin (``moonshine.game.reports``) and the
site (``moonshine.game.site``). Imports stay inside the methods, so that a command
loads only what it uses (a player's check never loads the adjudicator)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from moonshine.game.families.base import Notify, OrderCheck, OrderOutcome

if TYPE_CHECKING:
    from moonshine.game.directory import Game
    from moonshine.game.families.prediction import Block, Prediction
    from moonshine.text.chatter import ChatterTest
    from moonshine.variants.moonshine.map import GameMap
    from moonshine.variants.moonshine.turn import TurnResult


class MoonshineFamily:
    name = "moonshine"
    messages = ""
    reveals_seed = True
    raids = True  # its secret seed draws the raids (R21) and the civil-disorder player's choices (R26)

    def create(
        self,
        root: Path,
        *,
        variant: str,
        map_name: str,
        seed: str | None,
        title: str | None,
        language: str,
        use_git: bool,
    ) -> Game:
        import subprocess

        from moonshine.game.directory import (
            IGNORED,
            SECRET_FILE,
            Game,
            GameConfig,
            Player,
            atomic_write_text,
            config_to_yaml,
            git_available,
            git_commit,
            is_git_repo,
            seed_hash,
            write_secret,
        )
        from moonshine.game.seeds import new_secret
        from moonshine.variants.moonshine import state as state_mod
        from moonshine.variants.moonshine.map import load_map
        from moonshine.variants.moonshine.police import open_turn

        gmap = load_map(map_name)
        seed = seed if seed is not None else new_secret()
        if not seed.strip():
            from moonshine.errors import GameError

            raise GameError("the seed cannot be empty")
        root.mkdir(parents=True, exist_ok=True)
        cfg = GameConfig(
            title=title or f"Moonshine: {gmap.title}",
            map=map_name,
            language=language,
            seed_sha256=seed_hash(seed),
            players={g: Player(name="", email=[]) for g in gmap.gangs},
        )
        game = Game(root)
        write_secret(root / SECRET_FILE, seed)
        atomic_write_text(root / ".gitignore", "".join(f"{pattern}\n" for pattern in IGNORED))
        atomic_write_text(game.config_path, config_to_yaml(cfg))
        start = state_mod.initial_state(gmap)
        open_turn(gmap, start, seed)  # the first turn's raid is drawn when the game is created (R21)
        game.save_state(start)
        game.orders_dir(start.turn).mkdir(parents=True, exist_ok=True)
        (game.orders_dir(start.turn) / ".keep").touch()
        if use_git and git_available():
            if not is_git_repo(root):
                subprocess.run(["git", "init", "-q", str(root)], check=False, capture_output=True)
            git_commit(root, f"New game: {cfg.title}, {start.turn}")
        return game

    def created(self, game: Game) -> list[str]:
        turn = game.current_turn()
        return [
            f"Created {game.root}: {game.config.title}, map {game.config.map}, first turn {turn}.",
            f"Seed hash (publish it): {game.config.seed_sha256}",
            f"Next: add players' addresses to {game.config_path}, collect orders in {game.orders_dir(turn)}/.",
        ]

    def check_orders(
        self, text: str, game: Game, st: Any, side: str | None, *, source: str, language: str
    ) -> OrderCheck:
        from moonshine.render.ack import acknowledgement
        from moonshine.variants.moonshine.checker import ACCEPTED, read_orders
        from moonshine.variants.moonshine.parser.headers import PasswordHeader

        orders = read_orders(text, game.map, st, side, source=source, house=game.config.house)
        ack = acknowledgement(orders, game.map, st, language=language, seed=game.receipt_seed(st.turn))
        return OrderCheck(
            header_gang=orders.header_gang,
            header_turn=orders.header_turn,
            password=orders.password,
            password_lines=tuple(line.number for line in orders.lines if isinstance(line.header, PasswordHeader)),
            accepted=orders.count(ACCEPTED),
            rejected=orders.rejected,
            problems=tuple(orders.problems),
            acknowledgement=ack,
        )

    def acknowledge(
        self, game: Game, file: Path, text: str, turn: str | None, side: str | None, language: str | None
    ) -> tuple[str, bool]:
        from moonshine.errors import GameError
        from moonshine.render.ack import acknowledgement
        from moonshine.variants.moonshine.calendar import Turn
        from moonshine.variants.moonshine.checker import read_orders
        from moonshine.variants.moonshine.parser import join, quote

        gmap = game.map
        if turn is not None:
            try:
                turn = Turn.parse(turn).name
            except ValueError as exc:
                raise GameError(str(exc)) from None
        st = game.load_state(turn or game.current_turn())
        if side is not None and gmap.gang_by_name(side) is None:
            raise GameError(f"no gang {quote(side)} (gangs: {join(gmap.gangs)})")
        # orders/spring-1924/valley.txt, valley-2.txt, valley_orders.txt: the name says the gang
        stem = file.stem if gmap.gang_by_name(file.stem) else re.split(r"[-_. ]", file.stem)[0]
        orders = read_orders(text, gmap, st, side, source=str(file), fallback_gang=stem, house=game.config.house)
        ack = acknowledgement(
            orders, gmap, st, language=language or game.config.language, seed=game.receipt_seed(st.turn)
        )
        return ack, orders.ok

    def chatter_test(self, game: Game) -> ChatterTest:
        from moonshine.variants.moonshine.chatter import chatter_test

        return chatter_test(game.map)

    def adjudicate(
        self,
        game: Game,
        turn: str,
        *,
        force: bool = False,
        commit: bool = True,
        now: datetime | None = None,
        notify: Notify | None = None,
    ) -> list[str]:
        import gc

        from moonshine.game import reports  # noqa: F401  (loaded before the freeze below)
        from moonshine.game.jobs import adjudicate_game

        # What exists already (the modules' objects, some 40,000: functions, classes, their
        # dictionaries) outlives the turn: kept out of the cyclic collector's walks while it
        # runs, which then see only what the turn builds.
        gc.freeze()
        try:
            done = adjudicate_game(game, turn, force=force, commit=commit, now=now, notify=notify)
        finally:
            gc.unfreeze()
        lines = [*summary(game.map, done.result), "", f"Results: {done.results_path}"]
        if done.reports:
            lines.append(f"Reports, bulletin and map: {done.reports[0].parent}/")
        lines.append(f"Next turn: {done.next_state_path}" + (" (committed)" if done.committed else ""))
        return lines

    def write_reports(self, game: Game, turn: str, *, side: str | None, language: str | None) -> list[Path]:
        from moonshine.game.reports import write_reports

        return write_reports(game, turn, language=language, gangs=[side] if side else None, bulletin=side is None)

    def report_text(self, game: Game, turn: str, *, side: str | None, language: str | None) -> str:
        from moonshine.game.reports import print_report

        return print_report(game, turn, gang=side, language=language)

    def outcomes(self, game: Game, turn: str) -> Iterator[OrderOutcome]:
        from moonshine.game.reports import load_turn

        res, _ = load_turn(game, turn)
        words = game.variant.layout.wording
        for side, gr in res.gangs.items():
            for u in gr.units:
                yield OrderOutcome(side, u.unit, u.order, u.succeeded, u.outcome, u.reason, words)

    def build_site(self, game: Game, out: Path, *, language: str | None) -> list[Path]:
        from moonshine.game.site import build_site

        return build_site(game, out, language=language)

    def predict(self, block: Block) -> Prediction:
        from moonshine.game.families.moonshine_predict import predict

        return predict(block)


def summary(gmap: GameMap, result: TurnResult) -> list[str]:
    """The turn in a few lines: sales and price, the winner or the next raid, and a
    line per gang (VP, units, districts, cash, crates sold)."""
    from moonshine.text import money

    nxt = result.next_state
    lines = [
        f"{result.turn}: {result.sold_total} crates sold at {money.fmt(result.price)}",
        f"Next price ({nxt.turn}): {money.fmt(result.new_price)} ({result.price_why.text()})",
    ]
    if result.winners:
        names = ", ".join(gmap.gangs[g].name for g in result.winners)
        lines.append(f"WINNER: {names} ({result.vp[result.winners[0]]} VP). The game is over.")
    else:
        from moonshine.render.raids import describe_raid
        from moonshine.render.turnpage import Words

        lines.append(f"Raid for {nxt.turn}: {describe_raid(gmap, nxt.raid, Words('en'))}")
    lines.append("")
    lines.append(f"{'gang':<22} {'VP':>3} {'units':>5} {'districts':>9} {'cash':>8} {'sold':>5}")
    for g in sorted(gmap.gangs, key=lambda k: (-result.vp[k], list(gmap.gangs).index(k))):
        lines.append(
            f"{gmap.gangs[g].name:<22} {result.vp[g]:>3} {len(nxt.units_of(g)):>5} "
            f"{len(nxt.controlled_by(g)):>9} {money.fmt(nxt.cash[g]):>8} {result.ledgers[g].sold:>5}"
        )
    return lines
