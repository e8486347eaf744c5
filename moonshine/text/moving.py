"""The words of a game that keeps moving, in English (the gettext catalogue translates
them): ``ready`` and ``wait`` (``moonshine.mail.commands.ready``), the missed-turn policy and
civil disorder (``moonshine.mail.disorder``), the players' votes on time (``pause``,
``resume``, ``extend``: ``moonshine.mail.commands.timevotes``), and what the judge
tells a turn's bulletin of the game itself (``news.*``: ``moonshine.game.news``).
``moonshine.render.mailwords.MESSAGES`` takes them in."""

from __future__ import annotations

from moonshine.text.catalogue import Catalogue

MESSAGES: Catalogue = {
    # -- ready and wait ---------------------------------------------------------------------------
    "help.cmd.ready": "{keyword}: the orders on file are your last for this turn; it runs once every player is ready",
    "help.cmd.wait": "{keyword}: you are not ready (any more): the turn waits for its deadline",
    "ready.done": "you are ready. Ready: {ready}. Not yet: {waiting}.",
    "ready.done_all": "you are ready, and so is every player: the turn runs at the judge's next pass.",
    "ready.no_orders": "you have no orders on file for this turn: send them, with 'ready' if they are your last.",
    "ready.orders_refused": "your orders in this message were not taken, so you are not marked ready.",
    "ready.early_no": "this game runs every turn at its deadline (early: no): 'ready' changes nothing.",
    "ready.alone": "write '{keyword}' alone on its line.",
    "wait.done": "you are not ready: the turn waits for its deadline, or for your 'ready'.",
    "wait.done_always": (
        "you are not ready: the turn waits for its deadline, or for your 'ready', though every player's orders are in."
    ),
    "reply.ready_reset": "Your earlier 'ready' no longer stands: send 'ready' once these are your last orders.",
    "status.ready": "Ready: {gangs}.",
    "status.early.ready": "The turn runs early once every player has sent 'ready'.",
    "status.early.always": "The turn runs as soon as every player's orders are in, unless one sends 'wait'.",
    "status.early.no": "The turn runs at its deadline.",
    "status.disorder": "In civil disorder (R26): {gangs}.",
    "status.paused": "Paused by the players until {until} at the latest; any player's 'resume' ends the pause.",
    # -- civil disorder ------------------------------------------------------------------------------
    "reply.disorder_ended": "{gang} was in civil disorder: these orders end it.",
    "disorder.subject": "{prefix} {turn}: {gang} is in civil disorder",
    "disorder.body": (
        (
            "{gang} has sent no orders for {n} turn: it is in civil disorder (R26). Until it sends orders, "
            "its orders are written at each deadline by the civil-disorder player, {player}, which keeps its "
            "units and never attacks, and anyone may take it over. Your next orders end the civil disorder."
        ),
        (
            "{gang} has sent no orders for {n} turns: it is in civil disorder (R26). Until it sends orders, "
            "its orders are written at each deadline by the civil-disorder player, {player}, which keeps its "
            "units and never attacks, and anyone may take it over. Your next orders end the civil disorder."
        ),
    ),
    "disorder.removal": (
        "After {n} turn without orders you would no longer lead it.",
        "After {n} turns without orders you would no longer lead it.",
    ),
    "removed.subject": "{prefix} {turn}: you no longer lead {gang}",
    "removed.body": (
        (
            "{gang} has sent no orders for {n} turn: under the game's rules you no longer lead it. It stays in "
            "civil disorder until someone takes it over. Thank you for playing."
        ),
        (
            "{gang} has sent no orders for {n} turns: under the game's rules you no longer lead it. It stays in "
            "civil disorder until someone takes it over. Thank you for playing."
        ),
    ),
    # -- the players' votes on time -----------------------------------------------------------------
    "help.cmd.pause": "{keyword}: propose, or vote for, a pause of the game (every player must agree)",
    "help.cmd.resume": "{keyword}: end the players' pause",
    "help.cmd.extend": (
        "{keyword} 12: propose, or vote for, this turn's deadline 12 hours later (a majority; 24 at most, once a turn)"
    ),
    "vote.pause": "proposal {n}: a pause of the game, for {span} at most",
    "vote.extension": (
        "proposal {number}: this turn's deadline {n} hour later",
        "proposal {number}: this turn's deadline {n} hours later",
    ),
    "vote.time_opened": (
        "{what} is open until {deadline}; your vote is yes. The other players are asked to vote 'vote yes {n}' or "
        "'vote no {n}'."
    ),
    "vote.time_deciding": (
        "your vote on proposal {n} is yes, the last one it needed: it has passed (every player is told)."
    ),
    "vote.pause_already": "the game is paused already: any player's 'resume' ends the pause.",
    "vote.no_deadline": "this turn has no deadline to move or to stop.",
    "vote.extend_how": "write 'extend HOURS', from 1 to {most} hours.",
    "vote.extend_once": "this turn's deadline was moved once already by the players' vote: once a turn at most.",
    "vote.other_open": "proposal {n} is open: vote on it ('vote yes {n}' or 'vote no {n}').",
    "vote.not_time_voter": "only the players of sides not in civil disorder vote on the game's time.",
    "vote.notice_time": (
        "A vote is open: {what}. Votes are secret. Send 'vote yes {n}' or 'vote no {n}' with your side's line "
        "and password before {deadline}."
    ),
    "vote.passed_pause": (
        "Passed: {what}, by every player's vote on {when}. The game is paused until {until} at the latest; any "
        "player's 'resume' ends the pause sooner."
    ),
    "vote.passed_extension": "Passed: {what}, by a majority of the players on {when}. The deadline is now {due}.",
    "resume.done": "the players' pause is over: the deadline is set again, as far off as it was at the pause.",
    "resume.not_paused": "the players have not paused the game.",
    "resumed.subject": "{prefix} The game resumes",
    "resumed.body": "The players' pause is over ({when}). {due}",
    # -- what the judge tells a turn's bulletin of the game itself (moonshine.game.news) -------------
    "news.early": "Every player was ready: the turn ran early, on {when}.",
    "news.disorder": (
        "{side} has sent no orders for {n} turn: it is in civil disorder (R26). Until it sends orders, the "
        "civil-disorder player writes them, and anyone may take it over.",
        "{side} has sent no orders for {n} turns: it is in civil disorder (R26). Until it sends orders, the "
        "civil-disorder player writes them, and anyone may take it over.",
    ),
    "news.removed": (
        "{side}'s player has sent no orders for {n} turn and no longer leads it; it stays in civil disorder "
        "until someone takes it over.",
        "{side}'s player has sent no orders for {n} turns and no longer leads it; it stays in civil disorder "
        "until someone takes it over.",
    ),
    "news.back": "{side}'s player sent orders: its civil disorder is over.",
    "news.taken": "{side} has a new player: its civil disorder is over.",
    "news.pause": "The players voted a pause on {since}.",
    "news.pause_ended": "The players voted a pause on {since}; the game resumed on {until}.",
    "news.extension": (
        "The players voted to move the deadline {n} hour later.",
        "The players voted to move the deadline {n} hours later.",
    ),
    "news.master_pause": "A game master paused the game on {when}.",
    "news.master_resume": "A game master resumed the game on {when}.",
    "news.master_pause_ended": "A game master's pause reached the game's limit and ended on {when}.",
    "news.master_extend": (
        "A game master moved the deadline {n} hour later, to {due}.",
        "A game master moved the deadline {n} hours later, to {due}.",
    ),
}
