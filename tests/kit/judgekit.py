"""A judge for many games run by its tests as its operator runs it: ``moonshine
judge init`` and ``moonshine run DIR`` while a fake clock moves, its one mailbox on
a real IMAP server (pymap, ``imapkit``) and its mail through a real SMTP server
(aiosmtpd, ``smtpkit``), both on 127.0.0.1; players who mail it; and what a player
can read of the mail it sends."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import yaml
from imapkit import PASSWORD, USER, Server, post
from runkit import plain, received
from smtpkit import Server as SmtpServer

from moonshine.host.registry import Registry

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # a Monday
JUDGE = "judge@judge.example.org"
FOLDER = "judge"

Mail = list[tuple[list[str], EmailMessage]]


def addr(n: int | str) -> str:
    return f"p{n}@players.example.org"


class Judge:
    """The judge's directory, its mailbox and the mail its players got."""

    def __init__(
        self,
        root: Path,
        imap: Server,
        smtp: SmtpServer,
        *,
        masters: tuple[str, ...] = (addr(0),),
        folder: str = FOLDER,
    ) -> None:
        from click.testing import CliRunner

        from moonshine.cli import main

        self.root, self.imap, self.smtp, self.folder = root, imap, smtp, folder
        self.n = 0
        self.seen = len(received(smtp.recorder))  # messages of the recorder already looked at
        args = ["judge", "init", str(root), "--address", JUDGE, "--timezone", "Europe/Paris"]
        for master in masters:
            args += ["--master", master]
        done = CliRunner().invoke(main, args)
        assert done.exit_code == 0, done.output
        assert "Seed hash (publish it):" in done.output
        raw = yaml.safe_load((root / "judge.yaml").read_text(encoding="utf-8"))
        raw["inbox"] = {
            "source": f"imap://{USER}@127.0.0.1:{imap.port}/{folder}",
            "imap": {"ca_file": str(imap.ca), "done_folder": f"{folder}-judged"},
        }
        raw["smtp"] = smtp.smtp(**{"from": f"The judge <{JUDGE}>"})
        (root / "judge.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
        self.passwords: dict[str, str] = {}
        self.kept: dict[str, EmailMessage] = {}  # mails a test keeps, by recipient (to reply to them)
        post(imap, folder)

    def copy(self, root: Path, folder: str) -> Judge:
        """Another judge, a copy of this one's directory in ``root`` (its players, games
        and passwords) reading its own ``folder`` of the same IMAP server."""
        import shutil

        shutil.copytree(self.root, root, symlinks=True)
        other = Judge.__new__(Judge)
        other.root, other.imap, other.smtp, other.folder = root, self.imap, self.smtp, folder
        other.n = self.n + 1000 * len(folder)  # Message-IDs of its own
        other.seen = len(received(self.smtp.recorder))
        other.passwords = dict(self.passwords)
        other.kept = dict(self.kept)
        raw = yaml.safe_load((root / "judge.yaml").read_text(encoding="utf-8"))
        raw["inbox"]["source"] = f"imap://{USER}@127.0.0.1:{self.imap.port}/{folder}"
        raw["inbox"]["imap"]["done_folder"] = f"{folder}-judged"
        (root / "judge.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
        post(self.imap, folder)
        return other

    def send(
        self,
        who: str,
        body: str,
        at: datetime,
        subject: str = "judge",
        headers: dict[str, str] | None = None,
        *,
        replying: EmailMessage | None = None,
    ) -> str:
        """A player's mail, received by the judge's mail server at ``at``; returns its
        Message-ID. ``headers``: more, above the others (the server's own, such as
        Authentication-Results). ``replying``: a mail of the judge it answers
        (In-Reply-To, References)."""
        self.n += 1
        msg = EmailMessage()
        for name, value in (headers or {}).items():
            msg[name] = value
        msg["Received"] = f"from mx.players.example.org by mail.judge.example.org; {format_datetime(at)}"
        msg["From"] = who
        msg["To"] = JUDGE
        msg["Subject"] = subject
        msg["Date"] = format_datetime(at)
        msg["Message-ID"] = f"<m{self.n}@players.example.org>"
        if replying is not None:
            msg["In-Reply-To"] = str(replying["Message-ID"])
            msg["References"] = str(replying["Message-ID"])
        msg.set_content(body)
        post(self.imap, self.folder, msg.as_bytes())
        return str(msg["Message-ID"])

    def post_raw(self, raw: bytes) -> None:
        """A message as its bytes, into the judge's mailbox."""
        post(self.imap, self.folder, raw)

    def settings(self, **sections: object) -> None:
        """judge.yaml with these keys set (a section's keys merged into it)."""
        path = self.root / "judge.yaml"
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        for key, value in sections.items():
            raw[key] = {**raw.get(key, {}), **value} if isinstance(value, dict) else value
        path.write_text(yaml.safe_dump(raw), encoding="utf-8")

    def run(self, now: datetime, *, status: int = 0) -> str:
        """A pass at ``now`` (``moonshine run DIR``), which must exit with ``status``."""
        from click.testing import CliRunner

        from moonshine.cli import main

        os.environ["MOONSHINE_IMAP_PASSWORD"] = PASSWORD
        done = CliRunner().invoke(main, ["run", str(self.root), "--now", now.isoformat()])
        assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
        assert done.exit_code == status, done.output
        return done.output

    def new_mail(self) -> Mail:
        got = received(self.smtp.recorder)
        out, self.seen = got[self.seen :], len(got)
        return out

    def registry(self) -> Registry:
        return Registry(self.root / "registry.sqlite")


def one(mail: Mail, who: str, word: str = "") -> str:
    """The text of the one mail to ``who`` whose subject holds ``word``."""
    return plain(one_mail(mail, who, word))


def one_mail(mail: Mail, who: str, word: str = "") -> EmailMessage:
    """The one mail to ``who`` whose subject holds ``word``."""
    found = [m for rcpts, m in mail if who in rcpts and word in str(m["Subject"])]
    assert len(found) == 1, [(r, str(m["Subject"])) for r, m in mail]
    return found[0]


def to_each(mail: Mail, who: str) -> list[EmailMessage]:
    """The mails delivered to ``who``, each checked to name them alone (``To:``, no Cc)."""
    from email.utils import getaddresses

    found = [m for rcpts, m in mail if who in rcpts]
    for m in found:
        shown = [a.lower() for _, a in getaddresses([str(m.get("To", "")), str(m.get("Cc", ""))]) if a]
        assert shown in ([who], [JUDGE]), (who, str(m["Subject"]), shown)
    return found


def text_of(msg: EmailMessage) -> str:
    """Everything a recipient can read of a mail: its headers and every text part."""
    parts = [f"{k}: {v}" for k, v in msg.items()]
    for part in msg.walk():
        if part.get_content_maintype() == "text" or part.get_content_type() == "application/json":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                parts.append(payload.decode("utf-8", "replace"))
    return "\n".join(parts)


def is_password_mail(msg: EmailMessage) -> bool:
    """A mail that gives a player its password, in English or French."""
    return re.search(r"Your password|Votre mot de passe", str(msg["Subject"])) is not None
