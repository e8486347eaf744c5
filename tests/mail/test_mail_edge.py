"""The mail edge and the commands taking names: nothing a command line or a mail names
leads outside the game directory, and a refused name changes nothing."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from inboxkit import DEADLINE, TERRY, VALLEY_ORDERS, VALLEY_PW, inbox_game, maildir, order_mail, replies, run_inbox

from moonshine.cli import main
from moonshine.errors import GameError
from moonshine.game.directory import Game
from moonshine.game.families import new_game
from moonshine.game.ledger import outbox_dir, save_sent

WALKS = ["spring-1924/../..", "spring-1924/../../..", "../spring-1924", "spring-1924/", "x" * 300, "..", "/etc"]


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return new_game(tmp_path / "g", seed="edge")


@pytest.mark.parametrize("name", WALKS)
def test_a_turn_name_walking_out_is_refused_before_anything_is_written(game: Game, tmp_path: Path, name: str) -> None:
    maildir = tmp_path / "mail"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    (game.root / "notes.txt").write_text("the game master's own untracked notes\n")
    commits = _git(game.root, "rev-list", "--count", "HEAD")
    result = CliRunner().invoke(main, ["inbox", str(maildir), "--turn", name, "--game", str(game.root)])
    assert result.exit_code == 2, result.output
    assert "is not a turn name" in result.output and "Traceback" not in result.output
    assert _git(game.root, "rev-list", "--count", "HEAD") == commits  # nothing committed
    assert not (game.root / ".moonshine-journal").exists()
    assert "notes.txt" in _git(game.root, "status", "--porcelain")  # still untracked, still there
    later = CliRunner().invoke(main, ["status", "--game", str(game.root)])
    assert later.exit_code == 0, later.output


@pytest.mark.parametrize("command", ["adjudicate", "report", "rollback", "mail", "status", "remind"])
def test_every_command_refuses_a_path_for_a_turn(game: Game, command: str) -> None:
    result = CliRunner().invoke(main, [command, "spring-1924/../..", "--game", str(game.root)])
    assert result.exit_code == 2, result.output
    assert "'spring-1924/../..' is not a turn name" in result.output


@pytest.mark.parametrize("name", WALKS)
def test_the_library_builds_no_path_from_a_name_that_is_no_turn(game: Game, name: str) -> None:
    for build in (game.turn_dir, game.orders_dir, game.state_path, lambda t: outbox_dir(game, t)):
        with pytest.raises(GameError, match="turn name"):
            build(name)
    assert game.orders_dir("printemps-1924") == game.root / "orders" / "spring-1924"


# -- symbolic links out of the game ----------------------------------------------------


def _orders_game(tmp_path: Path) -> tuple[Game, Path]:
    game = new_game(tmp_path / "g", seed="edge")
    maildir = tmp_path / "mail"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    return game, maildir


@pytest.mark.parametrize(
    ("link", "target_is_dir"),
    [("orders/spring-1924/genna.txt", False), ("orders/spring-1924/history", True), ("outbox/spring-1924", True)],
)
def test_a_symbolic_link_leading_out_of_the_game_is_refused(tmp_path: Path, link: str, target_is_dir: bool) -> None:
    game, maildir = _orders_game(tmp_path)
    outside = tmp_path / "outside"
    if target_is_dir:
        outside.mkdir()
    else:
        outside.write_text("root:x:0:0:root:/root:/bin/bash\n")
    (game.root / link).parent.mkdir(parents=True, exist_ok=True)
    (game.root / link).symlink_to(outside)
    for argv in (["adjudicate", "spring-1924", "--force"], ["inbox", str(maildir)]):
        result = CliRunner().invoke(main, [*argv, "--game", str(game.root)])
        assert result.exit_code == 1, result.output
        assert f"Error: {link}: a symbolic link to {outside.resolve()}, outside the game directory" in result.output
    assert not (game.root / "turns" / "spring-1924" / "results.yaml").exists()
    assert "root:x" not in "".join(
        p.read_text(errors="replace") for p in game.root.rglob("*") if p.is_file() and not p.is_symlink()
    )
    if target_is_dir:
        assert list(outside.iterdir()) == []  # nothing written through the link


def test_a_symbolic_link_inside_the_game_is_fine(tmp_path: Path) -> None:
    game, _ = _orders_game(tmp_path)
    (game.root / "notes").mkdir()
    (game.root / "notes" / "genna.txt").write_text("gang: genna\nH NWS hold\n")
    (game.root / "orders" / "spring-1924").mkdir(parents=True, exist_ok=True)
    (game.root / "orders" / "spring-1924" / "genna.txt").symlink_to(game.root / "notes" / "genna.txt")
    result = CliRunner().invoke(main, ["adjudicate", "spring-1924", "--force", "--game", str(game.root)])
    assert result.exit_code == 0, result.output


def test_the_game_entries_checked_for_links_are_the_ones_the_modules_write() -> None:
    from moonshine.game import directory, git, journal, lock
    from moonshine.mail import mailbox, record, run
    from moonshine.mail.commands import absence, press, votes

    for name in (directory.GAME_FILE, git.SECRET_FILE, lock.LOCK_FILE, press.LOG_DIR, votes.FILE):
        assert name in journal.GAME_ENTRIES
    for name in (record.RECORD, record.OLD_RECORD, mailbox.ABSENCES, absence.FILE, run.LOG, journal.JOURNAL_DIR):
        assert name in journal.GAME_ENTRIES


# -- a stranger's mail costs little ------------------------------------------------------


def _many_parts(count: int, *, nested: int = 0) -> bytes:
    """A message of ``count`` tiny text parts (498 KB for 6,000), or parts nested
    ``nested`` deep."""
    head = (
        "From: stranger@elsewhere.example\r\nTo: judge@moonshine.example\r\nSubject: hello\r\n"
        "Message-ID: <bomb@elsewhere.example>\r\nDate: Wed, 28 Feb 2024 10:00:00 +0000\r\nMIME-Version: 1.0\r\n"
    )
    if nested:
        body = "Content-Type: text/plain\r\n\r\ngang: valley\r\nH LOO - NSS\r\n"
        for level in range(nested):
            b = f"level{level}"
            body = f"Content-Type: multipart/mixed; boundary={b}\r\n\r\n--{b}\r\n{body}\r\n--{b}--\r\n"
        return (head + body).encode()
    b = "BOUNDARY"
    parts = "".join(f"--{b}\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(count))
    return (head + f"Content-Type: multipart/mixed; boundary={b}\r\n\r\n{parts}--{b}--\r\n").encode()


@pytest.mark.parametrize("raw", [_many_parts(6000), _many_parts(65), _many_parts(0, nested=40)])
def test_a_mail_of_many_parts_is_refused_before_its_parts_are_read(raw: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    from moonshine.mail import intake, sources
    from moonshine.mail.inbox.reading import read as read_message

    read: list[object] = []
    monkeypatch.setattr(intake, "texts", lambda msg: read.append(msg) or [])
    reading = read_message(sources.Incoming(raw, "test"), 1_000_000)
    assert reading.problem is not None and reading.problem.key == "reject.too_many_parts"
    assert reading.sender == "stranger@elsewhere.example"
    assert read == []  # no part was taken apart for its text


def test_a_mail_of_a_few_parts_is_read() -> None:
    from moonshine.mail import intake, sources
    from moonshine.mail.inbox.reading import read

    raw = _many_parts(intake.MAX_PARTS - 1)
    reading = read(sources.Incoming(raw, "test"), 1_000_000)
    assert reading.problem is None
    assert len(reading.texts) == intake.MAX_PARTS - 1
    nested = read(sources.Incoming(_many_parts(0, nested=intake.MAX_DEPTH - 1), "test"), 1_000_000)
    assert nested.problem is None
    assert [text for _, text in nested.texts] == ["gang: valley\nH LOO - NSS\n"]


# -- automatic replies are never answered ----------------------------------------------


@pytest.mark.parametrize(
    ("header", "value", "subject"),
    [
        ("X-Autoreply", "yes", "Re: orders"),
        ("X-Autorespond", "Out of office", "Re: orders"),
        ("X-Auto-Response-Suppress", "All", "Re: orders"),
        (None, None, "Out of Office: Re: orders"),
        (None, None, "Automatic reply: orders"),
        (None, None, "Réponse automatique : ordres"),
        (None, None, "Absence du bureau : ordres"),
        (None, None, "Undeliverable: orders"),
        (None, None, "Auto-Reply: I am away"),
    ],
)
def test_an_automatic_reply_is_logged_and_never_answered(
    tmp_path: Path, header: str | None, value: str | None, subject: str
) -> None:
    game = inbox_game(tmp_path)
    auto = order_mail(TERRY, "I am away until Monday. For urgent matters call the office.", subject=subject)
    if header is not None:
        auto[header] = value
    result = run_inbox(game, maildir(tmp_path / "box", [auto]))
    assert result.exit_code == 0, result.output
    assert "automatic reply or bounce: not answered" in result.output
    assert replies(game) == []


def test_a_player_writing_about_the_office_is_answered(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    mail = order_mail(TERRY, "gang: valley\nH LOO - NSS\n", subject="out of office tomorrow, my orders")
    result = run_inbox(game, maildir(tmp_path / "box", [mail]))
    assert result.exit_code == 0, result.output
    assert "not answered" not in result.output
    assert len(replies(game)) == 1


# -- password guessing -------------------------------------------------------------------


def test_password_guessing_is_throttled_and_the_gang_warned_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from moonshine.mail import passwords
    from moonshine.mail.inbox import accept

    checked: list[str] = []
    real = accept.verify_password
    monkeypatch.setattr(accept, "verify_password", lambda given, stored: checked.append(given) or real(given, stored))
    game = inbox_game(tmp_path)
    guesses = [
        order_mail(
            TERRY, VALLEY_ORDERS.replace(VALLEY_PW, f"guess-{i:04d}"), date=f"Wed, 28 Feb 2024 09:{i:02d}:00 +0000"
        )
        for i in range(20)
    ]
    right = order_mail(TERRY, VALLEY_ORDERS, date="Wed, 28 Feb 2024 09:59:00 +0000")
    result = run_inbox(game, maildir(tmp_path / "box", [*guesses, right]))
    assert result.exit_code == 0, result.output
    assert len(checked) == passwords.MAX_WRONG_PASSWORDS  # scrypt ran three times, not twenty-one
    assert result.output.count("wrong password for Valley Gang") == passwords.MAX_WRONG_PASSWORDS
    assert result.output.count("more than 3 wrong passwords for Valley Gang in this pass") == 18
    sent = replies(game)
    answered = [m for m in sent if "warning" not in str(m["Message-ID"])]
    assert len(answered) == passwords.MAX_WRONG_PASSWORDS  # the guesses past the limit are not answered
    assert not [m for m in answered if m["Cc"]]  # a refusal goes to its sender only: the gang hears by the warning
    warnings = [m for m in sent if "warning" in str(m["Message-ID"])]
    # each of the gang's addresses has its own warning, naming it alone
    assert sorted(tuple(a.addr_spec for a in m["To"].addresses) for m in warnings) == sorted(
        (a,) for a in game.config.players["valley"].email
    )
    for warning in warnings:
        assert "refused 21 messages naming Valley Gang: 3 with a wrong password" in warning.get_content()
        assert "and 18 more left unread until its next pass" in warning.get_content()
    # the held messages stay in the mailbox: the next pass reads them, the oldest first,
    # and the gang is warned once a day, not once a pass
    checked.clear()
    held = run_inbox(game, tmp_path / "box")
    assert checked == ["guess-0003", "guess-0004", "guess-0005"]
    assert held.output.count("more than 3 wrong passwords for Valley Gang in this pass") == 15
    assert len([m for m in replies(game) if "warning" in str(m["Message-ID"])]) == len(warnings)
    # the next pass reads the right password again
    later = order_mail(TERRY, VALLEY_ORDERS, date="Wed, 28 Feb 2024 10:30:00 +0000")
    again = run_inbox(game, maildir(tmp_path / "box2", [later]))
    assert "accepted" in again.output and "valley" in again.output


# -- forged senders: the receiving server's verdict -------------------------------------

MX = "mx.moonshine.example"


@pytest.mark.parametrize(
    ("headers", "verdict"),
    [
        ([f"{MX}; dmarc=fail (p=reject) header.from=valley.example"], "dmarc=fail"),
        ([f"{MX}; spf=pass smtp.mailfrom=valley.example; dkim=pass header.d=valley.example; dmarc=pass"], None),
        ([f"{MX}; spf=fail smtp.mailfrom=terry@valley.example"], "spf=fail"),
        ([f"{MX}; spf=fail smtp.mailfrom=bounce@lists.example"], None),  # another domain's envelope
        ([f"{MX}; dkim=fail header.d=valley.example"], "dkim=fail"),
        ([f"{MX}; dkim=fail header.d=valley.example; dkim=pass header.d=valley.example"], None),
        ([f"{MX}; dkim=fail header.d=mail.valley.example"], "dkim=fail"),  # a subdomain of the From's
        ([f"{MX} 1; dmarc=fail header.from=valley.example"], "dmarc=fail"),  # with a version
        ([f"{MX.upper()}; dmarc=fail header.from=valley.example"], "dmarc=fail"),
        (["other.example; dmarc=fail header.from=valley.example"], None),  # not the trusted server
        ([f"{MX}; dmarc=pass", f"{MX}; dmarc=fail header.from=valley.example"], None),  # the topmost counts
        ([f"{MX}; dmarc=fail header.from=valley.example", f"{MX}; dmarc=pass"], "dmarc=fail"),
        ([f"{MX}; none"], None),
        (["garbage ;;; = ; dmarc"], None),
    ],
)
def test_the_trusted_servers_verdict_on_the_from_domain(headers: list[str], verdict: str | None) -> None:
    from email.message import EmailMessage

    from moonshine.mail.envelope import forged_verdict

    msg = EmailMessage()
    for h in headers:
        msg["Authentication-Results"] = h
    msg["From"] = "terry@valley.example"
    assert forged_verdict(msg, "terry@valley.example", MX) == verdict
    assert forged_verdict(msg, "terry@valley.example", None) is None  # no authserv_id: nothing read


def test_a_forged_sender_is_refused_before_its_password_and_not_answered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from moonshine.mail.inbox import accept

    checked: list[str] = []
    monkeypatch.setattr(accept, "verify_password", lambda given, stored: checked.append(given) or True)
    game = inbox_game(tmp_path, inbox={"authserv_id": MX})
    forged = order_mail(TERRY, VALLEY_ORDERS)
    forged["Authentication-Results"] = (
        f"{MX}; spf=fail smtp.mailfrom=valley.example; dmarc=fail header.from=valley.example"
    )
    result = run_inbox(game, maildir(tmp_path / "box", [forged]))
    assert result.exit_code == 0, result.output
    assert "forged sender: the mail server says dmarc=fail for terry@valley.example" in result.output
    assert checked == [] and replies(game) == []
    assert not (game.orders_dir("spring-1924") / "valley.txt").exists()
    genuine = order_mail(TERRY, VALLEY_ORDERS, subject="again")
    genuine["Authentication-Results"] = f"{MX}; dmarc=pass header.from=valley.example"
    again = run_inbox(game, maildir(tmp_path / "box2", [genuine]))
    assert re.search(r"^accepted\s+valley", again.output, re.M), again.output


def test_a_stranger_naming_a_gang_gets_nothing_of_their_own_words_back(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    spam = "CHEAP WATCHES at watches.example, 90% off"
    mail = order_mail("eve@else.example", f"gang: valley\n{spam}\nH LOO - NSS\n", subject=spam)
    result = run_inbox(game, maildir(tmp_path / "box", [mail]))
    assert result.exit_code == 0, result.output
    (reply,) = replies(game)
    assert str(reply["To"]) == "eve@else.example"
    whole = reply.as_string()
    assert "WATCHES" not in whole and "watches.example" not in whole
    assert "is not a player's address" in reply.get_content()


@pytest.mark.parametrize(
    "address", ["terry", "terry@", "@valley.example", "Terry <terry@valley.example>", "a b@c.example"]
)
def test_a_player_address_that_is_no_address_is_refused(tmp_path: Path, address: str) -> None:
    game = new_game(tmp_path / "g", seed="edge", use_git=False)
    text = game.config_path.read_text(encoding="utf-8")
    at = text.index("  valley:\n")
    email = text.index("    email: []\n", at)
    game.config_path.write_text(text[:email] + f"    email: {address!r}\n" + text[email + len("    email: []\n") :])
    result = CliRunner().invoke(main, ["status", "--game", str(game.root)])
    assert result.exit_code == 1, result.output
    assert "players.valley.email" in result.output and "an address or a list of addresses" in result.output


def test_a_login_in_clear_over_the_network_is_refused() -> None:
    from moonshine.errors import StateError
    from moonshine.game.directory import GameConfig
    from moonshine.mail.settings import smtp_settings

    def settings(**smtp: object) -> object:
        base = {"host": "mail.example.org", "from": "Referee <ref@example.org>", **smtp}
        return smtp_settings(GameConfig(title="t", map="chicago-1920s", extra={"smtp": base}))

    with pytest.raises(StateError, match=r"smtp.security.*in clear to mail.example.org: use starttls or tls"):
        settings(security="none", user="judge")
    assert settings(security="starttls", user="judge") is not None
    assert settings(security="none") is not None  # no login, nothing secret
    assert settings(security="none", user="judge", host="127.0.0.1") is not None  # this machine


# -- the mail path at its edges (each test kills a small mutation of the code) ----------


@pytest.mark.parametrize("indent", ["", " ", "  ", "\t"])
def test_a_quoted_line_is_never_read_as_an_order_however_it_is_indented(indent: str) -> None:
    from moonshine.mail.intake import own_text

    own = own_text(f"gang: valley\nL KEN hold\n\n{indent}> H LOO - NSS\n{indent}>> sell 9\n")
    assert "L KEN hold" in own.text
    assert "H LOO" not in own.text and "sell 9" not in own.text
    assert own.quoted


def test_a_message_with_two_from_lines_has_no_sender(tmp_path: Path) -> None:
    from moonshine.mail.envelope import sender_of

    raw = (
        f"From: {TERRY}\r\nFrom: eve@else.example\r\nTo: ref@moonshine.example\r\nSubject: orders\r\n"
        "Date: Wed, 28 Feb 2024 10:00:00 +0000\r\nMessage-ID: <two-from@x>\r\n\r\n"
        + VALLEY_ORDERS.replace("\n", "\r\n")
    ).encode()
    from email import message_from_bytes, policy

    assert sender_of(message_from_bytes(raw, policy=policy.default)) == ""
    game = inbox_game(tmp_path)
    result = run_inbox(game, maildir(tmp_path / "box", [raw]))
    assert result.exit_code == 0, result.output
    assert "accepted" not in result.output
    assert not (game.orders_dir("spring-1924") / "valley.txt").exists()


def test_an_address_written_in_capitals_in_game_yaml_is_the_same_address(tmp_path: Path) -> None:
    from moonshine.game.directory import save_config

    game = inbox_game(tmp_path)
    players = dict(game.config.players)

    players["valley"] = msgspec.structs.replace(players["valley"], email=["Terry@Valley.Example"])
    save_config(game, msgspec.structs.replace(game.config, players=players))
    result = run_inbox(Game(game.root), maildir(tmp_path / "box", [order_mail(TERRY, VALLEY_ORDERS)]))
    assert re.search(r"^accepted\s+valley", result.output, re.M), result.output


@pytest.mark.parametrize(("seconds", "taken"), [(-1, True), (0, True), (1, False)])
def test_orders_received_at_the_deadline_itself_are_on_time(tmp_path: Path, seconds: int, taken: bool) -> None:
    from datetime import datetime, timedelta

    when = datetime.fromisoformat(DEADLINE) + timedelta(seconds=seconds)
    game = inbox_game(tmp_path)
    mail = order_mail(TERRY, VALLEY_ORDERS, date=when.strftime("%a, %d %b %Y %H:%M:%S +0000"))
    result = run_inbox(game, maildir(tmp_path / "box", [mail]))
    assert bool(re.search(r"^accepted\s+valley", result.output, re.M)) is taken, result.output
    assert (game.orders_dir("spring-1924") / "valley.txt").exists() is taken


def test_a_secret_inside_another_is_masked_whole() -> None:
    from moonshine.game.masking import MASK, mask_secrets

    text = "my password was gin-and-tonic-1924, not gin-and-tonic"
    masked = mask_secrets(text, ["gin-and-tonic", "gin-and-tonic-1924"])
    assert "gin" not in masked and "1924" not in masked
    assert masked == f"my password was {MASK}, not {MASK}"


@pytest.mark.parametrize(("seconds", "earlier"), [(0, True), (1, False)])
def test_orders_received_at_the_previous_deadline_itself_are_for_that_turn(
    tmp_path: Path, seconds: int, earlier: bool
) -> None:
    from datetime import datetime, timedelta

    from moonshine.game.directory import save_config

    game = inbox_game(tmp_path)
    done = CliRunner().invoke(main, ["adjudicate", "spring-1924", "--force", "--no-commit", "--game", str(game.root)])
    assert done.exit_code == 0, done.output
    later = "2024-09-01T18:00:00+00:00"
    cfg = Game(game.root).config
    save_config(
        game,
        msgspec.structs.replace(cfg, extra={**cfg.extra, "deadlines": {"spring-1924": DEADLINE, "autumn-1924": later}}),
    )
    when = datetime.fromisoformat(DEADLINE) + timedelta(seconds=seconds)
    mail = order_mail(TERRY, VALLEY_ORDERS, date=when.strftime("%a, %d %b %Y %H:%M:%S +0000"))
    result = run_inbox(Game(game.root), maildir(tmp_path / "box", [mail]), "--turn", "autumn-1924")
    assert result.exit_code == 0, result.output
    assert ("before the previous turn's deadline" in result.output) is earlier, result.output


@pytest.mark.parametrize(
    "argv",
    [
        ["site", "--out", "x" * 300],
        ["site", "--out", "/dev/null/x"],
        ["new", "x" * 300],
        ["simulate", "--turns", "1", "--out", "x" * 300],
    ],
)
def test_a_path_the_system_refuses_is_an_error_not_a_traceback(tmp_path: Path, argv: list[str]) -> None:
    import os

    game = new_game(tmp_path / "g", seed="edge", use_git=False)
    done = CliRunner().invoke(main, ["adjudicate", "spring-1924", "--force", "--no-commit", "--game", str(game.root)])
    assert done.exit_code == 0, done.output
    here = os.getcwd()
    os.chdir(game.root)
    try:
        result = CliRunner().invoke(main, argv)
    finally:
        os.chdir(here)
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: ") and "Traceback" not in result.output
    assert len(result.output.splitlines()[0]) < 200  # the path shortened for the terminal
    assert isinstance(result.exception, SystemExit)  # said and ended, nothing left uncaught


def test_a_status_sent_with_orders_tells_the_state_with_them(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    result = run_inbox(game, maildir(tmp_path / "box", [order_mail(TERRY, VALLEY_ORDERS + "status\n")]))
    assert re.search(r"^accepted\s+valley", result.output, re.M), result.output
    (reply,) = replies(game)
    text = reply.get_content()
    has = next(line for line in text.splitlines() if "Orders received from" in line)
    assert "Valley Gang" in has, text  # this message's own orders count
    waiting = next(line for line in text.splitlines() if "Orders awaited from" in line)
    assert "Valley Gang" not in waiting, text


def test_adjudicate_says_when_it_read_only_the_start_of_a_long_orders_file(tmp_path: Path) -> None:
    import yaml

    game = new_game(tmp_path / "g", seed="edge", use_git=False)
    lines = ["gang: valley", "H LOO - NSS", *(f"# filler {i}" for i in range(2000))]
    (game.orders_dir("spring-1924") / "valley.txt").write_text("\n".join(lines) + "\n")
    done = CliRunner().invoke(main, ["adjudicate", "spring-1924", "--force", "--no-commit", "--game", str(game.root)])
    assert done.exit_code == 0, done.output
    results = yaml.safe_load((game.turn_dir("spring-1924") / "results.yaml").read_text())
    said = [ln["message"] for ln in results["gangs"]["valley"]["lines"] if ln["status"] == "rejected"]
    assert said == ["the file has 2002 lines: only the first 1000 are read"]
    report = (game.turn_dir("spring-1924") / "reports" / "valley.txt").read_text()
    assert "only the first 1000 are read" in report


def test_an_idle_pass_over_a_kept_mailbox_reads_no_old_mail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mailbox

    game = inbox_game(tmp_path)
    box = mailbox.Maildir(str(tmp_path / "box"), create=True)
    for i in range(30):
        box.add(order_mail(TERRY, VALLEY_ORDERS, msgid=f"<kept-{i}@x>").as_bytes())
    first = run_inbox(game, tmp_path / "box")
    assert first.exit_code == 0, first.output
    read: list[str] = []
    real = mailbox.Maildir.get_bytes
    monkeypatch.setattr(mailbox.Maildir, "get_bytes", lambda self, key: read.append(key) or real(self, key))
    idle = run_inbox(game, tmp_path / "box")
    assert idle.exit_code == 0 and "30 messages already processed" in idle.output
    assert read == []  # nothing old was read
    box.add(order_mail(TERRY, VALLEY_ORDERS.replace("sell 4", "sell 3"), msgid="<new@x>").as_bytes())
    later = run_inbox(game, tmp_path / "box")
    assert len(set(read)) == 1 and re.search(r"^accepted\s+valley", later.output, re.M), later.output


def test_a_pass_sends_again_only_to_recipients_still_to_try(tmp_path: Path) -> None:
    """``pending``: a file is tried again only for a recipient not yet reached, not of
    unknown outcome (the server may have it), not refused for good, and not deferred
    to a later time."""
    from datetime import UTC, datetime, timedelta
    from email.message import EmailMessage

    from moonshine.mail import outbox

    game = new_game(tmp_path / "g", seed="edge", use_git=False)
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    states: dict[str, dict[str, object]] = {
        "delivered": {"delivered": ["a@x.example"]},
        "unknown": {"unknown": {"a@x.example": "the connection ended after the message was sent"}},
        "failed": {"failed": {"a@x.example": "550 no such user"}},
        "later": {
            "deferred": {"a@x.example": {"reason": "421", "tries": 1, "first": now, "next": now + timedelta(minutes=5)}}
        },
        "due": {
            "deferred": {"a@x.example": {"reason": "421", "tries": 1, "first": now, "next": now - timedelta(minutes=1)}}
        },
        "new": {},
    }
    items = []
    sent: dict[str, dict[str, object]] = {}
    for name, state in states.items():
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "ref@x.example", "a@x.example", name
        msg["Message-ID"] = f"<{name}@x.example>"
        msg.set_content(name)
        items.append(outbox.Outgoing(f"{name}.eml", msg))
        if state:
            sent[f"<{name}@x.example>"] = {"file": f"{name}.eml", **state}
    outbox.write_outbox(game, "spring-1924", items)
    save_sent(outbox_dir(game, "spring-1924"), sent)
    assert outbox.pending(outbox_dir(game, "spring-1924"), now) == ["due.eml", "new.eml"]
