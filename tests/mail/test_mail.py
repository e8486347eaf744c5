"""Mailing a turn's reports: the outbox as .eml files, and delivery through a
real SMTP server (aiosmtpd on 127.0.0.1) with retries and no double sending."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import frtypo
import pytest
import yaml
from mailkit import PLAYERS, TURN, outbox_game, read_eml, run, write_reports
from msgspec.structs import replace
from portkit import free_port
from smtpkit import REFEREE, Recorder, Server, start_server

from moonshine.errors import GameError, StateError
from moonshine.game.directory import Game, save_config
from moonshine.mail import outbox
from moonshine.mail.outbox import compose
from moonshine.mail.outbox.smtp import smtp_bytes
from moonshine.mail.settings import from_address, smtp_settings
from moonshine.render.mailwords import fmt_time

# -- the outbox (dry run) ---------------------------------------------------------------


def test_dry_run_writes_one_report_per_gang_with_players_and_one_bulletin(tmp_path: Path) -> None:
    game = outbox_game(tmp_path)
    reports = write_reports(game)
    result = run(game, "mail", TURN)
    assert result.exit_code == 0, result.output
    assert "nothing sent" in result.output
    assert "warning: northside: no address" in result.output
    outbox = game.root / "outbox" / TURN
    assert sorted(p.name for p in outbox.glob("*.eml")) == [
        "bulletin.eml",
        "report-genna.eml",
        "report-outfit.eml",
        "report-valley.eml",
    ]
    valley = read_eml(outbox / "report-valley.eml")
    assert [a.addr_spec for a in valley["To"].addresses] == ["frank@valley.example", "terry@valley.example"]
    assert str(valley["Subject"]).endswith("] Spring 1924: private report for Valley Gang")  # the turn in words
    # the text, or the page with the pictures it shows beside it (inline, each shown once)
    assert valley.get_content_type() == "multipart/alternative"
    plain, related = valley.get_payload()
    assert plain.get_content_type() == "text/plain" and related.get_content_type() == "multipart/related"
    page, *shown = related.get_payload()
    assert page.get_content_type() == "text/html"
    assert plain.get_content() == (reports / "valley.txt").read_text()
    assert "<b>valley</b>" in page.get_content()
    assert all(p.get_content_type() == "image/png" and p.get_content_disposition() == "inline" for p in shown)
    assert not list(valley.iter_attachments())  # nothing the mail program lists again at the end
    [picture] = [p for p in shown if p["Content-ID"] == "<map.png>"]
    assert picture.get_filename() == f"moonshine-{TURN}.png"
    mailed = page.get_content()
    assert 'src="cid:map.png"' in mailed and 'src="map.png"' not in mailed  # the mail shows the attached map
    assert 'src="map.png"' in (reports / "valley.html").read_text()  # the saved copy, the file beside it
    assert picture.get_content() == (reports / "map.png").read_bytes()

    bulletin = read_eml(outbox / "bulletin.eml")
    assert [a.addr_spec for a in bulletin["To"].addresses] == ["referee@moonshine.invalid"]  # no smtp.from yet
    bcc = sorted(a.addr_spec for a in bulletin["Bcc"].addresses)
    assert bcc == sorted(a for addrs in PLAYERS.values() for a in addrs)
    assert "Café ouvert" in bulletin.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]


def test_dry_runs_of_the_same_turn_write_the_same_bytes(tmp_path: Path) -> None:
    game = outbox_game(tmp_path)
    write_reports(game)
    assert run(game, "mail", TURN).exit_code == 0
    outbox = game.root / "outbox" / TURN
    first = {p.name: p.read_bytes() for p in outbox.glob("*.eml")}
    assert run(game, "mail", TURN).exit_code == 0
    assert {p.name: p.read_bytes() for p in outbox.glob("*.eml")} == first
    ids = {str(read_eml(outbox / n)["Message-ID"]).strip() for n in first}
    assert len(ids) == len(first)  # one Message-ID per message
    assert all(i.startswith("<moonshine.spring-1924.") and i.endswith("@moonshine.invalid>") for i in ids)


def test_missing_report_file_is_named_with_the_command_to_run(tmp_path: Path) -> None:
    game = outbox_game(tmp_path)
    reports = write_reports(game)
    (reports / "valley.html").unlink()
    result = run(game, "mail", TURN)
    assert result.exit_code == 1
    assert f"valley.html: missing; run 'moonshine report {TURN}' first" in result.output
    assert "Traceback" not in result.output
    (reports / "valley.html").write_text("<p>x</p>")
    (reports / "map.png").unlink()
    result = run(game, "mail", TURN)
    assert result.exit_code == 1 and "map.png: missing" in result.output


def test_unknown_turn_is_refused(tmp_path: Path) -> None:
    game = outbox_game(tmp_path)
    result = run(game, "mail", "summer-1924")
    assert result.exit_code == 1
    assert "not a turn name: 'summer-1924'" in result.output


# -- sending --------------------------------------------------------------------------


def test_send_delivers_each_report_to_its_gang_and_the_bulletin_to_all(tmp_path: Path, smtp: Server) -> None:
    game = outbox_game(tmp_path, smtp=smtp.smtp())
    reports = write_reports(game)
    result = run(game, "mail", TURN, "--send")
    assert result.exit_code == 0, result.output
    got = smtp.recorder
    assert len(got.received) == 4
    senders = {r[0] for r in got.received}
    assert senders == {"referee@moonshine.example"}
    valley = got.by_subject("Valley Gang")
    assert len(valley) == 1 and sorted(valley[0][1]) == ["frank@valley.example", "terry@valley.example"]
    outfit = got.by_subject("Chicago Outfit")
    assert outfit[0][1] == ["al@outfit.example"]
    bulletin = got.by_subject("bulletin")
    everyone = [a for addrs in PLAYERS.values() for a in addrs]
    assert sorted(bulletin[0][1]) == sorted([*everyone, "referee@moonshine.example"])  # the referee keeps a copy
    assert b"\nBcc:" not in bulletin[0][2] and b"frank@valley.example" not in bulletin[0][2]  # Bcc stays hidden
    msg = message_from_bytes(valley[0][2], policy=policy.default)
    assert isinstance(msg, EmailMessage)
    assert not list(msg.iter_attachments())  # the pictures are the page's, inline
    shown = [p for p in msg.walk() if p.get_content_disposition() == "inline"]
    [picture] = [p for p in shown if p["Content-ID"] == "<map.png>"]
    assert picture.get_content() == (reports / "map.png").read_bytes()
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None and body.get_content().replace("\r\n", "\n") == (reports / "valley.txt").read_text()
    sent = yaml.safe_load((game.root / "outbox" / TURN / "sent.yaml").read_text())
    assert {v["file"] for v in sent.values()} == {
        "bulletin.eml",
        "report-genna.eml",
        "report-outfit.eml",
        "report-valley.eml",
    }
    assert str(msg["Message-ID"]).strip() in sent


def test_a_batch_of_messages_goes_over_one_connection(tmp_path: Path, smtp: Server) -> None:
    game = outbox_game(tmp_path, smtp=smtp.smtp())
    write_reports(game)
    assert run(game, "mail", TURN, "--send").exit_code == 0
    assert len(smtp.recorder.received) == 4
    assert len(set(smtp.recorder.peers)) == 1, smtp.recorder.peers


def test_repeated_send_does_not_send_twice(tmp_path: Path, smtp: Server) -> None:
    game = outbox_game(tmp_path, smtp=smtp.smtp())
    write_reports(game)
    assert run(game, "mail", TURN, "--send").exit_code == 0
    assert len(smtp.recorder.received) == 4
    again = run(game, "mail", TURN, "--send")
    assert again.exit_code == 0, again.output
    assert len(smtp.recorder.received) == 4
    assert again.output.count("already sent") >= 4


def test_a_corrected_report_is_sent_again_an_unchanged_one_never(tmp_path: Path, smtp: Server) -> None:
    game = outbox_game(tmp_path, smtp=smtp.smtp())
    reports = write_reports(game)
    assert run(game, "mail", TURN, "--send").exit_code == 0
    assert len(smtp.recorder.received) == 4
    write_reports(game)  # the same reports written again: new dates, same content
    assert run(game, "mail", TURN, "--send").exit_code == 0
    assert len(smtp.recorder.received) == 4
    (reports / "valley.txt").write_text("Corrected report of valley.\n")
    dry = run(game, "mail", TURN)
    assert "report-valley.eml: " in dry.output
    assert "changed since an earlier version was sent" in dry.output
    result = run(game, "mail", TURN, "--send")
    assert result.exit_code == 0, result.output
    [(_, rcpts, content)] = smtp.recorder.received[4:]
    assert sorted(rcpts) == ["frank@valley.example", "terry@valley.example"]
    assert b"Corrected report of valley." in content


def test_transient_failure_is_retried_and_delivered_once(tmp_path: Path, smtp: Server) -> None:
    game = outbox_game(tmp_path, smtp=smtp.smtp())
    write_reports(game)
    smtp.recorder.fail_data = 1  # the first message gets 451 once
    result = run(game, "mail", TURN, "--send")
    assert result.exit_code == 0, result.output
    assert "FAILED" not in result.output
    assert len(smtp.recorder.received) == 4
    subjects = sorted(str(m["Subject"]) for m in smtp.recorder.messages())
    assert len(set(subjects)) == 4  # each message exactly once


def test_refused_recipient_is_named_and_later_sent_alone(tmp_path: Path, smtp: Server) -> None:
    game = outbox_game(tmp_path, smtp=smtp.smtp())
    write_reports(game)
    smtp.recorder.refuse["frank@valley.example"] = "550 5.1.1 No such user"
    result = run(game, "mail", TURN, "--send")
    assert result.exit_code == 1
    assert "report-valley.eml: FAILED for frank@valley.example: 550 5.1.1 No such user" in result.output
    assert "bulletin.eml: FAILED for frank@valley.example: 550 5.1.1 No such user" in result.output
    assert "2 recipients not reached" in result.output
    valley = smtp.recorder.by_subject("Valley Gang")
    assert [r[1] for r in valley] == [["terry@valley.example"]]
    count = len(smtp.recorder.received)
    smtp.recorder.refuse.clear()
    again = run(game, "mail", TURN, "--send")
    assert again.exit_code == 0, again.output
    new = smtp.recorder.received[count:]
    assert [r[1] for r in new] == [["frank@valley.example"]] * 2  # report and bulletin, to the one not reached
    assert sorted(str(m["Subject"]).rsplit(": ", 1)[1] for m in smtp.recorder.messages()[count:]) == [
        "bulletin",
        "private report for Valley Gang",
    ]


def test_gives_up_after_the_configured_attempts(tmp_path: Path, smtp: Server) -> None:
    game = outbox_game(tmp_path, smtp=smtp.smtp(attempts=2), players={"outfit": ["al@outfit.example"]})
    write_reports(game)
    smtp.recorder.fail_data = 100
    result = run(game, "mail", TURN, "--send")
    assert result.exit_code == 1
    assert "FAILED for al@outfit.example: 451 4.3.0 Temporary failure, try again (gave up after 2 attempts)" in (
        result.output
    )
    assert smtp.recorder.received == []
    assert smtp.recorder.fail_data == 100 - 4  # two messages, two attempts each


def test_unreachable_server_reports_each_recipient(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    smtp = {"host": "127.0.0.1", "port": port, "security": "none", "from": REFEREE, "attempts": 2, "retry_delay": 0}
    game = outbox_game(tmp_path, smtp=smtp, players={"outfit": ["al@outfit.example"]})
    write_reports(game)
    result = run(game, "mail", TURN, "--send")
    assert result.exit_code == 1
    assert f"FAILED for al@outfit.example: cannot reach 127.0.0.1:{port}" in result.output
    assert not (game.root / "outbox" / TURN / "sent.yaml").exists() or "al@outfit.example" not in yaml.safe_load(
        (game.root / "outbox" / TURN / "sent.yaml").read_text()
    ).get("delivered", [])


def test_login_uses_the_password_from_the_environment(tmp_path: Path) -> None:
    seen: list[tuple[str, str]] = []

    def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> Any:
        from aiosmtpd.smtp import AuthResult

        seen.append((auth_data.login.decode(), auth_data.password.decode()))
        return AuthResult(success=auth_data.password == b"s3cret", handled=False)

    srv = start_server(Recorder(), authenticator=authenticator, auth_require_tls=False)
    try:
        smtp = srv.smtp(user="referee", password_env="TEST_SMTP_PW")
        game = outbox_game(tmp_path, smtp=smtp, players={"outfit": ["al@outfit.example"]})
        write_reports(game)
        missing = run(game, "mail", TURN, "--send", env={"TEST_SMTP_PW": ""})
        assert missing.exit_code == 1
        assert "put it in the environment variable TEST_SMTP_PW" in missing.output
        wrong = run(game, "mail", TURN, "--send", env={"TEST_SMTP_PW": "guess"})
        assert wrong.exit_code == 1
        assert "the server refused the login as referee" in wrong.output
        good = run(game, "mail", TURN, "--send", env={"TEST_SMTP_PW": "s3cret"})
        assert good.exit_code == 0, good.output
        assert len(srv.recorder.received) == 2
        assert ("referee", "s3cret") in seen
    finally:
        srv.controller.stop()


# -- settings ---------------------------------------------------------------------


def test_smtp_password_in_the_game_file_is_refused(tmp_path: Path) -> None:
    game = outbox_game(tmp_path, smtp={"host": "h", "from": REFEREE, "password": "x"})
    with pytest.raises(StateError, match=r"smtp.password: the password is never kept in the game file"):
        smtp_settings(game.config)


@pytest.mark.parametrize(
    ("smtp", "message"),
    [
        ({"from": REFEREE}, "smtp.host: missing"),
        ({"host": "h", "from": REFEREE, "security": "ssl"}, "smtp.security: expected one of starttls, tls, none"),
        ({"host": "h", "from": REFEREE, "port": "x"}, "smtp.port: expected a port number, found 'x'"),
        ({"host": "h"}, "smtp.from: missing"),
        ({"host": "h", "from": "not an address"}, "smtp.from: expected an address"),
        ({"host": "h", "from": REFEREE, "attempts": 0}, "smtp.attempts: expected a number of at least 1"),
    ],
)
def test_bad_smtp_settings_name_the_key(tmp_path: Path, smtp: dict[str, Any], message: str) -> None:
    game = outbox_game(tmp_path, smtp=smtp)
    with pytest.raises(StateError, match=message.replace(".", r"\.")):
        smtp_settings(game.config)


def test_send_without_smtp_section_says_what_to_add(tmp_path: Path) -> None:
    game = outbox_game(tmp_path)
    write_reports(game)
    result = run(game, "mail", TURN, "--send")
    assert result.exit_code == 1
    assert "no smtp section in game.yaml" in result.output
    with pytest.raises(GameError):
        smtp_settings(game.config)


def test_default_ports_follow_security(tmp_path: Path) -> None:
    for security, port in (("starttls", 587), ("tls", 465), ("none", 25)):
        game = outbox_game(tmp_path / security, smtp={"host": "h", "from": REFEREE, "security": security})
        assert smtp_settings(game.config).port == port


# -- a French game ----------------------------------------------------------------


def test_report_subjects_follow_the_game_language(tmp_path: Path) -> None:
    game = outbox_game(tmp_path)
    save_config(game, replace(game.config, language="fr"))
    write_reports(game)
    result = run(game, "mail", TURN)
    assert result.exit_code == 0, result.output
    outbox = game.root / "outbox" / TURN
    title = game.config.title
    valley = read_eml(outbox / "report-valley.eml")
    assert valley["Subject"] == frtypo.fr(f"[{title}] printemps 1924 : rapport privé de Valley Gang")
    assert read_eml(outbox / "bulletin.eml")["Subject"] == frtypo.fr(f"[{title}] printemps 1924 : bulletin public")
    autumn = write_reports(game, "autumn-1924")
    assert autumn.is_dir()
    assert run(game, "mail", "autumn-1924").exit_code == 0
    bulletin = read_eml(game.root / "outbox" / "autumn-1924" / "bulletin.eml")
    assert bulletin["Subject"] == frtypo.fr(f"[{title}] automne 1924 : bulletin public")


def test_the_mail_catalogue_is_complete_in_every_language() -> None:
    """Every mail sentence is written in every language with the fields the English
    has (tests/text/test_catalogue.py checks each translation's fields)."""
    import string

    from moonshine.render.mailwords import MESSAGES, text
    from moonshine.text.catalogue import languages

    for key, entry in MESSAGES.items():
        forms = entry if isinstance(entry, tuple) else (entry,)
        names = {name for form in forms for _, name, _, _ in string.Formatter().parse(form) if name}
        for lang in languages():
            for n in (0, 1, 2):
                assert text(lang, key, **{**{name: "x" for name in names}, "n": n}).strip(), (key, lang)


@pytest.mark.parametrize(
    ("when", "en", "fr"),
    [
        (datetime(2024, 3, 1, 18, 0, tzinfo=UTC), "2024-03-01 18:00 UTC", "1er mars 2024 à 18 h 00 UTC"),
        (datetime(2024, 8, 2, 9, 5, tzinfo=UTC), "2024-08-02 09:05 UTC", "2 août 2024 à 9 h 05 UTC"),
        (
            datetime(2024, 12, 31, 23, 30, tzinfo=timezone(timedelta(hours=-5))),
            "2025-01-01 04:30 UTC",
            "1er janvier 2025 à 4 h 30 UTC",
        ),
    ],
)
def test_times_read_naturally_in_both_languages(when: datetime, en: str, fr: str) -> None:
    assert fmt_time(when) == en
    assert fmt_time(when, "fr") == fr


def test_the_game_master_gets_a_copy_of_the_bulletin(tmp_path: Path) -> None:
    from msgspec.structs import replace as with_

    from moonshine.game.directory import save_config

    game = outbox_game(tmp_path)
    save_config(game, with_(game.config, extra={**game.config.extra, "referee": {"email": "gm@example.org"}}))
    write_reports(Game(game.root))
    assert run(Game(game.root), "mail", TURN).exit_code == 0
    bulletin = read_eml(game.root / "outbox" / TURN / "bulletin.eml")
    bcc = sorted(a.addr_spec for a in bulletin["Bcc"].addresses)
    assert "gm@example.org" in bcc
    assert set(bcc) - {"gm@example.org"} == {a for addrs in PLAYERS.values() for a in addrs}
    report = read_eml(game.root / "outbox" / TURN / "report-valley.eml")  # never a gang's report
    assert "gm@example.org" not in str(report["To"]) + str(report.get("Bcc", ""))


def test_a_long_subject_in_french_reads_as_written_once_sent() -> None:
    """A subject with words to encode (the no-break space of French typography, the
    accents) is written on one line, not folded: Python's folding of such a header
    puts a space the player sees twice ("ordres  reçus") on the Pythons of CPython's
    gh-144156, and some providers refuse the folded header."""
    from datetime import UTC, datetime

    subject = "[Moonshine: Chicago, 1924] printemps 1924\u00a0: ordres reçus pour la bande de la vallée"
    msg = compose.text_message(
        sender="Referee <referee@example.org>",
        to=["terry@example.org"],
        subject=subject,
        body="Bonjour.\n",
        msg_id="<a@example.org>",
        date=datetime(2024, 3, 1, tzinfo=UTC),
    )
    for raw in (outbox.serialise(msg).encode(), smtp_bytes(msg)):  # the outbox's file, the SMTP data
        lines = raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0].split(b"\n")
        at = next(i for i, line in enumerate(lines) if line.startswith(b"Subject:"))
        assert not lines[at + 1].startswith((b" ", b"\t")), lines[at : at + 2]  # one line
        assert str(message_from_bytes(raw, policy=policy.default)["Subject"]) == subject


def test_the_referee_is_named_after_the_game_until_smtp_from_names_it() -> None:
    """A classic game's mail comes from the "Diplomacy referee", not Moonshine's."""
    from moonshine.game.directory import GameConfig

    classic = GameConfig(title="Europe 1901", map="standard", variant="classic")
    assert from_address(classic) == "Diplomacy referee <referee@moonshine.invalid>"
    moonshine_game = GameConfig(title="Chicago", map="chicago-1920s")
    assert from_address(moonshine_game) == "Moonshine referee <referee@moonshine.invalid>"
    named = GameConfig(
        title="Europe 1901", map="standard", variant="classic", extra={"smtp": {"from": "GM <gm@x.org>"}}
    )
    assert from_address(named) == "GM <gm@x.org>"
