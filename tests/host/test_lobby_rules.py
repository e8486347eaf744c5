"""The lobby's rules, as a library (no server): what the masters' commands refuse to a
player who is no master, a resumption close to the deadline (an hour at least), a
takeover asked by a player already in the game, a game's name with a path in it, the
side rules of issue 39 (an ejected player, a resignation and a takeover, a game not
being played, who may promote), names and passwords, and each distinct command
answered once (each a behaviour a deliberate bug changed while every test passed,
``scripts/mutants.py``)."""

from __future__ import annotations

import hashlib
import itertools
import random
from datetime import UTC, datetime, timedelta
from email import message_from_string, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from moonshine.host import lobby
from moonshine.host.incoming import read_mail
from moonshine.host.lobby.request import LobbyPass
from moonshine.host.registry import PAUSED, RUNNING, Registry
from moonshine.host.run import reconcile
from moonshine.host.settings import init, load
from moonshine.mail.passwords import hash_password

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
GM, ANN, BOB, CY = "gm@example.org", "ann@example.org", "bob@example.org", "cy@example.org"
PASSWORDS = {GM: "gm-maple-otter-violin", ANN: "ann-cedar-fiddle-ocean", BOB: "bob-garnet-pelican-tulip"}
PASSWORDS[CY] = "cy-walnut-zephyr-bugle"
_ids = itertools.count()


class Lobby:
    """A judge's directory, its registry, and a way to mail its lobby."""

    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "judge"
        init(self.root, address="judge@example.org", masters=[GM])
        self.settings = load(self.root)
        self.reg = Registry(self.root / "registry.sqlite")
        for address, password in PASSWORDS.items():
            name = address.partition("@")[0].capitalize()
            self.reg.register(
                address, name, timezone=None, language="en", now=NOW, password_hash=hash_password(password)
            )
        self.now = NOW
        self.log: list[str] = []

    def send(self, sender: str, body: str, *, password: bool = True) -> str:
        """The reply to ``sender``'s mail (its password line added)."""
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = "judge@example.org"
        msg["Subject"] = "lobby"
        msg["Message-ID"] = f"<m{next(_ids)}@example.org>"
        msg.set_content((f"password: {PASSWORDS[sender]}\n" if password else "") + body)
        before = {(day, name) for day, name, _ in self.reg.queued_mail()}
        ctx = LobbyPass(self.settings, self.reg, self.now, self.log.append)
        lobby.answer(ctx, read_mail(msg.as_bytes(), 512 * 1024))
        replies = [
            text
            for day, name, text in self.reg.queued_mail()
            if (day, name) not in before and name.startswith("reply-")
        ]
        assert len(replies) == 1, replies
        body_part = message_from_string(replies[0], policy=policy.default).get_body(("plain",))
        assert body_part is not None
        return str(body_part.get_content())

    def step(self) -> None:
        """The pass's step that brings the games' directories in step."""
        reconcile(self.settings, self.reg, self.now, self.log.append)

    def running(self, *joins: tuple[str, str]) -> None:
        """A game of Pure, alpha, with these players and sides, started."""
        assert "alpha is created" in self.send(GM, "create alpha pure\nevery: 72h\n")
        for who, side in joins:
            self.send(who, f"join alpha {side}")
        self.send(GM, "start alpha")
        self.step()
        row = self.reg.game("alpha")
        assert row is not None and row.status == RUNNING


@pytest.fixture
def judge(tmp_path: Path) -> Lobby:
    return Lobby(tmp_path)


MASTERS_COMMANDS = ["start alpha", "pause alpha", "resume alpha", "extend alpha 24", "eject alpha FRA"]
MASTERS_COMMANDS += [f"promote alpha {CY}", "terminate alpha"]


@pytest.mark.parametrize("command", MASTERS_COMMANDS)
def test_a_masters_command_from_a_player_who_is_no_master_is_refused(judge: Lobby, command: str) -> None:
    judge.running((ANN, "FRA"), (BOB, "ENG"))
    before = judge.reg.game("alpha")
    reply = judge.send(BOB, command)
    assert "Only a master of alpha may do this." in reply
    assert judge.reg.game("alpha") == before
    assert [p.address for p in judge.reg.masters("alpha")] == [GM]
    assert judge.reg.member("alpha", judge.reg.player(ANN).id).side == "FRA"  # type: ignore[union-attr]


def test_create_from_a_player_who_is_no_master_of_the_judge_is_refused(judge: Lobby) -> None:
    assert "Only the judge's masters may create games." in judge.send(ANN, "create alpha pure\nevery: 72h\n")
    assert judge.reg.game("alpha") is None and not (judge.root / "games" / "alpha").exists()


def test_a_resumption_close_to_the_deadline_gives_an_hour_at_least(judge: Lobby) -> None:
    judge.running((ANN, "FRA"))
    from moonshine.host import games

    row = judge.reg.game("alpha")
    assert row is not None
    _, due = games.current_deadline(judge.settings, judge.reg, row)
    assert due is not None
    judge.now = due - timedelta(minutes=5)  # paused five minutes before the deadline
    assert "alpha is paused" in judge.send(GM, "pause alpha")
    judge.step()
    judge.now = due + timedelta(days=3)
    reply = judge.send(GM, "resume alpha")
    row = judge.reg.game("alpha")
    assert row is not None and row.status == RUNNING
    _, resumed = games.current_deadline(judge.settings, judge.reg, row)
    assert resumed == judge.now + timedelta(hours=1)
    assert f"the deadline of Spring 1901 is {resumed:%Y-%m-%d %H:%M} UTC" in reply


def test_a_takeover_asked_by_a_player_already_in_the_game_is_refused_politely(judge: Lobby) -> None:
    judge.running((ANN, "FRA"), (BOB, "ENG"))
    assert "You play in alpha already." in judge.send(ANN, "takeover alpha GER")
    assert "You play in alpha already." in judge.send(ANN, "takeover alpha ENG")
    assert judge.reg.member("alpha", judge.reg.player(ANN).id).side == "FRA"  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["alpha/../beta", "../alpha", "alpha/..", "a", "Alpha", ".building"])
def test_a_game_name_with_a_path_in_it_is_refused(judge: Lobby, name: str) -> None:
    reply = judge.send(GM, f"create {name} pure\nevery: 72h\n")
    if name == "Alpha":  # read as alpha: names are lower case
        assert "alpha is created" in reply
        return
    assert "cannot name a game" in reply or "Create a game with" in reply
    assert sorted(p.name for p in (judge.root / "games").iterdir()) == []
    assert not (judge.root / "beta").exists()


def test_an_ejected_player_never_takes_a_side_of_the_game_again(judge: Lobby) -> None:
    judge.running((ANN, "FRA"), (BOB, "ENG"))
    assert "is ejected from alpha" in judge.send(GM, "eject alpha ENG")
    judge.now += timedelta(days=30)
    assert "You were ejected from alpha" in judge.send(BOB, "takeover alpha ENG")
    assert "ENG of alpha is yours" in judge.send(CY, "takeover alpha ENG")


def test_a_resignation_and_a_takeover_of_the_same_game_wait_a_day(judge: Lobby) -> None:
    judge.running((ANN, "FRA"), (BOB, "ENG"))
    reply = judge.send(ANN, "resign alpha\ntakeover alpha AUS")
    assert "You resigned from alpha" in reply and "less than 24 hours ago" in reply
    judge.now += timedelta(hours=23)
    assert "less than 24 hours ago" in judge.send(ANN, "takeover alpha AUS")
    judge.now += timedelta(hours=2)
    assert "AUS of alpha is yours" in judge.send(ANN, "takeover alpha AUS")


def test_nothing_happens_to_a_terminated_game(judge: Lobby) -> None:
    judge.running((ANN, "FRA"), (BOB, "ENG"))
    judge.send(GM, "terminate alpha")
    for command, words in [
        ("eject alpha ENG", "alpha is not being played (it is terminated)"),
        (f"promote alpha {CY}", "alpha is not being played (it is terminated)"),
        ("extend alpha 24", "alpha is not being played"),
        ("pause alpha", "alpha is not being played"),
        ("start alpha", "alpha has started already"),
    ]:
        assert words in judge.send(GM, command), command
    bob = judge.reg.player(BOB)
    assert bob is not None and judge.reg.dedication(bob.id).resigned == 0


def test_only_the_creator_or_a_master_of_the_judge_promotes(judge: Lobby) -> None:
    judge.running((ANN, "FRA"))
    assert "is a master of alpha too" in judge.send(GM, f"promote alpha {ANN}")
    assert "Only the creator of alpha" in judge.send(ANN, f"promote alpha {BOB}")
    assert [p.address for p in judge.reg.masters("alpha")] == [GM, ANN]
    assert "is a master of alpha already" in judge.send(GM, f"promote alpha {ANN}")
    row = judge.reg.game("alpha")
    assert row is not None and row.status in (RUNNING, PAUSED)


def test_a_registration_never_confirmed_is_not_promoted(judge: Lobby) -> None:
    """An address that has not brought its password back has proven nothing: it may
    not master a game, and the reply says why rather than asking for an address."""
    judge.running((ANN, "FRA"))
    judge.reg.register("new@example.org", "Newcomer", timezone=None, language="en", now=judge.now, password_hash=None)
    reply = judge.send(GM, "promote alpha new@example.org")
    assert "Newcomer has not used their password yet" in reply
    assert [p.address for p in judge.reg.masters("alpha")] == [GM]


def test_leave_is_for_a_game_waiting_for_players_and_resign_for_one_being_played(judge: Lobby) -> None:
    judge.running((ANN, "FRA"), (BOB, "ENG"))
    assert "alpha has started: 'resign alpha' leaves your side vacant." in judge.send(ANN, "leave alpha")
    member = judge.reg.member("alpha", judge.reg.player(ANN).id)  # type: ignore[union-attr]
    assert member is not None and member.side == "FRA"  # still in the game, still playing France
    assert "You resigned from alpha" in judge.send(ANN, "resign alpha")


@pytest.mark.parametrize(("hours", "ok"), [("720", True), ("721", False), ("7200", False), ("0", False)])
def test_a_deadline_is_extended_by_thirty_days_at_most(judge: Lobby, hours: str, ok: bool) -> None:
    judge.running((ANN, "FRA"))
    from moonshine.host import games

    row = judge.reg.game("alpha")
    assert row is not None
    _, due = games.current_deadline(judge.settings, judge.reg, row)
    assert due is not None
    reply = judge.send(GM, f"extend alpha {hours}")
    row = judge.reg.game("alpha")
    assert row is not None
    _, now_due = games.current_deadline(judge.settings, judge.reg, row)
    if ok:
        assert now_due == due + timedelta(hours=int(hours)) and "The deadline of Spring 1901 in alpha is now" in reply
    else:
        assert now_due == due and "Give the hours, from 1 to 720" in reply


def test_the_draw_of_the_sides_is_the_one_anyone_can_redo_from_the_seed() -> None:
    """The recipe the start mail gives the players (docs/game-master.md, "The start"),
    done here by hand: the players as they joined, shuffled by Python's random.Random
    seeded with the SHA-256 of SEED|GAME; each in turn takes their first preference
    still free; the others the sides left, sorted, shuffled by the same generator."""
    from moonshine.host.games import draw

    seed, sides = "a published draw seed", ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"]
    joined = [(n, ("FRA",)) for n in range(1, 8)]  # everybody wants France
    rng = random.Random(int(hashlib.sha256(f"{seed}|alpha".encode()).hexdigest(), 16))
    order = list(joined)
    rng.shuffle(order)
    expected = {order[0][0]: "FRA"}
    free = [s for s in sides if s != "FRA"]
    rng.shuffle(free)
    expected |= {pid: side for (pid, _), side in zip(order[1:], free, strict=True)}
    got = draw(seed, "alpha", joined, sides)
    assert got == expected
    assert got[1] != "FRA"  # with this seed France goes to another than the first to join


def notices(judge: Lobby, before: set[tuple[str, str]]) -> dict[str, str]:
    """The notices and announcements queued since ``before``: each one's only recipient
    and its text."""
    out: dict[str, str] = {}
    for day, name, text in judge.reg.queued_mail():
        if (day, name) in before or not name.startswith(("notice-", "announce-")):
            continue
        msg = message_from_string(text, policy=policy.default)
        assert msg["Cc"] is None and msg["Bcc"] is None
        [to] = [a.addr_spec for a in msg["To"].addresses]
        body = msg.get_body(("plain",))
        assert to not in out and body is not None
        out[to] = f"{msg['Subject']}\n{body.get_content()}"
    return out


def test_a_promotion_is_announced_to_the_promoted_player_the_players_and_the_other_masters(judge: Lobby) -> None:
    """The master who promotes reads the reply; the promoted player, each player of the
    game and each other master get a mail of their own, naming nobody else's address."""
    judge.running((ANN, "FRA"))
    before = {(day, name) for day, name, _ in judge.reg.queued_mail()}
    judge.send(GM, f"promote alpha {ANN}")
    told = notices(judge, before)
    assert sorted(told) == [ANN]
    assert "You are a master of alpha now" in told[ANN]
    before = {(day, name) for day, name, _ in judge.reg.queued_mail()}
    judge.send(GM, f"promote alpha {BOB}")
    told = notices(judge, before)
    assert sorted(told) == [ANN, BOB]  # Ann: a player and a master of alpha, told once
    assert "Bob is a master of the game" in told[ANN] and "Bob is a master of alpha too." in told[ANN]
    assert "You are a master of alpha now" in told[BOB]


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("Ann Other", True),
        ("Jean-Luc O'Neil", True),
        ("J. R. Smith", True),
        ("Zoë Ångström", True),
        ("Player 12", True),
        ("李小龙", True),
        ("x", False),
        ("A" * 31, False),
        ("Cheap pills at http://spam.example/buy", False),
        ("visit spam.example", False),
        ("mail me@example.org", False),
        ("12 Monkeys", False),
        ("Bob\x1b[31m", False),
        ("Gm", False),  # another player's name, whatever its case
        ("G M", False),
    ],
)
def test_a_name_is_checked(judge: Lobby, name: str, ok: bool) -> None:
    reply = judge.send("new@example.org", f"register {name}", password=False)
    assert ("You are registered as" in reply) is ok, reply
    assert "http" not in reply and "spam.example" not in reply


@pytest.mark.parametrize(
    ("password", "weak"),
    [
        ("password12", True),
        ("Password!2024", True),
        ("qwertyuiop1", True),
        ("azerty12345", True),
        ("annannann1", True),
        ("ann-example-1", True),  # the address's own name
        ("1234567890", True),
        ("moonshine99", True),
        ("maple-otter-violin-42", False),
        ("correct horse battery", False),
    ],
)
def test_a_password_a_guess_finds_is_refused(judge: Lobby, password: str, weak: bool) -> None:
    reply = judge.send(ANN, f"password {password}")
    assert ("too short or too easy" in reply) is weak, reply
    said = f"password {password}"  # never written back nor logged (the refusal's example is password12)
    assert said not in reply and not any(said in line for line in judge.log)


def test_each_distinct_command_is_answered_once_and_a_strangers_line_never_echoed(judge: Lobby) -> None:
    reply = judge.send("x@example.org", "list\nlist\nLIST\nlist  \nhelp\nlist vacant\n", password=False)
    assert reply.count("the same command as line 1") == 3
    assert "line 6: list: done" in reply and "list vacant" not in reply
    mine = judge.send(ANN, "list vacant\nlist vacant")
    assert "line 2: list vacant: done" in mine and "the same command as line 2" in mine
