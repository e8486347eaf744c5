"""Every page the reports render, written to a folder, to compare two versions of the
rendering byte for byte (``cmp -r`` or ``diff -r`` of two such folders).

    .venv/bin/python scripts/render_pages.py OUT [--demo DEMO_GAME_DIR]

What is rendered:

- the sample game (repository root) adjudicated for real, the test fixture's results
  (``tests/data/golden/fixture``), the same with winners, and with a player's hostile
  text (``<script>``, ``&``, quotes) in the game's title, a player's name and the
  order lines;
- a few games played by the computer players (``moonshine.game.simulate``), every turn;
- ``--demo``: a game directory's adjudicated turns (``demo-game/``);

each: every gang's report and the bulletin, text and HTML, in English and French,
for mail and for the folder, with and without the turn's opening state and the
charts (bulletin), with and without the secret seed (reports); and the web site
(``moonshine.game.site.build_site``: its HTML pages) of the sample game, a played game
and the demo game, in both languages.
"""

from __future__ import annotations

import argparse
import copy
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import yaml

from moonshine.game.directory import Game, GameConfig, Player
from moonshine.game.reports import adjudicated_turns, load_turn, opening_state
from moonshine.render.bulletin import render_bulletin
from moonshine.render.report import render_report
from moonshine.variants.moonshine.map import GameMap, load_map
from moonshine.variants.moonshine.results import TurnResults, as_results
from moonshine.variants.moonshine.state import GameState
from moonshine.variants.moonshine.state import loads as load_state_text

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "golden" / "fixture"
LANGS = ("en", "fr")
HOSTILE = "<script>alert('x') & \"y\"</script>"
CHARTS = {"en": [("vp.png", "Victory points"), ("price.png", "Price & <crates>")], "fr": [("vp.png", "Points")]}


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def render_turn(
    out: Path,
    gmap: GameMap,
    config: GameConfig,
    res: TurnResults,
    nxt: GameState,
    before: GameState | None,
    seed: str | None,
) -> int:
    """Every report and bulletin of one turn into ``out``; returns how many files."""
    n = 0
    for lang in LANGS:
        for for_email in (False, True):
            for html, ext in ((False, "txt"), (True, "html")):
                where = out / lang / ("mail" if for_email else "folder")
                for gang in gmap.gangs:
                    for s, tag in ((seed, "seed"), (None, "noseed")):
                        if s is None and seed is None and tag == "seed":
                            continue
                        text = render_report(
                            gmap, config, res, nxt, gang, language=lang, html=html, for_email=for_email, seed=s
                        )
                        write(where / f"{gang}.{tag}.{ext}", text)
                        n += 1
                for b, btag in ((before, "story"), (None, "nostory")):
                    if b is None and btag == "story":
                        continue
                    for charts, ctag in ((CHARTS[lang], "charts"), ((), "nocharts")):
                        text = render_bulletin(
                            gmap,
                            config,
                            res,
                            nxt,
                            language=lang,
                            html=html,
                            for_email=for_email,
                            before=b,
                            charts=charts,
                        )
                        write(where / f"bulletin.{btag}.{ctag}.{ext}", text)
                        n += 1
    return n


def render_site(out: Path, game: Game) -> int:
    """The game's web site in both languages: its HTML pages into ``out``."""
    from moonshine.game.site import build_site

    n = 0
    for lang in LANGS:
        with tempfile.TemporaryDirectory() as tmp:
            site = Path(tmp) / "site"
            build_site(game, site, language=lang)
            for page in sorted(site.rglob("*.html")):
                write(out / lang / page.relative_to(site), page.read_text(encoding="utf-8"))
                n += 1
    return n


def copy_sample(dest: Path) -> Game:
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("game.yaml", ".moonshine-secret"):
        shutil.copy2(ROOT / name, dest / name)
    for name in ("orders", "turns"):
        shutil.copytree(ROOT / name, dest / name)
    return Game(dest)


def hostile(config: GameConfig, data: dict[str, Any]) -> tuple[GameConfig, dict[str, Any]]:
    """A player's and a game master's text that HTML must escape, everywhere it shows."""
    cfg = copy.deepcopy(config)
    cfg.title = 'Tom & Jerry\'s <b>"game"</b>'
    for gang, player in list(cfg.players.items()):
        cfg.players[gang] = msgspec.structs.replace(player, name=f"{player.name} <{gang}> & 'Co'")
    d = copy.deepcopy(data)
    for gr in d["gangs"].values():
        for i, line in enumerate(gr.get("lines") or []):
            if i % 2 == 0:
                line["text"] = line["text"] + " # " + HOSTILE
        if gr.get("orders_file"):
            gr["orders_file"] = gr["orders_file"] + "<&>"
    return cfg, d


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--demo", type=Path, help="a game directory whose adjudicated turns to render too")
    ap.add_argument("--games", type=int, default=3, help="how many computer-played games")
    ap.add_argument("--turns", type=int, default=8, help="at most how many turns each")
    args = ap.parse_args(argv)
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    n = 0
    chicago = load_map("chicago-1920s")
    with tempfile.TemporaryDirectory() as tmp:
        from moonshine.game.jobs import adjudicate_game

        sample = copy_sample(Path(tmp) / "sample")
        adjudicate_game(sample, "spring-1924", commit=False, reports=False)
        seed = sample.receipt_seed()
        res, nxt = load_turn(sample, "spring-1924")
        before = opening_state(sample, "spring-1924")
        n += render_turn(out / "sample", sample.map, sample.config, res, nxt, before, seed)
        n += render_site(out / "site" / "sample", sample)

        raw = yaml.safe_load((FIXTURE / "results.yaml").read_text(encoding="utf-8"))
        fnxt = load_state_text((FIXTURE / "next-state.yaml").read_text(encoding="utf-8"), chicago)
        fbefore = Game(ROOT).load_state("spring-1924")
        cfg = Game(ROOT).config
        n += render_turn(out / "fixture", chicago, cfg, as_results(raw), fnxt, fbefore, seed)
        won = copy.deepcopy(raw)
        won["winners"] = ["genna", "northside"]
        n += render_turn(out / "fixture-won", chicago, cfg, as_results(won), fnxt, fbefore, seed)
        one = copy.deepcopy(raw)
        one["winners"] = ["valley"]
        n += render_turn(out / "fixture-won-one", chicago, cfg, as_results(one), fnxt, None, None)
        edge = copy.deepcopy(raw)
        gangs = list(edge["gangs"].values())
        gangs[0]["lines"] = []  # an orders file with no lines
        gangs[1]["orders_file"] = None  # no orders file
        gangs[1]["lines"] = []
        gangs[2]["ledger"]["balanced"] = False
        gangs[2]["ledger"]["notes"] = ["A note & <more>"]
        gangs[3]["units"] = []
        n += render_turn(out / "fixture-edge", chicago, cfg, as_results(edge), fnxt, fbefore, seed)
        hcfg, hraw = hostile(cfg, raw)
        n += render_turn(out / "fixture-hostile", chicago, hcfg, as_results(hraw), fnxt, fbefore, seed)

        from moonshine.game.simulate import play, play_into
        from moonshine.variants.moonshine.results import to_data

        for i in range(args.games):
            players = {g: Player(name=f"Player {g}") for g in list(chicago.gangs)[::2]}
            config = GameConfig(title=f"Played game {i}", map="chicago-1920s", players=players)
            for t, p in enumerate(play(chicago, f"seed-{i}", args.turns)):
                res = as_results(to_data(chicago, p.result, {}))
                n += render_turn(
                    out / f"played-{i}" / f"{t:02d}-{res.turn}",
                    chicago,
                    config,
                    res,
                    p.result.next_state,
                    p.state,
                    f"secret-{i}",
                )

        played = Game(Path(tmp) / "played")
        for _ in play_into(played.root, "chicago-1920s", "site-seed", 3):
            pass
        n += render_site(out / "site" / "played", Game(played.root))

        if args.demo is not None:
            game = Game(args.demo)
            for turn in adjudicated_turns(game):
                res, nxt = load_turn(game, turn)
                n += render_turn(
                    out / "demo" / turn,
                    game.map,
                    game.config,
                    res,
                    nxt,
                    opening_state(game, turn),
                    game.receipt_seed(),
                )
            with tempfile.TemporaryDirectory() as dtmp:
                demo_copy = Path(dtmp) / "demo"
                shutil.copytree(args.demo, demo_copy)
                n += render_site(out / "site" / "demo", Game(demo_copy))
    print(f"{n} pages written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
