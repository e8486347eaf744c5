"""Golden files of the acknowledgement, for Moonshine and the classic family, in
English and French: one orders file with every kind of order, written in a mix of
notations (canonical, French words, full names), some accepted, some rejected.
``UPDATE_GOLDEN=1 pytest tests/render/test_ack_golden.py`` rewrites them after a wanted
change; review the diff."""

from __future__ import annotations

from pathlib import Path

import frtypo
import goldenkit
import pytest
from repokit import DATA

from moonshine.render.ack import acknowledgement
from moonshine.render.classic.ack import check_orders, render
from moonshine.variants.classic.board import standard_map
from moonshine.variants.classic.state import initial_state as classic_start
from moonshine.variants.moonshine.checker import read_orders
from moonshine.variants.moonshine.map import load_map
from moonshine.variants.moonshine.state import initial_state

GOLDEN = DATA / "golden" / "ack"

MOONSHINE = """gang: valley
password: hunter2
H LOO - Near South Side
H NSS / H LOO - NSS
H NSS soutient H HYD
L KEN - NSS
H HYD tient
L BRO -> H HYD - WAS
L GRA hold
L FIV - BRO - GRA
retreat H LOO - NSS, GRA
recruter H KEN
recruit L GRA
licencier L GRA
sell 3
store HYD
bribe LOO 12.50
corrompre MAR 9
"""

CLASSIC = """power: France
A PAR - BUR
A MAR S A PAR - BUR
F BRE soutient A MAR
F BRE - MAO
A MAR tient
A PAR - GAS par convoi
F BRE C A PAR - LON
A MAR - XYZ
"""


def _moonshine(language: str) -> str:
    gmap = load_map("chicago-1920s")
    st = initial_state(gmap)
    orders = read_orders(MOONSHINE, gmap, st, source="orders/spring-1924/valley.txt")
    return acknowledgement(orders, gmap, st, language=language)


def _classic(language: str) -> str:
    gmap = standard_map()
    ack = check_orders(gmap, classic_start(gmap), "FRA", CLASSIC)
    return render(ack, gmap, language=language, source="orders/spring-1901/FRA.txt")


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("family", ["moonshine", "classic"])
def test_golden_acknowledgement(family: str, language: str) -> None:
    text = (_moonshine if family == "moonshine" else _classic)(language)
    goldenkit.check(GOLDEN / f"{family}.{language}.txt", text)


def test_classic_check_in_french_echoes_french_notation(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from moonshine.cli import main

    root = tmp_path / "dip"
    runner = CliRunner()
    assert runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git"]).exit_code == 0
    path = root / "orders" / "spring-1901" / "FRA.txt"
    path.write_text("F BRE H\nA MAR S A PAR - BUR\nA PAR - BUR\n", encoding="utf-8")
    french = runner.invoke(main, ["check", str(path), "--game", str(root), "--language", "fr"])
    assert "  ligne   1  F BRE tient                    accepté" in french.output.splitlines(), french.output
    assert "  ligne   2  A MAR soutient A PAR - BUR     accepté" in french.output.splitlines()
    english = runner.invoke(main, ["check", str(path), "--game", str(root)])
    assert "  line   2  A MAR S A PAR - BUR            accepted" in english.output.splitlines(), english.output


def test_classic_reply_by_mail_in_french_echoes_french_notation(tmp_path: Path) -> None:
    from datetime import UTC, datetime
    from email import policy
    from email.message import EmailMessage
    from email.parser import BytesParser
    from email.utils import format_datetime

    from click.testing import CliRunner
    from msgspec.structs import replace

    from moonshine.cli import main
    from moonshine.game.directory import Game, save_config

    root = tmp_path / "dip"
    runner = CliRunner()
    assert runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git"]).exit_code == 0
    game = Game(root)
    players = dict(game.config.players)
    players["FRA"] = replace(players["FRA"], email=["anne@example.org"], language="fr")
    save_config(game, replace(game.config, players=players))
    assert runner.invoke(main, ["passwd", "FRA", "--password", "walnut-grove-42", "--game", str(root)]).exit_code == 0
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "anne@example.org", "judge@example.org", "ordres"
    msg["Date"], msg["Message-ID"] = format_datetime(datetime.now(UTC)), "<one@example.org>"
    msg.set_content("power: France\npassword: walnut-grove-42\nF BRE H\nA MAR S A PAR - BUR\nA PAR - BUR\n")
    box = tmp_path / "box"
    box.mkdir()
    (box / "1.eml").write_bytes(msg.as_bytes())
    done = runner.invoke(main, ["inbox", str(box), "--game", str(root)])
    assert done.exit_code == 0, done.output
    (reply,) = sorted((root / "outbox" / "spring-1901").glob("reply-*.eml"))
    parsed = BytesParser(policy=policy.default).parsebytes(reply.read_bytes())
    body = parsed.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert "  ligne   4  A MAR soutient A PAR - BUR     accepté" in body.splitlines(), body
    assert "  ligne   3  F BRE tient                    accepté" in body.splitlines()


@pytest.mark.parametrize(
    ("header", "en", "fr"),
    [
        ("puissance: fra", "power: France (FRA)", frtypo.fr("puissance : France (FRA)")),
        ("power: Germany", "power: Germany (GER)", frtypo.fr("puissance : Allemagne (GER)")),
        ("tour: printemps-1901", "turn: Spring 1901", frtypo.fr("tour : printemps 1901")),
        ("phase: fall-1901-retreats", "turn: Autumn 1901 retreats", frtypo.fr("tour : automne 1901 (retraites)")),
        ("power: Narnia", "power: Narnia", "power: Narnia"),  # names no power: echoed as written
    ],
)
def test_a_classic_header_line_is_echoed_in_the_readers_language(header: str, en: str, fr: str) -> None:
    gmap = standard_map()
    ack = check_orders(gmap, classic_start(gmap), "FRA", f"{header}\nA PAR - BUR\n")
    for language, line, echo, noted in (("en", "line", en, "noted"), ("fr", "ligne", fr, "noté")):
        assert f"  {line}   1  {echo:<30} {noted}" in render(ack, gmap, language=language).splitlines()
