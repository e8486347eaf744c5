"""The words of the referee's mail in English and French: replies to orders sent by
email, reminders, the subjects of report mail, dates and time left. A message
catalogue like ``moonshine.i18n``'s (``MESSAGES``: key -> {language: text}), read
through ``text``, which also writes each field in the message's language: dates
(``2024-03-01 18:00 UTC`` / ``1er mars 2024 à 18 h 00 UTC``), turns (``spring-1924``
/ ``le printemps 1924``), large numbers and nested phrases.

The game master's own output (``moonshine inbox``'s lines, ``status``) stays in
English: it is rendered from the same catalogue with ``language="en"``."""

from __future__ import annotations

from datetime import UTC, datetime

from moonshine import absencetext, playertext
from moonshine.i18n import check_language, template, the_turn, turn_label
from moonshine.records import dataclass
from moonshine.turns import Turn

# key -> {language: text}; ``{name}`` fields are filled by ``text``; ``key#one`` is the
# singular, picked when the field ``n`` takes it (1 in English, 0 and 1 in French).
MESSAGES: dict[str, dict[str, str]] = {
    # -- time left -----------------------------------------------------------------------
    "time.left": {"en": "{span} left", "fr": "il reste {span}"},
    "time.passed": {"en": "passed {span} ago", "fr": "dépassée depuis {span}"},
    "time.none": {"en": "no deadline set", "fr": "aucune date limite fixée"},
    "time.days": {"en": "{n} days", "fr": "{n} jours"},
    "time.days#one": {"en": "{n} day", "fr": "{n} jour"},
    "time.hours": {"en": "{n} hours", "fr": "{n} heures"},
    "time.hours#one": {"en": "{n} hour", "fr": "{n} heure"},
    "time.minutes": {"en": "{n} minutes", "fr": "{n} minutes"},
    "time.minutes#one": {"en": "{n} minute", "fr": "{n} minute"},
    "deadline.line": {"en": "Deadline: {due} ({left}).", "fr": "Date limite : {due} ({left})."},
    "deadline.next": {
        "en": "Orders for {turn} are due by {due}.",
        "fr": "Les ordres pour {turn} sont attendus au plus tard le {due}.",
    },
    "deadline.none": {
        "en": "No deadline is set for this turn yet.",
        "fr": "Aucune date limite n'est encore fixée pour ce tour.",
    },
    # -- subjects ----------------------------------------------------------------------------
    "subject.accepted": {"en": "{prefix} {turn}: orders received", "fr": "{prefix} {turn} : ordres reçus"},
    "subject.rejected": {"en": "{prefix} {turn}: orders NOT accepted", "fr": "{prefix} {turn} : ordres NON acceptés"},
    "subject.reminder": {
        "en": "{prefix} {turn}: orders wanted from {gang}",
        "fr": "{prefix} {turn} : ordres attendus de {gang}",
    },
    "subject.report": {
        "en": "{prefix} {turn}: private report for {gang}",
        "fr": "{prefix} {turn} : rapport privé de {gang}",
    },
    "subject.bulletin": {"en": "{prefix} {turn}: bulletin", "fr": "{prefix} {turn} : bulletin public"},
    "signature": {"en": "The referee of {title}", "fr": "L'arbitre de {title}"},
    # -- replies to accepted orders ---------------------------------------------------------
    "ack.source": {"en": "mail from {sender}, {received}", "fr": "courriel de {sender}, reçu le {received}"},
    "ack.sender": {"en": "mail from {sender}", "fr": "courriel de {sender}"},
    "counts.read": {"en": "{n} order(s) read", "fr": "{n} ordres lus"},
    "counts.read#one": {"en": "{n} order(s) read", "fr": "{n} ordre lu"},
    "counts.rejected": {"en": ", {n} rejected", "fr": ", {n} lignes rejetées"},
    "counts.rejected#one": {"en": ", {n} rejected", "fr": ", {n} ligne rejetée"},
    "reply.accepted": {
        "en": "Orders for {gang}, {turn}, received {received} from {sender}: {counts}.",
        "fr": "Vos ordres pour {turn} ont été reçus le {received} ({gang}, envoyés par {sender}) : {counts}.",
    },
    "reply.replaces": {
        "en": "They replace the orders received {standing}.",
        "fr": "Ils remplacent les ordres reçus le {standing}.",
    },
    "reply.superseded": {
        "en": "These orders for {gang}, {turn}, received {received}, do NOT replace the ones received later, "
        "at {standing}, which stand. They are kept on file only.",
        "fr": "Ces ordres de {gang} pour {turn}, reçus le {received}, ne remplacent PAS ceux reçus plus tard, "
        "le {standing}, qui restent valables. Ils sont seulement conservés dans l'historique.",
    },
    "reply.open": {
        "en": "You may send new orders until then; the last ones received count.",
        "fr": "Vous pouvez envoyer de nouveaux ordres d'ici là ; les derniers reçus comptent.",
    },
    "reply.open_no_deadline": {
        "en": "You may send new orders; the last ones received count.",
        "fr": "Vous pouvez envoyer de nouveaux ordres ; les derniers reçus comptent.",
    },
    "reply.closed": {
        "en": "It has passed: no new orders are taken.",
        "fr": "Elle est passée : plus aucun nouvel ordre n'est accepté.",
    },
    # -- what the mail-reading layer left out (moonshine.intake) ------------------------------
    "note.quoted": {
        "en": "Quoted and forwarded text (lines {lines}) was ignored: only your own new text is read.",
        "fr": "Le texte cité ou transféré (lignes {lines}) a été ignoré : seul votre nouveau texte est lu.",
    },
    "note.signature": {
        "en": "Your signature (from line {line}) was not read.",
        "fr": "Votre signature (à partir de la ligne {line}) n'a pas été lue.",
    },
    "note.chatter": {
        "en": "Not orders, ignored: {lines}.",
        "fr": "Ce ne sont pas des ordres, ignoré : {lines}.",
    },
    "note.line": {"en": "line {n} '{text}'", "fr": "ligne {n} « {text} »"},
    # -- replies to refused messages ------------------------------------------------------
    "reply.rejected": {
        "en": "Your message {about}{when} was NOT accepted as orders for {turn}.",
        "fr": "Votre message {about}{when} n'a PAS été accepté comme ordres pour {turn}.",
    },
    "reply.subject": {"en": '"{subject}"', "fr": "« {subject} »"},
    "reply.no_subject": {"en": "without a subject", "fr": "sans objet"},
    "reply.received_at": {"en": ", received {received},", "fr": ", reçu le {received},"},
    "reply.reason": {"en": "Reason: {reason}.", "fr": "Motif : {reason}."},
    "reply.unchanged": {"en": "No order file was changed.", "fr": "Aucun fichier d'ordres n'a été modifié."},
    # -- why a message is refused -----------------------------------------------------------
    "reject.not_player": {
        "en": "{sender} is not a player's address in this game",
        "fr": "{sender} n'est l'adresse d'aucun joueur de cette partie",
    },
    "reject.too_big": {
        "en": "the message is {size} bytes, more than the {limit} bytes this game accepts; "
        "send the orders as plain text without pictures or attachments",
        "fr": "le message fait {size} octets, plus que les {limit} octets acceptés dans cette partie ; "
        "envoyez les ordres en texte brut, sans images ni pièces jointes",
    },
    "reject.unreadable": {"en": "unreadable message ({error})", "fr": "message illisible ({error})"},
    "reject.not_parsed": {
        "en": "the message could not be read ({error}); send the orders as plain text",
        "fr": "le message n'a pas pu être lu ({error}) ; envoyez les ordres en texte brut",
    },
    "reject.not_read": {"en": "the message could not be read", "fr": "le message n'a pas pu être lu"},
    "reject.no_sender": {
        "en": "no sender address (From:): cannot answer",
        "fr": "pas d'adresse d'expéditeur (From:) : impossible de répondre",
    },
    "reject.no_text": {
        "en": "no text found: the orders must be in the message's text or a plain-text attachment",
        "fr": "aucun texte trouvé : les ordres doivent être dans le texte du message ou dans une pièce jointe "
        "en texte brut",
    },
    "reject.no_gang_line": {
        "en": "no 'gang:' line: the orders must say whose they are",
        "fr": "aucune ligne « gang: » : les ordres doivent dire de quel gang ils sont",
    },
    "reject.unknown_gang": {
        "en": "'gang: {named}' names no gang of this game (gangs: {gangs})",
        "fr": "« gang: {named} » ne désigne aucun gang de cette partie (gangs : {gangs})",
    },
    "reject.other_gang": {
        "en": "{sender} plays {own}, not {gang}: these orders name another gang",
        "fr": "{sender} joue pour {own}, pas pour {gang} : ces ordres nomment un autre gang",
    },
    "reject.no_password_set": {
        "en": "no password is set for {gang}: ask the game master for one",
        "fr": "aucun mot de passe n'est défini pour {gang} : demandez-en un à l'arbitre",
    },
    "reject.no_password_line": {
        "en": "no 'password:' line",
        "fr": "aucune ligne « mot de passe: » (ou « password: »)",
    },
    "reject.password_damaged": {
        "en": "the stored password of {gang} is damaged: ask the game master to set it again",
        "fr": "le mot de passe enregistré pour {gang} est endommagé : demandez à l'arbitre de le redéfinir",
    },
    "reject.wrong_password": {"en": "wrong password for {gang}", "fr": "mot de passe incorrect pour {gang}"},
    "reject.other_turn": {
        "en": "these orders are for {named}, but the turn being played is {turn}",
        "fr": "ces ordres sont pour {named}, mais le tour en cours est {turn}",
    },
    "reject.earlier_turn": {
        "en": "received {received}, before the previous turn's deadline ({previous}): "
        "these orders are for an earlier turn, not {turn}",
        "fr": "reçus le {received}, avant la date limite du tour précédent ({previous}) : "
        "ces ordres sont pour un tour antérieur, pas pour {turn}",
    },
    "reject.late": {
        "en": "late: received {received}, after the deadline {due}",
        "fr": "hors délai : reçus le {received}, après la date limite du {due}",
    },
    "reject.adjudicated": {
        "en": "{turn} is already adjudicated: these orders came too late to be used",
        "fr": "{turn} est déjà arbitré : ces ordres sont arrivés trop tard pour être utilisés",
    },
    "reject.nothing_readable": {
        "en": "none of the {n} order line(s) could be read; earlier orders, if any, stand",
        "fr": "aucune des {n} lignes d'ordres n'a pu être lue ; les ordres précédents, s'il y en a, restent valables",
    },
    "reject.nothing_readable#one": {
        "en": "none of the {n} order line(s) could be read; earlier orders, if any, stand",
        "fr": "la seule ligne d'ordres n'a pas pu être lue ; les ordres précédents, s'il y en a, restent valables",
    },
    "reject.failed": {
        "en": "the message could not be processed ({error})",
        "fr": "le message n'a pas pu être traité ({error})",
    },
    # -- what to do next ---------------------------------------------------------------------
    "help.address": {
        "en": "Write from the address the game master registered for your gang, or ask them to add this one.",
        "fr": "Écrivez depuis l'adresse que l'arbitre a enregistrée pour votre gang, ou demandez-lui d'ajouter "
        "celle-ci.",
    },
    "help.adjudicated": {
        "en": "Your orders are kept for the game master ({kept}), who decides what to do with them.",
        "fr": "Vos ordres sont conservés pour l'arbitre ({kept}), qui décidera de leur sort.",
    },
    "help.impersonation": {
        "en": "This reply goes to every address of the gang. If none of you sent this message, someone may be "
        "sending orders in your gang's name: tell the game master. The password given is not repeated here.",
        "fr": "Cette réponse est envoyée à toutes les adresses du gang. Si aucun de vous n'a envoyé ce message, "
        "quelqu'un envoie peut-être des ordres au nom de votre gang : prévenez l'arbitre. Le mot de passe "
        "donné n'est pas répété ici.",
    },
    "help.late": {
        "en": "Late orders are not used; your earlier orders, if any, stand. Ask the game master if in doubt.",
        "fr": "Les ordres reçus hors délai ne sont pas utilisés ; vos ordres précédents, s'il y en a, restent "
        "valables. En cas de doute, demandez à l'arbitre.",
    },
    "help.failed": {
        "en": "The game master has been told; your orders were not saved.",
        "fr": "L'arbitre a été prévenu ; vos ordres n'ont pas été enregistrés.",
    },
    "help.format": {
        "en": "Send your orders as a plain-text email (or a plain-text attachment), like this:\n\n"
        "    gang: {gang}\n"
        "    password: your gang's password\n"
        "    H LOO - NSS\n"
        "    L KEN / H HYD\n"
        "    sell 4\n\n"
        "The last orders received before the deadline count.",
        "fr": "Envoyez vos ordres dans un courriel en texte brut (ou une pièce jointe en texte brut), comme ceci :\n\n"
        "    gang : {gang}\n"
        "    mot de passe : le mot de passe de votre gang\n"
        "    H LOO - NSS\n"
        "    L KEN / H HYD\n"
        "    vendre 4\n\n"
        "Les derniers ordres reçus avant la date limite comptent.",
    },
    "help.format.classic": {
        "en": "Send your orders as a plain-text email (or a plain-text attachment), like this:\n\n"
        "    power: {gang}\n"
        "    password: your power's password\n"
        "    A PAR - BUR\n"
        "    A MAR S A PAR - BUR\n"
        "    F BRE - MAO\n\n"
        "The last orders received before the deadline count.",
        "fr": "Envoyez vos ordres dans un courriel en texte brut (ou une pièce jointe en texte brut), comme ceci :\n\n"
        "    puissance : {gang}\n"
        "    mot de passe : le mot de passe de votre puissance\n"
        "    A PAR - BUR\n"
        "    A MAR S A PAR - BUR\n"
        "    F BRE - MAO\n\n"
        "Les derniers ordres reçus avant la date limite comptent.",
    },
    "remind.default.classic": {
        "en": "Without orders your units hold (in a retreat they are disbanded; in winter, no unit is built "
        "and the units farthest from your centres are disbanded first).",
        "fr": "Sans ordres, vos unités tiennent leur position (en retraite elles sont dissoutes ; en hiver, "
        "aucune unité n'est construite et les unités les plus éloignées de vos centres sont dissoutes d'abord).",
    },
    # -- reminders ------------------------------------------------------------------------------
    "remind.missing": {
        "en": "The referee has no orders from {gang} for {turn}.",
        "fr": "L'arbitre n'a reçu aucun ordre de {gang} pour {turn}.",
    },
    "remind.deadline": {"en": "The deadline is {due} ({left}).", "fr": "La date limite est le {due} ({left})."},
    "remind.no_deadline": {"en": "No deadline is set yet.", "fr": "Aucune date limite n'est encore fixée."},
    "remind.default": {
        "en": "Without orders your units hold, your gang sells as many crates as it can and bids nothing.",
        "fr": "Sans ordres, vos unités tiennent leur position, votre gang vend autant de caisses qu'il le peut "
        "et n'offre aucun pot-de-vin.",
    },
}

MESSAGES.update(playertext.MESSAGES)  # the players' commands by mail: press, votes, status...
MESSAGES.update(absencetext.MESSAGES)  # the absent command (moonshine.absence)

MONTHS_FR = (
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
)


@dataclass(frozen=True)
class Phrase:
    """A catalogue message not yet written in a language: its key and fields."""

    key: str
    fields: tuple[tuple[str, object], ...] = ()

    def text(self, language: str) -> str:
        return text(language, self.key, **dict(self.fields))


def phrase(key: str, /, **fields: object) -> Phrase:
    if key not in MESSAGES:
        raise KeyError(f"no message {key!r} in the mail catalogue")
    return Phrase(key, tuple(sorted(fields.items())))


def text(language: str, key: str, /, **fields: object) -> str:
    """The catalogue's text for ``key`` in ``language``, its fields written in that
    language (see ``shown``). A whole-number field ``n`` that takes the singular
    picks ``key#one`` when the catalogue has it."""
    return template(MESSAGES, language, key, fields.get("n")).format(
        **{k: (v if k == "n" else shown(language, v)) for k, v in fields.items()}
    )


def shown(language: str, value: object) -> str:
    """A field as a sentence shows it: a date, a turn (``spring-1924`` / ``le
    printemps 1924``), a number (``4,096`` / ``4 096``), a nested phrase, or text."""
    if isinstance(value, Phrase):
        return value.text(language)
    if isinstance(value, datetime):
        return fmt_time(value, language)
    if isinstance(value, Turn):
        return value.name if check_language(language) == "en" else the_turn(language, value.name)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(language, value)
    return str(value)


def number(language: str, n: int) -> str:
    """``4,096`` in English, ``4 096`` (no-break space) in French."""
    text = f"{n:,}"
    return text if check_language(language) == "en" else text.replace(",", "\u00a0")


def subject_turn(language: str, turn: str) -> str:
    """A turn in a subject line: ``spring-1924`` in English (the name the commands
    take), ``printemps 1924`` in French."""
    return turn if check_language(language) == "en" else turn_label(language, turn)


def fmt_time(when: datetime, language: str = "en") -> str:
    """``2024-03-01 18:00 UTC`` / ``1er mars 2024 à 18 h 00 UTC``."""
    utc = when.astimezone(UTC)
    if check_language(language) == "en":
        return utc.strftime("%Y-%m-%d %H:%M UTC")
    day = "1er" if utc.day == 1 else str(utc.day)
    return f"{day} {MONTHS_FR[utc.month - 1]} {utc.year} à {utc.hour} h {utc.minute:02d} UTC"


def describe_time_left(due: datetime | None, now: datetime, language: str = "en") -> str:
    """``2 days 3 hours left`` / ``passed 5 hours ago`` / ``no deadline set``, or in
    French ``il reste 2 jours 3 heures`` / ``dépassée depuis 5 heures``."""
    if due is None:
        return text(language, "time.none")
    seconds = int((due - now).total_seconds())
    span = _span(abs(seconds), language)
    return text(language, "time.left" if seconds >= 0 else "time.passed", span=span)


def _span(seconds: int, language: str) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return text(language, "time.days", n=days) + (f" {text(language, 'time.hours', n=hours)}" if hours else "")
    if hours:
        return text(language, "time.hours", n=hours) + (
            f" {text(language, 'time.minutes', n=minutes)}" if minutes else ""
        )
    return text(language, "time.minutes", n=minutes)
