"""The judge for many games at its open edge (issue 39), tried as an attacker would on
real servers (pymap and aiosmtpd on 127.0.0.1, ``judgekit``): forged wrong passwords
never lock the owner out nor lose their orders at the deadline; a third party's
address gets the day's budget of mail and no more; a stranger's registration proves its
address, its name is checked and nothing they wrote comes back; replies are no bigger
than the question; the mail server's verdict on forged senders is used by the lobby
and every game; a registry that cannot be trusted stops the judge with one mail to the
masters and nothing touched; a message whose handling raises is set aside; the side
rules; the judge's directory kept to itself and its log unforgeable."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest
from frtypo import plain as plain_fr
from imapkit import Server
from judgekit import FOLDER, JUDGE, START, Judge, Mail, addr, one
from runkit import plain
from smtpkit import Server as SmtpServer

from moonshine.game.directory import Game

MIN = timedelta(minutes=1)


@pytest.fixture
def judge(tmp_path: Path, imap: Server, smtp: SmtpServer) -> Judge:
    from imapkit import client

    conn = client(imap)  # each test its own mailbox: the module's server is shared
    try:
        for folder in (FOLDER, f"{FOLDER}-judged"):
            conn.delete(f'"{folder}"')
    finally:
        conn.logout()
    return Judge(tmp_path / "judge", imap, smtp)


def pw(j: Judge, n: int) -> str:
    return f"password: {j.passwords[addr(n)]}\n"


def register(j: Judge, t: datetime, *ns: int) -> Mail:
    """Players ``ns`` register and get their passwords; the pass's mail."""
    for n in ns:
        j.send(addr(n), f"register Player {n}\n", t)
    j.run(t + MIN)
    mail = j.new_mail()
    for n in ns:
        secret = plain_fr(one(mail, addr(n), "password"))
        found = re.search(r"for all your games: (\S+)", secret)
        assert found is not None, secret
        j.passwords[addr(n)] = found.group(1)
    return mail


def start_game(j: Judge, t: datetime, joins: dict[int, str], name: str = "alpha", more: str = "") -> datetime:
    """The master (p0) creates a game of Pure, players join it with a side each, the
    master starts it; returns its first deadline."""
    j.send(addr(0), pw(j, 0) + f"create {name} pure\nevery: 72h\n{more}\n", t)
    j.run(t + MIN)
    for n, side in joins.items():
        j.send(addr(n), pw(j, n) + f"join {name} {side}\n", t + 2 * MIN)
    j.run(t + 3 * MIN)
    j.send(addr(0), pw(j, 0) + f"start {name}\n", t + 4 * MIN)
    j.run(t + 5 * MIN)
    j.new_mail()
    return datetime.fromisoformat(Game(j.root / "games" / name).config.extra["deadlines"]["spring-1901"])


def said(mail: Mail, who: str, words: str) -> bool:
    """Whether one of the mails to ``who`` says ``words``."""
    return any(words in plain(m) for r, m in mail if who in r)


def orders(power: str, password: str, *lines: str, game: str = "alpha") -> str:
    return f"game: {game}\npower: {power}\npassword: {password}\n" + "\n".join(lines) + "\n"


# -- 2. throttling that cannot be turned against the owner -----------------------------------------


def test_forged_guesses_before_the_owners_orders_at_the_deadline_do_not_lose_them(judge: Judge) -> None:
    j = judge
    register(j, START, 0, 1, 2)
    due = start_game(j, START + timedelta(hours=1), {1: "FRA", 2: "ENG"})
    for i in range(3):  # someone who can write p1's From line, three guesses
        j.send(addr(1), orders("FRA", f"guessing-{i:03d}-x", "A PAR H"), due - timedelta(minutes=10) + i * MIN)
    j.send(addr(1), orders("FRA", j.passwords[addr(1)], "A PAR - BER"), due - timedelta(minutes=5))
    out = j.run(due + MIN)  # the pass after the deadline reads the guesses first
    assert "held unread for the next pass" in out
    assert "adjudication of spring-1901 waits" in out
    fra = Game(j.root / "games" / "alpha")
    assert not (fra.root / "turns" / "spring-1901" / "results.yaml").exists()
    out = j.run(due + 2 * MIN)  # the next pass reads the owner's orders first, then adjudicates
    assert "accepted" in out
    results = (fra.root / "turns" / "spring-1901" / "results.yaml").read_text(encoding="utf-8")
    assert "A PAR - BER" in results  # the owner's orders were adjudicated
    assert "A PAR - BER" in (fra.root / "orders" / "spring-1901" / "FRA.txt").read_text(encoding="utf-8")
    mail = j.new_mail()
    warnings = [m for r, m in mail if addr(1) in r and "Wrong passwords" in str(m["Subject"])]
    assert len(warnings) == 1  # the player hears of the guesses once


def test_a_message_held_by_its_game_stays_in_a_maildir_for_the_next_pass(tmp_path: Path) -> None:
    """A judge whose mailbox is a Maildir (which keeps what was read, so the registry
    marks each message its game read): three forged guesses in the owner's name, then
    the owner's orders, in one pass. The game holds the owner's mail unread; the next
    pass reads it and takes the orders."""
    from email.message import EmailMessage

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
    secret = "a-long-password-1"
    gm = reg.register(
        "gm@example.org", "GM", timezone=None, language="en", now=START, password_hash=hash_password(secret)
    )
    options = {"schedule": {"timezone": "UTC", "every": "72h"}, "press": {"kind": "white"}}
    sides = build(settings, "alpha", "pure", options, gm.address)
    reg.add_game("alpha", "pure", {**options, "sides": list(sides)}, gm.id, START)
    p1 = reg.register(
        "p1@example.org", "P1", timezone=None, language="en", now=START, password_hash=hash_password(secret)
    )
    reg.join("alpha", p1.id, [], START)
    reg.set_status("alpha", STARTING)
    reconcile(settings, reg, START, lambda _: None)
    member = reg.member("alpha", p1.id)
    reg.close()
    assert member is not None and member.side is not None
    game = Game(root / "games" / "alpha")
    turn = game.current_turn()
    unit = next(u for u in game.load_any_state(turn).units if u.power == member.side)

    def run(at: datetime) -> str:
        lines: list[str] = []
        run_judge(root, now=at, say=lines.append, say_for=lambda _: lines.append)
        return "\n".join(lines)

    def mail(n: int, password: str, at: datetime) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "p1@example.org", "judge@example.org", "orders"
        msg["Date"], msg["Message-ID"] = format_datetime(at), f"<m{n}@example.org>"
        msg.set_content(f"game: alpha\npower: {member.side}\npassword: {password}\n{unit.label()} H\n")
        (root / "mail" / "new" / f"{n}.eml").write_bytes(msg.as_bytes())

    t = START + timedelta(hours=1)
    run(t)
    for n in range(3):  # someone who can write p1's From line, three guesses
        mail(n, f"guess-{n}-wrong-one", t + n * MIN)
    mail(3, secret, t + 5 * MIN)
    out = run(t + 10 * MIN)
    assert "held unread for the next pass" in out
    assert not (game.orders_dir(turn) / f"{member.side}.txt").exists()
    run(t + 11 * MIN)
    assert f"{unit.label()} H" in (game.orders_dir(turn) / f"{member.side}.txt").read_text(encoding="utf-8")


def test_the_lobby_reads_the_owners_mail_after_three_forged_wrong_passwords(judge: Judge) -> None:
    j = judge
    register(j, START, 0)
    t = START + timedelta(hours=1)
    for i in range(3):
        j.send(addr(0), f"password: not-it-{i:04d}-x\nwhois\n", t)
    j.send(addr(0), pw(j, 0) + "create alpha pure\nevery: 48h\n", t)
    out = j.run(t + MIN)
    assert "held for the next pass: 3 wrong passwords from this address in this pass" in out
    assert not (j.root / "games" / "alpha").exists()
    j.run(t + 2 * MIN)
    mail = j.new_mail()
    assert [m for r, m in mail if "alpha is created" in plain(m)]  # answered at the next pass
    assert (j.root / "games" / "alpha" / "game.yaml").is_file()


# -- 3. the judge as a mail cannon ----------------------------------------------------------------------------


def test_a_third_partys_address_gets_the_days_budget_of_mail_and_no_more(judge: Judge) -> None:
    j = judge
    j.settings(limits={"replies": 4, "replies_total": 100})
    register(j, START, 0, 1, 2)
    due = start_game(j, START + timedelta(hours=1), {1: "FRA", 2: "ENG"})
    victim = "victim@elsewhere.example"
    t = due - timedelta(hours=30)
    for i in range(40):  # the game's route: forged mails naming the game, from a third party's address
        j.send(victim, f"game: alpha\npower: FRA\npassword: x-{i}-guess-pw\nA PAR H\n", t)
    for i in range(10):  # and the lobby's: lines of a stranger
        j.send(victim, f"list\nhelp {i}\n", t)
    j.run(t + MIN)
    j.run(t + 2 * MIN)
    got = [m for r, m in j.new_mail() if victim in r]
    assert len(got) == 4
    # a player targeted by guesses hears of them once a day, whatever the passes
    for k in range(3):
        for i in range(5):
            j.send(addr(2), orders("ENG", f"guess-{k}-{i}-pass", "A LON H"), t + timedelta(hours=k + 1))
        j.run(t + timedelta(hours=k + 1, minutes=1))
    mail = j.new_mail()
    assert len([m for r, m in mail if addr(2) in r and "Wrong passwords" in str(m["Subject"])]) == 1
    assert len([m for r, m in mail if addr(2) in r]) <= 4 + 1  # the day's replies and one warning
    # the owner, proven by their password, is answered whatever the budget: behind the six
    # guesses still held, within three passes (three guesses are read a pass, the oldest first)
    j.send(addr(2), orders("ENG", j.passwords[addr(2)], "A LON H"), t + timedelta(hours=5))
    for k in range(3):
        j.run(t + timedelta(hours=5, minutes=1 + k))
    eng = j.root / "games" / "alpha" / "orders" / "spring-1901" / "ENG.txt"
    assert "A LON H" in eng.read_text(encoding="utf-8")


# -- 4. registration that proves the address -----------------------------------------------------------------


def test_a_registration_proves_its_address_its_name_is_checked_and_nothing_is_echoed(judge: Judge) -> None:
    j = judge
    register(j, START, 0)
    t = START + timedelta(hours=1)
    j.send("spam1@elsewhere.example", "register Cheap pills at http://spam.example/buy\n", t)
    j.send("spam2@elsewhere.example", "register Player 0\n", t)  # another's name
    j.send("spam3@elsewhere.example", "register Bob\u0085ERROR forged line\n", t)  # NEL: a blank in a name
    j.send("spam4@elsewhere.example", "register Eve\x1b[2J\n", t)
    j.send("new@players.example.org", "register Nadia Boulanger, Europe/Paris\n", t)
    out = j.run(t + MIN)
    mail = j.new_mail()
    assert "spam.example" not in "\n".join(plain(m) for _, m in mail)
    assert "A name is 2 to 30 characters" in one(mail, "spam1@elsewhere.example")
    assert "'Player 0' is the name of a game master of this judge" in one(mail, "spam2@elsewhere.example")
    assert "You are registered as Bob ERROR forged line" in one(mail, "spam3@elsewhere.example", "Your mail")
    assert "A name is 2 to 30 characters" in one(mail, "spam4@elsewhere.example")
    assert not [line for line in out.splitlines() if "ERROR forged" in line and "\\x85" not in line]
    reply = one(mail, "new@players.example.org", "Your mail")
    assert "one not confirmed within 7 days is forgotten" in reply
    password = re.search(r"for all your games: (\S+)", one(mail, "new@players.example.org", "password"))
    assert password is not None
    reg = j.registry()
    nadia = reg.player("new@players.example.org")
    assert nadia is not None and not reg.confirmed(nadia.id)
    reg.close()
    # a registration never confirmed is forgotten after 7 days: its address and name are free again
    j.send("late@players.example.org", "register Lazy Larry\n", t)
    j.run(t + 2 * MIN)
    j.send("new@players.example.org", f"password: {password.group(1)}\nrename Nadia B\n", t + timedelta(days=2))
    out = j.run(t + timedelta(days=2, minutes=1))
    assert "Your name was Nadia Boulanger; it is Nadia B now" in one(j.new_mail(), "new@players.example.org")
    out = j.run(t + timedelta(days=8))
    assert "the registration of late@players.example.org was never confirmed: forgotten" in out
    reg = j.registry()
    nadia = reg.player("new@players.example.org")
    assert nadia is not None and reg.confirmed(nadia.id)  # her password came back
    assert reg.player("late@players.example.org") is None
    assert [h[1:] for h in reg.history(nadia.id)] == [("name", "Nadia Boulanger", "Nadia B")]
    reg.close()


def test_a_player_changes_address_recovers_a_password_and_a_weak_one_is_refused(judge: Judge) -> None:
    j = judge
    register(j, START, 0, 1)
    t = START + timedelta(hours=1)
    j.send(addr(1), pw(j, 1) + "password password12\n", t)
    j.send(addr(1), pw(j, 1) + "address p1-new@other.example.org\n", t + MIN)
    j.run(t + 2 * MIN)
    mail = j.new_mail()
    assert said(mail, addr(1), "too short or too easy")  # password12
    code = re.search(r"^\s+confirm (\S+)$", one(mail, "p1-new@other.example.org", "Confirm your new address"), re.M)
    assert code is not None
    new = "p1-new@other.example.org"
    j.send(new, f"confirm {code.group(1)}\n", t + timedelta(hours=1))
    j.run(t + timedelta(hours=1, minutes=1))
    mail = j.new_mail()
    assert f"Your address is {new} from now on, for all your games; {addr(1)} is told." in one(mail, new, "Your mail")
    assert f"is {new} from now on" in one(mail, addr(1), "changed")
    j.passwords[new] = j.passwords[addr(1)]
    # a lost password: a code to the registered address, then a new password by mail
    j.send(new, "forgot\n", t + timedelta(hours=2))
    j.run(t + timedelta(hours=2, minutes=1))
    found = re.search(r"Your code: (\S+)\.", one(j.new_mail(), new))
    assert found is not None
    j.send(new, f"reset {found.group(1)}\n", t + timedelta(hours=3))
    out = j.run(t + timedelta(hours=3, minutes=1))
    assert found.group(1) not in out  # the code is never logged
    mail = j.new_mail()
    assert "A new password comes in a mail of its own" in one(mail, new, "Your mail")
    fresh = re.search(r"for all your games: (\S+)", one(mail, new, "password"))
    assert fresh is not None and fresh.group(1) != j.passwords[new]
    reg = j.registry()
    player = reg.player(new)
    assert player is not None and reg.player(addr(1)) is None
    assert [h[1:] for h in reg.history(player.id)] == [("address", addr(1), new)]
    reg.close()


def test_an_idn_address_registers_and_mail_from_the_judge_itself_is_not_answered(judge: Judge) -> None:
    j = judge
    at = format_datetime(START)
    raw = (
        f"Received: from mx by mail.judge.example.org; {at}\r\nFrom: Jörg <joerg@b\u00fccher.example>\r\n"
        f"To: {JUDGE}\r\nSubject: hello\r\nDate: {at}\r\nMessage-ID: <idn-1@b>\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\nregister Jörg Müller\r\n"
    ).encode()
    j.post_raw(raw)
    j.send(JUDGE, "register The Judge\n", START)
    out = j.run(START + MIN)
    assert "from the judge's own address: not answered" in out
    mail = j.new_mail()
    assert "You are registered as Jörg Müller (joerg@xn--bcher-kva.example)" in one(
        mail, "joerg@xn--bcher-kva.example", "Your mail"
    )
    assert not [m for r, m in mail if JUDGE in r]


# -- 5. replies no bigger than the question ---------------------------------------------------------------------


def test_a_reply_is_no_bigger_than_the_question(judge: Judge) -> None:
    j = judge
    register(j, START, 0, 1)
    due = start_game(j, START + timedelta(hours=1), {1: "FRA"})  # six sides vacant
    t = due - timedelta(hours=24)
    j.send("x@elsewhere.example", "list vacant\n" * 20, t)
    j.send("y@elsewhere.example", "lisst vacant\n" * 2000, t)
    j.run(t + MIN)
    mail = j.new_mail()
    listing = one(mail, "x@elsewhere.example")
    assert listing.count("alpha: ") == 6  # the vacant sides, once
    assert len([line for line in listing.splitlines() if line.startswith("line ")]) == 20
    assert listing.count("the same command as line 1") == 19
    near = one(mail, "y@elsewhere.example")
    assert near.count("Did you mean 'list'") == 20 and "Only the first 20 commands" in near
    assert len(near.encode()) < 4000
    assert "lisst vacant" not in near  # a stranger's line is not written back


# -- 6. the mail server's verdict everywhere ---------------------------------------------------------------------


def test_the_mail_servers_verdict_applies_to_the_lobby_and_every_game(judge: Judge) -> None:
    j = judge
    register(j, START, 0, 1, 2)
    due = start_game(j, START + timedelta(hours=1), {1: "FRA", 2: "ENG"})
    j.settings(inbox={"authserv_id": "mail.judge.example.org"})
    forged = {"Authentication-Results": "mail.judge.example.org; dmarc=fail (p=reject) header.from=players.example.org"}
    t = due - timedelta(hours=5)
    j.send("nobody@players.example.org", "register Mallory\n", t, headers=forged)
    j.send(addr(1), pw(j, 1) + "whois\n", t, headers=forged)
    j.send(addr(1), orders("FRA", j.passwords[addr(1)], "A PAR - BER"), t, headers=forged)
    out = j.run(t + MIN)
    assert out.count("forged sender") == 3
    assert j.new_mail() == []
    reg = j.registry()
    assert reg.player("nobody@players.example.org") is None
    reg.close()
    assert not (j.root / "games" / "alpha" / "orders" / "spring-1901" / "FRA.txt").exists()


# -- 7. the registry as trustworthy as the games --------------------------------------------------------------


def test_a_deleted_registry_with_games_running_stops_the_judge_and_the_masters_get_one_mail(judge: Judge) -> None:
    j = judge
    register(j, START, 0, 1, 2)
    due = start_game(j, START + timedelta(hours=1), {1: "FRA", 2: "ENG"})
    before = sorted(str(p.relative_to(j.root)) for p in (j.root / "games").rglob("*"))
    for name in ("registry.sqlite", "registry.sqlite-wal", "registry.sqlite-shm"):
        (j.root / name).unlink(missing_ok=True)
    j.send(addr(0), pw(j, 0) + "create alpha pure\nevery: 48h\n", due - timedelta(hours=2))
    out = j.run(due - timedelta(hours=1), status=1)
    assert "ERROR registry" in out and "the registry is missing" in out and "alpha" in out
    out = j.run(due + timedelta(hours=1), status=1)  # the deadline passes: nothing is adjudicated
    mail = j.new_mail()
    assert len(mail) == 1  # the masters, once
    (rcpts, msg) = mail[0]
    assert rcpts == [addr(0)] and "judge error: registry" in str(msg["Subject"])
    assert "games/ holds 1 game (alpha)" in plain(msg) and "--repair" in plain(msg)
    assert not (j.root / "registry.sqlite").exists()  # no new registry made
    assert sorted(str(p.relative_to(j.root)) for p in (j.root / "games").rglob("*")) == before  # nothing touched
    # the operator repairs: the game is entered again from its files, and goes on
    from click.testing import CliRunner

    from moonshine.cli import main

    checked = CliRunner().invoke(main, ["judge", "check", str(j.root)])
    assert checked.exit_code == 1 and "the registry is missing" in checked.output
    repaired = CliRunner().invoke(main, ["judge", "check", str(j.root), "--repair"])
    assert repaired.exit_code == 0, repaired.output
    assert "entered games/alpha: pure, running, 2 players, 1 master" in repaired.output
    j.send(addr(1), orders("FRA", j.passwords[addr(1)], "A PAR H"), due + timedelta(hours=2))
    out = j.run(due + timedelta(hours=2, minutes=1))
    assert "adjudicated spring-1901" in out


@pytest.mark.parametrize("damage", ["garbage", "directory", "empty", "broken row"])
def test_a_damaged_registry_stops_the_judge_with_one_clear_error(judge: Judge, damage: str) -> None:
    j = judge
    register(j, START, 0)
    j.send(addr(0), pw(j, 0) + "create alpha pure\nevery: 48h\n", START + timedelta(hours=1))
    j.run(START + timedelta(hours=1, minutes=1))
    j.new_mail()
    path = j.root / "registry.sqlite"
    for extra in ("registry.sqlite-wal", "registry.sqlite-shm"):
        (j.root / extra).unlink(missing_ok=True)
    if damage == "broken row":
        conn = sqlite3.connect(path)
        conn.execute("UPDATE games SET settings = 'not json' WHERE name = 'alpha'")
        conn.commit()
        conn.close()
    else:
        path.unlink()
        if damage == "garbage":
            path.write_bytes(b"\x00garbage, not a database" * 100)
        elif damage == "directory":
            path.mkdir()
        else:
            path.write_bytes(b"")
    j.send(addr(0), "list\n", START + timedelta(hours=2))
    for k in range(2):
        out = j.run(START + timedelta(hours=2 + k), status=1)
        assert "Traceback" not in out and "ERROR registry" in out
    mail = j.new_mail()
    assert len(mail) == 1 and "judge error: registry" in str(mail[0][1]["Subject"])
    assert (j.root / "games" / "alpha" / "game.yaml").is_file()


def test_create_never_deletes_a_directory_the_registry_does_not_know(judge: Judge) -> None:
    j = judge
    register(j, START, 0)
    lost = j.root / "games" / "alpha"
    (lost / "turns").mkdir(parents=True)
    (lost / "turns" / "history.txt").write_text("a game's history\n", encoding="utf-8")
    j.send(addr(0), pw(j, 0) + "create alpha pure\nevery: 48h\n", START + timedelta(hours=1))
    j.run(START + timedelta(hours=1, minutes=1))
    assert "on the judge's disk already, not in its registry" in one(j.new_mail(), addr(0))
    assert (lost / "turns" / "history.txt").read_text(encoding="utf-8") == "a game's history\n"


# -- 8. a poison message is set aside --------------------------------------------------------------------------


def test_a_message_whose_handling_raises_is_set_aside_and_the_pass_goes_on(
    judge: Judge, monkeypatch: pytest.MonkeyPatch
) -> None:
    from moonshine.host import lobby

    j = judge
    register(j, START, 0, 1)
    t = START + timedelta(hours=1)
    real = lobby.answer

    def answer(ctx: object, mail: object) -> str:
        if "POISON" in "\n".join(getattr(mail, "lines", [])):
            raise OverflowError("Python int too large to convert to C int")
        return real(ctx, mail)  # type: ignore[arg-type]

    monkeypatch.setattr(lobby, "answer", answer)
    j.send(addr(1), pw(j, 1) + "whois\nPOISON\n", t)
    j.send(addr(1), pw(j, 1) + "whois\n", t + MIN)
    out = j.run(t + 2 * MIN, status=0)
    assert "held: its handling failed (OverflowError" in out
    mail = j.new_mail()
    assert "Dedication 100%" in one(mail, addr(1))  # the mail after it is answered in the same pass
    error = one(mail, addr(0), "judge error")
    assert "could not be handled: OverflowError" in error and "held/" in error
    held = sorted((j.root / "held").glob("*.eml"))
    assert len(held) == 1 and b"POISON" in held[0].read_bytes()
    out = j.run(t + 3 * MIN)
    assert "POISON" not in out and "held:" not in out  # never tried again
    assert j.new_mail() == []


def test_a_message_that_cannot_be_set_aside_stays_for_the_next_pass_and_the_others_are_answered(
    judge: Judge, monkeypatch: pytest.MonkeyPatch
) -> None:
    from moonshine.host import lobby

    j = judge
    register(j, START, 0, 1)
    t = START + timedelta(hours=1)
    real = lobby.answer
    broken = True

    def answer(ctx: object, mail: object) -> str:
        if broken and "POISON" in "\n".join(getattr(mail, "lines", [])):
            raise OverflowError("Python int too large to convert to C int")
        return real(ctx, mail)  # type: ignore[arg-type]

    monkeypatch.setattr(lobby, "answer", answer)
    (j.root / "held").write_text("not a folder\n", encoding="utf-8")  # held/ cannot take it
    j.send(addr(1), pw(j, 1) + "whois\nPOISON\n", t)
    j.send(addr(1), pw(j, 1) + "whois\n", t + MIN)
    out = j.run(t + 2 * MIN)
    assert "not set aside" in out and "Traceback" not in out
    mail = j.new_mail()
    assert "Dedication 100%" in one(mail, addr(1))  # the mail after it is answered
    assert "it stays in the mailbox for the next pass" in one(mail, addr(0), "judge error")
    j.run(t + 3 * MIN)
    assert j.new_mail() == []  # the masters are told once
    broken = False  # the operator mends the judge: the message was kept, and is answered
    j.run(t + 4 * MIN)
    assert "Dedication 100%" in one(j.new_mail(), addr(1))


def test_a_masters_bad_create_is_refused_and_the_judge_goes_on(judge: Judge) -> None:
    j = judge
    register(j, START, 0, 1)
    t = START + timedelta(hours=1)
    bad = ["every: 9999999999999h", "grace: 99999999999h", "minimum_bribe: inf", "title: a\x00b"]
    for i, setting in enumerate(bad):
        j.send(addr(0), pw(j, 0) + f"create bad{i} moonshine\n{setting}\n", t)
    j.send(addr(1), pw(j, 1) + "whois\n", t + MIN)
    out = j.run(t + 2 * MIN)
    assert "Traceback" not in out
    mail = j.new_mail()
    replies = [plain(m) for r, m in mail if addr(0) in r]
    assert len(replies) == 4 and all("refused" in r for r in replies)
    assert "Dedication 100%" in one(mail, addr(1))
    assert not list((j.root / "games").iterdir())


# -- 9. side rules ------------------------------------------------------------------------------------------------


def test_the_side_rules_of_a_judge(judge: Judge) -> None:
    j = judge
    register(j, START, 0, 1, 2, 3)
    due = start_game(j, START + timedelta(hours=1), {1: "FRA", 2: "ENG", 3: "GER"})
    t = due - timedelta(hours=24)
    j.send(addr(0), pw(j, 0) + "eject alpha ENG\npromote alpha " + addr(3) + "\n", t)
    j.run(t + MIN)
    j.new_mail()
    j.send(addr(2), pw(j, 2) + "takeover alpha ENG\n", t + 2 * MIN)  # ejected: not back
    j.send(addr(1), pw(j, 1) + "resign alpha\ntakeover alpha AUS\n", t + 2 * MIN)  # a better side
    j.send(addr(3), pw(j, 3) + f"promote alpha {addr(2)}\n", t + 2 * MIN)  # a promoted master
    j.run(t + 3 * MIN)
    mail = j.new_mail()
    assert "You were ejected from alpha" in one(mail, addr(2), "Your mail")
    assert "You resigned from alpha less than 24 hours ago" in one(mail, addr(1), "Your mail")
    assert "Only the creator of alpha" in one(mail, addr(3), "Your mail")
    j.send(addr(0), pw(j, 0) + "terminate alpha\n", t + 4 * MIN)
    j.run(t + 5 * MIN)
    j.new_mail()
    j.send(addr(0), pw(j, 0) + "eject alpha GER\n", t + 6 * MIN)
    j.run(t + 7 * MIN)
    assert "alpha is not being played (it is terminated)" in one(j.new_mail(), addr(0))
    reg = j.registry()
    p3 = reg.player(addr(3))
    assert p3 is not None and reg.dedication(p3.id).resigned == 0  # the eject of a terminated game: nothing
    reg.close()


# -- 10. the judge's directory and its log -----------------------------------------------------------------------


def test_the_judges_directory_leads_nowhere_else_and_its_log_cannot_be_forged(judge: Judge, tmp_path: Path) -> None:
    j = judge
    register(j, START, 0)
    j.send(addr(0), pw(j, 0) + "register \x1b[31mRed\u2028ERROR fake\n", START + timedelta(hours=1))
    j.run(START + timedelta(hours=1, minutes=1))
    assert "is registered already" in one(j.new_mail(), addr(0))
    log = (j.root / "run.log").read_text(encoding="utf-8")
    assert "\x1b" not in log and "\u2028" not in log and "\\x1b" in log
    assert all(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ", line) for line in log.splitlines())
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    day = (START + timedelta(hours=2)).date().isoformat()
    link = j.root / "outbox" / day
    if link.exists():
        link.rename(j.root / "outbox" / "kept")
    link.symlink_to(outside)
    j.send(addr(0), "help\n", START + timedelta(hours=2))
    out = j.run(START + timedelta(hours=2, minutes=1), status=1)
    assert f"outbox/{day}: a symbolic link to {outside}, outside the judge's directory" in out
    assert list(outside.iterdir()) == []
    assert j.new_mail() == []
