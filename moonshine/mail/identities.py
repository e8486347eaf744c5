"""The end of an anonymous game (``moonshine.game.identities``): who played which side,
told to each player in a mail of their own (to one address), in their language
(``reveal_mail``). A game of its own writes them when its pass finds it over
(``write_reveal``, with the date in game.yaml, in one transaction); a judge for many
games queues the same mails in its own outbox (``moonshine.host.games``), and its
games' own passes write none."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from email.message import EmailMessage

from moonshine.game import identities
from moonshine.game.directory import Game, player_language
from moonshine.mail import outbox
from moonshine.mail.outbox import compose
from moonshine.mail.settings import from_address, player_addresses
from moonshine.render import mailwords


def reveal_mail(
    game: Game,
    to: Sequence[str],
    name: str,
    language: str,
    now: datetime,
    *,
    tokens: Mapping[str, str] | None = None,
    players: Mapping[str, str | None] | None = None,
) -> EmailMessage:
    """The mail that tells ``to`` (one player's addresses; ``name`` theirs, to greet
    them) who played each side of ``game``: its player's name (``players``, by side;
    game.yaml's by default), with the token the start mail gave them when the judge drew
    the sides (``tokens``, by side)."""
    cfg = game.config
    names = game.sides(language)
    who = identities.players(cfg) if players is None else dict(players)
    lines = []
    for side, side_name in names.items():
        player = who.get(side)
        shown = (
            player
            if player
            else mailwords.text(language, "identities.nobody" if player is None else "identities.no_name")
        )
        token = (tokens or {}).get(side)
        key = "identities.line_token" if token else "identities.line"
        lines.append(mailwords.text(language, key, side=f"{side_name} ({side})", player=shown, token=token or ""))
    body = mailwords.text(
        language,
        "identities.body",
        name=name or mailwords.text(language, "takeover.hello"),
        title=cfg.title,
        sides="\n".join(lines),
    )
    body += "\n\n-- \n" + mailwords.text(language, "signature", title=cfg.title) + "\n"
    return compose.text_message(
        sender=from_address(cfg),
        to=list(to),
        subject=mailwords.text(language, "identities.subject", prefix=compose.subject_prefix(cfg)),
        body=body,
        msg_id=compose.message_id(cfg, "identities", "reveal", *to),
        date=now,
        reply_to=from_address(cfg),
    )


def write_reveal(game: Game, now: datetime) -> list[str]:
    """An anonymous game over, whose identities are to be revealed at its end: each
    address of each side's player gets the mail (``reveal_mail``), one of its own that
    names that address alone, in the player's language, in the outbox of the current
    turn, and game.yaml records the reveal; the caller's transaction holds both. Returns
    the files written (none when there is nothing to reveal)."""
    cfg = game.config
    if not identities.of(cfg).to_reveal:
        return []
    out: list[outbox.Outgoing] = []
    for side, player in cfg.players.items():
        for address in player_addresses(cfg, side):
            msg = reveal_mail(game, [address], player.name, player_language(cfg, side), now)
            # named by a digest of the address (an outbox name never shows an address)
            digest = hashlib.sha256(address.encode()).hexdigest()[:12]
            out.append(outbox.Outgoing(f"identities-{side.lower()}-{digest}.eml", msg))
    outbox.write_outbox(game, game.current_turn(), out)
    identities.mark_revealed(game, now)
    return [o.name for o in out]
