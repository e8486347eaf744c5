"""Press through the judge: a gang's message to one or several gangs (``press to
...``) or to everyone (``broadcast``), relayed by the referee under the game's
press rules (``press:`` in game.yaml)::

    press:
      kind: white           # none, public (broadcasts only, signed), white (always signed)
                            # or grey (anonymous allowed)
      retreats: false       # press during retreat phases (a classic game's)
      after_deadline: true  # press after the turn's deadline, before adjudication

The relayed mail comes from the referee's address with the referee as Reply-To:
the sender's address is never shown. Each recipient gang gets its own message
(its own addresses only); a broadcast goes to every player and observer by Bcc.
The game master gets a copy of each press (``referee.email`` in game.yaml, else
the referee's own address). Every press is kept in the private log of the sender
and of each recipient, ``press/GANG/TURN-ID.txt`` (one file per press, written
again the same by a run that was interrupted). Mail goes through the outbox:
``send_files`` sends each message at most once."""

from __future__ import annotations

import hmac
from pathlib import Path

import msgspec

from moonshine.errors import StateError
from moonshine.game import masking
from moonshine.game.directory import GAME_FILE, GameConfig, atomic_write_text
from moonshine.mail import observers, outbox
from moonshine.mail.commands.grammar import BLOCK, Answer, Command, CommandLine
from moonshine.mail.commands.request import ANONYMOUS, GameRequest, sides_named, words
from moonshine.mail.outbox import compose
from moonshine.mail.settings import from_address, game_master_addresses, player_addresses
from moonshine.render import mailwords
from moonshine.render.mailwords import phrase
from moonshine.text.folding import fold

NONE, PUBLIC, WHITE, GREY = "none", "public", "white", "grey"
KINDS = (NONE, PUBLIC, WHITE, GREY)
LOG_DIR = "press"
GM = "gm"


class Rules(msgspec.Struct, frozen=True):
    kind: str = WHITE
    retreats: bool = False
    after_deadline: bool = True


def rules(cfg: GameConfig) -> Rules:
    """The game's press rules (``press:`` in game.yaml; white press at any time
    but retreats when absent)."""
    raw = cfg.extra.get("press")
    if raw is None:
        return Rules()
    if not isinstance(raw, dict):
        raise StateError(GAME_FILE, "press", "expected a mapping with kind, retreats, after_deadline")
    kind = raw.get("kind", WHITE)
    if kind not in KINDS:
        raise StateError(GAME_FILE, "press.kind", f"expected one of {', '.join(KINDS)}, found {kind!r}")
    for key in ("retreats", "after_deadline"):
        if key in raw and not isinstance(raw[key], bool):
            raise StateError(GAME_FILE, f"press.{key}", f"expected true or false, found {raw[key]!r}")
    return Rules(kind, bool(raw.get("retreats", False)), bool(raw.get("after_deadline", True)))


def gm_addresses(cfg: GameConfig) -> list[str]:
    """Where the game master's copies go (``moonshine.mail.settings.game_master_addresses``),
    else the judge's placeholder address of a dry run."""
    return game_master_addresses(cfg) or [from_address(cfg)]


def _is_retreat(turn: str) -> bool:
    return "retreat" in turn


def _refusal(req: GameRequest, cmd: CommandLine, anonymous: bool, *, private: bool) -> Answer | None:
    """Why the game's rules refuse this press now (``private``: to gangs named, not a
    broadcast), or None."""
    r = rules(req.game.config)
    if r.kind == NONE:
        return Answer(cmd, False, phrase("press.none"))
    if private and r.kind == PUBLIC:
        return Answer(cmd, False, phrase("press.public_only"))
    if anonymous and r.kind == PUBLIC:
        return Answer(cmd, False, phrase("press.public_signed"))
    if anonymous and r.kind != GREY:
        return Answer(cmd, False, phrase("press.white_only"))
    if _is_retreat(req.turn) and not r.retreats:
        return Answer(cmd, False, phrase("press.retreats"))
    if not r.after_deadline and req.due is not None and req.now > req.due:
        return Answer(cmd, False, phrase("press.after_deadline", due=req.due))
    if not cmd.closed:
        return Answer(cmd, False, phrase("press.unclosed"))
    if not "".join(cmd.body).strip():
        return Answer(cmd, False, phrase("press.empty"))
    return None


def _split_anonymous(args: str) -> tuple[list[str], bool]:
    found = words(args)
    rest = [w for w in found if fold(w) not in ANONYMOUS]
    return rest, len(rest) != len(found)


def private(req: GameRequest, cmd: CommandLine) -> Answer:
    """``press to GANG, GANG [anonymous]``: relayed to each gang named."""
    assert req.gang is not None
    names, anonymous = _split_anonymous(cmd.args)
    refused = _refusal(req, cmd, anonymous, private=True)
    if refused is not None:
        return refused
    to, unknown = sides_named(req, names)
    sides = req.game.sides()
    if unknown:
        known = ", ".join(sides)
        return Answer(cmd, False, phrase("press.unknown_recipient", names=" ".join(unknown)[:60], known=known))
    to = [g for g in to if g != req.gang]
    if not to:
        return Answer(cmd, False, phrase("press.no_recipient"))
    return _relay(req, cmd, to, anonymous, everyone=False)


def broadcast(req: GameRequest, cmd: CommandLine) -> Answer:
    """``broadcast [anonymous]``: relayed to every player and observer."""
    assert req.gang is not None
    _names, anonymous = _split_anonymous(cmd.args)
    refused = _refusal(req, cmd, anonymous, private=False)
    if refused is not None:
        return refused
    to = [g for g in req.game.sides() if g != req.gang]
    return _relay(req, cmd, to, anonymous, everyone=True)


def _relay(req: GameRequest, cmd: CommandLine, to: list[str], anonymous: bool, *, everyone: bool) -> Answer:
    game = req.game
    cfg = game.config
    lang = cfg.language  # relayed to other players: the game's language, not the sender's
    sides = game.sides()
    assert req.gang is not None
    # The relayed copies name nothing of the sender's own message: their Message-IDs come
    # from a key that only the game's secret links to it, and they are dated when the
    # judge read it, to the minute, not when the sender sent it.
    key = hmac.new(game.secret().encode(), f"press|{req.message_id}|{cmd.line}".encode(), "sha256").hexdigest()[:20]
    dated = (req.processed or req.now).replace(second=0, microsecond=0)
    text = masking.mask_secrets("\n".join(line.rstrip() for line in cmd.body).strip("\n"), req.secrets) + "\n"
    sender_name = mailwords.text(lang, "press.anonymous_sender") if anonymous else f"{sides[req.gang]} ({req.gang})"
    listed = mailwords.text(lang, "press.everyone") if everyone else ", ".join(sides[g] for g in to)
    turn = mailwords.subject_turn(lang, req.turn)
    head = mailwords.text(lang, "press.head", sender=sender_name, to=listed, turn=turn)
    answer = mailwords.text(lang, "press.how_to_answer" if not anonymous else "press.how_to_answer_anonymous")
    body = f"{head}\n\n{text}\n{answer}\n-- \n{mailwords.text(lang, 'signature', title=cfg.title)}\n"
    subject_key = "subject.broadcast" if everyone else "subject.press"
    subject = mailwords.text(lang, subject_key, prefix=compose.subject_prefix(cfg), turn=turn, sender=sender_name)
    referee = from_address(cfg)
    out: list[outbox.Outgoing] = []
    missing: list[str] = []
    if everyone:
        bcc = sorted({a for g in to for a in player_addresses(cfg, g)} | set(observers.addresses(cfg)))
        msg = compose.text_message(
            sender=referee,
            to=[referee],
            bcc=bcc,
            subject=subject,
            body=body,
            msg_id=compose.message_id(cfg, req.turn, "press", key, "all", label=2),
            date=dated,
            reply_to=referee,
        )
        out.append(outbox.Outgoing(f"press-{key[:12]}-all.eml", msg))
    else:
        for g in to:
            addresses = player_addresses(cfg, g)
            if not addresses:
                missing.append(sides[g])
                continue
            msg = compose.text_message(
                sender=referee,
                to=addresses,
                subject=subject,
                body=body,
                msg_id=compose.message_id(cfg, req.turn, "press", key, g, label=2),
                date=dated,
                reply_to=referee,
            )
            out.append(outbox.Outgoing(f"press-{key[:12]}-{g.lower()}.eml", msg))
    # the game master's copy names the real sender, even of anonymous press
    # the player by name (their address only in a game whose players have none): a
    # master of a judge for many games is a player too, and sees no one's address
    who = cfg.players[req.gang].name if req.gang in cfg.players and cfg.players[req.gang].name else req.sender
    gm_head = f"Press from {sides[req.gang]} ({req.gang}, {who}) to {', '.join(to) if not everyone else 'all'}"
    gm_body = f"{gm_head}{' (anonymous)' if anonymous else ''}, {req.turn}.\n\n{text}"
    gm_to, gm_bcc = compose.unseen(referee, gm_addresses(cfg))
    gm = compose.text_message(
        sender=referee,
        to=gm_to,
        bcc=gm_bcc,
        subject=f"{compose.subject_prefix(cfg)} {req.turn}: press from {req.gang} (game master's copy)",
        body=gm_body,
        msg_id=compose.message_id(cfg, req.turn, "press", key, GM, label=2),
        date=dated,
        reply_to=referee,
    )
    out.append(outbox.Outgoing(f"press-{key[:12]}-{GM}.eml", gm))
    outbox.write_outbox(game, req.turn, out)
    req.outgoing.extend(out)
    entry = f"# {req.turn} {req.now.isoformat()} from {req.gang}{' (anonymous)' if anonymous else ''} to "
    entry += ("all" if everyone else ", ".join(to)) + "\n\n" + text
    for g in [req.gang, *to]:
        atomic_write_text(log_path(game.root, g, req.turn, key), entry)
    if everyone:
        return Answer(cmd, True, phrase("press.broadcast_sent", turn=turn))
    done = phrase("press.sent", to=", ".join(sides[g] for g in to))
    if missing:
        return Answer(cmd, True, phrase("press.sent_some", sent=done, missing=", ".join(missing)))
    return Answer(cmd, True, done)


def log_path(root: Path, gang: str, turn: str, key: str) -> Path:
    """One press in ``gang``'s private log."""
    return root / LOG_DIR / gang.lower() / f"{turn}-{key}.txt"


def private_log(root: Path, gang: str) -> list[str]:
    """``gang``'s private log: the text of every press it sent or received."""
    base = root / LOG_DIR / gang.lower()
    return [p.read_text(encoding="utf-8") for p in sorted(base.glob("*.txt"))] if base.is_dir() else []


PRESS = Command(
    "press",
    {"en": ("press",), "fr": ("presse",)},
    private,
    reads=BLOCK,
    help="help.cmd.press",
    refusal="press.not_player",
)
BROADCAST = Command(
    "broadcast",
    {"en": ("broadcast",), "fr": ("diffusion", "diffuser")},
    broadcast,
    reads=BLOCK,
    help="help.cmd.broadcast",
    refusal="press.not_player",
)
