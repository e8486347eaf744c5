"""The notices of the players' votes, on the kit's real SMTP server (aiosmtpd on
127.0.0.1), in a game where one player reads French in Paris and another English in
Chicago: a draw's opening, its reminder and its result, a pause the players voted and
its end each go as one mail to each address, that address alone in To: (no Bcc list
of the players), in its reader's language (French as a native writes it: « », no-break
spaces, ``13 h 00``), its times in the reader's zone and in UTC; the observer and the
game master get their own copy of the result, in the game's language; a pass run again
sends nothing more."""

from __future__ import annotations

import re
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from frtypo import NBSP, NNBSP, fr, plain_spaces
from msgspec.structs import replace
from playerkit import ADDRESSES, GM, NOW, OBSERVER, TURN, Table, body, make_table, message
from smtpkit import Server

from moonshine.game.directory import Game, save_config
from moonshine.mail import run

TERRY, AL, ANGELO = ADDRESSES["valley"][0], ADDRESSES["outfit"][0], ADDRESSES["genna"][0]
TERRY_AT_HOME = "terry@home.example"  # the French player's second address
PLAYERS = (TERRY, TERRY_AT_HOME, AL, ANGELO)
FRENCH = (TERRY, TERRY_AT_HOME)


def french_and_english(t: Table) -> None:
    """valley reads French in Paris (two addresses), outfit English in Chicago; genna
    the game's English in UTC; only these three gangs are left in the game."""
    game = t.game
    players = dict(game.config.players)
    players["valley"] = replace(players["valley"], language="fr", timezone="Europe/Paris", email=[TERRY, TERRY_AT_HOME])
    players["outfit"] = replace(players["outfit"], language="en", timezone="America/Chicago")
    save_config(game, replace(game.config, players=players))
    game = Game(game.root)
    st = game.load_state(TURN)
    out = [g for g in game.sides() if g not in ("valley", "outfit", "genna")]
    st.units = [u for u in st.units if u.gang not in out]
    st.arrested = [a for a in st.arrested if a.gang not in out]
    st.control = {d: g for d, g in st.control.items() if g not in out}
    game.save_state(st)
    t.game = game


def passes(t: Table, hours: float) -> None:
    """The unattended judge's pass, ``hours`` after NOW."""
    run.run_game(t.game.root, now=NOW + timedelta(hours=hours), say=lambda _: None)


def notices(t: Table, address: str, word: str) -> list[EmailMessage]:
    """The mails ``address`` received whose subject has ``word``, each checked to go to
    that address alone: alone in To:, no Cc nor Bcc, alone on the envelope."""
    found = []
    for _, rcpts, content in t.recorder.received:
        if address not in rcpts:
            continue
        msg = message_from_bytes(content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        if word in str(msg["Subject"]):
            assert list(rcpts) == [address], (rcpts, msg["Subject"])
            assert str(msg["To"]) == address and msg["Cc"] is None and msg["Bcc"] is None, str(msg)
            found.append(msg)
    return found


def one(t: Table, address: str, word: str) -> str:
    """The text of the one mail ``address`` received with ``word`` in its subject, its
    lines joined (a wrapped sentence reads whole; no-break spaces are kept)."""
    found = notices(t, address, word)
    assert len(found) == 1, (address, word, [str(m["Subject"]) for m in found])
    return re.sub(r"[ \r\n]+", " ", body(found[0]))


def nb(text: str) -> str:
    """A date or a time as the deadline sentence holds it: its spaces no-break (in
    French, ``13 h 00`` with narrow ones)."""
    return re.sub(r"(\d) h (\d)", f"\\1{NNBSP}h{NNBSP}\\2", text).replace(" ", NBSP)


def test_a_draws_notices_go_to_each_address_alone_in_its_readers_language_and_zone(
    tmp_path: Path, smtp: Server
) -> None:
    t = make_table(tmp_path, smtp, inbox={"source": "../box"})
    french_and_english(t)
    t.send(TERRY, message("valley", "nulle tous avant 2024-03-01 12:00"))
    passes(t, 0)
    # the opening, to each voter's every address, in their language and zone
    opened = {a: one(t, a, "vote 1 est ouvert" if a in FRENCH else "vote 1 is open") for a in PLAYERS}
    for a in FRENCH:
        assert fr("Un vote est ouvert : proposition 1 : une nulle entre") in opened[a], opened[a]
        assert fr("Envoyez « vote oui 1 » ou « vote non 1 »") in opened[a]
        assert f"avant le {nb('vendredi 1er mars 2024')} à {nb('13 h 00 CET')} = {nb('12 h 00 UTC')}" in opened[a]
        assert plain_spaces(opened[a]) == [], plain_spaces(opened[a])
    assert f"before {nb('Friday 1 March 2024')}, {nb('06:00 CST')} = {nb('12:00 UTC')}" in opened[AL], opened[AL]
    assert f"before {nb('Friday 1 March 2024')}, {nb('12:00 UTC')}." in opened[ANGELO], opened[ANGELO]
    assert not notices(t, OBSERVER, "vote 1") and not notices(t, GM, "vote 1")  # they do not vote

    # a day before its deadline, a reminder to each address, with the side's own vote
    passes(t, 25)
    reminded = {a: one(t, a, "rappel" if a in FRENCH else "reminder") for a in PLAYERS}
    assert fr("se termine le ") + nb("vendredi 1er mars 2024") in reminded[TERRY]
    assert "ends on " + nb("Friday 1 March 2024") + ", " + nb("06:00 CST") in reminded[AL]

    # the last yes: every player's address, the observer and the game master told, each alone
    t.send(AL, message("outfit", "vote yes 1"), when=NOW + timedelta(hours=26))
    t.send(ANGELO, message("genna", "vote yes 1"), when=NOW + timedelta(hours=26))
    passes(t, 26)
    for a in FRENCH:
        result = one(t, a, "résultat du vote 1")
        assert fr("Adoptée : proposition 1 : une nulle entre") in result, result
        assert f"le {nb('jeudi 29 février 2024')} à {nb('15 h 00 CET')} = {nb('14 h 00 UTC')}" in result, result
        assert plain_spaces(result) == []
    assert f"on {nb('Thursday 29 February 2024')}, {nb('08:00 CST')} = {nb('14:00 UTC')}" in one(
        t, AL, "result of vote 1"
    )
    for a in (ANGELO, OBSERVER, GM):  # the game's language, in UTC (the game has no zone)
        assert "Passed: proposal 1: a draw shared by" in one(t, a, "result of vote 1")

    # the pass again, and once more later: nothing is sent twice
    before = len(t.recorder.received)
    passes(t, 26)
    passes(t, 27)
    assert len(t.recorder.received) == before


def test_a_voted_pause_and_its_end_go_to_each_address_alone_in_its_readers_language_and_zone(
    tmp_path: Path, smtp: Server
) -> None:
    t = make_table(tmp_path, smtp, inbox={"source": "../box"})
    french_and_english(t)
    t.send(TERRY, message("valley", "pause"))
    t.send(AL, message("outfit", "pause"))
    t.send(ANGELO, message("genna", "pause"))
    passes(t, 0)
    passes(t, 1)  # the judge applies it: the deadline taken out
    for a in FRENCH:
        passed = one(t, a, "résultat du vote 1")
        assert fr("Adoptée : proposition 1 : une pause de la partie") in passed, passed
        assert "CET = " in passed and plain_spaces(passed) == []
    assert "by every player's vote on " + nb("Wednesday 28 February 2024") + ", " + nb("06:00 CST") in one(
        t, AL, "result of vote 1"
    )

    # a player's resume: the deadline set again, told to each address in its reader's words
    t.send(AL, message("outfit", "resume"), when=NOW + timedelta(hours=3))
    passes(t, 3)
    for a in FRENCH:
        resumed = one(t, a, "La partie reprend")
        assert fr("La pause des joueurs est terminée (") + nb("mercredi 28 février 2024") in resumed, resumed
        assert (
            "Les ordres pour le printemps 1924 sont attendus au plus tard le " + nb("vendredi 1er mars 2024") in resumed
        )
        assert nb("22 h 00 CET") + " = " + nb("21 h 00 UTC") in resumed and plain_spaces(resumed) == []
    resumed = one(t, AL, "The game resumes")
    assert "Orders for Spring 1924 are due " + nb("Friday 1 March 2024") in resumed, resumed
    assert "CST = " in resumed
    assert "Orders for Spring 1924 are due" in one(t, ANGELO, "The game resumes")
    assert "Orders for Spring 1924 are due" in one(t, GM, "The game resumes")  # the master's copy, as before
    assert not notices(t, OBSERVER, "resumes")

    before = len(t.recorder.received)
    passes(t, 3)
    passes(t, 4)
    assert len(t.recorder.received) == before
