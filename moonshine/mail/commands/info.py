"""The commands that answer with information: ``status``, ``history``, ``help``
and ``observe`` (``moonshine.mail.commands``). Players may use all four; observers
``status`` and ``history``; anyone ``help`` and ``observe``. Nothing they say is
private to a gang, except a gang's own vote in ``status``."""

from __future__ import annotations

import hashlib

from moonshine.game.deadlines import deadline_text
from moonshine.mail import outbox
from moonshine.mail.commands.grammar import ANYONE, OBSERVER, Answer, Command, CommandLine
from moonshine.mail.commands.press import gm_addresses, rules
from moonshine.mail.commands.request import GameRequest, words
from moonshine.mail.commands.votes import bulletin_lines, ended, open_lines, survivors
from moonshine.mail.outbox import compose
from moonshine.mail.settings import from_address
from moonshine.render import mailwords
from moonshine.render.mailwords import describe_time_left, phrase

RESULTS_FILE = "results.yaml"


def status(req: GameRequest, cmd: CommandLine) -> Answer:
    """The turn, its deadline, who has orders in (not what they are), the press
    rules and the open proposals."""
    game = req.game
    lang = req.language
    sides = game.sides()
    has = [g for g in sides if (game.orders_dir(req.turn) / f"{g}.txt").is_file()]
    alive = survivors(game, req.st)
    waiting = [g for g in alive if g not in has]
    lines = [
        mailwords.text(lang, "status.turn", turn=mailwords.subject_turn(lang, req.turn)),
        mailwords.text(
            lang,
            "deadline.line",
            due=deadline_text(game.config, req.gang, req.due, lang),
            left=describe_time_left(req.due, req.now, lang),
        )
        if req.due is not None
        else mailwords.text(lang, "deadline.paused" if req.paused else "deadline.none"),
        mailwords.text(
            lang, "status.in", gangs=", ".join(sides[g] for g in has) or mailwords.text(lang, "status.nobody")
        ),
        mailwords.text(
            lang, "status.waiting", gangs=", ".join(sides[g] for g in waiting) or mailwords.text(lang, "status.nobody")
        ),
        mailwords.text(lang, "status.press." + rules(game.config).kind),
        *_moving(req),
    ]
    over = ended(game)
    if over is not None:
        lines.append(bulletin_lines(game, req.now, lang)[0])
    lines.extend(open_lines(game, req.gang, req.now, lang))
    return Answer(cmd, True, phrase("status.done"), "\n".join(lines))


def _moving(req: GameRequest) -> list[str]:
    """What keeps the game moving: when the turn runs, who is ready (never what they
    ordered), the sides in civil disorder, a pause the players voted."""
    from moonshine.mail import disorder
    from moonshine.mail.commands.ready import ready_sides
    from moonshine.mail.commands.timevotes import current_pause
    from moonshine.mail.policy import EARLY_NO, policy_of

    game, lang = req.game, req.language
    names = game.sides(lang)
    policy = policy_of(game)
    lines = [mailwords.text(lang, f"status.early.{policy.early}")]
    if policy.early != EARLY_NO:
        done, _ = ready_sides(game, req.turn, policy)
        shown = ", ".join(names[s] for s in done) or mailwords.text(lang, "status.nobody")
        lines.append(mailwords.text(lang, "status.ready", gangs=shown))
    away = sorted(disorder.in_disorder(game, req.turn), key=list(names).index)
    if away:
        lines.append(mailwords.text(lang, "status.disorder", gangs=", ".join(names[s] for s in away)))
    pause = current_pause(game, req.now)
    if pause is not None:
        lines.append(mailwords.text(lang, "status.paused", until=pause.until()))
    return lines


def _adjudicated(req: GameRequest) -> list[str]:
    game = req.game
    return [t for t in game.turns() if (game.turn_dir(t) / RESULTS_FILE).is_file()]


def _typed(label: str) -> str:
    """A turn's label as a player types it after the command: ``printemps 1924`` is ``printemps-1924``."""
    return "-".join(label.lower().split())


def history(req: GameRequest, cmd: CommandLine) -> Answer:
    """The turns played; ``history TURN``: that turn's public bulletin."""
    game = req.game
    lang = req.language
    played = _adjudicated(req)
    asked = words(cmd.args)
    if not asked:
        if not played:
            return Answer(cmd, True, phrase("history.none"))
        listed = ", ".join(mailwords.subject_turn(lang, t) for t in played)
        return Answer(cmd, True, phrase("history.turns", turns=listed), mailwords.text(lang, "history.how"))
    wanted = "-".join(asked).lower()
    found = next((t for t in played if wanted in (t.lower(), _typed(mailwords.subject_turn(lang, t)))), None)
    if found is None:
        shown = ", ".join(mailwords.subject_turn(lang, t) for t in played) or mailwords.text(lang, "status.nobody")
        return Answer(cmd, False, phrase("history.unknown", turn=" ".join(asked)[:40], turns=shown))
    bulletin = game.turn_dir(found) / "reports" / "bulletin.txt"
    if not bulletin.is_file():
        return Answer(cmd, False, phrase("history.no_bulletin", turn=mailwords.subject_turn(lang, found)))
    return Answer(
        cmd, True, phrase("history.bulletin", turn=mailwords.subject_turn(lang, found)), bulletin.read_text("utf-8")
    )


def help_text(req: GameRequest, cmd: CommandLine) -> Answer:
    """Every command, with its keyword in the game's language."""
    lang = req.language
    listed = req.grammar.commands if req.grammar is not None else ()
    lines = [mailwords.text(lang, c.help, keyword=c.shown(lang)) for c in listed if c.help]
    return Answer(cmd, True, phrase("help.done"), "\n".join(lines) + "\n" + mailwords.text(lang, "help.more"))


def observe(req: GameRequest, cmd: CommandLine) -> Answer:
    """A request to follow the game: passed to the game master, who lists
    observers in game.yaml."""
    cfg = req.game.config
    if req.observer:
        return Answer(cmd, True, phrase("observe.already"))
    if req.gang is not None or any(req.sender in {a.lower() for a in p.email} for p in cfg.players.values()):
        return Answer(cmd, False, phrase("observe.player"))
    referee = from_address(cfg)
    to, bcc = compose.unseen(referee, gm_addresses(cfg))
    msg = compose.text_message(
        sender=referee,
        to=to,
        bcc=bcc,
        subject=f"{compose.subject_prefix(cfg)} {req.sender} asks to observe the game",
        body=f"{req.sender} asks to observe the game. To let them, add the address to 'observers:' in game.yaml.\n",
        msg_id=compose.message_id(cfg, req.turn, "observe", req.message_id),
        date=req.now,
        reply_to=referee,
    )
    name = f"observe-{hashlib.sha256(req.message_id.encode()).hexdigest()[:12]}.eml"
    item = outbox.Outgoing(name, msg)
    outbox.write_outbox(req.game, req.turn, [item])
    req.outgoing.append(item)
    return Answer(cmd, True, phrase("observe.asked"))


STATUS = Command(
    "status", {"en": ("status",), "fr": ("état",)}, status, who=OBSERVER, help="help.cmd.status", after_orders=True
)
HISTORY = Command(
    "history", {"en": ("history",), "fr": ("historique",)}, history, who=OBSERVER, help="help.cmd.history"
)
HELP = Command("help", {"en": ("help",), "fr": ("aide",)}, help_text, who=ANYONE, help="help.cmd.help")
OBSERVE = Command("observe", {"en": ("observe",), "fr": ("observer",)}, observe, who=ANYONE, help="help.cmd.observe")
