"""Issue 37 on real servers (pymap and aiosmtpd on 127.0.0.1, ``judgekit``): a judge
for many games tells each player of a game every change they should know of, in a
mail of their own, in their language and time zone; a reply to the judge's mail
finds its game; a paused game says so; a takeover's mail tells the truth; and the
masters' commands by mail (deadline, grace, set, invite, process, rollback, resume
of a terminated game) do what they say and are announced.

One judge is made once for the module (``base``: players registered, a classic game
``alpha`` full and started, whose master may pause it five days at most, a Moonshine
game ``gamma`` with a title, started by its master with two players) and each test plays on a copy of it."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from frtypo import checked
from imapkit import Server
from judgekit import START, Judge, Mail, addr, one, one_mail, to_each
from runkit import plain
from smtpkit import Server as SmtpServer
from smtpkit import smtp_server

from moonshine.game.directory import Game

FRENCH = 5  # p5 reads French, in Europe/Paris; the others English, in America/Chicago
ALPHA = range(1, 8)  # alpha's players (classic: seven powers)
T0 = START + timedelta(hours=4)  # the base's games are started by then


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, imap: Server) -> Iterator[Judge]:
    """The judge every test copies, its mail through a real SMTP server of the module's
    (the root conftest's ``smtp`` is a test's)."""
    with smtp_server() as outgoing:
        yield made(tmp_path_factory, imap, outgoing)


def made(tmp_path_factory: pytest.TempPathFactory, imap: Server, smtp: SmtpServer) -> Judge:
    j = Judge(tmp_path_factory.mktemp("base") / "judge", imap, smtp, folder="base")
    t = START
    for n in range(10):
        words = f"inscription Joueur {n}, Europe/Paris, fr" if n == FRENCH else f"register Player {n}, America/Chicago"
        j.send(addr(n), words + "\n", t)
    j.run(t + timedelta(minutes=1))
    for rcpts, m in j.new_mail():
        found = re.search(r"(?:for all your games:|pour toutes vos parties\s?:)\s(\S+)", plain(m))
        if found:
            j.passwords[rcpts[0]] = found.group(1)
    assert len(j.passwords) == 10
    t += timedelta(hours=1)
    j.send(
        addr(0),
        pw(j, 0) + "create alpha classic\nevery: 72h\npress: grey\nmaster_pause_max: 5d\n"
        "create gamma moonshine\ntitle: Gamma Chicago\n"
        "every: 48h\n",
        t,
    )
    j.run(t + timedelta(minutes=1))
    t += timedelta(hours=1)
    for n in ALPHA:
        j.send(addr(n), pw(j, n) + ("rejoindre alpha\n" if n == FRENCH else "join alpha\n"), t)
    for n, gang in ((1, "outfit"), (2, "valley")):  # genna stays vacant, whatever the draw's seed
        j.send(addr(n), pw(j, n) + f"join gamma {gang}\n", t + timedelta(minutes=1))
    j.run(t + timedelta(minutes=2))
    j.send(addr(0), pw(j, 0) + "start gamma\n", t + timedelta(minutes=5))
    j.run(t + timedelta(minutes=6))
    j.kept = {rcpts[0]: m for rcpts, m in j.new_mail() if "starts" in str(m["Subject"]) and "Gamma" in plain(m)}
    return j


def pw(j: Judge, n: int) -> str:
    return f"password: {j.passwords[addr(n)]}\n"


@pytest.fixture
def j(base: Judge, tmp_path: Path, request: pytest.FixtureRequest) -> Judge:
    return base.copy(tmp_path / "judge", re.sub(r"\W", "", request.node.name)[-40:])


def side_of(j: Judge, game: str, n: int) -> str:
    reg = j.registry()
    try:
        m = reg.member(game, reg.player(addr(n)).id)  # type: ignore[union-attr]
        assert m is not None and m.side is not None
        return m.side
    finally:
        reg.close()


def due_in(when: datetime, language: str) -> str:
    """A deadline as the house's sentence gives it to a player of ``language``: in their
    zone (Europe/Paris for French, America/Chicago for English) and in UTC; with plain
    spaces for French (``frtypo.checked``'s text)."""
    from frtypo import plain as plain_spaces

    from moonshine.render.mailwords import due_text

    text = due_text(language, when, ZoneInfo("Europe/Paris" if language == "fr" else "America/Chicago"))
    return plain_spaces(text) if language == "fr" else text


def each_player(mail: Mail, players: range | list[int], word: str, french: str | None = None) -> dict[int, str]:
    """The one mail each of ``players`` got whose subject holds ``word`` (``french`` for
    p5), alone in To:, in their language (French for p5, with French typography), as text."""
    out = {}
    for n in players:
        wanted = french if n == FRENCH and french is not None else word
        found = [m for m in to_each(mail, addr(n)) if wanted in str(m["Subject"])]
        assert len(found) == 1, (n, word, [str(m["Subject"]) for _, m in mail])
        text = plain(found[0])
        out[n] = checked(text) if n == FRENCH else text
    return out


def test_a_moved_deadline_a_pause_and_the_resumption_are_told_to_every_player(j: Judge) -> None:
    """Defect 1: extend, pause and resume answered the master alone, and a paused
    game's acknowledgements said 'No deadline is set for this turn yet'."""
    due = datetime.fromisoformat(Game(j.root / "games" / "alpha").config.extra["deadlines"]["spring-1901"])
    j.send(addr(0), pw(j, 0) + "extend alpha 24\n", T0)
    j.run(T0 + timedelta(minutes=1))
    mail = j.new_mail()
    told = each_player(mail, ALPHA, "alpha")
    assert "The deadline of Spring 1901 in alpha is now" in one(mail, addr(0))
    new = due + timedelta(hours=24)
    local = new.astimezone(ZoneInfo("America/Chicago"))
    assert f"{local:%Y-%m-%d %H:%M} CST (America/Chicago) = {new:%Y-%m-%d %H:%M} UTC" in told[1]
    assert "moved the deadline of Spring 1901" in told[1]
    moved = "Un maître de jeu d'alpha a déplacé l'échéance : les ordres pour le printemps 1901 sont attendus"
    assert moved in told[FRENCH]
    assert "(Europe/Paris)" in told[FRENCH]
    assert len(mail) == 1 + len(ALPHA)

    # paused: every player told what it means; an acknowledgement and a status say so
    j.send(addr(0), pw(j, 0) + "pause alpha\n", T0 + timedelta(hours=1))
    j.run(T0 + timedelta(hours=1, minutes=1))
    mail = j.new_mail()
    told = each_player(mail, ALPHA, "[alpha] the game is paused", "[alpha] la partie est en pause")
    assert "When it resumes, you will have the time that was left: 3 days" in told[1].replace("\xa0", " ")
    assert "À la reprise, vous aurez le temps qu'il vous restait : il reste 3 jours" in told[FRENCH]
    side = side_of(j, "alpha", 1)
    j.send(addr(1), f"game: alpha\npower: {side}\n{pw(j, 1)}status\n", T0 + timedelta(hours=2))
    j.run(T0 + timedelta(hours=2, minutes=1))
    ack = one(j.new_mail(), addr(1))
    assert "The game is paused by its master: no deadline runs until it resumes." in ack
    assert "No deadline is set" not in ack

    # resumed: the new deadline, in each player's zone and UTC
    j.send(addr(0), pw(j, 0) + "resume alpha\n", T0 + timedelta(hours=3))
    j.run(T0 + timedelta(hours=3, minutes=1))
    mail = j.new_mail()
    told = each_player(mail, ALPHA, "[alpha] the game goes on", "[alpha] la partie reprend")
    due = datetime.fromisoformat(Game(j.root / "games" / "alpha").config.extra["deadlines"]["spring-1901"])
    assert f"resumed the game. Orders for Spring 1901 are due {due_in(due, 'en')} (in 3" in told[1]
    assert (
        "Un maître de jeu d'alpha a repris la partie. Les ordres pour le printemps 1901 sont attendus au plus tard "
        f"le {due_in(due, 'fr')} (dans 3" in told[FRENCH]
    )


def garbled(path: Path) -> bytes:
    """``path`` (a game.yaml) made unreadable as YAML, its size and modification time kept
    (so that a pass does not take it for an edit and open the game); returns its bytes."""
    kept, st = path.read_bytes(), path.stat()
    path.write_bytes(b"{[" * (len(kept) // 2) + b"{" * (len(kept) % 2))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    return kept


def test_a_pause_that_reaches_its_limit_ends_by_itself_and_every_player_is_told(j: Judge) -> None:
    """A master's pause that reached the game's master_pause_max ended with a line in the
    bulletin and no mail: each player now gets one, alone in To:, in their language and
    zone, with the new deadline. A pass reads no paused game's game.yaml before its pause
    is due to end (the end is kept in the registry); nothing is mailed twice."""
    alpha, gamma = j.root / "games" / "alpha" / "game.yaml", j.root / "games" / "gamma" / "game.yaml"
    j.send(addr(0), pw(j, 0) + "pause alpha\npause gamma\n", T0)
    j.run(T0 + timedelta(minutes=1))
    j.new_mail()

    # two days on: neither pause is over; the pass reads neither game's game.yaml
    kept = {alpha: garbled(alpha), gamma: garbled(gamma)}
    out = j.run(T0 + timedelta(days=2))
    assert "ERROR" not in out, out
    assert "games opened" not in out, out
    assert j.new_mail() == []
    reg = j.registry()
    assert reg.status("alpha") == reg.status("gamma") == "paused"
    reg.close()
    for path, raw in kept.items():
        path.write_bytes(raw)
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns))

    # five days after the pause (alpha's master_pause_max): alpha goes on, each player told once
    ended = T0 + timedelta(days=5, minutes=2)
    out = j.run(ended)
    assert "alpha: the master's pause reached master_pause_max" in out, out
    mail = j.new_mail()
    told = each_player(mail, ALPHA, "[alpha] the game goes on", "[alpha] la partie reprend")
    assert len(mail) == len(ALPHA)  # nobody else, nothing for gamma (no limit: still paused)
    due = datetime.fromisoformat(Game(j.root / "games" / "alpha").config.extra["deadlines"]["spring-1901"])
    assert due > ended + timedelta(days=2)  # the time left at the pause
    assert told[1].startswith("Player 1,\n\nThe pause of alpha has lasted as long as a master may pause it")
    assert f"the game goes on by itself. Orders for Spring 1901 are due {due_in(due, 'en')} (in " in told[1]
    assert (
        "La pause d'alpha a atteint la durée maximale qu'un maître de jeu peut lui donner (master_pause_max) : la "
        "partie reprend d'elle-même. Les ordres pour le printemps 1901 sont attendus au plus tard le "
        f"{due_in(due, 'fr')} (dans " in told[FRENCH]
    )
    reg = j.registry()
    assert (reg.status("alpha"), reg.status("gamma")) == ("running", "paused")
    reg.close()

    # the passes after: nothing mailed again
    j.run(ended + timedelta(minutes=5))
    j.run(ended + timedelta(hours=1))
    assert [m["Subject"] for _, m in j.new_mail() if "goes on" in str(m["Subject"])] == []


def test_a_pass_killed_after_a_game_is_marked_due_adjudicates_it_once_at_the_next(j: Judge) -> None:
    """The judge killed (SIGKILL, as a reboot would) after it marked a game due and
    before the game's pass began (the named point ``game-due``): the next pass
    adjudicates the turn once and mails each player's report once."""
    import subprocess

    from imapkit import PASSWORD
    from runkit import MOONSHINE

    orders = {"ENG": "F LON H", "FRA": "A PAR H", "GER": "A BER H", "ITA": "A ROM H", "AUS": "A VIE H"}
    orders |= {"RUS": "A MOS H", "TUR": "A CON H"}
    for n in ALPHA:
        power = side_of(j, "alpha", n)
        j.send(addr(n), f"game: alpha\npower: {power}\n{pw(j, n)}{orders[power]}\n", T0)
    j.run(T0 + timedelta(minutes=1))
    j.new_mail()
    game = Game(j.root / "games" / "alpha")
    at = datetime.fromisoformat(game.config.extra["deadlines"]["spring-1901"]) + timedelta(minutes=1)

    env = {**os.environ, "MOONSHINE_IMAP_PASSWORD": PASSWORD, "MOONSHINE_KILL_AT": "game-due"}
    killed = subprocess.run(
        [MOONSHINE, "run", str(j.root), "--now", at.isoformat()], env=env, capture_output=True, text=True, check=False
    )
    assert killed.returncode == -9, killed.stdout + killed.stderr  # SIGKILL, at the named point
    reg = j.registry()
    row = reg.game("alpha")
    reg.close()
    assert row is not None and row.due_at == at.isoformat()  # marked due: its pass never began
    assert Game(game.root).current_turn() == "spring-1901"
    assert j.new_mail() == []

    out = j.run(at + timedelta(minutes=1))
    assert "alpha (due)" in out, out
    assert Game(game.root).current_turn() != "spring-1901"
    mail = j.new_mail()
    each_player(mail, ALPHA, "[alpha] Spring 1901: private report", "[alpha] printemps 1901\xa0: rapport privé")
    assert [r for r, m in mail if str(m["Subject"]) == "[alpha] Spring 1901: bulletin"] == [
        ["judge@judge.example.org", *(addr(n) for n in range(8))]  # the bulletin once, to each player and master
    ]
    log = (game.root / "run.log").read_text(encoding="utf-8")
    assert log.count("adjudicated spring-1901") == 1, log
    j.run(at + timedelta(minutes=10))
    assert [str(m["Subject"]) for _, m in j.new_mail() if "[alpha]" in str(m["Subject"])] == []


def test_a_reply_to_a_games_mail_finds_its_game(base: Judge, j: Judge) -> None:
    """Defect 3: the subject's tag was the game's title, and In-Reply-To was not read:
    a player in two games replying with orders was asked to name the game."""
    notice = base.kept[addr(1)]  # the start mail of gamma
    assert str(notice["Subject"]).startswith("[gamma: Gamma Chicago] ")
    gang = side_of(j, "gamma", 1)
    # a reply to the notice, its subject kept: the tag names the game
    j.send(addr(1), f"gang: {gang}\n{pw(j, 1)}", T0 + timedelta(hours=1), f"Re: {notice['Subject']}")
    # a reply whose subject the mail program changed: In-Reply-To names the game
    j.send(addr(1), f"gang: {gang}\n{pw(j, 1)}", T0 + timedelta(hours=2), "my orders", replying=notice)
    j.run(T0 + timedelta(hours=2, minutes=1))
    mail = j.new_mail()
    acks = to_each(mail, addr(1))
    assert len(acks) == 2, [str(m["Subject"]) for m in acks]
    for m in acks:
        assert "received" in plain(m) and "name the game" not in plain(m), plain(m)


def test_name_the_game_lists_a_paused_game_too(j: Judge) -> None:
    """Defect 4: the reply asking to name the game left out the paused games."""
    j.send(addr(0), pw(j, 0) + "pause gamma\n", T0)
    j.run(T0 + timedelta(minutes=1))
    j.new_mail()
    j.send(addr(1), f"{pw(j, 1)}H LOO - NSS\n", T0 + timedelta(hours=1))
    j.run(T0 + timedelta(hours=1, minutes=1))
    assert "You play in alpha, gamma: name the game" in one(j.new_mail(), addr(1))


def test_a_side_taken_over_in_a_paused_game_gets_its_history_at_once_and_the_truth(j: Judge) -> None:
    """Defects 5 and 6: in a paused game the new player got nothing until the
    resumption; before the first report they got 'The game starts', with the join list
    rewritten; after a turn, a password mail was promised that never came."""
    j.send(addr(0), pw(j, 0) + "pause gamma\n", T0)
    j.run(T0 + timedelta(minutes=1))
    j.new_mail()
    j.send(addr(8), pw(j, 8) + "takeover gamma genna\n", T0 + timedelta(hours=1))
    j.run(T0 + timedelta(hours=1, minutes=1))
    mail = j.new_mail()
    assert "The game is paused" in one(mail, addr(8), "Your mail")
    history = one(mail, addr(8), "is yours")
    assert "The game is paused: no deadline runs" in history
    assert "No report yet" in history and "game: gamma" in history
    assert "separate message" not in history and "Your password is the one of all your games" in history
    assert not [m for r, m in mail if addr(8) in r and "starts" in str(m["Subject"])]
    # the players of gamma are told; its start mail to a player of the draw names the draw's players
    assert "Player 8 took over Genna Crime Family in gamma." in one(mail, addr(1), "new player")


def test_an_ejected_french_player_is_told_in_french_and_answered_in_french(j: Judge) -> None:
    """Defect 7: the eject and terminate notices were English and impersonal to a French
    player, and an ejected French player writing to the game was refused in English."""
    power = side_of(j, "alpha", FRENCH)
    j.send(addr(0), pw(j, 0) + f"eject alpha {power}\n", T0)
    j.run(T0 + timedelta(minutes=1))
    mail = j.new_mail()
    personal = checked(one(mail, addr(FRENCH), "vous êtes expulsé de la partie"))
    assert personal.startswith("Joueur 5,\n\nUn maître de jeu d'alpha vous a expulsé de la partie, où vous jouiez")
    others = each_player(mail, [n for n in ALPHA if n != FRENCH], "vacant")
    assert "ejected the player of" in others[1]
    j.send(addr(FRENCH), f"partie : alpha\npuissance : {power}\n{pw(j, FRENCH)}A PAR H\n", T0 + timedelta(hours=1))
    j.run(T0 + timedelta(hours=1, minutes=1))
    reply = checked(one(j.new_mail(), addr(FRENCH)))
    assert "Un maître de jeu d'alpha vous en a expulsé : les messages que vous lui envoyez ne sont plus lus." in reply
    j.send(addr(0), pw(j, 0) + "terminate alpha\n", T0 + timedelta(hours=2))
    j.run(T0 + timedelta(hours=2, minutes=1))
    mail = j.new_mail()
    told = each_player(mail, [n for n in ALPHA if n != FRENCH], "[alpha] the game is terminated")
    assert "ended the game, where you played" in told[2]


def test_orders_beside_a_lobby_command_are_read_by_the_game(j: Judge) -> None:
    """Defect 11: orders and a lobby command in one mail lost the orders."""
    power = side_of(j, "alpha", 3)
    order = {"ENG": "F LON H", "FRA": "A PAR H", "GER": "A BER H", "ITA": "A ROM H", "AUS": "A VIE H"}
    order |= {"RUS": "A MOS H", "TUR": "A CON H"}
    j.send(addr(3), f"game: alpha\npower: {power}\n{pw(j, 3)}{order[power]}\nwhois\n", T0)
    j.run(T0 + timedelta(minutes=1))
    mail = j.new_mail()
    lobby = one(mail, addr(3), "Your mail")
    assert "whois: done" in lobby and "Lines 2, 4 go to alpha, which answers them" in lobby
    ack = one(mail, addr(3), "Re: judge")
    assert order[power] in ack and "REJECTED" not in ack and "whois" not in ack
    assert (j.root / "games" / "alpha" / "orders" / "spring-1901" / f"{power}.txt").is_file()


def test_a_thank_you_to_the_lobby_is_not_orders_and_a_classic_refusal_says_power(j: Judge) -> None:
    """Defect 11: a 'Thanks!' reply to a lobby reply was read as orders and refused
    with "no 'gang:' line" in a classic game, and a refusal named the phase by its key."""
    j.send(addr(6), pw(j, 6) + "whois\n", T0)
    j.run(T0 + timedelta(minutes=1))
    reply = one_mail(j.new_mail(), addr(6))
    j.send(addr(6), "Thanks!\n", T0 + timedelta(hours=1), f"Re: {reply['Subject']}", replying=reply)
    out = j.run(T0 + timedelta(hours=1, minutes=1))
    assert "a reply to the judge's mail, with no command: not answered" in out
    assert j.new_mail() == []
    # every power's orders in: the master processes the turn now; fall 1901 is named so
    orders = {"ENG": "F LON H", "FRA": "A PAR H", "GER": "A BER H", "ITA": "A ROM H", "AUS": "A VIE H"}
    orders |= {"RUS": "A MOS H", "TUR": "A CON H"}
    for n in ALPHA:
        power = side_of(j, "alpha", n)
        j.send(addr(n), f"game: alpha\npower: {power}\n{pw(j, n)}{orders[power]}\n", T0 + timedelta(hours=2))
    j.run(T0 + timedelta(hours=2, minutes=1))
    j.new_mail()
    j.send(addr(0), pw(j, 0) + "process alpha\n", T0 + timedelta(hours=2, minutes=5))
    j.run(T0 + timedelta(hours=2, minutes=10))
    mail = j.new_mail()
    assert "Spring 1901 of alpha is adjudicated at the next pass" in one(mail, addr(0), "Your mail")
    assert (j.root / "games" / "alpha" / "turns" / "spring-1901" / "results.yaml").is_file()
    j.send(addr(6), f"game: alpha\n{pw(j, 6)}A LVP H\n", T0 + timedelta(hours=3))
    j.run(T0 + timedelta(hours=3, minutes=1))
    refusal = one(j.new_mail(), addr(6))
    assert "no 'power:' line" in refusal and "no 'gang:' line" not in refusal
    assert "orders for Autumn 1901" in refusal and "fall-1901" not in refusal


def test_mail_to_a_game_ended_in_the_same_pass_is_answered_in_that_pass(j: Judge) -> None:
    """Defect 11: mail to a game terminated in the same pass was answered one pass late."""
    power = side_of(j, "alpha", 4)
    j.send(addr(4), f"game: alpha\npower: {power}\n{pw(j, 4)}A VIE H\n", T0)
    j.send(addr(0), pw(j, 0) + "terminate alpha\n", T0 + timedelta(minutes=1))
    j.send(addr(2), f"game: alpha\n{pw(j, 2)}A LVP H\n", T0 + timedelta(minutes=2))
    j.run(T0 + timedelta(minutes=3))
    mail = j.new_mail()
    for n in (4, 2):
        assert "alpha is over (terminated): nothing sent to it is read any more." in one(mail, addr(n), "Your mail")
    j.run(T0 + timedelta(minutes=10))
    assert j.new_mail() == []


def test_a_master_sets_the_deadline_and_the_grace_and_the_settings(j: Judge) -> None:
    """deadline GAME WHEN (earlier or later, never before now, in the game's zone),
    grace GAME HOURS and set GAME KEY VALUE, each announced."""
    j.send(addr(0), pw(j, 0) + "deadline alpha 2026-11-29 18:00\ndeadline alpha 2026-12-01 18:00\n", T0)
    j.run(T0 + timedelta(minutes=1))
    mail = j.new_mail()
    reply = one(mail, addr(0), "Your mail")
    assert "a deadline is never set before now" in reply
    assert "The deadline of Spring 1901 in alpha is now 2026-12-01 18:00 CET (Europe/Paris) = 2026-12-01 17:00 UTC" in (
        reply
    )
    told = each_player(mail, ALPHA, "deadline", "échéance")
    assert "orders are due by 2026-12-01 11:00 CST (America/Chicago) = 2026-12-01 17:00 UTC" in told[1]
    due = Game(j.root / "games" / "alpha").config.extra["deadlines"]["spring-1901"]
    assert due == "2026-12-01T17:00:00+00:00"
    j.send(addr(0), pw(j, 0) + "game: alpha\ngrace 12\nset press white\nset dedication 40\n", T0 + timedelta(hours=1))
    j.run(T0 + timedelta(hours=1, minutes=1))
    mail = j.new_mail()
    assert len(to_each(mail, addr(2))) == 3
    french = [checked(plain(m)) for m in to_each(mail, addr(FRENCH))]
    assert any("presse blanche" in t for t in french)
    cfg = Game(j.root / "games" / "alpha").config
    assert cfg.extra["schedule"]["grace"] == "12h" and cfg.extra["press"]["kind"] == "white"
    j.send(addr(9), pw(j, 9) + "list\n", T0 + timedelta(hours=2))
    j.run(T0 + timedelta(hours=2, minutes=1))
    assert "alpha: Diplomacy, being played" in one(j.new_mail(), addr(9))


def test_rollback_by_mail_reopens_the_turn_and_mails_its_reports_again_as_corrections(j: Judge) -> None:
    """rollback GAME TURN, as the command line's: the turn played again with a new
    deadline, announced; its reports mailed again, marked as corrected when they differ."""
    orders = {"ENG": "F LON H", "FRA": "A PAR H", "GER": "A BER H", "ITA": "A ROM H", "AUS": "A VIE H"}
    orders |= {"RUS": "A MOS H", "TUR": "A CON H"}
    for n in ALPHA:
        power = side_of(j, "alpha", n)
        j.send(addr(n), f"game: alpha\npower: {power}\n{pw(j, n)}{orders[power]}\n", T0)
    j.run(T0 + timedelta(minutes=1))
    j.new_mail()
    j.send(addr(0), pw(j, 0) + "process alpha\n", T0 + timedelta(minutes=5))
    j.run(T0 + timedelta(minutes=6))
    mail = j.new_mail()
    france = next(n for n in ALPHA if side_of(j, "alpha", n) == "FRA")
    report = "rapport privé" if france == FRENCH else "private report"
    first = one_mail(mail, addr(france), report)
    j.send(addr(0), pw(j, 0) + "rollback alpha spring-1901\n", T0 + timedelta(hours=1))
    j.run(T0 + timedelta(hours=1, minutes=1))
    mail = j.new_mail()
    assert "alpha is back at the start of Spring 1901" in one(mail, addr(0), "Your mail")
    told = each_player(mail, ALPHA, "Spring 1901 is played again", "le printemps 1901 est rejoué")
    assert "Spring 1901 is played again" in told[1]
    game = Game(j.root / "games" / "alpha")
    assert game.current_turn() == "spring-1901"
    due = datetime.fromisoformat(game.config.extra["deadlines"]["spring-1901"])
    assert due > T0 + timedelta(hours=1)
    # France changes its orders; the turn is processed again: France's report is a correction
    j.send(addr(france), f"game: alpha\npower: FRA\n{pw(j, france)}A PAR - BUR\n", T0 + timedelta(hours=2))
    j.run(T0 + timedelta(hours=2, minutes=1))
    assert "A PAR - BUR" in one(j.new_mail(), addr(france))
    j.send(addr(0), pw(j, 0) + "process alpha\n", T0 + timedelta(hours=2, minutes=5))
    j.run(T0 + timedelta(hours=2, minutes=6))
    mail = j.new_mail()
    again = one_mail(mail, addr(france), report)
    assert str(again["Subject"]).startswith("[corrigé]" if france == FRENCH else "[corrected]")
    assert first["Message-ID"] != again["Message-ID"]


def test_a_terminated_game_resumed_within_a_week_goes_on_with_a_new_raid_seed(j: Judge) -> None:
    """resume of a terminated game by its master within a week; later, refused."""
    game = Game(j.root / "games" / "gamma")
    old = game.config.seed_sha256
    j.send(addr(0), pw(j, 0) + "terminate gamma\n", T0)
    j.run(T0 + timedelta(minutes=1))
    mail = j.new_mail()
    assert "the game is terminated" in str(one_mail(mail, addr(1), "terminated")["Subject"])
    j.send(addr(0), pw(j, 0) + "resume gamma\n", T0 + timedelta(days=1))
    j.run(T0 + timedelta(days=1, minutes=1))
    mail = j.new_mail()
    assert "gamma goes on: its end is taken back" in one(mail, addr(0))
    told = each_player(mail, [1, 2], "[gamma: Gamma Chicago] the game goes on")
    assert "replaced by a new secret one" in told[1]
    game = Game(j.root / "games" / "gamma")
    assert game.config.seed_sha256 != old and game.earlier_seeds()[-1].reason == "revealed-at-end"
    assert "spring-1924" in game.config.extra["deadlines"]
    j.send(addr(0), pw(j, 0) + "terminate gamma\n", T0 + timedelta(days=1, hours=1))
    j.run(T0 + timedelta(days=1, hours=1, minutes=1))
    j.new_mail()
    j.send(addr(0), pw(j, 0) + "resume gamma\n", T0 + timedelta(days=10))
    j.run(T0 + timedelta(days=10, minutes=1))
    assert "gamma cannot be resumed" in one(j.new_mail(), addr(0), "Your mail")


def test_observe_private_games_and_invitations(j: Judge) -> None:
    """observe GAME as the game's settings allow; a private game is unlisted and joined
    by invitation only; whois NAME shows a public record, never an address."""
    j.send(addr(9), pw(j, 9) + "observe gamma\nwhois Player 1\n", T0)
    j.send(addr(0), pw(j, 0) + "create delta pure\nprivate: yes\nevery: 24h\n", T0)
    j.run(T0 + timedelta(minutes=1))
    mail = j.new_mail()
    reply = one(mail, addr(9))
    assert "You observe gamma" in reply
    assert "Player 1, registered 2026-11-30. Games: alpha, gamma." in reply and addr(1) not in reply
    assert addr(9) in (Game(j.root / "games" / "gamma").config.extra.get("observers") or [])
    assert "It is private" in one(mail, addr(0))
    j.send(addr(8), pw(j, 8) + "list\njoin delta\n", T0 + timedelta(hours=1))
    j.run(T0 + timedelta(hours=1, minutes=1))
    reply = one(j.new_mail(), addr(8))
    assert "  delta:" not in reply and "delta is a private game" in reply
    j.send(addr(0), pw(j, 0) + f"invite delta {addr(8)}\n", T0 + timedelta(hours=2))
    j.run(T0 + timedelta(hours=2, minutes=1))
    assert "send 'join delta'" in one(j.new_mail(), addr(8), "[delta] you are invited to the game")
    j.send(addr(8), pw(j, 8) + "join delta\nlist\n", T0 + timedelta(hours=3))
    j.run(T0 + timedelta(hours=3, minutes=1))
    reply = one(j.new_mail(), addr(8))
    assert "You joined delta" in reply and "delta: Pure" in reply


def first_mail(mail: Mail, who: str) -> EmailMessage:
    return next(m for r, m in mail if who in r)


def test_dedication_credits_the_player_who_sent_the_orders(j: Judge) -> None:
    """Defect 10: a player who took a side over was counted on time for the orders the
    previous player sent."""
    orders = {"ENG": "F LON H", "FRA": "A PAR H", "GER": "A BER H", "ITA": "A ROM H", "AUS": "A VIE H"}
    orders |= {"RUS": "A MOS H", "TUR": "A CON H"}
    sides = {n: side_of(j, "alpha", n) for n in ALPHA}
    for n in ALPHA:
        j.send(addr(n), f"game: alpha\npower: {sides[n]}\n{pw(j, n)}{orders[sides[n]]}\n", T0)
    j.run(T0 + timedelta(minutes=1))
    j.send(addr(3), pw(j, 3) + "resign alpha\n", T0 + timedelta(hours=1))
    j.run(T0 + timedelta(hours=1, minutes=1))
    j.send(addr(9), pw(j, 9) + f"takeover alpha {sides[3]}\n", T0 + timedelta(hours=2))
    j.run(T0 + timedelta(hours=2, minutes=2))
    due = datetime.fromisoformat(Game(j.root / "games" / "alpha").config.extra["deadlines"]["spring-1901"])
    j.run(due + timedelta(minutes=1))
    assert (j.root / "games" / "alpha" / "turns" / "spring-1901" / "results.yaml").is_file()
    reg = j.registry()
    try:
        taker, other = reg.player(addr(9)), reg.player(addr(4))  # p4 plays alpha alone
        assert taker is not None and other is not None
        assert (reg.dedication(taker.id).on_time, reg.dedication(taker.id).due) == (0, 1)
        assert (reg.dedication(other.id).on_time, reg.dedication(other.id).due) == (1, 1)
    finally:
        reg.close()


def test_a_player_changes_address_confirmed_from_the_new_one(j: Judge) -> None:
    """Item 3, ``address NEW``: a code goes to the new address alone; a wrong code, or
    the right one from another address, changes nothing; the right one from the new
    address makes it the player's in every game (alpha reads their orders from it, not
    from the old one), the old address is told, and the registry keeps it."""
    new = "ann@new.example.org"
    power = side_of(j, "alpha", 1)
    j.send(addr(1), pw(j, 1) + f"address {new}\n", T0)
    j.run(T0 + timedelta(minutes=1))
    mail = j.new_mail()
    assert len(mail) == 2
    assert f"A code is mailed to {new}: send 'confirm CODE' from that address by" in one(mail, addr(1))
    (asked,) = to_each(mail, new)
    assert str(asked["Subject"]).endswith("Confirm your new address") and addr(1) in plain(asked)
    code = re.search(r"^\s+confirm (\S+)$", plain(asked), re.M).group(1)  # type: ignore[union-attr]

    j.send(new, "confirm abcd-efgh-jkmn\n", T0 + timedelta(hours=1))
    j.send(addr(2), f"confirm {code}\n", T0 + timedelta(hours=1))
    j.run(T0 + timedelta(hours=1, minutes=1))
    mail = j.new_mail()
    assert f"No change of address to {new} waits for that code. Nothing was changed." in one(mail, new)
    assert "No change of address to p2@players.example.org waits for that code" in one(mail, addr(2))
    reg = j.registry()
    try:
        assert reg.player(new) is None and reg.player(addr(1)) is not None
    finally:
        reg.close()

    j.send(new, f"confirm {code}\n", T0 + timedelta(hours=2))
    j.run(T0 + timedelta(hours=2, minutes=1))
    mail = j.new_mail()
    assert len(mail) == 2
    assert "Hello Player 1,\n\nThe judge read" in one(mail, new)
    assert f"Your address is {new} from now on, for all your games; {addr(1)} is told." in one(mail, new)
    told = one(mail, addr(1), "Your address is changed")
    assert f"is {new} from now on" in told and "someone has your password" in told
    reg = j.registry()
    try:
        player = reg.player(new)
        assert player is not None and player.name == "Player 1" and reg.player(addr(1)) is None
        assert [a for a, _ in reg.former_addresses(player.id)] == [addr(1)]
    finally:
        reg.close()

    j.send(new, f"game: alpha\npower: {power}\n{pw(j, 1)}status\n", T0 + timedelta(hours=3))
    j.send(addr(1), f"game: alpha\npower: {power}\n{pw(j, 1)}status\n", T0 + timedelta(hours=3))
    j.run(T0 + timedelta(hours=3, minutes=1))
    mail = j.new_mail()
    assert "Turn: Spring 1901" in one(mail, new)
    assert "REFUSED: 'status' is for the players of this game" in one(mail, addr(1))
