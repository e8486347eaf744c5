"""The words of the referee's mail, in English (every other language is the gettext
catalogue's): replies to orders sent by email, reminders, the subjects of report mail,
dates and time left. A keyed catalogue like ``moonshine.render.phrasebook``'s (``MESSAGES``), read
through ``text``, which also writes each field in the message's language: dates
(``2024-03-01 18:00 UTC`` / ``1er mars 2024 à 18 h 00 UTC``), turns (``spring-1924``
/ ``le printemps 1924``), large numbers and nested phrases.

The game master's own output (``moonshine inbox``'s lines, ``status``) stays in
English: it is rendered from the same catalogue with ``language="en"``."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import msgspec

from moonshine.render.phrasebook import check_language, the_turn, turn_label
from moonshine.text import absence, commands, host, moving
from moonshine.text.catalogue import Catalogue, Localized, fill, keyed
from moonshine.text.catalogue import number as number
from moonshine.variants.moonshine.calendar import Turn

# key -> the English, or (singular, plural) for a sentence whose words follow the count
# ``n``; ``{name}`` fields are filled by ``text``. Every other language is its gettext
# catalogue's (``moonshine.text.catalogue``).
MESSAGES: Catalogue = {
    # -- time left -----------------------------------------------------------------------
    "time.left": "{span} left",
    "time.passed": "passed {span} ago",
    "time.none": "no deadline set",
    "time.days": ("{n} day", "{n} days"),
    "time.hours": ("{n} hour", "{n} hours"),
    "time.minutes": ("{n} minute", "{n} minutes"),
    "deadline.line": "Deadline: {due} ({left}).",
    "deadline.next": "Orders for {turn} are due {due}.",
    "deadline.none": "No deadline is set for this turn yet.",
    "deadline.paused": "The game is paused by its master: no deadline runs until it resumes.",
    # -- subjects ----------------------------------------------------------------------------
    "subject.accepted": "{prefix} {turn}: orders received",
    "subject.rejected": "{prefix} {turn}: orders NOT accepted",
    "subject.reminder": "{prefix} {turn}: orders wanted from {gang}",
    "subject.report": "{prefix} {turn}: private report for {gang}",
    "subject.bulletin": "{prefix} {turn}: bulletin",
    "signature": "The referee of {title}",
    # -- replies to accepted orders ---------------------------------------------------------
    "ack.source": "mail from {sender}, {received}",
    "ack.sender": "mail from {sender}",
    "counts.read": ("{n} order read", "{n} orders read"),
    "counts.rejected": (", {n} rejected", ", {n} rejected"),
    "reply.accepted": "Orders for {gang}, {turn}, received {received} from {sender}: {counts}.",
    "reply.replaces": "They replace the orders received {standing}.",
    "reply.superseded": (
        "These orders for {gang}, {turn}, received {received}, do NOT replace the ones received later, at "
        "{standing}, which stand. They are kept on file only."
    ),
    "reply.open": "You may send new orders until then; the last ones received count.",
    "reply.open_no_deadline": "You may send new orders; the last ones received count.",
    "reply.open_paused": (
        "They count when the game goes on; you may send new orders meanwhile, the last ones received count."
    ),
    "reply.closed": "It has passed: no new orders are taken.",
    "reply.grace": (
        "It has passed, but your gang had sent no orders: these are taken in the grace period, and no others will be."
    ),
    # -- what the mail-reading layer left out (moonshine.mail.intake) ------------------------------
    "note.quoted": "Quoted and forwarded text (lines {lines}) was ignored: only your own new text is read.",
    "note.signature": "Your signature (from line {line}) was not read.",
    "note.chatter": "Not orders, ignored: {lines}.",
    "note.line": "line {n} '{text}'",
    "note.too_long": "Longer than {n} characters, not read: lines {lines}.",
    "note.json_left": (
        "Your orders were read from your JSON document alone: the text of your mail was read only for its "
        "password line, and the rest of it was not read."
    ),
    # -- replies to refused messages ------------------------------------------------------
    "reply.rejected": "Your message {about}{when} was NOT accepted as orders for {turn}.",
    "reply.stranger_rejected": "Your message{when} was NOT accepted as orders for {turn}.",
    "reply.subject": '"{subject}"',
    "reply.no_subject": "without a subject",
    "reply.received_at": ", received {received},",
    "reply.reason": "Reason: {reason}.",
    "reply.unchanged": "No order file was changed.",
    # -- why a message is refused -----------------------------------------------------------
    # -- a side handed to a new player (moonshine takeover) --------------------------------------
    "takeover.subject": "{prefix} {side} is yours: the history so far",
    "takeover.hello": "Hello",
    "takeover.body": (
        "You now lead {side} in '{title}'. The current turn is {turn}. Your password comes in a separate "
        "message. Below is your side's history: every report it received so far ({reports}), then the press "
        "it sent and received ({press})."
    ),
    "takeover.body_own": (
        "You now lead {side} in '{title}'. The current turn is {turn}. Your password is the one of all your games. "
        "Below is your side's history: every report it received so far ({reports}), then the press it sent and "
        "received ({press})."
    ),
    "takeover.no_report": "No report yet: no turn has been adjudicated.",
    "takeover.press": "Press sent and received",
    "takeover.no_press": "No press was sent or received.",
    # -- the end of an anonymous game: who played which side (moonshine.mail.identities) ----------
    "identities.subject": "{prefix} The game is over: who played which side",
    "identities.body": (
        "{name},\n\nThe game {title} is over. It was played anonymously: no player was told who played "
        "which side. Now every player is told:\n\n{sides}"
    ),
    "identities.line": "  {side}: {player}",
    "identities.line_token": "  {side}: {player} (token {token} in the draw of the sides)",
    "identities.nobody": "no player",
    "identities.no_name": "a player who gave no name",
    "password.subject": "{prefix} your password for {side}",
    "password.body": (
        "Your password for {side} in '{title}':\n\n    {password}\n\nPut it on a 'password:' line of every "
        "message you send to the judge. Keep it to yourself."
    ),
    "reject.not_player": "{sender} is not a player's address in this game",
    "reject.too_big": (
        "the message is {size} bytes, more than the {limit} bytes this game accepts; send the orders as "
        "plain text without pictures or attachments"
    ),
    "reject.too_many_parts": (
        "the message has more than {limit} parts, or parts nested more than {depth} deep; send the orders as plain text"
    ),
    "reject.unreadable": "unreadable message ({error})",
    "reject.not_parsed": "the message could not be read ({error}); send the orders as plain text",
    "reject.not_read": "the message could not be read",
    "reject.no_sender": "no sender address (From:): cannot answer",
    "reject.no_text": "no text found: the orders must be in the message's text or a plain-text attachment",
    "reject.no_gang_line": "no 'gang:' line: the orders must say whose they are",
    "reject.no_gang_line.classic": "no 'power:' line: the orders must say whose they are",
    "reject.unknown_gang": "'gang: {named}' names no gang of this game (gangs: {gangs})",
    "reject.unknown_gang.classic": "'power: {named}' names no power of this game (powers: {gangs})",
    "reject.other_gang": "{sender} plays {own}, not {gang}: these orders name another gang",
    "reject.no_password_set": "no password is set for {gang}: ask the game master for one",
    "reject.no_password_line": "no 'password:' line",
    "reject.password_damaged": "the stored password of {gang} is damaged: ask the game master to set it again",
    "reject.wrong_password": "wrong password for {gang}",
    "reject.game_over": "the game is over: no orders are taken",
    "reject.too_many_guesses": (
        "more than {n} wrong passwords for {gang} in this pass: not read, and not answered; try again in a few minutes"
    ),
    "reject.other_turn": "these orders are for {named}, but the turn being played is {turn}",
    "reject.earlier_turn": (
        "received {received}, before the previous turn's deadline ({previous}): these orders are for an "
        "earlier turn, not {turn}"
    ),
    "reject.late": "late: received {received}, after the deadline {due}",
    "reject.adjudicated": "{turn} is already adjudicated: these orders came too late to be used",
    "reject.nothing_readable": (
        "the order line could not be read; earlier orders, if any, stand",
        "none of the {n} order lines could be read; earlier orders, if any, stand",
    ),
    "reject.failed": "the message could not be processed ({error})",
    "reject.json": (
        "your orders as JSON do not fit the format of orders as JSON: {n} problem",
        "your orders as JSON do not fit the format of orders as JSON: {n} problems",
    ),
    # -- what to do next ---------------------------------------------------------------------
    "help.address": "Write from the address the game master registered for your gang, or ask them to add this one.",
    "help.adjudicated": "Your orders are kept for the game master ({kept}), who decides what to do with them.",
    "warning.guessing_subject": "{prefix} Wrong passwords for {gang}",
    "warning.guessing_one": (
        "The judge has just refused a message naming {gang}: its password was wrong.\n\n"
        "If none of you sent it, someone may be trying to guess your gang's password: tell the game master, "
        "who can set a new one. Your orders on file are unchanged. The judge tells you of wrong passwords once "
        "a day at most."
    ),
    "warning.guessing": (
        "The judge has just refused {n} message naming {gang}: {wrong} with a wrong password, "
        "and {held} more left unread until its next pass, since it checks at most {limit} passwords in a pass.\n\n"
        "If none of you sent it, someone is trying to guess your gang's password: tell the game master, "
        "who can set a new one. Your orders on file are unchanged. The judge tells you of wrong passwords once "
        "a day at most.",
        "The judge has just refused {n} messages naming {gang}: {wrong} with a wrong password, "
        "and {held} more left unread until its next pass, since it checks at most {limit} passwords in a pass.\n\n"
        "If none of you sent them, someone is trying to guess your gang's password: tell the game master, "
        "who can set a new one. Your orders on file are unchanged. The judge tells you of wrong passwords once "
        "a day at most.",
    ),
    "help.impersonation": (
        "If you did not send this message, someone may be sending orders in your gang's name: tell the game "
        "master. The password given is not repeated here."
    ),
    "help.json": (
        "Each problem, with where it is in your document (a JSON pointer), what is wrong and what to do:\n\n"
        "{problems}\n\nNo order was read from it; your earlier orders, if any, stand."
    ),
    "help.late": "Late orders are not used; your earlier orders, if any, stand. Ask the game master if in doubt.",
    "help.failed": "The game master has been told; your orders were not saved.",
    "help.format": (
        "Send your orders as a plain-text email (or a plain-text attachment), like this:\n\n    gang: "
        "{gang}\n    password: your gang's password\n    H LOO - NSS\n    L KEN / H HYD\n    sell 4\n\nThe "
        "last orders received before the deadline count."
    ),
    "help.format.classic": (
        "Send your orders as a plain-text email (or a plain-text attachment), like this:\n\n    power: "
        "{gang}\n    password: your power's password\n    A PAR - BUR\n    A MAR S A PAR - BUR\n    F BRE - "
        "MAO\n\nThe last orders received before the deadline count."
    ),
    "remind.default.classic": (
        "Without orders your units hold (in a retreat they are disbanded; in winter, no unit is built and "
        "the units farthest from your centres are disbanded first)."
    ),
    # -- reminders ------------------------------------------------------------------------------
    "remind.missing": "The referee has no orders from {gang} for {turn}.",
    "remind.deadline": "The deadline is {due} ({left}).",
    "remind.no_deadline": "No deadline is set yet.",
    "remind.default": "Without orders your units hold, your gang sells as many crates as it can and bids nothing.",
}

MESSAGES.update(commands.MESSAGES)  # the players' commands by mail: press, votes, status...
MESSAGES.update(absence.MESSAGES)  # the absent command (moonshine.mail.commands.absence)
MESSAGES.update(host.MESSAGES)  # the host of many games: the lobby, the start and reveal mails
MESSAGES.update(moving.MESSAGES)  # ready, wait, civil disorder, the votes on time, a turn's news of the game

# How the mail writes a date (``date.time``: its fields are ``year``, ``month``,
# ``day``, ``hour``, ``minute``, ``zone``, ``month_name`` and ``day_th``, the day as the
# language writes it: ``1er`` in French), and which form of a turn a sentence and a subject take
# (``name``: ``spring-1924``, the name the commands take; ``label``: ``Spring 1924``,
# ``printemps 1924``; ``Label``: the same with a capital, ``Printemps 1924``; ``the_turn``:
# ``le printemps 1924``).
DATES: Catalogue = {
    "date.time": "{year}-{month:02d}-{day:02d} {hour:02d}:{minute:02d} {zone}",
    "date.first_day": "1",
    "date.turn_in_sentence": "label",
    "date.turn_in_subject": "Label",
    "date.month.1": "January",
    "date.month.2": "February",
    "date.month.3": "March",
    "date.month.4": "April",
    "date.month.5": "May",
    "date.month.6": "June",
    "date.month.7": "July",
    "date.month.8": "August",
    "date.month.9": "September",
    "date.month.10": "October",
    "date.month.11": "November",
    "date.month.12": "December",
    # a deadline read at a glance (``due_text``): its day with the weekday, its time in the
    # reader's zone and in UTC, and the time left; each date and each time is held
    # together by no-break spaces
    "date.weekday.0": "Monday",
    "date.weekday.1": "Tuesday",
    "date.weekday.2": "Wednesday",
    "date.weekday.3": "Thursday",
    "date.weekday.4": "Friday",
    "date.weekday.5": "Saturday",
    "date.weekday.6": "Sunday",
    "date.day": "{weekday} {day_th} {month_name} {year}",
    "date.clock": "{hour:02d}:{minute:02d} {zone}",
    "date.when": "{day}, {clock}",
    "date.also": "{when} = {utc}",
    "date.left": "{due} (in {span})",
    "date.passed": "{due} (passed {span} ago)",
    "date.and": "{a} {b}",
}
DATE_FIELDS = ("year", "month", "day", "hour", "minute", "zone", "month_name", "day_th")
NBSP = "\u00a0"


class Phrase(msgspec.Struct, frozen=True):
    """A catalogue message not yet written in a language: its key and fields."""

    key: str
    fields: tuple[tuple[str, object], ...] = ()

    def text(self, language: str) -> str:
        return text(language, self.key, **dict(self.fields))


class Joined(msgspec.Struct, frozen=True):
    """Sentences written one after the other in one language (a list's lines)."""

    parts: tuple[Phrase | Joined, ...]
    sep: str = "\n"

    def text(self, language: str) -> str:
        return self.sep.join(p.text(language) for p in self.parts)


def phrase(key: str, /, **fields: object) -> Phrase:
    if key not in MESSAGES:
        raise KeyError(f"no message {key!r} in the mail catalogue")
    return Phrase(key, tuple(sorted(fields.items())))


def text(language: str, key: str, /, **fields: object) -> str:
    """The catalogue's text for ``key`` in ``language``, its fields written in that
    language (see ``shown``). A whole-number field ``n`` picks the singular or a
    plural form, as the language counts (its catalogue's ``Plural-Forms``)."""
    return fill(
        language,
        keyed(check_language(language), MESSAGES, key, fields.get("n")),
        **{k: (v if k == "n" else shown(language, v)) for k, v in fields.items()},
    )


def text_or_english(language: str, key: str, /, **fields: object) -> str:
    """``text`` in ``language``, or in English when the referee has no catalogue of it
    (a judge's settings may name a language it lacks)."""
    from moonshine.text.catalogue import languages

    return text(language if language in languages() else "en", key, **fields)


def shown(language: str, value: object) -> str:
    """A field as a sentence shows it: a date, a turn (``Spring 1924`` / ``le
    printemps 1924``), a classic phase (its ``in_sentence``), a number (``4,096`` /
    ``4 096``), a nested phrase, or text."""
    if isinstance(value, Phrase):
        return value.text(language)
    if isinstance(value, datetime):
        return fmt_time(value, language)
    if isinstance(value, Turn):
        return _turn(language, value.name, "date.turn_in_sentence")
    if isinstance(value, Localized):  # a classic phase: ``Autumn 1901``, ``l'automne 1901``
        within = getattr(value, "in_sentence", None)
        return str(within(language)) if callable(within) else value.text(language)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(language, value)
    return str(value)


def _turn(language: str, turn: str, form: str) -> str:
    how = keyed(check_language(language), DATES, form)
    if how in ("label", "Label"):
        return turn_label(language, turn, capital=how == "Label")
    if how == "the_turn":
        return the_turn(language, turn)
    return turn


def as_turn(name: str) -> Turn | str:
    """A turn's name as a sentence of the mail shows it: a Moonshine turn as a
    ``Turn`` (written in the reader's language, ``le printemps 1924``); else (a
    classic game's phase) as it is."""
    try:
        return Turn.parse(name)
    except ValueError:
        return name


def subject_turn(language: str, turn: str) -> str:
    """A turn in a subject line: ``Spring 1924``, ``Printemps 1924`` in French."""
    return _turn(language, turn, "date.turn_in_subject")


def sentence_turn(language: str, turn: str) -> str:
    """A turn inside a sentence of the mail: ``Spring 1924``, ``le printemps 1924`` in French."""
    return _turn(language, turn, "date.turn_in_sentence")


def fmt_time(when: datetime, language: str = "en") -> str:
    """``2024-03-01 18:00 UTC`` / ``1er mars 2024 à 18 h 00 UTC``."""
    return date_text(language, when.astimezone(UTC), "UTC")


def date_text(language: str, local: datetime, zone: str) -> str:
    """A date and time as ``language`` writes it (``date.time``), its time zone named
    ``zone``."""
    lang = check_language(language)
    return keyed(lang, DATES, "date.time").format(
        year=local.year,
        month=local.month,
        day=local.day,
        hour=local.hour,
        minute=local.minute,
        zone=zone,
        month_name=keyed(lang, DATES, f"date.month.{local.month}"),
        day_th=keyed(lang, DATES, "date.first_day") if local.day == 1 else str(local.day),
    )


def _glued(text: str) -> str:
    """``text`` (one date, or one time) that never breaks across lines: its spaces no-break."""
    return text.replace(" ", NBSP)


def _clock(language: str, local: datetime, zone: str) -> str:
    """``11:00 CST``, ``11 h 00 CST``: a time and its zone, held together."""
    return _glued(keyed(language, DATES, "date.clock").format(hour=local.hour, minute=local.minute, zone=zone))


def due_text(language: str, when: datetime, zone: ZoneInfo | None = None) -> str:
    """A deadline for people: ``Thursday 3 December 2026, 11:00 CST = 17:00 UTC``, in
    French ``jeudi 3 décembre 2026 à 11 h 00 CST = 17 h 00 UTC``; in UTC alone when
    ``zone`` is None. The weekday is given, the UTC day only when it is another; never
    broken inside a date or a time (no-break spaces)."""
    lang = check_language(language)
    local = when.astimezone(zone if zone is not None else UTC)
    when_text = _day_and_clock(lang, local, (local.tzname() or zone.key) if zone is not None else "UTC")
    if zone is None:
        return when_text
    utc = when.astimezone(UTC)
    utc_text = _clock(lang, utc, "UTC") if utc.date() == local.date() else _day_and_clock(lang, utc, "UTC")
    return keyed(lang, DATES, "date.also").format(when=when_text, utc=utc_text)


def _day_and_clock(language: str, local: datetime, zone: str) -> str:
    """``Thursday 3 December 2026, 11:00 CST``: the day and the time."""
    day = keyed(language, DATES, "date.day").format(
        weekday=keyed(language, DATES, f"date.weekday.{local.weekday()}"),
        day_th=keyed(language, DATES, "date.first_day") if local.day == 1 else str(local.day),
        month_name=keyed(language, DATES, f"date.month.{local.month}"),
        year=local.year,
    )
    return keyed(language, DATES, "date.when").format(day=_glued(day), clock=_clock(language, local, zone))


def due_and_left(language: str, when: datetime, zone: ZoneInfo | None = None, *, now: datetime | None = None) -> str:
    """``due_text`` and the time left: ``Thursday 3 December 2026, 11:00 CST = 17:00
    UTC (in 1 day 18 hours)``, ``jeudi 3 décembre 2026 à 11 h 00 CST = 17 h 00 UTC (dans
    1 jour et 18 heures)``; ``now``: when it is read (the time it is written)."""
    now = now or datetime.now(UTC)
    lang = check_language(language)
    seconds = int((when - now).total_seconds())
    key = "date.left" if seconds >= 0 else "date.passed"
    return fill(lang, keyed(lang, DATES, key), due=due_text(lang, when, zone), span=_span(abs(seconds), lang))


def deadline_line(
    language: str,
    turn: object,
    when: datetime,
    zone: ZoneInfo | None,
    *,
    now: datetime | None = None,
    sentence: bool = True,
) -> str:
    """The next deadline for one reader: ``Orders for Autumn 1924 are due Thursday 3
    December 2026, 11:00 CST = 17:00 UTC (in 1 day 18 hours).`` (``turn``: as a sentence of the
    mail shows it); with ``sentence`` false, the date alone, for a row whose label says
    what it is (a report's first rows)."""
    due = due_and_left(language, when, zone, now=now)
    return text(language, "deadline.next", turn=turn, due=due) if sentence else due


_DUE = re.compile(r"(?<!\S)\S++\u00a0\S++\u00a0\S++\u00a0\d{4}(?:,| à) \S++")  # a deadline's day and hour (due_text)


def gives_deadline(text: str, line: str) -> bool:
    """Whether ``text`` (a report) gives the deadline ``line`` gives (a sentence of
    ``deadline_line``): the same day and time, whatever time left each counted when it
    was written."""
    found = _DUE.search(line)
    return found is not None and found.group(0) in text


def describe_time_left(due: datetime | None, now: datetime, language: str = "en") -> str:
    """``2 days 3 hours left`` / ``passed 5 hours ago`` / ``no deadline set``, or in
    French ``il reste 2 jours 3 heures`` / ``dépassée depuis 5 heures``."""
    if due is None:
        return text(language, "time.none")
    seconds = int((due - now).total_seconds())
    span = _span(abs(seconds), language)
    return text(language, "time.left" if seconds >= 0 else "time.passed", span=span)


def _span(seconds: int, language: str) -> str:
    """``2 days 4 hours``, ``2 jours et 4 heures``: each count held to its noun."""
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60

    def part(key: str, n: int) -> str:
        return _glued(text(language, key, n=n))

    def both(a: str, b: str) -> str:
        return keyed(check_language(language), DATES, "date.and").format(a=a, b=b)

    if days:
        return both(part("time.days", days), part("time.hours", hours)) if hours else part("time.days", days)
    if hours:
        return both(part("time.hours", hours), part("time.minutes", minutes)) if minutes else part("time.hours", hours)
    return part("time.minutes", minutes)
