"""``predict`` by mail: a set of orders adjudicated by the same adjudicator on
the turn's position, mailed back with reasons and a map picture, in English
and French, through the real mailbox and SMTP path; the game is untouched and
no gang's real orders are used; orders for units that do not exist refuse it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from playerkit import ADDRESSES, TURN, Table, body, make_table, message
from smtpkit import Server

TERRY, AL = ADDRESSES["valley"][0], ADDRESSES["outfit"][0]
# valley attacks LIT (a unione H) with support; unione's real orders move it away
PREDICTION = ["H LOO - LIT", "H NSS / H LOO - LIT", "gang: unione", "H LIT hold"]


def tree(root: Path) -> dict[str, str]:
    """Every file of the game but the outbox and the inbox's records, by content."""
    skip = ("outbox", "orders", ".moonshine.lock")
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.relative_to(root).as_posix().startswith(skip)
    }


@pytest.mark.parametrize("language", ["en", "fr"])
def test_predict_adjudicates_the_given_orders_only_and_mails_a_picture(
    tmp_path: Path, smtp: Server, language: str
) -> None:
    t = make_table(tmp_path, smtp, language=language)
    real = t.game.orders_dir(TURN)
    real.mkdir(parents=True, exist_ok=True)
    (real / "unione.txt").write_text("H LIT - EGP\n", encoding="utf-8")  # never read by predict
    before = tree(t.game.root)
    start, end = ("predict", "end predict") if language == "en" else ("prédire", "fin prédire")
    t.send(TERRY, message("valley", start, *PREDICTION, end))
    t.judge()
    assert tree(t.game.root) == before  # the game is untouched
    [result] = [m for m in t.inbox_of(TERRY) if "predict" in str(m["Subject"]) or "prédiction" in str(m["Subject"])]
    text = body(result)
    assert "H LOO - LIT" in text and ("succeeds" if language == "en" else "réussit") in text
    assert ("H NSS / H LOO - LIT: " if language == "en" else "H NSS soutient H LOO - LIT\u00a0: ") in text
    assert ("is dislodged by" if language == "en" else "est délogé par") in text  # unione held, as predicted
    assert "EGP" not in text  # unione's real order was not used
    [png] = [p for p in result.iter_attachments() if p.get_content_type() == "image/png"]
    assert png.get_content()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not any("LIT" in body(m) for m in t.inbox_of(AL))  # a prediction goes to its sender only
    ack = t.last_reply(TERRY)
    assert ("-> done" if language == "en" else "-> fait") in ack


@pytest.mark.parametrize("language", ["en", "fr"])
def test_predict_with_orders_for_units_that_do_not_exist_is_refused(
    tmp_path: Path, smtp: Server, language: str
) -> None:
    t = make_table(tmp_path, smtp, language=language)
    start, end = ("predict", "end predict") if language == "en" else ("prédire", "fin prédire")
    t.send(TERRY, message("valley", start, "H LOO - LIT", "H GRA - FUL", "L ZZZ hold", end))
    t.judge()
    ack = t.last_reply(TERRY)
    assert ("REFUSED" if language == "en" else "REFUSÉ") in ack
    assert "H GRA - FUL" in ack and "L ZZZ hold" in ack
    assert "H LOO - LIT:" not in ack  # a good line is not listed as a problem
    assert not [m for m in t.inbox_of(TERRY) if "predict" in str(m["Subject"]).lower()]


def test_predict_is_for_players_only(tmp_path: Path, smtp: Server) -> None:
    t = make_table(tmp_path, smtp)
    t.send("nosy@elsewhere.example", "predict\nH LOO - LIT\nend predict\n")
    t.judge()
    assert "is for the players" in t.last_reply("nosy@elsewhere.example")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_predict_in_a_classic_game(tmp_path: Path, smtp: Server, language: str) -> None:
    from gamekit import make_game
    from playerkit import REFEREE

    game = make_game(
        tmp_path / "c",
        variant="classic",
        seed=None,
        language=language,
        name=lambda p: "France" if p == "FRA" else p,
        emails=lambda p: [f"{p.lower()}@powers.example"],
        passwords={"FRA": "baguette"},
        smtp={"host": "127.0.0.1", "port": smtp.port, "security": "none", "from": REFEREE, "timeout": 5},
    )
    t = Table(game, tmp_path / "box", smtp.recorder)
    start, end = ("predict", "end predict") if language == "en" else ("prédire", "fin prédire")
    head = "power: FRA\npassword: baguette\n"
    t.send("fra@powers.example", head + f"{start}\nA PAR - BUR\nA MAR S A PAR - BUR\npower: GER\nA MUN - BUR\n{end}\n")
    t.send("fra@powers.example", head + f"{start}\nA PAR - BUR\nA BOH - MUN\n{end}\n", subject="again")
    t.judge(turn="spring-1901")
    [result] = [
        m
        for m in t.inbox_of("fra@powers.example")
        if "prédiction" in str(m["Subject"]) or "prediction" in str(m["Subject"])
    ]
    text = body(result)
    colon = ": " if language == "en" else "\u00a0: "  # French spaces the colon, with a no-break space
    assert "A PAR - BUR" + colon + ("succeeds" if language == "en" else "réussit") in text
    assert "A MUN - BUR" + colon + ("fails" if language == "en" else "échoue") in text
    assert ("A MAR S A PAR - BUR" if language == "en" else "A MAR soutient A PAR - BUR") + colon in text
    [png] = [p for p in result.iter_attachments() if p.get_content_type() == "image/png"]
    assert png.get_content()[:4] == b"\x89PNG"
    refused = [body(m) for m in t.inbox_of("fra@powers.example") if "again" in str(m["Subject"])]
    assert any("A BOH - MUN" in x and ("REFUSED" if language == "en" else "REFUSÉ") in x for x in refused)
    assert not (game.root / "turns" / "spring-1901" / "results.yaml").exists()  # nothing adjudicated for real
