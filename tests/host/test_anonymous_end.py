"""The end of an anonymous game at a judge for many games (issue 41), on real servers
(pymap and aiosmtpd on 127.0.0.1): a game created by mail with ``reveal: never`` is
played to its end (a house rule of one VP ends it at its first turn's adjudication),
and no mail, bulletin, results JSON, site page, export or answer of the lobby (``list``,
``list GAME``, ``whois``) names a player beside their side, while its master's ``list
GAME`` with their password names them; the same game with ``reveal: at-end`` tells
each player once, in a mail of their own, in their language.

A game master's ``moonshine run`` in the game's own folder (``games/NAME``) may be the
pass that ends the game, before or after the judge's: the players are told who played
which side once, whichever runs first. While another process holds the game's lock,
the judge's pass writes nothing in the game's folder: it says the game is busy, and a
later pass tells the players."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path

import pytest
from click.testing import CliRunner
from frtypo import checked
from imapkit import Server
from judgekit import JUDGE, START, Judge, Mail, addr, is_password_mail, one, text_of
from runkit import plain, received
from smtpkit import smtp_server

from moonshine.cli import main
from moonshine.game import identities
from moonshine.game.directory import Game
from moonshine.host.registry import FINISHED

MASTER = 0
STRANGER = 7  # registered, plays in no game: lists the games and asks who a player is
FRENCH = 3
NAMES = {
    MASTER: "Mona Masterson",
    1: "Zelda Quorn",
    2: "Yannick Brisk",
    FRENCH: "Violette Garnier",
    STRANGER: "Tobias Kestrel",
}
PLAYERS = (1, 2, FRENCH)
GAMES = {"veil": ("never", "72h"), "mask": ("at-end", "120h")}  # veil ends days before mask
TOLD = re.compile(r"who played which side|qui a joué quel camp")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, imap: Server) -> Iterator[Judge]:
    """A judge whose master created two anonymous games by mail, ``veil`` (``reveal:
    never``) and ``mask`` (``reveal: at-end``), each started with the same three players,
    its mail through a real SMTP server of the module's."""
    with smtp_server() as outgoing:
        j = Judge(tmp_path_factory.mktemp("base") / "judge", imap, outgoing, folder="anonend")
        t = START
        for n, name in NAMES.items():
            words = f"inscription {name}, Europe/Paris, fr" if n == FRENCH else f"register {name}, America/Chicago"
            j.send(addr(n), words + "\n", t)
        j.run(t + timedelta(minutes=1))
        for rcpts, m in j.new_mail():
            found = re.search(r"(?:for all your games:|pour toutes vos parties\s?:)\s(\S+)", plain(m))
            if is_password_mail(m) and found:
                j.passwords[rcpts[0]] = found.group(1)
        t += timedelta(hours=1)
        made = "".join(
            f"create {name} moonshine\nanonymous: yes\nreveal: {reveal}\npress: white\nevery: {every}\n"
            "victory_vp: 1\nend\n"
            for name, (reveal, every) in GAMES.items()
        )
        j.send(addr(MASTER), pw(j, MASTER) + made, t)
        j.run(t + timedelta(minutes=1))
        t += timedelta(hours=1)
        for n in PLAYERS:
            j.send(addr(n), pw(j, n) + "".join(f"join {name}\n" for name in GAMES), t)
        j.run(t + timedelta(minutes=1))
        j.send(addr(MASTER), pw(j, MASTER) + "".join(f"start {name}\n" for name in GAMES), t + timedelta(minutes=5))
        j.run(t + timedelta(minutes=6))
        j.new_mail()  # j.seen: how many mails the base's passes sent (the start mails among them)
        yield j


@pytest.fixture
def j(base: Judge, tmp_path: Path, request: pytest.FixtureRequest) -> Judge:
    """The base judge, copied for one test (its own directory and mailbox folder)."""
    return base.copy(tmp_path / "judge", re.sub(r"\W", "", request.node.name)[-40:])


def pw(j: Judge, n: int) -> str:
    return f"password: {j.passwords[addr(n)]}\n"


def side_of(j: Judge, game: str, n: int) -> str:
    reg = j.registry()
    try:
        player = reg.player(addr(n))
        assert player is not None
        m = reg.member(game, player.id)
        assert m is not None and m.side is not None
        return m.side
    finally:
        reg.close()


def deadline(j: Judge, game: str) -> datetime:
    return datetime.fromisoformat(Game(j.root / "games" / game).config.extra["deadlines"]["spring-1924"])


def orders(j: Judge, game: str, at: datetime) -> None:
    """Each player's orders, with a broadcast that signs with the side (white press)."""
    for n in PLAYERS:
        side = side_of(j, game, n)
        j.send(addr(n), f"game: {game}\ngang: {side}\n{pw(j, n)}sell all\nbroadcast\nGood luck, all.\nend\n", at)


def manual_run(j: Judge, game: str, at: datetime) -> None:
    """The game master's ``moonshine run`` in the game's own folder."""
    done = CliRunner().invoke(main, ["run", str(j.root / "games" / game), "--now", at.isoformat()])
    assert done.exit_code == 0, done.output


def everything(base: Judge, since: int) -> Mail:
    """Every mail of a test's judge: its base's, and those the SMTP server received from
    ``since`` on (the copy's ``seen`` when the test began)."""
    got = received(base.smtp.recorder)
    return got[: base.seen] + got[since:]


def site_text(game: Path, out: Path) -> str:
    """Every page of the game's public site (``moonshine site``), as one text."""
    done = CliRunner().invoke(main, ["site", "--game", str(game), "--out", str(out)])
    assert done.exit_code == 0, done.output
    pages = sorted(p for p in out.rglob("*") if p.suffix in (".html", ".json", ".txt", ".svg"))
    assert pages
    return "\n".join(p.read_text(encoding="utf-8") for p in pages)


def exported(game: Path, out: Path) -> str:
    """The game's own JSON (``moonshine export``)."""
    done = CliRunner().invoke(main, ["export", "--game", str(game), "--out", str(out)])
    assert done.exit_code == 0, done.output
    json.loads(out.read_text(encoding="utf-8"))
    return out.read_text(encoding="utf-8")


def reveals(mail: Mail, n: int) -> list[EmailMessage]:
    return [m for rcpts, m in mail if addr(n) in rcpts and TOLD.search(str(m["Subject"]))]


def test_a_game_that_never_reveals_names_nobody_to_anyone_but_its_master(base: Judge, j: Judge, tmp_path: Path) -> None:
    since = j.seen
    at = deadline(j, "veil")
    orders(j, "veil", at - timedelta(hours=2))
    j.run(at - timedelta(hours=2) + timedelta(minutes=1))
    j.run(at + timedelta(minutes=5))  # the first turn adjudicated: a gang has 1 VP, and wins
    game = Game(j.root / "games" / "veil")
    assert game.layout.winners(game.load_any_state(game.current_turn()))
    manual_run(j, "veil", at + timedelta(minutes=10))  # its master's own pass changes nothing of it
    # after the end, anyone asks the lobby: the stranger, a player, and the master with their password
    t = at + timedelta(hours=1)
    j.send(addr(STRANGER), "list veil\nlist\n", t)
    j.send(addr(1), pw(j, 1) + "list veil\n", t)
    j.send(addr(MASTER), pw(j, MASTER) + "list veil\n", t)
    j.run(t + timedelta(minutes=1))
    j.run(t + timedelta(days=1))
    mail = j.new_mail()
    listed = one(mail, addr(STRANGER), "Your mail")
    assert "Players: 3 (an anonymous game: its players are not named)" in listed, listed
    assert "Players: 3 (an anonymous game" in one(mail, addr(1), "Your mail")
    master = one(mail, addr(MASTER), "Your mail")
    assert all(NAMES[n] in master for n in PLAYERS), master  # the master knows who played
    every = everything(base, since)
    assert len([m for _, m in every if "starts" in str(m["Subject"])]) >= 3  # the start mails are read too
    assert not [r for r, m in every if TOLD.search(str(m["Subject"]))]  # nobody is told
    bulletins = [m for r, m in every if addr(1) in r and "bulletin" in str(m["Subject"]).lower()]
    with_json = [m for m in bulletins if any(p.get_content_type() == "application/json" for p in m.walk())]
    assert bulletins and with_json, [str(m["Subject"]) for _, m in every]
    for rcpts, msg in every:  # every mail of the game's life, its start to the end's answers
        body = text_of(msg)
        for who in rcpts:
            if who == JUDGE:
                continue
            n = next(k for k in NAMES if addr(k) == who)
            assert not [a for k in NAMES if k != n and (a := addr(k)) in body], (who, msg["Subject"])
            if n != MASTER:
                named = [NAMES[k] for k in PLAYERS if k != n and NAMES[k] in body]
                assert not named, (who, str(msg["Subject"]), named)
    # the game's own files a master may publish: its site, its export
    page = site_text(game.root, tmp_path / "site")
    assert "Who played which side" not in page and not [NAMES[n] for n in NAMES if NAMES[n] in page]
    assert not [addr(n) for n in NAMES if addr(n) in page]
    export = exported(game.root, tmp_path / "veil.json")
    assert not [NAMES[n] for n in NAMES if NAMES[n] in export] and "players.example.org" not in export
    assert identities.of(Game(game.root).config).revealed is None
    # a player's public record names no anonymous game of theirs; their own does
    t += timedelta(days=1, hours=1)
    j.send(addr(STRANGER), pw(j, STRANGER) + f"whois {NAMES[1]}\n", t)
    j.send(addr(2), pw(j, 2) + f"whois {NAMES[1]}\n", t + timedelta(minutes=1))
    j.send(addr(1), pw(j, 1) + "whois\n", t + timedelta(minutes=2))
    j.run(t + timedelta(minutes=3))
    mail = j.new_mail()
    for n in (STRANGER, 2):
        record = one(mail, addr(n), "Your mail")
        assert NAMES[1] in record and "veil" not in record and "mask" not in record, record
    assert f"Games: mask ({side_of(j, 'mask', 1)})" in one(mail, addr(1), "Your mail")


def test_a_game_that_reveals_at_its_end_tells_each_player_once_in_their_language(j: Judge, tmp_path: Path) -> None:
    at = deadline(j, "mask")
    orders(j, "mask", at - timedelta(hours=2))
    j.run(at - timedelta(hours=2) + timedelta(minutes=1))
    sides = {n: side_of(j, "mask", n) for n in PLAYERS}
    j.new_mail()
    j.run(at + timedelta(minutes=5))  # adjudicated: the game is over
    j.run(at + timedelta(days=1))
    manual_run(j, "mask", at + timedelta(days=1, minutes=1))
    t = at + timedelta(days=2)
    j.send(addr(STRANGER), "list mask\n", t)
    j.run(t + timedelta(minutes=1))
    mail = j.new_mail()
    for n in PLAYERS:
        [told] = reveals(mail, n)
        assert [a for _, a in getaddresses([str(told["To"])])] == [addr(n)]
        text = plain(told)
        text = checked(text) if n == FRENCH else text
        for k, side in sides.items():
            token = "jeton" if n == FRENCH else "token"
            assert re.search(rf"\({side}\) ?: {NAMES[k]} \({token} [0-9a-f]{{10}} ", text), (n, text)
    assert "qui a joué quel camp" in str(reveals(mail, FRENCH)[0]["Subject"])
    assert not reveals(mail, MASTER) and not reveals(mail, STRANGER)
    listed = one(mail, addr(STRANGER), "Your mail")
    assert all(NAMES[n] in listed for n in PLAYERS), listed
    page = site_text(j.root / "games" / "mask", tmp_path / "site")
    assert "Who played which side" in page and all(NAMES[n] in page for n in PLAYERS)


@pytest.mark.parametrize("first", ["judge", "master"])
def test_the_players_are_told_once_whichever_pass_ends_the_game(j: Judge, first: str) -> None:
    """The game master runs ``moonshine run`` in ``games/mask`` around the deadline,
    before or after the judge's pass: each player gets one mail that says who played
    which side (the judge's, with the tokens of the draw)."""
    at = deadline(j, "mask")
    orders(j, "mask", at - timedelta(hours=2))
    j.run(at - timedelta(hours=2) + timedelta(minutes=1))
    j.new_mail()
    if first == "master":
        manual_run(j, "mask", at + timedelta(minutes=5))
        j.run(at + timedelta(minutes=6))
    else:
        j.run(at + timedelta(minutes=5))
        manual_run(j, "mask", at + timedelta(minutes=6))
    j.run(at + timedelta(minutes=20))
    manual_run(j, "mask", at + timedelta(minutes=30))
    j.run(at + timedelta(days=1))
    game = Game(j.root / "games" / "mask")
    assert game.layout.winners(game.load_any_state(game.current_turn()))
    mail = j.new_mail()
    for n in PLAYERS:
        told = reveals(mail, n)
        assert len(told) == 1, (n, [str(m["Subject"]) for m in told])
        assert re.search(r"\((?:token|jeton) [0-9a-f]{10} ", plain(told[0]))


HOLD = """
import sys
from moonshine.game.lock import game_lock
with game_lock(sys.argv[1], job=sys.argv[2]):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_the_end_waits_while_another_process_holds_the_games_lock(j: Judge) -> None:
    """The master's ``moonshine run`` ends the game, then another process (a master's
    command) holds its lock while the judge's pass comes: game.yaml is not written,
    the pass says the game is busy and fails nothing; the next pass, the lock let go,
    tells each player once who played which side."""
    at = deadline(j, "mask")
    orders(j, "mask", at - timedelta(hours=2))
    j.run(at - timedelta(hours=2) + timedelta(minutes=1))
    j.new_mail()
    manual_run(j, "mask", at + timedelta(minutes=5))  # the game is over, the judge not told yet
    root = j.root / "games" / "mask"
    before = (root / "game.yaml").stat()
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(root), "adjudicate by hand"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        out = j.run(at + timedelta(minutes=6))  # exit status 0: nothing failed
        after = (root / "game.yaml").stat()
        assert (after.st_mtime_ns, after.st_size, after.st_ino) == (before.st_mtime_ns, before.st_size, before.st_ino)
        assert identities.of(Game(root).config).revealed is None
        assert re.search(r"mask: busy: .*adjudicate by hand", out), out
        assert "ERROR" not in out, out
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=30)
    assert not [m for _, m in j.new_mail() if TOLD.search(str(m["Subject"]))]
    reg = j.registry()
    try:
        assert reg.status("mask") != FINISHED
    finally:
        reg.close()
    j.run(at + timedelta(minutes=20))
    j.run(at + timedelta(minutes=40))
    assert identities.of(Game(root).config).revealed is not None
    mail = j.new_mail()
    for n in PLAYERS:
        told = reveals(mail, n)
        assert len(told) == 1, (n, [str(m["Subject"]) for m in told])
        assert re.search(r"\((?:token|jeton) [0-9a-f]{10} ", plain(told[0]))
    assert not reveals(mail, MASTER)


def test_a_masters_deadline_waits_while_another_process_holds_the_games_lock(j: Judge) -> None:
    """A master extends both games while another process holds mask's lock: veil's
    deadline is written, mask's game.yaml is not (the pass says once that mask is busy,
    and fails nothing); the next pass, the lock let go, writes mask's."""
    mask, veil = deadline(j, "mask"), deadline(j, "veil")
    root = j.root / "games" / "mask"
    t = veil - timedelta(hours=3)
    j.send(addr(MASTER), pw(j, MASTER) + "extend mask 24\nextend veil 24\n", t)
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(root), "adjudicate by hand"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        before = (root / "game.yaml").read_bytes()
        out = j.run(t + timedelta(minutes=1))
        assert (root / "game.yaml").read_bytes() == before
        assert deadline(j, "veil") == veil + timedelta(hours=24), out
        assert "ERROR" not in out, out
        judge_lines = [x for x in out.splitlines() if " judge: mask: busy: " in x]
        assert len(judge_lines) == 1 and "adjudicate by hand" in judge_lines[0], out
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=30)
    j.run(t + timedelta(minutes=2))
    assert deadline(j, "mask") == mask + timedelta(hours=24)
