"""The reminders a game's pass writes to the outbox when the schedule says
(``schedule.reminders``), each once: to the sides it waits for that have sent no
orders, and to those whose orders have rejected lines; in each player's language."""

from __future__ import annotations

from typing import Any

from moonshine.game import families
from moonshine.game.directory import deadline, is_git_repo, player_language
from moonshine.game.journal import transaction
from moonshine.game.schedule import Schedule
from moonshine.mail import outbox
from moonshine.mail.disorder import expected
from moonshine.mail.gamepass import Pass
from moonshine.mail.outbox import compose
from moonshine.mail.record import RECORD_FILES, iso, parse_iso, save_record
from moonshine.mail.settings import from_address
from moonshine.render import mailwords
from moonshine.text.catalogue import Catalogue, Localized, fill, keyed, languages

REMIND: Catalogue = {
    "judge.remind.subject": "{prefix} Reminder: {turn}, orders for {gang}",
    "judge.remind.missing": "The judge has no orders from {gang} for {turn} yet.",
    "judge.remind.rejected": (
        "Your orders for {turn} have {n} rejected line: that unit holds unless you send a corrected "
        "complete file (the acknowledgement you received names the line and why).",
        "Your orders for {turn} have {n} rejected lines: those units hold unless you send a corrected "
        "complete file (the acknowledgement you received names each line and why).",
    ),
    "judge.remind.deadline": "The deadline is {due} ({left}).",
    "judge.remind.grace": "Whoever has sent no orders by then gets {grace} more; after that their units hold.",
}


def _say(lang: str, key: str, **fields: object) -> str:
    lang = lang if lang in languages() else "en"
    return fill(lang, keyed(lang, REMIND, f"judge.remind.{key}", fields.get("n")), **fields)


def remind(p: Pass, schedule: Schedule, turn: str) -> None:
    """The reminders that are due, each once: to the sides with no orders and to
    those whose orders have rejected lines."""
    from moonshine.game.deadlines import deadline_text
    from moonshine.mail.commands.absence import absent_sides
    from moonshine.mail.status import turn_status

    game = p.game
    due = deadline(game.config, turn)
    if due is None:
        return
    slots = schedule.reminders_due(p.now, due, [parse_iso(x) for x in p.record.reminded.get(turn, [])])
    if not slots:
        return
    cfg = game.config
    status = turn_status(game, turn, now=p.now)
    waiting = set(expected(game, turn)) - absent_sides(game, due)
    slot = max(slots)  # a run that missed several reminder times sends one reminder
    out: list[outbox.Outgoing] = []
    for g in status.gangs:
        if g.gang not in waiting or not g.addresses:
            continue
        if g.has_orders and not g.rejected:
            continue
        lang = player_language(cfg, g.gang)  # the player's own language, else the game's
        name = cfg.players[g.gang].name if g.gang in cfg.players and cfg.players[g.gang].name else g.name
        # the turn in the reader's words: a Moonshine turn, or a classic phase (which
        # subject_turn leaves as named, and its sentences write as in a subject)
        named = game.layout.turn_in_text(turn)
        in_sentence = mailwords.shown(lang, named)
        in_subject = mailwords.subject_turn(lang, turn)
        if in_subject == turn:  # a classic phase: its label ("Printemps 1901" in French)
            in_subject = named.text(lang) if isinstance(named, Localized) else str(named)
        first = (
            _say(lang, "rejected", turn=in_sentence, n=g.rejected)
            if g.has_orders
            else _say(lang, "missing", gang=g.name, turn=in_sentence)
        )
        when = _say(lang, "deadline", due=deadline_text(cfg, g.gang, due, lang), left=status.time_left(lang))
        grace = f" {_say(lang, 'grace', grace=_duration(schedule.grace))}" if schedule.grace else ""
        body = (
            f"{name},\n\n{first}\n{when}{grace}\n\n"
            + mailwords.text(lang, "remind.default" + families.of(game).messages)
            + "\n\n-- \n"
            + mailwords.text(lang, "signature", title=cfg.title)
            + "\n"
        )
        stamp = slot.strftime("%Y%m%dt%H%M")
        msg = compose.text_message(
            sender=from_address(cfg),
            to=list(g.addresses),
            subject=_say(lang, "subject", prefix=compose.subject_prefix(cfg), turn=in_subject, gang=g.name),
            body=body,
            msg_id=compose.message_id(cfg, turn, "remind", g.gang, iso(slot)),
            date=p.now,
            reply_to=from_address(cfg),
        )
        out.append(outbox.Outgoing(f"remind-{g.gang.lower()}-{stamp}.eml", msg))
    with transaction(p.root, f"run: remind {turn}", notify=p.log) as txn:
        outbox.write_outbox(game, turn, out)
        done = p.record.reminded.setdefault(turn, [])
        done += [iso(s) for s in slots if iso(s) not in done]
        save_record(game, p.record)
        txn.commit(f"Reminders for {turn}", [*RECORD_FILES, f"outbox/{turn}"], git=is_git_repo(p.root))
    who = ", ".join(m.name for m in out) or "nobody (every gang has orders)"
    p.log(f"remind {turn} ({iso(slot)}): {who}")


def _duration(d: Any) -> str:
    hours = int(d.total_seconds() // 3600)
    minutes = int(d.total_seconds() % 3600 // 60)
    return f"{hours} h {minutes:02d}" if minutes else f"{hours} h"
