"""Issue 37, item 7, on real servers (pymap and aiosmtpd on 127.0.0.1, ``judgekit``): a
pass of a judge for many games opens only the games that have something to do, and
never skips one that has. A game with nothing due is not opened (the judge's log says
which games it opened and why); a game is opened, with no mail for it, when its
deadline comes, when a reminder is due, when a vote ends, when mail the server
deferred is to be tried again, when a master's ``moonshine`` command changed it, and
when its game.yaml was edited by hand. A message its game read is not routed to it
again by the next passes (a Maildir keeps what was read).

One judge is made once for the module (``base``: three players registered, two Pure
games started by their master, ``alpha`` with p1 and a reminder a day before its
deadlines, ``beta`` with p2) and each test plays on a copy of it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import yaml
from imapkit import Server
from judgekit import START, Judge, Mail, addr, one, to_each
from runkit import plain
from smtpkit import Server as SmtpServer
from smtpkit import smtp_server

from moonshine.game.directory import Game

T0 = START + timedelta(hours=4)  # the base's games are started by then


def pw(j: Judge, n: int) -> str:
    return f"password: {j.passwords[addr(n)]}\n"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, imap: Server) -> Iterator[Judge]:
    """The judge every test copies, its mail through a real SMTP server of the module's
    (the root conftest's ``smtp`` is a test's)."""
    with smtp_server() as outgoing:
        yield made(tmp_path_factory, imap, outgoing)


def made(tmp_path_factory: pytest.TempPathFactory, imap: Server, smtp: SmtpServer) -> Judge:
    j = Judge(tmp_path_factory.mktemp("base") / "judge", imap, smtp, folder="base")
    t = START
    for n in range(3):
        j.send(addr(n), f"register Player {n}, America/Chicago\n", t)
    j.run(t + timedelta(minutes=1))
    for rcpts, m in j.new_mail():
        found = re.search(r"for all your games: (\S+)", plain(m))
        if found:
            j.passwords[rcpts[0]] = found.group(1)
    assert len(j.passwords) == 3
    t += timedelta(hours=1)
    j.send(addr(0), pw(j, 0) + "create alpha pure\nevery: 72h\nreminders: 24h\ncreate beta pure\nevery: 72h\n", t)
    j.run(t + timedelta(minutes=1))
    t += timedelta(hours=1)
    j.send(addr(1), pw(j, 1) + "join alpha\n", t)
    j.send(addr(2), pw(j, 2) + "join beta\n", t)
    j.send(addr(0), pw(j, 0) + "start alpha\nstart beta\n", t + timedelta(minutes=1))
    j.run(t + timedelta(minutes=2))
    mail = j.new_mail()
    assert one(mail, addr(1), "The game starts") and one(mail, addr(2), "The game starts")
    return j


@pytest.fixture
def j(base: Judge, tmp_path: Path, request: pytest.FixtureRequest) -> Judge:
    return base.copy(tmp_path / "judge", re.sub(r"\W", "", request.node.name)[-40:])


def game(j: Judge, name: str) -> Game:
    return Game(j.root / "games" / name)


def due(j: Judge, name: str) -> datetime:
    g = game(j, name)
    return datetime.fromisoformat(g.config.extra["deadlines"][g.current_turn()])


def side(j: Judge, name: str, n: int) -> str:
    """The side player ``n`` plays in game ``name``."""
    reg = j.registry()
    try:
        player = reg.player(addr(n))
        m = reg.member(name, player.id) if player is not None else None
        assert m is not None and m.side is not None
        return m.side
    finally:
        reg.close()


def subjects(mail: Mail, who: str) -> list[str]:
    return sorted(str(m["Subject"]) for m in to_each(mail, who))


def test_a_pass_opens_only_the_games_with_something_to_do(j: Judge) -> None:
    """Nothing due: no game opened, no mail. Mail for alpha: alpha alone is opened;
    beta, idle, is not (its run.log untouched)."""
    beta_log = (j.root / "games" / "beta" / "run.log").read_text(encoding="utf-8")
    out = j.run(T0)
    assert "games opened" not in out and j.new_mail() == []
    j.send(addr(1), f"game: alpha\npower: {side(j, 'alpha', 1)}\n{pw(j, 1)}status\n", T0)
    out = j.run(T0 + timedelta(minutes=1))
    assert "games opened: alpha (mail); 1 not opened (nothing due)" in out
    assert "Turn:" in one(j.new_mail(), addr(1))
    assert (j.root / "games" / "beta" / "run.log").read_text(encoding="utf-8") == beta_log
    assert "games opened" not in j.run(T0 + timedelta(minutes=2))


def test_a_game_is_opened_when_a_vote_ends_a_reminder_is_due_and_its_deadline_comes(j: Judge) -> None:
    """No mail for them: a vote's reminder and its end, alpha's reminder, then both
    games' deadline, each at its time and not before."""
    deadline = due(j, "alpha")
    assert due(j, "beta") == deadline
    power = side(j, "alpha", 1)
    ends = T0 + timedelta(hours=6)
    j.send(addr(1), f"game: alpha\npower: {power}\n{pw(j, 1)}draw all by {ends:%Y-%m-%d %H:%M}\n", T0)
    j.run(T0 + timedelta(minutes=1))
    assert "vote 1 is open" in " ".join(subjects(j.new_mail(), addr(1)))

    halfway = T0 + timedelta(hours=3)  # the vote's reminder: halfway to its end
    assert "games opened" not in j.run(halfway - timedelta(minutes=5))
    assert "games opened: alpha (due)" in j.run(halfway + timedelta(minutes=5))
    assert "vote 1: reminder" in " ".join(subjects(j.new_mail(), addr(1)))
    assert "games opened" not in j.run(ends - timedelta(minutes=1))
    out = j.run(ends + timedelta(minutes=1))
    assert "games opened: alpha (due)" in out
    assert "Not passed" in plain(to_each(j.new_mail(), addr(1))[0])

    remind = deadline - timedelta(hours=24)
    assert "games opened" not in j.run(remind - timedelta(minutes=1))
    assert "games opened: alpha (due); 1 not opened" in j.run(remind + timedelta(minutes=1))
    mail = j.new_mail()
    assert [s for s in subjects(mail, addr(1)) if "Reminder" in s] and not to_each(mail, addr(2))

    assert "games opened" not in j.run(deadline - timedelta(minutes=1))
    out = j.run(deadline + timedelta(minutes=1))
    assert "alpha (due), beta (due)" in out
    mail = j.new_mail()
    for n in (1, 2):
        assert any("private report" in s for s in subjects(mail, addr(n))), subjects(mail, addr(n))
    assert game(j, "alpha").current_turn() != game(j, "alpha").turns()[0]


def test_mail_the_server_deferred_is_tried_again_at_its_time(j: Judge) -> None:
    """The acknowledgement the server refused for a while goes out when its next try
    comes, though no mail came for the game since."""
    power = side(j, "alpha", 1)
    j.smtp.recorder.fail_data = 100  # every try of this pass gets a transient 451
    try:
        j.send(addr(1), f"game: alpha\npower: {power}\n{pw(j, 1)}status\n", T0)
        assert "deferred spring-1901/reply-" in j.run(T0 + timedelta(minutes=1))
        assert j.new_mail() == []
    finally:
        j.smtp.recorder.fail_data = 0
    assert "games opened" not in j.run(T0 + timedelta(minutes=2))
    assert j.new_mail() == []
    assert "games opened: alpha (due)" in j.run(T0 + timedelta(minutes=4))
    assert "Turn:" in one(j.new_mail(), addr(1))


def test_a_masters_command_on_a_game_is_seen_by_the_next_pass(j: Judge) -> None:
    """A master adjudicates alpha with the command line, before its deadline: the next
    pass mails its reports (its lock's seal is broken), and beta stays shut."""
    from click.testing import CliRunner

    from moonshine.cli import main

    turn = game(j, "alpha").current_turn()
    done = CliRunner().invoke(main, ["adjudicate", "--game", str(j.root / "games" / "alpha"), turn, "--force"])
    assert done.exit_code == 0, done.output
    out = j.run(T0)
    assert "games opened: alpha (changed); 1 not opened (nothing due)" in out
    assert any("private report" in s for s in subjects(j.new_mail(), addr(1)))


def test_a_deadline_edited_by_hand_in_game_yaml_is_kept(j: Judge) -> None:
    """A master brings alpha's deadline forward by editing game.yaml: alpha is
    adjudicated at the new time, beta is not."""
    path = j.root / "games" / "alpha" / "game.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    turn = game(j, "alpha").current_turn()
    earlier = T0 + timedelta(hours=2)
    raw["deadlines"][turn] = earlier.isoformat()
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    out = j.run(earlier + timedelta(minutes=1))
    assert "games opened: alpha (game.yaml edited); 1 not opened (nothing due)" in out
    assert any("private report" in s for s in subjects(j.new_mail(), addr(1)))
    assert game(j, "alpha").current_turn() != turn and game(j, "beta").current_turn() == turn


def test_a_message_its_game_read_from_a_maildir_is_not_read_again(tmp_path: Path) -> None:
    """A judge whose mailbox is a Maildir (which keeps what was read): a player's orders
    open their game once; the passes after open nothing (the message is not routed to
    its game again at every pass)."""
    from email.message import EmailMessage
    from email.utils import format_datetime

    from moonshine.host.games import build
    from moonshine.host.registry import STARTING, Registry
    from moonshine.host.run import reconcile, run_judge
    from moonshine.host.settings import init, load
    from moonshine.mail.passwords import hash_password

    root = tmp_path / "judge"
    init(root, address="judge@example.org", masters=["gm@example.org"])
    text = (root / "judge.yaml").read_text(encoding="utf-8").split("inbox:")[0]
    (root / "judge.yaml").write_text(text + "inbox:\n  source: mail\n", encoding="utf-8")
    for sub in ("new", "cur", "tmp"):
        (root / "mail" / sub).mkdir(parents=True)
    settings = load(root)
    reg = Registry(root / "registry.sqlite")
    digest = hash_password("a-long-password-1")
    gm = reg.register("gm@example.org", "GM", timezone=None, language="en", now=START, password_hash=digest)
    options = {"schedule": {"timezone": "UTC", "every": "72h"}, "press": {"kind": "white"}}
    sides = build(settings, "alpha", "pure", options, gm.address)
    reg.add_game("alpha", "pure", {**options, "sides": list(sides)}, gm.id, START)
    p = reg.register("p1@example.org", "P1", timezone=None, language="en", now=START, password_hash=digest)
    reg.join("alpha", p.id, [], START)
    reg.set_status("alpha", STARTING)
    reconcile(settings, reg, START, lambda _: None)
    member = reg.member("alpha", p.id)
    assert member is not None
    reg.close()

    def run(at: datetime) -> str:
        lines: list[str] = []
        run_judge(root, now=at, say=lines.append, say_for=lambda _: lambda _: None)
        return "\n".join(lines)

    run(T0)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "p1@example.org", "judge@example.org", "orders"
    msg["Date"], msg["Message-ID"] = format_datetime(T0), "<o1@example.org>"
    msg.set_content(f"game: alpha\npower: {member.side}\npassword: a-long-password-1\n")
    (root / "mail" / "new" / "1.eml").write_bytes(msg.as_bytes())
    assert "games opened: alpha (mail)" in run(T0 + timedelta(minutes=1))
    assert len(list((root / "games" / "alpha" / "outbox").glob("*/reply-*.eml"))) == 1
    assert "games opened" not in run(T0 + timedelta(minutes=2))
    assert "games opened" not in run(T0 + timedelta(minutes=3))
