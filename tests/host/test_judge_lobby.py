"""Issue 37, the lobby of a judge for many games as a library (no server): what it
answers and what it records for the defects that need no mail to show (a ``create``'s
settings block, ``list`` in French, dedication's words and credit, takeover and
promote refusals) and for the masters' new commands' refusals; a master's ``set``
and ``deadline`` checked before anything changes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email import message_from_string, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from frtypo import checked

from moonshine.host import lobby
from moonshine.host.incoming import Mail, read_mail
from moonshine.host.lobby.request import LobbyPass
from moonshine.host.registry import Registry
from moonshine.host.run import reconcile
from moonshine.host.settings import init, load
from moonshine.mail.passwords import hash_password

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
MASTER = "gm@example.org"


class Lobby:
    """A judge's lobby in a directory, and its players (each with the password ``secret-N-pw``)."""

    def __init__(self, root: Path) -> None:
        init(root, address="judge@example.org", masters=[MASTER])
        self.settings = load(root)
        self.reg = Registry(root / "registry.sqlite")
        self.now = NOW
        self.log: list[str] = []
        self.n = 0
        self.add(MASTER, "Gina Master")

    def add(self, address: str, name: str, *, language: str = "en", zone: str | None = "America/Chicago") -> None:
        self.reg.register(
            address, name, timezone=zone, language=language, now=self.now, password_hash=hash_password(self.pw(address))
        )

    @staticmethod
    def pw(address: str) -> str:
        return f"secret-{address.partition('@')[0]}-pw"

    def send(self, sender: str, body: str) -> str:
        """The lobby answers ``body`` from ``sender`` (its password line first); returns the reply's text."""
        self.n += 1
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = "judge@example.org"
        msg["Subject"] = "judge"
        msg["Message-ID"] = f"<l{self.n}@example.org>"
        msg.set_content(f"password: {self.pw(sender)}\n{body}")
        mail: Mail = read_mail(msg.as_bytes(), 100_000)
        ctx = LobbyPass(self.settings, self.reg, self.now, self.log.append)
        lobby.answer(ctx, mail)
        return self.queued(sender, name=f"reply-{mail.digest[:16]}.eml")[0]

    def queued(self, to: str, word: str = "", *, name: str = "") -> list[str]:
        out = []
        for _, file, text in self.reg.queued_mail():
            if name and file != name:
                continue
            msg = message_from_string(text, policy=policy.default)
            if to == str(msg["To"]) and word in str(msg["Subject"]):
                body = msg.get_body(("plain",))
                assert body is not None
                out.append(str(body.get_content()))
        return out

    def step(self) -> None:
        """The pass's step that brings the games' directories in step with the registry."""
        reconcile(self.settings, self.reg, self.now, self.log.append)


@pytest.fixture
def lb(tmp_path: Path) -> Lobby:
    return Lobby(tmp_path / "judge")


def started(lb: Lobby, name: str = "alpha", *, players: int = 7) -> list[str]:
    """A classic game, its players joined and the game started; their addresses."""
    assert f"{name} is created" in lb.send(MASTER, f"create {name} classic\nevery: 72h\n")
    out = []
    for n in range(1, players + 1):
        who = f"p{n}@example.org"
        if lb.reg.player(who) is None:
            lb.add(who, f"Player {n}")
        lb.send(who, f"join {name}")
        out.append(who)
    if players < 7:
        lb.send(MASTER, f"start {name}")
    lb.step()
    return out


def test_a_create_settings_block_ends_at_the_next_create(lb: Lobby) -> None:
    """Defect 8: a create's settings swallowed the next create line, and a refused
    create swallowed the following ones."""
    reply = lb.send(
        MASTER,
        "create alpha classic\nevery: 48h\ncreate beta pure\npress: black\ncreate gamma classic\ncreate delta pure\n",
    )
    assert "create alpha classic: done" in reply
    assert "create beta pure: refused. Setting 'press': none / public / white / grey" in reply
    assert "create gamma classic: done" in reply and "create delta pure: done" in reply
    assert "no command of the judge" not in reply
    assert {g.name for g in lb.reg.games()} == {"alpha", "gamma", "delta"}


def test_french_list_says_its_values_in_french_and_no_minimum_of_nothing(lb: Lobby) -> None:
    """Defect 9: French 'liste' carried English values ('échéances every 48h, presse
    white'), and 'dedication at least 0%' showed for games asking none."""
    lb.send(MASTER, "create alpha classic\nevery: 48h\npress: grey\n\ncreate beta pure\nevery: 24h\ndedication: 60\n")
    lb.add("fr@example.org", "Jeanne", language="fr", zone="Europe/Paris")
    reply = checked(lb.send("fr@example.org", "liste\nliste alpha"))
    assert "alpha : Diplomacy, camps libres : 7 sur 7, échéances toutes les 48 h, presse grise\n" in reply
    beta = "beta : Pure, camps libres : 7 sur 7, échéances toutes les 24 h, presse blanche, assiduité d'au moins 60 %"
    assert beta in reply
    assert "presse grise, sans minimum d'assiduité." in reply
    english = lb.send(MASTER, "list")
    assert "press grey\n" in english and "at least 0%" not in english


def test_whois_words_a_record_and_a_public_record_has_no_address(lb: Lobby) -> None:
    """Defect 10: a resigner's whois read '0% : 0 of 0 turns ... 1 resignations'."""
    players = started(lb)
    assert "You resigned from alpha" in lb.send(players[0], "resign alpha")
    own = lb.send(players[0], "whois")
    assert "Dedication 0%: 0 of 1 turn ordered on time. Among them, 1 resignation or ejection" in own
    public = lb.send(players[1], "whois Player 1\nwhois Nobody Here")
    assert "Player 1, registered 2026-11-30. Games: none. Dedication 0%" in public
    assert players[0] not in public and "No player is registered as 'Nobody Here'." in public


def test_takeover_and_promote_refusals_say_what_is_wrong(lb: Lobby) -> None:
    """Defect 11: '(vacant: -)', and promote of an unregistered address answered 'Name
    the new master's address'."""
    started(lb)
    lb.add("x@example.org", "Xavier")
    assert "No side is vacant in alpha." in lb.send("x@example.org", "takeover alpha england")
    reply = lb.send(MASTER, "promote alpha nobody@example.org\npromote alpha x@example.org\npromote alpha")
    assert "nobody@example.org is not registered: they must register first" in reply
    assert "Xavier is a master of alpha too." in reply
    assert "Name the new master's address" in reply


def test_the_masters_new_commands_refuse_what_they_cannot_do(lb: Lobby) -> None:
    started(lb, players=3)
    reply = lb.send(
        MASTER,
        "game: alpha\ndeadline 2026-11-29 18:00\ndeadline tomorrow\nset press black\nset colour red\n"
        "grace 1000\nprocess\nrollback spring-1901\n",
    )
    assert "a deadline is never set before now" in reply
    assert "Give the time: deadline alpha 2026-12-05 18:00 (in the game's time zone, UTC, unless" in reply
    assert "Setting 'press': none / public / white / grey" in reply
    assert "Write: set GAME KEY VALUE, with KEY one of" in reply
    assert "Give the hours, from 0 to 720: grace GAME 12." in reply
    assert "alpha waits for orders from" in reply
    assert "Name a turn adjudicated already: rollback alpha TURN (turns: -)." in reply
    row = lb.reg.game("alpha")
    assert row is not None and row.process is None and row.rollback is None and row.deadline is None
    assert (row.settings.get("press") or {}).get("kind") == "white"
    assert "Only a master of alpha may do this." in lb.send("p1@example.org", "extend alpha 24\nset alpha press none")


def test_a_set_changes_the_game_yaml_at_the_next_step(lb: Lobby) -> None:
    started(lb, players=3)
    reply = lb.send(MASTER, "régler alpha presse grise\nset alpha every 24h\nset alpha observers closed\n")
    assert "alpha: press grey. Its players are told." in reply
    assert "alpha: a deadline every 24h. Its players are told." in reply
    lb.step()
    from moonshine.game.directory import Game

    cfg = Game(lb.settings.game_dir("alpha")).config
    assert cfg.extra["press"]["kind"] == "grey" and cfg.extra["schedule"]["every"] == "24h"
    assert cfg.extra["judge"] == {"name": "alpha"}
    lb.add("o@example.org", "Olga")
    assert "alpha takes no observers." in lb.send("o@example.org", "observe alpha")


def test_a_resume_is_refused_a_week_after_the_end(lb: Lobby) -> None:
    started(lb, players=3)
    lb.send(MASTER, "terminate alpha")
    lb.now += timedelta(days=8)
    assert "alpha cannot be resumed: only a game terminated less than a week ago can." in lb.send(
        MASTER, "resume alpha"
    )


def test_a_second_address_may_not_register_under_a_masters_name(lb: Lobby) -> None:
    """Defect 11: a second address could register under a master's name (of the judge,
    or of a game: a player promoted), and so sign its mail as them."""
    started(lb, players=3)
    lb.send(MASTER, "promote alpha p1@example.org")
    for address, name in (("imp1@example.org", "gina  MASTER"), ("imp2@example.org", "Player 1")):
        reply = lb.send(address, f"register {name}")
        assert "is the name of a game master of this judge; choose another name." in reply
        assert lb.reg.player(address) is None
    # another player's name is taken too (issue 39), whatever its case and spacing
    assert "The name 'player 2' is taken: choose another." in lb.send("imp3@example.org", "register player  2")
    assert lb.reg.player("imp3@example.org") is None
    assert "You are registered as Player Three " in lb.send("imp3@example.org", "register Player Three")
