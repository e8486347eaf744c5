"""The mailboxes operators have: Outlook.com and Microsoft 365 take OAuth2 access
tokens only (XOAUTH2), for IMAP and SMTP alike. The judge gets its token from a
command the operator names (``token_command:``), keeps it in memory for the pass,
and asks for a new one once when a server refuses it. Tested against real servers
on 127.0.0.1 that take nothing else: pymap with pysasl's XOAUTH2 as its one login
(``tests/kit/pymap_xoauth2.py``), and aiosmtpd with an XOAUTH2 mechanism of the
handler's own (``smtpkit.TokenRecorder``) that answers a refused token as Gmail and
Outlook do (a JSON challenge, then 535): the root conftest's ``imap_xoauth2`` and
``smtp_xoauth2``. The token helpers are little scripts that print a token, and another after
the first has "expired"."""

from __future__ import annotations

import re
import ssl
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from imapkit import PASSWORD, USER, Server, certificate, count, deliver, post, take_tokens
from judgekit import JUDGE, Judge, addr, one
from mailkit import TURN, write_reports
from mailkit import outbox_game as mail_game
from repokit import ROOT
from runkit import address, letter, plain, run_here, to, unattended_game
from smtpkit import ACCOUNT, REFEREE, TokenRecorder, start_server, token_recorder
from smtpkit import Server as SmtpServer

from moonshine.cli import main
from moonshine.errors import GameError, StateError
from moonshine.game.directory import Game, load_config_text, save_config
from moonshine.host import settings as host_settings
from moonshine.mail import oauth
from moonshine.mail.imap import ImapAddress, ImapMailbox
from moonshine.mail.settings import check_logins, imap_box, smtp_settings

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
# aiosmtpd warns of a login required without TLS: these servers listen on 127.0.0.1 only
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")


# -- token helpers: little scripts that print a token --------------------------------------


def helper(directory: Path, name: str, *tokens: str) -> Path:
    """A token helper that prints ``tokens[n]`` at its n-th run (the last one ever
    after), then a second line that is not read; ``runs`` counts its runs."""
    return script(
        directory,
        name,
        f"tokens = {list(tokens)!r}\nprint(tokens[min(n, len(tokens) - 1)])\nprint('second line, never read')\n",
    )


def script(directory: Path, name: str, body: str) -> Path:
    path = directory / name
    count = path.with_suffix(".runs")
    path.write_text(
        f"#!{sys.executable}\nimport pathlib, sys, time\n"
        f"count = pathlib.Path({str(count)!r})\n"
        "n = int(count.read_text()) if count.exists() else 0\n"
        "count.write_text(str(n + 1))\n" + body,
        encoding="utf-8",
    )
    path.chmod(0o755)
    return path


def runs(helper: Path) -> int:
    count = helper.with_suffix(".runs")
    return int(count.read_text()) if count.exists() else 0


def command(path: Path, *args: str, timeout: float = 10) -> oauth.TokenCommand:
    return oauth.TokenCommand((str(path), *args), "inbox.imap.token_command", timeout)


# -- settings ------------------------------------------------------------------------------


def smtp_section(**more: Any) -> dict[str, Any]:
    return {"host": "smtp.example.org", "from": REFEREE, **more}


@pytest.mark.parametrize(
    ("smtp", "message"),
    [
        (smtp_section(auth="oauth"), "smtp.auth: expected one of password, xoauth2, found 'oauth'"),
        (smtp_section(auth="xoauth2", user="u@x.example"), "smtp.token_command: missing: with auth: xoauth2"),
        (smtp_section(auth="xoauth2", token_command="helper"), "smtp.user: missing: with auth: xoauth2"),
        (
            smtp_section(auth="xoauth2", user="u", token_command="helper", password_env="PW"),
            "smtp.password_env: not read with auth: xoauth2: the access token comes from token_command",
        ),
        (smtp_section(user="u", token_command="helper"), "smtp.token_command: read only with auth: xoauth2"),
        (
            smtp_section(auth="xoauth2", user="u", token_command="helper --name 'judge"),
            "smtp.token_command: cannot split the command into words (No closing quotation)",
        ),
        (smtp_section(auth="xoauth2", user="u", token_command="bin/helper"), "bin/helper: give the program's full"),
        (smtp_section(auth="xoauth2", user="u", token_command=42), "smtp.token_command: expected a command line"),
        (smtp_section(auth="xoauth2", user="u", token_command=" "), "smtp.token_command: empty"),
        (smtp_section(ca_file="my-ca.pem"), "smtp.ca_file: my-ca.pem: give the file's full path"),
        (smtp_section(ca_file="/nowhere/my-ca.pem"), "smtp.ca_file: no such file: /nowhere/my-ca.pem"),
    ],
)
def test_bad_smtp_login_settings_are_named(tmp_path: Path, smtp: dict[str, Any], message: str) -> None:
    game = mail_game(tmp_path, smtp=smtp)
    with pytest.raises(StateError, match=re.escape(message)) as err:
        smtp_settings(game.config)
    assert str(err.value).startswith("game.yaml: ")


@pytest.mark.parametrize(
    ("imap", "message"),
    [
        ({"auth": "xoauth2"}, "inbox.imap.token_command: missing: with auth: xoauth2"),
        (
            {"auth": "xoauth2", "token_command": "helper", "password_file": "secret"},
            "inbox.imap.password_file: not read with auth: xoauth2",
        ),
        ({"token_command": "helper"}, "inbox.imap.token_command: read only with auth: xoauth2"),
        ({"auth": "bearer"}, "inbox.imap.auth: expected one of password, xoauth2, found 'bearer'"),
    ],
)
def test_bad_imap_login_settings_are_named(tmp_path: Path, imap: dict[str, Any], message: str) -> None:
    game = mail_game(tmp_path)
    cfg = game.config
    cfg.extra["inbox"] = {"imap": imap}
    with pytest.raises(StateError, match=re.escape(message)):
        imap_box(cfg, game.root, "imaps://judge@mail.example.org/INBOX")


def test_xoauth2_settings_need_no_password(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MOONSHINE_IMAP_PASSWORD", raising=False)
    monkeypatch.delenv("MOONSHINE_SMTP_PASSWORD", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    smtp = smtp_section(auth="XOAuth2", user=ACCOUNT, token_command="oauth2-helper --account 'the judge'")
    game = mail_game(tmp_path, smtp=smtp)
    settings = smtp_settings(game.config)
    assert settings.auth == "xoauth2" and settings.password() is None
    assert settings.token_command is not None
    assert settings.token_command.argv == ("oauth2-helper", "--account", "the judge")
    cfg = game.config
    cfg.extra["inbox"] = {"imap": {"auth": "xoauth2", "token_command": ["~/bin/helper", "--imap"], "timeout": 9}}
    box = imap_box(cfg, game.root, "imaps://judge%40outlook.com@outlook.office365.com/INBOX")
    assert box.address.user == "judge@outlook.com"
    parsed = oauth.parse_command(["~/bin/helper", "~nosuchuser-moonshine"], file="f", key="k", timeout=1)
    assert parsed.argv == (str(tmp_path / "bin" / "helper"), "~nosuchuser-moonshine")
    # the game file's strict shape knows the keys
    text = (game.root / "game.yaml").read_text(encoding="utf-8")
    assert load_config_text(text, "game.yaml").extra["smtp"]["auth"] == "XOAuth2"


def test_a_judges_bad_login_settings_name_judge_yaml(tmp_path: Path) -> None:
    root = tmp_path / "judge"
    host_settings.init(root, address="judge@example.org")
    raw = yaml.safe_load((root / "judge.yaml").read_text(encoding="utf-8"))
    assert "# token_command: oauth2-helper" in (root / "judge.yaml").read_text(encoding="utf-8")
    raw["inbox"]["imap"] = {"auth": "xoauth2", "token_command": "oauth2-helper", "password_env": "X"}
    (root / "judge.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(StateError) as err:
        host_settings.load(root)
    assert str(err.value).startswith(f"{root / 'judge.yaml'}: inbox.imap.password_env: not read with auth: xoauth2")
    raw["inbox"]["imap"] = {"auth": "xoauth2", "token_command": "oauth2-helper"}
    raw["smtp"].update(auth="xoauth2", token_command="oauth2-helper")
    raw["smtp"].pop("password_env")
    (root / "judge.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(StateError, match=r"judge.yaml: smtp.user: missing"):
        host_settings.load(root)
    raw["smtp"]["user"] = "judge@example.org"
    (root / "judge.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    assert host_settings.load(root).config.extra["smtp"]["auth"] == "xoauth2"


# -- the token command ---------------------------------------------------------------------


def test_the_first_line_is_the_token_run_without_a_shell_and_kept_for_the_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    echo = script(tmp_path, "echo-args", "print(sys.argv[1] + str(n))\n")
    cmd = command(echo, "$HOME;rm*")
    assert oauth.token(cmd) == "$HOME;rm*0"  # the words as written: no shell expanded them
    assert oauth.token(cmd) == "$HOME;rm*0" and runs(echo) == 1  # kept
    assert oauth.token(cmd, again=True) == "$HOME;rm*1" and runs(echo) == 2  # refused: asked again
    assert oauth.token(cmd) == "$HOME;rm*1" and runs(echo) == 2
    monkeypatch.setattr(oauth, "REUSE", 0.0)  # a later pass (of --watch) asks again
    assert oauth.token(cmd) == "$HOME;rm*2" and runs(echo) == 3
    assert not list(tmp_path.glob("*token*"))  # kept nowhere on disk


LEAKED = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL291dGxvb2suY29tIn0.Xy12ab"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (
            f"print('refresh failed for {LEAKED}', file=sys.stderr)\nsys.exit(3)\n",
            "inbox.imap.token_command: '{path}' failed (exit status 3): refresh failed for ********",
        ),
        ("time.sleep(5)\n", "'{path}' did not finish in 0.5 seconds"),
        ("print()\n", "'{path}' printed no token (the first line of its output is the token)"),
        (f"print('Bearer {LEAKED}')\n", "the first line '{path}' printed is not an access token"),
    ],
)
def test_a_token_command_that_fails_is_a_clear_error_without_the_token(tmp_path: Path, body: str, words: str) -> None:
    path = script(tmp_path, "broken", body)
    with pytest.raises(GameError) as err:
        oauth.token(command(path, timeout=0.5))
    assert words.format(path=path) in str(err.value)
    assert LEAKED not in str(err.value) and "eyJ" not in str(err.value)


def test_a_missing_program_is_named(tmp_path: Path) -> None:
    with pytest.raises(GameError, match=r"no program '.*nowhere' \(give its full path, or put it on PATH\)"):
        oauth.token(command(tmp_path / "nowhere"))


# -- IMAP: pymap taking access tokens only -------------------------------------------------


def _address(imap: Server, folder: str) -> ImapAddress:
    return ImapAddress.parse(f"imap://{USER}@127.0.0.1:{imap.port}/{folder}")


def test_the_judge_reads_its_mailbox_with_an_access_token(tmp_path: Path, imap_xoauth2: Server) -> None:
    deliver(imap_xoauth2, "Tokens1", "H LOO - NSS", "L BRO H")
    take_tokens(imap_xoauth2, "imap-token-1")
    token = helper(tmp_path, "helper", "imap-token-1")
    with ImapMailbox(_address(imap_xoauth2, "Tokens1"), command(token), ca_file=imap_xoauth2.ca) as box:
        got = list(box.messages())
        assert [m.raw.strip().splitlines()[-1] for m in got] == [b"H LOO - NSS", b"L BRO H"]
        box.mark_done(got[0].uid)
    with ImapMailbox(_address(imap_xoauth2, "Tokens1"), command(token), ca_file=imap_xoauth2.ca) as box:
        assert len(box.pending()) == 1
    assert runs(token) == 1  # one token for the pass's connections
    # the server takes no password
    with pytest.raises(GameError, match="refused the user name or the password"):
        ImapMailbox(_address(imap_xoauth2, "Tokens1"), PASSWORD, ca_file=imap_xoauth2.ca).open()


def test_an_expired_token_is_asked_for_again_once(tmp_path: Path, imap_xoauth2: Server) -> None:
    deliver(imap_xoauth2, "Tokens2", "H LOO hold")
    token = helper(tmp_path, "helper", "imap-expired", "imap-fresh")
    take_tokens(imap_xoauth2, "imap-fresh")  # the first has expired
    with ImapMailbox(_address(imap_xoauth2, "Tokens2"), command(token), ca_file=imap_xoauth2.ca) as box:
        assert len(list(box.messages())) == 1
    assert runs(token) == 2
    with ImapMailbox(_address(imap_xoauth2, "Tokens2"), command(token), ca_file=imap_xoauth2.ca) as box:
        assert len(box.pending()) == 1
    assert runs(token) == 2  # the fresh one is kept


def test_a_refused_token_is_a_clear_error_and_nothing_is_lost(tmp_path: Path, imap_xoauth2: Server) -> None:
    deliver(imap_xoauth2, "Tokens3", "H LOO hold", "L KEN H")
    take_tokens(imap_xoauth2, "imap-good")
    token = helper(tmp_path, "helper", "imap-wrong-1", "imap-wrong-2")
    with pytest.raises(GameError) as err:
        ImapMailbox(_address(imap_xoauth2, "Tokens3"), command(token), ca_file=imap_xoauth2.ca).open()
    text = str(err.value)
    assert f"the server refused the XOAUTH2 login as {USER} with the access token of inbox.imap.token_command" in text
    assert "and again with a new one" in text and "imap-wrong" not in text
    assert runs(token) == 2  # asked again once, never more
    same = helper(tmp_path, "same", "imap-same")
    with pytest.raises(GameError, match="the command gave the same token when run again"):
        ImapMailbox(_address(imap_xoauth2, "Tokens3"), command(same), ca_file=imap_xoauth2.ca).open()
    assert count(imap_xoauth2, "Tokens3") == 2  # nothing read, nothing moved
    take_tokens(imap_xoauth2, "imap-wrong-2")  # the operator mends the account
    oauth.forget()  # (the next pass: a new process)
    with ImapMailbox(_address(imap_xoauth2, "Tokens3"), command(token), ca_file=imap_xoauth2.ca) as box:
        assert len(list(box.messages())) == 2


def test_tls_from_the_first_byte_with_a_token(tmp_path: Path, imap_xoauth2: Server) -> None:
    deliver(imap_xoauth2, "Tokens4", "H LOO hold")
    take_tokens(imap_xoauth2, "imap-tls")
    address = ImapAddress.parse(f"imaps://{USER}@127.0.0.1:{imap_xoauth2.tls_port}/Tokens4")
    with ImapMailbox(address, command(helper(tmp_path, "helper", "imap-tls")), ca_file=imap_xoauth2.ca) as box:
        assert len(box.pending()) == 1


# -- SMTP: aiosmtpd taking access tokens only ----------------------------------------------


def _send(game: Game) -> Any:
    return CliRunner().invoke(main, ["mail", TURN, "--send", "--game", str(game.root)])


def test_reports_are_sent_with_an_access_token(tmp_path: Path, smtp_xoauth2: SmtpServer) -> None:
    rec = token_recorder(smtp_xoauth2)
    rec.tokens = {"smtp-token"}
    token = helper(tmp_path, "helper", "smtp-token")
    settings = smtp_xoauth2.smtp(auth="xoauth2", user=ACCOUNT, token_command=str(token))
    game = mail_game(tmp_path, smtp=settings, players={"outfit": ["al@outfit.example"]})
    write_reports(game)
    done = _send(game)
    assert done.exit_code == 0, done.output
    assert len(rec.received) == 2 and rec.tried == ["smtp-token"] and runs(token) == 1


def test_an_expired_smtp_token_is_asked_for_again_once(tmp_path: Path, smtp_xoauth2: SmtpServer) -> None:
    rec = token_recorder(smtp_xoauth2)
    rec.tokens = {"smtp-fresh"}
    token = helper(tmp_path, "helper", "smtp-expired", "smtp-fresh")
    settings = smtp_xoauth2.smtp(auth="xoauth2", user=ACCOUNT, token_command=str(token))
    game = mail_game(tmp_path, smtp=settings, players={"outfit": ["al@outfit.example"]})
    write_reports(game)
    done = _send(game)
    assert done.exit_code == 0, done.output
    assert rec.tried == ["smtp-expired", "smtp-fresh"] and runs(token) == 2
    assert len(rec.received) == 2


def test_a_refused_smtp_token_is_a_clear_error_and_nothing_is_lost(tmp_path: Path, smtp_xoauth2: SmtpServer) -> None:
    rec = token_recorder(smtp_xoauth2)
    rec.tokens = {"smtp-good"}
    token = helper(tmp_path, "helper", "smtp-wrong-1", "smtp-wrong-2")
    settings = smtp_xoauth2.smtp(auth="xoauth2", user=ACCOUNT, token_command=str(token))
    game = mail_game(tmp_path, smtp=settings, players={"outfit": ["al@outfit.example"]})
    write_reports(game)
    done = _send(game)
    assert done.exit_code == 1
    assert (
        f"not sent: the server refused the XOAUTH2 login as {ACCOUNT} with the access token of smtp.token_command, "
        "and again with a new one: 535 5.7.8 Username and Password not accepted"
    ) in done.output
    assert "smtp-wrong" not in done.output
    assert rec.tried == ["smtp-wrong-1", "smtp-wrong-2"] and rec.received == []
    sent = game.root / "outbox" / TURN / "sent.yaml"
    assert not sent.exists() or "delivered" not in sent.read_text(encoding="utf-8")
    rec.tokens = {"smtp-wrong-2"}  # the operator mends the account
    oauth.forget()  # (the next pass: a new process)
    done = _send(game)
    assert done.exit_code == 0, done.output
    assert len(rec.received) == 2  # each message once


def test_starttls_to_a_server_with_a_certificate_of_its_own(tmp_path: Path) -> None:
    """A self-hosted Postfix with a certificate of the operator's own: ``smtp.ca_file``
    names its authority; without it, the certificate is not trusted and nothing goes."""
    cert, key = certificate(tmp_path, "smtp")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(cert), str(key))
    srv = start_server(
        TokenRecorder(tokens={"tls-token"}),
        tls_context=context,
        require_starttls=True,
        auth_required=True,
        auth_exclude_mechanism=["PLAIN", "LOGIN"],
    )
    try:
        token = helper(tmp_path, "helper", "tls-token")
        settings = srv.smtp(security="starttls", auth="xoauth2", user=ACCOUNT, token_command=str(token), attempts=1)
        game = mail_game(tmp_path, smtp=settings, players={"outfit": ["al@outfit.example"]})
        write_reports(game)
        untrusted = _send(game)
        assert untrusted.exit_code == 1 and "CERTIFICATE_VERIFY_FAILED" in untrusted.output
        assert srv.recorder.received == []
        cfg = game.config
        cfg.extra["smtp"]["ca_file"] = str(cert)
        save_config(game, cfg)
        done = _send(game)
        assert done.exit_code == 0, done.output
        assert len(srv.recorder.received) == 2 and token_recorder(srv).tried == ["tls-token"]
    finally:
        srv.controller.stop()


def test_a_takeovers_password_is_shown_when_the_token_is_refused(tmp_path: Path, smtp_xoauth2: SmtpServer) -> None:
    """The password mailed at once (a message kept nowhere): when the server refuses
    the token, the game master is told why and shown the password to pass on."""
    rec = token_recorder(smtp_xoauth2)
    rec.tokens = {"takeover-good"}
    token = helper(tmp_path, "helper", "takeover-wrong")
    settings = smtp_xoauth2.smtp(auth="xoauth2", user=ACCOUNT, token_command=str(token))
    game = mail_game(tmp_path, smtp=settings, players={"outfit": ["al@outfit.example"]})
    done = CliRunner().invoke(main, ["takeover", "valley", "--email", "new@valley.example", "--game", str(game.root)])
    assert done.exit_code == 0, done.output
    assert "warning: the password could not be mailed: not sent: the server refused the XOAUTH2 login" in done.output
    assert "and the command gave the same token when run again" in done.output
    assert "New password for" in done.output and "takeover-wrong" not in done.output
    assert rec.received == []


# -- the whole judge -------------------------------------------------------------------------


def test_a_game_judged_unattended_with_tokens_for_both_servers(
    tmp_path: Path, imap_xoauth2: Server, smtp_xoauth2: SmtpServer
) -> None:
    """One helper for both servers, as Microsoft's tokens serve IMAP and SMTP alike:
    the pass asks it once."""
    rec = token_recorder(smtp_xoauth2)
    take_tokens(imap_xoauth2, "both-token")
    rec.tokens = {"both-token"}
    token = helper(tmp_path, "helper", "both-token")
    settings = smtp_xoauth2.smtp(auth="xoauth2", user=ACCOUNT, token_command=str(token))
    game = unattended_game(
        tmp_path / "g",
        imap_xoauth2,
        settings,
        players={"valley": None},
        schedule={"timezone": "UTC", "every": "48h"},
        folder="both",
        git=False,
    )
    cfg = game.config
    cfg.extra["inbox"]["imap"].update(auth="xoauth2", token_command=[str(token)])
    save_config(game, cfg)
    post(imap_xoauth2, "both")
    run_here(game, START)
    post(imap_xoauth2, "both", letter("valley", "H LOO hold\n", START, "<v1@players.example.org>"))
    out = run_here(game, START + timedelta(minutes=1))
    assert "accepted" in out
    (ack,) = to(rec, address("valley"), "Re: orders")
    assert "LOO" in plain(ack)
    assert count(imap_xoauth2, "both") == 0 and count(imap_xoauth2, "both-judged") == 1
    assert rec.tried == ["both-token"] * len(rec.tried) and runs(token) == 1


def test_a_judge_for_many_games_with_tokens(tmp_path: Path, imap_xoauth2: Server, smtp_xoauth2: SmtpServer) -> None:
    """A judge whose mailbox and SMTP server take access tokens only: a player
    registers and gets the judge's reply and a password (sent at once); the master
    creates a game, which gets the judge's SMTP settings, its token command too."""
    rec = token_recorder(smtp_xoauth2)
    take_tokens(imap_xoauth2, "judge-token")
    rec.tokens = {"judge-token"}
    token = helper(tmp_path, "helper", "judge-token")
    j = Judge(tmp_path / "judge", imap_xoauth2, smtp_xoauth2)
    raw = yaml.safe_load((j.root / "judge.yaml").read_text(encoding="utf-8"))
    raw["inbox"]["imap"].update(auth="xoauth2", token_command=str(token))
    raw["smtp"].update(auth="xoauth2", user=ACCOUNT, token_command=str(token), **{"from": f"Judge <{JUDGE}>"})
    (j.root / "judge.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    j.send(addr(0), "register The Master, Europe/Paris\n", START)
    j.run(START + timedelta(minutes=1))
    mail = j.new_mail()
    assert "You are registered as The Master" in one(mail, addr(0), "Your mail to the judge")
    found = re.search(r"for all your games: (\S+)", one(mail, addr(0), "Your password"))
    assert found is not None
    j.send(addr(0), f"password: {found.group(1)}\ncreate alpha classic\nevery: 48h\n", START + timedelta(hours=1))
    j.run(START + timedelta(hours=1, minutes=1))
    assert "alpha is created" in one(j.new_mail(), addr(0))
    game_smtp = Game(j.root / "games" / "alpha").config.extra["smtp"]
    assert (game_smtp["auth"], game_smtp["token_command"]) == ("xoauth2", str(token))
    assert rec.tried and set(rec.tried) == {"judge-token"} and runs(token) == 1


# -- the guide's recipes ---------------------------------------------------------------------


def test_the_guides_recipes_are_settings_the_judge_takes(tmp_path: Path) -> None:
    """Each mail section of docs/game-master.md's recipes (part 1 H) is read as
    game.yaml's and checked as the judge checks it."""
    guide = (ROOT / "docs" / "game-master.md").read_text(encoding="utf-8")
    part = guide[guide.index("## H. Mail providers") : guide.index("# Part 2")]
    blocks = re.findall(r"\n\n((?:    inbox:\n)(?:    .*\n|\n(?=    ))+)", part)
    assert len(blocks) == 4
    for block in blocks:
        text = "map: chicago-1920s\n" + "\n".join(line[4:] for line in block.splitlines()) + "\n"
        cfg = load_config_text(text, "game.yaml")
        check_logins(cfg, file="game.yaml")
        if "ca_file" not in text:
            settings = smtp_settings(cfg)
            assert settings.host.startswith("smtp.")
        # one account for both servers: the address's @ written %40 in the mailbox's
        assert ImapAddress.parse(cfg.extra["inbox"]["source"]).user == cfg.extra["smtp"]["user"]
