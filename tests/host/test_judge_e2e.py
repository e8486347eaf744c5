"""A judge for many games, played by mail with nobody at the keyboard: ``moonshine
run DIR`` again and again on a judge's directory while a fake clock moves, its one
mailbox on a real IMAP server (pymap) and its mail through a real SMTP server
(aiosmtpd), both on 127.0.0.1. Twenty players register and get their passwords,
a master creates three games, players join (some with the sides they prefer), two
games start when full, turns are adjudicated at their deadlines, a player resigns
and another takes the side over, a master extends a deadline and ejects a silent
side; every reply is checked."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

import yaml
from frtypo import checked
from frtypo import plain as plain_fr
from imapkit import Server
from judgekit import START, Judge, addr, one
from smtpkit import Server as SmtpServer

from moonshine.game.directory import Game


def test_a_judge_for_many_games(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    j = Judge(tmp_path / "judge", imap, smtp)
    t = START

    # -- 20 players register (one in French, with a time zone); each gets a reply and a password
    for n in range(21):
        if n == 5:
            j.send(addr(n), f"inscription Joueur {n}, Europe/Paris, fr\n", t)
        else:
            j.send(addr(n), f"Hello judge,\nregister Player {n}, America/Chicago\nThanks\n", t)
    j.send("spam@example.com", "Buy cheap watches\n", t)
    out = j.run(t + timedelta(minutes=1))
    assert "not from a player, and no command in it: not answered" in out
    mail = j.new_mail()
    for n in range(21):
        reply = one(mail, addr(n), "Votre message au juge" if n == 5 else "Your mail to the judge")
        words = "Vous êtes inscrit sous le nom Joueur 5" if n == 5 else f"You are registered as Player {n}"
        assert words in (checked(reply) if n == 5 else reply), reply
        if n != 5:
            assert "Lines 1, 3: no command of the judge; ignored." in reply
        secret = plain_fr(one(mail, addr(n), "Your password" if n != 5 else "Votre mot de passe"))
        found = re.search(r"(?:for all your games:|pour toutes vos parties :) (\S+)", secret)
        assert found is not None, secret
        j.passwords[addr(n)] = found.group(1)
    assert not [m for rcpts, m in mail if "spam@example.com" in rcpts]

    def pw(n: int) -> str:
        return f"password: {j.passwords[addr(n)]}\n"

    # -- a wrong password changes nothing and says so; whois shows the record
    t += timedelta(hours=1)
    j.send(addr(1), "password: not-the-right-one\nwhois\n", t)
    j.send(addr(2), pw(2) + "whois\n", t)
    j.run(t + timedelta(minutes=1))
    mail = j.new_mail()
    assert "Wrong password for p1@players.example.org" in one(mail, addr(1))
    assert "Dedication 100%: 0 of 0 turns ordered on time" in one(mail, addr(2))

    # -- the master creates three games; a player who is no master cannot
    t += timedelta(hours=1)
    j.send(
        addr(0),
        pw(0)
        + "create alpha classic\ndeadlines: mon, thu 18:00\nmin_gap: 24h\npress: grey\ndedication: 50\nend\n"
        + "create beta pure\nevery: 48h\n\ncreate gamma moonshine\nevery: 72h\ndedication: 90\n",
        t,
    )
    j.send(addr(3), pw(3) + "create delta classic\n", t)
    j.run(t + timedelta(minutes=1))
    mail = j.new_mail()
    reply = one(mail, addr(0))
    assert "create alpha classic: done. alpha is created: Diplomacy, sides: 7, deadlines mon, thu 18:00" in reply
    assert "beta is created: Pure, sides: 7, deadlines every 48h" in reply
    assert "gamma is created: Moonshine, sides: 8" in reply
    assert re.search(r"Seed hash of the draw of sides: [0-9a-f]{64}", reply)
    assert "Only the judge's masters may create games." in one(mail, addr(3))
    for name in ("alpha", "beta", "gamma"):
        assert (j.root / "games" / name / "game.yaml").is_file()
        assert (j.root / "games" / name / ".git").is_dir()
    assert not (j.root / ".building" / "alpha").exists()

    # -- list: the games waiting for players
    j.send(addr(4), "list\n", t + timedelta(minutes=2))
    j.run(t + timedelta(minutes=3))
    listing = one(j.new_mail(), addr(4))
    assert (
        "alpha: Diplomacy, sides free: 7 of 7, deadlines mon, thu 18:00, press grey, dedication at least 50%" in listing
    )
    assert "No game is being played." in listing

    # -- players join: alpha with preferences (two want England), beta without; it fills and starts
    t += timedelta(hours=1)
    prefs = {1: "england france", 2: "england", 3: "russia turkey", 4: "", 6: "", 7: "", 8: "germany"}
    for n, p in prefs.items():
        j.send(addr(n), pw(n) + f"join alpha {p}\n", t)
    for n in range(9, 16):
        j.send(addr(n), pw(n) + "game: beta\njoin\n", t)
    j.send(addr(16), pw(16) + "join gamma\n", t)  # dedication 100% >= 90: in
    j.send(addr(17), pw(17) + "join alpha\n", t)  # full by then
    out = j.run(t + timedelta(minutes=1))
    assert "alpha: started with 7 players; 0 sides vacant" in out
    assert "beta: started with 7 players" in out
    mail = j.new_mail()
    assert "You joined alpha: places taken, 1 of 7" in one(mail, addr(1), "Your mail")
    assert "it is full: it starts now" in one(mail, addr(8), "Your mail")
    assert "alpha is not waiting for players" in one(mail, addr(17), "Your mail")
    reg = j.registry()
    sides = {m.player.address: m.side for m in reg.members("alpha")}
    reg.close()
    assert sides[addr(3)] in ("RUS", "TUR") and sides[addr(8)] == "GER"
    assert {sides[addr(1)], sides[addr(2)]} & {"ENG"}
    start = one(mail, addr(1), "The game starts")
    assert (
        "game: alpha" in start
        and "The first deadline: Thursday\u00a03\u00a0December\u00a02026, 11:00\u00a0CST" in start
    )
    seed = re.search(r"its seed is ([0-9a-f]{64})", start).group(1)  # type: ignore[union-attr]
    from moonshine.host.games import draw

    # anyone can redo the draw from the start mail: the seed, the players in the order
    # they joined with their preferences, the sides sorted by key
    assert "Player 1 (ENG FRA); Player 2 (ENG); Player 3 (RUS TUR); Player 4 (no preference)" in start
    joined = [(n, tuple(p.upper()[:3] for p in prefs[n].split())) for n in prefs]
    assert draw(seed, "alpha", joined, sorted(sides.values())) == {n: sides[addr(n)] for n in prefs}
    alpha = Game(j.root / "games" / "alpha")
    assert alpha.config.players[sides[addr(1)]].email == [addr(1)]
    assert alpha.config.players[sides[addr(1)]].password  # the registry's hash
    for n in range(9, 16):
        assert "game: beta" in one(mail, addr(n), "The game starts")

    # -- orders by mail: with a game: line, or without (a player in one game only)
    t += timedelta(hours=2)
    beta = Game(j.root / "games" / "beta")
    reg = j.registry()
    beta_sides = {m.player.address: m.side for m in reg.members("beta")}
    reg.close()
    for n in range(9, 15):  # 15 stays silent
        side = beta_sides[addr(n)]
        j.send(addr(n), f"power: {side}\n{pw(n)}\n", t)  # no game line: they play one game
    a1 = sides[addr(1)]
    j.send(addr(1), f"game: alpha\npower: {a1}\n{pw(1)}", t)
    j.run(t + timedelta(minutes=1))
    mail = j.new_mail()
    for n in range(9, 15):
        assert "Re: judge" in next(str(m["Subject"]) for r, m in mail if addr(n) in r)
    ack = one(mail, addr(1), "Re: judge")
    assert "REJECTED" not in ack

    # -- the master extends beta's deadline by 24 hours
    beta_due = datetime.fromisoformat(yaml.safe_load((beta.root / "game.yaml").read_text())["deadlines"]["spring-1901"])
    j.send(addr(0), pw(0) + "game: beta\nextend 24\n", t + timedelta(hours=1))
    j.run(t + timedelta(hours=1, minutes=1))
    assert "The deadline of Spring 1901 in beta is now" in one(j.new_mail(), addr(0))
    assert Game(beta.root).config.extra["deadlines"]["spring-1901"] == (beta_due + timedelta(hours=24)).isoformat()

    # -- a player resigns from alpha; another takes the side over and gets its history
    t += timedelta(hours=3)
    j.send(addr(2), pw(2) + "resign alpha\n", t)
    j.run(t + timedelta(minutes=1))
    mail = j.new_mail()
    side2 = sides[addr(2)]
    assert f"You resigned from alpha: {side2} is vacant" in one(mail, addr(2))
    assert "resigned" in one(mail, addr(0), "alpha")  # the master is told
    assert Game(alpha.root).config.players[side2].email == []
    j.send(addr(18), pw(18) + "list vacant\n", t + timedelta(minutes=5))
    j.run(t + timedelta(minutes=6))
    assert f"alpha: {side2}" in one(j.new_mail(), addr(18))
    j.send(addr(18), pw(18) + f"takeover alpha {side2}\n", t + timedelta(minutes=10))
    j.run(t + timedelta(minutes=11))
    mail = j.new_mail()
    assert f"{side2} of alpha is yours" in one(mail, addr(18), "Your mail")
    assert addr(18) in Game(alpha.root).config.players[side2].email

    # -- the master pauses alpha: its deadline is taken out (nothing sent meanwhile is late)
    t_pause = t + timedelta(minutes=15)
    alpha_due = datetime.fromisoformat(Game(alpha.root).config.extra["deadlines"]["spring-1901"])
    j.send(addr(0), pw(0) + "pause alpha\n", t_pause)
    j.run(t_pause + timedelta(minutes=1))
    assert "alpha is paused" in one(j.new_mail(), addr(0))
    assert "spring-1901" not in (Game(alpha.root).config.extra.get("deadlines") or {})
    left = alpha_due - (t_pause + timedelta(minutes=1))

    # -- beta's deadline passes (with the extension and the grace): adjudicated; the
    # silent side is ejected by the master; the dedication counts the turn
    t = beta_due + timedelta(hours=24 + 13)
    out = j.run(t)
    assert "beta: dedication counted for spring-1901" in out
    mail = j.new_mail()
    assert [m for r, m in mail if addr(9) in r and "1901" in str(m["Subject"])]
    s15 = beta_side = beta_sides[addr(15)]
    j.send(addr(0), pw(0) + f"eject beta {beta_side}\n", t + timedelta(minutes=5))
    j.send(addr(15), pw(15) + "whois\n", t + timedelta(minutes=5))
    j.send(addr(9), pw(9) + "whois\n", t + timedelta(minutes=5))
    j.run(t + timedelta(minutes=6))
    mail = j.new_mail()
    assert f"{s15} (Player 15) is ejected from beta" in one(mail, addr(0), "Your mail")
    assert "ejected" in one(mail, addr(15), "beta")
    assert "0 of 2 turns ordered on time. Among them, 1 resignation or ejection" in one(mail, addr(15), "Your mail")
    assert "Dedication 100%: 1 of 1 turn ordered on time" in one(mail, addr(9), "Your mail")
    assert Game(beta.root).config.players[s15].email == []

    # -- alpha, paused, was not adjudicated though its old deadline has passed; orders
    # sent to it now are read and answered (not late), and kept
    assert t > alpha_due + timedelta(hours=6)
    assert not (alpha.root / "turns" / "spring-1901" / "results.yaml").exists()
    hold = {"ENG": "A LVP H", "FRA": "A PAR H"}[a1]
    j.send(addr(1), f"game: alpha\npower: {a1}\n{pw(1)}{hold}\n", t + timedelta(minutes=20))
    j.run(t + timedelta(minutes=21))
    ack = one(j.new_mail(), addr(1), "Re: judge")
    assert "REJECTED" not in ack and "late" not in ack.lower() and hold in ack
    assert not (alpha.root / "turns" / "spring-1901" / "results.yaml").exists()
    # -- resumed: the players have the time that was left at the pause
    resumed = t + timedelta(minutes=30)
    j.send(addr(0), pw(0) + "resume alpha\n", resumed)
    j.run(resumed + timedelta(minutes=1))
    assert "alpha goes on" in one(j.new_mail(), addr(0))
    due = datetime.fromisoformat(Game(alpha.root).config.extra["deadlines"]["spring-1901"])
    assert abs(due - (resumed + timedelta(minutes=1) + left)) < timedelta(minutes=2)
    assert hold in (alpha.root / "orders" / "spring-1901" / f"{a1}.txt").read_text(encoding="utf-8")
    t = resumed + timedelta(minutes=1)

    # -- nothing is ever mailed twice: a pass with nothing new sends nothing
    j.run(t + timedelta(minutes=30))
    assert j.new_mail() == []
