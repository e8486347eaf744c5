"""``moonshine run --watch`` between two passes: wait for mail on the IMAP mailbox of
every directory it runs, a game's (``inbox.source`` in its game.yaml) or a judge's for
many games (its ``judge.yaml``), with IMAP IDLE (``moonshine.mail.idle``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from moonshine.errors import MoonshineError
from moonshine.mail.imap import ImapMailbox, is_imap_url


def wait_for_mail(roots: Sequence[Path], seconds: float) -> bool:
    """Wait up to ``seconds`` for new mail in any IMAP mailbox of ``roots`` (a judge
    for many games: its one mailbox). False (at once) when none reads an IMAP
    mailbox, when one of their servers does not offer IDLE (the caller's polling then
    serves them all), or the wait failed."""
    from moonshine.mail.idle import wait_on

    try:
        boxes = [box for box in (_mailbox(root) for root in roots) if box is not None]
    except (MoonshineError, OSError):
        return False
    return wait_on(boxes, seconds) if boxes else False


def _mailbox(root: Path) -> ImapMailbox | None:
    """The IMAP mailbox of a game's or a judge's directory (not opened), or None."""
    from moonshine.game.directory import Game
    from moonshine.host.settings import is_judge_dir, load
    from moonshine.mail.settings import imap_box, mail_source

    cfg = load(root).config if is_judge_dir(root) else Game(root).config
    source = mail_source(cfg, root)
    if source is None or not is_imap_url(source):
        return None
    return imap_box(cfg, root, source)
