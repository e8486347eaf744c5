"""The judge's mailbox over IMAP, against a real IMAP server (pymap) started on
127.0.0.1 by these tests, with TLS by STARTTLS (``imap://``) and from the first
byte (``imaps://``, through a TLS terminator in front of the same server)."""

from __future__ import annotations

from pathlib import Path

import pytest
from imapkit import PASSWORD, USER, Server, client, deliver
from portkit import free_port

from moonshine.errors import GameError
from moonshine.mail.imap import ImapAddress, ImapMailbox, is_imap_url, read_password


def _url(imap: Server, folder: str, *, tls: bool = False) -> ImapAddress:
    if tls:
        return ImapAddress.parse(f"imaps://{USER}@127.0.0.1:{imap.tls_port}/{folder}")
    return ImapAddress.parse(f"imap://{USER}@127.0.0.1:{imap.port}/{folder}")


# -- addresses and passwords ------------------------------------------------------------


def test_addresses() -> None:
    a = ImapAddress.parse("imaps://judge@mail.example.org/Diplomacy%20orders")
    assert (a.tls, a.user, a.host, a.port, a.folder) == (True, "judge", "mail.example.org", 993, "Diplomacy orders")
    b = ImapAddress.parse("imap://judge%40example.org@mail.example.org:1143")
    assert (b.tls, b.user, b.port, b.folder) == (False, "judge@example.org", 1143, "INBOX")
    assert is_imap_url("IMAPS://x@y/") and not is_imap_url("/var/mail/judge")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("imaps://judge:hunter2@mail.example.org/INBOX", "the password does not belong in the address"),
        ("pop3://judge@mail.example.org/", "not an IMAP address"),
        ("imaps://mail.example.org/INBOX", "the user and the host are needed"),
        ("imaps://judge@mail.example.org:99999/INBOX", "the port must be a number"),
    ],
)
def test_bad_addresses_are_refused(url: str, message: str) -> None:
    with pytest.raises(GameError, match=message) as err:
        ImapAddress.parse(url)
    assert "hunter2" not in str(err.value)


def test_password_from_the_environment_or_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MOONSHINE_IMAP_PASSWORD", raising=False)
    with pytest.raises(GameError, match="set the environment variable MOONSHINE_IMAP_PASSWORD"):
        read_password()
    monkeypatch.setenv("MOONSHINE_IMAP_PASSWORD", "from-env")
    assert read_password() == "from-env"
    secret = tmp_path / "imap-password"
    secret.write_text("from-file\nignored\n", encoding="utf-8")
    assert read_password(file=secret) == "from-file"
    (tmp_path / "empty").write_text("\n", encoding="utf-8")
    with pytest.raises(GameError, match="is empty"):
        read_password(file=tmp_path / "empty")


# -- a real server --------------------------------------------------------------------


def test_messages_are_read_in_order_and_marked_done(imap: Server) -> None:
    deliver(imap, "Orders1", "H LOO - NSS", "L BRO H", "H CHI S H LOO - NSS")
    with ImapMailbox(_url(imap, "Orders1"), PASSWORD, ca_file=imap.ca) as box:
        got = list(box.messages())
        bodies = [m.raw.split(b"\n\n", 1)[1].strip() if b"\n\n" in m.raw else m.raw for m in got]
        assert [b.splitlines()[-1] for b in bodies] == [b"H LOO - NSS", b"L BRO H", b"H CHI S H LOO - NSS"]
        assert [m.uid for m in got] == sorted(m.uid for m in got)
        keys = [m.key for m in got]
        assert all(k.startswith(f"{box.uidvalidity}:") for k in keys) and box.uidvalidity > 0
        box.mark_done(got[0].uid)
    # A run killed before it marked the other two reads them again, under the same keys.
    with ImapMailbox(_url(imap, "Orders1"), PASSWORD, ca_file=imap.ca) as box:
        again = list(box.messages())
        assert [m.key for m in again] == keys[1:]
    with ImapMailbox(_url(imap, "Judged"), PASSWORD, ca_file=imap.ca, done_folder="Elsewhere") as judged:
        assert [m.raw for m in judged.messages()] == [got[0].raw]


def test_reading_does_not_mark_a_message_seen(imap: Server) -> None:
    deliver(imap, "Peek", "H LOO H")
    with ImapMailbox(_url(imap, "Peek"), PASSWORD, ca_file=imap.ca) as box:
        (msg,) = list(box.messages())
    conn = client(imap)
    conn.select('"Peek"')
    _, data = conn.uid("SEARCH", "UNSEEN")
    conn.logout()
    assert str(msg.uid).encode() in data[0].split()


@pytest.mark.parametrize("move", [True, False])
def test_done_messages_move_to_the_folder_of_choice(imap: Server, move: bool) -> None:
    source = f"Orders2-{move}"
    deliver(imap, source, "H LOO - NSS", "L BRO H")
    with ImapMailbox(_url(imap, source), PASSWORD, ca_file=imap.ca, done_folder=f"Judged orders {move}") as box:
        if not move:  # as with a server without MOVE: copy, delete, expunge
            conn = box._need()
            conn.capabilities = tuple(c for c in conn.capabilities if c != "MOVE")
        first = next(box.messages())
        box.mark_done(first.uid)
        assert len(box.pending()) == 1
    with ImapMailbox(_url(imap, f"Judged orders {move}"), PASSWORD, ca_file=imap.ca) as done:
        moved = list(done.messages())
    assert len(moved) == 1 and moved[0].raw == first.raw


def test_the_folder_for_judged_mail_is_another_folder(imap: Server) -> None:
    with pytest.raises(GameError, match="must be another folder"):
        ImapMailbox(_url(imap, "INBOX"), PASSWORD, ca_file=imap.ca, done_folder="INBOX").open()


def test_a_message_over_the_limit_is_reported_not_downloaded(imap: Server) -> None:
    deliver(imap, "Big", "H LOO - NSS\n" + "x" * 5000)
    with ImapMailbox(_url(imap, "Big"), PASSWORD, ca_file=imap.ca, max_message=1000) as box:
        (msg,) = list(box.messages())
    assert msg.too_large and msg.size > 5000 and len(msg.raw) == 1001  # the headers, for a reply
    assert msg.raw.startswith(b"From: valley@players.example.org")


def test_tls_from_the_first_byte(imap: Server) -> None:
    deliver(imap, "Orders3", "H LOO - NSS")
    with ImapMailbox(_url(imap, "Orders3", tls=True), PASSWORD, ca_file=imap.ca) as box:
        (msg,) = list(box.messages())
    assert b"H LOO - NSS" in msg.raw


def test_wrong_password_unknown_folder_untrusted_certificate(imap: Server) -> None:
    with pytest.raises(GameError, match="refused the user name or the password"):
        ImapMailbox(_url(imap, "INBOX"), "wrong", ca_file=imap.ca).open()
    with pytest.raises(GameError, match="no folder 'Nowhere'"):
        ImapMailbox(_url(imap, "Nowhere"), PASSWORD, ca_file=imap.ca).open()
    with pytest.raises(GameError, match="TLS failed") as err:
        ImapMailbox(_url(imap, "INBOX"), PASSWORD, ca_file=imap.other_ca).open()
    assert PASSWORD not in str(err.value)


def test_nothing_listening() -> None:
    address = ImapAddress.parse(f"imap://{USER}@127.0.0.1:{free_port()}/INBOX")
    with pytest.raises(GameError, match="cannot connect"):
        ImapMailbox(address, PASSWORD, timeout=2).open()
