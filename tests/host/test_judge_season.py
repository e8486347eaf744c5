"""Issue 37's season: a judge for many games played by mail for a whole season on real
servers (pymap and aiosmtpd on 127.0.0.1, ``judgekit``), walking every item of the
issue, and every mail each player receives checked after every pass: how many, each
naming its recipient alone in To: (the bulletin naming the judge, its readers in
Bcc), in the recipient's language (French for p5, with French typography; English
for the others) and what it says; nothing lost, nothing answered twice.

Eleven players register (p0 the master; p5 reads French in Europe/Paris; p6 gave no
time zone, so the judge's is his); the master creates a classic game ``alpha``, a
Moonshine game ``gamma`` with a title, a private game ``delta``, and in the same mail a
game refused for a bad setting (the creates after it are done); ``liste`` in French;
an invitation; seven players fill alpha, two join gamma, which its master starts.
Then: a reply to gamma's start mail carries orders to gamma (its tag and In-Reply-To);
orders beside a lobby command; a "Thanks!" to a lobby reply, not answered; a deadline
extended and one set, told to every player in their zone; gamma paused (its
acknowledgements say so, and "name the game" lists it), a side taken over there (its
history at once, the truth about the password) and gamma resumed; in alpha a
resignation, a takeover, an eject of the French player (told in French, and answered
in French when he writes to the game), the turn processed early (dedication credits
the orders to whoever sent them), a classic refusal naming 'power:' and Autumn 1901,
settings changed, a rollback and the turn's reports mailed again as corrections, a
master promoted, the game terminated with mail to it in the same pass, and resumed;
an observer; gamma's deadline; a change of address; an idle pass; and the throttled sender whose
right-password message is answered at the next pass (issue 37, item 2)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path

from frtypo import checked
from imapkit import Server
from judgekit import JUDGE, START, Judge, addr
from runkit import plain
from smtpkit import Server as SmtpServer

from moonshine.game.directory import Game

FRENCH = 5
PLAYERS = range(11)  # p11's address becomes p10's
ALPHA = range(1, 8)
HOLD = {"ENG": "F LON H", "FRA": "A PAR H", "GER": "A BER H", "ITA": "A ROM H", "AUS": "A VIE H"}
HOLD |= {"RUS": "A MOS H", "TUR": "A CON H"}
MOVE = {"ENG": "F LON - NTH", "FRA": "A PAR - BUR", "GER": "A BER - KIE", "ITA": "A ROM - APU"}
MOVE |= {"AUS": "A VIE - GAL", "RUS": "A MOS - UKR", "TUR": "A CON - BUL"}
GANG = {"outfit": "H LIN - ALB", "valley": "H LOO - GOL", "genna": "H SOD - DUM"}
REPLY = ("Your mail to the judge", "Votre message au juge")
SENT, CHECKED = 61, 218  # the mails the players send and the mails delivered to them, one per recipient, all checked


Got = dict[int, list[EmailMessage]]


class Season:
    """The judge, the clock, and every mail its players got, checked pass by pass."""

    def __init__(self, j: Judge) -> None:
        self.j = j
        self.t = START
        self.checked = 0  # mails delivered and checked, one per recipient
        self.sent = 0  # mails the players sent

    def at(self, **delta: float) -> datetime:
        self.t += timedelta(**delta)
        return self.t

    def send(self, n: int, body: str, *, password: bool = True, **kw: object) -> str:
        self.sent += 1
        return self.j.send(addr(n), (self.pw(n) if password else "") + body, self.t, **kw)  # type: ignore[arg-type]

    def pw(self, n: int) -> str:
        return f"password: {self.j.passwords[addr(n)]}\n" if addr(n) in self.j.passwords else ""

    def run(self, expected: dict[int, list[str]], *, minutes: int = 1) -> Got:
        """A pass ``minutes`` on; each player got exactly the mails ``expected`` names (a
        word of each one's subject, in the player's language), each naming them alone."""
        self.j.run(self.at(minutes=minutes))
        got: Got = {}
        for rcpts, m in self.j.new_mail():
            shown = [a.lower() for _, a in getaddresses([str(m.get("To", "")), str(m.get("Cc", ""))]) if a]
            if len(rcpts) == 1:
                assert shown == rcpts, (str(m["Subject"]), shown)  # one recipient a mail
            else:
                assert shown == [JUDGE], (str(m["Subject"]), shown)  # the bulletin: its readers in Bcc
            for who in rcpts:
                if who != JUDGE:
                    got.setdefault(int(who.split("@")[0][1:]), []).append(m)
        subjects = {n: sorted(str(m["Subject"]) for m in ms) for n, ms in got.items()}
        assert set(got) == {n for n, words in expected.items() if words}, subjects
        for n, words in expected.items():
            left = list(got.get(n, []))
            for word in words:
                found = next((m for m in left if word in str(m["Subject"])), None)
                assert found is not None, (n, word, subjects.get(n))
                left.remove(found)
            assert not left, (n, subjects.get(n))
            for m in got.get(n, []):
                self.language(n, m)
        self.checked += sum(len(ms) for ms in got.values())
        return got

    @staticmethod
    def language(n: int, m: EmailMessage) -> None:
        """A mail is in its reader's language: French with French typography for p5."""
        text = str(m["Subject"]) + "\n" + plain(m)
        if n == FRENCH:
            checked(text)
            assert re.search(r"[éèàçù]|\b(le|la|les|dans|vous|de)\b", text), text
            assert not re.search(r"\b(Hello|The judge|your|the)\b", text), text
        else:
            assert not re.search(r"\b(vous|votre|Bonjour|partie)\b", text), text


def text(got: Got, n: int, word: str = "") -> str:
    found = [m for m in got[n] if word in str(m["Subject"])]
    assert len(found) == 1, (n, word, [str(m["Subject"]) for m in got[n]])
    return checked(plain(found[0])) if n == FRENCH else plain(found[0])


def mail_of(got: Got, n: int, word: str) -> EmailMessage:
    return next(m for m in got[n] if word in str(m["Subject"]))


def reply(n: int) -> str:
    return REPLY[1] if n == FRENCH else REPLY[0]


def side(j: Judge, game: str, n: int) -> str:
    reg = j.registry()
    try:
        player = reg.player(addr(n))
        m = reg.member(game, player.id) if player is not None else None
        assert m is not None and m.side is not None
        return m.side
    finally:
        reg.close()


def test_a_season_of_the_judge_for_many_games(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    j = Judge(tmp_path / "judge", imap, smtp)
    s = Season(j)

    # -- registration: a reply and a password each, in the player's language and zone
    for n in PLAYERS:
        if n == FRENCH:
            s.send(n, "inscription Joueur 5, Europe/Paris, fr\n", password=False)
        elif n == 6:
            s.send(n, "register Player 6\n", password=False)
        else:
            s.send(n, f"register Player {n}, America/Chicago\n", password=False)
    got = s.run({n: [reply(n), "Votre mot de passe" if n == FRENCH else "Your password"] for n in PLAYERS})
    for n in PLAYERS:
        secret = text(got, n, "mot de passe" if n == FRENCH else "password")
        j.passwords[addr(n)] = re.search(r"(?:games:|parties :) (\S+)", secret).group(1)  # type: ignore[union-attr]
    assert "2026-11-30 02:00 CST (America/Chicago) = 2026-11-30 08:00 UTC" in text(got, 1, "to the judge")  # their zone
    assert "30 novembre 2026 à 9 h 00 CET (Europe/Paris)" in text(got, FRENCH, "juge")
    assert "2026-11-30 09:00 CET (Europe/Paris) = 2026-11-30 08:00 UTC" in text(got, 6, "to the judge")  # the judge's

    # -- creates: a refused one does not swallow the next (defect 8); a private game
    s.at(hours=1)
    s.send(
        0,
        "create alpha classic\nevery: 72h\npress: grey\ncreate gamma moonshine\ntitle: Gamma Chicago\nevery: 48h\n"
        "create bad pure\npress: black\ncreate delta pure\nprivate: yes\nevery: 24h\n",
    )
    got = s.run({0: [REPLY[0]]})
    created = text(got, 0)
    for name in ("alpha", "gamma", "delta"):
        assert f"create {name} " in created and f"{name} is created" in created
    assert "create bad pure: refused. Setting 'press': none / public / white / grey" in created
    assert "It is private" in created and "no command of the judge" not in created

    # -- French list, in French (defect 9); delta unlisted; an invitation
    s.at(hours=1)
    s.send(FRENCH, "liste\n")
    s.send(9, "list\n")
    s.send(0, f"invite delta {addr(9)}\n")
    got = s.run({FRENCH: [REPLY[1]], 9: [REPLY[0], "you are invited"], 0: [REPLY[0]]})
    listing = text(got, FRENCH)
    assert "échéances toutes les 72 h, presse grise" in listing and "at least 0" not in listing
    assert "  delta" not in text(got, 9, "to the judge") and "join delta" in text(got, 9, "invited")

    # -- joins: alpha full, it starts; two join gamma (with the gangs they want), p9 delta
    s.at(hours=1)
    for n in ALPHA:
        more = "join gamma outfit\n" if n == 1 else ""
        s.send(n, ("rejoindre alpha\n" if n == FRENCH else "join alpha\n") + more)
    s.send(8, "join gamma valley\n")
    s.send(9, "join delta\n")
    starts = "La partie commence"
    got = s.run(
        {**{n: [reply(n), starts if n == FRENCH else "The game starts"] for n in ALPHA}, 8: [REPLY[0]]}
        | {9: [REPLY[0]]}
    )
    assert "You joined delta" in text(got, 9)
    sides = {n: side(j, "alpha", n) for n in ALPHA}

    # -- the master starts gamma; its start mails carry its name in the subject's tag
    s.at(minutes=5)
    s.send(0, "start gamma\n")
    got = s.run({0: [REPLY[0]], 1: ["The game starts"], 8: ["The game starts"]})
    gamma_start = mail_of(got, 1, "starts")
    assert str(gamma_start["Subject"]).startswith("[gamma: Gamma Chicago] ")

    # -- orders: a reply to gamma's start mail reaches gamma, a subject's tag alpha (defect 3);
    # orders beside a lobby command are read by the game (defect 11)
    s.at(hours=1)
    s.send(1, f"gang: outfit\n{GANG['outfit']}\n", subject=f"Re: {gamma_start['Subject']}", replying=gamma_start)
    s.send(1, f"power: {sides[1]}\n{HOLD[sides[1]]}\n", subject="[alpha] my orders")
    s.send(3, f"game: alpha\npower: {sides[3]}\n{HOLD[sides[3]]}\nwhois\n")
    for n in (2, 4, 5, 6, 7):
        s.send(n, f"{'partie' if n == FRENCH else 'game'}: alpha\npower: {sides[n]}\n{HOLD[sides[n]]}\n")
    got = s.run(
        {1: ["Re: [alpha] my orders", "Re: [gamma: Gamma Chicago]"], 3: [REPLY[0], "Re: judge"]}
        | {n: ["Re: judge"] for n in (2, 4, 6, 7)}
        | {FRENCH: ["Re: judge"]}
    )
    assert "Lines 3-4 go to alpha, which answers them in a mail of its own." in text(got, 3, "Your mail")
    assert "whois" not in text(got, 3, "Re: judge") and "REJECTED" not in text(got, 3, "Re: judge")
    assert "Chicago Outfit" in text(got, 1, "Re: [gamma") and "ALB" in text(got, 1, "Re: [gamma")
    assert "REJECTED" not in text(got, 1, "Re: [alpha]")

    # -- a "Thanks!" to the lobby's reply is not answered (defect 11); a deadline extended
    # and one set: every player of the game told, in their zone and UTC (defect 1)
    s.at(hours=1)
    lobby_reply = mail_of(got, 3, "Your mail")
    s.send(3, "Thanks!\n", password=False, subject=f"Re: {lobby_reply['Subject']}", replying=lobby_reply)
    s.send(0, "extend alpha 24\ndeadline gamma 2026-12-03 20:00\n")
    got = s.run(
        {0: [REPLY[0]], 1: ["deadline", "deadline"], 8: ["deadline"]}
        | {n: ["échéance" if n == FRENCH else "deadline"] for n in ALPHA if n != 1}
    )
    assert "2026-12-03 20:00 CET (Europe/Paris) = 2026-12-03 19:00 UTC" in text(got, 0)
    assert "orders are due by 2026-12-03 13:00 CST (America/Chicago) = 2026-12-03 19:00 UTC" in text(got, 8)
    assert "(Europe/Paris)" in text(got, FRENCH) and "(Europe/Paris)" in text(got, 6)

    # -- gamma paused: its players told; its acknowledgement says so; "name the game" lists it (defects 1, 4)
    s.at(hours=1)
    s.send(0, "pause gamma\n")
    got = s.run({0: [REPLY[0]], 1: ["the game is paused"], 8: ["the game is paused"]})
    assert "When it resumes, you will have the time that was left" in text(got, 8)
    s.at(hours=1)
    s.send(8, f"game: gamma\ngang: valley\n{GANG['valley']}\nstatus\n")
    s.send(1, "H LIN - ALB\n")
    got = s.run({8: ["Re: judge"], 1: [REPLY[0]]})
    assert "The game is paused by its master: no deadline runs until it resumes." in text(got, 8)
    assert "No deadline is set" not in text(got, 8)
    assert "You play in alpha, gamma: name the game" in text(got, 1)

    # -- a side taken over in the paused gamma: its history at once, the truth (defects 5, 6)
    s.at(hours=1)
    s.send(9, "takeover gamma genna\n")
    got = s.run({9: [REPLY[0], "is yours"], 1: ["new player"], 8: ["new player"], 0: ["took over"]})
    history = text(got, 9, "is yours")
    assert "The game is paused" in history and "No report yet" in history and "game: gamma" in history
    assert "separate message" not in history and "Your password is the one of all your games" in history
    s.at(hours=1)
    s.send(0, "resume gamma\n")
    got = s.run({0: [REPLY[0]]} | {n: ["the game goes on"] for n in (1, 8, 9)})
    resumed = " ".join(text(got, 9).split())  # the house's deadline sentence, its no-break spaces as spaces
    assert re.search(r"resumed the game\. Orders for Spring 1924 are due .+ = .+ UTC \(in ", resumed), resumed

    # -- alpha: a resignation, a takeover of that side, an eject of the French player (defect 7)
    s.at(hours=1)
    s.send(3, "resign alpha\n")
    others = [n for n in ALPHA if n != 3]
    got = s.run({3: [REPLY[0]], 0: ["resigned"]} | {n: ["vacant"] for n in others})
    assert "The player of" in text(got, 2) and "resigned from alpha" in text(got, 2)
    s.at(hours=1)
    s.send(10, f"takeover alpha {sides[3]}\n")
    got = s.run(
        {10: [REPLY[0], "is yours"], 0: ["took over"]}
        | {n: ["new player" if n != FRENCH else "nouveau joueur"] for n in others}
    )
    assert "separate message" not in text(got, 10, "is yours") and "game: alpha" in text(got, 10, "is yours")
    s.at(hours=1)
    s.send(0, f"eject alpha {sides[FRENCH]}\n")
    playing = [n for n in others if n != FRENCH] + [10]
    got = s.run({0: [REPLY[0], "is ejected"], FRENCH: ["vous êtes expulsé"]} | {n: ["vacant"] for n in playing})
    assert text(got, FRENCH).startswith(
        "Joueur 5,\n\nUn maître de jeu d'alpha vous a expulsé de la partie, où vous jouiez"
    )
    s.at(hours=1)
    s.send(FRENCH, f"partie : alpha\npuissance : {sides[FRENCH]}\nA PAR - BUR\n")
    got = s.run({FRENCH: [REPLY[1]]})
    assert "Un maître de jeu d'alpha vous en a expulsé" in text(got, FRENCH)

    # -- every side with a player has orders: the master processes alpha now; the
    # dedication credits the orders to who sent them (defect 10)
    s.at(hours=1)
    s.send(0, "process alpha\n")
    reports = {n: ["adjudicated now", "private report", "bulletin"] for n in playing}
    got = s.run({0: [REPLY[0], "bulletin"]} | reports)
    assert "Spring 1901 of alpha is adjudicated at the next pass" in text(got, 0, "to the judge")
    reg = j.registry()
    try:
        taker, sender = reg.player(addr(10)), reg.player(addr(2))
        assert taker is not None and sender is not None
        assert (reg.dedication(taker.id).on_time, reg.dedication(taker.id).due) == (0, 1)
        assert (reg.dedication(sender.id).on_time, reg.dedication(sender.id).due) == (1, 1)
    finally:
        reg.close()

    # -- a classic refusal says 'power:' and Autumn 1901 (defect 11); whois of a resigner
    # and a public record (no address)
    s.at(hours=1)
    s.send(6, "game: alpha\nA ROM - APU\n")
    s.send(3, "whois\n")
    s.send(2, "whois Player 1\n")
    got = s.run({6: ["Re: judge"], 3: [REPLY[0]], 2: [REPLY[0]]})
    assert "no 'power:' line" in text(got, 6) and "Autumn 1901" in text(got, 6) and "fall-1901" not in text(got, 6)
    assert "Dedication 0%: 0 of 1 turn ordered on time. Among them, 1 resignation or ejection" in text(got, 3)
    assert "Player 1, registered 2026-11-30. Games: alpha, gamma. Dedication 100%" in text(got, 2)
    assert addr(1) not in text(got, 2)

    # -- settings changed and the grace: each player told of each
    s.at(hours=1)
    s.send(0, "game: alpha\nset press white\ngrace 12\n")
    got = s.run({0: [REPLY[0]]} | {n: ["press white", "grace of 12h"] for n in playing})
    cfg = Game(j.root / "games" / "alpha").config
    assert cfg.extra["press"]["kind"] == "white" and cfg.extra["schedule"]["grace"] == "12h"

    # -- a rollback: the turn played again; new orders; its reports mailed again as corrections
    s.at(hours=1)
    s.send(0, "rollback alpha spring-1901\n")
    got = s.run({0: [REPLY[0]]} | {n: ["Spring 1901 is played again"] for n in playing})
    assert Game(j.root / "games" / "alpha").current_turn() == "spring-1901"
    s.at(hours=1)
    s.send(2, f"game: alpha\npower: {sides[2]}\n{MOVE[sides[2]]}\n")
    s.run({2: ["Re: judge"]})
    s.at(hours=1)
    s.send(0, "process alpha\n")
    got = s.run(
        {0: [REPLY[0], "[corrected]"]} | {n: ["adjudicated now", "[corrected]", "[corrected]"] for n in playing}
    )
    assert "CORRECTED: this report replaces the one mailed earlier" in text(got, 2, "private report")

    # -- a master promoted: they and the players are told
    s.at(hours=1)
    s.send(0, f"promote alpha {addr(9)}\n")
    got = s.run({0: [REPLY[0]], 9: ["you are a master"]} | {n: ["is a master of the game"] for n in playing})

    # -- alpha terminated, with mail to it before and after in the same pass: answered in that pass (defect 11)
    s.at(hours=1)
    s.send(4, f"game: alpha\npower: {sides[4]}\n{HOLD[sides[4]]}\n")
    s.at(minutes=1)
    s.send(0, "terminate alpha\n")
    s.at(minutes=1)
    s.send(7, f"game: alpha\npower: {sides[7]}\n{HOLD[sides[7]]}\n")
    over = ["the game is terminated", "its secret seed is public"]  # a classic game's seed too (R26)
    personal = {n: over for n in playing}
    personal[4] = [REPLY[0], *over]
    personal[7] = [REPLY[0], *over]
    got = s.run({0: [REPLY[0], *over], 9: over} | personal)
    for n in (4, 7):
        assert "alpha is over (terminated): nothing sent to it is read any more." in text(got, n, "to the judge")
    assert "ended the game, where you played" in text(got, 2, "terminated")

    # -- and resumed within the week
    s.at(days=2)
    s.send(0, "resume alpha\n")
    got = s.run({0: [REPLY[0]]} | {n: ["the game goes on"] for n in playing})
    assert "took back the end of the game" in text(got, 2)

    # -- an observer of gamma; gamma's deadline passes: its reports, and the bulletin to the observer too
    s.at(hours=1)
    s.send(10, "observe gamma\n")
    got = s.run({10: [REPLY[0]]})
    assert "You observe gamma" in text(got, 10)
    due = datetime.fromisoformat(Game(j.root / "games" / "gamma").config.extra["deadlines"]["spring-1924"])
    s.t = max(s.t, due + timedelta(hours=12))
    got = s.run({n: ["private report", "bulletin"] for n in (1, 8, 9)} | {0: ["bulletin"], 10: ["bulletin"]})

    # -- p10 changes address: a code to the new one alone, confirmed from it; the old one
    # told; alpha reads the new one (item 3)
    s.at(hours=1)
    s.send(10, f"address {addr(11)}\n")
    got = s.run({10: [REPLY[0]], 11: ["Confirm your new address"]})
    code = re.search(r"^\s+confirm (\S+)$", text(got, 11), re.M).group(1)  # type: ignore[union-attr]
    s.at(hours=1)
    s.send(11, f"confirm {code}\n", password=False)
    got = s.run({11: [REPLY[0]], 10: ["Your address is changed"]})
    assert f"Your address is {addr(11)} from now on, for all your games; {addr(10)} is told." in text(got, 11)
    j.passwords[addr(11)] = j.passwords.pop(addr(10))
    s.at(hours=1)
    s.send(11, f"game: alpha\npower: {sides[3]}\nstatus\n")
    got = s.run({11: ["Re: judge"]})
    assert "REFUSED" not in text(got, 11)

    # -- nothing more to say: an idle pass sends nothing
    s.run({}, minutes=30)
    assert (s.sent, s.checked) == (SENT, CHECKED), (s.sent, s.checked)

    # -- three wrong passwords, then the right one, in one pass: the right one is answered
    # at the next pass at the latest, once (issue 37, item 2; the held mail of issue 39)
    s.at(hours=1)
    wrong = "password: not-the-password-1\nwhois\n"
    for _ in range(3):
        s.send(2, wrong, password=False)
    s.send(2, "whois\n")
    s.j.run(s.at(minutes=1))
    first = [m for r, m in s.j.new_mail() if addr(2) in r]
    s.j.run(s.at(minutes=5))
    second = [m for r, m in s.j.new_mail() if addr(2) in r]
    answered = [m for m in first + second if "Player 2 <p2@players.example.org>" in plain(m)]
    assert len(first + second) <= 4 and Counter(str(m["Message-ID"]) for m in first + second).most_common(1)[0][1] == 1
    assert len(answered) == 1  # held past the wrong passwords, read first by the next pass
